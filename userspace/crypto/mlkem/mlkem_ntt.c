// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_ntt.c - the portable engine (FIPS 203 4.3, algorithms 9-11, and
 * the table of the rest of its operations) and the twiddle table both
 * engines use; mlkem_poly.h has the contract.  mlkem_ntt_avx2.c does
 * the same arithmetic, step for step, on vectors.
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

/* R^2 / 128 mod q = 1441: NTT^-1's 128^-1 times the R it restores. */
#define MLKEM_INVNTT_F	1441

/*
 * Algorithm 9: Cooley-Tukey butterflies, len 128 down to 2.  Each layer
 * adds at most q to a coefficient's size: 8q < 2^15 after seven, then
 * one Barrett reduction.
 */
static void ntt_generic(int16_t r[MLKEM_N])
{
	unsigned int len, start, j, k = 1;
	int16_t t, zeta;

	for (len = 128; len >= 2; len >>= 1) {
		for (start = 0; start < MLKEM_N; start = j + len) {
			zeta = mlkem_zetas[k++];
			for (j = start; j < start + len; j++) {
				t = mlkem_fqmul(zeta, r[j + len]);
				r[j + len] = (int16_t)(r[j] - t);
				r[j] = (int16_t)(r[j] + t);
			}
		}
	}
	for (j = 0; j < MLKEM_N; j++)
		r[j] = mlkem_barrett_reduce(r[j]);
}

/*
 * Algorithm 10: Gentleman-Sande butterflies, len 2 up to 128, the
 * twiddles in reverse (zetas[127 - i] = -zetas[i]^-1 up to the bit
 * reversal); the sums Barrett-reduced as they go.  The final factor is
 * R^2 / 128 mod q = 1441: 128^-1 (3303) and the R the caller's
 * basecase products lack.
 */
static void invntt_generic(int16_t r[MLKEM_N])
{
	unsigned int len, start, j, k = 127;
	int16_t t, zeta;

	for (len = 2; len <= 128; len <<= 1) {
		for (start = 0; start < MLKEM_N; start = j + len) {
			zeta = mlkem_zetas[k--];
			for (j = start; j < start + len; j++) {
				t = r[j];
				r[j] = mlkem_barrett_reduce((int16_t)(t +
								      r[j + len]));
				r[j + len] = mlkem_fqmul(zeta, (int16_t)(r[j + len] -
								     t));
			}
		}
	}
	for (j = 0; j < MLKEM_N; j++)
		r[j] = mlkem_fqmul(r[j], MLKEM_INVNTT_F);
}

/*
 * Algorithm 11 over 128 degree-1 factors X^2 - gamma: the pair at 4i
 * has gamma = zetas[64 + i] / R, the pair at 4i + 2 its negative.  The
 * K products of a pair are summed in 32 bits and reduced once:
 * |a0 b0| < q 2^12 and |(a1 b1 / R) gamma| < q^2 / 2, so the sum of
 * three stays below 2^26, inside Montgomery reduction's q 2^15; then
 * one Barrett reduction.
 */
static void basemul_acc_generic(struct mlkem_poly *r,
				const struct mlkem_poly *a,
				const struct mlkem_poly *b)
{
	int i, k, s;

	for (i = 0; i < MLKEM_N / 4; i++) {
		for (s = 0; s < 2; s++) {
			int32_t g = s ? -mlkem_zetas[64 + i] :
				    mlkem_zetas[64 + i];
			int o = 4 * i + 2 * s;
			int32_t r0 = 0, r1 = 0;

			for (k = 0; k < MLKEM_K; k++) {
				const int16_t *x = a[k].c + o, *y = b[k].c + o;

				r0 += (int32_t)x[0] * y[0] +
				      (int32_t)mlkem_fqmul(x[1], y[1]) * g;
				r1 += (int32_t)x[0] * y[1] +
				      (int32_t)x[1] * y[0];
			}
			r->c[o] = mlkem_barrett_reduce(mlkem_mont_reduce(r0));
			r->c[o + 1] = mlkem_barrett_reduce(mlkem_mont_reduce(r1));
		}
	}
}


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
