/*
 * mon_private.h -- internals shared by the files of libmon.
 *
 * Every name here is hidden (the library is built with
 * -fvisibility=hidden) and begins with _mon_, so that a profiled program's
 * own namespace stays clean.
 *
 * The pieces, leaves first; each calls only those above it in this list
 * (and util.c, which every one may):
 *
 *	util.c		mmap'd memory, one-line warnings, libc's own symbols
 *	table.c		counts by address in open hashes that grow
 *	hist.c		the PC histogram, the outside table, the statistics
 *	stacks.c	the sampled call stacks, distinct, with their samples
 *	arcsort.c	the merged arcs sorted, by callee then call site
 *	mcount.c	call-count tables by thread and CPU; mcount's slow path
 *	profiler.c	the profiler API's handles, events and modules
 *	syms.c		a function's name from its ELF file (PROFCALLS)
 *	callspec.c	PROFCALLS: functions timed or not, by name
 *	calls.c		-finstrument-functions: each call's time measured
 *	x86_64/mcount_entry.S mcount and __fentry__: the fast path
 *	objects.c	the loaded objects: load bias, build-id, text range;
 *			the stack walks' table of text ranges
 *	dlclose.c	dlclose: an unloaded library noted for the writer
 *	ring.c		the perf clock: per-CPU rings and their drainer
 *	timer.c		the signal clocks: per-thread timers, ITIMER_PROF
 *	sigprof.c	the SIGPROF action: handler, chaining, adoption
 *	wall.c		PROFMODE=wall: every thread's state, sampled
 *			on the wall clock by a thread of libmon's
 *	clock.c		which clock runs, and driving it
 *	base.c		counts by key at the last snapshot: baselines
 *	perfmap.c	generated code named: the perf map and the record
 *	monwrite.c	the mon.out writer and its name
 *	snap.c		a profile in parts: one part, and a run's names
 *	term.c		polite termination and the snapshot signal and
 *			thread: the handlers, the program's actions kept
 *	lifecycle.c	start, stop, profil(), fork, exec, threads: the order
 *	monitor.c, profil.c	the public wrappers
 *	thread.c, exec.c, sigaction.c, sigwait.c	libc's functions,
 *	vfork.c, x86_64/vfork_entry.S		taken over
 *	dlopen.c, x86_64/dlopen_entry.S
 */
#ifndef _MON_PRIVATE_H
#define _MON_PRIVATE_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mon.h"
#include "monfmt.h"

#define _mon_hidden	__attribute__((visibility("hidden")))
#define _mon_public	__attribute__((visibility("default")))

/*
 * A histogram as profil() armed it.  A descriptor is immutable while
 * published through _mon_hist; users counts samplers reading it.
 */
struct _mon_hist {
	WORD		*buf;
	size_t		 nwords;
	uintptr_t	 off;
	unsigned int	 scale;
	_Atomic unsigned int users;
};

/* Sampling statistics of the current histogram; samplers add to them. */
struct _mon_stats {
	_Atomic uint64_t	in;
	_Atomic uint64_t	out;
	_Atomic uint64_t	lost;
	_Atomic uint64_t	saturated;
	_Atomic uint64_t	overruns;
	_Atomic uint64_t	dropped;	/* by the kernel: ring full */
	_Atomic uint64_t	outlost;	/* outside, no place in the table */
	_Atomic uint64_t	kernel;		/* in kernel mode: no pc to count */
	uint64_t		cpu0_ns;	/* process CPU clock at start */
	uint64_t		cpu_ns;		/* CPU used, fixed at stop */
	uint64_t		own_ns;		/* by libmon's own threads, not in it */
	uint64_t		pause0_ns;	/* CPU clock at moncontrol(0) */
	uint64_t		paused_ns;	/* CPU used while paused */
	uint64_t		user0_ns;	/* user CPU at start */
	uint64_t		sys0_ns;	/* system CPU at start */
	uint64_t		user_ns;	/* user CPU, fixed at stop */
	uint64_t		sys_ns;		/* system CPU, fixed at stop */
	uint64_t		period_ns;	/* period asked of the clock */
	uint64_t		real0_ns;	/* CLOCK_REALTIME at start */
	uint64_t		mono0_ns;	/* CLOCK_MONOTONIC at start */
	uint64_t		wall_ns;	/* wall time since, at the cut */
	uint64_t		sample_ns;	/* CPU time a sample stands for */
	uint64_t		own0[3];	/* libmon's threads' CPU, user, system
					   at start (_mon_stats_own) */
	int			clock;		/* MONX_CLK_* */
	uint32_t		runflags;	/* MONX_RUN_* */
};

extern _Atomic(struct _mon_hist *) _mon_hist _mon_hidden;
extern struct _mon_stats _mon_stats _mon_hidden;

/* table.c: a chain of open hashes, each twice the one before. */
#define _MON_TABMAX	12
struct _mon_slot {
	_Atomic uintptr_t	key;		/* 0: free */
	_Atomic uintptr_t	key2;		/* set after key is claimed */
	_Atomic uint64_t	count;
};
struct _mon_tab {
	_Atomic(struct _mon_slot *) hash[_MON_TABMAX];
	_Atomic size_t		nkeys[_MON_TABMAX];	/* slots taken */
	_Atomic unsigned int	cur;		/* the hash keys go to */
	unsigned int		bits0;		/* log2 slots of hash[0] */
	unsigned int		nhash;		/* at most _MON_TABMAX */
};
struct _mon_slot *_mon_tab_slot(struct _mon_tab *, uintptr_t, uintptr_t)
	    _mon_hidden;
void	_mon_tab_reset(struct _mon_tab *) _mon_hidden;
struct _mon_slot *_mon_tab_hash(struct _mon_tab *, unsigned int, size_t *)
	    _mon_hidden;
size_t	_mon_tab_keys(struct _mon_tab *) _mon_hidden;

/* hist.c */
void	_mon_hist_set(WORD *, size_t, uintptr_t, unsigned int) _mon_hidden;
int	_mon_sample(uintptr_t, uint64_t) _mon_hidden;
int	_mon_sample_kernel(uint64_t) _mon_hidden;
int	_mon_hist_covers(uintptr_t) _mon_hidden;

/* stacks.c */
#define _MON_STACKMAX	127		/* the kernel's usual walk limit */
extern uint32_t _mon_stack_limit _mon_hidden;
uint32_t _mon_stack_add(const uintptr_t *, uint32_t, uint32_t, uint64_t)
	    _mon_hidden;
void	_mon_stack_mark(pid_t, uint32_t) _mon_hidden;
uint32_t _mon_stack_last(pid_t, uintptr_t *, uint32_t, uint32_t *)
	    _mon_hidden;
uintptr_t _mon_stack_target(uintptr_t) _mon_hidden;
void	_mon_stacks_reset(void) _mon_hidden;
#define _MON_STACKSLOTS	(1u << 16)	/* distinct stacks kept */
size_t	_mon_stacks_copy(unsigned char *, size_t, const uint64_t *,
	    uint64_t *) _mon_hidden;
void	_mon_stacks_settle(uint64_t *, const uint64_t *) _mon_hidden;
uint64_t _mon_stacks_lost(void) _mon_hidden;
void	_mon_stacks_lose(uint64_t) _mon_hidden;
size_t	_mon_stack_callers(const uint64_t *, size_t, uintptr_t, uintptr_t,
	    uintptr_t *, size_t) _mon_hidden;
#define _MON_CALLERS	3		/* wrappers' callers put back */
int	_mon_stack_syscall(uintptr_t) _mon_hidden;
#define _MON_CALLWORDS	16		/* user stack words searched */
uint64_t _mon_stacks_cut(void) _mon_hidden;
int	_mon_stack_retaddr(uintptr_t) _mon_hidden;
int	_mon_stack_leafret(uintptr_t) _mon_hidden;
void	_mon_stats_reset(void) _mon_hidden;
void	_mon_stats_stop(void) _mon_hidden;
void	_mon_stats_cut(void) _mon_hidden;
void	_mon_stats_pause(void) _mon_hidden;
void	_mon_stats_resume(void) _mon_hidden;
void	_mon_stats_dropped(uint64_t) _mon_hidden;
void	_mon_stats_overrun(uint64_t) _mon_hidden;
uint64_t _mon_cputime(void) _mon_hidden;
uint64_t _mon_tick_ns(void) _mon_hidden;
void	_mon_stats_own(int, pid_t) _mon_hidden;
#define _MON_OWN_DRAINER	0
#define _MON_OWN_SNAPPER	1
#define _MON_OWN_WALL		2
int	_mon_own(pid_t) _mon_hidden;
size_t	_mon_outside_count(void) _mon_hidden;
size_t	_mon_outside_copy(unsigned char *, size_t) _mon_hidden;

/* ring.c */
int	_mon_ring_start(uint64_t) _mon_hidden;
void	_mon_ring_stop(void) _mon_hidden;
void	_mon_ring_drain(void) _mon_hidden;
void	_mon_ring_fork_prepare(void) _mon_hidden;
void	_mon_ring_fork_parent(void) _mon_hidden;
int	_mon_ring_fork_child(void) _mon_hidden;
void	_mon_ring_fork_locks(void) _mon_hidden;
int	_mon_ring_thread_create(void) _mon_hidden;
void	_mon_ring_thread_made(void) _mon_hidden;
void	_mon_ring_thread_end(void) _mon_hidden;
void	_mon_ring_exec_before(void) _mon_hidden;
void	_mon_ring_exec_failed(void) _mon_hidden;
uint32_t _mon_ring_unsampled(void) _mon_hidden;
int	_mon_ring_kernel(void) _mon_hidden;
uint32_t _mon_ring_rate(void) _mon_hidden;
void	_mon_ring_writing(int) _mon_hidden;

/* timer.c */
int	_mon_timer_start(uint64_t) _mon_hidden;
void	_mon_timer_stop(void) _mon_hidden;
int	_mon_timer_ours(const siginfo_t *) _mon_hidden;
void	_mon_timer_thread_start(void) _mon_hidden;
void	_mon_timer_thread_end(void) _mon_hidden;
void	_mon_timer_fork_prepare(void) _mon_hidden;
void	_mon_timer_fork_parent(void) _mon_hidden;
void	_mon_timer_fork_child(void) _mon_hidden;
uint32_t _mon_timer_unarmed(void) _mon_hidden;
uint32_t _mon_timer_revived(void) _mon_hidden;
uint64_t _mon_timer_count(const siginfo_t *) _mon_hidden;
void	_mon_timer_dropped(const siginfo_t *) _mon_hidden;
int	_mon_itimer_start(uint64_t) _mon_hidden;
void	_mon_itimer_stop(void) _mon_hidden;
int	_mon_itimer_running(void) _mon_hidden;
void	_mon_itimer_yield(void) _mon_hidden;
void	_mon_itimer_pause(void) _mon_hidden;
void	_mon_itimer_resume(void) _mon_hidden;

/* sigprof.c */
int	_mon_sigprof_install(int) _mon_hidden;
void	_mon_sigprof_restore(void) _mon_hidden;
void	_mon_sigprof_done(void) _mon_hidden;
int	_mon_sigprof_ours(const siginfo_t *) _mon_hidden;
int	_mon_sigprof_clock(void) _mon_hidden;
void	_mon_sigprof_writing(int) _mon_hidden;
void	_mon_sigprof_take(int, void (*)(void)) _mon_hidden;
void	_mon_sigprof_discard(void) _mon_hidden;
void	_mon_sigprof_exec(int) _mon_hidden;
int	_mon_sigprof_adopt(const struct sigaction *, struct sigaction *)
	    _mon_hidden;

/* wall.c */
extern _Atomic int _mon_wall_on _mon_hidden;
int	_mon_wall_start(uint64_t) _mon_hidden;
void	_mon_wall_stop(void) _mon_hidden;
void	_mon_wall_reset(void) _mon_hidden;
void	_mon_wall_thread(pid_t) _mon_hidden;
void	_mon_wall_thread_end(pid_t) _mon_hidden;
void	_mon_wall_fork_prepare(void) _mon_hidden;
void	_mon_wall_fork_parent(void) _mon_hidden;
void	_mon_wall_fork_child(void) _mon_hidden;
size_t	_mon_wall_copy(unsigned char *, size_t) _mon_hidden;

/* clock.c */
int	_mon_clock_start(int) _mon_hidden;
void	_mon_clock_stop(void) _mon_hidden;
int	_mon_clock_running(void) _mon_hidden;
void	_mon_clock_drain(void) _mon_hidden;
void	_mon_clock_writing(int) _mon_hidden;
uint32_t _mon_clock_unsampled(void) _mon_hidden;
void	_mon_clock_fork_prepare(void) _mon_hidden;
void	_mon_clock_fork_parent(void) _mon_hidden;
void	_mon_clock_fork_child(void) _mon_hidden;
int	_mon_clock_thread_create(void) _mon_hidden;
void	_mon_clock_thread_made(int) _mon_hidden;
void	_mon_clock_fork_locks(void) _mon_hidden;
void	_mon_clock_thread_start(void) _mon_hidden;
void	_mon_clock_thread_end(void) _mon_hidden;
void	_mon_clock_main_exit(void) _mon_hidden;
void	_mon_clock_exec_before(void) _mon_hidden;
void	_mon_clock_exec_failed(void) _mon_hidden;

/* lifecycle.c */
int	_mon_life_start(char *, char *, WORD *, size_t, size_t, int)
	    _mon_hidden;
void	_mon_life_stop(void) _mon_hidden;
void	_mon_life_control(int) _mon_hidden;
int	_mon_life_snapshot(void) _mon_hidden;

void	_mon_life_exit_wait(void) _mon_hidden;
int	_mon_life_profil(WORD *, size_t, uintptr_t, unsigned int) _mon_hidden;
void	_mon_life_main_exit(void) _mon_hidden;
void	_mon_life_exec_before(void) _mon_hidden;
void	_mon_life_exec_failed(void) _mon_hidden;
int	_mon_life_thread_create(void) _mon_hidden;
void	_mon_life_thread_made(int) _mon_hidden;
void	_mon_life_thread_start(void) _mon_hidden;
void	_mon_life_thread_end(void) _mon_hidden;

/* libc's own entry points, used where libmon takes the public name. */
int	__sigaction(int, const struct sigaction *, struct sigaction *);
void	(*bsd_signal(int, void (*)(int)))(int);

/* arcs.c, arcsort.c */
struct monx_arc *_mon_arcs_merge(size_t *, size_t *, int) _mon_hidden;
size_t	_mon_arcs_cells(const struct monx_arc *, size_t, struct cnt *)
	    _mon_hidden;
void	_mon_arcs_sort(struct monx_arc *, size_t, struct monx_arc *)
	    _mon_hidden;

/* callsite.c: the code before an mcount or __fentry__ call */
int	_mon_code_before(uintptr_t, unsigned char *, size_t) _mon_hidden;
int	_mon_call_at(const unsigned char *, int) _mon_hidden;
int	_mon_fentry_start(const unsigned char *, int, int *) _mon_hidden;
uintptr_t _mon_fn_of(uintptr_t, int, int *) _mon_hidden;

/* mcount.c */
extern volatile int _mon_counting _mon_hidden;	/* 0, 1, 2: mcount.c */
void	_mon_count_set(int) _mon_hidden;
void	_mon_count_hooks(void (*)(uintptr_t, uintptr_t, uintptr_t, int))
	    _mon_hidden;
int	_mon_count(uintptr_t, uintptr_t, uintptr_t) _mon_hidden;
int	_mon_count_hooked(uintptr_t, uintptr_t, uintptr_t, int) _mon_hidden;
void	_mon_count_test(uintptr_t, uintptr_t) _mon_hidden;
void	_mon_cells_thread_end(void) _mon_hidden;
void	_mon_cells_reset(void) _mon_hidden;
void	_mon_cells_fork(void) _mon_hidden;
uint64_t _mon_cells_lost(void) _mon_hidden;
void	_mon_cells_lose(uint64_t) _mon_hidden;
size_t	_mon_cells_most(void) _mon_hidden;
size_t	_mon_cells_all(void) _mon_hidden;
void	_mon_cells_each(void (*)(void *, uintptr_t, uintptr_t, uint64_t),
	    void *, int) _mon_hidden;
uint32_t _mon_cells_threads(void) _mon_hidden;
uint32_t _mon_cells_tables(void) _mon_hidden;

/*
 * calls.c: linked only where the program calls the hooks (built with
 * -finstrument-functions), whose file brings in the constructor that
 * starts such a program (crt/cygstart.c).  The lifecycle and the
 * writer reach it by weak references, NULL in any other program: a
 * reference of theirs would link the constructor into every program.
 */
#define _mon_weak	__attribute__((weak))
void	_mon_calls_reset(void) _mon_hidden _mon_weak;
void	_mon_calls_on(int) _mon_hidden _mon_weak;
void	_mon_calls_fork(void) _mon_hidden _mon_weak;
void	_mon_calls_thread_end(void) _mon_hidden _mon_weak;
int	_mon_calls_collect(unsigned char **, size_t *, size_t *) _mon_hidden
	    _mon_weak;

void	_mon_calls_hooked(uint32_t) _mon_hidden _mon_weak;

/*
 * callspec.c, syms.c: PROFCALLS, functions chosen by name (callspec.c
 * is calls.c's alone, so linked only with it); syms.c also gives
 * callsite.c the start of a -pg function, for profiler.c's enter hooks.
 */
int	_mon_callspec_init(void) _mon_hidden;
int	_mon_callspec_off(uintptr_t) _mon_hidden;
void	_mon_callspec_fork(void) _mon_hidden;
extern uint64_t _mon_callspec_matched _mon_hidden;
const char *_mon_sym_name(uintptr_t) _mon_hidden;
uintptr_t _mon_sym_start(uintptr_t, size_t) _mon_hidden;
void	_mon_sym_fork(void) _mon_hidden;
void	_mon_sym_forget(void) _mon_hidden;

/*
 * profiler.c: a function's decision (struct _mon_pfn) is made once per
 * process and read by calls.c's threads through their own entries.
 */
struct _mon_pfn;
extern _Atomic int _mon_prof_libs _mon_hidden;
extern __thread volatile int _mon_prof_incb _mon_hidden
    __attribute__((tls_model("initial-exec")));
const struct _mon_pfn *_mon_prof_decide(uintptr_t, uint32_t *) _mon_hidden;
uint32_t _mon_prof_enter(const struct _mon_pfn *, uintptr_t, uintptr_t)
	    _mon_hidden;
void	_mon_prof_call(const struct _mon_pfn *, uint32_t, uintptr_t, uintptr_t,
	    int) _mon_hidden;
void	_mon_prof_thread(int) _mon_hidden;
int	_mon_prof_any(void) _mon_hidden;
void	_mon_prof_sample(pid_t, const uintptr_t *, uint32_t) _mon_hidden;
void	_mon_prof_shutdown(void) _mon_hidden;
void	_mon_prof_fork(void) _mon_hidden;
void	_mon_prof_exec(const char *) _mon_hidden;
void	_mon_prof_library(const char *, uintptr_t, int) _mon_hidden;
void	_mon_prof_jit(uintptr_t, size_t, const char *) _mon_hidden;
void	_mon_prof_modules(void) _mon_hidden;

/* vfork.c: vforks under way, and the process making them. */
extern _Atomic int _mon_vforking _mon_hidden;
extern _Atomic pid_t _mon_vforker _mon_hidden;

/* crt/gmon.c */
int	_mon_crt_started(void) _mon_hidden;

/* base.c: counts by key (a byte string), in mmap'd memory. */
struct _mon_keys {
	unsigned char	*arena;		/* the entries, one after another */
	size_t		 used, cap;
	uint64_t	*slots;		/* entry offset + 1, or 0: free */
	size_t		 nslot, nkeys;
};
int	_mon_base_reserve(struct _mon_keys *, size_t, size_t) _mon_hidden;
uint64_t _mon_base_get(const struct _mon_keys *, const void *, size_t)
	    _mon_hidden;
void	_mon_base_set(struct _mon_keys *, const void *, size_t, uint64_t)
	    _mon_hidden;
void	_mon_base_free(struct _mon_keys *) _mon_hidden;
uint64_t _mon_base_add(struct _mon_keys *, const void *, size_t, uint64_t)
	    _mon_hidden;
void	_mon_base_bump(struct _mon_keys *, uint64_t, uint64_t) _mon_hidden;
int	_mon_base_next(const struct _mon_keys *, size_t *, const void **,
	    size_t *, uint64_t *) _mon_hidden;
size_t	_mon_base_fold(void *, size_t, size_t, size_t, size_t) _mon_hidden;
size_t	_mon_base_delta(const struct _mon_keys *, const void *, size_t,
	    void *, size_t, size_t, size_t) _mon_hidden;
void	_mon_base_commit(struct _mon_keys *, const void *, size_t, size_t,
	    size_t, size_t) _mon_hidden;

/*
 * Where the link editor put libmon's code (the Makefile's SELF): the
 * writer records it, and the clocks count libmon's own samples there.
 */
extern char __start_libmon_text[] __attribute__((weak, visibility("hidden")));
extern char __stop_libmon_text[] __attribute__((weak, visibility("hidden")));

/* monwrite.c */
struct _mon_out {
	const struct hdr	*hdr;
	const struct cnt	*cells;		/* the counted cells */
	size_t			 ncells;
	const struct monx_arc	*arcs;		/* what the cells sum */
	size_t			 narcs;
	const WORD		*hist;
	size_t			 nhist;
	unsigned int		 scale;
	uint32_t		 unsampled;	/* threads with no clock */
	const struct monx_run	*run;		/* NULL: from the statistics */
	const struct monx_pc	*pcs;		/* with run: samples outside */
	size_t			 npcs;
	const uint64_t		*stacks_since;	/* a part: each stack's count */
	uint64_t		*stacks_now;	/* at the last, and read now */
	int			 noreplace;	/* fail (EEXIST) where taken */
	int			 running;	/* a snapshot: the program's
						   actions are not touched */
	int			 timed;		/* with the measured calls */
};
int	_mon_write(const char *, const struct _mon_out *) _mon_hidden;
void	_mon_run_fill(struct monx_run *, const struct _mon_out *) _mon_hidden;
int	_mon_outname_init(void) _mon_hidden;
int	_mon_outname_dir(void) _mon_hidden;
int	_mon_outpath(char *, size_t, unsigned int, unsigned long) _mon_hidden;

/* snap.c */
void	_mon_snap_reset(int) _mon_hidden;
int	_mon_snap_numbered(int) _mon_hidden;
int	_mon_snap_put(struct _mon_out *, unsigned long) _mon_hidden;
int	_mon_snap_write(const struct hdr *, WORD *, size_t, unsigned int,
	    uint32_t, int) _mon_hidden;

/* term.c: what lifecycle.c gives it to call. */
struct _mon_term_ops {
	int	(*part)(void);		/* write a snapshot */
	void	(*final)(int);		/* write the last part, keep the lock */
};
int	_mon_term_start(const struct _mon_term_ops *) _mon_hidden;
void	_mon_term_stop(void) _mon_hidden;
void	_mon_term_fork_child(void) _mon_hidden;
void	_mon_term_inside(void) _mon_hidden;
void	_mon_term_outside(void) _mon_hidden;
int	_mon_term_watches(int) _mon_hidden;
int	_mon_term_adopt(int, const struct sigaction *, struct sigaction *)
	    _mon_hidden;

/* objects.c */
struct dl_phdr_info;
struct _mon_gone;
size_t	_mon_objects(unsigned char *, size_t,
	    int (*)(uint64_t *, struct _mon_gone *)) _mon_hidden;
const unsigned char *_mon_object_info(const struct dl_phdr_info *,
	    struct monx_obj *) _mon_hidden;
int	_mon_mapped(uint64_t, const char *) _mon_hidden;
void	_mon_texts_refresh(void) _mon_hidden;
int	_mon_texts_update(void) _mon_hidden;
void	_mon_texts_fork(void) _mon_hidden;
int	_mon_in_text(uintptr_t) _mon_hidden;
int	_mon_in_self(uintptr_t) _mon_hidden;

/* dlclose.c: an object dlclose() unloaded, as the writer records it. */
#define _MON_MAXID	64		/* longer build-ids are not kept */
#define _MON_MAXPATH	4096
struct _mon_gone {
	struct monx_obj	o;		/* idlen 0 when the id is not kept */
	unsigned char	id[_MON_MAXID];
	char		path[_MON_MAXPATH];	/* o.pathlen bytes and a NUL */
};
void	_mon_gone_reset(void) _mon_hidden;
void	_mon_gone_fork(void) _mon_hidden;
int	_mon_gone_next(uint64_t *, struct _mon_gone *) _mon_hidden;
uint64_t _mon_gone_lost(void) _mon_hidden;

/*
 * Slot of address pc in an open hash of 2^bits entries: the high bits of
 * a multiplicative hash, which mix every bit of pc.  Signal-safe.
 */
static inline size_t
_mon_hash(uintptr_t pc, unsigned int bits)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15u) >> (64 - bits));
}

/* util */
pid_t	_mon_gettid(void) _mon_hidden;
uint64_t _mon_clock_ns(clockid_t) _mon_hidden;
int	_mon_alive(pid_t) _mon_hidden;
size_t	_mon_threads(void (*)(pid_t, void *), void *) _mon_hidden;
void	_mon_own_thread(pid_t, int) _mon_hidden;
void	_mon_own_forget(void) _mon_hidden;
void	_mon_warn(const char *, const char *, int) _mon_hidden;
long	_mon_env_number(const char *, long, long, long, const char *)
	    _mon_hidden;
void	*_mon_map(size_t) _mon_hidden;
void	*_mon_map_dense(size_t, size_t) _mon_hidden;
void	_mon_unmap(void *, size_t) _mon_hidden;
void	_mon_rezero(void *, size_t) _mon_hidden;
void	_mon_wipe_on_fork(void *, size_t) _mon_hidden;
void	_mon_renew_mutex(pthread_mutex_t *) _mon_hidden;
void	_mon_renew_rwlock(pthread_rwlock_t *) _mon_hidden;
size_t	_mon_digits(char *, uint64_t, unsigned int) _mon_hidden;
size_t	_mon_perfmap_size(void) _mon_hidden;
size_t	_mon_perfmap_record(void *, size_t) _mon_hidden;
int	_mon_peek(pid_t, uintptr_t, void *, size_t) _mon_hidden;
void	*_mon_libc(const char *) _mon_hidden;
void	_mon_siglock(_Atomic pid_t *, sigset_t *) _mon_hidden;
void	_mon_die(int) _mon_hidden;
void	_mon_sigunlock(_Atomic pid_t *, const sigset_t *) _mon_hidden;
int	_mon_thread_start(pthread_t *, size_t, void *(*)(void *), void *)
	    _mon_hidden;
_Noreturn void _mon_thread_exit(void) _mon_hidden;

/* A thread of libmon's own that wakes every so often (util.c). */
struct _mon_worker {
	pthread_t	 th;
	pthread_mutex_t	 lock;
	pthread_cond_t	 cv;		/* on CLOCK_MONOTONIC */
	_Atomic pid_t	 tid;		/* 0 until it runs */
	int		 quit;		/* under lock */
	int		 kick;		/* under lock: wake before the time */
};
int	_mon_worker_start(struct _mon_worker *, size_t, void *(*)(void *),
	    int) _mon_hidden;
void	_mon_worker_begin(struct _mon_worker *) _mon_hidden;
int	_mon_worker_sleep(struct _mon_worker *, const struct timespec *)
	    _mon_hidden;
_Noreturn void _mon_worker_end(void) _mon_hidden;
void	_mon_worker_kick(struct _mon_worker *) _mon_hidden;
void	_mon_worker_stop(struct _mon_worker *) _mon_hidden;
uint64_t _mon_random(uint64_t *) _mon_hidden;

#endif /* !_MON_PRIVATE_H */
