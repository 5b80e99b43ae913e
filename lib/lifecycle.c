/*
 * lifecycle.c -- what happens to a profile at each event of a process's
 * life, one function per event, each calling the parts in a stated
 * order: start, stop, profil(), fork (prepare, parent, child), exec
 * (before, failed), thread start and end; a snapshot, a polite
 * termination.  monitor.c and profil.c are thin public wrappers over
 * these; crt/gmon.c, exec.c, thread.c and term.c call the rest.
 *
 * The profile: the caller's buffer (bufsize WORDs), laid out as mon.out:
 *
 *	buffer                                      buffer + bufsize
 *	+------------+------------------+------------------------------+
 *	| struct hdr | struct cnt[nfunc]|  WORD histogram              |
 *	| lpc hpc n  | filled at stop   |  bufsize - ssiz counters     |
 *	+------------+------------------+------------------------------+
 *	 ssiz = (sizeof(hdr) + nfunc * sizeof(cnt)) / sizeof(WORD)
 *
 * The call counts of cc -p code live in tables by thread and by CPU
 * (mcount.c), are summed by arc (arcs.c) and into the buffers' cells -- then into cells
 * of their own past nfunc, so none is lost -- when the profile stops.
 * A later start adds its cells as capacity and replaces the histogram.
 * A profile is written once, by the stop that ends it; a stop that
 * finds nothing running touches nothing (the caller may have freed its
 * buffer).
 *
 * A profile may also be written in parts while it runs (snap.c): by
 * the snapper or monsnapshot() through part(), and by a polite
 * termination through final(), both given to term.c at start; a run in
 * parts ends with its last part instead of the whole file.
 *
 * The process that started the profile owns it.  A fork child that
 * came through fork()'s handlers profiles on with everything emptied,
 * so the files of a parent and its children add up; one that did not
 * (_Fork, clone) owns nothing and writes nothing.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define NBLOCK	64

struct block {
	WORD	*buf;
	size_t	 nfunc;
};

static pthread_mutex_t proflock = PTHREAD_MUTEX_INITIALIZER;
static struct block	blocks[NBLOCK];
static size_t		nblocks;
static struct hdr	*curhdr;	/* header of the last start */
static WORD		*curhist;
static size_t		 curnhist;
static unsigned int	 curscale;
static _Atomic int	 profiling;	/* between a start and its stop;
					   read unlocked by exit_wait */
static int		 classic;	/* profil() alone runs the clock */
static int		 bufours;	/* the buffer is libmon's own memory */
static int		 paused;	/* moncontrol(0) */
static pid_t		 owner;		/* the process the profile is of */
static int		 atfork_set;

/*
 * thread.c, sigaction.c, sigwait.c, exec.c, dlclose.c, dlopen.c,
 * vfork.c, x86_64/vfork_entry.S and x86_64/dlopen_entry.S take the place
 * of libc functions.  A static
 * archive member is only linked when something needs it, and a
 * program's own references may already be satisfied by a shared library
 * ahead of libmon (a sanitizer runtime does this): naming them here
 * brings them in whenever the lifecycle is, and a definition in the
 * program then wins over any shared one.
 */
extern const char _mon_link_thread, _mon_link_sigaction, _mon_link_exec,
    _mon_link_dlclose, _mon_link_vfork, _mon_link_vfork_entry,
    _mon_link_sigwait, _mon_link_dlopen_entry;
__attribute__((used)) static const char *const pull[] = {
	&_mon_link_thread, &_mon_link_sigaction, &_mon_link_exec,
	&_mon_link_dlclose, &_mon_link_vfork, &_mon_link_vfork_entry,
	&_mon_link_sigwait, &_mon_link_dlopen_entry,
};

/* This thread takes or holds proflock: set before the lock is taken. */
static __thread volatile int taking
    __attribute__((tls_model("initial-exec")));
static _Atomic pid_t	 writer;	/* thread writing the profile */

static void fork_prepare(void);
static void fork_parent(void);
static void fork_child(void);
static int part(void);
static void final(int);

/* What term.c calls, from the snapper or a termination handler. */
static const struct _mon_term_ops termops = { part, final };

#define FINALMS	10000	/* a termination waits for proflock this long */

static void
hook(void)
{
	if (!atfork_set && pthread_atfork(fork_prepare, fork_parent,
	    fork_child) == 0)
		atfork_set = 1;
}

/*
 * Take proflock, the thread marked first: a signal handler that comes
 * while the lock is being taken or given back finds the mark, and does
 * not wait for a lock its own thread may hold.  A mark stored once the
 * lock is taken would leave a handler that comes in between to wait
 * for ever.
 */
static void
lock(void)
{
	taking = 1;
	atomic_signal_fence(memory_order_seq_cst);
	pthread_mutex_lock(&proflock);
}

/*
 * Take proflock; 0 when the calling thread holds it already, or is
 * taking it -- a signal handler interrupted it there, in fork() or a
 * stop, and calls exit() or monsnapshot() -- and nothing may be done:
 * waiting would never end.  The thread is marked inside libmon first,
 * so that a polite termination waits for it to leave (term.c).
 */
static int
enter(void)
{
	if (taking)
		return 0;
	_mon_term_inside();
	lock();
	return 1;
}

static void
leave(void)
{
	pthread_mutex_unlock(&proflock);
	atomic_signal_fence(memory_order_seq_cst);
	taking = 0;
	_mon_term_outside();
}

/* Zero n WORDs at p, by giving back its pages where the memory is ours. */
static void
zero(WORD *p, size_t n, int ours)
{
	if (ours)
		_mon_rezero(p, n * sizeof(WORD));
	else
		memset(p, 0, n * sizeof(WORD));
}

/* The classic scale: one counter per 2 bytes of text when it fits. */
static unsigned int
classic_scale(size_t words, uintptr_t lo, uintptr_t hi)
{
	uintptr_t text;

	text = (hi - lo) / 2 + ((hi - lo) & 1);		/* (hi-lo+1)/2 */
	if (words < text)
		return (unsigned int)((double)words * 65536.0 / (double)text);
	return 0xffff;
}

/*
 * A histogram for the samples, or none: earlier samples still on their
 * way belong to the old one.  Starts the clock if it is not running,
 * stops it with none.  Caller holds proflock.
 */
static int
set_hist(WORD *buf, size_t nwords, uintptr_t off, unsigned int scale,
    int classic_clock)
{
	_mon_clock_drain();
	if (buf == NULL) {
		_mon_hist_set(NULL, 0, 0, 0);
		_mon_clock_stop();
		return 0;
	}
	if (!paused)
		_mon_hist_set(buf, nwords, off, scale);
	if (_mon_clock_start(classic_clock) != 0) {
		_mon_hist_set(NULL, 0, 0, 0);
		return -1;
	}
	return 0;
}

/*
 * Start or restart profiling [lo, hi) into buf (bufsize WORDs, nfunc
 * cells); 0, or EINVAL with nothing changed.  A first start empties
 * every count; the order: counts, unloads, statistics, histogram and
 * clock, then counting on.
 */
int
_mon_life_start(char *lo, char *hi, WORD *buf, size_t bufsize, size_t nfunc,
    int ours)
{
	size_t ssiz, nhist;
	struct hdr *h;
	int parts;

	if (nfunc > (SIZE_MAX - sizeof(struct hdr)) / sizeof(struct cnt))
		return EINVAL;
	ssiz = (sizeof(struct hdr) + nfunc * sizeof(struct cnt)) /
	    sizeof(WORD);
	if (buf == NULL || lo == NULL || lo >= hi || ssiz >= bufsize)
		return EINVAL;
	/* PROFMODULE's, before the first call is timed; not locked. */
	_mon_prof_modules();
	if (!enter())
		return EDEADLK;
	if (_mon_outname_init() == 1) {		/* PROFDIR="": none */
		leave();
		return 0;
	}
	hook();
	/* The snapper, if any, first: it must inherit no clock. */
	parts = _mon_term_start(&termops);
	/* Samples on their way belong to the profile before, if any. */
	_mon_clock_drain();
	paused = 0;
	h = (struct hdr *)buf;
	h->lpc = lo;
	h->hpc = hi;
	h->nfns = nfunc;
	memset(h + 1, 0, nfunc * sizeof(struct cnt));
	nhist = bufsize - ssiz;
	zero(buf + ssiz, nhist, ours);
	if (!profiling) {
		nblocks = 0;
		_mon_cells_reset();
		if (_mon_calls_reset != NULL)
			_mon_calls_reset();
		_mon_gone_reset();
		_mon_snap_reset(parts);
	}
	if (nblocks < NBLOCK)
		blocks[nblocks++] = (struct block){ buf, nfunc };
	curhdr = h;
	curhist = buf + ssiz;
	curnhist = nhist;
	curscale = classic_scale(nhist, (uintptr_t)lo, (uintptr_t)hi);
	bufours = ours;
	/* A fork child empties the histogram: it starts so. */
	if (ours)
		_mon_wipe_on_fork(curhist, nhist * sizeof(WORD));
	_mon_stats_reset();
	_mon_stacks_reset();
	_mon_texts_refresh();
	if (set_hist(curhist, nhist, (uintptr_t)lo, curscale, 0) != 0)
		_mon_warn("monitor", "cannot start the sampling clock", errno);
	owner = getpid();
	profiling = 1;
	classic = 0;
	_mon_count_set(1);
	if (_mon_calls_on != NULL)
		_mon_calls_on(1);
	leave();
	return 0;
}

/*
 * moncontrol(): pause (0) or resume (else) a running profile, samples
 * and call counts alike, without stopping the clock -- a pause costs a
 * store and a resume another.  The CPU time used while paused is left
 * out of the profile's, so seconds stay those of the code profiled.
 */
void
_mon_life_control(int on)
{
	if (!enter())
		return;
	if (profiling && on == paused) {
		if (on) {
			/* What the clock took while paused goes nowhere. */
			_mon_clock_drain();
			_mon_stats_resume();
			_mon_hist_set(curhist, curnhist, (uintptr_t)curhdr->lpc,
			    curscale);
			_mon_count_set(1);
		} else {
			_mon_count_set(0);
			_mon_clock_drain();
			_mon_hist_set(NULL, 0, 0, 0);
			_mon_stats_pause();
		}
		paused = !on;
	}
	leave();
}

/* Copy the summed cells into the buffers' cell areas, in start order. */
static void
fill_blocks(const struct cnt *c, size_t n)
{
	size_t i, k;

	for (i = 0; i < nblocks && n > 0; i++) {
		k = blocks[i].nfunc < n ? blocks[i].nfunc : n;
		memcpy((struct hdr *)blocks[i].buf + 1, c, k * sizeof(*c));
		c += k;
		n -= k;
	}
}

static void
write_profile(uint32_t unsampled)
{
	struct _mon_out d;
	struct monx_arc *arcs;
	struct cnt *cells;
	size_t narcs, ncells, arclen, celllen;

	/* A run in parts ends with its last part. */
	if (_mon_snap_numbered(0)) {
		(void)_mon_snap_write(curhdr, curhist, curnhist, curscale,
		    unsampled, 1);
		return;
	}
	arcs = _mon_arcs_merge(&narcs, &arclen, 1);
	ncells = 0;
	celllen = narcs * sizeof(*cells);
	/*
	 * The cells go after the arcs in the merge's own map where there is
	 * room, pages it touched already: at exit the profile's peak memory
	 * stays the merge's.
	 */
	cells = NULL;
	if (narcs > 0 && arclen - narcs * sizeof(*arcs) >= celllen) {
		cells = (struct cnt *)(arcs + narcs);
		celllen = 0;
	} else if (narcs > 0)
		cells = _mon_map(celllen);
	if (cells != NULL)
		ncells = _mon_arcs_cells(arcs, narcs, cells);
	fill_blocks(cells, ncells);
	/* Each buffer's header keeps its own nfunc: the image stays valid. */
	memset(&d, 0, sizeof(d));
	d.hdr = curhdr;
	d.cells = cells;
	d.ncells = ncells;
	d.arcs = cells != NULL ? arcs : NULL;
	d.narcs = cells != NULL ? narcs : 0;
	d.hist = curhist;
	d.nhist = curnhist;
	d.scale = curscale;
	d.unsampled = unsampled;
	d.timed = 1;
	(void)_mon_snap_put(&d, 0);
	if (cells != NULL && celllen > 0)
		_mon_unmap(cells, celllen);
	if (arcs != NULL)
		_mon_unmap(arcs, arclen);
}

/*
 * Stop and write the profile: counting off, the clock stopped with its
 * last samples in, the CPU time fixed, then the file.  A process that
 * did not start the profile and was not told of its fork owns nothing
 * and touches nothing: a vfork() child that calls exit() shares its
 * parent's memory, and whatever it changed would be the parent's.
 */
void
_mon_life_stop(void)
{
	uint32_t unsampled;
	pid_t none;
	int mine;

	if (owner != 0 && getpid() != owner)
		return;
	/* First of all, so that a second exit() finds a writer at work. */
	none = 0;
	mine = atomic_compare_exchange_strong(&writer, &none, _mon_gettid());
	/* The profilers' last word, while their calls are still hooked. */
	if (mine && !taking)
		_mon_prof_shutdown();
	/* The program's actions back and the snapper ended, unlocked. */
	if (!taking)
		_mon_term_stop();
	if (!enter()) {
		/* exit() from a handler that interrupted libmon here. */
		if (profiling)
			_mon_warn("profile", "last part not written: exit() "
			    "from a signal handler that interrupted libmon", 0);
		goto out;
	}
	if (!profiling)
		goto unlock;
	_mon_count_set(0);
	if (_mon_calls_on != NULL)
		_mon_calls_on(0);
	profiling = 0;
	paused = 0;
	unsampled = _mon_clock_unsampled();
	(void)set_hist(NULL, 0, 0, 0, 0);
	_mon_stats_stop();
	write_profile(unsampled);
unlock:
	leave();
out:
	if (mine)
		atomic_store(&writer, 0);
}

/*
 * An exit handler that runs after the one that writes the profile: a
 * second thread that calls exit() while the first runs the handlers
 * takes those left and would end the process under the writer.  It
 * waits here while the profile is still to be written or being written
 * by another thread -- five seconds at the most, since exit() from two
 * threads at once is the program's own race -- unless this thread is
 * the one libmon was interrupted in, by a handler that called exit().
 */
void
_mon_life_exit_wait(void)
{
	struct timespec ms = { 0, 1000000 };
	pid_t w, me;
	int i;

	if (owner != 0 && getpid() != owner)
		return;
	/* Inside libmon, interrupted: none but this thread would write. */
	if (taking)
		return;
	me = _mon_gettid();
	for (i = 0; i < 5000; i++) {
		w = atomic_load(&writer);
		if (w == me || (w == 0 && !atomic_load(&profiling)))
			return;
		(void)nanosleep(&ms, NULL);
	}
}
/*
 * profil() called by the program: its histogram takes over from
 * monitor()'s, with ITIMER_PROF if no clock runs; scale 0 or 1 (or no
 * buffer) stops the samples.
 */
int
_mon_life_profil(WORD *buf, size_t bufsiz, uintptr_t off, unsigned int scale)
{
	int r;

	if (!enter()) {
		errno = EDEADLK;
		return -1;
	}
	hook();
	/* Decide "off" from scale first: buf may be declared nonnull. */
	if (scale < 2 || bufsiz < sizeof(WORD) || buf == NULL) {
		r = set_hist(NULL, 0, 0, 0, 0);
		classic = 0;
	} else {
		if (!_mon_clock_running())
			classic = 1;
		owner = getpid();
		r = set_hist(buf, bufsiz / sizeof(WORD), off, scale, 1);
	}
	leave();
	return r;
}

/*
 * fork(): the parts are held in the order the child will find them --
 * the profile, the clock, the unload table -- and let go in reverse.
 */
static void
fork_prepare(void)
{
	_mon_term_inside();
	lock();
	_mon_clock_fork_prepare();
}

static void
fork_parent(void)
{
	_mon_clock_fork_parent();
	leave();
}

/*
 * The child: locks renewed; a running profile starts again from zero --
 * histogram, statistics, counts, unloads -- with the child's own clock;
 * profil() alone goes on with the same buffer, as it classically does.
 */
static void
fork_child(void)
{
	_mon_renew_mutex(&proflock);
	taking = 0;
	_mon_clock_fork_locks();
	_mon_gone_fork();
	_mon_texts_fork();
	if (profiling) {
		owner = getpid();
		zero(curhist, curnhist, bufours);
		_mon_stats_reset();
		_mon_stacks_reset();
		_mon_cells_fork();
		if (_mon_calls_fork != NULL)
			_mon_calls_fork();
		_mon_gone_reset();
		_mon_snap_reset(_mon_snap_numbered(0));
	} else if (classic)
		owner = getpid();
	/* Its snapper, if the parent had one, before its clock, as at start. */
	_mon_term_fork_child();
	_mon_clock_fork_child();
	/* The profilers last: the child is whole when they are told. */
	_mon_prof_fork();
}

/*
 * exec(): nothing of the clock may reach the new image.  A process that
 * does not own the profile has no clock to stop -- a child inherits no
 * timer, event or pending signal -- and a vfork() child would change
 * its parent's memory: it does nothing.
 */
void
_mon_life_exec_before(void)
{
	if (owner == 0 || getpid() == owner)
		_mon_clock_exec_before();
	/* Any process: SIG_IGN, kept aside, must reach the new image. */
	_mon_sigprof_exec(1);
}

void
_mon_life_exec_failed(void)
{
	_mon_sigprof_exec(0);
	if (owner == 0 || getpid() == owner)
		_mon_clock_exec_failed();
}

/*
 * The calling thread is about to create one with pthread_create, and
 * has (_mon_life_thread_made()), with what this returned.  No lock of
 * the profile's: the clock's own checks are loads.
 */
int
_mon_life_thread_create(void)
{
	return _mon_clock_thread_create();
}

void
_mon_life_thread_made(int held)
{
	_mon_clock_thread_made(held);
}

/* A thread created with pthread_create starts, or ends. */
void
_mon_life_thread_start(void)
{
	_mon_term_inside();
	_mon_clock_thread_start();
	_mon_term_outside();
	_mon_prof_thread(1);
}

void
_mon_life_thread_end(void)
{
	_mon_term_inside();
	_mon_clock_thread_end();
	/* Its measured calls folded under a lock a writer takes. */
	if (_mon_calls_thread_end != NULL)
		_mon_calls_thread_end();
	_mon_term_outside();
	_mon_prof_thread(0);
	_mon_cells_thread_end();
}

/* The main thread calls pthread_exit() (thread.c). */
void
_mon_life_main_exit(void)
{
	_mon_clock_main_exit();
}

/*
 * A snapshot: the part of the profile since the last, written now while
 * the program runs on (the snapper, or monsnapshot()).  0, or -1 with
 * errno: EINVAL when this process has no profile running, EDEADLK when
 * called from a handler that interrupted libmon, or the writer's.
 */
static int
part(void)
{
	sigset_t all, old;
	int r, err;

	if (!enter()) {
		errno = EDEADLK;
		return -1;
	}
	r = -1;
	err = EINVAL;
	if (profiling && getpid() == owner) {
		/*
		 * The program's signals wait while the part is written, but
		 * libmon's own SIGPROF, whose handler only counts: what it
		 * samples meanwhile is libmon's (_mon_clock_writing()), to
		 * the last unmap, not a pile of ticks let through at the end
		 * onto whatever runs then.  (On the snapper, which only the
		 * itimer clock's signal reaches, samples are dropped:
		 * sigprof.c.)  The program's handlers of the
		 * signals that waited run once the window is shut: their
		 * time is the program's.
		 */
		sigfillset(&all);
		if (_mon_sigprof_clock())
			(void)sigdelset(&all, SIGPROF);
		(void)pthread_sigmask(SIG_BLOCK, &all, &old);
		_mon_clock_writing(1);
		(void)_mon_snap_numbered(1);
		r = _mon_snap_write(curhdr, curhist, curnhist, curscale,
		    _mon_clock_unsampled(), 0);
		err = errno;
		_mon_clock_writing(0);
		(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	leave();
	if (r != 0)
		errno = err;
	return r;
}

int
_mon_life_snapshot(void)
{
	return part();
}

/*
 * A polite termination (term.c): the last part -- or the whole profile,
 * when it is not in parts -- written with the clock still running, as
 * the process is about to die.  proflock is kept, so that no exit() of
 * another thread ends the process first with a status of its own; it is
 * waited for a bounded time, its holder being another thread that may
 * wait for this one.  From a signal handler: the thread holds nothing of
 * libmon's (term.c saw to it).
 */
static void
final(int sig)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	(void)sig;
	for (i = 0; pthread_mutex_trylock(&proflock) != 0; i++) {
		if (i == FINALMS) {
			_mon_warn("profile", "not written: another thread"
			    " holds the profile", 0);
			return;
		}
		(void)nanosleep(&ms, NULL);
	}
	taking = 1;
	if (!profiling || getpid() != owner)
		return;
	profiling = 0;
	_mon_clock_writing(1);
	(void)_mon_snap_write(curhdr, curhist, curnhist, curscale,
	    _mon_clock_unsampled(), 1);
	_mon_clock_writing(0);
}
