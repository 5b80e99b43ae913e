/*
 * h_kframes.c -- a profiled program that makes many system calls from
 * one function and none from another, and says how much of each one's
 * time was the kernel's.
 *
 * usage: h_kframes [seconds]
 *
 * sys_heavy() writes one byte to /dev/null over and over (its time is
 * mostly the kernel's: the system call's entry and exit), user_heavy()
 * spins in its own body; each runs until its thread's CPU clock has
 * advanced by seconds (default 0.4).  For each, stdout gets
 *
 *	name cpu SECONDS sys SECONDS
 *
 * its CPU time on the thread's CPU clock and its system time by
 * getrusage(RUSAGE_THREAD), both measured around it: the truth prof's
 * report is held to, apart from anything libmon records.
 */
#define _GNU_SOURCE	/* RUSAGE_THREAD */
#include <sys/resource.h>

#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "h_burn.h"

#define WRITES	256	/* between two looks at the clock */

static double
thread_sys(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		err(1, "getrusage");
	return (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void
sys_heavy(double secs)
{
	static const char c = 'x';
	double t0 = thread_cpu();
	int fd, i;

	if ((fd = open("/dev/null", O_WRONLY)) < 0)
		err(1, "/dev/null");
	do
		for (i = 0; i < WRITES; i++)
			if (write(fd, &c, 1) != 1)
				err(1, "write");
	while (thread_cpu() - t0 < secs);
	(void)close(fd);
}

static void
user_heavy(double secs)
{
	double t0 = thread_cpu();

	do
		BURN(100000);
	while (thread_cpu() - t0 < secs);
}

/* Run part, and print its CPU and system seconds. */
static void
measure(const char *name, void (*part)(double), double secs)
{
	double c0, s0;

	c0 = thread_cpu();
	s0 = thread_sys();
	part(secs);
	printf("%s cpu %.6f sys %.6f\n", name, thread_cpu() - c0,
	    thread_sys() - s0);
}

int
main(int argc, char *argv[])
{
	double secs = argc > 1 ? strtod(argv[1], NULL) : 0.4;

	measure("sys_heavy", sys_heavy, secs);
	measure("user_heavy", user_heavy, secs);
	return fflush(stdout) != 0;
}
