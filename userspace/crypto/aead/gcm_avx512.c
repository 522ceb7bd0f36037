// SPDX-License-Identifier: GPL-2.0
/*
 * AES-GCM with VAES and VPCLMULQDQ on 512-bit vectors
 * (AVX-512F/BW/VL): four blocks per instruction, 32 blocks per main-loop
 * batch, byte-masked loads and stores for the last vector of a message.
 * The algorithm is in gcm_vaes_template.h.
 *
 * Where it pays: gcm.c picks this engine only when the CPU reports
 * struct tlsx_cpu.zmm_ok (AMD Zen 4 and later, Intel from Ice Lake on),
 * i.e. where 512-bit instructions run without a clock penalty; elsewhere
 * the 256-bit engine (gcm_vaes_avx2.c) is chosen.  A 64-byte record is a
 * single zmm vector here, so short messages need no narrower path.
 */
#include "aead/platform.h"
#include "aead/gcm_engines.h"

#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#define GCM_VW		512
/*
 * 32 blocks (8 zmm) per batch: the GHASH accumulator's dependency chain
 * (multiply, reduce, sum the lanes) then costs half as much per byte as
 * with 16, which measured 13% faster at 16 KiB.
 */
#define GCM_NB		32
/*
 * 33 powers of H: the AD block and a batch are one sum of products and
 * one reduction (gcm_mid()'s first group; gcm_short() needs 32).  With
 * 66, gcm_mid() reduced once per 1 KiB record instead of twice, for
 * 1,088 more bytes of key and no speed measurable (docs/perf-crypto.md).
 */
#define GCM_NPOW	33
/*
 * The Karatsuba halves (k.lo ^ k.hi) of every power are stored too (1152
 * bytes in all) rather than computed per vector: on Zen 5 plain vector
 * instructions share the execution pipes with VAES and VPCLMULQDQ
 * (tlsx-bench uarch), so the two per vector they cost are worth a table.
 */
#define GCM_KX_TABLE
#define GCM_ONESHOT
#define GCM_ISA		"avx512f,avx512bw,avx512vl,avx2,vaes,vpclmulqdq,aes,pclmul"
#define GCM_TARGET	__attribute__((target(GCM_ISA)))

#define gvec		__m512i

/* Vector primitives for gcm_vaes_template.h. */
#define v_load(p)		_mm512_loadu_si512((const void *)(p))
#define v_store(p, v)		_mm512_storeu_si512((void *)(p), (v))
#define v_xor(a, b)		_mm512_xor_si512((a), (b))
#define v_xor3(a, b, c)		_mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define v_aesenc(x, k)		_mm512_aesenc_epi128((x), (k))
#define v_aesenclast(x, k)	_mm512_aesenclast_epi128((x), (k))
#define v_clmul(a, b, imm)	_mm512_clmulepi64_epi128((a), (b), (imm))
#define v_shuffle8(x, m)	_mm512_shuffle_epi8((x), (m))
#define v_bcast128(x)		_mm512_broadcast_i32x4(x)
#define v_set1_64(x)		_mm512_set1_epi64((long long)(x))
#define v_add32(a, b)		_mm512_add_epi32((a), (b))
#define v_swap64(x)		_mm512_shuffle_epi32((x), _MM_PERM_BADC)
#define GCM_VREG(x)		"v"(x)	/* asm operand: a vector register */
#define v_pin(x)		__asm__("" : "+" GCM_VREG(x))
#define v_zext128(x)		_mm512_zextsi128_si512(x)
#define v_ctr_inc(n)		_mm512_set_epi32(0, 0, 0, (n), 0, 0, 0, (n), \
						 0, 0, 0, (n), 0, 0, 0, (n))
#define v_ctr_lane_index()	_mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, \
						 0, 0, 0, 1, 0, 0, 0, 0)

/* The byte mask of the first @n (< 64) bytes of a vector. */
static __always_inline __mmask64 gcm_byte_mask(size_t n)
{
	return ((__mmask64)1 << n) - 1;
}

#define v_load_part(p, n) \
	_mm512_maskz_loadu_epi8(gcm_byte_mask(n), (const void *)(p))
#define v_store_part(p, v, n) \
	_mm512_mask_storeu_epi8((void *)(p), gcm_byte_mask(n), (v))
#define v_zero_beyond(v, n)	_mm512_maskz_mov_epi8(gcm_byte_mask(n), (v))

static __always_inline GCM_TARGET
__m128i v_fold128(__m512i v)
{
	__m256i t = _mm256_xor_si256(_mm512_castsi512_si256(v),
				     _mm512_extracti64x4_epi64(v, 1));

	return _mm_xor_si128(_mm256_castsi256_si128(t),
			     _mm256_extracti128_si256(t, 1));
}

#include "aead/gcm_vaes_template.h"

GCM_TARGET void tlsx_gcm_precompute_avx512(struct tlsx_gcm_key *k)
{
	gcm_precompute(k);
}

const struct tlsx_aead_ops tlsx_gcm_avx512_ops = {
	.name = "avx512",
	.init = gcm_init,
	.encrypt = gcm_encrypt,
	.decrypt = gcm_decrypt,
	.final = gcm_final,
	.oneshot = gcm_oneshot,
	.update_sg = gcm_update_sg,
	/* leaves nothing in the stack (test_aead_stack): no wipe */
};
