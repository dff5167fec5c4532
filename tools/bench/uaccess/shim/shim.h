/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim for assembling the kernel's arch/x86/lib/copy_user_64.S
 * unchanged.  Only this directory is on the include path (-nostdinc -I shim),
 * so every #include <linux/...> / <asm/...> of the kernel file lands here and
 * the kernel's macros become plain user-space assembly:
 *
 *   SYM_FUNC_START/END, SYM_*      global/local labels with .type/.size
 *   EXPORT_SYMBOL*                 nothing
 *   RET                            "ret; int3" (kernel with SLS mitigation), or
 *                                  with -DSHIM_RETHUNK=sym "jmp sym": a
 *                                  kernel whose returns go through a return
 *                                  thunk (thunk.S models two of them)
 *   _ASM_EXTABLE_UA(from, to)      an entry {from - ., to - .} in section
 *                                  shim_extable; bench.c's SIGSEGV handler
 *                                  looks the faulting RIP up there and resumes
 *                                  at the fixup, as ex_handler_uaccess() does
 *   ALTERNATIVE old, new, feature  the kernel's layout: "old" in place
 *                                  (its jumps sized by their distance
 *                                  there), padded to the length of "new";
 *                                  "new" in section shim_altinstr_repl;
 *                                  an entry in section shim_altinstr says
 *                                  whether the feature bit is set in
 *                                  SHIM_FEATURES (what the kernel would
 *                                  pick on the host CPU).  bench.c's
 *                                  apply_alternatives() patches at start,
 *                                  as the kernel's does at boot: "new" and
 *                                  NOPs over "old", or NOPs over the padding
 *   ANNOTATE_*, UNWIND_HINT_*      nothing (objtool annotations)
 *
 * The routine's symbol names are changed per tree on the command line
 * (-Drep_movs_alternative=old_rep_movs_alternative), so the old and the new
 * routine can live in one binary.
 */
#ifndef SHIM_H
#define SHIM_H

#ifndef __ASSEMBLY__
#error "the shim is for assembling the kernel's .S files only"
#endif

#ifndef SHIM_FEATURES
#define SHIM_FEATURES 0
#endif

/* asm/cpufeatures.h: only the bits the shim's ALTERNATIVE understands */
#define X86_FEATURE_ERMS	0x01
#define X86_FEATURE_FSRM	0x02
#define X86_FEATURE_ALWAYS	0x80
#define ALT_NOT(feature)	((feature) | 0x100)

/* linux/linkage.h, asm/linkage.h */
#define ASM_NL			;
#define SYM_L_GLOBAL(name)	.globl name
#define SYM_L_WEAK(name)	.weak name
#define SYM_L_LOCAL(name)
/*
 * Entry alignment: 64 bytes, then SHIM_ENTRY_OFF bytes of int3 (0, 16, 32,
 * 48: where a kernel routine aligned to CONFIG_FUNCTION_ALIGNMENT=16 can
 * sit in its 64-byte line, which depends on everything linked before it).
 */
#ifndef SHIM_ENTRY_OFF
#define SHIM_ENTRY_OFF		0
#endif
#define SYM_A_ALIGN		.p2align 6, 0xcc ASM_NL .if SHIM_ENTRY_OFF ASM_NL \
				.skip SHIM_ENTRY_OFF, 0xcc ASM_NL .endif
#define SYM_A_NONE
#define SYM_T_FUNC		@function
#define SYM_T_NONE		@notype

#define SYM_START(name, linkage, align)		\
	linkage(name) ASM_NL align ASM_NL name:
#define SYM_END(name, sym_type)			\
	.type name, sym_type ASM_NL .size name, .-name

#define SYM_FUNC_START(name)		SYM_START(name, SYM_L_GLOBAL, SYM_A_ALIGN) ASM_NL ENDBR
#define SYM_FUNC_START_NOALIGN(name)	SYM_START(name, SYM_L_GLOBAL, SYM_A_NONE)
#define SYM_FUNC_START_LOCAL(name)	SYM_START(name, SYM_L_LOCAL, SYM_A_ALIGN)
#define SYM_FUNC_START_LOCAL_NOALIGN(name) SYM_START(name, SYM_L_LOCAL, SYM_A_NONE)
#define SYM_FUNC_START_WEAK(name)	SYM_START(name, SYM_L_WEAK, SYM_A_ALIGN)
#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)
#define SYM_FUNC_END(name)		SYM_END(name, SYM_T_FUNC)
#define SYM_FUNC_ALIAS(alias, name)	.globl alias ASM_NL .set alias, name
#define SYM_CODE_START(name)		SYM_START(name, SYM_L_GLOBAL, SYM_A_ALIGN)
#define SYM_CODE_START_LOCAL(name)	SYM_START(name, SYM_L_LOCAL, SYM_A_ALIGN)
#define SYM_CODE_START_NOALIGN(name)	SYM_START(name, SYM_L_GLOBAL, SYM_A_NONE)
#define SYM_CODE_START_LOCAL_NOALIGN(name) SYM_START(name, SYM_L_LOCAL, SYM_A_NONE)
#define SYM_CODE_END(name)		SYM_END(name, SYM_T_NONE)
#define SYM_INNER_LABEL(name, linkage)	linkage(name) ASM_NL name:
#define SYM_INNER_LABEL_ALIGN(name, linkage) \
	linkage(name) ASM_NL SYM_A_ALIGN ASM_NL name:

/*
 * RET: SHIM_RET_BYTES = 1: "ret" (no SLS mitigation, the harness's minimal
 * config); 2: "ret; int3" (CONFIG_MITIGATION_SLS, the default here); 5:
 * "ret" and 4 int3, what apply_returns() leaves of the 5-byte "jmp
 * __x86_return_thunk" of a CONFIG_MITIGATION_RETHUNK kernel that needs no
 * return thunk on its CPU (the layout of a distribution kernel).
 */
#ifndef SHIM_RET_BYTES
#define SHIM_RET_BYTES	2
#endif
#ifdef SHIM_RETHUNK
#define RET	jmp SHIM_RETHUNK
#elif SHIM_RET_BYTES == 1
#define RET	ret
#elif SHIM_RET_BYTES == 2
#define RET	ret; int3
#elif SHIM_RET_BYTES == 5
#define RET	ret; int3; int3; int3; int3
#else
#error "SHIM_RET_BYTES must be 1, 2 or 5"
#endif

/* objtool annotations and ENDBR: nothing in user space */
#define ANNOTATE_NOENDBR
#define ANNOTATE_RETPOLINE_SAFE
#define ANNOTATE_UNRET_SAFE
#define ANNOTATE_INTRA_FUNCTION_CALL
#define ANNOTATE_UNRET_BEGIN
#define ANNOTATE_NOINSTR_BEGIN
#define ANNOTATE_NOINSTR_END
#define UNWIND_HINT_FUNC
#define UNWIND_HINT_UNDEFINED
#define UNWIND_HINT_EMPTY
/* SHIM_ENDBR=1: CONFIG_X86_KERNEL_IBT's endbr64 at every SYM_FUNC_START */
#if defined(SHIM_ENDBR) && SHIM_ENDBR
#define ENDBR	endbr64
#else
#define ENDBR
#endif

/* linux/export.h */
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)

/* asm/asm.h */
#define _ASM_SP		%rsp
#define _ASM_AX		%rax
#define _ASM_CX		%rcx
#define _ASM_DX		%rdx
#define _ASM_SI		%rsi
#define _ASM_DI		%rdi
#define _ASM_PTR	.quad
#define _ASM_EXTABLE_UA(from, to)			\
	.pushsection shim_extable, "a" ASM_NL		\
	.balign 4 ASM_NL				\
	.long (from) - . ASM_NL				\
	.long (to) - . ASM_NL				\
	.popsection
#define _ASM_EXTABLE(from, to)	_ASM_EXTABLE_UA(from, to)
#define _ASM_EXTABLE_CPY(from, to) _ASM_EXTABLE_UA(from, to)

/*
 * asm/alternative.h: laid out as the kernel's ALTERNATIVE (the original in
 * place, padded with 0x90 to the replacement's length, the replacement
 * elsewhere), so that the code after it lies where it does in a kernel;
 * which one runs is decided here, for the host's features, and applied by
 * bench.c before anything runs.  An entry: {original - ., replacement - .,
 * length in place, length of the original, length of the replacement,
 * 1 if the replacement is taken}.
 */
.macro ALTERNATIVE oldinstr, newinstr, ft_flags
140:
	\oldinstr
141:
	.skip -(((144f-143f)-(141b-140b)) > 0) * ((144f-143f)-(141b-140b)),0x90
142:
	.pushsection shim_altinstr, "a"
	.balign 4
	.long 140b - .
	.long 143f - .
	.byte 142b - 140b
	.byte 141b - 140b
	.byte 144f - 143f
	.if ((\ft_flags) & 0x100)
		.if ((\ft_flags) & (SHIM_FEATURES | X86_FEATURE_ALWAYS) & 0xff)
			.byte 0
		.else
			.byte 1
		.endif
	.else
		.if ((\ft_flags) & (SHIM_FEATURES | X86_FEATURE_ALWAYS))
			.byte 1
		.else
			.byte 0
		.endif
	.endif
	.popsection
	.pushsection shim_altinstr_repl, "ax"
143:
	\newinstr
144:
	.popsection
.endm

.macro ALTERNATIVE_2 oldinstr, newinstr1, ft_flags1, newinstr2, ft_flags2
	.error "shim: ALTERNATIVE_2 is not modelled (copy_user_64.S has none)"
.endm

#endif /* SHIM_H */
