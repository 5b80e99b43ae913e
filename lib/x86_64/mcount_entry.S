/*
 * mcount, __fentry__ -- the fast path of call counting on x86_64.
 *
 * gcc/clang -pg call mcount after the prologue, with the frame pointer
 * set: the function's return address, frompc, is at 8(%rbp).  With
 * -mfentry they call __fentry__ before it: frompc is just above the
 * return address into the function, selfpc, on the stack.  Every
 * argument register may be live; r10 and r11 are not (below).
 *
 * Fast path, in r10 and r11 alone: with d = frompc - lo, if d is below
 * the thread's len (thread-local, local-exec: libmon is in the program),
 * the chunk dir[d >> 12] of the thread's table (struct tbl + 512), and
 * in it the 32-byte cell at byte ((d >> 2) & 1023) * 32, that is
 * (8d) & 0x7fe0 -- or (8 frompc) & 0x7fe0, lo being page-aligned; if
 * that cell holds this arc (frompc at 0, selfpc at 8), one incq of its
 * count at 16 and done: about fifteen instructions, no store but the
 * count's.  If not, the same with the arc's other cell in the chunk,
 * at 8 (frompc ^ selfpc >> 2) & 0x7fe0 (a call through a pointer to a
 * second callee, mcount.c).  A call site outside the main text has only
 * that other cell, in the chunk at 16 in the table.  Anything else -- no
 * table yet, no chunk yet, the cells holding other arcs -- goes to
 * _mon_count(selfpc, frompc) in mcount.c, with every caller-saved
 * general register preserved and the stack aligned.  The C side is
 * built with -mgeneral-regs-only, so vector registers survive.  The two
 * entries differ only in where frompc is; one macro makes both.
 * (This file is not mcount.S: libmon.a's members need names of their
 * own, and mcount.o is the C side's.)
 */

/*
 * Count one call.  FROMPC and SELFPC are where frompc and selfpc are on
 * entry.  Only r10 and r11 are used before the slow path: glibc's
 * mcount clobbers them too, and gcc saves a nested function's static
 * chain, r10, around the call.  _mon_tls is the thread's {table, len}
 * (mcount.c), len 0 until it has one; _mon_gate is lo while counting
 * is on and an address no call site has while it is off.
 */
.macro	COUNT frompc, selfpc
	.cfi_startproc
	movq	\frompc, %r10
	subq	_mon_gate(%rip), %r10		/* d = frompc - lo */
	cmpq	%fs:_mon_tls@tpoff+8, %r10	/* d < len */
	jae	4f
	movq	%fs:_mon_tls@tpoff, %r11	/* struct tbl * */
	shrq	$12, %r10
	movq	512(%r11,%r10,8), %r10		/* chunk = dir[d >> 12] */
	testq	%r10, %r10
	jz	3f
	movq	\frompc, %r11
	shlq	$3, %r11
	andl	$0x7fe0, %r11d			/* home cell's byte in chunk */
	addq	%r11, %r10
	movq	\frompc, %r11
	cmpq	(%r10), %r11			/* its call site is frompc */
	jne	4f
	movq	\selfpc, %r11
	cmpq	8(%r10), %r11			/* its callee is selfpc */
	jne	4f
	incq	16(%r10)			/* count++ */
2:	ret
4:	cmpl	$0, _mon_counting(%rip)		/* the arc's other cell */
	je	2b
	movq	%fs:_mon_tls@tpoff, %r11
	testq	%r11, %r11
	jz	3f
	movq	\frompc, %r10
	subq	(%r11), %r10			/* d = frompc - lo */
	cmpq	8(%r11), %r10
	jae	6f
	shrq	$12, %r10
	movq	512(%r11,%r10,8), %r10
	testq	%r10, %r10
	jz	3f
5:	movq	\selfpc, %r11			/* 8 (frompc ^ selfpc >> 2) */
	shrq	$2, %r11			/* & 0x7fe0 */
	xorq	\frompc, %r11
	shlq	$3, %r11
	andl	$0x7fe0, %r11d
	addq	%r11, %r10
	movq	\frompc, %r11
	cmpq	(%r10), %r11
	jne	3f
	movq	\selfpc, %r11
	cmpq	8(%r10), %r11
	jne	3f
	incq	16(%r10)
	ret
6:	movq	16(%r11), %r10			/* outside: one shared chunk, */
	testq	%r10, %r10			/* the other cell only */
	jnz	5b
3:	movq	\frompc, %r10			/* for _mon_count */
	movq	\selfpc, %r11
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	pushq	%r9
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	movq	%r11, %rdi			/* selfpc */
	movq	%r10, %rsi			/* frompc */
	movq	%rsp, %rbx			/* mcount or __fentry__: */
	.cfi_def_cfa_register %rbx
	andq	$-16, %rsp			/* alignment differs */
	call	_mon_count
	movq	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%r9
	.cfi_adjust_cfa_offset -8
	popq	%r8
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
.endm

	.text
	.p2align 4
	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
mcount:
_mcount:
	COUNT	8(%rbp), (%rsp)
	.size	mcount, .-mcount
	.size	_mcount, .-_mcount

	.p2align 4
	.globl	__fentry__
	.type	__fentry__, @function
__fentry__:
	COUNT	8(%rsp), (%rsp)
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack,"",@progbits
