/*
 * util.c -- the few services the rest of libmon leans on: anonymous
 * memory that never comes from malloc, and one-line diagnostics that
 * never go through stdio, so that both are safe in the exit-time writer.
 */
#define _GNU_SOURCE	/* strerrordesc_np, RTLD_NEXT */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "mon_private.h"

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

void
_mon_unmap(void *p, size_t len)
{
	if (p != NULL)
		(void)munmap(p, len);
}

/*
 * Zero len bytes of memory _mon_map() gave: the pages go back to the
 * kernel, which maps fresh zero pages on the next touch, so nothing is
 * written -- in a fork child, nothing is copied.  Async-signal-safe.
 */
void
_mon_rezero(void *p, size_t len)
{
	if (p != NULL && madvise(p, len, MADV_DONTNEED) != 0)
		memset(p, 0, len);
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
