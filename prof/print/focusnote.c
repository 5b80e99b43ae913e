/*
 * focusnote.c -- prof -f: after the report or the call graph, a line
 * on what the focus kept, since the shares above it are of that part
 * alone; and with -s the same line on stderr, after the statistics of
 * the whole profile:
 *
 *	focus ^parse: 3 functions match, 0.42 s kept of the 1.20 s in stacks (35.0%)
 *
 * The time it is a part of is what the focus could keep: the stacks'
 * (the kernel's and the unsampled time and the histogram's samples in
 * no stack are in none, and always go), or with no stacks the report's.
 */
#include <stdio.h>

#include "model/model.h"
#include "print/print.h"
#include "prof.h"
#include "util/util.h"

/* -f: the line, on fp, of what focus_apply() kept of report r. */
void
focus_note(FILE *fp, const struct focus *f, const struct report *r,
    const struct opts *o)
{
	fputs("focus ", fp);
	put_text(fp, o->focus);
	fprintf(fp, ": %zu function%s, %.2f s kept of the %.2f s %s "
	    "(%.1f%%)\n", f->matched, f->matched == 1 ? " matches" :
	    "s match", f->kept * r->period, f->all * r->period,
	    r->g.sampled ? "in stacks" : "profiled",
	    f->all > 0 ? 100 * f->kept / f->all : 0.0);
}
