/*
 * h_server -- a cc -p server for long_test: four worker threads serve
 * requests, one byte each, from a pipe the main thread fills; a request
 * is handle(), which calls work() WORKS times, so the calls a whole run
 * makes are known exactly.  Bounded: N requests, and alarm(60).
 *
 *	h_server SNAP N M END [ARG]
 *
 * SNAP, done by the worker that completes every Mth request:
 *	none		nothing
 *	signal		kill(getpid(), SIGUSR2): a snapshot signal from outside
 *	api		monsnapshot(); a failure is printed
 *	watch		nothing; a thread reads the actions of SIGUSR1,
 *			SIGALRM and SIGXFSZ while the workers run, and
 *			"actions changed" is printed if it ever finds one
 *			not SIG_DFL
 *	handler		nothing; with END control, a SIGVTALRM handler
 *			calls monsnapshot() every 2 ms of CPU meanwhile,
 *			most often while the main thread is inside libmon,
 *			and "handler: N failed" is printed at the end for
 *			the calls that failed other than with EDEADLK
 * END, once all N are served and the workers are gone:
 *	exit		return from main
 *	kill SIG	kill(getpid(), SIG), then exit 9 if still alive 2 s on
 *	wait SECS	sleep SECS (a signal from the test comes meanwhile),
 *			then exit 0
 *	control SECS	"controlling" added to ./facts, then moncontrol(0)
 *			and moncontrol(1) in turn for SECS seconds (a signal
 *			from the test comes meanwhile, most often while the
 *			main thread is inside libmon), then exit 0
 *	own		a SIGTERM handler of its own, then kill(getpid(),
 *			SIGTERM): "caught" and exit 7
 *	blocked		SIGUSR2 was blocked in every thread from the start:
 *			"took N" (those sigtimedwait() takes) and exit 0
 *	fork		forked at start, before any thread: parent and child
 *			each serve N requests (the child keeps its requests
 *			in ./served.child); the parent waits for the child
 *			and exits with its status
 *	reexec		the profile written (monitor(0, ...)), then the
 *			program again by exec, same pid: "h_server SNAP N M
 *			exit"
 *	vfork		a vfork() child sends itself SIGTERM before its exec:
 *			"vfork child: killed by N" (its signal), then exit 0
 *	disp		the actions of SIGINT, SIGTERM, SIGHUP and SIGUSR2 as
 *			sigaction() reads them, a SIGTERM handler set, read
 *			back and SIG_DFL again; then exec grep of its SigBlk,
 *			SigIgn and SigCgt in /proc/self/status
 *
 * It writes "pid P" to ./facts at start and keeps the requests done in
 * ./served, 8 bytes mapped shared, so that a test that kills it knows.
 */
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon.h"

#define WORKERS	4
#define WORKS	10

static int		 fds[2];
static long		 nreq, every;
static const char	*snap;
static uint64_t		*served;
static volatile unsigned long sink;
static volatile sig_atomic_t caught;
static volatile int	 working = 1;
static int		 changed;
static pid_t		 child = -1;	/* fork: 0 in the child */
static volatile sig_atomic_t failed;	/* handler: not EDEADLK */

void
work(void)
{
	unsigned long i, x;

	x = sink;
	for (i = 0; i < 20000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

void
handle(void)
{
	int i;

	for (i = 0; i < WORKS; i++)
		work();
}

static void
after(uint64_t n)
{
	if (every <= 0 || n % (uint64_t)every != 0)
		return;
	if (strcmp(snap, "signal") == 0)
		(void)kill(getpid(), SIGUSR2);
	else if (strcmp(snap, "api") == 0 && monsnapshot() != 0)
		printf("monsnapshot: %s\n", strerror(errno));
}

static void *
worker(void *unused)
{
	char c;

	(void)unused;
	while (read(fds[0], &c, 1) == 1) {
		handle();
		after(__atomic_add_fetch(served, 1, __ATOMIC_SEQ_CST));
	}
	return NULL;
}

static void *
watcher(void *unused)
{
	static const int sigs[] = { SIGUSR1, SIGALRM, SIGXFSZ };
	struct sigaction sa;
	int i;

	(void)unused;
	while (working)
		for (i = 0; i < 3; i++)
			if (sigaction(sigs[i], NULL, &sa) == 0 &&
			    sa.sa_handler != SIG_DFL)
				changed = 1;
	return NULL;
}

static void
on_term(int sig)
{
	(void)sig;
	caught = 1;
}

static void
on_vtalrm(int sig)
{
	int err;

	(void)sig;
	err = errno;
	if (monsnapshot() != 0 && errno != EDEADLK)
		failed++;
	errno = err;
}

/* SNAP handler: monsnapshot() from a signal handler, every 2 ms of CPU. */
static void
snap_in_handler(void)
{
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_vtalrm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGVTALRM, &sa, NULL);
	setitimer(ITIMER_VIRTUAL, &it, NULL);
}

static const char *
disposition(int sig)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, &sa) != 0)
		return "error";
	if (sa.sa_handler == SIG_DFL)
		return "default";
	if (sa.sa_handler == SIG_IGN)
		return "ignored";
	return sa.sa_handler == on_term ? "own handler" : "other handler";
}

static int
disp(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGUSR2 };
	size_t i;

	for (i = 0; i < 4; i++)
		printf("%s %s\n", strsignal(sigs[i]), disposition(sigs[i]));
	signal(SIGTERM, on_term);
	printf("set: %s\n", disposition(SIGTERM));
	signal(SIGTERM, SIG_DFL);
	printf("back: %s\n", disposition(SIGTERM));
	fflush(stdout);
	execl("/bin/grep", "grep", "-E", "^Sig(Blk|Ign|Cgt)",
	    "/proc/self/status", (char *)NULL);
	perror("exec");
	return 1;
}

static int
finish(char *argv[], const char *end, const char *arg)
{
	struct timespec ms = { 0, 10000000 }, zero = { 0, 0 };
	sigset_t set;
	time_t t0;
	FILE *f;
	pid_t pid;
	long i;
	int n;

	if (strcmp(end, "exit") == 0)
		return 0;
	if (strcmp(end, "kill") == 0) {
		fflush(stdout);
		(void)kill(getpid(), atoi(arg));
		for (i = 0; i < 200; i++)
			nanosleep(&ms, NULL);
		return 9;
	}
	if (strcmp(end, "wait") == 0) {
		for (i = 0; i < atol(arg) * 100; i++)
			nanosleep(&ms, NULL);
		return 0;
	}
	if (strcmp(end, "control") == 0) {
		if ((f = fopen("facts", "a")) != NULL) {
			fprintf(f, "controlling\n");
			fclose(f);
		}
		if (strcmp(snap, "handler") == 0)
			snap_in_handler();
		t0 = time(NULL);
		while (time(NULL) - t0 < atol(arg)) {
			moncontrol(0);
			moncontrol(1);
		}
		if (strcmp(snap, "handler") == 0)
			printf("handler: %d failed\n", (int)failed);
		return 0;
	}
	if (strcmp(end, "own") == 0) {
		signal(SIGTERM, on_term);
		(void)kill(getpid(), SIGTERM);
		for (i = 0; i < 1000 && !caught; i++)
			nanosleep(&ms, NULL);
		printf(caught ? "caught\n" : "not caught\n");
		return 7;
	}
	if (strcmp(end, "fork") == 0) {
		if (child == 0)
			return 0;
		if (waitpid(child, &n, 0) != child)
			return 2;
		return WIFEXITED(n) ? WEXITSTATUS(n) : 128 + WTERMSIG(n);
	}
	if (strcmp(end, "reexec") == 0) {
		monitor(NULL, NULL, NULL, 0, 0);
		execl("/proc/self/exe", "h_server", argv[1], argv[2], argv[3],
		    "exit", (char *)NULL);
		perror("exec");
		return 1;
	}
	if (strcmp(end, "vfork") == 0) {
		if ((pid = vfork()) == 0) {
			(void)kill(getpid(), SIGTERM);
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &n, 0) != pid)
			return 2;
		printf("vfork child: %s %d\n", WIFSIGNALED(n) ? "killed by" :
		    "exit", WIFSIGNALED(n) ? WTERMSIG(n) : WEXITSTATUS(n));
		return 0;
	}
	if (strcmp(end, "blocked") == 0) {
		sigemptyset(&set);
		sigaddset(&set, SIGUSR2);
		for (n = 0; sigtimedwait(&set, NULL, &zero) == SIGUSR2; n++)
			continue;
		printf("took %d\n", n > 0);
		return 0;
	}
	return disp();
}

int
main(int argc, char *argv[])
{
	pthread_t t[WORKERS], w;
	sigset_t set;
	FILE *f;
	long i;
	int fd;

	if (argc < 5) {
		fprintf(stderr, "usage: h_server SNAP N M END [ARG]\n");
		return 2;
	}
	alarm(60);
	snap = argv[1];
	nreq = atol(argv[2]);
	every = atol(argv[3]);
	if (strcmp(argv[4], "fork") == 0 && (child = fork()) < 0)
		return 2;
	if ((fd = open(child == 0 ? "served.child" : "served",
	    O_RDWR | O_CREAT | O_TRUNC, 0644)) < 0 ||
	    ftruncate(fd, sizeof(*served)) != 0 ||
	    (served = mmap(NULL, sizeof(*served), PROT_READ | PROT_WRITE,
	    MAP_SHARED, fd, 0)) == MAP_FAILED || pipe(fds) != 0) {
		perror("h_server");
		return 2;
	}
	if (child != 0 && (f = fopen("facts", "w")) != NULL) {
		fprintf(f, "pid %ld\n", (long)getpid());
		fclose(f);
	}
	if (strcmp(argv[4], "blocked") == 0) {
		sigemptyset(&set);
		sigaddset(&set, SIGUSR2);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
	}
	for (i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	if (strcmp(snap, "watch") == 0)
		pthread_create(&w, NULL, watcher, NULL);
	for (i = 0; i < nreq; i++)
		if (write(fds[1], "r", 1) != 1)
			return 2;
	close(fds[1]);
	for (i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	if (strcmp(snap, "watch") == 0) {
		working = 0;
		pthread_join(w, NULL);
		if (changed)
			printf("actions changed\n");
	}
	return finish(argv, argv[4], argc > 5 ? argv[5] : "0");
}
