/*
 * h_jitev.c -- the profilers' JIT event at its edges: each case names
 * code through mon_perfmap_write() or mon_perfmap_copy() with a handle
 * listening, and says on stdout what the handle heard, "heard N", and
 * what the calls returned.
 *
 * usage: h_jitev inner | copy FILE | failed
 *
 *	inner	the callback names code itself (a stub for each name it
 *		hears): it hears the program's three names, not its own
 *	copy	a map of two lines copied: two names heard
 *	failed	the map is a symbolic link, which is refused: the write
 *		returns -1, but the name is kept for the profile and heard
 */
#include <errno.h>
#include <mon.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int heard, inner;

static void
named(void *data, const void *addr, size_t size, const char *name)
{
	(void)data;
	(void)size;
	heard++;
	if (inner && strncmp(name, "stub_", 5) != 0) {
		char stub[64];

		(void)snprintf(stub, sizeof(stub), "stub_%s", name);
		(void)mon_perfmap_write((const char *)addr + 0x1000, 16, stub);
	}
}

int
main(int argc, char **argv)
{
	static char code[0x4000];
	char path[64];
	mon_profiler_t h;
	int r;

	if (argc < 2 || (h = mon_profiler_create("jitev", NULL)) == NULL)
		return 2;
	mon_profiler_set_jit(h, named);
	if (strcmp(argv[1], "inner") == 0) {
		inner = 1;
		r = mon_perfmap_write(code, 64, "one") |
		    mon_perfmap_write(code + 64, 64, "two") |
		    mon_perfmap_write(code + 128, 64, "three");
		printf("returned %d\nheard %d\n", r, heard);
	} else if (strcmp(argv[1], "copy") == 0 && argc == 3) {
		r = mon_perfmap_copy(argv[2]);
		printf("returned %d\nheard %d\n", r, heard);
	} else if (strcmp(argv[1], "failed") == 0) {
		(void)snprintf(path, sizeof(path), "/tmp/perf-%ld.map",
		    (long)getpid());
		(void)unlink(path);
		if (symlink("/dev/null", path) != 0)
			return 2;
		r = mon_perfmap_write(code, 64, "kept");
		printf("returned %d %s\nheard %d\n", r, r != 0 ?
		    strerror(errno) : "", heard);
		(void)unlink(path);
	} else
		return 2;
	mon_perfmap_fini();
	(void)snprintf(path, sizeof(path), "/tmp/perf-%ld.map",
	    (long)getpid());
	(void)unlink(path);
	return 0;
}
