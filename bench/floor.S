/*
 * floor.S -- the empty hook: mcount, _mcount and __fentry__ that return
 * at once.
 *
 * Linked instead of libmon into a program compiled with -p, -pg or
 * -pg -mfentry, it gives the least such a build can cost: the calls
 * the compiler added, each to a bare ret, and nothing else.  Rows 11,
 * 12 and 23 to 25 hold libmon's builds to it.  The program must be
 * linked without -p or -pg, so that no gcrt1.o asks for a profiler's
 * start-up (bench/lib/build.sh says how).
 */
	.text
	.globl	mcount
	.globl	_mcount
	.globl	__fentry__
	.type	mcount, @function
	.type	_mcount, @function
	.type	__fentry__, @function
	.p2align 4
mcount:
_mcount:
__fentry__:
	ret
	.size	mcount, .-mcount
	.size	_mcount, .-_mcount
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack, "", @progbits
