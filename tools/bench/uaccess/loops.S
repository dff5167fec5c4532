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
 *	an lfence after every copy (each copy finishes before the next starts).
 * uint64_t wrap_X(void *dst, const void *src, uint64_t len)
 *	one copy; returns the bytes not copied.
 *
 * X = null (no copy: the loop overhead), movsb (an inline "rep movsb", as
 * copy_user_generic() does on FSRM CPUs), and one per assembled routine.
 */
	.text

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
	\body
	.if \fence
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
	WRAP \name, \body
.endm

	ROUTINE null, nop
	ROUTINE movsb, rep movsb
	/* the inline rep movsb of copy_user_generic() has _ASM_EXTABLE_UA(1b, 2b) */
	.pushsection shim_extable, "a"
	.balign 4
	.long 0b - ., 1b - .
	.popsection

	ROUTINE old, call old_rep_movs_alternative
	ROUTINE new, call new_rep_movs_alternative
	ROUTINE old_srso, call old_srso_rep_movs_alternative
	ROUTINE new_srso, call new_srso_rep_movs_alternative
	ROUTINE old_its, call old_its_rep_movs_alternative
	ROUTINE new_its, call new_its_rep_movs_alternative

	.section .note.GNU-stack, "", @progbits
