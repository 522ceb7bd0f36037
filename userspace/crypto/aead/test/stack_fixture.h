/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack_fixture.h - the kselftest fixture "aead" of the two AEAD stack
 * programs (test_aead_stack, test_aead_wipe_depth): every algorithm on
 * every implementation, the probe's buffers, and for the depth program
 * the deepest need of each depth of wipe.  Include once, after
 * kselftest_harness.h and stack_probe.h.
 */

#define MAX_DEPTHS	8

FIXTURE(aead) {
	struct probe_pair p;
	struct {
		size_t given, need;
	} depths[MAX_DEPTHS];
	unsigned int ndepths;
};

FIXTURE_VARIANT(aead) {
	enum tlsx_aead_alg alg;
	enum tlsx_aead_impl impl;
};

#include "aead/test/aead_variants.h"

FIXTURE_SETUP(aead)
{
	const char *why = probe_skip(variant->alg, variant->impl);

	if (why)
		SKIP(return, "%s", why);
	probe_pair_init(&self->p);
	self->ndepths = 0;
}

FIXTURE_TEARDOWN(aead)
{
}
