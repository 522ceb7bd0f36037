// SPDX-License-Identifier: GPL-2.0
/*
 * AES-CCM with AES-NI on 128-bit vectors (AES-128 only).
 *
 * What bounds it.  CCM is CTR mode plus a CBC-MAC over the plaintext,
 * and the CBC-MAC is serial within a record: Y_i = E(Y_(i-1) ^ B_i), so
 * each block of MAC input waits for the ten AESENC of the previous one.
 * One record therefore costs at least one block per AES latency (ten
 * times the AESENC latency plus an XOR, some 40 cycles per 16 bytes on
 * recent x86 cores) however wide the vectors: a VAES or AVX-512 engine
 * would not be faster on one record, so there is none.
 *
 * The loop hides everything else behind that chain.  Each step runs the
 * rounds of one MAC block and of one counter block interleaved (aes2()),
 * so the counter block, which does not depend on the chain, costs no
 * latency of its own; the AES unit, which could start one or two rounds
 * a cycle, is mostly idle, but CCM needs exactly one counter block per
 * MAC block, so more counter blocks per step would only run ahead.
 * Encryption MACs plaintext block i and makes keystream block i in the
 * same step.  Decryption needs keystream block i before it can MAC
 * plaintext block i, so it makes keystream block i + 1 in the step that
 * MACs block i: one lone AES at the start of each update, none after.
 *
 * Counter blocks are A0 XOR the counter in the last four bytes: the
 * counter is kept as a dword in a register, byte-swapped into place with
 * one pshufb (which also zeroes the other lanes) and XORed into A0.
 * With q = 3 and at most 2^24 - 1 bytes the counter never reaches the
 * nonce byte.
 *
 * Tails: a last partial block goes through a zero-padded 16-byte stack
 * buffer (the copies depend on the public length only); decryption zeroes
 * the padding of the plaintext before it enters the MAC.
 *
 * Every function here runs inside a SIMD section.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#include "aead/platform.h"
#include "aead/ccm_engines.h"

#define CCM_TARGET	__attribute__((target("sse2,ssse3,aes")))
#define CCM_ROUNDS	10

static __always_inline CCM_TARGET void load_rk(__m128i rk[CCM_ROUNDS + 1],
					       const struct tlsx_ccm_key *k)
{
	int i;

#pragma GCC unroll 11
	for (i = 0; i <= CCM_ROUNDS; i++)
		rk[i] = _mm_load_si128((const __m128i *)(k->rk + 16 * i));
}

static __always_inline CCM_TARGET __m128i aes1(__m128i a,
					       const __m128i rk[CCM_ROUNDS + 1])
{
	int r;

	a = _mm_xor_si128(a, rk[0]);
#pragma GCC unroll 9
	for (r = 1; r < CCM_ROUNDS; r++)
		a = _mm_aesenc_si128(a, rk[r]);
	return _mm_aesenclast_si128(a, rk[CCM_ROUNDS]);
}

/* Two independent blocks, round by round: the MAC step and a CTR block. */
static __always_inline CCM_TARGET void aes2(__m128i *a, __m128i *b,
					    const __m128i rk[CCM_ROUNDS + 1])
{
	__m128i x = _mm_xor_si128(*a, rk[0]), y = _mm_xor_si128(*b, rk[0]);
	int r;

#pragma GCC unroll 9
	for (r = 1; r < CCM_ROUNDS; r++) {
		x = _mm_aesenc_si128(x, rk[r]);
		y = _mm_aesenc_si128(y, rk[r]);
	}
	*a = _mm_aesenclast_si128(x, rk[CCM_ROUNDS]);
	*b = _mm_aesenclast_si128(y, rk[CCM_ROUNDS]);
}

/* Counter block: A0 ^ (0, ..., 0, be32(ctr)), ctr in dword 3 of @c. */
static __always_inline CCM_TARGET __m128i ctr_block(__m128i a0, __m128i c)
{
	const __m128i swap = _mm_set_epi8(12, 13, 14, 15, -128, -128, -128,
					  -128, -128, -128, -128, -128, -128,
					  -128, -128, -128);

	return _mm_xor_si128(a0, _mm_shuffle_epi8(c, swap));
}

static CCM_TARGET void ccm_aesni_init(union tlsx_aead_state *st,
				      const struct tlsx_aead_key *k,
				      const u8 *nonce, const u8 *ad,
				      size_t ad_len, size_t len)
{
	struct tlsx_ccm_state *s = &st->ccm;
	__m128i rk[CCM_ROUNDS + 1], mac, s0;
	u8 blk[16] __aligned(16);
	size_t c;

	load_rk(rk, &k->u.ccm);
	tlsx_ccm_format(blk, s->a0, nonce, TLSX_AEAD_NONCE_LEN,
			TLSX_AEAD_TAG_LEN, ad_len, len);
	mac = _mm_load_si128((const __m128i *)blk);
	s0 = _mm_loadu_si128((const __m128i *)s->a0);
	aes2(&mac, &s0, rk);
	_mm_storeu_si128((__m128i *)s->s0, s0);
	s->ctr = 1;

	/* TLS gives 13 bytes: one block, the first. */
	if (ad_len) {
		c = tlsx_ccm_ad_first(blk, ad, ad_len);
		mac = aes1(_mm_xor_si128(mac, _mm_load_si128((void *)blk)),
			   rk);
		ad += c;
		ad_len -= c;
	}
	for (; ad_len >= 16; ad += 16, ad_len -= 16)
		mac = aes1(_mm_xor_si128(mac, _mm_loadu_si128((void *)ad)),
			   rk);
	if (ad_len) {
		__builtin_memset(blk, 0, 16);
		__builtin_memcpy(blk, ad, ad_len);
		mac = aes1(_mm_xor_si128(mac, _mm_load_si128((void *)blk)),
			   rk);
	}
	_mm_store_si128((__m128i *)s->mac, mac);
	memzero_explicit(blk, sizeof(blk));
}

static CCM_TARGET void ccm_aesni_encrypt(union tlsx_aead_state *st,
					 const struct tlsx_aead_key *k,
					 const u8 *src, u8 *dst, size_t len)
{
	struct tlsx_ccm_state *s = &st->ccm;
	const __m128i one = _mm_set_epi32(1, 0, 0, 0);
	__m128i rk[CCM_ROUNDS + 1], mac, a0, c, p, ks;
	u8 buf[16] __aligned(16);

	if (!len)
		return;
	load_rk(rk, &k->u.ccm);
	mac = _mm_load_si128((const __m128i *)s->mac);
	a0 = _mm_loadu_si128((const __m128i *)s->a0);
	c = _mm_set_epi32((int)s->ctr, 0, 0, 0);
	s->ctr += (u32)((len + 15) / 16);

	for (; len >= 16; src += 16, dst += 16, len -= 16) {
		p = _mm_loadu_si128((const __m128i *)src);
		mac = _mm_xor_si128(mac, p);
		ks = ctr_block(a0, c);
		c = _mm_add_epi32(c, one);
		aes2(&mac, &ks, rk);
		_mm_storeu_si128((__m128i *)dst, _mm_xor_si128(p, ks));
	}
	if (len) {
		__builtin_memset(buf, 0, 16);
		__builtin_memcpy(buf, src, len);
		p = _mm_load_si128((const __m128i *)buf);
		mac = _mm_xor_si128(mac, p);
		ks = ctr_block(a0, c);
		aes2(&mac, &ks, rk);
		_mm_store_si128((__m128i *)buf, _mm_xor_si128(p, ks));
		__builtin_memcpy(dst, buf, len);
		memzero_explicit(buf, sizeof(buf));
	}
	_mm_store_si128((__m128i *)s->mac, mac);
}

static CCM_TARGET void ccm_aesni_decrypt(union tlsx_aead_state *st,
					 const struct tlsx_aead_key *k,
					 const u8 *src, u8 *dst, size_t len)
{
	struct tlsx_ccm_state *s = &st->ccm;
	const __m128i one = _mm_set_epi32(1, 0, 0, 0);
	__m128i rk[CCM_ROUNDS + 1], mac, a0, c, p, ks, next;
	u8 buf[16] __aligned(16);

	if (!len)
		return;
	load_rk(rk, &k->u.ccm);
	mac = _mm_load_si128((const __m128i *)s->mac);
	a0 = _mm_loadu_si128((const __m128i *)s->a0);
	c = _mm_set_epi32((int)s->ctr, 0, 0, 0);
	s->ctr += (u32)((len + 15) / 16);

	/* Keystream block 0 alone; then block i + 1 with MAC block i. */
	ks = aes1(ctr_block(a0, c), rk);
	c = _mm_add_epi32(c, one);
	for (; len > 16; src += 16, dst += 16, len -= 16) {
		p = _mm_xor_si128(_mm_loadu_si128((const __m128i *)src), ks);
		_mm_storeu_si128((__m128i *)dst, p);
		mac = _mm_xor_si128(mac, p);
		next = ctr_block(a0, c);
		c = _mm_add_epi32(c, one);
		aes2(&mac, &next, rk);
		ks = next;
	}
	/* The last block, whole or partial: its MAC step alone. */
	if (len == 16) {
		p = _mm_xor_si128(_mm_loadu_si128((const __m128i *)src), ks);
		_mm_storeu_si128((__m128i *)dst, p);
	} else {
		__builtin_memset(buf, 0, 16);
		__builtin_memcpy(buf, src, len);
		p = _mm_xor_si128(_mm_load_si128((const __m128i *)buf), ks);
		_mm_store_si128((__m128i *)buf, p);
		__builtin_memcpy(dst, buf, len);
		__builtin_memset(buf + len, 0, 16 - len);
		p = _mm_load_si128((const __m128i *)buf);
		memzero_explicit(buf, sizeof(buf));
	}
	mac = aes1(_mm_xor_si128(mac, p), rk);
	_mm_store_si128((__m128i *)s->mac, mac);
}

static CCM_TARGET void ccm_aesni_final(union tlsx_aead_state *st,
				       const struct tlsx_aead_key *k, u8 *tag)
{
	struct tlsx_ccm_state *s = &st->ccm;

	_mm_storeu_si128((__m128i *)tag,
			 _mm_xor_si128(_mm_load_si128((const __m128i *)s->mac),
				       _mm_loadu_si128((const __m128i *)s->s0)));
}

const struct tlsx_aead_ops tlsx_ccm_aesni_ops = {
	.name = "ccm-aesni",
	.init = ccm_aesni_init,
	.encrypt = ccm_aesni_encrypt,
	.decrypt = ccm_aesni_decrypt,
	.final = ccm_aesni_final,
};
