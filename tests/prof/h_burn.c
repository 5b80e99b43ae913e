/*
 * h_burn.c -- a profiled program whose time splits 50/30/20 between
 * three functions with exactly known call counts, for prof's end-to-end
 * tests.
 *
 * usage: h_burn [units [rounds [only | truth [mixed]]]]
 *
 * In each of rounds rounds (default 100), burn50(), burn30() and burn20()
 * are called 5, 3 and 2 times, and every call burns the same units of
 * CPU (default 600000, about a millisecond) in its own body: the call
 * counts are 5, 3 and 2 times rounds, the time splits 50/30/20.  With
 * only (50, 30 or 20), that function alone is called, as many times,
 * so that two runs may spend their time in different functions.
 *
 * Every call is timed on the thread's CPU clock, which no profiler
 * touches: with a file named truth, the seconds each function took are
 * written there, "burn50 0.401234" a line, the truth prof's Seconds
 * column is held to.
 *
 * With mixed after the truth file, each round makes its ten calls in an
 * order drawn afresh (a fixed seed: the same every run).  A round in a
 * fixed order repeats every ten milliseconds or so, and a clock that
 * samples only at the kernel's tick (the timer clocks, every 4 ms at
 * HZ=250) can fall in step with it and see burn50 at the same few
 * points of every round: 60% where it has 50.  In a mixed order each
 * sample lands on a function with the odds of its share of the time.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "h_burn.h"

static unsigned long units = 600000;
static double spent[3];		/* CPU seconds in burn50, burn30, burn20 */
static unsigned long seed = 12345;

void
burn50(void)
{
	BURN(units);
}

void
burn30(void)
{
	BURN(units);
}

void
burn20(void)
{
	BURN(units);
}

static void
write_truth(const char *path)
{
	FILE *f;

	if ((f = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	fprintf(f, "burn50 %.6f\nburn30 %.6f\nburn20 %.6f\n", spent[0],
	    spent[1], spent[2]);
	if (fclose(f) != 0)
		err(1, "%s", path);
}

/* One round's ten calls in a random order; k is 0, 1 or 2 for each. */
static void
mixed_round(void)
{
	int order[10] = { 0, 0, 0, 0, 0, 1, 1, 1, 2, 2 };
	int i, j, t;

	for (i = 9; i > 0; i--) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		j = (int)((seed >> 33) % (unsigned long)(i + 1));
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < 10; i++) {
		if (order[i] == 0)
			TIMED(burn50(), spent[0]);
		else if (order[i] == 1)
			TIMED(burn30(), spent[1]);
		else
			TIMED(burn20(), spent[2]);
	}
}

int
main(int argc, char *argv[])
{
	long round, rounds = 100, only = 0;
	const char *truth = NULL;
	int i, mixed = 0;

	if (argc > 1)
		units = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		rounds = strtol(argv[2], NULL, 0);
	if (argc > 3 && argv[3][0] >= '0' && argv[3][0] <= '9')
		only = strtol(argv[3], NULL, 0);
	else if (argc > 3)
		truth = argv[3];
	if (argc > 4 && strcmp(argv[4], "mixed") == 0)
		mixed = 1;
	else if (argc > 4)
		errx(2, "usage: h_burn [units [rounds [only | truth [mixed]]]]");
	for (round = 0; round < rounds; round++) {
		if (mixed) {
			mixed_round();
			continue;
		}
		for (i = 0; i < 5 && (only == 0 || only == 50); i++)
			TIMED(burn50(), spent[0]);
		for (i = 0; i < 3 && (only == 0 || only == 30); i++)
			TIMED(burn30(), spent[1]);
		for (i = 0; i < 2 && (only == 0 || only == 20); i++)
			TIMED(burn20(), spent[2]);
	}
	if (truth != NULL)
		write_truth(truth);
	return 0;
}
