/*
 * monitor.c -- monitor(3C): profile a range of the program's text.
 *
 * The caller's buffer (bufsize WORDs) is laid out as mon.out is:
 *
 *	buffer                                      buffer + bufsize
 *	+------------+------------------+------------------------------+
 *	| struct hdr | struct cnt[nfunc]|  WORD histogram              |
 *	| lpc hpc n  | filled at stop   |  bufsize - ssiz counters     |
 *	+------------+------------------+------------------------------+
 *	 ssiz = (sizeof(hdr) + nfunc * sizeof(cnt)) / sizeof(WORD)
 *
 * The histogram is handed to profil() with the classic scale; the call
 * counts of cc -p code live in per-thread tables (mcount.c) and are
 * summed into the buffer's cells -- then into cells of their own past
 * nfunc, so none is lost -- when monitor(0, 0, 0, 0, 0) stops and writes
 * the profile.  A later start call adds its cells as capacity and
 * replaces the histogram; the file holds every cell and the last
 * histogram.  A second stop writes the same profile again.
 *
 * fork(): the child goes on profiling with its counters emptied, so the
 * files of a parent and its children add up to the whole run; the
 * libraries the parent unloaded (dlclose.c) are forgotten with them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mon_private.h"

#define NBLOCK	64

struct block {
	WORD	*buf;
	size_t	 nfunc;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct block blocks[NBLOCK];
static size_t nblocks;
static struct hdr *curhdr;	/* header of the last start */
static WORD *curhist;
static size_t curnhist;
static unsigned int curscale;
static int running;		/* between a start and a stop */
static int forkhooked;

static void
prefork(void)
{
	pthread_mutex_lock(&lock);
}

static void
postfork_parent(void)
{
	pthread_mutex_unlock(&lock);
}

static void
postfork_child(void)
{
	pthread_mutex_init(&lock, NULL);
	_mon_gone_fork();
	if (!running)
		return;
	memset(curhist, 0, curnhist * sizeof(WORD));
	_mon_stats_reset();
	_mon_cells_fork();
	_mon_gone_reset();
	_mon_clock_fork();
}

/* The classic scale: one counter per 2 bytes of text when it fits. */
static unsigned int
classic_scale(size_t words, uintptr_t lo, uintptr_t hi)
{
	uintptr_t text;

	text = (hi - lo) / 2 + ((hi - lo) & 1);		/* (hi-lo+1)/2 */
	if (words < text)
		return (unsigned int)((double)words * 65536.0 / (double)text);
	return 0xffff;
}

/* Start or restart profiling; 0, or EINVAL with nothing changed. */
static int
start(char *lo, char *hi, WORD *buf, size_t bufsize, size_t nfunc)
{
	size_t ssiz, nhist;
	struct hdr *h;

	if (nfunc > (SIZE_MAX - sizeof(struct hdr)) / sizeof(struct cnt))
		return EINVAL;
	ssiz = (sizeof(struct hdr) + nfunc * sizeof(struct cnt)) /
	    sizeof(WORD);
	if (buf == NULL || lo == NULL || lo >= hi || ssiz >= bufsize)
		return EINVAL;
	if (!forkhooked && pthread_atfork(prefork, postfork_parent,
	    postfork_child) == 0)
		forkhooked = 1;
	h = (struct hdr *)buf;
	h->lpc = lo;
	h->hpc = hi;
	h->nfns = nfunc;
	memset(h + 1, 0, nfunc * sizeof(struct cnt));
	nhist = bufsize - ssiz;
	memset(buf + ssiz, 0, nhist * sizeof(WORD));
	if (!running) {
		nblocks = 0;
		_mon_cells_reset();
		_mon_gone_reset();
	}
	if (nblocks < NBLOCK)
		blocks[nblocks++] = (struct block){ buf, nfunc };
	curhdr = h;
	curhist = buf + ssiz;
	curnhist = nhist;
	curscale = classic_scale(nhist, (uintptr_t)lo, (uintptr_t)hi);
	_mon_stats_reset();
	if (_mon_profil(curhist, nhist * sizeof(WORD), (uintptr_t)lo,
	    curscale, 0) != 0)
		_mon_warn("monitor", "cannot start the sampling clock", errno);
	running = 1;
	_mon_counting = 1;
	return 0;
}

/* Copy the summed cells into the buffers' cell areas, in start order. */
static void
fill_blocks(const struct cnt *c, size_t n)
{
	size_t i, k;

	for (i = 0; i < nblocks && n > 0; i++) {
		k = blocks[i].nfunc < n ? blocks[i].nfunc : n;
		memcpy((struct hdr *)blocks[i].buf + 1, c, k * sizeof(*c));
		c += k;
		n -= k;
	}
}

static void
stop(void)
{
	struct _mon_out d;
	struct cnt *cells;
	size_t ncells, maplen;
	char path[4096];
	int r;

	if (curhdr == NULL)
		return;
	if (running) {
		_mon_counting = 0;
		(void)_mon_profil(NULL, 0, 0, 0, 0);
		_mon_stats_stop();
		running = 0;
	}
	cells = _mon_cells_merge(&ncells, &maplen);
	fill_blocks(cells, ncells);
	/* Each buffer's header keeps its own nfunc: the image stays valid. */
	d.hdr = curhdr;
	d.cells = cells;
	d.ncells = ncells;
	d.hist = curhist;
	d.nhist = curnhist;
	d.scale = curscale;
	if ((r = _mon_outpath(path, sizeof(path))) < 0)
		_mon_warn("PROFDIR", "path too long", 0);
	else if (r == 0)
		(void)_mon_write(path, &d);
	_mon_unmap(cells, maplen);
}

/*
 * monitor(lowpc, highpc, buffer, bufsize, nfunc): start profiling
 * [lowpc, highpc) into buffer, bufsize WORDs long, with room for nfunc
 * call-count cells; monitor(0, 0, 0, 0, 0) stops and writes the profile.
 * With PROFDIR set and empty nothing is profiled and nothing written.
 * Invalid arguments set errno to EINVAL and change nothing.  Not
 * async-signal-safe; calls from several threads are serialised.
 */
_mon_public void
monitor(int (*lowpc)(void), int (*highpc)(void), WORD *buffer,
    size_t bufsize, size_t nfunc)
{
	char path[4096];
	int saved, r;

	saved = errno;
	r = 0;
	pthread_mutex_lock(&lock);
	if (lowpc == NULL)
		stop();
	else if (_mon_outpath(path, sizeof(path)) != 1)	/* 1: PROFDIR="" */
		r = start((char *)(uintptr_t)lowpc, (char *)(uintptr_t)highpc,
		    buffer, bufsize, nfunc);
	pthread_mutex_unlock(&lock);
	errno = r != 0 ? r : saved;
}
