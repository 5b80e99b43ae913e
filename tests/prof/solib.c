/*
 * solib.c -- the shared library of h_solib, compiled with -p: its
 * lib_burn() counts its calls into the program's libmon and burns its
 * time outside the program's histogram, where prof must still find it.
 */
#include "h_burn.h"

void	lib_burn(unsigned long);

void
lib_burn(unsigned long units)
{
	BURN(units);
}
