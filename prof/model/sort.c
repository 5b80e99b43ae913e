/*
 * sort.c -- the report's rows in the order the options ask for.
 *
 * -t (the default) by time, -c by calls, -n by name, -a by address: the
 * program first, then each object in turn.  Every order ends with name,
 * object and address, so that two runs print equal rows alike.  -C
 * puts every name through the demangler first, so that -n sorts the
 * names as printed.  The rows keep their ids, and byid finds a row by
 * id after the sort, for the call graph and the writers.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

static const char *
first_name(const struct row *w)
{
	return w->nnames > 0 ? w->names[0] : "";
}

/* The last resort of every order: name, object, address. */
static int
cmp_tail(const struct row *a, const struct row *b)
{
	int c;

	if ((c = strcmp(first_name(a), first_name(b))) != 0)
		return c;
	if (a->objidx != b->objidx)
		return a->objidx < b->objidx ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return 0;
}

static int
cmp_time(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return cmp_tail(a, b);
}

static int
cmp_calls(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return cmp_tail(a, b);
}

static int
cmp_name(const void *x, const void *y)
{
	return cmp_tail(x, y);
}

/* Increasing address, the program first, then each object in turn. */
static int
cmp_addr(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (a->objidx != b->objidx)
		return a->objidx < b->objidx ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return cmp_tail(a, b);
}

static void
sort_rows(struct report *r, int how)
{
	int (*cmp)(const void *, const void *);

	switch (how) {
	case 'a':
		cmp = cmp_addr;
		break;
	case 'c':
		cmp = cmp_calls;
		break;
	case 'n':
		cmp = cmp_name;
		break;
	default:
		cmp = cmp_time;
		break;
	}
	if (r->nrows > 0)
		qsort(r->rows, r->nrows, sizeof(*r->rows), cmp);
}

/* -C: every name of every row through the demangler at once. */
static void
demangle_rows(struct report *r)
{
	const char **v;
	size_t i, k, n;

	for (i = 0, n = 0; i < r->nrows; i++)
		n += r->rows[i].nnames;
	v = xcalloc(n, sizeof(*v));
	for (i = 0, n = 0; i < r->nrows; i++)
		for (k = 0; k < r->rows[i].nnames; k++)
			v[n++] = r->rows[i].names[k];
	demangle(v, n);
	for (i = 0, n = 0; i < r->nrows; i++)
		for (k = 0; k < r->rows[i].nnames; k++)
			r->rows[i].names[k] = v[n++];
	free(v);
}

/*
 * Demangle and sort the rows as the options say, and index them by id
 * for the call graph.
 */
void
report_sort(struct report *r, const struct opts *o)
{
	size_t i;

	if (o->demangle)
		demangle_rows(r);
	sort_rows(r, o->sort);
	free(r->byid);
	r->byid = xcalloc(r->nrows + 1, sizeof(*r->byid));
	for (i = 0; i < r->nrows; i++)
		r->byid[r->rows[i].id] = &r->rows[i];
}
