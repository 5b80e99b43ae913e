/*
 * srcline.c -- the source file and line of an exported frame's
 * function, for the formats that hold one (pprof.c, callgrind.c): the
 * line table's row at the function's entry (dwline.c), the line of its
 * opening, near enough to the declaration for a viewer to show the
 * function.  Each object's table is read once, on first use, from the
 * file its functions came from: its debug file, when they came from
 * one.  A file that cannot be read has no lines; one whose table is
 * partly malformed, the lines of the rest, and a warning.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

/* One object's line table. */
struct objlines {
	struct dwline	 dl;
	int		 tried;		/* read, or tried to be */
	int		 ok;		/* and dl holds it */
	int		 used;		/* a frame's file came from it */
};

void
srcline_init(struct srclines *sl, const struct xset *x)
{
	sl->x = x;
	sl->objs = xcalloc(x->p->nobjs + 1, sizeof(*sl->objs));
}

/* The line table of object obj, or NULL: read the first time. */
static const struct dwline *
object_lines(struct srclines *sl, size_t obj)
{
	const struct xset *x = sl->x;
	const struct symtab *st;
	struct objlines *l;
	const char *path, *why;
	char *s;

	if (obj >= x->p->nobjs || x->p->objs[obj].jitpid != 0)
		return NULL;
	l = &sl->objs[obj];
	if (l->tried)
		return l->ok ? &l->dl : NULL;
	l->tried = 1;
	if ((st = report_symtab(x->r, obj)) == NULL)
		return NULL;
	path = st->debug != NULL ? st->debug : st->path;
	l->ok = dwline_load(&l->dl, path, &why) == 0;
	if (l->ok && l->dl.packed != NULL) {
		s = printable(path);
		warnx("warning: %s: .debug_line: %s; no source lines from it",
		    s, l->dl.packed);
		free(s);
	}
	if (l->ok && l->dl.nbad > 0) {
		s = printable(path);
		warnx("warning: %s: .debug_line: %s; %zu line table%s "
		    "skipped", s, l->dl.why, l->dl.nbad,
		    l->dl.nbad == 1 ? "" : "s");
		free(s);
	}
	return l->ok ? &l->dl : NULL;
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
	sl->objs[obj].used = 1;
	return 1;
}

/* Did srcline_find() name a file from object obj's table? */
int
srcline_used(const struct srclines *sl, size_t obj)
{
	return obj < sl->x->p->nobjs && sl->objs[obj].used;
}

/* The tables given back. */
void
srcline_free(struct srclines *sl)
{
	size_t i;

	for (i = 0; sl->objs != NULL && i < sl->x->p->nobjs; i++)
		if (sl->objs[i].ok)
			dwline_free(&sl->objs[i].dl);
	free(sl->objs);
	sl->objs = NULL;
}
