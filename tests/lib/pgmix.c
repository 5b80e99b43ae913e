/*
 * pgmix.c -- profiler_test's program of -pg code and
 * -finstrument-functions code together (pgmix_fi.c), whose signal
 * handler runs -pg code while a handle has an enter hook.  The signal
 * comes while libmon is making the decision of an instrumented
 * function (calls.c) -- with its locks held -- as surely as can be:
 * the program defines mmap, which libmon, linked in, calls, and which
 * sends SIGUSR1 to the main thread while armed.  The handler calls
 * hsig (-pg).
 *
 *	h_pgmix lock	a signal at each anonymous map: the first is
 *			libmon's table of decisions, made under fnlock
 *			(the thread's own tables are made first, with
 *			no hook set, so that the handler's call is not
 *			the first decided)
 *	h_pgmix sym	at each map of a file, with PROFCALLS set: the
 *			first is the program's ELF file, read for
 *			PROFCALLS's first name under symlock
 *
 * At exit, on stdout:
 *
 *	raised N		signals sent (mmap calls while armed)
 *	did hsig N		hsig's calls, all from the handler
 *	enter hsig N		enters given for hsig
 *	fn hsig ok|bad		the address given is hsig's own
 *	done
 *
 * Before libmon blocked signals while its locks are held, the handler's
 * first call waited on the lock its thread held, forever (fnlock), or
 * was given the wrong address (symlock, with PROFCALLS).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mon.h>

#define NOINLINE	__attribute__((noinline))

void	fi_calls(int);		/* pgmix_fi.c */

static volatile int sink;
static volatile sig_atomic_t armed;	/* 1: anonymous maps, 2: files */
static pid_t mainid;
static _Atomic long raised, hsigs, enters;
static _Atomic int fnbad;

NOINLINE void hsig(void) { sink++; }

static void
onsig(int sig)
{
	int e;

	(void)sig;
	e = errno;
	hsig();
	atomic_fetch_add(&hsigs, 1);
	errno = e;
}

/*
 * The C library's mmap, as a system call; a signal first, if armed.
 * Not built with -pg (no_instrument_function): mcount maps its tables.
 */
__attribute__((no_instrument_function)) void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r;

	if (armed == ((flags & MAP_ANONYMOUS) != 0 ? 1 : 2) &&
	    syscall(SYS_gettid) == mainid) {
		atomic_fetch_add(&raised, 1);
		raise(SIGUSR1);
	}
	r = syscall(SYS_mmap, addr, len, prot, flags, fd, off);
	return (void *)r;
}

/* hsig's enters; an address just past its start is its mcount call's. */
static void
enter(void *data, void *fn, void *site, uintptr_t id)
{
	(void)data;
	(void)site;
	(void)id;
	if (fn == (void *)hsig)
		atomic_fetch_add(&enters, 1);
	else if ((uintptr_t)fn > (uintptr_t)hsig &&
	    (uintptr_t)fn < (uintptr_t)hsig + 32)
		fnbad = 1;
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	mon_profiler_t h;
	int sym;

	if (argc != 2) {
		fprintf(stderr, "usage: h_pgmix lock|sym\n");
		return 2;
	}
	sym = strcmp(argv[1], "sym") == 0;
	if (!sym)
		fi_calls(1);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onsig;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0 ||
	    (h = mon_profiler_create("pgmix", NULL)) == NULL ||
	    mon_profiler_set_enter_leave(h, enter, NULL) != 0) {
		perror("pgmix");
		return 1;
	}
	mainid = (pid_t)syscall(SYS_gettid);
	armed = sym ? 2 : 1;
	fi_calls(100);
	armed = 0;
	printf("raised %ld\n", atomic_load(&raised));
	printf("did hsig %ld\n", atomic_load(&hsigs));
	printf("enter hsig %ld\n", atomic_load(&enters));
	printf("fn hsig %s\n", fnbad ? "bad" : "ok");
	printf("done\n");
	return 0;
}
