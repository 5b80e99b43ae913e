/*
 * thread.c -- pthread_create(), so that threads born while profiling
 * get their own sampling clock (clock.c) and lose it when they end.
 *
 * This definition takes the place of libc's for a program linked with
 * libmon; it wraps the start routine and calls libc's own
 * pthread_create.  The wrapper is given back by the new thread before
 * the start routine runs, and a cleanup handler covers pthread_exit()
 * and cancellation.  pthread_exit() itself tells the main thread's end.
 *
 * The wrapper never comes from malloc: a thread's first call into
 * malloc, free() included, gives it an arena of its own (64 MiB of
 * address space, up to eight per core), which the program's thread may
 * never have asked for.  Wrappers are slots of a static pool, taken by
 * the creating thread and given back by the new one; a burst of more
 * threads than the pool holds, not yet started, takes a page each.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "mon_private.h"

typedef int (*createfn)(pthread_t *, const pthread_attr_t *,
    void *(*)(void *), void *);
typedef void (*exitfn)(void *);

#define NSLOT	256

struct start {
	void		*(*fn)(void *);
	void		*arg;
	_Atomic int	 busy;		/* in the pool: taken */
};

static struct start	pool[NSLOT];
static _Atomic unsigned	next;		/* where the next search starts */

static struct start *
take(void)
{
	unsigned i, k;
	int free_;

	k = atomic_fetch_add(&next, 1);
	for (i = 0; i < NSLOT; i++) {
		free_ = 0;
		if (atomic_compare_exchange_strong(&pool[(k + i) % NSLOT].busy,
		    &free_, 1))
			return &pool[(k + i) % NSLOT];
	}
	return _mon_map(sizeof(struct start));
}

static void
give(struct start *s)
{
	if (s >= pool && s < pool + NSLOT)
		atomic_store(&s->busy, 0);
	else
		_mon_unmap(s, sizeof(*s));
}

static void
ended(void *unused)
{
	(void)unused;
	_mon_life_thread_end();
}

static void *
trampoline(void *p)
{
	struct start *w = p;
	void *(*fn)(void *);
	void *arg, *r;

	fn = w->fn;
	arg = w->arg;
	give(w);
	_mon_life_thread_start();
	pthread_cleanup_push(ended, NULL);
	r = fn(arg);
	pthread_cleanup_pop(1);
	return r;
}

_mon_public int
pthread_create(pthread_t *t, const pthread_attr_t *attr,
    void *(*fn)(void *), void *arg)
{
	static createfn real;
	struct start *s;
	int r, held;

	if (real == NULL &&
	    (real = (createfn)_mon_libc("pthread_create")) == NULL)
		return EAGAIN;
	if ((s = take()) == NULL)
		return EAGAIN;
	s->fn = fn;
	s->arg = arg;
	/* The clock the new thread is to inherit is there first. */
	held = _mon_life_thread_create();
	if ((r = real(t, attr, trampoline, s)) != 0)
		give(s);
	_mon_life_thread_made(held);
	return r;
}

/*
 * pthread_exit() from the main thread, which pthread_create() did not
 * make: it stays listed, a zombie, until the process ends, so its end
 * is told here (_mon_life_main_exit()).  Any other thread's is told by
 * trampoline()'s cleanup handler.
 */
_mon_public void
pthread_exit(void *ret)
{
	static exitfn real;

	if (real == NULL)
		real = (exitfn)_mon_libc("pthread_exit");
	if (_mon_gettid() == getpid())
		_mon_life_main_exit();
	if (real != NULL)
		real(ret);
	abort();	/* the C library has no pthread_exit() */
}

/* Referenced from lifecycle.c so that this file is always linked in. */
const char _mon_link_thread _mon_hidden = 1;
