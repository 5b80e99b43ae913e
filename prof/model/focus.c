/*
 * focus.c -- prof -f REGEX: the report cut down to what passes through
 * the functions whose names match, as pprof's -focus and gprof's
 * symspecs do.
 *
 * Time is the stacks': a stack is kept when one of its frames is a
 * matching function, and every row's time is then the samples of the
 * kept stacks it ends (self) or is in (inclusive).  So a function called
 * both from a matching caller and from elsewhere keeps only the part of
 * its time it spent under the match, and one that is in no kept stack
 * has none.  The kernel's time that no stack holds (all of it where the
 * perf clock sampled user mode only), the unsampled row and libmon's
 * own time go, and the total is the kept stacks' samples, so that the
 * shares are of what remains; the kernel's samples under a match stay,
 * under their caller.
 *
 * Calls are mcount's arcs, which are pairs, not stacks: an arc into a
 * matching function is kept (its callers, with how often each called),
 * and so is every arc out of the sub-graph the matching functions reach
 * along the counted arcs (their callees, theirs, and so on).  A row's
 * calls are then its kept arcs' calls.  The callers further out keep
 * their place in the graph from the stacks, but not their counts: those
 * were of calls that need not lead to a match.
 *
 * The calls timed one by one keep the functions kept and the arcs
 * between them: they are pairs, not stacks, as the counted arcs are.
 *
 * Files with no stacks leave nothing to tell which samples passed
 * through a match: the matching functions' own time is all that is
 * kept, and main says so.  Rows left with neither time, calls nor a
 * place in a kept stack are taken out, and the graph is worked out
 * again over the rest.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "prof.h"
#include "util/util.h"

/* Compile -f's pattern; -1 with the reason, in why, if it is no regex. */
int
focus_compile(struct focus *f, const char *pattern, char *why, size_t n)
{
	int e;

	memset(f, 0, sizeof(*f));
	if ((e = regcomp(&f->re, pattern, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(e, &f->re, why, n);
		return -1;
	}
	return 0;
}

/* Does one of row w's names match? */
static int
matches(const struct focus *f, const struct row *w)
{
	size_t k;

	for (k = 0; k < w->nnames; k++)
		if (regexec(&f->re, w->names[k], 0, NULL, 0) == 0)
			return 1;
	return 0;
}

/* Does stack s have a matching frame? */
static int
through(const struct graph *g, const struct cgstack *s, const char *match)
{
	size_t j, id;

	for (j = 0; j < s->depth; j++)
		if ((id = g->ids[s->first + j]) != ROW_NONE && match[id])
			return 1;
	return 0;
}

/*
 * The rows the matching ones reach along counted arcs, in reach; the
 * arcs are sorted by caller, so a row's are one run of them.
 */
static void
reach_callees(const struct report *r, const char *match, char *reach)
{
	const struct graph *g = &r->g;
	size_t *todo, n = 0, i, k, v, lo, hi, mid;

	todo = xcalloc(r->nrows + 1, sizeof(*todo));
	for (i = 0; i < r->nrows; i++)
		if ((reach[i] = match[i]))
			todo[n++] = i;
	while (n > 0) {
		v = todo[--n];
		for (lo = 0, hi = g->narcs; lo < hi; ) {
			mid = lo + (hi - lo) / 2;
			if (g->arcs[mid].from < v)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k < g->narcs && g->arcs[k].from == v; k++) {
			if (!g->arcs[k].counted || reach[g->arcs[k].to])
				continue;
			reach[g->arcs[k].to] = 1;
			todo[n++] = g->arcs[k].to;
		}
	}
	free(todo);
}

/*
 * Keep the stacks through a match, and the counted arcs into a match
 * or out of what the matches reach; rows' time and calls from those.
 * The arcs the stacks made are dropped: graph_compute() makes them
 * again from the stacks kept.
 */
static void
keep_through(struct report *r, struct focus *f, const char *match,
    const char *reach)
{
	struct graph *g = &r->g;
	struct cgarc *c;
	size_t i, n, id;

	for (i = 0; i < r->nrows; i++) {
		r->rows[i].samples = g->sampled || !match[i] ? 0 :
		    r->rows[i].samples;
		if (g->counted || !match[i])
			r->rows[i].calls = 0;
		f->kept += r->rows[i].samples;
	}
	for (i = 0, n = 0, g->cut = 0; g->sampled && i < g->nstacks; i++) {
		if (!through(g, &g->stacks[i], match))
			continue;
		g->stacks[n] = g->stacks[i];
		if (g->stacks[n].depth > 0 &&
		    (id = g->ids[g->stacks[n].first]) != ROW_NONE)
			r->rows[id].samples += g->stacks[n].samples;
		if (g->stacks[n].cut)
			g->cut += g->stacks[n].samples;
		f->kept += g->stacks[n++].samples;
	}
	g->nstacks = n;
	for (i = 0, n = 0; i < g->narcs; i++) {
		c = &g->arcs[i];
		if (!c->counted || !(match[c->to] || (c->from != ROW_NONE &&
		    reach[c->from])))
			continue;
		c->samples = c->leaf = 0;
		c->unconfirmed = 0;
		addsat(&r->rows[c->to].calls, c->calls);
		g->arcs[n++] = *c;
	}
	g->narcs = n;
}

/*
 * Take out the rows with nothing left: new ids in the order of the old,
 * so that the arcs stay sorted by caller, then callee.  The matching
 * rows kept with time or calls are counted in f->matched.
 */
static void
drop_rows(struct report *r, struct focus *f, const char *match,
    const char *instack)
{
	struct graph *g = &r->g;
	char *inarc;
	size_t *newid, i, n, k, *id;

	inarc = xcalloc(r->nrows + 1, 1);
	newid = xcalloc(r->nrows + 1, sizeof(*newid));
	for (i = 0; i < g->narcs; i++) {
		if (g->arcs[i].from != ROW_NONE)
			inarc[g->arcs[i].from] = 1;
		inarc[g->arcs[i].to] = 1;
	}
	for (i = 0, n = 0; i < r->nrows; i++) {
		newid[i] = ROW_NONE;
		if (r->rows[i].samples <= 0 && r->rows[i].calls == 0 &&
		    !instack[i] && !inarc[i])
			continue;
		r->rows[n] = r->rows[i];
		r->rows[n].id = n;
		r->rows[n].graphonly = r->rows[n].samples <= 0 &&
		    r->rows[n].calls == 0;
		f->matched += match[i] && !r->rows[n].graphonly;
		newid[i] = n++;
	}
	r->nrows = n;
	for (i = 0; i < g->narcs; i++) {
		if (g->arcs[i].from != ROW_NONE)
			g->arcs[i].from = newid[g->arcs[i].from];
		g->arcs[i].to = newid[g->arcs[i].to];
	}
	for (i = 0; i < g->nstacks; i++)
		for (k = 0; k < g->stacks[i].depth; k++) {
			id = &g->ids[g->stacks[i].first + k];
			if (*id != ROW_NONE)
				*id = newid[*id];
		}
	/* The measured calls of the rows kept, and the arcs between them. */
	for (i = 0, n = 0; i < r->ntcalls; i++) {
		if ((id = &r->tcalls[i].to, newid[*id] == ROW_NONE) ||
		    (r->tcalls[i].from != ROW_NONE &&
		    newid[r->tcalls[i].from] == ROW_NONE))
			continue;
		r->tcalls[n] = r->tcalls[i];
		r->tcalls[n].to = newid[r->tcalls[i].to];
		if (r->tcalls[n].from != ROW_NONE)
			r->tcalls[n].from = newid[r->tcalls[i].from];
		n++;
	}
	r->ntcalls = n;
	free(inarc);
	free(newid);
}

/* The rows in a kept stack. */
static char *
in_stacks(const struct report *r)
{
	const struct graph *g = &r->g;
	char *in;
	size_t i, k, id;

	in = xcalloc(r->nrows + 1, 1);
	for (i = 0; i < g->nstacks; i++)
		for (k = 0; k < g->stacks[i].depth; k++)
			if ((id = g->ids[g->stacks[i].first + k]) != ROW_NONE)
				in[id] = 1;
	return in;
}

/*
 * Cut report r, as attribute() made it with its graph (rows in the
 * order they were made), down to what passes through f's matches, and
 * work its graph out again; est as graph_compute() takes it.  f->all
 * is what the focus can keep: the stacks' samples, since only they
 * tell what passed through a match (the kernel's time in no stack and
 * the unsampled row always go), or with no stacks the report's time.
 * f->kept is what it kept, f->matched the matching rows kept.
 */
void
focus_apply(struct report *r, struct focus *f, int est)
{
	struct graph *g = &r->g;
	char *match, *reach, *instack;
	size_t i;

	f->all = g->sampled ? g->samples : r->total - r->overhead;
	f->kept = 0;
	f->matched = 0;
	match = xcalloc(r->nrows + 1, 1);
	reach = xcalloc(r->nrows + 1, 1);
	for (i = 0; i < r->nrows; i++)
		match[i] = (char)matches(f, &r->rows[i]);
	reach_callees(r, match, reach);
	keep_through(r, f, match, reach);
	instack = in_stacks(r);
	drop_rows(r, f, match, instack);
	graph_reset(g);
	graph_compute(r, est);
	r->total = r->attributed = f->kept;
	r->overhead = r->unsampled = 0;
	r->libmon = 0;
	graph_reconcile(r);
	free(match);
	free(reach);
	free(instack);
}
