/*
 * sigprof.c -- the SIGPROF action, for the clocks that sample by signal
 * (timer, itimer, and profil() called by the program).  The default perf
 * clock sends no signal and never installs anything here.
 *
 * While such a clock runs, libmon's handler is the installed action and
 * the program's own action is kept aside: the program reads back what
 * it set (sigaction.c), receives every SIGPROF that is not one of
 * libmon's samples -- its own ITIMER_PROF, its own timers, kill() and
 * raise() -- and finds its action in place when profiling stops, but
 * for SIG_DFL, which libmon's idle handler keeps standing for against a
 * late sample (_mon_sigprof_done()).
 *
 * A signal passed on reaches the program's handler as the kernel would
 * have delivered it: with the mask the action asks for (the interrupted
 * mask, sa_mask, and SIGPROF itself unless SA_NODEFER), the action reset
 * first if SA_RESETHAND, on the alternate stack if SA_ONSTACK, and a
 * system call it interrupted restarted only if SA_RESTART.  The last two
 * are decided by the kernel from the installed action, so libmon's is
 * installed with those two flags as the program's action has them (see
 * ours_for()).
 *
 * The program's action is read by handlers on any thread while another
 * may set it.  It lives in two slots: a writer fills the one that is not
 * current and then moves gen on, so a reader copies the copy gen names
 * and keeps the copy if gen has not moved meanwhile -- it never waits,
 * not even on a writer its own signal interrupted.  Writers (sigaction,
 * install, restore, and a handler resetting an SA_RESETHAND action)
 * exclude each other through wlock, taken with every signal blocked so
 * that no handler on the holder's thread can wait on it.  wlock names
 * the holder's process: a fork child finds its parent's holder gone.
 *
 * The handler is the only code of libmon that runs in the program's
 * signal context: it reads the interrupted pc from the ucontext and
 * calls down into the histogram (hist.c) -- or, on a thread that writes
 * the profile, counts libmon's own code (_mon_sigprof_writing()); errno
 * is kept.  With stacks
 * asked for, it walks the interrupted thread's frame pointers too, each
 * frame read by process_vm_readv() from its own process, so that a
 * frame pointer that is not one (code built without them, a corrupt
 * stack) ends the walk with an error instead of a fault; the word at
 * the stack pointer goes in as the caller's when it is a return address
 * (stacks.c says why), and a signal handler's frame leads on to the code
 * the signal interrupted, through the signal frame (walk()).
 */
#define _GNU_SOURCE	/* REG_RIP, sigorset */
#include <sys/syscall.h>

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "mon_private.h"

static struct sigaction	copy[2];	/* the action: copy[gen & 1] */
static _Atomic unsigned long gen;
static _Atomic pid_t	wlock;		/* the writer's process; 0: none */
static _Atomic int	installed;	/* written under wlock */
static _Atomic int	idle;		/* installed but no clock runs:
					   _mon_sigprof_done() */
static int		itimer;		/* ITIMER_PROF samples */
static _Atomic pid_t	taking;		/* the process whose snapper takes
					   them: _mon_sigprof_take() */
static _Atomic pid_t	handed;		/* the process whose snapper is
					   to take them no more */
static void		(*_Atomic waker)(void);	/* wakes the snapper */
static _Atomic pid_t	taker;		/* the snapper's thread id */
static _Atomic int	marked;		/* a hand-back signal may wait on
					   the snapper: hand_back() */

static void handler(int, siginfo_t *, void *);
static void hand_back(void);
static int is_mark(const siginfo_t *);

/* Does action a run a handler of the program's? */
static int
catches(const struct sigaction *a)
{
	return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

/* Copy the program's action into a; its generation.  Signal-safe. */
static unsigned long
load(struct sigaction *a)
{
	unsigned long g;

	for (;;) {
		g = atomic_load_explicit(&gen, memory_order_acquire);
		memcpy(a, &copy[g & 1], sizeof(*a));
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&gen, memory_order_relaxed) == g)
			return g;
	}
}

/* Make a the program's action.  Caller holds wlock. */
static void
store(const struct sigaction *a)
{
	unsigned long g;

	g = atomic_load_explicit(&gen, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	memcpy(&copy[(g + 1) & 1], a, sizeof(*a));
	atomic_store_explicit(&gen, g + 1, memory_order_release);
}

/*
 * Take wlock, every signal blocked (the mask before in *was); a holder
 * of another process is one a fork left behind.  Signal-safe.
 */
static void
writer_lock(sigset_t *was)
{
	_mon_siglock(&wlock, was);
}

static void
writer_unlock(const sigset_t *was)
{
	_mon_sigunlock(&wlock, was);
}

/*
 * libmon's action while prog is the program's.  How a system call is
 * resumed and which stack a handler runs on are the kernel's choice,
 * made from the installed action: while the program's action catches
 * the signal, SA_ONSTACK and SA_RESTART are the program's.  Dropping
 * SA_RESTART is safe for the per-thread timers, which only signal a
 * thread that runs, but not for ITIMER_PROF, which may signal one asleep
 * in read(): that clock keeps it.
 */
static void
ours_for(const struct sigaction *prog, struct sigaction *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sa_sigaction = handler;
	sigfillset(&sa->sa_mask);
	sa->sa_flags = SA_SIGINFO | SA_RESTART;
	if (!catches(prog))
		return;
	sa->sa_flags |= prog->sa_flags & SA_ONSTACK;
	if (!itimer && !(prog->sa_flags & SA_RESTART))
		sa->sa_flags &= ~SA_RESTART;
}

/*
 * Is si one of libmon's samples?  A per-thread timer's carries its slot
 * (timer.c); ITIMER_PROF's come from the kernel -- and, once libmon's
 * timer has stopped (idle), only while no ITIMER_PROF of the program's
 * own runs, whose signals look the same.
 */
static int
sample(const siginfo_t *si)
{
	if (_mon_timer_ours(si))
		return 1;
	return itimer && si->si_code == SI_KERNEL &&
	    !(atomic_load_explicit(&idle, memory_order_relaxed) &&
	    _mon_itimer_running());
}

/*
 * Run the program's handler of action a under the mask the kernel would
 * have set, then go back to libmon's (every signal blocked) for the
 * return.  A handler that leaves by siglongjmp() keeps its own mask.
 */
static void
call(const struct sigaction *a, int sig, siginfo_t *si, void *uc)
{
	sigset_t mask, entry;
	int err;

	mask = ((ucontext_t *)uc)->uc_sigmask;
	sigorset(&mask, &mask, &a->sa_mask);
	if (!(a->sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	err = errno;
	(void)pthread_sigmask(SIG_SETMASK, &mask, &entry);
	errno = err;
	if (a->sa_flags & SA_SIGINFO)
		a->sa_sigaction(sig, si, uc);
	else
		a->sa_handler(sig);
	err = errno;
	(void)pthread_sigmask(SIG_SETMASK, &entry, NULL);
	errno = err;
}

/*
 * SIGPROF's default action, terminate, as it would have been taken
 * without libmon.
 */
static void
terminate(int sig)
{
	_mon_die(sig);
}

/*
 * SA_RESETHAND: action a, of generation g, is replaced by SIG_DFL (its
 * flags stay, as the kernel does) -- unless it is no longer current, so
 * that of two threads it reaches at once only one runs the handler.
 * libmon's action is matched to it.  Signal-safe; 1 if reset.
 */
static int
reset(unsigned long g, const struct sigaction *a)
{
	struct sigaction dfl, sa;
	sigset_t was;
	int done, err;

	err = errno;
	writer_lock(&was);
	done = atomic_load_explicit(&gen, memory_order_relaxed) == g;
	if (done) {
		dfl = *a;
		dfl.sa_handler = SIG_DFL;
		store(&dfl);
		ours_for(&dfl, &sa);
		(void)__sigaction(SIGPROF, &sa, NULL);
	}
	writer_unlock(&was);
	errno = err;
	return done;
}

/* Pass a signal that is not a sample to the action the program had. */
static void
chain(int sig, siginfo_t *si, void *uc)
{
	struct sigaction a;
	unsigned long g;

	do
		g = load(&a);
	while (catches(&a) && (a.sa_flags & SA_RESETHAND) && !reset(g, &a));
	if (a.sa_handler == SIG_IGN)
		return;
	if (a.sa_handler == SIG_DFL)
		terminate(sig);
	else
		call(&a, sig, si, uc);
}

/*
 * The interrupted thread's call stack, innermost first, as the kernel
 * walks it for the perf clock: the pc, then the return address of each
 * frame the frame pointers chain, up to _mon_stack_limit.  Frames must
 * go up the stack, by less than STACKSPAN each.
 *
 * A frame that returns to sigtramp is a signal handler's, called by the
 * kernel: the signal frame it built is just above that return address,
 * and holds the registers of the code the signal interrupted, so the
 * walk goes on from there -- the interrupted pc, then its frames, on
 * the stack it ran on, which is not the handler's when the handler runs
 * on an alternate stack (sigaltstack).  sigtramp is where libmon's own
 * handler returns, the C library's sigreturn code, which every handler
 * installed through sigaction() shares.
 */
#define STACKSPAN	((uintptr_t)64 << 20)
#define UC_GREGS	offsetof(ucontext_t, uc_mcontext.gregs)

static _Atomic uintptr_t sigtramp;

/* This thread writes the profile: _mon_sigprof_writing(). */
static __thread volatile sig_atomic_t writing
    __attribute__((tls_model("initial-exec")));
/* This thread is libmon's snapper (_mon_sigprof_take()). */
static __thread volatile sig_atomic_t snapper
    __attribute__((tls_model("initial-exec")));

/*
 * A function with no frame yet or any more, at pc: its caller at sp, if
 * any.  A system call wrapper, where the signal finds a thread the
 * kernel returns to from a system call, may have a frame of a few words
 * but no frame pointer, and a caller that is such a wrapper too: its
 * callers are searched up from sp, short of the return address of the
 * frame at fp (stacks.c).
 */
static void
at_sp(pid_t pid, uintptr_t pc, uintptr_t sp, uintptr_t fp, uintptr_t *pcs,
    uint32_t *depth)
{
	uint64_t w[_MON_CALLWORDS];
	uintptr_t frame[2];

	if (*depth >= _mon_stack_limit)
		return;
	if (_mon_stack_syscall(pc) && _mon_peek(pid, sp, w, sizeof(w)))
		*depth += (uint32_t)_mon_stack_callers(w, _MON_CALLWORDS, pc,
		    fp >= sp && _mon_peek(pid, fp, frame, sizeof(frame)) ?
		    frame[1] : 0, pcs + *depth, _mon_stack_limit - *depth);
	else if (_mon_peek(pid, sp, w, sizeof(w[0])) &&
	    _mon_stack_leafret(w[0]))
		pcs[(*depth)++] = w[0];
}

static void
walk(const ucontext_t *uc, uintptr_t pc, uint64_t n)
{
	uintptr_t pcs[_MON_STACKMAX], frame[2], g[REG_RIP - REG_RBP + 1];
	uintptr_t fp, sp, tramp;
	uint32_t depth, flags, slot;
	pid_t pid;

	pid = (pid_t)syscall(SYS_getpid);
	tramp = atomic_load_explicit(&sigtramp, memory_order_relaxed);
	pcs[0] = pc;
	depth = 1;
	fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
	sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	at_sp(pid, pc, sp, fp, pcs, &depth);
	flags = 0;
	while (fp >= sp && fp - sp < STACKSPAN && fp % 8 == 0) {
		if (depth == _mon_stack_limit) {
			flags = MONX_STK_CUT;
			break;
		}
		if (!_mon_peek(pid, fp, frame, sizeof(frame)) || frame[1] == 0)
			break;
		pcs[depth++] = frame[1];
		sp = fp + sizeof(frame);
		fp = frame[0];
		if (frame[1] != tramp || !_mon_peek(pid, sp + UC_GREGS +
		    REG_RBP * sizeof(*g), g, sizeof(g)))
			continue;
		if (depth == _mon_stack_limit) {
			flags = MONX_STK_CUT;
			break;
		}
		/* prof reads pc - 1 of a caller's frame: the pc itself. */
		pcs[depth++] = g[REG_RIP - REG_RBP] + 1;
		fp = g[0];
		sp = g[REG_RSP - REG_RBP];
		at_sp(pid, g[REG_RIP - REG_RBP], sp, fp, pcs, &depth);
	}
	slot = _mon_stack_add(pcs, depth, flags, n);
	/* The wall sampler takes a running thread's stack from here. */
	if (atomic_load_explicit(&_mon_wall_on, memory_order_relaxed))
		_mon_stack_mark(_mon_gettid(), slot);
}

/* Is si hand_back()'s signal to the snapper? */
static int
is_mark(const siginfo_t *si)
{
	return si->si_code == SI_QUEUE && si->si_pid == getpid() &&
	    si->si_value.sival_ptr == (void *)&handed;
}

/*
 * Send the program's SIGPROF si to the process again: with its siginfo
 * where the kernel lets a thread send one to its process (sigqueue()'s),
 * else by kill(), as one from this process.  Signal-safe.
 */
static void
resend(int sig, siginfo_t *si)
{
	if (syscall(SYS_rt_sigqueueinfo, getpid(), sig, si) != 0)
		(void)kill(getpid(), sig);
}

/*
 * A SIGPROF that is not a sample -- the program's, by kill() -- came to
 * the snapper, which takes the itimer's (_mon_sigprof_take()): it is no
 * place for the program's handler.  The snapper blocks SIGPROF (its
 * mask after the handler) and sends the signal to the process again,
 * for a thread of the program's; sent by kill() it arrives as one from
 * this process.  The snapper takes SIGPROF again only once it is no
 * longer pending.
 * Signal-safe.
 */
static void
pass_on(int sig, siginfo_t *si, void *uc)
{
	static const struct timespec zero;
	siginfo_t was;
	sigset_t set;
	int err;

	err = errno;
	(void)sigaddset(&((ucontext_t *)uc)->uc_sigmask, sig);
	/*
	 * A sample that came meanwhile (the snapper's CPU time, every
	 * thread blocking the signal) and waits would take the program's
	 * place: one SIGPROF waits at a time, and the one sent after it is
	 * lost.  It goes first.
	 */
	(void)sigemptyset(&set);
	(void)sigaddset(&set, sig);
	if (syscall(SYS_rt_sigtimedwait, &set, &was, &zero, _NSIG / 8) ==
	    sig && !sample(&was) && !is_mark(&was))
		si = &was;	/* the program's too: one stands for both */
	resend(sig, si);
	errno = err;
}

static void
handler(int sig, siginfo_t *si, void *uc)
{
	uintptr_t pc;
	uint64_t n;
	int err;

	/* Handed back: the snapper takes SIGPROF no more. */
	if (snapper && atomic_load(&handed) == getpid()) {
		(void)sigaddset(&((ucontext_t *)uc)->uc_sigmask, sig);
		atomic_store(&taking, 0);
	}
	if (is_mark(si))	/* hand_back()'s, done */
		return;
	if (!sample(si)) {
		if (snapper)
			pass_on(sig, si, uc);
		else
			chain(sig, si, uc);
		return;
	}
	/* libmon's own thread: its CPU time is not the profile's. */
	if (snapper)
		return;
	err = errno;
	atomic_store_explicit(&sigtramp, (uintptr_t)__builtin_return_address(0),
	    memory_order_relaxed);
	/* A timer's signal stands for its periods: timer.c says how many. */
	n = si->si_code == SI_TIMER ? _mon_timer_count(si) : 1;
	if (n == 0) {
		errno = err;
		return;
	}
	pc = (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
	/*
	 * The profile being written on this thread: libmon's time, in the
	 * C library or the kernel -- but the program's own code there is a
	 * handler of its own that interrupted the writer.
	 */
	if (writing && __start_libmon_text != NULL &&
	    (!_mon_hist_covers(pc) || _mon_in_self(pc))) {
		pc = (uintptr_t)__start_libmon_text;
		if (_mon_sample(pc, n) && _mon_stack_limit > 0)
			_mon_stack_add(&pc, 1, 0, n);
	} else if (_mon_sample(pc, n) && _mon_stack_limit > 0)
		walk(uc, pc, n);
	errno = err;
}

/*
 * Is si a SIGPROF of libmon's clock, which the program must never be
 * handed (sigwait.c)?  Signal-safe.
 */
int
_mon_sigprof_ours(const siginfo_t *si)
{
	return si->si_signo == SIGPROF &&
	    atomic_load_explicit(&installed, memory_order_relaxed) &&
	    sample(si);
}

/*
 * This thread writes the profile, with the clock running (on 1; off 0;
 * clock.c): a snapshot, or the last part at a polite termination.  The
 * samples the handler takes on it meanwhile are libmon's own wherever
 * they find it -- in the C library's code that writes, in its system
 * calls -- and are counted at the start of libmon's code, so that prof
 * has them as profiling overhead.
 */
void
_mon_sigprof_writing(int on)
{
	atomic_signal_fence(memory_order_seq_cst);
	writing = on;
	atomic_signal_fence(memory_order_seq_cst);
}

/* Does a clock of libmon's sample by SIGPROF now? */
int
_mon_sigprof_clock(void)
{
	return atomic_load_explicit(&installed, memory_order_relaxed) &&
	    !atomic_load_explicit(&idle, memory_order_relaxed);
}

/* Is a libmon's action? */
static int
is_ours(const struct sigaction *a)
{
	return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == handler;
}

/*
 * The snapper, SIGPROF blocked: what waits for it or for the process.
 * Samples -- the CPU time of a thread that blocked the signal, every
 * other thread blocking it too -- and hand_back()'s signal are taken
 * and dropped: one SIGPROF waits at a time, and a sample waiting would
 * have the program's own sent meanwhile lost.  A SIGPROF of the
 * program's is sent to the process again, to wait for its threads: 1
 * then (or after many), else 0.
 */
static int
program_waits(void)
{
	static const struct timespec zero;
	siginfo_t si;
	sigset_t set;
	int i;

	(void)sigemptyset(&set);
	(void)sigaddset(&set, SIGPROF);
	for (i = 0; i < 8; i++) {
		if (syscall(SYS_rt_sigtimedwait, &set, &si, &zero, _NSIG / 8) !=
		    SIGPROF)
			return 0;
		if (sample(&si) || is_mark(&si))
			continue;
		resend(SIGPROF, &si);
		return 1;
	}
	return 1;
}

/*
 * The snapper (term.c), one of libmon's threads, takes the signals of
 * ITIMER_PROF that its own CPU time runs out (on 1; 0 when it ends).
 * The kernel sends the signal to the thread that was running when the
 * process's CPU time reached the next period if that thread does not
 * block it, and otherwise to another -- a thread of the program's
 * asleep in nanosleep() or poll(), which would return with EINTR.
 * libmon's threads are started with every signal blocked; the snapper
 * lets SIGPROF in and drops the samples it takes: its CPU time is
 * libmon's own, left out of the profile's (hist.c) as the other
 * threads' of libmon are.  (Asleep, it may be handed the signal for a
 * program thread that blocks it, a sample dropped that would have gone
 * to another program thread; its wait ends early and goes on.)  Only
 * under the itimer clock (the others signal the thread they sample),
 * while libmon's action is in place -- the program's own, once set or
 * put back, has the signal (hand_back() has the snapper block it
 * first) -- and while no SIGPROF waits for the program's threads
 * (pass_on()).  Called each time the snapper wakes,
 * with the function that wakes it.
 */
void
_mon_sigprof_take(int on, void (*nudge)(void))
{
	struct sigaction cur;
	sigset_t s;
	pid_t pid;

	snapper = 1;
	pid = getpid();
	(void)sigemptyset(&s);
	(void)sigaddset(&s, SIGPROF);
	(void)pthread_sigmask(SIG_BLOCK, &s, NULL);
	if (on && _mon_sigprof_clock() && itimer) {
		atomic_store(&taker, _mon_gettid());
		/* Told first, then looked: hand_back() sees one or the
		 * other. */
		atomic_store_explicit(&waker, nudge, memory_order_relaxed);
		atomic_store(&taking, pid);
		if (atomic_load(&handed) != pid &&
		    __sigaction(SIGPROF, NULL, &cur) == 0 && is_ours(&cur) &&
		    !program_waits()) {
			(void)pthread_sigmask(SIG_UNBLOCK, &s, NULL);
			return;
		}
	}
	atomic_store(&taking, 0);
	if (atomic_exchange(&marked, 0))
		(void)program_waits();
}

/*
 * Install the handler, keeping the program's action aside; SIGPROFs from
 * the kernel are the samples when whole_process (ITIMER_PROF), those of
 * timer.c's timers otherwise.  0 or -1.
 */
int
_mon_sigprof_install(int whole_process)
{
	struct sigaction sa, prog;
	sigset_t was;
	int r;

	writer_lock(&was);
	itimer = whole_process;
	atomic_store(&handed, 0);
	r = -1;
	if (__sigaction(SIGPROF, NULL, &prog) == 0) {
		/* Left in place by _mon_sigprof_done(): the program's
		 * action is the one kept. */
		if (idle && is_ours(&prog))
			(void)load(&prog);
		else
			store(&prog);
		ours_for(&prog, &sa);
		r = __sigaction(SIGPROF, &sa, NULL);
	}
	installed = r == 0;
	idle = 0;
	writer_unlock(&was);
	return r;
}

/*
 * Put the program's action back -- unless, with ITIMER_PROF, it has
 * since installed one of its own over ours, which is then left.
 *
 * A sample signalled just before its clock went may still be pending in
 * some thread; under the action put back (SIG_DFL, most often) it would
 * kill the program.  Ignoring SIGPROF for a moment discards every
 * pending one: no clock of ours is left to raise another.  (One a
 * tracer holds is not pending, and not discarded: _mon_sigprof_done()
 * says what comes of it.)
 */
void
_mon_sigprof_restore(void)
{
	struct sigaction cur, ign, prog;
	sigset_t was;
	int err;

	err = errno;
	writer_lock(&was);
	if (installed && __sigaction(SIGPROF, NULL, &cur) == 0 &&
	    is_ours(&cur)) {
		if (itimer)
			hand_back();
		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		(void)__sigaction(SIGPROF, &ign, NULL);
		(void)load(&prog);
		(void)__sigaction(SIGPROF, &prog, NULL);
	}
	installed = 0;
	idle = 0;
	writer_unlock(&was);
	errno = err;
}

/*
 * The clock has stopped (the profile ended: monitor(0), exit(), profil()
 * turned off), its timers gone and nothing of it pending.  Yet a sample
 * may still come: a tracer -- strace -f, a debugger -- takes each signal
 * off its thread before the thread acts on it, and hands it back only
 * as it lets the thread run on, under the action in place by then.
 * Under SIG_DFL put back, that late sample would end the process.  So
 * where the program's action is SIG_DFL, libmon's stays (idle), for as
 * long as the process runs or until profiling starts again: it drops a
 * late sample, ends the process on any other SIGPROF as SIG_DFL does,
 * and the program reads back its own action; an action the program sets
 * replaces it (_mon_sigprof_adopt()), and an exec, which drops handlers,
 * finds no sample of libmon's pending (_mon_sigprof_discard()).  A
 * handler or SIG_IGN of the program's is put back at once: a late
 * sample reaching it is one more of the signals it takes.
 */
void
_mon_sigprof_done(void)
{
	struct sigaction cur, prog;
	sigset_t was;
	int err, keep;

	err = errno;
	writer_lock(&was);
	(void)load(&prog);
	keep = installed && prog.sa_handler == SIG_DFL &&
	    __sigaction(SIGPROF, NULL, &cur) == 0 && is_ours(&cur);
	idle = keep;
	writer_unlock(&was);
	errno = err;
	if (!keep)
		_mon_sigprof_restore();
}

/*
 * Take libmon's samples pending on the calling thread or for the whole
 * process out of the way; a SIGPROF of the program's own is put back,
 * on the calling thread, with its siginfo.  Samples that other threads
 * hold are theirs to take.  Caller holds wlock (so SIGPROF is blocked)
 * and libmon's action is installed.
 */
#define NKEEP	16
static void
drain(void)
{
	static const struct timespec zero;
	siginfo_t keep[NKEEP], si;
	sigset_t set;
	int i, n;

	sigemptyset(&set);
	sigaddset(&set, SIGPROF);
	n = 0;
	/* The system call: sigtimedwait() is sigwait.c's, passing ours over. */
	for (i = 0; i < 4 * NKEEP && syscall(SYS_rt_sigtimedwait, &set, &si,
	    &zero, _NSIG / 8) == SIGPROF; i++)
		if (!sample(&si) && n < NKEEP)
			keep[n++] = si;
	for (i = 0; i < n; i++)
		(void)syscall(SYS_rt_tgsigqueueinfo, getpid(), _mon_gettid(),
		    SIGPROF, &keep[i]);
}

/*
 * Before an exec: the new image must not be handed one of libmon's
 * samples, pending on the calling thread or the process (other threads
 * and what they hold end with the exec), or under SIG_DFL it would die
 * of it.  A SIGPROF of the program's own is handed on, as it would be
 * without libmon.  The clock is stopped for the calling thread first.
 */
void
_mon_sigprof_discard(void)
{
	struct sigaction cur;
	sigset_t was;
	int err;

	err = errno;
	writer_lock(&was);
	if (installed && __sigaction(SIGPROF, NULL, &cur) == 0 &&
	    is_ours(&cur))
		drain();
	writer_unlock(&was);
	errno = err;
}

/*
 * Around an exec, in any process (a fork or vfork() child too): the
 * kernel hands the new image SIG_IGN as it is, but makes a handler
 * SIG_DFL.  Where libmon's handler stands with SIG_IGN the program's
 * action, kept aside (adopt_timer()), SIG_IGN goes in place before the
 * exec (before 1) -- a sample meanwhile is ignored as the program asked
 * -- and libmon's comes back if it fails (before 0).  No lock, nothing
 * written but swapped, tagged with the process: a vfork() child shares
 * its parent's memory.
 */
static _Atomic pid_t	swapped;	/* SIG_IGN put in place for an exec */

void
_mon_sigprof_exec(int before)
{
	struct sigaction cur, prog, sa;
	int err;

	if (!atomic_load_explicit(&installed, memory_order_relaxed))
		return;
	err = errno;
	(void)load(&prog);
	if (before) {
		if (prog.sa_handler == SIG_IGN &&
		    __sigaction(SIGPROF, NULL, &cur) == 0 && is_ours(&cur) &&
		    __sigaction(SIGPROF, &prog, NULL) == 0)
			atomic_store(&swapped, getpid());
	} else if (atomic_load(&swapped) == getpid()) {
		atomic_store(&swapped, 0);
		if (__sigaction(SIGPROF, NULL, &cur) == 0 &&
		    cur.sa_handler == SIG_IGN) {
			ours_for(&prog, &sa);
			(void)__sigaction(SIGPROF, &sa, NULL);
		}
	}
	errno = err;
}

/*
 * The program's action is to take libmon's place: the snapper is to let
 * SIGPROF in no more (_mon_sigprof_take()), so that no signal of the
 * program's comes to it.  A SIGPROF sent to it has libmon's handler
 * block the signal there at once, even while it writes a large snapshot
 * or waits for a lock (the C library's of loaded objects, held by a
 * thread of the program's); woken, it looks too.  It is waited for, but
 * not forever -- it may be waiting for a lock whose holder waits for the
 * caller's (wlock) -- 50 ms at most.  Caller holds wlock, with libmon's
 * action still in place.
 */
static void
hand_back(void)
{
	void (*nudge)(void);
	siginfo_t si;
	uint64_t end;
	pid_t pid;

	pid = getpid();
	atomic_store(&handed, pid);
	if (atomic_load(&taking) != pid)
		return;
	/*
	 * libmon's action still in place, a SIGPROF sent to the snapper has
	 * its handler block the signal there at once, wherever it is -- a
	 * snapshot of a large program may take longer to write than the
	 * wait below.
	 */
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGPROF;
	si.si_code = SI_QUEUE;
	si.si_pid = pid;
	si.si_uid = getuid();
	si.si_value.sival_ptr = (void *)&handed;
	if (syscall(SYS_rt_tgsigqueueinfo, pid, atomic_load(&taker), SIGPROF,
	    &si) == 0)
		atomic_store(&marked, 1);
	if ((nudge = atomic_load(&waker)) != NULL)
		nudge();
	end = _mon_clock_ns(CLOCK_MONOTONIC) + 50000000u;
	while (atomic_load(&taking) == pid &&
	    _mon_clock_ns(CLOCK_MONOTONIC) < end)
		(void)sched_yield();
}

/*
 * The program's action act in place of the kernel's; what was there
 * into oact -- the program's own, where libmon's stood for it.  0 or
 * -1.  Caller holds wlock.
 */
static int
replace(const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction old;

	if (__sigaction(SIGPROF, act, &old) != 0)
		return -1;
	if (oact != NULL) {
		if (is_ours(&old))
			(void)load(&old);
		*oact = old;
	}
	return 0;
}

/*
 * With ITIMER_PROF: an action the program sets takes the place of
 * libmon's, and the timer yields to it, with no sample of its left
 * pending for the action (SIG_DFL would end the program); what the
 * program reads back while libmon's is in place is its own.  Caller
 * holds wlock.
 */
static int
adopt_itimer(const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction old;

	if (act != NULL && __sigaction(SIGPROF, NULL, &old) == 0 &&
	    is_ours(&old)) {
		_mon_itimer_yield();
		drain();
		hand_back();
	}
	return replace(act, oact);
}

/*
 * No clock runs, libmon's action left in place (_mon_sigprof_done()):
 * an action the program sets replaces it, and libmon's part is over.
 * Caller holds wlock.
 */
static int
adopt_idle(const struct sigaction *act, struct sigaction *oact)
{
	if (act == NULL) {
		if (oact != NULL)
			(void)load(oact);
		return 0;
	}
	drain();
	if (replace(act, oact) != 0)
		return -1;
	installed = 0;
	idle = 0;
	return 0;
}

/*
 * While a per-thread clock samples, the action is kept aside for
 * chaining and put in place at stop, and libmon's takes the flags that
 * go with it.  Caller holds wlock.
 */
static int
adopt_timer(const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction old, sa;

	(void)load(&old);
	if (act != NULL) {
		store(act);
		ours_for(act, &sa);
		(void)__sigaction(SIGPROF, &sa, NULL);
	}
	if (oact != NULL)
		*oact = old;
	return 0;
}

/*
 * The program sets or reads its SIGPROF action (sigaction.c); act and
 * oact are distinct.  With no signal clock, libc's call.  Returns what
 * sigaction() returns, errno set on failure.  Signal-safe.
 */
int
_mon_sigprof_adopt(const struct sigaction *act, struct sigaction *oact)
{
	sigset_t was;
	int r, err;

	writer_lock(&was);
	if (!installed)
		r = __sigaction(SIGPROF, act, oact);
	else if (idle)
		r = adopt_idle(act, oact);
	else if (itimer)
		r = adopt_itimer(act, oact);
	else
		r = adopt_timer(act, oact);
	err = errno;
	writer_unlock(&was);
	errno = err;
	return r;
}
