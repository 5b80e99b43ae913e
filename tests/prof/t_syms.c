/*
 * t_syms.c -- a program whose functions prof's tests know to the byte.
 *
 * The functions are laid out in assembly, one 64-byte slot each from
 * alpha on, so that a forged mon.out can put samples and calls exactly
 * where a test wants them.  Slots, counted from alpha:
 *
 *	0  alpha		global, 16 bytes
 *	1  beta, beta2		two global names, one function
 *	2  gamma		local: folds into beta without -g
 *	3  delta		global
 *	4  eps			global NOTYPE, no size: runs to zeta
 *	5  zeta			global, never sampled
 *	6  eta			global, 64 bytes: fills its slot
 *	7  theta		global, 64 bytes, right after eta
 *	8  iota, kappa		iota unsized, kappa sized: iota gives way
 *	9  mu			global
 *	10 nu			global
 *	11 mu.cold		local: folds into mu, not nu, without -g
 *	12 _Z3fooi		global, a C++ name: foo(int)
 *	13 omega		global
 *
 * Whatever the compiler puts after them starts at slot 14 or later.
 * The program itself does nothing.
 */

#define FN(name, bind, size)						\
	"	.p2align 6\n"						\
	"	" bind "	" name "\n"				\
	"	.type	" name ", @function\n"				\
	name ":	ret\n"							\
	"	.fill	" #size " - 1, 1, 0xcc\n"			\
	"	.size	" name ", " #size "\n"

__asm__(
	"	.text\n"
	"	.p2align 8\n"
	FN("alpha", ".globl", 16)
	"	.p2align 6\n"
	"	.globl	beta2\n"
	"	.type	beta2, @function\n"
	"beta2:\n"
	"	.size	beta2, 16\n"
	FN("beta", ".globl", 16)
	FN("gamma", ".local", 16)
	FN("delta", ".globl", 16)
	"	.p2align 6\n"
	"	.globl	eps\n"
	"eps:	ret\n"
	FN("zeta", ".globl", 16)
	FN("eta", ".globl", 64)
	FN("theta", ".globl", 64)
	"	.p2align 6\n"
	"	.globl	iota\n"
	"	.type	iota, @function\n"
	"iota:\n"
	FN("kappa", ".globl", 16)
	FN("mu", ".globl", 16)
	FN("nu", ".globl", 16)
	FN("mu.cold", ".local", 16)
	FN("_Z3fooi", ".globl", 16)
	FN("omega", ".globl", 16)
	"	.p2align 6\n"		/* slot 14 on is not ours */
);

int
main(void)
{
	return 0;
}
