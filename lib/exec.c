/*
 * exec.c -- the exec family, with the sampling clock paused.
 *
 * An interval timer survives execve() while the SIGPROF handler does
 * not, so a profiled process that exec'd a busy program would see it
 * killed by "Profiling timer expired".  These definitions take the place
 * of libc's for a program linked with libmon: they stop the timer, call
 * libc's own function, and start it again only if the exec failed.
 * (Calls made inside libc itself, such as posix_spawn, need nothing: the
 * new process they create never inherits the timer.)
 */
#define _GNU_SOURCE	/* RTLD_NEXT, execvpe */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include "mon_private.h"

#define MAXARGS	4096

typedef int (*execfn)(const char *, char *const[], char *const[]);
typedef int (*fexecfn)(int, char *const[], char *const[]);

static void *
real(const char *name)
{
	void *f;

	if ((f = dlsym(RTLD_NEXT, name)) == NULL)
		errno = ENOSYS;
	return f;
}

/* The clock paused around an exec; errno is the exec's own. */
static int
resumed(int r)
{
	int saved;

	saved = errno;
	_mon_clock_resume();
	errno = saved;
	return r;
}

/* libc's execve or execvpe (same signature), called with the clock paused. */
static int
around(const char *name, const char *file, char *const argv[],
    char *const envp[])
{
	execfn f;

	if ((f = (execfn)real(name)) == NULL)
		return -1;
	_mon_clock_pause();
	return resumed(f(file, argv, envp));
}

_mon_public int
execve(const char *path, char *const argv[], char *const envp[])
{
	return around("execve", path, argv, envp);
}

_mon_public int
execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

_mon_public int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	return around("execvpe", file, argv, envp);
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

	if ((f = (fexecfn)real("fexecve")) == NULL)
		return -1;
	_mon_clock_pause();
	return resumed(f(fd, argv, envp));
}

/* Gather the variadic arguments of execl* into argv; -1 if too many. */
static int
gather(const char *arg0, va_list ap, char **argv)
{
	int n;

	argv[0] = (char *)arg0;
	for (n = 1; argv[n - 1] != NULL; n++) {
		if (n == MAXARGS) {
			errno = E2BIG;
			return -1;
		}
		argv[n] = va_arg(ap, char *);
	}
	return n;
}

_mon_public int
execl(const char *path, const char *arg, ...)
{
	char *argv[MAXARGS];
	va_list ap;
	int n;

	va_start(ap, arg);
	n = gather(arg, ap, argv);
	va_end(ap);
	return n < 0 ? -1 : execve(path, argv, environ);
}

_mon_public int
execlp(const char *file, const char *arg, ...)
{
	char *argv[MAXARGS];
	va_list ap;
	int n;

	va_start(ap, arg);
	n = gather(arg, ap, argv);
	va_end(ap);
	return n < 0 ? -1 : execvpe(file, argv, environ);
}

_mon_public int
execle(const char *path, const char *arg, ...)
{
	char *argv[MAXARGS];
	char **envp;
	va_list ap;
	int n;

	va_start(ap, arg);
	n = gather(arg, ap, argv);
	envp = n < 0 ? NULL : va_arg(ap, char **);
	va_end(ap);
	return n < 0 ? -1 : execve(path, argv, envp);
}

/* Referenced from clock.c so that this file is always linked in. */
const char _mon_link_exec _mon_hidden = 1;

/*
 * In a static link dlsym(RTLD_NEXT) finds nothing and every exec here
 * would fail: naming nostatic.c's function makes that link fail instead,
 * -p or not, since this file is in every link of libmon.
 */
void	libmon_does_not_support_static_linking(void) _mon_hidden;
__attribute__((used)) static void (*const nostatic)(void) =
    libmon_does_not_support_static_linking;
