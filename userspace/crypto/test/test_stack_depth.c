// SPDX-License-Identifier: GPL-2.0
/*
 * test_stack_depth.c - whether the handshake primitives' stack wipes
 * reach past all the stack their work touched (aead/stack_wipe.h,
 * tlsx_stack_wipe_user()).
 *
 * Linked with --wrap=tlsx_stack_wipe_user: the entry points' wipes come
 * here, which records where the deepest would start (its caller's stack
 * pointer) and how deep it would reach, and wipes nothing.  The deepest
 * byte the work touched must lie a quarter inside that span: other
 * inputs, compilers and a change to the code move it.  test_stack_left
 * runs the real wipes.
 */
#include "kselftest_harness.h"
#include "test/hs_probe.h"

static u8 *wipe_top;
static size_t wipe_bytes;
static unsigned int nwipes;

noinline void __wrap_tlsx_stack_wipe_user(size_t bytes)
{
	u8 *top = __builtin_dwarf_cfa();

	if (!nwipes++ || top - bytes < wipe_top - wipe_bytes) {
		wipe_top = top;
		wipe_bytes = bytes;
	}
}

static void wipes_reset(void)
{
	nwipes = 0;
}

#include "test/hs_fixture.h"

TEST_F_TIMEOUT(hs, wipe_has_room, 120)
{
	u8 *region_top = stack_region_base(HS_REGION) + HS_REGION +
			 STACK_REGION_TOP;
	size_t reached, need;
	u8 *lowest;
	int bad = hs_probe(variant->op, wipes_reset, &lowest, &reached);

	ASSERT_LE(0, bad);
	ASSERT_EQ(1, nwipes) {
		TH_LOG("%s: %u wipes, one expected", hs_op_names[variant->op],
		       nwipes);
	}
	/* from the wipe's start to the deepest byte touched */
	need = (size_t)(wipe_top - (region_top - reached));
	TH_LOG("%s: %d bytes of secrets left unwiped; the work touched %zu bytes below the wipe's start, which zeroes %zu",
	       hs_op_names[variant->op], bad, need, wipe_bytes);
	EXPECT_GE(wipe_bytes, need + need / 4);
}

TEST_HARNESS_MAIN
