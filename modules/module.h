/*
 * module.h -- what the profiler modules that ship with libmon share:
 * the clock they time calls by and the memory they keep, from mmap so
 * that a module takes nothing from the program's heap.
 */
#ifndef _MODULE_H
#define _MODULE_H

#include <sys/mman.h>

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds: the calls' start and end. */
static inline uint64_t
now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* n bytes of zeroed memory of the module's own, or NULL. */
static inline void *
map(size_t n)
{
	void *p;

	p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	    -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

#endif /* !_MODULE_H */
