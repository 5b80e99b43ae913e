/*
 * calls.c -- the time of every call, measured, for code compiled with
 * -finstrument-functions: __cyg_profile_func_enter and _exit.
 *
 * The compiler calls enter(fn, site) as fn starts and exit(fn, site) as
 * it returns.  Each thread keeps a shadow stack of the calls it is in
 * and a table of what they cost, both its own: the hooks take no lock
 * and write nothing another thread writes.
 *
 *	cur (per thread)
 *	  |
 *	  v
 *	struct thr --frames--> [frame 0][frame 1]...[frame depth-1]  DEPTH
 *	  |                         fn, site, ra, t0, child, fe, ae, last
 *	  +--hash--> [ent *] open addressing, owner-only, load <= 1/2
 *	  +--chunks--> [ent ent ent ... CHUNK] -> [ent ...] -> ...
 *	                function entries (fn, FNKEY) and calling contexts
 *	                (callee, its parent context's name): calls,
 *	                inclusive, self, min, max
 *
 * Entries never move once made, so frames and contexts point at them;
 * the hash that finds them is the owner's alone and is remade larger,
 * the old one unmapped, as it fills.  A frame remembers the context of
 * its latest callee (last), and a context its callee's function entry
 * (fe) and its parent (up): a call made again from the same caller
 * finds both entries with one compare.  A new frame starts with the
 * context its own context's frames called last (out), so that the
 * first call of each (a loop's of its body) needs no look-up either.
 * The writer sums the contexts into functions and arcs, and writes
 * them too, each named by its stack (monx_ctx()), so that threads'
 * contexts of one stack add up.
 *
 * Time: the TSC where the CPU's is invariant, else CLOCK_MONOTONIC
 * through the vDSO -- wall time either way.  A call's inclusive time is
 * from its enter to its exit; its self time is that less its callees'
 * inclusive times.  A function on the stack more than once (recursion)
 * adds its inclusive time only as its outermost frame closes, and an
 * arc likewise, by its outermost context; self time is added by every
 * frame.  The calls are counted at enter.
 *
 * Frames that an unwind skipped (longjmp, an exception, swapcontext)
 * are found by where their return addresses lie (ra): a live caller's
 * lies above its callee's.  Entering, frames whose ra is at or below
 * the new call's are gone; leaving, frames whose ra is below the exit
 * hook's own return address are, and one at it of another function
 * (left_behind(): a void function may jump to the exit hook as it returns, and
 * the hook then returns through the function's own return address).
 * Either way they are closed with their time so
 * far and counted as unwound.  A function the compiler inlined shares
 * its caller's ra and site, and stays on.
 *
 * A signal handler that runs instrumented code pushes its calls on the
 * same stack, above the interrupted function; a hook entered while a
 * hook of the same thread runs (busy) records nothing and is counted as
 * missed.  A thread that ends folds its table into the process's (proc,
 * under foldlock, never on the hot path) and leaves its memory to the
 * next thread.  The writer reads every thread's table and stack as they
 * stand, under foldlock, and counts the frames still open with their
 * time so far.  Nothing here calls malloc; errno is left as it was.
 *
 * Profilers (profiler.c, mon_profiler(3C)): a function entry holds the
 * profilers' decision for its function (pf), made as the entry is, and
 * ENT_HOOK when a handle takes its calls.  The fast way of enter gives
 * such a call to the handles after pushing its frame, and notes whom it
 * was given to in the thread's hooks, beside the stack and tagged with
 * the frame's start, for its leave, given however the frame is closed:
 * the frames stay a cache line each, and only calls of a function with
 * ENT_HOOK look there.  When hooks change, profiler.c starts a new epoch
 * (pgen): a thread whose entries were decided in another (t->pgen) is
 * refused the fast way -- the compare that stood for "no TSC", folded
 * into fastgen -- until its slow way has decided them again.  A hook
 * entered while a profiler's callback runs (_mon_prof_incb) gives the
 * call to no handle; inside an enter, leave or filter, whose thread is
 * busy, it records nothing and is not counted as missed.
 *
 * Knobs, read once at the first start: PROFCALLS (callspec.c) decides
 * per function, as its entry is made, whether it is timed; one that is
 * not has ENT_OFF and no frame, its hooks return after finding it as
 * the caller's last context (or, having called others, in the hash),
 * and its time is its caller's, as an inlined function's; its contexts
 * count towards CTXMAX all the same.  PROFDEPTH lowers the
 * depth beyond which calls are only counted (deep).  PROFSLOW keeps
 * each thread's slowest whole calls over a threshold, with the
 * functions on its stack, in a set of its own (struct slowset, made at
 * its first); the compare is the exit's last act, once the length is
 * known, and the writer takes the process's slowest from every set.
 */
#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "mon_private.h"

#define DEPTH		4096		/* frames a thread's stack holds */
#define CHUNK		1024		/* entries a chunk holds */
#define HASH0		1024		/* slots of a thread's first hash */
#define SCAN		64		/* words searched for the return
					   address above the hook's frame */
#define FNKEY		(~(uintptr_t)0)	/* caller key of a function entry */
#define ENT_OFF		1u		/* not timed (for a filter to set) */
#define ENT_HOOK	2u		/* a profiler hooks it (profiler.c) */
#define ENT_INNER	4u		/* a context of an arc that a context
					   above it on its stack has too */
#define ENT_OVER	8u		/* a context made past CTXMAX: its
					   stack not known, the calls of its
					   function from its caller */
#define CTXMAX		(1u << 16)	/* contexts a thread makes, at most */
#define SUMCTXMAX	(2 * CTXMAX)	/* and the process's sums hold */
#define NOGEN		UINT32_MAX	/* a thread in no profile */
#define SLOWKEEP	128		/* slowest calls a thread keeps, and
					   a file holds */
#define SLOWSTK		32		/* functions of a slow call's stack */
#define SLOWMAX		3600000000L	/* PROFSLOW's largest: an hour */

#define NOINST		__attribute__((no_instrument_function))
#define HOT		__attribute__((no_instrument_function))
#define COLD		__attribute__((no_instrument_function, noinline))
#define INLINE		__attribute__((no_instrument_function, always_inline))
/*
 * Reading the instrumented function's frame for its return address
 * reads memory a sanitizer poisons around the frame's locals.
 */
#define NOASAN		__attribute__((no_sanitize_address))

/*
 * A calling context's entry -- a callee called with one stack of
 * functions above it, its parent context (up) the caller's -- counts
 * its calls and times; a function's only its frames open and its
 * inclusive time, which recursion keeps from being the sum of its
 * contexts'.  A stack holds a context once, so that a context's every
 * call adds its inclusive time.  The rest of a function's -- calls,
 * self time, shortest, longest, unwound -- and every arc's are its
 * contexts' summed by the writer, an arc's inclusive time from the
 * outermost context of each stack that holds it (ENT_INNER, decided as
 * a context is made): fewer counts to keep a call.  A context made past
 * CTXMAX (ENT_OVER) stands for its function's calls from one caller
 * along any stack not seen before, as an arc did: it is counted in its
 * inclusive time by its outermost frame (active).
 */
struct ent {
	uintptr_t	 a;		/* the callee */
	uintptr_t	 b;		/* a context's: up's name (monx_ctx()),
					   0 at a thread's root; one past
					   CTXMAX, its caller ^
					   MONX_CTX_OVER; a function's FNKEY */
	struct ent	*fe;		/* a context's: the callee's entry */
	struct ent	*up;		/* a context's: its parent, or NULL */
	uint64_t	 calls;
	uint64_t	 incl;		/* ticks; a function's, outermost
					   frames only */
	uint64_t	 self;
	uint64_t	 min, max;	/* of a whole call; min ~0: none */
	uint32_t	 active;	/* its frames open: a context's 1 at
					   most, but for one ENT_OVER */
	uint32_t	 unwound;	/* its calls an unwind closed */
	uint32_t	 flags;		/* a function's ENT_OFF, ENT_HOOK; a
					   context's ENT_INNER, ENT_OVER */
	uint32_t	 raoff;		/* a function's: its return address
					   from the enter hook's frame, 0:
					   not known */
	struct ent	*out;		/* a context's: the context of its
					   latest callee */
	const struct _mon_pfn *pf;	/* a function's: the profilers'
					   decision, NULL for none */
};

struct chunk {
	struct chunk	*next;
	_Atomic uint32_t n;		/* entries made, published last */
	struct ent	 e[CHUNK];
};

struct frame {
	uintptr_t	 fn;
	uintptr_t	 site;
	uintptr_t	 ra;		/* where fn's return address lies */
	uint64_t	 t0;		/* the start's tick: carried over it */
	uint64_t	 child;		/* ticks in its callees */
	struct ent	*fe, *ae;	/* its function's and its context's */
	struct ent	*last;		/* the context of its latest callee */
};

/* A frame's enter given to profilers: their decision, for its leave. */
struct hook {
	const struct _mon_pfn *pf;	/* NULL: none */
	uint64_t	 tag;		/* the frame's t0 */
	uint32_t	 on;		/* the handles given it */
};

/* The counters of what was not timed as a whole call. */
struct lost {
	uint64_t	 missed;	/* a hook inside a hook: a handler */
	uint64_t	 unwound;	/* frames an unwind closed */
	uint64_t	 unmatched;	/* exits of no frame */
	uint64_t	 deep;		/* calls beyond DEPTH */
	uint64_t	 nomem;		/* calls with no entry to go to */
};

/* A slow call kept (PROFSLOW), its stack innermost first. */
struct slow {
	_Atomic uint32_t	 seq;		/* odd while written, 0: never */
	uint32_t		 tid;
	uint32_t		 depth;		/* functions in fn */
	uint32_t		 cut;		/* outer ones lost */
	uint64_t		 t0, el;	/* its start and length, ticks */
	uintptr_t		 fn[SLOWSTK];
};

/* The slowest calls of a thread, or of the threads that ended. */
struct slowset {
	uint64_t		 over;		/* calls over the threshold */
	uint32_t		 n;		/* kept */
	uint32_t		 min;		/* the shortest kept, once full */
	struct slow		 s[SLOWKEEP];
};

struct thr {
	struct thr		*next;		/* every thread's, ever */
	_Atomic pid_t		 owner;		/* 0: free */
	_Atomic uint32_t	 gen;		/* the profile it counts in */
	volatile sig_atomic_t	 busy;
	uint32_t		 pgen;		/* the hooks' epoch its function
						   entries are decided in */
	_Atomic uint32_t	 depth;		/* frames in use */
	uint32_t		 over;		/* calls open and untimed above */
	struct frame		*frames;
	struct hook		*hooks;		/* DEPTH, made at the first */
	struct ent		*rootlast;	/* context of the last call at
						   depth 0 */
	struct slowset		*slow;		/* PROFSLOW's, made at the first */
	struct ent		**hash;
	size_t			 hmask;		/* slots - 1 */
	size_t			 nent;
	size_t			 nctx;		/* of them contexts */
	struct chunk		*chunks;	/* the first */
	struct chunk		*fill;		/* the one entries go to */
	struct lost		 lost;
};

/* The process's: the tables of the threads that ended, summed. */
struct sum {
	struct monx_timed	 m;
	uint64_t		 mark;		/* the writer's: a stack seen */
};
struct sumtab {
	struct sum		*s;
	size_t			 mask;		/* slots - 1, or 0 without */
	size_t			 n;
	size_t			 nctx;		/* of them contexts */
};

static struct thr	 none = { .gen = NOGEN };	/* not set up */
static struct thr	 gone = { .gen = NOGEN };	/* ended: never again */
static __thread struct thr *cur __attribute__((tls_model("initial-exec"))) =
    &none;
static __thread volatile sig_atomic_t setting
    __attribute__((tls_model("initial-exec")));

static _Atomic(struct thr *) thrs;		/* the list of them all */
static _Atomic uint32_t	 rungen;		/* 0: not timing; else lastgen */
static uint32_t		 lastgen;		/* the profile's generation */
static int		 usetsc = -1;		/* the clock; -1: not chosen */
static _Atomic uint32_t	 pgen;			/* the hooks' epoch, 0: none */
static _Atomic uint32_t	 fastgen = NOGEN;	/* pgen with the TSC, else
						   NOGEN: no fast way */
static uint64_t		 tick0, ns0;		/* at the start */
static pthread_mutex_t	 foldlock = PTHREAD_MUTEX_INITIALIZER;
static struct sumtab	 proc;			/* under foldlock */
static struct lost	 proclost;		/* under foldlock */
static uint32_t		 nthreads;		/* that timed, under foldlock */
static struct slowset	*procslow;		/* under foldlock */
static uint32_t		 maxdepth = DEPTH;	/* PROFDEPTH */
static uint64_t		 slowticks = UINT64_MAX; /* PROFSLOW, in ticks */
static uint64_t		 slowns;		/* and in ns, 0: none */
static int		 spec;			/* PROFCALLS chooses */

extern const char _mon_link_cygstart;
__attribute__((used)) static const char *const pull = &_mon_link_cygstart;

/* CLOCK_MONOTONIC in ns; the vDSO's, no system call. */
static inline NOINST uint64_t
mono(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline NOINST uint64_t
ticks(void)
{
	if (usetsc)
		return __rdtsc();
	return mono();
}

/* An invariant TSC: it runs at one rate in every P-, C- and T-state. */
static NOINST int
tsc_invariant(void)
{
	unsigned int a, b, c, d;

	if (__get_cpuid(0x80000000, &a, &b, &c, &d) == 0 || a < 0x80000007)
		return 0;
	if (__get_cpuid(0x80000007, &a, &b, &c, &d) == 0)
		return 0;
	return (d >> 8) & 1;
}

/* A tick and CLOCK_MONOTONIC at the same moment, give or take. */
static NOINST void
clock_pair(uint64_t *tk, uint64_t *ns)
{
	uint64_t a, b;

	a = ticks();
	*ns = mono();
	b = ticks();
	*tk = a + (b - a) / 2;
}

/*
 * Slot for key (a, b) in a table of mask + 1 slots, a power of 2: the
 * high bits of the product, which mix every bit of the key (functions
 * are aligned, and their low bits alike).
 */
static inline NOINST size_t
slot(uintptr_t a, uintptr_t b, size_t mask)
{
	/* Its bits, by ctz: popcount would call libgcc's, outside libmon. */
	return _mon_hash(a ^ (b * 0xff51afd7ed558ccdu),
	    (unsigned int)__builtin_ctzll((unsigned long long)mask + 1));
}

/*
 * The thread's hash remade twice as large, from the entries; 0, or -1
 * without memory.  The old one is the owner's alone: it goes at once.
 */
static COLD int
rehash(struct thr *t)
{
	struct ent **h;
	struct chunk *c;
	size_t n, i, k, mask;

	n = t->hash == NULL ? HASH0 : (t->hmask + 1) * 2;
	if ((h = _mon_map(n * sizeof(*h))) == NULL)
		return -1;
	mask = n - 1;
	for (c = t->chunks; c != NULL; c = c->next)
		for (i = 0; i < atomic_load_explicit(&c->n,
		    memory_order_relaxed); i++) {
			k = slot(c->e[i].a, c->e[i].b, mask);
			while (h[k] != NULL)
				k = (k + 1) & mask;
			h[k] = &c->e[i];
		}
	if (t->hash != NULL)
		_mon_unmap(t->hash, (t->hmask + 1) * sizeof(*h));
	t->hash = h;
	t->hmask = mask;
	return 0;
}

/*
 * Function entry e's hooks, from the profilers' decision for its
 * function (made now if it is the first thread to meet it).
 */
static COLD void
hook_decide(struct ent *e)
{
	uint32_t on;

	e->pf = _mon_prof_decide(e->a, &on);
	if (e->pf != NULL && on != 0)
		e->flags |= ENT_HOOK;
	else
		e->flags &= ~ENT_HOOK;
}

/*
 * The hooks changed (a new epoch): every function entry of t's decided
 * again.  Owner only, busy.
 */
static COLD void
hook_sync(struct thr *t)
{
	struct chunk *c;
	uint32_t i, n;

	t->pgen = atomic_load(&pgen);
	for (c = t->chunks; c != NULL; c = c->next) {
		n = atomic_load_explicit(&c->n, memory_order_relaxed);
		for (i = 0; i < n; i++)
			if (c->e[i].b == FNKEY)
				hook_decide(&c->e[i]);
	}
}

/*
 * Context e's caller: its parent's callee, or the one its key holds
 * past the limit; 0 at a thread's root.
 */
static inline NOINST uintptr_t
ctx_caller(const struct ent *e)
{
	if ((e->flags & ENT_OVER) != 0)
		return e->b ^ MONX_CTX_OVER;
	return e->up != NULL ? e->up->a : 0;
}

/* Context e's parent's name, as the file has it. */
static inline NOINST uint64_t
ctx_parent(const struct ent *e)
{
	return (e->flags & ENT_OVER) != 0 ? MONX_CTX_OVER : e->b;
}

/*
 * Is an arc caller -> a, caller being up's callee, made in a context
 * above up or in up itself?  (Recursion: the arc's inclusive time is
 * then counted in that outermost context's.)  Decided once, as a
 * context is made: its stack does not change.
 */
static COLD int
ctx_inner(const struct ent *up, uintptr_t a)
{
	const struct ent *m;

	for (m = up; m != NULL; m = m->up)
		if (m->a == a && ctx_caller(m) == up->a)
			return 1;
	return 0;
}

/*
 * A new entry (a, b); a context's parent up, function entry fe and
 * flags, all set before the entry is published to the writer.  NULL
 * without memory.
 */
static COLD struct ent *
ent_new(struct thr *t, uintptr_t a, uintptr_t b, struct ent *up,
    struct ent *fe, uint32_t flags)
{
	struct chunk *c;
	struct ent *e;
	uint32_t n;
	size_t k;

	if ((t->nent + 1) * 2 > t->hmask + 1 && rehash(t) != 0)
		return NULL;
	c = t->fill;
	if ((n = atomic_load_explicit(&c->n, memory_order_relaxed)) ==
	    CHUNK) {
		if (c->next == NULL &&
		    (c->next = _mon_map(sizeof(*c))) == NULL)
			return NULL;
		t->fill = c = c->next;
		n = 0;
	}
	e = &c->e[n];
	memset(e, 0, sizeof(*e));
	e->a = a;
	e->b = b;
	e->up = up;
	e->fe = fe;
	e->flags = flags;
	e->min = UINT64_MAX;
	if (b != FNKEY) {
		t->nctx++;
		if (up != NULL && ctx_inner(up, a))
			e->flags |= ENT_INNER;
	}
	/*
	 * A function's entry is made once per thread and profile: where a
	 * filter is to decide once per function (PROFCALLS, a profiler's),
	 * it sets ENT_OFF here, and the hooks leave the function be; the
	 * profilers' hooks are decided here.
	 */
	if (b == FNKEY && spec && _mon_callspec_off(a))
		e->flags |= ENT_OFF;
	if (b == FNKEY && atomic_load_explicit(&pgen, memory_order_relaxed) !=
	    0)
		hook_decide(e);
	atomic_store_explicit(&c->n, n + 1, memory_order_release);
	k = slot(a, b, t->hmask);
	while (t->hash[k] != NULL)
		k = (k + 1) & t->hmask;
	t->hash[k] = e;
	t->nent++;
	return e;
}

/* The entry (a, b) if there is one. */
static NOINST struct ent *
ent_get(struct thr *t, uintptr_t a, uintptr_t b)
{
	struct ent *e;
	size_t k;

	for (k = slot(a, b, t->hmask); (e = t->hash[k]) != NULL;
	    k = (k + 1) & t->hmask)
		if (e->a == a && e->b == b)
			return e;
	return NULL;
}

/* Function a's entry, made now if need be; NULL without memory. */
static inline NOINST struct ent *
fn_find(struct thr *t, uintptr_t a)
{
	struct ent *e;

	if ((e = ent_get(t, a, FNKEY)) != NULL)
		return e;
	return ent_new(t, a, FNKEY, NULL, NULL, 0);
}

/*
 * The context of fn called in context up (NULL: at the thread's root),
 * with its function's entry; NULL without memory.  A thread that has
 * made CTXMAX contexts makes no more: a call along a new stack goes to
 * the one context of its function and caller past the limit (ENT_OVER),
 * whose stack is not known, so that its calls and times are kept.
 */
static NOINST struct ent *
ctx_find(struct thr *t, struct ent *up, uintptr_t fn)
{
	struct ent *ae, *fe;
	uintptr_t b, over;

	b = up != NULL ? monx_ctx(up->b, up->a) : 0;
	if ((ae = ent_get(t, fn, b)) != NULL)
		return ae;
	if ((fe = fn_find(t, fn)) == NULL)
		return NULL;
	if (t->nctx < CTXMAX)
		return ent_new(t, fn, b, up, fe, 0);
	/*
	 * Keyed by its caller, which a context's name, a hash, is as
	 * likely to be as any other number.
	 */
	over = (up != NULL ? up->a : 0) ^ MONX_CTX_OVER;
	if ((ae = ent_get(t, fn, over)) != NULL)
		return ae;
	return ent_new(t, fn, over, NULL, fe, ENT_OVER);
}

/*
 * The slot of set ss for a call of el ticks, or NULL if it is not among
 * the slowest: a free one, else the shortest's, if shorter.
 */
static NOINST struct slow *
slow_slot(struct slowset *ss, uint64_t el)
{
	if (ss->n < SLOWKEEP)
		return &ss->s[ss->n++];
	if (el <= ss->s[ss->min].el)
		return NULL;
	return &ss->s[ss->min];
}

/* The shortest of a full set found again, after a slot was taken. */
static NOINST void
slow_min(struct slowset *ss)
{
	uint32_t i;

	if (ss->n < SLOWKEEP)
		return;
	for (i = 0, ss->min = 0; i < SLOWKEEP; i++)
		if (ss->s[i].el < ss->s[ss->min].el)
			ss->min = i;
}

/*
 * Keep the call of frame d, el ticks long, just closed (the frames up
 * to d are as they were), among t's slowest (PROFSLOW), with the
 * functions on t's stack.  The owner alone writes
 * a slot; seq tells the writer, who reads it from another thread, to
 * pass it by while it is being written.  Busy.
 */
static COLD void
slow_keep(struct thr *t, uint32_t d, uint64_t el)
{
	struct slowset *ss;
	struct slow *s;
	uint32_t i, q;

	if ((ss = t->slow) == NULL &&
	    (ss = t->slow = _mon_map(sizeof(*t->slow))) == NULL)
		return;
	ss->over++;
	if ((s = slow_slot(ss, el)) == NULL)
		return;
	q = atomic_load_explicit(&s->seq, memory_order_relaxed);
	atomic_store_explicit(&s->seq, q | 1, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	s->tid = (uint32_t)atomic_load_explicit(&t->owner,
	    memory_order_relaxed);
	s->t0 = t->frames[d].t0;
	s->el = el;
	for (i = 0; i <= d && i < SLOWSTK; i++)
		s->fn[i] = t->frames[d - i].fn;
	s->depth = i;
	s->cut = d + 1 > SLOWSTK;
	atomic_store_explicit(&s->seq, (q | 1) + 1, memory_order_release);
	slow_min(ss);
}

/*
 * Is context ae, one past the limit on frame d, inside a frame of a
 * context of its arc made before the limit?  That context counts the
 * arc's inclusive time, as the outermost.  (A context made before the
 * limit is never inside one made after it.)
 */
static COLD int
over_inner(const struct thr *t, uint32_t d, const struct ent *ae)
{
	uintptr_t caller = ctx_caller(ae);
	uint32_t i;

	for (i = 0; i < d; i++)
		if (t->frames[i].fn == ae->a &&
		    (i > 0 ? t->frames[i - 1].fn : 0) == caller)
			return 1;
	return 0;
}

/*
 * Close the top frame at now: its time to its entries and its caller's
 * children.  A frame an unwind skipped, or one carried over the start,
 * was not a whole call: no shortest or longest.
 */
static inline INLINE void
close_top(struct thr *t, uint64_t now, int unwound)
{
	struct frame *f;
	struct ent *fe, *ae;
	uint32_t d;
	uint64_t el, self;

	d = atomic_load_explicit(&t->depth, memory_order_relaxed) - 1;
	f = &t->frames[d];
	el = now - f->t0;
	self = el - f->child;
	fe = f->fe;
	ae = f->ae;
	ae->self += self;
	if (--fe->active == 0)
		fe->incl += el;
	if (--ae->active == 0 && ((ae->flags & ENT_OVER) == 0 ||
	    !over_inner(t, d, ae)))
		ae->incl += el;
	if (__builtin_expect(unwound, 0)) {
		ae->unwound++;
		t->lost.unwound++;
	} else if (__builtin_expect(f->t0 != tick0, 1)) {
		if (el < ae->min)
			ae->min = el;
		if (el > ae->max)
			ae->max = el;
	}
	if (d > 0)
		t->frames[d - 1].child += el;
	atomic_store_explicit(&t->depth, d, memory_order_release);
	/*
	 * PROFSLOW's compare, never true without it, last: nothing is
	 * kept live across the call, which costs the hot path nothing.
	 */
	if (__builtin_expect(el > slowticks, 0) && !unwound &&
	    f->t0 != tick0)
		slow_keep(t, d, el);
}

/*
 * Close the top frame, and give its leave to the profilers that had its
 * enter.  For every way but exit's fast one, which takes no call of a
 * function a profiler hooks.
 */
static COLD void
close_hooked(struct thr *t, uint64_t now, int unwound)
{
	const struct _mon_pfn *pf;
	struct frame *f;
	struct hook *h;
	uintptr_t fn, site;
	uint32_t d, on;

	d = atomic_load_explicit(&t->depth, memory_order_relaxed) - 1;
	f = &t->frames[d];
	h = t->hooks != NULL ? &t->hooks[d] : NULL;
	if (h == NULL || (pf = h->pf) == NULL || h->tag != f->t0) {
		close_top(t, now, unwound);
		return;
	}
	h->pf = NULL;
	fn = f->fn;
	site = f->site;
	on = h->on;
	close_top(t, now, unwound);
	_mon_prof_call(pf, on, fn, site, 1);
}

/* Empty t's counts and stack: a thread new to it, or a profile's start. */
static NOINST void
thr_clear(struct thr *t)
{
	struct chunk *c;
	uint32_t n;

	for (c = t->chunks; c != NULL; c = c->next) {
		if ((n = atomic_load(&c->n)) > 0)
			_mon_rezero(c->e, n * sizeof(struct ent));
		atomic_store(&c->n, 0);
	}
	t->fill = t->chunks;
	if (t->hash != NULL)
		_mon_rezero(t->hash, (t->hmask + 1) * sizeof(*t->hash));
	t->nent = 0;
	t->nctx = 0;
	t->rootlast = NULL;
	memset(&t->lost, 0, sizeof(t->lost));
	if (t->slow != NULL)
		_mon_rezero(t->slow, sizeof(*t->slow));
}

/* A thread's memory for the calling thread, tid; NULL without any. */
static COLD struct thr *
thr_take(pid_t tid)
{
	struct thr *t;
	pid_t o;

	for (t = atomic_load(&thrs); t != NULL; t = t->next) {
		o = 0;
		if (atomic_compare_exchange_strong(&t->owner, &o, tid)) {
			thr_clear(t);
			if (t->hooks != NULL)
				_mon_rezero(t->hooks,
				    DEPTH * sizeof(*t->hooks));
			atomic_store(&t->depth, 0);
			t->over = 0;
			return t;
		}
	}
	if ((t = _mon_map(sizeof(*t))) == NULL)
		return NULL;
	t->frames = _mon_map(DEPTH * sizeof(struct frame));
	t->chunks = t->fill = _mon_map(sizeof(struct chunk));
	if (t->frames == NULL || t->chunks == NULL || rehash(t) != 0) {
		_mon_unmap(t->frames, DEPTH * sizeof(struct frame));
		_mon_unmap(t->chunks, sizeof(struct chunk));
		_mon_unmap(t, sizeof(*t));
		return NULL;
	}
	atomic_store(&t->gen, NOGEN);
	atomic_store(&t->owner, tid);
	t->next = atomic_load(&thrs);
	while (!atomic_compare_exchange_weak(&thrs, &t->next, t))
		;
	return t;
}

/*
 * Counts of an earlier profile (a start, a fork) go; the frames open
 * stay, as calls carried over: their time from the start on counts,
 * their call does not (it was made before).
 */
static COLD void
rebase(struct thr *t, uint32_t g)
{
	struct frame *f;
	uint32_t d, i;

	thr_clear(t);
	d = atomic_load(&t->depth);
	for (i = 0; i < d; i++) {
		f = &t->frames[i];
		f->ae = ctx_find(t, i > 0 ? f[-1].ae : NULL, f->fn);
		if (f->ae == NULL) {
			d = i;		/* no memory: the rest are dropped */
			break;
		}
		f->fe = f->ae->fe;
		f->fe->active++;
		f->ae->active++;
		/* Its leave is still to be given, whatever the profile. */
		if (t->hooks != NULL && t->hooks[i].pf != NULL &&
		    t->hooks[i].tag == f->t0)
			t->hooks[i].tag = tick0;
		f->t0 = tick0;
		f->child = 0;
		f->last = NULL;
	}
	atomic_store(&t->depth, d);
	atomic_store_explicit(&t->gen, g, memory_order_release);
}

/*
 * The hooks' slow way in: the thread set up, or brought to the
 * profile running; NULL when nothing is timed, or while a handler
 * interrupted this (setting).
 */
static COLD struct thr *
sync_thread(void)
{
	struct thr *t;
	uint32_t g;

	if ((g = atomic_load(&rungen)) == 0 || (t = cur) == &gone || setting)
		return NULL;
	setting = 1;
	atomic_signal_fence(memory_order_seq_cst);
	if (t == &none && (t = thr_take(_mon_gettid())) != NULL)
		cur = t;
	if (t != NULL && t != &none && atomic_load(&t->gen) != g)
		rebase(t, g);
	atomic_signal_fence(memory_order_seq_cst);
	setting = 0;
	return t == &none || t == NULL || atomic_load(&t->gen) != g ? NULL : t;
}

/*
 * Where fn's return address lies: the first word above the hook's
 * frame (cfa) that holds it, within SCAN words; else cfa.  A callee's
 * return address lies below its caller's.
 */
static inline INLINE NOASAN uintptr_t
ra_of(uintptr_t cfa, uintptr_t site)
{
	const uintptr_t *p;
	int i;

	p = (const uintptr_t *)cfa;
	for (i = 0; i < SCAN; i++)
		if (p[i] == site)
			return (uintptr_t)&p[i];
	return cfa;
}

/*
 * Frames at the top that cannot be callers of a call whose return
 * address lies at ra, site: an unwind left them.  An inlined callee
 * shares its caller's ra and site; the same function there again is a
 * new call.
 */
static COLD void
unwound_enter(struct thr *t, uintptr_t fn, uintptr_t ra, uintptr_t site,
    uint64_t now)
{
	struct frame *f;
	uint32_t d;

	while ((d = atomic_load_explicit(&t->depth, memory_order_relaxed)) >
	    0) {
		f = &t->frames[d - 1];
		if (f->ra > ra || (f->ra == ra && f->site == site &&
		    f->fn != fn))
			break;
		close_hooked(t, now, 1);
		t->over = 0;
	}
}

/* Push a frame for a call of fn, its entries found.  Busy. */
static inline INLINE void
push(struct thr *t, uint32_t d, uintptr_t fn, uintptr_t site, uintptr_t ra,
    struct ent *ae, uint64_t (*clock)(void))
{
	struct frame *f;
	struct ent *fe;

	fe = ae->fe;
	fe->active++;
	ae->calls++;
	ae->active++;
	f = &t->frames[d];
	f->fn = fn;
	f->site = site;
	f->ra = ra;
	f->child = 0;
	f->fe = fe;
	f->ae = ae;
	f->last = ae->out;	/* a frame calls what the last one of its
				   context did */
	f->t0 = clock();
	atomic_store_explicit(&t->depth, d + 1, memory_order_release);
}

static inline INLINE uint64_t
tsc(void)
{
	return __rdtsc();
}

/*
 * The calling thread marked busy, for a hook's fast way; NULL if the
 * slow way must take the call: the thread is not set up for this
 * profile, a hook of its own is running (a handler's call), there is
 * no TSC, or the profilers' hooks changed since it last decided.
 */
static inline INLINE struct thr *
fast_begin(void)
{
	struct thr *t = cur;

	if (atomic_load_explicit(&t->gen, memory_order_relaxed) !=
	    atomic_load_explicit(&rungen, memory_order_relaxed) || t->busy ||
	    t->pgen != atomic_load_explicit(&fastgen, memory_order_relaxed))
		return NULL;
	t->busy = 1;
	atomic_signal_fence(memory_order_seq_cst);
	return t;
}

/*
 * The calling thread, set up for this profile if need be and marked
 * busy, for a hook's slow way; NULL if it cannot count (no memory), or
 * if a hook of its own is running -- a signal handler's call, counted
 * as missed, or a profiler's callback's, not.
 */
static COLD struct thr *
slow_begin(void)
{
	struct thr *t;

	t = cur;
	if (atomic_load(&t->gen) != atomic_load(&rungen) &&
	    (t = sync_thread()) == NULL)
		return NULL;
	if (t->busy) {
		/* A profiler's callback calling instrumented code is not. */
		if (!_mon_prof_incb)
			t->lost.missed++;
		return NULL;
	}
	t->busy = 1;
	atomic_signal_fence(memory_order_seq_cst);
	if (__builtin_expect(t->pgen != atomic_load_explicit(&pgen,
	    memory_order_relaxed), 0))
		hook_sync(t);
	return t;
}

/*
 * A hooked call's enter, of frame d, given to the profilers and noted
 * for its leave.  Its time starts after them: a profiler's cost is not
 * its.  Without memory for the notes it is given to none.
 */
static COLD void
hook_enter(struct thr *t, uint32_t d, const struct _mon_pfn *pf,
    uintptr_t fn, uintptr_t site)
{
	struct hook *h;

	if (t->hooks == NULL &&
	    (t->hooks = _mon_map(DEPTH * sizeof(*t->hooks))) == NULL)
		return;
	h = &t->hooks[d];
	h->on = _mon_prof_enter(pf, fn, site);
	h->pf = pf;
	h->tag = t->frames[d].t0 = ticks();
}

/*
 * The whole of enter, for every call the fast way does not take: the
 * thread to set up, a handler inside a hook, frames to close, a first
 * call from a caller, the stack full, no TSC.  cfa: the hook's frame.
 */
static COLD NOASAN void
enter_slow(uintptr_t fn, uintptr_t site, uintptr_t cfa)
{
	struct thr *t;
	struct frame *p;
	struct ent *ae;
	uintptr_t ra;
	uint32_t d;

	if ((t = slow_begin()) == NULL)
		return;
	ra = ra_of(cfa, site);
	d = atomic_load_explicit(&t->depth, memory_order_relaxed);
	if (d > 0 && t->frames[d - 1].ra <= ra) {
		unwound_enter(t, fn, ra, site, ticks());
		d = atomic_load_explicit(&t->depth, memory_order_relaxed);
	}
	if (t->over > 0 || d >= maxdepth) {
		if (d >= maxdepth)
			t->lost.deep++;
		t->over++;
		goto out;
	}
	p = d > 0 ? &t->frames[d - 1] : NULL;
	ae = p != NULL ? p->last : t->rootlast;
	if (ae == NULL || ae->a != fn) {
		if ((ae = ctx_find(t, p != NULL ? p->ae : NULL, fn)) == NULL) {
			t->lost.nomem++;
			t->over++;
			goto out;
		}
		if (p != NULL)
			p->last = p->ae->out = ae;
		else
			t->rootlast = ae;
	}
	/* The fast way finds the return address there next time. */
	if (ra != cfa)
		ae->fe->raoff = (uint32_t)(ra - cfa);
	if ((ae->fe->flags & ENT_OFF) == 0) {
		push(t, d, fn, site, ra, ae, ticks);
		if ((ae->fe->flags & ENT_HOOK) != 0 && !_mon_prof_incb)
			hook_enter(t, d, ae->fe->pf, fn, site);
	}
out:
	atomic_signal_fence(memory_order_seq_cst);
	t->busy = 0;
}

/*
 * fn is called from site.  The fast way: the thread set up, the TSC,
 * the call made again from the caller on top (its last context), its
 * return address where it was the last time, no frame to close.  No
 * lock, no call, nothing shared written.
 */
_mon_public HOT NOASAN void
__cyg_profile_func_enter(void *fnp, void *sitep)
{
	struct thr *t;
	struct frame *p;
	struct ent *ae, *fe;
	uintptr_t fn, site, cfa, ra;
	uint32_t d;

	fn = (uintptr_t)fnp;
	site = (uintptr_t)sitep;
	cfa = (uintptr_t)__builtin_frame_address(0) + 16;
	if (__builtin_expect((t = fast_begin()) == NULL, 0))
		goto slow;
	d = atomic_load_explicit(&t->depth, memory_order_relaxed);
	if (__builtin_expect(d - 1 >= maxdepth - 1 || t->over > 0, 0))
		goto unbusy;
	p = &t->frames[d - 1];
	ae = p->last;
	if (__builtin_expect(ae == NULL || ae->a != fn, 0))
		goto unbusy;
	fe = ae->fe;
	ra = cfa + fe->raoff;
	if (__builtin_expect(fe->raoff == 0 || *(const uintptr_t *)ra != site ||
	    p->ra <= ra, 0))
		goto unbusy;
	if (__builtin_expect(fe->flags != 0, 0)) {
		/* Not timed (PROFCALLS): its frame is its caller's. */
		if (fe->flags & ENT_OFF)
			goto done;
		/* A profiler's function, outside its callbacks: hooked. */
		if (fe->flags != ENT_HOOK || _mon_prof_incb)
			goto unbusy;
		push(t, d, fn, site, ra, ae, tsc);
		hook_enter(t, d, fe->pf, fn, site);
		atomic_signal_fence(memory_order_seq_cst);
		t->busy = 0;
		return;
	}
	push(t, d, fn, site, ra, ae, tsc);
done:
	atomic_signal_fence(memory_order_seq_cst);
	t->busy = 0;
	return;
unbusy:
	atomic_signal_fence(memory_order_seq_cst);
	t->busy = 0;
slow:
	enter_slow(fn, site, cfa);
}

/*
 * An exit that is not of the top frame: frames below the hook's own
 * (cfa) were left by an unwind; calls beyond the stack are counted
 * down; an exit of no frame, or of a function not timed, is let be.
 */
/*
 * Is frame f left behind, as fn's exit hook finds it with its frame at cfa?
 * A live frame's return address lies above the hook's own return
 * address, at cfa - 8 -- or in it, when fn jumped to the hook as it
 * returned (gcc and clang end a void function so at -O2), and then f is
 * fn's.  One lower was left by an unwind, as is one there of another
 * function: a callee called where the hook was.
 */
static inline NOINST int
left_behind(const struct frame *f, uintptr_t fn, uintptr_t cfa)
{
	return f->ra < cfa - 8 || (f->ra == cfa - 8 && f->fn != fn);
}

static COLD void
exit_slow(struct thr *t, uintptr_t fn, uintptr_t cfa, uint64_t now)
{
	struct frame *f;
	struct ent *e;
	uint32_t d;

	d = atomic_load_explicit(&t->depth, memory_order_relaxed);
	if (t->over > 0) {
		if (d == 0 || cfa < t->frames[d - 1].ra) {
			t->over--;
			return;
		}
		t->over = 0;
	}
	while (d > 0 && left_behind(&t->frames[d - 1], fn, cfa)) {
		close_hooked(t, now, 1);
		d--;
	}
	f = d > 0 ? &t->frames[d - 1] : NULL;
	if (f != NULL && f->fn == fn) {
		close_hooked(t, now, 0);
		return;
	}
	if ((e = ent_get(t, fn, FNKEY)) == NULL || (e->flags & ENT_OFF) == 0)
		t->lost.unmatched++;
}

/* The whole of exit, for what the fast way does not take. */
static COLD void
exit_full(uintptr_t fn, uintptr_t cfa)
{
	struct thr *t;

	if ((t = slow_begin()) == NULL)
		return;
	exit_slow(t, fn, cfa, ticks());
	atomic_signal_fence(memory_order_seq_cst);
	t->busy = 0;
}

/* fn returns.  The fast way: its frame on top, the TSC. */
_mon_public HOT void
__cyg_profile_func_exit(void *fnp, void *sitep)
{
	struct thr *t;
	struct frame *f;
	uintptr_t fn, cfa;
	uint32_t d;

	(void)sitep;
	fn = (uintptr_t)fnp;
	cfa = (uintptr_t)__builtin_frame_address(0) + 16;
	if (__builtin_expect((t = fast_begin()) == NULL, 0))
		goto slow;
	d = atomic_load_explicit(&t->depth, memory_order_relaxed);
	if (__builtin_expect(d == 0 || t->over > 0, 0))
		goto unbusy;
	f = &t->frames[d - 1];
	if (__builtin_expect(f->fn != fn || f->ra < cfa - 8, 0)) {
		/*
		 * A function not timed (PROFCALLS) returns to the caller on
		 * top, whose latest callee it was.
		 */
		if (f->ra > cfa - 8 && f->last != NULL && f->last->a == fn &&
		    (f->last->fe->flags & ENT_OFF) != 0)
			goto done;
		goto unbusy;
	}
	if (__builtin_expect(f->fe->flags != 0, 0))
		close_hooked(t, __rdtsc(), 0);
	else
		close_top(t, __rdtsc(), 0);
done:
	atomic_signal_fence(memory_order_seq_cst);
	t->busy = 0;
	return;
unbusy:
	atomic_signal_fence(memory_order_seq_cst);
	t->busy = 0;
slow:
	exit_full(fn, cfa);
}

/* The sum table s made to hold n keys or more; -1 without memory. */
static NOINST int
sum_reserve(struct sumtab *s, size_t n)
{
	struct sumtab ns;
	size_t i, k, len;

	if (s->mask != 0 && (s->n + n) * 2 <= s->mask + 1)
		return 0;
	for (len = 1024; len < (s->n + n) * 2; len *= 2)
		;
	if ((ns.s = _mon_map(len * sizeof(*ns.s))) == NULL)
		return -1;
	ns.mask = len - 1;
	ns.n = s->n;
	ns.nctx = s->nctx;
	for (i = 0; s->mask != 0 && i <= s->mask; i++) {
		if (s->s[i].m.callee == 0)
			continue;
		k = slot(s->s[i].m.callee, s->s[i].m.caller, ns.mask);
		while (ns.s[k].m.callee != 0)
			k = (k + 1) & ns.mask;
		ns.s[k] = s->s[i];
	}
	if (s->mask != 0)
		_mon_unmap(s->s, (s->mask + 1) * sizeof(*s->s));
	*s = ns;
	return 0;
}

/*
 * The sum of key (callee, caller, kind), new if need be; room reserved.
 * A context new to a table that holds SUMCTXMAX is summed as one past
 * the limit instead (MONX_CTX_OVER), its stack lost: threads whose
 * stacks differ, one after the other, would otherwise grow the
 * process's sums, and the file, without end.
 */
static NOINST struct sum *
sum_at(struct sumtab *s, uint64_t callee, uint64_t caller, uint32_t kind)
{
	struct sum *e;
	size_t k;

	for (;;) {
		for (k = slot(callee, caller, s->mask); s->s[k].m.callee != 0;
		    k = (k + 1) & s->mask)
			if (s->s[k].m.callee == callee &&
			    s->s[k].m.caller == caller &&
			    s->s[k].m.kind == kind)
				return &s->s[k];
		if (kind != MONX_TM_CTX || s->nctx < SUMCTXMAX ||
		    caller == MONX_CTX_OVER)
			break;
		caller = MONX_CTX_OVER;
	}
	e = &s->s[k];
	e->m.kind = kind;
	e->m.callee = callee;
	e->m.caller = caller;
	e->m.min = UINT64_MAX;
	s->n++;
	if (kind == MONX_TM_CTX)
		s->nctx++;
	return e;
}

static NOINST void
sum_add(struct sumtab *s, const struct monx_timed *m)
{
	struct sum *e;

	e = sum_at(s, m->callee, m->caller, m->kind);
	e->m.calls += m->calls;
	e->m.incl += m->incl;
	e->m.self += m->self;
	e->m.open += m->open;
	e->m.unwound += m->unwound;
	if (m->min < e->m.min)
		e->m.min = m->min;
	if (m->max > e->m.max)
		e->m.max = m->max;
}

/* The entry e of a thread's table as the file has it. */
static NOINST void
ent_timed(const struct ent *e, struct monx_timed *m)
{
	memset(m, 0, sizeof(*m));
	m->kind = e->b == FNKEY ? MONX_TM_FUNC : MONX_TM_CTX;
	m->callee = e->a;
	m->caller = e->b == FNKEY ? 0 : ctx_parent(e);
	m->calls = e->calls;
	m->incl = e->incl;
	m->self = e->self;
	m->min = e->min;
	m->max = e->max;
	m->unwound = e->unwound;
}

/* An entry of a function not timed (PROFCALLS), or a context of one. */
static inline NOINST int
ent_off(const struct ent *e)
{
	const struct ent *fe = e->b == FNKEY ? e : e->fe;

	return fe != NULL && (fe->flags & ENT_OFF) != 0;
}

/* The entries t has made, as another thread may count them. */
static NOINST size_t
thr_entries(struct thr *t)
{
	struct chunk *c;
	size_t n;

	for (n = 0, c = t->chunks; c != NULL; c = c->next)
		n += atomic_load_explicit(&c->n, memory_order_acquire);
	return n;
}

/*
 * Every entry of t into s; -1 without memory.  A context's counts go
 * to it, to its arc (its inclusive time only where it is the arc's
 * outermost) and to its function, whose inclusive time is its own.
 */
static NOINST int
fold_entries(struct thr *t, struct sumtab *s)
{
	struct monx_timed m;
	struct chunk *c;
	struct ent *e;
	uint32_t i, n;

	for (c = t->chunks; c != NULL; c = c->next) {
		n = atomic_load_explicit(&c->n, memory_order_acquire);
		if (n > CHUNK || sum_reserve(s, 3 * (size_t)n) != 0)
			return -1;
		for (i = 0; i < n; i++) {
			e = &c->e[i];
			if (ent_off(e))
				continue;
			ent_timed(e, &m);
			if (m.kind == MONX_TM_CTX) {
				sum_add(s, &m);
				m.kind = MONX_TM_ARC;
				m.caller = ctx_caller(e);
				if ((e->flags & ENT_INNER) != 0)
					m.incl = 0;
				sum_add(s, &m);
				m.kind = MONX_TM_FUNC;
				m.caller = 0;
				m.incl = 0;
			}
			sum_add(s, &m);
		}
	}
	return 0;
}

/*
 * A slow call s into set ss, if it is among the slowest; what seq
 * says is being written, or never was, is not.
 */
static NOINST void
slow_add(struct slowset *ss, const struct slow *s)
{
	struct slow c, *to;
	uint32_t q;

	q = atomic_load_explicit(&s->seq, memory_order_acquire);
	if (q == 0 || (q & 1) != 0)
		return;
	c.tid = s->tid;
	c.t0 = s->t0;
	c.el = s->el;
	c.depth = s->depth;
	c.cut = s->cut;
	memcpy(c.fn, s->fn, sizeof(c.fn));
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&s->seq, memory_order_relaxed) != q ||
	    c.depth == 0 || c.depth > SLOWSTK || (to = slow_slot(ss, c.el)) ==
	    NULL)
		return;
	to->tid = c.tid;
	to->t0 = c.t0;
	to->el = c.el;
	to->depth = c.depth;
	to->cut = c.cut;
	memcpy(to->fn, c.fn, sizeof(to->fn));
	atomic_store_explicit(&to->seq, 2, memory_order_relaxed);
	slow_min(ss);
}

/* Set from (a thread's) into ss: its count, its calls.  */
static NOINST void
slow_merge(struct slowset *ss, const struct slowset *from)
{
	uint32_t i, n;

	if (from == NULL)
		return;
	ss->over += from->over;
	n = from->n < SLOWKEEP ? from->n : SLOWKEEP;
	for (i = 0; i < n; i++)
		slow_add(ss, &from->s[i]);
}

/* An ending thread's slow calls into the process's.  Under foldlock. */
static NOINST void
slow_fold(const struct slowset *from)
{
	if (from == NULL || from->over == 0)
		return;
	if (procslow == NULL && (procslow = _mon_map(sizeof(*procslow))) ==
	    NULL)
		return;
	slow_merge(procslow, from);
}

static NOINST void
lost_add(struct lost *to, const struct lost *l)
{
	to->missed += l->missed;
	to->unwound += l->unwound;
	to->unmatched += l->unmatched;
	to->deep += l->deep;
	to->nomem += l->nomem;
}

/*
 * The calling thread ends (thread.c, through the lifecycle; not in a
 * handler): its open frames are closed as unwound -- pthread_exit() or
 * a cancellation left them -- its counts go into the process's, and
 * its memory to the next thread.  Calls it makes after this are not
 * timed.
 */
void
_mon_calls_thread_end(void)
{
	struct thr *t;
	uint64_t now;

	if ((t = cur) == &none || t == &gone)
		return;
	cur = &gone;
	t->busy = 1;
	atomic_signal_fence(memory_order_seq_cst);
	if (atomic_load(&t->gen) == lastgen) {
		now = ticks();
		while (atomic_load(&t->depth) > 0)
			close_hooked(t, now, 1);
		pthread_mutex_lock(&foldlock);
		if (fold_entries(t, &proc) != 0)
			proclost.nomem += t->nent;
		lost_add(&proclost, &t->lost);
		slow_fold(t->slow);
		nthreads++;
		atomic_store(&t->gen, NOGEN);
		pthread_mutex_unlock(&foldlock);
	}
	atomic_store(&t->gen, NOGEN);
	thr_clear(t);
	atomic_store(&t->depth, 0);
	t->over = 0;
	t->busy = 0;
	atomic_store(&t->owner, 0);
}

/*
 * Ticks in a nanosecond, measured over a millisecond of sleep: the TSC
 * is invariant, and the error of the pairs is some 10^-4 of that.
 */
static NOINST double
tick_rate(void)
{
	struct timespec ms = { 0, 1000000 };
	uint64_t t0, n0, t1, n1;
	int err;

	if (!usetsc)
		return 1;
	err = errno;
	clock_pair(&t0, &n0);
	do {
		(void)nanosleep(&ms, NULL);
		clock_pair(&t1, &n1);
	} while (n1 - n0 < 1000000);
	errno = err;
	return (double)(t1 - t0) / (double)(n1 - n0);
}

/*
 * The knobs, read once per process with the clock: PROFCALLS
 * (callspec.c), PROFDEPTH, PROFSLOW.  A bad value is one line, and
 * the default stays.  Set-id programs ignore them.
 */
static NOINST void
knobs(void)
{
	long v;

	spec = _mon_callspec_init();
	maxdepth = (uint32_t)_mon_env_number("PROFDEPTH", 1, DEPTH, DEPTH,
	    "not a depth from 1 to 4096; recording 4096 deep");
	v = _mon_env_number("PROFSLOW", 1, SLOWMAX, 0,
	    "not a time from 1 to 3600000000 microseconds; keeping no slow "
	    "calls");
	if (v > 0) {
		slowns = (uint64_t)v * 1000;
		slowticks = (uint64_t)((double)slowns * tick_rate());
	}
}

/*
 * A new profile: every count goes -- the process's now, each thread's
 * as it next calls -- and the clock is read for the start.  Not timing
 * until _mon_calls_on(1).  Caller holds proflock.
 */
void
_mon_calls_reset(void)
{
	if (usetsc < 0) {
		usetsc = tsc_invariant();
		knobs();
	}
	pthread_mutex_lock(&foldlock);
	if (procslow != NULL)
		_mon_rezero(procslow, sizeof(*procslow));
	atomic_store(&fastgen, usetsc == 1 ? atomic_load(&pgen) : NOGEN);
	if (proc.mask != 0)
		_mon_unmap(proc.s, (proc.mask + 1) * sizeof(*proc.s));
	memset(&proc, 0, sizeof(proc));
	memset(&proclost, 0, sizeof(proclost));
	nthreads = 0;
	if (++lastgen == NOGEN)
		lastgen = 1;
	clock_pair(&tick0, &ns0);
	pthread_mutex_unlock(&foldlock);
}

/*
 * The profilers' hooks changed (profiler.c): epoch e, 0 when no handle
 * has any.  Each thread's fast way stops until it has decided its
 * functions for e.
 */
void
_mon_calls_hooked(uint32_t e)
{
	pthread_mutex_lock(&foldlock);
	atomic_store(&pgen, e);
	atomic_store(&fastgen, usetsc == 1 ? e : NOGEN);
	pthread_mutex_unlock(&foldlock);
}

/* Time calls (on), or not; the profile stays as it is. */
void
_mon_calls_on(int on)
{
	atomic_store(&rungen, on ? lastgen : 0);
}

/*
 * A fork child: only the calling thread exists; the others' memory is
 * free, and the profile starts again from zero with the frames this
 * thread has open carried over.
 */
void
_mon_calls_fork(void)
{
	struct thr *t;

	_mon_renew_mutex(&foldlock);
	_mon_callspec_fork();
	for (t = atomic_load(&thrs); t != NULL; t = t->next)
		if (t != cur) {
			atomic_store(&t->gen, NOGEN);
			atomic_store(&t->owner, 0);
		}
	if (cur != &none && cur != &gone)
		atomic_store(&cur->owner, _mon_gettid());
	_mon_calls_reset();
	_mon_calls_on(1);
}

/*
 * The frames open on t's stack into s, as calls with their time so
 * far; a function (or arc) open more than once adds its inclusive time
 * once, from its outermost frame, and a context, open once, adds it.
 * mark tells t's frames from others'.
 */
static NOINST void
fold_open(struct thr *t, struct sumtab *s, uint64_t now, uint64_t mark)
{
	struct frame *f;
	struct sum *e[3];
	uint64_t el, inner, self;
	uint32_t d, i, k;

	d = atomic_load_explicit(&t->depth, memory_order_acquire);
	if (d > DEPTH || sum_reserve(s, 3 * (size_t)d) != 0)
		return;
	for (i = 0; i < d; i++) {
		f = &t->frames[i];
		if (f->fn == 0 || f->ae == NULL)
			continue;
		el = now > f->t0 ? now - f->t0 : 0;
		inner = i + 1 < d && now > f[1].t0 ? now - f[1].t0 : 0;
		self = el > f->child + inner ? el - f->child - inner : 0;
		e[0] = sum_at(s, f->fn, 0, MONX_TM_FUNC);
		e[1] = sum_at(s, f->fn, i > 0 ? f[-1].fn : 0, MONX_TM_ARC);
		e[2] = sum_at(s, f->fn, ctx_parent(f->ae), MONX_TM_CTX);
		for (k = 0; k < 3; k++) {
			e[k]->m.open++;
			e[k]->m.self += self;
			if (e[k]->mark != mark) {
				e[k]->m.incl += el;
				e[k]->mark = mark;
			}
		}
	}
}

/*
 * The CLOCKS and TIMED records, into p (cap bytes); their length.  The
 * functions go first, then the arcs, then the contexts, so that a
 * table too big for a record keeps what the report and the call graph
 * need; the contexts left out are counted in CLOCKS.
 */
static NOINST size_t
records(unsigned char *p, size_t cap, const struct sumtab *s,
    const struct monx_clocks *ck)
{
	static const uint32_t order[] = { MONX_TM_FUNC, MONX_TM_ARC,
	    MONX_TM_CTX };
	struct monx_clocks c;
	struct monx_rec r;
	struct monx_timed *m;
	size_t len, i, n, k;

	c = *ck;
	len = sizeof(r) + sizeof(c);
	n = 0;
	m = (struct monx_timed *)(p + len + sizeof(r));
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (i = 0; s->mask != 0 && i <= s->mask; i++) {
			if (s->s[i].m.callee == 0 || s->s[i].m.kind != order[k])
				continue;
			if (len + sizeof(r) + (n + 1) * sizeof(*m) > cap) {
				if (order[k] == MONX_TM_CTX)
					c.ctxcut++;
				continue;
			}
			m[n] = s->s[i].m;
			if (m[n].min == UINT64_MAX)
				m[n].min = 0;
			n++;
		}
	r.type = MONX_R_CLOCKS;
	r.len = sizeof(c);
	memcpy(p, &r, sizeof(r));
	memcpy(p + sizeof(r), &c, sizeof(c));
	if (n == 0)
		return len;
	r.type = MONX_R_TIMED;
	r.len = (uint32_t)(n * sizeof(*m));
	memcpy(p + len, &r, sizeof(r));
	return len + sizeof(r) + r.len;
}

/* Ticks t of the clocks ck as CLOCK_MONOTONIC ns (a length if !at). */
static NOINST uint64_t
slow_ns(const struct monx_clocks *ck, uint64_t t, int at)
{
	unsigned __int128 v;

	if (ck->tick1 <= ck->tick0)
		return 0;
	v = (unsigned __int128)(at ? t - ck->tick0 : t) *
	    (ck->ns1 - ck->ns0) / (ck->tick1 - ck->tick0);
	return (at ? ck->ns0 : 0) + (uint64_t)v;
}

/* Bytes the SLOW record may take, at most. */
#define SLOWCAP	(sizeof(struct monx_rec) + sizeof(struct monx_slowhead) + \
	SLOWKEEP * (sizeof(struct monx_slow) + SLOWSTK * sizeof(uint64_t)))

/* The SLOW record of the calls in ss, into p (SLOWCAP bytes); its length. */
static NOINST size_t
slow_record(unsigned char *p, const struct slowset *ss,
    const struct monx_clocks *ck)
{
	struct monx_slowhead h;
	struct monx_slow m;
	struct monx_rec r;
	const struct slow *s;
	size_t len, i, k;
	uint64_t pc;

	memset(&h, 0, sizeof(h));
	h.threshold_ns = slowns;
	h.over = ss != NULL ? ss->over : 0;
	h.keep = SLOWKEEP;
	len = sizeof(r) + sizeof(h);
	for (i = 0; ss != NULL && i < ss->n; i++) {
		s = &ss->s[i];
		memset(&m, 0, sizeof(m));
		m.start_ns = slow_ns(ck, s->t0, 1);
		m.dur_ns = slow_ns(ck, s->el, 0);
		m.tid = s->tid;
		m.depth = (uint16_t)s->depth;
		m.flags = s->cut ? MONX_STK_CUT : 0;
		memcpy(p + len, &m, sizeof(m));
		len += sizeof(m);
		for (k = 0; k < s->depth; k++, len += sizeof(pc)) {
			pc = s->fn[k];
			memcpy(p + len, &pc, sizeof(pc));
		}
		h.ncalls++;
	}
	r.type = MONX_R_SLOW;
	r.len = (uint32_t)(len - sizeof(r));
	memcpy(p, &r, sizeof(r));
	memcpy(p + sizeof(r), &h, sizeof(h));
	return len;
}

/*
 * The measured calls as records (CLOCKS, TIMED) in fresh memory: *p,
 * *len bytes, *maplen mapped; the caller unmaps it.  Each thread's
 * table and open frames as they stand, the threads that ended, the
 * clock read now against the start.  -1 when nothing was timed or
 * there is no memory.  Caller holds proflock, or writes the last part.
 */
int
_mon_calls_collect(unsigned char **p, size_t *len, size_t *maplen)
{
	struct monx_clocks ck;
	struct slowset *ss;
	struct sumtab s;
	struct lost l;
	struct thr *t;
	uint64_t now, mark;
	size_t cap, i, n, scap;
	uint32_t g;

	if (usetsc < 0 || lastgen == 0)
		return -1;
	/* PROFSLOW's: the process's slowest, from every thread's. */
	ss = slowns != 0 ? _mon_map(sizeof(*ss)) : NULL;
	scap = slowns != 0 ? SLOWCAP : 0;
	memset(&s, 0, sizeof(s));
	memset(&ck, 0, sizeof(ck));
	*p = NULL;
	pthread_mutex_lock(&foldlock);
	g = lastgen;
	l = proclost;
	ck.threads = nthreads;
	clock_pair(&now, &ck.ns1);
	/*
	 * Room at once for the process's keys and the most entries a
	 * thread has (threads mostly share their functions, arcs and
	 * contexts): grown a chunk at a time, a big table would be remade
	 * and faulted in again and again.
	 */
	n = 0;
	for (t = atomic_load(&thrs); t != NULL; t = t->next)
		if (atomic_load(&t->owner) != 0 &&
		    atomic_load_explicit(&t->gen, memory_order_acquire) == g &&
		    thr_entries(t) > n)
			n = thr_entries(t);
	if (sum_reserve(&s, proc.n + n) != 0)
		goto out;
	for (i = 0; proc.mask != 0 && i <= proc.mask; i++)
		if (proc.s[i].m.callee != 0)
			sum_add(&s, &proc.s[i].m);
	if (ss != NULL)
		slow_merge(ss, procslow);
	mark = 0;
	for (t = atomic_load(&thrs); t != NULL; t = t->next) {
		if (atomic_load(&t->owner) == 0 ||
		    atomic_load_explicit(&t->gen, memory_order_acquire) != g)
			continue;
		if (fold_entries(t, &s) != 0)
			goto out;
		fold_open(t, &s, now, ++mark);
		lost_add(&l, &t->lost);
		if (ss != NULL)
			slow_merge(ss, t->slow);
		ck.threads++;
	}
	ck.clock = usetsc ? MONX_TK_TSC : MONX_TK_MONO;
	ck.depth = maxdepth;
	ck.tick0 = tick0;
	ck.ns0 = ns0;
	ck.tick1 = now;
	ck.missed = l.missed;
	ck.unwound = l.unwound;
	ck.unmatched = l.unmatched;
	ck.deep = l.deep;
	ck.nomem = l.nomem;
	cap = 2 * sizeof(struct monx_rec) + sizeof(ck) +
	    s.n * sizeof(struct monx_timed);
	if (cap > MONX_MAXLEN / 2)
		cap = MONX_MAXLEN / 2;
	if ((*p = _mon_map(cap + scap)) != NULL) {
		*len = records(*p, cap, &s, &ck);
		if (scap != 0)
			*len += slow_record(*p + *len, ss, &ck);
		*maplen = cap + scap;
	}
out:
	pthread_mutex_unlock(&foldlock);
	if (s.mask != 0)
		_mon_unmap(s.s, (s.mask + 1) * sizeof(*s.s));
	_mon_unmap(ss, sizeof(*ss));
	return *p != NULL ? 0 : -1;
}
