/*
 * thread.c -- pthread_create(), so that threads born while profiling
 * get their own sampling clock (clock.c) and lose it when they end.
 *
 * This definition takes the place of libc's for a program linked with
 * libmon; it wraps the start routine and calls libc's own
 * pthread_create.  The wrapper is freed by the new thread before the
 * start routine runs, and a cleanup handler covers pthread_exit() and
 * cancellation.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "mon_private.h"

typedef int (*createfn)(pthread_t *, const pthread_attr_t *,
    void *(*)(void *), void *);

struct start {
	void	*(*fn)(void *);
	void	*arg;
};

static void
ended(void *unused)
{
	(void)unused;
	_mon_life_thread_end();
}

static void *
trampoline(void *p)
{
	struct start s = *(struct start *)p;
	void *r;

	free(p);
	_mon_life_thread_start();
	pthread_cleanup_push(ended, NULL);
	r = s.fn(s.arg);
	pthread_cleanup_pop(1);
	return r;
}

_mon_public int
pthread_create(pthread_t *t, const pthread_attr_t *attr,
    void *(*fn)(void *), void *arg)
{
	static createfn real;
	struct start *s;
	int r;

	if (real == NULL &&
	    (real = (createfn)_mon_libc("pthread_create")) == NULL)
		return EAGAIN;
	if ((s = malloc(sizeof(*s))) == NULL)
		return EAGAIN;
	s->fn = fn;
	s->arg = arg;
	if ((r = real(t, attr, trampoline, s)) != 0)
		free(s);
	return r;
}

/* Referenced from lifecycle.c so that this file is always linked in. */
const char _mon_link_thread _mon_hidden = 1;
