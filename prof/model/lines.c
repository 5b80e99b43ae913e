/*
 * lines.c -- the profile by source line, for -L and -A: each line's
 * samples and the calls made from it.
 *
 * A line is a source file and line number of one object, in one
 * function: code inlined from elsewhere is charged to the line the
 * line table names, in the function that holds the address, as
 * addr2line names it.  Time comes from the exact sampled pcs when every
 * sample has one (the innermost frames of the stacks); else from the
 * histogram, where a bin's samples are shared among the lines its bytes
 * belong to, in proportion to the bytes, as attrib.c shares them among
 * functions, and from the pcs outside it.  Calls come from the arcs:
 * an arc's from is the return address less one, the last byte of the
 * call instruction, so the line of the call itself.  libmon's own code
 * is left out, as the flat report leaves it out of the rows.
 *
 * -C demangles the functions' names once the rows are made: a row is
 * found by its name's pointer while they are.
 *
 * Each object's line table is read once, on first use, from the file
 * its functions came from: its debug file when they came from one; one
 * that is damaged or compressed past reading is warned of, once, for
 * -L, -A and the exports alike (export/srcline.c reads its tables
 * here).  A file that cannot be read at all has no lines, silently:
 * its symbols were not read either, which -s says.  An address no
 * table covers still counts, on a row of its function with
 * no line ("??:0"), so that the shares add up as the flat report's do.
 */
#include <err.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/* One object's line table. */
struct ltab {
	struct dwline	 dl;
	int		 tried;
	int		 ok;
};

/* The line table of object obj, or NULL: read, and warned of, once. */
const struct dwline *
lines_table(struct lines *ls, size_t obj)
{
	struct ltab *t;
	const struct symtab *st;
	const char *why;
	char *path, *s;

	if (obj >= ls->ntabs || ls->p->objs[obj].jitpid != 0)
		return NULL;
	t = &((struct ltab *)ls->tabs)[obj];
	if (t->tried)
		return t->ok ? &t->dl : NULL;
	t->tried = 1;
	if ((st = report_symtab(ls->r, obj)) == NULL)
		return NULL;
	t->ok = dwline_load_object(&t->dl, st, &path, &why) == 0;
	s = printable(path);
	free(path);
	if (!t->ok) {
		free(s);
		return NULL;
	}
	if (t->dl.packed != NULL)
		warnx("warning: %s: .debug_line: %s; no source lines from it",
		    s, t->dl.packed);
	else if (t->dl.nbad > 0)
		warnx("warning: %s: .debug_line: %s; %zu line table%s "
		    "skipped", s, t->dl.why, t->dl.nbad,
		    t->dl.nbad == 1 ? "" : "s");
	free(s);
	return t->ok ? &t->dl : NULL;
}

/*
 * The program's own line table: 1 if it has rows for its code, libmon's
 * linked into it apart (libmon is built with -g, the program maybe
 * not); 0 if it has none -- no .debug_line, built without -g, or no file
 * to read; -1 if it has one that could not be read (compressed otherwise
 * than with zlib, damaged), which lines_table() warned of.
 */
int
lines_main_table(struct lines *ls)
{
	const struct dwline *dl;
	const struct symtab *st;
	uint64_t lo = 0, hi = 0, a;
	size_t i;

	if ((dl = lines_table(ls, OBJ_MAIN)) == NULL)
		return 0;
	/* libmon's code, linked in: its own section (lib/Makefile). */
	if ((st = report_symtab(ls->r, OBJ_MAIN)) == NULL ||
	    elf_section_range(st->path, "libmon_text", &lo, &hi) != 0)
		lo = hi = 0;
	for (i = 0; i < dl->nrows; i++) {
		a = dl->rows[i].addr;
		if (dl->rows[i].line != 0 && !(a >= lo && a < hi) &&
		    !profile_in_self(ls->p, OBJ_MAIN, a))
			return 1;
	}
	return dl->packed != NULL || dl->nbad > 0 ? -1 : 0;
}

/*
 * The name of the function of obj holding addr, or NULL; and its entry
 * in *entry (0 for none), which the exports find its row by.
 */
static const char *
func_entry(const struct lines *ls, size_t obj, uint64_t addr,
    uint64_t *entry)
{
	const struct symtab *st;
	size_t k;

	*entry = 0;
	if ((st = report_symtab(ls->r, obj)) == NULL ||
	    (k = symtab_lookup(st, addr)) == SIZE_MAX)
		return NULL;
	*entry = st->funcs[k].addr;
	return st->funcs[k].name;
}

static const char *
func_at(const struct lines *ls, size_t obj, uint64_t addr)
{
	uint64_t entry;

	return func_entry(ls, obj, addr, &entry);
}

static size_t
mix(size_t h, uint64_t v)
{
	h ^= (size_t)v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static size_t
row_hash(size_t obj, const char *file, uint32_t line, const char *func)
{
	size_t h = 0;

	h = mix(h, obj);
	h = mix(h, (uintptr_t)file);
	h = mix(h, line);
	return mix(h, (uintptr_t)func);
}

/* The hash table made twice as big, every row put back. */
static void
rehash(struct lines *ls)
{
	const struct lrow *w;
	size_t i, h, cap = ls->hashcap == 0 ? 256 : ls->hashcap * 2;

	free(ls->hash);
	ls->hash = xcalloc(cap, sizeof(*ls->hash));
	ls->hashcap = cap;
	for (i = 0; i < ls->nrows; i++) {
		w = &ls->rows[i];
		h = row_hash(w->obj, w->file, w->line, w->func) & (cap - 1);
		while (ls->hash[h] != 0)
			h = (h + 1) & (cap - 1);
		ls->hash[h] = i + 1;
	}
}

/* The row of a line in a function, made on first use. */
static struct lrow *
row_of(struct lines *ls, size_t obj, const char *file, uint32_t line,
    const char *func, uint64_t addr)
{
	struct lrow *w;
	size_t h;

	if (2 * (ls->nrows + 1) > ls->hashcap)
		rehash(ls);
	h = row_hash(obj, file, line, func) & (ls->hashcap - 1);
	for (; ls->hash[h] != 0; h = (h + 1) & (ls->hashcap - 1)) {
		w = &ls->rows[ls->hash[h] - 1];
		if (w->obj == obj && w->file == file && w->line == line &&
		    w->func == func) {
			if (addr < w->addr)
				w->addr = addr;
			return w;
		}
	}
	ls->rows = xgrow(ls->rows, &ls->rowcap, ls->nrows, 1,
	    sizeof(*ls->rows));
	w = &ls->rows[ls->nrows];
	memset(w, 0, sizeof(*w));
	w->obj = obj;
	w->file = file;
	w->line = line;
	w->func = func;
	w->addr = addr;
	ls->hash[h] = ++ls->nrows;
	return w;
}

/* The row of the line holding (obj, addr); *end: where its code ends. */
static struct lrow *
row_at(struct lines *ls, size_t obj, uint64_t addr, uint64_t *end)
{
	const struct dwline *dl;
	const char *file = NULL, *func;
	uint32_t line = 0;
	uint64_t entry;
	struct lrow *w;

	*end = UINT64_MAX;
	if ((dl = lines_table(ls, obj)) == NULL ||
	    !dwline_span(dl, addr, &file, &line, end))
		file = NULL, line = 0;
	else if (file != NULL || line != 0) {
		ls->anylines = 1;
	}
	func = func_entry(ls, obj, addr, &entry);
	w = row_of(ls, obj, file, line, func, addr);
	w->entry = entry;
	return w;
}

/* Does -f's pattern take the function of obj at addr? */
static int
matches(const struct lines *ls, size_t obj, uint64_t addr)
{
	const char *f;

	if (obj == OBJ_NONE || (f = func_at(ls, obj, addr)) == NULL)
		return 0;
	return regexec(ls->focus, f, 0, NULL, 0) == 0;
}

/* Is (obj, addr) one that counts: in reach of -p, not libmon's? */
static int
counts(const struct lines *ls, size_t obj, uint64_t addr)
{
	if (ls->o->progonly && obj != OBJ_MAIN)
		return 0;
	return !profile_in_self(ls->p, obj, addr);
}

/* w samples at the range [lo, hi) of obj, shared by bytes. */
static void
add_range(struct lines *ls, size_t obj, uint64_t lo, uint64_t hi, double w)
{
	struct lrow *row;
	uint64_t a, end;

	if (!counts(ls, obj, lo) || hi <= lo)
		return;
	if (ls->focus != NULL && !matches(ls, obj, lo))
		return;
	for (a = lo; a < hi; a = end) {
		row = row_at(ls, obj, a, &end);
		if (end <= a || end > hi)
			end = hi;
		row->samples += w * (double)(end - a) / (double)(hi - lo);
	}
}

/* Does a stack pass through a function -f's pattern takes? */
static int
stack_matches(const struct lines *ls, const struct pstack *s)
{
	const struct frame *f = &ls->p->frames[s->first];
	size_t i;

	for (i = 0; i < s->depth; i++)
		if (matches(ls, f[i].obj, f[i].addr))
			return 1;
	return 0;
}

/*
 * Time from the stacks' innermost frames, the sampled pcs themselves.
 * A stack taken in the kernel counts for the line that made the call.
 */
static void
from_stacks(struct lines *ls)
{
	const struct profile *p = ls->p;
	const struct pstack *s;
	const struct frame *f;
	struct lrow *row;
	uint64_t end;
	size_t i;

	for (i = 0; i < p->nstacks; i++) {
		s = &p->stacks[i];
		if (s->depth == 0)
			continue;
		f = &p->frames[s->first];
		if (!counts(ls, f->obj, f->addr))
			continue;
		if (ls->focus != NULL && !stack_matches(ls, s))
			continue;
		row = row_at(ls, f->obj, f->addr, &end);
		row->samples += s->samples;
	}
}

/* Time from the histogram's bins and the pcs outside it. */
static void
from_hist(struct lines *ls)
{
	const struct profile *p = ls->p;
	const struct place *pl;
	uint64_t lo, hi;
	size_t i;

	for (i = 0; i < p->nbins; i++) {
		bin_range(p, p->bins[i].i, &lo, &hi);
		add_range(ls, OBJ_MAIN, lo, hi, p->bins[i].w);
	}
	for (i = 0; i < p->npcs; i++) {
		pl = &p->pcs[i];
		if (pl->obj == OBJ_NONE)
			continue;
		if ((pl->addr & 0xfff) == 1)	/* a page's, attrib.c */
			add_range(ls, pl->obj, pl->addr - 1,
			    pl->addr - 1 + 4096, pl->samples);
		else
			add_range(ls, pl->obj, pl->addr, pl->addr + 1,
			    pl->samples);
	}
}

/*
 * Do the stacks hold every sample?  Then their innermost pcs are the
 * exact addresses, where the histogram has bins of several bytes.
 */
static int
stacks_whole(const struct profile *p)
{
	double hist = 0, stk = 0;
	size_t i;

	if (p->nstacks == 0 || p->stackfiles < p->nfiles)
		return 0;
	for (i = 0; i < p->nbins; i++)
		hist += p->bins[i].w;
	for (i = 0; i < p->npcs; i++)
		hist += p->pcs[i].samples;
	for (i = 0; i < p->nstacks; i++)
		stk += p->stacks[i].samples;
	return stk > 0 && stk >= hist * 0.999;
}

/* The calls made from each line, and to whom, from the arcs. */
static void
from_arcs(struct lines *ls)
{
	const struct profile *p = ls->p;
	const struct parc *a;
	struct lrow *row;
	struct lcall *c;
	uint64_t end;
	size_t i;

	for (i = 0; i < p->narcs; i++) {
		a = &p->arcs[i];
		if (a->fobj == OBJ_NONE || !counts(ls, a->fobj, a->from))
			continue;
		if (ls->focus != NULL && !matches(ls, a->fobj, a->from) &&
		    !(a->sobj != OBJ_NONE && a->self > 0 &&
		    matches(ls, a->sobj, a->self - 1)))
			continue;
		row = row_at(ls, a->fobj, a->from, &end);
		row->calls += a->count;
		ls->calls = xgrow(ls->calls, &ls->callcap, ls->ncalls, 1,
		    sizeof(*ls->calls));
		c = &ls->calls[ls->ncalls++];
		c->row = (size_t)(row - ls->rows);
		c->cobj = a->sobj;
		c->callee = a->sobj == OBJ_NONE || a->self == 0 ? NULL :
		    func_entry(ls, a->sobj, a->self - 1, &c->centry);
		c->calls = a->count;
	}
}

/* -C: the functions' names, callers' and callees', demangled. */
static void
demangle_names(struct lines *ls)
{
	const char **v;
	size_t i, n = 0;

	v = xcalloc(ls->nrows + ls->ncalls + 1, sizeof(*v));
	for (i = 0; i < ls->nrows; i++)
		if (ls->rows[i].func != NULL)
			v[n++] = ls->rows[i].func;
	for (i = 0; i < ls->ncalls; i++)
		if (ls->calls[i].callee != NULL)
			v[n++] = ls->calls[i].callee;
	demangle(v, n);
	for (i = n = 0; i < ls->nrows; i++)
		if (ls->rows[i].func != NULL)
			ls->rows[i].func = v[n++];
	for (i = 0; i < ls->ncalls; i++)
		if (ls->calls[i].callee != NULL)
			ls->calls[i].callee = v[n++];
	free(v);
}

/*
 * ls readied for report r of profile p, with no rows yet: its line
 * tables are read as lines_table() asks for them.  o stays the
 * caller's.
 */
void
lines_open(struct lines *ls, const struct report *r,
    const struct profile *p, const struct opts *o)
{
	memset(ls, 0, sizeof(*ls));
	ls->r = r;
	ls->p = p;
	ls->o = o;
	ls->ntabs = p->nobjs;
	ls->tabs = xcalloc(p->nobjs + 1, sizeof(struct ltab));
	ls->total = r->total - r->overhead;
}

/*
 * The rows of ls, once: every line with samples or calls, unsorted.
 * focus: -f's pattern, or NULL.
 */
void
lines_fill(struct lines *ls, const regex_t *focus)
{
	if (ls->filled)
		return;
	ls->filled = 1;
	ls->focus = focus;
	ls->exact = stacks_whole(ls->p);
	(void)lines_table(ls, OBJ_MAIN);
	if (ls->exact)
		from_stacks(ls);
	else
		from_hist(ls);
	from_arcs(ls);
	if (ls->o->demangle)
		demangle_names(ls);
}

/* lines_open() and lines_fill(): for -L and -A. */
void
lines_build(struct lines *ls, const struct report *r,
    const struct profile *p, const struct opts *o, const regex_t *focus)
{
	lines_open(ls, r, p, o);
	lines_fill(ls, focus);
}

/* The orders of -L: time, calls, file and line, address. */
static int
cmp_place(const struct lrow *a, const struct lrow *b)
{
	int c;

	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	if (a->file != b->file) {
		if (a->file == NULL || b->file == NULL)
			return a->file == NULL ? 1 : -1;
		if ((c = strcmp(a->file, b->file)) != 0)
			return c;
	}
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->func != b->func) {
		if (a->func == NULL || b->func == NULL)
			return a->func == NULL ? 1 : -1;
		if ((c = strcmp(a->func, b->func)) != 0)
			return c;
	}
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int
cmp_ltime(const void *x, const void *y)
{
	const struct lrow *a = x, *b = y;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return cmp_place(a, b);
}

static int
cmp_lcalls(const void *x, const void *y)
{
	const struct lrow *a = x, *b = y;

	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return cmp_ltime(x, y);
}

static int
cmp_lname(const void *x, const void *y)
{
	return cmp_place(x, y);
}

static int
cmp_laddr(const void *x, const void *y)
{
	const struct lrow *a = x, *b = y;

	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return cmp_place(a, b);
}

/* The calls by their line's row, each line's biggest first. */
static int
cmp_lcall(const void *x, const void *y)
{
	const struct lcall *a = x, *b = y;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	if (a->callee == NULL || b->callee == NULL)
		return (a->callee == NULL) - (b->callee == NULL);
	return strcmp(a->callee, b->callee);
}

/* Calls from one line to one callee, from several sites, summed. */
static void
merge_calls(struct lines *ls)
{
	struct lcall *c = ls->calls;
	size_t i, n = 0;

	for (i = 0; i < ls->ncalls; i++) {
		if (n > 0 && c[n - 1].row == c[i].row &&
		    (c[n - 1].callee == c[i].callee ||
		    (c[n - 1].callee != NULL && c[i].callee != NULL &&
		    strcmp(c[n - 1].callee, c[i].callee) == 0))) {
			addsat(&c[n - 1].calls, c[i].calls);
			continue;
		}
		c[n++] = c[i];
	}
	ls->ncalls = n;
}

/*
 * The rows in the order sort asks for ('t', 'c', 'n', 'a'; 'I' is
 * time's), and the calls after them, by row.  The hash goes: the rows
 * move.
 */
void
lines_sort(struct lines *ls, int sort)
{
	int (*cmp)(const void *, const void *);
	size_t *where, i;

	cmp = sort == 'c' ? cmp_lcalls : sort == 'n' ? cmp_lname :
	    sort == 'a' ? cmp_laddr : cmp_ltime;
	for (i = 0; i < ls->nrows; i++)
		ls->rows[i].rank = i;
	if (ls->nrows > 1)
		qsort(ls->rows, ls->nrows, sizeof(*ls->rows), cmp);
	where = xcalloc(ls->nrows + 1, sizeof(*where));
	for (i = 0; i < ls->nrows; i++)
		where[ls->rows[i].rank] = i;
	for (i = 0; i < ls->ncalls; i++)
		ls->calls[i].row = where[ls->calls[i].row];
	free(where);
	free(ls->hash);
	ls->hash = NULL;
	ls->hashcap = 0;
	if (ls->ncalls > 1)
		qsort(ls->calls, ls->ncalls, sizeof(*ls->calls), cmp_lcall);
	merge_calls(ls);
}

/* A row of the report by its function's entry: (object, entry) -> id. */
struct entid {
	size_t		 obj;
	uint64_t	 addr;
	size_t		 id;
};

static int
cmp_entid(const void *a, const void *b)
{
	const struct entid *u = a, *v = b;

	if (u->obj != v->obj)
		return u->obj < v->obj ? -1 : 1;
	if (u->addr != v->addr)
		return u->addr < v->addr ? -1 : 1;
	return u->id < v->id ? -1 : u->id > v->id;
}

/* The report's function rows by entry, sorted, made on first use. */
static void
index_rows(struct lines *ls)
{
	const struct report *r = ls->r;
	const struct row *w;
	struct entid *e;
	size_t i, n = 0;

	e = xcalloc(r->nrows + 1, sizeof(*e));
	for (i = 0; i < r->nrows; i++) {
		w = &r->rows[i];
		if (w->kernel || w->objidx >= ls->p->nobjs)
			continue;
		e[n].obj = w->objidx;
		e[n].addr = w->addr;
		e[n++].id = w->id;
	}
	qsort(e, n, sizeof(*e), cmp_entid);
	ls->byentry = e;
	ls->nbyentry = n;
}

/*
 * The id of the report's row of the function of obj at entry, or
 * ROW_NONE (no entry, or a function folded into another's row).
 */
size_t
lines_row(struct lines *ls, size_t obj, uint64_t entry)
{
	const struct entid *e;
	size_t lo = 0, hi, mid;

	if (ls->byentry == NULL)
		index_rows(ls);
	e = ls->byentry;
	hi = ls->nbyentry;
	if (entry == 0)
		return ROW_NONE;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (e[mid].obj < obj || (e[mid].obj == obj &&
		    e[mid].addr < entry))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ls->nbyentry && e[lo].obj == obj && e[lo].addr == entry ?
	    e[lo].id : ROW_NONE;
}

/* What lines_build() made, and the line tables, given back. */
void
lines_free(struct lines *ls)
{
	struct ltab *t = ls->tabs;
	size_t i;

	for (i = 0; t != NULL && i < ls->ntabs; i++)
		if (t[i].ok)
			dwline_free(&t[i].dl);
	free(ls->tabs);
	free(ls->rows);
	free(ls->hash);
	free(ls->calls);
	free(ls->byentry);
	memset(ls, 0, sizeof(*ls));
}

/* The current directory, once, with a / after it; "" if unknown. */
static const char *
cwd_slash(void)
{
	static char buf[4096];
	static int done;
	size_t n;

	if (!done) {
		done = 1;
		if (getcwd(buf, sizeof(buf) - 1) == NULL)
			buf[0] = '\0';
		else if ((n = strlen(buf)) > 0 && buf[n - 1] != '/')
			strcpy(buf + n, "/");
	}
	return buf;
}

/*
 * A source file's name as -L's rows print it, and -A, -q -L and -L -F
 * folded with them: from here when under it.
 */
const char *
line_file_name(const char *file)
{
	const char *cwd = cwd_slash();
	size_t n = strlen(cwd);

	if (n > 1 && strncmp(file, cwd, n) == 0 && file[n] != '\0')
		return file + n;
	return file;
}
