// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_poly_avx2.c - the AVX2 engine's coefficient-wise operations
 * (FIPS 203 4.2.1): ByteEncode12/ByteDecode12, Compress_10 with
 * ByteEncode_10 and its inverse, and the reductions, sixteen
 * coefficients a register.  Each is the portable function's arithmetic
 * (mlkem_poly.c) exactly; test_mlkem compares the two on random
 * inputs.  None branches or indexes on a coefficient.  Reads and
 * writes stay inside the arguments' sizes (the last piece of a
 * polynomial goes through a small buffer where a full-width access
 * would pass the end).
 */
#include <immintrin.h>

#include "mlkem/mlkem_poly.h"

#define ATTR	__attribute__((target("avx2")))

static inline ATTR __m256i vload(const int16_t *p)
{
	return _mm256_load_si256((const __m256i *)p);
}

static inline ATTR void vstore(int16_t *p, __m256i v)
{
	_mm256_store_si256((__m256i *)p, v);
}

/* mlkem_barrett_reduce(), as in mlkem_ntt_avx2.c. */
static inline ATTR __m256i barrett(__m256i a)
{
	__m256i t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(20159));

	t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << 5));
	return _mm256_sub_epi16(a, _mm256_mullo_epi16(t,
					_mm256_set1_epi16(MLKEM_Q)));
}

ATTR void mlkem_poly_add_avx2(struct mlkem_poly *r, const struct mlkem_poly *a)
{
	int i;

	for (i = 0; i < MLKEM_N; i += 16)
		vstore(r->c + i, _mm256_add_epi16(vload(r->c + i),
						  vload(a->c + i)));
}

ATTR void mlkem_poly_sub_avx2(struct mlkem_poly *r, const struct mlkem_poly *a)
{
	int i;

	for (i = 0; i < MLKEM_N; i += 16)
		vstore(r->c + i, _mm256_sub_epi16(vload(r->c + i),
						  vload(a->c + i)));
}

/* Barrett, then a (-q, q) value to [0, q): + (q if negative). */
ATTR void mlkem_poly_canon_avx2(struct mlkem_poly *r)
{
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	int i;

	for (i = 0; i < MLKEM_N; i += 16) {
		__m256i a = barrett(vload(r->c + i));

		a = _mm256_add_epi16(a, _mm256_and_si256(
					_mm256_srai_epi16(a, 15), q));
		vstore(r->c + i, a);
	}
}

/* fqmul by R^2 mod q, the Montgomery product of mlkem_ntt_avx2.c. */
ATTR void mlkem_poly_tomont_avx2(struct mlkem_poly *r)
{
	const __m256i z = _mm256_set1_epi16(MLKEM_MONT2);
	const __m256i zq = _mm256_set1_epi16((int16_t)(MLKEM_MONT2 *
						       MLKEM_QINV));
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	int i;

	for (i = 0; i < MLKEM_N; i += 16) {
		__m256i a = vload(r->c + i);
		__m256i t = _mm256_mullo_epi16(a, zq);

		vstore(r->c + i, _mm256_sub_epi16(_mm256_mulhi_epi16(a, z),
						  _mm256_mulhi_epi16(t, q)));
	}
}

/*
 * Sixteen 12-bit values from 24 bytes: lane 0 takes bytes 0..11, lane
 * 1 bytes 12..23; each value's two bytes into a word (b0 b1 for an
 * even one, b1 b2 for an odd one), & 0xfff or >> 4.  @p has 32 bytes.
 */
static inline ATTR __m256i unpack12(const u8 *p)
{
	const __m256i pairs = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7,
					       7, 8, 9, 10, 10, 11, 4, 5, 5, 6,
					       7, 8, 8, 9, 10, 11, 11, 12, 13,
					       14, 14, 15);
	__m256i v = _mm256_loadu_si256((const __m256i *)p);

	v = _mm256_permute4x64_epi64(v, 0x94);
	v = _mm256_shuffle_epi8(v, pairs);
	v = _mm256_blend_epi16(v, _mm256_srli_epi16(v, 4), 0xaa);
	return _mm256_and_si256(v, _mm256_set1_epi16(0xfff));
}

ATTR void mlkem_poly_decode12_avx2(struct mlkem_poly *r,
				   const u8 in[MLKEM_POLY_BYTES])
{
	u8 tail[32] = { 0 };
	int i;

	for (i = 0; i < 15; i++)
		vstore(r->c + 16 * i, unpack12(in + 24 * i));
	memcpy(tail, in + 24 * 15, 24);
	vstore(r->c + 240, unpack12(tail));
}

/*
 * Sixteen values in [0, q) to 24 bytes: t0 + 4096 t1 per pair
 * (vpmaddwd), three bytes of each dword (pshufb), the two lanes' twelve
 * bytes together (vpermd).
 */
ATTR void mlkem_poly_encode12_avx2(u8 out[MLKEM_POLY_BYTES],
				   const struct mlkem_poly *a)
{
	const __m256i pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12,
					      13, 14, -1, -1, -1, -1, 0, 1, 2,
					      4, 5, 6, 8, 9, 10, 12, 13, 14,
					      -1, -1, -1, -1);
	const __m256i join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
	const __m256i mul = _mm256_set1_epi32(0x10000001);
	int i;

	for (i = 0; i < 16; i++) {
		__m256i v = _mm256_madd_epi16(vload(a->c + 16 * i), mul);

		v = _mm256_shuffle_epi8(v, pack);
		v = _mm256_permutevar8x32_epi32(v, join);
		_mm_storeu_si128((__m128i *)(out + 24 * i),
				 _mm256_castsi256_si128(v));
		_mm_storel_epi64((__m128i *)(out + 24 * i + 16),
				 _mm256_extracti128_si256(v, 1));
	}
}

/*
 * Compress_10 of eight values in 32-bit lanes: floor((2^10 x + q/2)
 * 10321340 / 2^35), mlkem_compress()'s formula, on 64-bit products.
 */
static inline ATTR __m256i compress10_32(__m256i x)
{
	const __m256i mul = _mm256_set1_epi64x(10321340);
	__m256i n = _mm256_add_epi32(_mm256_slli_epi32(x, 10),
				     _mm256_set1_epi32(MLKEM_Q / 2));
	__m256i even = _mm256_srli_epi64(_mm256_mul_epu32(n, mul), 35);
	__m256i odd = _mm256_srli_epi64(_mm256_mul_epu32(
					_mm256_srli_epi64(n, 32), mul), 35);

	return _mm256_and_si256(_mm256_or_si256(even,
						_mm256_slli_epi64(odd, 32)),
				_mm256_set1_epi32(0x3ff));
}

/*
 * ByteEncode_10(Compress_10(a)): sixteen values to twenty bytes: pairs
 * to 20-bit dwords (vpmaddwd by 1, 1024), dword pairs to 40-bit
 * qwords, five bytes of each (pshufb), ten bytes a lane.
 */
ATTR void mlkem_poly_compress_du_avx2(u8 out[MLKEM_POLY_DU_BYTES],
				      const struct mlkem_poly *a)
{
	const __m256i pack = _mm256_setr_epi8(0, 1, 2, 3, 4, 8, 9, 10, 11, 12,
					      -1, -1, -1, -1, -1, -1, 0, 1, 2,
					      3, 4, 8, 9, 10, 11, 12, -1, -1,
					      -1, -1, -1, -1);
	const __m256i hi = _mm256_set1_epi64x((long long)~0xfffffULL);
	u8 tail[32];
	int i;

	for (i = 0; i < 16; i++) {
		__m256i x = vload(a->c + 16 * i), lo, h, v;
		u8 *o = i < 15 ? out + 20 * i : tail;

		lo = compress10_32(_mm256_cvtepu16_epi32(
					_mm256_castsi256_si128(x)));
		h = compress10_32(_mm256_cvtepu16_epi32(
					_mm256_extracti128_si256(x, 1)));
		/* back to 16 values in order, then v0 | v1 << 10 */
		v = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, h), 0xd8);
		v = _mm256_madd_epi16(v, _mm256_set1_epi32(0x04000001));
		v = _mm256_or_si256(_mm256_and_si256(v,
					_mm256_set1_epi64x(0xfffff)),
				    _mm256_and_si256(_mm256_srli_epi64(v, 12),
						     hi));
		v = _mm256_shuffle_epi8(v, pack);
		_mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(v));
		_mm_storeu_si128((__m128i *)(o + 10),
				 _mm256_extracti128_si256(v, 1));
	}
	memcpy(out + 20 * 15, tail, 20);
}

/*
 * Decompress_10(ByteDecode_10): value j of a lane at bit 10 j, its two
 * bytes into a word (pshufb), shifted right by 10 j mod 8 as a left
 * shift by 6 - that (vpmullw by a power of 2) and one right shift by 6;
 * then (y q + 2^9) >> 10 as vpmulhrsw(32 y, q).
 */
ATTR void mlkem_poly_decompress_du_avx2(struct mlkem_poly *r,
					const u8 in[MLKEM_POLY_DU_BYTES])
{
	const __m256i pairs = _mm256_setr_epi8(0, 1, 1, 2, 2, 3, 3, 4, 5, 6,
					       6, 7, 7, 8, 8, 9, 0, 1, 1, 2, 2,
					       3, 3, 4, 5, 6, 6, 7, 7, 8, 8, 9);
	const __m256i sh = _mm256_setr_epi16(64, 16, 4, 1, 64, 16, 4, 1, 64,
					     16, 4, 1, 64, 16, 4, 1);
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	u8 tail[32] = { 0 };
	int i;

	memcpy(tail, in + 20 * 15, 20);
	for (i = 0; i < 16; i++) {
		const u8 *p = i < 15 ? in + 20 * i : tail;
		__m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(
				_mm_loadu_si128((const __m128i *)p)),
				_mm_loadu_si128((const __m128i *)(p + 10)), 1);

		v = _mm256_shuffle_epi8(v, pairs);
		v = _mm256_srli_epi16(_mm256_mullo_epi16(v, sh), 6);
		v = _mm256_mulhrs_epi16(_mm256_slli_epi16(v, 5), q);
		vstore(r->c + 16 * i, v);
	}
}
