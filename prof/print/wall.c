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
 * wrappers -- or, with none, the innermost that has a name.  A waiting
 * row names the system calls waited in, the longest first, with their
 * seconds when there are more than one.  libmon's own code is never a
 * row: its frames are passed over.
 *
 * -r leaves out the threads that never ran: while sampled they used
 * less CPU time than one period -- a pool of idle workers -- so that
 * they do not bury the threads that work; the head line says how many
 * were left out.
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
	int32_t		 sys[NSYS];	/* the longest waited in */
	double		 syssecs[NSYS];
	double		 othersys;	/* in others */
};

/* x86_64 numbers of the system calls a thread is most often found in. */
static const struct { int nr; const char *name; } sysnames[] = {
	{ 0, "read" }, { 1, "write" }, { 2, "open" }, { 7, "poll" },
	{ 17, "pread64" }, { 18, "pwrite64" }, { 19, "readv" },
	{ 20, "writev" }, { 23, "select" }, { 24, "sched_yield" },
	{ 34, "pause" }, { 35, "nanosleep" }, { 42, "connect" },
	{ 43, "accept" }, { 44, "sendto" }, { 45, "recvfrom" },
	{ 46, "sendmsg" }, { 47, "recvmsg" }, { 61, "wait4" },
	{ 65, "semop" }, { 69, "msgsnd" }, { 70, "msgrcv" },
	{ 72, "fcntl" }, { 73, "flock" }, { 74, "fsync" },
	{ 75, "fdatasync" }, { 128, "rt_sigtimedwait" },
	{ 130, "rt_sigsuspend" }, { 202, "futex (mutex/condvar)" },
	{ 208, "io_getevents" }, { 220, "semtimedop" },
	{ 230, "clock_nanosleep" }, { 232, "epoll_wait" },
	{ 247, "waitid" }, { 257, "openat" }, { 270, "pselect6" },
	{ 271, "ppoll" }, { 281, "epoll_pwait" }, { 288, "accept4" },
	{ 299, "recvmmsg" }, { 426, "io_uring_enter" },
	{ 441, "epoll_pwait2" }, { 449, "futex_waitv" },
};

/* System call nr's name, into buf when it has none of its own. */
static const char *
sysname(int32_t nr, char *buf, size_t size)
{
	size_t i;

	if (nr < 0)
		return "no system call";
	for (i = 0; i < sizeof(sysnames) / sizeof(sysnames[0]); i++)
		if (sysnames[i].nr == nr)
			return sysnames[i].name;
	snprintf(buf, size, "system call %d", (int)nr);
	return buf;
}

/* Is the frame in libmon's own code? */
static int
in_libmon(const struct profile *p, const struct frame *f)
{
	size_t i;

	for (i = 0; i < p->nself; i++)
		if (p->self[i].obj == f->obj && f->addr >= p->self[i].lo &&
		    f->addr < p->self[i].hi)
			return 1;
	return 0;
}

/* The name of the function at frame f, or NULL. */
static const char *
frame_name(const struct report *r, const struct symtab *st,
    const struct frame *f)
{
	const struct symtab *t;
	size_t i;

	if (f->obj == OBJ_NONE)
		return NULL;
	t = f->obj == OBJ_MAIN ? st : report_symtab(r, f->obj);
	if (t == NULL || (i = symtab_lookup(t, f->addr)) == SIZE_MAX)
		return NULL;
	return t->funcs[i].name;
}

/* The function a wall sample counts for; see the head of the file. */
static const char *
sample_name(const struct profile *p, const struct report *r,
    const struct symtab *st, const struct wstack *s)
{
	const struct frame *f;
	const char *name, *first;
	size_t i;

	first = NULL;
	for (i = 0; i < s->depth; i++) {
		f = &p->wframes[s->first + i];
		if (in_libmon(p, f) || (name = frame_name(r, st, f)) == NULL)
			continue;
		if (s->state == MONX_WS_RUN || f->obj == OBJ_MAIN)
			return name;
		if (first == NULL)
			first = name;
	}
	if (first != NULL)
		return first;
	if (s->depth == 0)
		return s->state == MONX_WS_RUN ? "[running, not sampled yet]" :
		    "[no stack]";
	return "[unknown]";
}

/*
 * Did thread w never run (-r)?  Less CPU time than a period: a thread
 * caught runnable as it started, or waiting for a CPU, ran next to
 * nothing all the same.
 */
static int
never_ran(const struct wthread *w)
{
	return (double)w->cpu_ns / 1e9 < w->period;
}

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
		    sysname(w->sys[i], buf, sizeof(buf)));
		if (n > 1 || w->othersys > 0)
			printf(" %.2f", w->syssecs[i]);
	}
	if (w->othersys > 0)
		printf(", others %.2f", w->othersys);
	printf("]");
}

/* Thread-seconds kept, and the threads left out (-r) into *out. */
static double
kept_secs(const struct profile *p, const struct opts *o, size_t *nkept,
    size_t *out)
{
	double all;
	size_t i;

	all = 0;
	*nkept = *out = 0;
	for (i = 0; i < p->nwthreads; i++) {
		if (o->ranonly && never_ran(&p->wthreads[i])) {
			(*out)++;
			continue;
		}
		(*nkept)++;
		all += p->wthreads[i].running + p->wthreads[i].waiting;
	}
	return all;
}

static void
put_rows(const struct wrow *rows, size_t n, double all)
{
	char *name;
	size_t i;

	for (i = 0; i < n; i++) {
		printf("%6.1f %8.3f %8.3f %8.3f  ", all > 0 ? 100 *
		    (rows[i].running + rows[i].waiting) / all : 0.0,
		    rows[i].running + rows[i].waiting, rows[i].running,
		    rows[i].waiting);
		name = printable(rows[i].name);
		fputs(name, stdout);
		free(name);
		put_syscalls(&rows[i]);
		putchar('\n');
	}
}

/* prof -w: the flat report in wall time; the files hold wall samples. */
void
wall_print(const struct report *r, const struct profile *p,
    const struct symtab *st, const struct opts *o)
{
	const struct wstack *s;
	struct wrow *rows, *w;
	size_t n, cap, i, nkept, out;
	double all;

	all = kept_secs(p, o, &nkept, &out);
	rows = NULL;
	n = cap = 0;
	for (i = 0; i < p->nwstacks; i++) {
		s = &p->wstacks[i];
		if (o->ranonly && never_ran(&p->wthreads[s->thread]))
			continue;
		w = row_of(&rows, &n, &cap, sample_name(p, r, st, s));
		if (s->state == MONX_WS_RUN)
			w->running += s->secs;
		else
			add_wait(w, s->sysno, s->secs);
	}
	qsort(rows, n, sizeof(*rows), cmp_wrow);
	if (!o->nohead) {
		printf("Wall time: %.2f thread-seconds, %zu thread%s over "
		    "%.2f s, sampled at %.0f Hz", all, nkept,
		    nkept == 1 ? "" : "s", p->wallrun, p->wallhz);
		if (out > 0)
			printf("; %zu thread%s that never ran left out (-r)",
			    out, out == 1 ? "" : "s");
		printf("\n %%Wall  Seconds  Running  Waiting  Name "
		    "[waiting in]\n");
	}
	put_rows(rows, n, all);
	free(rows);
}
