/*
 * mcount, __fentry__ -- the fast path of call counting on x86_64.
 *
 * gcc/clang -pg call mcount after the prologue (or __fentry__ before it,
 * with -mfentry); the return address on the stack is the function's
 * selfpc.  Every argument register may be live, so anything touched is
 * saved.  Fast path: the calling thread's table (a TLS pointer), with
 * d = selfpc - lo, the chunk dir[d >> 12] (struct tbl + 512), and in it
 * the cell at byte ((d >> 3) & 511) * 16, that is (2d) & 0x1ff0; if that
 * cell is selfpc's, one incq and done.  Anything else -- no table yet, a
 * pc outside the main text, no chunk yet, a cell owned by another pc --
 * goes to _mon_count() in mcount.c, with every
 * caller-saved general register preserved and the stack aligned.  The C
 * side is built with -mgeneral-regs-only, so vector registers survive.
 * (This file is not mcount.S: libmon.a's members need names of their
 * own, and mcount.o is the C side's.)
 */
	.text
	.p2align 4
	.globl	mcount
	.type	mcount, @function
	.globl	__fentry__
	.type	__fentry__, @function
	.globl	_mcount
	.type	_mcount, @function
mcount:
_mcount:
__fentry__:
	.cfi_startproc
	cmpl	$0, _mon_counting(%rip)
	je	2f
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	movq	_mon_tls_tbl@gottpoff(%rip), %rax
	movq	%fs:(%rax), %rax		/* struct tbl * */
	testq	%rax, %rax
	jz	3f
	movq	24(%rsp), %rcx			/* selfpc */
	subq	(%rax), %rcx			/* d = selfpc - lo */
	cmpq	8(%rax), %rcx			/* d < len */
	jae	3f
	movq	%rcx, %rdx
	shrq	$12, %rdx
	movq	512(%rax,%rdx,8), %rax		/* chunk = dir[d >> 12] */
	testq	%rax, %rax
	jz	3f
	addq	%rcx, %rcx
	andl	$0x1ff0, %ecx			/* cell's byte in chunk */
	movq	24(%rsp), %rdx			/* selfpc */
	cmpq	(%rax,%rcx), %rdx		/* fnpc == selfpc */
	jne	3f
	incq	8(%rax,%rcx)			/* mcnt++ */
1:	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
2:	ret
3:	.cfi_adjust_cfa_offset 24
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
	.size	mcount, .-mcount
	.size	_mcount, .-_mcount
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack,"",@progbits
