/*
 * h_threads.c -- a profiled program whose threads' routine is called
 * by libmon's thread start, not by the program: mcount counts those
 * calls on an arc from libmon's code, which prof leaves out of every
 * view, as it leaves libmon's frames out of the stacks.
 *
 * usage: h_threads [threads [n]]
 *
 * Each thread runs routine() once, which calls spin(n) ten times.
 */
#include <pthread.h>
#include <stdlib.h>

volatile double sink;

static void
spin(long n)
{
	double s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += (double)i * 0.5;
	sink = s;
}

static void *
routine(void *arg)
{
	int k;

	for (k = 0; k < 10; k++)
		spin(*(long *)arg);
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t[16];
	long n;
	int i, nt;

	nt = argc > 1 ? atoi(argv[1]) : 3;
	n = argc > 2 ? atol(argv[2]) : 2000000;
	if (nt < 1 || nt > 16)
		return 2;
	for (i = 0; i < nt; i++)
		if (pthread_create(&t[i], NULL, routine, &n) != 0)
			return 1;
	for (i = 0; i < nt; i++)
		pthread_join(t[i], NULL);
	return 0;
}
