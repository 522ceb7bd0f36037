// SPDX-License-Identifier: GPL-2.0
/*
 * poly1305_avx2.c - Poly1305 over four blocks at a time with AVX2.
 *
 * Algorithm.  With blocks m_1..m_n (n = 4k) the MAC accumulator is
 * h' = (h + m_1) r^n + m_2 r^(n-1) + ... + m_n r.  Splitting the blocks
 * into four streams j = 0..3 (blocks 4t + j + 1), each stream is a Horner
 * evaluation in r^4, and the stream of block j is finally multiplied by
 * r^(4-j).  With G_t the t-th group of four blocks:
 *
 *   A = (h, 0, 0, 0)
 *   A = (A + G_t) * r^4  for the groups but the last
 *   A = (A + G_last) * (r^4, r^3, r^2, r)
 *   h' = A_0 + A_1 + A_2 + A_3
 *
 * The four products of one step are independent: one vector each.  Two
 * groups go in at once as A = (A + G_t) * r^8 + G_(t+1) * r^4, which
 * shares one carry pass between two products and lets the product of
 * G_(t+1) proceed while A is still being carried.
 *
 * Representation.  Numbers are in radix 2^26, five limbs, one limb of
 * each of the four streams per ymm register (a 64-bit lane each), so
 * VPMULUDQ (32x32->64 per lane) forms four limb products at once.  With
 * 2^130 = 5 (mod p), (A * R)_i = sum over j+k=i of A_j R_k plus
 * 5 * sum over j+k=i+5 of A_j R_k; the factors 5 R_k (k = 1..4) are
 * precomputed.
 *
 * Bounds.  The powers of r are fully reduced (limbs below 2^26, 5 R_k
 * below 2^28.4).  A carry pass leaves limbs below 2^26 + 2^10, the
 * message adds at most 2^26, so a product is below 2^55.5 and a sum of
 * ten (two products per step) below 2^59: 64-bit lanes do not overflow.
 * Messages are split into limbs with shifts and masks, the 2^128 pad bit
 * being 1 << 24 in limb 4.
 *
 * Register plan: five sums, the five limbs of A, then of G, and a
 * product; the nine factors of each key (r0..r4, 5r1..5r4 of r^4 and
 * r^8) are broadcast once per call into vectors on the stack (wiped at
 * the end) and the multiplies read them as memory operands, and the sums
 * are accumulated in program order (MAC()), which keeps the step within
 * the 16 ymm registers: about 165 instructions per 128 bytes, 50 of them
 * multiplies.
 *
 * Loading 64 bytes as two ymm of two blocks each and unpacking their
 * 64-bit halves puts the blocks in lane order (0, 2, 1, 3), so the powers
 * for the last step are laid out as (r^4, r^2, r^3, r).
 *
 * The powers of r are computed into the state's @simd area the first time
 * this engine runs on a message.  The lanes stay there between calls,
 * with the last group added but not yet multiplied; the first call takes
 * the scalar accumulator into lane 0, and tlsx_poly1305_fold_*() applies
 * the per-lane powers and adds the lanes back into the scalar form
 * (radix 2^64) when the scalar code needs it (see poly1305_impl.h).
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#include "aead/poly1305_impl.h"

#define AVX2 __attribute__((target("avx2")))

/*
 * The layout of st->simd for this engine: the nine factors of r^4 and of
 * r^8 (limbs 0..4, then 5 * limbs 1..4) for broadcasting, and the same
 * nine of (r^4, r^2, r^3, r) in lane order, as 64-bit lanes.
 */
struct poly1305_avx2_powers {
	u64 last[9][4];
	/* the lanes of the accumulator between calls (st->simd_lanes) */
	u64 acc[5][4];
	u64 r4[9];
	u64 r8[9];
};

_Static_assert(sizeof(struct poly1305_avx2_powers) + POLY1305_SIMD_ALIGN_SLACK <=
	       TLSX_POLY1305_SIMD_BYTES,
	       "poly1305_avx2_powers does not fit the state");

/*
 * Zero @n bytes (a multiple of 32) at @p with vector stores.  In the
 * kernel memzero_explicit() is a memset, which is `rep stosb` on CPUs
 * with fast short REP STOS: an instruction count (qemu's -icount, issue
 * #29) counts each of its iterations, one per byte.  Volatile, so that
 * the compiler neither drops the stores nor turns them into a memset.
 */
static __always_inline AVX2 void poly1305_avx2_wipe(void *p, size_t n)
{
	const __m256i z = _mm256_setzero_si256();
	size_t i;

	/* unrolled: n is a constant at every call */
#pragma GCC unroll 64
	for (i = 0; i < n; i += 32)
		*(volatile __m256i_u *)((u8 *)p + i) = z;
}

static AVX2 void poly1305_avx2_setup(struct tlsx_poly1305_state *st)
{
	struct poly1305_avx2_powers *pw = poly1305_simd_area(st);
	static const int lane_power[4] = { 3, 1, 2, 0 };	/* r^4 r^2 r^3 r */
	u64 p64[8][3];		/* r .. r^8 */
	u32 p[8][5];
	int i, j;

	poly1305_powers(p64, st->r, 8);
	for (j = 0; j < 8; j++)
		poly1305_to26(p[j], p64[j]);
	for (i = 0; i < 5; i++) {
		pw->r4[i] = p[3][i];
		pw->r8[i] = p[7][i];
		for (j = 0; j < 4; j++)
			pw->last[i][j] = p[lane_power[j]][i];
	}
	for (i = 1; i < 5; i++) {
		pw->r4[4 + i] = 5 * p[3][i];
		pw->r8[4 + i] = 5 * p[7][i];
		for (j = 0; j < 4; j++)
			pw->last[4 + i][j] = 5 * p[lane_power[j]][i];
	}
	poly1305_avx2_wipe(p64, sizeof(p64));
	poly1305_avx2_wipe(p, sizeof(p));
	st->simd_ready = POLY1305_ENGINE_AVX2;
}

/* Five limbs of four numbers, one per 64-bit lane. */
struct poly1305_avx2_vec {
	__m256i l0, l1, l2, l3, l4;
};

/* Four blocks as limbs of four lanes, with the 2^128 pad bit. */
static __always_inline AVX2 struct poly1305_avx2_vec
poly1305_avx2_load(const u8 *p)
{
	const __m256i mask = _mm256_set1_epi64x(POLY1305_M26);
	__m256i a = _mm256_loadu_si256((const __m256i *)p);
	__m256i b = _mm256_loadu_si256((const __m256i *)(p + 32));
	__m256i lo = _mm256_unpacklo_epi64(a, b);	/* bits 0..63 */
	__m256i hi = _mm256_unpackhi_epi64(a, b);	/* bits 64..127 */
	struct poly1305_avx2_vec m;

	m.l0 = _mm256_and_si256(lo, mask);
	m.l1 = _mm256_and_si256(_mm256_srli_epi64(lo, 26), mask);
	m.l2 = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 52),
						_mm256_slli_epi64(hi, 12)),
				mask);
	m.l3 = _mm256_and_si256(_mm256_srli_epi64(hi, 14), mask);
	m.l4 = _mm256_or_si256(_mm256_srli_epi64(hi, 40),
			       _mm256_set1_epi64x(1 << 24));
	return m;
}

static __always_inline AVX2 struct poly1305_avx2_vec
poly1305_avx2_add(struct poly1305_avx2_vec a, struct poly1305_avx2_vec b)
{
	a.l0 = _mm256_add_epi64(a.l0, b.l0);
	a.l1 = _mm256_add_epi64(a.l1, b.l1);
	a.l2 = _mm256_add_epi64(a.l2, b.l2);
	a.l3 = _mm256_add_epi64(a.l3, b.l3);
	a.l4 = _mm256_add_epi64(a.l4, b.l4);
	return a;
}

/* Five sums of products, one per limb. */
struct poly1305_avx2_sums {
	__m256i d0, d1, d2, d3, d4;
};

/*
 * The nine factors of a key (r0..r4, 5r1..5r4) are read from memory at
 * each use, as k[i] of an array of vectors, or per lane from a u64
 * k[9][4].
 */
#define POLY1305_AVX2_VEC(k, i) ((k)[i])
#define POLY1305_AVX2_LANES(k, i) \
	_mm256_loadu_si256((const __m256i_u *)((k) + 4 * (i)))

/*
 * s += h * key.  Limb by limb of h, so that only the five sums, the limbs
 * of h not yet used and a product or two are live.
 */
#define POLY1305_AVX2_MADD(s, h, K, k)					\
	do {								\
		__m256i t_;						\
									\
		t_ = (h).l0;						\
		MAC((s).d0, MUL(t_, K(k, 0)));			\
		MAC((s).d1, MUL(t_, K(k, 1)));			\
		MAC((s).d2, MUL(t_, K(k, 2)));			\
		MAC((s).d3, MUL(t_, K(k, 3)));			\
		MAC((s).d4, MUL(t_, K(k, 4)));			\
		t_ = (h).l1;						\
		MAC((s).d0, MUL(t_, K(k, 8)));			\
		MAC((s).d1, MUL(t_, K(k, 0)));			\
		MAC((s).d2, MUL(t_, K(k, 1)));			\
		MAC((s).d3, MUL(t_, K(k, 2)));			\
		MAC((s).d4, MUL(t_, K(k, 3)));			\
		t_ = (h).l2;						\
		MAC((s).d0, MUL(t_, K(k, 7)));			\
		MAC((s).d1, MUL(t_, K(k, 8)));			\
		MAC((s).d2, MUL(t_, K(k, 0)));			\
		MAC((s).d3, MUL(t_, K(k, 1)));			\
		MAC((s).d4, MUL(t_, K(k, 2)));			\
		t_ = (h).l3;						\
		MAC((s).d0, MUL(t_, K(k, 6)));			\
		MAC((s).d1, MUL(t_, K(k, 7)));			\
		MAC((s).d2, MUL(t_, K(k, 8)));			\
		MAC((s).d3, MUL(t_, K(k, 0)));			\
		MAC((s).d4, MUL(t_, K(k, 1)));			\
		t_ = (h).l4;						\
		MAC((s).d0, MUL(t_, K(k, 5)));			\
		MAC((s).d1, MUL(t_, K(k, 6)));			\
		MAC((s).d2, MUL(t_, K(k, 7)));			\
		MAC((s).d3, MUL(t_, K(k, 8)));			\
		MAC((s).d4, MUL(t_, K(k, 0)));			\
	} while (0)

#define MUL(a, b) _mm256_mul_epu32(a, b)
#define ADD(a, b) _mm256_add_epi64(a, b)
/*
 * d += x, kept in this order: the empty asm stops the compiler from
 * reassociating the sums, which otherwise forms all 25 or 50 products
 * first and spills most of them.
 */
#define MAC(d, x)							\
	do {								\
		(d) = ADD((d), (x));					\
		__asm__("" : "+x"(d));					\
	} while (0)

/* The sums as limbs below 2^26 + 2^10 (see the top of the file). */
static __always_inline AVX2 struct poly1305_avx2_vec
poly1305_avx2_carry(struct poly1305_avx2_sums s)
{
	const __m256i mask = _mm256_set1_epi64x(POLY1305_M26);
	struct poly1305_avx2_vec h;
	__m256i c;

	/*
	 * Two carry chains side by side, d0 -> d1 -> d2 -> d3 -> d4 and
	 * d3 -> d4 -> d0 (times 5, as 2^130 = 5): every limb ends below
	 * 2^26 except d1 and d4, which may exceed it by a small carry.
	 */
	c = _mm256_srli_epi64(s.d0, 26);
	s.d0 = _mm256_and_si256(s.d0, mask);
	s.d1 = ADD(s.d1, c);
	c = _mm256_srli_epi64(s.d3, 26);
	s.d3 = _mm256_and_si256(s.d3, mask);
	s.d4 = ADD(s.d4, c);

	c = _mm256_srli_epi64(s.d1, 26);
	s.d1 = _mm256_and_si256(s.d1, mask);
	s.d2 = ADD(s.d2, c);
	c = _mm256_srli_epi64(s.d4, 26);
	s.d4 = _mm256_and_si256(s.d4, mask);
	s.d0 = ADD(s.d0, ADD(c, _mm256_slli_epi64(c, 2)));

	c = _mm256_srli_epi64(s.d2, 26);
	s.d2 = _mm256_and_si256(s.d2, mask);
	s.d3 = ADD(s.d3, c);
	c = _mm256_srli_epi64(s.d0, 26);
	s.d0 = _mm256_and_si256(s.d0, mask);
	s.d1 = ADD(s.d1, c);

	c = _mm256_srli_epi64(s.d3, 26);
	s.d3 = _mm256_and_si256(s.d3, mask);
	s.d4 = ADD(s.d4, c);

	h.l0 = s.d0;
	h.l1 = s.d1;
	h.l2 = s.d2;
	h.l3 = s.d3;
	h.l4 = s.d4;
	return h;
}

static __always_inline AVX2 struct poly1305_avx2_sums poly1305_avx2_zero(void)
{
	struct poly1305_avx2_sums s;

	s.d0 = _mm256_setzero_si256();
	s.d1 = s.d0;
	s.d2 = s.d0;
	s.d3 = s.d0;
	s.d4 = s.d0;
	return s;
}

/*
 * Hide a key's address from the optimiser, so that it does not hoist the
 * nine factors out of the loop into registers (there are 16).
 */
#define POLY1305_AVX2_OPAQUE(k) __asm__("" : "+r"(k))

/* Sum of the four 64-bit lanes of @v. */
static __always_inline AVX2 u64 poly1305_avx2_hsum(__m256i v)
{
	__m128i x = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	return (u64)_mm_cvtsi128_si64(_mm_add_epi64(x,
						    _mm_unpackhi_epi64(x, x)));
}

/* r^4 and r^8 broadcast, nine factors each (see below). */
struct poly1305_avx2_keys {
	__m256i r4[9];
	__m256i r8[9];
};

/* The 26-bit limb mask and the 2^128 pad bit (1 << 24 in limb 4). */
static const u64 poly1305_avx2_consts[2][4] __aligned(32) = {
	{ POLY1305_M26, POLY1305_M26, POLY1305_M26, POLY1305_M26 },
	{ 1 << 24, 1 << 24, 1 << 24, 1 << 24 },
};

/*
 * The loop of two groups per step, h = h * r^8 + G * r^4 + G', written
 * out in assembly (@n steps, from @p): an instruction count (qemu's
 * -icount, issue #29) weighs every spill, and GCC's allocation of the C
 * version (POLY1305_AVX2_MADD() etc.) spills ten vectors a step.  The plan
 * fits the 16 registers: h in ymm0-ymm4 (operands h0-h4), the sums
 * d0-d4 in ymm5-ymm9, the two halves of the loaded blocks (bits 0-63 and
 * 64-127 of each, as poly1305_avx2_load()) in ymm10 and ymm11, the limb
 * being multiplied in ymm12, a product in ymm13 and a carry in ymm14.
 * The message's limbs are cut one at a time, just before their five
 * products; key factors and constants are memory operands.  The same
 * arithmetic as the C: the sums, carry chains and bounds at the top of
 * the file.  154 instructions a step against GCC's 164.
 */
#define PA_D0 "%%ymm5"
#define PA_D1 "%%ymm6"
#define PA_D2 "%%ymm7"
#define PA_D3 "%%ymm8"
#define PA_D4 "%%ymm9"
/* d = t * key factor @k (byte offset in @kb), or d += t * k */
#define PA_MUL(k, d) "vpmuludq " #k "(%[kb]), %%ymm12, " d "\n\t"
#define PA_MAC(k, d)							\
	"vpmuludq " #k "(%[kb]), %%ymm12, %%ymm13\n\t"			\
	"vpaddq %%ymm13, " d ", " d "\n\t"
/* d += h limb @h * k */
#define PA_MACH(h, k, d)						\
	"vpmuludq " #k "(%[kb]), %[" #h "], %%ymm13\n\t"		\
	"vpaddq %%ymm13, " d ", " d "\n\t"
/* the five products of a limb (in ymm12) against factors i0..i4 of @b */
#define PA_LIMB(b, i0, i1, i2, i3, i4)					\
	PA_MAC(b + 32 * i0, PA_D0) PA_MAC(b + 32 * i1, PA_D1)		\
	PA_MAC(b + 32 * i2, PA_D2) PA_MAC(b + 32 * i3, PA_D3)		\
	PA_MAC(b + 32 * i4, PA_D4)
#define PA_HLIMB(h, b, i0, i1, i2, i3, i4)				\
	PA_MACH(h, b + 32 * i0, PA_D0) PA_MACH(h, b + 32 * i1, PA_D1)	\
	PA_MACH(h, b + 32 * i2, PA_D2) PA_MACH(h, b + 32 * i3, PA_D3)	\
	PA_MACH(h, b + 32 * i4, PA_D4)
/* one carry: c = d >> 26, d &= mask, e += c */
#define PA_CARRY(d, e)							\
	"vpsrlq $26, " d ", %%ymm14\n\t"				\
	"vpand %[mask], " d ", " d "\n\t"				\
	"vpaddq %%ymm14, " e ", " e "\n\t"
/* four blocks at @off from %[p] into ymm10 (bits 0-63), ymm11 (64-127) */
#define PA_LOAD(off, off32)						\
	"vmovdqu " #off "(%[p]), %%ymm14\n\t"				\
	"vpunpcklqdq " #off32 "(%[p]), %%ymm14, %%ymm10\n\t"		\
	"vpunpckhqdq " #off32 "(%[p]), %%ymm14, %%ymm11\n\t"
/* limbs 0-4 of the loaded blocks into ymm12 */
#define PA_CUT0 "vpand %[mask], %%ymm10, %%ymm12\n\t"
#define PA_CUT1								\
	"vpsrlq $26, %%ymm10, %%ymm12\n\t"				\
	"vpand %[mask], %%ymm12, %%ymm12\n\t"
#define PA_CUT2								\
	"vpsrlq $52, %%ymm10, %%ymm12\n\t"				\
	"vpsllq $12, %%ymm11, %%ymm13\n\t"				\
	"vpor %%ymm13, %%ymm12, %%ymm12\n\t"				\
	"vpand %[mask], %%ymm12, %%ymm12\n\t"
#define PA_CUT3								\
	"vpsrlq $14, %%ymm11, %%ymm12\n\t"				\
	"vpand %[mask], %%ymm12, %%ymm12\n\t"
#define PA_CUT4								\
	"vpsrlq $40, %%ymm11, %%ymm12\n\t"				\
	"vpor %[pad], %%ymm12, %%ymm12\n\t"

static __always_inline AVX2 void
poly1305_avx2_pairs(struct poly1305_avx2_vec *hv, const u8 *p, size_t n,
		    const struct poly1305_avx2_keys *kb)
{
	__m256i h0 = hv->l0, h1 = hv->l1, h2 = hv->l2, h3 = hv->l3;
	__m256i h4 = hv->l4;

	__asm__(
		"1:\n\t"
		/* d = G * r^4, limb by limb of G */
		PA_LOAD(0, 32)
		PA_CUT0
		PA_MUL(0, PA_D0) PA_MUL(32, PA_D1) PA_MUL(64, PA_D2)
		PA_MUL(96, PA_D3) PA_MUL(128, PA_D4)
		PA_CUT1
		PA_LIMB(0, 8, 0, 1, 2, 3)
		PA_CUT2
		PA_LIMB(0, 7, 8, 0, 1, 2)
		PA_CUT3
		PA_LIMB(0, 6, 7, 8, 0, 1)
		PA_CUT4
		PA_LIMB(0, 5, 6, 7, 8, 0)
		/* d += h * r^8 */
		PA_HLIMB(h0, 288, 0, 1, 2, 3, 4)
		PA_HLIMB(h1, 288, 8, 0, 1, 2, 3)
		PA_HLIMB(h2, 288, 7, 8, 0, 1, 2)
		PA_HLIMB(h3, 288, 6, 7, 8, 0, 1)
		PA_HLIMB(h4, 288, 5, 6, 7, 8, 0)
		/* carry, as poly1305_avx2_carry() */
		PA_CARRY(PA_D0, PA_D1)
		PA_CARRY(PA_D3, PA_D4)
		PA_CARRY(PA_D1, PA_D2)
		"vpsrlq $26, " PA_D4 ", %%ymm14\n\t"
		"vpand %[mask], " PA_D4 ", " PA_D4 "\n\t"
		"vpaddq %%ymm14, " PA_D0 ", " PA_D0 "\n\t"
		"vpsllq $2, %%ymm14, %%ymm14\n\t"
		"vpaddq %%ymm14, " PA_D0 ", " PA_D0 "\n\t"
		PA_CARRY(PA_D2, PA_D3)
		PA_CARRY(PA_D0, PA_D1)
		PA_CARRY(PA_D3, PA_D4)
		/* h = d + G' */
		PA_LOAD(64, 96)
		PA_CUT0
		"vpaddq %%ymm12, " PA_D0 ", %[h0]\n\t"
		PA_CUT1
		"vpaddq %%ymm12, " PA_D1 ", %[h1]\n\t"
		PA_CUT2
		"vpaddq %%ymm12, " PA_D2 ", %[h2]\n\t"
		PA_CUT3
		"vpaddq %%ymm12, " PA_D3 ", %[h3]\n\t"
		PA_CUT4
		"vpaddq %%ymm12, " PA_D4 ", %[h4]\n\t"
		"sub $-128, %[p]\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [h0] "+x"(h0), [h1] "+x"(h1), [h2] "+x"(h2), [h3] "+x"(h3),
		  [h4] "+x"(h4), [p] "+r"(p), [n] "+r"(n)
		: [kb] "r"(kb), "m"(*kb),
		  [mask] "m"(poly1305_avx2_consts[0]),
		  [pad] "m"(poly1305_avx2_consts[1])
		: "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
		  "xmm12", "xmm13", "xmm14", "cc",
		  "memory");	/* reads 128 * @n bytes at @p */
	hv->l0 = h0;
	hv->l1 = h1;
	hv->l2 = h2;
	hv->l3 = h3;
	hv->l4 = h4;
}

size_t AVX2 tlsx_poly1305_blocks_avx2(struct tlsx_poly1305_state *st,
				      const u8 *p, size_t nblocks)
{
	struct poly1305_avx2_powers *pw = poly1305_simd_area(st);
	/*
	 * r^4 and r^8 broadcast into vectors once per call, on the stack
	 * and wiped at the end: the multiplies take them as memory operands
	 * (the odd step hides their address so they are not hoisted into
	 * registers, of which there are 16; the loop is assembly).
	 */
	struct poly1305_avx2_keys kb;
	const __m256i *k4;
	int i;
	struct poly1305_avx2_sums s;
	struct poly1305_avx2_vec h;
	u32 l[5];
	size_t n = nblocks / 4;

	if (!n)
		return 0;
	if (st->simd_ready != POLY1305_ENGINE_AVX2)
		poly1305_avx2_setup(st);
	for (i = 0; i < 9; i++) {
		kb.r4[i] = _mm256_set1_epi64x(pw->r4[i]);
		kb.r8[i] = _mm256_set1_epi64x(pw->r8[i]);
	}

	/*
	 * Groups of four blocks G_0 .. G_(n-1).  h holds the lanes with the
	 * last group added but not yet multiplied: from the previous call,
	 * or the scalar accumulator (in lane 0) plus the first group.
	 */
	if (st->simd_lanes) {
		h.l0 = _mm256_loadu_si256((const __m256i_u *)pw->acc[0]);
		h.l1 = _mm256_loadu_si256((const __m256i_u *)pw->acc[1]);
		h.l2 = _mm256_loadu_si256((const __m256i_u *)pw->acc[2]);
		h.l3 = _mm256_loadu_si256((const __m256i_u *)pw->acc[3]);
		h.l4 = _mm256_loadu_si256((const __m256i_u *)pw->acc[4]);
	} else {
		poly1305_to26(l, st->h);
		h.l0 = _mm256_set_epi64x(0, 0, 0, l[0]);
		h.l1 = _mm256_set_epi64x(0, 0, 0, l[1]);
		h.l2 = _mm256_set_epi64x(0, 0, 0, l[2]);
		h.l3 = _mm256_set_epi64x(0, 0, 0, l[3]);
		h.l4 = _mm256_set_epi64x(0, 0, 0, l[4]);
		memzero_explicit(l, sizeof(l));
		h = poly1305_avx2_add(h, poly1305_avx2_load(p));
		p += 64;
		n--;
	}

	/*
	 * h = h * r^4 + G, two groups at a time as
	 * h * r^8 + G * r^4 + G' with a single carry pass
	 * (poly1305_avx2_pairs()).
	 */
	if (n & 1) {
		k4 = kb.r4;
		s = poly1305_avx2_zero();
		POLY1305_AVX2_MADD(s, h, POLY1305_AVX2_VEC, k4);
		h = poly1305_avx2_carry(s);
		h = poly1305_avx2_add(h, poly1305_avx2_load(p));
		p += 64;
	}
	n /= 2;
	if (n)
		poly1305_avx2_pairs(&h, p, n, &kb);
	p += 128 * n;

	_mm256_storeu_si256((__m256i_u *)pw->acc[0], h.l0);
	_mm256_storeu_si256((__m256i_u *)pw->acc[1], h.l1);
	_mm256_storeu_si256((__m256i_u *)pw->acc[2], h.l2);
	_mm256_storeu_si256((__m256i_u *)pw->acc[3], h.l3);
	_mm256_storeu_si256((__m256i_u *)pw->acc[4], h.l4);
	st->simd_lanes = 1;
	poly1305_avx2_wipe(&kb, sizeof(kb));
	return nblocks & ~(size_t)3;
}

void AVX2 tlsx_poly1305_fold_avx2(struct tlsx_poly1305_state *st)
{
	unsigned __int128 d;
	const struct poly1305_avx2_powers *pw = poly1305_simd_area(st);
	const u64 *kl = &pw->last[0][0];
	struct poly1305_avx2_sums s;
	struct poly1305_avx2_vec h;
	u64 t[5], c;

	h.l0 = _mm256_loadu_si256((const __m256i_u *)pw->acc[0]);
	h.l1 = _mm256_loadu_si256((const __m256i_u *)pw->acc[1]);
	h.l2 = _mm256_loadu_si256((const __m256i_u *)pw->acc[2]);
	h.l3 = _mm256_loadu_si256((const __m256i_u *)pw->acc[3]);
	h.l4 = _mm256_loadu_si256((const __m256i_u *)pw->acc[4]);
	s = poly1305_avx2_zero();
	POLY1305_AVX2_MADD(s, h, POLY1305_AVX2_LANES, kl);
	h = poly1305_avx2_carry(s);

	/*
	 * Add the streams and return to radix 2^64.  Each limb sum is below
	 * 2^29, so h lands below 2^135 and one fold of bits 130 and up
	 * restores h2 <= 4 as the scalar code expects.
	 */
	t[0] = poly1305_avx2_hsum(h.l0);
	t[1] = poly1305_avx2_hsum(h.l1);
	t[2] = poly1305_avx2_hsum(h.l2);
	t[3] = poly1305_avx2_hsum(h.l3);
	t[4] = poly1305_avx2_hsum(h.l4);
	d = (unsigned __int128)t[0] + ((unsigned __int128)t[1] << 26) +
	    ((unsigned __int128)t[2] << 52);
	st->h[0] = (u64)d;
	d = (d >> 64) + ((unsigned __int128)t[3] << 14) +
	    ((unsigned __int128)t[4] << 40);
	st->h[1] = (u64)d;
	c = (u64)(d >> 64);
	st->h[2] = c & 3;
	c = (c >> 2) * 5;
	d = (unsigned __int128)st->h[0] + c;
	st->h[0] = (u64)d;
	d = (unsigned __int128)st->h[1] + (u64)(d >> 64);
	st->h[1] = (u64)d;
	st->h[2] += (u64)(d >> 64);
	st->simd_lanes = 0;
}

_Static_assert(TLSX_POLY1305_SIMD_BYTES % 32 == 0,
	       "st->simd is wiped 32 bytes at a time");

/* Zero st->simd, the powers of r and the lanes (poly1305_impl.h). */
void AVX2 tlsx_poly1305_wipe_avx2(struct tlsx_poly1305_state *st)
{
	poly1305_avx2_wipe(st->simd, sizeof(st->simd));
}
