/*
 * stacks.c -- the call stacks the clocks sample, kept as distinct
 * stacks and the samples each got.  A leaf: it calls only util.c.
 *
 * The perf clock's drainer gives the stacks the kernel walked; the
 * signal clocks give the stacks their handler walked (sigprof.c).  Both
 * come here through _mon_stack_add(), which may run in any number of
 * signal handlers at once, so the store takes no lock and never calls
 * malloc:
 *
 *	slots (open hash, SLOTS)           arena (ARENA pcs)
 *	+------+-------+-----+-------+     +-------------------------+
 *	| key  | count | off | depth | --> | pc pc pc | pc pc | ...  |
 *	+------+-------+-----+-------+     +-------------------------+
 *
 * key is 0 for a free slot, BUSY while its claimer copies the pcs into
 * the arena, then a hash of the stack with bit 1 set.  Whoever finds a
 * stack's hash compares the pcs before adding; a slot that is BUSY is
 * passed over, so a handler interrupting a claim on its own thread
 * never waits (the stack may then get a second slot; readers add).
 * When no slot is found within PROBE, or the arena is used up, the
 * samples are counted in lost: bounded memory, degrading by counting.
 * Both areas are mapped at the first start and their pages given back
 * at each reset.  The slots that hold a stack are listed in the order
 * they were filled (order, norder), so that a part reads the few in use
 * and not the whole table: a part every 0.01 s must cost little.
 *
 * A frame-pointer walk misses the caller of a function that has no frame
 * of its own when sampled: at its first instructions, and in the body of
 * a leaf that gcc -pg builds with the frame popped right after the call
 * to mcount, or a library leaf built without frame pointers.  There the
 * return address is the word at the stack pointer; the clocks give that
 * word, and _mon_stack_leafret() says whether it is one -- whether a
 * call instruction ends just before it, from code not libmon's -- so
 * that the caller is put back in its place.  A sample taken in a system
 * call (in the kernel, by the perf clock; as it returns, by a signal)
 * stops in a wrapper, which may have made a frame, without a frame
 * pointer, of a few words, and may have been called by another such
 * wrapper: _mon_stack_callers() looks for their return addresses a
 * little further up, _MON_CALLWORDS words, and checks where each call
 * went.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mon_private.h"

#define SLOTS		_MON_STACKSLOTS
#define ARENA		(1u << 21)	/* pcs kept, all stacks together */
#define PROBE		64
#define BUSY		1

struct sslot {
	_Atomic uint64_t	 key;
	_Atomic uint64_t	 count;
	uint32_t		 off;		/* its pcs: arena[off..] */
	uint32_t		 depth;
	uint32_t		 flags;		/* MONX_STK_* */
	uint32_t		 pad;
};

static struct sslot	*slots;
static _Atomic uint32_t	*order;		/* 1 + index of a slot filled */
static _Atomic uint32_t	 norder;	/* entries of order handed out */
static uint64_t		*arena;
static _Atomic uint32_t	 used;		/* arena pcs handed out */
static _Atomic uint64_t	 lost, cut;
uint32_t		 _mon_stack_limit;	/* frames kept; 0: none */

static uint64_t
hashof(const uintptr_t *pcs, uint32_t depth, uint32_t flags)
{
	uint64_t h;
	uint32_t i;

	h = 0x243f6a8885a308d3u ^ depth ^ (uint64_t)flags << 32;
	for (i = 0; i < depth; i++) {
		h ^= pcs[i];
		h *= 0x9e3779b97f4a7c15u;
		h ^= h >> 29;
	}
	return h | 2;
}

static int
same(const struct sslot *s, const uintptr_t *pcs, uint32_t depth,
    uint32_t flags)
{
	return s->depth == depth && s->flags == flags &&
	    memcmp(&arena[s->off], pcs, depth * sizeof(*pcs)) == 0;
}

/* Take the free slot s for the stack, key h; 1 if it now holds it. */
static int
fill(struct sslot *s, uint64_t h, const uintptr_t *pcs, uint32_t depth,
    uint32_t flags)
{
	uint32_t off;

	off = atomic_fetch_add_explicit(&used, depth, memory_order_relaxed);
	if (off > ARENA - depth) {
		atomic_store(&s->key, 0);
		return 0;
	}
	memcpy(&arena[off], pcs, depth * sizeof(*pcs));
	s->off = off;
	s->depth = depth;
	s->flags = flags;
	atomic_store_explicit(&s->key, h, memory_order_release);
	/* Listed once filled: a slot is filled once a profile. */
	off = atomic_fetch_add_explicit(&norder, 1, memory_order_relaxed);
	if (off < SLOTS)
		atomic_store_explicit(&order[off], (uint32_t)(s - slots) + 1,
		    memory_order_release);
	return 1;
}

/*
 * Add n samples to the stack pcs[0..depth), innermost first.  flags are
 * MONX_STK_*.  Its slot + 1, for _mon_stack_mark(); 0 if it found none.
 * Async-signal-safe, for any number of threads at once.
 */
uint32_t
_mon_stack_add(const uintptr_t *pcs, uint32_t depth, uint32_t flags,
    uint64_t n)
{
	struct sslot *s;
	uint64_t h, k;
	uint32_t i, probe;

	if (slots == NULL || depth == 0)
		return 0;
	if (flags & MONX_STK_CUT)
		atomic_fetch_add_explicit(&cut, n, memory_order_relaxed);
	h = hashof(pcs, depth, flags);
	i = (uint32_t)(h >> 40);
	for (probe = 0; probe < PROBE; probe++, i++) {
		s = &slots[i & (SLOTS - 1)];
		k = atomic_load_explicit(&s->key, memory_order_acquire);
		if (k == 0) {
			if (!atomic_compare_exchange_strong(&s->key, &k, BUSY))
				continue;	/* taken under us: pass on */
			if (!fill(s, h, pcs, depth, flags))
				break;
			k = h;
		}
		if (k == h && same(s, pcs, depth, flags)) {
			atomic_fetch_add_explicit(&s->count, n,
			    memory_order_relaxed);
			return (uint32_t)(s - slots) + 1;
		}
	}
	atomic_fetch_add_explicit(&lost, n, memory_order_relaxed);
	return 0;
}

/*
 * The last stack each thread was sampled in on the CPU, for the wall
 * sampler (wall.c), which can read a running thread's state but not its
 * registers: a word a thread, by its id hashed, the id in its high half
 * and the slot + 1 in its low.  Two threads of one hash take it from
 * each other; the loser is then running with no stack known.  Mapped
 * with the store and wiped by the kernel in a fork child, so that
 * emptying them there writes none of their 32 KiB: each page a child
 * writes is a page fault, paid by a fork that execs at once.
 */
#define LASTS	4096
static _Atomic uint64_t	*lasts;

static _Atomic uint64_t *
last_of(pid_t tid)
{
	return &lasts[((uint32_t)tid * 2654435761u >> 20) % LASTS];
}

/* Thread tid was sampled in slot - 1 (_mon_stack_add()).  Signal-safe. */
void
_mon_stack_mark(pid_t tid, uint32_t slot)
{
	if (slot != 0 && lasts != NULL)
		atomic_store_explicit(last_of(tid), (uint64_t)(uint32_t)tid <<
		    32 | slot, memory_order_relaxed);
}

/*
 * The stack thread tid was last sampled in on the CPU, at most max pcs
 * into pcs, its flags into *flags; its depth, 0 if none is known.
 */
uint32_t
_mon_stack_last(pid_t tid, uintptr_t *pcs, uint32_t max, uint32_t *flags)
{
	struct sslot *s;
	uint64_t v;
	uint32_t d;

	if (lasts == NULL)
		return 0;
	v = atomic_load_explicit(last_of(tid), memory_order_relaxed);
	if (slots == NULL || v >> 32 != (uint32_t)tid || (uint32_t)v == 0 ||
	    (uint32_t)v > SLOTS)
		return 0;
	s = &slots[(uint32_t)v - 1];
	if (atomic_load_explicit(&s->key, memory_order_acquire) <= BUSY)
		return 0;
	d = s->depth < max ? s->depth : max;
	memcpy(pcs, &arena[s->off], d * sizeof(*pcs));
	*flags = s->flags | (d < s->depth ? MONX_STK_CUT : 0);
	return d;
}

/*
 * Empty the store for a new profile, mapping it the first time; with no
 * memory there are no stacks.  Not in signal context, no clock running.
 */
void
_mon_stacks_reset(void)
{
	if (slots == NULL && (slots = _mon_map(SLOTS * sizeof(*slots))) != NULL) {
		if ((arena = _mon_map(ARENA * sizeof(*arena))) == NULL ||
		    (order = _mon_map(SLOTS * sizeof(*order))) == NULL) {
			_mon_unmap(arena, ARENA * sizeof(*arena));
			_mon_unmap(slots, SLOTS * sizeof(*slots));
			slots = NULL;
		} else {
			/* A fork child empties them all: it starts so. */
			_mon_wipe_on_fork(slots, SLOTS * sizeof(*slots));
			_mon_wipe_on_fork(arena, ARENA * sizeof(*arena));
			_mon_wipe_on_fork(order, SLOTS * sizeof(*order));
		}
	}
	if (slots != NULL && lasts == NULL &&
	    (lasts = _mon_map(LASTS * sizeof(*lasts))) != NULL)
		_mon_wipe_on_fork(lasts, LASTS * sizeof(*lasts));
	if (slots != NULL) {
		_mon_rezero(slots, SLOTS * sizeof(*slots));
		_mon_rezero(order, SLOTS * sizeof(*order));
		atomic_store(&norder, 0);
		_mon_rezero(arena, atomic_load(&used) > ARENA ? ARENA *
		    sizeof(*arena) : atomic_load(&used) * sizeof(*arena));
	}
	atomic_store(&used, 0);
	atomic_store(&lost, 0);
	atomic_store(&cut, 0);
	_mon_rezero(lasts, LASTS * sizeof(*lasts));
}

/*
 * Copy the stacks as a STACKS record body (struct monx_stack, then the
 * pcs) into p, at most max bytes; the bytes written.  With p NULL, the
 * bytes it would take.  since, when not NULL, holds each slot's count
 * at the last part: only the samples after it are copied, and now gets
 * the counts copied, the next part's since (a stack that did not fit
 * keeps its old count there, to go in the next part).  Without since,
 * a stack that does not fit is lost.  Only the slots listed as filled
 * are read: one filled but not listed yet has had nothing taken from it,
 * and goes in a later part.
 */
size_t
_mon_stacks_copy(unsigned char *p, size_t max, const uint64_t *since,
    uint64_t *now)
{
	struct monx_stack st;
	struct sslot *s;
	size_t len, need;
	uint64_t c, base;
	uint32_t i, k, n;

	len = 0;
	n = slots == NULL ? 0 : atomic_load(&norder);
	for (k = 0; k < n && k < SLOTS; k++) {
		if ((i = atomic_load_explicit(&order[k],
		    memory_order_acquire)) == 0)
			continue;
		s = &slots[--i];
		c = atomic_load(&s->count);
		base = since != NULL ? since[i] : 0;
		if (now != NULL)
			now[i] = base;
		if (atomic_load_explicit(&s->key, memory_order_acquire) <=
		    BUSY || c <= base)
			continue;
		st.count = c - base;
		st.depth = s->depth;
		st.flags = s->flags;
		need = sizeof(st) + st.depth * sizeof(uint64_t);
		if (p != NULL) {
			if (max - len < need) {
				if (since == NULL)
					atomic_fetch_add(&lost, st.count);
				continue;
			}
			memcpy(p + len, &st, sizeof(st));
			memcpy(p + len + sizeof(st), &arena[s->off],
			    st.depth * sizeof(uint64_t));
			if (now != NULL)
				now[i] = c;
		}
		len += need;
	}
	return len;
}

/*
 * Is w a return address: do the bytes before it end with a call
 * instruction (call rel32; call through a register; call through
 * memory, rip-relative or by a register with an 8- or 32-bit offset)?
 * Read with _mon_peek(), so an address that is not mapped only
 * says no.  Async-signal-safe; errno is the caller's to keep.
 */
int
_mon_stack_retaddr(uintptr_t w)
{
	unsigned char b[8];

	if (w < sizeof(b) || !_mon_peek(getpid(), w - sizeof(b), b, sizeof(b)))
		return 0;
	/* b[8 - k] is the byte k before w; ModRM reg field 2 is call. */
	return b[3] == 0xe8 ||				/* e8 rel32 */
	    (b[2] == 0xff && b[3] == 0x15) ||		/* ff 15 disp32 */
	    (b[6] == 0xff && (b[7] & 0xf8) == 0xd0) ||	/* ff d0+r */
	    (b[6] == 0xff && (b[7] & 0xf8) == 0x10 &&	/* ff 10+r */
	    (b[7] & 7) != 4 && (b[7] & 7) != 5) ||
	    (b[5] == 0xff && (b[6] & 0xf8) == 0x50 &&	/* ff 50+r d8 */
	    (b[6] & 7) != 4) ||
	    (b[4] == 0xff && (b[5] & 0xf8) == 0x50) ||	/* ff 54 sib d8 */
	    (b[2] == 0xff && (b[3] & 0xf8) == 0x90 &&	/* ff 90+r d32 */
	    (b[3] & 7) != 4) ||
	    (b[1] == 0xff && b[2] == 0x94);		/* ff 94 sib d32 */
}

/*
 * Is w, the word at the stack pointer of a sample taken outside a system
 * call, the return address of a function with no frame of its own?  It
 * must return from a call (_mon_stack_retaddr()), and not into libmon's
 * own code, which calls no function of the program's that could be such
 * a leaf, but whose call counting runs below the frame of every function
 * the program calls: a word a frame leaves unwritten (clang's padding)
 * can be a return address into it from the call that function counted.
 * Async-signal-safe; errno is the caller's to keep.
 */
int
_mon_stack_leafret(uintptr_t w)
{
	return !_mon_in_self(w) && _mon_in_text(w) && _mon_stack_retaddr(w);
}

/* The 8 bytes at a, as an address; 0 where they cannot be read. */
static uintptr_t
peek_word(uintptr_t a)
{
	uint64_t v;

	return _mon_peek(getpid(), a, &v, sizeof(v)) ? (uintptr_t)v : 0;
}

/*
 * Where the call that returns to w went: call rel32, through a PLT stub
 * (endbr64, bnd, jmp *disp32(%rip)) to the GOT's function, or call
 * *disp32(%rip) straight through the GOT; 0 where it cannot be told (a
 * call through a register).  w is a return address.
 */
static uintptr_t
call_target(uintptr_t w)
{
	unsigned char b[11];
	uintptr_t t;
	int32_t d;
	int k;

	if (!_mon_peek(getpid(), w - 6, b, 6))
		return 0;
	if (b[0] == 0xff && b[1] == 0x15) {
		memcpy(&d, b + 2, sizeof(d));
		return peek_word(w + (uintptr_t)(intptr_t)d);
	}
	if (b[1] != 0xe8)
		return 0;
	memcpy(&d, b + 2, sizeof(d));
	t = w + (uintptr_t)(intptr_t)d;
	if (!_mon_peek(getpid(), t, b, sizeof(b)))
		return t;
	k = b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa ?
	    4 : 0;
	k += b[k] == 0xf2;
	if (b[k] != 0xff || b[k + 1] != 0x25)
		return t;
	memcpy(&d, b + k + 2, sizeof(d));
	return peek_word(t + (uintptr_t)k + 6 + (uintptr_t)(intptr_t)d);
}

/* call_target(), for the wall sampler's walks (wall.c). */
uintptr_t
_mon_stack_target(uintptr_t w)
{
	return call_target(w);
}

/*
 * Is user pc where a thread went into a system call: right after a
 * syscall instruction?  Async-signal-safe; errno is the caller's.
 */
int
_mon_stack_syscall(uintptr_t pc)
{
	unsigned char b[2];

	return pc >= sizeof(b) && _mon_peek(getpid(), pc - sizeof(b), b,
	    sizeof(b)) && b[0] == 0x0f && b[1] == 0x05;
}

/*
 * The callers of the system call wrapper at user pc (_mon_stack_syscall)
 * when the frame-pointer walk cannot see them: a wrapper keeps no frame
 * pointer, and libc's make a frame of their own as soon as the process
 * has a second thread (cancellation), so that the return address is not
 * at the stack pointer but a few words up, among words left there by
 * earlier calls.  So a word of w[0..n) (the user stack from its pointer
 * up) is taken only if it returns from a call to a function that starts
 * at most CALLSPAN bytes before the last pc taken, a wrapper's size; and
 * the search goes on from there, for a wrapper may be called by another
 * that keeps no frame pointer either (nanosleep calls __clock_nanosleep:
 * the program's function is the second caller found).  It ends once the
 * walk's own next return address (next; 0 where the walk has none, which
 * the null words of the stack are not) is met: the function had a frame,
 * and the walk has its caller.  At most max into out; how many.
 * Async-signal-safe; errno is the caller's to keep.
 */
#define CALLSPAN	1024
size_t
_mon_stack_callers(const uint64_t *w, size_t n, uintptr_t pc, uintptr_t next,
    uintptr_t *out, size_t max)
{
	uintptr_t t;
	size_t i, k;

	for (i = k = 0; i < n && k < max; i++) {
		if (next != 0 && w[i] == next)
			break;
		if (!_mon_in_text(w[i]) || !_mon_stack_retaddr(w[i]))
			continue;
		t = call_target(w[i]);
		if (t != 0 && t <= pc && pc - t < CALLSPAN)
			pc = out[k++] = w[i];
	}
	return k;
}

/*
 * A part is written: since takes now's counts, for the slots listed
 * (the others are 0 in both).
 */
void
_mon_stacks_settle(uint64_t *since, const uint64_t *now)
{
	uint32_t i, k, n;

	n = slots == NULL ? 0 : atomic_load(&norder);
	for (k = 0; k < n && k < SLOTS; k++)
		if ((i = atomic_load(&order[k])) != 0)
			since[i - 1] = now[i - 1];
}

/* n samples that come with no stack.  Not in signal context. */
void
_mon_stacks_lose(uint64_t n)
{
	atomic_fetch_add(&lost, n);
}

/* Samples whose stack found no place; samples whose stack was cut. */
uint64_t
_mon_stacks_lost(void)
{
	return atomic_load(&lost);
}

uint64_t
_mon_stacks_cut(void)
{
	return atomic_load(&cut);
}
