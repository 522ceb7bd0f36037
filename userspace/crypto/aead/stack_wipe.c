// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx_stack_wipe() (stack_wipe.h), out of line in its own file so that
 * no caller inlines it and moves its frame.  One frame, so no return
 * address or padding of a second one is left between wiped parts.  The
 * frame is larger than the kernel's 2 KiB warning, which is about stack
 * depth: this one lies where the engine's own frames just were, about as
 * deep (the AVX2 ChaCha20 passes reach 2 KiB), so it adds little to the
 * deepest point of the call.
 */
#include "aead/stack_wipe.h"

/*
 * The kernel zeroes every local at entry (-ftrivial-auto-var-init=zero):
 * all TLSX_STACK_WIPE_MAX bytes, whatever @bytes asks.  Exempt the area;
 * memzero_explicit() does the wipe.
 */
#if __has_attribute(__uninitialized__)
#define WIPE_NOINIT	__attribute__((__uninitialized__))
#else
#define WIPE_NOINIT
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wframe-larger-than="
noinline void tlsx_stack_wipe(size_t bytes)
{
	u8 area[TLSX_STACK_WIPE_MAX] WIPE_NOINIT;

	memzero_explicit(area + sizeof(area) - bytes, bytes);
}
#pragma GCC diagnostic pop
