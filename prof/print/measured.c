/*
 * measured.c -- -q's measured call graph: the calls that a build with
 * -finstrument-functions timed one by one (lib/calls.c), each
 * function's and each arc's own figures, after the sampled graph.
 *
 *	index     incl s     self s         calls    min ms    max ms  name
 *	                     0.1001     0.1001         1/1    100.08    100.08      outer [1]
 *	[2]       0.1001     0.1001             1    100.08    100.08  part_a [2]
 *
 * A function's line: its index, the wall time of its outermost calls
 * (a recursive call's time is in its outermost caller's once), its
 * self time (the inclusive less its callees', frame by frame), its
 * calls, and its shortest and longest whole call.  A caller's line:
 * the same figures of the calls this caller made, and those calls of
 * all the function's; <thread start> is the first timed call of a
 * thread's stack.  A callee's line: the callee's figures under this
 * function.  Nothing here is estimated or sampled: every figure was
 * measured call by call, in wall time, which is why it is a graph of
 * its own and not mixed into the sampled one's CPU time.  Entries are
 * sorted by inclusive time; callers by increasing time, callees by
 * decreasing, as the sampled graph's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/* What the printer keeps: the functions and arcs of r->tcalls. */
struct mp {
	const struct report *r;
	const struct tcall **funcs;	/* by decreasing inclusive time */
	size_t		 nfuncs;
	const struct tcall **into;	/* arcs by callee */
	const struct tcall **from;	/* arcs by caller (r->tcalls' order) */
	size_t		 narcs;
	size_t		*index;		/* by row id: [n], 0 if none */
	const struct tcall **byrow;	/* by row id: its function's */
};

static int
cmp_incl_down(const void *x, const void *y)
{
	const struct tcall *a = *(const struct tcall *const *)x;
	const struct tcall *b = *(const struct tcall *const *)y;

	if (a->incl != b->incl)
		return a->incl > b->incl ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

static int
cmp_incl_up(const void *x, const void *y)
{
	return -cmp_incl_down(x, y);
}

static int
cmp_callee(const void *x, const void *y)
{
	const struct tcall *a = *(const struct tcall *const *)x;
	const struct tcall *b = *(const struct tcall *const *)y;

	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return cmp_incl_up(x, y);
}

static void
mp_init(struct mp *m, const struct report *r)
{
	size_t i, k = 0;

	memset(m, 0, sizeof(*m));
	m->r = r;
	m->funcs = xcalloc(r->ntcalls + 1, sizeof(*m->funcs));
	m->into = xcalloc(r->ntcalls + 1, sizeof(*m->into));
	m->from = xcalloc(r->ntcalls + 1, sizeof(*m->from));
	m->index = xcalloc(r->nrows + 1, sizeof(*m->index));
	m->byrow = xcalloc(r->nrows + 1, sizeof(*m->byrow));
	for (i = 0; i < r->ntcalls; i++) {
		if (!r->tcalls[i].arc) {
			m->funcs[m->nfuncs++] = &r->tcalls[i];
			m->byrow[r->tcalls[i].to] = &r->tcalls[i];
		} else {
			m->into[m->narcs] = &r->tcalls[i];
			m->from[m->narcs++] = &r->tcalls[i];
		}
	}
	qsort(m->funcs, m->nfuncs, sizeof(*m->funcs), cmp_incl_down);
	for (i = 0; i < m->nfuncs; i++)
		m->index[m->funcs[i]->to] = ++k;
	qsort(m->into, m->narcs, sizeof(*m->into), cmp_callee);
}

static void
mp_free(struct mp *m)
{
	free(m->funcs);
	free(m->into);
	free(m->from);
	free(m->index);
	free(m->byrow);
}

/* Row id's name, and its index if it has an entry. */
static void
put_name(const struct mp *m, size_t id)
{
	put_rowname(m->r->byid[id]);
	if (m->index[id] != 0)
		printf(" [%zu]", m->index[id]);
	putchar('\n');
}

/* Shortest and longest call, in milliseconds; blank if none was whole. */
static void
put_extremes(const struct tcall *c)
{
	if (c->max > 0)
		printf("  %9.3f %9.3f  ", c->min * 1e3, c->max * 1e3);
	else
		printf("  %9s %9s  ", "", "");
}

/* A caller's or a callee's line: arc c, the callee's calls in all. */
static void
arc_line(const struct mp *m, const struct tcall *c, int caller)
{
	const struct tcall *f = m->byrow[c->to];
	char calls[48];

	(void)snprintf(calls, sizeof(calls), "%llu/%llu",
	    (unsigned long long)c->calls,
	    (unsigned long long)(f != NULL ? f->calls : c->calls));
	printf("%5s %10.4f %10.4f %15s", "", c->incl, c->self, calls);
	put_extremes(c);
	fputs("    ", stdout);
	if (!caller)
		put_name(m, c->to);
	else if (c->root)
		puts("<thread start>");
	else
		put_name(m, c->from);
}

/* The arcs from row id, from[lo..hi) of those sorted by caller. */
static void
callees(const struct mp *m, size_t id)
{
	const struct tcall **v;
	size_t lo = 0, hi = m->narcs, mid, n, i;

	while (lo < hi) {		/* the first non-root arc from id */
		mid = lo + (hi - lo) / 2;
		if (m->from[mid]->root || m->from[mid]->from >= id)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (n = 0; lo + n < m->narcs && !m->from[lo + n]->root &&
	    m->from[lo + n]->from == id; n++)
		;
	v = xcalloc(n + 1, sizeof(*v));
	memcpy(v, m->from + lo, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_incl_down);
	for (i = 0; i < n; i++)
		arc_line(m, v[i], 0);
	free(v);
}

/* The arcs into row id: into[] sorted by callee, then by time. */
static void
callers(const struct mp *m, size_t id)
{
	size_t lo = 0, hi = m->narcs, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->into[mid]->to >= id)
			hi = mid;
		else
			lo = mid + 1;
	}
	for (; lo < m->narcs && m->into[lo]->to == id; lo++)
		arc_line(m, m->into[lo], 1);
}

/* -q: after the sampled graph, the measured one of r, if it has one. */
void
measured_print(const struct report *r, const struct profile *p)
{
	const struct monx_clocks *k = &p->tclocks;
	const struct tcall *f;
	struct mp m;
	char calls[24], idx[24];
	size_t i;

	if (r->ntcalls == 0)
		return;
	mp_init(&m, r);
	printf("\nmeasured call graph: every call timed one by one "
	    "(-finstrument-functions),\nwall time in seconds, recursion "
	    "counted once in its outermost call\n");
	if (k->unwound > 0)
		printf("unwound: %llu calls closed by an unwind (longjmp, "
		    "an exception, a thread's end),\n      timed until "
		    "then\n", (unsigned long long)k->unwound);
	if (k->missed + k->deep + k->nomem > 0)
		printf("untimed: %llu calls (in a handler that interrupted "
		    "a hook, too deep, or\n      no memory)\n",
		    (unsigned long long)(k->missed + k->deep + k->nomem));
	printf("\nindex %10s %10s %15s  %9s %9s  name\n", "incl s",
	    "self s", "calls", "min ms", "max ms");
	for (i = 0; i < m.nfuncs; i++) {
		f = m.funcs[i];
		callers(&m, f->to);
		(void)snprintf(calls, sizeof(calls), "%llu",
		    (unsigned long long)f->calls);
		(void)snprintf(idx, sizeof(idx), "[%zu]", i + 1);
		printf("%-5s %10.4f %10.4f %15s", idx, f->incl, f->self,
		    calls);
		put_extremes(f);
		put_name(&m, f->to);
		callees(&m, f->to);
		puts("-----------------------------------------------"
		    "------------");
	}
	mp_free(&m);
}
