/*
 * slib.c -- h_slib.so, a library built with -pg -shared through the
 * specs file (local.mk), which h_slib (slibmain.c) is linked with.  Its
 * calls must count in the program's profile, through the program's
 * mcount.
 */
long	slib_leaf(long);
long	slib_run(long);

volatile long slib_sink;

long
slib_leaf(long x)
{
	return x * 5 + 2;
}

/* slib_leaf() n times. */
long
slib_run(long n)
{
	long i;

	for (i = 0; i < n; i++)
		slib_sink = slib_leaf(i);
	return slib_sink;
}
