/*
 * solib_lib.c -- the shared-library half of solib.c: libsolib.so.
 */
#include "spin.h"

unsigned long	lib_part(unsigned long, long);

__attribute__((noinline)) unsigned long
lib_part(unsigned long x, long n)
{
	return spin(x, n);
}
