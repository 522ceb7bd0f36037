// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_wipe_depth.c - whether each engine's stack wipe reaches
 * well past what its operations leave (stack_wipe.h, ops->stack_wipe).
 *
 * Linked with --wrap for the two wipes of stack_wipe.c: the dispatcher's
 * wipes come here, where each records where each would start (its
 * caller's stack pointer) and how deep it would reach, and wipes
 * nothing.  What an operation then leaves (stack_probe.h) must lie
 * inside a wipe, which must reach a quarter deeper than the deepest byte
 * left, and at least 128 bytes: the kernel's frames differ from these
 * (no red zone: a leaf's 128 bytes below the stack pointer move into
 * its frame; stack protector slots), the depth of an engine with 32- or
 * 64-byte aligned frames moves by up to 48 bytes with the stack's
 * alignment, and a change to an engine may deepen it.  An engine that
 * leaves nothing may wipe nothing.  test_aead_stack runs the real wipe.
 */
#include "kselftest_harness.h"
#include "aead/test/stack_probe.h"
#include "aead/stack_wipe.h"

/* The wipes of one operation (the setkey, or the operation's). */
#define MAX_WIPES	4

static struct wipe_span {
	u8 *top;	/* the caller's stack pointer: the wipe ends below */
	size_t bytes;
} wipes[MAX_WIPES];
static unsigned int nwipes;

static __always_inline void wipe_record(u8 *top, size_t bytes)
{
	if (nwipes < MAX_WIPES) {
		wipes[nwipes].top = top;
		wipes[nwipes].bytes = bytes;
	}
	nwipes++;
}

noinline void __wrap_tlsx_stack_wipe_shallow(size_t bytes)
{
	wipe_record(__builtin_dwarf_cfa(), bytes);
}

noinline void __wrap_tlsx_stack_wipe_deep(size_t bytes)
{
	wipe_record(__builtin_dwarf_cfa(), bytes);
}

static void wipes_reset(void)
{
	nwipes = 0;
}

#include "aead/test/stack_fixture.h"

/* (struct _test_data_aead is FIXTURE_DATA(aead), spelt out for checkpatch) */
static void check(struct __test_metadata *_metadata,
		  struct _test_data_aead *self,
		  enum tlsx_aead_alg alg, enum tlsx_aead_impl impl,
		  enum probe_op op, enum probe_layout lay, size_t len)
{
	static const char *const names[] = { "setkey", "seal", "open" };
	struct probe_pair *p = &self->p;
	struct wipe_span *w = NULL;
	unsigned int i;
	size_t need;
	u8 *lowest;
	int bad;

	bad = probe_op(p, alg, impl, op, lay, len, wipes_reset, &lowest);
	ASSERT_LE(0, bad);
	ASSERT_GE(MAX_WIPES, nwipes);
	if (!bad)
		return;
	/* the wipe whose span reaches deepest below the byte */
	for (i = 0; i < nwipes; i++)
		if (wipes[i].top > lowest &&
		    (!w || wipes[i].top - wipes[i].bytes < w->top - w->bytes))
			w = &wipes[i];
	ASSERT_NE(NULL, w) {
		TH_LOG("%s %zu bytes %s: %d bytes of stack depend on the secrets, %s",
		       names[op], len, probe_layout_names[lay], bad,
		       nwipes ? "none below a wipe" : "and no wipe");
	}
	need = (size_t)(w->top - lowest);
	for (i = 0; i < self->ndepths; i++)
		if (self->depths[i].given == w->bytes)
			break;
	if (i == self->ndepths && i < MAX_DEPTHS) {
		self->ndepths++;
		self->depths[i].given = w->bytes;
		self->depths[i].need = 0;
	}
	if (i < self->ndepths && need > self->depths[i].need)
		self->depths[i].need = need;
	EXPECT_GE(w->bytes, need + (need / 4 > 128 ? need / 4 : 128)) {
		TH_LOG("%s %zu bytes %s: a secret %zu bytes below the wipe's start, which zeroes %zu",
		       names[op], len, probe_layout_names[lay], need,
		       w->bytes);
	}
}

TEST_F(aead, wipe_has_room)
{
	unsigned int i;
	int op, lay;

	check(_metadata, self, variant->alg, variant->impl, OP_SETKEY,
	      LAY_FLAT, 0);
	for (op = OP_SEAL; op <= OP_OPEN; op++)
		for (lay = 0; lay < LAY_COUNT; lay++)
			for (i = 0; i < ARRAY_SIZE(probe_lens); i++)
				check(_metadata, self, variant->alg,
				      variant->impl, op, lay, probe_lens[i]);
	for (i = 0; i < self->ndepths; i++)
		TH_LOG("a wipe of %zu bytes: the deepest secret %zu bytes down",
		       self->depths[i].given, self->depths[i].need);
}

TEST_HARNESS_MAIN
