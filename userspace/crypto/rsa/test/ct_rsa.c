// SPDX-License-Identifier: GPL-2.0
/*
 * ct_rsa.c - constant-time check of RSA-PSS signing, run under
 * valgrind's memcheck (tools/ctgrind, from `make test-unit`).
 *
 * The private key's p, q, dp, dq and qinv are marked undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED), and so is every random byte the signer
 * draws (this program's tlsx_random_bytes() replaces the library's): the
 * blinding value r and the salt.  Memcheck then reports every branch and
 * every memory address computed from them, so the run fails on a
 * secret-dependent branch or table index anywhere in the signing path:
 * key loading, Montgomery set-up, blinding, the fixed-window
 * exponentiations, the inversion of r, Garner's recombination and the
 * fault check.  The one value made public inside is the fault check's
 * verdict (the tlsx_rsa_declassify seam, which is why this program
 * compiles rsa.c itself); the signature is marked defined once made, to
 * check it with OpenSSL.
 *
 * Keys come from the `openssl genpkey` command (run natively, outside
 * valgrind).  Covered: 2048-, 2049-, 3072- and 4096-bit keys, each
 * Montgomery multiplication this CPU has *under valgrind*.  Valgrind
 * 3.19 shows BMI2 but hides ADX (it cannot run ADCX/ADOX), so the MULX
 * variant skips there and only the portable code is checked; the MULX
 * code is straight-line assembly over public limb counts (no branch, no
 * address from a value), which is review, not this test.  Natively (not
 * under valgrind) the tests skip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <openssl/pem.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"

#define tlsx_rsa_declassify(p, n) PUBLIC((p), (n))
#include "rsa/rsa.c"

#include "rsa/test/rsa_test.h"
#include "rsa/bn_impl.h"

/* Every random byte the signer uses is a secret. */
int tlsx_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0)
			return -errno;
		SECRET(p, (size_t)n);
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static const unsigned int key_bits[] = { 2048, 2049, 3072, 4096 };
#define NKEYS ARRAY_SIZE(key_bits)

static EVP_PKEY *ossl_keys[NKEYS];
static struct tlsx_rsa_private keys[NKEYS];

/* openssl genpkey, outside valgrind (which does not follow children). */
static EVP_PKEY *openssl_key(unsigned int bits)
{
	char cmd[256];
	EVP_PKEY *k;
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "openssl %s -algorithm RSA -pkeyopt rsa_keygen_bits:%u 2>/dev/null",
		 "genpkey", bits);
	f = popen(cmd, "r");
	if (!f)
		return NULL;
	k = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	if (pclose(f))
		k = NULL;
	return k;
}

__attribute__((constructor)) static void make_keys(void)
{
	size_t i;

	if (!RUNNING_ON_VALGRIND)
		return;
	for (i = 0; i < NKEYS; i++) {
		ossl_keys[i] = openssl_key(key_bits[i]);
		if (!ossl_keys[i] || rt_export(ossl_keys[i], &keys[i])) {
			fprintf(stderr, "keygen %u failed\n", key_bits[i]);
			exit(1);
		}
	}
}

FIXTURE(ct) {
	int unused;
};

FIXTURE_VARIANT(ct) {
	const char *impl;
};

FIXTURE_VARIANT_ADD(ct, generic) {
	.impl = "generic",
};

FIXTURE_VARIANT_ADD(ct, mulx) {
	.impl = "mulx",
};

FIXTURE_SETUP(ct)
{
	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	if (bn_set_impl(variant->impl))
		SKIP(return, "no %s Montgomery multiplication under valgrind",
		     variant->impl);
}

FIXTURE_TEARDOWN(ct)
{
}

static void mark_key_secret(struct tlsx_rsa_private *k)
{
	SECRET(k->p, sizeof(k->p));
	SECRET(k->q, sizeof(k->q));
	SECRET(k->dp, sizeof(k->dp));
	SECRET(k->dq, sizeof(k->dq));
	SECRET(k->qinv, sizeof(k->qinv));
}

TEST_F(ct, pss_sign)
{
	static const enum tlsx_hash_alg hashes[] = {
		TLSX_HASH_SHA256, TLSX_HASH_SHA384, TLSX_HASH_SHA512,
	};
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		struct tlsx_rsa_private k = keys[i];
		enum tlsx_hash_alg h = hashes[i % 3];
		size_t dl = tlsx_hash_digest_size(h);
		u8 dig[64], sig[RSA_MAX_BYTES];

		memset(dig, (int)i + 1, sizeof(dig));
		/*
		 * No signing state yet: it is made from the marked bytes, so
		 * the limbs and blinding kept with the key are secret too.
		 * The second signature takes the kept state.
		 */
		memset(&k.sign, 0, sizeof(k.sign));
		mark_key_secret(&k);
		ASSERT_EQ(0, tlsx_rsa_pss_sign(sig, sizeof(sig), &k, h, dig,
					       dl));
		PUBLIC(sig, sizeof(sig));
		ASSERT_EQ(1, rt_ossl_verify(ossl_keys[i], true, h, dig, dl,
					    sig, k.pub.n_len))
			TH_LOG("%u bits", key_bits[i]);
		ASSERT_EQ(0, tlsx_rsa_pss_sign(sig, sizeof(sig), &k, h, dig,
					       dl));
		PUBLIC(sig, sizeof(sig));
		ASSERT_EQ(1, rt_ossl_verify(ossl_keys[i], true, h, dig, dl,
					    sig, k.pub.n_len))
			TH_LOG("%u bits, kept state", key_bits[i]);
	}
}

/* The private operation alone, on a message that is secret too. */
TEST_F(ct, private_op_secret_input)
{
	struct tlsx_rsa_private k = keys[0];
	u8 m[RSA_MAX_BYTES], s[RSA_MAX_BYTES];

	memset(m, 0x3c, k.pub.n_len);
	m[0] = 0;
	SECRET(m, k.pub.n_len);
	memset(&k.sign, 0, sizeof(k.sign));
	mark_key_secret(&k);
	ASSERT_EQ(0, rsa_private_op(s, &k, m));
	PUBLIC(s, sizeof(s));
	PUBLIC(m, sizeof(m));
	{
		u8 back[RSA_MAX_BYTES];
		size_t len = sizeof(back);
		EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(ossl_keys[0], NULL);

		ASSERT_NE(NULL, c);
		ASSERT_EQ(1, EVP_PKEY_verify_recover_init(c));
		ASSERT_EQ(1, EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING));
		ASSERT_EQ(1, EVP_PKEY_verify_recover(c, back, &len, s,
						     k.pub.n_len));
		EVP_PKEY_CTX_free(c);
		ASSERT_EQ(0, memcmp(back, m, k.pub.n_len));
	}
}

TEST_HARNESS_MAIN
