/*
 * solib_main.c -- h_solib: a profiled program that spends three quarters
 * of its time in a shared library (h_solib.so, also built with -p).
 *
 * usage: h_solib [units]
 *
 * 100 rounds of lib_burn() 3 times and main_burn() once: calls 300 and
 * 100, time 75% in the library and 25% in the program.
 */
#include <stdlib.h>

#include "h_burn.h"

void	lib_burn(unsigned long);
void	main_burn(unsigned long);

void
main_burn(unsigned long units)
{
	BURN(units);
}

int
main(int argc, char *argv[])
{
	unsigned long units = 600000;
	int round, i;

	if (argc > 1)
		units = strtoul(argv[1], NULL, 0);
	for (round = 0; round < 100; round++) {
		for (i = 0; i < 3; i++)
			lib_burn(units);
		main_burn(units);
	}
	return 0;
}
