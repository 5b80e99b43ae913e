/*
 * srcline.c -- source files and lines for the formats that hold them
 * (pprof.c, callgrind.c, folded.c with -L).
 *
 * A frame's function has the source file and line of the line table's
 * row at its entry (dwline.c), the line of its opening, near enough to
 * the declaration for a viewer to show the function.  And a frame has
 * its own time by line, each line in the file the line table names
 * (code inlined from a header in the header's), its counted calls by
 * call site, and the stacks' samples by call site, from the caller
 * frame's return address in each (xlines_make()): model/lines.c's
 * lines, each found its frame by its function's entry.  The line
 * tables are model/lines.c's, read once for both, on first use, from
 * the file an object's functions came from: its debug file, when they
 * came from one.  A file that cannot be read has no lines; one whose
 * table is partly malformed, the lines of the rest, and a warning.
 */
#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

void
srcline_init(struct srclines *sl, const struct xset *x)
{
	sl->x = x;
	sl->o = *x->o;
	sl->o.demangle = 0;	/* frames are found by entry, not name */
	lines_open(&sl->ls, x->r, x->p, &sl->o);
	sl->used = xcalloc(x->p->nobjs + 1, 1);
}

/* The line table of object obj, or NULL: read the first time. */
static const struct dwline *
object_lines(struct srclines *sl, size_t obj)
{
	const struct xset *x = sl->x;

	if (obj >= x->p->nobjs || x->p->objs[obj].jitpid != 0)
		return NULL;
	return lines_table(&sl->ls, obj);
}

/*
 * The source file of frame id's function, and its line (0: none), by
 * the line table at its entry: 1, or 0 when no table names a file there
 * (no debug information, or a frame no function stands for).  The
 * string, as the file gives it, stays with sl.
 */
int
srcline_find(struct srclines *sl, size_t id, const char **file,
    uint32_t *line)
{
	const struct row *w = xset_row(sl->x, id);
	const struct dwline *dl;
	size_t obj = xset_object(sl->x, id);

	*file = NULL;
	*line = 0;
	if (w == NULL || (dl = object_lines(sl, obj)) == NULL)
		return 0;
	if (!dwline_find(dl, w->addr, file, line) || *file == NULL) {
		*file = NULL;
		*line = 0;
		return 0;
	}
	sl->used[obj] = 1;
	return 1;
}

/* Did srcline_find() name a file from object obj's table? */
int
srcline_used(const struct srclines *sl, size_t obj)
{
	return obj < sl->x->p->nobjs && sl->used[obj];
}

/* The tables given back, and the lines. */
void
srcline_free(struct srclines *sl)
{
	lines_free(&sl->ls);
	free(sl->used);
	sl->used = NULL;
}

/* Are two files of the line tables one?  NULL is no file. */
int
xline_samefile(const char *a, const char *b)
{
	if (a == b)
		return 1;
	return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static int
cmp_file(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (a == NULL || b == NULL)
		return a == NULL ? 1 : -1;
	return strcmp(a, b);
}

static int
cmp_xline(const void *a, const void *b)
{
	const struct xline *u = a, *v = b;
	int c;

	if (u->id != v->id)
		return u->id < v->id ? -1 : 1;
	if ((c = cmp_file(u->file, v->file)) != 0)
		return c;
	return u->line < v->line ? -1 : u->line > v->line;
}

static int
cmp_xsite(const void *a, const void *b)
{
	const struct xsite *u = a, *v = b;

	if (u->from != v->from)
		return u->from < v->from ? -1 : 1;
	if (u->to != v->to)
		return u->to < v->to ? -1 : 1;
	return u->line < v->line ? -1 : u->line > v->line;
}

/*
 * The lines of xl, sorted, one per frame, file and line, samples
 * summed: a header's line inlined into a function stays apart from the
 * function's own file's line of the same number.
 */
static void
settle_lines(struct xlines *xl, size_t nids)
{
	struct xline *l = xl->lines;
	size_t i, n = 0;

	if (xl->nlines > 1)
		qsort(l, xl->nlines, sizeof(*l), cmp_xline);
	for (i = 0; i < xl->nlines; i++) {
		if (n > 0 && l[n - 1].id == l[i].id &&
		    l[n - 1].line == l[i].line &&
		    xline_samefile(l[n - 1].file, l[i].file)) {
			l[n - 1].samples += l[i].samples;
			if (l[i].addr < l[n - 1].addr)
				l[n - 1].addr = l[i].addr;
			continue;
		}
		l[n++] = l[i];
	}
	xl->nlines = n;
	xl->first = xcalloc(nids + 1, sizeof(*xl->first));
	xl->total = xcalloc(nids + 1, sizeof(*xl->total));
	for (i = 0; i <= nids; i++)
		xl->first[i] = n;
	for (i = n; i-- > 0;) {
		xl->first[l[i].id] = i;
		xl->total[l[i].id] += l[i].samples;
	}
}

/* The line of frame id at file and line, which settle_lines() made. */
static size_t
line_index(const struct xlines *xl, size_t id, const char *file,
    uint32_t line)
{
	size_t i;

	if (xl->first == NULL)
		return SIZE_MAX;
	for (i = xl->first[id]; i < xl->nlines && xl->lines[i].id == id;
	    i++)
		if (xl->lines[i].line == line &&
		    xline_samefile(xl->lines[i].file, file))
			return i;
	return SIZE_MAX;
}

/* One line of frame id, to be settled. */
static void
add_line(struct xlines *xl, size_t id, const char *file, uint32_t line,
    uint64_t addr, double s)
{
	struct xline *l;

	xl->lines = xgrow(xl->lines, &xl->linecap, xl->nlines, 1,
	    sizeof(*xl->lines));
	l = &xl->lines[xl->nlines++];
	l->id = id;
	l->file = file;
	l->line = line;
	l->addr = addr;
	l->samples = s;
}

/* A call site, its line to be found once the lines are settled. */
struct rawsite {
	size_t		 from, to;
	const char	*file;		/* NULL: at no line */
	uint32_t	 line;
	uint64_t	 calls;
	double		 weight;
};

struct rawsites {
	struct rawsite	*v;
	size_t		 n, cap;
};

static void
add_raw(struct rawsites *rs, size_t from, size_t to, const char *file,
    uint32_t line, uint64_t calls, double weight)
{
	struct rawsite *r;

	rs->v = xgrow(rs->v, &rs->cap, rs->n, 1, sizeof(*rs->v));
	r = &rs->v[rs->n++];
	r->from = from;
	r->to = to;
	r->file = file;
	r->line = line;
	r->calls = calls;
	r->weight = weight;
}

/*
 * The stacks' call sites: in each stack of the report's graph, the
 * caller frame's place (its return address less one) under the
 * outermost frame of each function, with the stack's samples -- the
 * call line export/callgrind.c puts the stack's samples on, placed at
 * the line of the call that made it.  A call line that took no
 * samples of its own joins its frame's lines with none, so that the
 * site has a line to be at.  (A kernel stack's innermost user frame is
 * the sampled pc, which is where its system call was made.)
 */
static void
stack_sites(struct xlines *xl, struct rawsites *rs, const struct xset *x,
    struct srclines *sl)
{
	const struct graph *g = &x->r->g;
	const struct cgstack *s;
	const struct frame *pc;
	const struct dwline *dl;
	const size_t *id;
	const char *file;
	uint32_t line;
	size_t *mark, i, j, to, from;

	if (x->flat || g->pcs == NULL)
		return;
	xl->stacked = 1;
	mark = xcalloc(x->nlabels + 1, sizeof(*mark));
	for (i = 0; i < g->nstacks; i++) {
		s = &g->stacks[i];
		if (s->depth == 0 || s->scaled <= 0)
			continue;
		id = g->ids + s->first;
		for (j = s->depth; j-- > 0;) {		/* root first */
			to = id[j] == ROW_NONE ? X_UNKNOWN(x) : id[j];
			if (mark[to] == i + 1)
				continue;
			mark[to] = i + 1;
			if (j + 1 >= s->depth || id[j + 1] == ROW_NONE)
				continue;
			from = id[j + 1];
			pc = &g->pcs[s->first + j + 1];
			file = NULL;
			line = 0;
			if (pc->obj == OBJ_NONE ||
			    (dl = object_lines(sl, pc->obj)) == NULL ||
			    !dwline_find(dl, pc->addr, &file, &line) ||
			    file == NULL)
				file = NULL;
			else
				add_line(xl, from, file, line, pc->addr, 0);
			add_raw(rs, from, to, file, line, 0, s->scaled);
		}
	}
	free(mark);
}

/* The raw sites as xl's sites, sorted, one a pair and line. */
static void
settle_sites(struct xlines *xl, struct rawsites *rs)
{
	const struct rawsite *r;
	struct xsite *st;
	size_t i, k, n = 0;

	for (i = 0; i < rs->n; i++) {
		r = &rs->v[i];
		k = r->file == NULL ? SIZE_MAX :
		    line_index(xl, r->from, r->file, r->line);
		if (k == SIZE_MAX && r->weight <= 0)
			continue;
		xl->sites = xgrow(xl->sites, &xl->sitecap, xl->nsites, 1,
		    sizeof(*xl->sites));
		st = &xl->sites[xl->nsites++];
		st->from = r->from;
		st->to = r->to;
		st->line = k;
		st->calls = r->calls;
		st->weight = r->weight;
	}
	if (xl->nsites > 1)
		qsort(xl->sites, xl->nsites, sizeof(*xl->sites), cmp_xsite);
	for (i = 0; i < xl->nsites; i++) {
		st = &xl->sites[i];
		if (n > 0 && cmp_xsite(&xl->sites[n - 1], st) == 0) {
			addsat(&xl->sites[n - 1].calls, st->calls);
			xl->sites[n - 1].weight += st->weight;
			continue;
		}
		xl->sites[n++] = *st;
	}
	xl->nsites = n;
	free(rs->v);
}

/*
 * xl made for set x: every line with a file of a frame's function, its
 * samples there, each line in the file the line table names (code
 * inlined from a header on the header's line); the calls of every
 * counted call site between two frames; and, where the set has stacks,
 * the samples of each call site by the stacks' return addresses.  A
 * frame whose function has no line table has no lines.  The tables and
 * the lines are sl's, which must outlive xl.
 */
void
xlines_make(struct xlines *xl, const struct xset *x, struct srclines *sl)
{
	struct lines *ls = &sl->ls;
	struct rawsites rs;
	const struct lrow *w;
	const struct lcall *c;
	size_t i, id, to;

	memset(xl, 0, sizeof(*xl));
	memset(&rs, 0, sizeof(rs));
	lines_fill(ls, NULL);
	for (i = 0; i < ls->nrows; i++) {
		w = &ls->rows[i];
		if (w->file == NULL ||
		    (id = lines_row(ls, w->obj, w->entry)) == ROW_NONE)
			continue;
		add_line(xl, id, w->file, w->line, w->addr, w->samples);
	}
	for (i = 0; i < ls->ncalls; i++) {
		c = &ls->calls[i];
		w = &ls->rows[c->row];
		if (w->file == NULL ||
		    (id = lines_row(ls, w->obj, w->entry)) == ROW_NONE ||
		    (to = lines_row(ls, c->cobj, c->centry)) == ROW_NONE)
			continue;
		add_raw(&rs, id, to, w->file, w->line, c->calls, 0);
	}
	stack_sites(xl, &rs, x, sl);
	settle_lines(xl, x->nlabels);
	settle_sites(xl, &rs);
}

/* The call sites from frame from to frame to: the first, and *n. */
size_t
xlines_sites(const struct xlines *xl, size_t from, size_t to, size_t *n)
{
	size_t lo = 0, hi = xl->nsites, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (xl->sites[mid].from < from || (xl->sites[mid].from ==
		    from && xl->sites[mid].to < to))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (*n = 0; lo + *n < xl->nsites && xl->sites[lo + *n].from == from &&
	    xl->sites[lo + *n].to == to; (*n)++)
		;
	return lo;
}

void
xlines_free(struct xlines *xl)
{
	free(xl->lines);
	free(xl->first);
	free(xl->total);
	free(xl->sites);
	memset(xl, 0, sizeof(*xl));
}
