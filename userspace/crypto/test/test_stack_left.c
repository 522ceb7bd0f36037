// SPDX-License-Identifier: GPL-2.0
/*
 * test_stack_left.c - what the handshake's secret-key primitives leave
 * in the stack below their caller: nothing that depends on the key
 * (hs_probe.h has the method; their entry points wipe what their work
 * touched, aead/stack_wipe.h).  test_stack_depth checks the wipes reach
 * past all of it.
 */
#include "kselftest_harness.h"
#include "test/hs_probe.h"
#include "test/hs_fixture.h"

TEST_F_TIMEOUT(hs, stack_left_behind, 120)
{
	size_t reached;
	u8 *lowest;
	int bad = hs_probe(variant->op, NULL, &lowest, &reached);

	ASSERT_LE(0, bad);
	TH_LOG("%s: the stack touched to %zu bytes down",
	       hs_op_names[variant->op], reached);
	EXPECT_EQ(0, bad) {
		TH_LOG("%s: %d bytes of stack depend on the key, the deepest %td bytes below the probe's frame",
		       hs_op_names[variant->op], bad,
		       stack_region_base(HS_REGION) + HS_REGION +
		       STACK_REGION_TOP - lowest);
	}
}

TEST_HARNESS_MAIN
