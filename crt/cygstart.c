/*
 * cygstart.c -- start-up glue for programs built with
 * -finstrument-functions and linked with libmon, but not with -p.
 *
 * Such a program has no gcrt1.o to call __monstartup: the hooks of
 * lib/calls.c bring this file in, and its constructor starts the same
 * default profile gcrt1.o would -- the whole text, mon.out at exit --
 * before any other constructor of the program's runs.  A program built
 * with -p as well has been started by gcrt1.o already (its _init runs
 * before the constructors): it is not started twice.
 */
#include <stdlib.h>

#include "mon_private.h"

/* crt/gmon.c's, as gcrt1.o calls them. */
void	__monstartup(unsigned long, unsigned long);
void	_mcleanup(void);

/* The program's text, as the link editor's script marks it. */
extern char __executable_start[], etext[];

__attribute__((constructor(101), no_instrument_function)) static void
cygstart(void)
{
	if (_mon_crt_started())
		return;
	__monstartup((unsigned long)__executable_start, (unsigned long)etext);
	/* After __monstartup's own handler, so that it runs first. */
	if (_mon_crt_started())
		(void)atexit(_mcleanup);
}

/* Referenced from calls.c so that this file is linked with the hooks. */
const char _mon_link_cygstart _mon_hidden = 1;
