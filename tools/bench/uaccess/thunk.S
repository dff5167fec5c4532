/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Return thunks for the "RET goes through a thunk" variants of the kernel
 * routine (assembled with -DSHIM_RETHUNK=<one of these>).  Plain user-space
 * assembly, modelled on arch/x86/lib/retpoline.S of Linux 6.12:
 *
 * shim_srso_return_thunk models srso_return_thunk + srso_safe_ret, the
 *   default return thunk on AMD Zen 3/4 (spec_rstack_overflow=safe-ret; those
 *   CPUs run the srso_alias_* copies, the same instructions at other
 *   addresses):
 *	srso_return_thunk:	call srso_safe_ret; ud2
 *	srso_safe_ret:		lea 8(%rsp), %rsp; ret
 *   The call pushes a return-stack-buffer entry (pointing at the ud2) that
 *   the final ret does not return to, so every return through the thunk is
 *   mispredicted on purpose: that misprediction is the mitigation's cost.
 *
 * shim_its_return_thunk models its_return_thunk, what an Intel CPU with the
 *   ITS bug gets ("Mitigation: Aligned branch/return thunks", e.g. the host
 *   this benchmark was written on): a plain ret in the upper half of a
 *   64-byte line, reached by a direct jmp.
 */
	.text

	.balign 64, 0xcc
	.skip 32, 0xcc
	.globl shim_its_return_thunk
	.type shim_its_return_thunk, @function
shim_its_return_thunk:
	ret
	int3
	.size shim_its_return_thunk, .-shim_its_return_thunk

	.balign 64, 0xcc
	.type shim_srso_safe_ret, @function
shim_srso_safe_ret:
	lea 8(%rsp), %rsp
	ret
	int3
	.size shim_srso_safe_ret, .-shim_srso_safe_ret

	.globl shim_srso_return_thunk
	.type shim_srso_return_thunk, @function
shim_srso_return_thunk:
	call shim_srso_safe_ret
	ud2
	.size shim_srso_return_thunk, .-shim_srso_return_thunk

	.section .note.GNU-stack, "", @progbits
