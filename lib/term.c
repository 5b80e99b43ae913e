/*
 * term.c -- profiles of programs that do not exit: polite termination,
 * and snapshots asked for by a signal (PROFSIGNAL) or on an interval
 * (PROFINTERVAL).
 *
 * Polite termination.  While SIGINT, SIGTERM or SIGHUP would end the
 * program (its action is SIG_DFL), libmon's handler is installed in its
 * place; when one comes, the profile is written and the program then
 * dies by that same signal, its action put back to SIG_DFL and the
 * signal raised again, so that its parent sees the status it would have
 * seen.  An action the program sets is its own: a handler or SIG_IGN
 * replaces libmon's at once, SIG_DFL brings it back, and the program
 * reads back what it set (sigaction.c sends these signals here).  libmon's
 * handler is there only while the program's action is SIG_DFL, so an
 * exec, which makes every handler SIG_DFL, hands the new image exactly
 * what it would have had; an inherited SIG_IGN is never touched, nor the
 * blocked mask.  A vfork() child, which shares the program's memory and
 * handlers until its exec, owns no profile: it dies of the signal at
 * once, touching none of its parent's locks.  PROFTERM=off leaves all
 * three alone.
 *
 * Who writes.  A snapshot is never written in a signal handler: the
 * handler only asks, and the snapper, a thread of libmon's started only
 * when PROFSIGNAL or PROFINTERVAL is set, writes it while the program's
 * threads run on.  At termination the snapper, where there is one,
 * writes the last part while the handler waits for it; where there is
 * none, the handler writes on the thread it interrupted, which is safe
 * when that thread holds no lock the writer takes:
 *
 *	proflock, armlock	held only inside libmon's own calls, which
 *				mark the thread (_mon_term_inside): the
 *				signal is noted there and raised again as
 *				the thread leaves libmon
 *	proflock, elsewhere	taken with a bounded wait: another thread
 *				holding it gives it back (10 s at most,
 *				then the program dies with no profile)
 *	drainlock		held by the drainer, which no signal reaches,
 *				or under proflock
 *	the loader's lock	recursive, and its lists are changed by
 *				single stores: a walk from the thread that
 *				holds it reads a whole list -- but for
 *				dlclose(), which unmaps an object before it
 *				unlinks it: libmon's dlclose() marks the
 *				thread as inside libmon while it runs
 *	malloc, stdio		never used by the writer
 *
 * The handler waits for nothing else, and writes on the program's stack
 * (some 30 KiB).  The process keeps proflock from the last part to its
 * death, so that no exit() of another thread ends it first with another
 * status.
 */
#define _GNU_SOURCE	/* pthread_attr_setsigmask_np, sem_clockwait */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define WAITMS		10000		/* a termination waits for its file */
#define SNAPPER_STACK	(256u << 10)
#define MINGAP_NS	10000000ULL	/* PROFINTERVAL at least 0.01 s */
#define MAXSECS		1000000

enum kind { POLITE = 1, SNAP };

struct watch {
	int			sig;
	enum kind		kind;
	int			managed;	/* ours installed, view kept */
	struct sigaction	view;		/* what the program set */
};

static struct watch	watches[4];
static int		nwatch;
static _Atomic uint64_t	watched;	/* bit sig - 1 */
static _Atomic pid_t	wlock;		/* the watches' lock (util.c) */
static int		active;		/* between start and stop */
static const struct _mon_term_ops *ops;
static int		snapsig;	/* PROFSIGNAL, 0 for none */
static uint64_t		interval;	/* PROFINTERVAL in ns, 0 for none */

static sem_t		wake;		/* the snapper waits on it */
static pthread_t	snapper;
static _Atomic pid_t	snapper_pid;	/* the process it runs in */
static _Atomic int	quit, asked, done, started;
static _Atomic pid_t	ending;		/* a process dying politely */
static _Atomic pid_t	home;		/* the process the watches are of */
static int		endsig;

static __thread volatile int inside __attribute__((tls_model("initial-exec")));
static __thread volatile int deferred
    __attribute__((tls_model("initial-exec")));

static void handler(int, siginfo_t *, void *);

static struct watch *
find(int sig)
{
	int i;

	for (i = 0; i < nwatch; i++)
		if (watches[i].sig == sig)
			return &watches[i];
	return NULL;
}

static int
is_ours(const struct sigaction *a)
{
	return (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == handler;
}

static int
install(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sigfillset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	return __sigaction(sig, &sa, NULL);
}

/* Ours in place of the program's SIG_DFL, if that is its action.  Locked. */
static void
take(struct watch *w)
{
	struct sigaction cur;

	if (w->managed || __sigaction(w->sig, NULL, &cur) != 0 ||
	    cur.sa_handler != SIG_DFL)
		return;
	w->view = cur;
	w->managed = install(w->sig) == 0;
}

/* The program's action back in place of ours.  Locked. */
static void
give(struct watch *w)
{
	struct sigaction cur;

	if (w->managed && __sigaction(w->sig, NULL, &cur) == 0 &&
	    is_ours(&cur))
		(void)__sigaction(w->sig, &w->view, NULL);
	w->managed = 0;
}

/* Is sig one of those libmon may take (sigaction.c asks)?  Signal-safe. */
int
_mon_term_watches(int sig)
{
	return sig > 0 && sig <= 64 &&
	    (atomic_load(&watched) >> (sig - 1) & 1) != 0;
}

/*
 * The program sets or reads the action of a watched signal: SIG_DFL
 * puts libmon's in its place while profiling, anything else is
 * installed as it is; what it reads is what it set.  As sigaction().
 */
int
_mon_term_adopt(int sig, const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction old, cur;
	struct watch *w;
	sigset_t was;
	int r, err;

	_mon_siglock(&wlock, &was);
	r = 0;
	if ((w = find(sig)) == NULL) {
		r = __sigaction(sig, act, oact);
		goto out;
	}
	/* Something that went round sigaction() replaced ours. */
	if (w->managed && (__sigaction(sig, NULL, &cur) != 0 ||
	    !is_ours(&cur)))
		w->managed = 0;
	if (w->managed)
		old = w->view;
	else if ((r = __sigaction(sig, NULL, &old)) != 0)
		goto out;
	if (act != NULL && active && act->sa_handler == SIG_DFL) {
		if (!w->managed && (r = install(sig)) != 0)
			goto out;
		w->view = *act;
		w->managed = 1;
	} else if (act != NULL) {
		if ((r = __sigaction(sig, act, NULL)) != 0)
			goto out;
		if (w->managed && w->kind == SNAP)
			_mon_warn("PROFSIGNAL", "the program handles this signal"
			    " itself; no snapshots by signal", 0);
		w->managed = 0;
	}
	if (oact != NULL)
		*oact = old;
out:
	err = errno;
	_mon_sigunlock(&wlock, &was);
	errno = err;
	return r;
}

/* The calling thread enters libmon's locked parts, or leaves them. */
void
_mon_term_inside(void)
{
	inside++;
}

void
_mon_term_outside(void)
{
	int sig;

	if (inside > 0 && --inside == 0 && (sig = deferred) != 0) {
		deferred = 0;
		(void)raise(sig);
	}
}

/* The last part by the snapper, or here; then death by sig. */
static void
end(int sig)
{
	struct timespec ms = { 0, 1000000 };
	pid_t me, cur;
	int i;

	me = getpid();
	cur = atomic_load(&ending);
	if (cur == me || !atomic_compare_exchange_strong(&ending, &cur, me))
		return;		/* another thread is at it: it ends us all */
	endsig = sig;
	if (atomic_load(&snapper_pid) == me) {
		(void)sem_post(&wake);
		for (i = 0; i < WAITMS && !atomic_load(&done); i++)
			(void)nanosleep(&ms, NULL);
	} else
		ops->final(sig);
	_mon_die(sig);
}

static void
handler(int sig, siginfo_t *si, void *uc)
{
	int err;

	(void)si;
	(void)uc;
	err = errno;
	/*
	 * A vfork() or clone() child, before its exec: it shares the
	 * program's memory, locks included, and owns no profile.  It dies
	 * as it would have, touching nothing of the parent's.
	 */
	if (getpid() != atomic_load(&home))
		_mon_die(sig);
	else if (sig == snapsig) {
		if (atomic_load(&snapper_pid) == getpid()) {
			atomic_store(&asked, 1);
			(void)sem_post(&wake);
		}
	} else if (inside)
		deferred = sig;
	else
		end(sig);
	errno = err;
}

static void
later(struct timespec *t, uint64_t ns)
{
	t->tv_nsec += (long)(ns % 1000000000u);
	t->tv_sec += (time_t)(ns / 1000000000u) + t->tv_nsec / 1000000000;
	t->tv_nsec %= 1000000000;
}

/* The next time on the interval's grid after now. */
static void
next_after(struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	do
		later(t, interval);
	while (t->tv_sec < now.tv_sec ||
	    (t->tv_sec == now.tv_sec && t->tv_nsec <= now.tv_nsec));
}

/* Wake the snapper, to look again at the signals it takes (sigprof.c). */
static void
nudge(void)
{
	if (atomic_load(&snapper_pid) == getpid())
		(void)sem_post(&wake);
}

/*
 * The snapper: every signal blocked (but the itimer clock's SIGPROF,
 * for its own CPU time: sigprof.c), it sleeps until asked, or until the
 * interval is up, writes the snapshot and sleeps again; asked to end the
 * process, it writes the last part and waits for the end.
 */
static void *
snap_loop(void *unused)
{
	struct timespec next;
	sigset_t none;
	int timed;

	(void)unused;
	_mon_own_thread(_mon_gettid(), 1);
	atomic_store(&started, 1);
	clock_gettime(CLOCK_MONOTONIC, &next);
	later(&next, interval);
	for (;;) {
		timed = 0;
		if (interval == 0)
			(void)sem_wait(&wake);
		else if (sem_clockwait(&wake, CLOCK_MONOTONIC, &next) != 0)
			timed = errno == ETIMEDOUT;
		_mon_sigprof_take(1, nudge);
		if (atomic_load(&ending) == getpid()) {
			ops->final(endsig);
			_mon_sigprof_take(0, NULL);
			atomic_store(&done, 1);
			sigfillset(&none);
			for (;;)
				(void)sigsuspend(&none);
		}
		if (atomic_load(&quit)) {
			_mon_sigprof_take(0, NULL);
			_mon_own_thread(_mon_gettid(), 0);
			_mon_thread_exit();
		}
		if (timed)
			next_after(&next);
		if (timed || atomic_exchange(&asked, 0))
			(void)ops->part();
	}
}

/* Start the snapper, a thread of libmon's own (util.c). */
static int
snapper_start(void)
{
	(void)sem_init(&wake, 0, 0);
	atomic_store(&quit, 0);
	atomic_store(&asked, 0);
	atomic_store(&done, 0);
	atomic_store(&started, 0);
	if (_mon_thread_start(&snapper, SNAPPER_STACK, snap_loop, NULL) != 0)
		return -1;
	/* Known as libmon's before any clock looks for threads to arm. */
	while (!atomic_load(&started))
		(void)sched_yield();
	atomic_store(&snapper_pid, getpid());
	return 0;
}

static void
snapper_stop(void)
{
	if (atomic_load(&snapper_pid) != getpid())
		return;
	atomic_store(&snapper_pid, 0);
	atomic_store(&quit, 1);
	(void)sem_post(&wake);
	(void)pthread_join(snapper, NULL);
}

/* Signal names PROFSIGNAL takes, with or without SIG. */
static const struct {
	const char	*name;
	int		 sig;
} names[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "PIPE", SIGPIPE },
	{ "ALRM", SIGALRM }, { "TERM", SIGTERM }, { "CHLD", SIGCHLD },
	{ "CONT", SIGCONT }, { "TSTP", SIGTSTP }, { "TTIN", SIGTTIN },
	{ "TTOU", SIGTTOU }, { "URG", SIGURG }, { "XCPU", SIGXCPU },
	{ "XFSZ", SIGXFSZ }, { "VTALRM", SIGVTALRM }, { "WINCH", SIGWINCH },
	{ "IO", SIGIO }, { "PWR", SIGPWR }, { "STKFLT", SIGSTKFLT },
};

/*
 * PROFSIGNAL: a name or a number of a signal that may ask for a
 * snapshot -- not SIGKILL or SIGSTOP, not SIGPROF (the clocks'), not a
 * fault, not one of the C library's own; 0 for none.
 */
static int
signal_of(const char *s)
{
	char *end;
	long n;
	size_t i;

	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i].name) == 0)
			return names[i].sig;
	n = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || n < 1 || n > SIGRTMAX ||
	    (n >= 32 && n < SIGRTMIN))
		return 0;
	switch (n) {
	case SIGKILL: case SIGSTOP: case SIGPROF: case SIGSEGV: case SIGBUS:
	case SIGFPE: case SIGILL: case SIGTRAP: case SIGSYS: case SIGABRT:
		return 0;
	}
	return (int)n;
}

/* PROFINTERVAL: seconds, a fraction allowed, in ns; 0 if not one. */
static uint64_t
interval_of(const char *s)
{
	uint64_t ns, unit;
	const char *p;

	ns = 0;
	for (p = s; *p >= '0' && *p <= '9'; p++) {
		ns = ns * 10 + (uint64_t)(*p - '0');
		if (ns > MAXSECS)
			return 0;
	}
	if (p == s && *p != '.')
		return 0;
	ns *= 1000000000u;
	if (*p == '.')
		for (p++, unit = 100000000u; *p >= '0' && *p <= '9'; p++) {
			ns += unit * (uint64_t)(*p - '0');
			unit /= 10;
		}
	return *p == '\0' && ns >= MINGAP_NS ? ns : 0;
}

/* What the environment asks for; 1 when polite termination is on. */
static int
configure(void)
{
	const char *s;

	snapsig = 0;
	interval = 0;
	if ((s = secure_getenv("PROFSIGNAL")) != NULL && *s != '\0' &&
	    (snapsig = signal_of(s)) == 0)
		_mon_warn("PROFSIGNAL", "not a signal that can ask for"
		    " snapshots; none by signal", 0);
	if ((s = secure_getenv("PROFINTERVAL")) != NULL && *s != '\0' &&
	    (interval = interval_of(s)) == 0)
		_mon_warn("PROFINTERVAL", "not a number of seconds from 0.01"
		    " to 1000000; none on an interval", 0);
	s = secure_getenv("PROFTERM");
	return s == NULL || (strcmp(s, "off") != 0 && strcmp(s, "0") != 0);
}

/* The signals to watch: the snapshot signal, then the polite ones. */
static void
build(int polite)
{
	static const int ends[] = { SIGINT, SIGTERM, SIGHUP };
	struct watch kept;
	uint64_t bits;
	int i;

	/*
	 * _mon_term_stop() left the snapshot signal's watch installed:
	 * kept if PROFSIGNAL names the same signal, else given back.
	 */
	kept = nwatch > 0 && watches[0].kind == SNAP ? watches[0] :
	    (struct watch){ 0 };
	if (kept.managed && kept.sig != snapsig)
		give(&kept);		/* clears kept.managed */
	nwatch = 0;
	if (snapsig != 0)
		watches[nwatch++] = kept.managed ? kept :
		    (struct watch){ .sig = snapsig, .kind = SNAP };
	for (i = 0; polite && i < 3; i++)
		if (ends[i] != snapsig)
			watches[nwatch++] = (struct watch){ .sig = ends[i],
			    .kind = POLITE };
	bits = 0;
	for (i = 0; i < nwatch; i++)
		bits |= (uint64_t)1 << (watches[i].sig - 1);
	atomic_store(&watched, bits);
}

/*
 * Profiling starts: the environment read, the snapper started if it is
 * asked for -- before any clock, which it must not inherit -- and
 * libmon's handler put where the program's action is SIG_DFL.  1 when
 * the profile is to be written in parts, else 0.
 */
int
_mon_term_start(const struct _mon_term_ops *o)
{
	sigset_t was;
	int i, polite;

	if (active)
		return snapsig != 0 || interval != 0;
	ops = o;
	polite = configure();
	if ((snapsig != 0 || interval != 0) &&
	    atomic_load(&snapper_pid) != getpid() && snapper_start() != 0) {
		_mon_warn("PROFSIGNAL", "no thread to write snapshots", errno);
		snapsig = 0;
		interval = 0;
	}
	_mon_siglock(&wlock, &was);
	atomic_store(&home, getpid());
	build(polite);
	active = 1;
	for (i = 0; i < nwatch; i++)
		take(&watches[i]);
	_mon_sigunlock(&wlock, &was);
	if (snapsig != 0 && !watches[0].managed)
		_mon_warn("PROFSIGNAL", "the program ignores or handles this"
		    " signal; no snapshots by signal", 0);
	return snapsig != 0 || interval != 0;
}

/*
 * Profiling stops: the program's actions back, the snapper ended.  Not
 * with proflock held: the snapper may be waiting for it.  The snapshot
 * signal keeps libmon's action, which now does nothing: the profile
 * stops in exit() before stdio is flushed, and the signal the user
 * sends to ask for a part must not kill the program there, nor after a
 * monitor(0).  The program still reads and sets its own action.
 */
void
_mon_term_stop(void)
{
	sigset_t was;
	int i;

	_mon_siglock(&wlock, &was);
	if (active)
		for (i = 0; i < nwatch; i++)
			if (watches[i].kind != SNAP)
				give(&watches[i]);
	active = 0;
	_mon_sigunlock(&wlock, &was);
	snapper_stop();
}

/*
 * A fork child profiling on: nothing of the parent's dying, locking or
 * snapper is its own; it gets a snapper of its own if the parent had one.
 */
void
_mon_term_fork_child(void)
{
	atomic_store(&wlock, 0);
	atomic_store(&ending, 0);
	atomic_store(&home, getpid());
	_mon_own_forget();
	inside = 0;
	deferred = 0;
	if (atomic_load(&snapper_pid) != 0) {
		atomic_store(&snapper_pid, 0);
		if (snapper_start() != 0)
			_mon_warn("PROFSIGNAL", "no thread to write snapshots",
			    errno);
	}
}
