/*
 * table.c -- counts kept by address in an open hash that grows without
 * a lock and without a scan: the outside table (hist.c) and mcount's
 * spill (mcount.c).  A leaf: it calls only util.c.
 *
 * A key is one address, or two (mcount's arcs: the call site and the
 * callee); key2 is written just after key is claimed, so a caller that
 * finds key with another key2 -- or none yet, when it interrupted the
 * claim in a signal handler -- goes on probing.  The same pair may then
 * hold two slots; readers add.
 *
 * A table is a chain of open hashes, each twice the size of the one
 * before, mapped only when the one before is half full:
 *
 *	tab[0] (2^bits0 slots) -> tab[1] (2x) -> ... tab[cur] -> (unmapped)
 *
 * Keys are added to the current hash only; a key counted in an earlier
 * one gets a second slot in the current one, and whoever reads the
 * table sums its slots by key.  Moving on is an mmap and a compare-and-
 * swap, both safe in a signal handler, and a probe tries at most PROBE
 * slots, so no caller ever scans a table: a full last hash turns a key
 * away (NULL) for the caller to count as it can.  Reset gives the pages
 * back to the kernel (zero pages on the next touch), so emptying costs
 * a system call per hash, and a fork child that only execs copies none.
 */
#include <stdint.h>

#include "mon_private.h"

#define PROBE	32			/* slots tried in one hash */

#define TABLEN(t, k)	(sizeof(struct _mon_slot) << ((t)->bits0 + (k)))

/* Hash k of t, mapped now if it is not yet; NULL without memory. */
static struct _mon_slot *
hash_map(struct _mon_tab *t, unsigned int k)
{
	struct _mon_slot *s, *want;

	if ((s = atomic_load(&t->hash[k])) != NULL)
		return s;
	if ((s = _mon_map(TABLEN(t, k))) == NULL)
		return NULL;
	want = NULL;
	if (atomic_compare_exchange_strong(&t->hash[k], &want, s))
		return s;
	_mon_unmap(s, TABLEN(t, k));	/* another caller's came first */
	return want;
}

/* Move on from hash k to the next, if there is one. */
static void
grow(struct _mon_tab *t, unsigned int k)
{
	if (k + 1 < t->nhash && hash_map(t, k + 1) != NULL)
		atomic_compare_exchange_strong(&t->cur, &k, k + 1);
}

/* key's slot in hash k, taken now if need be; NULL if none is free. */
static struct _mon_slot *
probe(struct _mon_tab *t, unsigned int k, uintptr_t key, uintptr_t key2)
{
	struct _mon_slot *s;
	uintptr_t want;
	size_t i, n, mask;

	if ((s = hash_map(t, k)) == NULL)
		return NULL;
	mask = ((size_t)1 << (t->bits0 + k)) - 1;
	i = _mon_hash(key ^ (key2 << 17 | key2 >> 47), t->bits0 + k);
	for (n = 0; n < PROBE; n++, i = (i + 1) & mask) {
		want = atomic_load_explicit(&s[i].key, memory_order_relaxed);
		if (want == 0 && atomic_compare_exchange_strong(&s[i].key,
		    &want, key)) {
			atomic_store_explicit(&s[i].key2, key2,
			    memory_order_relaxed);
			if (atomic_fetch_add(&t->nkeys[k], 1) >= mask / 2)
				grow(t, k);
			return &s[i];
		}
		if (want == key && atomic_load_explicit(&s[i].key2,
		    memory_order_relaxed) == key2)
			return &s[i];
	}
	return NULL;
}

/*
 * The slot counting the pair key (not 0), key2 in t, or NULL when t is at its largest
 * and full there, or out of memory.  Async-signal-safe; any number of
 * threads and nested signal handlers may call it at once.
 */
struct _mon_slot *
_mon_tab_slot(struct _mon_tab *t, uintptr_t key, uintptr_t key2)
{
	struct _mon_slot *s;
	unsigned int k;

	k = atomic_load(&t->cur);
	if ((s = probe(t, k, key, key2)) != NULL)
		return s;
	grow(t, k);
	return k != atomic_load(&t->cur) ?
	    probe(t, atomic_load(&t->cur), key, key2) : NULL;
}

/*
 * Empty t, keeping its memory mapped: callers still running find zero
 * pages.  A slot emptied under one may be left with a count and no key;
 * readers skip those.
 */
void
_mon_tab_reset(struct _mon_tab *t)
{
	unsigned int k;

	for (k = 0; k < t->nhash; k++) {
		_mon_rezero(atomic_load(&t->hash[k]), TABLEN(t, k));
		atomic_store(&t->nkeys[k], 0);
	}
	atomic_store(&t->cur, 0);
}

/* Hash k of t and its number of slots in *np; NULL if it is unmapped. */
struct _mon_slot *
_mon_tab_hash(struct _mon_tab *t, unsigned int k, size_t *np)
{
	*np = k < t->nhash ? (size_t)1 << (t->bits0 + k) : 0;
	return k < t->nhash ? atomic_load(&t->hash[k]) : NULL;
}

/* Slots taken in t, duplicates included: a bound on its distinct keys. */
size_t
_mon_tab_keys(struct _mon_tab *t)
{
	size_t n;
	unsigned int k;

	n = 0;
	for (k = 0; k < t->nhash; k++)
		n += atomic_load(&t->nkeys[k]);
	return n;
}
