// SPDX-License-Identifier: GPL-2.0
/*
 * bn_inv.c - constant-time modular inversion modulo an odd m, by the
 * division steps of Bernstein and Yang ("Fast constant-time gcd
 * computation and modular inversion", 2019), 62 at a time.
 *
 * A division step maps (delta, f, g), f odd, to
 *	(1 - delta, g, (g - f) / 2)	when delta > 0 and g is odd,
 *	(1 + delta, f, (g + f) / 2)	when g is odd otherwise,
 *	(1 + delta, f, g / 2)		when g is even.
 * From f = m, g = a, delta = 1, after enough steps (the paper's bound,
 * (49 d + 57) / 17 for d-bit inputs, d >= 46) g = 0 and f = +-gcd(m, a).
 * Alongside, d and e with d a = f and e a = g (mod m) give a^-1 = +-d.
 *
 * Numbers here are signed, in 62-bit limbs (s64, least significant
 * first): every limb but the top one is in [0, 2^62), the top one
 * carries the sign.  Each batch runs 62 steps on the low 64 bits of f
 * and g alone, which decide every step, and records them as a 2x2 matrix
 * T with 2^62 (f', g') = T (f, g); then T is applied to the full f, g
 * (an exact shift by 62 bits) and to d, e modulo m (where the division
 * by 2^62 is made exact by adding a multiple of m, as in Montgomery
 * reduction).
 */
#include "bignum.h"

#define SG_BITS		62
#define SG_MASK		((1ULL << SG_BITS) - 1)
/* Up to 2048-bit moduli, with room for the sign and 2^62-wide terms. */
#define SG_LIMBS	((BN_INV_MAX_LIMBS * 64 + SG_BITS - 1) / SG_BITS + 2)

struct sg_matrix {
	s64 u, v, q, r;
};

/*
 * 62 division steps on the low bits of f and g; returns the new delta.
 * Rows are tracked scaled: after i steps, 2^i f_i = u f + v g and
 * 2^i g_i = q f + r g, so each step doubles (u, v) instead of halving
 * (q, r).  Each row's |u| + |v| at most doubles per step, so entries
 * stay within 2^62.  Entries are computed in u64 (two's complement) to
 * keep the shifts of negative values defined.
 */
static s64 sg_divsteps(s64 delta, u64 f, u64 g, struct sg_matrix *t)
{
	u64 u = 1, v = 0, q = 0, r = 1;
	int i;

	for (i = 0; i < SG_BITS; i++) {
		/* swap: all ones when delta > 0 and g is odd. */
		u64 godd = 0 - (g & 1);
		u64 swap = (0 - ((u64)(0 - delta) >> 63)) & godd;
		u64 x;

		/* (delta, f, g) <- (-delta, g, -f) and likewise the rows. */
		x = (f ^ g) & swap;
		f ^= x;
		g ^= x;
		g ^= (g ^ (0 - g)) & swap;
		x = (u ^ q) & swap;
		u ^= x;
		q ^= x;
		q ^= (q ^ (0 - q)) & swap;
		x = (v ^ r) & swap;
		v ^= x;
		r ^= x;
		r ^= (r ^ (0 - r)) & swap;
		delta = (s64)((u64)delta ^ (((u64)delta ^ (0 - (u64)delta)) &
					    swap));
		/* g odd (still, after a swap): g += f; then g /= 2. */
		g += f & godd;
		q += u & godd;
		r += v & godd;
		g >>= 1;
		u <<= 1;
		v <<= 1;
		delta++;
	}
	t->u = (s64)u;
	t->v = (s64)v;
	t->q = (s64)q;
	t->r = (s64)r;
	return delta;
}

/* (f, g) <- T (f, g) / 2^62, exactly (the low 62 bits are zero). */
static void sg_update_fg(s64 *f, s64 *g, const struct sg_matrix *t,
			 size_t len)
{
	__int128 cf, cg;
	size_t i;

	cf = (__int128)t->u * f[0] + (__int128)t->v * g[0];
	cg = (__int128)t->q * f[0] + (__int128)t->r * g[0];
	cf >>= SG_BITS;
	cg >>= SG_BITS;
	for (i = 1; i < len; i++) {
		cf += (__int128)t->u * f[i] + (__int128)t->v * g[i];
		cg += (__int128)t->q * f[i] + (__int128)t->r * g[i];
		f[i - 1] = (s64)((u64)cf & SG_MASK);
		g[i - 1] = (s64)((u64)cg & SG_MASK);
		cf >>= SG_BITS;
		cg >>= SG_BITS;
	}
	f[len - 1] = (s64)cf;
	g[len - 1] = (s64)cg;
}

/* x += m where mask is all ones; x and m normalised, carries propagated. */
static void sg_cond_add(s64 *x, const s64 *m, u64 mask, size_t len)
{
	s64 c = 0;
	size_t i;

	for (i = 0; i < len - 1; i++) {
		c += x[i] + (s64)((u64)m[i] & mask);
		x[i] = (s64)((u64)c & SG_MASK);
		c >>= SG_BITS;
	}
	x[len - 1] += c + (s64)((u64)m[len - 1] & mask);
}

/* x <- -x where mask is all ones: (x ^ mask) - mask with carries. */
static void sg_cond_neg(s64 *x, u64 mask, size_t len)
{
	s64 c = (s64)(mask & 1);
	size_t i;

	for (i = 0; i < len - 1; i++) {
		c += (s64)(((u64)x[i] ^ mask) & SG_MASK);
		x[i] = (s64)((u64)c & SG_MASK);
		c >>= SG_BITS;
	}
	x[len - 1] = (s64)((u64)x[len - 1] ^ mask) + c;
}

/* All ones when x < 0 (the sign of the top limb). */
static u64 sg_neg_mask(const s64 *x, size_t len)
{
	return (u64)(x[len - 1] >> 63);
}

/*
 * Brings x from (-m, 2m) into [0, m): add m when negative, then subtract
 * m when at least m (tried as x - m, kept when not negative).
 */
static void sg_normalise(s64 *x, const s64 *m, const s64 *neg_m, size_t len)
{
	s64 y[SG_LIMBS];

	sg_cond_add(x, m, sg_neg_mask(x, len), len);
	memcpy(y, x, len * sizeof(s64));
	sg_cond_add(y, neg_m, ~0ULL, len);
	/* Keep y = x - m when it is not negative. */
	{
		u64 keep = ~sg_neg_mask(y, len);
		size_t i;

		for (i = 0; i < len; i++)
			x[i] = (s64)((u64)x[i] ^ (((u64)x[i] ^ (u64)y[i]) &
						  keep));
	}
	memzero_explicit(y, sizeof(y));
}

/*
 * (d, e) <- T (d, e) / 2^62 mod m, for d, e in [0, m).  With |u| + |v|
 * <= 2^62, |u d + v e| < 2^62 m; adding k m for the k in [0, 2^62) that
 * clears the low 62 bits (k = -(u d + v e) m^-1 mod 2^62) keeps the sum
 * in (-2^62 m, 2^63 m), so the quotient is in (-m, 2m): normalise.
 */
static void sg_update_de(s64 *d, s64 *e, const struct sg_matrix *t,
			 const s64 *m, const s64 *neg_m, u64 minv,
			 size_t len)
{
	__int128 cd, ce;
	u64 kd, ke;
	size_t i;

	kd = (0 - ((u64)t->u * (u64)d[0] + (u64)t->v * (u64)e[0]) * minv) &
	     SG_MASK;
	ke = (0 - ((u64)t->q * (u64)d[0] + (u64)t->r * (u64)e[0]) * minv) &
	     SG_MASK;
	cd = (__int128)t->u * d[0] + (__int128)t->v * e[0] +
	     (__int128)(s64)kd * m[0];
	ce = (__int128)t->q * d[0] + (__int128)t->r * e[0] +
	     (__int128)(s64)ke * m[0];
	cd >>= SG_BITS;
	ce >>= SG_BITS;
	for (i = 1; i < len; i++) {
		cd += (__int128)t->u * d[i] + (__int128)t->v * e[i] +
		      (__int128)(s64)kd * m[i];
		ce += (__int128)t->q * d[i] + (__int128)t->r * e[i] +
		      (__int128)(s64)ke * m[i];
		d[i - 1] = (s64)((u64)cd & SG_MASK);
		e[i - 1] = (s64)((u64)ce & SG_MASK);
		cd >>= SG_BITS;
		ce >>= SG_BITS;
	}
	d[len - 1] = (s64)cd;
	e[len - 1] = (s64)ce;
	sg_normalise(d, m, neg_m, len);
	sg_normalise(e, m, neg_m, len);
}

/* 64-bit limbs to 62-bit ones (non-negative), and back. */
static void sg_from_limbs(s64 *x, size_t len, const u64 *a, size_t n)
{
	size_t i;

	for (i = 0; i < len; i++) {
		size_t bit = i * SG_BITS, w = bit / 64, sh = bit % 64;
		u64 lo = w < n ? a[w] : 0, hi = w + 1 < n ? a[w + 1] : 0;

		x[i] = (s64)(((lo >> sh) | ((hi << 1) << (63 - sh))) &
			     SG_MASK);
	}
}

static void sg_to_limbs(u64 *a, size_t n, const s64 *x, size_t len)
{
	size_t i;

	memset(a, 0, n * 8);
	for (i = 0; i < len; i++) {
		size_t bit = i * SG_BITS, w = bit / 64, sh = bit % 64;
		u64 v = (u64)x[i] & SG_MASK;

		if (w < n)
			a[w] |= v << sh;
		if (sh > 64 - SG_BITS && w + 1 < n)
			a[w + 1] |= v >> (64 - sh);
	}
}

void bn_mod_inv(u64 *r, const u64 *a, const struct bn_mont *mt)
{
	s64 f[SG_LIMBS], g[SG_LIMBS], d[SG_LIMBS], e[SG_LIMBS];
	s64 m[SG_LIMBS], neg_m[SG_LIMBS];
	size_t n = mt->n, bits = n * 64, len, i, batches;
	struct sg_matrix t;
	s64 delta = 1;
	u64 minv, ok;

	if (n > BN_INV_MAX_LIMBS) {
		memset(r, 0, n * 8);
		return;
	}
	/* Room for bits + 1 signed bits and the 62-bit shift-in. */
	len = (bits + SG_BITS) / SG_BITS + 1;
	sg_from_limbs(m, len, mt->m, n);
	sg_from_limbs(f, len, mt->m, n);
	sg_from_limbs(g, len, a, n);
	memset(d, 0, sizeof(d));
	memset(e, 0, sizeof(e));
	e[0] = 1;
	memcpy(neg_m, m, sizeof(m));
	sg_cond_neg(neg_m, ~0ULL, len);

	/* m^-1 mod 2^64 by Newton (see bn_mont_init), used mod 2^62. */
	minv = mt->m[0];
	for (i = 0; i < 5; i++)
		minv *= 2 - mt->m[0] * minv;

	batches = ((49 * bits + 57) / 17 + SG_BITS) / SG_BITS;
	for (i = 0; i < batches; i++) {
		delta = sg_divsteps(delta, (u64)f[0] | ((u64)f[1] << SG_BITS),
				    (u64)g[0] | ((u64)g[1] << SG_BITS), &t);
		sg_update_fg(f, g, &t, len);
		sg_update_de(d, e, &t, m, neg_m, minv, len);
	}

	/*
	 * Now g = 0 and f = +-gcd: a^-1 = d when f = 1, -d when f = -1;
	 * -d is in (-m, 0], which the normalisation brings into [0, m).
	 */
	{
		u64 s = sg_neg_mask(f, len);

		sg_cond_neg(f, s, len);
		sg_cond_neg(d, s, len);
		sg_normalise(d, m, neg_m, len);
	}
	/* gcd == 1 means |f| == 1: limb 0 is 1, every other limb 0. */
	ok = (u64)(f[0] ^ 1);
	for (i = 1; i < len; i++)
		ok |= (u64)f[i];
	ok = ((ok | (0 - ok)) >> 63) - 1;
	for (i = 0; i < len; i++)
		d[i] = (s64)((u64)d[i] & ok);
	sg_to_limbs(r, n, d, len);

	memzero_explicit(f, sizeof(f));
	memzero_explicit(g, sizeof(g));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(&t, sizeof(t));
}
