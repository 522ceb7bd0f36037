// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_ntt_avx2.c - the AVX2 NTT engine, written by hand: NTT, NTT^-1
 * and the basecase products on 16 int16 coefficients a ymm register,
 * Montgomery products by vpmullw/vpmulhw, Barrett reduction by
 * vpmulhw/vpmulhrsw.  The coefficient order is the standard's
 * throughout (the portable engine's): layers with len >= 16 pair whole
 * registers; len 8, 4 and 2 pair lanes of two registers, so those
 * layers first split the two registers into the butterfly's two
 * operands (split()) and put them back after it (merge()), and the
 * twiddles of those layers are stored in the split order (built once
 * at load, mlkem_avx2_init()).  Every step is the portable engine's
 * arithmetic exactly (same reductions, same places), so the two agree
 * bit for bit and test_mlkem's differential tests compare outputs
 * with ==.  Chosen at run time by mlkem_impl.c.
 */
#include <immintrin.h>

#include "mlkem/mlkem_poly.h"

#define ATTR	__attribute__((target("avx2")))
/* The layer loops unrolled: v[] then lives in registers, not memory. */
#define PRAGMA(x)	_Pragma(#x)
#define UNROLL(n)	PRAGMA(GCC unroll n)

/* NTT^-1's final factor, R^2 / 128 mod q (mlkem_ntt.c). */
#define MLKEM_INVNTT_F	1441
/* ((1 << 26) + q / 2) / q: Barrett's multiplier (mlkem_poly.h). */
#define MLKEM_BARRETT_V	20159

/*
 * Twiddles of the in-register layers in split order: [layer][window]
 * for the 8 windows of 32 coefficients; layer 0, 1, 2 = len 8, 4, 2.
 * fwd for NTT (zeta index 128 / len + block), inv for NTT^-1 (256 /
 * len - 1 - block); *_qinv the same times q^-1 mod 2^16.
 */
struct mlkem_avx2_tw {
	int16_t fwd[3][8][16], fwd_qinv[3][8][16];
	int16_t inv[3][8][16], inv_qinv[3][8][16];
	/* basecase: +-gamma at the odd coefficient of each pair */
	int16_t gamma[MLKEM_N];
} __aligned(32);

static struct mlkem_avx2_tw tw;

static inline ATTR __m256i vload(const int16_t *p)
{
	return _mm256_load_si256((const __m256i *)p);
}

static inline ATTR void vstore(int16_t *p, __m256i v)
{
	_mm256_store_si256((__m256i *)p, v);
}

/* mlkem_fqmul() on 16 lanes: a * z * R^-1, zq = z * q^-1 mod 2^16. */
static inline ATTR __m256i fqmul(__m256i a, __m256i z, __m256i zq)
{
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	__m256i hi = _mm256_mulhi_epi16(a, z);
	__m256i t = _mm256_mullo_epi16(a, zq);

	/* a z - t q is 0 mod 2^16: its high half is hi(a z) - hi(t q). */
	return _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, q));
}

/*
 * mlkem_barrett_reduce() on 16 lanes: t = (v a + 2^25) >> 26 is
 * ((v a) >> 16 + 2^9) >> 10 (floors nest), the second step vpmulhrsw
 * by 2^5: (x 2^5 + 2^14) >> 15.
 */
static inline ATTR __m256i barrett(__m256i a)
{
	const __m256i v = _mm256_set1_epi16(MLKEM_BARRETT_V);
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	__m256i t = _mm256_mulhi_epi16(a, v);

	t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << 5));
	return _mm256_sub_epi16(a, _mm256_mullo_epi16(t, q));
}

/*
 * The two registers a = r[0..15], b = r[16..31] of a 32-coefficient
 * window into x (the butterflies' lower elements) and y (their
 * partners, len further on), for len 8, 4, 2 (layer 0, 1, 2).
 */
static inline ATTR void split(int layer, __m256i a, __m256i b, __m256i *x,
			      __m256i *y)
{
	switch (layer) {
	case 0:	/* halves of each register */
		*x = _mm256_permute2x128_si256(a, b, 0x20);
		*y = _mm256_permute2x128_si256(a, b, 0x31);
		break;
	case 1:	/* 64-bit quarters of each 128-bit lane */
		*x = _mm256_unpacklo_epi64(a, b);
		*y = _mm256_unpackhi_epi64(a, b);
		break;
	default: /* 32-bit pairs: even pairs to x, odd to y */
		a = _mm256_shuffle_epi32(a, 0xd8);
		b = _mm256_shuffle_epi32(b, 0xd8);
		*x = _mm256_unpacklo_epi64(a, b);
		*y = _mm256_unpackhi_epi64(a, b);
		break;
	}
}

/* split()'s inverse. */
static inline ATTR void merge(int layer, __m256i x, __m256i y, __m256i *a,
			      __m256i *b)
{
	switch (layer) {
	case 0:
		*a = _mm256_permute2x128_si256(x, y, 0x20);
		*b = _mm256_permute2x128_si256(x, y, 0x31);
		break;
	case 1:
		*a = _mm256_unpacklo_epi64(x, y);
		*b = _mm256_unpackhi_epi64(x, y);
		break;
	default:
		*a = _mm256_shuffle_epi32(_mm256_unpacklo_epi64(x, y), 0xd8);
		*b = _mm256_shuffle_epi32(_mm256_unpackhi_epi64(x, y), 0xd8);
		break;
	}
}

/* Cooley-Tukey: (x, y) = (x + z y, x - z y), as algorithm 9. */
static inline ATTR void ct_bfly(__m256i *x, __m256i *y, __m256i z, __m256i zq)
{
	__m256i t = fqmul(*y, z, zq);

	*y = _mm256_sub_epi16(*x, t);
	*x = _mm256_add_epi16(*x, t);
}

/* Gentleman-Sande: (x, y) = (barrett(x + y), z (y - x)), algorithm 10. */
static inline ATTR void gs_bfly(__m256i *x, __m256i *y, __m256i z, __m256i zq)
{
	__m256i t = *x;

	*x = barrett(_mm256_add_epi16(t, *y));
	*y = fqmul(_mm256_sub_epi16(*y, t), z, zq);
}

static inline ATTR __m256i bcast(int16_t z)
{
	return _mm256_set1_epi16(z);
}

static inline ATTR __m256i bcast_qinv(int16_t z)
{
	return _mm256_set1_epi16((int16_t)(z * MLKEM_QINV));
}

/* Algorithm 9; same contract and arithmetic as ntt_generic(). */
static ATTR void ntt_avx2(int16_t r[MLKEM_N])
{
	__m256i v[16], x, y;
	int len, i, j, w, l, k;

	for (i = 0; i < 16; i++)
		v[i] = vload(r + 16 * i);
	/* len 128 .. 16: registers i and i + len / 16, zeta per block */
	UNROLL(4)
	for (len = 128, k = 1; len >= 16; len >>= 1) {
		int d = len / 16;

		UNROLL(8)
		for (i = 0; i < 16; i += 2 * d, k++) {
			__m256i z = bcast(mlkem_zetas[k]);
			__m256i zq = bcast_qinv(mlkem_zetas[k]);

			UNROLL(8)
			for (j = i; j < i + d; j++)
				ct_bfly(&v[j], &v[j + d], z, zq);
		}
	}
	/* len 8, 4, 2 inside each window of two registers */
	UNROLL(8)
	for (w = 0; w < 8; w++) {
		__m256i a = v[2 * w], b = v[2 * w + 1];

		UNROLL(3)
		for (l = 0; l < 3; l++) {
			split(l, a, b, &x, &y);
			ct_bfly(&x, &y, vload(tw.fwd[l][w]),
				vload(tw.fwd_qinv[l][w]));
			merge(l, x, y, &a, &b);
		}
		vstore(r + 32 * w, barrett(a));
		vstore(r + 32 * w + 16, barrett(b));
	}
}

/* Algorithm 10; same contract and arithmetic as invntt_generic(). */
static ATTR void invntt_avx2(int16_t r[MLKEM_N])
{
	const __m256i f = bcast(MLKEM_INVNTT_F), fq = bcast_qinv(MLKEM_INVNTT_F);
	__m256i v[16], x, y;
	int len, i, j, w, l, k;

	UNROLL(8)
	for (w = 0; w < 8; w++) {
		__m256i a = vload(r + 32 * w), b = vload(r + 32 * w + 16);

		UNROLL(3)
		for (l = 2; l >= 0; l--) {
			split(l, a, b, &x, &y);
			gs_bfly(&x, &y, vload(tw.inv[l][w]),
				vload(tw.inv_qinv[l][w]));
			merge(l, x, y, &a, &b);
		}
		v[2 * w] = a;
		v[2 * w + 1] = b;
	}
	/* len 16 .. 128: zeta index 256 / len - 1 - block */
	UNROLL(4)
	for (len = 16; len <= 128; len <<= 1) {
		int d = len / 16;

		k = 256 / len - 1;
		UNROLL(8)
		for (i = 0; i < 16; i += 2 * d, k--) {
			__m256i z = bcast(mlkem_zetas[k]);
			__m256i zq = bcast_qinv(mlkem_zetas[k]);

			UNROLL(8)
			for (j = i; j < i + d; j++)
				gs_bfly(&v[j], &v[j + d], z, zq);
		}
	}
	for (i = 0; i < 16; i++)
		vstore(r + 16 * i, fqmul(v[i], f, fq));
}

/*
 * mlkem_mont_reduce() on eight 32-bit lanes: t = (int16)(a q^-1), then
 * (a - t q) >> 16, exact in 32 bits for |a| < q 2^15.
 */
static inline ATTR __m256i mont_reduce32(__m256i a)
{
	__m256i t = _mm256_mullo_epi32(a, _mm256_set1_epi32(MLKEM_QINV));

	t = _mm256_srai_epi32(_mm256_slli_epi32(t, 16), 16);
	t = _mm256_mullo_epi32(t, _mm256_set1_epi32(MLKEM_Q));
	return _mm256_srai_epi32(_mm256_sub_epi32(a, t), 16);
}

/*
 * Algorithm 11, as basemul_acc_generic(): per pair (x0, x1), (y0, y1)
 * r0 = sum x0 y0 + fqmul(x1, y1) g and r1 = sum x0 y1 + x1 y0 in 32
 * bits (vpmaddwd on the pairs, which are adjacent int16s), then one
 * Montgomery and one Barrett reduction.
 */
static ATTR void basemul_acc_avx2(struct mlkem_poly *r,
				  const struct mlkem_poly *a,
				  const struct mlkem_poly *b)
{
	const __m256i qinv = _mm256_set1_epi16(MLKEM_QINV);
	const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11,
					      8, 9, 14, 15, 12, 13, 2, 3, 0, 1,
					      6, 7, 4, 5, 10, 11, 8, 9, 14, 15,
					      12, 13);
	int i, k;

	for (i = 0; i < MLKEM_N; i += 16) {
		__m256i g = vload(tw.gamma + i);
		__m256i r0 = _mm256_setzero_si256(), r1 = r0, out;

		for (k = 0; k < MLKEM_K; k++) {
			__m256i x = vload(a[k].c + i), y = vload(b[k].c + i);
			__m256i p = fqmul(x, y, _mm256_mullo_epi16(y, qinv));

			/* (x0, fqmul(x1, y1)) . (y0, g) */
			r0 = _mm256_add_epi32(r0, _mm256_madd_epi16(
				_mm256_blend_epi16(x, p, 0xaa),
				_mm256_blend_epi16(y, g, 0xaa)));
			/* (x0, x1) . (y1, y0) */
			r1 = _mm256_add_epi32(r1, _mm256_madd_epi16(x,
				_mm256_shuffle_epi8(y, swap)));
		}
		r0 = mont_reduce32(r0);
		r1 = mont_reduce32(r1);
		out = _mm256_blend_epi16(r0, _mm256_slli_epi32(r1, 16), 0xaa);
		vstore(r->c + i, barrett(out));
	}
}

/*
 * The in-register layers' twiddles: the coefficient indices of a
 * window go through split() like the data, and each lane of x takes
 * the zeta of its coefficient's block.
 */
static ATTR void init_twiddles(void)
{
	int16_t idx[32] __aligned(32), xi[16] __aligned(32);
	int w, l, p;

	for (w = 0; w < 8; w++)
		for (l = 0; l < 3; l++) {
			int len = 8 >> l;
			__m256i x, y;

			for (p = 0; p < 32; p++)
				idx[p] = (int16_t)(32 * w + p);
			split(l, vload(idx), vload(idx + 16), &x, &y);
			vstore(xi, x);
			for (p = 0; p < 16; p++) {
				int blk = xi[p] / (2 * len);
				int16_t zf = mlkem_zetas[128 / len + blk];
				int16_t zi = mlkem_zetas[256 / len - 1 - blk];

				tw.fwd[l][w][p] = zf;
				tw.fwd_qinv[l][w][p] = (int16_t)(zf * MLKEM_QINV);
				tw.inv[l][w][p] = zi;
				tw.inv_qinv[l][w][p] = (int16_t)(zi * MLKEM_QINV);
			}
		}
	for (p = 0; p < MLKEM_N / 4; p++) {
		tw.gamma[4 * p + 1] = mlkem_zetas[64 + p];
		tw.gamma[4 * p + 3] = (int16_t)-mlkem_zetas[64 + p];
	}
}

/*
 * The tables are built once, before main(), on a CPU with AVX2 only.
 * The compiler's own CPU check, not tlsx_cpu_features(): that one reads
 * TLSX_CPU_MASK once, at its first call, which must stay the program's.
 */
__attribute__((constructor)) static void mlkem_ntt_avx2_init(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx2"))
		init_twiddles();
}

const struct mlkem_engine mlkem_engine_avx2 = {
	.name = "avx2",
	.x4 = true,
	.ntt = ntt_avx2,
	.invntt = invntt_avx2,
	.basemul_acc = basemul_acc_avx2,
	.run_jobs = mlkem_run_jobs_x4,
	.rej_take = mlkem_rej_take_avx2,
	.cbd2 = mlkem_cbd2_avx2,
	.add = mlkem_poly_add_avx2,
	.sub = mlkem_poly_sub_avx2,
	.canon = mlkem_poly_canon_avx2,
	.tomont = mlkem_poly_tomont_avx2,
	.encode12 = mlkem_poly_encode12_avx2,
	.decode12 = mlkem_poly_decode12_avx2,
	.compress_du = mlkem_poly_compress_du_avx2,
	.decompress_du = mlkem_poly_decompress_du_avx2,
	.compress_dv = mlkem_poly_compress_dv_avx2,
	.decompress_dv = mlkem_poly_decompress_dv_avx2,
	.from_msg = mlkem_poly_from_msg_avx2,
	.to_msg = mlkem_poly_to_msg_avx2,
};
