// SPDX-License-Identifier: GPL-2.0
/*
 * p256_select.c - constant-time table lookups for the P-256 scalar
 * multiplications: out = table[idx - 1] (all zero for idx 0) where idx
 * is a secret digit.  Every entry is read and combined under a mask, so
 * neither the memory addresses touched nor the branches taken depend on
 * idx.  Portable (64-bit masks) and AVX2 (whole 32-byte rows, compare
 * and and-or) versions.
 */
#include <immintrin.h>

#include "p256/p256_internal.h"

/* All ones when a == b, else 0, by arithmetic rather than a compare. */
static inline u64 eq_mask(u32 a, u32 b)
{
	u64 d = (u64)(a ^ b);

	return ((d | (0 - d)) >> 63) - 1;
}

void p256_select_affine(struct p256_affine *out,
			const struct p256_affine *table, u32 n, u32 idx)
{
	u64 acc[8] = { 0 }, m;
	u32 i;
	int j;

	for (i = 0; i < n; i++) {
		m = eq_mask(i + 1, idx);
		for (j = 0; j < 4; j++) {
			acc[j] |= table[i].x[j] & m;
			acc[j + 4] |= table[i].y[j] & m;
		}
	}
	memcpy(out->x, acc, 32);
	memcpy(out->y, acc + 4, 32);
}

void p256_select_jacobian(struct p256_jacobian *out,
			  const struct p256_jacobian *table, u32 n, u32 idx)
{
	u64 acc[12] = { 0 }, m;
	u32 i;
	int j;

	for (i = 0; i < n; i++) {
		m = eq_mask(i + 1, idx);
		for (j = 0; j < 4; j++) {
			acc[j] |= table[i].x[j] & m;
			acc[j + 4] |= table[i].y[j] & m;
			acc[j + 8] |= table[i].z[j] & m;
		}
	}
	memcpy(out->x, acc, 32);
	memcpy(out->y, acc + 4, 32);
	memcpy(out->z, acc + 8, 32);
}

/*
 * AVX2: a vector of the entry number counts up by one per entry and is
 * compared with idx broadcast; the all-ones lane mask selects the rows.
 * Two entries per iteration keep two independent and-or chains.
 */
__attribute__((target("avx2")))
void p256_select_affine_avx2(struct p256_affine *out,
			     const struct p256_affine *table, u32 n, u32 idx)
{
	const __m256i one = _mm256_set1_epi32(1);
	const __m256i want = _mm256_set1_epi32((int)idx);
	__m256i cur = _mm256_set1_epi32(1);
	__m256i x0 = _mm256_setzero_si256(), y0 = _mm256_setzero_si256();
	__m256i x1 = _mm256_setzero_si256(), y1 = _mm256_setzero_si256();
	const __m256i *p = (const __m256i *)table;
	u32 i;

	for (i = 0; i + 1 < n; i += 2, p += 4) {
		__m256i m0 = _mm256_cmpeq_epi32(cur, want);
		__m256i m1;

		cur = _mm256_add_epi32(cur, one);
		m1 = _mm256_cmpeq_epi32(cur, want);
		cur = _mm256_add_epi32(cur, one);
		x0 = _mm256_or_si256(x0, _mm256_and_si256(m0,
				     _mm256_loadu_si256(p)));
		y0 = _mm256_or_si256(y0, _mm256_and_si256(m0,
				     _mm256_loadu_si256(p + 1)));
		x1 = _mm256_or_si256(x1, _mm256_and_si256(m1,
				     _mm256_loadu_si256(p + 2)));
		y1 = _mm256_or_si256(y1, _mm256_and_si256(m1,
				     _mm256_loadu_si256(p + 3)));
	}
	if (i < n) {
		__m256i m0 = _mm256_cmpeq_epi32(cur, want);

		x0 = _mm256_or_si256(x0, _mm256_and_si256(m0,
				     _mm256_loadu_si256(p)));
		y0 = _mm256_or_si256(y0, _mm256_and_si256(m0,
				     _mm256_loadu_si256(p + 1)));
	}
	_mm256_storeu_si256((__m256i *)out->x, _mm256_or_si256(x0, x1));
	_mm256_storeu_si256((__m256i *)out->y, _mm256_or_si256(y0, y1));
}

__attribute__((target("avx2")))
void p256_select_jacobian_avx2(struct p256_jacobian *out,
			       const struct p256_jacobian *table, u32 n,
			       u32 idx)
{
	const __m256i one = _mm256_set1_epi32(1);
	const __m256i want = _mm256_set1_epi32((int)idx);
	__m256i cur = _mm256_set1_epi32(1);
	__m256i x = _mm256_setzero_si256(), y = _mm256_setzero_si256();
	__m256i z = _mm256_setzero_si256();
	const __m256i *p = (const __m256i *)table;
	u32 i;

	for (i = 0; i < n; i++, p += 3) {
		__m256i m = _mm256_cmpeq_epi32(cur, want);

		cur = _mm256_add_epi32(cur, one);
		x = _mm256_or_si256(x, _mm256_and_si256(m,
				    _mm256_loadu_si256(p)));
		y = _mm256_or_si256(y, _mm256_and_si256(m,
				    _mm256_loadu_si256(p + 1)));
		z = _mm256_or_si256(z, _mm256_and_si256(m,
				    _mm256_loadu_si256(p + 2)));
	}
	_mm256_storeu_si256((__m256i *)out->x, x);
	_mm256_storeu_si256((__m256i *)out->y, y);
	_mm256_storeu_si256((__m256i *)out->z, z);
}
