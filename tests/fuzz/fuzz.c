/*
 * fuzz.c -- inputs as files, and the seeds' paths, for the harnesses.
 */
#define _GNU_SOURCE	/* memfd_create */
#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"

const char *
fuzz_file(const uint8_t *data, size_t size)
{
	static char path[32];
	static int fd = -1;
	size_t off;
	ssize_t n;

	if (fd < 0) {
		if ((fd = memfd_create("fuzz", 0)) < 0)
			abort();
		(void)snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0)
		abort();
	for (off = 0; off < size; off += (size_t)n)
		if ((n = pwrite(fd, data + off, size - off, (off_t)off)) <= 0)
			abort();
	return path;
}

const char *
fuzz_seed(const char *dir, const char *name)
{
	static char path[2][1024];
	static int next;
	char *s = path[next++ % 2];

	(void)snprintf(s, sizeof(path[0]), "%s/seeds/%s/%s", FUZZ_DIR, dir,
	    name);
	return s;
}
