/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bn_impl.h - inside the integer code: the Montgomery multiplications
 * bignum.c dispatches over, the IFMA pairs and the choice between them.
 * Internal to rsa/ and its tests.
 *
 * Each computes r = a b / R mod m for a b < m R, with r < m, in time
 * that depends on n only; r may alias a or b.
 */
#ifndef TLSX_BN_IMPL_H
#define TLSX_BN_IMPL_H

#include "rsa/bignum.h"

void bn_mont_mul_generic(u64 *r, const u64 *a, const u64 *b, const u64 *m,
			 u64 m0inv, size_t n);
void bn_mont_mul_mulx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
		      u64 m0inv, size_t n);
/* r = a a / R mod m, the same contract; r may alias a. */
void bn_mont_sqr_mulx(u64 *r, const u64 *a, const u64 *m, u64 m0inv,
		      size_t n);

/*
 * Two at once, for n = 16 and 32 (-EINVAL otherwise): r, a, b and m of
 * 2n limbs, the second number at limb n, k the two m0inv.  Each half as
 * above; r may alias a or b.  t is 4n limbs of scratch, which is left
 * holding intermediate values: the caller wipes it when done (once per
 * exponentiation rather than once per product).
 */
int bn_mont_mul2_mulx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
		      const u64 *k, size_t n, u64 *t);
int bn_mont_sqr2_mulx(u64 *r, const u64 *a, const u64 *m, const u64 *k,
		      size_t n, u64 *t);

/*
 * Both CRT exponentiations at once with the MULX pairs (bn_exp_mulx.c;
 * the portable products where MULX is not chosen), the same contract as
 * bn_exp_ct_x2_ifma() below: -EINVAL unless both moduli have 16 or both
 * 32 limbs.
 */
int bn_exp_ct_x2_mulx(u64 *r0, const u64 *a0, const u64 *e0,
		      const struct bn_mont *m0, u64 *r1, const u64 *a1,
		      const u64 *e1, const struct bn_mont *m1, size_t ebits);
/* The same for a public exponent e >= 1 (variable time in e only). */
int bn_exp_pub_x2_mulx(u64 *r0, const u64 *a0, const struct bn_mont *m0,
		       u64 *r1, const u64 *a1, const struct bn_mont *m1,
		       u64 e);

/* Whether the MULX products are the ones chosen (so the pairs can run). */
bool bn_mulx_chosen(void);

/*
 * The final step all of them share: t (n limbs plus a top limb t_hi of 0
 * or 1) is below 2m; r = t - m when t >= m, else t.  r may alias t.
 */
static inline void bn_mont_final_sub(u64 *r, const u64 *t, u64 t_hi,
				     const u64 *m, size_t n)
{
	u64 s[BN_MAX_LIMBS];
	u64 borrow = bn_sub(s, t, m, n);
	/*
	 * t_hi - borrow is all ones exactly when t < m (no top limb and a
	 * borrow); t_hi = 1 always comes with a borrow (t - m < R).
	 */
	u64 keep_t = t_hi - borrow;

	bn_cmov(s, t, n, keep_t);
	memcpy(r, s, n * 8);
	memzero_explicit(s, n * 8);
}

/*
 * Both CRT exponentiations at once with AVX-512 IFMA (bn_ifma.c): plain
 * a below m in, plain a^e mod m out, e read to @ebits bits.  -EINVAL
 * when the moduli are too large for it.
 */
int bn_exp_ct_x2_ifma(u64 *r0, const u64 *a0, const u64 *e0,
		      const struct bn_mont *m0, u64 *r1, const u64 *a1,
		      const u64 *e1, const struct bn_mont *m1, size_t ebits);

/* The same for a public exponent e >= 1 (variable time in e). */
int bn_exp_pub_x2_ifma(u64 *r0, const u64 *a0, const struct bn_mont *m0,
		       u64 *r1, const u64 *a1, const struct bn_mont *m1,
		       u64 e);

/*
 * The same as bn_exp_ct_x2_ifma() on 256-bit vectors for moduli of up to
 * 1024 bits (bn_ifma256.c, for Zen 4); larger ones go to the zmm code.
 */
int bn_exp_ct_x2_ifma256(u64 *r0, const u64 *a0, const u64 *e0,
			 const struct bn_mont *m0, u64 *r1, const u64 *a1,
			 const u64 *e1, const struct bn_mont *m1, size_t ebits);

/*
 * Whether bn_exp_ct_x2() and bn_exp_pub_x2() go to IFMA (the choice made
 * once, or forced: true for "ifma" and "ifma256"), and whether the
 * secret-exponent pair goes to the 256-bit code ("ifma256").
 */
bool bn_ifma_chosen(void);
bool bn_ifma256_chosen(void);

/*
 * Force a choice for tests: "generic", "mulx", "ifma" (MULX products
 * and IFMA for bn_exp_ct_x2) or "ifma256" (its 1024-bit pair on ymm); -EINVAL if not usable.
 */
int bn_set_impl(const char *name);

#endif /* TLSX_BN_IMPL_H */
