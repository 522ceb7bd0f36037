// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_stack.c - what tlsx_aead_setkey(), seal and open (on one
 * buffer and over segment lists) leave in the stack below their caller,
 * on every implementation: nothing that depends on the key or the text
 * (stack_probe.h has the method).  The dispatcher wipes as deep as each
 * engine reaches (ops->stack_wipe); test_aead_wipe_depth checks those
 * depths have room to spare.
 */
#include "kselftest_harness.h"
#include "aead/test/stack_probe.h"

#include "aead/test/stack_fixture.h"

static void check(struct __test_metadata *_metadata, struct probe_pair *p,
		  enum tlsx_aead_alg alg, enum tlsx_aead_impl impl,
		  enum probe_op op, enum probe_layout lay, size_t len)
{
	static const char *const names[] = { "setkey", "seal", "open" };
	u8 *lowest;
	int bad = probe_op(p, alg, impl, op, lay, len, NULL, &lowest);

	ASSERT_LE(0, bad);
	EXPECT_EQ(0, bad) {
		TH_LOG("%s %zu bytes %s: %d bytes of stack depend on the secrets, the deepest %td bytes below the probe's frame",
		       names[op], len, probe_layout_names[lay], bad,
		       stack_region_base(PROBED) + STACK_PROBE - lowest);
	}
}

TEST_F(aead, stack_left_behind)
{
	unsigned int i;
	int op, lay;

	check(_metadata, &self->p, variant->alg, variant->impl, OP_SETKEY,
	      LAY_FLAT, 0);
	for (op = OP_SEAL; op <= OP_OPEN; op++)
		for (lay = 0; lay < LAY_COUNT; lay++)
			for (i = 0; i < ARRAY_SIZE(probe_lens); i++)
				check(_metadata, &self->p, variant->alg,
				      variant->impl, op, lay, probe_lens[i]);
}

TEST_HARNESS_MAIN
