// SPDX-License-Identifier: GPL-2.0
/*
 * bn_exp_x2.c - the pairs of exponentiations RSA's CRT runs: both at once
 * with AVX-512 IFMA (bn_ifma.c, or bn_ifma256.c's ymm pair for 1024-bit
 * halves) or the MULX pairs (bn_exp_mulx.c) where chosen, else one after
 * the other with the Montgomery code of bignum.c.  The top layer of the
 * integer code.
 */
#include "rsa/bignum.h"
#include "rsa/bn_impl.h"

void bn_exp_ct_x2(u64 *r0, const u64 *a0, const u64 *e0,
		  const struct bn_mont *m0, u64 *r1, const u64 *a1,
		  const u64 *e1, const struct bn_mont *m1, size_t ebits)
{
	u64 x[BN_MAX_LIMBS];

	if (bn_ifma256_chosen() &&
	    !bn_exp_ct_x2_ifma256(r0, a0, e0, m0, r1, a1, e1, m1, ebits))
		return;
	if (bn_ifma_chosen() &&
	    !bn_exp_ct_x2_ifma(r0, a0, e0, m0, r1, a1, e1, m1, ebits))
		return;
	if (!bn_exp_ct_x2_mulx(r0, a0, e0, m0, r1, a1, e1, m1, ebits))
		return;
	bn_mont_to_reduce(x, a0, m0->n, m0);
	bn_mont_exp_ct(x, x, e0, ebits, m0);
	bn_mont_from(r0, x, m0);
	bn_mont_to_reduce(x, a1, m1->n, m1);
	bn_mont_exp_ct(x, x, e1, ebits, m1);
	bn_mont_from(r1, x, m1);
	memzero_explicit(x, sizeof(x));
}

void bn_exp_pub_x2(u64 *r0, const u64 *a0, const struct bn_mont *m0,
		   u64 *r1, const u64 *a1, const struct bn_mont *m1, u64 e)
{
	u64 x[BN_MAX_LIMBS];

	if (bn_ifma_chosen() &&
	    !bn_exp_pub_x2_ifma(r0, a0, m0, r1, a1, m1, e))
		return;
	/* A pair of different operations: the pair kernels. */
	if ((a1 != a0 || m1 != m0) &&
	    !bn_exp_pub_x2_mulx(r0, a0, m0, r1, a1, m1, e))
		return;
	bn_mont_to_reduce(x, a0, m0->n, m0);
	bn_mont_exp_pub(x, x, e, m0);
	bn_mont_from(r0, x, m0);
	/* The same operation twice (a caller with one to do): copy it. */
	if (a1 == a0 && m1 == m0) {
		memcpy(r1, r0, m0->n * 8);
		memzero_explicit(x, sizeof(x));
		return;
	}
	bn_mont_to_reduce(x, a1, m1->n, m1);
	bn_mont_exp_pub(x, x, e, m1);
	bn_mont_from(r1, x, m1);
	memzero_explicit(x, sizeof(x));
}
