/*
 * srcline.c -- source files and lines for the formats that hold them
 * (pprof.c, callgrind.c, folded.c with -L).
 *
 * A frame's function has the source file and line of the line table's
 * row at its entry (dwline.c), the line of its opening, near enough to
 * the declaration for a viewer to show the function.  And a frame has
 * its own time by line, and its counted calls by call site
 * (xlines_make()): model/lines.c's lines, each found its frame by its
 * function's entry.  The line tables are model/lines.c's, read once
 * for both, on first use, from the file an object's functions came
 * from: its debug file, when they came from one.  A file that cannot
 * be read has no lines; one whose table is partly malformed, the lines
 * of the rest, and a warning.
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

static int
cmp_xline(const void *a, const void *b)
{
	const struct xline *u = a, *v = b;

	if (u->id != v->id)
		return u->id < v->id ? -1 : 1;
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

/* The lines of xl, sorted, one per frame and line, samples summed. */
static void
settle_lines(struct xlines *xl, size_t nids)
{
	struct xline *l = xl->lines;
	size_t i, n = 0;

	if (xl->nlines > 1)
		qsort(l, xl->nlines, sizeof(*l), cmp_xline);
	for (i = 0; i < xl->nlines; i++) {
		if (n > 0 && l[n - 1].id == l[i].id &&
		    l[n - 1].line == l[i].line) {
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

/* The line of frame id numbered line, which settle_lines() made. */
static size_t
line_index(const struct xlines *xl, size_t id, uint32_t line)
{
	size_t i;

	for (i = xl->first[id]; i < xl->nlines && xl->lines[i].id == id;
	    i++)
		if (xl->lines[i].line == line)
			return i;
	return SIZE_MAX;
}

/* One line of frame id, to be settled. */
static void
add_line(struct xlines *xl, size_t id, const struct lrow *w, double s)
{
	struct xline *l;

	xl->lines = xgrow(xl->lines, &xl->linecap, xl->nlines, 1,
	    sizeof(*xl->lines));
	l = &xl->lines[xl->nlines++];
	l->id = id;
	l->line = w->line;
	l->addr = w->addr;
	l->samples = s;
}

/*
 * xl made for set x: every line with a file of a frame's function, its
 * samples there; and the calls of every counted call site between two
 * frames.  A frame whose function has no line table has no lines.  The
 * tables and the lines are sl's, which must outlive xl.
 */
void
xlines_make(struct xlines *xl, const struct xset *x, struct srclines *sl)
{
	struct lines *ls = &sl->ls;
	const struct lrow *w;
	const struct lcall *c;
	struct xsite *st;
	size_t i, id, to, k;

	memset(xl, 0, sizeof(*xl));
	lines_fill(ls, NULL);
	for (i = 0; i < ls->nrows; i++) {
		w = &ls->rows[i];
		if (w->file == NULL ||
		    (id = lines_row(ls, w->obj, w->entry)) == ROW_NONE)
			continue;
		add_line(xl, id, w, w->samples);
	}
	settle_lines(xl, x->nlabels);
	for (i = 0; i < ls->ncalls; i++) {
		c = &ls->calls[i];
		w = &ls->rows[c->row];
		if (w->file == NULL ||
		    (id = lines_row(ls, w->obj, w->entry)) == ROW_NONE ||
		    (to = lines_row(ls, c->cobj, c->centry)) == ROW_NONE ||
		    (k = line_index(xl, id, w->line)) == SIZE_MAX)
			continue;
		xl->sites = xgrow(xl->sites, &xl->sitecap, xl->nsites, 1,
		    sizeof(*xl->sites));
		st = &xl->sites[xl->nsites++];
		st->from = id;
		st->to = to;
		st->line = k;
		st->calls = c->calls;
	}
	if (xl->nsites > 1)
		qsort(xl->sites, xl->nsites, sizeof(*xl->sites), cmp_xsite);
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
