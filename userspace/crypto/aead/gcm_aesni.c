// SPDX-License-Identifier: GPL-2.0
/*
 * AES-GCM with AES-NI and PCLMULQDQ on 128-bit vectors, legacy SSE
 * encoding: the engine for CPUs with AES-NI but no AVX.  The algorithm is
 * in gcm_aesni_template.h; this build also provides the key
 * precomputation both builds use.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#include "aead/platform.h"
#include "aead/gcm_engines.h"

#define AESNI_TARGET		__attribute__((target("sse2,ssse3,aes,pclmul")))
#define AESNI_OPS		tlsx_gcm_aesni_ops
#define AESNI_NAME		"gcm-aesni"
#define AESNI_PRECOMPUTE	tlsx_gcm_precompute_aesni
#define AESNI_SPLIT_UPDATE	/* update() per key size (the template) */

#include "aead/gcm_aesni_template.h"
