/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Eight ChaCha20 blocks at a time in 256-bit vectors, shared by
 * chacha_avx2.c and chacha_avx512.c (which runs short tails eight blocks
 * wide).  Not a header to include elsewhere.
 *
 * The includer defines, before including it:
 *	X8_TARGET	the function attribute of its ISA;
 *	X8_ROL(v, n)	rotate each 32-bit lane of __m256i @v left by the
 *			constant @n (16, 12, 8 or 7);
 *	x8_xor32(src, dst, len, off, ks)
 *			an always-inline function that XORs the 32 bytes
 *			of keystream @ks into bytes @off.. of @src to @dst,
 *			or only those below @len (none if @off >= @len).
 *
 * Layout: vector i holds word i of the state of eight consecutive blocks
 * (lane j = block counter + j), so the column and diagonal rounds are the
 * same four-vector quarter-round on different vectors, without shuffles.
 * After the rounds and the final addition, the 4x4 word transposes
 * within each 128-bit half leave 16 bytes of block j (half 0) or block
 * j + 4 (half 1) in each vector, and one cross-half permute per 32 bytes
 * puts every block's bytes in order, ready to XOR.  Keystream never goes
 * to memory.
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

/*
 * Make GCC read the key and nonce words again for the final addition
 * instead of keeping the broadcast input vectors from the start of the
 * pass, which it would spill to the stack during the rounds (a copy of
 * the key in memory, and a large frame).  An empty asm that "changes"
 * the pointers hides that they are the same.
 */
#define tlsx_chacha_reload(k, n) __asm__("" : "+r"(k), "+r"(n))

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

/*
 * Word @i of the input state of blocks @counter.. (lane j: counter + j),
 * broadcast from memory.  Read again for the final addition rather than
 * kept: no copy of the key lies in a stack array.
 */
X8_TARGET static __always_inline __m256i x8_input(const u32 key[8],
						  const u32 nonce[3],
						  u32 counter, int i)
{
	static const u32 c[4] = {
		TLSX_CHACHA_C0, TLSX_CHACHA_C1, TLSX_CHACHA_C2, TLSX_CHACHA_C3
	};

	if (i < 4)
		return _mm256_set1_epi32(c[i]);
	if (i < 12)
		return _mm256_set1_epi32(key[i - 4]);
	if (i == 12)
		return _mm256_add_epi32(_mm256_set1_epi32(counter),
					_mm256_set_epi32(7, 6, 5, 4,
							 3, 2, 1, 0));
	return _mm256_set1_epi32(nonce[i - 13]);
}

/* The sixteen state vectors x0..x15 for blocks @counter.. */
#define X8_LOAD(ctr) do {						\
	x0 = x8_input(key, nonce, ctr, 0);				\
	x1 = x8_input(key, nonce, ctr, 1);				\
	x2 = x8_input(key, nonce, ctr, 2);				\
	x3 = x8_input(key, nonce, ctr, 3);				\
	x4 = x8_input(key, nonce, ctr, 4);				\
	x5 = x8_input(key, nonce, ctr, 5);				\
	x6 = x8_input(key, nonce, ctr, 6);				\
	x7 = x8_input(key, nonce, ctr, 7);				\
	x8 = x8_input(key, nonce, ctr, 8);				\
	x9 = x8_input(key, nonce, ctr, 9);				\
	x10 = x8_input(key, nonce, ctr, 10);				\
	x11 = x8_input(key, nonce, ctr, 11);				\
	x12 = x8_input(key, nonce, ctr, 12);				\
	x13 = x8_input(key, nonce, ctr, 13);				\
	x14 = x8_input(key, nonce, ctr, 14);				\
	x15 = x8_input(key, nonce, ctr, 15);				\
} while (0)

/* x += input state of blocks @counter.. (see tlsx_chacha_reload()) */
#define X8_ADD_INPUT(ctr) do {						\
	const u32 *key_ = key, *nonce_ = nonce;				\
									\
	tlsx_chacha_reload(key_, nonce_);				\
	x0 = _mm256_add_epi32(x0, x8_input(key_, nonce_, ctr, 0));	\
	x1 = _mm256_add_epi32(x1, x8_input(key_, nonce_, ctr, 1));	\
	x2 = _mm256_add_epi32(x2, x8_input(key_, nonce_, ctr, 2));	\
	x3 = _mm256_add_epi32(x3, x8_input(key_, nonce_, ctr, 3));	\
	x4 = _mm256_add_epi32(x4, x8_input(key_, nonce_, ctr, 4));	\
	x5 = _mm256_add_epi32(x5, x8_input(key_, nonce_, ctr, 5));	\
	x6 = _mm256_add_epi32(x6, x8_input(key_, nonce_, ctr, 6));	\
	x7 = _mm256_add_epi32(x7, x8_input(key_, nonce_, ctr, 7));	\
	x8 = _mm256_add_epi32(x8, x8_input(key_, nonce_, ctr, 8));	\
	x9 = _mm256_add_epi32(x9, x8_input(key_, nonce_, ctr, 9));	\
	x10 = _mm256_add_epi32(x10, x8_input(key_, nonce_, ctr, 10));	\
	x11 = _mm256_add_epi32(x11, x8_input(key_, nonce_, ctr, 11));	\
	x12 = _mm256_add_epi32(x12, x8_input(key_, nonce_, ctr, 12));	\
	x13 = _mm256_add_epi32(x13, x8_input(key_, nonce_, ctr, 13));	\
	x14 = _mm256_add_epi32(x14, x8_input(key_, nonce_, ctr, 14));	\
	x15 = _mm256_add_epi32(x15, x8_input(key_, nonce_, ctr, 15));	\
} while (0)

/* Block j's bytes 0-31 and 32-63 (j = 0-3 low halves, 4-7 high). */
#define X8_XOR_BLOCKS(a, b, c, d, j) do {				\
	x8_xor32(src, dst, len, 64 * (j),				\
		 _mm256_permute2x128_si256(a, b, 0x20));		\
	x8_xor32(src, dst, len, 64 * (j) + 32,				\
		 _mm256_permute2x128_si256(c, d, 0x20));		\
	x8_xor32(src, dst, len, 64 * (j) + 256,				\
		 _mm256_permute2x128_si256(a, b, 0x31));		\
	x8_xor32(src, dst, len, 64 * (j) + 288,				\
		 _mm256_permute2x128_si256(c, d, 0x31));		\
} while (0)

/*
 * One pass: eight keystream blocks from @counter XORed into @len bytes
 * (at most 512) of @src to @dst, 32 bytes at a time by the includer's
 * x8_xor32(); and when @with_otk the Poly1305 key of @key and @nonce into
 * @otk, from block 0 computed in scalar registers alongside.  The state
 * is in named variables, not an array, so that GCC keeps it in
 * registers.
 */
X8_TARGET static __always_inline void chacha20_x8_pass(const u32 key[8],
						       const u32 nonce[3],
						       u32 counter,
						       const u8 *src, u8 *dst,
						       size_t len,
						       bool with_otk, u8 *otk)
{
	__m256i x0, x1, x2, x3, x4, x5, x6, x7;
	__m256i x8, x9, x10, x11, x12, x13, x14, x15;
	u32 s[16];
	int i;

	X8_LOAD(counter);
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
	if (with_otk)
		chacha20_s_otk(s, key, otk);
	X8_ADD_INPUT(counter);
	X8_TRANSPOSE4(x0, x1, x2, x3);
	X8_TRANSPOSE4(x4, x5, x6, x7);
	X8_TRANSPOSE4(x8, x9, x10, x11);
	X8_TRANSPOSE4(x12, x13, x14, x15);
	X8_XOR_BLOCKS(x0, x4, x8, x12, 0);
	X8_XOR_BLOCKS(x1, x5, x9, x13, 1);
	X8_XOR_BLOCKS(x2, x6, x10, x14, 2);
	X8_XOR_BLOCKS(x3, x7, x11, x15, 3);
}
