/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Eight ChaCha20 blocks at a time in 256-bit vectors, shared by
 * chacha_avx2.c and chacha_avx512.c (which runs short tails eight blocks
 * wide).  Not a header to include elsewhere.
 *
 * The includer defines, before including it:
 *	X8_TARGET	the function attribute of its ISA;
 *	X8_ROL(v, n)	rotate each 32-bit lane of __m256i @v left by the
 *			constant @n (16, 12, 8 or 7).
 *
 * Layout: vector i holds word i of the state of eight consecutive blocks
 * (lane j = block counter + j), so the column and diagonal rounds are the
 * same four-vector quarter-round on different vectors, without shuffles.
 * After the rounds and the final addition, the 4x4 word transposes
 * within each 128-bit half leave 16 bytes of block j (half 0) or block
 * j + 4 (half 1) in each vector, and one cross-half permute per 32 bytes
 * puts every block's bytes in order:
 *	ks[2j]     = bytes  0..31 of block j,
 *	ks[2j + 1] = bytes 32..63 of block j	(j = 0..7).
 *
 * Block 0 (the Poly1305 key) rides along.  An AEAD operation needs one
 * block more than its text fills, and a lone block costs about as much
 * time as a whole vector pass, because its rounds are one long dependency
 * chain.  So the first pass of an operation also computes block 0 in
 * sixteen general-purpose registers (chacha20_s_*), its quarter-rounds
 * interleaved with the vector ones: the scalar chain runs on the integer
 * units, which the vector rounds leave idle, and costs little extra time.
 */

/* The scalar block 0 of @key and @nonce, stitched into a vector pass. */
X8_TARGET static __always_inline void chacha20_s_setup(u32 s[16],
						       const u32 key[8],
						       const u32 nonce[3])
{
	int i;

	s[0] = TLSX_CHACHA_C0;
	s[1] = TLSX_CHACHA_C1;
	s[2] = TLSX_CHACHA_C2;
	s[3] = TLSX_CHACHA_C3;
	for (i = 0; i < 8; i++)
		s[4 + i] = key[i];
	s[12] = 0;
	s[13] = nonce[0];
	s[14] = nonce[1];
	s[15] = nonce[2];
}

/* Its first 32 bytes (the Poly1305 key): words 0-7 plus the input. */
X8_TARGET static __always_inline void chacha20_s_otk(const u32 s[16],
						     const u32 key[8],
						     u8 otk[32])
{
	int i;

	put_unaligned_le32(s[0] + TLSX_CHACHA_C0, otk);
	put_unaligned_le32(s[1] + TLSX_CHACHA_C1, otk + 4);
	put_unaligned_le32(s[2] + TLSX_CHACHA_C2, otk + 8);
	put_unaligned_le32(s[3] + TLSX_CHACHA_C3, otk + 12);
	for (i = 0; i < 4; i++)
		put_unaligned_le32(s[4 + i] + key[i], otk + 16 + 4 * i);
}

/* Quarter-round @i (0-3 column, 4-7 diagonal) of the scalar block. */
#define S_QR(s, i) do {							\
	if ((i) < 4)							\
		TLSX_CHACHA_QR(s[i], s[4 + (i)], s[8 + (i)],		\
			       s[12 + (i)]);				\
	else								\
		TLSX_CHACHA_QR(s[(i) - 4], s[4 + ((i) - 3) % 4],	\
			       s[8 + ((i) - 2) % 4],			\
			       s[12 + ((i) - 1) % 4]);			\
} while (0)

#define X8_QR(a, b, c, d) do {						\
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a);	\
	d = X8_ROL(d, 16);						\
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c);	\
	b = X8_ROL(b, 12);						\
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a);	\
	d = X8_ROL(d, 8);						\
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c);	\
	b = X8_ROL(b, 7);						\
} while (0)

/* 4x4 transpose of 32-bit words within each 128-bit half. */
#define X8_TRANSPOSE4(a, b, c, d) do {					\
	__m256i t0 = _mm256_unpacklo_epi32(a, b);			\
	__m256i t1 = _mm256_unpacklo_epi32(c, d);			\
	__m256i t2 = _mm256_unpackhi_epi32(a, b);			\
	__m256i t3 = _mm256_unpackhi_epi32(c, d);			\
	a = _mm256_unpacklo_epi64(t0, t1);				\
	b = _mm256_unpackhi_epi64(t0, t1);				\
	c = _mm256_unpacklo_epi64(t2, t3);				\
	d = _mm256_unpackhi_epi64(t2, t3);				\
} while (0)

/* The 16 input words of eight blocks from @counter on, broadcast. */
X8_TARGET static inline void chacha20_x8_setup(__m256i in[16],
					       const u32 key[8],
					       const u32 nonce[3],
					       u32 counter)
{
	int i;

	in[0] = _mm256_set1_epi32(TLSX_CHACHA_C0);
	in[1] = _mm256_set1_epi32(TLSX_CHACHA_C1);
	in[2] = _mm256_set1_epi32(TLSX_CHACHA_C2);
	in[3] = _mm256_set1_epi32(TLSX_CHACHA_C3);
	for (i = 0; i < 8; i++)
		in[4 + i] = _mm256_set1_epi32(key[i]);
	in[12] = _mm256_add_epi32(_mm256_set1_epi32(counter),
				  _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0));
	in[13] = _mm256_set1_epi32(nonce[0]);
	in[14] = _mm256_set1_epi32(nonce[1]);
	in[15] = _mm256_set1_epi32(nonce[2]);
}

/*
 * Eight keystream blocks of @in into @ks (see the top of this file), and
 * when @with_otk the Poly1305 key of @key and @nonce into @otk.
 */
X8_TARGET static __always_inline void chacha20_x8_core(const __m256i in[16],
						       __m256i ks[16],
						       bool with_otk,
						       const u32 *key,
						       const u32 *nonce,
						       u8 *otk)
{
	__m256i x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
	__m256i x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
	__m256i x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11];
	__m256i x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];
	u32 s[16];
	int i;

	if (with_otk)
		chacha20_s_setup(s, key, nonce);
	for (i = 0; i < 10; i++) {
		X8_QR(x0, x4, x8, x12);
		if (with_otk)
			S_QR(s, 0);
		X8_QR(x1, x5, x9, x13);
		if (with_otk)
			S_QR(s, 1);
		X8_QR(x2, x6, x10, x14);
		if (with_otk)
			S_QR(s, 2);
		X8_QR(x3, x7, x11, x15);
		if (with_otk)
			S_QR(s, 3);
		X8_QR(x0, x5, x10, x15);
		if (with_otk)
			S_QR(s, 4);
		X8_QR(x1, x6, x11, x12);
		if (with_otk)
			S_QR(s, 5);
		X8_QR(x2, x7, x8, x13);
		if (with_otk)
			S_QR(s, 6);
		X8_QR(x3, x4, x9, x14);
		if (with_otk)
			S_QR(s, 7);
	}
	if (with_otk) {
		chacha20_s_otk(s, key, otk);
		memzero_explicit(s, sizeof(s));
	}
	x0 = _mm256_add_epi32(x0, in[0]);
	x1 = _mm256_add_epi32(x1, in[1]);
	x2 = _mm256_add_epi32(x2, in[2]);
	x3 = _mm256_add_epi32(x3, in[3]);
	x4 = _mm256_add_epi32(x4, in[4]);
	x5 = _mm256_add_epi32(x5, in[5]);
	x6 = _mm256_add_epi32(x6, in[6]);
	x7 = _mm256_add_epi32(x7, in[7]);
	x8 = _mm256_add_epi32(x8, in[8]);
	x9 = _mm256_add_epi32(x9, in[9]);
	x10 = _mm256_add_epi32(x10, in[10]);
	x11 = _mm256_add_epi32(x11, in[11]);
	x12 = _mm256_add_epi32(x12, in[12]);
	x13 = _mm256_add_epi32(x13, in[13]);
	x14 = _mm256_add_epi32(x14, in[14]);
	x15 = _mm256_add_epi32(x15, in[15]);
	X8_TRANSPOSE4(x0, x1, x2, x3);
	X8_TRANSPOSE4(x4, x5, x6, x7);
	X8_TRANSPOSE4(x8, x9, x10, x11);
	X8_TRANSPOSE4(x12, x13, x14, x15);
	ks[0] = _mm256_permute2x128_si256(x0, x4, 0x20);
	ks[1] = _mm256_permute2x128_si256(x8, x12, 0x20);
	ks[2] = _mm256_permute2x128_si256(x1, x5, 0x20);
	ks[3] = _mm256_permute2x128_si256(x9, x13, 0x20);
	ks[4] = _mm256_permute2x128_si256(x2, x6, 0x20);
	ks[5] = _mm256_permute2x128_si256(x10, x14, 0x20);
	ks[6] = _mm256_permute2x128_si256(x3, x7, 0x20);
	ks[7] = _mm256_permute2x128_si256(x11, x15, 0x20);
	ks[8] = _mm256_permute2x128_si256(x0, x4, 0x31);
	ks[9] = _mm256_permute2x128_si256(x8, x12, 0x31);
	ks[10] = _mm256_permute2x128_si256(x1, x5, 0x31);
	ks[11] = _mm256_permute2x128_si256(x9, x13, 0x31);
	ks[12] = _mm256_permute2x128_si256(x2, x6, 0x31);
	ks[13] = _mm256_permute2x128_si256(x10, x14, 0x31);
	ks[14] = _mm256_permute2x128_si256(x3, x7, 0x31);
	ks[15] = _mm256_permute2x128_si256(x11, x15, 0x31);
}

X8_TARGET static __always_inline void chacha20_x8(const __m256i in[16],
						  __m256i ks[16])
{
	chacha20_x8_core(in, ks, false, NULL, NULL, NULL);
}
