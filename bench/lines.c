/*
 * lines.c -- where the time goes, by source line: three loops on three
 * lines of one function (row 30).
 *
 *	lines [units]
 *
 * main() runs three loops in turn, 40 rounds, for 5, 3 and 2 tenths of
 * the iterations, units (default 400000000) being those of all rounds.
 * Each loop is written on one line of its own, which notes its own
 * number with __LINE__, so the lines a report should charge are known
 * by construction, without asking the line table.  Each loop is timed
 * on the thread's CPU clock, and the lines with their measured seconds
 * are printed as the truth a report by line is held to:
 *
 *	truth bench/lines.c:50 0.497991 bench/lines.c:52 0.299087
 *	    bench/lines.c:54 0.199802 cpu 0.997 checksum be23a121f669d6af
 *
 * on one line.
 *
 * The loop is not spin.h's: code inlined from a header is charged to
 * the header's line, and the three loops would be one line of spin.h.
 */
#include <stdio.h>
#include <stdlib.h>

#include "spin.h"

#define ROUNDS	40

/* One step of the serial chain spin.h burns, written out on each line. */
#define STEP(x, i)	(((x) ^ ((x) >> 31)) * 0x9e3779b97f4a7c15UL + \
			    (unsigned long)(i))

int
main(int argc, char *argv[])
{
	unsigned long x = 1;
	double t[3] = { 0, 0, 0 }, t0, t1, t2, t3;
	long units, n, i;
	int line[3], r;

	units = argc > 1 ? atol(argv[1]) : 400000000;
	if (units < 10 * ROUNDS) {
		fprintf(stderr, "usage: lines [units]\n");
		return 2;
	}
	n = units / 10 / ROUNDS;
	for (r = 0; r < ROUNDS; r++) {
		t0 = tcpu();
		line[0] = __LINE__; for (i = 0; i < 5 * n; i++) x = STEP(x, i);
		t1 = tcpu();
		line[1] = __LINE__; for (i = 0; i < 3 * n; i++) x = STEP(x, i);
		t2 = tcpu();
		line[2] = __LINE__; for (i = 0; i < 2 * n; i++) x = STEP(x, i);
		t3 = tcpu();
		t[0] += t1 - t0;
		t[1] += t2 - t1;
		t[2] += t3 - t2;
	}
	printf("truth");
	for (r = 0; r < 3; r++)
		printf(" %s:%d %.6f", __FILE__, line[r], t[r]);
	printf(" cpu %.3f checksum %lx\n", t[0] + t[1] + t[2], x);
	return 0;
}
