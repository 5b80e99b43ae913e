/*
 * h_sysburn.c -- a profiled program that spends about as long in system
 * calls as in user code, and says how long each part took.
 *
 * usage: h_sysburn [seconds]
 *
 * sys_part() reads /dev/zero in 1 MiB buffers, which the kernel fills
 * (system time), and user_part() spins in its own body (user time),
 * each until its thread's CPU clock has advanced by seconds (default
 * 0.3).  Each part's CPU time, measured on the thread's own CPU clock
 * around it, is printed on stdout as "name seconds": the truth prof's
 * report is held to, measured apart from anything libmon records.
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "h_burn.h"

#define BUFSIZE	(1 << 20)

static double
sys_part(double secs)
{
	static char buf[BUFSIZE];
	double t0 = thread_cpu(), t;
	int fd;

	if ((fd = open("/dev/zero", O_RDONLY)) < 0)
		err(1, "/dev/zero");
	do {
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			err(1, "read");
	} while ((t = thread_cpu()) - t0 < secs);
	(void)close(fd);
	return t - t0;
}

static double
user_part(double secs)
{
	double t0 = thread_cpu(), t;

	do
		BURN(100000);
	while ((t = thread_cpu()) - t0 < secs);
	return t - t0;
}

int
main(int argc, char *argv[])
{
	double secs = argc > 1 ? strtod(argv[1], NULL) : 0.3;
	double s, u;

	s = sys_part(secs);
	u = user_part(secs);
	printf("sys_part %.6f\nuser_part %.6f\n", s, u);
	return fflush(stdout) != 0;
}
