/*
 * solib_main.c -- h_solib: a profiled program that spends about three
 * quarters of its time in a shared library (h_solib.so, also built with
 * -p), and says how much it really spent there.
 *
 * usage: h_solib [units [thread]]
 *
 * 100 rounds of lib_burn() 3 times and main_burn() once: calls 300 and
 * 100 exactly.  Each call burns a pseudo-random size, 1/8 to 15/8 of
 * units (default 1200000, about 2 ms), so that the split is near 75/25
 * but no call pattern repeats: with calls of one size in a fixed
 * rotation, the 4 ms tick of a CPU-time timer falls on the same few
 * phases of the rotation every time, and the shares it samples are off
 * by as much as 15 points whatever the run's length.
 *
 * Each call is timed on the thread's CPU clock, which no profiler
 * touches, and the split it measured is printed, "lib 74.8 main 25.2"
 * in percent of the two, the truth prof's report is held to.
 *
 * With "thread", main_burn()'s 100 calls run on the main thread while
 * a thread of the library's own, lib_thread(), burns 300 times units:
 * "thread 74.9 main 25.1", the split of the two threads' CPU clocks.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "h_burn.h"

void	lib_burn(unsigned long);
void	*lib_thread(void *);
void	main_burn(unsigned long);

extern double lib_thread_cpu;

static double spent[2];		/* CPU seconds in lib_burn, main_burn */

void
main_burn(unsigned long units)
{
	BURN(units);
}

/*
 * The size of the next call, stepping an LCG of its own (Knuth's MMIX
 * constants), whose top bits are well mixed; a fixed seed keeps the
 * program's work the same from run to run.  A macro, as TIMED is, so
 * that it adds no counted function.
 */
#define NEXT_SIZE(x, units)						\
	((x) = (x) * 6364136223846793005ULL + 1442695040888963407ULL,	\
	(units) / 8 * (1 + (unsigned long)((x) >> 33) % 15))

/* The library's thread beside main_burn()'s calls on main's. */
static int
threaded(unsigned long units)
{
	pthread_t t;
	unsigned long long x = 1;
	int round;

	if (pthread_create(&t, NULL, lib_thread,
	    (void *)(uintptr_t)(300 * units)) != 0)
		return 1;
	for (round = 0; round < 100; round++)
		TIMED(main_burn(NEXT_SIZE(x, units)), spent[1]);
	if (pthread_join(t, NULL) != 0)
		return 1;
	printf("thread %.1f main %.1f\n", 100 * lib_thread_cpu /
	    (lib_thread_cpu + spent[1]), 100 * spent[1] / (lib_thread_cpu +
	    spent[1]));
	return 0;
}

int
main(int argc, char *argv[])
{
	unsigned long long x = 1;
	unsigned long units = 1200000, n;
	double all;
	int round, i;

	if (argc > 1)
		units = strtoul(argv[1], NULL, 0);
	if (argc > 2 && strcmp(argv[2], "thread") == 0)
		return threaded(units);
	for (round = 0; round < 100; round++) {
		for (i = 0; i < 3; i++) {
			n = NEXT_SIZE(x, units);
			TIMED(lib_burn(n), spent[0]);
		}
		n = NEXT_SIZE(x, units);
		TIMED(main_burn(n), spent[1]);
	}
	all = spent[0] + spent[1];
	printf("lib %.1f main %.1f\n", 100 * spent[0] / all,
	    100 * spent[1] / all);
	return 0;
}
