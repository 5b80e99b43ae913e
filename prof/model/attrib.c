/*
 * attrib.c -- from a merged profile to the rows of the report.
 *
 * The steps, in order: the program's symbol table cut into entries
 * (entries.c); the histogram's samples, the samples outside it and the
 * call counts placed in entries; the call graph's places marked; the
 * rows named (rows.c); the arcs and stacks turned into pairs and runs of
 * rows, for callgraph.c.
 *
 * Time: a histogram bin covers a range of link-time addresses; its
 * samples go to the functions overlapping that range, in proportion of
 * the bytes each covers, and to nobody when none does.  Samples outside
 * the histogram come with their own address, or, where the runtime's
 * table had no room for it, with their 4 KiB page's (page + 1): a page
 * is shared out as a bin is.  Calls: a cell counts for
 * the function holding fnpc - 1, the last byte of the call to mcount,
 * which is inside its caller even when the call ends the function.
 * Addresses in other objects are looked up in their own symbol tables
 * (entries.c); those no symbol covers are kept by address, for rows.c
 * to name.
 *
 * The call graph's places -- both ends of each counted arc, every frame
 * of every stack -- are looked up as calls and samples are: a callee at
 * its cell's address less one, the innermost frame at the sampled pc,
 * the others at their return address less one (the reader took the one
 * off).  A function the graph needs has a row, even with no time and no
 * calls of its own (main, a library function that calls back); such a
 * row is marked, and the flat report shows it only with -i.  libmon's
 * frames are left out of the stacks, and a stack that ends in libmon's
 * code is profiling's overhead.  Arcs and stacks then pass to
 * callgraph.c as row ids: ids are rows' places as they were made,
 * before any sorting.
 *
 * Samples are the weighted ones of the profile, so that files taken at
 * different rates add up in seconds.
 */
#include <err.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/attr.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

#define HISTUNIT	131072.0	/* profil(): 2^17 / scale bytes a bin */

/*
 * Are the program's addresses that no symbol covers kept, as a row
 * "[unnamed code] (program)"?  When its table is .dynsym, the exported
 * names alone: a stripped program, most of whose own time and calls
 * would be in no row.  A program with its full table leaves only its
 * start-up code and PLT out, as classic prof did.
 */
static int
keeps_unnamed(const struct attr *a, size_t obj)
{
	return obj == OBJ_MAIN && strcmp(a->tabs[OBJ_MAIN].st.table,
	    ".dynsym") == 0;
}

static void
add_raw(struct attr *a, size_t obj, uint64_t addr, double samples,
    uint64_t calls)
{
	struct raw *w;

	if (a->o->progonly && obj != OBJ_MAIN)
		return;
	/* libmon's code in a stripped program: its overhead still */
	if (profile_in_self(a->p, obj, addr)) {
		a->r->overhead += samples;
		a->r->attributed += samples;
		a->r->libmon = 'r';
		return;
	}
	/* The same unknown address of two processes is one row. */
	if (obj != OBJ_NONE && a->p->objs[obj].jitpid != 0)
		obj = OBJ_NONE;
	a->raws = xgrow(a->raws, &a->rawcap, a->nraws, 1, sizeof(*a->raws));
	w = &a->raws[a->nraws++];
	w->obj = obj;
	w->addr = addr;
	w->samples = samples;
	w->calls = calls;
	w->graph = 0;
}

/* First address of bin i, as an offset from lpc; ceil(i * num / den). */
static uint64_t
bin_start(uint64_t i, uint64_t num, uint64_t den)
{
	__extension__ typedef unsigned __int128 u128;
	u128 v;

	v = ((u128)i * num + den - 1) / den;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/*
 * The link-time range [*lo, *hi) of histogram bin i: 2^17 / scale bytes
 * a bin when the run gave profil()'s scale, the range shared evenly
 * otherwise.  Scale 2 is profil()'s "everything in bin 0".
 */
void
bin_range(const struct profile *p, size_t i, uint64_t *lo, uint64_t *hi)
{
	uint64_t a, b, num, den;

	if (p->scale == 2) {
		*lo = p->lpc;
		*hi = i == 0 ? p->hpc : p->lpc;
		return;
	}
	if (p->scale > 2) {
		num = (uint64_t)HISTUNIT;
		den = p->scale;
	} else {
		num = p->hpc - p->lpc;
		den = p->nhist;
	}
	a = bin_start(i, num, den);
	b = bin_start((uint64_t)i + 1, num, den);
	*lo = a > UINT64_MAX - p->lpc ? UINT64_MAX : p->lpc + a;
	*hi = b > UINT64_MAX - p->lpc ? UINT64_MAX : p->lpc + b;
}

/*
 * How many functions of t start at or below addr: symtab_upper(), by an
 * index made on first use.  The text from the first function's address
 * is cut into buckets of 2^upshift bytes, about one a function, and
 * upidx[b] holds how many functions start below bucket b; a binary
 * search of a table of a million functions costs some twenty cache
 * misses, and the stacks of a long run have tens of millions of frames
 * to look up, at random.
 */
static size_t
upper(struct otab *t, uint64_t addr)
{
	const struct symtab *st = &t->st;
	size_t n = st->nfuncs, lo, b;
	uint64_t base, span;

	if (n < 64 || n > UINT32_MAX)
		return symtab_upper(st, addr);
	base = st->funcs[0].addr;
	if (t->upidx == NULL) {
		span = st->funcs[n - 1].addr - base;
		for (t->upshift = 0; (span >> t->upshift) > n; t->upshift++)
			;
		t->nupidx = (size_t)(span >> t->upshift) + 1;
		t->upidx = xcalloc(t->nupidx + 1, sizeof(*t->upidx));
		for (b = 0, lo = 0; b <= t->nupidx; b++) {
			while (lo < n && st->funcs[lo].addr - base <
			    ((uint64_t)b << t->upshift))
				lo++;
			t->upidx[b] = (uint32_t)lo;
		}
	}
	if (addr < base)
		return 0;
	if ((b = (size_t)((addr - base) >> t->upshift)) >= t->nupidx)
		return n;
	/* Functions below bucket b start below addr; from bucket b + 1 on,
	   above it. */
	return symtab_upper_in(st, addr, t->upidx[b], t->upidx[b + 1]);
}

/* The first function that may overlap [lo, ...). */
static size_t
first_overlap(struct otab *t, uint64_t lo)
{
	const struct symtab *st = &t->st;
	size_t n;

	n = upper(t, lo);
	return n > 0 && st->funcs[n - 1].end > lo ? n - 1 : n;
}

static uint64_t
overlap(const struct func *f, uint64_t lo, uint64_t hi)
{
	uint64_t a = f->addr > lo ? f->addr : lo;
	uint64_t b = f->end < hi ? f->end : hi;

	return b > a ? b - a : 0;
}

/* Share the samples of one bin [lo, hi) among the functions in it. */
static double
share_bin(struct otab *t, uint64_t lo, uint64_t hi, double count)
{
	const struct symtab *st = &t->st;
	uint64_t covered = 0, ov;
	size_t k, k0;

	k0 = first_overlap(t, lo);
	for (k = k0; k < st->nfuncs && st->funcs[k].addr < hi;
	    k = group_end(st, k))
		covered += overlap(&st->funcs[k], lo, hi);
	if (covered == 0)
		return 0;
	for (k = k0; k < st->nfuncs && st->funcs[k].addr < hi;
	    k = group_end(st, k)) {
		if ((ov = overlap(&st->funcs[k], lo, hi)) > 0)
			t->ents[st->funcs[k].entry].samples +=
			    count * (double)ov / (double)covered;
	}
	return count;
}

/* The histogram's samples to functions; returns how many it had. */
static double
attribute_hist(struct attr *a)
{
	const struct profile *p = a->p;
	struct otab *t = otab(a, OBJ_MAIN);
	uint64_t lo, hi;
	double sum = 0, shared;
	size_t i;

	for (i = 0; i < p->nbins; i++) {
		sum += p->bins[i].w;
		bin_range(p, p->bins[i].i, &lo, &hi);
		if (lo >= hi)
			continue;
		shared = share_bin(t, lo, hi, p->bins[i].w);
		a->r->histattr += shared;
		if (shared == 0 && keeps_unnamed(a, OBJ_MAIN))
			add_raw(a, OBJ_MAIN, lo, p->bins[i].w, 0);
	}
	return sum;
}

/*
 * The weighted samples at a page key (a page's address + 1: the
 * runtime's exact addresses have bit 0 clear) shared out over the page's
 * functions; 0 if pl is no page key or the page holds none.
 */
static double
share_page(struct otab *t, const struct place *pl)
{
	uint64_t lo;

	if (t == NULL || (pl->addr & 0xfff) != 1)
		return 0;
	lo = pl->addr - 1;
	return share_bin(t, lo, lo + 4096, pl->samples);
}

/* The function of t holding addr, or SIZE_MAX: symtab_lookup(). */
static size_t
lookup(struct otab *t, uint64_t addr)
{
	const struct symtab *st = &t->st;
	size_t lo;

	lo = upper(t, addr);
	if (lo == 0 || addr >= st->funcs[lo - 1].end)
		return SIZE_MAX;
	return lo - 1;
}

/* Calls of the cells, and samples outside the histogram. */
static void
attribute_places(struct attr *a)
{
	const struct profile *p = a->p;
	const struct place *pl;
	struct otab *t;
	double shared;
	size_t i, k;

	for (i = 0; i < p->ncells; i++) {
		pl = &p->cells[i];
		a->r->calltotal += pl->count;
		a->r->cellscalled += pl->count > 0;
		t = otab(a, pl->obj);
		k = t == NULL || pl->addr == 0 ? SIZE_MAX :
		    lookup(t, pl->addr - 1);
		if (k != SIZE_MAX && t->st.funcs[k].folded)
			continue;	/* -l: classic credits no other */
		if (k != SIZE_MAX) {
			t->ents[t->st.funcs[k].entry].calls += pl->count;
			a->r->cellsnamed += pl->count > 0;
		} else {
			a->r->callsunmatched += pl->count;
			if (pl->obj != OBJ_MAIN || keeps_unnamed(a, pl->obj))
				add_raw(a, pl->obj, pl->addr, 0, pl->count);
		}
	}
	for (i = 0; i < p->npcs; i++) {
		pl = &p->pcs[i];
		t = otab(a, pl->obj);
		if ((shared = share_page(t, pl)) > 0) {
			a->r->attributed += shared;
			continue;
		}
		k = t == NULL ? SIZE_MAX : lookup(t, pl->addr);
		if (k != SIZE_MAX) {
			t->ents[t->st.funcs[k].entry].samples += pl->samples;
			a->r->attributed += pl->samples;
		} else if (pl->obj != OBJ_MAIN || keeps_unnamed(a, pl->obj))
			add_raw(a, pl->obj, pl->addr, pl->samples, 0);
	}
}

/*
 * The calls timed one by one (-finstrument-functions): each function's
 * measured inclusive time and calls to its entry, which has a row for
 * them, with those calls where mcount counted none.
 */
static void
attribute_timed(struct attr *a)
{
	const struct ptimed *pt;
	struct otab *t;
	size_t i, k, n;

	for (i = 0; i < a->p->ntimed; i++) {
		pt = &a->p->timed[i];
		if (pt->arc || pt->ctx || (t = otab(a, pt->obj)) == NULL ||
		    (k = lookup(t, pt->addr)) == SIZE_MAX ||
		    t->st.funcs[k].folded ||
		    (n = t->st.funcs[k].entry) == SIZE_MAX || n == t->selfent)
			continue;
		if (t->tincl == NULL) {
			t->tincl = xcalloc(t->nents + 1, sizeof(*t->tincl));
			t->tcalls = xcalloc(t->nents + 1, sizeof(*t->tcalls));
		}
		t->tincl[n] += pt->incl;
		t->tcalls[n] += pt->calls;
		t->ents[n].graph = 1;
	}
	for (i = 0; i < a->r->ntabs; i++) {
		t = &a->tabs[i];
		for (n = 0; t->tcalls != NULL && n < t->nents; n++)
			if (t->ents[n].calls == 0)
				t->ents[n].calls = t->tcalls[n];
	}
}

/* The row of the function whose entry is (obj, addr), or ROW_NONE. */
static size_t
timed_row(struct attr *a, size_t obj, uint64_t addr)
{
	struct otab *t;
	size_t k, n;

	if ((t = otab(a, obj)) == NULL || t->rowid == NULL ||
	    (k = lookup(t, addr)) == SIZE_MAX || t->st.funcs[k].folded ||
	    (n = t->st.funcs[k].entry) == SIZE_MAX || n == t->selfent)
		return ROW_NONE;
	return t->rowid[n];
}

static int
cmp_tcall(const void *x, const void *y)
{
	const struct tcall *a = x, *b = y;

	if (a->arc != b->arc)
		return a->arc < b->arc ? -1 : 1;
	if (a->root != b->root)
		return a->root < b->root ? -1 : 1;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return 0;
}

static void
add_tcall(void *into, const void *from)
{
	struct tcall *a = into;
	const struct tcall *b = from;

	addsat(&a->calls, b->calls);
	addsat(&a->open, b->open);
	a->incl += b->incl;
	a->self += b->self;
	if (b->min > 0 && (a->min == 0 || b->min < a->min))
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
}

/*
 * The calls timed one by one, functions and arcs, as rows (r->tcalls)
 * for -q's measured graph: those of one function, or of one pair, in
 * several files or under several names of one entry are summed.  A
 * function that no row stands for (libmon's, an address in no known
 * function) is left out, with the arcs to and from it.
 */
static void
timed_rows(struct attr *a)
{
	const struct ptimed *pt;
	struct tcall *c;
	size_t i, n = 0;

	if (a->p->ntimed == 0)
		return;
	a->r->tcalls = xcalloc(a->p->ntimed, sizeof(*a->r->tcalls));
	for (i = 0; i < a->p->ntimed; i++) {
		pt = &a->p->timed[i];
		if (pt->ctx)
			continue;
		c = &a->r->tcalls[n];
		memset(c, 0, sizeof(*c));
		if ((c->to = timed_row(a, pt->obj, pt->addr)) == ROW_NONE)
			continue;
		c->arc = pt->arc;
		c->from = ROW_NONE;
		c->root = pt->arc && pt->cobj == OBJ_NONE && pt->caddr == 0;
		if (pt->arc && !c->root &&
		    (c->from = timed_row(a, pt->cobj, pt->caddr)) == ROW_NONE)
			continue;
		c->calls = pt->calls;
		c->open = pt->open;
		c->incl = pt->incl;
		c->self = pt->self;
		c->min = pt->min;
		c->max = pt->max;
		n++;
	}
	a->r->ntcalls = sortsum(a->r->tcalls, n, sizeof(*a->r->tcalls),
	    cmp_tcall, add_tcall);
}

/*
 * The calling contexts of the calls timed one by one, as rows
 * (r->tctx), each after its parent.  A context whose parents' chain
 * comes back to itself, or runs deeper than CTX_DEEPEST (a file that
 * says so: the hooks keep 4096 frames), is left out, with what it
 * called.
 */
#define CTX_TODO	SIZE_MAX	/* at[]: not placed yet */
#define CTX_WALK	(SIZE_MAX - 1)	/* on the chain being placed */
#define CTX_NONE	(SIZE_MAX - 2)	/* left out */
#define CTX_DEEPEST	8192		/* frames a context's stack has: the
					   hooks keep 4096, a file may say
					   more */

static void
timed_contexts(struct attr *a)
{
	const struct ptimed *pt;
	struct tctx *c;
	size_t *at, *chain, i, j, n, len, top, depth;

	for (i = n = 0; i < a->p->ntimed; i++)
		n += a->p->timed[i].ctx != 0;
	if (n == 0)
		return;
	at = xcalloc(a->p->ntimed, sizeof(*at));
	chain = xcalloc(n, sizeof(*chain));
	for (i = 0; i < a->p->ntimed; i++)
		at[i] = CTX_TODO;
	a->r->tctx = xcalloc(n, sizeof(*a->r->tctx));
	for (i = 0; i < a->p->ntimed; i++) {
		if (!a->p->timed[i].ctx || at[i] != CTX_TODO)
			continue;
		/* Up to a root or a context placed, then down, placing. */
		len = 0;
		for (j = i; j != SIZE_MAX && at[j] == CTX_TODO;
		    j = a->p->timed[j].up) {
			at[j] = CTX_WALK;
			chain[len++] = j;
		}
		top = j == SIZE_MAX ? SIZE_MAX : at[j];
		if (top == CTX_WALK || top == CTX_NONE) {
			while (len > 0)
				at[chain[--len]] = CTX_NONE;
			continue;
		}
		depth = top == SIZE_MAX ? 0 : a->r->tctx[top].depth;
		while (len > 0) {
			j = chain[--len];
			if (++depth > CTX_DEEPEST) {
				at[j] = CTX_NONE;
				while (len > 0)
					at[chain[--len]] = CTX_NONE;
				break;
			}
			pt = &a->p->timed[j];
			at[j] = a->r->ntctx;
			c = &a->r->tctx[a->r->ntctx++];
			c->row = timed_row(a, pt->obj, pt->addr);
			c->depth = depth;
			c->up = top;
			c->lost = top == SIZE_MAX ? pt->lost :
			    a->r->tctx[top].lost;
			c->self = pt->self;
			top = at[j];
		}
	}
	free(chain);
	free(at);
}

/* --- the call graph's places, as rows ------------------------------ */


/* What a place of the graph stands for. */
enum fkind { F_NONE, F_ENTRY, F_RAW, F_SELF };

/*
 * The entry *k of table *t that holds the place (obj, addr), looked up
 * at addr - 1 for a cell's address, as attribute_places() does; or an
 * address no symbol covers, which makes a raw row as in the flat
 * report; or none, where the flat report has no row either (-p's other
 * objects, the unnamed bytes of a program with its full table).
 */
static enum fkind
graph_place(struct attr *a, size_t obj, uint64_t addr, int cell,
    struct otab **t, size_t *k)
{
	size_t f;

	*t = otab(a, obj);
	f = *t == NULL || (cell && addr == 0) ? SIZE_MAX :
	    lookup(*t, addr - (cell ? 1 : 0));
	if (f != SIZE_MAX && (*k = (*t)->st.funcs[f].entry) != SIZE_MAX)
		return *k == (*t)->selfent ? F_SELF : F_ENTRY;
	if (profile_in_self(a->p, obj, addr - (cell ? 1 : 0)))
		return F_SELF;
	if (obj == OBJ_MAIN ? !keeps_unnamed(a, obj) : a->o->progonly)
		return F_NONE;
	return F_RAW;
}

/* Before the rows are made: the places the graph needs a row for. */
static void
graph_needs(struct attr *a, size_t obj, uint64_t addr, enum fkind kind,
    struct otab *t, size_t k)
{
	switch (kind) {
	case F_ENTRY:
		t->ents[k].graph = 1;
		break;
	case F_RAW:
		add_raw(a, obj, addr, 0, 0);
		a->raws[a->nraws - 1].graph = 1;
		break;
	default:
		break;
	}
}

/*
 * What graph_mark() found at a frame's place, for graph_stacks() to
 * take its row from without looking it up again: an entry of the
 * frame's object's table, or one of these.
 */
#define PL_NONE		UINT32_MAX		/* no row (F_NONE) */
#define PL_SELF		(UINT32_MAX - 1)	/* libmon's code (F_SELF) */
#define PL_AGAIN	(UINT32_MAX - 2)	/* a raw row, or an entry
						   too far: graph_row() */

/* Mark the place (obj, addr) and say what it is, as above. */
static uint32_t
graph_need(struct attr *a, size_t obj, uint64_t addr, int cell)
{
	struct otab *t = NULL;
	size_t k = 0;
	enum fkind kind;

	kind = graph_place(a, obj, addr, cell, &t, &k);
	graph_needs(a, obj, addr, kind, t, k);
	switch (kind) {
	case F_ENTRY:
		return k < PL_AGAIN ? (uint32_t)k : PL_AGAIN;
	case F_SELF:
		return PL_SELF;
	case F_RAW:
		return PL_AGAIN;
	default:
		return PL_NONE;
	}
}

#define MARKCHUNK	((size_t)1 << 22)	/* frames sorted at a time */

/* graph_mark()'s frames: keys, sorted a chunk at a time. */
struct marks {
	uint64_t	*key, *tmp;	/* each object << 56 | address */
	uint64_t	*at, *tmpat;	/* and its frame, if placed */
	uint32_t	*place;		/* by frame: what it is, or NULL */
	size_t		 n;
};

/*
 * The frames of m marked, each place once and in order, so that the
 * lookups go through the tables in order: ten million frames looked
 * up as the stacks have them, at random in a table of a million
 * functions, missed the cache at every step.  With m->place, each
 * frame is told what its place is.
 */
static void
mark_keys(struct attr *a, struct marks *m)
{
	uint64_t *v = m->key;
	uint32_t pl = PL_NONE;
	size_t i;

	if (m->place != NULL)
		radix_sort_pairs(m->key, m->at, m->tmp, m->tmpat, m->n);
	else
		v = radix_sort(m->key, m->tmp, m->n);
	for (i = 0; i < m->n; i++) {
		if (i == 0 || v[i] != v[i - 1])
			pl = graph_need(a, (size_t)(v[i] >> 56),
			    v[i] & ((1ULL << 56) - 1), 0);
		if (m->place != NULL)
			m->place[m->at[i]] = pl;
	}
	m->n = 0;
}

/* Frame i of the profile, fr, to be marked (and placed, with place). */
static void
mark_frame(struct attr *a, struct marks *m, size_t i, const struct frame *fr)
{
	uint32_t pl;

	if (fr->obj >= 256 || fr->addr >= 1ULL << 56) {
		pl = graph_need(a, fr->obj, fr->addr, 0);
		if (m->place != NULL)
			m->place[i] = pl;
		return;
	}
	if (m->n == MARKCHUNK)
		mark_keys(a, m);
	m->key[m->n] = (uint64_t)fr->obj << 56 | fr->addr;
	if (m->place != NULL)
		m->at[m->n] = i;
	m->n++;
}

/*
 * Every arc's two ends, and every frame of a stack that does not end in
 * libmon's code (graph_stacks() leaves those out, but for those in the
 * kernel).  For the call graph (place 1), what each such frame is, by
 * frame, for graph_stacks(): returned, to be freed.
 */
static uint32_t *
graph_mark(struct attr *a, int place)
{
	const struct profile *p = a->p;
	const struct frame *fr;
	struct marks m;
	size_t i, j;

	memset(&m, 0, sizeof(m));
	m.key = xcalloc(MARKCHUNK, sizeof(*m.key));
	m.tmp = xcalloc(MARKCHUNK, sizeof(*m.tmp));
	if (place) {
		m.at = xcalloc(MARKCHUNK, sizeof(*m.at));
		m.tmpat = xcalloc(MARKCHUNK, sizeof(*m.tmpat));
		m.place = xcalloc(p->nframes + 1, sizeof(*m.place));
	}
	for (i = 0; i < p->narcs; i++) {
		(void)graph_need(a, p->arcs[i].fobj, p->arcs[i].from, 0);
		(void)graph_need(a, p->arcs[i].sobj, p->arcs[i].self, 1);
	}
	for (i = 0; i < p->nstacks; i++) {
		fr = p->frames + p->stacks[i].first;
		j = graph_need(a, fr[0].obj, fr[0].addr, 0);
		if (place)
			m.place[p->stacks[i].first] = (uint32_t)j;
		if (j == PL_SELF && !p->stacks[i].kernel)
			continue;
		for (j = 1; j < p->stacks[i].depth; j++)
			mark_frame(a, &m, p->stacks[i].first + j, &fr[j]);
	}
	mark_keys(a, &m);
	free(m.key);
	free(m.tmp);
	free(m.at);
	free(m.tmpat);
	return m.place;
}

/*
 * The wall samples' frames (PROFMODE=wall), and the slow calls'
 * (PROFSLOW), each need a row, as a sampled stack's frame does, so that
 * -w's report, -T's list and the exports -- pprof's holds the wall
 * frames with or without -w -- name a function as the CPU report does
 * (its names, its object).
 */
static void
wall_mark(struct attr *a)
{
	const struct profile *p = a->p;
	size_t i;

	for (i = 0; i < p->nwframes; i++)
		(void)graph_need(a, p->wframes[i].obj, p->wframes[i].addr, 0);
	for (i = 0; i < p->nsframes; i++)
		(void)graph_need(a, p->sframes[i].obj, p->sframes[i].addr, 0);
}

/* Once the rows are made: the id of the row of a place. */
static size_t
graph_row(struct attr *a, size_t obj, uint64_t addr, int cell)
{
	struct raw key;
	const struct raw *w;
	struct otab *t;
	size_t k;

	switch (graph_place(a, obj, addr, cell, &t, &k)) {
	case F_ENTRY:
		return t->rowid[k];
	case F_SELF:
		return ROW_SELF;
	case F_RAW:
		key.obj = obj != OBJ_NONE && a->p->objs[obj].jitpid != 0 ?
		    OBJ_NONE : obj;
		key.addr = addr;
		w = bsearch(&key, a->raws, a->nraws, sizeof(*a->raws),
		    cmp_raw);
		return w != NULL ? w->row : ROW_NONE;
	default:
		return ROW_NONE;
	}
}

/*
 * Once the rows are made: each wall frame's row, by frame, and each slow
 * call's frame's (model/wall.c).
 */
static void
wall_rows(struct attr *a)
{
	const struct profile *p = a->p;
	struct report *r = a->r;
	size_t i;

	r->wrows = xcalloc(p->nwframes + 1, sizeof(*r->wrows));
	for (i = 0; i < p->nwframes; i++)
		r->wrows[i] = graph_row(a, p->wframes[i].obj,
		    p->wframes[i].addr, 0);
	r->srows = xcalloc(p->nsframes + 1, sizeof(*r->srows));
	for (i = 0; i < p->nsframes; i++)
		r->srows[i] = graph_row(a, p->sframes[i].obj,
		    p->sframes[i].addr, 0);
	r->wnames = xcalloc(r->nrows + 1, sizeof(*r->wnames));
}

static const struct parc *sortparcs;	/* for the C11 qsort below */

static int
cmp_from(const void *x, const void *y)
{
	const struct parc *a = &sortparcs[*(const size_t *)x];
	const struct parc *b = &sortparcs[*(const size_t *)y];

	if (a->fobj != b->fobj)
		return a->fobj < b->fobj ? -1 : 1;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return 0;
}

/* A counted arc, calls from row from to row to, after g's others. */
static void
add_counted(struct graph *g, size_t from, size_t to, uint64_t calls)
{
	struct cgarc *c;

	g->arcs = xgrow(g->arcs, &g->arccap, g->narcs, 1, sizeof(*g->arcs));
	c = &g->arcs[g->narcs++];
	memset(c, 0, sizeof(*c));
	c->from = from;
	c->to = to;
	c->calls = calls;
	c->counted = 1;
}

/*
 * The counted arcs, as pairs of rows; those into or from libmon out.
 * Each arc's callee row is kept, and the arcs indexed by the place
 * they were called from, for call_elsewhere().
 */
static void
graph_arcs(struct attr *a)
{
	const struct parc *pa;
	struct graph *g = &a->r->g;
	size_t i, from, to;

	a->arcto = xcalloc(a->p->narcs + 1, sizeof(*a->arcto));
	a->byfrom = xcalloc(a->p->narcs + 1, sizeof(*a->byfrom));
	g->arcs = xgrow(g->arcs, &g->arccap, g->narcs, a->p->narcs,
	    sizeof(*g->arcs));
	for (i = 0; i < a->p->narcs; i++) {
		pa = &a->p->arcs[i];
		a->byfrom[i] = i;
		from = graph_row(a, pa->fobj, pa->from, 0);
		to = a->arcto[i] = graph_row(a, pa->sobj, pa->self, 1);
		if (from == ROW_SELF || to == ROW_SELF || to == ROW_NONE)
			continue;
		add_counted(g, from, to, pa->count);
	}
	/* The arcs come by callee; often by call site too (a call site
	   of its own for each callee, or one for all), and need no sort. */
	sortparcs = a->p->arcs;
	for (i = 1; i < a->p->narcs && cmp_from(&a->byfrom[i - 1],
	    &a->byfrom[i]) <= 0; i++)
		;
	if (i < a->p->narcs)
		qsort(a->byfrom, a->p->narcs, sizeof(*a->byfrom), cmp_from);
}

/*
 * Do the counted arcs say that the call which returns to frame fr went
 * to another function than row callee, the frame below it?  Then the
 * walk skipped a frame: a function built without frame pointers, as
 * Debian's libc, sampled before it had made a frame of its own, shows
 * its caller's caller right above it.  Only where arcs left from fr: a
 * call into code that counts no calls leaves none, and says nothing.
 */
static int
call_elsewhere(const struct attr *a, const struct frame *fr, size_t callee)
{
	const struct parc *pa;
	size_t lo = 0, hi = a->p->narcs, mid, k;
	int any = 0;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		pa = &a->p->arcs[a->byfrom[mid]];
		if (pa->fobj < fr->obj || (pa->fobj == fr->obj &&
		    pa->from < fr->addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < a->p->narcs; k++) {
		pa = &a->p->arcs[a->byfrom[k]];
		if (pa->fobj != fr->obj || pa->from != fr->addr)
			break;
		if (a->arcto[a->byfrom[k]] == callee)
			return 0;
		any = 1;
	}
	return any;
}

/* A pair of the stacks with libmon's frames between: caller, callee. */
static void
through_add(struct attr *a, size_t from, size_t to)
{
	a->through = xgrow(a->through, &a->throughcap, a->nthrough * 2, 2,
	    sizeof(*a->through));
	a->through[a->nthrough * 2] = from;
	a->through[a->nthrough * 2 + 1] = to;
	a->nthrough++;
}

/*
 * Calls that libmon's code made for the program: its thread start
 * calls the routine pthread_create() was given.  mcount counts them on
 * an arc from libmon's code, which every view leaves out, as the stacks
 * leave out its frames, so that a thread's routine looks called by the
 * C library's thread start.  The counts go to that pair, where the
 * stacks show the callee under libmon's frames below one caller only:
 * its calls are then counted, not inferred, and add up to its #Calls.
 */
static void
graph_through(struct attr *a)
{
	const struct parc *pa;
	struct graph *g = &a->r->g;
	size_t i, k, to, from;

	for (i = 0; i < a->p->narcs && a->nthrough > 0; i++) {
		pa = &a->p->arcs[i];
		if ((to = a->arcto[i]) >= ROW_SELF ||
		    graph_row(a, pa->fobj, pa->from, 0) != ROW_SELF)
			continue;
		for (k = 0, from = ROW_NONE; k < a->nthrough; k++) {
			if (a->through[k * 2 + 1] != to)
				continue;
			if (from != ROW_NONE && from != a->through[k * 2])
				break;
			from = a->through[k * 2];
		}
		if (k < a->nthrough || from == ROW_NONE)
			continue;
		add_counted(g, from, to, pa->count);
	}
	free(a->through);
	a->through = NULL;
}

/*
 * The stacks, as rows.  A stack that ends in libmon's code is
 * profiling's time, as its sample is in the flat report; libmon's
 * frames further out are left out of the stack.  A frame whose call,
 * by the counted arcs, went elsewhere than the frame below is marked,
 * and so is a caller frame in no loaded object: a return address is in
 * code, so the walk went astray there (a frame pointer that code used
 * as a plain register), whether or not the callee counts its calls.
 * A sample taken in the kernel ends in the kernel's row, under the
 * frames that entered it, as its time is the kernel's row's in the flat
 * report -- libmon's system calls too, under whoever called libmon;
 * without that row (-z's program alone) it is in no stack.
 */
/* The row of frame fr, of which graph_mark() found place pl. */
static size_t
place_row(struct attr *a, const struct frame *fr, uint32_t pl)
{
	switch (pl) {
	case PL_NONE:
		return ROW_NONE;
	case PL_SELF:
		return ROW_SELF;
	case PL_AGAIN:
		return graph_row(a, fr->obj, fr->addr, 0);
	default:
		return a->tabs[fr->obj].rowid[pl];
	}
}

static void
graph_stacks(struct attr *a, const uint32_t *place)
{
	const struct profile *p = a->p;
	const struct pstack *ps;
	const struct frame *fr;
	struct graph *g = &a->r->g;
	struct cgstack *s;
	size_t i, j, id, below, inner;

	g->stacks = xcalloc(p->nstacks + 1, sizeof(*g->stacks));
	for (i = 0; i < p->nstacks; i++) {
		ps = &p->stacks[i];
		fr = p->frames + ps->first;
		if (ps->kernel && a->kernelrow == ROW_NONE)
			continue;
		if (place[ps->first] == PL_SELF && !ps->kernel) {
			g->overhead += ps->samples;
			continue;
		}
		s = &g->stacks[g->nstacks++];
		s->first = g->nids;
		s->samples = ps->samples;
		if ((s->cut = ps->cut))
			g->cut += ps->samples;
		g->ids = xgrow(g->ids, &g->idcap, g->nids, ps->depth + 1,
		    sizeof(*g->ids));
		g->skipped = xgrow(g->skipped, &g->skipcap, g->nids,
		    ps->depth + 1, sizeof(*g->skipped));
		g->pcs = xgrow(g->pcs, &g->pccap, g->nids, ps->depth + 1,
		    sizeof(*g->pcs));
		below = inner = ROW_NONE;
		if (ps->kernel) {
			g->skipped[g->nids] = 0;
			g->pcs[g->nids].obj = OBJ_NONE;
			g->pcs[g->nids].addr = 0;
			g->ids[g->nids++] = inner = a->kernelrow;
		}
		for (j = 0; j < ps->depth; j++) {
			id = place_row(a, &fr[j], place[ps->first + j]);
			if (id == ROW_SELF) {
				below = ROW_SELF;
				continue;
			}
			if (below == ROW_SELF && inner < ROW_SELF &&
			    inner != a->kernelrow && id < ROW_SELF)
				through_add(a, id, inner);
			g->skipped[g->nids] = below < ROW_SELF &&
			    (fr[j].obj == OBJ_NONE ||
			    call_elsewhere(a, &fr[j], below));
			g->pcs[g->nids] = fr[j];
			g->ids[g->nids++] = below = inner = id;
		}
		s->depth = g->nids - s->first;
	}
}

/*
 * The arcs and stacks are rows by now, and nothing more looks a place
 * up: the entries' row ids (8 MB for a million) and lookup's index are
 * given back before the call graph is worked out.
 */
static void
drop_rowids(struct attr *a)
{
	size_t i;

	for (i = 0; i < a->r->ntabs; i++) {
		free(a->tabs[i].rowid);
		a->tabs[i].rowid = NULL;
		free(a->tabs[i].upidx);
		a->tabs[i].upidx = NULL;
	}
}

/*
 * Does a later step read the program's functions, not just the names
 * and files the rows point to (which lie in its string table)?  All
 * but the call graph printed alone: -s counts them, -f and -d read
 * them again, -L and -A find their lines, the exports their files.
 */
static int
keeps_funcs(const struct opts *o)
{
	return !o->graph || o->stats || o->focus != NULL || o->lines != 0 ||
	    o->format != NULL || o->diffbase != NULL || o->wall;
}

/*
 * The program's functions given back once nothing looks a place up,
 * where keeps_funcs() says no later step reads them: 48 bytes a
 * function, 48 MB of a million, before the call graph is worked out
 * and printed, which want the room.
 */
static void
drop_funcs(struct attr *a)
{
	struct symtab *st = &a->tabs[OBJ_MAIN].st;

	if (keeps_funcs(a->o))
		return;
	free(st->funcs);
	st->funcs = NULL;
	st->nfuncs = 0;
}

/*
 * Does the output want the call graph?  The flat report alone does not:
 * its rows are made all the same (the graph's own among them, which
 * may clash with others' names), but their arcs and stacks are left.
 */
static int
wants_graph(const struct opts *o)
{
	return o->graph || o->incl || o->estimate || o->stats ||
	    o->format != NULL || o->focus != NULL;
}

/*
 * Does a later step read the profile's cells and arcs again?  -s counts
 * the arcs, an export may lay them out (gmon's does), -L and -A find
 * their call sites' lines (lines.c); otherwise they go
 * as soon as they are placed.
 */
static int
keeps_counts(const struct opts *o)
{
	return o->stats || o->format != NULL || o->lines != 0;
}

/*
 * The stacks can hold no more samples than the histogram and the
 * samples outside it, which are the same samples: a file that says
 * otherwise (its counts forged or damaged) has its stacks scaled down
 * to the rows' samples (reconcile.c) and is warned about -- once,
 * merge.c having warned of a file whose stacks outnumber its own count
 * of samples.  A part of a run may hold a sample in its stacks that
 * the next part's histogram has: one a file is allowed.
 */
static void
check_stacks(const struct attr *a, double hist)
{
	const struct profile *p = a->p;
	const struct graph *g = &a->r->g;
	double held = g->samples + g->overhead;
	double took = hist + p->wout + p->wlost + p->wksampled;

	if (p->stacksover || held <= took + (double)p->nfiles)
		return;
	warnx("warning: %s%s: the stacks hold %.0f samples, the histogram and "
	    "the samples outside it %.0f: the counts are forged or damaged, "
	    "the stacks scaled down to them", p->first, p->nfiles > 1 ?
	    " and the files after it" : "", held, took);
}

/*
 * A stripped program: its label for "[unnamed code] (program)", its
 * basename as given.
 */
static void
label_main(struct attr *a)
{
	const char *path = a->tabs[OBJ_MAIN].st.path, *s;

	if (!keeps_unnamed(a, OBJ_MAIN) || path == NULL)
		return;
	s = strrchr(path, '/');
	a->tabs[OBJ_MAIN].label = xstrdup(s != NULL && s[1] != '\0' ?
	    s + 1 : path);
}

/*
 * A stripped program's own time and calls went to its unnamed row:
 * one warning that says how much, and what would name it.
 */
static void
warn_unnamed(struct attr *a)
{
	const struct report *r = a->r;
	double samples = 0, all = r->total - r->overhead;
	uint64_t calls = 0;
	char *name;
	size_t i;

	for (i = 0; i < a->nraws; i++)
		if (a->raws[i].obj == OBJ_MAIN) {
			samples += a->raws[i].samples;
			calls += a->raws[i].calls;
		}
	if (samples <= 0 && calls == 0)
		return;
	name = printable(a->tabs[OBJ_MAIN].st.path);
	warnx("warning: %s is stripped: %.1f%% of the time and %" PRIu64
	    " calls are in its [unnamed code]; give prof the unstripped "
	    "build, or install its debug file", name,
	    all > 0 ? 100 * samples / all : 0.0, calls);
	free(name);
	a->r->stripped = 1;
}

/*
 * Turn profile p into report r, with st the program's symbols.  st's
 * functions get their entry numbers; the rows point into st and into
 * the tables of other objects, which stay loaded.  p's cells and arcs
 * are given back once placed, unless keeps_counts() says otherwise.
 */
void
attribute(struct report *r, struct profile *p, struct symtab *st,
    const struct opts *o)
{
	struct attr a;
	uint32_t *place;
	double hist;
	size_t cap = 0;

	memset(r, 0, sizeof(*r));
	memset(&a, 0, sizeof(a));
	a.p = p;
	a.o = o;
	a.r = r;
	r->ntabs = p->nobjs > 0 ? p->nobjs : 1;
	a.tabs = xcalloc(r->ntabs, sizeof(*a.tabs));
	r->tabs = a.tabs;		/* the rows point into them */
	a.tabs[OBJ_MAIN].st = *st;
	a.tabs[OBJ_MAIN].tried = a.tabs[OBJ_MAIN].ok = 1;
	make_entries(&a.tabs[OBJ_MAIN], p, OBJ_MAIN, !o->fold);
	r->nsyms = st->nsyms;
	label_main(&a);

	if (wants_graph(o))
		profile_sum_stacks(p);
	hist = attribute_hist(&a);
	r->attributed = r->histattr;
	attribute_places(&a);
	attribute_timed(&a);
	if (!keeps_counts(o))
		profile_drop_cells(p);
	place = graph_mark(&a, wants_graph(o));
	if (p->wallfiles > 0 || p->slowfiles > 0)
		wall_mark(&a);
	if (!keeps_counts(o) && !wants_graph(o))
		profile_drop_arcs(p);
	entry_rows(&a, &cap);
	timed_rows(&a);
	timed_contexts(&a);
	note_uses(&a);
	drop_entries(&a);
	raw_rows(&a, &cap);
	mark_clashes(r);
	kernel_row(&a, &cap);
	unsampled_row(&a, &cap);
	if (p->wallfiles > 0 || p->slowfiles > 0)
		wall_rows(&a);
	r->g.counted = p->arcfiles > 0;
	r->g.sampled = p->stackfiles > 0;
	if (wants_graph(o)) {
		graph_arcs(&a);
		graph_stacks(&a, place);
		free(place);
		graph_through(&a);
	}
	free(a.arcto);
	free(a.byfrom);
	drop_rowids(&a);
	drop_funcs(&a);
	if (!keeps_counts(o))
		profile_drop_arcs(p);
	if (wants_graph(o)) {
		graph_compute(r, o->estimate);
		check_stacks(&a, hist);
	}

	r->histsum = p->histraw;
	r->outside = p->outraw;
	r->total = hist + p->wout + p->wlost + p->wkernel + r->unsampled;
	r->period = p->period;
	r->wall = (double)p->sum.wall_ns / 1e9;
	if (wants_graph(o))
		graph_reconcile(r);
	*st = a.tabs[OBJ_MAIN].st;
	warn_unnamed(&a);
	free(a.raws);
}

/*
 * Give back all that attribute() made; the program's symbol table,
 * which it was given, stays with the caller.
 */
void
report_free(struct report *r)
{
	struct otab *tabs = r->tabs;
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].own);
		if (r->wnames != NULL)
			free(r->wnames[i]);
	}
	free(r->wnames);
	free(r->wrows);
	free(r->srows);
	free_names(r);
	for (i = 0; i < r->ntabs; i++) {
		if (i != OBJ_MAIN)
			symtab_free(&tabs[i].st);
		free(tabs[i].label);
		free(tabs[i].ents);
		free(tabs[i].rowid);
		free(tabs[i].upidx);
	}
	free(tabs);
	free(r->tcalls);
	free(r->tctx);
	free(r->rows);
	free(r->uses);
	free(r->byid);
	graph_free(&r->g);
	memset(r, 0, sizeof(*r));
}

/*
 * The symbol table of object obj as attribution read it (the program's
 * for OBJ_MAIN), or NULL when it was not read: for the writers that
 * go back to the file, or to its debug file, for more.
 */
const struct symtab *
report_symtab(const struct report *r, size_t obj)
{
	const struct otab *tabs = r->tabs;

	if (obj >= r->ntabs || !tabs[obj].ok)
		return NULL;
	return &tabs[obj].st;
}
