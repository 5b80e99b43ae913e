/*
 * entries.c -- the symbol tables of a profile's objects, cut into the
 * entries that samples and calls are given to.
 *
 * Each symbol table is cut into entries, one per address that carries a
 * reported name (synonyms share one).  Every function has its entry,
 * static ones too.  With -l a local function of the program has none of
 * its own: it counts for the global its name extends (foo.cold,
 * foo.part.0 count for foo) or else, as classic prof did, for the global
 * just before it -- its time, not its calls, which classic prof credited
 * to no other function.  A shared object's functions all have entries:
 * the global before one of its statics is most often an unrelated name
 * (a compatibility alias, say).
 *
 * libmon's own code -- the range a SELF record gives, else the names of
 * its entry points and internals -- is one entry of each table that
 * holds it, never a row: its samples are the report's overhead.
 *
 * Addresses in other objects are looked up in their own symbol tables,
 * read on first use (the vDSO from prof's own, the same kernel's).
 * Those in no loaded object are looked up in their process's perf map,
 * read on first use too.  What became of each object (read, from where,
 * or why not) is kept in its table for -s.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "model/attr.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/* A new entry for the group funcs[first..first+n); room was made. */
static size_t
new_entry(struct otab *t, size_t first, size_t n)
{
	struct entry *e;

	e = &t->ents[t->nents];
	memset(e, 0, sizeof(*e));
	e->first = first;
	e->ngroup = n;
	return t->nents++;
}

size_t
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
void
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
 * Every entry has its row by now: the entries, a million for a program
 * of a million functions, are given back before the call graph's arcs
 * are made.  The functions keep their entry numbers, which now lead
 * to the entries' rows (rowid) alone.
 */
void
drop_entries(struct attr *a)
{
	size_t i;

	for (i = 0; i < a->r->ntabs; i++) {
		free(a->tabs[i].ents);
		a->tabs[i].ents = NULL;
		free(a->tabs[i].tincl);
		a->tabs[i].tincl = NULL;
		free(a->tabs[i].tcalls);
		a->tabs[i].tcalls = NULL;
	}
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
int
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
		if (perfmap_load(&t->st, o->path, o->jittext, o->jitlen,
		    &t->why) != 0)
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
struct otab *
otab(struct attr *a, size_t i)
{
	struct otab *t;

	if (i == OBJ_NONE || (a->o->progonly && i != OBJ_MAIN))
		return NULL;
	t = &a->tabs[i];
	if (!t->tried) {
		t->tried = 1;
		t->selfent = SIZE_MAX;
		if (is_vdso(&a->p->objs[i]))
			t->label = xstrdup("vdso");
		else if (a->p->objs[i].jitpid != 0)
			t->label = xstrdup("jit");
		else
			t->label = label(a->p->objs[i].path);
		t->ok = load_table(a, i, t) == 0;
	}
	return t->ok ? t : NULL;
}
