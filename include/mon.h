/*
 * <mon.h> -- the classic monitor(3C) interface and the layout of mon.out.
 *
 * A profile buffer handed to monitor() and the file it writes share one
 * layout: a struct hdr, then hdr.nfns struct cnt call-count cells, then
 * the PC histogram of WORD counters covering [lpc, hpc).  A reader finds
 * the histogram length from what is left after the cells.
 *
 * profil() is declared here with glibc's prototype so that this header
 * and <unistd.h> can be included together, in either order, from C or C++;
 * moncontrol() and monstartup() as <sys/gmon.h> declares them;
 * monsnapshot() is libmon's own, for programs that do not exit, and so
 * are the mon_perfmap calls, for programs that generate code, and the
 * mon_profiler calls, for tools of one's own (mon_profiler(3C)).
 */
#ifndef _MON_H
#define _MON_H

#include <stddef.h>
#include <stdint.h>
#include <sys/cdefs.h>
#include <sys/types.h>	/* __THROW: match glibc's profil() in C++ */

#ifdef __cplusplus
extern "C" {
#endif

struct hdr {
	char	*lpc;		/* lowest pc of the histogram */
	char	*hpc;		/* one past its highest pc */
	size_t	 nfns;		/* struct cnt cells that follow */
};

struct cnt {
	char	*fnpc;		/* return address of mcount: inside the function */
	long	 mcnt;		/* times the function was entered */
};

typedef unsigned short WORD;

#define MON_OUT		"mon.out"
#define MPROGS0		600	/* call-count cells reserved by cc -p start-up */
#define BARSIZE		8	/* bytes of text per histogram WORD at start-up */

void	monitor(int (*)(void), int (*)(void), WORD *, size_t, size_t);
int	profil(unsigned short *, size_t, size_t, unsigned int) __THROW;

/* glibc's <sys/gmon.h> names, with its prototypes. */
void	moncontrol(int) __THROW;
void	monstartup(unsigned long, unsigned long) __THROW;

/* libmon's: write the part of the running profile since the last, now. */
int	monsnapshot(void) __THROW;

/*
 * libmon's: name code the program generated, in /tmp/perf-PID.map for
 * perf and in the profile for prof (mon_perfmap(3C)).
 */
int	mon_perfmap_init(void) __THROW;
int	mon_perfmap_write(const void *, size_t, const char *) __THROW;
void	mon_perfmap_fini(void) __THROW;
int	mon_perfmap_copy(const char *) __THROW;

/*
 * libmon's: a profiler of one's own, in the program or in a module that
 * PROFMODULE loads (mon_profiler(3C)).  Each callback gets the data
 * given to mon_profiler_create() first.
 */
typedef struct mon_profiler *mon_profiler_t;
typedef void	(*mon_profiler_call_fn)(void *, void *, void *, uintptr_t);
typedef int	(*mon_profiler_filter_fn)(void *, void *, uintptr_t *);
typedef void	(*mon_profiler_thread_fn)(void *, pid_t);
typedef void	(*mon_profiler_sample_fn)(void *, pid_t, const void *const *,
		    size_t);
typedef void	(*mon_profiler_event_fn)(void *);
typedef void	(*mon_profiler_exec_fn)(void *, const char *);
typedef void	(*mon_profiler_library_fn)(void *, const char *, const void *);
typedef void	(*mon_profiler_jit_fn)(void *, const void *, size_t,
		    const char *);

mon_profiler_t mon_profiler_create(const char *, void *) __THROW;
const char *mon_profiler_name(mon_profiler_t) __THROW;
int	mon_profiler_set_enter_leave(mon_profiler_t, mon_profiler_call_fn,
	    mon_profiler_call_fn) __THROW;
int	mon_profiler_set_call_filter(mon_profiler_t, mon_profiler_filter_fn)
	    __THROW;
int	mon_profiler_set_thread(mon_profiler_t, mon_profiler_thread_fn,
	    mon_profiler_thread_fn) __THROW;
int	mon_profiler_set_sample(mon_profiler_t, mon_profiler_sample_fn)
	    __THROW;
int	mon_profiler_set_shutdown(mon_profiler_t, mon_profiler_event_fn)
	    __THROW;
int	mon_profiler_set_fork(mon_profiler_t, mon_profiler_event_fn) __THROW;
int	mon_profiler_set_exec(mon_profiler_t, mon_profiler_exec_fn) __THROW;
int	mon_profiler_set_library(mon_profiler_t, mon_profiler_library_fn,
	    mon_profiler_library_fn) __THROW;
int	mon_profiler_set_jit(mon_profiler_t, mon_profiler_jit_fn) __THROW;

#ifdef __cplusplus
}
#endif

#endif /* !_MON_H */
