/*
 * h_burn.h -- the unit of CPU work the prof end-to-end helpers burn,
 * and the thread CPU clock they measure it by.
 *
 * BURN(n) spins n rounds of an LCG in the body of the function that
 * uses it: being a macro, it puts the time in that function and in no
 * callee, which is what the tests need to predict the report.
 */
#ifndef _H_BURN_H
#define _H_BURN_H

#include <err.h>
#include <time.h>

static volatile unsigned long burn_sink;

#define BURN(n) do {							\
	unsigned long i_, x_ = burn_sink;				\
	for (i_ = 0; i_ < (n); i_++)					\
		x_ = x_ * 2862933555777941757UL + 3037000493UL;		\
	burn_sink = x_;							\
} while (0)

/* The calling thread's CPU seconds: the truth the helpers measure. */
static inline double
thread_cpu(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		err(1, "clock_gettime");
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * TIMED(call, sum) makes the call and adds the thread CPU seconds it
 * took to sum.  A macro, not a function: the timing adds no counted function,
 * and its clock reads go to the vDSO, outside the program's rows.
 */
#define TIMED(call, sum) do {						\
	struct timespec a_, b_;						\
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a_);			\
	call;								\
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b_);			\
	(sum) += (double)(b_.tv_sec - a_.tv_sec) +			\
	    (double)(b_.tv_nsec - a_.tv_nsec) / 1e9;			\
} while (0)

#endif /* !_H_BURN_H */
