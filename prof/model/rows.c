/*
 * rows.c -- the report's rows, named: an entry that took samples or
 * calls, an address no symbol covers, the kernel's time.
 *
 * An entry's row carries every name of its group.  Locals of one name
 * from several source files are rows apart, and carry their file where
 * the names clash.  Addresses no symbol covers make one row an object,
 * object+0xoffset with -u a row each; a function of a perf map is a row
 * "name (perf-PID.map)", and an address no line of the map covers, or
 * of a map that could not be read, is [unknown]+0xaddress.  The kernel
 * time a perf clock could not sample is one row of its own.  A function
 * only the call graph needs (no time, no calls of its own) has its row
 * too, marked, which the flat report shows only with -i.
 *
 * Names and paths go into the rows as the files gave them; the printers
 * make them printable.  What became of each object is left in the
 * report's uses for -s, which print/report.c words.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "model/attr.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/* Rows' arrays of names, carved from blocks of many. */
struct nameblock {
	struct nameblock *next;
	size_t		 used, cap;
	const char	*v[];
};

#define NAMEBLOCK	65536	/* names a block */

/*
 * Room for the n names of a row: a program of a million functions
 * would have a million small allocations of one name each.
 */
static const char **
name_room(struct report *r, size_t n)
{
	struct nameblock *b = r->names;
	size_t cap;

	if (b == NULL || b->cap - b->used < n) {
		cap = n > NAMEBLOCK ? n : NAMEBLOCK;
		b = xmalloc(sizeof(*b) + cap * sizeof(b->v[0]));
		b->next = r->names;
		b->used = 0;
		b->cap = cap;
		r->names = b;
	}
	b->used += n;
	return &b->v[b->used - n];
}

/* Give back the blocks of names. */
void
free_names(struct report *r)
{
	struct nameblock *b;

	while ((b = r->names) != NULL) {
		r->names = b->next;
		free(b);
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
	int global = 0, plain = 0, versioned = 0;
	size_t k;

	for (k = 0; k < e->ngroup; k++)
		global |= !g[k].local;
	for (k = 0; k < e->ngroup; k++) {
		if (!by_locality(a, i, e, &g[k], global))
			continue;
		if (strchr(g[k].name, '@') == NULL)
			plain = 1;
		else
			versioned = 1;
	}
	/* Most entries have no versioned name: one look at each name. */
	w->names = name_room(a->r, e->ngroup);
	for (k = 0; k < e->ngroup; k++) {
		if (!by_locality(a, i, e, &g[k], global) || (plain &&
		    versioned && strchr(g[k].name, '@') != NULL))
			continue;
		w->names[w->nnames++] = g[k].name;
		if (g[k].local && w->file == NULL)
			w->file = g[k].file;
	}
	w->obj = i == OBJ_MAIN ? NULL : t->label;
	w->objidx = i;
	w->addr = t->st.funcs[e->first].addr;
	w->samples = e->samples;
	w->calls = e->calls;
}

/* Main-program functions without time or calls, for -s and -z. */
static int
idle_entry(const struct attr *a, const struct otab *t, const struct entry *e,
    int *inrange)
{
	const struct profile *p = a->p;
	uint64_t addr = t->st.funcs[e->first].addr;

	*inrange = addr >= p->lpc && addr < p->hpc;
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

/*
 * Room for every row there may be, taken at once: grown one by one, a
 * million rows leave copies of themselves behind in the heap.  Entries,
 * raw addresses, the kernel's row and the unsampled one.
 */
static void
reserve_rows(struct attr *a, size_t *cap)
{
	size_t i, n = a->nraws + 2;

	for (i = 0; i < a->p->nobjs; i++)
		if (a->tabs[i].ok)
			n += a->tabs[i].nents;
	a->r->rows = xgrow(a->r->rows, cap, a->r->nrows, n,
	    sizeof(*a->r->rows));
}

/*
 * Generated code is named by the processes that ran it, each in a map
 * of its own: a fork child names what it inherited as its parent did.
 * The rows of such code are one row a name, whichever the process: an
 * open hash of names to rows, for entry_rows().
 */
struct jitnames {
	size_t		*row;		/* 1 + a row's index, 0: free */
	size_t		 mask;
};

/* FNV-1a of a name, from seed. */
static uint64_t
fnv(const char *s, uint64_t seed)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t h = 14695981039346656037ULL ^ seed;

	for (; *p != '\0'; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return h;
}

/* The slot of name among the rows of r in h: its row's, or a free one. */
static size_t *
jit_slot(struct jitnames *h, const struct report *r, const char *name)
{
	size_t k;

	for (k = fnv(name, 0) & h->mask; h->row[k] != 0;
	    k = (k + 1) & h->mask)
		if (strcmp(r->rows[h->row[k] - 1].names[0], name) == 0)
			break;
	return &h->row[k];
}

/*
 * Entries of generated code there are, to size the hash; with none, no
 * hash, and entry_rows() asks it nothing.
 */
static void
jit_init(struct jitnames *h, const struct attr *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->p->nobjs; i++)
		if (a->tabs[i].ok && a->p->objs[i].jitpid != 0)
			n += a->tabs[i].nents;
	for (h->mask = 15; h->mask < 2 * n; h->mask = h->mask * 2 + 1)
		;
	h->row = n > 0 ? xcalloc(h->mask + 1, sizeof(*h->row)) : NULL;
}

void
entry_rows(struct attr *a, size_t *cap)
{
	struct jitnames jn;
	struct entry *e;
	struct row *w;
	struct otab *t;
	size_t i, k, *slot;
	int idle, inrange, shown;

	reserve_rows(a, cap);
	jit_init(&jn, a);
	for (i = 0; i < a->p->nobjs; i++) {
		t = &a->tabs[i];
		if (!t->ok)
			continue;
		t->rowid = xcalloc(t->nents + 1, sizeof(*t->rowid));
		for (k = 0; k < t->nents; k++) {
			e = &t->ents[k];
			t->rowid[k] = ROW_NONE;
			if (e->self) {
				a->r->overhead += e->samples;
				a->r->libmon = a->p->nself > 0 ? 'r' : 'n';
				continue;
			}
			idle = idle_entry(a, t, e, &inrange);
			if (i == OBJ_MAIN)
				count_qualified(a, e, idle);
			shown = !idle || (a->o->zeros && i == OBJ_MAIN &&
			    inrange);
			if (!shown && !e->graph)
				continue;
			slot = NULL;
			if (a->p->objs[i].jitpid != 0)
				slot = jit_slot(&jn, a->r,
				    t->st.funcs[e->first].name);
			if (slot != NULL && *slot != 0) {
				/* Named before, by another process. */
				w = &a->r->rows[*slot - 1];
				w->samples += e->samples;
				w->calls += e->calls;
				w->graphonly &= !shown;
				t->rowid[k] = w->id;
				continue;
			}
			w = new_row(a->r, cap);
			entry_row(a, i, e, w);
			w->graphonly = !shown;
			if (t->tcalls != NULL && (t->tcalls[k] > 0 ||
			    t->tincl[k] > 0)) {
				w->timed = 1;
				w->measured = t->tincl[k];
				a->r->ntimed++;
			}
			t->rowid[k] = w->id;
			if (slot != NULL)
				*slot = (size_t)(w - a->r->rows) + 1;
		}
	}
	free(jn.row);
}

int
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
	row->names = name_room(a->r, 1);
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
void
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

/* A row's first name, "" if it has none. */
static const char *
first_name(const struct row *w)
{
	return w->nnames > 0 ? w->names[0] : "";
}

/* A hash of a row's object and first name. */
static size_t
name_hash(const struct row *w)
{
	return (size_t)fnv(first_name(w), w->objidx);
}

static int
same_name(const struct row *a, const struct row *b)
{
	return a->objidx == b->objidx &&
	    strcmp(first_name(a), first_name(b)) == 0;
}

/*
 * Static functions of one name in several source files are rows apart;
 * where names clash, a row says its file.  Elsewhere it says none.
 * Only a row with a file has anything to lose: those go into an open
 * hash by object and name, every row is counted against it, and a row
 * that met no other of its name and object drops its file.
 */
void
mark_clashes(struct report *r)
{
	size_t *slot, *seen, nfile = 0, cap, i, h, k;
	struct row *w;

	for (i = 0; i < r->nrows; i++) {
		if (r->rows[i].file != NULL && r->rows[i].nnames == 0)
			r->rows[i].file = NULL;
		nfile += r->rows[i].file != NULL;
	}
	if (nfile == 0)
		return;
	for (cap = 16; cap < 2 * nfile; cap *= 2)
		;
	slot = xcalloc(cap, sizeof(*slot));	/* row + 1, or 0 */
	seen = xcalloc(cap, sizeof(*seen));	/* rows of its name */
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		if (w->file == NULL)
			continue;
		for (h = name_hash(w) & (cap - 1); slot[h] != 0 &&
		    !same_name(&r->rows[slot[h] - 1], w); h = (h + 1) & (cap - 1))
			;
		if (slot[h] == 0)
			slot[h] = i + 1;
	}
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		for (h = name_hash(w) & (cap - 1); (k = slot[h]) != 0;
		    h = (h + 1) & (cap - 1))
			if (same_name(&r->rows[k - 1], w)) {
				seen[h]++;
				break;
			}
	}
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		if (w->file == NULL)
			continue;
		for (h = name_hash(w) & (cap - 1); !same_name(&r->rows[slot[h] -
		    1], w); h = (h + 1) & (cap - 1))
			;
		if (seen[h] == 1)
			w->file = NULL;
	}
	free(slot);
	free(seen);
}

/*
 * The kernel's row: the perf clock's samples in kernel mode, or the time
 * it could not sample there, which the run's user and system times tell
 * apart.  Made before the graph, which puts it under the callers the
 * stacks of those samples name (a->kernelrow).
 */
void
kernel_row(struct attr *a, size_t *cap)
{
	struct row *w;

	a->kernelrow = ROW_NONE;
	if (a->p->wkernel <= 0)
		return;
	a->r->attributed += a->p->wkernel;	/* known, if not a function */
	if (a->o->progonly)
		return;
	w = new_row(a->r, cap);
	w->names = name_room(a->r, 1);
	w->names[0] = "[kernel: system calls and faults]";
	w->nnames = 1;
	w->objidx = OBJ_NONE;
	w->kernel = 1;
	w->samples = a->p->wkernel;
	a->kernelrow = w->id;
}

/*
 * The row of CPU time no sample stood for (threads shorter than a
 * period, the ends of others), when it is a share worth a line: it is
 * kept apart, never spread over the functions that were sampled, and
 * a large share is warned about.
 */
void
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
	if (share >= UNSAMPLED_WARN &&
	    p->wunsampled * p->period >= UNSAMPLED_WARN_S)
		warnx("warning: %.0f%% of the CPU time (%.2f s) no sample "
		    "stood for (short threads, SIGPROF blocked: libmon(7))",
		    100 * share, p->wunsampled * p->period);
	a->r->attributed += p->wunsampled;	/* known, if not a function */
	a->r->unsampled = p->wunsampled;
	if (a->o->progonly)
		return;
	w = new_row(a->r, cap);
	w->names = name_room(a->r, 1);
	w->names[0] = "[unsampled: CPU time no sample stood for]";
	w->nnames = 1;
	w->objidx = OBJ_NONE;
	w->kernel = 1;
	w->samples = p->wunsampled;
}

/* What became of each object, for -s (print/report.c). */
void
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
