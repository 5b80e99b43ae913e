/*
 * h_never -- a cc -p program written the way daemons, launchers and
 * thread pools are, for never_test.sh: each mode does one thing that a
 * profiler must not change.  What is deterministic goes to stdout, so a
 * run can be compared with one where PROFDIR="" turns profiling off;
 * what is measured goes to the file "facts", one "key value" a line.
 * A mode that runs as asked exits with status 3.
 *
 *	h_never closefds MS	close_range(3, ~0U) as daemons do at start,
 *				then a log file opened and a line written
 *				to it, left for exit to flush; threads come
 *				and go; the descriptors open are counted
 *	h_never fork_ MS	spin, then _Fork(): the child spins and exits
 *	h_never sigwait MS	every signal blocked in every thread; main
 *				and two workers spin MS each, then a worker
 *				sends SIGUSR1; main takes its signals with
 *				sigtimedwait, then sends itself SIGPROF and
 *				takes that with sigwait
 *	h_never signalfd MS	the same, the signals read from a signalfd
 *				made for every signal
 *	h_never pexit MS	main starts a worker that spins MS, then
 *				calls pthread_exit(): the worker is the last
 *				thread, and its end ends the process
 *	h_never pexitfork MS	the same in a fork child, which the parent
 *				waits for (5 s at most) and reports on
 *	h_never arenas N	N threads spin 1 ms each; the malloc arenas
 *				the process has then are counted
 *	h_never vforkexit MS	spin MS, vfork(): the child calls exit(5);
 *				the parent spins MS more
 *	h_never vforkexec MS	vfork() and exec /bin/true, then fork() a
 *				child that spins MS
 *	h_never sigexit MS	spin MS and return from main; a destructor
 *				then sends the process SIGUSR2 and prints
 *	h_never smallstack N	a thread on a PTHREAD_STACK_MIN stack recurses
 *				N frames of about 200 bytes deep and spins
 *				300 ms at the bottom
 *	h_never sigevthread MS	a SIGEV_THREAD timer's callback spins MS in
 *				cb_work on libc's thread; main spins MS in
 *				main_work; each part's thread CPU time goes
 *				to facts
 *	h_never title MS	overwrites argv[0], empties the environment
 *				and changes to /, as a daemon setting its
 *				process title does
 *	h_never stopfork MS	spins, stops the profile with monitor(0),
 *				then forks 3 children that spin MS each
 *	h_never busyexit MS	3 threads spin without end; main spins MS
 *				and exits while they do
 *	h_never busystop MS	as busyexit, but main spins MS, stops the
 *				profile with monitor(0), spins MS more,
 *				and exits while the threads still spin
 *	h_never busyprofil MS	as busystop, but main runs profil() for
 *				the MS after monitor(0), then stops it
 *	h_never idle N		N threads wait on a condition, as a thread per
 *				connection server's do; then files are opened
 *				until one fails or 400 are, and counted
 *	h_never errno 0		a thread, its start routine not instrumented
 *				(as a library's would be), leaves almost no
 *				address space, fails an open() and calls a
 *				counted function before it reads errno
 *	h_never twoexit N	main returns while a worker calls exit(3)
 *				after N empty loop rounds
 *	h_never churn N		N rounds: a profile started and stopped by
 *				main while another thread creates short
 *				threads without pause
 *	h_never sigfork N	main creates and joins threads without
 *				pause while another thread sends it SIGUSR1
 *				every 2 ms; the handler forks, N times in
 *				all, mostly in the midst of pthread_create;
 *				each child returns from the handler, makes
 *				5 threads and exits; the parent reports how
 *				many exited with status 3 within 10 s
 */
#define _GNU_SOURCE	/* _Fork, close_range, clearenv */
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <mon.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "h_spin.h"

#define EXIT_OK	3

static FILE *facts;
static uint64_t ms;

static void
fact(const char *k, long long v)
{
	fprintf(facts, "%s %lld\n", k, v);
}

static uint64_t
num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		errx(2, "%s: not a number", s);
	return v;
}

void
spin_a(uint64_t ns)
{
	SPIN(ns);
}

static void *
short_spin(void *arg)
{
	spin_a((uint64_t)(uintptr_t)arg);
	return NULL;
}

/* Descriptors open in the process, from /proc/self/fd. */
static int
count_fds(void)
{
	struct dirent *e;
	DIR *d;
	int n;

	if ((d = opendir("/proc/self/fd")) == NULL)
		err(1, "/proc/self/fd");
	for (n = 0; (e = readdir(d)) != NULL;)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;		/* less the directory's own */
}

/*
 * The log takes the lowest free number, 3, and its line waits in stdio's
 * buffer for exit to flush it -- after the exit-time stop has run.
 */
static int
do_closefds(void)
{
	pthread_t t[4];
	FILE *f;
	int i;

	if (close_range(3, ~0U, 0) != 0)
		err(1, "close_range");
	if ((f = fopen("log.txt", "w")) == NULL)
		err(1, "log.txt");
	fprintf(f, "important line\n");
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, short_spin,
		    (void *)(uintptr_t)(ms / 4)) != 0)
			errx(1, "pthread_create");
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	spin_a(ms);
	printf("descriptors open: %d\n", count_fds());
	return EXIT_OK;
}

static int
do_fork_(void)
{
	pid_t p;
	int st;

	spin_a(ms);
	fflush(stdout);
	if ((p = _Fork()) < 0)
		err(1, "_Fork");
	if (p == 0) {
		spin_a(ms);
		printf("child done\n");
		exit(0);
	}
	if (waitpid(p, &st, 0) != p)
		err(1, "waitpid");
	printf("child status %#x\n", st);
	return EXIT_OK;
}

static void *
worker(void *arg)
{
	spin_a(ms);
	if (arg != NULL)
		kill(getpid(), SIGUSR1);
	return NULL;
}

static int
do_sigwait(void)
{
	struct timespec limit = { 10, 0 }, zero = { 0, 0 };
	pthread_t a, b;
	sigset_t all, prof;
	siginfo_t si;
	int sig;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if (pthread_create(&a, NULL, worker, NULL) != 0 ||
	    pthread_create(&b, NULL, worker, &a) != 0)
		errx(1, "pthread_create");
	spin_a(ms);
	sig = sigtimedwait(&all, &si, &limit);
	printf("first signal taken: %d\n", sig);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	/*
	 * A SIGPROF sent while one of libmon's is pending would merge with
	 * it (libmon(7), SIGNALS): take what is pending first, which is
	 * nothing unprofiled and only libmon's samples, passed over, here.
	 */
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	while (sigtimedwait(&prof, &si, &zero) > 0)
		printf("a SIGPROF pending before the program sent one\n");
	kill(getpid(), SIGPROF);
	if (sigwait(&all, &sig) != 0)
		err(1, "sigwait");
	printf("own SIGPROF taken: %d\n", sig);
	return EXIT_OK;
}

static int
do_signalfd(void)
{
	struct signalfd_siginfo fi;
	pthread_t a, b;
	sigset_t all;
	int fd;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	if ((fd = signalfd(-1, &all, SFD_CLOEXEC)) < 0)
		err(1, "signalfd");
	if (pthread_create(&a, NULL, worker, NULL) != 0 ||
	    pthread_create(&b, NULL, worker, &a) != 0)
		errx(1, "pthread_create");
	spin_a(ms);
	if (read(fd, &fi, sizeof(fi)) != sizeof(fi))
		err(1, "read");
	printf("first signal read: %u\n", fi.ssi_signo);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	close(fd);
	return EXIT_OK;
}

static void *
pexit_worker(void *arg)
{
	spin_a(ms);
	printf("the last thread ends\n");
	fflush(stdout);
	return arg;
}

/* main leaves by pthread_exit(); the worker's end ends the process. */
static void
pexit(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, pexit_worker, NULL) != 0)
		errx(1, "pthread_create");
	printf("main leaves\n");
	if (fflush(stdout) != 0 || fclose(facts) != 0)
		err(1, "output");
	pthread_exit(NULL);
}

static int
do_pexitfork(void)
{
	pid_t p;
	int i, st;

	fflush(stdout);
	if ((p = fork()) < 0)
		err(1, "fork");
	if (p == 0)
		pexit();
	for (i = 0; i < 500; i++) {
		if (waitpid(p, &st, WNOHANG) == p) {
			printf("child status %#x\n", st);
			return EXIT_OK;
		}
		usleep(10000);
	}
	kill(p, SIGKILL);
	waitpid(p, &st, 0);
	printf("child still there after 5 s\n");
	return 1;
}

/* The malloc arenas there are: malloc_info() has a <heap> for each. */
static int
arenas(void)
{
	char *buf, *p;
	size_t len;
	FILE *f;
	int n;

	if ((f = open_memstream(&buf, &len)) == NULL)
		err(1, "open_memstream");
	malloc_info(0, f);
	if (fclose(f) != 0)
		err(1, "malloc_info");
	for (n = 0, p = buf; (p = strstr(p, "<heap nr=")) != NULL; p++)
		n++;
	free(buf);
	return n;
}

static int
do_arenas(uint64_t n)
{
	pthread_t t[64];
	uint64_t i;

	if (n > 64)
		errx(2, "at most 64 threads");
	ms = MS;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			errx(1, "pthread_create");
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("arenas %d\n", arenas());
	return EXIT_OK;
}

static int
do_vforkexit(void)
{
	pid_t p;
	int st;

	spin_a(ms);
	fflush(stdout);
	if ((p = vfork()) < 0)
		err(1, "vfork");
	if (p == 0)
		exit(5);
	if (waitpid(p, &st, 0) != p)
		err(1, "waitpid");
	printf("child status %#x\n", st);
	spin_a(ms);
	return EXIT_OK;
}

static int
do_vforkexec(void)
{
	char *argv[] = { "true", NULL }, *envp[] = { NULL };
	pid_t p;
	int st;

	if ((p = vfork()) < 0)
		err(1, "vfork");
	if (p == 0) {
		execve("/bin/true", argv, envp);
		_exit(127);
	}
	if (waitpid(p, &st, 0) != p)
		err(1, "waitpid");
	printf("exec'd child status %#x\n", st);
	fflush(stdout);
	if ((p = fork()) < 0)
		err(1, "fork");
	if (p == 0) {
		spin_a(ms);
		exit(0);
	}
	if (waitpid(p, &st, 0) != p)
		err(1, "waitpid");
	printf("forked child status %#x\n", st);
	return EXIT_OK;
}

static int signal_at_exit;

/* After main, and after libmon's exit handler stopped the profile. */
__attribute__((destructor)) static void
at_exit(void)
{
	struct timespec t = { 0, 20000000 };

	if (!signal_at_exit)
		return;
	kill(getpid(), SIGUSR2);
	nanosleep(&t, NULL);
	printf("still here after SIGUSR2\n");
}

static int
do_sigexit(void)
{
	spin_a(ms);
	printf("main returns\n");
	signal_at_exit = 1;
	return EXIT_OK;
}

/* About 200 bytes a frame, kept by the volatile array. */
static unsigned long
deep(int n)
{
	volatile char frame[160];

	frame[0] = (char)n;
	if (n == 0) {
		spin_a(ms);
		return frame[0];
	}
	return deep(n - 1) + frame[0];
}

static void *
deep_thread(void *arg)
{
	return (void *)(uintptr_t)deep((int)(intptr_t)arg);
}

static int
do_smallstack(int depth)
{
	pthread_attr_t at;
	pthread_t t;
	void *r;

	pthread_attr_init(&at);
	if (pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN) != 0)
		errx(1, "stack size");
	ms = 300 * MS;
	if (pthread_create(&t, &at, deep_thread, (void *)(intptr_t)depth) != 0)
		errx(1, "pthread_create");
	pthread_join(t, &r);
	printf("deep returned %lu\n", (unsigned long)(uintptr_t)r);
	return EXIT_OK;
}

static atomic_int cb_done;

void
cb_work(uint64_t ns)
{
	SPIN(ns);
}

void
main_work(uint64_t ns)
{
	SPIN(ns);
}

static void
callback(union sigval v)
{
	uint64_t t0;

	(void)v;
	t0 = SPIN_NOW(THREAD);
	cb_work(ms);
	fact("cb_ns", (long long)(SPIN_NOW(THREAD) - t0));
	atomic_store(&cb_done, 1);
}

static int
do_sigevthread(void)
{
	struct itimerspec its = { { 0, 0 }, { 0, 1000000 } };
	struct sigevent ev;
	uint64_t t0;
	timer_t tm;

	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = callback;
	if (timer_create(CLOCK_MONOTONIC, &ev, &tm) != 0 ||
	    timer_settime(tm, 0, &its, NULL) != 0)
		err(1, "timer");
	t0 = SPIN_NOW(THREAD);
	main_work(ms);
	fact("main_ns", (long long)(SPIN_NOW(THREAD) - t0));
	while (!atomic_load(&cb_done))
		usleep(1000);
	printf("callback ran\n");
	return EXIT_OK;
}

static int
do_title(char **argv)
{
	size_t n;

	spin_a(ms);
	/* A process title: "worker: idle" over argv[0], as long as it. */
	n = strlen(argv[0]);
	memset(argv[0], ' ', n);
	memcpy(argv[0], "w/x", n < 3 ? n : 3);
	if (clearenv() != 0)
		errx(1, "clearenv");
	/* And off to /, as a daemon goes. */
	if (chdir("/") != 0)
		err(1, "/");
	printf("title set\n");
	return EXIT_OK;
}

static int
do_stopfork(void)
{
	pid_t p;
	int i, st;

	spin_a(ms);
	monitor(NULL, NULL, NULL, 0, 0);
	for (i = 0; i < 3; i++) {
		fflush(stdout);
		if ((p = fork()) < 0)
			err(1, "fork");
		if (p == 0) {
			spin_a(ms);
			exit(0);
		}
		if (waitpid(p, &st, 0) != p || st != 0)
			errx(1, "child %d: status %#x", i, st);
	}
	printf("3 children done\n");
	return EXIT_OK;
}

static void *
spin_forever(void *arg)
{
	(void)arg;
	for (;;)
		spin_a(MS);
	return NULL;
}

/* Three threads that spin without end, then main spins ms. */
static void
busy3(void)
{
	pthread_t t;
	int i;

	for (i = 0; i < 3; i++)
		if (pthread_create(&t, NULL, spin_forever, NULL) != 0)
			errx(1, "pthread_create");
	spin_a(ms);
}

static int
do_busyexit(void)
{
	busy3();
	fact("pid", (long long)getpid());
	printf("exit with 3 threads busy\n");
	return EXIT_OK;
}

static int
do_busystop(void)
{
	busy3();
	monitor(NULL, NULL, NULL, 0, 0);
	spin_a(ms);
	printf("stopped with 3 threads busy\n");
	return EXIT_OK;
}

static int
do_busyprofil(void)
{
	static unsigned short pbuf[4096];

	busy3();
	monitor(NULL, NULL, NULL, 0, 0);
	if (profil(pbuf, sizeof(pbuf), (uintptr_t)spin_a, 0x10000) != 0)
		err(1, "profil");
	spin_a(ms);
	(void)profil(pbuf, 0, 0, 0);
	printf("profil after the stop with 3 threads busy\n");
	return EXIT_OK;
}

static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cv = PTHREAD_COND_INITIALIZER;
static int idle_over;

static void *
idle_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&idle_lock);
	while (!idle_over)
		pthread_cond_wait(&idle_cv, &idle_lock);
	pthread_mutex_unlock(&idle_lock);
	return NULL;
}

static int
do_idle(uint64_t n)
{
	pthread_attr_t at;
	pthread_t *t;
	FILE *f[400];
	uint64_t i;
	int k;

	if ((t = calloc(n, sizeof(*t))) == NULL)
		err(1, "calloc");
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, 64 * 1024);
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], &at, idle_thread, NULL) != 0)
			errx(1, "pthread_create %ju", (uintmax_t)i);
	spin_a(100 * MS);
	for (k = 0; k < 400; k++)
		if ((f[k] = fopen("/dev/null", "r")) == NULL)
			break;
	printf("%ju threads, %d files opened\n", (uintmax_t)n, k);
	while (k-- > 0)
		fclose(f[k]);
	pthread_mutex_lock(&idle_lock);
	idle_over = 1;
	pthread_cond_broadcast(&idle_cv);
	pthread_mutex_unlock(&idle_lock);
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return EXIT_OK;
}

static char errno_msg[128];

__attribute__((noinline)) void
cleanup(void)
{
	__asm__ volatile("");
}

/* Not counted: its first counted call is cleanup(), once memory is short. */
__attribute__((no_instrument_function)) static void *
tight_thread(void *arg)
{
	struct rlimit rl = { 0, RLIM_INFINITY };
	char line[128];
	long vm;
	FILE *f;

	(void)arg;
	vm = 0;
	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return NULL;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmSize: %ld", &vm) == 1)
			break;
	fclose(f);
	rl.rlim_cur = (rlim_t)vm * 1024 + (64 << 10);
	(void)setrlimit(RLIMIT_AS, &rl);
	if (open("/nonexistent/x", O_RDONLY) < 0) {
		cleanup();
		snprintf(errno_msg, sizeof(errno_msg), "open: %s",
		    strerror(errno));
	}
	rl.rlim_cur = RLIM_INFINITY;
	(void)setrlimit(RLIMIT_AS, &rl);
	return NULL;
}

static int
do_errno(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, tight_thread, NULL) != 0)
		errx(1, "pthread_create");
	pthread_join(t, NULL);
	printf("%s\n", errno_msg);
	return EXIT_OK;
}

static pthread_barrier_t twobar;

static void *
exit_worker(void *arg)
{
	volatile long i;

	pthread_barrier_wait(&twobar);
	for (i = 0; i < (long)(uintptr_t)arg; i++)
		continue;
	exit(3);
}

static int
do_twoexit(uint64_t n)
{
	pthread_t t;

	pthread_barrier_init(&twobar, NULL, 2);
	if (pthread_create(&t, NULL, exit_worker, (void *)(uintptr_t)n) != 0)
		errx(1, "pthread_create");
	pthread_barrier_wait(&twobar);
	return EXIT_OK;
}

static atomic_int churning;

static void *
creator(void *arg)
{
	pthread_t t;

	(void)arg;
	while (atomic_load(&churning))
		if (pthread_create(&t, NULL, short_spin,
		    (void *)(uintptr_t)(MS / 10)) == 0)
			pthread_join(t, NULL);
	return NULL;
}

static volatile sig_atomic_t forkchild, forked, forkmax;
static pid_t forkkids[100];
static atomic_int kicking;

/* SIGUSR1: fork, where main is, which is most often pthread_create. */
static void
onusr1(int sig)
{
	pid_t p;
	int e;

	(void)sig;
	if (forkchild || forked >= forkmax)
		return;
	e = errno;
	if ((p = fork()) == 0)
		forkchild = 1;
	else if (p > 0)
		forkkids[forked++] = p;
	errno = e;
}

static void *
kicker(void *arg)
{
	pthread_t main_ = *(pthread_t *)arg;

	while (atomic_load(&kicking)) {
		pthread_kill(main_, SIGUSR1);
		usleep(2000);
	}
	return NULL;
}

static void *
nothing(void *arg)
{
	return arg;
}

static int
do_sigfork(uint64_t n)
{
	struct sigaction sa;
	struct timespec now, end;
	pthread_t self, k, t;
	int i, ok, st;
	pid_t r;

	if (n > sizeof(forkkids) / sizeof(forkkids[0]))
		errx(2, "sigfork: at most %zu children",
		    sizeof(forkkids) / sizeof(forkkids[0]));
	forkmax = (sig_atomic_t)n;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onusr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	fflush(stdout);
	self = pthread_self();
	atomic_store(&kicking, 1);
	if (pthread_create(&k, NULL, kicker, &self) != 0)
		errx(1, "pthread_create");
	while (!forkchild && (uint64_t)forked < n)
		if (pthread_create(&t, NULL, nothing, NULL) == 0)
			pthread_join(t, NULL);
	if (forkchild) {
		for (i = 0; i < 5; i++)
			if (pthread_create(&t, NULL, nothing, NULL) == 0)
				pthread_join(t, NULL);
		exit(EXIT_OK);
	}
	atomic_store(&kicking, 0);
	pthread_join(k, NULL);
	/* Each child has until 10 s from now; one that has not ended dies. */
	ok = 0;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += 10;
	for (i = 0; i < forked; i++) {
		while ((r = waitpid(forkkids[i], &st, WNOHANG)) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > end.tv_sec || (now.tv_sec ==
			    end.tv_sec && now.tv_nsec >= end.tv_nsec))
				break;
			usleep(10000);
		}
		if (r == 0) {
			kill(forkkids[i], SIGKILL);
			waitpid(forkkids[i], &st, 0);
		} else if (r == forkkids[i] && WIFEXITED(st) &&
		    WEXITSTATUS(st) == EXIT_OK)
			ok++;
	}
	printf("%d of %d children exited 3\n", ok, forked);
	return EXIT_OK;
}

extern char __executable_start[], etext[];

static int
do_churn(uint64_t rounds)
{
	static WORD buf[1 << 16];
	pthread_t c;
	uint64_t i;

	atomic_store(&churning, 1);
	if (pthread_create(&c, NULL, creator, NULL) != 0)
		errx(1, "pthread_create");
	for (i = 0; i < rounds; i++) {
		monitor(NULL, NULL, NULL, 0, 0);
		spin_a(MS);
		monitor((int (*)(void))(uintptr_t)__executable_start,
		    (int (*)(void))(uintptr_t)etext, buf, 1 << 16, 300);
		spin_a(MS);
	}
	atomic_store(&churning, 0);
	pthread_join(c, NULL);
	printf("%ju rounds\n", (uintmax_t)rounds);
	return EXIT_OK;
}

int
main(int argc, char *argv[])
{
	const char *m;
	int r;

	if (argc != 3)
		errx(2, "usage: h_never mode number");
	m = argv[1];
	ms = num(argv[2]) * MS;
	if (strcmp(m, "closefds") == 0)
		return do_closefds();
	if ((facts = fopen("facts", "w")) == NULL)
		err(1, "facts");
	if (strcmp(m, "fork_") == 0)
		r = do_fork_();
	else if (strcmp(m, "sigwait") == 0)
		r = do_sigwait();
	else if (strcmp(m, "signalfd") == 0)
		r = do_signalfd();
	else if (strcmp(m, "pexit") == 0)
		pexit();
	else if (strcmp(m, "pexitfork") == 0)
		r = do_pexitfork();
	else if (strcmp(m, "arenas") == 0)
		r = do_arenas(num(argv[2]));
	else if (strcmp(m, "vforkexit") == 0)
		r = do_vforkexit();
	else if (strcmp(m, "vforkexec") == 0)
		r = do_vforkexec();
	else if (strcmp(m, "sigexit") == 0)
		r = do_sigexit();
	else if (strcmp(m, "smallstack") == 0)
		r = do_smallstack((int)num(argv[2]));
	else if (strcmp(m, "sigevthread") == 0)
		r = do_sigevthread();
	else if (strcmp(m, "title") == 0)
		r = do_title(argv);
	else if (strcmp(m, "stopfork") == 0)
		r = do_stopfork();
	else if (strcmp(m, "busyexit") == 0)
		r = do_busyexit();
	else if (strcmp(m, "busystop") == 0)
		r = do_busystop();
	else if (strcmp(m, "busyprofil") == 0)
		r = do_busyprofil();
	else if (strcmp(m, "idle") == 0)
		r = do_idle(num(argv[2]));
	else if (strcmp(m, "errno") == 0)
		r = do_errno();
	else if (strcmp(m, "twoexit") == 0)
		r = do_twoexit(num(argv[2]));
	else if (strcmp(m, "churn") == 0)
		r = do_churn(num(argv[2]));
	else if (strcmp(m, "sigfork") == 0)
		r = do_sigfork(num(argv[2]));
	else
		errx(2, "%s: unknown mode", m);
	if (fflush(stdout) != 0 || fclose(facts) != 0)
		err(1, "output");
	return r;
}
