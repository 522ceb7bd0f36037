// SPDX-License-Identifier: GPL-2.0
/*
 * ct_mlkem.c - constant-time check of ML-KEM-768, run under valgrind's
 * memcheck (tools/ctgrind, from `make test-unit`).
 *
 * The secrets are marked undefined: d and z for KeyGen, m for Encaps,
 * the decapsulation key's dkPKE and z for Decaps (its ek and H(ek) are
 * public).  Memcheck then reports any branch or memory index computed
 * from them: in CBD sampling, the NTT, compression, the message
 * decoding, and Decaps's re-encryption compare and key selection (a
 * memcmp() there would be caught), for a good and a bad ciphertext.
 * The one value derived from a secret that is public, rho (half of
 * ek), is declassified through mlkem_kpke.c's mlkem_declassify seam,
 * which is why this program includes that file.  Every NTT engine this
 * CPU has runs (valgrind executes AVX2).  detects_a_secret_branch and
 * modulus_check_branches show the check can fail.
 */
#include <stdlib.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"

#define mlkem_declassify(p, n) PUBLIC((p), (n))
#include "mlkem/mlkem_kpke.c"

#include "mlkem/mlkem.h"
#include "rand/random.h"

FIXTURE(ct) {
	u8 d[32], z[32], m[32];
	u8 ek[MLKEM768_EK_SIZE], dk[MLKEM768_DK_SIZE];
	u8 ct[MLKEM768_CT_SIZE], ss[32];
};

FIXTURE_VARIANT(ct) {
	const char *engine;
};

FIXTURE_VARIANT_ADD(ct, generic) {
	.engine = "generic",
};

FIXTURE_VARIANT_ADD(ct, avx2) {
	.engine = "avx2",
};

FIXTURE_SETUP(ct)
{
	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing would be checked");
	if (mlkem_engine_force(variant->engine))
		SKIP(return, "no %s on this CPU", variant->engine);
	ASSERT_EQ(0, tlsx_random_bytes(self->d, 32));
	ASSERT_EQ(0, tlsx_random_bytes(self->z, 32));
	ASSERT_EQ(0, tlsx_random_bytes(self->m, 32));
}

FIXTURE_TEARDOWN(ct)
{
	mlkem_engine_force("generic");
}

/* dk's secret parts: dkPKE (the first 1152 bytes) and z (the last 32). */
static void dk_secret(u8 *dk, bool secret)
{
	if (secret) {
		SECRET(dk, 1152);
		SECRET(dk + MLKEM768_DK_SIZE - 32, 32);
	} else {
		PUBLIC(dk, 1152);
		PUBLIC(dk + MLKEM768_DK_SIZE - 32, 32);
	}
}

TEST_F(ct, keygen)
{
	u8 ek2[MLKEM768_EK_SIZE], dk2[MLKEM768_DK_SIZE];

	tlsx_mlkem768_keygen_internal(ek2, dk2, self->d, self->z);
	SECRET(self->d, 32);
	SECRET(self->z, 32);
	tlsx_mlkem768_keygen_internal(self->ek, self->dk, self->d, self->z);
	PUBLIC(self->ek, sizeof(self->ek));
	PUBLIC(self->dk, sizeof(self->dk));
	PUBLIC(self->d, 32);
	PUBLIC(self->z, 32);
	EXPECT_EQ(0, memcmp(self->ek, ek2, sizeof(ek2)));
	EXPECT_EQ(0, memcmp(self->dk, dk2, sizeof(dk2)));
}

TEST_F(ct, encaps_decaps)
{
	u8 ss2[32], ss3[32];
	int ret;

	tlsx_mlkem768_keygen_internal(self->ek, self->dk, self->d, self->z);
	SECRET(self->m, 32);
	ret = tlsx_mlkem768_encaps_internal(self->ct, self->ss, self->ek,
					    self->m);
	PUBLIC(self->ct, sizeof(self->ct));
	PUBLIC(self->ss, 32);
	PUBLIC(self->m, 32);
	EXPECT_EQ(0, ret);

	/* The ciphertext that re-encrypts to itself. */
	dk_secret(self->dk, true);
	tlsx_mlkem768_decaps(ss2, self->dk, self->ct);
	PUBLIC(ss2, 32);
	/* One that does not: the implicit-rejection key, chosen alike. */
	self->ct[7] ^= 1;
	tlsx_mlkem768_decaps(ss3, self->dk, self->ct);
	PUBLIC(ss3, 32);
	dk_secret(self->dk, false);
	EXPECT_EQ(0, memcmp(ss2, self->ss, 32));
	EXPECT_NE(0, memcmp(ss3, self->ss, 32));
}

/* The modulus check returns early: on a secret it is reported. */
static int check_secret_ek(void *arg)
{
	u8 *ek = arg;

	SECRET(ek, MLKEM768_EK_SIZE);
	(void)tlsx_mlkem768_check_ek(ek);
	PUBLIC(ek, MLKEM768_EK_SIZE);
	return 0;
}

TEST(modulus_check_branches)
{
	static u8 ek[MLKEM768_EK_SIZE];

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	TH_LOG("the memcheck reports above, if any, are this test's own");
	EXPECT_LT(0, ct_count_reports(check_secret_ek, ek));
}

TEST_HARNESS_MAIN
