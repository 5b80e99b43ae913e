/*
 * prof.h -- what every step of prof(1) is given from the command line.
 *
 * prof is a pipeline; data passes through its rooms in one order, and
 * calls go the same way, never back up:
 *
 *	read/	mon.out files, ELF symbols, perf maps, c++filt's names
 *		-> one merged struct profile, and struct symtab
 *	model/	the profile against the symbols -> struct report: rows,
 *		arcs and stacks between rows, inclusive time
 *	print/	the report on stdout: the flat rows, the call graph,
 *		the -s statistics on stderr
 *	export/	or -F: the report as another tool's file, each format
 *		laid out from one shared view of the stacks
 *	util/	what every room uses: allocation, sorting, a heap,
 *		text made printable
 *
 * main.c parses the options and calls the steps in order.  Each room's
 * header (read/read.h, model/model.h, print/print.h, export/export.h,
 * util/util.h) says what it offers the rooms after it in this list; a
 * room calls only itself, the rooms before it and util/, never one
 * after it (print/ and export/ not each other), which make lint checks
 * (tests/run-layers).
 *
 * Errors: a reader returns -1 and a reason (a constant string, or one
 * the structure it fills keeps until it is freed); main() alone decides
 * to exit, with one line naming the file.  Warnings are one line each
 * and prof goes on.  Running out of memory is the one exit from deep
 * inside (util/xmalloc.c): no file is at fault, and nothing could go on.
 */
#ifndef _PROF_H
#define _PROF_H

#define PROF_VERSION	"libmon prof 1.0"

/* Options the steps look at. */
struct opts {
	int		 sort;		/* 'a', 'c', 'n', 't' or 'I' */
	int		 addr;		/* 0, 'o' or 'x' */
	int		 fold;		/* -l: fold local functions, as classic */
	int		 zeros;		/* -z */
	int		 nohead;	/* -h */
	int		 stats;		/* -s */
	int		 demangle;	/* -C */
	int		 progonly;	/* -p: the main program only */
	int		 unnamed;	/* -u: unnamed addresses one by one */
	int		 graph;		/* -q: the call graph, not the rows */
	int		 incl;		/* -i: an inclusive-time column */
	int		 estimate;	/* -e: gprof's estimate beside */
	const char	*format;	/* -F: written for another tool */
	const char	*focus;		/* -f: stacks through these names */
	const char	*diffbase;	/* -d: the profile to compare with */
	const char	*diffprog;	/* -D: the base's program */
	int		 lines;		/* 'L' or 'A': by source line */
	const char	*srcdir;	/* -S: where -A looks for sources */
	int		 wall;		/* -w: in wall time (PROFMODE=wall) */
	int		 ranonly;	/* -r: threads that ran, with -w */
	int		 slow;		/* -T: PROFSLOW's slow calls */
	int		 bythread;	/* -N: -w's rows by thread name */
	int		 measured;	/* -M: -F's stacks are the calls
					   timed one by one */
};

#endif /* !_PROF_H */
