// SPDX-License-Identifier: GPL-2.0
/*
 * AES-GCM with VAES and VPCLMULQDQ on 256-bit vectors
 * (AVX2): two blocks per instruction, 16 blocks per main-loop batch.  The
 * algorithm is in gcm_vaes_template.h.  Without AVX-512 there are no byte
 * masks, so the last, partial vector of a message goes through a 32-byte
 * stack buffer.
 *
 * This engine requires VPCLMULQDQ as well as VAES.  The qemu TCG guest
 * used for module tests has VAES but not VPCLMULQDQ, so it will not run
 * here; a VAES + 128-bit PCLMULQDQ variant would let it, but no real CPU
 * has VAES without VPCLMULQDQ (Ice Lake, Zen 3 and later have both), and
 * the 128-bit AES-NI engine covers the VM.  The engine is tested on the
 * host, which has both.
 */
#include "aead/platform.h"
#include "aead/gcm_engines.h"

#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#define GCM_VW		256
/*
 * 16 blocks (8 ymm) per batch: the most that fits the 16 ymm registers
 * (8 AES states, 3 GHASH sums, the data vector, the byte-swap mask...).
 * The Karatsuba key halves are stored, saving registers in the loop.
 */
#define GCM_NB		16
#define GCM_KX_TABLE
#define GCM_ISA		"avx2,vaes,vpclmulqdq,aes,pclmul"
#define GCM_TARGET	__attribute__((target(GCM_ISA)))

#define gvec		__m256i

/* Vector primitives for gcm_vaes_template.h. */
#define v_load(p)		_mm256_loadu_si256((const void *)(p))
#define v_store(p, v)		_mm256_storeu_si256((void *)(p), (v))
#define v_xor(a, b)		_mm256_xor_si256((a), (b))
#define v_xor3(a, b, c)		v_xor(v_xor((a), (b)), (c))
#define v_aesenc(x, k)		_mm256_aesenc_epi128((x), (k))
#define v_aesenclast(x, k)	_mm256_aesenclast_epi128((x), (k))
#define v_clmul(a, b, imm)	_mm256_clmulepi64_epi128((a), (b), (imm))
#define v_shuffle8(x, m)	_mm256_shuffle_epi8((x), (m))
#define v_bcast128(x)		_mm256_broadcastsi128_si256(x)
#define v_set1_64(x)		_mm256_set1_epi64x((long long)(x))
#define v_add32(a, b)		_mm256_add_epi32((a), (b))
#define v_swap64(x)		_mm256_shuffle_epi32((x), 0x4e)
#define GCM_VREG(x)		"x"(x)	/* asm operand: a vector register */
#define v_pin(x)		__asm__("" : "+" GCM_VREG(x))
#define v_zext128(x)		_mm256_zextsi128_si256(x)
#define v_ctr_inc(n)		_mm256_set_epi32(0, 0, 0, (n), 0, 0, 0, (n))
#define v_ctr_lane_index()	_mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0)

/* The first @n (< 32) bytes at @p, the rest zero. */
static __always_inline GCM_TARGET
__m256i v_load_part(const u8 *p, size_t n)
{
	u8 buf[32] __aligned(32);
	size_t i;
	__m256i v;

	v_store(buf, _mm256_setzero_si256());
	for (i = 0; i < n; i++)
		buf[i] = p[i];
	v = _mm256_load_si256((const void *)buf);
	memzero_explicit(buf, sizeof(buf));	/* it held text */
	return v;
}

/* Store the first @n (< 32) bytes of @v at @p. */
static __always_inline GCM_TARGET
void v_store_part(u8 *p, __m256i v, size_t n)
{
	u8 buf[32] __aligned(32);
	size_t i;

	_mm256_store_si256((void *)buf, v);
	for (i = 0; i < n; i++)
		p[i] = buf[i];
	memzero_explicit(buf, sizeof(buf));
}

/* @v with the bytes from @n (< 32) on cleared. */
static __always_inline GCM_TARGET
__m256i v_zero_beyond(__m256i v, size_t n)
{
	static const u8 ones_then_zeros[64] __aligned(32) = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	};

	return _mm256_and_si256(v, v_load(ones_then_zeros + 32 - n));
}

static __always_inline GCM_TARGET
__m128i v_fold128(__m256i v)
{
	return _mm_xor_si128(_mm256_castsi256_si128(v),
			     _mm256_extracti128_si256(v, 1));
}

#include "aead/gcm_vaes_template.h"

GCM_TARGET void tlsx_gcm_precompute_vaes_avx2(struct tlsx_gcm_key *k)
{
	gcm_precompute(k);
}

const struct tlsx_aead_ops tlsx_gcm_vaes_avx2_ops = {
	.name = "avx2",
	.init = gcm_init,
	.encrypt = gcm_encrypt,
	.decrypt = gcm_decrypt,
	.final = gcm_final,
	.update_sg = gcm_update_sg,
	/*
	 * the GHASH sums its 16 registers spill: to 488 / 1104 bytes down
	 * (update_sg()'s frame holds a batch of text), 48 more or less with
	 * the stack's alignment (32-byte frames)
	 */
	.stack_wipe = 704,
	.stack_wipe_sg = 1536,
};
