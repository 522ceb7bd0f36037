// SPDX-License-Identifier: GPL-2.0
/*
 * p256_curve_adx.c - the P-256 curve operations on the MULX/ADX field
 * arithmetic (p256_field_adx.h) and AVX2 table scans; chosen at run time
 * when the CPU has BMI2, ADX and AVX2 (p256.c).
 */
#include "p256/p256_field.h"
#include "p256/p256_field_adx.h"

#define fe_mul p256_fe_mul_adx
#define fe_sqr p256_fe_sqr_adx
#define fe_add p256_fe_add_adx
#define fe_sub p256_fe_sub_adx
#define fe_half p256_fe_half_adx
#define P256_SC_MUL p256_sc_mul_adx
#define P256_SC_SQR p256_sc_sqr_adx
#define P256_SELECT_AFFINE p256_select_affine_avx2
#define P256_SELECT_JACOBIAN p256_select_jacobian_avx2
#define P256_CURVE_OPS p256_curve_adx
#define P256_CURVE_NAME "adx"
/* the field elements its paths spill reach about 3 KiB down (ECDH) */
#define P256_CURVE_STACK_WIPE 4096
#define P256_TARGET __attribute__((target("bmi2,adx")))

#include "p256/p256_curve.h"
