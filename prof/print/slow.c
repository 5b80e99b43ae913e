/*
 * slow.c -- -T: the calls that took longer than PROFSLOW's threshold,
 * as the SLOW records kept them (lib/calls.c), in the order they
 * started, each with its thread and the timed functions on its stack:
 *
 *	     start s  duration ms      tid  function <- its callers
 *	    0.002130       30.139    15565  nap <- slow <- main
 *
 * start is from the profile's start, in its own file; the duration is
 * the call's wall time, enter to exit, measured call by call as the
 * TIMED records' are.  The callers are those the hooks timed: a
 * function left out by PROFCALLS or beyond PROFDEPTH is in none of
 * them, and a stack longer than the writer keeps ends in "<- ...".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

static int
cmp_start(const void *x, const void *y)
{
	const struct pslow *a = *(const struct pslow *const *)x;
	const struct pslow *b = *(const struct pslow *const *)y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* Every frame's name, -C demangled; an address where none is known. */
static const char **
frame_names(const struct report *r, const struct profile *p,
    const struct opts *o, char **bufp)
{
	const char **v;
	char *buf;
	size_t i;

	v = xcalloc(p->nsframes + 1, sizeof(*v));
	buf = xcalloc(p->nsframes + 1, 24);
	for (i = 0; i < p->nsframes; i++) {
		v[i] = wall_frame_name(r, p, &p->sframes[i], NULL);
		if (v[i] == NULL) {
			(void)snprintf(buf + 24 * i, 24, "0x%" PRIx64,
			    p->sframes[i].addr);
			v[i] = buf + 24 * i;
		}
	}
	if (o->demangle)
		demangle(v, p->nsframes);
	*bufp = buf;
	return v;
}

/* -T: the slow calls, by start. */
void
slow_print(const struct report *r, const struct profile *p,
    const struct opts *o)
{
	const struct pslow **c;
	const char **names;
	char *buf;
	size_t i, k;

	c = xcalloc(p->nslow + 1, sizeof(*c));
	for (i = 0; i < p->nslow; i++)
		c[i] = &p->slow[i];
	qsort(c, p->nslow, sizeof(*c), cmp_start);
	names = frame_names(r, p, o, &buf);
	if (!o->nohead) {
		printf("slow calls: %zu of the %" PRIu64 " calls longer than "
		    "%.0f us (PROFSLOW),\nthe slowest kept (%" PRIu32 " a "
		    "file at most), timed one by one in wall time;\n"
		    "their timed callers innermost first\n\n", p->nslow,
		    p->slowover, (double)p->slowns / 1e3, p->slowkeep);
		printf("%12s %12s %8s  %s\n", "start s", "duration ms", "tid",
		    "function <- its callers");
	}
	for (i = 0; i < p->nslow; i++) {
		printf("%12.6f %12.3f %8" PRIu32 " ", c[i]->start,
		    c[i]->dur * 1e3, c[i]->tid);
		for (k = 0; k < c[i]->depth; k++)
			printf("%s%s", k == 0 ? " " : " <- ",
			    names[c[i]->first + k]);
		printf("%s\n", c[i]->cut ? " <- ..." : "");
	}
	free(buf);
	free(names);
	free(c);
}
