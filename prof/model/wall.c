/*
 * wall.c -- the wall samples of PROFMODE=wall (read/merge.c) made into
 * names, for prof -w's report (print/wall.c) and its exports
 * (export/wallset.c): the function a frame is in, the function a sample
 * counts for, a system call's name, a thread that never ran.
 */
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "util/util.h"

/*
 * x86_64 numbers of the system calls a thread is found in: those it
 * waits in, and the common others (a thread caught in mmap or in
 * libmon's perf_event_open runs in the kernel).  Any other is "system
 * call N".  A futex wait is a mutex or a condition variable, said so.
 */
static const struct { int nr; const char *name; } sysnames[] = {
	{ 0, "read" }, { 1, "write" }, { 2, "open" }, { 3, "close" },
	{ 4, "stat" }, { 5, "fstat" }, { 6, "lstat" }, { 7, "poll" },
	{ 8, "lseek" }, { 9, "mmap" }, { 10, "mprotect" },
	{ 11, "munmap" }, { 12, "brk" }, { 13, "rt_sigaction" },
	{ 14, "rt_sigprocmask" }, { 16, "ioctl" }, { 17, "pread64" },
	{ 18, "pwrite64" }, { 19, "readv" }, { 20, "writev" },
	{ 21, "access" }, { 22, "pipe" }, { 23, "select" },
	{ 24, "sched_yield" }, { 25, "mremap" }, { 26, "msync" },
	{ 28, "madvise" }, { 32, "dup" }, { 33, "dup2" },
	{ 34, "pause" }, { 35, "nanosleep" }, { 38, "setitimer" },
	{ 39, "getpid" }, { 40, "sendfile" }, { 41, "socket" },
	{ 42, "connect" }, { 43, "accept" }, { 44, "sendto" },
	{ 45, "recvfrom" }, { 46, "sendmsg" }, { 47, "recvmsg" },
	{ 48, "shutdown" }, { 49, "bind" }, { 50, "listen" },
	{ 56, "clone" }, { 57, "fork" }, { 58, "vfork" },
	{ 59, "execve" }, { 60, "exit" }, { 61, "wait4" },
	{ 62, "kill" }, { 65, "semop" }, { 69, "msgsnd" },
	{ 70, "msgrcv" }, { 72, "fcntl" }, { 73, "flock" },
	{ 74, "fsync" }, { 75, "fdatasync" }, { 76, "truncate" },
	{ 77, "ftruncate" }, { 78, "getdents" }, { 82, "rename" },
	{ 83, "mkdir" }, { 87, "unlink" }, { 89, "readlink" },
	{ 128, "rt_sigtimedwait" }, { 130, "rt_sigsuspend" },
	{ 157, "prctl" }, { 158, "arch_prctl" }, { 186, "gettid" },
	{ 200, "tkill" }, { 202, "futex: mutex or condvar" },
	{ 208, "io_getevents" }, { 209, "io_submit" },
	{ 217, "getdents64" }, { 220, "semtimedop" },
	{ 222, "timer_create" }, { 228, "clock_gettime" },
	{ 230, "clock_nanosleep" }, { 231, "exit_group" },
	{ 232, "epoll_wait" }, { 233, "epoll_ctl" }, { 234, "tgkill" },
	{ 247, "waitid" }, { 257, "openat" }, { 262, "newfstatat" },
	{ 270, "pselect6" }, { 271, "ppoll" }, { 281, "epoll_pwait" },
	{ 288, "accept4" }, { 290, "eventfd2" },
	{ 291, "epoll_create1" }, { 292, "dup3" }, { 293, "pipe2" },
	{ 298, "perf_event_open" }, { 299, "recvmmsg" },
	{ 302, "prlimit64" }, { 307, "sendmmsg" }, { 318, "getrandom" },
	{ 332, "statx" }, { 426, "io_uring_enter" }, { 435, "clone3" },
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

/* Row id's row, whether or not the rows were sorted since. */
static const struct row *
row_by_id(const struct report *r, size_t id)
{
	if (id >= r->nrows)
		return NULL;
	return r->byid != NULL ? r->byid[id] : &r->rows[id];
}

/*
 * The id of the report's row of frame f, of the wall or the slow frames
 * of p (as attribution placed it, model/attrib.c): ROW_SELF in libmon's
 * own code, ROW_NONE in no function known.
 */
size_t
wall_frame_id(const struct report *r, const struct profile *p,
    const struct frame *f)
{
	if (r->wrows != NULL && f >= p->wframes &&
	    f < p->wframes + p->nwframes)
		return r->wrows[f - p->wframes];
	if (r->srows != NULL && f >= p->sframes &&
	    f < p->sframes + p->nsframes)
		return r->srows[f - p->sframes];
	return ROW_NONE;
}

/*
 * The row of frame f, or NULL: in no function known, or in libmon's
 * own code, which is no function of the program's.
 */
const struct row *
wall_frame_row(const struct report *r, const struct profile *p,
    const struct frame *f)
{
	size_t id = wall_frame_id(r, p, f);

	return id == ROW_SELF ? NULL : row_by_id(r, id);
}

/*
 * The name of the function at frame f as the CPU report names its row
 * (model/rowname.c: its names, its object), or NULL as above.  Its
 * entry, link-time in its object, into *entry if entry is not NULL.
 */
const char *
wall_frame_name(const struct report *r, const struct profile *p,
    const struct frame *f, uint64_t *entry)
{
	const struct row *w;

	if ((w = wall_frame_row(r, p, f)) == NULL)
		return NULL;
	if (entry != NULL)
		*entry = w->addr;
	if (r->wnames[w->id] == NULL)
		r->wnames[w->id] = row_name(w, ROWNAME_ALL);
	return r->wnames[w->id];
}

/* Is name one of row w's names? */
static int
row_named(const struct row *w, const char *name)
{
	size_t k;

	for (k = 0; k < w->nnames; k++)
		if (strcmp(w->names[k], name) == 0)
			return 1;
	return 0;
}

/*
 * Is row w the start-up hook that calls libmon (gcrt1.o's, in the
 * program's text but outside libmon's)?  A walk that lost libmon's
 * frames under it still shows libmon's start.
 */
static int
starts_libmon(const struct row *w)
{
	return row_named(w, "__gmon_start__");
}

/*
 * Is frame i of sample s, libmon's, the root of a thread that libmon's
 * pthread_create wrapper started: under it no other frame of libmon's,
 * and the next frame with a name is the C library's start_thread?
 */
static int
thread_root(const struct report *r, const struct profile *p,
    const struct wstack *s, size_t i)
{
	const struct row *w;
	size_t id;

	for (i++; i < s->depth; i++) {
		id = wall_frame_id(r, p, &p->wframes[s->first + i]);
		if (id == ROW_SELF)
			return 0;
		if ((w = row_by_id(r, id)) != NULL)
			return w->objidx != OBJ_MAIN &&
			    row_named(w, "start_thread");
	}
	return 0;
}

/*
 * Was the thread of sample s doing libmon's own work -- starting the
 * profile, the wall sampler's set-up, writing mon.out -- rather than
 * the program's?  So when, past the frames of other objects (the C
 * library's system call wrappers), the innermost frame of libmon or of
 * the program is libmon's, or the start-up hook that calls it: libmon
 * called them.  A thread libmon started for the program (its
 * pthread_create wrapper) has libmon's frame under the program's, and
 * is the program's -- also when a walk by frame pointers from a
 * function that keeps none (the C library's, the vDSO's) lost the
 * program's frame that called it, and libmon's wrapper, at the thread's
 * root, is the first frame of either found: only its pc in libmon
 * makes such a sample libmon's.  (libmon's own start and end of a
 * thread, short, may then count for the program when its frame under
 * the wrapper is lost the same way.  Without the C library's symbols
 * -- its debug file -- start_thread has no name, and such samples stay
 * libmon's.)
 */
int
wall_is_libmon(const struct report *r, const struct profile *p,
    const struct wstack *s)
{
	const struct row *w;
	size_t i, id;

	for (i = 0; i < s->depth; i++) {
		id = wall_frame_id(r, p, &p->wframes[s->first + i]);
		if (id == ROW_SELF)
			return i == 0 || !thread_root(r, p, s, i);
		if ((w = row_by_id(r, id)) != NULL && w->objidx == OBJ_MAIN)
			return starts_libmon(w);
	}
	return 0;
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
	const struct row *w;
	const char *first;
	size_t i;

	first = NULL;
	for (i = 0; i < s->depth; i++) {
		f = &p->wframes[s->first + i];
		if ((w = wall_frame_row(r, p, f)) == NULL)
			continue;
		if (s->state == MONX_WS_RUN || w->objidx == OBJ_MAIN)
			return wall_frame_name(r, p, f, NULL);
		if (first == NULL)
			first = wall_frame_name(r, p, f, NULL);
	}
	if (first != NULL)
		return first;
	if (s->depth == 0)
		return wall_nostack_name(p, s);
	return "[unknown]";
}

/*
 * The name of a sample that kept no stack: with stacks off
 * (PROFSTACK=0: no stack in the files at all) a running thread's, or a
 * waiting one's; else a thread the sampler caught running before it
 * had walked its stack, or one whose stack could not be read.
 */
const char *
wall_nostack_name(const struct profile *p, const struct wstack *s)
{
	if (p->nwframes == 0 && p->stackfiles == 0)
		return s->state == MONX_WS_RUN ? "[running: no stack kept]" :
		    "[no stack kept]";
	return s->state == MONX_WS_RUN ? "[running, not sampled yet]" :
	    "[no stack]";
}

/*
 * Which rows the wall stacks show called by another named function,
 * by row id: a stack whose outermost function is one of those lost its
 * callers (wall_rooted()).
 */
unsigned char *
wall_called(const struct report *r, const struct profile *p)
{
	const struct wstack *s;
	unsigned char *called;
	size_t i, k, id, inner;

	called = xcalloc(r->nrows + 1, 1);
	for (i = 0; i < p->nwstacks; i++) {
		s = &p->wstacks[i];
		inner = ROW_NONE;
		for (k = 0; k < s->depth; k++) {
			id = wall_frame_id(r, p, &p->wframes[s->first + k]);
			if (id >= r->nrows)
				continue;
			if (inner != ROW_NONE && inner != id)
				called[inner] = 1;
			inner = id;
		}
	}
	return called;
}

/*
 * Does wall stack s reach where its thread started, by the rule of the
 * CPU stacks (model/callgraph.c): its outermost named function is
 * where the C library starts a thread, or a function of the program
 * no stack shows called.  called from wall_called().
 */
int
wall_rooted(const struct report *r, const struct profile *p,
    const struct wstack *s, const unsigned char *called)
{
	const struct row *w;
	size_t k, id;

	if (s->cut)
		return 1;	/* marked cut instead */
	for (k = s->depth; k > 0; k--) {
		id = wall_frame_id(r, p, &p->wframes[s->first + k - 1]);
		if ((w = row_by_id(r, id)) == NULL)
			continue;
		return row_thread_start(w) ||
		    (w->objidx == OBJ_MAIN && !called[id]);
	}
	return 1;
}

/* Is thread w's time in -w's report and exports (-r)? */
int
wall_kept(const struct opts *o, const struct wthread *w)
{
	return !(o->ranonly && wall_never_ran(w));
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
