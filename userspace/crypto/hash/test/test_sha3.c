// SPDX-License-Identifier: GPL-2.0
/*
 * test_sha3.c - Keccak-f[1600], SHA3-256, SHA3-512, SHAKE128, SHAKE256:
 *
 *  - the FIPS 202 examples (NIST's "example values"): the empty message
 *    and the 1600-bit message of 0xa3 bytes; "abc";
 *  - against OpenSSL for every length 0..600 and random lengths up to
 *    8 KiB absorbed in random pieces, SHAKE output squeezed in random
 *    pieces and in whole blocks;
 *  - the state wiped by final;
 *  - the four-way AVX2 sponges against four one-way ones (SHAKE128 and
 *    SHAKE256, every input length below the rate, several blocks).
 */
#include <stdlib.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "hash/sha3.h"

enum sha3_fn { F_SHA3_256, F_SHA3_512, F_SHAKE128, F_SHAKE256 };

struct sha3_kat {
	enum sha3_fn fn;
	const char *msg;	/* NULL: 200 bytes of 0xa3 */
	const char *out;
};

static const struct sha3_kat kats[] = {
	{ F_SHA3_256, "",
	  "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a" },
	{ F_SHA3_256, "abc",
	  "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532" },
	{ F_SHA3_256, NULL,
	  "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787" },
	{ F_SHA3_512, "",
	  "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26" },
	{ F_SHA3_512, "abc",
	  "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0" },
	{ F_SHA3_512, NULL,
	  "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca81b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00" },
	{ F_SHAKE128, "",
	  "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26" },
	{ F_SHAKE128, NULL,
	  "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037" },
	{ F_SHAKE256, "",
	  "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be" },
};

static void unhex(u8 *out, const char *hex, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1)
			out[i] = 0;	/* a bad table: the KAT then fails */
}

static void run_fn(enum sha3_fn fn, const u8 *msg, size_t len, u8 *out,
		   size_t outlen)
{
	switch (fn) {
	case F_SHA3_256:
		tlsx_sha3_256(msg, len, out);
		break;
	case F_SHA3_512:
		tlsx_sha3_512(msg, len, out);
		break;
	case F_SHAKE128:
		tlsx_shake128(msg, len, out, outlen);
		break;
	case F_SHAKE256:
		tlsx_shake256(msg, len, out, outlen);
		break;
	}
}

static const EVP_MD *ossl_md(enum sha3_fn fn)
{
	switch (fn) {
	case F_SHA3_256:
		return EVP_sha3_256();
	case F_SHA3_512:
		return EVP_sha3_512();
	case F_SHAKE128:
		return EVP_shake128();
	default:
		return EVP_shake256();
	}
}

static int ossl_run(enum sha3_fn fn, const u8 *msg, size_t len, u8 *out,
		    size_t outlen)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned int n;
	int ok;

	ok = c && EVP_DigestInit_ex(c, ossl_md(fn), NULL) &&
	     EVP_DigestUpdate(c, msg, len);
	if (ok && (fn == F_SHAKE128 || fn == F_SHAKE256))
		ok = EVP_DigestFinalXOF(c, out, outlen);
	else if (ok)
		ok = EVP_DigestFinal_ex(c, out, &n);
	EVP_MD_CTX_free(c);
	return ok ? 0 : -1;
}

static size_t fn_len(enum sha3_fn fn)
{
	return fn == F_SHA3_512 || fn == F_SHAKE256 ? 64 : 32;
}

TEST(fips202_examples)
{
	u8 a3[200], want[64], got[64];
	unsigned int i;

	memset(a3, 0xa3, sizeof(a3));
	for (i = 0; i < ARRAY_SIZE(kats); i++) {
		const struct sha3_kat *k = &kats[i];
		const u8 *m = k->msg ? (const u8 *)k->msg : a3;
		size_t len = k->msg ? strlen(k->msg) : sizeof(a3);
		size_t n = strlen(k->out) / 2;

		unhex(want, k->out, n);
		run_fn(k->fn, m, len, got, n);
		EXPECT_EQ(0, memcmp(got, want, n)) {
			TH_LOG("KAT %u", i);
		}
	}
}

TEST(keccak_zero_state)
{
	/* FIPS 202 example: Keccak-f[1600] of the all-zero state. */
	u64 s[25] = { 0 };

	tlsx_keccak_f1600(s);
	EXPECT_EQ(0xf1258f7940e1dde7ULL, s[0]);
	EXPECT_EQ(0x84d5ccf933c0478aULL, s[1]);
}

TEST(against_openssl)
{
	static u8 msg[8192], got[700], want[700];
	enum sha3_fn fn;
	size_t len, i;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (u8)(i * 131 + 7);
	for (fn = F_SHA3_256; fn <= F_SHAKE256; fn++) {
		for (len = 0; len <= 600; len++) {
			size_t n = fn_len(fn);

			if (fn >= F_SHAKE128)
				n = (len * 7) % sizeof(got);
			run_fn(fn, msg, len, got, n);
			ASSERT_EQ(0, ossl_run(fn, msg, len, want, n));
			ASSERT_EQ(0, memcmp(got, want, n)) {
				TH_LOG("fn %d len %zu", fn, len);
			}
		}
	}
}

TEST(streaming_pieces)
{
	static u8 msg[8192], got[1400], want[1400];
	struct tlsx_keccak k;
	int iter;

	srand(30);
	for (iter = 0; iter < 400; iter++) {
		enum sha3_fn fn = (enum sha3_fn)(iter % 4);
		size_t len = (size_t)rand() % sizeof(msg), off = 0, i;
		size_t n = fn >= F_SHAKE128 ? 1 + (size_t)rand() % 1300 :
			   fn_len(fn);

		for (i = 0; i < len; i++)
			msg[i] = (u8)rand();
		if (fn == F_SHA3_256)
			tlsx_sha3_256_init(&k);
		else if (fn == F_SHA3_512)
			tlsx_sha3_512_init(&k);
		else if (fn == F_SHAKE128)
			tlsx_shake128_init(&k);
		else
			tlsx_shake256_init(&k);
		while (off < len) {
			size_t piece = 1 + (size_t)rand() % 300;

			if (piece > len - off)
				piece = len - off;
			tlsx_keccak_absorb(&k, msg + off, piece);
			off += piece;
		}
		if (fn < F_SHAKE128) {
			tlsx_sha3_final(&k, got, n);
		} else {
			off = 0;
			while (off < n) {
				size_t piece = 1 + (size_t)rand() % 200;

				if (piece > n - off)
					piece = n - off;
				tlsx_shake_squeeze(&k, got + off, piece);
				off += piece;
			}
		}
		ASSERT_EQ(0, ossl_run(fn, msg, len, want, n));
		ASSERT_EQ(0, memcmp(got, want, n)) {
			TH_LOG("iter %d fn %d len %zu out %zu", iter, fn, len,
			       n);
		}
	}
}

TEST(squeeze_blocks)
{
	u8 seed[34], got[5 * SHAKE128_RATE + 10], want[sizeof(got)];
	struct tlsx_keccak k;

	memset(seed, 0x5c, sizeof(seed));
	tlsx_shake128_init(&k);
	tlsx_keccak_absorb(&k, seed, sizeof(seed));
	tlsx_shake_squeeze_blocks(&k, got, 3);
	tlsx_shake_squeeze_blocks(&k, got + 3 * SHAKE128_RATE, 2);
	tlsx_shake_squeeze(&k, got + 5 * SHAKE128_RATE, 10);
	ASSERT_EQ(0, ossl_run(F_SHAKE128, seed, sizeof(seed), want,
			      sizeof(want)));
	EXPECT_EQ(0, memcmp(got, want, sizeof(got)));
}

TEST(final_wipes)
{
	struct tlsx_keccak k, zero;
	u8 out[32];

	memset(&zero, 0, sizeof(zero));
	tlsx_sha3_256_init(&k);
	tlsx_keccak_absorb(&k, "secret", 6);
	tlsx_sha3_final(&k, out, sizeof(out));
	EXPECT_EQ(0, memcmp(&k, &zero, sizeof(k)));
}

TEST(four_way_against_one_way)
{
	static u8 in[4][168], got[4][3 * 168], want[3 * 168];
	static const unsigned int rates[] = { SHAKE128_RATE, SHAKE256_RATE };
	const u8 *ins[4] = { in[0], in[1], in[2], in[3] };
	u8 *outs[4] = { got[0], got[1], got[2], got[3] };
	struct tlsx_keccak_x4 k4;
	unsigned int r, j;
	size_t len, i;

	if (!tlsx_keccak_x4_usable())
		SKIP(return, "no AVX2");
	for (j = 0; j < 4; j++)
		for (i = 0; i < sizeof(in[0]); i++)
			in[j][i] = (u8)(i * 31 + j * 7 + 1);
	for (r = 0; r < ARRAY_SIZE(rates); r++) {
		for (len = 0; len < rates[r]; len++) {
			tlsx_shake_x4_absorb(&k4, rates[r], ins, len);
			tlsx_shake_x4_squeeze_blocks(&k4, outs, 2);
			tlsx_shake_x4_squeeze_blocks(&k4, outs, 1);
			for (j = 0; j < 4; j++) {
				if (r == 0)
					tlsx_shake128(in[j], len, want,
						      3 * rates[r]);
				else
					tlsx_shake256(in[j], len, want,
						      3 * rates[r]);
				/* The second call wrote block 0 again. */
				ASSERT_EQ(0, memcmp(got[j] + rates[r],
						    want + rates[r],
						    rates[r])) {
					TH_LOG("rate %u len %zu lane %u",
					       rates[r], len, j);
				}
				ASSERT_EQ(0, memcmp(got[j], want + 2 * rates[r],
						    rates[r]));
			}
		}
	}
}

TEST_HARNESS_MAIN
