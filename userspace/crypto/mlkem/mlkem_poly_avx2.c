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
 * Compress_d of eight values in 32-bit lanes: floor((2^d x + q/2)
 * 10321340 / 2^35), mlkem_compress()'s formula, on 64-bit products.
 */
static inline ATTR __m256i compress_32(__m256i x, int d)
{
	const __m256i mul = _mm256_set1_epi64x(10321340);
	__m256i n = _mm256_add_epi32(_mm256_slli_epi32(x, d),
				     _mm256_set1_epi32(MLKEM_Q / 2));
	__m256i even = _mm256_srli_epi64(_mm256_mul_epu32(n, mul), 35);
	__m256i odd = _mm256_srli_epi64(_mm256_mul_epu32(
					_mm256_srli_epi64(n, 32), mul), 35);

	return _mm256_and_si256(_mm256_or_si256(even,
						_mm256_slli_epi64(odd, 32)),
				_mm256_set1_epi32((1 << d) - 1));
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

		lo = compress_32(_mm256_cvtepu16_epi32(
					_mm256_castsi256_si128(x)), MLKEM_DU);
		h = compress_32(_mm256_cvtepu16_epi32(
					_mm256_extracti128_si256(x, 1)), MLKEM_DU);
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

/* Compress_4 of sixteen values, in order, as 16-bit lanes. */
static inline ATTR __m256i compress4_16(__m256i x)
{
	__m256i lo = compress_32(_mm256_cvtepu16_epi32(
					_mm256_castsi256_si128(x)), MLKEM_DV);
	__m256i hi = compress_32(_mm256_cvtepu16_epi32(
					_mm256_extracti128_si256(x, 1)), MLKEM_DV);

	return _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xd8);
}

/*
 * ByteEncode_4(Compress_4(a)), 64 coefficients to 32 bytes a step:
 * each pair to a byte (vpmaddwd by 1, 16), dwords to bytes by two
 * packs, whose lane interleaving one vpermd undoes.
 */
ATTR void mlkem_poly_compress_dv_avx2(u8 out[MLKEM_POLY_DV_BYTES],
				      const struct mlkem_poly *a)
{
	const __m256i mul = _mm256_set1_epi32(0x00100001);
	const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
	__m256i v[4], p, q;
	int i, k;

	for (i = 0; i < MLKEM_N; i += 64) {
		for (k = 0; k < 4; k++)
			v[k] = _mm256_madd_epi16(compress4_16(
					vload(a->c + i + 16 * k)), mul);
		p = _mm256_packus_epi32(v[0], v[1]);
		q = _mm256_packus_epi32(v[2], v[3]);
		p = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(p, q),
						order);
		_mm256_storeu_si256((__m256i *)(out + i / 2), p);
	}
}

/* Decompress_4(ByteDecode_4): nibbles in order, (y q + 8) >> 4 as
 * vpmulhrsw(2^11 y, q).
 */
ATTR void mlkem_poly_decompress_dv_avx2(struct mlkem_poly *r,
					const u8 in[MLKEM_POLY_DV_BYTES])
{
	const __m128i m0f = _mm_set1_epi8(0x0f);
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	int i;

	for (i = 0; i < MLKEM_POLY_DV_BYTES; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(in + i));
		__m128i lo = _mm_and_si128(x, m0f);
		__m128i hi = _mm_and_si128(_mm_srli_epi16(x, 4), m0f);
		__m256i a = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(lo, hi));
		__m256i b = _mm256_cvtepu8_epi16(_mm_unpackhi_epi8(lo, hi));

		vstore(r->c + 2 * i, _mm256_mulhrs_epi16(
				_mm256_slli_epi16(a, 11), q));
		vstore(r->c + 2 * i + 16, _mm256_mulhrs_epi16(
				_mm256_slli_epi16(b, 11), q));
	}
}

/*
 * Decompress_1(ByteDecode_1(m)): coefficient 16 i + k is bit k of the
 * i-th little-endian 16-bit word of m; the mask is a compare, not a
 * branch (m is secret).
 */
ATTR void mlkem_poly_from_msg_avx2(struct mlkem_poly *r,
				   const u8 m[MLKEM_SYM_BYTES])
{
	const __m256i bits = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128,
					       256, 512, 1024, 2048, 4096,
					       8192, 16384, -32768);
	const __m256i half = _mm256_set1_epi16((MLKEM_Q + 1) / 2);
	int i;

	for (i = 0; i < MLKEM_N / 16; i++) {
		__m256i w = _mm256_set1_epi16((int16_t)(m[2 * i] |
							m[2 * i + 1] << 8));

		w = _mm256_cmpeq_epi16(_mm256_and_si256(w, bits), bits);
		vstore(r->c + 16 * i, _mm256_and_si256(w, half));
	}
}

/*
 * ByteEncode_1(Compress_1(a)) for a in [0, q): round(2x / q) mod 2 is
 * 1 exactly for 833 <= x <= 2496 (test_mlkem checks every x against
 * mlkem_compress()); two compares, the sign bits gathered by
 * vpmovmskb.
 */
ATTR void mlkem_poly_to_msg_avx2(u8 m[MLKEM_SYM_BYTES],
				 const struct mlkem_poly *a)
{
	const __m256i lo = _mm256_set1_epi16(832), hi = _mm256_set1_epi16(2497);
	int i;

	for (i = 0; i < MLKEM_N; i += 32) {
		__m256i x = vload(a->c + i), y = vload(a->c + i + 16);
		__m256i bx = _mm256_and_si256(_mm256_cmpgt_epi16(x, lo),
					      _mm256_cmpgt_epi16(hi, x));
		__m256i by = _mm256_and_si256(_mm256_cmpgt_epi16(y, lo),
					      _mm256_cmpgt_epi16(hi, y));
		__m256i b = _mm256_permute4x64_epi64(
				_mm256_packs_epi16(bx, by), 0xd8);

		put_unaligned_le32((u32)_mm256_movemask_epi8(b), m + i / 8);
	}
}
