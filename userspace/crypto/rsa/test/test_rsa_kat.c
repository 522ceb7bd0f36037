// SPDX-License-Identifier: GPL-2.0
/*
 * test_rsa_kat.c - published RSASSA-PSS vectors: Project Wycheproof's
 * rsa_pss_2048_sha256_mgf1_32_test.json (2048-bit key, SHA-256, MGF1 with
 * SHA-256, 32-byte salt: TLS 1.3's rsa_pss_rsae_sha256), valid cases
 * (an empty message, short and 32-byte ones, an all-zero salt) and
 * invalid ones (mHash, H, the zero padding and the salt length altered),
 * through tlsx_rsa_pss_verify() with each Montgomery multiplication this
 * CPU has.  The test data are the vectors' hex; the digests are computed
 * here from the messages.
 */
#include "kselftest_harness.h"
#include "rsa/rsa.h"
#include "rsa/bn_impl.h"

/* The test group's modulus; e = 65537. */
static const char wp_n[] =
	"a2b451a07d0aa5f96e455671513550514a8a5b462ebef717094fa1fee82224e637f9746d3f7cafd31878d80325b6ef5a1700f65903b469429e89d6eac8845097b5ab393189db92512ed8a7711a1253facd20f79c15e8247f3d3e42e46e48c98e254a2fe9765313a03eff8f17e1a029397a1fa26a8dce26f490ed81299615d9814c22da610428e09c7d9658594266f5c021d0fceca08d945a12be82de4d1ece6b4c03145b5d3495d4ed5411eb878daf05fd7afc3e09ada0f1126422f590975a1969816f48698bcbba1b4d9cae79d460d8f9f85e7975005d9bc22c4e5ac0f7c1a45d12569a62807d3b9a02e5a530e773066f453d1f5b4c2e9cf7820283f742b9d5";

struct wp_vector {
	int tc_id;
	const char *msg;
	const char *sig;
	bool valid;
};

static const struct wp_vector wp_vectors[] = {
	{	/* tcId 1 */
		.tc_id = 1,
		.msg = "",
		.sig =
		"4f01e0c12b08625ecac89a69231906edf826380f37c959a96690d046316d68ffce9d5c471694fcebfc6b45534864689256e4fc81c78e583f675d0c94b449647451e81beff01a11a516d5e5ce3f1a910437cb8a3a5096b19fb15f4524a35b23d89cdba12cf5b71aac1047b28c562df7c5542c34ce23a182cf7e0e231934b17294799d44877a1d68ef1b8f073619b7618e6b7c22db20030d98cf591ffc3d4da5f58613ecd5ecfc3b40a1d02f40891ca43695cd4c088b05a8054c89c595a47e274816f35384226f74459ee63e25a1bfc03c360490552ec38343f8ace502f065303b00bc0ec320711b211fde92e57feb9013c3609342495ec0d7cabdec21e54acc38",
		.valid = true,
	},
	{	/* tcId 3 */
		.tc_id = 3,
		.msg = "54657374",
		.sig =
		"401eb03cdb47ca88033e3030f6bdecbac8f5c8fc1dd6a13d23d379ed9a2b309891d13d74fea9d21d159b9e6d8f37efa2489962e24555f56dd434ff1d31ce4f9f5abd3f22cbea8b691d6a11e44efb83e2bca155e6a164325e0fde2a8865afd5c9f51161a9d615f62af7ec2e31b3e5ab649c164490d31d88cfae35b84aea7925690f929a144b6d2f48e8fb894a52deecd1b9a6496990c4ecf1588699a42cacd10c53af350514e4291ea9a058e77f101e32c1c0cefa61d945f7bc931f8bd19e7ba3169358a60e5a8b0123bc3199b9fdcafe8e519c41ba675491a27b85e44ef2d77277c10fe107293c8290186913bc9a99b640d8da041b64f31eab1d35920985f4a5",
		.valid = true,
	},
	{	/* tcId 7 */
		.tc_id = 7,
		.msg = "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		.sig =
		"8bdd6db90323f3bf26a36a4ab5b92180c96881bd32b66317c4b48c2ba1421f8434000c06adde4264c6ea2d5346468c6d5e97cb13d3cb932e523ac57b59c814fa0397ca6dcc9bec4be1147d77abcd318a6aba1af46ede2f5640da06511a006fd1bd5fb8e04be22789956adc47bbec7988be477150f9b24a07dff51530e8f0c14cfef7d25ca141f512939987b7eb0825633d41a48742bd7f56d4db9733d92ac0f36b4041f51332695f551ec91076da2301120c438eb9ec197cbe318d4571b6b79098d17eded0ca47747a143e34f882ad6e3f490f3a710ff7ec1bffce022027165d96281e593180c67f44aeda9ce6605e6b8e5eac1347695dab211a965bb3d3f928",
		.valid = true,
	},
	{	/* tcId 69: salt is all 0 */
		.tc_id = 69,
		.msg = "313233343030",
		.sig =
		"1591ae743c58ceb723a76f502e21ff6a65c24cabf5f527bab5a6f2a69f20c776fd2251e43ad22e09b1486ceb1935b2dc2ade95e233f296cc0e5a8af8109659be76b6bfdf37e14837fd6c34bfed1f19ec9d21f974b984fe4d4773896ebcc7fb862fd641cd0d77178485c70c2d68b4d9be1d863f6f254b77991fc9053f5d5415d1aa74ba9067e2e6607fb651638c9cc0430a40c9b691977b557a31d95a290a95b56ef2ec8e4313686a9c5ef48235912b210fdd2c50aafac28131104c795c42ae75810b0284b2d257e81ecac4240622ebc261ab8bceeeebe80f1cfa70f18d782aebb97d803ea3a895be541be6941df103eaaabd870848bfaf58cdaf6cecdd5a10bf",
		.valid = true,
	},
	{	/* tcId 62: first byte of m_hash modified */
		.tc_id = 62,
		.msg = "313233343030",
		.sig =
		"67d1d1c0a398148625317c3f5e44b738bdf461c27a59594b39ebb2aebef233c7809379e54411411b82d2e7ac88f989b58373d532c758baea121878ce9759441738d121881c1fa2d04421f02dd565b12770d844611ed1873a0b64d822709a6b78d6d3892b294404bce6711001d6c3a54546c76a1d17819674b0be904497a233b466fe4becc832dee740f9ab79e5b9f5db0b0f9aac0084ba05cebf42303b5ca2ad95e3d61b29ed6475545c02e93e7b0e118af92f5cddb1faeb2cbc23c9e69c120e29df7fe31991e887b3b29e77688c60e80be65cccf3d7861a7a14c39e6a6e5645568e2cc5e4a17b75db1dd415aadb45e112a9b582b2ff6e82a43d7a7347b7b56d",
		.valid = false,
	},
	{	/* tcId 67: s_len changed to 0 */
		.tc_id = 67,
		.msg = "313233343030",
		.sig =
		"5e91b5dcbf02d6f19621d41a83dc8f15ea83c0edb83765ef029b0acac2e1ec8918b1d2afe1fadf11c48d27594cb9c01fed79d90e5d5a8085c438450111aa7d9fa39c2345b14fc3c2cb34128f86db5eb00bdf8dfe38d61f29a41fe31342e7aaefcb4b122eb5d63c2f5c263c8df8450e9428ffef974d535818d51dc03a7d60c8b2d16c999ae46d73ab40515fe601d9b89b1d09c6d60cd51639a97c1d211e097609ba5e8c319c6fbd21b34a634ec8fb8971c5aae21c70b847a4539cc10dc314ddd8a9629e8a0e51c66c0cb61fd1f7228c01c6769190abe9bac9a3897800050014358594e0fb20dbb458b12aa1346826cc9f7e9c5352b073d62853dafe77c848cb1f",
		.valid = false,
	},
	{	/* tcId 71: byte 0 in zero padding modified */
		.tc_id = 71,
		.msg = "313233343030",
		.sig =
		"37487b948dac95a1e57bf1ac40888b8e074cf9db9c9825e7b7267d3b105a8c67cb9b33c0e5fd641836798f41b8b1f024b13243da4fa5e527098337e5cac41e0523a28fb135ae060e7c1e4eb9556222bc43bf1659f65a2a2db108ac9b7c9942a5658fcbca5622c115e34ead883ea4ef03f7f62990f282fa791b04489053771329a482467cba8a13ad98f27ff7b61c24a452e085d432130b7259e59b2866e55320119b21e3c706f3596ec174517c43cdbe957e012b573961b1fa925373945ab3209a1007d197e1e9301dd0afa485acf6643ba0587a69f7c44bdf1e53c32f05a3b96db0c462509c292d7de09a6c78ebf1131453d37ab037176011296730f57cda97",
		.valid = false,
	},
	{	/* tcId 74: first byte of hash h modified */
		.tc_id = 74,
		.msg = "313233343030",
		.sig =
		"3f27e0fafc57629ccc0432827187766a30537e821a2fcd5f1088100d4d8b6a6a9ce950f51102e3b55167d4b49e0b6a306e0fdf90837d0630859093e90a94fa564b7a4a82f4ccb772377e07a2b5a6873d98bf665c92df1ce7cbdb583cda83947b3c9c3df5b3807b470f23f8d08df9fba78e13d6b635f9f59d2d4baa34831dc6c3e5a29695645b1ed50f3a3389e9e119de765e6d7daaff0b454eadd10f445e402bf3cf4d14f4d16c2d9e4fb5571cea7929d53019d414d118e82d491bf3fb3bd7427abd6eb48a0ed277221c42840eaa1fd5e7ce658f7763099c1d59431e498cb58357a659aea8e181ec0fb5ad8a55d1c0f129500a25b85cbcc8733fa3dfa9ea30a4",
		.valid = false,
	},
};

static size_t unhex(u8 *out, size_t cap, const char *hex)
{
	size_t i, len = strlen(hex) / 2;

	if (len > cap)
		abort();
	for (i = 0; i < len; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			abort();
		out[i] = (u8)b;
	}
	return len;
}

FIXTURE(kat) {
	struct tlsx_rsa_public k;
};

FIXTURE_VARIANT(kat) {
	const char *impl;
};

FIXTURE_VARIANT_ADD(kat, generic) {
	.impl = "generic",
};

FIXTURE_VARIANT_ADD(kat, mulx) {
	.impl = "mulx",
};

FIXTURE_VARIANT_ADD(kat, ifma) {
	.impl = "ifma",
};

FIXTURE_VARIANT_ADD(kat, ifma256) {
	.impl = "ifma256",
};

FIXTURE_SETUP(kat)
{
	if (bn_set_impl(variant->impl))
		SKIP(return, "no %s Montgomery multiplication here",
		     variant->impl);
	self->k.n_len = unhex(self->k.n, sizeof(self->k.n), wp_n);
	self->k.e = 65537;
	ASSERT_EQ(256, self->k.n_len);
	ASSERT_EQ(0, tlsx_rsa_check_public(&self->k));
}

FIXTURE_TEARDOWN(kat)
{
}

TEST_F(kat, wycheproof_pss_sha256)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(wp_vectors); i++) {
		const struct wp_vector *v = &wp_vectors[i];
		u8 msg[64], sig[RSA_MAX_BYTES], dig[SHA256_DIGEST_SIZE];
		size_t ml = unhex(msg, sizeof(msg), v->msg);
		size_t sl = unhex(sig, sizeof(sig), v->sig);
		int want = v->valid ? 0 : -EBADMSG;

		ASSERT_EQ(0, tlsx_hash(TLSX_HASH_SHA256, msg, ml, dig));
		EXPECT_EQ(want, tlsx_rsa_pss_verify(&self->k,
						    TLSX_HASH_SHA256, dig,
						    sizeof(dig), sig, sl))
			TH_LOG("tcId %d", v->tc_id);
		/* Not PKCS#1 v1.5 signatures, valid or not. */
		EXPECT_EQ(-EBADMSG, tlsx_rsa_pkcs1_verify(&self->k,
							  TLSX_HASH_SHA256,
							  dig, sizeof(dig),
							  sig, sl));
		/* A valid one no longer verifies with one bit changed. */
		if (v->valid) {
			sig[sl / 2] ^= 0x20;
			EXPECT_EQ(-EBADMSG,
				  tlsx_rsa_pss_verify(&self->k,
						      TLSX_HASH_SHA256, dig,
						      sizeof(dig), sig, sl));
		}
	}
}

TEST_HARNESS_MAIN
