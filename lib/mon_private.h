/*
 * mon_private.h -- internals shared by the files of libmon.
 *
 * Every name here is hidden (the library is built with
 * -fvisibility=hidden) and begins with _mon_, so that a profiled program's
 * own namespace stays clean.
 *
 * The pieces, and who touches them:
 *
 *	profil.c	the PC histogram and the SIGPROF handler
 *	clock.c		arming and disarming the sampling clock
 *	monitor.c	monitor(): buffers, PROFDIR, fork
 *	mcount.c	per-thread call-count tables; mcount's slow path
 *	x86_64/mcount.S	mcount and __fentry__: the fast path
 *	monwrite.c	the mon.out writer
 *	objects.c	the loaded objects: load bias, build-id, text range
 *	exec.c		the exec family: the clock off before a new image
 *	thread.c	pthread_create: a clock for every new thread
 *	sigaction.c	sigaction, signal: the program's SIGPROF action kept
 *	dlclose.c	dlclose: an unloaded library noted for the writer
 */
#ifndef _MON_PRIVATE_H
#define _MON_PRIVATE_H

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mon.h"
#include "monfmt.h"

#define _mon_hidden	__attribute__((visibility("hidden")))
#define _mon_public	__attribute__((visibility("default")))

/*
 * A histogram as profil() armed it.  Descriptors are immutable once
 * published through _mon_hist; the handler reads one pointer.
 */
struct _mon_hist {
	WORD		*buf;
	size_t		 nwords;
	uintptr_t	 off;
	unsigned int	 scale;
};

/* Sampling statistics of the current histogram; the handler adds to them. */
struct _mon_stats {
	_Atomic uint64_t	in;
	_Atomic uint64_t	out;
	_Atomic uint64_t	lost;
	_Atomic uint64_t	saturated;
	_Atomic uint64_t	overruns;
	_Atomic uint64_t	dropped;	/* by the kernel: ring full */
	uint64_t		cpu0_ns;	/* process CPU clock at start */
	uint64_t		cpu_ns;		/* CPU used, fixed at stop */
	uint64_t		period_ns;	/* period asked of the clock */
	int			clock;		/* MONX_CLK_* */
};

/* Samples whose pc is outside the histogram, kept per address. */
#define _MON_NOUTPC_BITS	14
#define _MON_NOUTPC	(1u << _MON_NOUTPC_BITS)
struct _mon_outpc {
	_Atomic uintptr_t	pc;
	_Atomic uint64_t	count;
};

extern _Atomic(struct _mon_hist *) _mon_hist _mon_hidden;
extern struct _mon_stats _mon_stats _mon_hidden;
extern struct _mon_outpc *_mon_outpcs _mon_hidden;

/* profil.c */
int	_mon_profil(WORD *, size_t, uintptr_t, unsigned int, int) _mon_hidden;
void	_mon_sample(uintptr_t, uint64_t) _mon_hidden;
void	_mon_stats_reset(void) _mon_hidden;
void	_mon_stats_stop(void) _mon_hidden;
uint64_t _mon_cputime(void) _mon_hidden;

/* clock.c; what _mon_clock_ours() says of a SIGPROF */
#define _MON_SIG_SAMPLE	1	/* a sample of the pc it interrupted */
#define _MON_SIG_DRAIN	2	/* time to empty the perf rings */
int	_mon_clock_start(void (*)(int, siginfo_t *, void *), int) _mon_hidden;
void	_mon_clock_stop(void) _mon_hidden;
void	_mon_clock_fork(void) _mon_hidden;
void	_mon_clock_pause(void) _mon_hidden;
void	_mon_clock_resume(void) _mon_hidden;
void	_mon_clock_thread_start(void) _mon_hidden;
void	_mon_clock_thread_end(void) _mon_hidden;
int	_mon_clock_running(void) _mon_hidden;
int	_mon_clock_ours(const siginfo_t *) _mon_hidden;
void	_mon_clock_drain(void) _mon_hidden;
void	_mon_clock_chain(int, siginfo_t *, void *) _mon_hidden;
int	_mon_clock_adopt(const struct sigaction *, struct sigaction *)
	    _mon_hidden;

/* libc's own entry points, used where libmon takes the public name. */
int	__sigaction(int, const struct sigaction *, struct sigaction *);
void	(*bsd_signal(int, void (*)(int)))(int);

/* mcount.c */
extern volatile int _mon_counting _mon_hidden;
void	_mon_count(uintptr_t) _mon_hidden;
void	_mon_cells_reset(void) _mon_hidden;
void	_mon_cells_fork(void) _mon_hidden;
struct cnt *_mon_cells_merge(size_t *, size_t *) _mon_hidden;
uint64_t _mon_cells_lost(void) _mon_hidden;
uint32_t _mon_cells_threads(void) _mon_hidden;

/* monwrite.c */
struct _mon_out {
	const struct hdr	*hdr;
	const struct cnt	*cells;		/* the counted cells */
	size_t			 ncells;
	const WORD		*hist;
	size_t			 nhist;
	unsigned int		 scale;
};
int	_mon_write(const char *, const struct _mon_out *) _mon_hidden;
int	_mon_outpath(char *, size_t) _mon_hidden;

/* objects.c */
struct dl_phdr_info;
size_t	_mon_objects(unsigned char *, size_t) _mon_hidden;
const unsigned char *_mon_object_info(const struct dl_phdr_info *,
	    struct monx_obj *) _mon_hidden;
int	_mon_mapped(uint64_t, const char *) _mon_hidden;

/* dlclose.c: an object dlclose() unloaded, as the writer records it. */
#define _MON_MAXID	64		/* longer build-ids are not kept */
#define _MON_MAXPATH	4096
struct _mon_gone {
	struct monx_obj	o;		/* idlen 0 when the id is not kept */
	unsigned char	id[_MON_MAXID];
	char		path[_MON_MAXPATH];	/* o.pathlen bytes and a NUL */
};
void	_mon_gone_reset(void) _mon_hidden;
void	_mon_gone_fork(void) _mon_hidden;
int	_mon_gone_next(uint64_t *, struct _mon_gone *) _mon_hidden;
uint64_t _mon_gone_lost(void) _mon_hidden;

/*
 * Slot of address pc in an open hash of 2^bits entries: the high bits of
 * a multiplicative hash, which mix every bit of pc.  Signal-safe.
 */
static inline size_t
_mon_hash(uintptr_t pc, unsigned int bits)
{
	return (size_t)((pc * 0x9e3779b97f4a7c15u) >> (64 - bits));
}

/* util */
pid_t	_mon_gettid(void) _mon_hidden;
void	_mon_warn(const char *, const char *, int) _mon_hidden;
void	*_mon_map(size_t) _mon_hidden;
void	_mon_unmap(void *, size_t) _mon_hidden;

#endif /* !_MON_PRIVATE_H */
