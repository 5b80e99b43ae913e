/*
 * h_fault -- a cc -p program that does to libmon what programs do to a
 * profiler, for faults_test.sh.  Each mode is one row of the README's
 * fault table; functions are called known numbers of times and CPU work
 * is measured in CPU time (h_spin.h).
 *
 *	h_fault spin MS			spin_a for MS of CPU
 *	h_fault spread MS		4 threads; thread i spins in spin_i
 *					for (i + 2) * MS of CPU
 *	h_fault block MS		2 threads, each: MS in spin_a, MS in
 *					spin_b with SIGPROF blocked (both at
 *					once), MS in spin_a; leaf() 100000
 *					times in every phase.  The thread
 *					CPU time of each spin goes to facts
 *	h_fault ownitimer HZ MS		its own SIGPROF handler and its own
 *					ITIMER_PROF at HZ, then MS in spin_a
 *	h_fault threads N ALIVE CALLS	N threads, at most ALIVE at a time,
 *					each calling leaf() CALLS times
 *	h_fault crowd N MS		N threads alive as a short one ends,
 *					then MS ms in spin_a() each
 *	h_fault unseen N CALLS		N threads libmon does not see start
 *					or end (the C library's own, for
 *					SIGEV_THREAD timer expirations), one
 *					at a time, each calling leaf() CALLS
 *					times
 *	h_fault fork N			pre() 1000 times; N children, child i
 *					calling kid() i + 1 times and both()
 *					10 times; then post() 7 times and
 *					both() 11 times
 *	h_fault forkthread MS		a child whose first act is to start
 *					a thread that spins spin_a for MS of
 *					CPU; its thread CPU time and the
 *					child's pid go to facts
 *	h_fault exec PROG MS		a child that spins, then execs
 *					"PROG MS"; then system("PROG MS")
 *	h_fault segv | sigkill		spin, then die of SIGSEGV or SIGKILL
 *	h_fault threadexit CODE CALLS	a second thread calls leaf() CALLS
 *					times and exit(CODE) while main waits
 *	h_fault busyexit CODE		exit(CODE) while 3 threads call leaf()
 *					without pause
 *	h_fault eintr MS [ONLY]		threads blocked in read() and poll()
 *					on pipes and in a loop of nanosleep()
 *					while another spins MS and keeps
 *					errno; with ONLY (read, poll or
 *					nanosleep) every other thread blocks
 *					SIGPROF
 *	h_fault naps N MS		N naps of MS in nanosleep() on the
 *					main thread, the only one: how many
 *					were cut short goes to facts (the
 *					process's CPU time, PROFINTERVAL's
 *					snapshots, is libmon's)
 *	h_fault blockedkill [dfl]	main, the only thread, blocks SIGPROF,
 *					sets a handler of its own (with dfl,
 *					leaves SIG_DFL) and sends itself
 *					SIGPROF by kill(); 50 ms on it says
 *					so and unblocks it: how many times the
 *					handler ran, and on the main thread,
 *					go to facts (with dfl the signal ends
 *					the process there)
 *	h_fault stuckkill		as blockedkill, the handler set while
 *					libmon's snapper waits for the C
 *					library's lock of loaded objects, which
 *					a second thread (SIGPROF blocked) holds
 *					in dl_iterate_phdr() for 300 ms: the
 *					kill() and main's unblocking are done
 *					in the while; handled before the
 *					unblocking goes to stdout
 *	h_fault dl LIB MS [close]	dlopen LIB; 3 * MS in its dl_burn(),
 *					dl_leaf() 1000 times; dlclose it if
 *					asked; then MS in spin_a
 *	h_fault dlmany DIR N HOW LIB MS	dlopen DIR/lib1.so .. DIR/libN.so in
 *					turn and dlclose each; HOW "hold":
 *					each opened twice, so that it stays;
 *					HOW "close": once.  Then dl LIB MS
 *					close
 *	h_fault dlfail LIB		a dlclose that fails (libc's link map,
 *					never opened) and one that unloads
 *					LIB: result, dlerror() and errno
 *					compared with libc's own dlclose
 *	h_fault dlreuse A B MS		MS in A's dl_burn, A dlclose'd; then
 *					3 * MS in B's, B left open; then MS in
 *					spin_a.  Whether B took A's addresses
 *					goes to facts (reused 1 or 0)
 *	h_fault dlfork A B MS		MS in A's dl_burn and A dlclose'd;
 *					a child then spends MS in B's and
 *					dlcloses B, MS in spin_a; the parent
 *					waits for it
 *	h_fault dlcalls LIB MS		LIB sets a SIGPROF action (onprof) and
 *					starts a thread that spins MS in
 *					dl_burn; main spins MS in spin_a
 *
 * What is deterministic goes to stdout, so that a run can be compared
 * with one where PROFDIR="" turns profiling off; what is measured goes
 * to the file "facts" in the current directory, one "key value" a line,
 * ending with cpu_ns, the process's CPU time when the mode is done.
 * A mode that runs as asked exits with status 3 (EXIT_OK), so that a
 * test sees the program's own status come through.
 */
#define _GNU_SOURCE	/* RTLD_NEXT, dladdr1 */
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "h_spin.h"

#define EXIT_OK		3
#define PHASE_CALLS	100000
#define MAXTHREADS	1024

volatile long sink;
static FILE *facts;
static uint64_t ms;			/* the MS argument, in ns */

long
leaf(long x)
{
	return x * 3 + 1;
}

long pre(long x) { return x + 1; }
long kid(long x) { return x + 2; }
long both(long x) { return x + 3; }
long post(long x) { return x + 4; }

static void
call(long (*fn)(long), long n)
{
	while (n-- > 0)
		sink += fn(n);
}

void spin_a(uint64_t ns) { SPIN(ns); }
void spin_b(uint64_t ns) { SPIN(ns); }
void spin_0(uint64_t ns) { SPIN(ns); }
void spin_1(uint64_t ns) { SPIN(ns); }
void spin_2(uint64_t ns) { SPIN(ns); }
void spin_3(uint64_t ns) { SPIN(ns); }

static void
fact(const char *key, long long v)
{
	fprintf(facts, "%s %lld\n", key, v);
	if (fflush(facts) != 0)
		err(1, "facts");
}

static unsigned long
num(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0')
		errx(2, "%s: not a number", s);
	return v;
}

static void
start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	if ((errno = pthread_create(t, NULL, fn, arg)) != 0)
		err(1, "pthread_create");
}

/* --- spread: a thread per function ---------------------------------- */

static void (*const spins[4])(uint64_t) = { spin_0, spin_1, spin_2, spin_3 };

static void *
spread_thread(void *arg)
{
	long i = (long)arg;
	uint64_t t0;

	t0 = SPIN_NOW(THREAD);
	spins[i]((uint64_t)(i + 2) * ms);
	return (void *)(uintptr_t)(SPIN_NOW(THREAD) - t0);
}

static int
do_spread(void)
{
	pthread_t t[4];
	char key[32];
	void *r;
	long i;

	for (i = 0; i < 4; i++)
		start(&t[i], spread_thread, (void *)i);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		snprintf(key, sizeof(key), "spin_%ld_ns", i);
		fact(key, (long long)(uintptr_t)r);
	}
	printf("threads 4\n");
	return EXIT_OK;
}

/* --- block: SIGPROF blocked in every thread for a while --------------- */

static pthread_barrier_t barrier;
static atomic_ullong spent_a, spent_b;	/* thread CPU ns in spin_a, spin_b */

/* fn(ns), its thread CPU time added to *spent. */
static void
timed(void (*fn)(uint64_t), uint64_t ns, atomic_ullong *spent)
{
	uint64_t t0;

	t0 = SPIN_NOW(THREAD);
	fn(ns);
	atomic_fetch_add(spent, SPIN_NOW(THREAD) - t0);
}

static void *
block_phases(void *unused)
{
	sigset_t prof;

	(void)unused;
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	call(leaf, PHASE_CALLS);
	timed(spin_a, ms, &spent_a);
	pthread_barrier_wait(&barrier);
	if ((errno = pthread_sigmask(SIG_BLOCK, &prof, NULL)) != 0)
		err(1, "pthread_sigmask");
	call(leaf, PHASE_CALLS);
	timed(spin_b, ms, &spent_b);
	pthread_barrier_wait(&barrier);
	if ((errno = pthread_sigmask(SIG_UNBLOCK, &prof, NULL)) != 0)
		err(1, "pthread_sigmask");
	call(leaf, PHASE_CALLS);
	timed(spin_a, ms, &spent_a);
	return NULL;
}

static int
do_block(void)
{
	pthread_t t;

	if (pthread_barrier_init(&barrier, NULL, 2) != 0)
		errx(1, "pthread_barrier_init");
	start(&t, block_phases, NULL);
	block_phases(NULL);
	pthread_join(t, NULL);
	fact("spin_a_ns", (long long)atomic_load(&spent_a));
	fact("spin_b_ns", (long long)atomic_load(&spent_b));
	printf("leaf %d\n", 6 * PHASE_CALLS);
	return EXIT_OK;
}

/* --- ownitimer: the program's own SIGPROF handler and timer ----------- */

static volatile sig_atomic_t own;

void	onprof(int);

void
onprof(int sig)
{
	(void)sig;
	own++;
}

static int
do_ownitimer(unsigned long hz)
{
	static const struct itimerval off;
	struct sigaction sa, cur;
	struct itimerval it;
	uint64_t t0;

	if (hz < 1 || hz > 1000000)
		errx(2, "HZ from 1 to 1000000");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onprof;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL) != 0 ||
	    sigaction(SIGPROF, NULL, &cur) != 0)
		err(1, "sigaction");
	printf("read back: %s\n", !(cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_handler == onprof ? "own handler" : "another action");
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_sec = 1 / hz;
	it.it_interval.tv_usec = 1000000 / hz % 1000000;
	it.it_value = it.it_interval;
	t0 = SPIN_NOW(PROCESS);
	if (setitimer(ITIMER_PROF, &it, NULL) != 0)
		err(1, "setitimer");
	spin_a(ms);
	if (setitimer(ITIMER_PROF, &off, NULL) != 0)
		err(1, "setitimer");
	fact("own_signals", own);
	fact("own_cpu_ns", (long long)(SPIN_NOW(PROCESS) - t0));
	return EXIT_OK;
}

/* --- threads: many short threads -------------------------------------- */

static long per_thread;

static void *
short_thread(void *unused)
{
	(void)unused;
	call(leaf, per_thread);
	spin_a(2 * MS);
	return NULL;
}

static int
do_threads(unsigned long n, unsigned long alive, long calls)
{
	pthread_t t[MAXTHREADS];
	unsigned long i;

	if (n > MAXTHREADS || alive < 1)
		errx(2, "at most %d threads, at least one alive", MAXTHREADS);
	per_thread = calls;
	for (i = 0; i < n; i++) {
		if (i >= alive)
			pthread_join(t[i - alive], NULL);
		start(&t[i], short_thread, NULL);
	}
	for (i = n > alive ? n - alive : 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("threads %lu, leaf %ld\n", n, (long)n * calls);
	return EXIT_OK;
}

/* --- crowd: a short thread ends with many others alive --------------- */

static pthread_barrier_t crowd_go;

static void *
crowd_worker(void *unused)
{
	(void)unused;
	pthread_barrier_wait(&crowd_go);
	spin_a(ms);
	return NULL;
}

static void *
crowd_short(void *unused)
{
	(void)unused;
	return NULL;
}

/*
 * n threads alive, waiting; one that ends at once, short, then another
 * made (the perf clock is made fine there, unless too many are alive);
 * then the n spin ms of CPU each in spin_a().
 */
static int
do_crowd(unsigned long n)
{
	pthread_t t[MAXTHREADS], s;
	unsigned long i;

	if (n > MAXTHREADS)
		errx(2, "at most %d threads", MAXTHREADS);
	pthread_barrier_init(&crowd_go, NULL, (unsigned)n + 1);
	for (i = 0; i < n; i++)
		start(&t[i], crowd_worker, NULL);
	start(&s, crowd_short, NULL);
	pthread_join(s, NULL);
	start(&s, crowd_short, NULL);
	pthread_join(s, NULL);
	pthread_barrier_wait(&crowd_go);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("crowd %lu\n", n);
	return EXIT_OK;
}

/* --- unseen: threads the C library starts ------------------------------ */

static pthread_mutex_t	unseen_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	unseen_cv = PTHREAD_COND_INITIALIZER;
static unsigned long	unseen_done;

static void
unseen_thread(union sigval v)
{
	call(leaf, v.sival_int);
	pthread_mutex_lock(&unseen_lock);
	unseen_done++;
	pthread_cond_signal(&unseen_cv);
	pthread_mutex_unlock(&unseen_lock);
}

/*
 * Each expiration of a SIGEV_THREAD timer runs unseen_thread() on a new
 * thread that the C library creates itself, not through pthread_create:
 * libmon sees it count, but neither start nor end.
 */
static int
do_unseen(unsigned long n, long calls)
{
	struct sigevent ev;
	struct itimerspec its;
	timer_t tm;
	unsigned long i;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = unseen_thread;
	ev.sigev_value.sival_int = (int)calls;
	if (timer_create(CLOCK_MONOTONIC, &ev, &tm) != 0)
		err(1, "timer_create");
	memset(&its, 0, sizeof(its));
	for (i = 0; i < n; i++) {
		its.it_value.tv_nsec = 100000;
		if (timer_settime(tm, 0, &its, NULL) != 0)
			err(1, "timer_settime");
		pthread_mutex_lock(&unseen_lock);
		while (unseen_done <= i)
			pthread_cond_wait(&unseen_cv, &unseen_lock);
		pthread_mutex_unlock(&unseen_lock);
	}
	(void)timer_delete(tm);
	printf("unseen %lu, leaf %ld\n", n, (long)n * calls);
	return EXIT_OK;
}

/* --- fork: many children ---------------------------------------------- */

static int
do_fork(unsigned long n)
{
	unsigned long i, bad;
	pid_t pid;
	int status;

	call(pre, 1000);
	for (i = 0; i < n; i++) {
		fflush(NULL);
		if ((pid = fork()) == -1)
			err(1, "fork");
		if (pid == 0) {
			call(kid, (long)i + 1);
			call(both, 10);
			spin_b(5 * MS);
			exit(0);
		}
	}
	for (bad = 0, i = 0; i < n; i++) {
		if (wait(&status) == -1)
			err(1, "wait");
		if (status != 0)
			bad++;
	}
	call(post, 7);
	call(both, 11);
	printf("children %lu, %lu failed\n", n, bad);
	return EXIT_OK;
}

/* --- forkthread: a fork child that starts a thread at once ------------ */

static void *
spin_thread(void *unused)
{
	uint64_t t0;

	(void)unused;
	t0 = SPIN_NOW(THREAD);
	spin_a(ms);
	return (void *)(uintptr_t)(SPIN_NOW(THREAD) - t0);
}

static int
do_forkthread(void)
{
	pthread_t t;
	pid_t pid;
	void *r;
	int status;

	fflush(NULL);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		start(&t, spin_thread, NULL);
		pthread_join(t, &r);
		fact("thread_ns", (long long)(uintptr_t)r);
		exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		err(1, "waitpid");
	fact("child", pid);
	printf("forkthread: status %#x\n", status);
	return EXIT_OK;
}

/* --- exec: a CPU-bound program run from a profiled one ---------------- */

static int
do_exec(const char *prog, const char *arg)
{
	char cmd[4096];
	pid_t pid;
	int status;

	fflush(NULL);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		/* Use CPU first, so that the child's clock is running. */
		spin_a(20 * MS);
		execl(prog, prog, arg, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		err(1, "waitpid");
	printf("exec: status %#x\n", status);
	spin_a(20 * MS);
	snprintf(cmd, sizeof(cmd), "'%s' %s", prog, arg);
	status = system(cmd);
	printf("system: status %#x\n", status);
	return EXIT_OK;
}

/* --- threadexit, busyexit: exit() from elsewhere than main ------------- */

static long exit_calls;
static int exit_code;

static void *
exiting_thread(void *unused)
{
	(void)unused;
	call(leaf, exit_calls);
	spin_a(20 * MS);
	printf("exit from a thread\n");
	exit(exit_code);
}

static int
do_threadexit(int code, long calls)
{
	pthread_t t;

	exit_code = code;
	exit_calls = calls;
	call(leaf, 5);
	start(&t, exiting_thread, NULL);
	pthread_join(t, NULL);
	errx(1, "pthread_join returned");
}

static atomic_long published;

static void *
busy_thread(void *unused)
{
	long i;

	(void)unused;
	for (i = 0;; i++) {
		sink += leaf(i);
		atomic_fetch_add(&published, 1);
	}
	return NULL;
}

static int
do_busyexit(int code)
{
	pthread_t t;
	int i;

	for (i = 0; i < 3; i++)
		start(&t, busy_thread, NULL);
	spin_a(100 * MS);
	/* Every call counted so far must be in the file. */
	fact("published", atomic_load(&published));
	printf("exit while threads call\n");
	exit(code);
}

/* --- eintr: blocking calls in other threads while one spins ----------- */

struct sleeper {
	const char	*name;
	int		fd;
	int		eintr;		/* times it failed with EINTR */
	int		rounds;		/* calls made */
	int		result;		/* what the last call returned */
	int		error;		/* errno of a failure but EINTR */
};

static atomic_int spinning = 1;
static const char *only;	/* the one thread that takes SIGPROF */

/* Block SIGPROF in the calling thread, unless it is the chosen one. */
static void
mask(const char *name)
{
	sigset_t prof;

	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	if (only != NULL && (errno = pthread_sigmask(strcmp(only, name) == 0 ?
	    SIG_UNBLOCK : SIG_BLOCK, &prof, NULL)) != 0)
		err(1, "pthread_sigmask");
}

/* Note a call's result; 1 if the caller should go on calling. */
static int
again(struct sleeper *s, int r)
{
	s->rounds++;
	s->result = r;
	if (r >= 0)
		return 0;
	if (errno != EINTR) {
		s->error = errno;
		return 0;
	}
	s->eintr++;
	return 1;
}

static void *
reader(void *arg)
{
	struct sleeper *s = arg;
	char c;

	mask(s->name);
	while (again(s, (int)read(s->fd, &c, 1)))
		;
	return NULL;
}

static void *
poller(void *arg)
{
	struct sleeper *s = arg;
	struct pollfd p;

	mask(s->name);
	p.fd = s->fd;
	p.events = POLLIN;
	while (again(s, poll(&p, 1, -1)))
		;
	return NULL;
}

static void *
napper(void *arg)
{
	struct sleeper *s = arg;
	struct timespec ts = { 0, 2 * 1000000 };

	mask(s->name);
	while (atomic_load(&spinning))
		if (!again(s, nanosleep(&ts, NULL)) && s->result != 0)
			break;
	return NULL;
}

static void *
spinner(void *unused)
{
	int kept;

	(void)unused;
	mask("spinner");
	errno = EDOM;
	spin_a(ms);
	kept = errno == EDOM;
	return (void *)(uintptr_t)kept;
}

static void
report(const struct sleeper *s)
{
	char key[64];

	snprintf(key, sizeof(key), "%s_eintr", s->name);
	fact(key, s->eintr);
	snprintf(key, sizeof(key), "%s_rounds", s->name);
	fact(key, s->rounds);
	printf("%s: returned %d, error %d\n", s->name, s->result, s->error);
}

static int
do_naps(unsigned long n, unsigned long nms)
{
	struct timespec ts = { (time_t)(nms / 1000),
	    (long)(nms % 1000) * 1000000 };
	unsigned long i, cut;

	for (i = cut = 0; i < n; i++)
		if (nanosleep(&ts, NULL) != 0)
			cut++;
	fact("naps_eintr", (long long)cut);
	printf("naps: %lu\n", n);
	return EXIT_OK;
}

static volatile sig_atomic_t killed, killed_main;

static void
onkill(int sig)
{
	(void)sig;
	killed++;
	if (gettid() == getpid())
		killed_main++;
}

static int
do_blockedkill(int dfl)
{
	struct timespec ts = { 0, 50 * 1000000 };
	struct sigaction sa;
	sigset_t s;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onkill;
	sigemptyset(&s);
	sigaddset(&s, SIGPROF);
	if ((!dfl && sigaction(SIGPROF, &sa, NULL) != 0) ||
	    sigprocmask(SIG_BLOCK, &s, NULL) != 0)
		err(1, "SIGPROF");
	(void)nanosleep(&ts, NULL);
	if (kill(getpid(), SIGPROF) != 0)
		err(1, "kill");
	(void)nanosleep(&ts, NULL);
	printf("unblocking\n");
	(void)fflush(stdout);
	if (sigprocmask(SIG_UNBLOCK, &s, NULL) != 0)
		err(1, "SIGPROF");
	fact("killed", killed);
	fact("killed_main", killed_main);
	printf("handled: %d\n", killed > 0);
	return EXIT_OK;
}

static int
hold_objects(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct timespec ts = { 0, 300 * 1000000 };

	(void)info;
	(void)size;
	(void)arg;
	(void)nanosleep(&ts, NULL);
	return 1;
}

static void *
objects_holder(void *arg)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGPROF);
	(void)pthread_sigmask(SIG_BLOCK, &s, NULL);
	(void)dl_iterate_phdr(hold_objects, NULL);
	return arg;
}

static int
do_stuckkill(void)
{
	struct timespec ts = { 0, 50 * 1000000 }, ts20 = { 0, 20 * 1000000 };
	struct sigaction sa;
	pthread_t t;
	sigset_t s;

	(void)nanosleep(&ts, NULL);
	if (pthread_create(&t, NULL, objects_holder, NULL) != 0)
		errx(1, "pthread_create");
	(void)nanosleep(&ts, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onkill;
	sigemptyset(&s);
	sigaddset(&s, SIGPROF);
	if (sigaction(SIGPROF, &sa, NULL) != 0 ||
	    pthread_sigmask(SIG_BLOCK, &s, NULL) != 0)
		err(1, "SIGPROF");
	if (kill(getpid(), SIGPROF) != 0)
		err(1, "kill");
	(void)nanosleep(&ts20, NULL);
	printf("handled before unblocking: %d\n", killed);
	if (pthread_sigmask(SIG_UNBLOCK, &s, NULL) != 0)
		err(1, "SIGPROF");
	(void)pthread_join(t, NULL);
	fact("killed", killed);
	fact("killed_main", killed_main);
	printf("handled: %d\n", killed > 0);
	return EXIT_OK;
}

static int
do_eintr(const char *who)
{
	struct sleeper rs = { "read", -1, 0, 0, 0, 0 };
	struct sleeper ps = { "poll", -1, 0, 0, 0, 0 };
	struct sleeper ns = { "nanosleep", -1, 0, 0, 0, 0 };
	pthread_t rt, pt, nt, st;
	int rp[2], pp[2];
	void *kept;

	only = who;
	mask("main");
	if (pipe(rp) != 0 || pipe(pp) != 0)
		err(1, "pipe");
	rs.fd = rp[0];
	ps.fd = pp[0];
	start(&rt, reader, &rs);
	start(&pt, poller, &ps);
	start(&nt, napper, &ns);
	start(&st, spinner, NULL);
	pthread_join(st, &kept);
	atomic_store(&spinning, 0);
	if (write(rp[1], "x", 1) != 1 || write(pp[1], "x", 1) != 1)
		err(1, "write");
	pthread_join(rt, NULL);
	pthread_join(pt, NULL);
	pthread_join(nt, NULL);
	report(&rs);
	report(&ps);
	report(&ns);
	printf("errno kept: %s\n", kept != NULL ? "yes" : "no");
	return EXIT_OK;
}

/* --- dl: code in a library dlopen'd at run time ----------------------- */

/* dlopen lib and its dl_burn and dl_leaf, or exit. */
static void *
dlib(const char *lib, void (**burn)(uint64_t), long (**dleaf)(long))
{
	void *h;

	if ((h = dlopen(lib, RTLD_NOW)) == NULL)
		errx(1, "dlopen: %s", dlerror());
	*(void **)burn = dlsym(h, "dl_burn");
	*(void **)dleaf = dlsym(h, "dl_leaf");
	if (*burn == NULL || *dleaf == NULL)
		errx(1, "dlsym: %s", dlerror());
	return h;
}

static void
dlclose_or_die(void *h)
{
	if (dlclose(h) != 0)
		errx(1, "dlclose: %s", dlerror());
}

static int
do_dl(const char *lib, int close)
{
	void (*burn)(uint64_t);
	long (*dleaf)(long);
	void *h;

	h = dlib(lib, &burn, &dleaf);
	burn(3 * ms);
	call(dleaf, 1000);
	if (close)
		dlclose_or_die(h);
	spin_a(ms);
	printf("dl: %s\n", close ? "closed" : "open");
	return EXIT_OK;
}

/*
 * dlmany: n libraries opened and closed in turn, each held by a second
 * handle (hold) or not, before what dl does with lib.
 */
static int
do_dlmany(const char *dir, unsigned long n, const char *how, const char *lib)
{
	void (*burn)(uint64_t);
	long (*dleaf)(long);
	unsigned long i;
	char path[4096];
	int hold;
	void *h;

	if ((hold = strcmp(how, "hold") == 0) == 0 && strcmp(how, "close") != 0)
		errx(2, "%s: neither hold nor close", how);
	for (i = 1; i <= n; i++) {
		snprintf(path, sizeof(path), "%s/lib%lu.so", dir, i);
		h = dlib(path, &burn, &dleaf);
		if (hold)
			(void)dlib(path, &burn, &dleaf);
		dlclose_or_die(h);
	}
	printf("dlmany: %lu %s\n", n, hold ? "held" : "closed");
	return do_dl(lib, 1);
}

/*
 * dlfail: libmon's dlclose side by side with libc's, called as
 * dlsym(RTLD_NEXT) finds it, on a handle they both refuse (the C
 * library's own link map: never opened) and on one they unload.
 */
static int
do_dlfail(const char *lib)
{
	int (*libc)(void *);
	void (*burn)(uint64_t);
	long (*dleaf)(long);
	struct link_map *lm;
	Dl_info info;
	const char *e;
	int i, r;
	void *h;

	*(void **)&libc = dlsym(RTLD_NEXT, "dlclose");
	printf("libmon's dlclose: %s\n", libc != NULL && libc != dlclose ?
	    "yes" : "no");
	if (libc == NULL || dladdr1((void *)gnu_get_libc_version, &info,
	    (void **)&lm, RTLD_DL_LINKMAP) == 0)
		errx(1, "no libc dlclose or link map");
	for (i = 0; i < 2; i++) {
		errno = EILSEQ;
		r = i == 0 ? dlclose(lm) : libc(lm);
		printf("%s refused: %d, errno %s, %s\n", i == 0 ? "libmon" :
		    "libc", r, errno == EILSEQ ? "kept" : strerror(errno),
		    (e = dlerror()) == NULL ? "no error" : e);
	}
	for (i = 0; i < 2; i++) {
		h = dlib(lib, &burn, &dleaf);
		errno = EILSEQ;
		r = i == 0 ? dlclose(h) : libc(h);
		printf("%s unloaded: %d, errno %s, %s\n", i == 0 ? "libmon" :
		    "libc", r, errno == EILSEQ ? "kept" : strerror(errno),
		    (e = dlerror()) == NULL ? "no error" : e);
	}
	return EXIT_OK;
}

/* dlreuse: b loaded, and kept, after a is unloaded. */
static int
do_dlreuse(const char *a, const char *b)
{
	void (*burn)(uint64_t);
	long (*dleaf)(long);
	uintptr_t was;
	void *h;

	h = dlib(a, &burn, &dleaf);
	burn(ms);
	was = (uintptr_t)burn;
	dlclose_or_die(h);
	(void)dlib(b, &burn, &dleaf);
	burn(3 * ms);
	fact("reused", (uintptr_t)burn == was);
	spin_a(ms);
	printf("dlreuse: done\n");
	return EXIT_OK;
}

/* dlfork: the parent unloads a, then a child loads and unloads b. */
static int
do_dlfork(const char *a, const char *b)
{
	void (*burn)(uint64_t);
	long (*dleaf)(long);
	pid_t pid;
	int status;
	void *h;

	h = dlib(a, &burn, &dleaf);
	burn(ms);
	dlclose_or_die(h);
	fflush(NULL);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		h = dlib(b, &burn, &dleaf);
		burn(ms);
		dlclose_or_die(h);
		spin_a(ms);
		exit(0);
	}
	if (waitpid(pid, &status, 0) == -1)
		err(1, "wait");
	printf("dlfork: child %s\n", status == 0 ? "done" : "failed");
	return EXIT_OK;
}

/*
 * dlcalls: a dlopen'd library sets a SIGPROF action and starts a thread
 * that spins MS in dl_burn, while main spins MS in spin_a.
 */
static int
do_dlcalls(const char *lib)
{
	int (*sigprof)(void (*)(int));
	int (*spawn)(uint64_t);
	struct sigaction cur;
	void *h;

	if ((h = dlopen(lib, RTLD_NOW)) == NULL)
		errx(1, "dlopen: %s", dlerror());
	*(void **)&sigprof = dlsym(h, "dl_sigprof");
	*(void **)&spawn = dlsym(h, "dl_spawn");
	if (sigprof == NULL || spawn == NULL)
		errx(1, "dlsym: %s", dlerror());
	if (sigprof(onprof) != 0 || sigaction(SIGPROF, NULL, &cur) != 0)
		err(1, "sigaction");
	printf("read back: %s\n", !(cur.sa_flags & SA_SIGINFO) &&
	    cur.sa_handler == onprof ? "own handler" : "another action");
	if ((errno = spawn(ms)) != 0)
		err(1, "the library's pthread_create");
	spin_a(ms);
	fact("own_signals", own);
	return EXIT_OK;
}

/* --- main --------------------------------------------------------------- */

/* Die of a real fault (a store to a read-only page) or of SIGKILL. */
static int
crash(const char *how)
{
	volatile int *p;

	spin_a(50 * MS);
	fflush(NULL);
	if (strcmp(how, "segv") == 0) {
		p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
		if (p == MAP_FAILED)
			err(1, "mmap");
		*p = 1;
	}
	raise(SIGKILL);
	return 1;
}

/* The mode named m, with n arguments after it?  Sets ms from msarg. */
static int
is(int argc, char *argv[], const char *m, int n, int msarg)
{
	if (strcmp(argv[1], m) != 0 || argc != n + 2)
		return 0;
	if (msarg > 0)
		ms = num(argv[msarg + 1]) * MS;
	return 1;
}

int
main(int argc, char *argv[])
{
	int r;

	if (argc < 2)
		errx(2, "usage: h_fault mode [args]");
	if ((facts = fopen("facts", "w")) == NULL)
		err(1, "facts");
	if (is(argc, argv, "spin", 1, 1)) {
		spin_a(ms);
		r = EXIT_OK;
	} else if (is(argc, argv, "spread", 1, 1))
		r = do_spread();
	else if (is(argc, argv, "block", 1, 1))
		r = do_block();
	else if (is(argc, argv, "ownitimer", 2, 2))
		r = do_ownitimer(num(argv[2]));
	else if (is(argc, argv, "threads", 3, 0))
		r = do_threads(num(argv[2]), num(argv[3]), (long)num(argv[4]));
	else if (is(argc, argv, "crowd", 2, 2))
		r = do_crowd(num(argv[2]));
	else if (is(argc, argv, "unseen", 2, 0))
		r = do_unseen(num(argv[2]), (long)num(argv[3]));
	else if (is(argc, argv, "fork", 1, 0))
		r = do_fork(num(argv[2]));
	else if (is(argc, argv, "forkthread", 1, 1))
		r = do_forkthread();
	else if (is(argc, argv, "exec", 2, 2))
		r = do_exec(argv[2], argv[3]);
	else if (is(argc, argv, "segv", 0, 0) ||
	    is(argc, argv, "sigkill", 0, 0))
		r = crash(argv[1]);
	else if (is(argc, argv, "threadexit", 2, 0))
		r = do_threadexit((int)num(argv[2]), (long)num(argv[3]));
	else if (is(argc, argv, "busyexit", 1, 0))
		r = do_busyexit((int)num(argv[2]));
	else if (is(argc, argv, "eintr", 1, 1))
		r = do_eintr(NULL);
	else if (is(argc, argv, "eintr", 2, 1))
		r = do_eintr(argv[3]);
	else if (is(argc, argv, "blockedkill", 0, 0))
		r = do_blockedkill(0);
	else if (is(argc, argv, "blockedkill", 1, 0) &&
	    strcmp(argv[2], "dfl") == 0)
		r = do_blockedkill(1);
	else if (is(argc, argv, "stuckkill", 0, 0))
		r = do_stuckkill();
	else if (is(argc, argv, "naps", 2, 0))
		r = do_naps(num(argv[2]), num(argv[3]));
	else if (is(argc, argv, "dlcalls", 2, 2))
		r = do_dlcalls(argv[2]);
	else if (is(argc, argv, "dl", 2, 2))
		r = do_dl(argv[2], 0);
	else if (is(argc, argv, "dl", 3, 2) && strcmp(argv[4], "close") == 0)
		r = do_dl(argv[2], 1);
	else if (is(argc, argv, "dlmany", 5, 5))
		r = do_dlmany(argv[2], num(argv[3]), argv[4], argv[5]);
	else if (is(argc, argv, "dlfail", 1, 0))
		r = do_dlfail(argv[2]);
	else if (is(argc, argv, "dlreuse", 3, 3))
		r = do_dlreuse(argv[2], argv[3]);
	else if (is(argc, argv, "dlfork", 3, 3))
		r = do_dlfork(argv[2], argv[3]);
	else
		errx(2, "%s: unknown mode or wrong arguments", argv[1]);
	fact("cpu_ns", (long long)SPIN_NOW(PROCESS));
	if (fflush(stdout) != 0 || fclose(facts) != 0)
		err(1, "output");
	return r;
}
