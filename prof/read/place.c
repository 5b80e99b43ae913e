/*
 * place.c -- where the addresses of a mon.out file are.
 *
 * Each file, once read and checked, is placed: every run-time address it
 * holds becomes an object (the main program, a shared object, or none)
 * and a link-time address inside it, using the EXEC and OBJ records.  OBJ
 * records may overlap -- the writer lists the objects mapped at the end,
 * then those unloaded while profiled, and a later load may have reused
 * the addresses of an unloaded one -- so an address belongs to the first
 * record that holds it, and counts that another object's record holds
 * too are counted for a warning.  The records are swept once, in order of
 * address, into spans that do not overlap, each knowing its record and
 * whether another object's record holds it too; an address is then
 * placed by a binary search, so that a file of n records and m addresses
 * costs O((n + m) log n) however its records overlap.  An address in no
 * object goes to the perf map of the process the RUN record names, where
 * a JIT may have named it: each process has its own, and a file's
 * addresses must be looked up in its own process's map.  Objects of
 * several files are joined by path and build-id through a hash table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/mfile.h"
#include "read/read.h"
#include "util/util.h"

/* --- the objects of all files ------------------------------------- */

/*
 * What makes two perf maps' objects one (join_perfmap()): the pid of
 * their process, and for one that holds names a profile kept, its run
 * and part.  All zero for an object that is no map.
 */
struct jitkey {
	uint32_t	 pid;
	uint32_t	 part;
	uint64_t	 start;
};

static const struct jitkey nojit;

static int
same_key(const struct object *o, const struct jitkey *k)
{
	return o->jitpid == k->pid && o->jitpart == k->part &&
	    o->jitstart == k->start;
}

/* FNV-1a over what makes two objects one. */
static size_t
obj_hash(const char *path, size_t pathlen, const unsigned char *id,
    size_t idlen, const struct jitkey *k)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < pathlen; i++)
		h = (h ^ (unsigned char)path[i]) * 0x100000001b3ULL;
	h = (h ^ 0xff) * 0x100000001b3ULL;	/* path and id apart */
	for (i = 0; i < idlen; i++)
		h = (h ^ id[i]) * 0x100000001b3ULL;
	h = (h ^ k->pid) * 0x100000001b3ULL;
	h = (h ^ k->part) * 0x100000001b3ULL;
	h = (h ^ k->start) * 0x100000001b3ULL;
	return (size_t)(h ^ h >> 32);
}

static int
obj_is(const struct object *o, const char *path, size_t pathlen,
    const unsigned char *id, size_t idlen, const struct jitkey *k)
{
	return same_key(o, k) && strlen(o->path) == pathlen &&
	    memcmp(o->path, path, pathlen) == 0 && o->idlen == idlen &&
	    (idlen == 0 || memcmp(o->id, id, idlen) == 0);
}

/* Put objs[i] in the hash table; the table has room. */
static void
hash_put(struct profile *p, size_t i)
{
	const struct object *o = &p->objs[i];
	struct jitkey key = { o->jitpid, o->jitpart, o->jitstart };
	size_t k;

	k = obj_hash(o->path, strlen(o->path), o->id, o->idlen, &key);
	for (k &= p->hashcap - 1; p->objhash[k] != 0; k = (k + 1) &
	    (p->hashcap - 1))
		;
	p->objhash[k] = i + 1;
}

/* Keep the table at most half full. */
static void
hash_room(struct profile *p)
{
	size_t i;

	if (2 * p->nobjs < p->hashcap)
		return;
	free(p->objhash);
	p->hashcap = p->hashcap == 0 ? 64 : 2 * p->hashcap;
	p->objhash = xcalloc(p->hashcap, sizeof(*p->objhash));
	for (i = 1; i < p->nobjs; i++)
		hash_put(p, i);
}

/* The index of the object so described, added if it is new. */
static size_t
obj_join(struct profile *p, const char *path, size_t pathlen,
    const unsigned char *id, size_t idlen, const struct jitkey *jk)
{
	struct object *o;
	size_t k, j;

	hash_room(p);
	k = obj_hash(path, pathlen, id, idlen, jk) & (p->hashcap - 1);
	for (; (j = p->objhash[k]) != 0; k = (k + 1) & (p->hashcap - 1))
		if (obj_is(&p->objs[j - 1], path, pathlen, id, idlen, jk))
			return j - 1;
	p->objs = xgrow(p->objs, &p->objcap, p->nobjs, 1, sizeof(*p->objs));
	o = &p->objs[p->nobjs];
	memset(o, 0, sizeof(*o));
	o->path = xstrndup(path, pathlen);
	o->jitpid = jk->pid;
	o->jitpart = jk->part;
	o->jitstart = jk->start;
	if (idlen > 0) {
		o->id = xmalloc(idlen);
		memcpy(o->id, id, idlen);
		o->idlen = idlen;
	}
	p->objhash[k] = ++p->nobjs;
	return p->nobjs - 1;
}

/* Give each of the file's objects its index in the merged table. */
void
join_objects(struct profile *p, struct mfile *f)
{
	const struct fobj *e = &f->exec;
	struct fobj *o;
	size_t i;

	if (p->nobjs == 0) {
		p->objs = xgrow(NULL, &p->objcap, 0, 1, sizeof(*p->objs));
		memset(&p->objs[OBJ_MAIN], 0, sizeof(*p->objs));
		p->objs[OBJ_MAIN].path = f->hasexec ?
		    xstrndup(e->path, e->pathlen) : xstrdup("");
		if (f->hasexec && e->idlen > 0) {
			p->objs[OBJ_MAIN].id = xmalloc(e->idlen);
			memcpy(p->objs[OBJ_MAIN].id, e->id, e->idlen);
			p->objs[OBJ_MAIN].idlen = e->idlen;
		}
		p->nobjs = 1;
	}
	for (i = 0; i < f->nobjs; i++) {
		o = &f->objs[i];
		if (f->hasexec && o->bias == e->bias && o->lo == e->lo)
			o->gidx = OBJ_MAIN;	/* the program again */
		else
			o->gidx = obj_join(p, o->path, o->pathlen, o->id,
			    o->idlen, &nojit);
	}
}

/*
 * The names of generated code f's JIT record keeps, as lines of a perf
 * map after those o has: they go through perfmap.c's reading as the
 * map's own lines do, which is where lines that overlap -- code freed
 * and named again -- are settled, the later winning.  Files of one key
 * (the same file given twice) hold the same names in the same order:
 * only those past the ones o has are new.
 */
static void
join_jit_names(struct object *o, const struct mfile *f)
{
	struct monx_jit e;
	const unsigned char *q, *end;
	uint64_t i;
	char head[48];
	int n;

	if (f->jitents == NULL)
		return;
	q = f->jitents;
	end = q + f->jitlen;
	if (f->jithead.dropped > o->jitdropped)
		o->jitdropped = f->jithead.dropped;
	for (i = 0; q < end; i++) {
		memcpy(&e, q, sizeof(e));
		q += sizeof(e);
		if (i >= o->jitseen) {
			n = snprintf(head, sizeof(head), "%" PRIx64 " %" PRIx64
			    " ", e.addr, e.size);
			o->jittext = xgrow(o->jittext, &o->jitcap, o->jitlen,
			    (size_t)n + e.namelen + 2, 1);
			memcpy(o->jittext + o->jitlen, head, (size_t)n);
			memcpy(o->jittext + o->jitlen + n, q, e.namelen);
			o->jitlen += (size_t)n + e.namelen;
			o->jittext[o->jitlen++] = '\n';
			o->jittext[o->jitlen] = '\0';
		}
		q += ((size_t)e.namelen + 7) & ~(size_t)7;
	}
	if (i > o->jitseen)
		o->jitseen = i;
}

/*
 * The perf map of the process that wrote f, shared with the other files
 * of that pid; none for a file that does not say its pid.  A file that
 * kept names of generated code has a map of its own, of its run and
 * part: a process of the same pid in another run has names of its own,
 * and a part holds the names given until it was written, and no later
 * one, which names its samples as the code then was -- code freed and
 * its addresses named again in a later part keep both names apart.
 */
void
join_perfmap(struct profile *p, struct mfile *f)
{
	struct jitkey k;
	char *path;
	size_t n = p->nobjs;

	f->jit = OBJ_NONE;
	if (!f->hasrun || f->run.pid == 0)
		return;
	path = perfmap_path(f->run.pid);
	k.pid = f->run.pid;
	k.part = f->jitents != NULL ? f->run.part : 0;
	k.start = f->jitents != NULL ? f->run.start_ns : 0;
	f->jit = obj_join(p, path, strlen(path), NULL, 0, &k);
	free(path);
	if (p->nobjs > n)
		p->nmaps++;
	join_jit_names(&p->objs[f->jit], f);
}

/* --- placing addresses -------------------------------------------- */

/* The sweep's heap: the record that comes first in the file on top. */
static int
first_rec(const void *ctx, size_t a, size_t b)
{
	(void)ctx;
	return a < b;
}

static const struct fobj *sortobjs;	/* for the C11 qsort below */

static int
cmp_lo(const void *a, const void *b)
{
	const struct fobj *x = &sortobjs[*(const size_t *)a];
	const struct fobj *y = &sortobjs[*(const size_t *)b];

	return x->lo != y->lo ? (x->lo < y->lo ? -1 : 1) : 0;
}

static int
cmp_hi(const void *a, const void *b)
{
	const struct fobj *x = &sortobjs[*(const size_t *)a];
	const struct fobj *y = &sortobjs[*(const size_t *)b];

	return x->hi != y->hi ? (x->hi < y->hi ? -1 : 1) : 0;
}

/* The state of the sweep over a file's records. */
struct sweep {
	struct heap	 h;		/* records holding cur, dead or not */
	size_t		*bylo, *byhi;	/* records by start, by end */
	size_t		 m;		/* how many, empty ones left out */
	size_t		 i, e;		/* next in bylo, in byhi */
	unsigned char	*dead;		/* ended, though maybe in h */
	size_t		*held;		/* live records, by object */
	size_t		 live;
};

/* Append [lo, hi) of record rec, or widen the last span to it. */
static void
add_span(struct mfile *f, size_t *cap, uint64_t lo, uint64_t hi,
    size_t rec, int shared)
{
	struct span *s = f->nspans > 0 ? &f->spans[f->nspans - 1] : NULL;

	if (s != NULL && s->hi == lo && s->rec == rec && s->shared == shared) {
		s->hi = hi;
		return;
	}
	f->spans = xgrow(f->spans, cap, f->nspans, 1, sizeof(*f->spans));
	s = &f->spans[f->nspans++];
	s->lo = lo;
	s->hi = hi;
	s->rec = rec;
	s->shared = shared;
}

/* Step the sweep to address cur: records that start and end there. */
static void
sweep_to(struct sweep *w, const struct fobj *o, uint64_t cur)
{
	size_t r;

	for (; w->i < w->m && o[w->bylo[w->i]].lo <= cur; w->i++) {
		r = w->bylo[w->i];
		heap_push(&w->h, r);
		w->held[o[r].gidx == OBJ_MAIN ? 0 : o[r].gidx]++;
		w->live++;
	}
	for (; w->e < w->m && o[w->byhi[w->e]].hi <= cur; w->e++) {
		r = w->byhi[w->e];
		w->dead[r] = 1;
		w->held[o[r].gidx == OBJ_MAIN ? 0 : o[r].gidx]--;
		w->live--;
	}
	while (w->h.n > 0 && w->dead[w->h.v[0]])
		heap_pop(&w->h);
}

/*
 * Cut the file's records into spans: each address any record holds is
 * in one span, of the first record that holds it, shared when a record
 * of another object holds it too.  nobjs: objects in the profile.
 */
void
make_spans(struct mfile *f, size_t nobjs)
{
	const struct fobj *o = f->objs;
	struct sweep w;
	uint64_t cur = 0, next;
	size_t k, top, cap = 0;

	memset(&w, 0, sizeof(w));
	w.bylo = xcalloc(f->nobjs, sizeof(*w.bylo));
	for (k = 0; k < f->nobjs; k++)
		if (o[k].lo < o[k].hi)
			w.bylo[w.m++] = k;
	w.byhi = xcalloc(w.m, sizeof(*w.byhi));
	memcpy(w.byhi, w.bylo, w.m * sizeof(*w.byhi));
	sortobjs = o;
	qsort(w.bylo, w.m, sizeof(*w.bylo), cmp_lo);
	qsort(w.byhi, w.m, sizeof(*w.byhi), cmp_hi);
	w.h.v = xcalloc(w.m, sizeof(*w.h.v));
	w.h.above = first_rec;
	w.dead = xcalloc(f->nobjs, 1);
	w.held = xcalloc(nobjs, sizeof(*w.held));
	while (w.i < w.m || w.live > 0) {
		if (w.live == 0)
			cur = o[w.bylo[w.i]].lo;
		sweep_to(&w, o, cur);
		if (w.live == 0)
			continue;
		next = o[w.byhi[w.e]].hi;
		if (w.i < w.m && o[w.bylo[w.i]].lo < next)
			next = o[w.bylo[w.i]].lo;
		top = w.h.v[0];
		add_span(f, &cap, cur, next, top, w.held[o[top].gidx ==
		    OBJ_MAIN ? 0 : o[top].gidx] != w.live);
		cur = next;
	}
	free(w.bylo);
	free(w.byhi);
	free(w.h.v);
	free(w.dead);
	free(w.held);
}

/* The span holding pc, or NULL. */
static const struct span *
find_span(const struct mfile *f, uint64_t pc)
{
	size_t lo = 0, hi = f->nspans, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->spans[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && pc < f->spans[lo - 1].hi ? &f->spans[lo - 1] : NULL;
}

/*
 * Where a run-time pc of file f belongs; 1 when a record of another
 * object holds it too.
 */
int
place(const struct mfile *f, uint64_t pc, struct place *pl)
{
	const struct span *s;
	const struct fobj *o;
	uint64_t bias;

	bias = f->hasexec ? f->exec.bias : 0;
	if ((pc >= f->lpc && pc < f->hpc) ||
	    (f->hasexec && pc >= f->exec.lo && pc < f->exec.hi)) {
		pl->obj = OBJ_MAIN;
		pl->addr = pc - bias;
		return 0;
	}
	if ((s = find_span(f, pc)) != NULL) {
		o = &f->objs[s->rec];
		pl->obj = o->gidx;
		pl->addr = pc - (o->gidx == OBJ_MAIN ? bias : o->bias);
		return s->shared;
	}
	/*
	 * A classic file knows only the program, as linked; in another,
	 * the address is JIT code or unknown.
	 */
	pl->obj = f->hasexec ? f->jit : OBJ_MAIN;
	pl->addr = pc;
	return 0;
}

/* Append a count at pc; the caller has made room.  what: 0 calls. */
struct place *
add_place(struct place *v, size_t *n, struct mfile *f, uint64_t pc,
    uint64_t count, int what)
{
	if (place(f, pc, &v[*n]) &&
	    __builtin_add_overflow(f->shared[what], count, &f->shared[what]))
		f->shared[what] = UINT64_MAX;
	v[*n].count = count;
	v[*n].samples = 0;
	return &v[(*n)++];
}
