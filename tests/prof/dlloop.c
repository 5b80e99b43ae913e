/*
 * dlloop.c -- a profiled program that dlopens and dlcloses a library
 * (h_dlstack.so) again and again for a while, calling into it each
 * time, for wall_test:dlclose_loop_sampled.  With nmalloc > 0, as many
 * threads malloc and free blocks meanwhile, and the looping thread
 * blocks SIGPROF: libc's dlclose frees the link map while it holds the
 * loader's lock, and a sample's handler in a thread interrupted inside
 * malloc must not wait for that lock.  With none, the looping thread
 * takes the samples itself, some of them inside dlclose.
 *
 * usage: h_dlloop LIBRARY MS NMALLOC
 */
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXTHREADS	8

static atomic_int stop;
static volatile unsigned long sink;

static void *
churn(void *unused)
{
	unsigned char *p;
	size_t n;

	(void)unused;
	for (n = 0; !atomic_load(&stop); n++) {
		/* Above the thread cache's sizes: the arena's lock. */
		if ((p = malloc(2048 + n % 1024)) == NULL)
			err(1, "malloc");
		memset(p, (int)n, 64);
		sink += p[3];
		free(p);
	}
	return NULL;
}

static unsigned long long
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int
main(int argc, char *argv[])
{
	pthread_t t[MAXTHREADS];
	void (*outer)(unsigned long);
	unsigned long long end;
	unsigned long loops;
	sigset_t prof;
	void *h;
	int i, n;

	if (argc != 4)
		errx(2, "usage: h_dlloop LIBRARY MS NMALLOC");
	n = atoi(argv[3]);
	if (n < 0 || n > MAXTHREADS)
		errx(2, "NMALLOC: 0 to %d", MAXTHREADS);
	for (i = 0; i < n; i++)
		if ((errno = pthread_create(&t[i], NULL, churn, NULL)) != 0)
			err(1, "pthread_create");
	if (n > 0) {
		sigemptyset(&prof);
		sigaddset(&prof, SIGPROF);
		pthread_sigmask(SIG_BLOCK, &prof, NULL);
	}
	end = now_ms() + strtoull(argv[2], NULL, 10);
	for (loops = 0; now_ms() < end; loops++) {
		if ((h = dlopen(argv[1], RTLD_NOW)) == NULL)
			errx(1, "%s", dlerror());
		*(void **)&outer = dlsym(h, "lib_outer");
		if (outer == NULL)
			errx(1, "%s: no lib_outer", argv[1]);
		outer(1000);
		if (dlclose(h) != 0)
			errx(1, "dlclose: %s", dlerror());
	}
	atomic_store(&stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("%lu loops\n", loops);
	return 0;
}
