// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20 (RFC 8439 section 2.3 and 2.4) in portable C on 32-bit words.
 *
 * Used by the generic engine, for the Poly1305 key (block 0) whatever the
 * engine, and wherever the FPU is not usable.  Additions, XORs and
 * rotations by constants only: constant time by construction.
 */
#include "aead/platform.h"
#include "aead/chacha_engines.h"

#define QR TLSX_CHACHA_QR

/* The 16 words of keystream block @counter, in little-endian order. */
static void chacha20_block_words(const u32 key[8], const u32 nonce[3],
				 u32 counter, u32 out[16])
{
	u32 x[16], in[16];
	int i;

	in[0] = TLSX_CHACHA_C0;
	in[1] = TLSX_CHACHA_C1;
	in[2] = TLSX_CHACHA_C2;
	in[3] = TLSX_CHACHA_C3;
	for (i = 0; i < 8; i++)
		in[4 + i] = key[i];
	in[12] = counter;
	in[13] = nonce[0];
	in[14] = nonce[1];
	in[15] = nonce[2];

	for (i = 0; i < 16; i++)
		x[i] = in[i];
	for (i = 0; i < 10; i++) {
		/* Column round, then diagonal round. */
		QR(x[0], x[4], x[8], x[12]);
		QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]);
		QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]);
		QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]);
		QR(x[3], x[4], x[9], x[14]);
	}
	for (i = 0; i < 16; i++)
		out[i] = x[i] + in[i];
	memzero_explicit(x, sizeof(x));
	memzero_explicit(in, sizeof(in));
}

void tlsx_chacha20_block_generic(const u32 key[8], const u32 nonce[3],
				 u32 counter, u8 out[64])
{
	u32 ks[16];
	int i;

	chacha20_block_words(key, nonce, counter, ks);
	for (i = 0; i < 16; i++)
		put_unaligned_le32(ks[i], out + 4 * i);
	memzero_explicit(ks, sizeof(ks));
}

void tlsx_chacha20_xor_generic(const u32 key[8], const u32 nonce[3],
			       u32 counter, const u8 *src, u8 *dst,
			       size_t len)
{
	u32 ks[16];
	u8 tail[64];
	size_t i;

	for (; len >= 64; len -= 64, src += 64, dst += 64, counter++) {
		chacha20_block_words(key, nonce, counter, ks);
		for (i = 0; i < 16; i++)
			put_unaligned_le32(get_unaligned_le32(src + 4 * i) ^
					   ks[i], dst + 4 * i);
	}
	if (len) {
		/* The length is public: a byte loop over the tail is fine. */
		tlsx_chacha20_block_generic(key, nonce, counter, tail);
		for (i = 0; i < len; i++)
			dst[i] = src[i] ^ tail[i];
		memzero_explicit(tail, sizeof(tail));
	}
	memzero_explicit(ks, sizeof(ks));
}

void tlsx_chacha20_xor0_generic(const u32 key[8], const u32 nonce[3],
				u8 otk[32], const u8 *src, u8 *dst,
				size_t len)
{
	u8 block0[64];

	tlsx_chacha20_block_generic(key, nonce, 0, block0);
	memcpy(otk, block0, 32);
	memzero_explicit(block0, sizeof(block0));
	tlsx_chacha20_xor_generic(key, nonce, 1, src, dst, len);
}
