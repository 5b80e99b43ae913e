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
 * the report's measured figures.  The counts add up to the time of the
 * threads' outermost timed calls, summed.  A function no row stands for is
 * "[unknown]".  A context whose stack libmon did not keep -- made after
 * its thread had made as many as libmon keeps, or whose parent the
 * file left out for want of room -- is rooted at X_LOST, "[stack not
 * kept: contexts over the limit]".  Only the calls timed are in the
 * set: the time of code
 * not built with -finstrument-functions is its caller's self time, as
 * the report has it.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/*
 * Frames the set holds at most: a forged file's chains of contexts, or
 * a real one's of thousands of deep contexts, would give a stack of
 * ids for each with no bound but memory.
 */
#define FRAMESMAX	((size_t)1 << 24)

/* The set of prof -M's exports: see the head of the file. */
void
xset_make_measured(struct xset *x, struct report *r,
    const struct profile *p, const struct opts *o, const char *prog)
{
	const struct tctx *c;
	size_t i, j, depth, *id, left;

	xset_begin(x, r, p, o, prog);
	x->measured = 1;
	x->period = 1e-9;
	x->stacks = xcalloc(r->ntctx + 1, sizeof(*x->stacks));
	left = 0;
	for (i = 0; i < r->ntctx; i++) {
		c = &r->tctx[i];
		if (c->self <= 0)
			continue;
		depth = c->depth + (c->lost != 0);	/* under X_LOST */
		if (x->nids + depth > FRAMESMAX) {
			left++;
			continue;
		}
		id = xset_add_stack(x, depth, c->self / x->period);
		for (j = i; j != SIZE_MAX; j = r->tctx[j].up) {
			id[--depth] = r->tctx[j].row == ROW_NONE ?
			    X_UNKNOWN(x) : r->tctx[j].row;
			if (r->tctx[j].up == SIZE_MAX && r->tctx[j].lost)
				id[--depth] = X_LOST(x);
		}
	}
	if (left > 0)
		warnx("warning: %s: %zu measured stacks left out, past %zu "
		    "frames in all", p->first, left, (size_t)FRAMESMAX);
	xset_merge(x);
}
