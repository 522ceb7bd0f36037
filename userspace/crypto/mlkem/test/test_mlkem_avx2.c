// SPDX-License-Identifier: GPL-2.0
/*
 * test_mlkem_avx2.c - the AVX2 engine against the portable one, kernel
 * by kernel, on random inputs inside each operation's contract
 * (mlkem_poly.h): NTT, NTT^-1, the basecase products, the reductions,
 * SampleNTT's rejection step, CBD, ByteEncode12/ByteDecode12,
 * Compress/Decompress for du and dv, the message encodings, and the
 * four-lane Keccak job runner against the one-at-a-time one.  The two
 * engines do the same arithmetic, so every output must be equal bit
 * for bit: a wrong twiddle, shuffle or lane anywhere shows.  Skipped
 * (not passed) on a CPU without AVX2.
 */
#include <stdlib.h>

#include "kselftest_harness.h"
#include "hash/sha3.h"
#include "mlkem/mlkem_poly.h"

#define ROUNDS	200

static u64 rng_state = 0x9e3779b97f4a7c15ULL;

/* xorshift64*: reproducible, no libc rand() range limits */
static u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void rnd_bytes(u8 *p, size_t n)
{
	while (n--)
		*p++ = (u8)rnd();
}

/* Coefficients in [lo, hi]. */
static void rnd_poly(struct mlkem_poly *p, int lo, int hi)
{
	int i;

	for (i = 0; i < MLKEM_N; i++)
		p->c[i] = (int16_t)(lo + (int)(rnd() % (u64)(hi - lo + 1)));
}

#define G	(&mlkem_engine_generic)
#define V	(&mlkem_engine_avx2)

FIXTURE(avx2) {
	int unused;
};

FIXTURE_SETUP(avx2)
{
	if (!mlkem_avx2_usable())
		SKIP(return, "no AVX2 on this CPU: nothing to compare");
}

FIXTURE_TEARDOWN(avx2)
{
}

TEST_F(avx2, ntt_invntt)
{
	struct mlkem_poly a, b;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		rnd_poly(&a, -(MLKEM_Q - 1), MLKEM_Q - 1);
		b = a;
		G->ntt(a.c);
		V->ntt(b.c);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "NTT", r);
		}
		rnd_poly(&a, -(MLKEM_Q - 1), MLKEM_Q - 1);
		b = a;
		G->invntt(a.c);
		V->invntt(b.c);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "NTT^-1", r);
		}
	}
}

TEST_F(avx2, basemul_acc)
{
	struct mlkem_poly a[MLKEM_K], b[MLKEM_K], x, y;
	int r, k;

	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < MLKEM_K; k++) {
			rnd_poly(&a[k], -(MLKEM_Q - 1), MLKEM_Q - 1);
			rnd_poly(&b[k], 0, 4095);
		}
		G->basemul_acc(&x, a, b);
		V->basemul_acc(&y, a, b);
		ASSERT_EQ(0, memcmp(&x, &y, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "basemul_acc", r);
		}
	}
}

TEST_F(avx2, reductions)
{
	struct mlkem_poly a, b, c, d;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		/* canon and tomont take any int16 */
		rnd_poly(&a, -32768, 32767);
		b = a;
		G->canon(&a);
		V->canon(&b);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "canon", r);
		}
		rnd_poly(&a, -32768, 32767);
		b = a;
		G->tomont(&a);
		V->tomont(&b);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "tomont", r);
		}
		rnd_poly(&a, -32768, 32767);
		rnd_poly(&c, -32768, 32767);
		b = a;
		G->add(&a, &c);
		V->add(&b, &c);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "add", r);
		}
		d = a;
		G->sub(&a, &c);
		V->sub(&d, &c);
		ASSERT_EQ(0, memcmp(&a, &d, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "sub", r);
		}
	}
}

TEST_F(avx2, rej_take)
{
	u8 buf[3 * SHAKE128_RATE + MLKEM_REJ_SLACK];
	struct mlkem_poly a, b;
	int r, n0, na, nb;
	size_t len;

	for (r = 0; r < 4 * ROUNDS; r++) {
		rnd_bytes(buf, sizeof(buf));
		/* a few rounds nearly all rejected, a few all accepted */
		if (r % 16 == 1)
			memset(buf, 0xff, sizeof(buf));
		if (r % 16 == 2)
			memset(buf, 0x00, sizeof(buf));
		len = 3 * (rnd() % (sizeof(buf) / 3 - 2));
		n0 = (int)(rnd() % MLKEM_N);
		rnd_poly(&a, 0, 0);
		b = a;
		na = G->rej_take(a.c, n0, buf, len);
		nb = V->rej_take(b.c, n0, buf, len);
		ASSERT_EQ(na, nb);
		ASSERT_EQ(0, memcmp(a.c, b.c, na * sizeof(int16_t))) {
			TH_LOG("rej_take differs, round %d", r);
		}
	}
}

TEST_F(avx2, cbd2)
{
	u8 buf[64 * MLKEM_ETA1];
	struct mlkem_poly a, b;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		rnd_bytes(buf, sizeof(buf));
		G->cbd2(&a, buf);
		V->cbd2(&b, buf);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "cbd2", r);
		}
	}
}

TEST_F(avx2, encodings)
{
	u8 x[MLKEM_POLY_BYTES], y[MLKEM_POLY_BYTES];
	struct mlkem_poly a, b;
	int r, i;

	for (r = 0; r < ROUNDS; r++) {
		rnd_bytes(x, sizeof(x));
		G->decode12(&a, x);
		V->decode12(&b, x);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "decode12", r);
		}
		rnd_poly(&a, 0, MLKEM_Q - 1);
		G->encode12(x, &a);
		V->encode12(y, &a);
		ASSERT_EQ(0, memcmp(x, y, sizeof(x)));

		rnd_bytes(x, MLKEM_POLY_DU_BYTES);
		G->decompress_du(&a, x);
		V->decompress_du(&b, x);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "decompress_du", r);
		}
		rnd_bytes(x, MLKEM_POLY_DV_BYTES);
		G->decompress_dv(&a, x);
		V->decompress_dv(&b, x);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "decompress_dv", r);
		}
		rnd_bytes(x, MLKEM_SYM_BYTES);
		G->from_msg(&a, x);
		V->from_msg(&b, x);
		ASSERT_EQ(0, memcmp(&a, &b, sizeof(struct mlkem_poly))) {
			TH_LOG("%s differs, round %d", "from_msg", r);
		}
	}
	/* compression: every input in [0, q), thirteen polynomials' worth */
	for (r = 0; r * MLKEM_N < MLKEM_Q; r++) {
		for (i = 0; i < MLKEM_N; i++)
			a.c[i] = (int16_t)((r * MLKEM_N + i) % MLKEM_Q);
		/* and in a shuffled order, so each value visits each lane */
		for (i = MLKEM_N - 1; i > 0; i--) {
			int j = (int)(rnd() % (u64)(i + 1));
			int16_t t = a.c[i];

			a.c[i] = a.c[j];
			a.c[j] = t;
		}
		G->compress_du(x, &a);
		V->compress_du(y, &a);
		ASSERT_EQ(0, memcmp(x, y, MLKEM_POLY_DU_BYTES));
		G->compress_dv(x, &a);
		V->compress_dv(y, &a);
		ASSERT_EQ(0, memcmp(x, y, MLKEM_POLY_DV_BYTES));
		G->to_msg(x, &a);
		V->to_msg(y, &a);
		ASSERT_EQ(0, memcmp(x, y, MLKEM_SYM_BYTES));
	}
}

/*
 * The runners: a random mix of matrix samples, noise samples, H and J
 * of random lengths (0 to three blocks and more, split at random into
 * two parts) and whole blocks absorbed into a random sponge state, in
 * random order; the four-lane runner's outputs must be
 * the one-at-a-time runner's.
 */
#define MAX_JOBS	16
#define MAX_MSG		(5 * SHAKE256_RATE)

TEST_F(avx2, job_runner)
{
	static struct mlkem_poly pa[MAX_JOBS], pb[MAX_JOBS];
	static u8 msg[MAX_JOBS][MAX_MSG], seeds[MAX_JOBS][32];
	u8 oa[MAX_JOBS][32], ob[MAX_JOBS][32];
	struct mlkem_job ja[MAX_JOBS], jb[MAX_JOBS];
	struct tlsx_keccak ka[MAX_JOBS], kb[MAX_JOBS];
	int r, k, n;

	for (r = 0; r < ROUNDS / 4; r++) {
		n = 1 + (int)(rnd() % MAX_JOBS);
		memset(ja, 0, sizeof(ja));
		for (k = 0; k < n; k++) {
			size_t len = rnd() % MAX_MSG, cut = len ? rnd() % len : 0;

			rnd_bytes(seeds[k], 32);
			rnd_bytes(msg[k], len);
			ja[k].kind = (enum mlkem_job_kind)(rnd() % 5);
			if (ja[k].kind == MLKEM_JOB_ABSORB) {
				/* whole blocks onto a sponge already begun */
				len -= len % SHA3_256_RATE;
				cut = len;
				tlsx_sha3_256_init(&ka[k]);
				tlsx_keccak_absorb(&ka[k], seeds[k], 0);
				for (size_t i = 0; i < 25; i++)
					ka[k].s[i] = rnd();
				kb[k] = ka[k];
				ja[k].k = &ka[k];
			}
			ja[k].seed = seeds[k];
			ja[k].a = (u8)rnd();
			ja[k].b = (u8)rnd();
			ja[k].msg[0] = msg[k];
			ja[k].len[0] = cut;
			ja[k].msg[1] = msg[k] + cut;
			ja[k].len[1] = len - cut;
			jb[k] = ja[k];
			jb[k].k = &kb[k];
			ja[k].r = &pa[k];
			jb[k].r = &pb[k];
			ja[k].out = oa[k];
			jb[k].out = ob[k];
		}
		memset(pa, 0, sizeof(pa));
		memset(pb, 0x55, sizeof(pb));
		memset(oa, 0, sizeof(oa));
		memset(ob, 0x55, sizeof(ob));
		/* the scalar samplers use the chosen engine's kernels */
		mlkem_engine_force("generic");
		mlkem_run_jobs_scalar(G, ja, n);
		mlkem_run_jobs_x4(V, jb, n);
		for (k = 0; k < n; k++) {
			if (ja[k].kind == MLKEM_JOB_ABSORB) {
				ASSERT_EQ(0, memcmp(ka[k].s, kb[k].s,
						    sizeof(ka[k].s))) {
					TH_LOG("absorb job %d len %zu", k,
					       ja[k].len[0]);
				}
			} else if (ja[k].kind == MLKEM_JOB_MATRIX ||
				   ja[k].kind == MLKEM_JOB_CBD2) {
				ASSERT_EQ(0, memcmp(&pa[k], &pb[k], sizeof(struct mlkem_poly))) {
					TH_LOG("%s differs, round %d", "job poly", r);
				}
			} else {
				ASSERT_EQ(0, memcmp(oa[k], ob[k], 32)) {
					TH_LOG("hash job %d kind %d len %zu",
					       k, ja[k].kind,
					       ja[k].len[0] + ja[k].len[1]);
				}
			}
		}
	}
}

TEST_HARNESS_MAIN
