/*
 * latency.c -- libmon-profiler-latency.so: per function, a histogram of
 * its calls' durations in powers of two, so that the slow tail of a
 * function shows, not only its average.
 *
 *	PROFMODULE=latency[:out=FILE]
 *
 * At exit (or before an exec) each function called, hottest first:
 *
 *	latency: NAME 0xADDR: N calls
 *	latency:   LO HI COUNT		calls of LO ns or more, below HI
 *
 * on stderr, or into FILE.  NAME is the function's dynamic symbol
 * (dladdr; link with -rdynamic), "?" without one.
 *
 * The call filter gives each function an index into a table of
 * histograms, once per function; a call's leave adds one to a bucket of
 * its function's, atomically -- the only write threads share.  Each
 * thread times its open calls on a stack of its own.  A fork child
 * starts from empty histograms.
 */
#define _GNU_SOURCE	/* dladdr */
#include <sys/mman.h>

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mon.h>

#include "module.h"

#define DEPTH	1024		/* open calls a thread's stack times */
#define PERCHUNK 1024		/* functions a chunk of the table holds */
#define NCHUNK	4096		/* chunks: 4M functions */
#define NBUCKET	65		/* 0 ns, then [2^(k-1), 2^k) ns */

struct fn {
	uintptr_t		addr;
	_Atomic uint64_t	b[NBUCKET];
};

struct stack {
	uint32_t	depth;
	uint64_t	t0[DEPTH];
};

static _Atomic(struct fn *) chunks[NCHUNK];
static _Atomic uint32_t	 nfn;
static __thread struct stack *me;
static char		 out[4096];

static struct fn *
fn_at(uint32_t id)
{
	struct fn *c;

	c = atomic_load_explicit(&chunks[id / PERCHUNK], memory_order_acquire);
	return c == NULL ? NULL : &c[id % PERCHUNK];
}

/* Once per function: its index, or off when the table is full. */
static int
filter(void *data, void *fn, uintptr_t *id)
{
	struct fn *c;
	uint32_t n;

	(void)data;
	n = atomic_fetch_add(&nfn, 1);
	if (n / PERCHUNK >= NCHUNK)
		return 0;
	if ((c = atomic_load(&chunks[n / PERCHUNK])) == NULL) {
		if ((c = map(PERCHUNK * sizeof(*c))) == NULL)
			return 0;
		atomic_store_explicit(&chunks[n / PERCHUNK], c,
		    memory_order_release);
	}
	c[n % PERCHUNK].addr = (uintptr_t)fn;
	*id = n;
	return 1;
}

static void
enter(void *data, void *fn, void *site, uintptr_t id)
{
	struct stack *s;

	(void)data, (void)fn, (void)site, (void)id;
	if ((s = me) == NULL && (s = me = map(sizeof(*s))) == NULL)
		return;
	if (s->depth < DEPTH)
		s->t0[s->depth] = now();
	s->depth++;
}

static void
leave(void *data, void *fn, void *site, uintptr_t id)
{
	struct stack *s;
	struct fn *f;
	uint64_t d;
	int k;

	(void)data, (void)fn, (void)site;
	/* A leave with no enter: a handle made while the call was open. */
	if ((s = me) == NULL || s->depth == 0)
		return;
	if (--s->depth >= DEPTH || (f = fn_at((uint32_t)id)) == NULL)
		return;
	d = now() - s->t0[s->depth];
	k = d == 0 ? 0 : 64 - __builtin_clzll(d);
	atomic_fetch_add_explicit(&f->b[k], 1, memory_order_relaxed);
}

static uint64_t
calls(struct fn *f)
{
	uint64_t n;
	int k;

	for (n = 0, k = 0; k < NBUCKET; k++)
		n += atomic_load_explicit(&f->b[k], memory_order_relaxed);
	return n;
}

static int
hotter(const void *a, const void *b)
{
	uint64_t x, y;

	x = calls(*(struct fn *const *)a);
	y = calls(*(struct fn *const *)b);
	return x < y ? 1 : x > y ? -1 : 0;
}

static void
put_fn(FILE *f, struct fn *fn)
{
	Dl_info di;
	uint64_t n;
	int k;

	fprintf(f, "latency: %s 0x%" PRIxPTR ": %" PRIu64 " calls\n",
	    dladdr((void *)fn->addr, &di) != 0 && di.dli_sname != NULL &&
	    (uintptr_t)di.dli_saddr == fn->addr ? di.dli_sname : "?",
	    fn->addr, calls(fn));
	for (k = 0; k < NBUCKET; k++)
		if ((n = atomic_load(&fn->b[k])) != 0)
			fprintf(f, "latency:   %" PRIu64 " %" PRIu64 " %"
			    PRIu64 "\n", k == 0 ? 0 : (uint64_t)1 << (k - 1),
			    k == 0 ? 1 : k == 64 ? UINT64_MAX :
			    (uint64_t)1 << k, n);
}

/* Every function called, hottest first. */
static void
report(void)
{
	struct fn **v, *fn;
	uint32_t i, n, m;
	FILE *f;
	int err;

	err = errno;
	n = atomic_load(&nfn);
	if (n > NCHUNK * PERCHUNK)
		n = NCHUNK * PERCHUNK;
	if ((v = malloc((n + 1) * sizeof(*v))) == NULL)
		goto out;
	for (i = m = 0; i < n; i++)
		if ((fn = fn_at(i)) != NULL && calls(fn) > 0)
			v[m++] = fn;
	qsort(v, m, sizeof(*v), hotter);
	f = stderr;
	if (*out != '\0' && (f = fopen(out, "w")) == NULL) {
		fprintf(stderr, "latency: %s: %s\n", out, strerror(errno));
		f = stderr;
	}
	for (i = 0; i < m; i++)
		put_fn(f, v[i]);
	if (f != stderr && fclose(f) != 0)
		fprintf(stderr, "latency: %s: %s\n", out, strerror(errno));
	free(v);
out:
	errno = err;
}

static void
shutdown_(void *data)
{
	(void)data;
	report();
}

static void
exec_(void *data, const char *path)
{
	(void)data, (void)path;
	report();
}

/* A fork child counts its own calls only. */
static void
fork_(void *data)
{
	struct fn *fn;
	uint32_t i, n;
	int k;

	(void)data;
	n = atomic_load(&nfn);
	for (i = 0; i < n && i < NCHUNK * PERCHUNK; i++)
		if ((fn = fn_at(i)) != NULL)
			for (k = 0; k < NBUCKET; k++)
				atomic_store(&fn->b[k], 0);
}

void
mon_profiler_init_latency(const char *args)
{
	mon_profiler_t h;

	if (args != NULL && *args != '\0') {
		if (strncmp(args, "out=", 4) != 0 ||
		    strlen(args + 4) >= sizeof(out) || args[4] == '\0') {
			fprintf(stderr, "latency: %s: not out=FILE\n", args);
			return;
		}
		strcpy(out, args + 4);
	}
	if ((h = mon_profiler_create("latency", NULL)) == NULL) {
		fprintf(stderr, "latency: no handle: %s\n", strerror(errno));
		return;
	}
	mon_profiler_set_shutdown(h, shutdown_);
	mon_profiler_set_exec(h, exec_);
	mon_profiler_set_fork(h, fork_);
	mon_profiler_set_call_filter(h, filter);
	mon_profiler_set_enter_leave(h, enter, leave);
}
