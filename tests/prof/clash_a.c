/*
 * clash_a.c, with clash_b.c -- a static function of one name in each of
 * two source files, for prof's rows of locals whose names clash.  Each
 * helper() burns its own share: this file's 60, the other's 40.  Each
 * share is timed on the thread's CPU clock and written to standard
 * output, "clash_a.c 0.140000" a line: the truth the report is held to.
 */
#include <stdio.h>

#include "h_burn.h"

void	other_side(void);

__attribute__((noinline)) static void
helper(void)
{
	BURN(60000000);
}

int
main(void)
{
	double a = 0, b = 0;

	TIMED(helper(), a);
	TIMED(other_side(), b);
	printf("clash_a.c %.6f\nclash_b.c %.6f\n", a, b);
	return 0;
}
