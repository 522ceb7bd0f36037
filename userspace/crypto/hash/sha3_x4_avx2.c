// SPDX-License-Identifier: GPL-2.0
/*
 * sha3_x4_avx2.c - four Keccak-f[1600] states at once on AVX2 (one
 * 64-bit lane of each state per ymm element), for ML-KEM's independent
 * SHAKE instances (the matrix, the noise); sha3.h has the contract.
 * The rounds are sha3.c's, written out on vectors: theta, rho and pi
 * into b, chi (andnot), iota.
 */
#include <immintrin.h>

#include "hash/sha3.h"

bool tlsx_keccak_x4_usable(void)
{
	return tlsx_cpu_features()->avx2;
}

void tlsx_shake_x4_absorb(struct tlsx_keccak_x4 *k, unsigned int rate,
			  const u8 *const in[4], size_t len)
{
	size_t i;
	int j;

	memset(k, 0, sizeof(*k));
	k->rate = rate;
	for (j = 0; j < 4; j++) {
		for (i = 0; i < len; i++)
			k->s[i / 8][j] ^= (u64)in[j][i] << (8 * (i % 8));
		/* pad10*1 after SHAKE's domain bits 1111 (FIPS 202 B.2) */
		k->s[len / 8][j] ^= (u64)0x1f << (8 * (len % 8));
		k->s[(rate - 1) / 8][j] ^= (u64)0x80 << (8 * ((rate - 1) % 8));
	}
}

void tlsx_shake_x4_squeeze_blocks(struct tlsx_keccak_x4 *k, u8 *const out[4],
				  size_t nblocks)
{
	size_t b, i;
	int j;

	for (b = 0; b < nblocks; b++) {
		tlsx_keccak_f1600_x4(k->s);
		for (j = 0; j < 4; j++)
			for (i = 0; i < k->rate / 8; i++)
				put_unaligned_le64(k->s[i][j],
						   out[j] + b * k->rate + 8 * i);
	}
}

#define ROL(v, n)	((n) ? _mm256_or_si256(_mm256_slli_epi64((v), (n)), \
			       _mm256_srli_epi64((v), 64 - (n))) : (v))
#define XOR5(a, b, c, d, e) \
	_mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256((a), (b)), \
					  _mm256_xor_si256((c), (d))), (e))

/* @s: lane i of state j at s[i][j] (struct tlsx_keccak_x4). */
__attribute__((target("avx2")))
void tlsx_keccak_f1600_x4(u64 s[25][4])
{
	__m256i a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12, a22,
	    a32, a42, a03, a13, a23, a33, a43, a04, a14, a24, a34, a44;
	__m256i b00, b10, b20, b30, b40, b01, b11, b21, b31, b41, b02, b12, b22,
	    b32, b42, b03, b13, b23, b33, b43, b04, b14, b24, b34, b44;
	__m256i c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int r;

	a00 = _mm256_loadu_si256((const __m256i *)&s[0]);
	a10 = _mm256_loadu_si256((const __m256i *)&s[1]);
	a20 = _mm256_loadu_si256((const __m256i *)&s[2]);
	a30 = _mm256_loadu_si256((const __m256i *)&s[3]);
	a40 = _mm256_loadu_si256((const __m256i *)&s[4]);
	a01 = _mm256_loadu_si256((const __m256i *)&s[5]);
	a11 = _mm256_loadu_si256((const __m256i *)&s[6]);
	a21 = _mm256_loadu_si256((const __m256i *)&s[7]);
	a31 = _mm256_loadu_si256((const __m256i *)&s[8]);
	a41 = _mm256_loadu_si256((const __m256i *)&s[9]);
	a02 = _mm256_loadu_si256((const __m256i *)&s[10]);
	a12 = _mm256_loadu_si256((const __m256i *)&s[11]);
	a22 = _mm256_loadu_si256((const __m256i *)&s[12]);
	a32 = _mm256_loadu_si256((const __m256i *)&s[13]);
	a42 = _mm256_loadu_si256((const __m256i *)&s[14]);
	a03 = _mm256_loadu_si256((const __m256i *)&s[15]);
	a13 = _mm256_loadu_si256((const __m256i *)&s[16]);
	a23 = _mm256_loadu_si256((const __m256i *)&s[17]);
	a33 = _mm256_loadu_si256((const __m256i *)&s[18]);
	a43 = _mm256_loadu_si256((const __m256i *)&s[19]);
	a04 = _mm256_loadu_si256((const __m256i *)&s[20]);
	a14 = _mm256_loadu_si256((const __m256i *)&s[21]);
	a24 = _mm256_loadu_si256((const __m256i *)&s[22]);
	a34 = _mm256_loadu_si256((const __m256i *)&s[23]);
	a44 = _mm256_loadu_si256((const __m256i *)&s[24]);
	for (r = 0; r < 24; r++) {
		c0 = XOR5(a00, a01, a02, a03, a04);
		c1 = XOR5(a10, a11, a12, a13, a14);
		c2 = XOR5(a20, a21, a22, a23, a24);
		c3 = XOR5(a30, a31, a32, a33, a34);
		c4 = XOR5(a40, a41, a42, a43, a44);
		d0 = _mm256_xor_si256(c4, ROL(c1, 1));
		d1 = _mm256_xor_si256(c0, ROL(c2, 1));
		d2 = _mm256_xor_si256(c1, ROL(c3, 1));
		d3 = _mm256_xor_si256(c2, ROL(c4, 1));
		d4 = _mm256_xor_si256(c3, ROL(c0, 1));
		b00 = ROL(_mm256_xor_si256(a00, d0), 0);
		b01 = ROL(_mm256_xor_si256(a30, d3), 28);
		b02 = ROL(_mm256_xor_si256(a10, d1), 1);
		b03 = ROL(_mm256_xor_si256(a40, d4), 27);
		b04 = ROL(_mm256_xor_si256(a20, d2), 62);
		b10 = ROL(_mm256_xor_si256(a11, d1), 44);
		b11 = ROL(_mm256_xor_si256(a41, d4), 20);
		b12 = ROL(_mm256_xor_si256(a21, d2), 6);
		b13 = ROL(_mm256_xor_si256(a01, d0), 36);
		b14 = ROL(_mm256_xor_si256(a31, d3), 55);
		b20 = ROL(_mm256_xor_si256(a22, d2), 43);
		b21 = ROL(_mm256_xor_si256(a02, d0), 3);
		b22 = ROL(_mm256_xor_si256(a32, d3), 25);
		b23 = ROL(_mm256_xor_si256(a12, d1), 10);
		b24 = ROL(_mm256_xor_si256(a42, d4), 39);
		b30 = ROL(_mm256_xor_si256(a33, d3), 21);
		b31 = ROL(_mm256_xor_si256(a13, d1), 45);
		b32 = ROL(_mm256_xor_si256(a43, d4), 8);
		b33 = ROL(_mm256_xor_si256(a23, d2), 15);
		b34 = ROL(_mm256_xor_si256(a03, d0), 41);
		b40 = ROL(_mm256_xor_si256(a44, d4), 14);
		b41 = ROL(_mm256_xor_si256(a24, d2), 61);
		b42 = ROL(_mm256_xor_si256(a04, d0), 18);
		b43 = ROL(_mm256_xor_si256(a34, d3), 56);
		b44 = ROL(_mm256_xor_si256(a14, d1), 2);
		a00 = _mm256_xor_si256(b00, _mm256_andnot_si256(b10, b20));
		a01 = _mm256_xor_si256(b01, _mm256_andnot_si256(b11, b21));
		a02 = _mm256_xor_si256(b02, _mm256_andnot_si256(b12, b22));
		a03 = _mm256_xor_si256(b03, _mm256_andnot_si256(b13, b23));
		a04 = _mm256_xor_si256(b04, _mm256_andnot_si256(b14, b24));
		a10 = _mm256_xor_si256(b10, _mm256_andnot_si256(b20, b30));
		a11 = _mm256_xor_si256(b11, _mm256_andnot_si256(b21, b31));
		a12 = _mm256_xor_si256(b12, _mm256_andnot_si256(b22, b32));
		a13 = _mm256_xor_si256(b13, _mm256_andnot_si256(b23, b33));
		a14 = _mm256_xor_si256(b14, _mm256_andnot_si256(b24, b34));
		a20 = _mm256_xor_si256(b20, _mm256_andnot_si256(b30, b40));
		a21 = _mm256_xor_si256(b21, _mm256_andnot_si256(b31, b41));
		a22 = _mm256_xor_si256(b22, _mm256_andnot_si256(b32, b42));
		a23 = _mm256_xor_si256(b23, _mm256_andnot_si256(b33, b43));
		a24 = _mm256_xor_si256(b24, _mm256_andnot_si256(b34, b44));
		a30 = _mm256_xor_si256(b30, _mm256_andnot_si256(b40, b00));
		a31 = _mm256_xor_si256(b31, _mm256_andnot_si256(b41, b01));
		a32 = _mm256_xor_si256(b32, _mm256_andnot_si256(b42, b02));
		a33 = _mm256_xor_si256(b33, _mm256_andnot_si256(b43, b03));
		a34 = _mm256_xor_si256(b34, _mm256_andnot_si256(b44, b04));
		a40 = _mm256_xor_si256(b40, _mm256_andnot_si256(b00, b10));
		a41 = _mm256_xor_si256(b41, _mm256_andnot_si256(b01, b11));
		a42 = _mm256_xor_si256(b42, _mm256_andnot_si256(b02, b12));
		a43 = _mm256_xor_si256(b43, _mm256_andnot_si256(b03, b13));
		a44 = _mm256_xor_si256(b44, _mm256_andnot_si256(b04, b14));
		a00 = _mm256_xor_si256(a00, _mm256_set1_epi64x((long long)tlsx_keccak_rc[r]));
	}
	_mm256_storeu_si256((__m256i *)&s[0], a00);
	_mm256_storeu_si256((__m256i *)&s[1], a10);
	_mm256_storeu_si256((__m256i *)&s[2], a20);
	_mm256_storeu_si256((__m256i *)&s[3], a30);
	_mm256_storeu_si256((__m256i *)&s[4], a40);
	_mm256_storeu_si256((__m256i *)&s[5], a01);
	_mm256_storeu_si256((__m256i *)&s[6], a11);
	_mm256_storeu_si256((__m256i *)&s[7], a21);
	_mm256_storeu_si256((__m256i *)&s[8], a31);
	_mm256_storeu_si256((__m256i *)&s[9], a41);
	_mm256_storeu_si256((__m256i *)&s[10], a02);
	_mm256_storeu_si256((__m256i *)&s[11], a12);
	_mm256_storeu_si256((__m256i *)&s[12], a22);
	_mm256_storeu_si256((__m256i *)&s[13], a32);
	_mm256_storeu_si256((__m256i *)&s[14], a42);
	_mm256_storeu_si256((__m256i *)&s[15], a03);
	_mm256_storeu_si256((__m256i *)&s[16], a13);
	_mm256_storeu_si256((__m256i *)&s[17], a23);
	_mm256_storeu_si256((__m256i *)&s[18], a33);
	_mm256_storeu_si256((__m256i *)&s[19], a43);
	_mm256_storeu_si256((__m256i *)&s[20], a04);
	_mm256_storeu_si256((__m256i *)&s[21], a14);
	_mm256_storeu_si256((__m256i *)&s[22], a24);
	_mm256_storeu_si256((__m256i *)&s[23], a34);
	_mm256_storeu_si256((__m256i *)&s[24], a44);
}
