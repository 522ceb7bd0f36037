// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20-Poly1305 (RFC 8439 section 2.8): key setup, the AEAD
 * construction and the choice of engine.
 *
 * The construction, for key K, nonce N, associated data A and text P:
 *
 *	otk = first 32 bytes of ChaCha20(K, N, counter 0)
 *	C   = P XOR ChaCha20(K, N, counters 1, 2, ...)
 *	tag = Poly1305(otk, A || pad16(A) || C || pad16(C) ||
 *		       le64(len A) || le64(len C))
 *
 * Every engine shares this file's code and differs only in the ChaCha20
 * primitive it calls and the Poly1305 implementation it asks for.  The
 * text is processed in batches of the engine's natural width (16 blocks,
 * 1 KiB, for AVX-512): encryption XORs a batch with keystream and then
 * MACs that ciphertext while it is still in L1; decryption MACs the
 * ciphertext of a batch first and then decrypts it, so in-place operation
 * works both ways.
 *
 * Plain C: in the kernel this file is built without vector registers.  It
 * calls the SIMD primitives only from the ops of SIMD engines, which the
 * dispatcher runs inside a SIMD section.
 */
#include "platform.h"
#include "aead_impl.h"
#include "chacha_engines.h"

typedef void (*chacha_xor_fn)(const u32 key[8], const u32 nonce[3],
			      u32 counter, const u8 *src, u8 *dst,
			      size_t len);

int tlsx_chachapoly_setkey(struct tlsx_aead_key *k, const u8 *key,
			   size_t key_len, enum tlsx_aead_impl impl)
{
	struct tlsx_chachapoly_key *ck = &k->u.chachapoly;
	int i;

	if (key_len != TLSX_CHACHA_KEY_LEN)
		return -EINVAL;
	if (!tlsx_chachapoly_ops(impl))
		return -EOPNOTSUPP;

	for (i = 0; i < 8; i++)
		ck->k[i] = get_unaligned_le32(key + 4 * i);
	k->impl = impl;
	return 0;
}

static const u8 zero_pad[16];

/* Zero bytes that bring @len to a multiple of 16. */
static inline size_t pad16(u64 len)
{
	return (16 - (len & 15)) & 15;
}

static __always_inline void chachapoly_init(union tlsx_aead_state *ust,
					    const struct tlsx_aead_key *k,
					    const u8 *nonce, const u8 *ad,
					    size_t ad_len,
					    enum tlsx_aead_impl impl)
{
	struct tlsx_chachapoly_state *st = &ust->chachapoly;
	u8 block0[64];

	st->nonce[0] = get_unaligned_le32(nonce);
	st->nonce[1] = get_unaligned_le32(nonce + 4);
	st->nonce[2] = get_unaligned_le32(nonce + 8);
	st->counter = 1;
	st->ad_len = ad_len;
	st->text_len = 0;

	tlsx_chacha20_block_generic(k->u.chachapoly.k, st->nonce, 0, block0);
	tlsx_poly1305_init(&st->poly, block0, impl);
	memzero_explicit(block0, sizeof(block0));
	tlsx_poly1305_update(&st->poly, ad, ad_len);
	tlsx_poly1305_update(&st->poly, zero_pad, pad16(ad_len));
}

/*
 * Encrypt (@enc) or decrypt @len bytes in batches of @batch bytes (a
 * multiple of 64).  Every call but the last of an operation has @len a
 * multiple of 64, so the counter advances by whole blocks.
 */
static __always_inline void chachapoly_crypt(union tlsx_aead_state *ust,
					     const struct tlsx_aead_key *k,
					     const u8 *src, u8 *dst,
					     size_t len, chacha_xor_fn xor,
					     size_t batch, bool enc)
{
	struct tlsx_chachapoly_state *st = &ust->chachapoly;
	const u32 *key = k->u.chachapoly.k;
	size_t n;

	st->text_len += len;
	while (len) {
		n = len < batch ? len : batch;
		if (!enc)
			tlsx_poly1305_update(&st->poly, src, n);
		xor(key, st->nonce, st->counter, src, dst, n);
		if (enc)
			tlsx_poly1305_update(&st->poly, dst, n);
		st->counter += (u32)((n + 63) / 64);
		src += n;
		dst += n;
		len -= n;
	}
}

static void chachapoly_final(union tlsx_aead_state *ust,
			     const struct tlsx_aead_key *k, u8 *tag)
{
	struct tlsx_chachapoly_state *st = &ust->chachapoly;
	u8 lens[16];

	(void)k;
	put_unaligned_le64(st->ad_len, lens);
	put_unaligned_le64(st->text_len, lens + 8);
	tlsx_poly1305_update(&st->poly, zero_pad, pad16(st->text_len));
	tlsx_poly1305_update(&st->poly, lens, sizeof(lens));
	tlsx_poly1305_final(&st->poly, tag);
}

/*
 * One engine: init, encrypt and decrypt bound to a ChaCha20 primitive, a
 * batch size and the impl handed to Poly1305.
 */
#define CHACHAPOLY_ENGINE(NAME, IMPL, XOR, BATCH)			\
static void chachapoly_init_##NAME(union tlsx_aead_state *st,		\
				   const struct tlsx_aead_key *k,	\
				   const u8 *nonce, const u8 *ad,	\
				   size_t ad_len)			\
{									\
	chachapoly_init(st, k, nonce, ad, ad_len, IMPL);		\
}									\
static void chachapoly_encrypt_##NAME(union tlsx_aead_state *st,	\
				      const struct tlsx_aead_key *k,	\
				      const u8 *src, u8 *dst,		\
				      size_t len)			\
{									\
	chachapoly_crypt(st, k, src, dst, len, XOR, BATCH, true);	\
}									\
static void chachapoly_decrypt_##NAME(union tlsx_aead_state *st,	\
				      const struct tlsx_aead_key *k,	\
				      const u8 *src, u8 *dst,		\
				      size_t len)			\
{									\
	chachapoly_crypt(st, k, src, dst, len, XOR, BATCH, false);	\
}									\
static const struct tlsx_aead_ops chachapoly_##NAME##_ops = {		\
	.name = "chacha20-poly1305-" #NAME,				\
	.init = chachapoly_init_##NAME,					\
	.encrypt = chachapoly_encrypt_##NAME,				\
	.decrypt = chachapoly_decrypt_##NAME,				\
	.final = chachapoly_final,					\
}

CHACHAPOLY_ENGINE(generic, TLSX_IMPL_GENERIC, tlsx_chacha20_xor_generic,
		  256);
#ifdef TLSX_HAVE_CHACHA_SSSE3
CHACHAPOLY_ENGINE(ssse3, TLSX_IMPL_SSE, tlsx_chacha20_xor_ssse3, 512);
#endif
#ifdef TLSX_HAVE_CHACHA_AVX2
CHACHAPOLY_ENGINE(avx2, TLSX_IMPL_AVX2, tlsx_chacha20_xor_avx2, 1024);
#endif
#ifdef TLSX_HAVE_CHACHA_AVX512
CHACHAPOLY_ENGINE(avx512, TLSX_IMPL_AVX512, tlsx_chacha20_xor_avx512,
		  1024);
#endif

const struct tlsx_aead_ops *tlsx_chachapoly_ops(enum tlsx_aead_impl impl)
{
	switch (impl) {
	case TLSX_IMPL_GENERIC:
		return &chachapoly_generic_ops;
#ifdef TLSX_HAVE_CHACHA_SSSE3
	case TLSX_IMPL_SSE:
		return &chachapoly_ssse3_ops;
#endif
#ifdef TLSX_HAVE_CHACHA_AVX2
	case TLSX_IMPL_AVX2:
		return &chachapoly_avx2_ops;
#endif
#ifdef TLSX_HAVE_CHACHA_AVX512
	case TLSX_IMPL_AVX512:
		return &chachapoly_avx512_ops;
#endif
	default:
		return NULL;
	}
}
