/* SPDX-License-Identifier: GPL-2.0 */
/*
 * p256_field.h - arithmetic modulo the P-256 prime
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1, portable C.
 *
 * An element is four 64-bit limbs, least significant first, in Montgomery
 * form: the value a is held as a*R mod p with R = 2^256, always fully
 * reduced into [0, p).  Zero is 0 in both forms, so a zero test needs no
 * conversion.  Everything here is constant-time: no branch and no memory
 * index depends on an element's value (carries are turned into masks).
 *
 * The functions are static inline so that the curve code (p256_curve.h,
 * compiled once per field implementation) inlines them; the
 * multiplication and squaring are the only parts with a second, MULX/ADX
 * implementation (p256_field_adx.h).
 */
#ifndef TLSX_P256_FIELD_H
#define TLSX_P256_FIELD_H

#include "aead/platform.h"

#define P256_P0	0xffffffffffffffffULL
#define P256_P1	0x00000000ffffffffULL
#define P256_P2	0x0000000000000000ULL
#define P256_P3	0xffffffff00000001ULL

/* 1 in Montgomery form: R mod p. */
static const u64 p256_fe_one[4] = {
	0x0000000000000001ULL, 0xffffffff00000000ULL,
	0xffffffffffffffffULL, 0x00000000fffffffeULL,
};

/* R^2 mod p: multiplying by it converts into Montgomery form. */
static const u64 p256_fe_r2[4] = {
	0x0000000000000003ULL, 0xfffffffbffffffffULL,
	0xfffffffffffffffeULL, 0x00000004fffffffdULL,
};

/* All ones when a == 0, else 0. */
static inline u64 p256_fe_zero_mask(const u64 a[4])
{
	u64 z = a[0] | a[1] | a[2] | a[3];

	return ((z | (0 - z)) >> 63) - 1;
}

/* r = a where mask is all ones, r unchanged where it is 0. */
static inline void p256_fe_cmov(u64 r[4], const u64 a[4], u64 mask)
{
	int i;

	for (i = 0; i < 4; i++)
		r[i] = (r[i] & ~mask) | (a[i] & mask);
}

static inline void p256_fe_copy(u64 r[4], const u64 a[4])
{
	r[0] = a[0];
	r[1] = a[1];
	r[2] = a[2];
	r[3] = a[3];
}

/*
 * r = (c:s) - p if that is not negative, else s.  (c:s) is a 257-bit
 * value (c the carry bit) below 2p, so one subtraction reduces it.
 */
static __always_inline void p256_fe_final_sub(u64 r[4], const u64 s[4], u64 c)
{
	unsigned __int128 x;
	u64 d[4], b, keep;

	x = (unsigned __int128)s[0] - P256_P0;
	d[0] = (u64)x;
	b = (u64)(x >> 64) & 1;
	x = (unsigned __int128)s[1] - P256_P1 - b;
	d[1] = (u64)x;
	b = (u64)(x >> 64) & 1;
	x = (unsigned __int128)s[2] - P256_P2 - b;
	d[2] = (u64)x;
	b = (u64)(x >> 64) & 1;
	x = (unsigned __int128)s[3] - P256_P3 - b;
	d[3] = (u64)x;
	b = (u64)(x >> 64) & 1;
	/* Negative exactly when the subtraction borrowed past the carry. */
	keep = 0 - (b & (c ^ 1));
	r[0] = (s[0] & keep) | (d[0] & ~keep);
	r[1] = (s[1] & keep) | (d[1] & ~keep);
	r[2] = (s[2] & keep) | (d[2] & ~keep);
	r[3] = (s[3] & keep) | (d[3] & ~keep);
}

/* r = a + b mod p. */
static __always_inline void p256_fe_add(u64 r[4], const u64 a[4], const u64 b[4])
{
	unsigned __int128 x;
	u64 s[4];

	x = (unsigned __int128)a[0] + b[0];
	s[0] = (u64)x;
	x = (unsigned __int128)a[1] + b[1] + (u64)(x >> 64);
	s[1] = (u64)x;
	x = (unsigned __int128)a[2] + b[2] + (u64)(x >> 64);
	s[2] = (u64)x;
	x = (unsigned __int128)a[3] + b[3] + (u64)(x >> 64);
	s[3] = (u64)x;
	p256_fe_final_sub(r, s, (u64)(x >> 64));
}

/* r = a - b mod p: subtract, then add p back under the borrow's mask. */
static __always_inline void p256_fe_sub(u64 r[4], const u64 a[4], const u64 b[4])
{
	unsigned __int128 x;
	u64 d[4], b0, m;

	x = (unsigned __int128)a[0] - b[0];
	d[0] = (u64)x;
	b0 = (u64)(x >> 64) & 1;
	x = (unsigned __int128)a[1] - b[1] - b0;
	d[1] = (u64)x;
	b0 = (u64)(x >> 64) & 1;
	x = (unsigned __int128)a[2] - b[2] - b0;
	d[2] = (u64)x;
	b0 = (u64)(x >> 64) & 1;
	x = (unsigned __int128)a[3] - b[3] - b0;
	d[3] = (u64)x;
	m = 0 - ((u64)(x >> 64) & 1);

	x = (unsigned __int128)d[0] + (P256_P0 & m);
	r[0] = (u64)x;
	x = (unsigned __int128)d[1] + (P256_P1 & m) + (u64)(x >> 64);
	r[1] = (u64)x;
	x = (unsigned __int128)d[2] + (u64)(x >> 64);
	r[2] = (u64)x;
	r[3] = d[3] + (P256_P3 & m) + (u64)(x >> 64);
}

/* r = a / 2 mod p: a + p when a is odd (masked), then a 257-bit shift. */
static __always_inline void p256_fe_half(u64 r[4], const u64 a[4])
{
	unsigned __int128 x;
	u64 m = 0 - (a[0] & 1), t[4];

	x = (unsigned __int128)a[0] + (P256_P0 & m);
	t[0] = (u64)x;
	x = (unsigned __int128)a[1] + (P256_P1 & m) + (u64)(x >> 64);
	t[1] = (u64)x;
	x = (unsigned __int128)a[2] + (u64)(x >> 64);
	t[2] = (u64)x;
	x = (unsigned __int128)a[3] + (P256_P3 & m) + (u64)(x >> 64);
	t[3] = (u64)x;
	r[0] = (t[0] >> 1) | (t[1] << 63);
	r[1] = (t[1] >> 1) | (t[2] << 63);
	r[2] = (t[2] >> 1) | (t[3] << 63);
	r[3] = (t[3] >> 1) | ((u64)(x >> 64) << 63);
}

/* r = -a mod p (0 stays 0). */
static inline void p256_fe_neg(u64 r[4], const u64 a[4])
{
	static const u64 zero[4];

	p256_fe_sub(r, zero, a);
}

/*
 * Montgomery reduction of a 512-bit t < p^2: r = t / R mod p.
 *
 * Word by word, m = the low word of the running value; adding m*p
 * clears that word (p = -1 mod 2^64, so -p^-1 = 1 mod 2^64 and m needs
 * no multiplication), and the value shifts down one word.  Because
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1, (v + m*p) / 2^64 for the low
 * half v = (v3:v2:v1:v0), m = v0, is
 *	(v3:v2:v1) + m*2^32 + m*(2^64 - 2^32 + 1)*2^128
 * - one multiplication by p's top word.  The low half alone is reduced
 * so (after four rounds it is (t_lo + M*p)/R <= p, and below 2^256 in
 * between), then the high half is added: the sum is below 2p, and one
 * conditional subtraction finishes.
 */
static __always_inline void p256_fe_mont_reduce(u64 r[4], const u64 t[8])
{
	unsigned __int128 x;
	u64 v0 = t[0], v1 = t[1], v2 = t[2], v3 = t[3], m, s[4];

#define P256_REDUCE_ROUND() do {					\
		m = v0;							\
		x = (unsigned __int128)v1 + (m << 32);			\
		v0 = (u64)x;						\
		x = (unsigned __int128)v2 + (m >> 32) + (u64)(x >> 64);	\
		v1 = (u64)x;						\
		x = (unsigned __int128)m * P256_P3 + v3 + (u64)(x >> 64); \
		v2 = (u64)x;						\
		v3 = (u64)(x >> 64);					\
	} while (0)
	P256_REDUCE_ROUND();
	P256_REDUCE_ROUND();
	P256_REDUCE_ROUND();
	P256_REDUCE_ROUND();
#undef P256_REDUCE_ROUND
	x = (unsigned __int128)v0 + t[4];
	s[0] = (u64)x;
	x = (unsigned __int128)v1 + t[5] + (u64)(x >> 64);
	s[1] = (u64)x;
	x = (unsigned __int128)v2 + t[6] + (u64)(x >> 64);
	s[2] = (u64)x;
	x = (unsigned __int128)v3 + t[7] + (u64)(x >> 64);
	s[3] = (u64)x;
	p256_fe_final_sub(r, s, (u64)(x >> 64));
}

/* *t += a * b + *c, the high word into *c (cannot overflow 128 bits). */
static inline void p256_mac(u64 *t, u64 a, u64 b, u64 *c)
{
	unsigned __int128 x = (unsigned __int128)a * b + *t + *c;

	*t = (u64)x;
	*c = (u64)(x >> 64);
}

/* r = a * b / R mod p (the Montgomery product), schoolbook then reduce. */
static __always_inline void p256_fe_mul_generic(u64 r[4], const u64 a[4],
				       const u64 b[4])
{
	u64 t[8] = { 0 }, c;

	/* written out: compilers keep the words in registers then */
	c = 0;
	p256_mac(&t[0], a[0], b[0], &c);
	p256_mac(&t[1], a[1], b[0], &c);
	p256_mac(&t[2], a[2], b[0], &c);
	p256_mac(&t[3], a[3], b[0], &c);
	t[4] = c;
	c = 0;
	p256_mac(&t[1], a[0], b[1], &c);
	p256_mac(&t[2], a[1], b[1], &c);
	p256_mac(&t[3], a[2], b[1], &c);
	p256_mac(&t[4], a[3], b[1], &c);
	t[5] = c;
	c = 0;
	p256_mac(&t[2], a[0], b[2], &c);
	p256_mac(&t[3], a[1], b[2], &c);
	p256_mac(&t[4], a[2], b[2], &c);
	p256_mac(&t[5], a[3], b[2], &c);
	t[6] = c;
	c = 0;
	p256_mac(&t[3], a[0], b[3], &c);
	p256_mac(&t[4], a[1], b[3], &c);
	p256_mac(&t[5], a[2], b[3], &c);
	p256_mac(&t[6], a[3], b[3], &c);
	t[7] = c;
	p256_fe_mont_reduce(r, t);
}

/*
 * r = a^2 / R mod p: the six cross products once, doubled by a shift,
 * plus the four squares on the diagonal.
 */
static __always_inline void p256_fe_sqr_generic(u64 r[4], const u64 a[4])
{
	unsigned __int128 x, sq;
	u64 t[8] = { 0 }, c;

	c = 0;
	p256_mac(&t[1], a[0], a[1], &c);
	p256_mac(&t[2], a[0], a[2], &c);
	p256_mac(&t[3], a[0], a[3], &c);
	t[4] = c;
	c = 0;
	p256_mac(&t[3], a[1], a[2], &c);
	p256_mac(&t[4], a[1], a[3], &c);
	t[5] = c;
	c = 0;
	p256_mac(&t[5], a[2], a[3], &c);
	t[6] = c;

	t[7] = t[6] >> 63;
	t[6] = (t[6] << 1) | (t[5] >> 63);
	t[5] = (t[5] << 1) | (t[4] >> 63);
	t[4] = (t[4] << 1) | (t[3] >> 63);
	t[3] = (t[3] << 1) | (t[2] >> 63);
	t[2] = (t[2] << 1) | (t[1] >> 63);
	t[1] = (t[1] << 1) | (t[0] >> 63);
	t[0] = 0;

	/* the squares on the diagonal, written out like the rest */
	c = 0;
	sq = (unsigned __int128)a[0] * a[0];
	x = (unsigned __int128)t[0] + (u64)sq + c;
	t[0] = (u64)x;
	x = (unsigned __int128)t[1] + (u64)(sq >> 64) + (u64)(x >> 64);
	t[1] = (u64)x;
	c = (u64)(x >> 64);
	sq = (unsigned __int128)a[1] * a[1];
	x = (unsigned __int128)t[2] + (u64)sq + c;
	t[2] = (u64)x;
	x = (unsigned __int128)t[3] + (u64)(sq >> 64) + (u64)(x >> 64);
	t[3] = (u64)x;
	c = (u64)(x >> 64);
	sq = (unsigned __int128)a[2] * a[2];
	x = (unsigned __int128)t[4] + (u64)sq + c;
	t[4] = (u64)x;
	x = (unsigned __int128)t[5] + (u64)(sq >> 64) + (u64)(x >> 64);
	t[5] = (u64)x;
	c = (u64)(x >> 64);
	sq = (unsigned __int128)a[3] * a[3];
	x = (unsigned __int128)t[6] + (u64)sq + c;
	t[6] = (u64)x;
	x = (unsigned __int128)t[7] + (u64)(sq >> 64) + (u64)(x >> 64);
	t[7] = (u64)x;
	p256_fe_mont_reduce(r, t);
}

#endif /* TLSX_P256_FIELD_H */
