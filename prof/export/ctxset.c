/*
 * ctxset.c -- prof -M -F folded|svg|pprof: the calls timed one by one
 * (-finstrument-functions) laid out as a set of stacks for the writers:
 * a flame graph of measured time, not of samples.
 *
 * Each calling context the hooks kept (model/attrib.c's tctx) is a
 * stack, its frames root first the report's rows of the functions
 * above it and its own, and its count the nanoseconds of wall time its
 * calls spent in the function itself: their self time.  A stack's
 * inclusive time, which a flame graph draws as the width of its frame,
 * is then the time of its calls with what they called, measured, and a
 * function on a stack twice (recursion) is counted once in it, as in
 * the report's measured figures.  A function no row stands for is
 * "[unknown]".  A context made after its thread had made as many as
 * libmon keeps, whose stack is not known, is rooted at "[cut at the
 * stack limit]".  Only the calls timed are in the set: the time of code
 * not built with -finstrument-functions is its caller's self time, as
 * the report has it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/* The set of prof -M's exports: see the head of the file. */
void
xset_make_measured(struct xset *x, struct report *r,
    const struct profile *p, const struct opts *o, const char *prog)
{
	const struct tctx *c;
	size_t i, j, depth, *id;

	memset(x, 0, sizeof(*x));
	x->r = r;
	x->p = p;
	x->o = o;
	x->prog = prog;
	x->measured = 1;
	x->period = 1e-9;
	report_sort(r, o);
	xset_labels(x);
	x->stacks = xcalloc(r->ntctx + 1, sizeof(*x->stacks));
	for (i = 0; i < r->ntctx; i++) {
		c = &r->tctx[i];
		if (c->self <= 0)
			continue;
		for (depth = 0, j = i; j != SIZE_MAX; j = r->tctx[j].up) {
			depth++;
			if (r->tctx[j].up == SIZE_MAX && r->tctx[j].lost)
				depth++;
		}
		id = xset_add_stack(x, depth, c->self / x->period);
		for (j = i; j != SIZE_MAX; j = r->tctx[j].up) {
			id[--depth] = r->tctx[j].row == ROW_NONE ?
			    X_UNKNOWN(x) : r->tctx[j].row;
			if (r->tctx[j].up == SIZE_MAX && r->tctx[j].lost)
				id[--depth] = X_CUT(x);
		}
	}
	xset_merge(x);
}
