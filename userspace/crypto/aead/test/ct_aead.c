// SPDX-License-Identifier: GPL-2.0
/*
 * ct_aead.c - constant-time check of the AEADs, run under valgrind's
 * memcheck (tools/ctgrind, from `make test-unit`):
 *
 *	valgrind --tool=memcheck --error-exitcode=99 build/test/ct_aead
 *
 * The key and the plaintext are marked undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED).  Memcheck then reports every
 * conditional jump and every memory address computed from them: a
 * secret-dependent branch or table index fails the run.  What is public
 * is marked defined again before it is looked at: the result of the tag
 * comparison (inside aead.c, through the tlsx_aead_declassify() seam,
 * which is why this program compiles aead.c itself) and, in this program,
 * the outputs once the calls are done, to check them against OpenSSL.
 *
 * Covered: setkey, seal, open (tag right and wrong, so the wipe too),
 * one-shot and scattered (straddling blocks through the bounce buffer),
 * on every implementation this CPU has *under valgrind*.  Valgrind 3.19
 * hides VAES, VPCLMULQDQ and AVX-512 from the program (it cannot run
 * them), so the AES-GCM AVX2 and AVX-512 engines and the ChaCha20
 * AVX-512 engine are not checked here; docs/ct-aead.md says what
 * evidence there is for them.  Natively (not under valgrind) the tests
 * skip: nothing would be checked.
 */

#include "kselftest_harness.h"
#include "test/ct_test.h"
#include "aead/test/aead_test.h"

#define tlsx_aead_declassify(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#include "aead/aead.c"

FIXTURE(ct) {
	struct tlsx_aead_key k;
};

FIXTURE_VARIANT(ct) {
	enum tlsx_aead_alg alg;
	enum tlsx_aead_impl impl;
};

FIXTURE_VARIANT_ADD(ct, aes128_generic) {
	.alg = TLSX_AEAD_AES_128_GCM, .impl = TLSX_IMPL_GENERIC,
};

FIXTURE_VARIANT_ADD(ct, aes128_sse) {
	.alg = TLSX_AEAD_AES_128_GCM, .impl = TLSX_IMPL_SSE,
};

FIXTURE_VARIANT_ADD(ct, aes128_avx2) {
	.alg = TLSX_AEAD_AES_128_GCM, .impl = TLSX_IMPL_AVX2,
};

FIXTURE_VARIANT_ADD(ct, aes256_generic) {
	.alg = TLSX_AEAD_AES_256_GCM, .impl = TLSX_IMPL_GENERIC,
};

FIXTURE_VARIANT_ADD(ct, aes256_sse) {
	.alg = TLSX_AEAD_AES_256_GCM, .impl = TLSX_IMPL_SSE,
};

FIXTURE_VARIANT_ADD(ct, chacha_generic) {
	.alg = TLSX_AEAD_CHACHA20_POLY1305, .impl = TLSX_IMPL_GENERIC,
};

FIXTURE_VARIANT_ADD(ct, chacha_sse) {
	.alg = TLSX_AEAD_CHACHA20_POLY1305, .impl = TLSX_IMPL_SSE,
};

FIXTURE_VARIANT_ADD(ct, chacha_avx2) {
	.alg = TLSX_AEAD_CHACHA20_POLY1305, .impl = TLSX_IMPL_AVX2,
};

FIXTURE_VARIANT_ADD(ct, ccm128_generic) {
	.alg = TLSX_AEAD_AES_128_CCM, .impl = TLSX_IMPL_GENERIC,
};

FIXTURE_VARIANT_ADD(ct, ccm128_sse) {
	.alg = TLSX_AEAD_AES_128_CCM, .impl = TLSX_IMPL_SSE,
};

FIXTURE_SETUP(ct)
{
	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	if (!tlsx_aead_impl_available(variant->alg, variant->impl))
		SKIP(return, "%s has no %s implementation here",
		     tlsx_aead_alg_name(variant->alg),
		     tlsx_aead_impl_name(variant->impl));
}

FIXTURE_TEARDOWN(ct)
{
	tlsx_aead_wipe(&self->k);
}

/*
 * Seal @len bytes with a secret key and plaintext, then open with a
 * secret key (right tag and wrong tag), one-shot or over segments of
 * @seglen bytes.  Checks the results once they are declassified.
 */
static bool ct_case(struct __test_metadata *_metadata,
		    struct tlsx_aead_key *k, enum tlsx_aead_alg alg,
		    enum tlsx_aead_impl impl, size_t len, size_t ad_len,
		    size_t seglen)
{
	u8 key[32], nonce[12], ad[13], tag[16], ref_tag[16];
	u8 *pt = malloc(len + 1), *ct = malloc(len + 1), *ref = malloc(len + 1);
	struct tlsx_aead_seg s[64], d[64];
	size_t kl = tlsx_aead_key_len(alg), i, n = 0;
	u64 rng = 0xc7 + len;
	bool ok = true;
	int ret;

	if (!pt || !ct || !ref)
		abort();
	rng_fill(&rng, key, sizeof(key));
	rng_fill(&rng, nonce, sizeof(nonce));
	rng_fill(&rng, ad, sizeof(ad));
	rng_fill(&rng, pt, len);
	ASSERT_EQ(0, ref_seal(alg, key, nonce, ad, ad_len, pt, len, ref,
			      ref_tag));
	for (i = 0; seglen && i < len && n < 63; i += seglen, n++) {
		s[n].data = pt + i;
		s[n].len = len - i < seglen ? len - i : seglen;
		d[n].data = ct + i;
		d[n].len = s[n].len;
	}
	if (seglen && i < len) {
		s[n - 1].len += len - i;
		d[n - 1].len += len - i;
	}

	/* Seal: key and plaintext secret. */
	SECRET(key, sizeof(key));
	SECRET(pt, len);
	ASSERT_EQ(0, tlsx_aead_setkey(k, alg, impl, key, kl));
	ret = seglen ? tlsx_aead_seal_sg(k, nonce, ad, ad_len, s, n, d, n, len,
					 tag) :
		       tlsx_aead_seal(k, nonce, ad, ad_len, pt, ct, len, tag);
	ASSERT_EQ(0, ret);
	PUBLIC(ct, len);
	PUBLIC(tag, sizeof(tag));
	if (memcmp(ct, ref, len) || memcmp(tag, ref_tag, 16)) {
		TH_LOG("seal differs from OpenSSL: len %zu", len);
		ok = false;
	}

	/* Open: key secret (still), ciphertext public, plaintext secret. */
	memset(pt, 0, len);
	ret = seglen ? tlsx_aead_open_sg(k, nonce, ad, ad_len, d, n, s, n, len,
					 tag) :
		       tlsx_aead_open(k, nonce, ad, ad_len, ct, pt, len, tag);
	ASSERT_EQ(0, ret);
	tag[0] ^= 1;
	ret = seglen ? tlsx_aead_open_sg(k, nonce, ad, ad_len, d, n, s, n, len,
					 tag) :
		       tlsx_aead_open(k, nonce, ad, ad_len, ct, pt, len, tag);
	ASSERT_EQ(-EBADMSG, ret);
	PUBLIC(pt, len);
	if (!all_zero(pt, len)) {
		TH_LOG("failed open did not wipe: len %zu", len);
		ok = false;
	}
	tlsx_aead_wipe(k);
	free(pt);
	free(ct);
	free(ref);
	return ok;
}

static const size_t ct_lens[] = { 0, 1, 15, 16, 17, 64, 100, 1037, 4196 };

TEST_F(ct, oneshot)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ct_lens); i++)
		ASSERT_TRUE(ct_case(_metadata, &self->k, variant->alg,
				    variant->impl, ct_lens[i],
				    i & 1 ? 13 : 0, 0));
}

TEST_F(ct, scattered)
{
	ASSERT_TRUE(ct_case(_metadata, &self->k, variant->alg, variant->impl,
			    1037, 13, 37));
	ASSERT_TRUE(ct_case(_metadata, &self->k, variant->alg, variant->impl,
			    300, 5, 1));
	ASSERT_TRUE(ct_case(_metadata, &self->k, variant->alg, variant->impl,
			    4196, 13, 200));
}

TEST_HARNESS_MAIN
