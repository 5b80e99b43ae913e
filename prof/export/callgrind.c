/*
 * callgrind.c -- prof -F callgrind: the callgrind profile
 * format, which KCachegrind and QCachegrind read.
 *
 *	# callgrind format
 *	version: 1
 *	creator: libmon prof 1.0
 *	cmd: prog
 *	positions: line
 *	events: Samples Nanoseconds
 *
 *	ob=(1) /path/prog
 *	fl=(1) ???
 *	fn=(3) costly_caller
 *	0 5 50000000			self cost
 *	cfn=(4) work
 *	calls=100 0			calls, exact
 *	0 90 900000000			inclusive cost of those calls
 *	...
 *	totals: 110 1100000000
 *
 * A function's self cost is the samples of the stacks it ends; a call
 * line's cost, the samples of the stacks in which the caller calls the
 * callee directly, once a stack however deep the recursion -- the
 * inclusive time model/callgraph.c measures, in the whole samples of
 * stacks.c, so that every figure adds up to the totals line.  The
 * call count is mcount's; a pair the stacks show but no arc counted
 * (a caller not compiled with -pg) has calls=1, the least it can be:
 * callgrind_annotate reads the cost after a calls=0 line as the
 * caller's own, which would count it twice.  Without stacks the
 * self costs are the histogram's and the calls carry no cost.  There
 * are no line numbers: prof attributes to functions, so every cost is
 * at line 0 of a file "???", the object's name on ob=.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

struct cg {
	const struct xset *x;
	FILE		*fp;
	uint64_t	*self;		/* by frame id */
	uint64_t	*cost;		/* by arc of the graph */
	char		*named;		/* fn names written, by frame id */
	char		*obnamed;	/* ob names written, by object */
	uint64_t	 ns;		/* nanoseconds a sample */
};

/* Each frame's self cost, and each arc's cost once a stack. */
static void
costs(struct cg *c)
{
	const struct xset *x = c->x;
	const struct graph *g = &x->r->g;
	const struct xstack *s;
	const size_t *id;
	size_t *mark, i, j, k;

	mark = xcalloc(g->narcs + 1, sizeof(*mark));
	for (i = 0; i < x->nstacks; i++) {
		s = &x->stacks[i];
		id = x->ids + s->first;
		c->self[id[s->depth - 1]] += s->count;
		for (j = 0; j + 1 < s->depth; j++) {
			if (id[j] >= x->r->nrows || id[j + 1] >= x->r->nrows ||
			    (k = graph_find(g, id[j], id[j + 1])) == SIZE_MAX ||
			    mark[k] == i + 1)
				continue;
			mark[k] = i + 1;
			c->cost[k] += s->count;
		}
	}
	free(mark);
}

/* "ob=" or "cob=" for frame id's object, named the first time. */
static void
put_ob(struct cg *c, const char *key, size_t id)
{
	size_t obj = xset_object(c->x, id);
	size_t n = obj < c->x->p->nobjs ? obj : c->x->p->nobjs;
	char *path;

	fprintf(c->fp, "%s=(%zu)", key, n + 1);
	if (!c->obnamed[n]) {
		c->obnamed[n] = 1;
		path = n < c->x->p->nobjs ?
		    printable(c->x->p->objs[n].path) : xstrdup("[unknown]");
		fprintf(c->fp, " %s", path);
		free(path);
	}
	fputc('\n', c->fp);
}

/* "fn=" or "cfn=" for frame id, named the first time. */
static void
put_fn(struct cg *c, const char *key, size_t id)
{
	fprintf(c->fp, "%s=(%zu)", key, id + 1);
	if (!c->named[id]) {
		c->named[id] = 1;
		fprintf(c->fp, " %s", c->x->labels[id]);
	}
	fputc('\n', c->fp);
}

static void
put_cost(struct cg *c, uint64_t n)
{
	fprintf(c->fp, "0 %" PRIu64 " %" PRIu64 "\n", n, n * c->ns);
}

/*
 * The block of frame id: its self cost and the calls it made, the arcs
 * from *k on (the graph's arcs are sorted by caller); none for a frame
 * of no cost that made no call.
 */
static void
block(struct cg *c, size_t id, size_t *k)
{
	const struct graph *g = &c->x->r->g;
	const struct cgarc *a;
	size_t end;

	while (*k < g->narcs && g->arcs[*k].from < id)
		(*k)++;
	for (end = *k; end < g->narcs && g->arcs[end].from == id; end++)
		;
	if (c->self[id] == 0 && end == *k)
		return;
	fputc('\n', c->fp);
	put_ob(c, "ob", id);
	fputs("fl=(1)\n", c->fp);
	put_fn(c, "fn", id);
	put_cost(c, c->self[id]);
	for (; *k < end; (*k)++) {
		a = &g->arcs[*k];
		if (a->to == ROW_NONE || (a->calls == 0 && c->cost[*k] == 0))
			continue;
		put_ob(c, "cob", a->to);
		fputs("cfl=(1)\n", c->fp);
		put_fn(c, "cfn", a->to);
		fprintf(c->fp, "calls=%" PRIu64 " 0\n",
		    a->calls > 0 ? a->calls : 1);
		put_cost(c, c->cost[*k]);
	}
}

int
export_callgrind(const struct xset *x, FILE *fp, const char **file,
    const char **why)
{
	struct cg c;
	size_t id, k = 0;

	(void)file;
	(void)why;
	c.x = x;
	c.fp = fp;
	c.ns = (uint64_t)(x->p->period * 1e9 + 0.5);
	c.self = xcalloc(x->nlabels, sizeof(*c.self));
	c.cost = xcalloc(x->r->g.narcs + 1, sizeof(*c.cost));
	c.named = xcalloc(x->nlabels, 1);
	c.obnamed = xcalloc(x->p->nobjs + 1, 1);
	costs(&c);
	fprintf(fp, "# callgrind format\nversion: 1\ncreator: %s\n"
	    "cmd: %s\npositions: line\nevents: Samples Nanoseconds\n"
	    "\nfl=(1) ???\n",
	    PROF_VERSION, x->prog);
	for (id = 0; id < x->nlabels; id++)
		block(&c, id, &k);
	fprintf(fp, "\ntotals: %" PRIu64 " %" PRIu64 "\n", x->count,
	    x->count * c.ns);
	free(c.self);
	free(c.cost);
	free(c.named);
	free(c.obnamed);
	return 0;
}
