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
 * are the mon_perfmap calls, for programs that generate code.
 */
#ifndef _MON_H
#define _MON_H

#include <stddef.h>
#include <sys/cdefs.h>	/* __THROW: match glibc's profil() in C++ */

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

#ifdef __cplusplus
}
#endif

#endif /* !_MON_H */
