// SPDX-License-Identifier: GPL-2.0
/*
 * ct_keysched.c - constant-time check of the key schedule, run under
 * valgrind's memcheck (tools/ctgrind, from `make test-unit`):
 *
 *	valgrind --tool=memcheck --error-exitcode=99 build/test/ct_keysched
 *
 * The PSK, the (EC)DHE secret, every secret derived from them, the
 * traffic keys and the received verify_data are marked undefined: a
 * branch or an address computed from them is reported and fails the run.
 * The only secret-dependent branch allowed is on the outcome of a
 * Finished or binder comparison, which the peer learns anyway: here
 * tlsx_ct_memeq()'s result is made public before it is looked at.
 * SHA-256 and SHA-384 run on the portable code (TLSX_SHA_IMPL=generic:
 * valgrind cannot run SHA-NI).  Natively the tests skip.
 */
#include <stdlib.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"
#include "handshake/engine/keysched.h"

static int schedule(void *arg)
{
	enum tlsx_hash_alg alg = *(enum tlsx_hash_alg *)arg;
	u8 psk[48], dhe[32], th[48], s[48], key[32], iv[TLSX_IV_SIZE];
	u8 fin[48], got[48];
	struct tlsx_ks ks;
	int eq, ret = 0;

	memset(psk, 0x11, sizeof(psk));
	memset(dhe, 0x22, sizeof(dhe));
	memset(th, 0x33, sizeof(th));
	SECRET(psk, sizeof(psk));
	SECRET(dhe, sizeof(dhe));

	ret |= tlsx_ks_init(&ks, alg, psk, sizeof(psk));
	ret |= tlsx_ks_derive(&ks, TLSX_KS_RES_BINDER, NULL, s);
	ret |= tlsx_finished_mac(alg, s, th, fin);
	ret |= tlsx_ks_derive(&ks, TLSX_KS_C_E_TRAFFIC, th, s);
	ret |= tlsx_ks_handshake(&ks, dhe, sizeof(dhe));
	ret |= tlsx_ks_derive(&ks, TLSX_KS_C_HS_TRAFFIC, th, s);
	ret |= tlsx_traffic_keys(alg, s, key, sizeof(key), iv);
	ret |= tlsx_finished_mac(alg, s, th, fin);
	ret |= tlsx_ks_master(&ks);
	ret |= tlsx_ks_derive(&ks, TLSX_KS_S_AP_TRAFFIC, th, s);
	ret |= tlsx_next_traffic_secret(alg, s);
	ret |= tlsx_ks_derive(&ks, TLSX_KS_RES_MASTER, th, s);
	ret |= tlsx_resumption_psk(alg, s, th, 2, psk);
	tlsx_ks_wipe(&ks);

	/* A received verify_data, as secret as the one computed. */
	memcpy(got, fin, sizeof(got));
	got[3] ^= 1;
	SECRET(got, sizeof(got));
	eq = tlsx_ct_memeq(fin, got, tlsx_hash_digest_size(alg));
	PUBLIC(&eq, sizeof(eq));
	if (eq)
		ret = 1;
	return ret;
}

static void run(struct __test_metadata *_metadata, enum tlsx_hash_alg alg)
{
	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	EXPECT_EQ(0, ct_count_reports(schedule, &alg));
}

TEST(schedule_sha256)
{
	run(_metadata, TLSX_HASH_SHA256);
}

TEST(schedule_sha384)
{
	run(_metadata, TLSX_HASH_SHA384);
}

int main(int argc, char **argv)
{
	setenv("TLSX_SHA_IMPL", "generic", 1);
	return test_harness_run(argc, argv);
}
