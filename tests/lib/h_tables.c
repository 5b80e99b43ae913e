/*
 * h_tables.c -- a cc -p program that gives libmon's address tables more
 * distinct addresses than their first sizes hold, through the entry
 * points the clocks and mcount use, so that a case can count what the
 * profile kept without waiting for that many real samples.
 *
 * usage: h_tables outside N	N samples, each at an address of its own
 *				outside the histogram (FAR + 2i)
 *	  h_tables calls N	N calls, each to and from an address of its own
 *				outside the text (FAR + 16i)
 *	  h_tables rounds N	the same N calls three times over, so that
 *				the table grows under arcs already counted
 *
 * The addresses are mapped by nobody; the profile is written at exit.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon_private.h"

#define FAR	((uintptr_t)0x300000000000)

int
main(int argc, char *argv[])
{
	unsigned long i, n, r;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: h_tables outside|calls|rounds N\n");
		return 2;
	}
	if (strcmp(argv[1], "outside") == 0)
		for (i = 0; i < n; i++)
			_mon_sample(FAR + 2 * i, 1);
	else if (strcmp(argv[1], "calls") == 0)
		for (i = 0; i < n; i++)
			_mon_count(FAR + 16 * i, FAR + 16 * i + 5, 0);
	else if (strcmp(argv[1], "rounds") == 0)
		for (r = 0; r < 3; r++)
			for (i = 0; i < n; i++)
				_mon_count(FAR + 16 * i, FAR + 16 * i + 5, 0);
	else {
		fprintf(stderr, "h_tables: %s: no such mode\n", argv[1]);
		return 2;
	}
	return 0;
}
