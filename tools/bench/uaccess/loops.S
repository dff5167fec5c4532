/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timing loops and C-callable wrappers around the kernel routines.
 *
 * rep_movs_alternative has rep movs' calling convention: %rdi = dst,
 * %rsi = src, %rcx = length; it returns in %rcx the bytes NOT copied and
 * clobbers only %rax, %rsi, %rdi (copy_user_generic() in
 * arch/x86/include/asm/uaccess_64.h declares exactly that).
 *
 * uint64_t loop_X(void *dst, const void *src, const uint64_t *lens, uint64_t n)
 *	n copies, the i-th of lens[i] bytes, between "lfence; rdtsc; lfence"
 *	and "lfence; rdtsc"; returns the TSC ticks.  loopf_X is the same with
 *	an lfence after every copy (each copy finishes before the next starts);
 *	loopb_X has the lfence before every copy instead, after the copy's
 *	length and pointers are loaded, so each copy starts with its arguments
 *	ready (in loopf_X the length is loaded after the previous lfence, and
 *	a routine whose addresses depend on it waits for that load).
 * uint64_t wrap_X(void *dst, const void *src, uint64_t len)
 *	one copy; returns the bytes not copied.
 *
 * X = null (no copy: the loop overhead), movsb (an inline "rep movsb", as
 * copy_user_generic() does on FSRM CPUs), and one per assembled routine.
 *
 * Designs for FSRM CPUs (bench.c's "FSRM designs" tables):
 *   (a) movsb: the inline rep movsb of today;
 *   (b) lt64, lt64_srso, lt64_its: an inline length test, below 64 bytes
 *	 a call of NEW's rep_movs_alternative() (its short path), else an
 *	 inline rep movsb; the call's ret plain or through a return thunk;
 *   (c) const<N>, N = 0..63: a call site whose length is the compile-time
 *	 constant N, expanded inline into straight-line moves (what a compiler
 *	 emits for a constant-size memcpy: whole qwords, the rest in one move
 *	 of 1, 2 or 4 bytes or one overlapping qword), no call, no branch; each
 *	 move has an exception-table entry to a fixup that goes on bytewise
 *	 (shim_byte_tail) from the prefix the moves before it copied, so the
 *	 result stays exact.
 */
	.text

/* an exception-table entry for bench.c's SIGSEGV handler (shim_extable) */
.macro EXTABLE from:req, to:req
	.pushsection shim_extable, "a"
	.balign 4
	.long \from - ., \to - .
	.popsection
.endm

.macro LOOP name, fence, body:vararg
	.p2align 6
	.globl \name
	.type \name, @function
\name:
	push %rbx
	mov %rdi, %r8
	mov %rsi, %r9
	mov %rdx, %r10
	mov %rcx, %r11
	lfence
	rdtsc
	lfence
	shl $32, %rdx
	or %rax, %rdx
	mov %rdx, %rbx
	.p2align 4
1:	mov (%r10), %rcx
	mov %r8, %rdi
	mov %r9, %rsi
	.if \fence == 2
	lfence
	.endif
	\body
	.if \fence == 1
	lfence
	.endif
	add $8, %r10
	dec %r11
	jnz 1b
	lfence
	rdtsc
	shl $32, %rdx
	or %rdx, %rax
	sub %rbx, %rax
	pop %rbx
	ret
	.size \name, .-\name
.endm

.macro WRAP name, body:vararg
	.p2align 4
	.globl wrap_\name
	.type wrap_\name, @function
wrap_\name:
	mov %rdx, %rcx
0:	\body
1:	mov %rcx, %rax
	ret
	.size wrap_\name, .-wrap_\name
.endm

.macro ROUTINE name, body:vararg
	LOOP loop_\name, 0, \body
	LOOP loopf_\name, 1, \body
	LOOP loopb_\name, 2, \body
	WRAP \name, \body
.endm

	ROUTINE null, nop
	ROUTINE movsb, rep movsb
	/* the inline rep movsb of copy_user_generic() has _ASM_EXTABLE_UA(1b, 2b) */
	EXTABLE 0b, 1b

/* (b): cmp $64; below: call the short path; else rep movsb */
.macro LT64 callee
	cmp $64, %ecx
	jae 2f
	call \callee
	jmp 3f
2:	rep movsb
3:
	EXTABLE 2b, 3b
.endm

/*
 * One move of \sz bytes at offset \off, the moves before it having copied
 * the first \done bytes; a fault goes to a fixup that goes on bytewise from
 * there (the site's 8f with %eax = \done), so the count stays exact and
 * nothing past it is written even if the user mapping vanishes mid-copy.
 */
.macro CMOVE sz:req, off:req, done:req
	.if \sz == 8
100:	movq \off(%rsi), %rax
101:	movq %rax, \off(%rdi)
	.elseif \sz == 4
100:	movl \off(%rsi), %eax
101:	movl %eax, \off(%rdi)
	.elseif \sz == 2
100:	movw \off(%rsi), %ax
101:	movw %ax, \off(%rdi)
	.else
100:	movb \off(%rsi), %al
101:	movb %al, \off(%rdi)
	.endif
	.pushsection .text.unlikely, "ax"
102:	mov $\done, %eax
	jmp 8f
	.popsection
	EXTABLE 100b, 102b
	EXTABLE 101b, 102b
.endm

/* (c): the straight-line copy of a constant \n bytes, result in %rcx */
.macro CONST_COPY n:req
	.set cc_off, 0
	.rept \n / 8
	CMOVE 8, cc_off, cc_off
	.set cc_off, cc_off + 8
	.endr
	.set cc_r, \n % 8
	.if cc_r == 1 || cc_r == 2 || cc_r == 4
	CMOVE cc_r, cc_off, cc_off
	.elseif cc_r && \n >= 8
	CMOVE 8, (\n-8), cc_off
	.elseif cc_r == 3
	CMOVE 2, 0, 0
	CMOVE 1, 2, 2
	.elseif cc_r == 5
	CMOVE 4, 0, 0
	CMOVE 1, 4, 4
	.elseif cc_r == 6
	CMOVE 4, 0, 0
	CMOVE 2, 4, 4
	.elseif cc_r == 7
	CMOVE 4, 0, 0
	CMOVE 4, 3, 4
	.endif
	xor %ecx, %ecx
9:
	.pushsection .text.unlikely, "ax"
8:	mov $\n, %ecx
	add %rax, %rsi
	add %rax, %rdi
	sub %rax, %rcx
	call shim_byte_tail
	jmp 9b
	.popsection
.endm

	ROUTINE old, call old_rep_movs_alternative
	ROUTINE new, call new_rep_movs_alternative
	ROUTINE old_srso, call old_srso_rep_movs_alternative
	ROUTINE new_srso, call new_srso_rep_movs_alternative
	ROUTINE old_its, call old_its_rep_movs_alternative
	ROUTINE new_its, call new_its_rep_movs_alternative

	ROUTINE lt64, LT64 new_rep_movs_alternative
	ROUTINE lt64_srso, LT64 new_srso_rep_movs_alternative
	ROUTINE lt64_its, LT64 new_its_rep_movs_alternative

	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63
	ROUTINE const\n, CONST_COPY \n
	.endr

/*
 * The fixup of a (c) site: copy %rcx bytes bytewise, stop at the faulting
 * byte; returns the bytes not copied in %rcx (rep_movs_alternative's tail).
 */
	.pushsection .text.unlikely, "ax"
	.p2align 4
	.type shim_byte_tail, @function
shim_byte_tail:
	test %ecx, %ecx
	je 2f
0:	movb (%rsi), %al
1:	movb %al, (%rdi)
	inc %rdi
	inc %rsi
	dec %rcx
	jne 0b
2:	ret
	.size shim_byte_tail, .-shim_byte_tail
	EXTABLE 0b, 2b
	EXTABLE 1b, 2b
	.popsection

/*
 * uint64_t stepped_call(wrap_fn *w, void *dst, const void *src, uint64_t len)
 *	w(dst, src, len) with EFLAGS.TF set: a SIGTRAP after every instruction
 *	(every iteration of a rep movs), for bench.c's racing-unmap check.
 */
	.p2align 4
	.globl stepped_call
	.type stepped_call, @function
stepped_call:
	sub $8, %rsp
	mov %rdi, %rax
	mov %rsi, %rdi
	mov %rdx, %rsi
	mov %rcx, %rdx
	pushfq
	orq $0x100, (%rsp)
	popfq
	call *%rax
	pushfq
	andq $~0x100, (%rsp)
	popfq
	add $8, %rsp
	ret
	.size stepped_call, .-stepped_call

	.section .note.GNU-stack, "", @progbits
