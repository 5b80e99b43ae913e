/*
 * reconcile.c -- the one rule every view of a profile but the call
 * graph's own follows (issue 26): a function's self time is its row's,
 * and its inclusive time is never less.
 *
 * The stacks and the histogram are two records of the same samples
 * that need not agree: the histogram's bins and the stacks' exact pcs
 * part by a sample or two, and samples may keep no stack at all (files
 * without stacks, a part of a run under PROFSTACK=0, stacks lost).  So
 * the stacks ending in a row are scaled down to the row's samples where
 * they hold more (each stack's scaled figure), and a row's samples that
 * they do not hold are its nostack samples, a stack of their own that
 * ends in the row and holds no caller.  The samples the report gives no
 * function are the last place of nostack, where ROW_NONE stands.  A
 * row's inclusive time is then the scaled samples of the stacks it is
 * in, once a stack, and its nostack samples: -i's column and the sort
 * by it read it here, and the exports lay out the same stacks
 * (export/stacks.c), so that a function's inclusive time in the report
 * is its cumulative time in pprof, the folded stacks and the rest.
 *
 * The call graph (-q) keeps its figures measured from the stacks as
 * they are (callgraph.c): it shows what the stacks saw, arcs and all,
 * and a row's time that no stack holds as its own, called from
 * <no stack>, unless it is less than 1% of the row.
 */
#include <stdlib.h>

#include "model/model.h"
#include "prof.h"
#include "util/util.h"

/* The place of stack s's innermost frame in nostack: ROW_NONE's last. */
static size_t
leaf_of(const struct report *r, const struct cgstack *s)
{
	size_t id = r->g.ids[s->first];

	return id == ROW_NONE ? r->nrows : id;
}

/* Does stack s count?  One without frames or samples stands for none. */
static int
counts(const struct cgstack *s)
{
	return s->depth > 0 && s->samples > 0;
}

/* What the rows and no row are owed: nostack before the stacks' part. */
static void
owed(const struct report *r, double *want)
{
	const struct row *w;
	double named = 0, all = r->total - r->overhead;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		want[w->id] = w->samples > 0 ? w->samples : 0;
		named += want[w->id];
	}
	want[r->nrows] = all - named > 0.5 ? all - named : 0;
}

/* Each row's inclusive samples: the stacks it is in, and its nostack. */
static void
inclusive(struct report *r)
{
	struct graph *g = &r->g;
	const struct cgstack *s;
	size_t i, j, id, *mark;

	mark = xcalloc(r->nrows + 1, sizeof(*mark));
	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		for (j = 0; j < s->depth && counts(s); j++) {
			id = g->ids[s->first + j];
			if (id == ROW_NONE || mark[id] == i + 1)
				continue;
			mark[id] = i + 1;
			g->rincl[id] += s->scaled;
		}
	}
	for (id = 0; id < r->nrows; id++)
		g->rincl[id] += g->nostack[id];
	free(mark);
}

/*
 * Reconcile r's stacks with its rows, as the file's comment says.
 * Call once the rows and the totals are final: at the end of
 * attribute() and of focus_apply(); the rows may be sorted after.
 */
void
graph_reconcile(struct report *r)
{
	struct graph *g = &r->g;
	struct cgstack *s;
	double *want, *have;
	size_t i, id, n = r->nrows + 1;

	free(g->nostack);
	free(g->rincl);
	want = g->nostack = xcalloc(n, sizeof(*g->nostack));
	g->rincl = xcalloc(n, sizeof(*g->rincl));
	g->nrincl = r->nrows;
	have = xcalloc(n, sizeof(*have));
	owed(r, want);
	for (i = 0; i < g->nstacks; i++)
		if (counts(&g->stacks[i]))
			have[leaf_of(r, &g->stacks[i])] += g->stacks[i].samples;
	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		s->scaled = counts(s) ? s->samples : 0;
		id = counts(s) ? leaf_of(r, s) : 0;
		if (counts(s) && have[id] > want[id])
			s->scaled *= want[id] / have[id];
	}
	/* want becomes nostack: nothing missing, but for the sums' rounding */
	for (id = 0; id < n; id++)
		if (want[id] - have[id] > 1e-9 * want[id])
			want[id] -= have[id];
		else
			want[id] = 0;
	inclusive(r);
	free(have);
}

/*
 * Row w's inclusive samples as the report and the exports count them:
 * at least its own; 0 before graph_reconcile() or for a row made after.
 */
double
graph_incl(const struct report *r, const struct row *w)
{
	return r->g.rincl != NULL && w->id < r->g.nrincl ?
	    r->g.rincl[w->id] : 0;
}

/* The samples of the row with id id (nrows: of no row) no stack holds. */
double
graph_nostack(const struct report *r, size_t id)
{
	return r->g.nostack != NULL && id <= r->g.nrincl ?
	    r->g.nostack[id] : 0;
}
