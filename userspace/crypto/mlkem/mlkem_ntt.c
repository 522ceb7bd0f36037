// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_ntt.c - the portable NTT engine (FIPS 203 4.3, algorithms 9-11)
 * and the twiddle table both engines use; mlkem_poly.h has the contract.
 */
#include "mlkem/mlkem_poly.h"

/*
 * zeta^BitRev7(i) * 2^16 mod q for i = 0..127 (zeta = 17), centered in
 * (-q/2, q/2): 4.3's zeta table in Montgomery form.  test_mlkem.c
 * recomputes it from the definition.
 */
const int16_t mlkem_zetas[128] = {
	-1044, -758, -359, -1517, 1493, 1422, 287, 202,
	-171, 622, 1577, 182, 962, -1202, -1474, 1468,
	573, -1325, 264, 383, -829, 1458, -1602, -130,
	-681, 1017, 732, 608, -1542, 411, -205, -1571,
	1223, 652, -552, 1015, -1293, 1491, -282, -1544,
	516, -8, -320, -666, -1618, -1162, 126, 1469,
	-853, -90, -271, 830, 107, -1421, -247, -951,
	-398, 961, -1508, -725, 448, -1065, 677, -1275,
	-1103, 430, 555, 843, -1251, 871, 1550, 105,
	422, 587, 177, -235, -291, -460, 1574, 1653,
	-246, 778, 1159, -147, -777, 1483, -602, 1119,
	-1590, 644, -872, 349, 418, 329, -156, -75,
	817, 1097, 603, 610, 1322, -1285, -1465, 384,
	-1215, -136, 1218, -1335, -874, 220, -1187, -1659,
	-1185, -1530, -1278, 794, -1510, -854, -870, 478,
	-108, -308, 996, 991, 958, -1460, 1522, 1628,
};

#define MLKEM_ATTR
#define MLKEM_FN(name)	name##_generic
#include "mlkem/mlkem_ntt_tmpl.h"

const struct mlkem_engine mlkem_engine_generic = {
	.name = "generic",
	.x4 = false,
	.ntt = ntt_generic,
	.invntt = invntt_generic,
	.basemul_acc = basemul_acc_generic,
	.run_jobs = mlkem_run_jobs_scalar,
	.rej_take = mlkem_rej_take_generic,
	.cbd2 = mlkem_cbd2_generic,
	.add = mlkem_poly_add,
	.sub = mlkem_poly_sub,
	.canon = mlkem_poly_canon,
	.tomont = mlkem_poly_tomont,
	.encode12 = mlkem_poly_encode12,
	.decode12 = mlkem_poly_decode12,
	.compress_du = mlkem_poly_compress_du,
	.decompress_du = mlkem_poly_decompress_du,
	.compress_dv = mlkem_poly_compress_dv,
	.decompress_dv = mlkem_poly_decompress_dv,
	.from_msg = mlkem_poly_from_msg,
	.to_msg = mlkem_poly_to_msg,
};
