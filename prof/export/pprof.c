/*
 * pprof.c -- prof -F pprof: profile.proto, gzipped (gzip.c), as profile
 * ingest services take it and pprof reads it.
 *
 * The message is written by the small protobuf encoder below: varints
 * and length-delimited fields, a nested message built in a buffer of
 * its own and then copied in with its length.  What goes in:
 *
 *	sample_type	samples/count, cpu/nanoseconds, calls/count,
 *			wall/nanoseconds where the files have wall
 *			samples (PROFMODE=wall), and measured/nanoseconds
 *			where they have calls timed one by one with their
 *			stacks (-finstrument-functions)
 *	sample		a stack: locations leaf first, its samples and
 *			their nanoseconds, 0 calls
 *			a counted arc: [callee, caller], 0 samples, 0 ns,
 *			its calls -- exact, as mcount counted them
 *			a wall stack (wallset.c): 0 samples, ns and
 *			calls, its thread-nanoseconds of wall time; its
 *			frames locations and functions of their own
 *			a measured stack (ctxset.c): its calls' self
 *			time, wall nanoseconds measured call by call
 *	location	one a frame: its function and line, its
 *			object's mapping, and an address in it; and
 *			one a source line of a frame's function
 *			(srcline.c), whose function is the frame's, or
 *			for a line of another file (a header's code
 *			inlined) one of the same names in that file
 *	function	one a frame: the name the report gives it
 *			less the object, which the mapping holds (but
 *			for a name functions of two objects share), and
 *			the source file and line of its entry by the
 *			line table (srcline.c); none without debug
 *			information -- never the object's path
 *	mapping		one an object: path, build-id (hex),
 *			has_functions set, since every location is named
 *	period		cpu/nanoseconds, the period of a sample
 *	time_nanos	the run's start, and its wall time, where the
 *	duration_nanos	files give them (monx_run.start_ns, wall_ns)
 *	comment		what calls/count is; libmon's overhead, which no
 *			sample holds (stacks.c)
 *	default_sample_type	cpu; wall with -w, measured with -M
 *
 * so that "pprof -top" shows the time and "pprof -sample_index=calls
 * -top" the exact calls of each function (flat) and, in the graph
 * views, of each arc.  prof has link-time addresses of objects that a
 * run loaded at several places; pprof wants mappings that do not
 * overlap.  So each object is given a range of its own, at (index + 1)
 * << 40, and a location's address less its mapping's start is the
 * function's link-time address in the object (file_offset 0).
 *
 * -d writes two profiles in one, the new one's samples as above and
 * the base's negative and labelled pprof::base=true, with ids and
 * mappings of their own after the new one's: what pprof's -diff_base
 * makes of the two files internally (it scales the base by -1, labels
 * it, and merges; the label makes the base's total the one shares are
 * of), so that "pprof -top" of the one file shows what "pprof
 * -diff_base base -top new" shows.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

#define OBJ_BASE(i)	(((uint64_t)(i) + 1) << 40)
/* Location ids of lines: after any frame's, the base's after those. */
#define LINE_LOC(e, k)	((1ULL << 62) + ((e)->neg ? 1ULL << 61 : 0) + \
			    (uint64_t)(k) + 1)
/* Function ids of a frame's lines in another file: as their locations. */
#define LINE_FN(e, k)	LINE_LOC(e, k)

/* Wire types. */
#define WT_VARINT	0
#define WT_LEN		2

/* A growing buffer of encoded bytes. */
struct pb {
	unsigned char	*p;
	size_t		 len, cap;
};

/* The encoder's state: the message, a nested one, the strings. */
struct enc {
	const struct xset *x;
	struct pb	 out;
	struct pb	 sub;
	struct pb	 packed;
	struct pb	 strs;		/* string_table entries, encoded */
	int64_t		 nstrs;
	struct srclines	 src;		/* x's source files and lines */
	struct xlines	 xl;		/* and its frames' time by line */
	uint64_t	 idoff;		/* -d: the base's ids and objects */
	const struct xset *wx;		/* the wall samples, or NULL */
	const struct xset *mx;		/* the measured stacks, or NULL */
	uint64_t	 walloff;	/* their ids after the CPU ones */
	uint64_t	 objoff;	/* come after the new profile's, */
	int		 neg;		/* and its values are negative, */
	int64_t		 base[2];	/* labelled pprof::base=true */
};

static void
pb_put(struct pb *b, const void *v, size_t n)
{
	b->p = xgrow(b->p, &b->cap, b->len, n, 1);
	memcpy(b->p + b->len, v, n);
	b->len += n;
}

static void
pb_varint(struct pb *b, uint64_t v)
{
	unsigned char c[10];
	size_t n = 0;

	do {
		c[n] = v & 0x7f;
		v >>= 7;
		if (v != 0)
			c[n] |= 0x80;
		n++;
	} while (v != 0);
	pb_put(b, c, n);
}

static void
pb_uint(struct pb *b, unsigned field, uint64_t v)
{
	pb_varint(b, (uint64_t)field << 3 | WT_VARINT);
	pb_varint(b, v);
}

static void
pb_bytes(struct pb *b, unsigned field, const void *v, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | WT_LEN);
	pb_varint(b, n);
	pb_put(b, v, n);
}

/* Message sub as field of b; sub is emptied for the next. */
static void
pb_msg(struct pb *b, unsigned field, struct pb *sub)
{
	pb_bytes(b, field, sub->p, sub->len);
	sub->len = 0;
}

/* The index of a new string in the string table. */
static int64_t
str(struct enc *e, const char *s)
{
	pb_bytes(&e->strs, 6, s, strlen(s));
	return e->nstrs++;
}

/* A ValueType as field of the profile. */
static void
value_type(struct enc *e, unsigned field, const char *type,
    const char *unit)
{
	pb_uint(&e->sub, 1, (uint64_t)str(e, type));
	pb_uint(&e->sub, 2, (uint64_t)str(e, unit));
	pb_msg(&e->out, field, &e->sub);
}

/*
 * A sample of locs (location ids, leaf first) and three values, and
 * the wall time (v3) and the measured time (v4) where the profile has
 * them.
 */
static void
sample(struct enc *e, const uint64_t *locs, size_t n, uint64_t v0,
    uint64_t v1, uint64_t v2, uint64_t v3, uint64_t v4)
{
	size_t i;

	for (i = 0; i < n; i++)
		pb_varint(&e->packed, locs[i]);
	pb_msg(&e->sub, 1, &e->packed);
	if (e->neg) {	/* int64 on the wire: two's complement */
		v0 = -v0;
		v1 = -v1;
		v2 = -v2;
	}
	pb_varint(&e->packed, v0);
	pb_varint(&e->packed, v1);
	pb_varint(&e->packed, v2);
	if (e->wx != NULL)
		pb_varint(&e->packed, v3);
	if (e->mx != NULL)
		pb_varint(&e->packed, v4);
	pb_msg(&e->sub, 2, &e->packed);
	if (e->neg) {
		pb_uint(&e->packed, 1, (uint64_t)e->base[0]);
		pb_uint(&e->packed, 2, (uint64_t)e->base[1]);
		pb_msg(&e->sub, 3, &e->packed);
	}
	pb_msg(&e->out, 2, &e->sub);
}

/*
 * Stack s, its leaf id locs[0], as one sample a line of the leaf's
 * function, in proportion of the function's own samples there (the
 * merged stacks keep no address): 1, or 0 when it has no lines.  The
 * counts are rounded on a running sum, so that they add up to the
 * stack's.
 */
static int
by_line(struct enc *e, const struct xstack *s, uint64_t *locs, double ns,
    double *cum)
{
	const struct xlines *xl = &e->xl;
	size_t leaf, k;
	double tot, cc = 0, part;
	uint64_t n, v;

	if (s->depth == 0)
		return 0;
	leaf = e->x->ids[s->first + s->depth - 1];	/* root first */
	if (leaf >= e->x->nlabels || xl->first[leaf] >= xl->nlines ||
	    (tot = xl->total[leaf]) <= 0)
		return 0;
	for (k = xl->first[leaf]; k < xl->nlines && xl->lines[k].id == leaf;
	    k++) {
		part = xl->lines[k].samples / tot;
		n = xset_round((double)s->count * part, &cc);
		v = xset_round(s->samples * part * ns, cum);
		if (n == 0 && v == 0)
			continue;
		locs[0] = LINE_LOC(e, k);
		sample(e, locs, s->depth, n, v, 0, 0, 0);
	}
	return 1;
}

/* Every stack, leaf first, with its samples and nanoseconds. */
static void
stack_samples(struct enc *e)
{
	const struct xset *x = e->x;
	const struct xstack *s;
	uint64_t *locs;
	double ns = x->p->period * 1e9, cum = 0;
	size_t i, j, maxd = 1;

	for (i = 0; i < x->nstacks; i++)
		if (x->stacks[i].depth > maxd)
			maxd = x->stacks[i].depth;
	locs = xcalloc(maxd, sizeof(*locs));
	for (i = 0; i < x->nstacks; i++) {
		s = &x->stacks[i];
		for (j = 0; j < s->depth; j++)
			locs[j] = x->ids[s->first + s->depth - 1 - j] + 1 +
			    e->idoff;
		if (!by_line(e, s, locs, ns, &cum))
			sample(e, locs, s->depth, s->count,
			    xset_round(s->samples * ns, &cum), 0, 0, 0);
	}
	free(locs);
}

/*
 * Every counted arc: callee and caller, with its calls; the caller at
 * the line of each call site, where the line tables have them.
 */
static void
call_samples(struct enc *e)
{
	const struct graph *g = &e->x->r->g;
	const struct cgarc *c;
	uint64_t locs[2], left, v;
	size_t i, k, n;

	for (i = 0; i < g->narcs; i++) {
		c = &g->arcs[i];
		if (!c->counted || c->calls == 0)
			continue;
		locs[0] = c->to + 1 + e->idoff;
		locs[1] = (c->from == ROW_NONE ? X_UNKNOWN(e->x) : c->from) +
		    1 + e->idoff;
		left = c->calls;
		if (c->from != ROW_NONE)
			for (k = xlines_sites(&e->xl, c->from, c->to, &n);
			    n > 0 && left > 0; k++, n--) {
				if (e->xl.sites[k].calls == 0 ||
				    e->xl.sites[k].line == SIZE_MAX)
					continue;
				v = e->xl.sites[k].calls < left ?
				    e->xl.sites[k].calls : left;
				locs[1] = LINE_LOC(e, e->xl.sites[k].line);
				sample(e, locs, 2, 0, 0, v, 0, 0);
				left -= v;
			}
		if (left > 0) {
			locs[1] = (c->from == ROW_NONE ? X_UNKNOWN(e->x) :
			    c->from) + 1 + e->idoff;
			sample(e, locs, 2, 0, 0, left, 0, 0);
		}
	}
}

static int
cmp_name(const void *a, const void *b)
{
	char *const *u = a, *const *v = b;

	return strcmp(*u, *v);
}

/*
 * The functions' names, by frame id: the report's without the object,
 * which the location's mapping holds, but for a name that functions of
 * two objects share -- pprof adds functions up by name, so those keep
 * their objects, as the report's rows do.
 */
static char **
fn_names(const struct xset *x)
{
	char **name, **sorted, *shared;
	const struct row *w;
	size_t id, i, j;

	name = xcalloc(x->nlabels + 1, sizeof(*name));
	sorted = xcalloc(x->nlabels + 1, sizeof(*sorted));
	for (id = 0; id < x->nlabels; id++) {
		w = xset_row(x, id);
		sorted[id] = name[id] = w != NULL ? row_name(w, ROWNAME_FILE) :
		    xstrdup(x->labels[id]);
	}
	qsort(sorted, x->nlabels, sizeof(*sorted), cmp_name);
	shared = xcalloc(x->nlabels + 1, 1);
	for (id = 0; id < x->nlabels; id++) {
		if ((w = xset_row(x, id)) == NULL || w->obj == NULL)
			continue;
		for (i = 0, j = x->nlabels; i < j; ) {	/* the first alike */
			if (strcmp(sorted[i + (j - i) / 2], name[id]) < 0)
				i += (j - i) / 2 + 1;
			else
				j = i + (j - i) / 2;
		}
		shared[id] = i + 1 < x->nlabels &&
		    strcmp(sorted[i + 1], name[id]) == 0;
	}
	for (id = 0; id < x->nlabels; id++)
		if (shared[id]) {
			free(name[id]);
			name[id] = xstrdup(x->labels[id]);
		}
	free(shared);
	free(sorted);
	return name;
}

/* What frames() gives line_locations() of each frame's function. */
struct fnames {
	int64_t		*name, *sysname;	/* string indexes */
	const char	**file;			/* of its entry, or NULL */
};

/*
 * A location for each source line of a frame's function that took
 * samples or made calls: the function, the line, and the line's first
 * address in the function's mapping.  A line of a file other than the
 * function's own (code inlined from a header) refers to a function of
 * the same names in that file, one a frame and file, which starts at
 * the frame's first line there: pprof's Line is a function's line, the
 * function's file being the line's, and that is how it shows inlined
 * code as well.
 */
static void
line_locations(struct enc *e, const struct fnames *fn)
{
	const struct xset *x = e->x;
	const struct xline *l;
	size_t k, obj, grp = 0;
	uint64_t fid;

	for (k = 0; k < e->xl.nlines; k++) {
		l = &e->xl.lines[k];
		if (k == 0 || l[-1].id != l->id ||
		    !xline_samefile(l[-1].file, l->file))
			grp = k;
		fid = l->id + 1 + e->idoff;
		if (!xline_samefile(l->file, fn->file[l->id])) {
			fid = LINE_FN(e, grp);
			if (grp == k) {
				pb_uint(&e->sub, 1, fid);
				pb_uint(&e->sub, 2, fn->name[l->id]);
				pb_uint(&e->sub, 3, fn->sysname[l->id]);
				if (l->file != NULL)
					pb_uint(&e->sub, 4, str(e, l->file));
				if (l->line > 0)
					pb_uint(&e->sub, 5, l->line);
				pb_msg(&e->out, 5, &e->sub);
			}
		}
		obj = xset_object(x, l->id);
		pb_uint(&e->sub, 1, LINE_LOC(e, k));
		if (obj < x->p->nobjs) {
			pb_uint(&e->sub, 2, obj + 1 + e->objoff);
			pb_uint(&e->sub, 3, OBJ_BASE(obj + e->objoff) +
			    l->addr);
		}
		pb_uint(&e->packed, 1, fid);
		pb_uint(&e->packed, 2, l->line);
		pb_msg(&e->sub, 4, &e->packed);
		pb_msg(&e->out, 4, &e->sub);
	}
}

/*
 * The line a frame's function starts at, for pprof -list, which shows
 * a function's lines from there on: its entry's, or its first line in
 * the same file if one comes before (a static function of the file
 * inlined into it).
 */
static uint32_t
start_line(const struct enc *e, size_t id, const char *file, uint32_t line)
{
	const struct xlines *xl = &e->xl;
	size_t k;

	if (id >= e->x->nlabels || file == NULL)
		return line;
	for (k = xl->first[id]; k < xl->nlines && xl->lines[k].id == id; k++)
		if (xl->lines[k].line > 0 && xl->lines[k].line < line &&
		    xline_samefile(xl->lines[k].file, file))
			line = xl->lines[k].line;
	return line;
}

/*
 * One location and one function, of the same id, a frame.  A frame is
 * a function, so its location is the function's entry, and the line
 * table's row there (srcline.c) gives both the function's file and
 * start line and the location's line.  No debug information: no file,
 * line 0.
 *
 * The name is fn_names()'; the system name, the symbol's own first
 * name.  They must differ wherever the name adds to the symbol's:
 * pprof takes a function whose two names are equal for one it may
 * shorten, and one with brackets or "::" in its name for a demangled
 * C++ one, whose parenthesised parameters it cuts -- the object
 * "(libc.so.6)" of "[unnamed code] (libc.so.6)" with them, so that
 * every object's unnamed code would print alike.  A name of its own
 * (the program's, a marker frame) is left to pprof as it would be.
 */
static void
frames(struct enc *e)
{
	const struct xset *x = e->x;
	const struct row *w;
	const char *file;
	char **fname, *own;
	struct fnames fn;
	uint32_t line;
	size_t id, obj;
	int64_t name, sysname;

	fname = fn_names(x);
	fn.name = xcalloc(x->nlabels + 1, sizeof(*fn.name));
	fn.sysname = xcalloc(x->nlabels + 1, sizeof(*fn.sysname));
	fn.file = xcalloc(x->nlabels + 1, sizeof(*fn.file));
	for (id = 0; id < x->nlabels; id++) {
		w = xset_row(x, id);
		obj = xset_object(x, id);
		name = sysname = str(e, fname[id]);
		if (w != NULL && w->nnames > 0) {
			own = printable(w->names[0]);
			if (strcmp(own, fname[id]) != 0)
				sysname = str(e, own);
			free(own);
		}
		free(fname[id]);
		srcline_find(&e->src, id, &file, &line);
		fn.name[id] = name;
		fn.sysname[id] = sysname;
		fn.file[id] = file;
		pb_uint(&e->sub, 1, id + 1 + e->idoff);
		pb_uint(&e->sub, 2, name);
		pb_uint(&e->sub, 3, sysname);
		if (file != NULL)
			pb_uint(&e->sub, 4, str(e, file));
		if (line > 0)
			pb_uint(&e->sub, 5, start_line(e, id, file, line));
		pb_msg(&e->out, 5, &e->sub);

		pb_uint(&e->sub, 1, id + 1 + e->idoff);
		if (obj < x->p->nobjs) {
			pb_uint(&e->sub, 2, obj + 1 + e->objoff);
			pb_uint(&e->sub, 3, OBJ_BASE(obj + e->objoff) +
			    w->addr);
		}
		pb_uint(&e->packed, 1, id + 1 + e->idoff);
		if (line > 0)
			pb_uint(&e->packed, 2, line);
		pb_msg(&e->sub, 4, &e->packed);
		pb_msg(&e->out, 4, &e->sub);
	}
	free(fname);
	line_locations(e, &fn);
	free(fn.name);
	free(fn.sysname);
	free(fn.file);
}

/*
 * The stacks of set xs (the wall ones, or the measured ones), leaf
 * first, each a sample of its nanoseconds as the value after the CPU
 * ones that is the set's (v3: wall, v4: measured).  A frame of a row,
 * or one of the X_FIXED no row stands for, is the CPU stacks' location
 * and function of that id (frames()), so that a function is one
 * function of the profile whichever the sample type; the wall set's
 * own frames come after them (wall_frames()).
 */
static void
set_samples(struct enc *e, const struct xset *xs, int v4)
{
	const struct xstack *s;
	uint64_t *locs, ns;
	double cum = 0;
	size_t i, j, id, maxd = 1, first = xs->r->nrows + X_FIXED;

	for (i = 0; i < xs->nstacks; i++)
		if (xs->stacks[i].depth > maxd)
			maxd = xs->stacks[i].depth;
	locs = xcalloc(maxd, sizeof(*locs));
	for (i = 0; i < xs->nstacks; i++) {
		s = &xs->stacks[i];
		ns = xset_round(s->samples * xs->period * 1e9, &cum);
		for (j = 0; j < s->depth; j++) {
			id = xs->ids[s->first + s->depth - 1 - j];
			locs[j] = id + 1 + (id < first ? e->idoff :
			    e->walloff);
		}
		sample(e, locs, s->depth, 0, 0, 0, v4 ? 0 : ns, v4 ? ns : 0);
	}
	free(locs);
}


/*
 * The wall stacks' own frames, a location and a function each: marker
 * frames (the system call waited in, a stack not kept), of no mapping.
 */
static void
wall_frames(struct enc *e)
{
	const struct xset *wx = e->wx;
	size_t id, first, obj;
	int64_t name;

	first = wx->r->nrows + X_FIXED;
	for (id = first; id < wx->nlabels; id++) {
		obj = xset_object(wx, id);
		name = str(e, wx->labels[id]);
		pb_uint(&e->sub, 1, id + 1 + e->walloff);
		pb_uint(&e->sub, 2, name);
		pb_uint(&e->sub, 3, name);
		pb_msg(&e->out, 5, &e->sub);

		pb_uint(&e->sub, 1, id + 1 + e->walloff);
		if (obj < wx->p->nobjs) {
			pb_uint(&e->sub, 2, obj + 1);
			pb_uint(&e->sub, 3, OBJ_BASE(obj) +
			    wx->addrs[id - first]);
		}
		pb_uint(&e->packed, 1, id + 1 + e->walloff);
		pb_msg(&e->sub, 4, &e->packed);
		pb_msg(&e->out, 4, &e->sub);
	}
}

/* The build-id as hex, as pprof keeps it. */
static int64_t
build_id(struct enc *e, const struct object *o)
{
	static const char hex[] = "0123456789abcdef";
	char *s;
	size_t i;
	int64_t k;

	if (o->id == NULL || o->idlen == 0)
		return 0;
	s = xcalloc(2, o->idlen + 1);
	for (i = 0; i < o->idlen; i++) {
		s[2 * i] = hex[o->id[i] >> 4];
		s[2 * i + 1] = hex[o->id[i] & 15];
	}
	k = str(e, s);
	free(s);
	return k;
}

/*
 * A mapping an object, the program's first, as pprof expects; after
 * frames(), which says which have source files and lines.
 */
static void
mappings(struct enc *e)
{
	const struct xset *x = e->x;
	const struct object *o;
	uint64_t *top;
	size_t i, obj;

	top = xcalloc(x->p->nobjs + 1, sizeof(*top));
	for (i = 0; i < x->r->nrows; i++) {
		obj = x->r->rows[i].objidx;
		if (obj < x->p->nobjs && x->r->rows[i].addr >= top[obj])
			top[obj] = x->r->rows[i].addr + 1;
	}
	for (i = 0; i < e->xl.nlines; i++) {
		obj = xset_object(x, e->xl.lines[i].id);
		if (obj < x->p->nobjs && e->xl.lines[i].addr >= top[obj])
			top[obj] = e->xl.lines[i].addr + 1;
	}
	/* The wall frames' too, which may be of functions no row has. */
	for (i = e->wx != NULL ? x->r->nrows + X_FIXED : 0; e->wx != NULL &&
	    i < e->wx->nlabels; i++) {
		obj = xset_object(e->wx, i);
		if (obj < x->p->nobjs && e->wx->addrs[i - x->r->nrows - X_FIXED] >=
		    top[obj])
			top[obj] = e->wx->addrs[i - x->r->nrows - X_FIXED] + 1;
	}
	for (i = 0; i < x->p->nobjs; i++) {
		o = &x->p->objs[i];
		pb_uint(&e->sub, 1, i + 1 + e->objoff);
		pb_uint(&e->sub, 2, OBJ_BASE(i + e->objoff));
		pb_uint(&e->sub, 3, OBJ_BASE(i + e->objoff) + top[i] + 1);
		pb_uint(&e->sub, 5, str(e, o->path));
		pb_uint(&e->sub, 6, build_id(e, o));
		pb_uint(&e->sub, 7, 1);
		/* has_filenames, has_line_numbers: frames() found some. */
		if (srcline_used(&e->src, i)) {
			pb_uint(&e->sub, 8, 1);
			pb_uint(&e->sub, 9, 1);
		}
		pb_msg(&e->out, 3, &e->sub);
	}
	free(top);
}

/*
 * The message gzipped, and written: what ingest services (Pyroscope,
 * Parca, Cloud Profiler) take, and pprof reads it as well.
 */
static int
put(struct enc *e, FILE *fp, const char **why)
{
	unsigned char *z;
	size_t n;
	int rc = 0;

	pb_put(&e->out, e->strs.p, e->strs.len);
	z = gzip_encode(e->out.p, e->out.len, &n);
	if (fwrite(z, 1, n, fp) != n) {
		*why = strerror(errno);
		rc = -1;
	}
	free(z);
	return rc;
}

/* The profile of x, and with -d that of base, its values negative. */
static void
profiles(struct enc *e, const struct xset *x, const struct xset *base)
{
	e->x = x;
	srcline_init(&e->src, x);
	xlines_make(&e->xl, x, &e->src);
	stack_samples(e);
	call_samples(e);
	frames(e);
	if (e->wx != NULL) {
		e->walloff = x->nlabels;
		set_samples(e, e->wx, 0);
		wall_frames(e);
	}
	if (e->mx != NULL)
		set_samples(e, e->mx, 1);
	mappings(e);
	xlines_free(&e->xl);
	srcline_free(&e->src);
	if (base == NULL)
		return;
	e->idoff = x->nlabels;
	e->objoff = x->p->nobjs;
	e->neg = 1;
	e->base[0] = str(e, "pprof::base");
	e->base[1] = str(e, "true");
	profiles(e, base, NULL);
	e->x = x;
}

static int
write_pprof(const struct xset *x, const struct xset *base, FILE *fp,
    const char **why)
{
	const struct monx_run *run = &x->p->sum;
	struct xset wx, mx;
	struct enc e;
	int64_t cpu, wall, measured;
	char *o;
	int rc;

	memset(&e, 0, sizeof(e));
	e.x = x;
	/* Wall samples beside, where there are some; not in a -d. */
	if (base == NULL && x->p->wallfiles > 0) {
		xset_make_wall(&wx, x->r, x->p, x->o, x->prog);
		e.wx = &wx;
	}
	/*
	 * And the measured stacks, where there are some; not in a -d, nor
	 * under -f, whose rows are the focus's (the contexts' are the
	 * whole report's).
	 */
	if (base == NULL && x->r->ntctx > 0 && x->o->focus == NULL) {
		xset_make_measured(&mx, x->r, x->p, x->o, x->prog);
		e.mx = &mx;
	}
	str(&e, "");
	value_type(&e, 1, "samples", "count");
	cpu = e.nstrs;
	value_type(&e, 1, "cpu", "nanoseconds");
	value_type(&e, 1, "calls", "count");
	wall = e.nstrs;
	if (e.wx != NULL)
		value_type(&e, 1, "wall", "nanoseconds");
	measured = e.nstrs;
	if (e.mx != NULL)
		value_type(&e, 1, "measured", "nanoseconds");
	profiles(&e, x, base);
	/* The run's wall-clock span; files that do not give it: none. */
	if (x->p->anyrun && run->start_ns != 0) {
		pb_uint(&e.out, 9, run->start_ns);
		pb_uint(&e.out, 10, run->wall_ns);
	}
	value_type(&e, 11, "cpu", "nanoseconds");
	pb_uint(&e.out, 12, (uint64_t)(x->p->period * 1e9 + 0.5));
	pb_uint(&e.out, 13, str(&e, "libmon prof: calls/count samples "
	    "are exact call counts, one a counted arc, callee then caller"));
	if ((o = xset_overhead(x)) != NULL) {	/* in no sample */
		pb_uint(&e.out, 13, str(&e, o));
		free(o);
	}
	if (e.wx != NULL)
		pb_uint(&e.out, 13, str(&e, "libmon prof: wall/nanoseconds "
		    "samples are every thread's wall time, running or "
		    "waiting (PROFMODE=wall); a waiting stack ends in a frame "
		    "naming its system call"));
	if (e.mx != NULL)
		pb_uint(&e.out, 13, str(&e, "libmon prof: measured/nanoseconds "
		    "samples are the wall time of the calls timed one by one "
		    "(-finstrument-functions), each calling context's own"));
	pb_uint(&e.out, 14, e.mx != NULL && x->o->measured ? measured :
	    e.wx != NULL && x->o->wall ? wall : cpu);
	rc = put(&e, fp, why);
	if (e.wx != NULL)
		xset_free(&wx);
	if (e.mx != NULL)
		xset_free(&mx);
	free(e.out.p);
	free(e.sub.p);
	free(e.packed.p);
	free(e.strs.p);
	return rc;
}

int
export_pprof(const struct xset *x, FILE *fp, const char **file,
    const char **why)
{
	(void)file;
	return write_pprof(x, NULL, fp, why);
}

/* -d: x's profile less base's, in one file. */
int
export_pprof_diff(const struct xset *x, const struct xset *base, FILE *fp,
    const char **file, const char **why)
{
	(void)file;
	return write_pprof(x, base, fp, why);
}
