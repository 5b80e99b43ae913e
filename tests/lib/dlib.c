/*
 * dlib.c -- the library h_fault dlopens, built twice by local.mk: as
 * h_dlib_plain.so without -p, and as h_dlib_p.so with -pg.  Besides its
 * CPU work it does what libraries do behind a program's back: set a
 * SIGPROF action and start a thread.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "h_spin.h"

void	dl_burn(uint64_t);
long	dl_leaf(long);
int	dl_sigprof(void (*)(int));
int	dl_spawn(uint64_t);

/* Spin for ns of the calling thread's CPU time. */
void
dl_burn(uint64_t ns)
{
	SPIN(ns);
}

long
dl_leaf(long x)
{
	return x * 5 + 2;
}

/* Install fn as the SIGPROF handler; sigaction's result. */
int
dl_sigprof(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGPROF, &sa, NULL);
}

static void *
burner(void *arg)
{
	dl_burn(*(uint64_t *)arg);
	return NULL;
}

/* Spin for ns in a thread of the library's own; pthread_create's result. */
int
dl_spawn(uint64_t ns)
{
	pthread_t t;
	int r;

	if ((r = pthread_create(&t, NULL, burner, &ns)) == 0)
		pthread_join(t, NULL);
	return r;
}
