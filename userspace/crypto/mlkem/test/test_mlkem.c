// SPDX-License-Identifier: GPL-2.0
/*
 * test_mlkem.c - ML-KEM-768 (FIPS 203) on every NTT engine this CPU has:
 *
 *  - the pieces against their definitions: the zeta table, Compress and
 *    Decompress for every input, NTT then NTT^-1 is the identity, the
 *    basecase product against schoolbook multiplication mod X^256 + 1;
 *  - C2SP CCTV's vectors (mlkem_vectors.h says where they are read
 *    from): every intermediate value of KeyGen, Encaps and Decaps; the
 *    modulus-check keys (each refused by the check and by Encaps); the
 *    strcmp vectors; the unlucky-sampling vectors (SampleNTT reads more
 *    than 575 bytes);
 *  - the accumulated pq-crystals run: 10,000 tests whose outputs hash to
 *    f7db260e...b548d3 (TLSX_MLKEM_ACCUM=1000000 runs the million, for
 *    `make test-long`);
 *  - implicit rejection: a changed ciphertext decapsulates to J(z || c),
 *    never to the shared key; the dk hash check.
 */
#include <stdlib.h>

#include "kselftest_harness.h"
#include "hash/sha3.h"
#include "mlkem/mlkem.h"
#include "mlkem/mlkem_kpke.h"
#include "mlkem/test/mlkem_vectors.h"

static const char *const engines[] = { "generic", "avx2" };

/* --- the pieces --------------------------------------------------------- */

static int pow_mod(int b, int e)
{
	int r = 1;

	while (e--)
		r = r * b % MLKEM_Q;
	return r;
}

static int brv7(int i)
{
	int r = 0, k;

	for (k = 0; k < 7; k++)
		if (i & (1 << k))
			r |= 1 << (6 - k);
	return r;
}

TEST(zeta_table)
{
	int i;

	for (i = 0; i < 128; i++) {
		int want = pow_mod(17, brv7(i)) * 65536 % MLKEM_Q;
		int got = (mlkem_zetas[i] + MLKEM_Q) % MLKEM_Q;

		ASSERT_EQ(want, got) {
			TH_LOG("zeta %d", i);
		}
	}
}

TEST(compress_every_input)
{
	static const unsigned int ds[] = { 1, 4, 10, 11 };
	unsigned int k, x, y;

	for (k = 0; k < ARRAY_SIZE(ds); k++) {
		unsigned int d = ds[k];

		for (x = 0; x < MLKEM_Q; x++) {
			/* round(2^d x / q): floor((2^(d+1) x + q) / 2q) */
			unsigned int want = (((x << (d + 1)) + MLKEM_Q) /
					     (2 * MLKEM_Q)) & ((1u << d) - 1);

			ASSERT_EQ(want, mlkem_compress((uint16_t)x, d));
		}
		for (y = 0; y < (1u << d); y++) {
			unsigned int want = ((y * MLKEM_Q << 1) + (1u << d)) >>
					    (d + 1);

			ASSERT_EQ(want, mlkem_decompress((uint16_t)y, d));
		}
	}
}

/* r = a * b in Z_q[X]/(X^256 + 1), schoolbook. */
static void schoolbook(int32_t r[MLKEM_N], const int16_t *a, const int16_t *b)
{
	int i, j;

	memset(r, 0, MLKEM_N * sizeof(*r));
	for (i = 0; i < MLKEM_N; i++)
		for (j = 0; j < MLKEM_N; j++) {
			int32_t p = (int32_t)a[i] * b[j] % MLKEM_Q;

			if (i + j < MLKEM_N)
				r[i + j] = (r[i + j] + p) % MLKEM_Q;
			else
				r[i + j - MLKEM_N] = (r[i + j - MLKEM_N] - p +
						      MLKEM_Q) % MLKEM_Q;
		}
}

TEST(ntt_products)
{
	struct mlkem_poly a[MLKEM_K], b[MLKEM_K], c, orig;
	int32_t want[MLKEM_N], one[MLKEM_N];
	unsigned int e;
	int i, k, iter;

	srand(203);
	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		if (mlkem_engine_force(engines[e]))
			continue;
		for (iter = 0; iter < 20; iter++) {
			memset(want, 0, sizeof(want));
			for (k = 0; k < MLKEM_K; k++) {
				for (i = 0; i < MLKEM_N; i++) {
					a[k].c[i] = (int16_t)(rand() % MLKEM_Q);
					b[k].c[i] = (int16_t)(rand() % MLKEM_Q);
				}
				schoolbook(one, a[k].c, b[k].c);
				for (i = 0; i < MLKEM_N; i++)
					want[i] = (want[i] + one[i]) % MLKEM_Q;
			}
			orig = a[0];
			for (k = 0; k < MLKEM_K; k++) {
				mlkem_engine()->ntt(a[k].c);
				mlkem_engine()->ntt(b[k].c);
			}
			mlkem_engine()->basemul_acc(&c, a, b);
			mlkem_engine()->invntt(c.c);
			mlkem_poly_canon(&c);
			for (i = 0; i < MLKEM_N; i++)
				ASSERT_EQ(want[i], c.c[i]) {
					TH_LOG("%s iter %d coeff %d",
					       engines[e], iter, i);
				}
			/* NTT^-1 carries R: tomont(R^-1) undoes it. */
			for (i = 0; i < MLKEM_N; i++)
				a[0].c[i] = mlkem_fqmul(a[0].c[i], 1);
			mlkem_engine()->invntt(a[0].c);
			mlkem_poly_canon(&a[0]);
			ASSERT_EQ(0, memcmp(&a[0], &orig, sizeof(orig)));
		}
	}
	mlkem_engine_force("generic");
}

/* --- CCTV intermediate values ------------------------------------------- */

#define MAX_VAL	(MLKEM_K * MLKEM_K * MLKEM_POLY_BYTES)

struct kv {
	char key[32];
	u8 val[MAX_VAL];
	size_t len;
};

/* Reads "key = hex" lines; "{...}" decimal lines are skipped. */
static int read_kv(FILE *f, struct kv *kv, int cap)
{
	static char line[16384];
	int n = 0;

	while (n < cap && fgets(line, sizeof(line), f)) {
		char *eq = strstr(line, " = "), *last;

		while (eq && (last = strstr(eq + 3, " = ")))
			eq = last;

		if (!eq || eq[3] == '{')
			continue;
		*eq = 0;
		snprintf(kv[n].key, sizeof(kv[n].key), "%.31s", line);
		kv[n].len = mlkem_unhex(kv[n].val, MAX_VAL, eq + 3);
		n++;
	}
	return n;
}

/* The @nth (0 first) value named @key, or NULL. */
static const struct kv *find(const struct kv *kv, int n, const char *key,
			     int nth)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key) && !nth--)
			return &kv[i];
	return NULL;
}

#define EXPECT_VAL(kv, n, key, nth, buf, blen)				\
	do {								\
		const struct kv *_v = find(kv, n, key, nth);		\
		ASSERT_NE(NULL, _v) { TH_LOG("no %s", key); }		\
		ASSERT_EQ(_v->len, (size_t)(blen)) { TH_LOG("%s", key); } \
		EXPECT_EQ(0, memcmp(_v->val, buf, blen)) {		\
			TH_LOG("%s differs (%s)", key,			\
			       mlkem_engine()->name);			\
		}							\
	} while (0)

static void encode_vec(u8 *out, struct mlkem_poly *p, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		mlkem_poly_canon(&p[i]);
		mlkem_poly_encode12(out + i * MLKEM_POLY_BYTES, &p[i]);
	}
}

TEST(cctv_intermediate)
{
	static struct kv kv[64];
	static u8 buf[MAX_VAL], ek[MLKEM768_EK_SIZE], dk[MLKEM768_DK_SIZE];
	static u8 ct[MLKEM768_CT_SIZE], ss[32], kk[32];
	struct mlkem_polyvec a[MLKEM_K], v;
	const u8 *d, *z, *m, *rho, *sigma, *r;
	struct tlsx_keccak j;
	bool pipe;
	FILE *f = mlkem_vector_open("intermediate/ML-KEM-768.txt", &pipe);
	unsigned int e;
	int n, i, k;
	u8 in[33];

	ASSERT_NE(NULL, f) {
		TH_LOG("no CCTV vectors: set TLSX_MLKEM_VECTORS");
	}
	n = read_kv(f, kv, 64);
	fclose(f);
	ASSERT_GT(n, 30);
	d = find(kv, n, "d", 0)->val;
	z = find(kv, n, "z", 0)->val;
	m = find(kv, n, "m", 0)->val;
	r = find(kv, n, "r", 0)->val;
	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		if (mlkem_engine_force(engines[e]))
			continue;
		/* K-PKE.KeyGen step by step */
		memcpy(in, d, 32);
		tlsx_sha3_512(in, 32, buf);	/* the ipd's G(d) */
		EXPECT_VAL(kv, n, "ρ", 0, buf, 32);
		EXPECT_VAL(kv, n, "σ", 0, buf + 32, 32);
		rho = find(kv, n, "ρ", 0)->val;
		sigma = find(kv, n, "σ", 0)->val;
		mlkem_gen_matrix(a, rho, false);
		for (i = 0; i < MLKEM_K; i++)
			encode_vec(buf + i * MLKEM_VEC_BYTES, a[i].p, MLKEM_K);
		EXPECT_VAL(kv, n, "A", 0, buf, MAX_VAL);
		mlkem_gen_matrix(a, rho, true);
		for (i = 0; i < MLKEM_K; i++)
			encode_vec(buf + i * MLKEM_VEC_BYTES, a[i].p, MLKEM_K);
		EXPECT_VAL(kv, n, "A^T", 0, buf, MAX_VAL);
		for (i = 0; i < MLKEM_K; i++)
			mlkem_sample_cbd2(&v.p[i], sigma, (u8)i);
		encode_vec(buf, v.p, MLKEM_K);
		EXPECT_VAL(kv, n, "s", 0, buf, MLKEM_VEC_BYTES);
		for (i = 0; i < MLKEM_K; i++)
			mlkem_engine()->ntt(v.p[i].c);
		encode_vec(buf, v.p, MLKEM_K);
		EXPECT_VAL(kv, n, "dkPKE = NTT(s)", 0, buf, MLKEM_VEC_BYTES);
		for (i = 0; i < MLKEM_K; i++)
			mlkem_sample_cbd2(&v.p[i], sigma, (u8)(MLKEM_K + i));
		encode_vec(buf, v.p, MLKEM_K);
		EXPECT_VAL(kv, n, "e", 0, buf, MLKEM_VEC_BYTES);
		for (i = 0; i < MLKEM_K; i++)
			mlkem_engine()->ntt(v.p[i].c);
		encode_vec(buf, v.p, MLKEM_K);
		EXPECT_VAL(kv, n, "NTT(e)", 0, buf, MLKEM_VEC_BYTES);

		/* ML-KEM.KeyGen */
		mlkem768_keygen_variant(ek, dk, d, z, true);
		EXPECT_VAL(kv, n, "ek", 0, ek, sizeof(ek));
		EXPECT_VAL(kv, n, "t", 0, ek, MLKEM_VEC_BYTES);
		EXPECT_VAL(kv, n, "dk", 0, dk, sizeof(dk));
		EXPECT_VAL(kv, n, "H(ek)", 0, dk + 2336, 32);
		EXPECT_EQ(0, tlsx_mlkem768_check_ek(ek));
		EXPECT_EQ(0, tlsx_mlkem768_check_dk(dk));

		/* K-PKE.Encrypt's samples, then ML-KEM.Encaps */
		for (k = 0; k < MLKEM_K; k++)
			mlkem_sample_cbd2(&v.p[k], r, (u8)k);
		encode_vec(buf, v.p, MLKEM_K);
		EXPECT_VAL(kv, n, "r", 1, buf, MLKEM_VEC_BYTES);
		for (k = 0; k < MLKEM_K; k++)
			mlkem_sample_cbd2(&v.p[k], r, (u8)(MLKEM_K + k));
		encode_vec(buf, v.p, MLKEM_K);
		EXPECT_VAL(kv, n, "e1", 0, buf, MLKEM_VEC_BYTES);
		ASSERT_EQ(0, tlsx_mlkem768_encaps_internal(ct, ss, ek, m));
		EXPECT_VAL(kv, n, "K", 0, ss, 32);
		EXPECT_VAL(kv, n, "c", 0, ct, sizeof(ct));
		EXPECT_VAL(kv, n, "c1", 0, ct, MLKEM_K * MLKEM_POLY_DU_BYTES);
		EXPECT_VAL(kv, n, "c2", 0, ct + MLKEM_K * MLKEM_POLY_DU_BYTES,
			   MLKEM_POLY_DV_BYTES);

		/* ML-KEM.Decaps, K-PKE.Decrypt's message, K-bar */
		memset(kk, 0, sizeof(kk));
		tlsx_mlkem768_decaps(kk, dk, ct);
		EXPECT_EQ(0, memcmp(kk, ss, 32));
		mlkem_kpke_decrypt(buf, dk, ct);
		EXPECT_EQ(0, memcmp(buf, m, 32));
		tlsx_shake256_init(&j);
		tlsx_keccak_absorb(&j, z, 32);
		tlsx_keccak_absorb(&j, ct, sizeof(ct));
		tlsx_shake_squeeze(&j, buf, 32);
		EXPECT_VAL(kv, n, "KBar", 0, buf, 32);
	}
	mlkem_engine_force("generic");
}

/* --- CCTV negative and edge vectors ------------------------------------- */

TEST(cctv_modulus_keys_refused)
{
	static char line[8192];
	static u8 ek[MLKEM768_EK_SIZE], ct[MLKEM768_CT_SIZE];
	u8 ss[32], m[32] = { 1 };
	bool pipe;
	FILE *f = mlkem_vector_open("modulus/ML-KEM-768.txt.gz", &pipe);
	int n = 0;

	ASSERT_NE(NULL, f);
	line[sizeof(line) - 1] = 0;
	while (fgets(line, sizeof(line), f)) {
		if (mlkem_unhex(ek, sizeof(ek), line) != sizeof(ek))
			continue;
		ASSERT_EQ(-EINVAL, tlsx_mlkem768_check_ek(ek)) {
			TH_LOG("key %d accepted", n);
		}
		ASSERT_EQ(-EINVAL, tlsx_mlkem768_encaps_internal(ct, ss, ek,
								  m));
		n++;
	}
	pipe ? pclose(f) : fclose(f);
	/* The file's 780 keys (a short read would be a missed check). */
	EXPECT_EQ(780, n);
}

TEST(cctv_strcmp)
{
	static struct kv kv[8];
	u8 ss[32];
	bool pipe;
	FILE *f = mlkem_vector_open("strcmp/ML-KEM-768.txt", &pipe);
	const struct kv *dk, *c, *k;
	unsigned int e;
	int n;

	ASSERT_NE(NULL, f);
	n = read_kv(f, kv, 8);
	fclose(f);
	dk = find(kv, n, "dk", 0);
	c = find(kv, n, "c", 0);
	k = find(kv, n, "K", 0);
	ASSERT_TRUE(dk && c && k);
	ASSERT_EQ(MLKEM768_DK_SIZE, dk->len);
	ASSERT_EQ(MLKEM768_CT_SIZE, c->len);
	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		if (mlkem_engine_force(engines[e]))
			continue;
		tlsx_mlkem768_decaps(ss, dk->val, c->val);
		EXPECT_EQ(0, memcmp(ss, k->val, 32));
	}
	mlkem_engine_force("generic");
}

TEST(cctv_unlucky)
{
	static struct kv kv[16];
	static u8 ek[MLKEM768_EK_SIZE], dk[MLKEM768_DK_SIZE];
	static u8 ct[MLKEM768_CT_SIZE];
	struct mlkem_poly p;
	u8 ss[32], rs[64], in[33];
	size_t most = 0;
	bool pipe;
	FILE *f = mlkem_vector_open("unluckysample/ML-KEM-768.txt", &pipe);
	const struct kv *d, *z;
	unsigned int e;
	int n, i, j;

	ASSERT_NE(NULL, f);
	n = read_kv(f, kv, 16);
	fclose(f);
	ASSERT_NE(NULL, find(kv, n, "c", 0));
	d = find(kv, n, "d", 0);
	z = find(kv, n, "z", 0);
	ASSERT_NE(NULL, d);
	ASSERT_NE(NULL, z);
	memcpy(in, d->val, 32);
	tlsx_sha3_512(in, 32, rs);
	for (i = 0; i < MLKEM_K; i++)
		for (j = 0; j < MLKEM_K; j++) {
			size_t used = mlkem_sample_ntt(&p, rs, (u8)j, (u8)i);

			most = used > most ? used : most;
		}
	/* The ipd's G(d) gives the seed these keys were searched for. */
	EXPECT_GT(most, 575);
	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		if (mlkem_engine_force(engines[e]))
			continue;
		mlkem768_keygen_variant(ek, dk, d->val, z->val, true);
		EXPECT_VAL(kv, n, "ek", 0, ek, sizeof(ek));
		EXPECT_VAL(kv, n, "dk", 0, dk, sizeof(dk));
		ASSERT_EQ(0, tlsx_mlkem768_encaps_internal(ct, ss, ek,
				find(kv, n, "m", 0)->val));
		EXPECT_VAL(kv, n, "c", 0, ct, sizeof(ct));
		EXPECT_VAL(kv, n, "K", 0, ss, 32);
		memset(ss, 0, sizeof(ss));
		tlsx_mlkem768_decaps(ss, dk, ct);
		EXPECT_VAL(kv, n, "K", 0, ss, 32);
	}
	mlkem_engine_force("generic");
}

/* --- the accumulated pq-crystals run ------------------------------------ */

static const char accum_10k[] =
	"f7db260e1137a742e05fe0db9525012812b004d29040a5b606aad3d134b548d3";
static const char accum_1m[] =
	"70090cc5842aad0ec43d5042c783fae9bc320c047b5dafcb6e134821db02384d";

static void accumulate(long runs, bool ipd, u8 out[32])
{
	static u8 ek[MLKEM768_EK_SIZE], dk[MLKEM768_DK_SIZE];
	static u8 ct[MLKEM768_CT_SIZE], bad[MLKEM768_CT_SIZE];
	struct tlsx_keccak rng, acc;
	u8 d[32], z[32], m[32], k[32], k2[32];
	long t;

	tlsx_shake128_init(&rng);
	tlsx_shake128_init(&acc);
	for (t = 0; t < runs; t++) {
		tlsx_shake_squeeze(&rng, d, 32);
		tlsx_shake_squeeze(&rng, z, 32);
		tlsx_shake_squeeze(&rng, m, 32);
		tlsx_shake_squeeze(&rng, bad, sizeof(bad));
		mlkem768_keygen_variant(ek, dk, d, z, ipd);
		tlsx_mlkem768_encaps_internal(ct, k, ek, m);
		tlsx_mlkem768_decaps(k2, dk, ct);
		if (memcmp(k, k2, 32))
			memset(k, 0xee, 32);	/* spoils the hash */
		tlsx_keccak_absorb(&acc, ek, sizeof(ek));
		tlsx_keccak_absorb(&acc, dk, sizeof(dk));
		tlsx_keccak_absorb(&acc, ct, sizeof(ct));
		tlsx_keccak_absorb(&acc, k, 32);
		tlsx_mlkem768_decaps(k2, dk, bad);
		tlsx_keccak_absorb(&acc, k2, 32);
	}
	tlsx_shake_squeeze(&acc, out, 32);
}

/*
 * The final standard's G(d || k) changes every key: the same 10,000
 * tests hash to this under FIPS 203 as published (BoringSSL's and
 * LibreSSL's mlkem iteration tests carry it).
 */
static const char accum_10k_final[] =
	"f959d18d3d1180121433bf0e05f11e7908cf9d03edc150b2b07cb90bef5bc1c1";

/*
 * Each engine this CPU has runs the run; a fixture of its own for the
 * longer timeout (the million takes minutes).
 */
FIXTURE(accum) {
	long runs;
};

FIXTURE_SETUP(accum)
{
	const char *env = getenv("TLSX_MLKEM_ACCUM");

	self->runs = env ? atol(env) : 10000;
	ASSERT_TRUE(self->runs == 10000 || self->runs == 1000000);
}

FIXTURE_TEARDOWN(accum)
{
	mlkem_engine_force("generic");
}

static void accum_check(struct __test_metadata *_metadata, long runs,
			bool ipd, const char *hex)
{
	unsigned int e;
	u8 got[32], want[32];

	mlkem_unhex(want, 32, hex);
	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		if (mlkem_engine_force(engines[e]))
			continue;
		accumulate(runs, ipd, got);
		EXPECT_EQ(0, memcmp(got, want, 32)) {
			TH_LOG("%s, %ld tests, %s", ipd ? "ipd" : "final", runs,
			       engines[e]);
		}
	}
}

TEST_F_TIMEOUT(accum, cctv_ipd, 3600)
{
	accum_check(_metadata, self->runs, true,
		    self->runs == 10000 ? accum_10k : accum_1m);
}

TEST_F_TIMEOUT(accum, fips203_final, 600)
{
	if (self->runs != 10000)
		SKIP(return, "only 10,000 tests have a published final hash");
	accum_check(_metadata, self->runs, false, accum_10k_final);
}

/* --- implicit rejection, key checks ------------------------------------- */

TEST(implicit_rejection)
{
	static u8 ek[MLKEM768_EK_SIZE], dk[MLKEM768_DK_SIZE];
	static u8 ct[MLKEM768_CT_SIZE];
	u8 d[32], z[32], m[32], ss[32], k[32], want[32];
	struct tlsx_keccak j;
	int i;

	memset(d, 1, 32);
	memset(z, 2, 32);
	memset(m, 3, 32);
	tlsx_mlkem768_keygen_internal(ek, dk, d, z);
	ASSERT_EQ(0, tlsx_mlkem768_encaps_internal(ct, ss, ek, m));
	for (i = 0; i < MLKEM768_CT_SIZE; i += 97) {
		ct[i] ^= 0x10;
		tlsx_mlkem768_decaps(k, dk, ct);
		tlsx_shake256_init(&j);
		tlsx_keccak_absorb(&j, z, 32);
		tlsx_keccak_absorb(&j, ct, sizeof(ct));
		tlsx_shake_squeeze(&j, want, 32);
		EXPECT_EQ(0, memcmp(k, want, 32));
		EXPECT_NE(0, memcmp(k, ss, 32));
		ct[i] ^= 0x10;
	}
	tlsx_mlkem768_decaps(k, dk, ct);
	EXPECT_EQ(0, memcmp(k, ss, 32));
	/* 7.3's hash check */
	EXPECT_EQ(0, tlsx_mlkem768_check_dk(dk));
	dk[1500] ^= 1;
	EXPECT_EQ(-EINVAL, tlsx_mlkem768_check_dk(dk));
}

TEST_HARNESS_MAIN
