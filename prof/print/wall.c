/*
 * wall.c -- prof -w: the flat report in wall time, from the WALL
 * records of PROFMODE=wall.
 *
 *	 %Wall  Seconds  Running  Waiting  Name [waiting in]
 *
 * Every thread was sampled each period whether it ran or not, so the
 * whole is the run's wall time times its threads (thread-seconds), and
 * %Wall a function's share of it.  A sample counts for one function:
 * running, the innermost function of its stack that has a name, as the
 * CPU report's rows; waiting, the innermost function of the program
 * itself -- the call site of the system call, past the C library's
 * wrappers -- or, with none, the innermost that has a name.  A row is
 * named as the CPU report names it (model/rowname.c).  A waiting row
 * names the system calls waited in, the longest first, with their
 * seconds when there are more than one.  libmon's own code is never a
 * row: its frames are passed over, and a thread caught doing libmon's
 * own work (its start, the sampler's set-up, the write of mon.out) is
 * left out of the rows and of the whole, the head line saying how much.
 *
 * -N makes a row of each thread name instead (its threads summed, how
 * many, and the CPU time they used while sampled): a pool of a thousand
 * idle workers is one row.  -r leaves out the threads that never ran:
 * while sampled they used less CPU time than one period -- idle
 * workers, and as well any thread that only waited -- so that they do
 * not bury the threads that work; the head line says how many were
 * left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "print/print.h"
#include "util/util.h"

#define NSYS	4		/* system calls a row names */

struct wrow {
	const char	*name;
	double		 running, waiting;
	double		 cpu;		/* -N: its threads' CPU seconds */
	size_t		 nthreads;	/* -N: how many */
	int32_t		 sys[NSYS];	/* the longest waited in */
	double		 syssecs[NSYS];
	double		 othersys;	/* in others */
};

static struct wrow *
row_of(struct wrow **rows, size_t *n, size_t *cap, const char *name)
{
	struct wrow *w;
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*rows)[i].name, name) == 0)
			return &(*rows)[i];
	*rows = xgrow(*rows, cap, *n, 1, sizeof(**rows));
	w = &(*rows)[(*n)++];
	memset(w, 0, sizeof(*w));
	w->name = name;
	for (i = 0; i < NSYS; i++)
		w->sys[i] = INT32_MIN;
	return w;
}

/* secs of waiting in sysno, kept among the row's longest. */
static void
add_wait(struct wrow *w, int32_t sysno, double secs)
{
	double ts;
	int32_t tn;
	size_t i;

	w->waiting += secs;
	for (i = 0; i < NSYS; i++)
		if (w->sys[i] == sysno || w->sys[i] == INT32_MIN) {
			w->sys[i] = sysno;
			w->syssecs[i] += secs;
			break;
		}
	if (i == NSYS) {
		w->othersys += secs;
		return;
	}
	for (; i > 0 && w->syssecs[i] > w->syssecs[i - 1]; i--) {
		ts = w->syssecs[i];
		tn = w->sys[i];
		w->syssecs[i] = w->syssecs[i - 1];
		w->sys[i] = w->sys[i - 1];
		w->syssecs[i - 1] = ts;
		w->sys[i - 1] = tn;
	}
}

static int
cmp_wrow(const void *a, const void *b)
{
	const struct wrow *x = a, *y = b;
	double tx = x->running + x->waiting, ty = y->running + y->waiting;

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The row's system calls, as "[read]" or "[read 0.60, poll 0.40]". */
static void
put_syscalls(const struct wrow *w)
{
	char buf[32];
	size_t i, n;

	for (n = 0; n < NSYS && w->sys[n] != INT32_MIN; n++)
		continue;
	if (n == 0)
		return;
	printf(" [");
	for (i = 0; i < n; i++) {
		printf("%s%s", i > 0 ? ", " : "",
		    wall_sysname(w->sys[i], buf, sizeof(buf)));
		if (n > 1 || w->othersys > 0)
			printf(" %.2f", w->syssecs[i]);
	}
	if (w->othersys > 0)
		printf(", others %.2f", w->othersys);
	printf("]");
}

/* Thread-seconds of the threads kept, and those left out (-r) into *out. */
static double
kept_secs(const struct profile *p, const struct opts *o, size_t *nkept,
    size_t *out)
{
	double all;
	size_t i;

	all = 0;
	*nkept = *out = 0;
	for (i = 0; i < p->nwthreads; i++) {
		if (!wall_kept(o, &p->wthreads[i])) {
			(*out)++;
			continue;
		}
		(*nkept)++;
		all += p->wthreads[i].running + p->wthreads[i].waiting;
	}
	return all;
}

/* Thread w's name as -N's row has it. */
static const char *
thread_name(const struct wthread *w)
{
	return w->name[0] != '\0' ? w->name : "[unnamed]";
}

/* -N: a row for each name of the threads kept, with their count, CPU. */
static void
thread_rows(const struct profile *p, const struct opts *o,
    struct wrow **rows, size_t *n, size_t *cap)
{
	const struct wthread *t;
	struct wrow *w;
	size_t i;

	for (i = 0; i < p->nwthreads; i++) {
		t = &p->wthreads[i];
		if (!wall_kept(o, t))
			continue;
		w = row_of(rows, n, cap, thread_name(t));
		w->nthreads++;
		w->cpu += (double)t->cpu_ns / 1e9;
	}
}

static void
put_rows(const struct wrow *rows, size_t n, double all, int bythread)
{
	char *name;
	size_t i;

	for (i = 0; i < n; i++) {
		printf("%6.1f %8.3f %8.3f %8.3f  ", all > 0 ? 100 *
		    (rows[i].running + rows[i].waiting) / all : 0.0,
		    rows[i].running + rows[i].waiting, rows[i].running,
		    rows[i].waiting);
		if (bythread)
			printf("%7.3f %7zu  ", rows[i].cpu, rows[i].nthreads);
		name = printable(rows[i].name);
		fputs(name, stdout);
		free(name);
		put_syscalls(&rows[i]);
		putchar('\n');
	}
}

static void
put_head(const struct profile *p, const struct opts *o, double all,
    size_t nkept, size_t out, double self)
{
	printf("Wall time: %.2f thread-seconds, %zu thread%s over %.2f s, "
	    "sampled at %.0f Hz", all, nkept, nkept == 1 ? "" : "s",
	    p->wallrun, p->wallhz);
	if (self > 0)
		printf("; libmon's own %.2f s left out", self);
	if (out > 0)
		printf("; %zu thread%s that never ran left out (-r)", out,
		    out == 1 ? "" : "s");
	if (o->bythread)
		printf("\n %%Wall  Seconds  Running  Waiting      CPU "
		    "Threads  Thread name [waiting in]\n");
	else
		printf("\n %%Wall  Seconds  Running  Waiting  Name "
		    "[waiting in]\n");
}

/* prof -w: the flat report in wall time; the files hold wall samples. */
void
wall_print(const struct report *r, const struct profile *p,
    const struct opts *o)
{
	const struct wstack *s;
	struct wrow *rows, *w;
	size_t n, cap, i, nkept, out;
	double all, self;

	all = kept_secs(p, o, &nkept, &out);
	rows = NULL;
	n = cap = 0;
	self = 0;
	if (o->bythread)
		thread_rows(p, o, &rows, &n, &cap);
	for (i = 0; i < p->nwstacks; i++) {
		s = &p->wstacks[i];
		if (!wall_kept(o, &p->wthreads[s->thread]))
			continue;
		if (wall_is_libmon(r, p, s)) {
			self += s->secs;
			continue;
		}
		w = row_of(&rows, &n, &cap, o->bythread ?
		    thread_name(&p->wthreads[s->thread]) :
		    wall_sample_name(r, p, s));
		if (s->state == MONX_WS_RUN)
			w->running += s->secs;
		else
			add_wait(w, s->sysno, s->secs);
	}
	all -= self;
	qsort(rows, n, sizeof(*rows), cmp_wrow);
	if (!o->nohead)
		put_head(p, o, all, nkept, out, self);
	put_rows(rows, n, all, o->bythread);
	free(rows);
}
