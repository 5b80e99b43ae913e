/*
 * calltrace.c -- libmon-profiler-calltrace.so: a timeline of a program's
 * calls, as a Chrome Trace Event file that Perfetto (ui.perfetto.dev)
 * and chrome://tracing open.
 *
 *	PROFMODULE=calltrace[:min=USEC][:out=FILE]
 *
 * Every call of a -finstrument-functions function that lasts min
 * microseconds or more (default 10; 0 for all) becomes a complete event
 * ("ph": "X") of its thread, with its start (ts) and duration (dur) in
 * microseconds from the module's start.  The file is written when the
 * program exits, or before it execs; by default calltrace.PID.json in
 * $PROFDIR, or in the working directory.  A fork child writes its own.
 *
 * Each thread keeps its own stack of start times and its own list of
 * events, in memory from mmap (an enter or leave may come in a signal
 * handler that runs instrumented code): the hooks take no lock and
 * share nothing with other threads.  Threads link their state into one
 * list as they first call, and the writer reads each event list up to
 * its published count.  Names are the dynamic symbols (dladdr: link
 * the program with -rdynamic, as PROFMODULE asks anyway); a function
 * without one is named by its address.  Calls still open at exit
 * (main's) are not written.
 */
#define _GNU_SOURCE	/* dladdr */
#include <sys/mman.h>
#include <sys/types.h>

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mon.h>

#include "module.h"

#define DEPTH	1024		/* open calls a thread's stack times */
#define NEV	4096		/* events a chunk holds */

struct ev {
	uintptr_t	fn;
	uint64_t	ts, dur;	/* ns */
};

struct evchunk {
	struct evchunk		*next;
	_Atomic uint32_t	 n;	/* events published */
	struct ev		 e[NEV];
};

struct thr {
	struct thr		*next;	/* every thread's */
	pid_t			 tid;
	uint32_t		 depth;
	uint64_t		 t0[DEPTH];
	struct evchunk		*first, *fill;
};

static _Atomic(struct thr *) thrs;
static __thread struct thr *me;
static uint64_t		 start_ns, min_ns = 10000;
static char		 out[4096];
static int		 outset;

/* The calling thread's state, made and linked on its first call. */
static struct thr *
self(void)
{
	struct thr *t;

	if ((t = me) != NULL)
		return t;
	if ((t = map(sizeof(*t))) == NULL ||
	    (t->first = t->fill = map(sizeof(struct evchunk))) == NULL)
		return NULL;
	t->tid = (pid_t)gettid();
	t->next = atomic_load(&thrs);
	while (!atomic_compare_exchange_weak(&thrs, &t->next, t))
		continue;
	me = t;
	return t;
}

static void
enter(void *data, void *fn, void *site, uintptr_t id)
{
	struct thr *t;

	(void)data, (void)fn, (void)site, (void)id;
	if ((t = self()) == NULL)
		return;
	if (t->depth < DEPTH)
		t->t0[t->depth] = now();
	t->depth++;
}

static void
leave(void *data, void *fn, void *site, uintptr_t id)
{
	struct thr *t;
	struct evchunk *c;
	uint64_t end, t0;
	uint32_t n;

	(void)data, (void)site, (void)id;
	/* A leave with no enter: a handle made while the call was open. */
	if ((t = me) == NULL || t->depth == 0)
		return;
	if (--t->depth >= DEPTH)
		return;
	end = now();
	t0 = t->t0[t->depth];
	if (end - t0 < min_ns)
		return;
	c = t->fill;
	if ((n = atomic_load_explicit(&c->n, memory_order_relaxed)) == NEV) {
		if ((c->next = map(sizeof(*c))) == NULL)
			return;
		t->fill = c = c->next;
		n = 0;
	}
	c->e[n].fn = (uintptr_t)fn;
	c->e[n].ts = t0 - start_ns;
	c->e[n].dur = end - t0;
	atomic_store_explicit(&c->n, n + 1, memory_order_release);
}

/* s as a JSON string's contents. */
static void
json_str(FILE *f, const char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
}

static void
put_event(FILE *f, const struct ev *e, pid_t pid, pid_t tid, int first)
{
	Dl_info di;

	fprintf(f, "%s\n{\"name\":\"", first ? "" : ",");
	if (dladdr((void *)e->fn, &di) != 0 && di.dli_sname != NULL &&
	    (uintptr_t)di.dli_saddr == e->fn)
		json_str(f, di.dli_sname);
	else
		fprintf(f, "0x%" PRIxPTR, e->fn);
	fprintf(f, "\",\"cat\":\"call\",\"ph\":\"X\",\"ts\":%" PRIu64
	    ".%03" PRIu64 ",\"dur\":%" PRIu64 ".%03" PRIu64
	    ",\"pid\":%ld,\"tid\":%ld,\"args\":{\"addr\":\"0x%" PRIxPTR
	    "\"}}", e->ts / 1000, e->ts % 1000, e->dur / 1000, e->dur % 1000,
	    (long)pid, (long)tid, e->fn);
}

/* The file: every thread's events as they stand. */
static void
write_trace(void)
{
	char path[4200];
	const char *dir;
	struct thr *t;
	struct evchunk *c;
	uint32_t i, n;
	FILE *f;
	pid_t pid;
	int first, err;

	err = errno;
	pid = getpid();
	if (outset)
		snprintf(path, sizeof(path), "%s", out);
	else if ((dir = getenv("PROFDIR")) != NULL && *dir != '\0')
		snprintf(path, sizeof(path), "%s/calltrace.%ld.json", dir,
		    (long)pid);
	else
		snprintf(path, sizeof(path), "calltrace.%ld.json", (long)pid);
	if ((f = fopen(path, "w")) == NULL) {
		fprintf(stderr, "calltrace: %s: %s\n", path, strerror(errno));
		errno = err;
		return;
	}
	fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	first = 1;
	for (t = atomic_load(&thrs); t != NULL; t = t->next)
		for (c = t->first; c != NULL; c = c->next) {
			n = atomic_load_explicit(&c->n, memory_order_acquire);
			for (i = 0; i < n; i++, first = 0)
				put_event(f, &c->e[i], pid, t->tid, first);
		}
	fprintf(f, "\n]}\n");
	if (fclose(f) != 0)
		fprintf(stderr, "calltrace: %s: %s\n", path, strerror(errno));
	errno = err;
}

static void
shutdown_(void *data)
{
	(void)data;
	write_trace();
}

static void
exec_(void *data, const char *path)
{
	(void)data, (void)path;
	write_trace();
}

/* A fork child: the forking thread alone, with no events yet. */
static void
fork_(void *data)
{
	struct thr *t;
	struct evchunk *c;

	(void)data;
	if ((t = me) == NULL) {
		atomic_store(&thrs, NULL);
		return;
	}
	t->tid = (pid_t)gettid();
	t->next = NULL;
	for (c = t->first; c != NULL; c = c->next)
		atomic_store(&c->n, 0);
	t->fill = t->first;
	atomic_store(&thrs, t);
}

/* Its arguments, min=USEC and out=FILE, separated by colons; 0 or -1. */
static int
parse(const char *args)
{
	const char *s, *e;
	char *end;
	size_t n;

	for (s = args; s != NULL && *s != '\0'; s = *e == ':' ? e + 1 : e) {
		e = strchr(s, ':');
		if (e == NULL)
			e = s + strlen(s);
		n = (size_t)(e - s);
		if (n > 4 && strncmp(s, "min=", 4) == 0) {
			errno = 0;
			min_ns = strtoull(s + 4, &end, 10) * 1000;
			if (errno != 0 || end != e)
				return -1;
		} else if (n > 4 && strncmp(s, "out=", 4) == 0 &&
		    n - 4 < sizeof(out)) {
			memcpy(out, s + 4, n - 4);
			out[n - 4] = '\0';
			outset = 1;
		} else
			return -1;
	}
	return 0;
}

void
mon_profiler_init_calltrace(const char *args)
{
	mon_profiler_t h;

	if (parse(args) != 0) {
		fprintf(stderr, "calltrace: %s: not min=USEC or out=FILE\n",
		    args);
		return;
	}
	start_ns = now();
	if ((h = mon_profiler_create("calltrace", NULL)) == NULL) {
		fprintf(stderr, "calltrace: no handle: %s\n", strerror(errno));
		return;
	}
	mon_profiler_set_shutdown(h, shutdown_);
	mon_profiler_set_exec(h, exec_);
	mon_profiler_set_fork(h, fork_);
	mon_profiler_set_enter_leave(h, enter, leave);
}
