/*
 * plib.c -- h_plib.so, the library profiler_test's helper dlopens:
 * instrumented, so that its calls reach the program's hooks.
 */
__attribute__((noinline)) int plib_leaf(int i) { return i + 1; }

__attribute__((noinline)) void
plib_fn(void)
{
	volatile int v;

	v = plib_leaf(1);
	(void)v;
}
