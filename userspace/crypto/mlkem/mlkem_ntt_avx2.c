// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_ntt_avx2.c - the AVX2 NTT engine: mlkem_ntt_tmpl.h's loops
 * compiled for AVX2 and vectorized (16 coefficients a ymm register in
 * the butterflies of the layers with len >= 16, the reductions, the
 * basecase products).  Chosen at run time by mlkem_impl.c when the CPU
 * has AVX2; the portable engine is the same source, so the two agree by
 * construction and test_mlkem checks it.
 */
#include "mlkem/mlkem_poly.h"

/*
 * gcc vectorizes at -O3 (its -O2 does not); clang, which builds the
 * fuzz targets, reads only the target attribute and vectorizes at -O2.
 */
#ifndef __clang__
#pragma GCC push_options
#pragma GCC optimize("O3")
#endif

#define MLKEM_ATTR	__attribute__((target("avx2")))
#define MLKEM_FN(name)	name##_avx2
#include "mlkem/mlkem_ntt_tmpl.h"

#ifndef __clang__
#pragma GCC pop_options
#endif

const struct mlkem_engine mlkem_engine_avx2 = {
	.name = "avx2",
	.x4 = true,
	.ntt = ntt_avx2,
	.invntt = invntt_avx2,
	.basemul_acc = basemul_acc_avx2,
};
