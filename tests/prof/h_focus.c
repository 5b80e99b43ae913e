/*
 * h_focus.c -- a profiled program for prof -f and -d: two callers
 * share a callee, and each has a leaf of its own, every part timed.
 *
 * usage: h_focus [units [rounds [slow [truth]]]]
 *
 * In each of rounds rounds (default 100), via_a() calls work() twice
 * and leaf_a() once, then via_b() calls work() twice and leaf_b() slow
 * times (default 1); every call burns units (default 600000, about a
 * millisecond) in its own body.  So work() spends half its time under
 * each caller, and two runs that differ in slow differ in leaf_b()
 * alone, by a known number of calls.
 *
 * Each call is timed on the thread's CPU clock, which no profiler
 * touches; with a file named truth, the seconds of each part are
 * written there, a line each: "work@via_a 0.201234", "leaf_a ...",
 * "work@via_b ...", "leaf_b ...".
 *
 * Built with -DOTHER_BUILD (h_focus_other), a function more comes
 * first: the same program at other addresses, another build-id.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "h_burn.h"

static unsigned long units = 600000;
static double spent[4];		/* work@via_a, leaf_a, work@via_b, leaf_b */

#ifdef OTHER_BUILD
/* Another build: a function more moves the others, for prof -d. */
void
padding(void)
{
	BURN(units);
	BURN(units);
}
#endif

void
work(void)
{
	BURN(units);
}

void
leaf_a(void)
{
	BURN(units);
}

void
leaf_b(void)
{
	BURN(units);
}

void
via_a(void)
{
	TIMED(work(), spent[0]);
	TIMED(work(), spent[0]);
	TIMED(leaf_a(), spent[1]);
}

void
via_b(long slow)
{
	long i;

	TIMED(work(), spent[2]);
	TIMED(work(), spent[2]);
	for (i = 0; i < slow; i++)
		TIMED(leaf_b(), spent[3]);
}

static void
write_truth(const char *path)
{
	FILE *f;

	if ((f = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	fprintf(f, "work@via_a %.6f\nleaf_a %.6f\nwork@via_b %.6f\n"
	    "leaf_b %.6f\n", spent[0], spent[1], spent[2], spent[3]);
	if (fclose(f) != 0)
		err(1, "%s", path);
}

int
main(int argc, char *argv[])
{
	long round, rounds = 100, slow = 1;

	if (argc > 1)
		units = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		rounds = strtol(argv[2], NULL, 0);
	if (argc > 3)
		slow = strtol(argv[3], NULL, 0);
	for (round = 0; round < rounds; round++) {
		via_a();
		via_b(slow);
	}
	if (argc > 4)
		write_truth(argv[4]);
	return 0;
}
