/*
 * gmon.c -- start-up glue for programs built with cc -p or cc -pg.
 *
 * gcc and clang link gcrt1.o into such programs; its start-up code calls
 * __monstartup(&__executable_start, &etext) before main and registers
 * _mcleanup with atexit().  Defining both here, in libmon.a, takes the
 * place of glibc's gmon: the program gets monitor()'s classic default
 * profile -- the whole text, BARSIZE bytes of text per histogram
 * counter, MPROGS0 call-count cells -- and mon.out is written when it
 * exits through exit() or a return from main.  No gmon.out appears.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "mon_private.h"

/*
 * With -flto a program's calls to mcount (or __fentry__) are made only
 * by the link-time code generation, after the link editor has scanned
 * libmon.a: nothing asked for mcount then, so the calls went to the C
 * library's and counted nothing.  gcrt1.o asks for __monstartup; naming
 * mcount here brings in the member that defines both entry points with
 * it, whether libmon comes by -lmon, by path or by the specs file.
 */
void	mcount(void);
__attribute__((used)) static void (*const pull)(void) = mcount;

/* Fails a static link, where libmon cannot work: see nostatic.c. */
void	libmon_does_not_support_static_linking(void) _mon_hidden;

static WORD *buf;
static size_t buflen;
static int waiting;

/*
 * Called by gcrt1.o before main.  The buffer is sized by the monitor(3C)
 * formula and comes from mmap, so a program's malloc is not disturbed.
 */
_mon_public void
__monstartup(unsigned long lowpc, unsigned long highpc)
{
	size_t bytes;
	int saved;

	saved = errno;
	libmon_does_not_support_static_linking();
	if (highpc <= lowpc)
		return;
	/*
	 * A whole number of BARSIZE bars makes the classic scale exactly
	 * 0x4000, so every counter covers 8 bytes from the page-aligned
	 * start and none straddles two 16-byte-aligned functions.
	 */
	highpc = lowpc + (highpc - lowpc + BARSIZE - 1) / BARSIZE * BARSIZE;
	bytes = sizeof(struct hdr) + MPROGS0 * sizeof(struct cnt) +
	    (highpc - lowpc) / BARSIZE * sizeof(WORD) + sizeof(WORD) - 1;
	if ((buf = _mon_map(bytes)) == NULL) {
		_mon_warn("monstartup", "no memory for the profile", ENOMEM);
		errno = saved;
		return;
	}
	buflen = bytes;
	/*
	 * gcrt1.o registers _mcleanup next: this handler, registered
	 * first, runs after it, and holds a second thread's exit() until
	 * the profile is written.
	 */
	if (!waiting && atexit(_mon_life_exit_wait) == 0)
		waiting = 1;
	(void)_mon_life_start((char *)lowpc, (char *)highpc, buf,
	    bytes / sizeof(WORD), MPROGS0, 1);
	errno = saved;
}

/*
 * monstartup(): glibc's public name for the same, for programs that start
 * profiling themselves; they write the profile with monitor(0, ...) or
 * _mcleanup().
 */
_mon_public void
monstartup(unsigned long lowpc, unsigned long highpc)
{
	__monstartup(lowpc, highpc);
}

/* Has __monstartup run (gcrt1.o's call, or cygstart.c's)? */
int
_mon_crt_started(void)
{
	return buf != NULL;
}

/* Registered with atexit() by gcrt1.o: stop and write the profile. */
_mon_public void
_mcleanup(void)
{
	monitor(NULL, NULL, NULL, 0, 0);
}
