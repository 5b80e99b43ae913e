/*
 * wallgraph.c -- prof -q -w: the call graph in wall time, from the
 * wall samples of PROFMODE=wall.
 *
 * An entry a function, by name, the most inclusive first, as gprof lays
 * its entries out: its callers above it, its callees below, each line
 * with the thread-seconds that went through that call:
 *
 *	                    1.000                       run_pipe [5]
 *	[3]      14.3      1.000    0.000    1.000     wait_pipe [3]
 *	                    1.000                       __libc_read [7]
 *
 * A function's inclusive time is that of the samples whose stack holds
 * it, once however often it recurs; it splits into the time its threads
 * were running and waiting.  The frames are the stacks' functions with
 * a name, libmon's own left out (model/wall.c), so that a caller is the
 * next named function out; a thread caught doing libmon's own work is
 * left out, as in the flat report.  -r leaves out the threads that
 * never ran, the head line saying how many.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "print/print.h"
#include "util/util.h"

struct gfn {
	const char	*name;
	double		 run, wait;	/* inclusive */
	size_t		 index;		/* as printed, from 1 */
};

struct garc {
	size_t		 from, to;	/* gfn indexes */
	double		 secs;
};

struct wgraph {
	struct gfn	*fns;
	size_t		 nfns, fncap;
	struct garc	*arcs;
	size_t		 narcs, arccap;
	size_t		*stk;		/* a stack's functions, root first */
	size_t		 stkcap;
};

static size_t
fn_of(struct wgraph *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nfns; i++)
		if (strcmp(g->fns[i].name, name) == 0)
			return i;
	g->fns = xgrow(g->fns, &g->fncap, g->nfns, 1, sizeof(*g->fns));
	memset(&g->fns[g->nfns], 0, sizeof(*g->fns));
	g->fns[g->nfns].name = name;
	return g->nfns++;
}

static void
add_arc(struct wgraph *g, size_t from, size_t to, double secs)
{
	size_t i;

	for (i = 0; i < g->narcs; i++)
		if (g->arcs[i].from == from && g->arcs[i].to == to) {
			g->arcs[i].secs += secs;
			return;
		}
	g->arcs = xgrow(g->arcs, &g->arccap, g->narcs, 1, sizeof(*g->arcs));
	g->arcs[g->narcs].from = from;
	g->arcs[g->narcs].to = to;
	g->arcs[g->narcs++].secs = secs;
}

/* One wall stack into the graph: its functions, and the arcs between. */
static void
add_stack(struct wgraph *g, const struct report *r, const struct profile *p,
    const struct wstack *s)
{
	const char *name;
	size_t i, j, n;

	g->stk = xgrow(g->stk, &g->stkcap, 0, s->depth + 1, sizeof(*g->stk));
	for (i = s->depth, n = 0; i > 0; i--)
		if ((name = wall_frame_name(r, p, &p->wframes[s->first + i - 1],
		    NULL)) != NULL)
			g->stk[n++] = fn_of(g, name);
	if (n == 0)
		g->stk[n++] = fn_of(g, wall_sample_name(r, p, s));
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && g->stk[j] != g->stk[i]; j++)
			continue;
		if (j < i)
			continue;	/* recursion: counted once */
		if (s->state == MONX_WS_RUN)
			g->fns[g->stk[i]].run += s->secs;
		else
			g->fns[g->stk[i]].wait += s->secs;
		if (i > 0)
			add_arc(g, g->stk[i - 1], g->stk[i], s->secs);
	}
}

static const struct gfn *sortfns;

static int
cmp_fn(const void *a, const void *b)
{
	const struct gfn *x = &sortfns[*(const size_t *)a];
	const struct gfn *y = &sortfns[*(const size_t *)b];

	if (x->run + x->wait != y->run + y->wait)
		return x->run + x->wait > y->run + y->wait ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void
put_name(const struct gfn *f)
{
	char *s = printable(f->name);

	printf("%s [%zu]\n", s, f->index);
	free(s);
}

/* The callers (to) or callees of function k, each on a line. */
static void
put_arcs(const struct wgraph *g, size_t k, int callers)
{
	size_t i;

	for (i = 0; i < g->narcs; i++) {
		if ((callers ? g->arcs[i].to : g->arcs[i].from) != k)
			continue;
		printf("%6s %6s %10.3f %8s %8s     ", "", "", g->arcs[i].secs,
		    "", "");
		put_name(&g->fns[callers ? g->arcs[i].from : g->arcs[i].to]);
	}
}

/*
 * The head: the thread-seconds, libmon's own left out, and the threads
 * -r left out, as the flat report's.
 */
static void
put_head(const struct profile *p, double all, double self, size_t out)
{
	printf("Wall time call graph: %.2f thread-seconds, sampled at %.0f "
	    "Hz", all, p->wallhz);
	if (self > 0)
		printf("; libmon's own %.2f s left out", self);
	if (out > 0)
		printf("; %zu thread%s that never ran left out (-r)", out,
		    out == 1 ? "" : "s");
	printf("\n\n%-6s %6s %10s %8s %8s     %s\n", "index", "%Wall",
	    "Inclusive", "Running", "Waiting", "name");
}

/* prof -q -w: the call graph in wall time; the files hold wall samples. */
void
wall_graph_print(const struct report *r, const struct profile *p,
    const struct opts *o)
{
	const struct wstack *s;
	struct wgraph g;
	size_t *order, i, k, out;
	char idx[24];
	double all, self;

	memset(&g, 0, sizeof(g));
	all = self = 0;
	for (i = out = 0; i < p->nwthreads; i++)
		out += !wall_kept(o, &p->wthreads[i]);
	for (i = 0; i < p->nwstacks; i++) {
		s = &p->wstacks[i];
		if (!wall_kept(o, &p->wthreads[s->thread]))
			continue;
		if (wall_is_libmon(r, p, s)) {
			self += s->secs;
			continue;
		}
		add_stack(&g, r, p, s);
		all += s->secs;
	}
	order = xcalloc(g.nfns + 1, sizeof(*order));
	for (i = 0; i < g.nfns; i++)
		order[i] = i;
	sortfns = g.fns;
	qsort(order, g.nfns, sizeof(*order), cmp_fn);
	for (i = 0; i < g.nfns; i++)
		g.fns[order[i]].index = i + 1;
	if (!o->nohead)
		put_head(p, all, self, out);
	for (i = 0; i < g.nfns; i++) {
		k = order[i];
		put_arcs(&g, k, 1);
		snprintf(idx, sizeof(idx), "[%zu]", g.fns[k].index);
		printf("%-6s %6.1f %10.3f %8.3f %8.3f     ", idx, all > 0 ?
		    100 * (g.fns[k].run + g.fns[k].wait) / all : 0.0,
		    g.fns[k].run + g.fns[k].wait, g.fns[k].run, g.fns[k].wait);
		put_name(&g.fns[k]);
		put_arcs(&g, k, 0);
		printf("-----\n");
	}
	free(order);
	free(g.fns);
	free(g.arcs);
	free(g.stk);
}
