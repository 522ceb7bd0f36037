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
#include "rsa/bignum.h"

#define SG_BITS		62
#define SG_MASK		((1ULL << SG_BITS) - 1)
/* Up to 2048-bit moduli, with room for the sign and 2^62-wide terms. */
#define SG_LIMBS	((BN_INV_MAX_LIMBS * 64 + SG_BITS - 1) / SG_BITS + 2)

struct sg_matrix {
	s64 u, v, q, r;
};

/* The division step itself, on the low bits and the matrix rows. */
struct sg_bits {
	s64 delta;
	u64 f, g, u, v, q, r;
};

/*
 * The step in the form that keeps the chain through g short (g's low bit,
 * a mask, an add, a shift): the candidate addend x = f or -f is chosen by
 * the sign of delta alone, before g is known, and the swap (delta > 0
 * and g odd) then turns the new g into the new f by one masked addition,
 * f + (g - f) = g.  Rows alike: q gets u or -u, and u becomes the old q
 * as u + (q - u).
 */
static __always_inline void sg_step(struct sg_bits *b)
{
	/* All ones when delta > 0, and when g is odd. */
	u64 pos = 0 - ((u64)(0 - b->delta) >> 63);
	u64 godd = 0 - (b->g & 1);
	u64 x = (b->f ^ pos) - pos;
	u64 y = (b->u ^ pos) - pos;
	u64 z = (b->v ^ pos) - pos;
	u64 swap;

	b->g += x & godd;
	b->q += y & godd;
	b->r += z & godd;
	swap = pos & godd;
	/* delta <- 1 + delta, or 1 - delta on a swap. */
	b->delta = (s64)((((u64)b->delta ^ swap) - swap) + 1);
	b->f += b->g & swap;
	b->u += b->q & swap;
	b->v += b->r & swap;
	b->g >>= 1;
	b->u <<= 1;
	b->v <<= 1;
}

static void sg_bits_start(struct sg_bits *b, s64 delta, const s64 *f,
			  const s64 *g)
{
	b->delta = delta;
	b->f = (u64)f[0] | ((u64)f[1] << SG_BITS);
	b->g = (u64)g[0] | ((u64)g[1] << SG_BITS);
	b->u = 1;
	b->v = 0;
	b->q = 0;
	b->r = 1;
}

static void sg_bits_matrix(const struct sg_bits *b, struct sg_matrix *t)
{
	t->u = (s64)b->u;
	t->v = (s64)b->v;
	t->q = (s64)b->q;
	t->r = (s64)b->r;
}

/*
 * 62 division steps on the low bits of f and g, for two independent
 * inversions at once: each step waits on the one before, so a second
 * chain in the same loop runs in the first one's shadow.
 *
 * Rows are tracked scaled: after i steps, 2^i f_i = u f + v g and
 * 2^i g_i = q f + r g, so each step doubles (u, v) instead of halving
 * (q, r).  Each row's |u| + |v| at most doubles per step, so entries
 * stay within 2^62.  Entries are computed in u64 (two's complement) to
 * keep the shifts of negative values defined.
 */
static void sg_divsteps_x2(struct sg_bits *b0, struct sg_bits *b1)
{
	struct sg_bits x0 = *b0, x1 = *b1;
	int i;

	for (i = 0; i < SG_BITS; i++) {
		sg_step(&x0);
		sg_step(&x1);
	}
	/*
	 * No wipe of x0 and x1 here: taking their address would keep them
	 * in memory through the loop (a store and a reload every step); the
	 * caller wipes b0 and b1.
	 */
	*b0 = x0;
	*b1 = x1;
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
 * (f, g) <- T (f, g) / 2^62, exactly (the low 62 bits are zero), and
 * (d, e) <- T (d, e) / 2^62 mod m, keeping d, e in (-2m, m) without a
 * separate normalisation pass.  A negative d is taken as d + m, in
 * (-m, m), by adding u m (v m for e) to the sum: with |u| + |v| <= 2^62,
 * |u d + v e| < 2^62 m then.  Adding k m for k in [-2^62, 0) congruent
 * to -(u d + v e) m^-1 mod 2^62 clears the low 62 bits and keeps the
 * sum in (-2^63 m, 2^62 m), so the quotient is in (-2m, m) again.  All
 * of it is one multiple of m, K = u [d < 0] + v [e < 0] + k, with
 * -2^63 <= K <= 2^62: one pass over the limbs.
 */
static void sg_update(s64 *f, s64 *g, s64 *d, s64 *e,
		      const struct sg_matrix *t, const s64 *m, u64 minv,
		      size_t len)
{
	const s64 u = t->u, v = t->v, q = t->q, r = t->r;
	u64 dneg = sg_neg_mask(d, len), eneg = sg_neg_mask(e, len);
	u64 cd = ((u64)u & dneg) + ((u64)v & eneg);
	u64 ce = ((u64)q & dneg) + ((u64)r & eneg);
	__int128 cf, cg, ad, ae;
	s64 kd, ke;
	size_t i;

	/* Low 62 bits of the sums so far, then k in [-2^62, 0). */
	kd = (s64)((0 - ((u64)u * (u64)d[0] + (u64)v * (u64)e[0] +
			 cd * (u64)m[0]) * minv) & SG_MASK);
	ke = (s64)((0 - ((u64)q * (u64)d[0] + (u64)r * (u64)e[0] +
			 ce * (u64)m[0]) * minv) & SG_MASK);
	kd = (s64)(cd + (u64)kd - (1ULL << SG_BITS));
	ke = (s64)(ce + (u64)ke - (1ULL << SG_BITS));
	cf = (__int128)u * f[0] + (__int128)v * g[0];
	cg = (__int128)q * f[0] + (__int128)r * g[0];
	ad = (__int128)u * d[0] + (__int128)v * e[0] + (__int128)kd * m[0];
	ae = (__int128)q * d[0] + (__int128)r * e[0] + (__int128)ke * m[0];
	cf >>= SG_BITS;
	cg >>= SG_BITS;
	ad >>= SG_BITS;
	ae >>= SG_BITS;
	/* Four independent carry chains in one loop. */
	for (i = 1; i < len; i++) {
		cf += (__int128)u * f[i] + (__int128)v * g[i];
		cg += (__int128)q * f[i] + (__int128)r * g[i];
		ad += (__int128)u * d[i] + (__int128)v * e[i] +
		      (__int128)kd * m[i];
		ae += (__int128)q * d[i] + (__int128)r * e[i] +
		      (__int128)ke * m[i];
		f[i - 1] = (s64)((u64)cf & SG_MASK);
		g[i - 1] = (s64)((u64)cg & SG_MASK);
		d[i - 1] = (s64)((u64)ad & SG_MASK);
		e[i - 1] = (s64)((u64)ae & SG_MASK);
		cf >>= SG_BITS;
		cg >>= SG_BITS;
		ad >>= SG_BITS;
		ae >>= SG_BITS;
	}
	f[len - 1] = (s64)cf;
	g[len - 1] = (s64)cg;
	d[len - 1] = (s64)ad;
	e[len - 1] = (s64)ae;
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

/* One inversion's numbers. */
struct sg_state {
	s64 f[SG_LIMBS], g[SG_LIMBS], d[SG_LIMBS], e[SG_LIMBS];
	s64 m[SG_LIMBS], neg_m[SG_LIMBS];
	s64 delta;
	u64 minv;
};

static void sg_init(struct sg_state *s, const u64 *a, const struct bn_mont *mt,
		    size_t len)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	sg_from_limbs(s->m, len, mt->m, mt->n);
	sg_from_limbs(s->f, len, mt->m, mt->n);
	sg_from_limbs(s->g, len, a, mt->n);
	s->e[0] = 1;
	s->delta = 1;
	memcpy(s->neg_m, s->m, sizeof(s->m));
	sg_cond_neg(s->neg_m, ~0ULL, len);
	/* m^-1 mod 2^64 by Newton (see bn_mont_init), used mod 2^62. */
	s->minv = mt->m[0];
	for (i = 0; i < 5; i++)
		s->minv *= 2 - mt->m[0] * s->minv;
}

/* The full-width updates after a batch of steps. */
static void sg_apply(struct sg_state *s, const struct sg_bits *b, size_t len)
{
	struct sg_matrix t;

	sg_bits_matrix(b, &t);
	s->delta = b->delta;
	sg_update(s->f, s->g, s->d, s->e, &t, s->m, s->minv, len);
	memzero_explicit(&t, sizeof(t));
}

/*
 * Now g = 0 and f = +-gcd: a^-1 = d when f = 1, -d when f = -1, brought
 * into [0, m).  r = 0 when the gcd is not 1.
 */
static void sg_finish(u64 *r, struct sg_state *s, size_t n, size_t len)
{
	u64 sign = sg_neg_mask(s->f, len), ok;
	size_t i;

	sg_cond_neg(s->f, sign, len);
	/* d in (-2m, m), negated or not in (-2m, 2m): into [0, m). */
	sg_cond_neg(s->d, sign, len);
	sg_cond_add(s->d, s->m, sg_neg_mask(s->d, len), len);
	sg_normalise(s->d, s->m, s->neg_m, len);
	/* gcd == 1 means |f| == 1: limb 0 is 1, every other limb 0. */
	ok = (u64)(s->f[0] ^ 1);
	for (i = 1; i < len; i++)
		ok |= (u64)s->f[i];
	ok = ((ok | (0 - ok)) >> 63) - 1;
	for (i = 0; i < len; i++)
		s->d[i] = (s64)((u64)s->d[i] & ok);
	sg_to_limbs(r, n, s->d, len);
	memzero_explicit(s, sizeof(*s));
}

void bn_mod_inv_x2(u64 *r0, const u64 *a0, const struct bn_mont *m0,
		   u64 *r1, const u64 *a1, const struct bn_mont *m1)
{
	size_t n = m0->n > m1->n ? m0->n : m1->n, bits = n * 64, len, i;
	size_t batches;
	struct sg_state s[2];
	struct sg_bits b[2];

	if (n > BN_INV_MAX_LIMBS) {
		memset(r0, 0, m0->n * 8);
		memset(r1, 0, m1->n * 8);
		return;
	}
	/* Room for bits + 1 signed bits and the 62-bit shift-in. */
	len = (bits + SG_BITS) / SG_BITS + 1;
	sg_init(&s[0], a0, m0, len);
	sg_init(&s[1], a1, m1, len);
	/* Enough steps for the larger modulus; more do no harm (g = 0). */
	batches = ((49 * bits + 57) / 17 + SG_BITS) / SG_BITS;
	for (i = 0; i < batches; i++) {
		sg_bits_start(&b[0], s[0].delta, s[0].f, s[0].g);
		sg_bits_start(&b[1], s[1].delta, s[1].f, s[1].g);
		sg_divsteps_x2(&b[0], &b[1]);
		sg_apply(&s[0], &b[0], len);
		sg_apply(&s[1], &b[1], len);
	}
	sg_finish(r0, &s[0], m0->n, len);
	sg_finish(r1, &s[1], m1->n, len);
	memzero_explicit(b, sizeof(b));
}

void bn_mod_inv(u64 *r, const u64 *a, const struct bn_mont *mt)
{
	size_t bits = mt->n * 64, len, i, batches;
	struct sg_state s;
	struct sg_bits b;

	if (mt->n > BN_INV_MAX_LIMBS) {
		memset(r, 0, mt->n * 8);
		return;
	}
	len = (bits + SG_BITS) / SG_BITS + 1;
	sg_init(&s, a, mt, len);
	batches = ((49 * bits + 57) / 17 + SG_BITS) / SG_BITS;
	for (i = 0; i < batches; i++) {
		int j;

		sg_bits_start(&b, s.delta, s.f, s.g);
		for (j = 0; j < SG_BITS; j++)
			sg_step(&b);
		sg_apply(&s, &b, len);
	}
	sg_finish(r, &s, mt->n, len);
	memzero_explicit(&b, sizeof(b));
}
