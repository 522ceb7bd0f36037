/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlkem_ntt_tmpl.h - the NTT engine's code, compiled once per engine:
 * mlkem_ntt.c (portable) and mlkem_ntt_avx2.c (the same C compiled for
 * AVX2 and vectorized by the compiler), each defining MLKEM_FN(name)
 * and MLKEM_ATTR (the functions' target attribute) before including
 * it.  No include guard, on purpose.
 */

/* R^2 / 128 mod q = 1441: NTT^-1's 128^-1 times the R it restores. */
#define MLKEM_INVNTT_F	1441

/*
 * Algorithm 9: Cooley-Tukey butterflies, len 128 down to 2.  Each layer
 * adds at most q to a coefficient's size: 8q < 2^15 after seven, then
 * one Barrett reduction.
 */
static MLKEM_ATTR void MLKEM_FN(ntt)(int16_t r[MLKEM_N])
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
static MLKEM_ATTR void MLKEM_FN(invntt)(int16_t r[MLKEM_N])
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
static MLKEM_ATTR void MLKEM_FN(basemul_acc)(struct mlkem_poly *r,
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

#undef MLKEM_INVNTT_F
#undef MLKEM_ATTR
