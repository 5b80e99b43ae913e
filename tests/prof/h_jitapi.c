/*
 * h_jitapi.c -- a program that generates code and names it through
 * libmon's mon_perfmap calls, for perfmap_test.
 *
 * usage: h_jitapi run [ms]	three loops written into an executable
 *				page, named jit_a, jit_b, jit_c, run in two
 *				threads and then in a fork child (which
 *				opens its own map, mon_perfmap_init()):
 *				calls of about ms milliseconds (default
 *				20), 3, 2 and 1 of them a round, 3 rounds
 *	  h_jitapi symlink	a symbolic link planted at the map's path
 *	  h_jitapi hardlink	a second link to a file at the map's path
 *	  h_jitapi fifo		a FIFO at the map's path, no reader
 *	  h_jitapi badargs	arguments the calls refuse
 *	  h_jitapi copy FILE	a loop named by a line added to FILE, a
 *				parent's map, which mon_perfmap_copy()
 *				copies; then a copy of a missing file
 *	  h_jitapi signals	entries from a SIGALRM handler while the
 *				program writes entries of its own
 *	  h_jitapi reuse	jit_first run for 300 ms, a snapshot, then
 *				jit_second written at its address, run
 *				for 300 ms
 *	  h_jitapi full		names until the map's size limit cuts a
 *				line, the limit lifted, one more name;
 *				prints the map
 *	  h_jitapi daemon	a name, every descriptor closed, a file
 *				opened, a name; prints the file and the map
 *
 * run and reuse print, for each process, "PID NAME MS" for each loop -- the CPU
 * milliseconds its calls took by the thread's clock -- and "PID total
 * MS", the process's CPU time; the others print what each call
 * returned, with errno, "call = r errno" a line, and what they found.
 */
#define _GNU_SOURCE	/* strerrorname_np */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <err.h>
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

/* mov rax, imm64; 1: dec rax; jnz 1b; ret */
static const unsigned char loop[] = {
	0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,
	0x48, 0xff, 0xc8,
	0x75, 0xfb,
	0xc3,
};

#define NLOOP	3
static const char *const names[NLOOP] = { "jit_a", "jit_b", "jit_c" };
static const int weight[NLOOP] = { 3, 2, 1 };	/* calls a round */
static void (*fn[NLOOP])(void);
static double spent[2][NLOOP];			/* ms, by thread */

static double
ms(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) != 0)
		err(1, "clock_gettime");
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A fresh page, to write code into. */
static unsigned char *
page(void)
{
	unsigned char *p;

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		err(1, "mmap");
	return p;
}

/*
 * The loops, each of n rounds of dec/jnz, on a page made executable,
 * named if name.
 */
static void
generate(unsigned long long n, int name)
{
	unsigned char *p;
	void *q;
	int i;

	p = page();
	for (i = 0; i < NLOOP; i++) {
		memcpy(p + 64 * i, loop, sizeof(loop));
		memcpy(p + 64 * i + 2, &n, sizeof(n));
	}
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0)
		err(1, "mprotect");
	for (i = 0; i < NLOOP; i++) {
		if (name && mon_perfmap_write(p + 64 * i, sizeof(loop),
		    names[i]) != 0)
			err(1, "mon_perfmap_write");
		q = p + 64 * i;
		/* An object pointer to a function pointer: POSIX allows it. */
		memcpy(&fn[i], &q, sizeof(q));
	}
}

static void *
rounds(void *arg)
{
	double *mine = arg, t0;
	int r, i, k;

	for (r = 0; r < 3; r++)
		for (i = 0; i < NLOOP; i++)
			for (k = 0; k < weight[i]; k++) {
				t0 = ms(CLOCK_THREAD_CPUTIME_ID);
				fn[i]();
				mine[i] += ms(CLOCK_THREAD_CPUTIME_ID) - t0;
			}
	return NULL;
}

static void
report(void)
{
	int i;

	for (i = 0; i < NLOOP; i++)
		printf("%ld %s %.3f\n", (long)getpid(), names[i],
		    spent[0][i] + spent[1][i]);
	printf("%ld total %.3f\n", (long)getpid(),
	    ms(CLOCK_PROCESS_CPUTIME_ID));
	fflush(stdout);
}

/* Both threads run the loops; then a fork child does, alone. */
static int
run(double callms)
{
	unsigned long long n = 1000000;
	pthread_t t;
	double t0;
	pid_t pid;
	int st;

	/* Rounds of dec/jnz that take about callms: one measured call. */
	generate(n, 1);
	t0 = ms(CLOCK_THREAD_CPUTIME_ID);
	fn[0]();
	t0 = ms(CLOCK_THREAD_CPUTIME_ID) - t0;
	n = (unsigned long long)((double)n * callms / (t0 > 0.01 ? t0 : 0.01));
	generate(n, 1);
	memset(spent, 0, sizeof(spent));
	t0 = ms(CLOCK_PROCESS_CPUTIME_ID);
	if ((errno = pthread_create(&t, NULL, rounds, spent[1])) != 0)
		err(1, "pthread_create");
	rounds(spent[0]);
	if ((errno = pthread_join(t, NULL)) != 0)
		err(1, "pthread_join");
	fflush(stdout);
	if ((pid = fork()) < 0)
		err(1, "fork");
	if (pid == 0) {
		/* Its own map, which starts with what it inherited. */
		if (mon_perfmap_init() != 0)
			err(1, "mon_perfmap_init in the child");
		memset(spent, 0, sizeof(spent));
		rounds(spent[0]);
		report();
		exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		errx(1, "the child failed");
	report();
	return 0;
}

static void
said(const char *call, int r)
{
	printf("%s = %d %s\n", call, r, r == 0 ? "0" : strerrorname_np(errno));
}

static char *
map_path(void)
{
	static char path[64];

	(void)snprintf(path, sizeof(path), "/tmp/perf-%ld.map",
	    (long)getpid());
	return path;
}

/* The map's lines, or the target's, as they are now. */
static void
show(const char *what, const char *path)
{
	char line[256];
	FILE *f;

	if ((f = fopen(path, "r")) == NULL) {
		printf("%s: none\n", what);
		return;
	}
	while (fgets(line, sizeof(line), f) != NULL)
		printf("%s: %s", what, line);
	fclose(f);
}

static int
planted(int how)
{
	static const char code[16];
	int fd, r;

	fd = open("target", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, "untouched\n", 10) != 10 || close(fd) != 0)
		err(1, "target");
	(void)unlink(map_path());
	if ((how == 2 ? mkfifo(map_path(), 0600) : how ? link("target",
	    map_path()) : symlink(realpath("target", NULL), map_path())) != 0)
		err(1, "%s", map_path());
	errno = 0;
	said("mon_perfmap_init", mon_perfmap_init());
	errno = 0;
	said("mon_perfmap_write", r = mon_perfmap_write(code, 16, "planted"));
	(void)unlink(map_path());
	show("target", "target");
	/* Nothing there now: the next call makes the map as it should. */
	errno = 0;
	said("mon_perfmap_write", mon_perfmap_write(code, 16, "second"));
	show("map", map_path());
	(void)unlink(map_path());
	return 0;
}

static int
badargs(void)
{
	static const char code[16];
	static char longname[4097];

	errno = 0;
	said("null name", mon_perfmap_write(code, 16, NULL));
	errno = 0;
	said("empty name", mon_perfmap_write(code, 16, ""));
	errno = 0;
	said("zero size", mon_perfmap_write(code, 0, "f"));
	errno = 0;
	said("past the top", mon_perfmap_write((void *)(UINTPTR_MAX - 7),
	    16, "f"));
	errno = 0;
	said("two lines", mon_perfmap_write(code, 16, "f\ng"));
	errno = 0;
	said("copy of null", mon_perfmap_copy(NULL));
	errno = 0;
	said("copy of a device", mon_perfmap_copy("/dev/zero"));
	memset(longname, 'x', sizeof(longname) - 1);
	errno = 0;
	said("4096 bytes", mon_perfmap_write(code, 16, longname));
	longname[sizeof(longname) - 2] = '\0';
	errno = 0;
	said("4095 bytes", mon_perfmap_write(code, 16, longname));
	errno = EDOM;	/* a success leaves errno as it was */
	said("good", mon_perfmap_write(code, 16, "good one"));
	printf("errno after good = %s\n", strerrorname_np(errno));
	errno = 0;
	said("copy of its own map", mon_perfmap_copy(map_path()));
	show("map", map_path());
	(void)unlink(map_path());
	return 0;
}

/*
 * A loop named only by a line added to file, a parent's map, which is
 * then copied; run for some 100 ms, that the profile may name it.
 */
static int
copy(const char *file)
{
	void *p;
	FILE *f;
	double t0;

	generate(100000, 0);
	memcpy(&p, &fn[0], sizeof(p));
	if ((f = fopen(file, "a")) == NULL)
		err(1, "%s", file);
	fprintf(f, "\n%lx %zx copied_loop\n", (unsigned long)(uintptr_t)p,
	    sizeof(loop));
	if (fclose(f) != 0)
		err(1, "%s", file);
	errno = 0;
	said("mon_perfmap_copy", mon_perfmap_copy(file));
	t0 = ms(CLOCK_THREAD_CPUTIME_ID);
	while (ms(CLOCK_THREAD_CPUTIME_ID) - t0 < 100)
		fn[0]();
	errno = 0;
	said("mon_perfmap_copy of none", mon_perfmap_copy("no-such-map"));
	show("map", map_path());
	(void)unlink(map_path());
	return 0;
}

/*
 * Code freed and its addresses used again: jit_first runs, a snapshot
 * is written, then jit_second is written over it, named and run; each
 * for about ms of CPU.
 */
static int
reuse(double want)
{
	unsigned long long n = 2000000;
	unsigned char *p;
	double t0, took[2];
	void *q;
	int i;

	p = page();
	for (i = 0; i < 2; i++) {
		if (mprotect(p, 4096, PROT_READ | PROT_WRITE) != 0)
			err(1, "mprotect");
		memcpy(p, loop, sizeof(loop));
		memcpy(p + 2, &n, sizeof(n));
		if (mprotect(p, 4096, PROT_READ | PROT_EXEC) != 0 ||
		    mon_perfmap_write(p, sizeof(loop),
		    i == 0 ? "jit_first" : "jit_second") != 0)
			err(1, "naming the code");
		q = p;
		memcpy(&fn[0], &q, sizeof(q));
		t0 = ms(CLOCK_THREAD_CPUTIME_ID);
		while (ms(CLOCK_THREAD_CPUTIME_ID) - t0 < want)
			fn[0]();
		took[i] = ms(CLOCK_THREAD_CPUTIME_ID) - t0;
		if (i == 0 && monsnapshot() != 0)
			err(1, "monsnapshot");
	}
	printf("%ld jit_first %.3f\n%ld jit_second %.3f\n%ld total %.3f\n",
	    (long)getpid(), took[0], (long)getpid(), took[1],
	    (long)getpid(), ms(CLOCK_PROCESS_CPUTIME_ID));
	(void)unlink(map_path());
	return 0;
}

static volatile sig_atomic_t handled, failed;

static void
tick(int sig)
{
	static const char code[16];
	int err = errno;

	(void)sig;
	if (mon_perfmap_write(code + handled % 16, 1, "from a handler") != 0)
		failed++;
	handled++;
	errno = err;
}

/* Entries from a handler while the program writes its own: no hang. */
static int
signals(void)
{
	static const char code[64];
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	struct sigaction sa;
	int i, bad = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tick;
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGALRM, &sa, NULL) != 0 ||
	    setitimer(ITIMER_REAL, &it, NULL) != 0)
		err(1, "SIGALRM");
	for (i = 0; i < 20000 || handled < 50; i++)
		bad += mon_perfmap_write(code + i % 32, 32, "from main") != 0;
	memset(&it, 0, sizeof(it));
	(void)setitimer(ITIMER_REAL, &it, NULL);
	printf("%d %d %d %d\n", i, bad, (int)handled, (int)failed);
	printf("%s\n", map_path());
	return 0;
}

/*
 * No room for the map: RLIMIT_FSIZE stops it at 8000 bytes, in the
 * middle of a line, as a full file system does.  Names of some 160
 * bytes are written until one fails, the limit is lifted and one more
 * is written.  Prints "failed N ERRNO", the calls that failed and the
 * first one's errno, then the map.
 */
static int
full(void)
{
	struct rlimit rl;
	char name[200];
	int i, failed = 0, first = 0;

	(void)unlink(map_path());
	if (signal(SIGXFSZ, SIG_IGN) == SIG_ERR ||
	    getrlimit(RLIMIT_FSIZE, &rl) != 0)
		err(1, "RLIMIT_FSIZE");
	rl.rlim_cur = 8000;
	if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
		err(1, "RLIMIT_FSIZE");
	for (i = 0; i < 400 && failed == 0; i++) {
		snprintf(name, sizeof(name), "f%d_%0150d", i, 0);
		errno = 0;
		if (mon_perfmap_write((const char *)(uintptr_t)0x10000 + 16 * i,
		    16, name) != 0) {
			failed++;
			first = errno;
		}
	}
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
		err(1, "RLIMIT_FSIZE");
	if (mon_perfmap_write((const char *)(uintptr_t)0x10000 + 16 * i, 16,
	    "after") != 0)
		err(1, "mon_perfmap_write after the room was made");
	printf("failed %d %s\n", failed, failed ? strerrorname_np(first) :
	    "none");
	show("map", map_path());
	(void)unlink(map_path());
	return 0;
}

/*
 * A daemon's start: a name given, every descriptor past stderr closed,
 * a file of its own opened (it gets the map's old number), a name
 * given again.  Prints the file, then the map.
 */
static int
daemon_like(void)
{
	static const char code[16];
	int f, i;

	(void)unlink(map_path());
	if (mon_perfmap_write(code, 16, "before") != 0)
		err(1, "mon_perfmap_write");
	for (i = 3; i < 1024; i++)
		(void)close(i);
	if ((f = open("data", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND,
	    0600)) < 0 || write(f, "data\n", 5) != 5)
		err(1, "data");
	if (mon_perfmap_write(code, 16, "after") != 0)
		err(1, "mon_perfmap_write");
	mon_perfmap_fini();
	if (write(f, "more\n", 5) != 5 || close(f) != 0)
		err(1, "data: the program's descriptor was closed");
	show("data", "data");
	show("map", map_path());
	(void)unlink(map_path());
	return 0;
}

int
main(int argc, char *argv[])
{
	if (argc >= 2 && strcmp(argv[1], "run") == 0)
		return run(argc > 2 ? strtod(argv[2], NULL) : 20);
	if (argc == 2 && strcmp(argv[1], "symlink") == 0)
		return planted(0);
	if (argc == 2 && strcmp(argv[1], "hardlink") == 0)
		return planted(1);
	if (argc == 2 && strcmp(argv[1], "fifo") == 0)
		return planted(2);
	if (argc == 2 && strcmp(argv[1], "badargs") == 0)
		return badargs();
	if (argc == 3 && strcmp(argv[1], "copy") == 0)
		return copy(argv[2]);
	if (argc == 2 && strcmp(argv[1], "signals") == 0)
		return signals();
	if (argc == 2 && strcmp(argv[1], "reuse") == 0)
		return reuse(300);
	if (argc == 2 && strcmp(argv[1], "full") == 0)
		return full();
	if (argc == 2 && strcmp(argv[1], "daemon") == 0)
		return daemon_like();
	fprintf(stderr, "usage: h_jitapi run [ms] | symlink | hardlink | "
	    "fifo | badargs | copy FILE | signals | reuse | full | daemon\n");
	return 2;
}
