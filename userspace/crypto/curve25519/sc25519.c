// SPDX-License-Identifier: GPL-2.0
/*
 * sc25519.c - scalars modulo L, the order of the Ed25519 base point, by
 * Barrett reduction on 64-bit words (Menezes, van Oorschot, Vanstone,
 * Handbook of Applied Cryptography, algorithm 14.42, with b = 2^64 and
 * k = 4).  For x < 2^512 and mu = floor(2^512 / L):
 *
 *	q = floor(floor(x / 2^192) mu / 2^320)
 *	r = (x - q L) mod 2^320
 *
 * leaves 0 <= r < 3L, so two masked conditional subtractions of L finish
 * it.  Every loop has a fixed count and the subtractions are selected by
 * masks: constant-time in x.
 */
#include "curve25519/sc25519.h"


static const u64 sc_l[4] = {
	0x5812631a5cf5d3edULL, 0x14def9dea2f79cd6ULL,
	0x0000000000000000ULL, 0x1000000000000000ULL,
};

/* floor(2^512 / L), 261 bits */
static const u64 sc_mu[5] = {
	0xed9ce5a30a2c131bULL, 0x2106215d086329a7ULL,
	0xffffffffffffffebULL, 0xffffffffffffffffULL,
	0x000000000000000fULL,
};

/* r[0..na+nb-1] = a[0..na-1] * b[0..nb-1], schoolbook. */
static void sc_mul(u64 *r, const u64 *a, int na, const u64 *b, int nb)
{
	int i, j;

	memset(r, 0, sizeof(u64) * (na + nb));
	for (i = 0; i < na; i++) {
		u64 carry = 0;

		for (j = 0; j < nb; j++) {
			__uint128_t t = (__uint128_t)a[i] * b[j] + r[i + j] + carry;

			r[i + j] = (u64)t;
			carry = (u64)(t >> 64);
		}
		r[i + nb] = carry;
	}
}

/* r (5 words) -= L when r >= L, by a mask. */
static void sc_csub_l(u64 r[5])
{
	u64 t[5], borrow = 0, mask;
	int i;

	for (i = 0; i < 5; i++) {
		u64 l = i < 4 ? sc_l[i] : 0;
		__uint128_t d = (__uint128_t)r[i] - l - borrow;

		t[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	mask = borrow - 1;	/* all ones when no borrow: r >= L */
	for (i = 0; i < 5; i++)
		r[i] = (t[i] & mask) | (r[i] & ~mask);
}

/* out = x mod L for the 512-bit x (8 words). */
static void sc_barrett(u8 out[32], const u64 x[8])
{
	u64 q2[10], ql[9], r[5], borrow = 0;
	int i;

	sc_mul(q2, x + 3, 5, sc_mu, 5);		/* q1 mu */
	sc_mul(ql, q2 + 5, 5, sc_l, 4);		/* q3 L, low 5 words used */
	for (i = 0; i < 5; i++) {
		__uint128_t d = (__uint128_t)x[i] - ql[i] - borrow;

		r[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	sc_csub_l(r);
	sc_csub_l(r);
	for (i = 0; i < 4; i++)
		put_unaligned_le64(r[i], out + 8 * i);
	memzero_explicit(q2, sizeof(q2));
	memzero_explicit(ql, sizeof(ql));
	memzero_explicit(r, sizeof(r));
}

void sc25519_reduce(u8 out[32], const u8 in[64])
{
	u64 x[8];
	int i;

	for (i = 0; i < 8; i++)
		x[i] = get_unaligned_le64(in + 8 * i);
	sc_barrett(out, x);
	memzero_explicit(x, sizeof(x));
}

void sc25519_muladd(u8 out[32], const u8 a[32], const u8 b[32],
		    const u8 c[32])
{
	u64 wa[4], wb[4], x[8], carry = 0;
	int i;

	for (i = 0; i < 4; i++) {
		wa[i] = get_unaligned_le64(a + 8 * i);
		wb[i] = get_unaligned_le64(b + 8 * i);
	}
	sc_mul(x, wa, 4, wb, 4);
	/* a b < 2^510 and c < 2^255: the sum stays below 2^512 */
	for (i = 0; i < 8; i++) {
		__uint128_t t = (__uint128_t)x[i] + carry +
			 (i < 4 ? get_unaligned_le64(c + 8 * i) : 0);

		x[i] = (u64)t;
		carry = (u64)(t >> 64);
	}
	sc_barrett(out, x);
	memzero_explicit(wa, sizeof(wa));
	memzero_explicit(wb, sizeof(wb));
	memzero_explicit(x, sizeof(x));
}

bool sc25519_is_canonical(const u8 s[32])
{
	int i;

	for (i = 3; i >= 0; i--) {
		u64 w = get_unaligned_le64(s + 8 * i);

		if (w != sc_l[i])
			return w < sc_l[i];
	}
	return false;		/* s == L */
}
