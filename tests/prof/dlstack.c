/*
 * dlstack.c -- a profiled program that dlopens LIBRARY (h_dlstack.so,
 * built from dlstack_lib.c) after profiling has started, then burns CPU
 * in the library's lib_outer() -> lib_inner() -- 0.5 s of its CPU time,
 * whatever the machine's speed, so that the samples taken before a
 * clock learns of the library (up to a wall sampler's period) are few
 * -- and sleeps in its lib_nap(), for
 * wall_test:dlopened_frames_in_stacks.  With N, it dlopens LIBRARY.1 to
 * LIBRARY.N (copies of the library, each an object of its own) instead
 * and runs the last one's, for wall_test:many_objects_frames.
 *
 * usage: h_dlstack LIBRARY [N]
 */
#include <dlfcn.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "h_burn.h"

int
main(int argc, char *argv[])
{
	void (*outer)(unsigned long), (*nap)(void);
	char path[4096];
	double t0;
	void *h;
	int i, n;

	if (argc != 2 && argc != 3)
		errx(2, "usage: h_dlstack LIBRARY [N]");
	n = argc == 3 ? atoi(argv[2]) : 0;
	h = NULL;
	for (i = 1; i <= n; i++) {
		snprintf(path, sizeof(path), "%s.%d", argv[1], i);
		if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL)
			errx(1, "%s", dlerror());
	}
	if (n == 0 && (h = dlopen(argv[1], RTLD_NOW)) == NULL)
		errx(1, "%s", dlerror());
	*(void **)&outer = dlsym(h, "lib_outer");
	*(void **)&nap = dlsym(h, "lib_nap");
	if (outer == NULL || nap == NULL)
		errx(1, "%s: no lib_outer or lib_nap", argv[1]);
	for (t0 = thread_cpu(); thread_cpu() - t0 < 0.5; )
		outer(10000000UL);
	nap();
	return 0;
}
