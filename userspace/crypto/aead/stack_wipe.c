// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx_stack_wipe() (stack_wipe.h), out of line in its own file so that
 * no caller inlines it and moves its frame.  One frame, so no return
 * address or padding of a second one is left between wiped parts.  The
 * frame is larger than the kernel's 2 KiB warning, which is about stack
 * depth: this one lies where the engine's own frames just were, about as
 * deep, so it adds little to the deepest point of the call; and the
 * deeper frame is only taken by a wipe that asks for more than the
 * shallow one holds.
 */
#include "aead/stack_wipe.h"

/*
 * The areas are TLSX_NOINIT: the kernel would zero the whole area at
 * entry, whatever @bytes asks; memzero_explicit() does the wipe.
 */

#ifdef TLSX_TEST_HOOKS
#include <linux/sched.h>

struct tlsx_stack_wipe_probe tlsx_stack_wipe_probe;

/* Record a wipe of @bytes below @top; true: wipe nothing (stack_wipe.h). */
static noinline bool tlsx_stack_wipe_test(const u8 *top, size_t bytes)
{
	struct tlsx_stack_wipe_probe *p = &tlsx_stack_wipe_probe;
	unsigned long end = (unsigned long)top;

	if (READ_ONCE(p->task) != current)
		return false;
	if (!p->top || end - bytes < p->top - p->bytes) {
		p->top = end;
		p->bytes = bytes;
	}
	return p->skip;
}
#else
static inline bool tlsx_stack_wipe_test(const u8 *top, size_t bytes)
{
	(void)top;
	(void)bytes;
	return false;
}
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wframe-larger-than="
noinline void tlsx_stack_wipe_shallow(size_t bytes)
{
	u8 area[TLSX_STACK_WIPE_SHALLOW] TLSX_NOINIT;

	if (!tlsx_stack_wipe_test(area + sizeof(area), bytes))
		memzero_explicit(area + sizeof(area) - bytes, bytes);
}

noinline void tlsx_stack_wipe_deep(size_t bytes)
{
	u8 area[TLSX_STACK_WIPE_MAX] TLSX_NOINIT;

	if (!tlsx_stack_wipe_test(area + sizeof(area), bytes))
		memzero_explicit(area + sizeof(area) - bytes, bytes);
}
#pragma GCC diagnostic pop

#ifndef __KERNEL__
noinline void tlsx_stack_wipe_user(size_t bytes)
{
	u8 area[bytes];		/* userspace: no frame limit to keep */

	memzero_explicit(area, bytes);
}
#endif
