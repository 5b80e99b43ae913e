/*
 * folded.c -- prof -F folded: one line per distinct stack, root
 * first, frames separated by ';', then one space and a whole number of
 * samples:
 *
 *	main;costly_caller;work 90
 *	__libc_start_call_main (libc.so.6);main;cheap_caller;work 10
 *
 * flamegraph.pl, inferno and speedscope read it.  A frame is named as
 * the report names its row, object and all, so a library's frames say
 * which library; a ';' in a name, which would split the frame, is
 * written ':'.  A stack whose count rounds to nothing is left out: the
 * counts still add up to the total (stacks.c).
 */
#include <stdio.h>

#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

static void
put_frame(const char *s, FILE *fp)
{
	for (; *s != '\0'; s++)
		fputc(*s == ';' ? ':' : *s, fp);
}

int
export_folded(const struct xset *x, FILE *fp, const char **file,
    const char **why)
{
	const struct xstack *s;
	size_t i, j;

	(void)file;
	(void)why;
	for (i = 0; i < x->nstacks; i++) {
		s = &x->stacks[i];
		if (s->count == 0)
			continue;
		for (j = 0; j < s->depth; j++) {
			if (j > 0)
				fputc(';', fp);
			put_frame(x->labels[x->ids[s->first + j]], fp);
		}
		fprintf(fp, " %llu\n", (unsigned long long)s->count);
	}
	return 0;
}
