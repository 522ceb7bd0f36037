/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bignum.h - fixed-capacity unsigned integers for RSA, in 64-bit limbs,
 * least significant first.  No allocation: every number is an array of
 * BN_MAX_LIMBS limbs on the caller's stack, and every function takes the
 * limb count it works on (public: it follows from the key's size).
 *
 * Everything here except the public-exponent functions, bn_mont_init_pub()
 * and bn_from_be()'s length check is constant-time in the values: no
 * branch and no memory index depends on a limb's contents, only on limb
 * counts and exponent bit counts.  Userspace only (RSA is for the
 * handshake).
 */
#ifndef TLSX_BIGNUM_H
#define TLSX_BIGNUM_H

#include "aead/platform.h"

#define BN_MAX_LIMBS	64		/* 4096 bits */
#define BN_MAX_BYTES	(BN_MAX_LIMBS * 8)

/* Montgomery arithmetic modulo an odd m of n limbs, R = 2^(64 n). */
struct bn_mont {
	u64 m[BN_MAX_LIMBS];
	u64 rr[BN_MAX_LIMBS];		/* R^2 mod m */
	u64 one[BN_MAX_LIMBS];		/* R mod m: 1 in Montgomery form */
	u64 m0inv;			/* -m^-1 mod 2^64 */
	size_t n;
};

/* r = a + b, returns the carry (0 or 1).  r may alias a or b. */
u64 bn_add(u64 *r, const u64 *a, const u64 *b, size_t n);
/* r = a - b, returns the borrow (0 or 1).  r may alias a or b. */
u64 bn_sub(u64 *r, const u64 *a, const u64 *b, size_t n);
/* r = a where mask is all ones, unchanged where it is zero. */
void bn_cmov(u64 *r, const u64 *a, size_t n, u64 mask);
/* All ones when a < b, else zero. */
u64 bn_lt_mask(const u64 *a, const u64 *b, size_t n);
/* All ones when a == b, else zero. */
u64 bn_eq_mask(const u64 *a, const u64 *b, size_t n);
/* All ones when a is zero. */
u64 bn_is_zero_mask(const u64 *a, size_t n);
/* r (na + nb limbs) = a * b; r must not alias a or b. */
void bn_mul(u64 *r, const u64 *a, size_t na, const u64 *b, size_t nb);

/*
 * Big-endian bytes to n limbs (zero-extended).  -EINVAL when @len is
 * longer than 8 n and the extra leading bytes are not zero (a length
 * check only: the time depends on @len, not on the bytes' values).
 */
int bn_from_be(u64 *r, size_t n, const u8 *in, size_t len);
/* The low @len bytes of a (n limbs) as big-endian; zero-padded above. */
void bn_to_be(u8 *out, size_t len, const u64 *a, size_t n);

/*
 * Sets up Montgomery arithmetic modulo m (n limbs, top limb not zero).
 * m must be odd, which is not checked (m may be a secret prime: the
 * caller checks when it validates the key); an even m gives wrong
 * results, not a crash.  -EINVAL for n of 0 or above BN_MAX_LIMBS.  The
 * time depends on n only.
 */
int bn_mont_init(struct bn_mont *mt, const u64 *m, size_t n);
/*
 * The same for a public modulus, faster and in variable time (R^2 and R
 * by long division).
 */
int bn_mont_init_pub(struct bn_mont *mt, const u64 *m, size_t n);
void bn_mont_wipe(struct bn_mont *mt);

/* r = a b / R mod m, for a b < m R; r < m.  r may alias a or b. */
void bn_mont_mul(u64 *r, const u64 *a, const u64 *b,
		 const struct bn_mont *mt);
/* r = a^2 / R mod m. */
void bn_mont_sqr(u64 *r, const u64 *a, const struct bn_mont *mt);
/* Out of Montgomery form: r = a / R mod m. */
void bn_mont_from(u64 *r, const u64 *a, const struct bn_mont *mt);
/*
 * Into Montgomery form, reducing: r = x R mod m for any x of @xn limbs
 * (e.g. a 2k-bit number modulo a k-bit prime).
 */
void bn_mont_to_reduce(u64 *r, const u64 *x, size_t xn,
		       const struct bn_mont *mt);

/* r = a + b mod m and a - b mod m for a, b < m. */
void bn_mod_add(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mt);
void bn_mod_sub(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mt);

/*
 * r = a^e in Montgomery form (a and r Montgomery, a < m), e secret of
 * @ebits bits (ceil(ebits / 64) limbs; the bit count is public): a fixed
 * 5-bit window, the table read by a masked scan of every entry.
 */
void bn_mont_exp_ct(u64 *r, const u64 *a, const u64 *e, size_t ebits,
		    const struct bn_mont *mt);
/*
 * r0 = a0^e0 mod m0 and r1 = a1^e1 mod m1, plain in and out (a below m),
 * both exponents secret and read to @ebits bits: RSA's two CRT halves.
 * With AVX-512 IFMA the two run in one loop (bn_ifma.c), otherwise one
 * after the other with bn_mont_exp_ct().
 */
void bn_exp_ct_x2(u64 *r0, const u64 *a0, const u64 *e0,
		  const struct bn_mont *m0, u64 *r1, const u64 *a1,
		  const u64 *e1, const struct bn_mont *m1, size_t ebits);
/*
 * The same pair for a public exponent (variable time in e only).  r0
 * must not alias a1; the same a and m twice is computed once.
 */
void bn_exp_pub_x2(u64 *r0, const u64 *a0, const struct bn_mont *m0,
		   u64 *r1, const u64 *a1, const struct bn_mont *m1, u64 e);
/* r = a^e in Montgomery form for a public exponent (variable time in e). */
void bn_mont_exp_pub(u64 *r, const u64 *a, u64 e, const struct bn_mont *mt);

/*
 * r = a^-1 mod m (m odd, up to BN_INV_MAX_LIMBS limbs, a < m), constant
 * time: Bernstein-Yang division steps.  r is 0 when a is not invertible.
 */
#define BN_INV_MAX_LIMBS	32
void bn_mod_inv(u64 *r, const u64 *a, const struct bn_mont *mt);
/* Two at once (RSA's unblinding mod p and mod q), in one loop. */
void bn_mod_inv_x2(u64 *r0, const u64 *a0, const struct bn_mont *m0,
		   u64 *r1, const u64 *a1, const struct bn_mont *m1);

/*
 * Which code runs: "generic", "mulx" (BMI2+ADX products) or "ifma"
 * (MULX products and the IFMA pair of exponentiations).  TLSX_BN_IMPL=generic in the environment forces the
 * portable code (tests, valgrind).
 */
const char *bn_impl(void);

#endif /* TLSX_BIGNUM_H */
