/*
 * export.c -- prof -F FORMAT: the report written for another tool.
 *
 * Every format starts from the same merged profile and report as the
 * printed one, and from the stacks stacks.c makes of it; a writer
 * only lays them out.  The stack formats say so, in one warning, when
 * the files hold no stacks and they fall back to a frame a function.
 */
#include <err.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "export/xset.h"
#include "model/model.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

struct format {
	const char	*name;
	int		(*write)(const struct xset *, FILE *, const char **,
			    const char **);
	int		 stacks;	/* lays out stacks */
};

static const struct format formats[] = {
	{ "folded",	export_folded,		1 },
	{ "svg",	export_svg,		1 },
	{ "pprof",	export_pprof,		1 },
	{ "callgrind",	export_callgrind,	1 },
	{ "gmon",	export_gmon,		0 },
};

#define NFORMATS	(sizeof(formats) / sizeof(formats[0]))

static const struct format *
lookup(const char *name)
{
	size_t i;

	for (i = 0; i < NFORMATS; i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

/* Is name a format -F knows? */
int
export_known(const char *name)
{
	return lookup(name) != NULL;
}

/*
 * Write report r of profile p as format name, to stdout or to the
 * files the format names.  On failure, -1 with *file the file at fault
 * and *why the reason.
 */
int
export_write(const char *name, struct report *r, const struct profile *p,
    const struct opts *o, const char *prog, const char **file,
    const char **why)
{
	const struct format *f = lookup(name);
	struct xset x;
	int rv;

	/*
	 * pprof holds the wall samples and the measured stacks beside the
	 * CPU ones; the other formats lay out one set: -w's, -M's or the
	 * CPU samples'.
	 */
	if (o->measured && strcmp(name, "pprof") != 0)
		xset_make_measured(&x, r, p, o, prog);
	else if (o->wall && strcmp(name, "pprof") != 0)
		xset_make_wall(&x, r, p, o, prog);
	else
		xset_make(&x, r, p, o, prog);
	if (f->stacks && x.flat && x.count > 0)
		warnx("%s: no call stacks in the files (PROFSTACK=0, or "
		    "classic); %s has a frame a function, self time only",
		    p->first, name);
	*file = "stdout";
	rv = f->write(&x, stdout, file, why);
	xset_free(&x);
	return rv;
}

/* Can format name hold the difference of two profiles (-d)? */
int
export_diffs(const char *name)
{
	return strcmp(name, "pprof") == 0;
}

/*
 * -d: the difference of report r (of profile p) from report rb (of
 * pb), the base, as format name, which export_diffs() allows: each is
 * laid out as it would be alone, and the writer puts the two in one
 * file, the base's values negative.  Failure as export_write().
 */
int
export_diff(const char *name, struct report *rb, const struct profile *pb,
    struct report *r, const struct profile *p, const struct opts *o,
    const char *prog, const char **file, const char **why)
{
	struct xset x, xb;
	int rv;

	(void)name;
	xset_make(&xb, rb, pb, o, prog);
	xset_make(&x, r, p, o, prog);
	*file = "stdout";
	rv = export_pprof_diff(&x, &xb, stdout, file, why);
	xset_free(&x);
	xset_free(&xb);
	return rv;
}
