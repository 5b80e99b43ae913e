/*
 * graphprint.c -- -q, the call graph, and -e, gprof's estimate beside
 * the measured figures.
 *
 * -q prints an entry per function in the layout gprof users know: its
 * callers, the function's own line, the functions it calls, a line of
 * dashes.
 *
 *	index %time     self  children          called  name
 *	                0.10      0.80          10/100      costly [2]
 *	[3]    90.0     0.30      0.80             100  work [3]
 *	                0.40      0.00         900/900      leaf [5]
 *
 * The function's line: its index, its inclusive time as a share of the
 * run's (libmon's left out, as in the flat report), its self and
 * children seconds, its calls (from other functions, then + from
 * itself).  A caller's line: the part of the function's time spent
 * when this caller called it directly, self and children, and the
 * calls it made of all the function's calls from others.  A callee's
 * line: the same for the callee under this function.  Entries are
 * sorted by inclusive time, and numbered in that order, as gprof does;
 * of two with the same time, the one nearer the stacks' roots first,
 * so that a caller comes before the callee whose time is all its own.
 * Callers are listed by increasing time, so that the largest is next
 * to the function's line; callees by decreasing time.
 *
 * Every figure says where it came from in the heading: calls counted
 * by mcount, time from the sampled stacks -- or, with no stacks, the
 * histogram's self time and no children time at all, unless -e asks
 * for gprof's estimate, which is then printed as such.
 *
 * -L -q: under each callee's line, a line for each of its call sites
 * in the function, with the calls counted there and the source line
 * (model/lines.c): which lines made the calls the arc sums up.
 */
#include <err.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

#define EST_POINTS	3.0	/* -e: a difference worth showing */
#define AHEAD		4	/* entries between two steps of fetching */
#define NAHEAD		(4 * AHEAD + 1)	/* entries fetched or printed */
#define TEXT_OUT	0xff		/* a text slot's length for a name
					   too long for it (text_slots()) */

/*
 * An arc as an entry's lines are sorted: by arc_time()'s time, then its
 * calls, read from the arc (16 bytes a key, not 24: a call site with a
 * million callees has a million keys).
 */
struct akey {
	double		 t;
	size_t		 k;		/* its index in the arcs */
};

/* An entry being fetched ahead or printed, and where its arcs are. */
struct ahead {
	size_t		 id;
	size_t		 inlo, inhi;	/* its callers: into[inlo .. inhi) */
	size_t		 outlo, outhi;	/* its callees: arcs[outlo .. outhi) */
};

/* A call site between two rows, for -L -q: its calls and its line. */
struct gsite {
	size_t		 from, to;
	const char	*file;
	uint32_t	 line;
	uint64_t	 calls;
};

/* What the printer keeps while it prints one report. */
struct gp {
	struct report	*r;
	struct gsite	*sites;		/* -L: by from, to, file, line */
	size_t		 nsites;
	const struct opts *o;
	uint32_t	*order;		/* entries' ids, in print order (4
					   bytes: join_arcs() took no more
					   rows than that) */
	size_t		 n;
	uint32_t	*index;		/* by row id: its [n], 0 if none */
	double		 pct;		/* percent a sample */
	int		 timed;		/* inclusive figures to print */
	struct akey	*keys;		/* callers or callees of an entry */
	uint32_t	*into;		/* arcs by callee: of row i, */
	uint32_t	*intofirst;	/* into[intofirst[i] .. [i + 1]) */
	uint32_t	*outfirst;	/* arcs from row i: outfirst[i] ..
					   [i + 1] (they are by caller) */
	char		*names;		/* "name [index]" of each row id, */
	size_t		*nameat;	/* names[nameat[i] .. [i + 1]), */
	size_t		 nnamed;	/* for so many ids; or NULL */
	unsigned char	*slots;		/* or each in a slot of slotw bytes,
					   its length first */
	size_t		 slotw;
	unsigned char	*texts;		/* or each name without its index in
					   a slot of textw bytes, its length
					   first, for ntexts ids; or NULL */
	size_t		 textw, ntexts;
	struct fixed	 col[3];	/* self, children, %time */
};

/* The inclusive figure of a row: measured, estimated with -e, or none. */
static double
row_time(const struct gp *g, const struct row *w)
{
	if (g->r->g.sampled)
		return graph_node(g->r, w)->incl;
	if (g->timed)
		return graph_rowest(g->r, w);
	return w->samples;
}

static double
row_self(const struct gp *g, const struct row *w)
{
	return g->r->g.sampled ? graph_node(g->r, w)->gself : w->samples;
}

/* An arc's time and the self part of it, as row_time() has them. */
static void
arc_time(const struct gp *g, const struct cgarc *c, double *all,
    double *self)
{
	const struct row *w;
	double est, cest;

	if (g->r->g.sampled) {
		*all = c->samples;
		*self = c->leaf;
		return;
	}
	w = g->r->byid[c->to];
	est = graph_rowest(g->r, w);
	cest = graph_arcest(&g->r->g, c);
	if (g->timed) {
		*all = cest;
		*self = est > 0 ? cest * w->samples / est : 0;
	} else
		*all = *self = 0;
}

static const struct gp *sortgp;		/* for the C11 qsort below */

static int
cmp_entry(const void *x, const void *y)
{
	const struct row *a = sortgp->r->byid[*(const uint32_t *)x];
	const struct row *b = sortgp->r->byid[*(const uint32_t *)y];
	double ta = row_time(sortgp, a), tb = row_time(sortgp, b);

	if (ta != tb)
		return ta > tb ? -1 : 1;
	size_t la = graph_node(sortgp->r, a)->level;
	size_t lb = graph_node(sortgp->r, b)->level;

	if (la != lb)
		return la < lb ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if (a->byname != b->byname)
		return a->byname < b->byname ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* cmp_entry()'s figures of an entry, gathered. */
struct ekey {
	double		 t;
	size_t		 level;
	uint64_t	 calls;
	size_t		 byname;
	size_t		 id;
};

static int
cmp_ekey(const void *x, const void *y)
{
	const struct ekey *a = x, *b = y;

	if (a->t != b->t)
		return a->t > b->t ? -1 : 1;
	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if (a->byname != b->byname)
		return a->byname < b->byname ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/*
 * The entries in cmp_entry()'s order, by their figures gathered first:
 * a dense graph has every row an entry, and cmp_entry() reached each
 * row's figures in three places scattered over memory, twenty times a
 * row.  40 bytes an entry while it sorts, so for dense graphs alone.
 */
static void
sort_keyed(struct gp *g)
{
	struct ekey *k;
	const struct row *w;
	size_t i;

	k = xcalloc(g->n + 1, sizeof(*k));
	for (i = 0; i < g->n; i++) {
		w = g->r->byid[g->order[i]];
		k[i].t = row_time(g, w);
		k[i].level = graph_node(g->r, w)->level;
		k[i].calls = w->calls;
		k[i].byname = w->byname;
		k[i].id = w->id;
	}
	qsort(k, g->n, sizeof(*k), cmp_ekey);
	for (i = 0; i < g->n; i++)
		g->order[i] = (uint32_t)k[i].id;
	free(k);
}

/* Most kinds (level and calls) of entries of no time sort_idle() takes. */
#define IDLE_KINDS	16

/* Is kind a (level la, calls ca) before kind b, as cmp_entry() has it? */
static int
kind_before(size_t la, uint64_t ca, size_t lb, uint64_t cb)
{
	return la != lb ? la < lb : ca > cb;
}

/*
 * The entries of no time, ids v[0..n) in increasing order, put in
 * cmp_entry()'s order in v without a compare: by name's rank with a
 * counting sort, which keeps the ids in order, into tmp[0..n); then
 * kind by kind, the few pairs of level and calls they have, in their
 * order.  0, v unchanged, if the entries are of more kinds than that.
 */
static int
sort_idle(const struct gp *g, uint32_t *v, size_t n, uint32_t *tmp)
{
	size_t level[IDLE_KINDS], ord[IDLE_KINDS], nrows = g->r->nrows;
	uint64_t calls[IDLE_KINDS];
	const struct row *w;
	unsigned char *of;
	uint32_t *first;
	size_t i, j, t, nk = 0, lv, at;

	first = xcalloc(nrows + 2, sizeof(*first));
	for (i = 0; i < n; i++)
		first[g->r->byid[v[i]]->byname + 1]++;
	for (i = 0; i < nrows; i++)
		first[i + 1] += first[i];
	for (i = 0; i < n; i++)
		tmp[first[g->r->byid[v[i]]->byname]++] = v[i];
	free(first);
	of = xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		w = g->r->byid[tmp[i]];
		lv = graph_node(g->r, w)->level;
		for (j = 0; j < nk && (level[j] != lv || calls[j] !=
		    w->calls); j++)
			;
		if (j == nk && nk == IDLE_KINDS) {
			free(of);
			return 0;
		}
		if (j == nk) {
			level[nk] = lv;
			calls[nk++] = w->calls;
		}
		of[i] = (unsigned char)j;
	}
	for (i = 0; i < nk; i++) {
		for (j = i; j > 0 && kind_before(level[i], calls[i],
		    level[ord[j - 1]], calls[ord[j - 1]]); j--)
			ord[j] = ord[j - 1];
		ord[j] = i;
	}
	for (t = 0, at = 0; t < nk; t++)
		for (i = 0; i < n; i++)
			if (of[i] == ord[t])
				v[at++] = tmp[i];
	free(of);
	return 1;
}

/*
 * The entries in cmp_entry()'s order, when they come in the order of
 * their ids (the rows left unsorted, report_rank()): those of no time,
 * most of a million functions, by sort_idle(); the others, few, by
 * qsort(), and put around them, those of a time above 0 first.
 * qsort()'s merge sort of them all reached each row's figures in three
 * places scattered over memory twenty times a row, and copied the
 * entries aside.  0, the entries all there but in no order, if it
 * cannot.
 */
static int
sort_split(struct gp *g)
{
	const struct row *w;
	uint32_t *z;
	size_t i, m = 0, nz = 0, hi;

	for (i = 1; i < g->n; i++)
		if (g->order[i] <= g->order[i - 1])
			return 0;
	for (i = 0; i < g->n; i++)
		if (g->r->byid[g->order[i]]->byname >= g->r->nrows)
			return 0;
	z = xcalloc(g->n + 1, sizeof(*z));
	for (i = 0; i < g->n; i++) {
		w = g->r->byid[g->order[i]];
		if (row_time(g, w) == 0)
			z[nz++] = g->order[i];
		else
			g->order[m++] = g->order[i];
	}
	if (!sort_idle(g, z, nz, g->order + m)) {
		for (i = 0; i < nz; i++)
			g->order[m + i] = z[i];
		free(z);
		return 0;
	}
	qsort(g->order, m, sizeof(*g->order), cmp_entry);
	for (hi = 0; hi < m && row_time(g, g->r->byid[g->order[hi]]) > 0;
	    hi++)
		;
	memmove(g->order + hi + nz, g->order + hi, (m - hi) *
	    sizeof(*g->order));
	for (i = 0; i < nz; i++)
		g->order[hi + i] = z[i];
	free(z);
	return 1;
}

/*
 * The rows that are entries: on an arc, or in a stack; with arcs but no
 * stacks at all, every row with time too (the kernel's, a library's
 * uncounted functions), as the flat report has them.  A file with
 * neither has no graph.
 */
static void
entries(struct gp *g)
{
	const struct graph *gr = &g->r->g;
	const struct row *w;
	char *in;
	size_t i;

	in = xcalloc(g->r->nrows + 1, 1);
	for (i = 0; i < gr->narcs; i++) {
		if (gr->arcs[i].from != ROW_NONE)
			in[gr->arcs[i].from] = 1;
		in[gr->arcs[i].to] = 1;
	}
	g->order = xcalloc(g->r->nrows + 1, sizeof(*g->order));
	for (i = 0; i < g->r->nrows; i++) {
		w = &g->r->rows[i];
		if (in[w->id] || graph_node(g->r, w)->incl > 0 ||
		    (!gr->sampled && gr->counted && w->samples > 0))
			g->order[g->n++] = (uint32_t)w->id;
	}
	free(in);
	sortgp = g;
	if (!sort_split(g)) {
		if (g->r->g.narcs >= 2 * g->r->nrows)
			sort_keyed(g);
		else
			qsort(g->order, g->n, sizeof(*g->order), cmp_entry);
	}
	/* 4 bytes an index: join_arcs() took no more rows than that. */
	g->index = xcalloc(g->r->nrows + 1, sizeof(*g->index));
	for (i = 0; i < g->n; i++)
		g->index[g->order[i]] = (uint32_t)(i + 1);
}

/* The heading: where each figure comes from. */
static void
heading(const struct gp *g, const struct profile *p)
{
	const struct graph *gr = &g->r->g;
	uint64_t calls = 0;
	size_t i, n = 0;
	char lim[32];

	for (i = 0; i < gr->narcs; i++)
		if (gr->arcs[i].counted) {
			addsat(&calls, gr->arcs[i].calls);
			n++;
		}
	printf("call graph of %zu file%s\n\n", p->nfiles,
	    p->nfiles == 1 ? "" : "s");
	if (gr->counted)
		printf("calls: exact, counted by mcount: %" PRIu64 " calls on "
		    "%zu arcs\n", calls, n);
	else
		printf("calls: none counted (the files hold no arcs)\n");
	if (gr->sampled)
		printf("time: measured from sampled call stacks, %.0f samples "
		    "(%.2f s)\n", gr->samples, gr->samples * g->r->period);
	else if (g->timed)
		printf("time: self from the histogram; children are gprof's "
		    "equal-cost\n      estimate, not measured (no stacks)\n");
	else
		printf("time: self from the histogram; inclusive time "
		    "unavailable,\n      the files hold no stacks (-e "
		    "estimates it)\n");
	if (gr->stackless > 0)
		printf("no stack: %.2f s in rows that no stack holds (the "
		    "kernel's where its\n      mode was not sampled, files "
		    "without stacks, stacks lost): in %%time,\n      called "
		    "from <no stack>\n", gr->stackless * g->r->period);
	if (gr->cut > 0)
		printf("cut: %.0f samples in stacks cut at %s frames; "
		    "their outer callers unknown\n", gr->cut,
		    stack_limits(p, lim, sizeof(lim)));
	if (gr->shortend > 0)
		printf("short: %.0f samples in stacks that end short of a "
		    "thread's start;\n      their outer callers unknown "
		    "(a frame the walk could not follow)\n", gr->shortend);
	if (p->sum.stacks_lost > 0)
		printf("lost: %" PRIu64 " samples kept no stack\n",
		    p->sum.stacks_lost);
	if (gr->unconfirmed > 0)
		printf("unconfirmed: %.0f samples (%.1f%%) in stacks with a "
		    "caller pair the\n      counted arcs do not confirm: %zu "
		    "pair%s, called ?\n", gr->unconfirmed, gr->samples > 0 ?
		    100.0 * gr->unconfirmed / gr->samples : 0.0,
		    gr->nounconf, gr->nounconf == 1 ? "" : "s");
	printf("\nindex %%time     self  children          called  name\n");
}

/*
 * The entries' lines are made in a buffer of their own and written to
 * stdout a buffer at a time: a graph of a million functions has tens of
 * millions of lines, and stdio's calls, a dozen pieces a line, were as
 * much of -q's time as the rest of the printing.  ob_flush() before
 * anything else writes to stdout.
 */
static char ob[1 << 16];
static size_t on;

static void
ob_flush(void)
{
	if (on > 0)
		fwrite(ob, 1, on, stdout);
	on = 0;
}

static void
ob_put(const char *s, size_t n)
{
	if (n > sizeof(ob) - on) {
		ob_flush();
		if (n > sizeof(ob)) {
			fwrite(s, 1, n, stdout);
			return;
		}
	}
	memcpy(ob + on, s, n);
	on += n;
}

static void
ob_str(const char *s)
{
	ob_put(s, strlen(s));
}

static void
ob_char(char c)
{
	if (on == sizeof(ob))
		ob_flush();
	ob[on++] = c;
}

/* n spaces, as fig_pad(). */
static void
ob_pad(int n)
{
	static const char sp[] = "                                ";

	for (; n > (int)sizeof(sp) - 1; n -= (int)sizeof(sp) - 1)
		ob_put(sp, sizeof(sp) - 1);
	if (n > 0)
		ob_put(sp, (size_t)n);
}

/* s right-aligned in width columns, as fig_right(). */
static void
ob_right(const char *s, size_t len, int width)
{
	if ((int)len < width)
		ob_pad(width - (int)len);
	ob_put(s, len);
}

/* v as "%*.*f" prints it, through column m's memory (figures.c). */
static void
ob_fixed(struct fixed *m, int width, int prec, double v)
{
	(void)fig_fixed(m, "%*.*f", width, prec, v);
	ob_put(m->s, m->len);
}

/* Text from a file, made printable, as put_text(). */
static void
ob_text(const char *s)
{
	const unsigned char *p;
	char *t;

	for (p = (const unsigned char *)s; *p >= 0x20 && *p < 0x7f; p++)
		;
	if (*p == '\0') {
		ob_put(s, (size_t)(p - (const unsigned char *)s));
		return;
	}
	t = printable(s);
	ob_str(t);
	free(t);
}

/* A row's name as put_rowname() (report.c) prints it. */
static void
ob_rowname(const struct row *w)
{
	size_t k;

	for (k = 0; k < w->nnames; k++) {
		if (k > 0)
			ob_put(", ", 2);
		ob_text(w->names[k]);
	}
	if (w->file != NULL) {
		ob_put(" [", 2);
		ob_text(w->file);
		ob_char(']');
	}
	if (w->obj != NULL) {
		ob_put(" (", 2);
		ob_text(w->obj);
		ob_char(')');
	}
}

/*
 * Seconds of a column, or a dash where there is no figure: column k's
 * last figure is remembered (figures.c), for most are 0.00.
 */
static void
put_secs(struct gp *g, int k, double v, int have, int width)
{
	if (have)
		ob_fixed(&g->col[k], width, 2, v * g->r->period);
	else
		ob_right("-", 1, width);
}

/* "a" or "a" sep "b" in decimal into buf; its length. */
static size_t
two_figures(char *buf, uint64_t a, char sep, uint64_t b)
{
	size_t n;

	n = fig_u64(buf, a);
	buf[n++] = sep;
	return n + fig_u64(buf + n, b);
}

/* A row's name and its index. */
static void
put_entry_name(const struct gp *g, size_t id)
{
	char buf[24];
	size_t n;

	if (id == ROW_NONE) {
		ob_str("<outside the report>");
		return;
	}
	if (id < g->nnamed && g->slots != NULL) {
		ob_put((const char *)g->slots + id * g->slotw + 1,
		    g->slots[id * g->slotw]);
		return;
	}
	if (id < g->nnamed) {
		ob_put(g->names + g->nameat[id], g->nameat[id + 1] -
		    g->nameat[id]);
		return;
	}
	if (id < g->ntexts && g->texts[id * g->textw] != TEXT_OUT)
		ob_put((const char *)g->texts + id * g->textw + 1,
		    g->texts[id * g->textw]);
	else
		ob_rowname(g->r->byid[id]);
	if (g->index[id] > 0) {
		buf[0] = ' ';
		buf[1] = '[';
		n = 2 + fig_u64(buf + 2, g->index[id]);
		buf[n++] = ']';
		ob_put(buf, n);
	}
}

/* What the graph says of row id, as graph_node() of its row. */
static const struct node *
node_of(const struct gp *g, size_t id)
{
	static const struct node none;

	return id < g->r->g.nnodes ? &g->r->g.nodes[id] : &none;
}

/*
 * The called column of arc c, seen from its callee.  The callee's node
 * is read only for a counted arc: an arc seen only in stacks has no
 * calls to show, and its callee's node is a miss of the cache.
 */
static void
put_called(const struct gp *g, const struct cgarc *c)
{
	char buf[48];
	size_t n;

	if (c->counted && c->from != c->to)
		n = two_figures(buf, c->calls, '/', node_of(g, c->to)->callsin);
	else if (c->counted)
		n = fig_u64(buf, c->calls);
	else if (c->unconfirmed)
		n = 1, buf[0] = '?';
	else
		n = 0;
	/* A space before, however wide: n/total of 10^8 calls fills it. */
	if (n < 16)
		ob_right(buf, n, 16);
	else {
		ob_char(' ');
		ob_put(buf, n);
	}
}

/* A caller's or callee's line. */
static void
arc_line(struct gp *g, const struct cgarc *c, size_t who)
{
	double all, self;
	int have = g->r->g.sampled || g->timed;

	arc_time(g, c, &all, &self);
	ob_pad(11);
	put_secs(g, 0, self, have, 9);
	put_secs(g, 1, all - self, have, 10);
	put_called(g, c);
	ob_pad(6);
	put_entry_name(g, who);
	ob_char('\n');
}

/* The function's own line. */
static void
own_line(struct gp *g, const struct row *w)
{
	char idx[24], calls[48];
	const struct node *nd = graph_node(g->r, w);
	double t = row_time(g, w), self = row_self(g, w);
	int have = g->r->g.sampled || g->timed;
	size_t n, k;

	idx[0] = '[';
	k = 1 + fig_u64(idx + 1, g->index[w->id]);
	idx[k++] = ']';
	n = 0;
	if (g->r->g.counted && nd->selfcalls > 0)
		n = two_figures(calls, nd->callsin, '+', nd->selfcalls);
	else if (g->r->g.counted && nd->callsin > 0)
		n = fig_u64(calls, nd->callsin);
	else if (w->calls > 0)
		n = fig_u64(calls, w->calls);
	ob_put(idx, k);
	ob_pad(6 - (int)k);
	if (have)
		ob_fixed(&g->col[2], 5, 1, t * g->pct);
	else
		ob_right("-", 1, 5);
	put_secs(g, 0, self, 1, 9);
	put_secs(g, 1, t - self, have, 10);
	ob_right(calls, n, 16);
	ob_pad(2);
	put_entry_name(g, w->id);
	ob_char('\n');
}

static const struct cgarc *sortarcs;	/* the arcs cmp_akey() reads */

/* Arcs by increasing time, then calls, then their place in the arcs. */
static int
cmp_akey(const void *x, const void *y)
{
	const struct akey *a = x, *b = y;
	uint64_t ca, cb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	ca = sortarcs[a->k].calls;
	cb = sortarcs[b->k].calls;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

static void
swap_akeys(struct akey *k, size_t i, size_t j)
{
	struct akey t = k[i];

	k[i] = k[j];
	k[j] = t;
}

/* The index of the median of k[a], k[b] and k[c]. */
static size_t
median_akey(const struct akey *k, size_t a, size_t b, size_t c)
{
	if (cmp_akey(&k[a], &k[b]) < 0)
		return cmp_akey(&k[b], &k[c]) < 0 ? b : cmp_akey(&k[a],
		    &k[c]) < 0 ? c : a;
	return cmp_akey(&k[a], &k[c]) < 0 ? a : cmp_akey(&k[b], &k[c]) <
	    0 ? c : b;
}

/*
 * k[0..n) in cmp_akey()'s order, a total one, so that any sort gives
 * the same.  An entry has a dozen arcs or so, which an insertion sort
 * puts in order before qsort() has called its comparison a few times
 * through a pointer.  The few rows called from everywhere, or calling
 * everything (a million callees of one call site through a table), go
 * by quicksort in place, their pivot the median of three: glibc's
 * qsort() copied the million keys aside, 24 MB at -q's peak.  No two
 * keys are equal (k differs), so the partitions cannot pile up.
 */
static void
sort_akeys(struct akey *k, size_t n)
{
	struct akey t;
	size_t i, j, lo;

	while (n > 32) {
		swap_akeys(k, median_akey(k, 0, n / 2, n - 1), n - 1);
		for (i = 0, lo = 0; i < n - 1; i++)
			if (cmp_akey(&k[i], &k[n - 1]) < 0)
				swap_akeys(k, i, lo++);
		swap_akeys(k, lo, n - 1);
		/* The smaller side by recursion, the larger in the loop. */
		if (lo < n - 1 - lo) {
			sort_akeys(k, lo);
			k += lo + 1;
			n -= lo + 1;
		} else {
			sort_akeys(k + lo + 1, n - 1 - lo);
			n = lo;
		}
	}
	for (i = 1; i < n; i++) {
		t = k[i];
		for (j = i; j > 0 && cmp_akey(&k[j - 1], &t) > 0; j--)
			k[j] = k[j - 1];
		k[j] = t;
	}
}

/*
 * A row's callers, into[lo .. hi) (callers 1), or its callees,
 * arcs[lo .. hi) (0), in print order in keys; how many.
 */
static size_t
arcs_of(struct gp *g, size_t lo, size_t hi, int callers)
{
	struct akey *k = g->keys, t;
	double self;
	size_t i, n = 0;

	for (i = lo; i < hi; i++, n++) {
		k[n].k = callers ? g->into[i] : i;
		arc_time(g, &g->r->g.arcs[k[n].k], &k[n].t, &self);
	}
	sortarcs = g->r->g.arcs;
	sort_akeys(k, n);
	if (!callers)
		for (i = 0; i < n / 2; i++) {
			t = k[i];
			k[i] = k[n - 1 - i];
			k[n - 1 - i] = t;
		}
	return n;
}

/*
 * Where each row's arcs are: those from it lie together, the arcs
 * being sorted by caller; those into it are gathered by a counting sort
 * on the callee.  Rows' ids are below nrows; arcs from no row come
 * last, and are no row's callees list.  Indices of 4 bytes (join_arcs()
 * took no more rows), so that the three arrays of a million arcs and
 * rows weigh what two did (a search of the arcs for each row's callees
 * missed the cache at every step).
 */
static void
index_arcs(struct gp *g)
{
	const struct graph *gr = &g->r->g;
	size_t i, k, n = g->r->nrows;

	if (gr->narcs >= UINT32_MAX)
		errx(1, "%zu arcs: too many for the call graph", gr->narcs);
	g->intofirst = xcalloc(n + 2, sizeof(*g->intofirst));
	g->outfirst = xcalloc(n + 2, sizeof(*g->outfirst));
	g->into = xcalloc(gr->narcs + 1, sizeof(*g->into));
	for (k = 0; k < gr->narcs; k++)
		g->intofirst[gr->arcs[k].to + 1]++;
	for (i = 0; i < n; i++)
		g->intofirst[i + 1] += g->intofirst[i];
	for (k = 0; k < gr->narcs; k++)
		g->into[g->intofirst[gr->arcs[k].to]++] = (uint32_t)k;
	for (i = n; i > 0; i--)
		g->intofirst[i] = g->intofirst[i - 1];
	g->intofirst[0] = 0;
	for (i = 0, k = 0; i <= n; i++) {
		while (k < gr->narcs && gr->arcs[k].from < i)
			k++;
		g->outfirst[i] = (uint32_t)k;
	}
	for (i = 0, k = 0; i < n; i++) {
		if (g->intofirst[i + 1] - g->intofirst[i] > k)
			k = g->intofirst[i + 1] - g->intofirst[i];
		if (g->outfirst[i + 1] - g->outfirst[i] > k)
			k = g->outfirst[i + 1] - g->outfirst[i];
	}
	g->keys = xcalloc(k + 1, sizeof(*g->keys));
}

/* The most bytes ob_rowname() and an index can make of row w. */
static size_t
name_bound(const struct row *w)
{
	size_t k, n = 32;

	for (k = 0; k < w->nnames; k++)
		n += strlen(w->names[k]) + 2;
	if (w->file != NULL)
		n += strlen(w->file) + 3;
	if (w->obj != NULL)
		n += strlen(w->obj) + 3;
	return n;
}

/*
 * The names in slots of one width, where the longest is short: a name
 * is then found at an address known from its id alone, one miss of the
 * cache where the arena and its offsets were two, and one that entry()
 * can ask for ahead (a dense graph's names come at random).
 */
static void
slot_names(struct gp *g)
{
	size_t id, len, most = 0;

	for (id = 0; id < g->nnamed; id++)
		if ((len = g->nameat[id + 1] - g->nameat[id]) > most)
			most = len;
	if (most > 63)
		return;
	g->slotw = (most + 1 + 7) & ~(size_t)7;
	g->slots = xcalloc(g->nnamed + 1, g->slotw);
	for (id = 0; id < g->nnamed; id++) {
		len = g->nameat[id + 1] - g->nameat[id];
		g->slots[id * g->slotw] = (unsigned char)len;
		memcpy(g->slots + id * g->slotw + 1, g->names + g->nameat[id],
		    len);
	}
	free(g->names);
	free(g->nameat);
	g->names = NULL;
	g->nameat = NULL;
}

/*
 * Each row's name and index made once, in the order of the ids, where
 * the arcs are many: a graph of a million functions and ten million
 * arcs prints a name some twenty times, each from a row, its names and
 * its index scattered over memory.  The names are put in the output
 * buffer and moved from there.
 */
static void
name_rows(struct gp *g)
{
	const struct row *w;
	size_t id, n = g->r->nrows, cap = 0, len = 0;

	if (g->r->g.narcs < 2 * n)
		return;
	/* A name must fit the buffer whole (printable() never adds). */
	for (id = 0; id < n; id++)
		if ((w = g->r->byid[id]) != NULL && name_bound(w) > sizeof(ob))
			return;
	ob_flush();
	g->nameat = xcalloc(n + 1, sizeof(*g->nameat));
	for (id = 0; id < n; id++) {
		g->nameat[id] = len;
		if (g->r->byid[id] == NULL)
			continue;
		put_entry_name(g, id);
		g->names = xgrow(g->names, &cap, len, on, 1);
		memcpy(g->names + len, ob, on);
		len += on;
		on = 0;
	}
	g->nameat[n] = len;
	g->nnamed = n;
	slot_names(g);
}

/*
 * Row id's name into its slot of text_slots(), if it fits; how many
 * bytes it takes (SIZE_MAX if it cannot be made in the output buffer).
 */
static size_t
text_slot(struct gp *g, size_t id)
{
	const struct row *w;
	unsigned char *at = g->texts + id * g->textw;
	size_t len;

	at[0] = TEXT_OUT;
	if ((w = g->r->byid[id]) == NULL || name_bound(w) > sizeof(ob))
		return SIZE_MAX;
	ob_rowname(w);
	if ((len = on) < g->textw) {
		at[0] = (unsigned char)len;
		memcpy(at + 1, ob, len);
	}
	on = 0;
	return len;
}

/*
 * Each row's name, without its index, in a slot of one width, where the
 * names are short and the arcs too few for name_rows(): a graph of a
 * million functions and as many arcs prints a million names four times
 * each, and ob_rowname() missed the cache at each name's first letter
 * (the row, its names and their bytes scattered over memory), a sixth
 * of -q's time.  A slot is at an address known from the id alone,
 * which entry()'s steps ask for ahead.  Slots of 8 bytes, the length
 * first, if all names but an eighth take seven at most; else of 16, if
 * fifteen hold as many; else none.  The longer names are read from
 * their rows, the slot saying so.  Each name is made in the output
 * buffer and moved into its slot.
 */
static void
text_slots(struct gp *g)
{
	size_t id, n = g->r->nrows, fit;

	if (g->nnamed > 0 || n < 2)
		return;
	ob_flush();
	for (g->textw = 8; g->textw <= 16; g->textw *= 2) {
		g->texts = xcalloc(n + 1, g->textw);
		for (id = 0, fit = 0; id < n; id++)
			fit += text_slot(g, id) < g->textw;
		if (fit >= n - n / 8) {
			g->ntexts = n;
			return;
		}
		free(g->texts);
		g->texts = NULL;
	}
}

/*
 * The prefetching helpers below are always inlined: gcc takes a
 * function that does nothing but prefetch for one without effect, and
 * drops every call of it (the report's names were never prefetched).
 */
#define PREFETCHER	static inline __attribute__((always_inline)) void

/* Where put_entry_name() will read row id's name. */
PREFETCHER
prefetch_name(const struct gp *g, size_t id)
{
	const unsigned char *at;

	if (id < g->nnamed && g->slots != NULL) {
		at = g->slots + id * g->slotw;
		__builtin_prefetch(at);
		__builtin_prefetch(at + g->slotw - 1);
	} else if (id < g->ntexts) {
		__builtin_prefetch(g->texts + id * g->textw);
		__builtin_prefetch(&g->index[id]);
	}
}

/* Both ends of arc k, which may lie across two lines of the cache. */
PREFETCHER
prefetch_arc(const struct gp *g, size_t k)
{
	const char *at = (const char *)&g->r->g.arcs[k];

	__builtin_prefetch(at);
	__builtin_prefetch(at + sizeof(struct cgarc) - 1);
}

/*
 * So many of an entry's callers and of its callees have their arcs and
 * names asked for ahead: a row called from everywhere has a long run
 * of lines of its own, which needs no help, and would push the rest of
 * the entries fetched ahead out of the cache.
 */
#define FETCH_ARCS	64

/*
 * What printing an entry reads is asked for ahead, in the order it is
 * reached, one link a step: the entry's places in the index; then its
 * callees' arcs and where its callers' lie; then the callers' arcs;
 * then the names at all its arcs' other ends.  Entries come by time,
 * their arcs and the rows these lead to scattered over hundreds of
 * megabytes, and an entry's chain of misses -- where its callers are,
 * each caller's arc, the name at its other end -- waited on each link
 * in turn.  Each step is taken AHEAD entries before the next, so that
 * printing those entries covers the wait.
 */
PREFETCHER
fetch_places(const struct gp *g, const struct ahead *e)
{
	__builtin_prefetch(&g->intofirst[e->id]);
	__builtin_prefetch(&g->outfirst[e->id]);
	__builtin_prefetch(&g->r->byid[e->id]);
	__builtin_prefetch(node_of(g, e->id));
	prefetch_name(g, e->id);
}

/* The second step, which also notes where e's arcs are. */
static void
fetch_ranges(const struct gp *g, struct ahead *e)
{
	size_t j;

	__builtin_prefetch(g->r->byid[e->id]);
	e->inlo = g->intofirst[e->id];
	e->inhi = g->intofirst[e->id + 1];
	e->outlo = g->outfirst[e->id];
	e->outhi = g->outfirst[e->id + 1];
	for (j = e->inlo; j < e->inhi && j < e->inlo + FETCH_ARCS; j += 16)
		__builtin_prefetch(&g->into[j]);
	for (j = e->outlo; j < e->outhi && j < e->outlo + FETCH_ARCS; j++)
		prefetch_arc(g, j);
}

PREFETCHER
fetch_callers(const struct gp *g, const struct ahead *e)
{
	size_t j;

	for (j = e->inlo; j < e->inhi && j < e->inlo + FETCH_ARCS; j++)
		prefetch_arc(g, g->into[j]);
}

PREFETCHER
fetch_names(const struct gp *g, const struct ahead *e)
{
	const struct cgarc *arcs = g->r->g.arcs;
	size_t j;

	for (j = e->inlo; j < e->inhi && j < e->inlo + FETCH_ARCS; j++)
		prefetch_name(g, arcs[g->into[j]].from);
	for (j = e->outlo; j < e->outhi && j < e->outlo + FETCH_ARCS; j++) {
		prefetch_name(g, arcs[j].to);
		if (arcs[j].counted)
			__builtin_prefetch(node_of(g, arcs[j].to));
	}
}

static int
cmp_gsite(const void *x, const void *y)
{
	const struct gsite *a = x, *b = y;
	int c;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	if (a->file != b->file && (c = strcmp(a->file, b->file)) != 0)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* -L: the call sites of ls's lines between rows of the report. */
static void
make_sites(struct gp *g, struct lines *ls)
{
	const struct lcall *c;
	const struct lrow *w;
	struct gsite *s;
	size_t i, from, to, cap = 0;

	for (i = 0; i < ls->ncalls; i++) {
		c = &ls->calls[i];
		w = &ls->rows[c->row];
		if (w->file == NULL ||
		    (from = lines_row(ls, w->obj, w->entry)) == ROW_NONE ||
		    (to = lines_row(ls, c->cobj, c->centry)) == ROW_NONE)
			continue;
		g->sites = xgrow(g->sites, &cap, g->nsites, 1,
		    sizeof(*g->sites));
		s = &g->sites[g->nsites++];
		s->from = from;
		s->to = to;
		s->file = w->file;
		s->line = w->line;
		s->calls = c->calls;
	}
	if (g->nsites > 1)
		qsort(g->sites, g->nsites, sizeof(*g->sites), cmp_gsite);
}

/* -L: the call sites of arc c, a line each. */
static void
site_lines(const struct gp *g, const struct cgarc *c)
{
	const struct gsite *s;
	char buf[24];
	size_t lo = 0, hi = g->nsites, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = &g->sites[mid];
		if (s->from < c->from || (s->from == c->from && s->to < c->to))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < g->nsites && g->sites[lo].from == c->from &&
	    g->sites[lo].to == c->to; lo++) {
		s = &g->sites[lo];
		ob_pad(30);
		ob_right(buf, fig_u64(buf, s->calls), 16);
		ob_str("      at ");
		ob_text(line_file_name(s->file));
		ob_char(':');
		ob_put(buf, fig_u64(buf, s->line));
		ob_char('\n');
	}
}

static void
entry(struct gp *g, const struct ahead *b)
{
	const struct cgarc *c;
	double nostack;
	size_t i, n;

	n = arcs_of(g, b->inlo, b->inhi, 1);
	nostack = graph_node(g->r, g->r->byid[b->id])->nostack;
	if (n == 0 && nostack <= 0) {
		ob_pad(47);
		ob_str("<spontaneous>\n");
	} else if (nostack > 0) {
		/* Its time no stack holds: a caller's line of its own. */
		ob_pad(11);
		put_secs(g, 0, nostack, 1, 9);
		put_secs(g, 1, 0, 1, 10);
		ob_pad(22);
		ob_str("<no stack>\n");
	}
	for (i = 0; i < n; i++) {
		c = &g->r->g.arcs[g->keys[i].k];
		arc_line(g, c, c->from);
	}
	own_line(g, g->r->byid[b->id]);
	n = arcs_of(g, b->outlo, b->outhi, 0);
	for (i = 0; i < n; i++) {
		c = &g->r->g.arcs[g->keys[i].k];
		arc_line(g, c, c->to);
		if (g->nsites > 0)
			site_lines(g, c);
	}
	ob_str("-----------------------------------------------"
	    "------------\n");
}

/*
 * Percent a sample: against the run's time, libmon's left out, as the
 * flat report; against the stacks' if they say more (a forged file).
 */
static double
percent(const struct report *r)
{
	double base = r->total - r->overhead;

	if (r->g.samples > base)
		base = r->g.samples;
	return base > 0 ? 100.0 / base : 0;
}

static void
gp_init(struct gp *g, struct report *r, const struct opts *o)
{
	memset(g, 0, sizeof(*g));
	g->r = r;
	g->o = o;
	g->timed = r->g.sampled || (o->estimate && r->g.estimated);
	g->pct = percent(r);
	index_arcs(g);
}

static void
gp_free(struct gp *g)
{
	free(g->order);
	free(g->index);
	free(g->keys);
	free(g->into);
	free(g->intofirst);
	free(g->outfirst);
	free(g->names);
	free(g->nameat);
	free(g->slots);
	free(g->texts);
	free(g->sites);
}

/* -q: the call graph of r on stdout; with -L, ls's call sites in it. */
void
graph_print_lines(struct report *r, const struct profile *p,
    const struct opts *o, struct lines *ls)
{
	struct ahead ring[NAHEAD];
	struct gp g;
	size_t i;

	/* The entries have an order of their own; -e's lines, -f's note,
	   -s's counts and -L's lines, printed after, read the rows'. */
	if (ls == NULL && !o->estimate && o->focus == NULL && !o->stats)
		report_rank(r, o);
	else
		report_sort(r, o);
	gp_init(&g, r, o);
	if (ls != NULL)
		make_sites(&g, ls);
	entries(&g);
	if (!o->nohead)
		heading(&g, p);
	name_rows(&g);
	text_slots(&g);
	/* Entry i has its places fetched at step i, is printed at i + 4A. */
	for (i = 0; i < g.n + 4 * AHEAD; i++) {
		if (i < g.n) {
			ring[i % NAHEAD].id = g.order[i];
			fetch_places(&g, &ring[i % NAHEAD]);
		}
		if (i >= AHEAD && i - AHEAD < g.n)
			fetch_ranges(&g, &ring[(i - AHEAD) % NAHEAD]);
		if (i >= 2 * AHEAD && i - 2 * AHEAD < g.n)
			fetch_callers(&g, &ring[(i - 2 * AHEAD) % NAHEAD]);
		if (i >= 3 * AHEAD && i - 3 * AHEAD < g.n)
			fetch_names(&g, &ring[(i - 3 * AHEAD) % NAHEAD]);
		if (i >= 4 * AHEAD && i - 4 * AHEAD < g.n)
			entry(&g, &ring[(i - 4 * AHEAD) % NAHEAD]);
	}
	ob_flush();
	if (g.n == 0)
		printf("no call graph: the files hold no arcs and no "
		    "stacks\n");
	gp_free(&g);
}

void
graph_print(struct report *r, const struct profile *p, const struct opts *o)
{
	graph_print_lines(r, p, o, NULL);
}

/* One line of -e: measured and estimated percent, and what. */
static void
est_line(const struct gp *g, double meas, double est, size_t from,
    size_t to)
{
	printf("%9.1f %9.1f  ", meas * g->pct, est * g->pct);
	if (from != ROW_NONE) {
		put_rowname(g->r->byid[from]);
		fputs(" -> ", stdout);
	}
	put_rowname(g->r->byid[to]);
	putchar('\n');
}

/* Does a measured and an estimated figure differ enough to show? */
static int
differ(const struct gp *g, double meas, double est)
{
	double d = (meas - est) * g->pct;

	return d > EST_POINTS || d < -EST_POINTS;
}

/*
 * -e: after the report, gprof's equal-cost estimate beside the
 * measured inclusive time, for each function and each arc where the two
 * differ by more than EST_POINTS points of the run's time.  The report
 * was printed first: its rows are sorted and named.
 */
void
estimate_print(struct report *r, const struct opts *o)
{
	const struct cgarc *c;
	const struct row *w;
	const struct node *nd;
	struct gp g;
	size_t i, n = 0;

	gp_init(&g, r, o);
	printf("\ngprof's equal-cost estimate");
	if (!r->g.estimated || !r->g.sampled) {
		printf(": %s\n", !r->g.estimated ? "no arcs in the files to "
		    "estimate from" : "no stacks to measure against;\n-q "
		    "and -i show the estimate");
		gp_free(&g);
		return;
	}
	printf(" beside the measured time, where they differ\nby more "
	    "than %.0f points of the run's time:\n\n%9s %9s\n%9s %9s  %s\n",
	    EST_POINTS, "%time", "%time", "measured", "estimate",
	    "function, or caller -> callee");
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		nd = graph_node(r, w);
		if (!differ(&g, nd->incl, graph_rowest(r, w)))
			continue;
		est_line(&g, nd->incl, graph_rowest(r, w), ROW_NONE, w->id);
		n++;
	}
	for (i = 0; i < r->g.narcs; i++) {
		c = &r->g.arcs[i];
		if (!c->counted || c->from == ROW_NONE || c->from == c->to ||
		    !differ(&g, c->samples, graph_arcest(&r->g, c)))
			continue;
		est_line(&g, c->samples, graph_arcest(&r->g, c), c->from,
		    c->to);
		n++;
	}
	if (n == 0)
		printf("%9s none\n", "");
	gp_free(&g);
}

/* The report, or with -q the call graph; then with -e the estimate. */
void
report_show(struct report *r, const struct profile *p, const struct opts *o)
{
	if (o->graph) {
		graph_print(r, p, o);
		measured_print(r, p);
	} else
		report_print(r, o);
	if (o->estimate)
		estimate_print(r, o);
}
