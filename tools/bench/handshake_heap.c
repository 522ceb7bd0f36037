// SPDX-License-Identifier: GPL-2.0
/*
 * handshake_heap.c - peak heap bytes of one handshake, counted by
 * interposing malloc, calloc, realloc, free and the aligned allocators
 * in the benchmark binary: the executable's definitions win over libc's
 * for every caller in the process (libssl, libcrypto, tlsx), and each
 * wrapper calls glibc's own entry point (__libc_malloc and friends).
 *
 * What is counted: malloc_usable_size() of each block, added when it is
 * handed out and subtracted when it is freed (or resized), so the figure
 * is what the allocator gives the program, slack included, not what was
 * asked for; the allocator's own headers (8 bytes a chunk) and memory
 * obtained with mmap() or sbrk() directly are not.  A block freed in the
 * window that was allocated before it lowers the count: the result is
 * the net growth of live heap, peak minus the value at the start.
 *
 * Only between hsb_heap_start() and hsb_heap_stop() do the wrappers
 * count; outside, they add one predictable branch to every call, the
 * same for both libraries.  Not thread-safe: tlsx-bench has one thread.
 *
 * The static benchmark is built with -DHSB_NO_MALLOC_WRAP (glibc's
 * static malloc cannot be wrapped this way): no wrappers, nothing
 * counted, hsb_heap_counts false.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "handshake.h"

static bool counting;
static long live, live_party[3], peak, peak_party[3], mark;
static unsigned long n_allocs;

void hsb_heap_start(void)
{
	live = peak = mark = 0;
	memset(live_party, 0, sizeof(live_party));
	memset(peak_party, 0, sizeof(peak_party));
	n_allocs = 0;
	counting = true;
}

void hsb_heap_mark(void)
{
	mark = live;
}

void hsb_heap_stop(struct hsb_heap *h)
{
	counting = false;
	h->peak = peak;
	h->peak_client = peak_party[HSB_CLIENT];
	h->peak_server = peak_party[HSB_SERVER];
	h->end = live;
	h->done = mark;
	h->allocs = n_allocs;
}

#ifdef HSB_NO_MALLOC_WRAP
const bool hsb_heap_counts;
#else
const bool hsb_heap_counts = true;

static void charge(void *p, long sign)
{
	long n;

	if (!p)
		return;
	n = sign * (long)malloc_usable_size(p);
	live += n;
	live_party[hsb_party] += n;
	if (live > peak)
		peak = live;
	if (live_party[hsb_party] > peak_party[hsb_party])
		peak_party[hsb_party] = live_party[hsb_party];
	if (sign > 0)
		n_allocs++;
}

void *malloc(size_t size)
{
	void *p = __libc_malloc(size);

	if (counting)
		charge(p, 1);
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);

	if (counting)
		charge(p, 1);
	return p;
}

void *realloc(void *old, size_t size)
{
	long before = old ? (long)malloc_usable_size(old) : 0;
	void *p = __libc_realloc(old, size);

	if (!counting)
		return p;
	/* A failed realloc leaves @old as it was; realloc(p, 0) frees. */
	if (!p && size)
		return p;
	live -= before;
	live_party[hsb_party] -= before;
	charge(p, 1);
	return p;
}

void free(void *p)
{
	if (counting)
		charge(p, -1);
	__libc_free(p);
}

void *memalign(size_t align, size_t size)
{
	void *p = __libc_memalign(align, size);

	if (counting)
		charge(p, 1);
	return p;
}

void *aligned_alloc(size_t align, size_t size)
{
	return memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	int err = EINVAL;	/* positive: posix_memalign's convention */
	void *p;

	if (align < sizeof(void *) || (align & (align - 1)))
		return err;
	p = memalign(align, size);
	err = ENOMEM;
	if (!p)
		return err;
	*out = p;
	return 0;
}
#endif /* HSB_NO_MALLOC_WRAP */
