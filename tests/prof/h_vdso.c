/*
 * h_vdso.c -- a profiled program that spends its time in the vDSO, the
 * kernel's page of code mapped into every process, by reading the
 * monotonic clock (which the vDSO answers without a system call) for
 * about 0.2 s.
 */
#include <err.h>
#include <time.h>

static double
now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		err(1, "clock_gettime");
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(void)
{
	double t0 = now();

	while (now() - t0 < 0.2)
		;
	return 0;
}
