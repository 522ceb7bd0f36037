/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack_wipe.h - what an engine leaves in the stack below its caller.
 *
 * An engine wipes the arrays it keeps secrets in, but the compiler also
 * spills registers to its frames when it runs out of them: ChaCha20's
 * round state (key words among it), GHASH and Poly1305 sums, a block of
 * text.  No C code can wipe a frame that has returned, so the AEAD
 * dispatcher (aead.c), once an operation is done, calls
 * tlsx_stack_wipe(), whose own frame lies where the engine's did (both
 * called from the dispatcher's frame) and which zeroes as many bytes
 * below that frame as the engine's calls reach (ops->stack_wipe,
 * aead_impl.h): their frames and, in userspace, the 128-byte red zone
 * below them.  test_aead_stack checks nothing is left after an
 * operation; test_aead_wipe_depth that each depth is a quarter more than
 * the engine needs.
 */
#ifndef TLSX_CRYPTO_STACK_WIPE_H
#define TLSX_CRYPTO_STACK_WIPE_H

#include "aead/platform.h"

/* The deepest wipe, and the deepest of the shallow frame. */
#define TLSX_STACK_WIPE_MAX	4096
#define TLSX_STACK_WIPE_SHALLOW	2048

void tlsx_stack_wipe_shallow(size_t bytes);
void tlsx_stack_wipe_deep(size_t bytes);

#ifndef __KERNEL__
/*
 * tlsx_stack_wipe_user() - the same for userspace's handshake primitives
 * (X25519, Ed25519, P-256, ML-KEM, RSA), whose frames reach further than
 * the kernel's stack could hold (ML-KEM about 17 KiB, RSA about 48 KiB):
 * @bytes (> 0) of any size, in a frame of that size.  Their public entry
 * points run a worker (noinline) and then this, from the same frame.
 */
void tlsx_stack_wipe_user(size_t bytes);
#endif

#ifdef TLSX_TEST_HOOKS
/*
 * Test builds of tlsx.ko only (kmod/debugfs_aead.c, the stack probe):
 * the wipes of one task are recorded, the one that reaches deepest kept,
 * and with @skip set they wipe nothing, so the probe sees what they
 * would have had to reach.
 */
struct tlsx_stack_wipe_probe {
	const void *task;	/* the task whose wipes are recorded */
	bool skip;		/* record only */
	unsigned long top;	/* the deepest wipe's upper end, or 0 */
	size_t bytes;		/* its depth */
};

extern struct tlsx_stack_wipe_probe tlsx_stack_wipe_probe;
#endif

/*
 * tlsx_stack_wipe() - zero @bytes (at most TLSX_STACK_WIPE_MAX) of the
 * stack below the caller's frame.  Plain C (stack_wipe.c): callable
 * inside or outside a SIMD section.  Inline, so that the wipe's frame
 * is the caller's next, as the engine's was; a wipe of the shallow
 * frame's size or less takes that frame, which keeps the stack's
 * deepest point where the engine's was.
 */
static __always_inline void tlsx_stack_wipe(size_t bytes)
{
	if (bytes <= TLSX_STACK_WIPE_SHALLOW)
		tlsx_stack_wipe_shallow(bytes);
	else
		tlsx_stack_wipe_deep(bytes);
}

#endif /* TLSX_CRYPTO_STACK_WIPE_H */
