/*
 * mcount, __fentry__ -- the fast path of call counting on x86_64.
 *
 * gcc/clang -pg call mcount after the prologue, with the frame pointer
 * set: the function's return address, frompc, is at 8(%rbp).  With
 * -mfentry they call __fentry__ before it: frompc is just above the
 * return address into the function, selfpc, on the stack -- or one
 * word higher in a GNU C nested function, where gcc pushes the static
 * chain, r10, before the call; _mon_count tells that case by the push
 * before the call, and gets the word from here.  Every argument
 * register may be live, and so may r10 in mcount: gcc keeps the
 * pointer to the arguments of a function whose stack it realigns there
 * (DRAP: an over-aligned local and a variable-length array, arguments
 * on the stack) and does not save it around the call.  Only r11 is
 * free in mcount, r10 and r11 in __fentry__.
 *
 * Two tables, tried in turn (mcount.c says why): the thread's own, and
 * its id's counts by arc number (the id its rseq concurrency id or CPU,
 * or without rseq an id of its own).  In r10 and r11 (mcount keeps r10
 * in the red zone):
 *
 * 1. The thread's own table (_mon_tls at 0 and 8, thread-local,
 *    local-exec: libmon is in the program): the arc's home cell, at
 *    byte (4 frompc) & mask, that is cell (frompc >> 3) mod 2^k of 32
 *    bytes; if it holds this arc (frompc at 0, selfpc at 8), one incq
 *    of its count at 16 and done: a dozen instructions.  Else its other
 *    cell, found the same way from frompc ^ selfpc >> 2 and both the
 *    thread's mask and _mon_omask (the home cell of a site that calls
 *    several functions, a dispatch through a table or a virtual call,
 *    holds only one of them), unless _mon_omask is 0: other cells are
 *    no longer used.
 *
 * 2. The counts of the thread's id, which the thread keeps at 32 and
 *    whose id it reads through the pointer at 24 (into its rseq area):
 *    the arc's number is in the index's (_mon_ix) home slot,
 *    (frompc >> 3) & mask, or its other slot,
 *    ((frompc ^ selfpc >> 2) >> 3) & mask, where the arc of that number
 *    (_mon_arcv, 16 bytes each) is frompc and selfpc; its count is the
 *    number's 8 bytes in the counts.  All in a restartable sequence
 *    that checks that the counts are still the id's and ends with the
 *    incq (below).
 *
 * Anything else -- no table yet (nocell, which holds no arc), a thread
 * that moved to another id, the cells and both slots holding other arcs
 * -- goes to _mon_count(selfpc, frompc, up) in mcount.c, with every
 * general register the entry must keep preserved and the stack
 * aligned; if it says so (it has found or made the arc's cell or slot,
 * or set the thread up), the fast path starts over.  The C side is
 * built with -mgeneral-regs-only, so vector registers survive.  One
 * macro, COUNT, makes both entries; ISARC is its compare of a cell or
 * an arc with the call, CALLC its way into C.
 *
 * _mon_counting is 1 while counting: one compare and the fast path.  0
 * (off) returns at once; 2 (a profiler has an enter hook) first gives
 * the call to _mon_count_hooked(), saving the vector registers too,
 * then counts it by the fast path.
 * (This file is not mcount.S: libmon.a's members need names of their
 * own, and mcount.o is the C side's.)
 */

#define RSEQ_SIG	0x53053053	/* glibc's: before an abort handler */
#define RSEQ_CS		8		/* struct rseq's rseq_cs (mcount.c) */
#define SHIFT		2		/* 32-byte cells, 8 bytes of text a
					   cell */
#define GRAIN		3		/* 8 bytes of text a slot: mcount.c's */

/*
 * Save (to) or restore (from) the vector registers that may hold the
 * arguments of the function called, 0 to 7, at (%rsp): all 512 bits of
 * each where the system has enabled AVX-512 (_mon_vecsave 2, set by
 * mcount.c), 256 where AVX (1), else 128.  Then the low 128 bits of 8
 * to 15, at 512(%rsp): a function of Microsoft's calling convention
 * (ms_abi, which gcc and clang build for Wine and UEFI code) keeps
 * xmm6 to xmm15 for its caller, and its mcount or __fentry__ call
 * comes before its prologue saves them -- a hook, C code of the System
 * V convention, may change any of them.  CALLC makes room for 640
 * bytes whatever the width.  xsave would take the whole
 * state, but it and xrstor cost 600 ns on the bench's virtual machine,
 * against 5 for the moves.
 */
#define VECBYTES	640		/* 8 x 64, and 8 x 16 */

.macro	VECS sse, avx, avx512, dir
	cmpb	$1, _mon_vecsave(%rip)
	jb	5f
	je	6f
	VEC8	\avx512, zmm, 64, \dir
	VECHI	\avx, \dir
	jmp	7f
6:	VEC8	\avx, ymm, 32, \dir
	VECHI	\avx, \dir
	jmp	7f
5:	VEC8	\sse, xmm, 16, \dir
	VECHI	\sse, \dir
7:
.endm

.macro	VEC8 op, reg, size, dir
	.irp	i, 0, 1, 2, 3, 4, 5, 6, 7
	.ifc	\dir, to
	\op	%\reg\i, \i*\size(%rsp)
	.else
	\op	\i*\size(%rsp), %\reg\i
	.endif
	.endr
.endm

/* xmm8 to xmm15, at 512(%rsp): their upper bits are ms_abi's to lose. */
.macro	VECHI op, dir
	.irp	i, 8, 9, 10, 11, 12, 13, 14, 15
	.ifc	\dir, to
	\op	%xmm\i, 512+(\i-8)*16(%rsp)
	.else
	\op	512+(\i-8)*16(%rsp), %xmm\i
	.endif
	.endr
.endm

/*
 * Call the C function fn(selfpc, frompc, up, kind) with every register
 * the entry must keep preserved and the stack aligned (r10 waiting in
 * the red zone if KEEP; the word there is popped into r10 either way,
 * r10 being free in __fentry__); if it returns non-zero the fast path
 * (0:) counts the call, else the entry returns.  With VEC, fn may run
 * code that uses the vector registers (a profiler's hook): those that
 * may hold the arguments of the function called, or that an ms_abi
 * function keeps, are saved around it (VECS).  The entry's frame is 72
 * bytes, up to 56 more to align it, and with VEC 640 for the vector
 * registers.
 */
.macro	CALLC fn, frompc, selfpc, keep, up, kind, vec
	movq	\frompc, %r10			/* for fn */
	movq	\selfpc, %r11
	subq	$8, %rsp			/* over r10, if kept */
	.cfi_adjust_cfa_offset 8
	.if \keep
	.cfi_rel_offset %r10, 0
	.endif
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
	.cfi_rel_offset %rbx, 0
	movq	%rsp, %rbx			/* mcount or __fentry__: */
	.cfi_def_cfa_register %rbx
	andq	$-64, %rsp			/* alignment differs */
	.if \vec
	subq	$VECBYTES, %rsp
	VECS	movdqu, vmovdqu, vmovdqu64, to
	.endif
	movq	%r11, %rdi			/* selfpc */
	movq	%r10, %rsi			/* frompc */
	.if \up
	movq	72+\up(%rbx), %rdx		/* the word above it */
	.else
	xorl	%edx, %edx
	.endif
	movl	$\kind, %ecx			/* 1: __fentry__ */
	call	\fn
	movl	%eax, %r11d			/* 1: the fast path counts it */
	.if \vec
	VECS	movdqu, vmovdqu, vmovdqu64, from
	.endif
	movq	%rbx, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
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
	popq	%r10
	.cfi_adjust_cfa_offset -8
	.if \keep
	.cfi_restore %r10
	.endif
	testl	%r11d, %r11d
	jnz	0b
	ret

.endm

/*
 * Is the arc at (%r11) -- a cell, or an arc by number -- frompc calling
 * selfpc?  Jumps to MISS if not; if so, jumps to HIT, or falls through
 * when no HIT is given.  Clobbers r10.
 */
.macro	ISARC frompc, selfpc, miss, hit
	movq	\frompc, %r10
	cmpq	(%r11), %r10
	jne	\miss
	movq	\selfpc, %r10
	cmpq	8(%r11), %r10
	.ifnb \hit
	je	\hit
	.else
	jne	\miss
	.endif
.endm

/*
 * Count one call.  NAME names the restartable sequence; FROMPC and
 * SELFPC are where frompc and selfpc are on entry; KEEP is 1 if r10
 * must be kept, which waits in the red zone, below the return address,
 * where a signal handler's frame leaves it alone; UP, if not 0, is the
 * offset from %rsp on entry of the word above frompc; KIND is 1 in
 * __fentry__, 0 in mcount, for _mon_count_hooked().
 *
 * The sequence of step 2 runs from NAME_start, where it names itself in
 * the rseq area (first, so that a handler that ran an mcount of its own
 * before it leaves no other sequence named), to the increment that
 * commits it.  The kernel sends a thread that is preempted, migrated or
 * signalled inside it to NAME_abort, which starts over.
 */
.macro	COUNT name, frompc, selfpc, keep, up, kind
	cmpl	$1, _mon_counting(%rip)	/* 1: counting, no hook */
	jne	8f
0:
	.if \keep
	movq	%r10, -8(%rsp)
	.endif
	movq	\frompc, %r10			/* 1: the thread's table */
	movq	%r10, %r11
	shlq	$SHIFT, %r11
	andq	%fs:_mon_tls@tpoff+8, %r11	/* the home cell's byte */
	addq	%fs:_mon_tls@tpoff, %r11	/* the home cell */
	cmpq	(%r11), %r10			/* its call site is frompc */
	jne	6f
	movq	\selfpc, %r10
	cmpq	8(%r11), %r10			/* its callee is selfpc */
	jne	6f
7:	incq	16(%r11)			/* count++ */
	.if \keep
	movq	-8(%rsp), %r10
	.endif
	ret
6:	movq	_mon_omask(%rip), %r11		/* the other cells' mask */
	testq	%r11, %r11
	jz	5f				/* 0: not used */
	movq	\selfpc, %r10			/* the other cell */
	shrq	$2, %r10
	xorq	\frompc, %r10
	shlq	$SHIFT, %r10
	andq	%r10, %r11
	andq	%fs:_mon_tls@tpoff+8, %r11	/* 0 without a table */
	addq	%fs:_mon_tls@tpoff, %r11
	ISARC	\frompc, \selfpc, 5f, 7b
5:	movq	%fs:_mon_tls@tpoff+16, %r11	/* 2: the id's: the rseq area */
	leaq	\name\()_cs(%rip), %r10
\name\()_start:
	movq	%r10, RSEQ_CS(%r11)		/* the sequence under way */
	movq	%fs:_mon_tls@tpoff+24, %r11
	movq	%fs:_mon_tls@tpoff+32, %r10	/* the counts kept */
	movl	(%r11), %r11d			/* the thread's id */
	cmpl	-16(%r10), %r11d		/* is theirs */
	jne	4f
	movq	\frompc, %r11			/* the home slot */
	shrq	$GRAIN, %r11
	andq	_mon_ix(%rip), %r11		/* the mask, then */
	movq	_mon_ix+8(%rip), %r10		/* the slots */
	movl	(%r10,%r11,4), %r11d		/* the arc's number */
	shlq	$4, %r11
	addq	_mon_arcv(%rip), %r11		/* the arc */
	ISARC	\frompc, \selfpc, 2f, 3f
2:	movq	\selfpc, %r11			/* the other slot */
	shrq	$2, %r11
	xorq	\frompc, %r11
	shrq	$GRAIN, %r11
	andq	_mon_ix(%rip), %r11
	movq	_mon_ix+8(%rip), %r10
	movl	(%r10,%r11,4), %r11d
	shlq	$4, %r11
	addq	_mon_arcv(%rip), %r11
	ISARC	\frompc, \selfpc, 4f
3:	subq	_mon_arcv(%rip), %r11		/* 16 x the number */
	shrq	$1, %r11
	addq	%fs:_mon_tls@tpoff+32, %r11	/* its count */
	incq	(%r11)				/* count++: the commit */
\name\()_end:
	.if \keep
	movq	-8(%rsp), %r10
	.endif
9:	ret					/* (or counting is off) */

	.byte	0x0f, 0xb9, 0x3d		/* ud1 RSEQ_SIG(%rip), %edi */
	.long	RSEQ_SIG
\name\()_abort:
	jmp	5b				/* step 2 again */

4:	CALLC	_mon_count, \frompc, \selfpc, \keep, \up, 0, 0

	/*
	 * Counting is off (0: return), or a profiler has an enter hook
	 * (2): _mon_count_hooked() gives it the call, and the fast path
	 * counts it.
	 */
8:	jb	9b
	.if \keep
	movq	%r10, -8(%rsp)
	.endif
	CALLC	_mon_count_hooked, \frompc, \selfpc, \keep, \up, \kind, 1

	/* The sequence for the kernel: version, flags, start, length, abort */
	.pushsection .data.rel.ro, "aw"
	.p2align 5
\name\()_cs:
	.long	0, 0
	.quad	\name\()_start, \name\()_end - \name\()_start, \name\()_abort
	.popsection
.endm

	/*
	 * Each entry starts a 64-byte line, so that its fast path is
	 * fetched from as few lines as can be: on the bench's machine a
	 * call of a tiny function built with -pg cost 1.39 times an empty
	 * mcount's with the entries 16-byte aligned, 1.18 times with this.
	 */
	.text
	.p2align 6
	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
mcount:
_mcount:
	.cfi_startproc
	COUNT	mcount, 8(%rbp), (%rsp), 1, 0, 0
	.cfi_endproc
	.size	mcount, .-mcount
	.size	_mcount, .-_mcount

	.p2align 6
	.globl	__fentry__
	.type	__fentry__, @function
__fentry__:
	.cfi_startproc
	COUNT	fentry, 8(%rsp), (%rsp), 0, 16, 1
	.cfi_endproc
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack,"",@progbits
