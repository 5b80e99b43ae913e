/*
 * callgraph.c -- the call graph over the rows of a report.
 *
 * attrib.c gives the graph in rows: the arcs mcount counted, as pairs
 * of row ids with their calls, and each sampled stack as the row ids
 * of its frames, innermost first.  From those alone this file works
 * out, with no estimate in between:
 *
 *	a row's self time	samples of the stacks it ends, and of
 *				its time no stack holds (stackless_rows())
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
 * Functions that call each other round a cycle are one, as gprof lumps
 * them: the arcs inside carry no time, and callers from outside share
 * the whole cycle's.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

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
add_cgarc(void *into, const void *from)
{
	struct cgarc *x = into;
	const struct cgarc *y = from;

	addsat(&x->calls, y->calls);
	x->counted |= y->counted;
}

/* The calls into each row, from others and from itself. */
static void
count_calls(struct report *r)
{
	const struct cgarc *c;
	struct node *w;
	size_t i;

	for (i = 0; i < r->g.narcs; i++) {
		c = &r->g.arcs[i];
		w = &r->g.nodes[c->to];
		addsat(c->from == c->to ? &w->selfcalls : &w->callsin,
		    c->calls);
	}
}

/* Was the callee of arc c compiled to count its calls? */
static int
counted_into(const struct report *r, const struct cgarc *c)
{
	const struct node *w = &r->g.nodes[c->to];

	return w->callsin > 0 || w->selfcalls > 0;
}

/*
 * A pair of adjacent frames, as join_arcs() sorts it: its key caller
 * << 32 | callee, its value the stack's index << 2 and these bits.
 */
#define PAIR_LEAF	2	/* the stack's innermost pair */
#define PAIR_SKIP	1	/* the caller's call went elsewhere (attrib.c
				   marked the frame skipped) */

/* The pairs of every stack, into k and v; how many. */
static size_t
gather_pairs(const struct graph *g, uint64_t *k, uint64_t *v)
{
	const struct cgstack *s;
	const size_t *id;
	size_t i, j, n = 0;

	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		id = g->ids + s->first;
		for (j = 0; j + 1 < s->depth; j++) {
			if (id[j] == ROW_NONE || id[j + 1] == ROW_NONE)
				continue;
			k[n] = (uint64_t)id[j + 1] << 32 | id[j];
			v[n++] = (uint64_t)i << 2 | (j == 0 ? PAIR_LEAF : 0) |
			    (g->skipped[s->first + j + 1] ? PAIR_SKIP : 0);
		}
	}
	return n;
}

/*
 * Arc c's pairs v[0..n), in the stacks' order, w[] the stacks'
 * samples: its samples once a stack, its leaf pairs' as leaf too, and
 * each stack with an unconfirmed pair marked in unconf[] -- a pair
 * whose caller's call went elsewhere by the counted arcs, or one no
 * counted arc joins while its callee's calls were counted.
 */
static void
measure_arc(struct report *r, struct cgarc *c, const uint64_t *v, size_t n,
    const double *w, unsigned char *unconf)
{
	struct graph *g = &r->g;
	size_t b, si, last = SIZE_MAX;
	int uncounted;

	uncounted = n > 0 && !c->counted && g->counted && counted_into(r, c);
	for (b = 0; b < n; b++) {
		si = (size_t)(v[b] >> 2);
		if (v[b] & PAIR_LEAF)
			c->leaf += w[si];
		if ((v[b] & PAIR_SKIP) || uncounted) {
			if (!c->unconfirmed)
				g->nounconf++;
			c->unconfirmed = 1;
			unconf[si] = 1;
		}
		if (si != last)
			c->samples += w[si];
		last = si;
	}
}

/*
 * Is the counted arc c before the pair of key kk, caller over callee?
 * An arc from no row (ROW_NONE) is after every pair.
 */
static int
arc_before(const struct cgarc *c, uint64_t kk)
{
	return c->from < kk >> 32 || (c->from == kk >> 32 &&
	    c->to < (kk & UINT32_MAX));
}

/*
 * Every pair of adjacent frames becomes an arc too, of no calls; arcs
 * of the same two rows are one; and each arc is measured as it is
 * made.  The pairs, ten million for a million stacks, are gathered as
 * keys, caller over callee, each with its stack, and radix-sorted
 * apart from the counted arcs -- a stable sort, so that a key's pairs
 * stay in the stacks' order -- and the two sorted lists merged: the
 * arcs of 48 bytes are made once for each distinct pair, in order, and
 * given their samples there.  Walking the stacks again for that, each
 * pair told its arc, visited ten million arcs at random and missed the
 * cache at every step.  The samples of the stacks with an unconfirmed
 * pair go to the graph's, in the stacks' order.
 *
 * The merge is made in the counted arcs' own array, grown by the pairs'
 * distinct keys and filled from its end, so that no arc is written
 * before it has been read: a second array of a million arcs beside the
 * first was 48 MB more at -q's peak (realloc() of an array that big
 * moves pages, not bytes).
 */
static void
join_arcs(struct report *r)
{
	struct graph *g = &r->g;
	struct cgarc *c, t;
	uint64_t *k, *pv, *tk, *tv, kk;
	unsigned char *unconf;
	double *w;
	size_t i, n = 0, m, a, b, b1, o;

	g->narcs = sortsum(g->arcs, g->narcs, sizeof(*g->arcs), cmp_cgarc,
	    add_cgarc);
	count_calls(r);
	if (r->nrows > UINT32_MAX)
		errx(1, "%zu rows: too many for the call graph", r->nrows);
	for (i = 0; i < g->nstacks; i++)
		n += g->stacks[i].depth > 0 ? g->stacks[i].depth - 1 : 0;
	k = xcalloc(n + 1, sizeof(*k));
	pv = xcalloc(n + 1, sizeof(*pv));
	n = gather_pairs(g, k, pv);
	tk = xcalloc(n + 1, sizeof(*tk));
	tv = xcalloc(n + 1, sizeof(*tv));
	radix_sort_pairs(k, pv, tk, tv, n);
	free(tk);
	free(tv);
	for (b = 0, m = 0; b < n; b++)
		m += b == 0 || k[b] != k[b - 1];
	if (g->narcs + m >= UINT32_MAX)
		errx(1, "%zu arcs: too many for the call graph", g->narcs + m);
	w = xcalloc(g->nstacks + 1, sizeof(*w));
	for (i = 0; i < g->nstacks; i++)
		w[i] = g->stacks[i].samples;
	unconf = xcalloc(g->nstacks + 1, 1);
	g->arcs = xreallocarray(g->arcs, g->narcs + m + 1, sizeof(*g->arcs));
	g->arccap = g->narcs + m + 1;
	/*
	 * Counted arcs and pairs, both sorted by (from, to), merged from
	 * their ends into g->arcs[o ..).  Each step takes the greater of
	 * the last counted arc and the last pair's key, and with it all
	 * the pairs of that key; o stays above the arcs left to read, for
	 * m is at least the keys left.
	 */
	for (a = g->narcs, b = n, o = g->narcs + m; a > 0 || b > 0; ) {
		if (b > 0 && (a == 0 || arc_before(&g->arcs[a - 1],
		    k[b - 1]))) {
			memset(&t, 0, sizeof(t));
			t.from = (size_t)(k[b - 1] >> 32);
			t.to = (size_t)(k[b - 1] & UINT32_MAX);
		} else
			t = g->arcs[--a];
		c = &g->arcs[--o];
		*c = t;
		if (c->from == ROW_NONE)
			continue;	/* no pair comes from no row */
		kk = (uint64_t)c->from << 32 | c->to;
		for (b1 = b; b > 0 && k[b - 1] == kk; b--)
			;
		measure_arc(r, c, pv + b, b1 - b, w, unconf);
	}
	g->narcs = g->narcs + m - o;	/* the arcs written */
	memmove(g->arcs, g->arcs + o, g->narcs * sizeof(*g->arcs));
	for (i = 0; i < g->nstacks; i++)
		if (unconf[i])
			g->unconfirmed += w[i];
	free(k);
	free(pv);
	free(w);
	free(unconf);
}

/* thread_roots()'s marks of a row. */
#define ROOT_CALLED	1	/* some stack shows it called */
#define ROOT_ASKED	2	/* the outermost row of some stack */

/* The rows that some stack shows called by another row: ROOT_CALLED. */
static unsigned char *
shown_called(const struct report *r)
{
	const struct graph *g = &r->g;
	const struct cgstack *s;
	const size_t *id;
	unsigned char *called;
	size_t i, j;

	called = xcalloc(r->nrows + 1, 1);
	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		id = g->ids + s->first;
		for (j = 0; j + 1 < s->depth; j++)
			if (id[j] != ROW_NONE && id[j + 1] != ROW_NONE)
				called[id[j]] = ROOT_CALLED;
	}
	return called;
}

/* Is row w, by one of its names, where the C library starts a thread? */
int
row_thread_start(const struct row *w)
{
	static const char *const starts[] = { "_start", "__libc_start_main",
	    "__libc_start_main_impl", "__libc_start_call_main",
	    "start_thread", "clone", "clone3", "__clone", "__clone3",
	    "__start_context" };
	size_t j, k;

	for (k = 0; k < w->nnames; k++)
		for (j = 0; j < sizeof(starts) / sizeof(starts[0]); j++)
			if (strcmp(w->names[k], starts[j]) == 0)
				return 1;
	return 0;
}

/*
 * The rows in which a stack that ends there reaches where a thread
 * starts, by row: the C library's start of the program or of a thread
 * (a coroutine's, too), or a function of the program that had no
 * counted caller and that no stack shows called by another: its entry
 * or code built without -p.  A stack that ends elsewhere lost its
 * outer callers at a frame pointer the walk could not follow: code
 * that keeps its own data in %rbp, built with -fomit-frame-pointer.
 * Worked out once a row, in the rows' order: stack by stack, the row,
 * its names and their bytes were three misses of the cache for each of
 * a million stacks.  Only the rows some stack ends in are asked about
 * (rooted()), so only theirs are worked out: row_thread_start()'s ten
 * names compared with every name of a million rows were 6% of -q's
 * time.
 */
static unsigned char *
thread_roots(const struct report *r)
{
	const struct cgstack *s;
	const struct node *nd;
	const size_t *id;
	unsigned char *root;
	size_t i, j;

	root = shown_called(r);
	for (i = 0; i < r->g.nstacks; i++) {
		s = &r->g.stacks[i];
		id = r->g.ids + s->first;
		for (j = s->depth; j > 0 && id[j - 1] == ROW_NONE; j--)
			;
		if (j > 0)
			root[id[j - 1]] |= ROOT_ASKED;
	}
	for (i = 0; i < r->nrows; i++) {
		if (!(root[i] & ROOT_ASKED)) {
			root[i] = 0;
			continue;
		}
		nd = &r->g.nodes[i];
		root[i] = (r->rows[i].obj == NULL && nd->callsin == 0 &&
		    nd->selfcalls == 0 && !(root[i] & ROOT_CALLED)) ||
		    row_thread_start(&r->rows[i]);
	}
	return root;
}

/* Does stack s reach where a thread starts?  root[] as above. */
static int
rooted(const struct report *r, const struct cgstack *s,
    const unsigned char *root)
{
	const size_t *id = r->g.ids + s->first;
	size_t j;

	for (j = s->depth; j > 0 && id[j - 1] == ROW_NONE; j--)
		;
	return j == 0 || root[id[j - 1]];	/* none: nothing to say */
}

/*
 * Time of a row that no stack holds: all of the kernel's row where the
 * perf clock sampled user mode only (the run's system time), the
 * unsampled row, and any row's samples in files or parts of a run that
 * kept no stacks (PROFSTACK=0, a classic file) or whose stacks were
 * lost.  It is the row's own all the same, in no caller (graphprint.c
 * prints it as called from <no stack>), as the flat report and the
 * exports have it, so that the graph's shares are theirs.  The
 * histogram's bins and the stacks' exact pcs part by a sample or two,
 * which is not worth a line: less than NOSTACK_MIN of a row is let be.
 * Where the two place a sample in different functions (two functions
 * in one bin) the stacks, which hold the exact pc, are the graph's: the
 * rows' shortfalls are scaled down to the samples the stacks truly lack,
 * the rows' samples less the stacks' own.  The kernel's and the
 * unsampled rows' shortfalls are no bin's guess -- their samples were
 * never in the histogram, so a stack ending elsewhere cannot hold them
 * -- and are given first, whole if the lack allows; the function rows'
 * share what is left.  Else a kernel sample that kept no stack (taken
 * as a process exits, its user memory gone) would be spread over the
 * functions whose bins the stacks contradict, mostly to the one that
 * never ran.  The stacks' count stays theirs; the graph says how much
 * no stack holds.
 */
#define NOSTACK_MIN	0.01

/* What row i's stacks lack of its flat samples, if worth a line. */
static double
shortfall(const struct report *r, size_t i)
{
	double extra = r->rows[i].samples - r->g.nodes[i].gself;

	if (extra < 0.5 || (!r->rows[i].kernel &&
	    extra < NOSTACK_MIN * r->rows[i].samples))
		return 0;
	return extra;
}

/*
 * Give the kernel's and the unsampled rows (kernel), or the others,
 * their shortfalls, scaled down to lack in all; what was given.
 */
static double
give_shortfalls(struct report *r, int kernel, double lack)
{
	struct graph *g = &r->g;
	struct node *nd;
	double extra, want = 0, scale, given = 0;
	size_t i;

	for (i = 0; i < r->nrows; i++)
		if (!r->rows[i].kernel == !kernel)
			want += shortfall(r, i);
	if (want <= 0 || lack < 0.5)
		return 0;
	scale = lack < want ? lack / want : 1;
	for (i = 0; i < r->nrows; i++) {
		nd = &g->nodes[i];
		if (!r->rows[i].kernel != !kernel ||
		    (extra = shortfall(r, i) * scale) < 0.5)
			continue;
		nd->gself += extra;
		nd->incl += extra;
		nd->nostack = extra;
		if (nd->level == SIZE_MAX)
			nd->level = 0;
		given += extra;
	}
	return given;
}

static void
stackless_rows(struct report *r)
{
	struct graph *g = &r->g;
	double flat = 0, held = 0;
	size_t i;

	g->stackless = 0;
	if (!g->sampled)
		return;
	for (i = 0; i < r->nrows; i++) {
		flat += r->rows[i].samples > 0 ? r->rows[i].samples : 0;
		held += g->nodes[i].gself;
	}
	g->stackless = give_shortfalls(r, 1, flat - held);
	g->stackless += give_shortfalls(r, 0, flat - held - g->stackless);
}

/* Self and inclusive samples of the rows; the stacks that end short. */
static void
measure(struct report *r)
{
	struct graph *g = &r->g;
	struct cgstack *s;
	const size_t *id;
	size_t *rowmark, i, j;
	unsigned char *root;

	rowmark = xcalloc(r->nrows + 1, sizeof(*rowmark));
	root = thread_roots(r);
	for (i = 0; i < r->nrows; i++)
		g->nodes[i].level = SIZE_MAX;
	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		id = g->ids + s->first;
		g->samples += s->samples;
		if (s->depth > 0 && id[0] != ROW_NONE)
			g->nodes[id[0]].gself += s->samples;
		for (j = 0; j < s->depth; j++) {
			if (id[j] == ROW_NONE)
				continue;
			if (s->depth - 1 - j < g->nodes[id[j]].level)
				g->nodes[id[j]].level = s->depth - 1 - j;
			if (rowmark[id[j]] == i + 1)
				continue;
			rowmark[id[j]] = i + 1;
			g->nodes[id[j]].incl += s->samples;
		}
		if (!s->cut && !rooted(r, s, root)) {
			s->shortend = 1;
			g->shortend += s->samples;
		}
	}
	free(rowmark);
	free(root);
	stackless_rows(r);
}

/* The self time the estimate starts from: the graph's own, if sampled. */
static double
est_self(const struct report *r, const struct row *w)
{
	return r->g.sampled ? r->g.nodes[w->id].gself : w->samples;
}

/* Does the estimate follow arc c?  Counted calls, to another row. */
static int
est_follows(const struct cgarc *c)
{
	return c->calls > 0 && c->from != c->to;
}

/*
 * State of the estimate's walk: Tarjan's, which finds the cycles
 * (strongly connected rows) and ends each after every one it calls.
 */
struct walk {
	size_t	*first;		/* arcs from row i: first[i] .. first[i+1] */
	size_t	*index, *low;	/* order of discovery, 0 unseen; lowlink */
	size_t	*comp;		/* the cycle of each row, once ended */
	double	*total;		/* a cycle's estimated time, all of it */
	double	*outside;	/* calls into it from outside it */
	size_t	*stack;		/* rows whose cycle is not yet ended */
	size_t	 ns;
	size_t	*calls;		/* rows being visited */
	size_t	*next;		/* the next arc each of them follows */
	size_t	 nc;
	char	*on;		/* on stack */
	size_t	 count, ncomp;
};

/* An arc's share of its callee's cycle's time, as gprof shares it. */
static double
est_arc(const struct walk *w, const struct cgarc *c)
{
	size_t k = w->comp[c->to];

	if (!est_follows(c) || (c->from != ROW_NONE && w->comp[c->from] ==
	    k) || w->outside[k] <= 0)
		return 0;
	return w->total[k] * (double)c->calls / w->outside[k];
}

/*
 * The cycle whose rows are stack[from ..] is whole, and every cycle it
 * calls is done: a row's estimate is its self time and the shares of
 * the cycles it calls, a cycle's the sum of its rows'; its calls from
 * outside it are what callers will share it by.
 */
static void
est_cycle(struct report *r, struct walk *w, size_t from)
{
	const struct cgarc *c;
	size_t i, k, v, n = w->ncomp++;
	double in = 0, inside = 0;

	for (i = from; i < w->ns; i++) {
		w->on[w->stack[i]] = 0;
		w->comp[w->stack[i]] = n;
	}
	w->total[n] = 0;
	for (i = from; i < w->ns; i++) {
		v = w->stack[i];
		r->g.rowest[v] = est_self(r, &r->rows[v]);
		in += (double)r->g.nodes[v].callsin;
		for (k = w->first[v]; k < w->first[v + 1]; k++) {
			c = &r->g.arcs[k];
			if (est_follows(c) && w->comp[c->to] == n)
				inside += (double)c->calls;
			else if (est_follows(c))
				r->g.rowest[v] += est_arc(w, c);
		}
		w->total[n] += r->g.rowest[v];
	}
	w->outside[n] = in - inside;
	w->ns = from;
}

/* Row v is seen: number it, stack it, visit it. */
static void
est_see(struct walk *w, size_t v)
{
	w->index[v] = w->low[v] = ++w->count;
	w->stack[w->ns++] = v;
	w->on[v] = 1;
	w->calls[w->nc] = v;
	w->next[w->nc++] = w->first[v];
}

/* Tarjan's walk from row root, without recursion. */
static void
est_walk(struct report *r, struct walk *w, size_t root)
{
	const struct cgarc *c;
	size_t v, u, i;

	est_see(w, root);
	while (w->nc > 0) {
		v = w->calls[w->nc - 1];
		if (w->next[w->nc - 1] < w->first[v + 1]) {
			c = &r->g.arcs[w->next[w->nc - 1]++];
			if (!est_follows(c))
				continue;
			if (w->index[c->to] == 0)
				est_see(w, c->to);
			else if (w->on[c->to] && w->index[c->to] < w->low[v])
				w->low[v] = w->index[c->to];
			continue;
		}
		w->nc--;
		if (w->low[v] == w->index[v]) {
			for (i = w->ns; w->stack[i - 1] != v; i--)
				;
			est_cycle(r, w, i - 1);
		}
		if (w->nc > 0 && w->low[v] < w->low[u = w->calls[w->nc - 1]])
			w->low[u] = w->low[v];
	}
}

/*
 * gprof's equal-cost estimate of every row, and of every arc.  A cycle
 * is one, as gprof lumps it: a row's own estimate leaves out the arcs
 * inside its cycle, and callers from outside share the cycle's whole
 * time by the calls each made into it.
 */
static void
estimate(struct report *r)
{
	struct walk w;
	struct cgarc *c;
	size_t i, k, n = r->nrows + 1;

	memset(&w, 0, sizeof(w));
	r->g.rowest = xcalloc(n, sizeof(*r->g.rowest));
	r->g.arcest = xcalloc(r->g.narcs + 1, sizeof(*r->g.arcest));
	w.first = xcalloc(n + 1, sizeof(*w.first));
	w.index = xcalloc(n, sizeof(*w.index));
	w.low = xcalloc(n, sizeof(*w.low));
	w.comp = xcalloc(n, sizeof(*w.comp));
	w.total = xcalloc(n, sizeof(*w.total));
	w.outside = xcalloc(n, sizeof(*w.outside));
	w.stack = xcalloc(n, sizeof(*w.stack));
	w.calls = xcalloc(n, sizeof(*w.calls));
	w.next = xcalloc(n, sizeof(*w.next));
	w.on = xcalloc(n, 1);
	for (i = 0, k = 0; i <= r->nrows; i++) {
		while (k < r->g.narcs && r->g.arcs[k].from < i)
			k++;
		w.first[i] = k;
	}
	for (i = 0; i < r->nrows; i++)
		if (w.index[i] == 0)
			est_walk(r, &w, i);
	for (k = 0; k < r->g.narcs; k++) {
		c = &r->g.arcs[k];
		r->g.arcest[k] = est_arc(&w, c);
	}
	r->g.estimated = 1;
	free(w.first);
	free(w.index);
	free(w.low);
	free(w.comp);
	free(w.total);
	free(w.outside);
	free(w.stack);
	free(w.calls);
	free(w.next);
	free(w.on);
}

/*
 * Work out the graph of r, whose rows are still in the order they were
 * made (row i has id i): the arcs of attrib.c, the stacks' pairs, the
 * measured times, and if est, gprof's estimate when arcs were counted.
 */
void
graph_compute(struct report *r, int est)
{
	r->g.nodes = xcalloc(r->nrows + 1, sizeof(*r->g.nodes));
	r->g.nnodes = r->nrows;
	join_arcs(r);
	measure(r);
	if (r->g.counted && est)
		estimate(r);
}

/*
 * Give back what graph_compute() worked out of g, keeping its arcs and
 * stacks and what the files had, so that it can work the graph out
 * again over arcs and stacks that were changed (focus.c).
 */
void
graph_reset(struct graph *g)
{
	free(g->nodes);
	free(g->rowest);
	free(g->arcest);
	free(g->nostack);
	free(g->rincl);
	g->nodes = NULL;
	g->nnodes = g->nrincl = 0;
	g->rowest = g->arcest = g->nostack = g->rincl = NULL;
	g->samples = g->overhead = g->unconfirmed = g->shortend = 0;
	g->nounconf = 0;
	g->estimated = 0;
}

void
graph_free(struct graph *g)
{
	free(g->arcs);
	free(g->stacks);
	free(g->ids);
	free(g->skipped);
	free(g->pcs);
	free(g->nodes);
	free(g->rowest);
	free(g->arcest);
	free(g->nostack);
	free(g->rincl);
	memset(g, 0, sizeof(*g));
}

/*
 * What the graph says of row w: nothing (all zero) for a row made after
 * graph_compute() or when there is no graph.
 */
const struct node *
graph_node(const struct report *r, const struct row *w)
{
	static const struct node none;

	return w->id < r->g.nnodes ? &r->g.nodes[w->id] : &none;
}

/*
 * gprof's estimates, 0 where there are none: kept apart from the nodes
 * and the arcs, for only -e and -i without stacks want them.
 */
double
graph_rowest(const struct report *r, const struct row *w)
{
	return r->g.rowest != NULL && w->id < r->g.nnodes ?
	    r->g.rowest[w->id] : 0;
}

double
graph_arcest(const struct graph *g, const struct cgarc *c)
{
	return g->arcest != NULL ? g->arcest[c - g->arcs] : 0;
}
