/*
 * sort.c -- the report's rows in the order the options ask for.
 *
 * -t (the default) by time, -c by calls, -n by name, -a by address: the
 * program first, then each object in turn; -I by inclusive time, the
 * figure -i prints (measured, or gprof's estimate, else none), then by
 * time.  Every order ends with name,
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
	if (a->byname != b->byname)
		return a->byname < b->byname ? -1 : 1;
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

/* For the C11 qsort below: the report whose rows cmp_incl() sorts. */
static const struct report *sortrep;

/* A row's inclusive time, as -i prints it: 0 where it prints a dash. */
static double
incl_of(const struct row *w)
{
	if (w->timed && sortrep->period > 0)
		return w->measured / sortrep->period;
	if (sortrep->g.sampled)
		return graph_incl(sortrep, w);
	return graph_rowest(sortrep, w);
}

static int
cmp_incl(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	double u = incl_of(a), v = incl_of(b);

	if (u != v)
		return u > v ? -1 : 1;
	return cmp_time(x, y);
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

/* For the C11 qsort below: the rows and their order. */
static const struct row *sortrows;
static int (*sortcmp)(const void *, const void *);

/* Rows by the order, then by where they were: a stable sort. */
static int
cmp_index(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c;

	if ((c = sortcmp(&sortrows[i], &sortrows[j])) != 0)
		return c;
	return i < j ? -1 : i > j;
}

/*
 * Put row ord[i] at i for every i, moving the rows cycle by cycle, so
 * that a sort's own copies are of an index, not of a row, and need no
 * second array of rows.  Frees ord.
 */
static void
apply_order(struct report *r, size_t *ord)
{
	struct row tmp;
	size_t i, j, k;

	for (i = 0; i < r->nrows; i++) {
		if (ord[i] == i)
			continue;
		tmp = r->rows[i];
		for (j = i; (k = ord[j]) != i; j = k) {
			r->rows[j] = r->rows[k];
			ord[j] = j;
		}
		r->rows[j] = tmp;
		ord[j] = j;
	}
	free(ord);
}

/* Sort the rows by cmp: their indices, then the rows (apply_order()). */
static void
sort_by(struct report *r, int (*cmp)(const void *, const void *))
{
	size_t *ord, i;

	ord = xcalloc(r->nrows, sizeof(*ord));
	for (i = 0; i < r->nrows; i++)
		ord[i] = i;
	sortrows = r->rows;
	sortcmp = cmp;
	qsort(ord, r->nrows, sizeof(*ord), cmp_index);
	apply_order(r, ord);
}

/* A row whose key is 0: of those the order is by name alone. */
static int
zero_time(const struct row *w)
{
	return w->samples == 0;
}

static int
zero_calls(const struct row *w)
{
	return w->calls == 0;
}

/* -n: no key but the name. */
static int
zero_all(const struct row *w)
{
	(void)w;
	return 1;
}

/*
 * The order cmp makes, where cmp is by key (zero() says which rows have
 * it 0), then cmp_tail(), then place: most of a million functions have
 * no samples, and those sort by name, whose ranks are integers below
 * nrows.  So the rows go by a counting sort on the rank, each run of
 * one name by qsort; then the rows of a key other than 0 are taken out
 * and sorted by qsort, and put before the others (a greater key) or
 * after them (a key below 0).  The same order as sort_by()'s at a
 * fraction of the compares.
 */
static void
sort_keyed(struct report *r, int (*cmp)(const void *, const void *),
    int (*zero)(const struct row *))
{
	size_t *ord, *first, *rest, i, j, n = r->nrows, nrest = 0;
	size_t nz = 0, hi;

	ord = xcalloc(n + 1, sizeof(*ord));
	first = xcalloc(n + 2, sizeof(*first));
	for (i = 0; i < n; i++)
		if (zero(&r->rows[i]))
			first[r->rows[i].byname + 1]++;
	for (i = 0; i < n; i++)
		first[i + 1] += first[i];
	for (i = 0; i < n; i++)
		if (zero(&r->rows[i]))
			ord[first[r->rows[i].byname]++] = i, nz++;
	free(first);
	sortrows = r->rows;
	sortcmp = cmp;
	for (i = 0; i < nz; i = j) {
		for (j = i + 1; j < nz && r->rows[ord[j]].byname ==
		    r->rows[ord[i]].byname; j++)
			;
		if (j - i > 1)
			qsort(ord + i, j - i, sizeof(*ord), cmp_index);
	}
	rest = xcalloc(n - nz + 1, sizeof(*rest));
	for (i = 0; i < n; i++)
		if (!zero(&r->rows[i]))
			rest[nrest++] = i;
	qsort(rest, nrest, sizeof(*rest), cmp_index);
	/* rest[0 .. hi) go before the rows of key 0, the others after. */
	for (hi = 0; hi < nrest && (nz == 0 ||
	    cmp_index(&rest[hi], &ord[0]) < 0); hi++)
		;
	memmove(ord + hi, ord, nz * sizeof(*ord));
	memcpy(ord, rest, hi * sizeof(*ord));
	memcpy(ord + hi + nz, rest + hi, (nrest - hi) * sizeof(*ord));
	free(rest);
	apply_order(r, ord);
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
	case 'I':
		cmp = cmp_incl;
		sortrep = r;
		break;
	default:
		cmp = cmp_time;
		break;
	}
	if (r->nrows == 0)
		return;
	/* By address, or by inclusive time, whose key a row of no samples
	   may have: qsort alone. */
	if (how == 'a' || how == 'I')
		sort_by(r, cmp);
	else
		sort_keyed(r, cmp, how == 'c' ? zero_calls : how == 'n' ?
		    zero_all : zero_time);
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

/* Each row's rank by its first name, which the orders end with. */
static void
rank_rows(struct report *r)
{
	const char **v;
	size_t *rank, i;

	v = xcalloc(r->nrows + 1, sizeof(*v));
	rank = xcalloc(r->nrows + 1, sizeof(*rank));
	for (i = 0; i < r->nrows; i++)
		v[i] = first_name(&r->rows[i]);
	name_ranks(v, r->nrows, rank);
	for (i = 0; i < r->nrows; i++)
		r->rows[i].byname = rank[i];
	free(v);
	free(rank);
}

/* The rows indexed by id, wherever they are. */
static void
index_rows(struct report *r)
{
	size_t i;

	free(r->byid);
	r->byid = xcalloc(r->nrows + 1, sizeof(*r->byid));
	for (i = 0; i < r->nrows; i++)
		r->byid[r->rows[i].id] = &r->rows[i];
}

/*
 * Demangle and sort the rows as the options say, and index them by id
 * for the call graph.  Each row keeps its rank by name, for the call
 * graph's order too.
 */
void
report_sort(struct report *r, const struct opts *o)
{
	if (o->demangle)
		demangle_rows(r);
	rank_rows(r);
	sort_rows(r, o->sort);
	index_rows(r);
}

/*
 * report_sort() but for the sort: for a view that puts the rows in an
 * order of its own (the call graph's entries) and reads nothing in the
 * rows' order.  Moving a million rows of 112 bytes into the report's
 * order was some 7% of -q's time.
 */
void
report_rank(struct report *r, const struct opts *o)
{
	if (o->demangle)
		demangle_rows(r);
	rank_rows(r);
	index_rows(r);
}
