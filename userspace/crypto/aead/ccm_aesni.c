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

/*
 * Block @n (1..16 bytes) at @p, zero-padded: a whole block is one load,
 * a partial one goes through @buf (copies of public length).
 */
static __always_inline CCM_TARGET __m128i load_part(const u8 *p, size_t n,
						    u8 buf[16])
{
	if (n == 16)
		return _mm_loadu_si128((const __m128i *)p);
	__builtin_memset(buf, 0, 16);
	__builtin_memcpy(buf, p, n);
	return _mm_load_si128((const __m128i *)buf);
}

static __always_inline CCM_TARGET void store_part(u8 *p, size_t n, __m128i v,
						  u8 buf[16])
{
	if (n == 16) {
		_mm_storeu_si128((__m128i *)p, v);
		return;
	}
	_mm_store_si128((__m128i *)buf, v);
	__builtin_memcpy(p, buf, n);
}

/* Keep the first @n bytes of @v (1..16), zero the others. */
static __always_inline CCM_TARGET __m128i keep_part(__m128i v, size_t n,
						    u8 buf[16])
{
	if (n == 16)
		return v;
	_mm_store_si128((__m128i *)buf, v);
	__builtin_memset(buf + n, 0, 16 - n);
	return _mm_load_si128((const __m128i *)buf);
}

/*
 * Rounds 1..9 of the MAC step @x and the counter block @y, both already
 * XORed with round key 0.
 */
static __always_inline CCM_TARGET void aes2_mid(__m128i *x, __m128i *y,
						const __m128i rk[CCM_ROUNDS + 1])
{
	__m128i a = *x, b = *y;
	int r;

#pragma GCC unroll 9
	for (r = 1; r < CCM_ROUNDS; r++) {
		a = _mm_aesenc_si128(a, rk[r]);
		b = _mm_aesenc_si128(b, rk[r]);
	}
	*x = a;
	*y = b;
}

/*
 * One update.  Nothing but the AES rounds is on the MAC chain: the
 * chain value enters the step already XORed with the next MAC input and
 * round key 0, because the last round of the previous step took
 * rk[10] ^ rk[0] ^ P_next as its key (AESENCLAST ends with the XOR of its
 * key).  Encryption knows P_next from the start; decryption gets it from
 * the keystream block made in the same step, which does not depend on
 * the chain and so runs ahead of it.
 */
static __always_inline CCM_TARGET void ccm_aesni_crypt(struct tlsx_ccm_state *s,
						       const struct tlsx_ccm_key *k,
						       const u8 *src, u8 *dst,
						       size_t len, bool enc)
{
	const __m128i one = _mm_set_epi32(1, 0, 0, 0);
	__m128i rk[CCM_ROUNDS + 1], rkx, x, a0, c, p, ks;
	u8 buf[16] __aligned(16);
	size_t n;

	if (!len)
		return;
	load_rk(rk, k);
	rkx = _mm_xor_si128(rk[CCM_ROUNDS], rk[0]);
	a0 = _mm_loadu_si128((const __m128i *)s->a0);
	c = _mm_set_epi32((int)s->ctr, 0, 0, 0);
	s->ctr += (u32)((len + 15) / 16);
	x = _mm_load_si128((const __m128i *)s->mac);

	/* The first block of text. */
	n = len < 16 ? len : 16;
	if (enc) {
		p = load_part(src, n, buf);
	} else {
		ks = aes1(ctr_block(a0, c), rk);
		p = _mm_xor_si128(load_part(src, n, buf), ks);
		store_part(dst, n, p, buf);
		p = keep_part(p, n, buf);
	}
	x = _mm_xor_si128(x, _mm_xor_si128(p, rk[0]));

	for (;;) {
		if (enc) {
			/* MAC block i with keystream block i. */
			ks = _mm_xor_si128(ctr_block(a0, c), rk[0]);
			c = _mm_add_epi32(c, one);
			aes2_mid(&x, &ks, rk);
			ks = _mm_aesenclast_si128(ks, rk[CCM_ROUNDS]);
			store_part(dst, n, _mm_xor_si128(p, ks), buf);
		}
		src += n;
		dst += n;
		len -= n;
		if (!len)
			break;
		n = len < 16 ? len : 16;
		if (enc) {
			p = load_part(src, n, buf);
		} else {
			/* MAC block i with keystream block i + 1. */
			c = _mm_add_epi32(c, one);
			ks = _mm_xor_si128(ctr_block(a0, c), rk[0]);
			aes2_mid(&x, &ks, rk);
			ks = _mm_aesenclast_si128(ks, rk[CCM_ROUNDS]);
			p = _mm_xor_si128(load_part(src, n, buf), ks);
			store_part(dst, n, p, buf);
			p = keep_part(p, n, buf);
		}
		x = _mm_aesenclast_si128(x, _mm_xor_si128(rkx, p));
	}
	if (!enc) {
		/* The last MAC step has no keystream block beside it. */
#pragma GCC unroll 9
		for (n = 1; n < CCM_ROUNDS; n++)
			x = _mm_aesenc_si128(x, rk[n]);
	}
	x = _mm_aesenclast_si128(x, rk[CCM_ROUNDS]);
	_mm_store_si128((__m128i *)s->mac, x);
	memzero_explicit(buf, sizeof(buf));
}

static CCM_TARGET void ccm_aesni_encrypt(union tlsx_aead_state *st,
					 const struct tlsx_aead_key *k,
					 const u8 *src, u8 *dst, size_t len)
{
	ccm_aesni_crypt(&st->ccm, &k->u.ccm, src, dst, len, true);
}

static CCM_TARGET void ccm_aesni_decrypt(union tlsx_aead_state *st,
					 const struct tlsx_aead_key *k,
					 const u8 *src, u8 *dst, size_t len)
{
	ccm_aesni_crypt(&st->ccm, &k->u.ccm, src, dst, len, false);
}

static CCM_TARGET void ccm_aesni_final(union tlsx_aead_state *st,
				       const struct tlsx_aead_key *k, u8 *tag)
{
	struct tlsx_ccm_state *s = &st->ccm;

	(void)k;	/* E(A0) was made at init */
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
	/* a block of CBC-MAC or CTR state: 80 / 224 bytes down (tlsx.ko 256) */
	.stack_wipe = 256,
	.stack_wipe_sg = 448,
};
