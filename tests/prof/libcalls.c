/*
 * libcalls.c -- the shared library of h_libcalls, compiled with -p:
 * lib_outer() calls lib_inner() n times, arcs within the library, and
 * neither takes time enough to be sampled.
 */
void	lib_inner(int *);
void	lib_outer(int);

void
lib_inner(int *v)
{
	(*v)++;
}

void
lib_outer(int n)
{
	int i, v = 0;

	for (i = 0; i < n; i++)
		lib_inner(&v);
}
