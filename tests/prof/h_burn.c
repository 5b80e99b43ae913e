/*
 * h_burn.c -- a profiled program whose time splits 50/30/20 between
 * three functions with exactly known call counts, for prof's end-to-end
 * tests.
 *
 * usage: h_burn [units [rounds [only]]]
 *
 * In each of rounds rounds (default 100), burn50(), burn30() and burn20()
 * are called 5, 3 and 2 times, and every call burns the same units of
 * CPU (default 600000, about a millisecond) in its own body: the call
 * counts are 5, 3 and 2 times rounds, the time splits 50/30/20.  With
 * only (50, 30 or 20), that function alone is called, as many times,
 * so that two runs may spend their time in different functions.
 */
#include <stdlib.h>

#include "h_burn.h"

static unsigned long units = 600000;

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

int
main(int argc, char *argv[])
{
	long round, rounds = 100, only = 0;
	int i;

	if (argc > 1)
		units = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		rounds = strtol(argv[2], NULL, 0);
	if (argc > 3)
		only = strtol(argv[3], NULL, 0);
	for (round = 0; round < rounds; round++) {
		for (i = 0; i < 5 && (only == 0 || only == 50); i++)
			burn50();
		for (i = 0; i < 3 && (only == 0 || only == 30); i++)
			burn30();
		for (i = 0; i < 2 && (only == 0 || only == 20); i++)
			burn20();
	}
	return 0;
}
