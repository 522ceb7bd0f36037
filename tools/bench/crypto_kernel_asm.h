/* SPDX-License-Identifier: GPL-2.0 */
/*
 * crypto_kernel_asm.h - the entry points of Linux 6.12's x86 AEAD
 * assembly (build/ksrc/arch/x86/crypto), as the kernel's glue declares
 * them: the kernel anchor's shim (crypto_kernel.c) calls them.
 */
#ifndef TLSX_BENCH_CRYPTO_KERNEL_ASM_H
#define TLSX_BENCH_CRYPTO_KERNEL_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

void aes_gcm_precompute_vaes_avx10_256(void *key);
void aes_gcm_precompute_vaes_avx10_512(void *key);
void aes_gcm_precompute_aesni_avx(void *key);
void aes_gcm_precompute_aesni(void *key);
void aes_gcm_aad_update_vaes_avx10(const void *key, u8 acc[16],
				   const u8 *aad, int aadlen);
void aes_gcm_aad_update_aesni_avx(const void *key, u8 acc[16],
				  const u8 *aad, int aadlen);
void aes_gcm_aad_update_aesni(const void *key, u8 acc[16], const u8 *aad,
			      int aadlen);
#define GCM_UPDATE(name)						\
	void name(const void *key, const u32 le_ctr[4], u8 acc[16],	\
		  const u8 *src, u8 *dst, int len)
GCM_UPDATE(aes_gcm_enc_update_vaes_avx10_512);
GCM_UPDATE(aes_gcm_enc_update_vaes_avx10_256);
GCM_UPDATE(aes_gcm_enc_update_aesni_avx);
GCM_UPDATE(aes_gcm_enc_update_aesni);
GCM_UPDATE(aes_gcm_dec_update_vaes_avx10_512);
GCM_UPDATE(aes_gcm_dec_update_vaes_avx10_256);
GCM_UPDATE(aes_gcm_dec_update_aesni_avx);
GCM_UPDATE(aes_gcm_dec_update_aesni);
#define GCM_ENC_FINAL(name)						\
	void name(const void *key, const u32 le_ctr[4], u8 acc[16],	\
		  u64 aadlen, u64 datalen)
GCM_ENC_FINAL(aes_gcm_enc_final_vaes_avx10);
GCM_ENC_FINAL(aes_gcm_enc_final_aesni_avx);
GCM_ENC_FINAL(aes_gcm_enc_final_aesni);
#define GCM_DEC_FINAL(name)						\
	bool name(const void *key, const u32 le_ctr[4], const u8 acc[16], \
		  u64 aadlen, u64 datalen, const u8 tag[16], int taglen)
GCM_DEC_FINAL(aes_gcm_dec_final_vaes_avx10);
GCM_DEC_FINAL(aes_gcm_dec_final_aesni_avx);
GCM_DEC_FINAL(aes_gcm_dec_final_aesni);

#define CHACHA_XOR(name)						\
	void name(u32 *state, u8 *dst, const u8 *src, unsigned int len,	\
		  int nrounds)
CHACHA_XOR(chacha_2block_xor_avx512vl);
CHACHA_XOR(chacha_4block_xor_avx512vl);
CHACHA_XOR(chacha_8block_xor_avx512vl);
CHACHA_XOR(chacha_2block_xor_avx2);
CHACHA_XOR(chacha_4block_xor_avx2);
CHACHA_XOR(chacha_8block_xor_avx2);
CHACHA_XOR(chacha_block_xor_ssse3);
CHACHA_XOR(chacha_4block_xor_ssse3);

void poly1305_init_x86_64(void *ctx, const u8 key[16]);
void poly1305_blocks_x86_64(void *ctx, const u8 *inp, size_t len, u32 padbit);
void poly1305_blocks_avx2(void *ctx, const u8 *inp, size_t len, u32 padbit);
void poly1305_blocks_avx512(void *ctx, const u8 *inp, size_t len,
			    u32 padbit);
void poly1305_emit_avx(void *ctx, u8 mac[16], const u32 nonce[4]);

#endif
