/*
 * callgrind.c -- prof -F callgrind: the callgrind profile
 * format, which KCachegrind, QCachegrind and callgrind_annotate read.
 *
 *	# callgrind format
 *	version: 1
 *	creator: libmon prof 1.0
 *	cmd: prog
 *	positions: line
 *	event: Counted : Calls counted by mcount
 *	events: Samples Nanoseconds Counted
 *
 *	ob=(1) /path/prog		the object, in its own field
 *	fl=(2) /src/prog.c		the source file, by the line table
 *	fn=(3) costly_caller
 *	0 5 50000000			self cost
 *	cob=(1)
 *	cfl=(1)
 *	cfn=(4) work
 *	calls=100 0			a counted call: mcount's count,
 *	0 90 900000000 100		and again as Counted
 *	cob=(2) /lib/x86_64-linux-gnu/libc.so.6
 *	cfl=(1)
 *	cfn=(5) qsort
 *	calls=1 0			a call seen only in stacks:
 *	0 20 200000000 0		Counted 0, calls=1 the least it is
 *	...
 *	totals: 110 1100000000 1002
 *
 * A function's self cost is the samples of the stacks it ends.  Both
 * readers take a called function's inclusive cost for the sum of the
 * call lines into it (KCachegrind leaves a function's calls of itself
 * out), and a function no line calls for its self cost and the lines
 * out of it.  So a stack's samples go on one call line for each
 * function in it, the line into its outermost frame of that function:
 * the lines into a function then add up to its inclusive time, as
 * model/callgraph.c measures it (the stacks it is in, once a stack),
 * a call of itself costs nothing, and every stack has its root, a
 * function no line calls -- a stack cut short starts at stacks.c's
 * frame that says so, not at a function that other stacks show called.
 *
 * A call line's calls= is mcount's exact count where an arc of the files
 * counted the pair.  A pair seen only in stacks (a caller or a callee
 * not compiled with -p) has no count: callgrind_annotate takes the cost
 * after calls=0 for the caller's own, so it has calls=1, the least it
 * can be, and the event Counted tells the two apart: on a call line it
 * is the counted calls, equal to calls= for a counted pair and 0 for one
 * seen only in stacks; it is 0 on self lines, and the totals line has
 * all calls counted.  A function's inclusive Counted is then the calls
 * counted into it.
 *
 * Without stacks the self costs are the histogram's, and each counted
 * call carries its share, by calls, of its callee's self cost, so that
 * no function's inclusive cost is below its self cost.  A function's
 * source file is the line table's at its entry, where there is debug
 * information (srcline.c, as for pprof), else a clashing static's file
 * as the symbols give it, else "???", the format's unknown file.
 *
 * Lines: where the line tables cover a function, its self cost is
 * shared among its lines in proportion of its own samples on each (-L's
 * figures, model/lines.c; the merged stacks keep no address), rounded
 * on a running sum, and each counted call is at the line of its call
 * site, with its exact calls, so that KCachegrind's source view and
 * callgrind_annotate show both.  A call site's cost is the samples of
 * the stacks whose call into the pair's callee was made there, by the
 * caller frame's return address (srcline.c): one costly call and a
 * thousand cheap ones from two lines each get their own time.  Without
 * stacks the pair's cost is shared by calls.  A line is in the file the
 * line table names: code inlined from a header is written under an
 * "fi=" record of the header, and "fe=" goes back to the function's own
 * file, as valgrind writes inlined code, so that the readers annotate
 * the header's lines and not the function's file's of the same numbers.
 * Calls seen only in stacks, and all costs without debug information,
 * stay at line 0.
 *
 * Calls timed one by one (-finstrument-functions) add the event
 * Measured, wall nanoseconds: a function's measured self time with its
 * self cost, an arc's measured inclusive time on its call line, so that
 * the readers' inclusive Measured is the hooks' own (measured_costs()).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/* A caller-to-callee pair of frames, from stacks or counted arcs. */
struct cgpair {
	size_t		 from, to;
	uint64_t	 cost;		/* whole samples */
	uint64_t	 calls;		/* counted, 0 if seen only in stacks */
	uint64_t	 tcalls;	/* timed one by one, */
	uint64_t	 meas;		/* their inclusive ns */
};

struct cg {
	const struct xset *x;
	FILE		*fp;
	uint64_t	*self;		/* by frame id */
	uint64_t	*mself;		/* measured self ns, by frame id */
	int		 timed;		/* the event Measured is written */
	uint64_t	 mtotal;	/* its total: every self */
	struct cgpair	*pairs;		/* sorted by from, then to */
	size_t		 npairs, paircap;
	size_t		*graphpair;	/* a graph arc's pair, or SIZE_MAX */
	char		*named;		/* fn names written, by frame id */
	size_t		*flid;		/* fl= numbers, by frame id */
	size_t		*lfl;		/* and by line of xl */
	size_t		 curfl;		/* the file of the cost lines now */
	char		**flnames;	/* their files, printable */
	char		*flnamed;	/* fl names written, by number */
	size_t		 nfl;
	char		*obnamed;	/* ob names written, by object */
	uint64_t	 ns;		/* nanoseconds a sample */
	uint64_t	 counted;	/* calls on all the lines */
	struct srclines	 sl;		/* the line tables, */
	struct xlines	 xl;		/* frames' time by line, calls by
					   call site */
};

static int
cmp_pair(const void *a, const void *b)
{
	const struct cgpair *p = a, *q = b;

	if (p->from != q->from)
		return p->from < q->from ? -1 : 1;
	if (p->to != q->to)
		return p->to < q->to ? -1 : 1;
	return 0;
}

static void
add_pair(void *into, const void *from)
{
	struct cgpair *p = into;
	const struct cgpair *q = from;

	addsat(&p->cost, q->cost);
	addsat(&p->calls, q->calls);
	addsat(&p->tcalls, q->tcalls);
	addsat(&p->meas, q->meas);
}

static void
new_pair(struct cg *c, size_t from, size_t to, uint64_t cost,
    uint64_t calls)
{
	struct cgpair *p;

	c->pairs = xgrow(c->pairs, &c->paircap, c->npairs, 1,
	    sizeof(*c->pairs));
	p = &c->pairs[c->npairs++];
	p->from = from;
	p->to = to;
	p->cost = cost;
	p->calls = calls;
	p->tcalls = 0;
	p->meas = 0;
}

/*
 * Where pair from -> to lies: a pair of rows in the graph's arc for it
 * (join_arcs() made one for every adjacent pair of a stack), any other
 * -- a frame no row stands for, stacks.c's roots -- in a pair of its
 * own, merged with the others of the same frames once all are in.
 */
static struct cgpair *
pair_of(struct cg *c, size_t from, size_t to)
{
	const struct graph *g = &c->x->r->g;
	size_t k;

	if (from < c->x->r->nrows && to < c->x->r->nrows &&
	    (k = graph_find(g, from, to)) != SIZE_MAX)
		return &c->pairs[c->graphpair[k]];
	new_pair(c, from, to, 0, 0);
	return &c->pairs[c->npairs - 1];
}

/*
 * Each frame's self cost; each stack's samples on the pair into the
 * outermost frame of each of its functions; every adjacent pair of
 * frames written, if only with no cost.
 */
static void
stack_costs(struct cg *c)
{
	const struct xset *x = c->x;
	const struct xstack *s;
	const size_t *id;
	size_t *mark, i, j;
	struct cgpair *p;

	mark = xcalloc(x->nlabels, sizeof(*mark));
	for (i = 0; i < x->nstacks; i++) {
		s = &x->stacks[i];
		id = x->ids + s->first;
		addsat(&c->self[id[s->depth - 1]], s->count);
		for (j = 0; j < s->depth; j++) {
			p = j > 0 ? pair_of(c, id[j - 1], id[j]) : NULL;
			if (mark[id[j]] == i + 1)
				continue;
			mark[id[j]] = i + 1;
			if (p != NULL)
				addsat(&p->cost, s->count);
		}
	}
	free(mark);
}

/*
 * No stacks: a counted call's share of its callee's self cost, by
 * calls, rounded on a running sum a callee; a function's calls of
 * itself have none, as the readers would count it twice.
 */
static void
flat_costs(struct cg *c)
{
	const struct xset *x = c->x;
	const struct node *n;
	struct cgpair *p;
	double *cum;
	size_t i;

	for (i = 0; i < x->nstacks; i++)
		addsat(&c->self[x->ids[x->stacks[i].first]],
		    x->stacks[i].count);
	cum = xcalloc(x->nlabels, sizeof(*cum));
	for (i = 0; i < c->npairs; i++) {
		p = &c->pairs[i];
		if (p->from == p->to || p->to >= x->r->g.nnodes ||
		    (n = &x->r->g.nodes[p->to])->callsin == 0)
			continue;
		p->cost = xset_round((double)c->self[p->to] *
		    (double)p->calls / (double)n->callsin, &cum[p->to]);
	}
	free(cum);
}

/*
 * The calls timed one by one (-finstrument-functions): each function's
 * measured self time, and each arc's calls and inclusive time on the
 * pair it is, in a pair of its own if no stack or count made one.  An
 * arc from a thread's start has no caller to be written under, and a
 * function's calls of itself none the readers would not count twice:
 * their time is in the callee's self time and its other callers' lines.
 */
static void
measured_costs(struct cg *c)
{
	const struct report *r = c->x->r;
	const struct tcall *t;
	struct cgpair *p;
	uint64_t ns;
	size_t i;

	for (i = 0; i < r->ntcalls; i++) {
		t = &r->tcalls[i];
		if (t->to >= r->nrows)
			continue;
		if (!t->arc) {
			ns = (uint64_t)(t->self * 1e9 + 0.5);
			addsat(&c->mself[t->to], ns);
			addsat(&c->mtotal, ns);
			continue;
		}
		if (t->root || t->from >= r->nrows || t->from == t->to)
			continue;
		p = pair_of(c, t->from, t->to);
		addsat(&p->tcalls, t->calls);
		addsat(&p->meas, (uint64_t)(t->incl * 1e9 + 0.5));
	}
}

/* A graph arc's end as a frame: a row, or X_UNKNOWN. */
static size_t
frame_of(const struct xset *x, size_t row)
{
	return row == ROW_NONE ? X_UNKNOWN(x) : row;
}

/*
 * The pairs: one a graph arc, with its counted calls (a classic file's,
 * counted without their callers, from [unknown]), then the stacks'
 * costs; sorted and merged.
 */
static void
make_pairs(struct cg *c)
{
	const struct graph *g = &c->x->r->g;
	size_t k;

	c->graphpair = xcalloc(g->narcs + 1, sizeof(*c->graphpair));
	for (k = 0; k < g->narcs; k++) {
		c->graphpair[k] = c->npairs;
		new_pair(c, frame_of(c->x, g->arcs[k].from),
		    frame_of(c->x, g->arcs[k].to), 0, g->arcs[k].calls);
	}
	if (!c->x->flat)
		stack_costs(c);
	if (c->timed)
		measured_costs(c);
	c->npairs = sortsum(c->pairs, c->npairs, sizeof(*c->pairs), cmp_pair,
	    add_pair);
	if (c->x->flat)
		flat_costs(c);
}

/*
 * "ob=" or "cob=" for frame id's object, named the first time: "jit"
 * for generated code, as the report labels it; "???", the format's
 * unknown, for none or one whose path the files do not give (a classic
 * file's program).
 */
static void
put_ob(struct cg *c, const char *key, size_t id)
{
	size_t obj = xset_object(c->x, id);
	size_t n = obj < c->x->p->nobjs ? obj : c->x->p->nobjs;
	const struct object *o = n < c->x->p->nobjs ? &c->x->p->objs[n] :
	    NULL;
	char *path;

	fprintf(c->fp, "%s=(%zu)", key, n + 1);
	if (!c->obnamed[n]) {
		c->obnamed[n] = 1;
		if (o != NULL && o->jitpid != 0)
			path = xstrdup("jit");
		else if (o != NULL && o->path[0] != '\0')
			path = printable(o->path);
		else
			path = xstrdup("???");
		fprintf(c->fp, " %s", path);
		free(path);
	}
	fputc('\n', c->fp);
}

/* Frame id's source file, for files(): the line table's, else a clashing
 * local's as the symbols give it, else NULL. */
static const char *
source(struct cg *c, struct srclines *sl, size_t id)
{
	const struct row *w = xset_row(c->x, id);
	const char *file;
	uint32_t line;

	if (srcline_find(sl, id, &file, &line))
		return file;
	return w != NULL ? w->file : NULL;
}

struct flname {
	const char	*file;
	size_t		 id;
};

static int
cmp_flname(const void *a, const void *b)
{
	const struct flname *u = a, *v = b;
	int k;

	if ((k = strcmp(u->file, v->file)) != 0)
		return k;
	return u->id < v->id ? -1 : u->id > v->id;
}

/*
 * Each frame's fl= number, one a source file, in c->flid, and each
 * line's, in c->lfl: (1), "???", the format's unknown file, for a frame
 * whose file prof does not know; c->flnames the file of each number,
 * copies.  A line inlined from another file (a header's) has that
 * file's number.
 */
static void
files(struct cg *c)
{
	const struct xset *x = c->x;
	const struct xlines *xl = &c->xl;
	struct flname *f;
	size_t id, n = 0, i, k = 1, nf = x->nlabels + xl->nlines;
	const char *s;

	c->flid = xcalloc(x->nlabels + 1, sizeof(*c->flid));
	c->lfl = xcalloc(xl->nlines + 1, sizeof(*c->lfl));
	c->flnames = xcalloc(nf + 2, sizeof(*c->flnames));
	c->flnamed = xcalloc(nf + 2, 1);
	f = xcalloc(nf + 1, sizeof(*f));
	for (id = 0; id < x->nlabels; id++) {
		c->flid[id] = 1;
		if ((s = source(c, &c->sl, id)) != NULL) {
			f[n].file = s;
			f[n++].id = id;
		}
	}
	for (i = 0; i < xl->nlines; i++) {
		c->lfl[i] = 1;
		if (xl->lines[i].file != NULL) {
			f[n].file = xl->lines[i].file;
			f[n++].id = x->nlabels + i;
		}
	}
	qsort(f, n, sizeof(*f), cmp_flname);
	for (i = 0; i < n; i++) {
		if (i == 0 || strcmp(f[i - 1].file, f[i].file) != 0)
			c->flnames[++k] = printable(f[i].file);
		if (f[i].id < x->nlabels)
			c->flid[f[i].id] = k;
		else
			c->lfl[f[i].id - x->nlabels] = k;
	}
	c->nfl = k;
	free(f);
}

/* KEY=(k), with k's file named the first time. */
static void
put_flnum(struct cg *c, const char *key, size_t k)
{
	fprintf(c->fp, "%s=(%zu)", key, k);
	if (k > 1 && !c->flnamed[k]) {
		c->flnamed[k] = 1;
		fprintf(c->fp, " %s", c->flnames[k]);
	}
	fputc('\n', c->fp);
}

/* "fl=" or "cfl=" for frame id's source file, named the first time. */
static void
put_fl(struct cg *c, const char *key, size_t id)
{
	put_flnum(c, key, c->flid[id]);
}

/*
 * The cost lines after this at file number k, in the block of frame
 * id: "fi=" for a file other than the function's (code inlined from
 * it), "fe=" back to the function's own; nothing if already there.
 */
static void
set_file(struct cg *c, size_t id, size_t k)
{
	if (k == c->curfl)
		return;
	put_flnum(c, k == c->flid[id] ? "fe" : "fi", k);
	c->curfl = k;
}

/* The file of line k of xl, SIZE_MAX: none, the function's. */
static void
set_line_file(struct cg *c, size_t id, size_t k)
{
	set_file(c, id, k < c->xl.nlines && c->xl.lines[k].file != NULL ?
	    c->lfl[k] : c->flid[id]);
}

/* Frame id's function names, "a, b", without object or file. */
static void
put_name(struct cg *c, size_t id)
{
	const struct row *w = xset_row(c->x, id);
	char *s;

	if (w == NULL) {
		fputs(c->x->labels[id], c->fp);
		return;
	}
	s = row_name(w, 0);
	fputs(s, c->fp);
	free(s);
}

/* "fn=" or "cfn=" for frame id, named the first time. */
static void
put_fn(struct cg *c, const char *key, size_t id)
{
	fprintf(c->fp, "%s=(%zu)", key, id + 1);
	if (!c->named[id]) {
		c->named[id] = 1;
		fputc(' ', c->fp);
		put_name(c, id);
	}
	fputc('\n', c->fp);
}

static void
put_cost(struct cg *c, uint32_t line, uint64_t n, uint64_t calls,
    uint64_t meas)
{
	fprintf(c->fp, "%" PRIu32 " %" PRIu64 " %" PRIu64 " %" PRIu64,
	    line, n, n * c->ns, calls);
	if (c->timed)
		fprintf(c->fp, " %" PRIu64, meas);
	fputc('\n', c->fp);
}

/* The callee's fields before a calls= line. */
static void
call_head(struct cg *c, const struct cgpair *p)
{
	put_ob(c, "cob", p->to);
	put_fl(c, "cfl", p->to);
	put_fn(c, "cfn", p->to);
}

/*
 * Frame id's self cost n, and its measured self time m, at its lines in
 * proportion of its samples there (model/lines.c), rounded on running
 * sums so that they add up to n and m; at line 0 when it has none.
 */
static void
self_cost(struct cg *c, size_t id, uint64_t n, uint64_t m)
{
	const struct xlines *xl = &c->xl;
	double cum = 0, mcum = 0, tot, f;
	uint64_t v, w;
	size_t k;

	if (id >= c->x->nlabels || xl->first[id] >= xl->nlines ||
	    (tot = xl->total[id]) <= 0 || n == 0) {
		set_file(c, id, c->flid[id]);
		put_cost(c, 0, n, 0, m);
		return;
	}
	for (k = xl->first[id]; k < xl->nlines && xl->lines[k].id == id;
	    k++) {
		f = xl->lines[k].samples / tot;
		v = xset_round((double)n * f, &cum);
		w = xset_round((double)m * f, &mcum);
		if (v == 0 && w == 0)
			continue;
		set_line_file(c, id, k);
		put_cost(c, xl->lines[k].line, v, 0, w);
	}
}

/*
 * A calls= line of pair p at line k of xl (SIZE_MAX: line 0).  Before
 * it, at a known line, a self cost of 0 there: callgrind_annotate shows
 * a file's lines, and so the calls made on them, only about lines that
 * have a self cost, and a caller may have none in its own file (main,
 * or a function whose work was all inlined from a header).
 */
static void
call_line(struct cg *c, const struct cgpair *p, size_t k, uint64_t calls,
    uint64_t cost, uint64_t counted, uint64_t meas)
{
	set_line_file(c, p->from, k);
	if (k < c->xl.nlines && c->xl.lines[k].line > 0)
		put_cost(c, c->xl.lines[k].line, 0, 0, 0);
	call_head(c, p);
	fprintf(c->fp, "calls=%" PRIu64 " 0\n", calls);
	put_cost(c, k < c->xl.nlines ? c->xl.lines[k].line : 0, cost,
	    counted, meas);
}

/*
 * The calls= lines of a counted pair p by the stacks: each call site
 * that counted calls has them, and the samples of the stacks whose call
 * was made there, by the caller frame's return address (srcline.c),
 * rounded on a running sum; wsum is those sites' samples.  The samples
 * of stacks whose call line counted nothing (a caller frame the walk
 * went past) are shared among the others so, so that calls= stays
 * mcount's count.  Counted calls at no line of a table are at line 0.
 * The measured time is shared by calls.
 */
static void
by_stacks(struct cg *c, const struct cgpair *p, size_t first, size_t m,
    double wsum)
{
	const struct xsite *st;
	uint64_t left = p->calls, n, cost, meas, done = 0, mdone = 0;
	double cum = 0, mcum = 0;
	size_t k;

	for (k = first; k < first + m && left > 0; k++) {
		st = &c->xl.sites[k];
		if (st->calls == 0 || st->line == SIZE_MAX)
			continue;
		n = st->calls < left ? st->calls : left;
		cost = xset_round((double)p->cost * st->weight / wsum, &cum);
		meas = xset_round((double)p->meas * (double)n /
		    (double)p->calls, &mcum);
		call_line(c, p, st->line, n, cost, n, meas);
		left -= n;
		done += cost;
		mdone += meas;
	}
	if (left > 0)
		call_line(c, p, SIZE_MAX, left, p->cost - done, left,
		    p->meas - mdone);
}

/*
 * The calls= lines of pair p without stacks: one a call site, where
 * the line tables give them, with its exact calls and the pair's costs
 * shared by calls; the rest, or all, at line 0.  A pair no mcount
 * counted has the calls timed one by one, if any, else 1, the least it
 * can be.
 */
static void
by_calls(struct cg *c, const struct cgpair *p, size_t first, size_t m)
{
	const struct xlines *xl = &c->xl;
	uint64_t left = p->calls, n, cost, meas;
	double cum = 0, mcum = 0;
	size_t k;

	for (k = first; m > 0 && left > 0; k++, m--) {
		n = xl->sites[k].calls < left ? xl->sites[k].calls : left;
		if (n == 0)
			continue;
		cost = xset_round((double)p->cost * (double)n /
		    (double)p->calls, &cum);
		meas = xset_round((double)p->meas * (double)n /
		    (double)p->calls, &mcum);
		call_line(c, p, xl->sites[k].line, n, cost, n, meas);
		left -= n;
	}
	if (left == p->calls)
		call_line(c, p, SIZE_MAX, p->calls > 0 ? p->calls :
		    p->tcalls > 0 ? p->tcalls : 1, p->cost, p->calls,
		    p->meas);
	else if (left > 0)
		call_line(c, p, SIZE_MAX, left,
		    (uint64_t)((double)p->cost - cum + 0.5), left,
		    (uint64_t)((double)p->meas - mcum + 0.5));
}

/*
 * The calls= lines of pair p: by the stacks' call sites where the set
 * has stacks that pass through a line of the pair's counted calls,
 * else by calls.  A pair no mcount counted stays at line 0.
 */
static void
call_lines(struct cg *c, const struct cgpair *p)
{
	const struct xsite *st;
	size_t first, m, k;
	double wsum = 0;

	first = xlines_sites(&c->xl, p->from, p->to, &m);
	for (k = first; k < first + m; k++) {
		st = &c->xl.sites[k];
		if (st->calls > 0 && st->line != SIZE_MAX)
			wsum += st->weight;
	}
	if (c->xl.stacked && p->calls > 0 && wsum > 0)
		by_stacks(c, p, first, m, wsum);
	else
		by_calls(c, p, first, m);
}

/*
 * The block of frame id: its self cost and its calls, the pairs from
 * *k on; none for a frame of no cost that made no call.
 */
static void
block(struct cg *c, size_t id, size_t *k)
{
	const struct cgpair *p;
	size_t end;

	while (*k < c->npairs && c->pairs[*k].from < id)
		(*k)++;
	for (end = *k; end < c->npairs && c->pairs[end].from == id; end++)
		;
	if (c->self[id] == 0 && (c->mself == NULL || c->mself[id] == 0) &&
	    end == *k)
		return;
	fputc('\n', c->fp);
	put_ob(c, "ob", id);
	put_fl(c, "fl", id);
	put_fn(c, "fn", id);
	c->curfl = c->flid[id];
	self_cost(c, id, c->self[id], c->mself != NULL ? c->mself[id] : 0);
	for (; *k < end; (*k)++) {
		p = &c->pairs[*k];
		if (p->calls == 0 && p->cost == 0 && p->meas == 0 &&
		    c->x->flat)
			continue;
		call_lines(c, p);
		addsat(&c->counted, p->calls);
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
	memset(&c, 0, sizeof(c));
	c.x = x;
	c.fp = fp;
	c.ns = (uint64_t)(x->p->period * 1e9 + 0.5);
	c.self = xcalloc(x->nlabels, sizeof(*c.self));
	if ((c.timed = x->r->ntcalls > 0 && !x->wall))
		c.mself = xcalloc(x->nlabels, sizeof(*c.mself));
	c.named = xcalloc(x->nlabels, 1);
	srcline_init(&c.sl, x);
	xlines_make(&c.xl, x, &c.sl);
	files(&c);
	c.obnamed = xcalloc(x->p->nobjs + 1, 1);
	make_pairs(&c);
	fprintf(fp, "# callgrind format\nversion: 1\ncreator: %s\n"
	    "cmd: %s\npositions: line\n"
	    "event: Counted : Calls counted by mcount\n",
	    PROF_VERSION, x->prog);
	if (c.timed)
		fputs("event: Measured : Wall ns measured call by call"
		    " (-finstrument-functions)\n"
		    "events: Samples Nanoseconds Counted Measured\n", fp);
	else
		fputs("events: Samples Nanoseconds Counted\n", fp);
	fputs("\nfl=(1) ???\n", fp);
	for (id = 0; id < x->nlabels; id++)
		block(&c, id, &k);
	fprintf(fp, "\ntotals: %" PRIu64 " %" PRIu64 " %" PRIu64,
	    x->count, x->count * c.ns, c.counted);
	if (c.timed)
		fprintf(fp, " %" PRIu64, c.mtotal);
	fputc('\n', fp);
	free(c.self);
	free(c.mself);
	free(c.pairs);
	free(c.graphpair);
	free(c.named);
	free(c.flnamed);
	for (id = 2; id <= c.nfl; id++)
		free(c.flnames[id]);
	free(c.flnames);
	free(c.flid);
	free(c.lfl);
	free(c.obnamed);
	xlines_free(&c.xl);
	srcline_free(&c.sl);
	return 0;
}
