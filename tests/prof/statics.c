/*
 * statics.c -- static functions on either side of a global one.
 *
 * Built at -O2 with the source order kept (tests/prof/local.mk), so
 * that main lands in .text.startup, ahead of the start-up code, and
 * lead() is the first function of this file's .text: the classic "fold
 * a static into the preceding global" would give its time to the
 * start-up code's last global.  trail() follows anchor() in the same
 * file and folds into it.
 */
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
	lead();
	anchor();
	trail();
	return 0;
}
