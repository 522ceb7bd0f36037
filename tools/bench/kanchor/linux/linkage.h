/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linkage.h - the few assembler macros the kernel's x86 AEAD code in
 * build/ksrc/arch/x86/crypto uses, for assembling it into tlsx-bench as
 * the kernel anchor (tools/bench/crypto_kernel.c).  Userspace has no
 * return thunks, CFI or objtool annotations: a function is a global
 * label with a type and a size, and RET a plain ret.
 */
#ifndef TLSX_BENCH_KANCHOR_LINKAGE_H
#define TLSX_BENCH_KANCHOR_LINKAGE_H

#define SYM_FUNC_START(name)	\
	.globl name;		\
	.type name, @function;	\
	.p2align 4;		\
	name:

#define SYM_FUNC_START_LOCAL(name)	\
	.type name, @function;		\
	.p2align 4;			\
	name:

#define SYM_FUNC_END(name)	\
	.size name, . - name

#define RET	ret

#endif
