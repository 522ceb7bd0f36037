/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack_wipe.h - what an engine leaves in the stack below its caller.
 *
 * An engine wipes the arrays it keeps secrets in, but the compiler also
 * spills registers to the frame when it runs out of them: ChaCha20's
 * round state, key words among it, in the SIMD passes and the scalar
 * block.  No C code can wipe a frame that has returned, so such an
 * engine's entry point calls a worker (noinline) that does the work, then
 * tlsx_stack_wipe(), whose own frame lies where the worker's did (both
 * are called from the entry point's frame) and which zeroes @bytes of
 * the stack there: the worker chain's frames and, in userspace, the
 * 128-byte red zone below them.  Each engine names its depth (measured:
 * test_chacha_engines' stack_left_behind reads 8 KiB below and fails on
 * any byte that depends on the key).
 */
#ifndef TLSX_CRYPTO_STACK_WIPE_H
#define TLSX_CRYPTO_STACK_WIPE_H

#include "aead/platform.h"

/* The deepest wipe (stack_wipe.c: one frame). */
#define TLSX_STACK_WIPE_MAX	2560

/*
 * tlsx_stack_wipe() - zero @bytes (at most TLSX_STACK_WIPE_MAX) of the
 * stack below the caller's frame.  Plain C (stack_wipe.c): callable
 * inside or outside a SIMD section.
 */
void tlsx_stack_wipe(size_t bytes);

#endif /* TLSX_CRYPTO_STACK_WIPE_H */
