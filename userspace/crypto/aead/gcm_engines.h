/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between gcm.c (setkey and engine
 * choice) and the AES-GCM engines gcm_generic.c, gcm_aesni.c,
 * gcm_aesni_avx.c, gcm_vaes_avx2.c and gcm_avx512.c.
 *
 * Each SIMD engine file defines, for its stem NAME (aesni, vaes_avx2,
 * avx512):
 *
 *   void tlsx_gcm_precompute_NAME(struct tlsx_gcm_key *k);
 *	Fill k->simd from k->rk, k->rounds and k->h (already set, H in the
 *	spec's byte order).  Called by tlsx_gcm_setkey() inside a SIMD
 *	section.
 *
 *   const struct tlsx_aead_ops tlsx_gcm_NAME_ops;
 *	The engine (data only).
 *
 * All engines share the layout of struct tlsx_gcm_state (see gcm.h): the
 * GHASH accumulator in the spec's byte order and the next counter as a
 * number, so the dispatcher may switch engines between two update calls
 * (e.g. to the generic engine when the FPU becomes unusable).
 */
#ifndef TLSX_CRYPTO_GCM_ENGINES_H
#define TLSX_CRYPTO_GCM_ENGINES_H

#include "aead/aead_impl.h"

/*
 * TLSX_GCM_J0() - J0 = nonce || 0^31 || 1 (SP 800-38D section 7.1, a
 * 96-bit IV) as an __m128i, for the SIMD engines (which include
 * <immintrin.h>).  The nonce is read as three 32-bit words because the
 * caller has just written it: the IV with the sequence number XORed in,
 * as one 8-byte store at offset 4 (RFC 8446 section 5.3), or a 12-byte
 * copy.  A load that spans two stores, or a store and older bytes,
 * cannot take its data from them and waits until they reach the cache:
 * an 8-byte load of bytes 0-7 after an 8-byte store to bytes 4-11 cost
 * 16 ns a 64-byte record on Zen 5 (docs/perf-crypto.md).  A 32-bit word
 * of the nonce lies inside any one of those stores.
 */
#define TLSX_GCM_J0(nonce)						\
	_mm_set_epi32(0x01000000, (int)get_unaligned_le32((nonce) + 8),	\
		      (int)get_unaligned_le32((nonce) + 4),		\
		      (int)get_unaligned_le32(nonce))

/* Portable engine and primitives (gcm_generic.c, plain C). */

/*
 * tlsx_aes_expand_key() - FIPS-197 key expansion, constant time.
 * @key_len is 16 or 32.  Writes (rounds + 1) round keys to @rk and
 * returns the number of rounds (10 or 14).
 */
u32 tlsx_aes_expand_key(u8 rk[15 * 16], const u8 *key, size_t key_len);

/* tlsx_aes_encrypt_block() - one AES block with the key of @k, portable. */
void tlsx_aes_encrypt_block(const struct tlsx_gcm_key *k, const u8 in[16],
			    u8 out[16]);

/*
 * The bitsliced AES of gcm_generic.c, also used by the portable AES-CCM
 * (ccm_generic.c): round keys in bit planes, set up per operation by
 * tlsx_aes_planes_setkey() from FIPS-197 round keys @rk ((@rounds + 1)
 * 16-byte keys), and four blocks per call.  Constant time; the caller
 * wipes @pk after use.
 */
#define TLSX_AES_MAX_ROUNDS	14

struct tlsx_aes_planes {
	u64 w[TLSX_AES_MAX_ROUNDS + 1][2];
	u32 rounds;
};

void tlsx_aes_planes_setkey(struct tlsx_aes_planes *pk, const u8 *rk,
			    u32 rounds);
/* Encrypt four blocks from @in to @out (may be equal). */
void tlsx_aes_encrypt4(const struct tlsx_aes_planes *pk, const u8 in[64],
		       u8 out[64]);

extern const struct tlsx_aead_ops tlsx_gcm_generic_ops;

/*
 * tlsx_aes_setkey_aesni() - the key expansion of tlsx_aes_expand_key()
 * (the same bytes in @rk, the same return) with AES-NI, and, when @h is
 * not NULL, H = AES_K(0^128) into its 16 bytes.  Legacy SSE encoding;
 * tlsx_aes_setkey_aesni_avx() is the VEX build, for CPUs with AVX.  Only
 * inside a SIMD section, on a CPU with AES-NI (aes_keyexp_aesni.c).
 */
u32 tlsx_aes_setkey_aesni(u8 rk[15 * 16], const u8 *key, size_t key_len,
			  u8 *h);
u32 tlsx_aes_setkey_aesni_avx(u8 rk[15 * 16], const u8 *key, size_t key_len,
			      u8 *h);

/*
 * The AES-NI key setup for @impl (not GENERIC): the VEX build where the
 * CPU has AVX, whose engines are VEX-encoded too.
 */
static inline u32 tlsx_aes_setkey_simd(u8 rk[15 * 16], const u8 *key,
				       size_t key_len, u8 *h)
{
	if (tlsx_cpu_features()->avx)
		return tlsx_aes_setkey_aesni_avx(rk, key, key_len, h);
	return tlsx_aes_setkey_aesni(rk, key, key_len, h);
}

/*
 * AES-NI + PCLMULQDQ on 128-bit vectors: legacy SSE encoding
 * (gcm_aesni.c) and VEX encoding (gcm_aesni_avx.c), one key layout with
 * the precomputation of gcm_aesni.c.
 */
void tlsx_gcm_precompute_aesni(struct tlsx_gcm_key *k);
extern const struct tlsx_aead_ops tlsx_gcm_aesni_ops;
extern const struct tlsx_aead_ops tlsx_gcm_aesni_avx_ops;

/* VAES + VPCLMULQDQ on 256-bit vectors (gcm_vaes_avx2.c). */
void tlsx_gcm_precompute_vaes_avx2(struct tlsx_gcm_key *k);
extern const struct tlsx_aead_ops tlsx_gcm_vaes_avx2_ops;

/* AVX-512 (gcm_avx512.c). */
void tlsx_gcm_precompute_avx512(struct tlsx_gcm_key *k);
extern const struct tlsx_aead_ops tlsx_gcm_avx512_ops;

#endif /* TLSX_CRYPTO_GCM_ENGINES_H */
