/*
 * statics.c -- static functions on either side of a global one.
 *
 * Built at -O2 with the source order kept (tests/prof/local.mk), so
 * that main lands in .text.startup, ahead of the start-up code, and
 * lead() is the first function of this file's .text: the classic "fold
 * a static into the preceding global" would give its time to the
 * start-up code's last global.  trail() follows anchor() in the same
 * file and folds into it.
 *
 * Each call is timed on the thread's CPU clock and the seconds written
 * to standard output, "lead 0.140000" a line: the truth the report's
 * shares are held to, whatever else the machine was doing.
 */
#include <stdio.h>

#include "h_burn.h"

__attribute__((noinline)) static void
lead(void)
{
	BURN(60000000);
}

__attribute__((noinline)) void
anchor(void)
{
	BURN(20000000);
}

__attribute__((noinline)) static void
trail(void)
{
	BURN(20000000);
}

int
main(void)
{
	double t[3] = { 0, 0, 0 };

	TIMED(lead(), t[0]);
	TIMED(anchor(), t[1]);
	TIMED(trail(), t[2]);
	printf("lead %.6f\nanchor %.6f\ntrail %.6f\n", t[0], t[1], t[2]);
	return 0;
}
