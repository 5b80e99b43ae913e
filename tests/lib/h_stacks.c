/*
 * h_stacks -- a cc -p program whose samples fall in known call stacks,
 * for stacks_test.sh.
 *
 *	h_stacks chain MS	main -> outer -> middle -> inner, which
 *				spins MS ms of CPU
 *	h_stacks deep N MS	main -> down(N) -> down(N-1) ... down(0),
 *				which spins MS ms
 *	h_stacks badframe MS	spins MS ms with a frame pointer that
 *				points 16 MiB above the stack, where
 *				nothing is mapped, as hand-written code
 *				may leave it
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h_spin.h"

static volatile long sink;

void
inner(long ms)
{
	SPIN(ms * MS);
}

void
middle(long ms)
{
	inner(ms);
	sink++;		/* not a tail call */
}

void
outer(long ms)
{
	middle(ms);
	sink++;
}

void
down(int n, long ms)
{
	if (n > 0)
		down(n - 1, ms);
	else
		SPIN(ms * MS);
	sink++;
}

/* Spin with %rbp holding bad, the frame pointer restored after. */
void
badframe(long ms, unsigned long bad)
{
	uint64_t end = SPIN_NOW(THREAD) + (uint64_t)ms * MS;

	while (SPIN_NOW(THREAD) < end)
		__asm__ volatile(
		    "pushq %%rbp\n\t"
		    "movq %0, %%rbp\n\t"
		    "movl $2000000, %%ecx\n"
		    "1:\tdecl %%ecx\n\t"
		    "jnz 1b\n\t"
		    "popq %%rbp"
		    : : "r"(bad) : "rcx", "cc", "memory");
}

int
main(int argc, char *argv[])
{
	char here;

	if (argc == 3 && strcmp(argv[1], "chain") == 0)
		outer(atol(argv[2]));
	else if (argc == 4 && strcmp(argv[1], "deep") == 0)
		down(atoi(argv[2]), atol(argv[3]));
	else if (argc == 3 && strcmp(argv[1], "badframe") == 0)
		badframe(atol(argv[2]),
		    ((unsigned long)&here + (16UL << 20)) & ~15UL);
	else {
		fprintf(stderr, "usage: h_stacks chain MS | deep N MS |"
		    " badframe MS\n");
		return 2;
	}
	return 0;
}
