/*
 * attrib.c -- from a merged profile to the rows of the report.
 *
 * Each symbol table is cut into entries, one per address that carries a
 * reported name (synonyms share one).  Every function has its entry,
 * static ones too.  With -l a local function of the program has none of
 * its own: it counts for the global its name extends (foo.cold,
 * foo.part.0 count for foo) or else, as classic prof did, for the global
 * just before it -- its time, not its calls, which classic prof credited
 * to no other function.  A shared object's functions all have entries:
 * the global before one of its statics is most often an unrelated name
 * (a compatibility alias, say).  Locals of one name from several source
 * files are rows apart, and carry their file where the names clash.
 *
 * libmon's own code -- the range a SELF record gives, else the names of
 * its entry points and internals -- is one entry of each table that
 * holds it, never a row: its samples are the report's overhead.  The
 * kernel time a perf clock could not sample is one row of its own.
 *
 * Time: a histogram bin covers a range of link-time addresses; its
 * samples go to the functions overlapping that range, in proportion of
 * the bytes each covers, and to nobody when none does.  Samples outside
 * the histogram come with their own address, or, where the runtime's
 * table had no room for it, with their 4 KiB page's (page + 1): a page
 * is shared out as a bin is.  Calls: a cell counts for
 * the function holding fnpc - 1, the last byte of the call to mcount,
 * which is inside its caller even when the call ends the function.
 * Addresses in other objects are looked up in their own symbol tables,
 * read on first use (the vDSO from prof's own, the same kernel's);
 * those no symbol covers make one row an object, or with -u a row each,
 * object+0xoffset.  Those in no loaded object are looked up
 * in their process's perf map, read on first use too: a function there
 * is a row "name (perf-PID.map)", and an address no line of the map
 * covers, or of a map that could not be read, is [unknown]+0xaddress.
 *
 * The call graph's places -- both ends of each counted arc, every frame
 * of every stack -- are looked up as calls and samples are: a callee at
 * its cell's address less one, the innermost frame at the sampled pc,
 * the others at their return address less one (monread.c took the one
 * off).  A function the graph needs has a row, even with no time and no
 * calls of its own (main, a library function that calls back); such a
 * row is marked, and the flat report shows it only with -i.  libmon's
 * frames are left out of the stacks, and a stack that ends in libmon's
 * code is profiling's overhead.  Arcs and stacks then pass to
 * callgraph.c as row ids: ids are rows' places as they were made,
 * before any sorting.
 *
 * Samples are the weighted ones of the profile, so that files taken at
 * different rates add up in seconds.  Names and paths go into the rows
 * as the files gave them; report.c makes them printable.  What became
 * of each object (read, from where, or why not) is left in the report's
 * uses for -s, which report.c words.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof.h"

#define HISTUNIT	131072.0	/* profil(): 2^17 / scale bytes a bin */

struct entry {
	size_t		 first;		/* its group in funcs */
	size_t		 ngroup;
	uint64_t	 addr;
	double		 samples;
	uint64_t	 calls;
	int		 local;		/* a local with no global to join */
	int		 self;		/* libmon's code: overhead, no row */
	int		 graph;		/* on an arc or in a stack */
	size_t		 row;		/* the id of its row */
};

/* An object's symbols and entries, loaded when first needed. */
struct otab {
	struct symtab	 st;
	int		 tried;
	int		 ok;
	const char	*why;
	char		*label;		/* basename of the path */
	struct entry	*ents;
	size_t		 nents;
	size_t		 selfent;	/* libmon's entry, or SIZE_MAX */
};

/* Samples and calls at an address no symbol covers. */
struct raw {
	size_t		 obj;
	uint64_t	 addr;
	double		 samples;
	uint64_t	 calls;
	int		 graph;		/* only a frame or an arc put it here */
	size_t		 row;		/* the id of its row */
};

struct attr {
	const struct profile	*p;
	const struct opts	*o;
	struct otab		*tabs;		/* one per p->objs */
	struct raw		*raws;
	size_t			 nraws;
	size_t			 rawcap;
	struct report		*r;
	size_t			*arcto;		/* each arc's callee row */
	size_t			*byfrom;	/* arcs by return address */
};

/* A new entry for the group funcs[first..first+n); room was made. */
static size_t
new_entry(struct otab *t, size_t first, size_t n)
{
	struct entry *e;

	e = &t->ents[t->nents];
	memset(e, 0, sizeof(*e));
	e->first = first;
	e->ngroup = n;
	e->addr = t->st.funcs[first].addr;
	return t->nents++;
}

static size_t
group_end(const struct symtab *st, size_t i)
{
	size_t j;

	for (j = i + 1; j < st->nfuncs && st->funcs[j].addr ==
	    st->funcs[i].addr; j++)
		;
	return j;
}

static int
group_global(const struct symtab *st, size_t i, size_t j)
{
	for (; i < j; i++)
		if (!st->funcs[i].local)
			return 1;
	return 0;
}

/* Is function k of t libmon's code? */
static int
in_self(const struct otab *t, size_t k)
{
	return t->selfent != SIZE_MAX && t->st.funcs[k].entry == t->selfent;
}

/* qsort_r is glibc's; a static pointer keeps this to C11 qsort. */
static const struct func *sortfuncs;

static int
cmp_index(const void *a, const void *b)
{
	return strcmp(sortfuncs[*(const size_t *)a].name,
	    sortfuncs[*(const size_t *)b].name);
}

/* The global function whose name is the part of local name before '.'. */
static size_t
named_global(const struct symtab *st, const size_t *globs, size_t n,
    const char *name)
{
	const char *dot;
	size_t lo, hi, mid, len;
	int c;

	if ((dot = strchr(name, '.')) == NULL || dot == name)
		return SIZE_MAX;
	len = (size_t)(dot - name);
	lo = 0;
	hi = n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strncmp(st->funcs[globs[mid]].name, name, len);
		if (c == 0 && st->funcs[globs[mid]].name[len] != '\0')
			c = 1;
		if (c == 0)
			return st->funcs[globs[mid]].entry;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

/*
 * Where a group of local functions counts without -g: with the global
 * its name extends (foo.cold -> foo), else with the preceding global --
 * unless a local of another source file lies between the two.  The
 * linker keeps each file's text together, so such a local marks a file
 * boundary (gcc's main in .text.startup precedes the start-up code, and
 * a program's first statics must not land in _dl_relocate_static_pie);
 * a local with no global of its own file before it is listed alone.
 */
static void
fold_locals(struct otab *t, size_t *globs, size_t nglobs)
{
	struct symtab *st = &t->st;
	size_t i, j, k, to, last = SIZE_MAX;
	const char *seen = NULL, *file;
	int folded;

	for (i = 0; i < st->nfuncs; i = j) {
		j = group_end(st, i);
		if (in_self(t, i)) {
			last = SIZE_MAX;	/* libmon's code ends a file */
			continue;
		}
		if (group_global(st, i, j)) {
			last = st->funcs[i].entry;
			seen = NULL;
			continue;
		}
		file = st->funcs[i].file;
		if (seen != NULL && file != NULL && strcmp(seen, file) != 0)
			last = SIZE_MAX;
		if (file != NULL)
			seen = file;
		folded = 0;
		if ((to = named_global(st, globs, nglobs,
		    st->funcs[i].name)) == SIZE_MAX && (to = last) != SIZE_MAX)
			folded = 1;
		if (to == SIZE_MAX) {
			to = new_entry(t, i, j - i);
			t->ents[to].local = 1;
		}
		for (k = i; k < j; k++) {
			st->funcs[k].entry = to;
			st->funcs[k].folded = folded;
		}
	}
}

/*
 * Is function f of object obj libmon's own code?  Inside the range a
 * SELF record gives; or, for files without one, by the names libmon's
 * entry points and internals have in the program.
 */
static int
is_libmon(const struct profile *p, size_t obj, const struct func *f)
{
	size_t i;

	if (strcmp(f->name, "__start_libmon_text") == 0 ||
	    strcmp(f->name, "__stop_libmon_text") == 0)
		return 1;
	for (i = 0; i < p->nself; i++)
		if (p->self[i].obj == obj && f->addr >= p->self[i].lo &&
		    f->addr < p->self[i].hi)
			return 1;
	if (p->nself > 0 || obj != OBJ_MAIN)
		return 0;
	return strcmp(f->name, "mcount") == 0 ||
	    strcmp(f->name, "_mcount") == 0 ||
	    strcmp(f->name, "__fentry__") == 0 ||
	    strncmp(f->name, "_mon_", 5) == 0;
}

/* Give libmon's functions of object obj one entry, kept off the rows. */
static void
self_entry(struct otab *t, const struct profile *p, size_t obj)
{
	struct symtab *st = &t->st;
	size_t i;

	t->selfent = SIZE_MAX;
	for (i = 0; i < st->nfuncs; i++) {
		st->funcs[i].entry = SIZE_MAX;
		if (!is_libmon(p, obj, &st->funcs[i]))
			continue;
		if (t->selfent == SIZE_MAX) {
			t->selfent = new_entry(t, i, 1);
			t->ents[t->selfent].self = 1;
		}
		st->funcs[i].entry = t->selfent;
	}
}

/*
 * Cut the symbol table of object obj into entries: libmon's code first,
 * so that none of it folds into the program's functions or they into it.
 */
static void
make_entries(struct otab *t, const struct profile *p, size_t obj,
    int locals)
{
	struct symtab *st = &t->st;
	size_t *globs, nglobs, i, j, k, e;

	t->ents = xcalloc(st->nfuncs + 1, sizeof(*t->ents));
	self_entry(t, p, obj);
	globs = xcalloc(st->nfuncs, sizeof(*globs));
	nglobs = 0;
	for (i = 0; i < st->nfuncs; i = j) {
		j = group_end(st, i);
		if (in_self(t, i))
			continue;
		if (!locals && !group_global(st, i, j))
			continue;
		e = new_entry(t, i, j - i);
		for (k = i; k < j; k++) {
			st->funcs[k].entry = e;
			if (!st->funcs[k].local)
				globs[nglobs++] = k;
		}
	}
	if (!locals) {
		sortfuncs = st->funcs;
		qsort(globs, nglobs, sizeof(*globs), cmp_index);
		fold_locals(t, globs, nglobs);
	}
	free(globs);
}

/*
 * A perf map's entries, one per line that kept some code: perfmap.c gave
 * each line's pieces one number, in the order of their addresses.
 */
static void
jit_entries(struct otab *t)
{
	const struct symtab *st = &t->st;
	struct entry *e;
	size_t k, n = 0;

	for (k = 0; k < st->nfuncs; k++)
		if (st->funcs[k].entry >= n)
			n = st->funcs[k].entry + 1;
	t->ents = xcalloc(n, sizeof(*t->ents));
	t->nents = n;
	for (k = 0; k < st->nfuncs; k++) {
		e = &t->ents[st->funcs[k].entry];
		if (e->ngroup > 0)
			continue;
		e->first = k;
		e->ngroup = 1;
		e->addr = st->funcs[k].addr;
	}
}

/* How rows name an object: the last part of its path. */
static char *
label(const char *path)
{
	const char *s = strrchr(path, '/');

	return xstrdup(s != NULL && s[1] != '\0' ? s + 1 : path);
}

/* Warn when the file at an object's path is not what the run loaded. */
static void
check_object(const struct object *o, const struct symtab *st)
{
	char *path;

	if (o->idlen == 0 || st->id == NULL)
		return;
	if (o->idlen == st->idlen && memcmp(o->id, st->id, o->idlen) == 0)
		return;
	path = printable(o->path);
	warnx("warning: %s is not the build the profiled run loaded "
	    "(build-id differs)", path);
	free(path);
}

/* Do object i's local functions have entries of their own? */
static int
locals_of(const struct attr *a, size_t i)
{
	return i != OBJ_MAIN || !a->o->fold;
}

/*
 * Is o the vDSO?  The kernel's page of code is no file: the run names it
 * so, and prof reads its own, which is the same on the same kernel.
 */
static int
is_vdso(const struct object *o)
{
	return o->jitpid == 0 && (strcmp(o->path, "linux-vdso.so.1") == 0 ||
	    strcmp(o->path, "[vdso]") == 0);
}

/* Object i's functions and entries into t; -1 if it cannot be read. */
static int
load_table(struct attr *a, size_t i, struct otab *t)
{
	const struct object *o = &a->p->objs[i];

	if (o->jitpid != 0) {
		if (perfmap_load(&t->st, o->path, &t->why) != 0)
			return -1;
		jit_entries(t);
		return 0;
	}
	if (is_vdso(o)) {
		if (symtab_load_vdso(&t->st, o->path, &t->why) != 0)
			return -1;
		if (o->idlen > 0 && (t->st.idlen != o->idlen ||
		    memcmp(t->st.id, o->id, o->idlen) != 0)) {
			symtab_free(&t->st);
			t->why = "another kernel's vDSO: build-id differs";
			return -1;
		}
	} else if (symtab_load(&t->st, o->path, &t->why) != 0)
		return -1;
	make_entries(t, a->p, i, locals_of(a, i));
	check_object(o, &t->st);
	return 0;
}

/* The table of object i, loading it on first use; NULL if unreadable. */
static struct otab *
otab(struct attr *a, size_t i)
{
	struct otab *t;

	if (i == OBJ_NONE || (a->o->progonly && i != OBJ_MAIN))
		return NULL;
	t = &a->tabs[i];
	if (!t->tried) {
		t->tried = 1;
		t->selfent = SIZE_MAX;
		t->label = is_vdso(&a->p->objs[i]) ? xstrdup("vdso") :
		    label(a->p->objs[i].path);
		t->ok = load_table(a, i, t) == 0;
	}
	return t->ok ? t : NULL;
}

static void
add_raw(struct attr *a, size_t obj, uint64_t addr, double samples,
    uint64_t calls)
{
	struct raw *w;

	if (a->o->progonly)
		return;
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
static void
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

/* The first function that may overlap [lo, ...). */
static size_t
first_overlap(const struct symtab *st, uint64_t lo)
{
	size_t n;

	n = symtab_upper(st, lo);
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

	k0 = first_overlap(st, lo);
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
	double sum = 0;
	size_t i;

	for (i = 0; i < p->nhist; i++) {
		sum += p->hist[i];
		if (p->hist[i] == 0)
			continue;
		bin_range(p, i, &lo, &hi);
		if (lo < hi)
			a->r->histattr += share_bin(t, lo, hi, p->hist[i]);
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
		    symtab_lookup(&t->st, pl->addr - 1);
		if (k != SIZE_MAX && t->st.funcs[k].folded)
			continue;	/* -l: classic credits no other */
		if (k != SIZE_MAX) {
			t->ents[t->st.funcs[k].entry].calls += pl->count;
			a->r->cellsnamed += pl->count > 0;
		} else {
			a->r->callsunmatched += pl->count;
			if (pl->obj != OBJ_MAIN)
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
		k = t == NULL ? SIZE_MAX : symtab_lookup(&t->st, pl->addr);
		if (k != SIZE_MAX) {
			t->ents[t->st.funcs[k].entry].samples += pl->samples;
			a->r->attributed += pl->samples;
		} else if (pl->obj != OBJ_MAIN)
			add_raw(a, pl->obj, pl->addr, pl->samples, 0);
	}
}

static struct row *
new_row(struct report *r, size_t *cap)
{
	struct row *w;

	r->rows = xgrow(r->rows, cap, r->nrows, 1, sizeof(*r->rows));
	w = &r->rows[r->nrows];
	memset(w, 0, sizeof(*w));
	w->id = r->nrows++;
	return w;
}

/*
 * May synonym f of entry e (object i) name its row, as far as being
 * local goes?  In the program with -g, or when the entry has nothing
 * else; in a shared object when no global names it (global), so that
 * internal aliases (glibc's __GI_ names) stay out.
 */
static int
by_locality(const struct attr *a, size_t i, const struct entry *e,
    const struct func *f, int global)
{
	if (!f->local)
		return 1;
	if (i == OBJ_MAIN)
		return !a->o->fold || e->local;
	return !global;
}

/*
 * The row of entry e of object i: its visible names, its totals.  A
 * synonym is visible as by_locality() says, and a versioned name
 * (cfree@GLIBC_2.2.5) only when no visible name is a plain one.
 */
static void
entry_row(struct attr *a, size_t i, const struct entry *e, struct row *w)
{
	const struct otab *t = &a->tabs[i];
	const struct func *g = &t->st.funcs[e->first];
	int global = 0, plain = 0;
	size_t k;

	for (k = 0; k < e->ngroup; k++)
		global |= !g[k].local;
	for (k = 0; k < e->ngroup; k++)
		if (by_locality(a, i, e, &g[k], global) &&
		    strchr(g[k].name, '@') == NULL)
			plain = 1;
	w->names = xcalloc(e->ngroup, sizeof(*w->names));
	for (k = 0; k < e->ngroup; k++) {
		if (!by_locality(a, i, e, &g[k], global) ||
		    (plain && strchr(g[k].name, '@') != NULL))
			continue;
		w->names[w->nnames++] = g[k].name;
		if (g[k].local && w->file == NULL)
			w->file = g[k].file;
	}
	w->obj = i == OBJ_MAIN ? NULL : t->label;
	w->objidx = i;
	w->addr = e->addr;
	w->samples = e->samples;
	w->calls = e->calls;
}

/* Main-program functions without time or calls, for -s and -z. */
static int
idle_entry(const struct attr *a, const struct entry *e, int *inrange)
{
	const struct profile *p = a->p;

	*inrange = e->addr >= p->lpc && e->addr < p->hpc;
	return e->samples == 0 && e->calls == 0;
}

static void
count_qualified(struct attr *a, const struct entry *e, int idle)
{
	const struct symtab *st = &a->tabs[OBJ_MAIN].st;
	size_t k;

	for (k = 0; k < e->ngroup; k++) {
		if (!by_locality(a, OBJ_MAIN, e, &st->funcs[e->first + k], 1))
			continue;
		a->r->qualified++;
		if (idle)
			a->r->idle++;
	}
}

static void
entry_rows(struct attr *a, size_t *cap)
{
	struct entry *e;
	struct row *w;
	struct otab *t;
	size_t i, k;
	int idle, inrange, shown;

	for (i = 0; i < a->p->nobjs; i++) {
		t = &a->tabs[i];
		if (!t->ok)
			continue;
		for (k = 0; k < t->nents; k++) {
			e = &t->ents[k];
			if (e->self) {
				a->r->overhead += e->samples;
				a->r->libmon = a->p->nself > 0 ? 'r' : 'n';
				continue;
			}
			idle = idle_entry(a, e, &inrange);
			if (i == OBJ_MAIN)
				count_qualified(a, e, idle);
			shown = !idle || (a->o->zeros && i == OBJ_MAIN &&
			    inrange);
			if (!shown && !e->graph)
				continue;
			w = new_row(a->r, cap);
			entry_row(a, i, e, w);
			w->graphonly = !shown;
			e->row = w->id;
		}
	}
}

static int
cmp_raw(const void *x, const void *y)
{
	const struct raw *a = x, *b = y;

	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return 0;
}

/*
 * Do raws a and b (sorted) make one row?  An object's addresses that no
 * symbol covers make one row, unless -u lists them one by one; those in
 * no object, one row each.
 */
static int
same_raw(const struct attr *a, const struct raw *x, const struct raw *y)
{
	if (x->obj != y->obj)
		return 0;
	return x->addr == y->addr || (x->obj != OBJ_NONE && !a->o->unnamed);
}

/* The name of a row of raw addresses from w on; grouped: the object's. */
static void
raw_name(struct attr *a, const struct raw *w, int grouped, struct row *row)
{
	const char *lab;
	size_t len;

	if (w->obj == OBJ_NONE)
		lab = "[unknown]";
	else if (a->tabs[w->obj].ok || is_vdso(&a->p->objs[w->obj]))
		lab = a->tabs[w->obj].label;
	else
		lab = a->p->objs[w->obj].path;
	row->names = xcalloc(1, sizeof(*row->names));
	row->nnames = 1;
	if (grouped) {
		row->names[0] = "[unnamed code]";
		row->obj = lab;
		return;
	}
	len = strlen(lab) + 20;
	row->own = xmalloc(len);
	(void)snprintf(row->own, len, "%s+0x%llx", lab,
	    (unsigned long long)w->addr);
	row->names[0] = row->own;
}

/*
 * Addresses no symbol covers: one row an object, named "[unnamed code]
 * (object)", or with -u one an address, object+0xoffset; in no object,
 * [unknown]+0xaddress.
 */
static void
raw_rows(struct attr *a, size_t *cap)
{
	struct raw *w;
	struct row *row;
	size_t i, j;

	if (a->nraws == 0)
		return;
	qsort(a->raws, a->nraws, sizeof(*a->raws), cmp_raw);
	for (i = 0; i < a->nraws; i = j) {
		w = &a->raws[i];
		row = new_row(a->r, cap);
		row->graphonly = 1;
		for (j = i; j < a->nraws && same_raw(a, w, &a->raws[j]); j++) {
			row->samples += a->raws[j].samples;
			row->calls += a->raws[j].calls;
			row->graphonly &= a->raws[j].graph;
			a->raws[j].row = row->id;
		}
		raw_name(a, w, w->obj != OBJ_NONE && !a->o->unnamed, row);
		row->objidx = w->obj;
		row->addr = w->addr;
	}
}

static const struct row *sortrows;	/* for the C11 qsort below */

static int
cmp_rowname(const void *x, const void *y)
{
	const struct row *a = &sortrows[*(const size_t *)x];
	const struct row *b = &sortrows[*(const size_t *)y];

	if (a->objidx != b->objidx)
		return a->objidx < b->objidx ? -1 : 1;
	return strcmp(a->nnames > 0 ? a->names[0] : "",
	    b->nnames > 0 ? b->names[0] : "");
}

/*
 * Static functions of one name in several source files are rows apart;
 * where names clash, a row says its file.  Elsewhere it says none.
 */
static void
mark_clashes(struct report *r)
{
	size_t *v, i, j, k;

	v = xcalloc(r->nrows + 1, sizeof(*v));
	for (i = 0; i < r->nrows; i++)
		v[i] = i;
	sortrows = r->rows;
	qsort(v, r->nrows, sizeof(*v), cmp_rowname);
	for (i = 0; i < r->nrows; i = j) {
		for (j = i + 1; j < r->nrows &&
		    cmp_rowname(&v[i], &v[j]) == 0; j++)
			;
		if (j - i == 1)
			r->rows[v[i]].file = NULL;
		for (k = i; k < j; k++)
			if (r->rows[v[k]].nnames == 0)
				r->rows[v[k]].file = NULL;
	}
	free(v);
}

/*
 * The kernel's row: time the perf clock could not sample, being in
 * kernel mode, which the run's user and system times tell apart.
 */
static void
kernel_row(struct attr *a, size_t *cap)
{
	struct row *w;

	if (a->p->wkernel <= 0)
		return;
	a->r->attributed += a->p->wkernel;	/* known, if not a function */
	if (a->o->progonly)
		return;
	w = new_row(a->r, cap);
	w->names = xcalloc(1, sizeof(*w->names));
	w->names[0] = "[kernel: system calls and faults]";
	w->nnames = 1;
	w->objidx = OBJ_NONE;
	w->kernel = 1;
	w->samples = a->p->wkernel;
}

/*
 * The row of CPU time no sample stood for (threads shorter than a
 * period, the ends of others), when it is a share worth a line: it is
 * kept apart, never spread over the functions that were sampled, and
 * a large share is warned about.
 */
static void
unsampled_row(struct attr *a, size_t *cap)
{
	const struct profile *p = a->p;
	struct row *w;
	double share;

	if (p->wunsampled <= 0 || p->cpuweighed <= 0)
		return;
	share = p->wunsampled / p->cpuweighed;
	if (share < UNSAMPLED_ROW || p->wunsampled * p->period < 0.005)
		return;
	if (share >= UNSAMPLED_WARN)
		warnx("warning: %.0f%% of the CPU time (%.2f s) no sample "
		    "stood for (short threads, SIGPROF blocked: libmon(7))",
		    100 * share, p->wunsampled * p->period);
	a->r->attributed += p->wunsampled;	/* known, if not a function */
	a->r->unsampled = p->wunsampled;
	if (a->o->progonly)
		return;
	w = new_row(a->r, cap);
	w->names = xcalloc(1, sizeof(*w->names));
	w->names[0] = "[unsampled: CPU time no sample stood for]";
	w->nnames = 1;
	w->objidx = OBJ_NONE;
	w->kernel = 1;
	w->samples = p->wunsampled;
}

/* What became of each object, for -s (report.c). */
static void
note_uses(struct attr *a)
{
	const struct otab *t;
	struct objuse *u;
	size_t i, k;

	a->r->uses = xcalloc(a->p->nobjs, sizeof(*a->r->uses));
	for (i = 1; i < a->p->nobjs; i++) {
		t = &a->tabs[i];
		u = &a->r->uses[i];
		u->tried = t->tried;
		u->why = t->why;
		u->label = t->label;
		if (!t->ok)
			continue;
		u->st = &t->st;
		for (k = 0; k < t->nents; k++)
			u->sampled += t->ents[k].samples > 0;
	}
}

/* --- the call graph's places, as rows ------------------------------ */

#define ROW_SELF	(SIZE_MAX - 1)	/* a frame in libmon's code */

/* What a place of the graph stands for. */
enum fkind { F_NONE, F_ENTRY, F_RAW, F_SELF };

/*
 * The entry *k of table *t that holds the place (obj, addr), looked up
 * at addr - 1 for a cell's address, as attribute_places() does; or an
 * address no symbol covers, which makes a raw row as in the flat
 * report; or none, where the flat report has no row either (-p, the
 * program's unnamed bytes).
 */
static enum fkind
graph_place(struct attr *a, size_t obj, uint64_t addr, int cell,
    struct otab **t, size_t *k)
{
	size_t f;

	*t = otab(a, obj);
	f = *t == NULL || (cell && addr == 0) ? SIZE_MAX :
	    symtab_lookup(&(*t)->st, addr - (cell ? 1 : 0));
	if (f != SIZE_MAX && (*k = (*t)->st.funcs[f].entry) != SIZE_MAX)
		return (*t)->ents[*k].self ? F_SELF : F_ENTRY;
	if (a->o->progonly || obj == OBJ_MAIN)
		return F_NONE;
	return F_RAW;
}

/* Before the rows are made: the places the graph needs a row for. */
static void
graph_need(struct attr *a, size_t obj, uint64_t addr, int cell)
{
	struct otab *t;
	size_t k;

	switch (graph_place(a, obj, addr, cell, &t, &k)) {
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
 * Every arc's two ends, and every frame of a stack that does not end in
 * libmon's code (graph_stacks() leaves those out).
 */
static void
graph_mark(struct attr *a)
{
	const struct profile *p = a->p;
	const struct frame *fr;
	struct otab *t;
	size_t i, j, k;

	for (i = 0; i < p->narcs; i++) {
		graph_need(a, p->arcs[i].fobj, p->arcs[i].from, 0);
		graph_need(a, p->arcs[i].sobj, p->arcs[i].self, 1);
	}
	for (i = 0; i < p->nstacks; i++) {
		fr = p->frames + p->stacks[i].first;
		if (graph_place(a, fr[0].obj, fr[0].addr, 0, &t, &k) ==
		    F_SELF)
			continue;
		for (j = 0; j < p->stacks[i].depth; j++)
			graph_need(a, fr[j].obj, fr[j].addr, 0);
	}
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
		return t->ents[k].row;
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
	struct cgarc *c;
	size_t i, from, to;

	a->arcto = xcalloc(a->p->narcs + 1, sizeof(*a->arcto));
	a->byfrom = xcalloc(a->p->narcs + 1, sizeof(*a->byfrom));
	for (i = 0; i < a->p->narcs; i++) {
		pa = &a->p->arcs[i];
		a->byfrom[i] = i;
		from = graph_row(a, pa->fobj, pa->from, 0);
		to = a->arcto[i] = graph_row(a, pa->sobj, pa->self, 1);
		if (from == ROW_SELF || to == ROW_SELF || to == ROW_NONE)
			continue;
		g->arcs = xgrow(g->arcs, &g->arccap, g->narcs, 1,
		    sizeof(*g->arcs));
		c = &g->arcs[g->narcs++];
		memset(c, 0, sizeof(*c));
		c->from = from;
		c->to = to;
		c->calls = pa->count;
		c->counted = 1;
	}
	sortparcs = a->p->arcs;
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

/*
 * The stacks, as rows.  A stack that ends in libmon's code is
 * profiling's time, as its sample is in the flat report; libmon's
 * frames further out are left out of the stack.  A frame whose call,
 * by the counted arcs, went elsewhere than the frame below is marked,
 * and so is a caller frame in no loaded object: a return address is in
 * code, so the walk went astray there (a frame pointer that code used
 * as a plain register), whether or not the callee counts its calls.
 */
static void
graph_stacks(struct attr *a)
{
	const struct profile *p = a->p;
	const struct pstack *ps;
	const struct frame *fr;
	struct graph *g = &a->r->g;
	struct cgstack *s;
	size_t i, j, id, below;

	g->stacks = xcalloc(p->nstacks + 1, sizeof(*g->stacks));
	for (i = 0; i < p->nstacks; i++) {
		ps = &p->stacks[i];
		fr = p->frames + ps->first;
		if (graph_row(a, fr[0].obj, fr[0].addr, 0) == ROW_SELF) {
			g->overhead += ps->samples;
			continue;
		}
		s = &g->stacks[g->nstacks++];
		s->first = g->nids;
		s->samples = ps->samples;
		if ((s->cut = ps->cut))
			g->cut += ps->samples;
		g->ids = xgrow(g->ids, &g->idcap, g->nids, ps->depth,
		    sizeof(*g->ids));
		g->skipped = xgrow(g->skipped, &g->skipcap, g->nids,
		    ps->depth, sizeof(*g->skipped));
		for (j = 0, below = ROW_NONE; j < ps->depth; j++) {
			if ((id = graph_row(a, fr[j].obj, fr[j].addr, 0)) ==
			    ROW_SELF) {
				below = ROW_SELF;
				continue;
			}
			g->skipped[g->nids] = below < ROW_SELF &&
			    (fr[j].obj == OBJ_NONE ||
			    call_elsewhere(a, &fr[j], below));
			g->ids[g->nids++] = below = id;
		}
		s->depth = g->nids - s->first;
	}
}

/*
 * Turn profile p into report r, with st the program's symbols.  st's
 * functions get their entry numbers; the rows point into st and into
 * the tables of other objects, which stay loaded.
 */
void
attribute(struct report *r, const struct profile *p, struct symtab *st,
    const struct opts *o)
{
	struct attr a;
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

	hist = attribute_hist(&a);
	r->attributed = r->histattr;
	attribute_places(&a);
	graph_mark(&a);
	entry_rows(&a, &cap);
	raw_rows(&a, &cap);
	mark_clashes(r);
	r->g.counted = p->arcfiles > 0;
	r->g.sampled = p->stackfiles > 0;
	graph_arcs(&a);
	graph_stacks(&a);
	graph_compute(r);
	kernel_row(&a, &cap);
	unsampled_row(&a, &cap);
	note_uses(&a);

	r->histsum = p->histraw;
	r->outside = p->outraw;
	r->total = hist + p->wout + p->wlost + p->wkernel + r->unsampled;
	r->period = p->period;
	*st = a.tabs[OBJ_MAIN].st;
	free(a.raws);
	free(a.arcto);
	free(a.byfrom);
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
		free(r->rows[i].names);
	}
	for (i = 0; i < r->ntabs; i++) {
		if (i != OBJ_MAIN)
			symtab_free(&tabs[i].st);
		free(tabs[i].label);
		free(tabs[i].ents);
	}
	free(tabs);
	free(r->rows);
	free(r->uses);
	free(r->byid);
	graph_free(&r->g);
	memset(r, 0, sizeof(*r));
}
