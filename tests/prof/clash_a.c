/*
 * clash_a.c, with clash_b.c -- a static function of one name in each of
 * two source files, for prof's rows of locals whose names clash.  Each
 * helper() burns its own share: this file's 60, the other's 40.
 */
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
	helper();
	other_side();
	return 0;
}
