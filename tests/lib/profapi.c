/*
 * profapi.c -- the program profiler_test drives: built with
 * -finstrument-functions and -rdynamic, linked with libmon (h_profapi
 * by gcc, h_profapi_clang), it makes calls in known ways and, in the
 * modes that use the API itself, two handles (A and B) that count
 * every event; at exit each handle says what it saw, on stdout:
 *
 *	did NAME N		calls the program made to NAME
 *	A|B calls NAME ENTERS LEAVES	of a function named NAME
 *	A filter NAME N		times A's filter was asked of NAME
 *	A|B threads STARTS ENDS DISTINCT	thread events, distinct tids
 *	A|B fork N		fork events (in the child)
 *	A|B exec PATH		an exec event, before the exec
 *	A|B loaded|unloaded BASENAME
 *	A|B jit NAME SIZE
 *	A samples N ONPROGRAM	samples, and those on a program thread
 *	errno kept|changed	a hook's callback clobbers errno
 *
 * A fork child's handles' lines begin with "child ".
 *
 * A's filter switches off_fn off and gives each function an index into
 * its table of names (dladdr), as its ID; A's enter calls in_cb, an
 * instrumented function, which neither handle may then see.  B has no
 * filter: it sees every function, with its address as the ID.
 *
 * Usage: h_profapi api LIB | exec | execd | calls | plain STATUS
 */
#define _GNU_SOURCE	/* dladdr, gettid */
#include <sys/wait.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mon.h>

#define NOINLINE	__attribute__((noinline))
#define NOINST		__attribute__((no_instrument_function))
#define NFN		256
#define NTHR		3
#define WORK		1000

/* A handle's view. */
struct view {
	const char		*tag;
	_Atomic int		 nnames;
	char			 names[NFN][64];	/* by ID */
	uintptr_t		 addrs[NFN];
	_Atomic int		 filtered[NFN];
	_Atomic long		 enters[NFN], leaves[NFN];
	_Atomic int		 tstart, tend;
	pid_t			 tids[64];
	_Atomic int		 ntids;
	_Atomic int		 forks;
	_Atomic long		 samples, onprog;
};

static struct view	 va = { .tag = "A" }, vb = { .tag = "B" };
static pid_t		 progtids[16];
static _Atomic int	 nprog;
static int		 errno_seen;
static const char	*who = "";	/* "child ": a fork child's lines */
static jmp_buf		 jb;
static volatile int	 sink;

/* Functions the program calls; global, so that dladdr names them. */
NOINLINE void in_cb(void) { sink++; }
NOINLINE void tick(void) { sink++; }
NOINLINE void leaf(void) { sink++; }
NOINLINE void work(void) { leaf(); }
NOINLINE void off_fn(void) { sink++; }
NOINLINE int rec(int n) { return n == 0 ? 0 : 1 + rec(n - 1); }
NOINLINE void deep2(void) { longjmp(jb, 1); }
NOINLINE void deep1(void) { deep2(); sink++; }
NOINLINE int errno_probe(void) { return errno; }
NOINLINE void exit_deep(void) { pthread_exit(NULL); }
NOINLINE void exit_mid(void) { exit_deep(); sink++; }

NOINLINE void
jumper(void)
{
	if (setjmp(jb) == 0)
		deep1();
}

/* The index of fn in v's table, added if new; -1 when full. */
static NOINST int
index_of(struct view *v, uintptr_t fn)
{
	Dl_info di;
	int i, n;

	n = atomic_load(&v->nnames);
	for (i = 0; i < n; i++)
		if (v->addrs[i] == fn)
			return i;
	if (n == NFN)
		return -1;
	v->addrs[n] = fn;
	/* A copy: a library's names go with it. */
	snprintf(v->names[n], sizeof(v->names[n]), "%s", dladdr((void *)fn,
	    &di) != 0 && di.dli_sname != NULL && (uintptr_t)di.dli_saddr ==
	    fn ? di.dli_sname : "?");
	atomic_store(&v->nnames, n + 1);
	return n;
}

/* A's filter: once per function, says libmon; counted here. */
static NOINST int
filter_a(void *data, void *fn, uintptr_t *id)
{
	struct view *v = data;
	int i;

	if ((i = index_of(v, (uintptr_t)fn)) < 0)
		return 0;
	atomic_fetch_add(&v->filtered[i], 1);
	*id = (uintptr_t)i;
	return strcmp(v->names[i], "off_fn") != 0;
}

static NOINST void
enter_a(void *data, void *fn, void *site, uintptr_t id)
{
	struct view *v = data;

	(void)fn, (void)site;
	errno = 0;		/* libmon keeps the program's */
	if (id < NFN)
		atomic_fetch_add(&v->enters[id], 1);
	if (id < NFN && strcmp(v->names[id], "work") == 0)
		in_cb();
}

static NOINST void
leave_a(void *data, void *fn, void *site, uintptr_t id)
{
	struct view *v = data;

	(void)fn, (void)site;
	if (id < NFN)
		atomic_fetch_add(&v->leaves[id], 1);
}

/* B: no filter, the ID is the address; a lock, as a tool might take. */
static pthread_mutex_t blk = PTHREAD_MUTEX_INITIALIZER;

static NOINST void
enter_b(void *data, void *fn, void *site, uintptr_t id)
{
	struct view *v = data;
	int i;

	(void)site;
	if (id != (uintptr_t)fn)
		abort();
	pthread_mutex_lock(&blk);
	i = index_of(v, id);
	pthread_mutex_unlock(&blk);
	if (i >= 0)
		atomic_fetch_add(&v->enters[i], 1);
}

static NOINST void
leave_b(void *data, void *fn, void *site, uintptr_t id)
{
	struct view *v = data;
	int i;

	(void)fn, (void)site;
	pthread_mutex_lock(&blk);
	i = index_of(v, id);
	pthread_mutex_unlock(&blk);
	if (i >= 0)
		atomic_fetch_add(&v->leaves[i], 1);
}

static NOINST void
tstart(void *data, pid_t tid)
{
	struct view *v = data;
	int n;

	atomic_fetch_add(&v->tstart, 1);
	if ((n = atomic_fetch_add(&v->ntids, 1)) < 64)
		v->tids[n] = tid;
}

static NOINST void
tend(void *data, pid_t tid)
{
	struct view *v = data;

	(void)tid;
	atomic_fetch_add(&v->tend, 1);
}

static NOINST void
sample(void *data, pid_t tid, const void *const *pcs, size_t depth)
{
	struct view *v = data;
	int i;

	(void)tid, (void)pcs, (void)depth;
	atomic_fetch_add(&v->samples, 1);
	for (i = 0; i < atomic_load(&nprog) && i < 16; i++)
		if (progtids[i] == gettid())
			atomic_fetch_add(&v->onprog, 1);
}

static NOINST void
forked(void *data)
{
	struct view *v = data;

	who = "child ";
	atomic_fetch_add(&v->forks, 1);
}

static NOINST void
execing(void *data, const char *path)
{
	struct view *v = data;

	printf("%s exec %s\n", v->tag, path);
	fflush(stdout);
}

static NOINST const char *
base(const char *p)
{
	const char *s;

	return (s = strrchr(p, '/')) != NULL ? s + 1 : p;
}

static NOINST void
loaded(void *data, const char *path, const void *bias)
{
	struct view *v = data;

	(void)bias;
	printf("%s loaded %s\n", v->tag, base(path));
}

static NOINST void
unloaded(void *data, const char *path, const void *bias)
{
	struct view *v = data;

	(void)bias;
	printf("%s unloaded %s\n", v->tag, base(path));
}

static NOINST void
jit(void *data, const void *addr, size_t size, const char *name)
{
	struct view *v = data;

	(void)addr;
	printf("%s jit %s %zu\n", v->tag, name, size);
}

static NOINST int
distinct(const struct view *v)
{
	int i, k, n, d;

	n = atomic_load(&v->ntids) < 64 ? atomic_load(&v->ntids) : 64;
	for (d = 0, i = 0; i < n; i++) {
		for (k = 0; k < i && v->tids[k] != v->tids[i]; k++)
			continue;
		d += k == i;
	}
	return d;
}

static NOINST void
report(struct view *v)
{
	int i;

	for (i = 0; i < atomic_load(&v->nnames); i++) {
		printf("%s%s calls %s %ld %ld\n", who, v->tag, v->names[i],
		    atomic_load(&v->enters[i]), atomic_load(&v->leaves[i]));
		if (v == &va)
			printf("%sA filter %s %d\n", who, v->names[i],
			    atomic_load(&v->filtered[i]));
	}
	printf("%s%s threads %d %d %d\n", who, v->tag, atomic_load(&v->tstart),
	    atomic_load(&v->tend), distinct(v));
	printf("%s%s fork %d\n", who, v->tag, atomic_load(&v->forks));
	if (v == &va)
		printf("%sA samples %ld %ld\n", who, atomic_load(&v->samples),
		    atomic_load(&v->onprog));
}

static NOINST void
shutdown_(void *data)
{
	report(data);
	if (data == &vb)
		printf("%serrno %s\n", who, errno_seen ? "kept" : "changed");
}

static NOINST void
handles(void)
{
	mon_profiler_t a, b;

	if ((a = mon_profiler_create("A", &va)) == NULL ||
	    (b = mon_profiler_create("B", &vb)) == NULL) {
		perror("mon_profiler_create");
		exit(2);
	}
	mon_profiler_set_call_filter(a, filter_a);
	mon_profiler_set_enter_leave(a, enter_a, leave_a);
	mon_profiler_set_enter_leave(b, enter_b, leave_b);
	mon_profiler_set_sample(a, sample);
	mon_profiler_set_thread(a, tstart, tend);
	mon_profiler_set_thread(b, tstart, tend);
	mon_profiler_set_shutdown(a, shutdown_);
	mon_profiler_set_shutdown(b, shutdown_);
	mon_profiler_set_fork(a, forked);
	mon_profiler_set_fork(b, forked);
	mon_profiler_set_exec(a, execing);
	mon_profiler_set_exec(b, execing);
	mon_profiler_set_library(a, loaded, unloaded);
	mon_profiler_set_library(b, loaded, unloaded);
	mon_profiler_set_jit(a, jit);
	mon_profiler_set_jit(b, jit);
}

static NOINST uint64_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

NOINLINE void
spin(uint64_t ns)
{
	uint64_t end;

	for (end = now() + ns; now() < end;)
		tick();
}

static NOINST void
mine(void)
{
	int n;

	if ((n = atomic_fetch_add(&nprog, 1)) < 16)
		progtids[n] = gettid();
}

NOINLINE void *
thread_work(void *arg)
{
	int i;

	(void)arg;
	mine();
	for (i = 0; i < WORK; i++)
		work();
	rec(5);
	return NULL;
}

NOINLINE void *
thread_exits(void *arg)
{
	(void)arg;
	mine();
	exit_mid();
	return NULL;
}

static NOINST void
threads(void)
{
	pthread_t t[NTHR + 1];
	int i;

	for (i = 0; i < NTHR; i++)
		if (pthread_create(&t[i], NULL, thread_work, NULL) != 0)
			exit(2);
	if (pthread_create(&t[NTHR], NULL, thread_exits, NULL) != 0)
		exit(2);
	for (i = 0; i <= NTHR; i++)
		pthread_join(t[i], NULL);
	printf("did thread_work %d\n", NTHR);
	printf("did thread_exits 1\n");
	printf("did exit_mid 1\n");
	printf("did exit_deep 1\n");
}

static NOINST void
library(const char *path)
{
	void (*fn)(void);
	void *h;

	if ((h = dlopen(path, RTLD_NOW)) == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		exit(2);
	}
	*(void **)&fn = dlsym(h, "plib_fn");
	fn();
	fn();
	printf("did plib_fn 2\n");
	dlclose(h);
}

static NOINST int
api(const char *lib)
{
	static char code[64];
	char map[64];
	pid_t pid;
	int i, st;

	mine();
	handles();
	for (i = 0; i < WORK; i++) {
		work();
		off_fn();
	}
	printf("did work %d\n", WORK + NTHR * WORK);
	printf("did off_fn %d\n", WORK);
	for (i = 0; i < 10; i++)
		rec(5);
	printf("did rec %d\n", 10 * 6 + NTHR * 6);
	for (i = 0; i < 5; i++)
		jumper();
	printf("did deep1 5\n");
	printf("did deep2 5\n");
	errno = 1234;
	errno_seen = errno_probe() == 1234 && errno == 1234;
	threads();
	library(lib);
	(void)mon_perfmap_write(code, sizeof(code), "jitted_fn");
	fflush(stdout);
	if ((pid = fork()) == 0) {
		work();
		printf("child\n");
		exit(0);
	}
	waitpid(pid, &st, 0);
	/* Samples, if the perf clock runs: CPU time in the program. */
	spin(300000000);
	/* The map written above is the test's: none left behind. */
	mon_perfmap_fini();
	(void)snprintf(map, sizeof(map), "/tmp/perf-%ld.map", (long)getpid());
	(void)unlink(map);
	return 0;
}

int
main(int argc, char **argv)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "api") == 0)
		return api(argv[2]);
	if (argc == 2 && strcmp(argv[1], "exec") == 0) {
		handles();
		execl("/proc/self/exe", argv[0], "execd", (char *)NULL);
		return 2;
	}
	if (argc == 2 && strcmp(argv[1], "execd") == 0) {
		printf("execd\n");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "calls") == 0) {
		mine();
		for (i = 0; i < WORK; i++)
			work();
		threads();
		printf("did work %d\n", WORK + NTHR * WORK);
		printf("did leaf %d\n", WORK + NTHR * WORK);
		printf("did rec %d\n", NTHR * 6);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "plain") == 0) {
		work();
		printf("plain\n");
		return atoi(argv[2]);
	}
	fprintf(stderr, "usage: h_profapi api LIB | exec | execd | calls |"
	    " plain STATUS\n");
	return 2;
}
