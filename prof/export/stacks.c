/*
 * stacks.c -- the stacks every prof -F writer reads.
 *
 * The report's graph holds each sampled stack innermost first, as row
 * ids, one per distinct run of addresses.  The formats want them the
 * other way round, root first, and one per distinct run of functions:
 * two stacks that differ only in the address inside a function are one
 * line of folded output, one path of a flame graph.  So the stacks are
 * reversed, sorted by their frames' names and merged.
 *
 * The formats count whole samples (speedscope refuses "12.5"), while
 * files merged at different rates give weighted ones.  Each stack's
 * count is rounded on the running sum, in the sorted order, so that the
 * counts add up to the weighted total rounded: no stack gains or loses
 * more than one sample, and nothing is lost overall.
 *
 * Without stacks (PROFSTACK=0, a classic file, every stack lost) the
 * writers get one stack a function: its row alone, with the histogram's
 * samples.
 *
 * Every view of a profile holds the report's totals, by the one rule
 * model/reconcile.c works out for the report's -i column too: the same
 * samples in all, and under each function, as its innermost frame,
 * the samples of its row.  The stacks ending in a function come scaled
 * down to its row's samples where they held more (the histogram's bins
 * and the stacks' exact pcs part by a sample or two); a row's samples
 * that no stack holds (files without stacks, samples that kept none)
 * are a stack [no stack];function.  The kernel's samples, where the
 * perf clock took them in kernel mode, are the kernel's row's frame
 * under the stack that called it, as in -q's graph; the kernel's time
 * that no stack holds (the perf clock sampled user mode only, or the
 * sample kept no stack; the timer clocks' land on the call site, in its
 * stack, as in the report) and the CPU time no sample stood for are
 * frames of their own at the root, as they are rows of their own; what
 * the report gives no function is one frame, [unknown].  libmon's own
 * code is kept apart as the report keeps it: out of every stack and of
 * the total, its share said in words where a format has room (the SVG's
 * title, xset_overhead()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/* A frame's row, or NULL for the two frames no row stands for. */
const struct row *
xset_row(const struct xset *x, size_t id)
{
	return id < x->r->nrows ? x->r->byid[id] : NULL;
}

/* A frame's object: an index into the profile's, or OBJ_NONE. */
size_t
xset_object(const struct xset *x, size_t id)
{
	const struct row *w = xset_row(x, id);

	if (w == NULL && x->objs != NULL && id >= x->r->nrows + X_FIXED &&
	    id < x->nlabels)
		return x->objs[id - x->r->nrows - X_FIXED];
	return w == NULL ? OBJ_NONE : w->objidx;
}

double
xset_seconds(const struct xset *x, double samples)
{
	return samples * (x->period > 0 ? x->period : x->r->period);
}

/*
 * v rounded on the running sum *cum, which it then joins: whole counts
 * whose total is the total of the v rounded.
 */
/* v rounded, held within what a count can hold (a forged file's). */
static uint64_t
whole(double v)
{
	if (!(v > 0))
		return 0;
	return v < 0x1p62 ? (uint64_t)(v + 0.5) : (uint64_t)1 << 62;
}

uint64_t
xset_round(double v, double *cum)
{
	uint64_t before = whole(*cum);

	*cum += v;
	return whole(*cum) - before;
}

/* The labels of the rows and of the X_FIXED frames no row stands for. */
static void
xset_labels(struct xset *x)
{
	size_t i;

	x->nlabels = x->r->nrows + X_FIXED;
	x->labels = xcalloc(x->nlabels, sizeof(*x->labels));
	for (i = 0; i < x->r->nrows; i++)
		x->labels[i] = row_name(x->r->byid[i], ROWNAME_ALL);
	x->labels[X_UNKNOWN(x)] = xstrdup("[unknown]");
	x->labels[X_NOSTACK(x)] = xstrdup("[no stack]");
	x->labels[X_CUT(x)] = xstrdup("[cut at the stack limit]");
	x->labels[X_SHORT(x)] = xstrdup("[stack ends short: callers unknown]");
	x->labels[X_LOST(x)] = xstrdup("[stack not kept: contexts over the "
	    "limit]");
}

/* A stack of depth frames, their ids to be filled in by the caller. */
size_t *
xset_add_stack(struct xset *x, size_t depth, double samples)
{
	struct xstack *s = &x->stacks[x->nstacks++];

	s->first = x->nids;
	s->depth = depth;
	s->samples = samples;
	x->ids = xgrow(x->ids, &x->idcap, x->nids, depth + 1,
	    sizeof(*x->ids));
	x->nids += depth;
	return x->ids + s->first;
}

/*
 * The graph's stacks, root first, with their samples scaled as the
 * model reconciled them; one cut at the limit under X_CUT, one that
 * ends short of a thread's start under X_SHORT, so that no function
 * looks a root where its callers were only lost.
 */
static void
sampled_stacks(struct xset *x)
{
	const struct graph *g = &x->r->g;
	const struct cgstack *s;
	size_t i, j, *id, v;

	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		if (s->depth == 0 || s->samples <= 0)
			continue;
		id = xset_add_stack(x, s->depth + (s->cut || s->shortend),
		    s->scaled);
		if (s->cut)
			*id++ = X_CUT(x);
		else if (s->shortend)
			*id++ = X_SHORT(x);
		for (j = 0; j < s->depth; j++) {
			v = g->ids[s->first + s->depth - 1 - j];
			id[j] = v == ROW_NONE ? X_UNKNOWN(x) : v;
		}
	}
}

/*
 * The samples no stack holds, a stack each: X_NOSTACK then the
 * function; the frame alone at the root for the kernel's and the
 * unsampled rows, for X_UNKNOWN (what the report gives no function)
 * and when there are no stacks at all, one a function then.
 */
static void
nostack_stacks(struct xset *x)
{
	const struct row *w;
	size_t id, *leaf;
	double v;

	for (id = 0; id <= x->r->nrows; id++) {
		if ((v = graph_nostack(x->r, id)) <= 0)
			continue;
		w = xset_row(x, id);
		if (w == NULL || w->kernel || x->flat)
			*xset_add_stack(x, 1, v) = id;
		else {
			leaf = xset_add_stack(x, 2, v);
			leaf[0] = X_NOSTACK(x);
			leaf[1] = id;
		}
	}
}

static const struct xset *sortx;	/* for the C11 qsort below */

static int
cmp_stack(const void *a, const void *b)
{
	const struct xstack *s = a, *t = b;
	const size_t *u = sortx->ids + s->first, *v = sortx->ids + t->first;
	size_t i;

	int c;

	for (i = 0; i < s->depth && i < t->depth; i++) {
		if (u[i] == v[i])
			continue;
		if ((c = strcmp(sortx->labels[u[i]], sortx->labels[v[i]])) != 0)
			return c;
		return u[i] < v[i] ? -1 : 1;
	}
	if (s->depth != t->depth)
		return s->depth < t->depth ? -1 : 1;
	return 0;
}

/* Stacks of the same frames made one; then their whole counts. */
void
xset_merge(struct xset *x)
{
	double cum = 0;
	size_t i, k;

	sortx = x;
	qsort(x->stacks, x->nstacks, sizeof(*x->stacks), cmp_stack);
	for (i = 1, k = 0; i < x->nstacks; i++) {
		if (cmp_stack(&x->stacks[k], &x->stacks[i]) == 0)
			x->stacks[k].samples += x->stacks[i].samples;
		else
			x->stacks[++k] = x->stacks[i];
	}
	if (x->nstacks > 0)
		x->nstacks = k + 1;
	for (i = 0, k = 0; i < x->nstacks; i++) {
		x->stacks[i].count = xset_round(x->stacks[i].samples, &cum);
		x->samples += x->stacks[i].samples;
		x->count += x->stacks[i].count;
	}
}

/*
 * A set of report r's, whose profile is p, with no stacks yet: its rows
 * sorted and named as o says (-C demangles) unless they are already,
 * and labelled; prog is the program's name to show.
 */
void
xset_begin(struct xset *x, struct report *r, const struct profile *p,
    const struct opts *o, const char *prog)
{
	memset(x, 0, sizeof(*x));
	x->r = r;
	x->p = p;
	x->o = o;
	x->prog = prog;
	if (r->byid == NULL)
		report_sort(r, o);
	xset_labels(x);
}

/* The stacks of report r, its CPU samples': see xset_begin(). */
void
xset_make(struct xset *x, struct report *r, const struct profile *p,
    const struct opts *o, const char *prog)
{
	report_sort(r, o);
	xset_begin(x, r, p, o, prog);
	x->stacks = xcalloc(r->g.nstacks + r->nrows + 2, sizeof(*x->stacks));
	x->flat = !(r->g.sampled && r->g.nstacks > 0);
	sampled_stacks(x);
	nostack_stacks(x);
	xset_merge(x);
}

void
xset_free(struct xset *x)
{
	size_t i;

	for (i = 0; i < x->nlabels; i++)
		free(x->labels[i]);
	free(x->labels);
	free(x->stacks);
	free(x->ids);
	free(x->objs);
	free(x->addrs);
	memset(x, 0, sizeof(*x));
}

/*
 * One line on the run, for a title: the program, the seconds of the
 * stacks (the report's total), libmon's apart, the clock as -s gives it
 * -- with -w, the wall sampler's rate, since the stacks are its.
 */
char *
xset_title(const struct xset *x)
{
	const struct profile *p = x->p;
	char *s = NULL, *o;
	size_t len = 0;
	FILE *fp;

	if ((fp = open_memstream(&s, &len)) == NULL)
		return xstrdup(x->prog);
	if (x->measured)
		fprintf(fp, "%s: %.2f s of wall time in the calls timed one "
		    "by one (-finstrument-functions), every call measured",
		    x->prog, xset_seconds(x, x->samples));
	else if (x->wall) {
		fprintf(fp, "%s: %.2f thread-seconds of wall time, running "
		    "and waiting", x->prog, xset_seconds(x, x->samples));
		if (x->wallself > 0)
			fprintf(fp, " (libmon's own apart: %.2f s)",
			    x->wallself);
		fprintf(fp, "; sampled at %.0f Hz of wall time", p->wallhz);
	} else {
		fprintf(fp, "%s: %.2f s of CPU", x->prog,
		    xset_seconds(x, x->samples));
		if ((o = xset_overhead(x)) != NULL) {
			fprintf(fp, " (%s)", o);
			free(o);
		}
		fputs("; clock ", fp);
		profile_put_clock(fp, p);
	}
	fprintf(fp, "; %zu file%s", p->nfiles, p->nfiles == 1 ? "" : "s");
	if (fclose(fp) != 0 || s == NULL) {
		free(s);
		return xstrdup(x->prog);
	}
	return s;
}

/*
 * libmon's own time, which no stack holds, in words: "profiling
 * overhead apart: 0.02 s, 2.1% of all samples"; NULL if there is none.
 */
char *
xset_overhead(const struct xset *x)
{
	const struct report *r = x->r;
	char buf[128];

	if (r->overhead <= 0)
		return NULL;
	(void)snprintf(buf, sizeof(buf), "profiling overhead apart: %.2f s, "
	    "%.1f%% of all samples", xset_seconds(x, r->overhead),
	    r->total > 0 ? 100.0 * r->overhead / r->total : 0.0);
	return xstrdup(buf);
}

/* An object's file name without its directory, printable. */
char *
xset_objname(const struct xset *x, size_t obj)
{
	const struct object *o;
	const char *s;

	if (obj >= x->p->nobjs)
		return xstrdup("[unknown]");
	o = &x->p->objs[obj];
	if (o->jitpid != 0)
		return xstrdup("jit");
	if (obj == OBJ_MAIN)
		return xstrdup(x->prog);
	s = strrchr(o->path, '/');
	return printable(s != NULL && s[1] != '\0' ? s + 1 : o->path);
}
