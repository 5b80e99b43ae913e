/*
 * wallset.c -- prof -w -F folded|svg|pprof: the wall samples of
 * PROFMODE=wall laid out as a set of stacks for the writers, an
 * off-CPU flame graph and a CPU one in one.
 *
 * Each sample's stack is its frames root first, each the report's row
 * of its function (model/wall.c), so that a frame is named as the CPU
 * report names it and a writer that knows rows (pprof) gives the CPU
 * stacks' and the wall stacks' frames one function.  libmon's frames
 * are left out, and the samples of threads doing libmon's own work
 * (model/wall.c) are in no stack: their seconds are in the title.  A
 * stack whose outer frames were lost starts at [cut at the stack
 * limit] or [stack ends short: callers unknown], as a CPU stack does.
 * A waiting one ends in a frame of its own that marks it and names the
 * system call, "[waiting: read]": in the SVG it is a grey box over the
 * function that waited, in folded output its last frame.  A stack with
 * no frames is one frame, "[running, not sampled yet]", "[no stack]",
 * or with stacks off "[running: no stack kept]", "[no stack kept]".
 * Counts are samples of the wall clock, and seconds are thread-seconds;
 * -r leaves out the threads that never ran, as in the report.
 *
 * The labels of the set's own frames come after the report's rows'
 * ids and the X_FIXED of xset.h, so that no frame is taken for a row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

#define FIRST(x)	((x)->r->nrows + X_FIXED)

/* Label name's id, added with its object and entry if new. */
static size_t
label(struct xset *x, const char *name, size_t *cap)
{
	size_t i;

	for (i = FIRST(x); i < x->nlabels; i++)
		if (strcmp(x->labels[i], name) == 0)
			return i;
	x->labels = xgrow(x->labels, cap, x->nlabels, 1, sizeof(*x->labels));
	x->objs = xreallocarray(x->objs, *cap, sizeof(*x->objs));
	x->addrs = xreallocarray(x->addrs, *cap, sizeof(*x->addrs));
	x->labels[x->nlabels] = printable(name);
	x->objs[x->nlabels - FIRST(x)] = OBJ_NONE;
	x->addrs[x->nlabels - FIRST(x)] = 0;
	return x->nlabels++;
}

static void
push(struct xset *x, size_t id)
{
	x->ids = xgrow(x->ids, &x->idcap, x->nids, 1, sizeof(*x->ids));
	x->ids[x->nids++] = id;
}

/*
 * Wall stack s as a stack of the set, root first: under X_CUT or
 * X_SHORT where its outer frames were lost (wall_rooted()), as a CPU
 * stack is.
 */
static void
add_stack(struct xset *x, const struct wstack *s, const unsigned char *called,
    size_t *cap)
{
	const struct row *w;
	struct xstack *xs;
	char buf[64], sys[32];
	size_t i;

	xs = &x->stacks[x->nstacks++];
	xs->first = x->nids;
	if (s->cut)
		push(x, X_CUT(x));
	else if (!wall_rooted(x->r, x->p, s, called))
		push(x, X_SHORT(x));
	for (i = s->depth; i > 0; i--)
		if ((w = wall_frame_row(x->r, x->p,
		    &x->p->wframes[s->first + i - 1])) != NULL)
			push(x, w->id);
	if (x->nids == xs->first)
		push(x, label(x, s->depth == 0 ? wall_nostack_name(x->p, s) :
		    "[unknown]", cap));
	if (s->state != MONX_WS_RUN) {
		snprintf(buf, sizeof(buf), "[waiting: %s]",
		    wall_sysname(s->sysno, sys, sizeof(sys)));
		push(x, label(x, buf, cap));
	}
	xs->depth = x->nids - xs->first;
	xs->samples = s->secs / x->period;
}

static const struct xset *cmpset;

static int
cmp_xstack(const void *a, const void *b)
{
	const struct xstack *s = a, *t = b;
	size_t i;
	int c;

	for (i = 0; i < s->depth && i < t->depth; i++)
		if ((c = strcmp(cmpset->labels[cmpset->ids[s->first + i]],
		    cmpset->labels[cmpset->ids[t->first + i]])) != 0)
			return c;
	return s->depth < t->depth ? -1 : s->depth > t->depth;
}

/* The stacks sorted by their frames, the same ones summed, counted. */
static void
sort_merge(struct xset *x)
{
	double cum = 0;
	size_t i, k;

	cmpset = x;
	qsort(x->stacks, x->nstacks, sizeof(*x->stacks), cmp_xstack);
	for (i = k = 0; i < x->nstacks; i++) {
		if (k > 0 && cmp_xstack(&x->stacks[k - 1], &x->stacks[i]) == 0)
			x->stacks[k - 1].samples += x->stacks[i].samples;
		else
			x->stacks[k++] = x->stacks[i];
	}
	x->nstacks = k;
	for (i = 0; i < k; i++) {
		x->stacks[i].count = xset_round(x->stacks[i].samples, &cum);
		x->count += x->stacks[i].count;
		x->samples += x->stacks[i].samples;
	}
}

/* The set of prof -w's exports: see the head of the file. */
void
xset_make_wall(struct xset *x, struct report *r, const struct profile *p,
    const struct opts *o, const char *prog)
{
	const struct wstack *s;
	unsigned char *called;
	size_t i, cap;

	xset_begin(x, r, p, o, prog);
	x->wall = 1;
	x->period = p->wallhz > 0 ? 1 / p->wallhz : 0.01;
	cap = x->nlabels;
	called = wall_called(r, p);
	x->stacks = xcalloc(p->nwstacks + 1, sizeof(*x->stacks));
	for (i = 0; i < p->nwstacks; i++) {
		s = &p->wstacks[i];
		if (!wall_kept(o, &p->wthreads[s->thread]))
			continue;
		if (wall_is_libmon(r, p, s)) {
			x->wallself += s->secs;
			continue;
		}
		add_stack(x, s, called, &cap);
	}
	free(called);
	sort_merge(x);
}
