/*
 * exec.c -- the exec family, with nothing of the sampling clock carried
 * into the new image.
 *
 * An interval timer and a pending signal survive execve() while the
 * SIGPROF handler does not, so a profiled process that exec'd a busy
 * program would see it killed by "Profiling timer expired".  These
 * definitions take the place of libc's for a program linked with
 * libmon: they tell the lifecycle (timer paused, pending SIGPROF of
 * libmon's discarded), call libc's own function, and tell it again if
 * the exec failed.  errno is the exec's own.  Calls made inside libc
 * itself, such as posix_spawn and system, need nothing: the process
 * they create inherits no timer, event or pending signal.
 */
#define _GNU_SOURCE	/* execvpe, execveat */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include "mon_private.h"

typedef int (*execfn)(const char *, char *const[], char *const[]);
typedef int (*fexecfn)(int, char *const[], char *const[]);
typedef int (*execatfn)(int, const char *, char *const[], char *const[],
    int);

enum { EXECVE, EXECVPE, FEXECVE, EXECVEAT, NFN };

static const char *const names[NFN] = {
	"execve", "execvpe", "fexecve", "execveat"
};
static void	*fns[NFN];		/* libc's, once looked up */

/* libc's function i (EXECVE...); NULL, with errno, if it has none. */
static void *
libc(int i)
{
	if (fns[i] == NULL)
		fns[i] = _mon_libc(names[i]);
	return fns[i];
}

/*
 * All looked up before main, so that the process that execs -- most
 * often a fork child, which would otherwise look one up each time --
 * finds them: its first lookup touches the loader's symbol tables
 * afresh, some 10-20 us a fork+exec.
 */
__attribute__((constructor)) static void
lookup(void)
{
	int i, err;

	err = errno;
	for (i = 0; i < NFN; i++)
		(void)libc(i);
	errno = err;
}

/*
 * The profilers told of the exec of path -- but not by a vfork()
 * child, which runs on its parent's memory: a callback's writes and
 * stdio would be the parent's (vfork.c tells the child).
 */
static void
tell(const char *path)
{
	if (atomic_load(&_mon_vforking) > 0 &&
	    getpid() != atomic_load(&_mon_vforker))
		return;
	_mon_prof_exec(path);
}

/* The exec failed: the clock goes on; errno is the exec's. */
static int
failed(int r)
{
	int saved;

	saved = errno;
	_mon_life_exec_failed();
	errno = saved;
	return r;
}

/* libc's execve or execvpe (same signature), around the lifecycle. */
static int
around(int i, const char *file, char *const argv[], char *const envp[])
{
	execfn f;

	if ((f = (execfn)libc(i)) == NULL)
		return -1;
	tell(file);
	_mon_life_exec_before();
	return failed(f(file, argv, envp));
}

_mon_public int
execve(const char *path, char *const argv[], char *const envp[])
{
	return around(EXECVE, path, argv, envp);
}

_mon_public int
execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

_mon_public int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	return around(EXECVPE, file, argv, envp);
}

_mon_public int
execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

_mon_public int
fexecve(int fd, char *const argv[], char *const envp[])
{
	fexecfn f;

	if ((f = (fexecfn)libc(FEXECVE)) == NULL)
		return -1;
	tell(NULL);
	_mon_life_exec_before();
	return failed(f(fd, argv, envp));
}

_mon_public int
execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
    int flags)
{
	execatfn f;

	if ((f = (execatfn)libc(EXECVEAT)) == NULL)
		return -1;
	tell(path);
	_mon_life_exec_before();
	return failed(f(dirfd, path, argv, envp, flags));
}

/*
 * The execl family: the arguments counted on one pass of the list and
 * gathered on another, into an array as long as they are -- no limit
 * of libmon's own.  The list goes by address: a va_list passed by value
 * may not be used again by its caller.
 */
/*
 * glibc declares arg nonnull, yet execl(path, NULL) is a call programs
 * make: the test is kept out of the optimiser's reach.
 */
#ifdef __clang__
#define OPAQUE	__attribute__((noinline, optnone))
#else
#define OPAQUE	__attribute__((noipa))
#endif
OPAQUE static size_t
count(const char *arg0, va_list *ap)
{
	va_list cp;
	size_t n;

	if (arg0 == NULL)
		return 0;
	va_copy(cp, *ap);
	for (n = 1; va_arg(cp, char *) != NULL; n++)
		continue;
	va_end(cp);
	return n;		/* arg0 and the rest, without the NULL */
}

enum listed { L, LP, LE };

/*
 * execl (L), execlp (LP) or execle (LE) of the list ap, whose first
 * argument is arg: its argv as long as it is, on this stack frame.
 */
static int
listed(enum listed how, const char *file, const char *arg, va_list *ap)
{
	size_t i, n;

	n = count(arg, ap);
	{
		char *argv[n + 1];

		argv[0] = (char *)arg;
		for (i = 1; i <= n; i++)
			argv[i] = va_arg(*ap, char *);	/* the last is NULL */
		if (how == LP)
			return execvpe(file, argv, environ);
		return execve(file, argv, how == LE ? va_arg(*ap, char **) :
		    environ);
	}
}

_mon_public int
execl(const char *path, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = listed(L, path, arg, &ap);
	va_end(ap);
	return r;
}

_mon_public int
execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = listed(LP, file, arg, &ap);
	va_end(ap);
	return r;
}

_mon_public int
execle(const char *path, const char *arg, ...)
{
	va_list ap;
	int r;

	va_start(ap, arg);
	r = listed(LE, path, arg, &ap);
	va_end(ap);
	return r;
}

/* Referenced from lifecycle.c so that this file is always linked in. */
const char _mon_link_exec _mon_hidden = 1;

/*
 * In a static link dlsym(RTLD_NEXT) finds nothing and every exec here
 * would fail: naming nostatic.c's function makes that link fail instead,
 * -p or not, since this file is in every link of libmon.
 */
void	libmon_does_not_support_static_linking(void) _mon_hidden;
__attribute__((used)) static void (*const nostatic)(void) =
    libmon_does_not_support_static_linking;
