// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_sample_avx2.c - the AVX2 engine's samplers (FIPS 203 4.2.2):
 * SampleNTT's rejection step sixteen candidates at a time, and
 * SamplePolyCBD_2 64 coefficients at a time.  Both give the portable
 * engine's output exactly (mlkem_poly.c; test_mlkem compares them).
 */
#include <immintrin.h>

#include "mlkem/mlkem_poly.h"

#define ATTR	__attribute__((target("avx2")))

/*
 * For each 8-bit acceptance mask, the pshufb that packs the accepted
 * 16-bit candidates to the front, in order, and how many there are:
 * built once before main() (the shuffle table of the published AVX2
 * samplers, computed here rather than written out).
 */
static u8 rej_shuffle[256][16] __aligned(16);
static u8 rej_count[256];

__attribute__((constructor)) static void mlkem_rej_table_init(void)
{
	int m, i, n;

	for (m = 0; m < 256; m++) {
		n = 0;
		for (i = 0; i < 8; i++)
			if (m & (1 << i)) {
				rej_shuffle[m][2 * n] = (u8)(2 * i);
				rej_shuffle[m][2 * n + 1] = (u8)(2 * i + 1);
				n++;
			}
		for (i = 2 * n; i < 16; i++)
			rej_shuffle[m][i] = 0x80;
		rej_count[m] = (u8)n;
	}
}

/*
 * Algorithm 7's inner loop on 24 bytes (eight triples, sixteen 12-bit
 * candidates): each 128-bit lane takes twelve bytes, a pshufb puts the
 * byte pair of each candidate in a 16-bit word (b0 b1 for d1, b1 b2
 * for d2), d1 = word & 0xfff, d2 = word >> 4; the compare against q
 * gives the masks, the table packs each lane's accepted candidates.
 * The 32-byte load reads 8 bytes past the 24 it uses: the caller's
 * buffer has MLKEM_REJ_SLACK bytes after len.  While at least 16 slots
 * remain the two 8-lane stores go straight into r (what they write past
 * the count is overwritten or never counted); the last few go through
 * a small buffer, only as many as r has room for.  A tail shorter than
 * 24 bytes takes the scalar loop.  The matrix seed is public.
 */
static inline ATTR int rej24(int16_t *r, int n, __m256i v)
{
	const __m256i pairs = _mm256_setr_epi8(0, 1, 1, 2, 3, 4, 4, 5, 6, 7,
					       7, 8, 9, 10, 10, 11, 4, 5, 5, 6,
					       7, 8, 8, 9, 10, 11, 11, 12, 13,
					       14, 14, 15);
	const __m256i q = _mm256_set1_epi16(MLKEM_Q);
	int16_t tmp[16] __aligned(16);
	unsigned int m, ml, mh, cl, k;
	__m128i lo, hi;
	__m256i ok;

	/* lane 0: bytes 0..15, lane 1: bytes 8..23 (12..23 used) */
	v = _mm256_permute4x64_epi64(v, 0x94);
	v = _mm256_shuffle_epi8(v, pairs);
	v = _mm256_blend_epi16(v, _mm256_srli_epi16(v, 4), 0xaa);
	v = _mm256_and_si256(v, _mm256_set1_epi16(0xfff));
	ok = _mm256_cmpgt_epi16(q, v);
	m = (unsigned int)_mm256_movemask_epi8(
		_mm256_packs_epi16(ok, _mm256_setzero_si256()));
	ml = m & 0xff;
	mh = (m >> 16) & 0xff;
	lo = _mm_shuffle_epi8(_mm256_castsi256_si128(v),
		_mm_load_si128((const __m128i *)rej_shuffle[ml]));
	hi = _mm_shuffle_epi8(_mm256_extracti128_si256(v, 1),
		_mm_load_si128((const __m128i *)rej_shuffle[mh]));
	cl = rej_count[ml];
	if (n <= MLKEM_N - 16) {
		_mm_storeu_si128((__m128i *)(r + n), lo);
		_mm_storeu_si128((__m128i *)(r + n + cl), hi);
		return n + cl + rej_count[mh];
	}
	_mm_store_si128((__m128i *)tmp, lo);
	_mm_storeu_si128((__m128i *)(tmp + cl), hi);
	k = cl + rej_count[mh];
	if (k > (unsigned int)(MLKEM_N - n))
		k = MLKEM_N - n;
	memcpy(r + n, tmp, k * sizeof(*r));
	return n + k;
}

ATTR int mlkem_rej_take_avx2(int16_t *r, int n, const u8 *buf, size_t len)
{
	size_t pos;

	for (pos = 0; n < MLKEM_N && pos + 24 <= len; pos += 24)
		n = rej24(r, n, _mm256_loadu_si256((const __m256i *)(buf + pos)));
	return mlkem_rej_take_generic(r, n, buf + pos, len - pos);
}

/* Words k..k+3 of a lane from its words a[0..3] || b[0..3], k = 1..3. */
#define WINDOW(a, b, k)							\
	((k) == 3 ? _mm256_permute4x64_epi64(				\
			_mm256_blend_epi32((b), (a), 0xc0), 0x93) :	\
	 (k) == 2 ? _mm256_permute4x64_epi64(				\
			_mm256_blend_epi32((b), (a), 0xf0), 0x4e) :	\
		    _mm256_permute4x64_epi64(				\
			_mm256_blend_epi32((b), (a), 0xfc), 0x39))

/*
 * The same on the SHAKE128 block (21 words) in each lane of @mask of a
 * four-way state (mlkem_jobs_x4.c), r[l] and n[l] per lane: the state's
 * rows are read as whole vectors (as the permutation stored them) and
 * transposed four words at a time, and the 24-byte pieces (words 3c ..
 * 3c + 2; the fourth word stands for the slack) are cut from those in
 * registers, not copied to memory and loaded back.
 */
ATTR void mlkem_rej_take_lanes_avx2(int16_t *const r[4], int n[4],
				    const u64 s[25][4], unsigned int mask)
{
	__m256i t[4][6];
	int g, l;

	/* t[l][g] = words 4g .. 4g + 3 of lane l (rows 21..23 unused) */
	for (g = 0; g < 6; g++) {
		__m256i r0 = _mm256_load_si256((const __m256i *)s[4 * g]);
		__m256i r1 = _mm256_load_si256((const __m256i *)s[4 * g + 1]);
		__m256i r2 = _mm256_load_si256((const __m256i *)s[4 * g + 2]);
		__m256i r3 = _mm256_load_si256((const __m256i *)s[4 * g + 3]);
		__m256i a = _mm256_unpacklo_epi64(r0, r1);
		__m256i b = _mm256_unpackhi_epi64(r0, r1);
		__m256i c = _mm256_unpacklo_epi64(r2, r3);
		__m256i d = _mm256_unpackhi_epi64(r2, r3);

		t[0][g] = _mm256_permute2x128_si256(a, c, 0x20);
		t[1][g] = _mm256_permute2x128_si256(b, d, 0x20);
		t[2][g] = _mm256_permute2x128_si256(a, c, 0x31);
		t[3][g] = _mm256_permute2x128_si256(b, d, 0x31);
	}
	for (l = 0; l < 4; l++) {
		__m256i *w = t[l];
		int16_t *p = r[l];
		int k = n[l];

		if (!(mask & (1u << l)))
			continue;
		/* words 0, 3, 6, 9, 12, 15, 18 on: the pattern of 4 groups */
		k = k < MLKEM_N ? rej24(p, k, w[0]) : k;
		k = k < MLKEM_N ? rej24(p, k, WINDOW(w[0], w[1], 3)) : k;
		k = k < MLKEM_N ? rej24(p, k, WINDOW(w[1], w[2], 2)) : k;
		k = k < MLKEM_N ? rej24(p, k, WINDOW(w[2], w[3], 1)) : k;
		k = k < MLKEM_N ? rej24(p, k, w[3]) : k;
		k = k < MLKEM_N ? rej24(p, k, WINDOW(w[3], w[4], 3)) : k;
		k = k < MLKEM_N ? rej24(p, k, WINDOW(w[4], w[5], 2)) : k;
		n[l] = k;
	}
}

/*
 * Algorithm 8, eta = 2, on 32 bytes at a time: d = b0 + b1 for every
 * bit pair; in each nibble (x, y) of d, x - y + 2 lies in [0, 4], so
 * (d & 0x33) + 0x22 - ((d >> 2) & 0x33) takes both nibbles of a byte
 * with no borrow between them; the low nibble is coefficient 2i, the
 * high 2i + 1.  No branch or index on the (secret) bytes.
 */
ATTR void mlkem_cbd2_avx2(struct mlkem_poly *r, const u8 buf[64 * MLKEM_ETA1])
{
	const __m256i m55 = _mm256_set1_epi8(0x55), m33 = _mm256_set1_epi8(0x33);
	const __m256i m0f = _mm256_set1_epi8(0x0f), two = _mm256_set1_epi16(2);
	int i;

	for (i = 0; i < 4; i++) {
		__m256i t = _mm256_loadu_si256((const __m256i *)(buf + 32 * i));
		__m256i d = _mm256_add_epi8(_mm256_and_si256(t, m55),
			_mm256_and_si256(_mm256_srli_epi16(t, 1), m55));
		__m256i e = _mm256_sub_epi8(
			_mm256_add_epi8(_mm256_and_si256(d, m33),
					_mm256_set1_epi8(0x22)),
			_mm256_and_si256(_mm256_srli_epi16(d, 2), m33));
		__m256i lo = _mm256_and_si256(e, m0f);
		__m256i hi = _mm256_and_si256(_mm256_srli_epi16(e, 4), m0f);
		/* bytes 0..7 | 16..23, and 8..15 | 24..31, interleaved */
		__m256i a = _mm256_unpacklo_epi8(lo, hi);
		__m256i b = _mm256_unpackhi_epi8(lo, hi);
		int16_t *o = r->c + 64 * i;

		_mm256_store_si256((__m256i *)o, _mm256_sub_epi16(
			_mm256_cvtepu8_epi16(_mm256_castsi256_si128(a)), two));
		_mm256_store_si256((__m256i *)(o + 16), _mm256_sub_epi16(
			_mm256_cvtepu8_epi16(_mm256_castsi256_si128(b)), two));
		_mm256_store_si256((__m256i *)(o + 32), _mm256_sub_epi16(
			_mm256_cvtepu8_epi16(_mm256_extracti128_si256(a, 1)),
			two));
		_mm256_store_si256((__m256i *)(o + 48), _mm256_sub_epi16(
			_mm256_cvtepu8_epi16(_mm256_extracti128_si256(b, 1)),
			two));
	}
}
