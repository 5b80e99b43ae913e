/*
 * clash_b.c -- the second helper() of the pair (see clash_a.c).
 */
#include "h_burn.h"

__attribute__((noinline)) static void
helper(void)
{
	BURN(40000000);
}

__attribute__((noinline)) void
other_side(void)
{
	helper();
}
