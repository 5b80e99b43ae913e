/*
 * monfmt.h -- the mon.out extension, shared by the writer in lib/ and the
 * reader in prof/ so that both agree on one definition.
 *
 * A mon.out file is the classic layout of <mon.h>:
 *
 *	struct hdr			lpc, hpc, nfns
 *	struct cnt[nfns]		call-count cells
 *	WORD hist[]			the histogram, to the end of the file
 *
 * What the classic layout cannot say travels inside it, so that a classic
 * reader still finds the right histogram length and the right call totals:
 * the last cells of the array may be "extension cells" whose mcnt is 0 and
 * whose fnpc carries MONX_TAG in its top 16 bits -- a non-canonical x86_64
 * address that no function can have -- and six bytes of payload in its low
 * 48 bits (byte i of the payload in bits 8*i..8*i+7).  Concatenated, the
 * payloads of the extension cells form one little-endian byte stream:
 *
 *	struct monx_head		magic "MONX", version, length
 *	records, each			struct monx_rec, then len bytes,
 *					padded with zeros to 8 bytes
 *
 * A reader skips record types it does not know.  A file without extension
 * cells is a classic one: 100 Hz, addresses as linked.
 */
#ifndef _MONFMT_H
#define _MONFMT_H

#include <stddef.h>
#include <stdint.h>

#define MONX_TAG	0x4c4dULL		/* "LM" in fnpc bits 48..63 */
#define MONX_TAGSHIFT	48
#define MONX_PAYLOAD	6			/* payload bytes per cell */
#define MONX_MAGIC	"MONX"
#define MONX_VERSION	1
#define MONX_MAXLEN	(64UL << 20)		/* sanity bound for readers */

#define MONX_IS_CELL(fnpc, mcnt) \
	(((uint64_t)(fnpc) >> MONX_TAGSHIFT) == MONX_TAG && (mcnt) == 0)

struct monx_head {
	char		magic[4];	/* MONX_MAGIC */
	uint32_t	version;	/* MONX_VERSION */
	uint64_t	length;		/* bytes of records after this head */
};

struct monx_rec {
	uint32_t	type;		/* MONX_R_* */
	uint32_t	len;		/* payload bytes, before padding */
};

/* Record types. */
#define MONX_R_RUN	1		/* struct monx_run */
#define MONX_R_EXEC	2		/* struct monx_obj + build-id + path */
#define MONX_R_OBJ	3		/* another object: same layout */
#define MONX_R_PCS	4		/* struct monx_pc[]: samples outside */
#define MONX_R_SELF	5		/* struct monx_range: libmon's code */
#define MONX_R_ARCS	6		/* struct monx_arc[]: calls per arc */
#define MONX_R_STACKS	7		/* struct monx_stack, pcs, repeated */
#define MONX_R_CLOCKS	8		/* struct monx_clocks: measured calls */
#define MONX_R_TIMED	9		/* struct monx_timed[]: their times */
#define MONX_R_JIT	10		/* struct monx_jithead, then entries */
#define MONX_R_WALL	11		/* struct monx_wallhead, threads,
					   stacks: PROFMODE=wall */
#define MONX_R_SLOW	12		/* struct monx_slowhead, calls and
					   their stacks: PROFSLOW */

/* Clocks that drove the histogram (monx_run.clock). */
#define MONX_CLK_ITIMER		0	/* setitimer(ITIMER_PROF), whole process */
#define MONX_CLK_PERF		1	/* perf_event task-clock, per CPU, inherited */
#define MONX_CLK_TIMER		2	/* timer_create(CLOCK_THREAD_CPUTIME_ID) */

struct monx_run {
	uint32_t	clock;		/* MONX_CLK_* */
	uint32_t	pid;		/* process that wrote the file */
	uint64_t	period_ns;	/* sampling period asked for */
	uint64_t	cpu_ns;		/* CPU time used while profiled */
	uint64_t	samples_in;	/* counted in the histogram */
	uint64_t	samples_out;	/* pc outside [lpc, hpc) */
	uint64_t	samples_lost;	/* dropped: counter saturated */
	uint64_t	saturated;	/* histogram counters at 0xffff */
	uint64_t	overruns;	/* expirations the clock missed */
	uint64_t	cells_lost;	/* calls not counted: no cell */
	uint32_t	scale;		/* profil() scale of the histogram */
	uint32_t	threads;	/* threads that counted calls */
	uint64_t	dropped;	/* samples the kernel dropped: ring full */
	uint64_t	unloaded_lost;	/* dlclose'd objects left unrecorded */
	uint64_t	outside_lost;	/* samples outside, no place to keep */
	uint32_t	unsampled;	/* threads no clock could be given */
	uint32_t	tables;		/* count tables they used (reused) */
	uint64_t	user_ns;	/* of which user time (getrusage) */
	uint64_t	sys_ns;		/* and system time; their ratio holds */
	uint64_t	stacks_lost;	/* samples whose stack found no place */
	uint64_t	stacks_cut;	/* stacks cut at stack_limit frames */
	uint32_t	stack_limit;	/* most frames a stack keeps; 0: none */
	uint32_t	arcs;		/* 1 if ARCS records hold every call */
	uint32_t	part;		/* snapshot n of a run in parts; 0: whole */
	uint32_t	last;		/* 1: the part written as the run ended */
	uint64_t	begin_ns;	/* the part covers [begin_ns, end_ns), */
	uint64_t	end_ns;		/* CLOCK_REALTIME; 0 in a whole run */
	uint64_t	sample_ns;	/* CPU time one sample stands for; 0:
					   unknown, cpu_ns over the samples */
	uint64_t	own_ns;		/* CPU time of libmon's own threads,
					   not in cpu_ns */
	uint64_t	start_ns;	/* CLOCK_REALTIME when the profile
					   started; 0: unknown */
	uint64_t	wall_ns;	/* wall time from then to the stop
					   (to the cut, in a part) */
	uint64_t	samples_kernel;	/* taken in kernel mode: in no
					   histogram nor samples_in */
	uint32_t	flags;		/* MONX_RUN_* */
	uint32_t	pad;
};

/*
 * How the run sampled (monx_run.flags; a RUN record too short to hold
 * them has none).  MONX_RUN_KERNEL: the perf clock sampled kernel mode
 * as well as user mode, so that its samples, samples_kernel among them,
 * stand for all the CPU time, user and system; user_ns and sys_ns then
 * only describe.  Without it the perf clock sampled user mode only and
 * the system time is in no sample.
 *
 * MONX_RUN_COARSE: the perf clock's kernel sampled at the period itself
 * from the start (the program had one thread), not several times a
 * period; with MONX_RUN_REFINED too, it sampled finely from the first
 * pthread_create() after a thread's time went unsampled; with
 * MONX_RUN_CROWDED instead, it was to, but too many threads were alive
 * then, or one could not have finer events, and it stayed coarse.  None
 * of them: finely throughout, as every perf clock did before these
 * flags.  MONX_RUN_REVIVED: the timer clock found a thread's timer
 * stopped while the thread ran (some kernels stop them), and armed it
 * again; the periods it had missed went to its next sample.  Merged files' flags
 * are or'ed.
 */
#define MONX_RUN_KERNEL	1
#define MONX_RUN_COARSE	2
#define MONX_RUN_REFINED 4
#define MONX_RUN_CROWDED 8
#define MONX_RUN_REVIVED 16

/* What a RUN record holds at least: version 1's first writers ended it here. */
#define MONX_RUN_MINLEN	offsetof(struct monx_run, dropped)

/*
 * An object mapped into the profiled process.  bias is what was added to
 * its link-time addresses (0 for a non-PIE executable); [lo, hi) its text
 * at run time.  Followed by idlen bytes of ELF build-id, then pathlen
 * bytes of path (no terminating NUL).  The OBJ records list the objects
 * mapped when the file was written, then those dlclose() unloaded while
 * profiled; ranges may overlap, and an address belongs to the first
 * record whose range holds it.
 */
struct monx_obj {
	uint64_t	bias;
	uint64_t	lo;
	uint64_t	hi;
	uint32_t	idlen;
	uint32_t	pathlen;
};

/*
 * Run-time addresses [lo, hi) of libmon's own code in the program (its
 * section libmon_text): time there is profiling's, not the program's.
 */
struct monx_range {
	uint64_t	lo;
	uint64_t	hi;
};

/*
 * A caller-to-callee arc counted by mcount.  frompc is the return address
 * of the call into the callee (run-time; the caller is the function that
 * holds frompc - 1, instrumented or not), selfpc the callee's cell
 * address as in struct cnt.  The cnt cells are the sums of the arcs by
 * selfpc.
 */
struct monx_arc {
	uint64_t	frompc;
	uint64_t	selfpc;
	uint64_t	count;		/* calls made along it */
};

/*
 * A distinct user call stack and the samples that found it.  Followed by
 * depth run-time pcs, innermost first: pc[0] is the sampled pc, the
 * others return addresses (the caller is at pc[i] - 1).  A record holds
 * as many stacks as its length allows; the same stack may appear more
 * than once, and readers add.
 */
struct monx_stack {
	uint64_t	count;		/* samples */
	uint32_t	depth;		/* pcs that follow, >= 1 */
	uint32_t	flags;		/* MONX_STK_* */
};

#define MONX_STK_CUT	1		/* outer frames beyond the limit lost */
#define MONX_STK_KERNEL	2		/* sampled in kernel mode: pc[0] is the
					   user pc the kernel was entered at */

/*
 * Code the program generated and named (mon_perfmap_write(3C)), each
 * entry a struct monx_jit followed by namelen bytes of name (no NUL),
 * padded with zeros to 8 bytes, in the order they were named; a later
 * entry over the same addresses names code that took the place of the
 * earlier.  time_ns is CLOCK_REALTIME when it was named.
 */
struct monx_jithead {
	uint64_t	entries;	/* that follow */
	uint64_t	dropped;	/* named, not here: no memory, or no
					   room under MONX_MAXLEN */
};

struct monx_jit {
	uint64_t	addr;		/* run-time address */
	uint64_t	size;		/* bytes, > 0 */
	uint64_t	time_ns;	/* when named; 0: unknown */
	uint32_t	namelen;
	uint32_t	pad;
};

struct monx_pc {
	uint64_t	pc;		/* run-time address */
	uint64_t	count;		/* samples there */
};

/*
 * Calls timed one by one: code compiled with -finstrument-functions
 * (lib/calls.c).  A CLOCKS record says how ticks become time and what
 * was not timed; a TIMED record, after it, holds the functions and the
 * caller-to-callee arcs.  Both are in a whole profile and in the last
 * part of a run in parts, for the whole run; in no other part.
 *
 * Ticks are seconds * (ns1 - ns0) / (tick1 - tick0) / 1e9: tick and
 * CLOCK_MONOTONIC read together at the start and at the write.  With
 * MONX_TK_MONO the ticks are nanoseconds.  The times are wall time:
 * a call blocked, or its thread preempted, counts.
 */
#define MONX_TK_TSC	0		/* the CPU's invariant time-stamp counter */
#define MONX_TK_MONO	1		/* CLOCK_MONOTONIC, in ns */

struct monx_clocks {
	uint32_t	clock;		/* MONX_TK_* */
	uint32_t	depth;		/* frames a thread's stack holds */
	uint64_t	tick0;		/* tick and CLOCK_MONOTONIC ns */
	uint64_t	ns0;		/* at the start */
	uint64_t	tick1;		/* and when the file was written */
	uint64_t	ns1;
	uint64_t	missed;		/* calls in a signal handler that
					   interrupted a hook: not timed */
	uint64_t	unwound;	/* frames closed by an unwind
					   (longjmp, exception, thread exit) */
	uint64_t	unmatched;	/* exits with no frame: ignored */
	uint64_t	deep;		/* calls beyond depth: not timed */
	uint64_t	nomem;		/* calls not timed: no memory */
	uint32_t	threads;	/* threads that timed calls */
	uint32_t	ctxcut;		/* contexts not in TIMED: no room
					   (0 before libmon kept them) */
};

#define MONX_TM_FUNC	1		/* a function: caller 0 */
#define MONX_TM_ARC	2		/* an arc caller -> callee */
#define MONX_TM_CTX	3		/* a calling context: caller is the
					   context it was called in, by
					   monx_ctx(), 0 at a thread's root,
					   MONX_CTX_OVER where not known */
#define MONX_CTX_OVER	1		/* made when its thread had 65,536
					   contexts: its stack is lost, its
					   function and caller kept */

/*
 * A calling context: the callee called with the stack of functions its
 * parent context names above it.  Each names itself by a hash of its
 * parent's name and its callee's address, never 0, MONX_CTX_OVER or ~0
 * (the writer's key of a function); a file's contexts form a tree by
 * their parents' names.  The writer and the reader compute the same.
 */
static inline uint64_t
monx_ctx(uint64_t parent, uint64_t callee)
{
	uint64_t h;

	h = parent * 0x9e3779b97f4a7c15ULL ^ callee;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 32;
	return h > MONX_CTX_OVER && h != ~(uint64_t)0 ? h : MONX_CTX_OVER + 1;
}

/*
 * One function, one arc or one calling context of the timed calls;
 * addresses are run-time function entries (an arc's caller 0: the first
 * timed call of its thread's stack).  calls counts the calls made (entered), open the
 * calls still running at the write -- counted with their time so far;
 * one made before the profile started (in a fork child, the caller of
 * fork()) is open but not among the calls -- and unwound those closed
 * by an unwind, with their time until then.
 * incl is the time from enter to exit of the outermost calls only: a
 * recursive call's time is in its outermost caller's once.  self is
 * incl less the callees' time, every frame's.  min and max are the
 * shortest and longest whole call (0 if none was whole).  Ticks.
 * A context (MONX_TM_CTX) is the calls of its callee made with one
 * stack above it; a stack holds a context once, so that its incl is
 * every one of its calls' time.  Its functions' and arcs' figures are
 * the sums of their contexts', the arcs' incl counted in the outermost
 * context of each stack that holds the arc.
 */
struct monx_timed {
	uint32_t	kind;		/* MONX_TM_* */
	uint32_t	open;
	uint64_t	callee;
	uint64_t	caller;
	uint64_t	calls;
	uint64_t	incl;
	uint64_t	self;
	uint64_t	min;
	uint64_t	max;
	uint64_t	unwound;
};

/*
 * PROFSLOW=MICROSECONDS: the slowest calls timed one by one that took
 * longer than the threshold (lib/calls.c).  One SLOW record, after the
 * CLOCKS record, in a whole profile and in the last part of a run in
 * parts: its head, then ncalls struct monx_slow, each followed by depth
 * run-time function entries, innermost first -- the slow call's
 * function, then its callers on the thread's stack of timed calls.
 * Times are CLOCK_MONOTONIC nanoseconds, converted from the ticks by
 * the CLOCKS pairs.  The calls are the process's slowest, at most keep
 * of them; over counts every call over the threshold, kept or not.
 */
struct monx_slowhead {
	uint64_t	threshold_ns;	/* PROFSLOW, in ns */
	uint64_t	over;		/* calls that took longer */
	uint32_t	ncalls;		/* struct monx_slow that follow */
	uint32_t	keep;		/* the most a file holds */
};

struct monx_slow {
	uint64_t	start_ns;	/* CLOCK_MONOTONIC at its enter */
	uint64_t	dur_ns;		/* enter to exit */
	uint32_t	tid;		/* its thread */
	uint16_t	depth;		/* entries that follow, >= 1 */
	uint16_t	flags;		/* MONX_STK_CUT: outer ones lost */
};

/*
 * PROFMODE=wall: every thread sampled on the wall clock, running or
 * blocked (lib/wall.c).  One WALL record, in a whole profile and in the
 * last part of a run in parts, for the whole run: its head, nthreads
 * struct monx_wallthr, then nstacks struct monx_wallstk each followed
 * by depth run-time pcs, innermost first.  A waiting stack's pc[0] is
 * the user pc its system call returns to; its other pcs, as a running
 * one's, are return addresses.  A sample stands for period_ns of one
 * thread's wall time.
 */
struct monx_wallhead {
	uint64_t	period_ns;	/* the wall sampler's period */
	uint64_t	ticks;		/* periods its rounds stood for:
					   samples a thread there all along
					   would have */
	uint64_t	late;		/* rounds missed whose periods the
					   counts leave out: a sample stands
					   for (ticks + late) / ticks periods
					   (0 since a round counts the
					   periods it stands for itself) */
	uint64_t	lost;		/* samples with no place kept */
	uint64_t	own_ns;		/* CPU time the sampler used */
	uint32_t	nthreads;	/* struct monx_wallthr that follow */
	uint32_t	nstacks;	/* then struct monx_wallstk + pcs */
};

struct monx_wallthr {
	uint32_t	tid;
	uint32_t	flags;		/* MONX_WT_* */
	uint64_t	cpu_ns;		/* CPU time it used while sampled */
	char		name[16];	/* its name (comm), NUL-padded */
};

#define MONX_WT_GONE	1		/* it ended before the write */

struct monx_wallstk {
	uint64_t	count;		/* samples */
	uint32_t	tid;
	uint16_t	state;		/* MONX_WS_* */
	uint16_t	flags;		/* MONX_STK_CUT */
	int32_t		sysno;		/* system call waited in; -1: none */
	uint32_t	depth;		/* pcs that follow; 0: not known */
};

#define MONX_WS_RUN	1		/* running or runnable (R) */
#define MONX_WS_WAIT	2		/* asleep, interruptible (S) */
#define MONX_WS_DISK	3		/* asleep, uninterruptible (D) */
#define MONX_WS_OTHER	4		/* stopped, traced, a zombie */

#endif /* !_MONFMT_H */
