/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fe25519_51.h - GF(2^255 - 19) in radix 2^51, portable C (struct fe51,
 * see fe25519.h), as inline functions for the one file that uses them
 * (c25519_generic.c): the ladder and the group formulas then run without
 * a call per field operation.
 *
 * An element is f = v[0] + v[1] 2^51 + v[2] 2^102 + v[3] 2^153 +
 * v[4] 2^204.  Because 2^255 = 19 (mod p), a product's terms at 2^255
 * and above fold back multiplied by 19.  Every function here ends with
 * a carry pass, so outputs have limbs below 2^51 + 2^15, and inputs may
 * have limbs up to 2^53: then a product limb sums five terms below
 * 19 * 2^106 < 2^111, far inside 128 bits.
 */
#ifndef TLSX_FE25519_51_H
#define TLSX_FE25519_51_H

#include "curve25519/fe25519.h"

#define MASK51	((1ULL << 51) - 1)

static __always_inline void fe51_0(struct fe51 *h)
{
	memset(h, 0, sizeof(*h));
}

static __always_inline void fe51_1(struct fe51 *h)
{
	memset(h, 0, sizeof(*h));
	h->v[0] = 1;
}

static __always_inline void fe51_copy(struct fe51 *h, const struct fe51 *f)
{
	*h = *f;
}

/*
 * One carry pass: each limb keeps its low 51 bits and passes the rest
 * up; what leaves the top limb (weight 2^255) re-enters limb 0 times 19.
 * From limbs below 2^63 the result has limbs 1..4 below 2^51 and limb 0
 * below 2^51 + 19 * 2^12.
 */
static __always_inline void fe51_carry(u64 v[5])
{
	u64 c;

	c = v[0] >> 51;
	v[0] &= MASK51;
	v[1] += c;
	c = v[1] >> 51;
	v[1] &= MASK51;
	v[2] += c;
	c = v[2] >> 51;
	v[2] &= MASK51;
	v[3] += c;
	c = v[3] >> 51;
	v[3] &= MASK51;
	v[4] += c;
	c = v[4] >> 51;
	v[4] &= MASK51;
	v[0] += c * 19;
}

static __always_inline void fe51_from64(struct fe51 *h, const u64 w[4])
{
	h->v[0] = w[0] & MASK51;
	h->v[1] = ((w[0] >> 51) | (w[1] << 13)) & MASK51;
	h->v[2] = ((w[1] >> 38) | (w[2] << 26)) & MASK51;
	h->v[3] = ((w[2] >> 25) | (w[3] << 39)) & MASK51;
	h->v[4] = w[3] >> 12;	/* up to 52 bits: a loose limb */
	fe51_carry(h->v);
}

static __always_inline void fe51_frombytes(struct fe51 *h, const u8 s[32])
{
	u64 w[4];
	int i;

	for (i = 0; i < 4; i++)
		w[i] = get_unaligned_le64(s + 8 * i);
	w[3] &= ~(1ULL << 63);
	fe51_from64(h, w);
}

/*
 * Canonical encoding.  Two carry passes leave f below 2^255 with every
 * limb below 2^51, hence f < 2p.  f >= p exactly when f + 19 reaches
 * 2^255: q is that carry, found by a carry chain over f + 19; then f +
 * 19q with bit 255 dropped is f - qp.
 */
static __always_inline void fe51_tobytes(u8 s[32], const struct fe51 *f)
{
	u64 t[5], q;
	int i;

	memcpy(t, f->v, sizeof(t));
	fe51_carry(t);
	fe51_carry(t);
	q = (t[0] + 19) >> 51;
	for (i = 1; i < 5; i++)
		q = (t[i] + q) >> 51;
	t[0] += 19 * q;
	for (i = 0; i < 4; i++) {
		t[i + 1] += t[i] >> 51;
		t[i] &= MASK51;
	}
	t[4] &= MASK51;
	put_unaligned_le64(t[0] | (t[1] << 51), s);
	put_unaligned_le64((t[1] >> 13) | (t[2] << 38), s + 8);
	put_unaligned_le64((t[2] >> 26) | (t[3] << 25), s + 16);
	put_unaligned_le64((t[3] >> 39) | (t[4] << 12), s + 24);
	memzero_explicit(t, sizeof(t));
}

static __always_inline void fe51_add(struct fe51 *h, const struct fe51 *f,
				     const struct fe51 *g)
{
	int i;

	for (i = 0; i < 5; i++)
		h->v[i] = f->v[i] + g->v[i];
	fe51_carry(h->v);
}

/*
 * f - g computed as f + 4p - g so no limb goes negative: 4p has limbs
 * 2^53 - 76 and 2^53 - 4, above any input limb below 2^53 - 76.
 */
static __always_inline void fe51_sub(struct fe51 *h, const struct fe51 *f,
				     const struct fe51 *g)
{
	const u64 p4_0 = 0x1fffffffffffb4ULL, p4_i = 0x1ffffffffffffcULL;
	int i;

	h->v[0] = f->v[0] + p4_0 - g->v[0];
	for (i = 1; i < 5; i++)
		h->v[i] = f->v[i] + p4_i - g->v[i];
	fe51_carry(h->v);
}

static __always_inline void fe51_neg(struct fe51 *h, const struct fe51 *f)
{
	struct fe51 z;

	fe51_0(&z);
	fe51_sub(h, &z, f);
}

/*
 * Carry a product held in five 128-bit sums: each passes its bits above
 * 51 to the next, the top one's re-enter limb 0 times 19.
 */
static __always_inline void fe51_carry_wide(struct fe51 *h, __uint128_t r[5])
{
	u64 c;

	r[1] += (u64)(r[0] >> 51);
	r[2] += (u64)(r[1] >> 51);
	r[3] += (u64)(r[2] >> 51);
	r[4] += (u64)(r[3] >> 51);
	c = (u64)(r[4] >> 51);
	h->v[0] = ((u64)r[0] & MASK51) + c * 19;
	h->v[1] = (u64)r[1] & MASK51;
	h->v[2] = (u64)r[2] & MASK51;
	h->v[3] = (u64)r[3] & MASK51;
	h->v[4] = (u64)r[4] & MASK51;
	c = h->v[0] >> 51;
	h->v[0] &= MASK51;
	h->v[1] += c;
}

/*
 * Schoolbook 5x5 product; the terms of weight 2^255 and above (i + j >=
 * 5) are folded in as 19 * g[j] at the position i + j - 5.
 */
static __always_inline void fe51_mul(struct fe51 *h, const struct fe51 *f,
				     const struct fe51 *g)
{
	u64 f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3];
	u64 f4 = f->v[4];
	u64 g0 = g->v[0], g1 = g->v[1], g2 = g->v[2], g3 = g->v[3];
	u64 g4 = g->v[4];
	u64 g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3;
	u64 g4_19 = 19 * g4;
	__uint128_t r[5];

	r[0] = (__uint128_t)f0 * g0 + (__uint128_t)f1 * g4_19 + (__uint128_t)f2 * g3_19 +
	       (__uint128_t)f3 * g2_19 + (__uint128_t)f4 * g1_19;
	r[1] = (__uint128_t)f0 * g1 + (__uint128_t)f1 * g0 + (__uint128_t)f2 * g4_19 +
	       (__uint128_t)f3 * g3_19 + (__uint128_t)f4 * g2_19;
	r[2] = (__uint128_t)f0 * g2 + (__uint128_t)f1 * g1 + (__uint128_t)f2 * g0 +
	       (__uint128_t)f3 * g4_19 + (__uint128_t)f4 * g3_19;
	r[3] = (__uint128_t)f0 * g3 + (__uint128_t)f1 * g2 + (__uint128_t)f2 * g1 +
	       (__uint128_t)f3 * g0 + (__uint128_t)f4 * g4_19;
	r[4] = (__uint128_t)f0 * g4 + (__uint128_t)f1 * g3 + (__uint128_t)f2 * g2 +
	       (__uint128_t)f3 * g1 + (__uint128_t)f4 * g0;
	fe51_carry_wide(h, r);
}

/* The square: the cross terms f_i f_j (i != j) appear twice. */
static __always_inline void fe51_sq(struct fe51 *h, const struct fe51 *f)
{
	u64 f0 = f->v[0], f1 = f->v[1], f2 = f->v[2], f3 = f->v[3];
	u64 f4 = f->v[4];
	u64 f0_2 = 2 * f0, f1_2 = 2 * f1;
	u64 f3_19 = 19 * f3, f4_19 = 19 * f4;
	__uint128_t r[5];

	r[0] = (__uint128_t)f0 * f0 + (__uint128_t)(2 * f1) * f4_19 +
	       (__uint128_t)(2 * f2) * f3_19;
	r[1] = (__uint128_t)f0_2 * f1 + (__uint128_t)(2 * f2) * f4_19 +
	       (__uint128_t)f3 * f3_19;
	r[2] = (__uint128_t)f0_2 * f2 + (__uint128_t)f1 * f1 + (__uint128_t)(2 * f3) * f4_19;
	r[3] = (__uint128_t)f0_2 * f3 + (__uint128_t)f1_2 * f2 + (__uint128_t)f4 * f4_19;
	r[4] = (__uint128_t)f0_2 * f4 + (__uint128_t)f1_2 * f3 + (__uint128_t)f2 * f2;
	fe51_carry_wide(h, r);
}

static __always_inline void fe51_mul_a24(struct fe51 *h, const struct fe51 *f)
{
	__uint128_t r[5];
	int i;

	for (i = 0; i < 5; i++)
		r[i] = (__uint128_t)f->v[i] * 121665;
	fe51_carry_wide(h, r);
}

static __always_inline void fe51_addsub(struct fe51 *s, struct fe51 *d,
					const struct fe51 *f,
					const struct fe51 *g)
{
	struct fe51 t = *f;

	fe51_add(s, &t, g);
	fe51_sub(d, &t, g);
}

static __always_inline void fe51_mul_a24_add(struct fe51 *h,
					     const struct fe51 *f,
					     const struct fe51 *g)
{
	__uint128_t r[5];
	int i;

	for (i = 0; i < 5; i++)
		r[i] = (__uint128_t)f->v[i] * 121665 + g->v[i];
	fe51_carry_wide(h, r);
}

static __always_inline void fe51_cswap(struct fe51 *f, struct fe51 *g, u64 swap)
{
	u64 mask = 0 - swap, x;
	int i;

	for (i = 0; i < 5; i++) {
		x = (f->v[i] ^ g->v[i]) & mask;
		f->v[i] ^= x;
		g->v[i] ^= x;
	}
}

static __always_inline void fe51_cmov(struct fe51 *h, const struct fe51 *f,
				      u64 move)
{
	u64 mask = 0 - move;
	int i;

	for (i = 0; i < 5; i++)
		h->v[i] ^= (h->v[i] ^ f->v[i]) & mask;
}

#endif /* TLSX_FE25519_51_H */
