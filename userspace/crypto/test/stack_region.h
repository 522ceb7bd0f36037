/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack_region.h - fill the stack below the caller with a pattern, and
 * read it back: what a call made in between left there.  For the stack
 * probes (aead/test/stack_probe.h, test_stack_left, test_stack_depth):
 * run an operation twice with everything public equal and the secrets
 * different; a byte that differs between the two reads is a secret left
 * behind.
 *
 * The functions are noinline and called from one frame, the one that
 * makes the probed call, so their frames lie where that call's frames
 * begin; the region is @size bytes from STACK_REGION_TOP below their
 * frame down (the top bytes hold their own return addresses).
 */
#ifndef TLSX_STACK_REGION_H
#define TLSX_STACK_REGION_H

#include <string.h>

#define STACK_REGION_TOP	256
#define STACK_REGION_MAX	(96 * 1024)

/* The lowest address of the region (its first byte). */
static noinline u8 *stack_region_base(size_t size)
{
	return (u8 *)__builtin_frame_address(0) - STACK_REGION_TOP - size;
}

static noinline void stack_region_fill(size_t size)
{
	u8 *p = (u8 *)__builtin_frame_address(0) - STACK_REGION_TOP - size;

	memset(p, 0xa5, size);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/*
 * Read the region into one buffer for every run: a pointer to where it
 * goes, spilled while copying, must not differ between two runs.
 */
static u8 stack_region_got[STACK_REGION_MAX];

static noinline void stack_region_read(size_t size)
{
	u8 *p = (u8 *)__builtin_frame_address(0) - STACK_REGION_TOP - size;

	__asm__ __volatile__("" : : "r"(p) : "memory");
	memcpy(stack_region_got, p, size);
}

/* The first byte a call changed from the fill: how deep it reached. */
static inline size_t stack_region_reached(const u8 *got, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (got[i] != 0xa5)
			return size - i + STACK_REGION_TOP;
	return 0;
}

#endif /* TLSX_STACK_REGION_H */
