// SPDX-License-Identifier: GPL-2.0
/*
 * AES-GCM with AES-NI and PCLMULQDQ on 128-bit vectors, VEX encoding:
 * the 128-bit engine on CPUs with AVX (gcm.c picks it over the legacy
 * SSE build of gcm_aesni.c when the CPU has AVX; the keys are the same).
 * The algorithm is in gcm_aesni_template.h.  Only xmm registers are
 * used, so no upper register state is left dirty.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#include "aead/platform.h"
#include "aead/gcm_engines.h"

#define AESNI_TARGET	__attribute__((target("avx,aes,pclmul")))
#define AESNI_OPS	tlsx_gcm_aesni_avx_ops
#define AESNI_NAME	"gcm-aesni-avx"

#include "aead/gcm_aesni_template.h"
