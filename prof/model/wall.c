/*
 * wall.c -- the wall samples of PROFMODE=wall (read/merge.c) made into
 * names, for prof -w's report (print/wall.c) and its exports
 * (export/wallset.c): the function a frame is in, the function a sample
 * counts for, a system call's name, a thread that never ran.
 */
#include <stdio.h>
#include <string.h>

#include "model/model.h"

/* x86_64 numbers of the system calls a thread is most often found in. */
static const struct { int nr; const char *name; } sysnames[] = {
	{ 0, "read" }, { 1, "write" }, { 2, "open" }, { 7, "poll" },
	{ 17, "pread64" }, { 18, "pwrite64" }, { 19, "readv" },
	{ 20, "writev" }, { 23, "select" }, { 24, "sched_yield" },
	{ 34, "pause" }, { 35, "nanosleep" }, { 42, "connect" },
	{ 43, "accept" }, { 44, "sendto" }, { 45, "recvfrom" },
	{ 46, "sendmsg" }, { 47, "recvmsg" }, { 61, "wait4" },
	{ 65, "semop" }, { 69, "msgsnd" }, { 70, "msgrcv" },
	{ 72, "fcntl" }, { 73, "flock" }, { 74, "fsync" },
	{ 75, "fdatasync" }, { 128, "rt_sigtimedwait" },
	{ 130, "rt_sigsuspend" }, { 202, "futex (mutex/condvar)" },
	{ 208, "io_getevents" }, { 220, "semtimedop" },
	{ 230, "clock_nanosleep" }, { 232, "epoll_wait" },
	{ 247, "waitid" }, { 257, "openat" }, { 270, "pselect6" },
	{ 271, "ppoll" }, { 281, "epoll_pwait" }, { 288, "accept4" },
	{ 299, "recvmmsg" }, { 426, "io_uring_enter" },
	{ 441, "epoll_pwait2" }, { 449, "futex_waitv" },
};

/* System call nr's name, into buf when it has none of its own. */
const char *
wall_sysname(int32_t nr, char *buf, size_t size)
{
	size_t i;

	if (nr < 0)
		return "no system call";
	for (i = 0; i < sizeof(sysnames) / sizeof(sysnames[0]); i++)
		if (sysnames[i].nr == nr)
			return sysnames[i].name;
	snprintf(buf, size, "system call %d", (int)nr);
	return buf;
}

/* Is the frame in libmon's own code? */
static int
in_libmon(const struct profile *p, const struct frame *f)
{
	size_t i;

	for (i = 0; i < p->nself; i++)
		if (p->self[i].obj == f->obj && f->addr >= p->self[i].lo &&
		    f->addr < p->self[i].hi)
			return 1;
	return 0;
}

/*
 * The name of the function at frame f, or NULL: in no function known,
 * or in libmon's own code, which is no function of the program's.  Its
 * entry, link-time in its object, into *entry if entry is not NULL.
 */
const char *
wall_frame_name(const struct report *r, const struct profile *p,
    const struct frame *f, uint64_t *entry)
{
	const struct symtab *t;
	size_t i;

	if (f->obj == OBJ_NONE || in_libmon(p, f))
		return NULL;
	t = report_symtab(r, f->obj);
	if (t == NULL || (i = symtab_lookup(t, f->addr)) == SIZE_MAX)
		return NULL;
	if (entry != NULL)
		*entry = t->funcs[i].addr;
	return t->funcs[i].name;
}

/*
 * The function a wall sample counts for: running, the innermost of its
 * stack that has a name; waiting, the innermost of the program itself
 * -- the call site of the system call, past the C library's wrappers --
 * or, with none, the innermost that has a name.
 */
const char *
wall_sample_name(const struct report *r, const struct profile *p,
    const struct wstack *s)
{
	const struct frame *f;
	const char *name, *first;
	size_t i;

	first = NULL;
	for (i = 0; i < s->depth; i++) {
		f = &p->wframes[s->first + i];
		if ((name = wall_frame_name(r, p, f, NULL)) == NULL)
			continue;
		if (s->state == MONX_WS_RUN || f->obj == OBJ_MAIN)
			return name;
		if (first == NULL)
			first = name;
	}
	if (first != NULL)
		return first;
	if (s->depth == 0)
		return s->state == MONX_WS_RUN ? "[running, not sampled yet]" :
		    "[no stack]";
	return "[unknown]";
}

/*
 * Did thread w never run (-r)?  Less CPU time than a period: a thread
 * caught runnable as it started, or waiting for a CPU, ran next to
 * nothing all the same.
 */
int
wall_never_ran(const struct wthread *w)
{
	return (double)w->cpu_ns / 1e9 < w->period;
}
