/*
 * mcount, __fentry__ -- the fast path of call counting on x86_64.
 *
 * gcc/clang -pg call mcount after the prologue, with the frame pointer
 * set: the function's return address, frompc, is at 8(%rbp).  With
 * -mfentry they call __fentry__ before it: frompc is just above the
 * return address into the function, selfpc, on the stack.  Every
 * argument register may be live, so anything touched is saved.
 *
 * Fast path: the calling thread's table (a TLS pointer), with
 * d = frompc - lo, the chunk dir[d >> 12] (struct tbl + 512), and in it
 * the 32-byte cell at byte ((d >> 2) & 1023) * 32, that is (8d) & 0x7fe0
 * -- or (8 frompc) & 0x7fe0, lo being page-aligned; if that cell holds
 * this arc (frompc at 0, selfpc at 8), one incq of its count at 16 and
 * done; if not, the same with the arc's other cell in the chunk, at
 * 8 (frompc ^ selfpc >> 2) & 0x7fe0 (a call through a pointer to a
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

/* Count one call; FROMPC is where frompc is once rax, rcx, rdx are saved. */
.macro	COUNT frompc
	.cfi_startproc
	cmpl	$0, _mon_counting(%rip)
	je	2f
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	movq	\frompc, %rdx			/* frompc */
	movq	_mon_tls_tbl@gottpoff(%rip), %rax
	movq	%fs:(%rax), %rax		/* struct tbl * */
	testq	%rax, %rax
	jz	3f
	movq	%rdx, %rcx
	subq	(%rax), %rcx			/* d = frompc - lo */
	cmpq	8(%rax), %rcx			/* d < len */
	jae	6f
	shrq	$12, %rcx
	movq	512(%rax,%rcx,8), %rax		/* chunk = dir[d >> 12] */
	testq	%rax, %rax
	jz	3f
	leaq	(,%rdx,8), %rcx
	andl	$0x7fe0, %ecx			/* home cell's byte in chunk */
	cmpq	(%rax,%rcx), %rdx		/* its call site is frompc */
	jne	4f
	movq	24(%rsp), %rdx			/* selfpc; frompc reloaded */
	cmpq	8(%rax,%rcx), %rdx		/* its callee is selfpc */
	jne	5f
	incq	16(%rax,%rcx)			/* count++ */
1:	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
2:	ret
	.cfi_adjust_cfa_offset 24
5:	movq	\frompc, %rdx
4:	movq	24(%rsp), %rcx			/* the other cell of the arc: */
	shrq	$2, %rcx			/* 8 (frompc ^ selfpc >> 2) */
	xorq	%rdx, %rcx			/* & 0x7fe0 */
	shlq	$3, %rcx
	andl	$0x7fe0, %ecx
	cmpq	(%rax,%rcx), %rdx
	jne	3f
	movq	24(%rsp), %rdx
	cmpq	8(%rax,%rcx), %rdx
	jne	3f
	incq	16(%rax,%rcx)
	jmp	1b
6:	movq	16(%rax), %rax			/* outside: one shared chunk, */
	testq	%rax, %rax			/* the other cell only */
	jnz	4b
3:	movq	\frompc, %rdx			/* for _mon_count */
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	pushq	%r9
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	movq	80(%rsp), %rdi			/* selfpc */
	movq	%rdx, %rsi			/* frompc */
	movq	%rsp, %rbx			/* mcount or __fentry__: */
	.cfi_def_cfa_register %rbx
	andq	$-16, %rsp			/* alignment differs */
	call	_mon_count
	movq	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	popq	%r11
	.cfi_adjust_cfa_offset -8
	popq	%r10
	.cfi_adjust_cfa_offset -8
	popq	%r9
	.cfi_adjust_cfa_offset -8
	popq	%r8
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	jmp	1b
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
	COUNT	8(%rbp)
	.size	mcount, .-mcount
	.size	_mcount, .-_mcount

	.p2align 4
	.globl	__fentry__
	.type	__fentry__, @function
__fentry__:
	COUNT	32(%rsp)
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack,"",@progbits
