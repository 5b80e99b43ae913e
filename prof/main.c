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
 * -f cuts the report down to what passes through some functions
 * (model/focus.c) before it is printed; -d reads a second, base
 * profile the same way and prints or writes the two's difference
 * (print/diff.c, export/export.c).
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
	fprintf(stderr, "usage: prof [-CehipqsuVz] [-a | -c | -I | -n | -t] "
	    "[-o | -x] [-g | -l] [-d base [-D baseprog]] [-F format] "
	    "[-f regex] "
	    "[-m mdata] [prog [mdata ...]]\n"
	    "       prof -L [-Chpq] [-a | -c | -n | -t] [-o | -x] "
	    "[-F folded] [-f regex] [-m mdata] [prog [mdata ...]]\n"
	    "       prof -A [-Cp] [-f regex] [-S dir] [-m mdata] "
	    "[prog [mdata ...] [source ...]]\n"
	    "       prof -w [-hqrsN] [-F folded | svg | pprof] [-m mdata] "
	    "[prog [mdata ...]]\n"
	    "       prof -T [-Ch] [-m mdata] [prog [mdata ...]]\n"
	    "       prof -M [-Cs] -F folded | svg | pprof [-m mdata] "
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

/*
 * -d prints one list, by the size of the change, and -F pprof one
 * profile: the options of the report and the graph do nothing there,
 * which one warning says.
 */
static void
diff_ignores(const struct opts *o)
{
	char buf[32] = "";

	if (o->sort != 0)
		snprintf(buf, sizeof(buf), "-%c", o->sort);
	if (o->incl && o->sort != 'I')
		strcat(buf, *buf != '\0' ? ", -i" : "-i");
	if (o->graph)
		strcat(buf, *buf != '\0' ? ", -q" : "-q");
	if (o->estimate)
		strcat(buf, *buf != '\0' ? ", -e" : "-e");
	if (*buf != '\0')
		warnx("warning: -d ignores %s: a difference is one list, by "
		    "the size of the change", buf);
}

/*
 * -L and -A print a report of their own, by source line: the last of
 * the two wins; -q, -F and -d, which are reports of their own too, are
 * refused beside them, and -i and -e, which have no meaning there, are
 * warned of.  But -L -F folded writes folded stacks whose leaves are
 * lines (export/folded.c), and -L -q the call graph with each arc's
 * call sites (print/graphprint.c).
 */
static void
lines_check(const struct opts *o)
{
	if (o->lines == 0) {
		if (o->srcdir != NULL)
			warnx("warning: -S: only -A reads source files");
		return;
	}
	if (o->lines == 'L' && o->diffbase == NULL && ((o->format != NULL &&
	    strcmp(o->format, "folded") == 0 && !o->graph) ||
	    (o->graph && o->format == NULL)))
		return;		/* folded's leaves, -q's call sites */
	if (!o->graph && o->diffbase == NULL && o->format != NULL &&
	    (strcmp(o->format, "pprof") == 0 ||
	    strcmp(o->format, "callgrind") == 0))
		errx(1, "-%c: not with -F %s, which holds source lines "
		    "without it (-L changes only -F folded)", o->lines,
		    o->format);
	if (o->graph || o->format != NULL || o->diffbase != NULL)
		errx(1, "-%c: a report by source line; not with %s%s", o->lines,
		    o->graph ? "-q" : o->format != NULL ? "-F " : "-d",
		    o->graph || o->format == NULL ? "" : o->format);
	if (o->incl || o->estimate)
		warnx("warning: -%c ignores %s: a line has no inclusive "
		    "time", o->lines, o->sort == 'I' ? "-I" : o->incl ? "-i" :
		    "-e");
	else if (o->lines == 'A' && o->sort != 0)
		warnx("warning: -A ignores -%c: files come by their time, "
		    "lines in their order", o->sort);
	if (o->srcdir != NULL && o->lines == 'L')
		warnx("warning: -S: only -A reads source files");
}

/*
 * -w's report takes -h, -q, -r, -s, -N, -F and -m; the options of the
 * CPU report (the seen[] ones of WALL_IGNORES) would do nothing there,
 * or change what the rows are called (-p, -u, -g, -l), so they are
 * warned of, in one line, and undone.
 */
#define WALL_IGNORES	"acntoxglzCpuieI"

static void
wall_ignores(struct opts *o, const unsigned char *seen)
{
	char buf[2 * sizeof(WALL_IGNORES) + 1] = "";
	const char *c;
	size_t n = 0;

	for (c = WALL_IGNORES; *c != '\0'; c++)
		if (seen[(unsigned char)*c]) {
			buf[n++] = *c;
			buf[n] = '\0';
		}
	if (n > 0)
		warnx("warning: -w ignores -%s: the wall-time report takes -h, "
		    "-q, -r, -s, -N, -F and -m", buf);
	o->sort = 0;
	o->addr = 0;
	o->fold = 0;
	o->zeros = o->demangle = o->progonly = o->unnamed = 0;
	o->incl = o->estimate = 0;
}

/* Is format one that lays out stacks alone: folded, svg or pprof? */
static int
stack_format(const char *format)
{
	return strcmp(format, "folded") == 0 || strcmp(format, "svg") == 0 ||
	    strcmp(format, "pprof") == 0;
}

/* -w's checks: what goes with it, and what -r and -N need. */
static void
wall_check(struct opts *o, const unsigned char *seen)
{
	if (o->ranonly && !o->wall)
		errx(1, "-r: leaves idle threads out of -w's report; there "
		    "is no -w");
	if (o->bythread && !o->wall)
		errx(1, "-N: groups -w's report by thread name; there is "
		    "no -w");
	if (!o->wall)
		return;
	if (o->diffbase != NULL || o->focus != NULL ||
	    (o->format != NULL && !stack_format(o->format)))
		errx(1, "-w: the wall-time report goes with -q and -F folded, "
		    "svg or pprof, and none of -d, -f or another -F yet");
	if (o->lines != 0)
		errx(1, "-w: the wall-time report is by function; -%c is "
		    "of CPU time by source line", o->lines);
	if (o->bythread && (o->graph || o->format != NULL))
		errx(1, "-N: a report by thread name; not with %s",
		    o->graph ? "-q" : "-F");
	wall_ignores(o, seen);
}

/*
 * -w needs a file with wall samples.  PROFMODE=wall writes them, for
 * the whole run, in a whole profile or in the last part of a run in
 * parts (PROFINTERVAL), in no other part; the other files' CPU samples
 * have no place in the wall report, which a warning says.
 */
static void
wall_files(const struct profile *p)
{
	if (p->wallfiles == 0 && p->wallearly > 0)
		errx(1, "%s: no wall-time samples: a run in parts "
		    "(PROFINTERVAL) keeps them, for the whole run, in its "
		    "last part; or it was not profiled with PROFMODE=wall",
		    p->first);
	if (p->wallfiles == 0)
		errx(1, "%s: no wall-time samples (profile with "
		    "PROFMODE=wall)", p->first);
	if (p->wallnone > 0)
		warnx("warning: -w: %zu of the %zu files hold no wall-time "
		    "samples (not PROFMODE=wall); the report is of the %zu "
		    "that do", p->wallnone, p->nfiles, p->wallfiles);
}

/* An option with an argument given again: the last wins, and says so. */
static void
set_arg(const char **arg, int c, const char *v)
{
	if (*arg != NULL && strcmp(*arg, v) != 0)
		warnx("-%c %s overrides -%c %s", c, v, c, *arg);
	*arg = v;
}

/* Parse the options into o; the -m files are added to *files. */
static int
parse_options(int argc, char *argv[], struct opts *o, const char ***files,
    size_t *nfiles)
{
	unsigned char seen[256] = { 0 };
	int c, version = 0;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((c = getopt(argc, argv,
	    "acntoxglzhsm:VCpuqieF:If:d:D:LAS:wrTNM")) != -1) {
		seen[(unsigned char)c] = 1;
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
		case 'I':	/* sorts by the -i column, so shows it */
			set_sort(o, c);
			o->incl = 1;
			break;
		case 'f':
			set_arg(&o->focus, c, optarg);
			break;
		case 'd':
			set_arg(&o->diffbase, c, optarg);
			break;
		case 'D':
			set_arg(&o->diffprog, c, optarg);
			break;
		case 'L': case 'A':
			if (o->lines != 0 && o->lines != c)
				warnx("-%c overrides -%c", c, o->lines);
			o->lines = c;
			break;
		case 'S':
			set_arg(&o->srcdir, c, optarg);
			break;
		case 'w':
			o->wall = 1;
			break;
		case 'r':
			o->ranonly = 1;
			break;
		case 'T':
			o->slow = 1;
			break;
		case 'N':
			o->bythread = 1;
			break;
		case 'M':
			o->measured = 1;
			break;
		default:
			usage();
		}
	}
	if (o->diffprog != NULL && o->diffbase == NULL)
		errx(1, "-D: names the program of -d's base; there is no -d");
	wall_check(o, seen);
	if (o->slow && (o->wall || o->lines != 0 || o->graph ||
	    o->format != NULL || o->diffbase != NULL || o->focus != NULL))
		errx(1, "-T: the list of slow calls is a report of its own; "
		    "not with -w, -L, -A, -q, -F, -d or -f");
	if (o->measured && (o->format == NULL || !stack_format(o->format)))
		errx(1, "-M: lays out the calls timed one by one, for -F "
		    "folded, svg or pprof only");
	if (o->measured && (o->wall || o->lines != 0 ||
	    o->diffbase != NULL || o->focus != NULL))
		errx(1, "-M: the measured stacks are by function, of the "
		    "whole run; not with -w, -L, -A, -d or -f");
	if (o->diffbase != NULL)
		diff_ignores(o);
	lines_check(o);
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
static struct focus fo;		/* -f */
static struct focus kept;	/* what -f kept of the report */
static struct profile pb;	/* -d: the base, its program, its report */
static struct symtab stb;
static struct report rb;
static struct lines ls;		/* -L, -A */
static const char **sources;	/* -A's source files named */
static size_t nsources;

/*
 * -f's pattern compiled, and -f and -d against -F, before any file is
 * read.  gmon.out holds the run's histogram and arcs as they were
 * taken, with no stacks to cut.
 */
static void
check_focus_diff(void)
{
	char why[256];

	if (o.focus != NULL &&
	    focus_compile(&fo, o.focus, why, sizeof(why)) != 0)
		errx(1, "-f %s: %s", o.focus, why);
	if (o.focus != NULL && o.format != NULL &&
	    strcmp(o.format, "gmon") == 0)
		errx(1, "-f: -F gmon writes the histogram and the arcs, "
		    "which have no stacks to focus on");
	if (o.diffbase != NULL && o.format != NULL &&
	    !export_diffs(o.format))
		errx(1, "-d: -F %s cannot hold a difference (-F pprof can)",
		    o.format);
}

/*
 * -f: cut report rr down to the stacks through the matches; say so
 * when it can only keep their own time, or when nothing matched.
 */
static void
focus(struct report *rr, const char *file)
{
	if (o.focus == NULL)
		return;
	focus_apply(rr, &fo, o.estimate);
	if (fo.matched == 0)
		warnx("warning: -f %s: no function with time or calls in %s "
		    "matches", o.focus, file);
	else if (!rr->g.sampled)
		warnx("warning: -f: %s holds no stacks; only the matching "
		    "functions' own time is kept", file);
}

/*
 * Was base profile pb written by the build st holds?  Yes, too, when
 * nothing tells: no build-id in st or in pb.
 */
static int
base_build(const struct symtab *s)
{
	size_t i;

	if (s->id == NULL || pb.nids == 0)
		return 1;
	for (i = 0; i < pb.nids; i++)
		if (pb.ids[i].idlen == s->idlen &&
		    memcmp(pb.ids[i].id, s->id, s->idlen) == 0)
			return 1;
	return 0;
}

/*
 * -d: the program the base profile was taken of, in stb.  -D's, which
 * must be that build; else prog, when it is; else the program the
 * base's record names, when it is still there and that build.  Its
 * addresses read against any other build would name the wrong
 * functions: a program rebuilt in place is refused, with one line on
 * what to give.  Rows are matched by name, so two builds compare.
 */
static void
base_prog(const char *prog)
{
	const char *path = pb.nobjs > 0 ? pb.objs[OBJ_MAIN].path : "";
	const char *why;
	char *s;

	if (o.diffprog != NULL) {
		s = printable(o.diffprog);
		if (symtab_load(&stb, o.diffprog, &why) != 0)
			errx(1, "%s: %s", s, why);
		if (!base_build(&stb))
			errx(1, "-D %s: not the build %s was taken of (its "
			    "build-id differs)", s, o.diffbase);
		return;
	}
	if (base_build(&st)) {
		if (symtab_load(&stb, prog, &why) != 0)
			errx(1, "%s: %s", shown, why);
		return;
	}
	if (path[0] != '\0' && access(path, F_OK) == 0 &&
	    symtab_load(&stb, path, &why) == 0 && base_build(&stb))
		return;
	errx(1, "-d %s: the build it was taken of is gone (neither %s nor "
	    "%s has its build-id); keep the old program and name it with "
	    "-D", o.diffbase, shown, path[0] != '\0' ? printable(path) :
	    "the path it names");
}

/* -d: the base profile read and attributed as the new one was. */
static void
read_base(const char *prog)
{
	const char *why;

	profile_scan(&pb, o.diffbase);
	if (profile_read(&pb, o.diffbase, &why) != 0)
		errx(1, "%s: %s", o.diffbase, why);
	profile_finish(&pb);
	base_prog(prog);
	attribute(&rb, &pb, &stb, &o);
	focus(&rb, o.diffbase);
}

/*
 * Is name, by its suffix, a source file and no profile (a library's
 * source, or a mistyped one, that -A then says has no samples)?
 */
static int
source_name(const char *name)
{
	static const char *const sufs[] = { ".c", ".h", ".cc", ".cp",
	    ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".C", ".H",
	    ".s", ".S", ".y", ".l", ".m", ".f", ".f90", ".rs", ".go" };
	const char *dot;
	size_t i;

	if ((dot = strrchr(name, '.')) == NULL || strchr(dot, '/') != NULL)
		return 0;
	for (i = 0; i < sizeof(sufs) / sizeof(sufs[0]); i++)
		if (strcmp(dot, sufs[i]) == 0)
			return 1;
	return 0;
}

/*
 * -A prog operand ...: the operands that name a source file of prog's
 * line table, or that a source file's suffix names one (a library's,
 * whose table is read with the profile), are the files to list, moved
 * to sources; the others stay, mdata files, up to the new argc
 * returned.
 */
static int
split_sources(const char *prog, int argc, char *argv[])
{
	struct symtab t;
	struct dwline dl;
	const char *why;
	char *path;
	int i, k, rc;

	memset(&dl, 0, sizeof(dl));
	memset(&t, 0, sizeof(t));
	rc = -1;
	if (symtab_load(&t, prog, &why) == 0) {
		rc = dwline_load_object(&dl, &t, &path, &why);
		free(path);
	}
	sources = xcalloc((size_t)argc, sizeof(*sources));
	for (i = k = optind; i < argc; i++)
		if ((rc == 0 && annotate_names(&dl, argv[i])) ||
		    source_name(argv[i]))
			sources[nsources++] = argv[i];
		else
			argv[k++] = argv[i];
	argv[k] = NULL;
	if (rc == 0)
		dwline_free(&dl);
	symtab_free(&t);
	return k;
}

/*
 * -L or -A: the profile by source line, when the program has a line
 * table of its own, whether or not its code took the samples (a thin
 * main over a library built with -g).  A program without one gets the
 * flat report as ever, and one line on how to have lines -- unless its
 * table was there but could not be read, which was said.
 */
static void
show_lines(void)
{
	int mt;

	lines_build(&ls, &r, &p, &o, o.focus != NULL ? &fo.re : NULL);
	if ((mt = lines_main_table(&ls)) <= 0) {
		report_show(&r, &p, &o);
		fflush(stdout);
		if (mt == 0)
			warnx("%s: no line table covers its code: build it "
			    "with -g for time by source line", shown);
		return;
	}
	if (o.graph) {
		graph_print_lines(&r, &p, &o, &ls);
		return;
	}
	if (o.lines == 'L')
		lines_print(&ls, &o);
	else
		annotate_print(&ls, &o, sources, nsources);
}

int
main(int argc, char *argv[])
{
	const char *prog = NULL, *why, *out;
	size_t nfiles = 0, i;

	/* Room for every argument, and mon.out when none is a file. */
	files = xcalloc((size_t)argc + 1, sizeof(*files));
	if (parse_options(argc, argv, &o, &files, &nfiles) && argc == 2)
		return 0;	/* -V alone: the version was all */
	check_focus_diff();
	if (optind < argc)
		prog = argv[optind++];
	if (o.lines == 'A' && prog != NULL && optind < argc)
		argc = split_sources(prog, argc, argv);
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
	if (o.wall)
		wall_files(&p);
	if (o.slow && p.slowfiles == 0)
		errx(1, "%s: no slow calls kept (profile a program built with "
		    "-finstrument-functions with PROFSLOW=MICROSECONDS)",
		    p.first);
	if (prog == NULL)
		prog = default_prog(&p);
	shown = printable(prog);
	if (symtab_load(&st, prog, &why) != 0)
		errx(1, "%s: %s", shown, why);
	heap_trim();
	profile_check_id(&p, shown, &st);
	if (o.measured && !profile_has_contexts(&p))
		errx(1, "%s: no calls timed one by one with their stacks "
		    "(build with -finstrument-functions and link with a libmon "
		    "that keeps their contexts)", p.first);
	/* Calls timed one by one are counted too. */
	if (p.usedcells == 0 && p.ntimed == 0 && !o.wall && !o.slow)
		warnx("no call counts captured");

	attribute(&r, &p, &st, &o);
	if (r.histsum > 0 && r.histattr == 0 && !r.stripped)
		warnx("warning: no sample of %s falls in a function of %s",
		    p.first, shown);
	if (o.stats && o.focus != NULL)
		report_stats(&r, &p, &st);	/* the whole profile's */
	focus(&r, p.first);
	kept = fo;	/* -d's base is focused with fo in turn */
	if (o.slow)
		slow_print(&r, &p, &o);
	else if (o.wall && o.format == NULL && o.graph)
		wall_graph_print(&r, &p, &o);
	else if (o.wall && o.format == NULL)
		wall_print(&r, &p, &o);
	else if (o.diffbase != NULL) {
		read_base(prog);
		if (o.format == NULL)
			diff_print(&rb, &r, &o);
		else if (export_diff(o.format, &rb, &pb, &r, &p, &o, shown,
		    &out, &why) != 0)
			errx(1, "%s: %s", out, why);
	} else if (o.lines != 0 && o.format == NULL)
		show_lines();
	else if (o.format == NULL) {
		report_show(&r, &p, &o);
		if (o.focus != NULL) {
			putchar('\n');
			focus_note(stdout, &kept, &r, &o);
		}
	} else if (export_write(o.format, &r, &p, &o, shown, &out, &why) != 0)
		errx(1, "%s: %s", out, why);
	if (o.stats && o.focus != NULL)
		focus_note(stderr, &kept, &r, &o);
	else if (o.stats) {
		fflush(stdout);
		report_stats(&r, &p, &st);
	}
	finish_output();
	return 0;
}
