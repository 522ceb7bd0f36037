// SPDX-License-Identifier: GPL-2.0
/*
 * p256_curve_generic.c - the P-256 curve operations on the portable
 * field arithmetic (unsigned __int128) and portable table scans.
 */
#include "p256/p256_field.h"

#define fe_mul p256_fe_mul_generic
#define fe_sqr p256_fe_sqr_generic
#define P256_SC_MUL p256_sc_mul_generic
#define P256_SC_SQR p256_sc_sqr_generic
#define P256_SELECT_AFFINE p256_select_affine
#define P256_SELECT_JACOBIAN p256_select_jacobian
#define P256_CURVE_OPS p256_curve_generic
#define P256_CURVE_NAME "generic"
/* the field elements its paths spill reach about 8.5 KiB down (ECDH) */
#define P256_CURVE_STACK_WIPE (11 * 1024)

#include "p256/p256_curve.h"
