/*
 * floor.S -- the empty hook: mcount, _mcount and __fentry__ that return
 * at once; and the -finstrument-functions hooks, likewise.
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

/*
 * And the hooks of -finstrument-functions, for row 28: libmon's
 * __cyg_profile_func_enter and __cyg_profile_func_exit held to hooks
 * that return at once.
 */
	.globl	__cyg_profile_func_enter
	.globl	__cyg_profile_func_exit
	.type	__cyg_profile_func_enter, @function
	.type	__cyg_profile_func_exit, @function
	.p2align 4
__cyg_profile_func_enter:
__cyg_profile_func_exit:
	ret
	.size	__cyg_profile_func_enter, .-__cyg_profile_func_enter
	.size	__cyg_profile_func_exit, .-__cyg_profile_func_exit

	.section .note.GNU-stack, "", @progbits
