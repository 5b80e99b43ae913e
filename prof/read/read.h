/*
 * read.h -- prof's first room: what the readers make of their files.
 *
 * The readers, in the order their data is used:
 *
 *	monread.c	one mon.out file read whole and checked: the classic
 *			part, then the extension records
 *	place.c		the objects of all files joined; every run-time
 *			address of a file placed in an object
 *	merge.c		each file merged into one struct profile, and what
 *			the merged profile says of its run
 *	elfsym.c	an ELF64 x86_64 file's functions and its build-id,
 *			from its separate debug file when it is stripped
 *	dwline.c	an ELF file's DWARF line table: address to source
 *			file and line
 *	perfmap.c	the functions a JIT names in /tmp/perf-PID.map
 *	demangle.c	-C: names through c++filt
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
#ifndef _READ_H
#define _READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "monfmt.h"

#define CLASSIC_NS	10000000ULL	/* a classic mon.out ticks at 100 Hz */

#define OBJ_MAIN	((size_t)0)	/* the profiled program */
#define OBJ_NONE	SIZE_MAX	/* an address no loaded object holds */

/*
 * A loaded object named by the profile; objs[OBJ_MAIN] is the program.
 * Or the perf map of a process, for the addresses of its JIT code.
 */
struct object {
	char		*path;
	unsigned char	*id;		/* build-id from the run, or NULL */
	size_t		 idlen;
	uint32_t	 jitpid;	/* a perf map: the process's pid */
	uint32_t	 jitpart;	/* and for one that holds names a
					   profile kept, their part (0: a
					   whole run) ... */
	uint64_t	 jitstart;	/* ... and run (its start_ns) */
	char		*jittext;	/* its names from the profile, as map
					   lines, or NULL */
	size_t		 jitlen, jitcap;
	uint64_t	 jitseen;	/* the files' entries it holds */
	uint64_t	 jitdropped;	/* named, but not kept: no memory */
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
	int		 kernel;	/* taken in the kernel, which these
					   frames called (MONX_STK_KERNEL) */
};

/*
 * A function's calls timed one by one (-finstrument-functions, the
 * TIMED records), placed at its entry; seconds of wall time.
 */
struct ptimed {
	size_t		 obj;
	uint64_t	 addr;
	int		 arc;		/* an arc: its caller below */
	int		 ctx;		/* a calling context: the calls of
					   the function with one stack above
					   it, that of its parent, up */
	size_t		 up;		/* a context's parent, an index in
					   the profile's timed; SIZE_MAX at a
					   thread's root, or where lost */
	int		 lost;		/* a context whose stack was not kept
					   (MONX_CTX_OVER) */
	size_t		 cobj;		/* the caller's entry; OBJ_NONE and */
	uint64_t	 caddr;		/* 0: where the thread's timed
					   calls start */
	uint64_t	 calls;
	uint64_t	 open;		/* running when the file was written */
	double		 incl;		/* outermost calls only */
	double		 self;
	double		 min, max;	/* shortest, longest whole call; 0 */
};

/*
 * PROFSLOW (SLOW records): a call that took longer than the threshold,
 * with the timed functions on its thread's stack, sframes[first ..
 * first + depth), innermost first: its own, then its callers'.
 */
struct pslow {
	double		 start;		/* s after its file's profile began */
	double		 dur;		/* s */
	uint32_t	 pid, tid;
	size_t		 first, depth;
	int		 cut;		/* outer callers lost */
};

/*
 * PROFMODE=wall (WALL records): a thread of a file's run, and a sample
 * of its state -- running, or waiting in a system call -- with the
 * stack, frames wframes[first .. first + depth) of the profile.
 */
struct wthread {
	uint32_t	 pid, tid;
	uint64_t	 cpu_ns;	/* CPU time it used while sampled */
	char		 name[17];
	int		 gone;		/* ended before its file was written */
	double		 running;	/* seconds of samples running */
	double		 waiting;	/* and not */
	double		 period;	/* its file's wall period, seconds */
};

struct wstack {
	size_t		 thread;	/* index in wthreads */
	int		 state;		/* MONX_WS_* */
	int32_t		 sysno;		/* -1: none */
	int		 cut;
	size_t		 first, depth;
	double		 secs;		/* wall time its samples stand for */
};

/* How the files of a profile dealt with time in the kernel. */
enum kmode { K_SAMPLED, K_APART, K_CALLSITE, K_SPREAD, K_CLASSIC, K_NMODES };

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

/* A bin of the histogram that took samples. */
struct hbin {
	size_t		 i;		/* its index */
	double		 w;		/* summed counters, weighted */
};

struct profile {
	uint64_t	 lpc, hpc;	/* histogram range, link-time */
	struct hbin	*bins;		/* the bins that took samples, by
					   index; the others hold 0 */
	size_t		 nbins;
	size_t		 nhist;		/* bins in all */
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
	double		 wkernel;	/* kernel time, in weighted samples:
					   sampled, or what the samples
					   missed (K_APART) */
	double		 wksampled;	/* of which sampled (K_SAMPLED) */
	size_t		 kfiles[K_NMODES]; /* files by kernel mode */
	double		 wunsampled;	/* CPU time no sample stood for, in
					   weighted samples; below 0: none */
	double		 cpuweighed;	/* the files' CPU time, the same */
	struct ipool	*ipools;	/* by process, before any file */
	size_t		 nipools;
	const char	*kept;		/* the file scanned last, */
	unsigned char	*keptbuf;	/* its bytes, for profile_read() */
	size_t		 keptlen;
	struct selfcode	*self;		/* libmon's code, by SELF records */
	size_t		 nself;
	struct parc	*arcs;		/* summed by places, sorted */
	size_t		 narcs, arccap;
	size_t		 arcfiles;	/* files whose arcs hold every call */
	size_t		 arcsbad;	/* cells their arcs do not add up to */
	struct pstack	*stacks;	/* summed by frames, sorted, once
					   profile_sum_stacks() has */
	int		 stacksummed;
	size_t		 nstacks, stackcap;
	struct frame	*frames;
	size_t		 nframes, framecap;
	size_t		 stackfiles;	/* files that sampled stacks */
	uint64_t	 stackraw;	/* samples in the stacks, counted */
	int		 stacksover;	/* a file's held more, warned */
	uint32_t	 stackmax;	/* the largest stack_limit */
	uint32_t	 stackmin;	/* the smallest; 0 before the first */
	struct ptimed	*timed;		/* by file, unsorted */
	size_t		 ntimed, timedcap;
	size_t		 timedfiles;	/* files with TIMED records */
	struct monx_clocks tclocks;	/* their counters summed */
	struct wthread	*wthreads;	/* PROFMODE=wall: every file's */
	size_t		 nwthreads, wthrcap;
	struct wstack	*wstacks;
	size_t		 nwstacks, wstackcap;
	struct frame	*wframes;
	size_t		 nwframes, wframecap;
	size_t		 wallfiles;	/* files with a WALL record */
	double		 wallsecs;	/* thread-seconds they sampled */
	double		 wallrun;	/* the longest run's wall time, s */
	double		 wallhz;	/* the first file's wall rate */
	double		 wallown;	/* CPU seconds their samplers used */
	uint64_t	 walllost;	/* samples with no place kept */
	struct pslow	*slow;		/* PROFSLOW: every file's */
	size_t		 nslow, slowcap;
	struct frame	*sframes;
	size_t		 nsframes, sframecap;
	size_t		 slowfiles;	/* files with a SLOW record */
	uint64_t	 slowover;	/* calls over their thresholds */
	uint64_t	 slowns;	/* the first file's threshold, ns */
	uint32_t	 slowkeep;	/* the most a file kept */
	uint64_t	 wallticks;	/* their samplers' rounds */
	uint64_t	 walllate;	/* and rounds missed, running late */
	size_t		 wallearly;	/* files without a WALL record: parts
					   of a run but its last, */
	size_t		 wallnone;	/* and the others */
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

/* A section of an ELF file, read whole (elf_sections()). */
struct elfsec {
	unsigned char	*data;		/* NULL: absent */
	size_t		 size;
	const char	*packed;	/* compressed and not read: why */
};

/*
 * The line table of an ELF file (dwline.c): its DWARF .debug_line rows
 * sorted by address, each the start of a run of code from one source
 * line.  A row of file DWL_END ends a sequence: the addresses from it
 * to the next row belong to no line.
 */
#define DWL_END		UINT32_MAX	/* a row that ends a sequence */
#define DWL_NOFILE	(UINT32_MAX - 1) /* a file the table does not list */

struct dwrow {
	uint64_t	 addr;
	uint32_t	 file;		/* index in files, or DWL_* */
	uint32_t	 line;		/* 0: no line */
};

struct dwline {
	struct dwrow	*rows;
	size_t		 nrows, rowcap;
	char		**files;	/* paths, joined as addr2line joins */
	size_t		 nfiles, filecap;
	size_t		 nbad;		/* units skipped as malformed */
	const char	*why;		/* the reason for the first of them */
	const char	*packed;	/* .debug_line compressed, not read:
					   why (elfsec.packed) */
};

/* monread.c */
void	profile_scan(struct profile *, const char *);
int	profile_read(struct profile *, const char *, const char **);
int	profile_add(struct profile *, const char *, unsigned char *, size_t,
	    const char **);
void	profile_finish(struct profile *);
int	profile_has_contexts(const struct profile *);
void	profile_sum_stacks(struct profile *);
void	profile_free(struct profile *);
void	profile_drop_cells(struct profile *);
void	profile_drop_arcs(struct profile *);
void	profile_check_id(const struct profile *, const char *,
	    const struct symtab *);
const char *profile_clock(const struct profile *);
int	profile_in_self(const struct profile *, size_t, uint64_t);
const char *stack_limits(const struct profile *, char *, size_t);
void	profile_put_clock(FILE *, const struct profile *);

/* elfsym.c */
int	symtab_load(struct symtab *, const char *, const char **);
int	symtab_load_vdso(struct symtab *, const char *, const char **);
char	*symtab_debug_file(const struct symtab *);
int	elf_section_range(const char *, const char *, uint64_t *, uint64_t *);
void	symtab_free(struct symtab *);
size_t	symtab_lookup(const struct symtab *, uint64_t);
size_t	symtab_upper(const struct symtab *, uint64_t);
size_t	symtab_upper_in(const struct symtab *, uint64_t, size_t, size_t);
int	elf_sections(const char *, const char *const *, struct elfsec *,
	    size_t, const char **);

/* inflate.c */
int	inflate_zlib(const unsigned char *, size_t, unsigned char *, size_t);

/* dwline.c */
int	dwline_load(struct dwline *, const char *, const char **);
int	dwline_load_object(struct dwline *, const struct symtab *, char **,
	    const char **);
int	dwline_find(const struct dwline *, uint64_t, const char **,
	    uint32_t *);
int	dwline_span(const struct dwline *, uint64_t, const char **,
	    uint32_t *, uint64_t *);
void	dwline_free(struct dwline *);

/* perfmap.c */
char	*perfmap_path(uint32_t);
int	perfmap_load(struct symtab *, const char *, const char *, size_t,
	    const char **);
void	perfmap_parse(struct symtab *, char *, size_t);

/* demangle.c */
void	demangle(const char **, size_t);

#endif /* !_READ_H */
