/*
 * h_spin.h -- CPU work measured in CPU time, for the cc -p helpers of
 * faults_test and the shared library they dlopen.
 *
 * SPIN(ns) spins in the body of the function that uses it -- being a
 * macro, it puts the time in that function and in no callee but the
 * clock read between chunks -- until the calling thread has used ns
 * nanoseconds of CPU time.  Work is bounded by CPU time, never by the
 * wall clock, so a loaded machine makes a run slower, not different.
 */
#ifndef H_SPIN_H
#define H_SPIN_H

#include <stdint.h>
#include <time.h>

/*
 * LCG rounds between clock reads: SPIN_LONG while SPIN_LEFT ns or more
 * are left, so that the reads' system time -- a few percent of the
 * run on a loaded virtual machine with SPIN_CHUNK -- stays small.
 */
#define SPIN_CHUNK	50000UL
#define SPIN_LONG	500000UL
#define SPIN_LEFT	5000000ULL
#define MS		1000000ULL

static volatile unsigned long spin_sink;

/* CPU time of the calling thread (THREAD) or process (PROCESS), in ns. */
#define SPIN_NOW(clk) __extension__ ({					\
	struct timespec ts_;						\
	clock_gettime(CLOCK_ ## clk ## _CPUTIME_ID, &ts_) != 0 ? 0ULL :	\
	    (uint64_t)ts_.tv_sec * 1000000000ULL + (uint64_t)ts_.tv_nsec; \
})

#define SPIN(ns) do {							\
	uint64_t t0_ = SPIN_NOW(THREAD), d_;				\
	unsigned long i_, n_, x_ = spin_sink;				\
	while ((d_ = SPIN_NOW(THREAD) - t0_) < (uint64_t)(ns)) {	\
		n_ = (uint64_t)(ns) - d_ >= SPIN_LEFT ? SPIN_LONG :	\
		    SPIN_CHUNK;						\
		for (i_ = 0; i_ < n_; i_++)				\
			x_ = x_ * 6364136223846793005UL +		\
			    1442695040888963407UL;			\
	}								\
	spin_sink = x_;							\
} while (0)

#endif /* !H_SPIN_H */
