/*
 * h_burn.h -- CPU burners at known addresses, for the tests and for the
 * helpers that are profiled.
 *
 * The burners are written in assembly so that their extent is exact:
 * burn_X(n) spins n times in a two-instruction loop between burn_X and
 * burn_X_end, and a sample taken while it runs has a pc in that range.
 * They are 256 bytes apart, so no histogram counter straddles two, and
 * 16 KiB of int3 padding on either side keep every other function of
 * the program out of a histogram that covers them.
 *
 * Tests judge counts, never speed: a burner runs until enough samples
 * have been seen or a generous CPU-time cap is reached, and the cap is
 * only a way out for a test that is going to fail anyway.
 */
#ifndef H_BURN_H
#define H_BURN_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define BURNER(name)					\
	"	.p2align 8\n"				\
	"	.globl " #name "\n"			\
	"	.type " #name ", @function\n"		\
	#name ":\n"					\
	"0:	subq $1, %rdi\n"			\
	"	jnz 0b\n"				\
	"	ret\n"					\
	"	.size " #name ", .-" #name "\n"		\
	"	.globl " #name "_end\n"			\
	#name "_end:\n"

__asm__(
	"	.text\n"
	"	.p2align 12\n"
	"	.skip 16384, 0xcc\n"
	BURNER(burn_a)
	BURNER(burn_b)
	BURNER(burn_c)
	"	.p2align 8\n"
	"	.skip 16384, 0xcc\n");

void	burn_a(unsigned long);
void	burn_b(unsigned long);
void	burn_c(unsigned long);
extern const char burn_a_end[], burn_b_end[], burn_c_end[];

#define BURN_CHUNK	(1UL << 20)		/* spins between checks */
#define CPU_CAP_NS	(10ULL * 1000000000)	/* give up after this */
#define MS		1000000ULL

static inline uint64_t
cpu_ns(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The calling thread's CPU time. */
static inline uint64_t
thread_ns(void)
{
	return cpu_ns(CLOCK_THREAD_CPUTIME_ID);
}

/*
 * Spin in fn until enough(arg) says so or the thread has used cap_ns of
 * CPU.  Returns 1 if enough was reached.
 */
static inline int
burn_until(void (*fn)(unsigned long), int (*enough)(void *), void *arg,
    uint64_t cap_ns)
{
	uint64_t t0;

	t0 = thread_ns();
	while (!enough(arg)) {
		if (thread_ns() - t0 >= cap_ns)
			return 0;
		fn(BURN_CHUNK);
	}
	return 1;
}

/* Spin in fn for ns of the thread's CPU time. */
static inline void
burn_for(void (*fn)(unsigned long), uint64_t ns)
{
	uint64_t t0;

	t0 = thread_ns();
	while (thread_ns() - t0 < ns)
		fn(BURN_CHUNK);
}

/* Sum of n 16-bit counters, read once each. */
static inline uint64_t
wsum(const volatile unsigned short *w, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += w[i];
	return s;
}

#endif /* !H_BURN_H */
