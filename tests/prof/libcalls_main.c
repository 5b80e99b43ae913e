/*
 * libcalls_main.c -- h_libcalls: a profiled program that calls a shared
 * library (h_libcalls.so, also built with -p) which calls itself but
 * takes no samples: lib_outer() once, and through it lib_inner() 1000
 * times.
 */
void	lib_outer(int);

int
main(void)
{
	lib_outer(1000);
	return 0;
}
