/*
 * main.c -- prof(1): options, then the steps in order.
 *
 *	read every mdata file and merge them	(read/merge.c)
 *	read the program's functions		(read/elfsym.c)
 *	attribute time and calls to them	(model/attrib.c)
 *	and the call graph to them		(model/callgraph.c)
 *	print the report, or the graph		(print/report.c, graphprint.c)
 *	or -F write it for another tool		(export/export.c)
 *	then -e the estimate, -s statistics
 *
 * The steps return a reason when a file will not do; main() alone ends
 * prof, with one line on stderr naming the file at fault and the reason,
 * and exit status 1.  Warnings are one line each and prof goes on.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/export.h"
#include "model/model.h"
#include "mon.h"
#include "print/print.h"
#include "prof.h"
#include "read/read.h"
#include "util/util.h"

static void __attribute__((noreturn))
usage(void)
{
	fprintf(stderr, "usage: prof [-CehipqsuVz] [-a | -c | -n | -t] "
	    "[-o | -x] [-g | -l] [-F format] [-m mdata] "
	    "[prog [mdata ...]]\n");
	exit(1);
}

/* A sort option: the last one wins, and says whom it overrode. */
static void
set_sort(struct opts *o, int c)
{
	if (o->sort != 0 && o->sort != c)
		warnx("-%c overrides -%c", c, o->sort);
	o->sort = c;
}

/* Parse the options into o; the -m files are added to *files. */
static int
parse_options(int argc, char *argv[], struct opts *o, const char ***files,
    size_t *nfiles)
{
	int c, version = 0;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((c = getopt(argc, argv, "acntoxglzhsm:VCpuqieF:")) != -1) {
		switch (c) {
		case 'a': case 'c': case 'n': case 't':
			set_sort(o, c);
			break;
		case 'o': case 'x':
			o->addr = c;
			break;
		case 'g':
			o->fold = 0;
			break;
		case 'l':
			o->fold = 1;
			break;
		case 'u':
			o->unnamed = 1;
			break;
		case 'z':
			o->zeros = 1;
			break;
		case 'h':
			o->nohead = 1;
			break;
		case 's':
			o->stats = 1;
			break;
		case 'm':
			(*files)[(*nfiles)++] = optarg;
			break;
		case 'V':
			fprintf(stderr, "prof: %s\n", PROF_VERSION);
			version = 1;
			break;
		case 'C':
			o->demangle = 1;
			break;
		case 'p':
			o->progonly = 1;
			break;
		case 'q':
			o->graph = 1;
			break;
		case 'i':
			o->incl = 1;
			break;
		case 'e':
			o->estimate = 1;
			break;
		case 'F':
			if (!export_known(optarg))
				errx(1, "-F %s: no such format (folded, svg, "
				    "pprof, callgrind, gmon)", optarg);
			o->format = optarg;
			break;
		default:
			usage();
		}
	}
	if (o->sort == 0)
		o->sort = 't';
	return version;
}

/* stdout must have reached its file whole. */
static void
finish_output(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	if (fclose(stdout) != 0)
		err(1, "stdout");
}

/*
 * The program, when none was named: a.out if there is one, else the
 * program the first file's EXEC record names, which must still be
 * there (if it is another build, profile_check_id() says so).
 */
static const char *
default_prog(const struct profile *p)
{
	const char *path;
	char *s;

	if (access("a.out", F_OK) == 0 || p->nobjs == 0 ||
	    p->objs[OBJ_MAIN].path[0] == '\0')
		return "a.out";
	path = p->objs[OBJ_MAIN].path;
	if (access(path, F_OK) != 0) {
		s = printable(path);
		errx(1, "%s: %s (the program %s names; there is no a.out)",
		    s, strerror(errno), p->first);
	}
	return path;
}

/*
 * What prof builds lives until exit and is never freed: static, so that
 * it stays reachable and a leak checker has nothing to say.
 */
static struct opts o;
static struct profile p;
static struct symtab st;
static struct report r;
static const char **files;
static char *shown;		/* the program's name, fit to print */

int
main(int argc, char *argv[])
{
	const char *prog = NULL, *why, *out;
	size_t nfiles = 0, i;

	/* Room for every argument, and mon.out when none is a file. */
	files = xcalloc((size_t)argc + 1, sizeof(*files));
	if (parse_options(argc, argv, &o, &files, &nfiles) && argc == 2)
		return 0;	/* -V alone: the version was all */
	if (optind < argc)
		prog = argv[optind++];
	for (; optind < argc; optind++)
		files[nfiles++] = argv[optind];
	if (nfiles == 0)
		files[nfiles++] = MON_OUT;

	/* ITIMER_PROF's files weigh by their process's, all read first. */
	for (i = 0; i < nfiles; i++)
		profile_scan(&p, files[i]);
	for (i = 0; i < nfiles; i++)
		if (profile_read(&p, files[i], &why) != 0)
			errx(1, "%s: %s", files[i], why);
	profile_finish(&p);
	heap_trim();
	if (prog == NULL)
		prog = default_prog(&p);
	shown = printable(prog);
	if (symtab_load(&st, prog, &why) != 0)
		errx(1, "%s: %s", shown, why);
	heap_trim();
	profile_check_id(&p, shown, &st);
	if (p.usedcells == 0)
		warnx("no call counts captured");

	attribute(&r, &p, &st, &o);
	if (r.histsum > 0 && r.histattr == 0 && !r.stripped)
		warnx("warning: no sample of %s falls in a function of %s",
		    p.first, shown);
	if (o.format == NULL)
		report_show(&r, &p, &o);
	else if (export_write(o.format, &r, &p, &o, shown, &out, &why) != 0)
		errx(1, "%s: %s", out, why);
	if (o.stats) {
		fflush(stdout);
		report_stats(&r, &p, &st);
	}
	finish_output();
	return 0;
}
