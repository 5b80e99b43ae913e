/*
 * prof.h -- the pieces of prof(1) and what passes between them.
 *
 * prof runs as a pipeline of steps, one file each:
 *
 *	main.c		options, usage, the order of the steps
 *	monread.c	the one reader of mon.out: checks, extension records,
 *			merging several files into one struct profile
 *	elfsym.c	an ELF64 x86_64 file's functions and its build-id,
 *			from its separate debug file when it is stripped
 *	perfmap.c	the functions a JIT names in /tmp/perf-PID.map
 *	attrib.c	histogram, call counts and outside samples -> rows;
 *			arcs and stack frames -> pairs of rows
 *	callgraph.c	the call graph over rows: inclusive time measured
 *			from the stacks, arc times, gprof's estimate
 *	report.c	sorting and printing the rows, the -s statistics
 *	graphprint.c	-q, the call graph; -e, the estimate beside it
 *	demangle.c	-C: names through c++filt
 *	printable.c	text from files made fit for a terminal
 *	heap.c		the heap the range-cutting sweeps share
 *	sortsum.c	sorting, and adding up what is equal
 *	xmalloc.c	allocation that cannot return NULL or overflow
 *	export*.c	-F: the profile for other tools (export.h)
 *
 * Errors: a reader returns -1 and a reason (a constant string, or one
 * the structure it fills keeps until it is freed); main() alone decides
 * to exit, with one line naming the file.  Warnings are one line each
 * and prof goes on.  Running out of memory is the one exit from deep
 * inside (xmalloc.c): no file is at fault, and nothing could go on.
 *
 * Addresses: mon.out holds run-time addresses.  The reader turns every
 * one of them into a place: an object (the main program is object 0) and
 * a link-time address inside it, so that nothing after the reader needs
 * to know about load biases or about which file an address came from.
 * An address that no loaded object holds is placed in the perf map of
 * the process that wrote its file, an object of its own, so that the
 * files of several processes merge and each still finds its own JIT's
 * names.
 */
#ifndef _PROF_H
#define _PROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "monfmt.h"

#define PROF_VERSION	"libmon prof 1.0"
#define CLASSIC_NS	10000000ULL	/* a classic mon.out ticks at 100 Hz */
#define UNSAMPLED_ROW	0.01	/* a share of the CPU time no sample stood
				   for worth a row of its own, */
#define UNSAMPLED_WARN	0.05	/* and worth a warning */

#define OBJ_MAIN	((size_t)0)	/* the profiled program */
#define OBJ_NONE	SIZE_MAX	/* an address no loaded object holds */

/* Options the steps look at. */
struct opts {
	int		 sort;		/* 'a', 'c', 'n' or 't' */
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
};

/*
 * A loaded object named by the profile; objs[OBJ_MAIN] is the program.
 * Or the perf map of a process, for the addresses of its JIT code.
 */
struct object {
	char		*path;
	unsigned char	*id;		/* build-id from the run, or NULL */
	size_t		 idlen;
	uint32_t	 jitpid;	/* a perf map: the process's pid */
};

/*
 * A count at a place: calls for a cell, samples for an outside pc --
 * those also weighted by their file's period (struct profile).
 */
struct place {
	size_t		 obj;		/* index in objs, or OBJ_NONE */
	uint64_t	 addr;		/* link-time address in that object */
	uint64_t	 count;
	double		 samples;	/* an outside pc's count, weighted */
};

/* libmon's code, [lo, hi) link-time in object obj (a SELF record). */
struct selfcode {
	size_t		 obj;
	uint64_t	 lo, hi;
};

/*
 * A call arc counted by mcount, placed: from is where the caller is
 * looked up (the return address less one), self the callee's cell
 * address, looked up as a cell's is.
 */
struct parc {
	size_t		 fobj;
	uint64_t	 from;
	size_t		 sobj;
	uint64_t	 self;
	uint64_t	 count;		/* calls */
};

/*
 * A frame of a sampled stack, placed where its function is looked up:
 * the sampled pc for the innermost, a return address less one for the
 * others.
 */
struct frame {
	size_t		 obj;
	uint64_t	 addr;
};

/*
 * A distinct stack: frames[first .. first + depth) of its profile,
 * innermost first.  Stacks of the same frames are one, summed.
 */
struct pstack {
	size_t		 first;
	size_t		 depth;
	uint64_t	 count;		/* samples, as the files counted them */
	double		 samples;	/* weighted as the histogram's */
	int		 cut;		/* outer frames lost at the limit */
};

/* How the files of a profile dealt with time in the kernel. */
enum kmode { K_APART, K_CALLSITE, K_SPREAD, K_CLASSIC, K_NMODES };

/* The build-id a file gives for the program it profiled. */
struct runid {
	const char	*file;
	unsigned char	*id;
	size_t		 idlen;
};

/*
 * What one or more mon.out files say, merged.  Files may have sampled at
 * different rates: each file's samples are weighted by its own period
 * over the first file's, so that a weighted sample always stands for
 * period seconds, and are summed as such.
 */
/*
 * ITIMER_PROF's samples of one process, all its files together: their
 * number and the CPU time they stand for (profile_scan()).
 */
struct ipool {
	uint32_t	 pid;
	double		 cpu;		/* seconds */
	uint64_t	 n;
};

struct profile {
	uint64_t	 lpc, hpc;	/* histogram range, link-time */
	double		*hist;		/* summed counters, weighted */
	size_t		 nhist;
	uint32_t	 scale;		/* profil() scale, 0 if unknown */
	struct place	*cells;		/* summed by place, sorted */
	size_t		 ncells;
	struct place	*pcs;		/* samples outside the histogram */
	size_t		 npcs;
	size_t		 pcscap;
	struct object	*objs;
	size_t		 nobjs;
	size_t		 objcap;
	size_t		*objhash;	/* index + 1 of objs[1..], or 0 */
	size_t		 hashcap;
	size_t		 nmaps;		/* of which perf maps */
	size_t		 nfiles;
	const char	*first;		/* the first file, for messages */
	char		*why;		/* a reason made for the last error */
	struct runid	*ids;
	size_t		 nids;
	int		 run;		/* every file had a RUN record */
	int		 anyrun;	/* some file had one */
	int		 clocks;	/* files of different clocks */
	struct monx_run	 sum;		/* their counters summed */
	uint64_t	 askmin, askmax; /* periods asked, ns (RUN files) */
	double		 period;	/* seconds a weighted sample */
	double		 pmin, pmax;	/* the files' own periods */
	uint64_t	 histraw;	/* samples in the histograms */
	uint64_t	 outraw;	/* and outside them */
	double		 wout;		/* the same, weighted */
	double		 wlost;		/* samples lost or dropped, weighted */
	uint64_t	 rawcells;	/* count cells in the files */
	uint64_t	 usedcells;	/* of which with calls */
	double		 wkernel;	/* kernel time the samples missed,
					   in weighted samples */
	size_t		 kfiles[K_NMODES]; /* files by kernel mode */
	double		 wunsampled;	/* CPU time no sample stood for, in
					   weighted samples; below 0: none */
	double		 cpuweighed;	/* the files' CPU time, the same */
	struct ipool	*ipools;	/* by process, before any file */
	size_t		 nipools;
	struct selfcode	*self;		/* libmon's code, by SELF records */
	size_t		 nself;
	struct parc	*arcs;		/* summed by places, sorted */
	size_t		 narcs, arccap;
	size_t		 arcfiles;	/* files whose arcs hold every call */
	size_t		 arcsbad;	/* cells their arcs do not add up to */
	struct pstack	*stacks;	/* summed by frames, sorted */
	size_t		 nstacks, stackcap;
	struct frame	*frames;
	size_t		 nframes, framecap;
	size_t		 stackfiles;	/* files that sampled stacks */
	uint64_t	 stackraw;	/* samples in the stacks, counted */
	uint32_t	 stackmax;	/* the largest stack_limit */
	uint32_t	 stackmin;	/* the smallest; 0 before the first */
};

/* One function symbol, as elfsym.c keeps it. */
struct func {
	uint64_t	 addr;
	uint64_t	 end;		/* one past its last byte */
	const char	*name;
	const char	*file;		/* a local's source file, or NULL */
	int		 local;
	int		 folded;	/* -l: a static in another's entry */
	size_t		 entry;		/* the report entry it counts for */
};

/* The functions of one ELF file, sorted by address. */
struct symtab {
	char		*path;
	struct func	*funcs;
	size_t		 nfuncs;
	char		*strs;		/* the string table names point into */
	size_t		 nsyms;		/* symbols in the table read */
	size_t		 nbad;		/* perf map lines skipped */
	const char	*table;		/* ".symtab", ".dynsym", "perf map" */
	char		*debug;		/* the debug file read, or NULL */
	unsigned char	*id;		/* NT_GNU_BUILD_ID, or NULL */
	size_t		 idlen;
};

/* A line of the report. */
struct row {
	const char	**names;	/* synonyms, printed "a, b" */
	size_t		 nnames;
	const char	*obj;		/* object label, NULL for the program */
	const char	*file;		/* a clashing local's source file */
	char		*own;		/* a name made for the row, or NULL */
	size_t		 objidx;
	uint64_t	 addr;
	double		 samples;
	uint64_t	 calls;
	size_t		 id;		/* its place in the graph, stable */
	int		 graphonly;	/* a row only the graph needed */
	double		 gself;		/* samples of stacks it ends */
	double		 incl;		/* samples of stacks it is in */
	double		 est;		/* gprof's estimate of incl */
	uint64_t	 callsin;	/* arcs into it from other rows */
	uint64_t	 selfcalls;	/* and from itself */
	size_t		 level;		/* fewest frames above it in a stack */
	int		 kernel;	/* the kernel's or the unsampled row:
					   no stack has it */
};

#define ROW_NONE	SIZE_MAX	/* a frame no row stands for */

/*
 * A caller-to-callee pair of rows, by id, counted by mcount or seen in
 * stacks or both.  samples: the stacks in which from calls to
 * directly, once a stack however often; leaf: of those, the stacks
 * that end in to right under from.
 */
struct cgarc {
	size_t		 from, to;
	uint64_t	 calls;
	int		 counted;	/* an arc of the files holds it */
	int		 unconfirmed;	/* in stacks, uncounted, to counted */
	double		 samples;
	double		 leaf;
	double		 est;		/* gprof's estimate of its time */
};

/* A stack in rows, ids[first .. first + depth), innermost first. */
struct cgstack {
	size_t		 first;
	size_t		 depth;
	double		 samples;
	int		 cut;		/* outer frames lost at the limit */
};

/* The call graph of a report. */
struct graph {
	struct cgarc	*arcs;		/* sorted by from, then to */
	size_t		 narcs, arccap;
	struct cgstack	*stacks;
	size_t		 nstacks;
	size_t		*ids;
	size_t		 nids, idcap;
	unsigned char	*skipped;	/* by ids: its call went elsewhere */
	size_t		 skipcap;
	int		 counted;	/* the files had arcs */
	int		 sampled;	/* the files had stacks */
	double		 samples;	/* in the stacks, libmon's left out */
	double		 overhead;	/* stacks ending in libmon's code */
	double		 unconfirmed;	/* stacks with an unconfirmed pair */
	double		 cut;		/* stacks cut at the limit */
	double		 shortend;	/* stacks ending short of a start */
	size_t		 nounconf;	/* distinct unconfirmed pairs */
	int		 estimated;	/* est computed (there were arcs) */
};

/* How attribution fared with object i > 0 of a profile, for -s. */
struct objuse {
	int			 tried;	/* it had data, and was looked up */
	const char		*why;	/* why it could not be read, or NULL */
	const struct symtab	*st;	/* its functions, when read */
	const char		*label;	/* how rows name it */
	size_t			 sampled; /* entries that took samples */
};

/*
 * The report: rows and the totals they are measured against.  Samples
 * are weighted ones (struct profile), but for the counts -s prints.
 */
struct report {
	struct row	*rows;
	size_t		 nrows;
	double		 total;		/* every sample of the run */
	double		 attributed;	/* samples given to a named function */
	double		 unsampled;	/* CPU time no sample stood for, the
					   same (its row) */
	double		 histattr;	/* of which from the histogram */
	double		 period;	/* seconds per sample */
	double		 overhead;	/* samples in libmon's code */
	int		 libmon;	/* 0, or how it was found: 'r' 'n' */
	uint64_t	 histsum;	/* samples in the histogram, counted */
	uint64_t	 outside;	/* outside it, counted */
	uint64_t	 calltotal;
	uint64_t	 callsunmatched;
	size_t		 cellscalled;	/* cells (by place) with calls */
	size_t		 cellsnamed;	/* of which given to a function */
	size_t		 qualified;	/* main-program functions */
	size_t		 nsyms;		/* symbols in its table */
	size_t		 idle;		/* qualified, but no time or calls */
	struct objuse	*uses;		/* one per object; [0] unused */
	void		*tabs;		/* attrib.c's symbol tables */
	size_t		 ntabs;
	struct graph	 g;		/* ids index rows as first made */
	struct row	**byid;		/* rows by id, once sorted */
};

/* A heap of indices; above(ctx, a, b): a goes above b (heap.c). */
struct heap {
	size_t		*v;
	size_t		 n;
	int		(*above)(const void *, size_t, size_t);
	const void	*ctx;
};

/* monread.c */
void	profile_scan(struct profile *, const char *);
int	profile_read(struct profile *, const char *, const char **);
int	profile_add(struct profile *, const char *, unsigned char *, size_t,
	    const char **);
void	profile_finish(struct profile *);
void	profile_free(struct profile *);
void	profile_check_id(const struct profile *, const char *,
	    const struct symtab *);
const char *profile_clock(const struct profile *);
const char *stack_limits(const struct profile *, char *, size_t);

/* elfsym.c */
int	symtab_load(struct symtab *, const char *, const char **);
int	symtab_load_vdso(struct symtab *, const char *, const char **);
void	symtab_free(struct symtab *);
size_t	symtab_lookup(const struct symtab *, uint64_t);
size_t	symtab_upper(const struct symtab *, uint64_t);

/* perfmap.c */
char	*perfmap_path(uint32_t);
int	perfmap_load(struct symtab *, const char *, const char **);
void	perfmap_parse(struct symtab *, char *, size_t);

/* attrib.c */
void	attribute(struct report *, const struct profile *, struct symtab *,
	    const struct opts *);
void	report_free(struct report *);

/* callgraph.c */
void	graph_compute(struct report *);
size_t	graph_find(const struct graph *, size_t, size_t);
void	graph_free(struct graph *);

/* report.c */
void	report_print(struct report *, const struct opts *);
void	report_sort(struct report *, const struct opts *);
void	put_rowname(const struct row *);
void	put_text(FILE *, const char *);

/* graphprint.c */
void	graph_print(struct report *, const struct profile *,
	    const struct opts *);
void	estimate_print(struct report *, const struct opts *);
void	report_show(struct report *, const struct profile *,
	    const struct opts *);
void	report_stats(const struct report *, const struct profile *,
	    const struct symtab *);

/* demangle.c */
void	demangle(const char **, size_t);

/* printable.c */
char	*printable(const char *);

/* heap.c */
void	heap_push(struct heap *, size_t);
void	heap_pop(struct heap *);

/* sortsum.c */
size_t	sortsum(void *, size_t, size_t, int (*)(const void *, const void *),
	    void (*)(void *, const void *));
void	addsat(uint64_t *, uint64_t);

/* xmalloc.c */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
void	*xgrow(void *, size_t *, size_t, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);

#endif /* !_PROF_H */
