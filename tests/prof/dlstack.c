/*
 * dlstack.c -- a profiled program that dlopens h_dlstack.so (beside it)
 * after profiling has started, then burns CPU in the library's
 * lib_outer() -> lib_inner() and sleeps in its lib_nap(), for
 * wall_test:dlopened_frames_in_stacks.
 *
 * usage: h_dlstack LIBRARY
 */
#include <dlfcn.h>
#include <err.h>
#include <stdlib.h>

int
main(int argc, char *argv[])
{
	void (*outer)(unsigned long), (*nap)(void);
	void *h;

	if (argc != 2)
		errx(2, "usage: h_dlstack LIBRARY");
	if ((h = dlopen(argv[1], RTLD_NOW)) == NULL)
		errx(1, "%s", dlerror());
	*(void **)&outer = dlsym(h, "lib_outer");
	*(void **)&nap = dlsym(h, "lib_nap");
	if (outer == NULL || nap == NULL)
		errx(1, "%s: no lib_outer or lib_nap", argv[1]);
	outer(300000000UL);
	nap();
	return 0;
}
