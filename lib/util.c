/*
 * util.c -- the few services the rest of libmon leans on: anonymous
 * memory that never comes from malloc, and one-line diagnostics that
 * never go through stdio, so that both are safe in the exit-time writer.
 */
#define _GNU_SOURCE	/* strerrordesc_np, RTLD_NEXT, pthread_attr_setsigmask_np */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mon_private.h"

#define HUGEPAGE	((size_t)2 << 20)	/* x86_64's */

/*
 * Zeroed, private memory of at least len bytes, or NULL.  Pages are not
 * reserved until touched, so large sparse tables cost only what is used.
 * errno is kept either way: this is called on the program's threads,
 * from mcount and signal handlers, and a failure is libmon's, never the
 * program's.  Async-signal-safe.
 */
void *
_mon_map(size_t len)
{
	void *p;
	int err;

	err = errno;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	errno = err;
	return p == MAP_FAILED ? NULL : p;
}

/*
 * _mon_map()'s memory of len bytes for an array that will be filled
 * from end to end, or nearly -- a count array that grew for many arcs
 * or that a big program's text fills, the arcs the writer and a
 * snapshot sum and the scratch of their sort -- placed so that byte off
 * (a multiple of the page size) starts a huge page, and the kernel
 * asked for huge pages under it (transparent huge pages, when
 * /sys/kernel/mm/transparent_hugepage/enabled is madvise or always): a
 * page fault each 2 MiB instead of each 4 KiB as it is filled, and a
 * fault costs microseconds under some hypervisors.  Memory used here
 * and there is better left to _mon_map(): each stretch of 2 MiB it
 * touches would be resident whole.  With the kernel's default defrag
 * setting, a fault with no huge page free may wait while the kernel
 * compacts memory.  NULL without memory; freed by _mon_unmap(p, len).
 * Async-signal-safe; errno is kept.
 */
void *
_mon_map_dense(size_t len, size_t off)
{
	uintptr_t raw, p, end, top, pg;
	int err;

	if (len < HUGEPAGE)
		return _mon_map(len);
	if ((raw = (uintptr_t)_mon_map(len + HUGEPAGE)) == 0)
		return NULL;
	err = errno;
	pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	p = ((raw + off + HUGEPAGE - 1) & ~(HUGEPAGE - 1)) - off;
	end = (p + len + pg - 1) & ~(pg - 1);
	top = (raw + len + HUGEPAGE + pg - 1) & ~(pg - 1);
	if (p > raw)
		(void)munmap((void *)raw, p - raw);
	if (top > end)
		(void)munmap((void *)end, top - end);
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)p, len, MADV_HUGEPAGE);
#endif
	errno = err;
	return (void *)p;
}

/* Clock c now, in ns; 0 if it cannot be read.  Async-signal-safe. */
uint64_t
_mon_clock_ns(clockid_t c)
{
	struct timespec t;

	if (clock_gettime(c, &t) != 0)
		return 0;
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The calling thread's kernel id.  Async-signal-safe. */
pid_t
_mon_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/*
 * Is thread tid of this process still there?  A thread listed in
 * /proc/self/task may end before it is armed: that is no failure to
 * count.  errno is kept.  Async-signal-safe.
 */
int
_mon_alive(pid_t tid)
{
	int err, r;

	err = errno;
	r = syscall(SYS_tgkill, getpid(), tid, 0) == 0 || errno != ESRCH;
	errno = err;
	return r;
}

/*
 * libmon's own threads that a clock must not sample (the snapper): a
 * thread adds itself (on) or takes itself away.
 */
#define NOWN	4
static _Atomic pid_t own[NOWN];

void
_mon_own_thread(pid_t tid, int on)
{
	pid_t want;
	int i;

	for (i = 0; i < NOWN; i++) {
		want = on ? 0 : tid;
		if (atomic_compare_exchange_strong(&own[i], &want,
		    on ? tid : 0))
			return;
	}
}

/* A fork child has none of its parent's threads. */
void
_mon_own_forget(void)
{
	int i;

	for (i = 0; i < NOWN; i++)
		atomic_store(&own[i], 0);
}

static int
is_own(pid_t tid)
{
	int i;

	for (i = 0; i < NOWN; i++)
		if (atomic_load(&own[i]) == tid)
			return 1;
	return 0;
}

/* Is tid one of libmon's own threads? */
int
_mon_own(pid_t tid)
{
	return is_own(tid);
}

/*
 * Call fn(tid, arg), if fn is given, for every thread of the process now
 * but the calling one and libmon's own; the number of threads there are,
 * the caller among them (1 when /proc cannot say).  Not for signal
 * context.
 */
size_t
_mon_threads(void (*fn)(pid_t, void *), void *arg)
{
	struct dirent *e;
	size_t n;
	pid_t me, t;
	DIR *d;

	if ((d = opendir("/proc/self/task")) == NULL)
		return 1;
	me = _mon_gettid();
	for (n = 0; (e = readdir(d)) != NULL;) {
		if ((t = (pid_t)atoi(e->d_name)) <= 0)
			continue;
		n++;
		if (t != me && fn != NULL && !is_own(t))
			fn(t, arg);
	}
	closedir(d);
	return n;
}

void
_mon_unmap(void *p, size_t len)
{
	if (p != NULL)
		(void)munmap(p, len);
}

/*
 * Read len bytes at address a of process pid (this one: the stack walks
 * pass getpid() once a walk) into buf, with process_vm_readv(), so that
 * an address that is not mapped is an answer, not a fault.  1 if all of
 * them were read.  Async-signal-safe; errno is the caller's to keep.
 */
int
_mon_peek(pid_t pid, uintptr_t a, void *buf, size_t len)
{
	struct iovec here, there;

	here.iov_base = buf;
	here.iov_len = len;
	there.iov_base = (void *)a;
	there.iov_len = len;
	return syscall(SYS_process_vm_readv, (long)pid, &here, 1UL, &there,
	    1UL, 0UL) == (long)len;
}

/*
 * The whole pages in len bytes at p, memory that is libmon's own, come
 * to a fork child as fresh zero pages: fork copies none of their page
 * tables and a child that zeroes them (_mon_rezero) finds nothing to
 * give back.  Only for memory every fork child empties, or never reads.
 * A kernel without MADV_WIPEONFORK copies them as before.
 */
void
_mon_wipe_on_fork(void *p, size_t len)
{
	uintptr_t lo, hi, a, b, pg;
	int err;

	if (p == NULL || len == 0)
		return;
	err = errno;
	pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	lo = (uintptr_t)p;
	hi = lo + len;
	a = (lo + pg - 1) & ~(pg - 1);
	b = hi & ~(pg - 1);
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_WIPEONFORK);
	errno = err;
}

/*
 * A lock in a fork child, which its holder may not be in: set as its
 * initializer sets it, unless it already is.  A lock whose bytes are the
 * initializer's is free (in glibc a held lock has its owner's word or a
 * reader count set), so it is left alone, and its page is not written:
 * a page a child writes is copied, which a fork that execs at once pays
 * for (each such page about 1-3 microseconds under a hypervisor).  The
 * locks the fork handlers hold across the fork are always rewritten.
 */
void
_mon_renew_mutex(pthread_mutex_t *m)
{
	static const pthread_mutex_t init = PTHREAD_MUTEX_INITIALIZER;

	if (memcmp(m, &init, sizeof(init)) != 0)
		*m = init;
}

void
_mon_renew_rwlock(pthread_rwlock_t *l)
{
	static const pthread_rwlock_t init = PTHREAD_RWLOCK_INITIALIZER;

	if (memcmp(l, &init, sizeof(init)) != 0)
		*l = init;
}

/*
 * Zero len bytes at p, memory that is libmon's own (from _mon_map(), or
 * a buffer libmon sized and mapped): the whole pages in it go back to
 * the kernel, which maps fresh zero pages on the next touch, so nothing
 * is written -- in a fork child, nothing is copied; only the part pages
 * at its ends are written.  Async-signal-safe.
 */
void
_mon_rezero(void *p, size_t len)
{
	uintptr_t lo, hi, a, b, pg;

	if (p == NULL || len == 0)
		return;
	pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	lo = (uintptr_t)p;
	hi = lo + len;
	a = (lo + pg - 1) & ~(pg - 1);
	b = hi & ~(pg - 1);
	if (b <= a || madvise((void *)a, b - a, MADV_DONTNEED) != 0) {
		memset(p, 0, len);
		return;
	}
	memset(p, 0, a - lo);
	memset((void *)b, 0, hi - b);
}

/*
 * The number in variable name when it is one from lo to hi; else def,
 * with a warning (why) if the variable is set but not such a number.
 * Set-id programs see none of the environment (secure_getenv).
 */
long
_mon_env_number(const char *name, long lo, long hi, long def,
    const char *why)
{
	const char *s;
	char *end;
	long v;
	int err;

	if ((s = secure_getenv(name)) == NULL || *s == '\0')
		return def;
	err = errno;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi) {
		_mon_warn(name, why, 0);
		v = def;
	}
	errno = err;
	return v;
}

/*
 * Write "libmon: what: reason" as one line on stderr with a single
 * write(2), formatted by hand so that no stdio buffer or lock is
 * involved at exit.  errno is left as it was.
 */
void
_mon_warn(const char *what, const char *why, int err)
{
	const char *reason;
	char line[1024];
	size_t n;
	int saved;

	saved = errno;
	n = 0;
#define PUT(s) do { \
	const char *s_ = (s); \
	size_t l_ = strlen(s_); \
	if (l_ > sizeof(line) - 1 - n) \
		l_ = sizeof(line) - 1 - n; \
	memcpy(line + n, s_, l_); \
	n += l_; \
} while (0)
	PUT("libmon: ");
	PUT(what);
	if (why != NULL) {
		PUT(": ");
		PUT(why);
	}
	if (err != 0) {
		PUT(": ");
		/* Not strerror: no locale, no malloc, at exit. */
		reason = strerrordesc_np(err);
		PUT(reason != NULL ? reason : "unknown error");
	}
#undef PUT
	line[n++] = '\n';
	(void)write(STDERR_FILENO, line, n);
	errno = saved;
}

/*
 * Take lock, a word naming the process that holds it, with every signal
 * blocked (the mask before in *was), so that no handler on the holder's
 * thread can wait for it; a holder of another process is one a fork
 * left behind, and is taken over.  Signal-safe.
 */
void
_mon_siglock(_Atomic pid_t *lock, sigset_t *was)
{
	sigset_t all;
	pid_t me, cur;

	sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, was);
	me = getpid();
	for (;;) {
		cur = 0;
		if (atomic_compare_exchange_weak(lock, &cur, me))
			return;
		if (cur != me && cur != 0 &&
		    atomic_compare_exchange_weak(lock, &cur, me))
			return;
		(void)sched_yield();
	}
}

void
_mon_sigunlock(_Atomic pid_t *lock, const sigset_t *was)
{
	atomic_store(lock, 0);
	(void)pthread_sigmask(SIG_SETMASK, was, NULL);
}

/*
 * The default action of sig taken as it would have been without libmon:
 * put back, the signal let through on this thread and raised.  From a
 * handler of libmon's, to end the process as the signal would have.
 */
void
_mon_die(int sig)
{
	struct sigaction dfl;
	sigset_t set;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	(void)__sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	(void)pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	(void)raise(sig);
}

/*
 * glibc's count of the process's threads (GLIBC_PRIVATE, the one its
 * thread debugger reads): the thread that takes it to 0 calls exit(0),
 * which is how a process whose main thread called pthread_exit() ends.
 * libmon's own threads are taken off the count once created, and end by
 * the exit system call, which does not take them off again
 * (_mon_thread_exit), so that they never keep a process alive.  NULL
 * where the C library has no such count: libmon's threads then count as
 * any other, and keep alive a process whose main called pthread_exit().
 */
static _Atomic unsigned int *
nthreads(void)
{
	static _Atomic unsigned int *n;
	static int looked;

	if (!looked) {
		n = dlvsym(RTLD_DEFAULT, "__nptl_nthreads", "GLIBC_PRIVATE");
		looked = 1;
	}
	return n;
}

/*
 * Start a thread of libmon's own running fn(arg): by the C library's
 * pthread_create (libmon's would give it a clock), on a stack of stack
 * bytes, with every signal blocked, so that no signal of the program's
 * ever comes to it, and left out of the threads the process waits for
 * before it ends.  fn ends with _mon_thread_exit().  0, or -1.
 */
int
_mon_thread_start(pthread_t *t, size_t stack, void *(*fn)(void *), void *arg)
{
	typedef int (*createfn)(pthread_t *, const pthread_attr_t *,
	    void *(*)(void *), void *);
	static createfn real;
	_Atomic unsigned int *n;
	pthread_attr_t at;
	sigset_t all;
	int r;

	if (real == NULL &&
	    (real = (createfn)_mon_libc("pthread_create")) == NULL)
		return -1;
	n = nthreads();
	sigfillset(&all);
	pthread_attr_init(&at);
	pthread_attr_setstacksize(&at, stack);
	pthread_attr_setsigmask_np(&at, &all);
	r = real(t, &at, fn, arg);
	pthread_attr_destroy(&at);
	if (r == 0 && n != NULL)
		atomic_fetch_sub(n, 1);
	return r == 0 ? 0 : -1;
}

/*
 * The end of a thread _mon_thread_start() started.  Where it is not in
 * glibc's count, it must not come off it again, as glibc's end of a
 * thread would take it: the count could reach 0 while a program thread
 * is alive, or already in exit() writing the profile, and that thread's
 * end would call exit(0) a second time.  The kernel clears the thread's
 * id on exit, which is all that pthread_join() waits for, and the join
 * frees the stack; libmon's threads hold no thread-specific data or
 * malloc cache to free.
 */
void
_mon_thread_exit(void)
{
	void (*real)(void *);

	/*
	 * The C library's own: libmon's (thread.c) is for the main thread,
	 * which this is not, and util.c calls into no file above it.
	 */
	if (nthreads() == NULL &&
	    (real = (void (*)(void *))_mon_libc("pthread_exit")) != NULL)
		real(NULL);
	for (;;)
		(void)syscall(SYS_exit, 0);
}

/*
 * A worker: a thread of libmon's own that wakes every so often (ring.c's
 * drainer, wall.c's sampler).  Started afresh -- in a fork child too,
 * whose copy of the lock and condition may be held by a thread that is
 * not there -- and, if wait, waited for until it has said its id (a
 * scan of the program's threads must pass it over).  0, or -1.
 */
int
_mon_worker_start(struct _mon_worker *w, size_t stack, void *(*fn)(void *),
    int wait)
{
	pthread_condattr_t ca;
	int r;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&w->lock, NULL);
	w->quit = w->kick = 0;
	atomic_store(&w->tid, 0);
	pthread_mutex_lock(&w->lock);
	r = _mon_thread_start(&w->th, stack, fn, NULL);
	while (wait && r == 0 && atomic_load(&w->tid) == 0)
		pthread_cond_wait(&w->cv, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return r;
}

/*
 * The worker's first words: known as libmon's (not one of the program's
 * threads, for the clocks and the wall sampler) before its id is told
 * to whoever waits in _mon_worker_start().
 */
void
_mon_worker_begin(struct _mon_worker *w)
{
	_mon_own_thread(_mon_gettid(), 1);
	atomic_store(&w->tid, _mon_gettid());
	pthread_mutex_lock(&w->lock);
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->lock);
}

/*
 * In the worker: sleep until the CLOCK_MONOTONIC time at, or until
 * kicked; 0 once stopped.
 */
int
_mon_worker_sleep(struct _mon_worker *w, const struct timespec *at)
{
	int go;

	pthread_mutex_lock(&w->lock);
	while (!w->quit && !w->kick &&
	    pthread_cond_timedwait(&w->cv, &w->lock, at) != ETIMEDOUT)
		continue;
	w->kick = 0;
	go = !w->quit;
	pthread_mutex_unlock(&w->lock);
	return go;
}

/* Wake the worker now, as if its time had come. */
void
_mon_worker_kick(struct _mon_worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->kick = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->lock);
}

/* The worker's last words. */
void
_mon_worker_end(void)
{
	_mon_own_thread(_mon_gettid(), 0);
	_mon_thread_exit();
}

/* Stop the worker and wait for its end. */
void
_mon_worker_stop(struct _mon_worker *w)
{
	pthread_mutex_lock(&w->lock);
	w->quit = 1;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->lock);
	(void)pthread_join(w->th, NULL);
	atomic_store(&w->tid, 0);
}

/*
 * The next of a sequence of pseudo-random numbers (xorshift64*) whose
 * state, never 0, is *s: the high bits are the best.  For the sampling
 * clocks' random phases, not for anything secret.  Async-signal-safe.
 */
uint64_t
_mon_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/*
 * The C library's own definition of name, for the functions whose names
 * libmon takes (pthread_create, execve...); NULL, with errno ENOSYS, in
 * a program linked statically.
 */
void *
_mon_libc(const char *name)
{
	void *f;

	if ((f = dlsym(RTLD_NEXT, name)) == NULL)
		errno = ENOSYS;
	return f;
}

/*
 * The digits of v in base 10 or 16 (lower case, no 0x) into buf, which
 * has room for 20; their number.  Async-signal-safe.
 */
size_t
_mon_digits(char *buf, uint64_t v, unsigned int base)
{
	char tmp[20];
	size_t n, i;

	n = 0;
	do
		tmp[n++] = "0123456789abcdef"[v % base];
	while ((v /= base) != 0);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}
