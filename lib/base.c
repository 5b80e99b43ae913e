/*
 * base.c -- counts by key, for the snapshots: what each count stood at
 * when the last part was written (a baseline), so that the next part
 * holds only what came since.  A leaf: it calls only util.c.
 *
 * The counts of a running profile only grow -- the per-thread call
 * tables are incremented by their owners with no lock, and may not be
 * reset from another thread -- so a part is the difference between the
 * counts read now and the baseline, and the baseline then becomes what
 * was read.  Read twice, a count can only have grown, so nothing is lost
 * or counted twice between parts, whatever the program's threads do
 * meanwhile.
 *
 * Keys are byte strings: an address (cells, samples outside), two
 * addresses (arcs), a whole stack.  Records of one kind are fixed-size,
 * the key at their start and a 64-bit count at a known offset:
 *
 *	_mon_base_fold()	sum the records of the same key, in place
 *	_mon_base_delta()	each record's count less the baseline's
 *	_mon_base_reserve()	room for the commit, taken before a write
 *	_mon_base_commit()	the counts read become the baseline
 *	_mon_base_get(), _mon_base_set()	one key, for records whose
 *				keys are not of one length (stacks)
 *	_mon_base_add(), _mon_base_bump(), _mon_base_next()	a count
 *				kept by key (wall.c): added to, by key or
 *				by the entry it has, and read back in order
 *
 * The table is an open hash of offsets into an arena of entries, both
 * from mmap: no malloc, so it may be used by a termination handler's
 * write.  Callers serialise.
 */
#include <stdint.h>
#include <string.h>

#include "mon_private.h"

struct entry {
	uint64_t	hash;
	uint64_t	count;
	uint32_t	len;		/* key bytes that follow, then padding */
	uint32_t	pad;
};

#define ROUND8(n)	(((n) + 7) & ~(size_t)7)
#define ENTLEN(len)	(sizeof(struct entry) + ROUND8(len))

static uint64_t
hashkey(const unsigned char *k, size_t len)
{
	uint64_t h;
	size_t i;

	h = 0xcbf29ce484222325ULL ^ len;
	for (i = 0; i < len; i++)
		h = (h ^ k[i]) * 0x100000001b3ULL;
	return h ^ h >> 29;
}

static struct entry *
at(const struct _mon_keys *t, uint64_t off)
{
	return (struct entry *)(t->arena + off);
}

/* The slot of key in t's index: its entry's or the free one it would take. */
static uint64_t *
slot(const struct _mon_keys *t, const void *key, size_t len, uint64_t h)
{
	struct entry *e;
	size_t i, mask;

	mask = t->nslot - 1;
	for (i = h & mask;; i = (i + 1) & mask) {
		if (t->slots[i] == 0)
			return &t->slots[i];
		e = at(t, t->slots[i] - 1);
		if (e->hash == h && e->len == len &&
		    memcmp(e + 1, key, len) == 0)
			return &t->slots[i];
	}
}

/* An index of n slots (a power of two) over the entries there are. */
static int
reindex(struct _mon_keys *t, size_t n)
{
	struct _mon_keys nt;
	struct entry *e;
	size_t off;

	nt = *t;
	nt.nslot = n;
	if ((nt.slots = _mon_map(n * sizeof(uint64_t))) == NULL)
		return -1;
	for (off = 0; off < t->used; off += ENTLEN(e->len)) {
		e = at(t, off);
		*slot(&nt, e + 1, e->len, e->hash) = off + 1;
	}
	_mon_unmap(t->slots, t->nslot * sizeof(uint64_t));
	*t = nt;
	return 0;
}

/*
 * Room for n more keys of bytes key bytes in all, so that adding them
 * cannot fail.  0, or -1 without memory (t unchanged).
 */
int
_mon_base_reserve(struct _mon_keys *t, size_t n, size_t bytes)
{
	unsigned char *na;
	size_t need, cap, slots;

	need = t->used + n * sizeof(struct entry) + bytes + 8 * n;
	if (need > t->cap) {
		for (cap = t->cap != 0 ? t->cap : 4096; cap < need; cap *= 2)
			continue;
		if ((na = _mon_map(cap)) == NULL)
			return -1;
		if (t->used > 0)
			memcpy(na, t->arena, t->used);
		_mon_unmap(t->arena, t->cap);
		t->arena = na;
		t->cap = cap;
	}
	for (slots = t->nslot != 0 ? t->nslot : 64;
	    slots < 2 * (t->nkeys + n); slots *= 2)
		continue;
	if (slots != t->nslot && reindex(t, slots) != 0)
		return -1;
	return 0;
}

/* The count of key in t, 0 if it has none. */
uint64_t
_mon_base_get(const struct _mon_keys *t, const void *key, size_t len)
{
	uint64_t *s;

	if (t->nslot == 0)
		return 0;
	s = slot(t, key, len, hashkey(key, len));
	return *s == 0 ? 0 : at(t, *s - 1)->count;
}

/* Add n to key's count (put: set it to n).  Room was reserved. */
static void
put(struct _mon_keys *t, const void *key, size_t len, uint64_t n, int add)
{
	struct entry *e;
	uint64_t h, *s;

	h = hashkey(key, len);
	s = slot(t, key, len, h);
	if (*s != 0) {
		e = at(t, *s - 1);
		e->count = add ? e->count + n : n;
		return;
	}
	e = at(t, t->used);
	e->hash = h;
	e->count = n;
	e->len = (uint32_t)len;
	memcpy(e + 1, key, len);
	memset((unsigned char *)(e + 1) + len, 0, ROUND8(len) - len);
	*s = t->used + 1;
	t->used += ENTLEN(len);
	t->nkeys++;
}

/* key's count becomes n; room was reserved. */
void
_mon_base_set(struct _mon_keys *t, const void *key, size_t len, uint64_t n)
{
	put(t, key, len, n, 0);
}

/*
 * Add n to key's count, a new key starting at 0; room was reserved.  The
 * key's entry, for _mon_base_bump(): it stays the same as keys are added.
 */
uint64_t
_mon_base_add(struct _mon_keys *t, const void *key, size_t len, uint64_t n)
{
	uint64_t *s;

	put(t, key, len, n, 1);
	s = slot(t, key, len, hashkey(key, len));
	return *s;
}

/* Add n to the count of the entry _mon_base_add() gave (not 0). */
void
_mon_base_bump(struct _mon_keys *t, uint64_t ent, uint64_t n)
{
	at(t, ent - 1)->count += n;
}

/*
 * The entry after *pos (0 to begin), its key and count, in the order the
 * keys came; 0 when there are no more.
 */
int
_mon_base_next(const struct _mon_keys *t, size_t *pos, const void **key,
    size_t *len, uint64_t *count)
{
	struct entry *e;

	if (*pos >= t->used)
		return 0;
	e = at(t, *pos);
	*key = e + 1;
	*len = e->len;
	*count = e->count;
	*pos += ENTLEN(e->len);
	return 1;
}

/* Give t's memory back; it is empty after. */
void
_mon_base_free(struct _mon_keys *t)
{
	_mon_unmap(t->arena, t->cap);
	_mon_unmap(t->slots, t->nslot * sizeof(uint64_t));
	memset(t, 0, sizeof(*t));
}

#define COUNT(r, coff)	((uint64_t *)((unsigned char *)(r) + (coff)))

/*
 * Records recs[0..n), each rsz bytes, key klen bytes at its start and
 * count at offset coff: those of the same key are summed into the first
 * of them, the order kept.  The new number of records; n unchanged when
 * there is no memory to sum them (the caller may still use them: the
 * baseline of a key is the sum of its records either way, see delta).
 */
size_t
_mon_base_fold(void *recs, size_t n, size_t rsz, size_t klen, size_t coff)
{
	struct _mon_keys seen;
	unsigned char *r, *w;
	uint64_t *s;
	size_t i, k;

	memset(&seen, 0, sizeof(seen));
	if (n == 0 || _mon_base_reserve(&seen, n, n * klen) != 0)
		return n;
	r = w = recs;
	for (i = k = 0; i < n; i++, r += rsz) {
		s = slot(&seen, r, klen, hashkey(r, klen));
		if (*s != 0) {
			/* The count of the first: its index is the entry's. */
			*COUNT((unsigned char *)recs +
			    at(&seen, *s - 1)->count * rsz, coff) +=
			    *COUNT(r, coff);
			continue;
		}
		put(&seen, r, klen, k, 0);
		if (w != r)
			memmove(w, r, rsz);
		w += rsz;
		k++;
	}
	_mon_base_free(&seen);
	return k;
}

/*
 * Into out (room for n), each record of cum whose count differs from
 * base's with that difference as its count; how many there are.  The
 * keys of cum are distinct (_mon_base_fold).  base is not changed.
 */
size_t
_mon_base_delta(const struct _mon_keys *base, const void *cum, size_t n,
    void *out, size_t rsz, size_t klen, size_t coff)
{
	const unsigned char *r;
	unsigned char *w;
	uint64_t was, now;
	size_t i, k;

	r = cum;
	w = out;
	for (i = k = 0; i < n; i++, r += rsz) {
		now = *COUNT(r, coff);
		was = _mon_base_get(base, r, klen);
		if (now <= was)
			continue;
		memcpy(w, r, rsz);
		*COUNT(w, coff) = now - was;
		w += rsz;
		k++;
	}
	return k;
}

/*
 * The counts of cum (distinct keys, as given to _mon_base_delta) become
 * base's.  Room was reserved (_mon_base_reserve(base, n, n * klen)), so
 * this cannot fail.
 */
void
_mon_base_commit(struct _mon_keys *base, const void *cum, size_t n,
    size_t rsz, size_t klen, size_t coff)
{
	const unsigned char *r;
	size_t i;

	for (i = 0, r = cum; i < n; i++, r += rsz)
		put(base, r, klen, *COUNT(r, coff), 0);
}
