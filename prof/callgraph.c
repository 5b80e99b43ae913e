/*
 * callgraph.c -- the call graph over the rows of a report.
 *
 * attrib.c gives the graph in rows: the arcs mcount counted, as pairs
 * of row ids with their calls, and each sampled stack as the row ids
 * of its frames, innermost first.  From those alone this file works
 * out, with no estimate in between:
 *
 *	a row's self time	samples of the stacks it ends
 *	its inclusive time	samples of the stacks it is in, once a
 *				stack however often it recurs there
 *	an arc's time		samples of the stacks in which the caller
 *				calls the callee directly (adjacent
 *				frames), once a stack; of which, the
 *				stacks that end in the callee right there
 *
 * so that recursion, mutual or not, counts once per stack and no cycle
 * needs lumping.  A pair of adjacent frames is unconfirmed when the
 * counted arcs say the caller's call at that return address went to
 * another function, or when no counted arc joins the two while arcs
 * into the callee were counted (it was compiled to count its calls):
 * the stack walk skipped a frame, which happens in code built without
 * frame pointers (Debian's libc), or the stack is wrong.  The samples
 * of stacks holding one are summed, so that the report says how much
 * time rests on them.
 *
 * When there are arcs, gprof's equal-cost estimate is worked out too,
 * for -e to put beside the measured figures: each function's inclusive
 * time is its self time plus, for each function it calls, that one's
 * estimated inclusive time in the share of its calls this caller made.
 * Arcs that close a cycle (a back edge of a depth-first walk) carry
 * none of it: gprof would have lumped the cycle into one entry.
 */
#include <stdlib.h>
#include <string.h>

#include "prof.h"

static int
cmp_cgarc(const void *a, const void *b)
{
	const struct cgarc *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return 0;
}

/* The index of the arc from -> to, or SIZE_MAX. */
size_t
graph_find(const struct graph *g, size_t from, size_t to)
{
	struct cgarc key;
	const struct cgarc *c;

	key.from = from;
	key.to = to;
	c = bsearch(&key, g->arcs, g->narcs, sizeof(*g->arcs), cmp_cgarc);
	return c == NULL ? SIZE_MAX : (size_t)(c - g->arcs);
}

static void
add_arc(struct graph *g, size_t from, size_t to)
{
	struct cgarc *c;

	g->arcs = xgrow(g->arcs, &g->arccap, g->narcs, 1, sizeof(*g->arcs));
	c = &g->arcs[g->narcs++];
	memset(c, 0, sizeof(*c));
	c->from = from;
	c->to = to;
}

static void
add_cgarc(void *into, const void *from)
{
	struct cgarc *x = into;
	const struct cgarc *y = from;

	addsat(&x->calls, y->calls);
	x->counted |= y->counted;
}

/*
 * Every pair of adjacent frames becomes an arc too, of no calls; then
 * arcs of the same two rows are one.
 */
static void
join_arcs(struct graph *g)
{
	const struct cgstack *s;
	const size_t *id;
	size_t i, j;

	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		id = g->ids + s->first;
		for (j = 0; j + 1 < s->depth; j++)
			if (id[j] != ROW_NONE && id[j + 1] != ROW_NONE)
				add_arc(g, id[j + 1], id[j]);
	}
	g->narcs = sortsum(g->arcs, g->narcs, sizeof(*g->arcs), cmp_cgarc,
	    add_cgarc);
}

/* The calls into each row, from others and from itself. */
static void
count_calls(struct report *r)
{
	const struct cgarc *c;
	struct row *w;
	size_t i;

	for (i = 0; i < r->g.narcs; i++) {
		c = &r->g.arcs[i];
		w = &r->rows[c->to];
		addsat(c->from == c->to ? &w->selfcalls : &w->callsin,
		    c->calls);
	}
}

/* Was the callee of arc c compiled to count its calls? */
static int
counted_into(const struct report *r, const struct cgarc *c)
{
	const struct row *w = &r->rows[c->to];

	return w->callsin > 0 || w->selfcalls > 0;
}

/*
 * Stack i's pairs: each arc's samples once, the leaf pair's as leaf
 * too, and the stack's samples as unconfirmed once if a pair is: one
 * whose caller's call went elsewhere by the counted arcs (attrib.c
 * marked it skipped), or one no counted arc joins while its callee's
 * calls were counted.
 */
static void
stack_pairs(struct report *r, size_t i, size_t *arcmark)
{
	struct graph *g = &r->g;
	const struct cgstack *s = &g->stacks[i];
	const size_t *id = g->ids + s->first;
	struct cgarc *c;
	size_t j, k;
	int unconf = 0;

	for (j = 0; j + 1 < s->depth; j++) {
		if (id[j] == ROW_NONE || id[j + 1] == ROW_NONE)
			continue;
		if ((k = graph_find(g, id[j + 1], id[j])) == SIZE_MAX)
			continue;	/* join_arcs() made them all */
		c = &g->arcs[k];
		if (j == 0)
			c->leaf += s->samples;
		if (g->skipped[s->first + j + 1] || (!c->counted &&
		    g->counted && counted_into(r, c))) {
			if (!c->unconfirmed)
				g->nounconf++;
			c->unconfirmed = 1;
			unconf = 1;
		}
		if (arcmark[k] == i + 1)
			continue;
		arcmark[k] = i + 1;
		c->samples += s->samples;
	}
	if (unconf)
		g->unconfirmed += s->samples;
}

/* Self and inclusive samples of the rows, and the arcs' samples. */
static void
measure(struct report *r)
{
	struct graph *g = &r->g;
	const struct cgstack *s;
	const size_t *id;
	size_t *rowmark, *arcmark, i, j;

	rowmark = xcalloc(r->nrows + 1, sizeof(*rowmark));
	arcmark = xcalloc(g->narcs + 1, sizeof(*arcmark));
	for (i = 0; i < r->nrows; i++)
		r->rows[i].level = SIZE_MAX;
	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		id = g->ids + s->first;
		g->samples += s->samples;
		if (s->depth > 0 && id[0] != ROW_NONE)
			r->rows[id[0]].gself += s->samples;
		for (j = 0; j < s->depth; j++) {
			if (id[j] == ROW_NONE)
				continue;
			if (s->depth - 1 - j < r->rows[id[j]].level)
				r->rows[id[j]].level = s->depth - 1 - j;
			if (rowmark[id[j]] == i + 1)
				continue;
			rowmark[id[j]] = i + 1;
			r->rows[id[j]].incl += s->samples;
		}
		stack_pairs(r, i, arcmark);
	}
	free(rowmark);
	free(arcmark);
}

/* The self time the estimate starts from: the graph's own, if sampled. */
static double
est_self(const struct report *r, const struct row *w)
{
	return r->g.sampled ? w->gself : w->samples;
}

/* Arc c's share of its callee's estimated time, by calls. */
static double
est_share(const struct report *r, const struct cgarc *c)
{
	const struct row *w = &r->rows[c->to];

	if (c->from == c->to || c->calls == 0 || w->callsin == 0)
		return 0;
	return (double)c->calls / (double)w->callsin;
}

/* State of the estimate's depth-first walk. */
struct walk {
	size_t	*first;		/* arcs from row i: first[i] .. first[i+1] */
	size_t	*stack;		/* rows on the walk */
	size_t	*next;		/* the next arc each of them will follow */
	char	*state;		/* 0 unseen, 1 on the walk, 2 done */
	size_t	 n;
};

/* Row v's estimate, once every row it calls is done or on the walk. */
static void
est_done(struct report *r, struct walk *w, size_t v)
{
	const struct cgarc *c;
	size_t k;

	r->rows[v].est = est_self(r, &r->rows[v]);
	for (k = w->first[v]; k < w->first[v + 1]; k++) {
		c = &r->g.arcs[k];
		if (w->state[c->to] == 2)
			r->rows[v].est += r->rows[c->to].est *
			    est_share(r, c);
	}
	w->state[v] = 2;
}

/* The walk from row root, callees before callers. */
static void
est_walk(struct report *r, struct walk *w, size_t root)
{
	const struct cgarc *c;
	size_t v, to;

	w->n = 0;
	w->stack[w->n] = root;
	w->next[w->n++] = w->first[root];
	w->state[root] = 1;
	while (w->n > 0) {
		v = w->stack[w->n - 1];
		if (w->next[w->n - 1] == w->first[v + 1]) {
			est_done(r, w, v);
			w->n--;
			continue;
		}
		c = &r->g.arcs[w->next[w->n - 1]++];
		to = c->to;
		if (w->state[to] != 0 || est_share(r, c) == 0)
			continue;
		w->state[to] = 1;
		w->stack[w->n] = to;
		w->next[w->n++] = w->first[to];
	}
}

/* gprof's equal-cost estimate of every row, and of every arc. */
static void
estimate(struct report *r)
{
	struct walk w;
	struct cgarc *c;
	size_t i, k;

	w.first = xcalloc(r->nrows + 2, sizeof(*w.first));
	w.stack = xcalloc(r->nrows + 1, sizeof(*w.stack));
	w.next = xcalloc(r->nrows + 1, sizeof(*w.next));
	w.state = xcalloc(r->nrows + 1, 1);
	for (i = 0, k = 0; i <= r->nrows; i++) {
		while (k < r->g.narcs && r->g.arcs[k].from < i)
			k++;
		w.first[i] = k;
	}
	for (i = 0; i < r->nrows; i++)
		if (w.state[i] == 0)
			est_walk(r, &w, i);
	for (k = 0; k < r->g.narcs; k++) {
		c = &r->g.arcs[k];
		c->est = r->rows[c->to].est * est_share(r, c);
	}
	r->g.estimated = 1;
	free(w.first);
	free(w.stack);
	free(w.next);
	free(w.state);
}

/*
 * Work out the graph of r, whose rows are still in the order they were
 * made (row i has id i): the arcs of attrib.c, the stacks' pairs, the
 * measured times, and gprof's estimate when arcs were counted.
 */
void
graph_compute(struct report *r)
{
	join_arcs(&r->g);
	count_calls(r);
	measure(r);
	if (r->g.counted)
		estimate(r);
}

void
graph_free(struct graph *g)
{
	free(g->arcs);
	free(g->stacks);
	free(g->ids);
	free(g->skipped);
	memset(g, 0, sizeof(*g));
}
