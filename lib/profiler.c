/*
 * profiler.c -- the profiler API of <mon.h> (mon_profiler(3C)): handles
 * with callbacks per event, and the modules PROFMODULE names.
 *
 * A handle is a slot of a static array of MAXPROF; its callbacks are
 * atomic pointers, so that an event reads them without a lock, and a
 * handle is never freed.  Every event goes to every handle that has a
 * callback for it, in the order the handles were made.
 *
 *	calls.c (slow way)        profiler.c
 *	  new function entry ----> _mon_prof_decide(fn) --> fns: fn -> rec
 *	  of a thread's              (lock-free read;        on (bitmask),
 *	                              filters under fnlock)   id[handle]
 *	  fe->pf = rec, ENT_HOOK if rec->on & hooked
 *	  hooked call -----------> _mon_prof_enter/leave(rec, fn, site)
 *
 * A function's decision -- which handles hook it, with which ID -- is
 * taken once per process: each handle's filter is called once for it,
 * the first time any thread calls it with hooks set, and kept in rec,
 * which never moves.  Threads cache rec in their own function entries
 * (calls.c), so the hot path never looks here.  Setting enter, leave or
 * a filter starts a new epoch (calls.c's threads re-decide their
 * entries from the records, calling only the filters not yet asked).
 *
 * Code built with -pg calls mcount (or __fentry__), not calls.c: while
 * a handle has an enter hook, mcount_entry.S takes a way of its own
 * first (_mon_counting 2) and gives each call here, through mcount.c's
 * _mon_count_hooked(), to pg_call(), before counting it.  The function
 * is known by the return address of its mcount call (self): a thread
 * caches PGSLOTS functions in its own slots, one slot per hash of self
 * (a function whose slot another took is looked up again), the rest
 * found in a lock-free table of self (selfs), whose entry is made once
 * per function under fnlock with the function's start from callsite.c.
 * The decision is then the function's record, as for calls.c.  A -pg
 * call is given no leave: that would mean taking over return
 * addresses, which unwinders, backtrace() and the sampled stacks would
 * then meet.
 *
 * Callbacks run with the thread marked as in one (_mon_prof_incb):
 * instrumented code they call is timed by libmon but given to no
 * handle's enter or leave, so a callback never recurses into itself.
 * errno is kept across every callback.
 *
 * Modules: PROFMODULE=name[:args][,name[:args]...] at the first start
 * (_mon_prof_modules()): libmon-profiler-NAME.so, found on the dynamic
 * linker's search path (a name with a slash is a path), and its
 * mon_profiler_init_NAME(args).  What fails is one line on stderr, and
 * the program runs on.  Set-id programs ignore the variable.
 */
#define _GNU_SOURCE	/* secure_getenv, RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon_private.h"

#define MAXPROF		16		/* handles, at most */
#define NAMELEN		64		/* a handle's name, with its NUL */
#define TAB0		4096		/* slots of the first function table */
#define RECS		1024		/* records a chunk holds */
#define PGSLOTS		64		/* -pg functions a thread caches */

#define NOINST		__attribute__((no_instrument_function))

struct mon_profiler {
	char				 name[NAMELEN];
	void				*data;
	_Atomic(mon_profiler_call_fn)	 enter, leave;
	_Atomic(mon_profiler_filter_fn)	 filter;
	_Atomic(mon_profiler_thread_fn)	 tstart, tend;
	_Atomic(mon_profiler_sample_fn)	 sample;
	_Atomic(mon_profiler_event_fn)	 shutdown, fork;
	_Atomic(mon_profiler_exec_fn)	 exec;
	_Atomic(mon_profiler_library_fn) loaded, unloaded;
	_Atomic(mon_profiler_jit_fn)	 jit;
};

/* A function's decision: the handles hooking it, with their IDs. */
struct _mon_pfn {
	uintptr_t		 fn;
	_Atomic uint32_t	 known;		/* handles decided */
	_Atomic uint32_t	 on;		/* handles that hook it */
	uintptr_t		 id[MAXPROF];
};

/*
 * An open hash of records by the word each starts with (a _mon_pfn's
 * fn, a pgself's self), read without a lock; remade twice as large,
 * the old one not freed.
 */
struct keytab {
	size_t			 mask;
	size_t			 n;
	_Atomic(void *)		 s[];
};

/* A -pg function: the return address of its mcount call, its start. */
struct pgself {
	uintptr_t		 self;
	uintptr_t		 fn;
	int			 nested;	/* r10 pushed: site above */
};

struct selfchunk {
	size_t			 n;
	struct pgself		 e[RECS];
};

/* A thread's cache of -pg functions decided, in the epoch pgen. */
struct pgslot {
	uintptr_t		 self;
	uintptr_t		 fn;
	const struct _mon_pfn	*r;		/* NULL: no handle hooks it */
	int			 nested;
};

_Static_assert(offsetof(struct _mon_pfn, fn) == 0, "keytab: key first");
_Static_assert(offsetof(struct pgself, self) == 0, "keytab: key first");

struct recchunk {
	size_t			 n;
	struct _mon_pfn		 r[RECS];
};

static struct mon_profiler	 handles[MAXPROF];
static _Atomic unsigned int	 nhandles;
static pthread_mutex_t		 hlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t		 fnlock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic(struct keytab *)	 fns;	/* _mon_pfn by fn */
static struct recchunk		*recs;		/* under fnlock */
static _Atomic uint32_t		 hooked;	/* handles with enter/leave */
static _Atomic uint32_t		 filtered;	/* handles with a filter */
static uint32_t			 epoch;		/* under hlock */
static _Atomic uint32_t		 pgen = 1;	/* -pg decisions' epoch */
static _Atomic(struct keytab *)	 selfs;	/* pgself by self */
static struct selfchunk		*selfrecs;	/* under fnlock */
static void	pg_call(uintptr_t, uintptr_t, uintptr_t, int);
static __thread struct {
	uint32_t		 gen;		/* the epoch of s */
	int			 busy;		/* in pg_call() */
	struct pgslot		 s[PGSLOTS];
} pg __attribute__((tls_model("initial-exec")));
static _Atomic pid_t		 shutpid;	/* the process shut down */
static int			 loaded;	/* modules looked for */

_Atomic int _mon_prof_libs;		/* a library callback is set */
__thread volatile int _mon_prof_incb
    __attribute__((tls_model("initial-exec")));

/*
 * Each handle i with callback field f set, in the order they were
 * made: the callback in cb.  The thread is marked in a callback and
 * errno is kept across.
 */
#define EACH(i, f, cb)	\
	for ((i) = 0; (i) < atomic_load(&nhandles); (i)++)	\
		if (((cb) = atomic_load(&handles[i].f)) != NULL)
#define DATA	handles[i_].data
#define DELIVER(f, cb, args) do {				\
	unsigned int i_;					\
	int err_, was_;						\
								\
	err_ = errno;						\
	was_ = _mon_prof_incb;					\
	_mon_prof_incb = 1;					\
	EACH(i_, f, cb)						\
		cb args;					\
	_mon_prof_incb = was_;					\
	errno = err_;						\
} while (0)

_mon_public mon_profiler_t
mon_profiler_create(const char *name, void *data)
{
	struct mon_profiler *h;
	unsigned int n;

	if (name == NULL || *name == '\0') {
		errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&hlock);
	if ((n = atomic_load(&nhandles)) == MAXPROF) {
		pthread_mutex_unlock(&hlock);
		errno = ENOSPC;
		return NULL;
	}
	h = &handles[n];
	memset(h->name, 0, sizeof(h->name));
	strncpy(h->name, name, sizeof(h->name) - 1);
	h->data = data;
	atomic_store(&nhandles, n + 1);
	pthread_mutex_unlock(&hlock);
	return h;
}

/* h, if it is a handle; else NULL, errno EINVAL. */
static struct mon_profiler *
valid(mon_profiler_t h)
{
	if (h < handles || h >= handles + atomic_load(&nhandles) ||
	    (size_t)((char *)h - (char *)handles) % sizeof(*h) != 0) {
		errno = EINVAL;
		return NULL;
	}
	return h;
}

/*
 * Enter, leave or a filter changed: a new epoch, in which calls.c's
 * threads decide their functions again, and every thread's -pg slots
 * are emptied (pgen); mcount takes its hooked way while some handle has
 * an enter.  Caller holds hlock.
 */
static void
new_epoch(void)
{
	uint32_t hk, ft, en;
	unsigned int i;

	hk = ft = en = 0;
	for (i = 0; i < atomic_load(&nhandles); i++) {
		if (atomic_load(&handles[i].enter) != NULL ||
		    atomic_load(&handles[i].leave) != NULL)
			hk |= 1u << i;
		if (atomic_load(&handles[i].enter) != NULL)
			en |= 1u << i;
		if (atomic_load(&handles[i].filter) != NULL)
			ft |= 1u << i;
	}
	atomic_store(&hooked, hk);
	atomic_store(&filtered, ft);
	if (++epoch == UINT32_MAX)
		epoch = 1;
	if (_mon_calls_hooked != NULL)
		_mon_calls_hooked(hk != 0 ? epoch : 0);
	atomic_fetch_add(&pgen, 1);
	_mon_count_hooks(en != 0 ? pg_call : NULL);
}

_mon_public int
mon_profiler_set_enter_leave(mon_profiler_t h, mon_profiler_call_fn enter,
    mon_profiler_call_fn leave)
{
	if (valid(h) == NULL)
		return -1;
	pthread_mutex_lock(&hlock);
	atomic_store(&h->enter, enter);
	atomic_store(&h->leave, leave);
	new_epoch();
	pthread_mutex_unlock(&hlock);
	return 0;
}

_mon_public int
mon_profiler_set_call_filter(mon_profiler_t h, mon_profiler_filter_fn filter)
{
	if (valid(h) == NULL)
		return -1;
	pthread_mutex_lock(&hlock);
	atomic_store(&h->filter, filter);
	new_epoch();
	pthread_mutex_unlock(&hlock);
	return 0;
}

#define SETTER(fname, type, field)			\
_mon_public int						\
fname(mon_profiler_t h, type cb)			\
{							\
	if (valid(h) == NULL)				\
		return -1;				\
	atomic_store(&h->field, cb);			\
	return 0;					\
}
SETTER(mon_profiler_set_sample, mon_profiler_sample_fn, sample)
SETTER(mon_profiler_set_shutdown, mon_profiler_event_fn, shutdown)
SETTER(mon_profiler_set_fork, mon_profiler_event_fn, fork)
SETTER(mon_profiler_set_exec, mon_profiler_exec_fn, exec)
SETTER(mon_profiler_set_jit, mon_profiler_jit_fn, jit)

_mon_public int
mon_profiler_set_thread(mon_profiler_t h, mon_profiler_thread_fn start,
    mon_profiler_thread_fn end)
{
	if (valid(h) == NULL)
		return -1;
	atomic_store(&h->tstart, start);
	atomic_store(&h->tend, end);
	return 0;
}

_mon_public int
mon_profiler_set_library(mon_profiler_t h, mon_profiler_library_fn loaded_,
    mon_profiler_library_fn unloaded)
{
	if (valid(h) == NULL)
		return -1;
	atomic_store(&h->loaded, loaded_);
	atomic_store(&h->unloaded, unloaded);
	if (loaded_ != NULL)
		atomic_store(&_mon_prof_libs, 1);
	return 0;
}

_mon_public const char *
mon_profiler_name(mon_profiler_t h)
{
	return valid(h) == NULL ? NULL : h->name;
}

/* The entry of t whose first word is key, or NULL.  Lock-free. */
static NOINST void *
key_get(struct keytab *t, uintptr_t key)
{
	void *e;
	size_t k;

	if (t == NULL)
		return NULL;
	for (k = _mon_hash(key, (unsigned int)__builtin_ctzll(t->mask + 1));
	    (e = atomic_load_explicit(&t->s[k], memory_order_acquire)) !=
	    NULL; k = (k + 1) & t->mask)
		if (*(const uintptr_t *)e == key)
			return e;
	return NULL;
}

/* e into t, which has room.  Caller holds fnlock. */
static NOINST void
key_put(struct keytab *t, void *e)
{
	size_t k;

	k = _mon_hash(*(const uintptr_t *)e,
	    (unsigned int)__builtin_ctzll(t->mask + 1));
	while (atomic_load_explicit(&t->s[k], memory_order_relaxed) != NULL)
		k = (k + 1) & t->mask;
	atomic_store_explicit(&t->s[k], e, memory_order_release);
	t->n++;
}

/*
 * The table at *tp, with room for one more entry: the one there, or a
 * larger one published in its place, which a reader of the old one
 * does not notice.  NULL without memory.  Caller holds fnlock.
 */
static NOINST struct keytab *
key_room(_Atomic(struct keytab *) *tp)
{
	struct keytab *t, *nt;
	void *e;
	size_t n, i;

	t = atomic_load(tp);
	if (t != NULL && (t->n + 1) * 2 <= t->mask + 1)
		return t;
	n = t == NULL ? TAB0 : (t->mask + 1) * 2;
	if ((nt = _mon_map(sizeof(*nt) + n * sizeof(nt->s[0]))) == NULL)
		return NULL;
	nt->mask = n - 1;
	for (i = 0; t != NULL && i <= t->mask; i++)
		if ((e = atomic_load(&t->s[i])) != NULL)
			key_put(nt, e);
	atomic_store(tp, nt);
	return nt;
}

/* fn's record, found lock-free, or NULL. */
static NOINST struct _mon_pfn *
fn_get(uintptr_t fn)
{
	return key_get(atomic_load_explicit(&fns, memory_order_acquire), fn);
}

/* A new record for fn; NULL without memory.  Caller holds fnlock. */
static NOINST struct _mon_pfn *
fn_new(uintptr_t fn)
{
	struct keytab *t;
	struct _mon_pfn *r;

	if ((t = key_room(&fns)) == NULL)
		return NULL;
	if (recs == NULL || recs->n == RECS) {
		if ((recs = _mon_map(sizeof(*recs))) == NULL)
			return NULL;
	}
	r = &recs->r[recs->n++];
	r->fn = fn;
	key_put(t, r);
	return r;
}

/*
 * The handles of want not yet decided for r asked: each filter once;
 * a handle with no filter hooks every function, its ID the function's
 * address.  Caller holds fnlock.
 */
static NOINST void
fn_decide(struct _mon_pfn *r, uint32_t want)
{
	mon_profiler_filter_fn f;
	uint32_t todo, on, bit;
	uintptr_t id;
	unsigned int i;
	int was, err;

	todo = want & ~atomic_load(&r->known);
	on = atomic_load(&r->on);
	err = errno;
	was = _mon_prof_incb;
	_mon_prof_incb = 1;
	while (todo != 0) {
		i = (unsigned int)__builtin_ctz(todo);
		bit = 1u << i;
		todo &= ~bit;
		id = r->fn;
		if ((f = atomic_load(&handles[i].filter)) == NULL ||
		    f(handles[i].data, (void *)r->fn, &id) != 0)
			on |= bit;
		r->id[i] = id;
	}
	_mon_prof_incb = was;
	errno = err;
	atomic_store_explicit(&r->on, on, memory_order_release);
	atomic_store_explicit(&r->known, atomic_load(&r->known) | want,
	    memory_order_release);
}

/*
 * fn's record, every handle that hooks calls decided; NULL when no
 * handle does or there is no memory.  For calls.c's slow way: once per
 * function a thread meets, and again when the hooks change; and for
 * pg_fill().  May be called in a signal handler that runs instrumented
 * code.  fnlock is held with every signal blocked: calls.c's hooks of a
 * handler that interrupted one of its thread's record nothing, but a
 * handler's -pg call (pg_call()) is given, and would wait here on its
 * own thread for ever.
 */
const struct _mon_pfn *
_mon_prof_decide(uintptr_t fn, uint32_t *onp)
{
	struct _mon_pfn *r;
	sigset_t all, old;
	uint32_t want;
	int err;

	*onp = 0;
	if ((want = atomic_load(&hooked)) == 0)
		return NULL;
	r = fn_get(fn);
	if (r == NULL || (atomic_load_explicit(&r->known,
	    memory_order_acquire) & want) != want) {
		err = errno;
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		pthread_mutex_lock(&fnlock);
		if ((r = fn_get(fn)) == NULL)
			r = fn_new(fn);
		if (r != NULL)
			fn_decide(r, want);
		pthread_mutex_unlock(&fnlock);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		errno = err;
		if (r == NULL)
			return NULL;
	}
	*onp = atomic_load_explicit(&r->on, memory_order_acquire) & want;
	return r;
}

/*
 * A hooked call's enter: each handle that hooks r's function told;
 * the handles told, for its leave.
 */
uint32_t
_mon_prof_enter(const struct _mon_pfn *r, uintptr_t fn, uintptr_t site)
{
	uint32_t on;

	on = atomic_load_explicit(&r->on, memory_order_acquire);
	_mon_prof_call(r, on, fn, site, 0);
	return on;
}

/*
 * A hooked call's enter or leave given to the handles in on: those
 * its enter was given to, whatever handles were made since.
 */
void
_mon_prof_call(const struct _mon_pfn *r, uint32_t on, uintptr_t fn,
    uintptr_t site, int leave)
{
	mon_profiler_call_fn f;
	unsigned int i;
	int err, was;

	err = errno;
	was = _mon_prof_incb;
	_mon_prof_incb = 1;
	while (on != 0) {
		i = (unsigned int)__builtin_ctz(on);
		on &= on - 1;
		f = leave ? atomic_load_explicit(&handles[i].leave,
		    memory_order_relaxed) : atomic_load_explicit(
		    &handles[i].enter, memory_order_relaxed);
		if (f != NULL)
			f(handles[i].data, (void *)fn, (void *)site, r->id[i]);
	}
	_mon_prof_incb = was;
	errno = err;
}

/* A new entry, as fn_new() makes records; NULL without memory. */
static NOINST struct pgself *
self_new(uintptr_t self, uintptr_t fn, int nested)
{
	struct keytab *t;
	struct pgself *e;

	if ((t = key_room(&selfs)) == NULL)
		return NULL;
	if (selfrecs == NULL || selfrecs->n == RECS) {
		if ((selfrecs = _mon_map(sizeof(*selfrecs))) == NULL)
			return NULL;
	}
	e = &selfrecs->e[selfrecs->n++];
	e->self = self;
	e->fn = fn;
	e->nested = nested;
	key_put(t, e);
	return e;
}

/*
 * The slot of self, filled: the function's entry found or made, and
 * its decision taken, with every signal blocked while a lock may be
 * held -- a handler's instrumented call (calls.c) would wait on it.
 * NULL without memory.  Once per function a thread meets, and again in
 * a new epoch or when another function took its slot.
 */
static NOINST struct pgslot *
pg_fill(struct pgslot *sl, uintptr_t self, int fentry)
{
	const struct _mon_pfn *r;
	struct pgself *e;
	sigset_t all, old;
	uint32_t on, want;
	uintptr_t fn;
	int nested, err;

	e = key_get(atomic_load_explicit(&selfs, memory_order_acquire), self);
	want = atomic_load(&hooked);
	if (e != NULL && (r = fn_get(e->fn)) != NULL &&
	    (atomic_load_explicit(&r->known, memory_order_acquire) & want) ==
	    want)
		goto done;
	err = errno;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (e == NULL) {
		fn = _mon_fn_of(self, fentry, &nested);
		pthread_mutex_lock(&fnlock);
		if ((e = key_get(atomic_load(&selfs), self)) == NULL)
			e = self_new(self, fn, nested);
		pthread_mutex_unlock(&fnlock);
	}
	r = e != NULL ? _mon_prof_decide(e->fn, &on) : NULL;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	errno = err;
	if (e == NULL)
		return NULL;
done:
	sl->self = self;
	sl->fn = e->fn;
	sl->nested = e->nested;
	sl->r = r != NULL && (atomic_load_explicit(&r->on,
	    memory_order_acquire) & want) != 0 ? r : NULL;
	return sl;
}

/*
 * A call of -pg code while a handle has an enter hook (mcount.c): given
 * to the handles that hook its function, unless the thread is in a
 * callback.  self and from as mcount has them; up is the word above
 * from on __fentry__'s stack, the call site of a function gcc pushed
 * r10 for; fentry 1 from __fentry__.
 *
 * A signal handler's call that interrupted its thread here (busy) is
 * given too, as its other calls are: the thread spends most of a
 * hooked call's time here when the functions are short, and dropping
 * those calls lost about half of a handler's enters.  (calls.c cannot
 * do so: a handler's hook that interrupts one of its thread's records
 * nothing.)  The thread's slots are in use -- the call interrupted may
 * be filling the one this call hashes to -- so it is looked up afresh,
 * into a slot on its own stack; pg_fill() takes its locks with every
 * signal blocked, so none is held by the call interrupted.
 */
static NOINST void
pg_call(uintptr_t self, uintptr_t from, uintptr_t up, int fentry)
{
	struct pgslot own, *sl;
	uint32_t g;

	if (_mon_prof_incb)
		return;
	if (pg.busy) {
		sl = pg_fill(&own, self, fentry);
		if (sl != NULL && sl->r != NULL)
			(void)_mon_prof_enter(sl->r, sl->fn,
			    sl->nested ? up : from);
		return;
	}
	pg.busy = 1;
	atomic_signal_fence(memory_order_seq_cst);	/* before the slots */
	if ((g = atomic_load_explicit(&pgen, memory_order_acquire)) !=
	    pg.gen) {
		memset(pg.s, 0, sizeof(pg.s));
		pg.gen = g;
	}
	sl = &pg.s[_mon_hash(self, __builtin_ctz(PGSLOTS))];
	if (sl->self != self)
		sl = pg_fill(sl, self, fentry);
	if (sl != NULL && sl->r != NULL)
		(void)_mon_prof_enter(sl->r, sl->fn, sl->nested ? up : from);
	atomic_signal_fence(memory_order_seq_cst);
	pg.busy = 0;
}

/* A thread made by pthread_create starts (start) or ends. */
void
_mon_prof_thread(int start)
{
	mon_profiler_thread_fn cb;
	pid_t tid;

	if (atomic_load(&nhandles) == 0)
		return;
	tid = _mon_gettid();
	if (start)
		DELIVER(tstart, cb, (DATA, tid));
	else
		DELIVER(tend, cb, (DATA, tid));
}

/* Is any handle registered?  Signal-safe. */
int
_mon_prof_any(void)
{
	return atomic_load(&nhandles) != 0;
}

/*
 * A sample: its thread and stack, pcs[0] the pc.  From the perf
 * clock's drainer thread (ring.c), never a signal handler nor a
 * program thread: a drain made on one queues them for the drainer.
 */
void
_mon_prof_sample(pid_t tid, const uintptr_t *pcs, uint32_t depth)
{
	mon_profiler_sample_fn cb;

	/* None after the process's shutdown was told. */
	if (atomic_load(&nhandles) == 0 ||
	    (shutpid != 0 && shutpid == getpid()))
		return;
	DELIVER(sample, cb, (DATA, tid, (const void *const *)pcs,
	    (size_t)depth));
}

/* The process's profile ends: each handle told once per process. */
void
_mon_prof_shutdown(void)
{
	mon_profiler_event_fn cb;
	pid_t me;

	me = getpid();
	if (atomic_load(&nhandles) == 0 || shutpid == me)
		return;
	shutpid = me;
	DELIVER(shutdown, cb, (DATA));
}

/* A fork child, before it returns from fork(): the locks renewed. */
void
_mon_prof_fork(void)
{
	mon_profiler_event_fn cb;

	_mon_renew_mutex(&hlock);
	_mon_renew_mutex(&fnlock);
	_mon_sym_fork();
	if (atomic_load(&nhandles) == 0)
		return;
	DELIVER(fork, cb, (DATA));
}

/* exec() is about to run path (NULL for fexecve); not a vfork child. */
void
_mon_prof_exec(const char *path)
{
	mon_profiler_exec_fn cb;

	if (atomic_load(&nhandles) == 0)
		return;
	DELIVER(exec, cb, (DATA, path));
}

/* An object loaded by dlopen, or unloaded by dlclose. */
void
_mon_prof_library(const char *path, uintptr_t base, int load)
{
	mon_profiler_library_fn cb;

	if (atomic_load(&nhandles) == 0)
		return;
	if (load)
		DELIVER(loaded, cb, (DATA, path, (const void *)base));
	else
		DELIVER(unloaded, cb, (DATA, path, (const void *)base));
}

/* Code named by mon_perfmap_write(). */
void
_mon_prof_jit(uintptr_t addr, size_t size, const char *name)
{
	mon_profiler_jit_fn cb;

	/* Code named by a callback is not told back: no recursion. */
	if (atomic_load(&nhandles) == 0 || _mon_prof_incb)
		return;
	DELIVER(jit, cb, (DATA, (const void *)addr, size, name));
}

/* A module failed: one line, naming it and the reason. */
static void
module_warn(const char *name, size_t n, const char *why)
{
	char what[256];

	if (n > sizeof(what) - 12)
		n = sizeof(what) - 12;
	memcpy(what, "PROFMODULE ", 11);
	memcpy(what + 11, name, n);
	what[11 + n] = '\0';
	_mon_warn(what, why, 0);
}

/*
 * Load the module spec (name, or name:args; n bytes) and call its
 * entry point.
 */
static void
module_load(const char *spec, size_t n)
{
	char file[1024], entry[256], args[1024], why[300];
	const char *colon, *base, *s;
	size_t nl, bl, k;
	void *lib, *(*open_)(const char *, int), (*init)(const char *);

	colon = memchr(spec, ':', n);
	nl = colon != NULL ? (size_t)(colon - spec) : n;
	k = colon != NULL ? n - nl - 1 : 0;
	if (nl == 0 || nl >= 512 || k >= sizeof(args)) {
		module_warn(spec, n, "not a module name");
		return;
	}
	memcpy(args, colon != NULL ? colon + 1 : "", k);
	args[k] = '\0';
	/* A path's entry is named from its base, less prefix and suffix. */
	base = spec;
	for (s = spec; s < spec + nl; s++)
		if (*s == '/')
			base = s + 1;
	if (base != spec) {
		memcpy(file, spec, nl);
		file[nl] = '\0';
		if ((size_t)(spec + nl - base) > 16 &&
		    memcmp(base, "libmon-profiler-", 16) == 0)
			base += 16;
		for (bl = 0; base + bl < spec + nl && base[bl] != '.'; bl++)
			continue;
	} else {
		memcpy(file, "libmon-profiler-", 16);
		memcpy(file + 16, spec, nl);
		memcpy(file + 16 + nl, ".so", 4);
		bl = nl;
	}
	if (bl == 0 || bl > sizeof(entry) - 24) {
		module_warn(spec, nl, "not a module name");
		return;
	}
	memcpy(entry, "mon_profiler_init_", 18);
	memcpy(entry + 18, base, bl);
	entry[18 + bl] = '\0';
	if (dlsym(RTLD_DEFAULT, "mon_profiler_create") == NULL) {
		module_warn(spec, nl, "the program does not export libmon's"
		    " API (link it with -rdynamic)");
		return;
	}
	/* libc's own: a module is not a library the handles are told of. */
	if ((*(void **)&open_ = _mon_libc("dlopen")) == NULL ||
	    (lib = open_(file, RTLD_NOW | RTLD_GLOBAL)) == NULL) {
		s = dlerror();
		module_warn(spec, nl, s != NULL ? s : "cannot be loaded");
		return;
	}
	if ((*(void **)&init = dlsym(lib, entry)) == NULL) {
		memcpy(why, "no ", 3);
		memcpy(why + 3, entry, 18 + bl);
		memcpy(why + 21 + bl, " in it", 7);
		module_warn(spec, nl, why);
		return;
	}
	init(args);
}

/*
 * PROFMODULE's modules, loaded once per image at the first start, in
 * the order named.  Not in a set-id program (secure_getenv).
 */
void
_mon_prof_modules(void)
{
	const char *s, *e;
	int err;

	if (loaded)
		return;
	loaded = 1;
	if ((s = secure_getenv("PROFMODULE")) == NULL)
		return;
	err = errno;
	for (; *s != '\0'; s = *e == ',' ? e + 1 : e) {
		for (e = s; *e != '\0' && *e != ','; e++)
			continue;
		if (e > s)
			module_load(s, (size_t)(e - s));
	}
	errno = err;
}
