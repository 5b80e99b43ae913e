/*
 * badmod.c -- h_badmod.so, a module with no entry point, for
 * profiler_test: PROFMODULE must name it, say why, and run on.
 */
int	badmod_nothing(void);

int
badmod_nothing(void)
{
	return 0;
}
