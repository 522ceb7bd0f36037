// SPDX-License-Identifier: GPL-2.0
/*
 * test_p256_cavp.c - P-256 (p256.h) against published known answers:
 *
 *  - NIST CAVP "ECC CDH Primitive (SP800-56A Section 5.7.1.2)" test
 *    vectors (CAVS 14.1, KAS_ECC_CDH_PrimitiveTest.txt, [P-256]):
 *    dIUT -> QIUT and dIUT * QCAVS -> ZIUT;
 *  - RFC 5903 section 8.1 (the 256-bit random ECP group): both key
 *    pairs and the shared secret, computed from each side;
 *  - NIST CAVP FIPS 186-4 ECDSA KeyPair.rsp, [P-256] (B.4.2 Key Pair
 *    Generation by Testing Candidates): d -> Q;
 *  - NIST CAVP FIPS 186-3 ECDSA SigGen.txt, [P-256,SHA-256]: d -> Q, and
 *    the published (R, S) over SHA-256(Msg) verifies;
 *  - NIST CAVP FIPS 186-3 ECDSA SigVer.rsp, [P-256,SHA-256]: all 15
 *    vectors, 3 passing and 12 failing (message, R, S or Q changed; each
 *    changed Q is still a point on the curve, so every failure is
 *    -EBADMSG, not -EINVAL).
 */
#include "kselftest_harness.h"
#include "p256/p256.h"
#include "hash/sha2.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	abort();
}

/* Decode a hex string (no separators) into @out; returns the byte count. */
static size_t from_hex(u8 *out, size_t max, const char *hex)
{
	size_t len = strlen(hex), i;

	if (len % 2 || len / 2 > max)
		abort();
	for (i = 0; i < len / 2; i++)
		out[i] = (u8)(hexval(hex[2 * i]) << 4 | hexval(hex[2 * i + 1]));
	return len / 2;
}

static void scalar32(u8 out[32], const char *hex)
{
	if (from_hex(out, 32, hex) != 32)
		abort();
}

/* 0x04 || x || y */
static void point65(u8 out[P256_POINT_SIZE], const char *x, const char *y)
{
	out[0] = 0x04;
	scalar32(out + 1, x);
	scalar32(out + 33, y);
}

/* Checks tlsx_p256_public(d) == (qx, qy). */
static int pub_matches(const char *d, const char *qx, const char *qy)
{
	u8 priv[32], want[P256_POINT_SIZE], got[P256_POINT_SIZE];

	scalar32(priv, d);
	point65(want, qx, qy);
	if (tlsx_p256_public(got, priv))
		return 0;
	return !memcmp(got, want, sizeof(got));
}

/* tlsx_p256_verify of (r, s) by (qx, qy) over SHA-256(msg). */
static int verify_msg(const char *msg, const char *qx, const char *qy,
		      const char *r, const char *s)
{
	u8 m[256], digest[SHA256_DIGEST_SIZE];
	u8 pub[P256_POINT_SIZE], sig[P256_SIG_SIZE];
	size_t mlen = from_hex(m, sizeof(m), msg);

	tlsx_sha256(m, mlen, digest);
	point65(pub, qx, qy);
	scalar32(sig, r);
	scalar32(sig + 32, s);
	return tlsx_p256_verify(sig, pub, sizeof(pub), digest, sizeof(digest));
}

/*
 * NIST CAVP, ECC CDH Primitive test vectors (CAVS 14.1,
 * KAS_ECC_CDH_PrimitiveTest.txt), [P-256], COUNT = 0 to 4.
 */
static const struct {
	const char *qcavs_x, *qcavs_y, *d, *qiut_x, *qiut_y, *z;
} cdh[] = {
	{	/* COUNT = 0 */
		"700c48f77f56584c5cc632ca65640db91b6bacce3a4df6b42ce7cc838833d287",
		"db71e509e3fd9b060ddb20ba5c51dcc5948d46fbf640dfe0441782cab85fa4ac",
		"7d7dc5f71eb29ddaf80d6214632eeae03d9058af1fb6d22ed80badb62bc1a534",
		"ead218590119e8876b29146ff89ca61770c4edbbf97d38ce385ed281d8a6b230",
		"28af61281fd35e2fa7002523acc85a429cb06ee6648325389f59edfce1405141",
		"46fc62106420ff012e54a434fbdd2d25ccc5852060561e68040dd7778997bd7b",
	},
	{	/* COUNT = 1 */
		"809f04289c64348c01515eb03d5ce7ac1a8cb9498f5caa50197e58d43a86a7ae",
		"b29d84e811197f25eba8f5194092cb6ff440e26d4421011372461f579271cda3",
		"38f65d6dce47676044d58ce5139582d568f64bb16098d179dbab07741dd5caf5",
		"119f2f047902782ab0c9e27a54aff5eb9b964829ca99c06b02ddba95b0a3f6d0",
		"8f52b726664cac366fc98ac7a012b2682cbd962e5acb544671d41b9445704d1d",
		"057d636096cb80b67a8c038c890e887d1adfa4195e9b3ce241c8a778c59cda67",
	},
	{	/* COUNT = 2 */
		"a2339c12d4a03c33546de533268b4ad667debf458b464d77443636440ee7fec3",
		"ef48a3ab26e20220bcda2c1851076839dae88eae962869a497bf73cb66faf536",
		"1accfaf1b97712b85a6f54b148985a1bdc4c9bec0bd258cad4b3d603f49f32c8",
		"d9f2b79c172845bfdb560bbb01447ca5ecc0470a09513b6126902c6b4f8d1051",
		"f815ef5ec32128d3487834764678702e64e164ff7315185e23aff5facd96d7bc",
		"2d457b78b4614132477618a5b077965ec90730a8c81a1c75d6d4ec68005d67ec",
	},
	{	/* COUNT = 3 */
		"df3989b9fa55495719b3cf46dccd28b5153f7808191dd518eff0c3cff2b705ed",
		"422294ff46003429d739a33206c8752552c8ba54a270defc06e221e0feaf6ac4",
		"207c43a79bfee03db6f4b944f53d2fb76cc49ef1c9c4d34d51b6c65c4db6932d",
		"24277c33f450462dcb3d4801d57b9ced05188f16c28eda873258048cd1607e0d",
		"c4789753e2b1f63b32ff014ec42cd6a69fac81dfe6d0d6fd4af372ae27c46f88",
		"96441259534b80f6aee3d287a6bb17b5094dd4277d9e294f8fe73e48bf2a0024",
	},
	{	/* COUNT = 4 */
		"41192d2813e79561e6a1d6f53c8bc1a433a199c835e141b05a74a97b0faeb922",
		"1af98cc45e98a7e041b01cf35f462b7562281351c8ebf3ffa02e33a0722a1328",
		"59137e38152350b195c9718d39673d519838055ad908dd4757152fd8255c09bf",
		"a8c5fdce8b62c5ada598f141adb3b26cf254c280b2857a63d2ad783a73115f6b",
		"806e1aafec4af80a0d786b3de45375b517a7e5b51ffb2c356537c9e6ef227d4a",
		"19d44c8d63e8e8dd12c22a87b8cd4ece27acdde04dbf47f7f27537a6999a8e62",
	},
};

TEST(cavp_ecc_cdh)
{
	u8 priv[32], peer[P256_POINT_SIZE], z[32], got[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cdh); i++) {
		EXPECT_TRUE(pub_matches(cdh[i].d, cdh[i].qiut_x, cdh[i].qiut_y))
			TH_LOG("CDH COUNT = %zu: dIUT -> QIUT", i);
		scalar32(priv, cdh[i].d);
		point65(peer, cdh[i].qcavs_x, cdh[i].qcavs_y);
		scalar32(z, cdh[i].z);
		ASSERT_EQ(0, tlsx_p256_ecdh(got, priv, peer, sizeof(peer)));
		EXPECT_EQ(0, memcmp(got, z, sizeof(z)))
			TH_LOG("CDH COUNT = %zu: ZIUT", i);
	}
}

/* RFC 5903 section 8.1: 256-bit Random ECP Group. */
TEST(rfc5903_ecdh)
{
	static const char i[] =
		"c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433";
	static const char gix[] =
		"dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180";
	static const char giy[] =
		"5271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3";
	static const char r[] =
		"c6ef9c5d78ae012a011164acb397ce2088685d8f06bf9be0b283ab46476bee53";
	static const char grx[] =
		"d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63";
	static const char gry[] =
		"56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab";
	static const char girx[] =
		"d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de";
	u8 priv[32], peer[P256_POINT_SIZE], want[32], got[32];

	EXPECT_TRUE(pub_matches(i, gix, giy));
	EXPECT_TRUE(pub_matches(r, grx, gry));
	scalar32(want, girx);

	scalar32(priv, i);
	point65(peer, grx, gry);
	ASSERT_EQ(0, tlsx_p256_ecdh(got, priv, peer, sizeof(peer)));
	EXPECT_EQ(0, memcmp(got, want, sizeof(want)));

	scalar32(priv, r);
	point65(peer, gix, giy);
	ASSERT_EQ(0, tlsx_p256_ecdh(got, priv, peer, sizeof(peer)));
	EXPECT_EQ(0, memcmp(got, want, sizeof(want)));
}

/*
 * NIST CAVP FIPS 186-4 ECDSA test vectors, KeyPair.rsp, [P-256]
 * (B.4.2 Key Pair Generation by Testing Candidates).
 */
static const struct {
	const char *d, *qx, *qy;
} keypair[] = {
	{
		"c9806898a0334916c860748880a541f093b579a9b1f32934d86c363c39800357",
		"d0720dc691aa80096ba32fed1cb97c2b620690d06de0317b8618d5ce65eb728f",
		"9681b517b1cda17d0d83d335d9c4a8a9a9b0b1b3c7106d8f3c72bc5093dc275f",
	}, {
		"710735c8388f48c684a97bd66751cc5f5a122d6b9a96a2dbe73662f78217446d",
		"f6836a8add91cb182d8d258dda6680690eb724a66dc3bb60d2322565c39e4ab9",
		"1f837aa32864870cb8e8d0ac2ff31f824e7beddc4bb7ad72c173ad974b289dc2",
	}, {
		"78d5d8b7b3e2c16b3e37e7e63becd8ceff61e2ce618757f514620ada8a11f6e4",
		"76711126cbb2af4f6a5fe5665dad4c88d27b6cb018879e03e54f779f203a854e",
		"a26df39960ab5248fd3620fd018398e788bd89a3cea509b352452b69811e6856",
	}, {
		"2a61a0703860585fe17420c244e1de5a6ac8c25146b208ef88ad51ae34c8cb8c",
		"e1aa7196ceeac088aaddeeba037abb18f67e1b55c0a5c4e71ec70ad666fcddc8",
		"d7d35bdce6dedc5de98a7ecb27a9cd066a08f586a733b59f5a2cdb54f971d5c8",
	}, {
		"01b965b45ff386f28c121c077f1d7b2710acc6b0cb58d8662d549391dcf5a883",
		"1f038c5422e88eec9e88b815e8f6b3e50852333fc423134348fc7d79ef8e8a10",
		"43a047cb20e94b4ffb361ef68952b004c0700b2962e0c0635a70269bc789b849",
	}, {
		"fac92c13d374c53a085376fe4101618e1e181b5a63816a84a0648f3bdc24e519",
		"7258f2ab96fc84ef6ccb33e308cd392d8b568ea635730ceb4ebd72fa870583b9",
		"489807ca55bdc29ca5c8fe69b94f227b0345cccdbe89975e75d385cc2f6bb1e2",
	}, {
		"f257a192dde44227b3568008ff73bcf599a5c45b32ab523b5b21ca582fef5a0a",
		"d2e01411817b5512b79bbbe14d606040a4c90deb09e827d25b9f2fc068997872",
		"503f138f8bab1df2c4507ff663a1fdf7f710e7adb8e7841eaa902703e314e793",
	}, {
		"add67e57c42a3d28708f0235eb86885a4ea68e0d8cfd76eb46134c596522abfd",
		"55bed2d9c029b7f230bde934c7124ed52b1330856f13cbac65a746f9175f85d7",
		"32805e311d583b4e007c40668185e85323948e21912b6b0d2cda8557389ae7b0",
	}, {
		"4494860fd2c805c5c0d277e58f802cff6d731f76314eb1554142a637a9bc5538",
		"5190277a0c14d8a3d289292f8a544ce6ea9183200e51aec08440e0c1a463a4e4",
		"ecd98514821bd5aaf3419ab79b71780569470e4fed3da3c1353b28fe137f36eb",
	}, {
		"d40b07b1ea7b86d4709ef9dc634c61229feb71abd63dc7fc85ef46711a87b210",
		"fbcea7c2827e0e8085d7707b23a3728823ea6f4878b24747fb4fd2842d406c73",
		"2393c85f1f710c5afc115a39ba7e18abe03f19c9d4bb3d47d19468b818efa535",
	},
};

TEST(cavp_keypair)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keypair); i++) {
		EXPECT_TRUE(pub_matches(keypair[i].d, keypair[i].qx,
					keypair[i].qy))
			TH_LOG("KeyPair [P-256] vector %zu", i);
	}
}

/*
 * NIST CAVP FIPS 186-3 ECDSA test vectors, SigGen.txt, [P-256,SHA-256],
 * the first three vectors (the nonce k is not an input of this API, so
 * only d -> Q and the verification of the published signature).
 */
static const struct {
	const char *msg, *d, *qx, *qy, *r, *s;
} siggen[] = {
	{
		"5905238877c77421f73e43ee3da6f2d9e2ccad5fc942dcec0cbd25482935faaf416983fe165b1a045ee2bcd2e6dca3bdf46c4310a7461f9a37960ca672d3feb5473e253605fb1ddfd28065b53cb5858a8ad28175bf9bd386a5e471ea7a65c17cc934a9d791e91491eb3754d03799790fe2d308d16146d5c9b0d0debd97d79ce8",
		"519b423d715f8b581f4fa8ee59f4771a5b44c8130b4e3eacca54a56dda72b464",
		"1ccbe91c075fc7f4f033bfa248db8fccd3565de94bbfb12f3c59ff46c271bf83",
		"ce4014c68811f9a21a1fdb2c0e6113e06db7ca93b7404e78dc7ccd5ca89a4ca9",
		"f3ac8061b514795b8843e3d6629527ed2afd6b1f6a555a7acabb5e6f79c8c2ac",
		"8bf77819ca05a6b2786c76262bf7371cef97b218e96f175a3ccdda2acc058903",
	}, {
		"c35e2f092553c55772926bdbe87c9796827d17024dbb9233a545366e2e5987dd344deb72df987144b8c6c43bc41b654b94cc856e16b96d7a821c8ec039b503e3d86728c494a967d83011a0e090b5d54cd47f4e366c0912bc808fbb2ea96efac88fb3ebec9342738e225f7c7c2b011ce375b56621a20642b4d36e060db4524af1",
		"0f56db78ca460b055c500064824bed999a25aaf48ebb519ac201537b85479813",
		"e266ddfdc12668db30d4ca3e8f7749432c416044f2d2b8c10bf3d4012aeffa8a",
		"bfa86404a2e9ffe67d47c587ef7a97a7f456b863b4d02cfc6928973ab5b1cb39",
		"976d3a4e9d23326dc0baa9fa560b7c4e53f42864f508483a6473b6a11079b2db",
		"1b766e9ceb71ba6c01dcd46e0af462cd4cfa652ae5017d4555b8eeefe36e1932",
	}, {
		"3c054e333a94259c36af09ab5b4ff9beb3492f8d5b4282d16801daccb29f70fe61a0b37ffef5c04cd1b70e85b1f549a1c4dc672985e50f43ea037efa9964f096b5f62f7ffdf8d6bfb2cc859558f5a393cb949dbd48f269343b5263dcdb9c556eca074f2e98e6d94c2c29a677afaf806edf79b15a3fcd46e7067b7669f83188ee",
		"e283871239837e13b95f789e6e1af63bf61c918c992e62bca040d64cad1fc2ef",
		"74ccd8a62fba0e667c50929a53f78c21b8ff0c3c737b0b40b1750b2302b0bde8",
		"29074e21f3a0ef88b9efdf10d06aa4c295cc1671f758ca0e4cd108803d0f2614",
		"35fb60f5ca0f3ca08542fb3cc641c8263a2cab7a90ee6a5e1583fac2bb6f6bd1",
		"ee59d81bc9db1055cc0ed97b159d8784af04e98511d0a9a407b99bb292572e96",
	},
};

TEST(cavp_siggen)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(siggen); i++) {
		EXPECT_TRUE(pub_matches(siggen[i].d, siggen[i].qx,
					siggen[i].qy))
			TH_LOG("SigGen vector %zu: d -> Q", i);
		EXPECT_EQ(0, verify_msg(siggen[i].msg, siggen[i].qx,
					siggen[i].qy, siggen[i].r,
					siggen[i].s))
			TH_LOG("SigGen vector %zu: (R, S) verifies", i);
	}
}

/*
 * NIST CAVP FIPS 186-3 ECDSA test vectors, SigVer.rsp, [P-256,SHA-256],
 * all 15 vectors; @ok is the published Result (P or F, with its reason).
 */
static const struct {
	const char *msg, *qx, *qy, *r, *s;
	bool ok;
} sigver[] = {
	{	/* F (3 - S changed) */
		"e4796db5f785f207aa30d311693b3702821dff1168fd2e04c0836825aefd850d9aa60326d88cde1a23c7745351392ca2288d632c264f197d05cd424a30336c19fd09bb229654f0222fcb881a4b35c290a093ac159ce13409111ff0358411133c24f5b8e2090d6db6558afc36f06ca1f6ef779785adba68db27a409859fc4c4a0",
		"87f8f2b218f49845f6f10eec3877136269f5c1a54736dbdf69f89940cad41555",
		"e15f369036f49842fac7a86c8a2b0557609776814448b8f5e84aa9f4395205e9",
		"d19ff48b324915576416097d2544f7cbdf8768b1454ad20e0baac50e211f23b0",
		"a3e81e59311cdfff2d4784949f7a2cb50ba6c3a91fa54710568e61aca3e847c6",
		false,
	}, {	/* F (2 - R changed) */
		"069a6e6b93dfee6df6ef6997cd80dd2182c36653cef10c655d524585655462d683877f95ecc6d6c81623d8fac4e900ed0019964094e7de91f1481989ae1873004565789cbf5dc56c62aedc63f62f3b894c9c6f7788c8ecaadc9bd0e81ad91b2b3569ea12260e93924fdddd3972af5273198f5efda0746219475017557616170e",
		"5cf02a00d205bdfee2016f7421807fc38ae69e6b7ccd064ee689fc1a94a9f7d2",
		"ec530ce3cc5c9d1af463f264d685afe2b4db4b5828d7e61b748930f3ce622a85",
		"dc23d130c6117fb5751201455e99f36f59aba1a6a21cf2d0e7481a97451d6693",
		"d6ce7708c18dbf35d4f8aa7240922dc6823f2e7058cbc1484fcad1599db5018c",
		false,
	}, {	/* F (4 - Q changed) */
		"df04a346cf4d0e331a6db78cca2d456d31b0a000aa51441defdb97bbeb20b94d8d746429a393ba88840d661615e07def615a342abedfa4ce912e562af714959896858af817317a840dcff85a057bb91a3c2bf90105500362754a6dd321cdd86128cfc5f04667b57aa78c112411e42da304f1012d48cd6a7052d7de44ebcc01de",
		"2ddfd145767883ffbb0ac003ab4a44346d08fa2570b3120dcce94562422244cb",
		"5f70c7d11ac2b7a435ccfbbae02c3df1ea6b532cc0e9db74f93fffca7c6f9a64",
		"9913111cff6f20c5bf453a99cd2c2019a4e749a49724a08774d14e4c113edda8",
		"9467cd4cd21ecb56b0cab0a9a453b43386845459127a952421f5c6382866c5cc",
		false,
	}, {	/* P (0 ) */
		"e1130af6a38ccb412a9c8d13e15dbfc9e69a16385af3c3f1e5da954fd5e7c45fd75e2b8c36699228e92840c0562fbf3772f07e17f1add56588dd45f7450e1217ad239922dd9c32695dc71ff2424ca0dec1321aa47064a044b7fe3c2b97d03ce470a592304c5ef21eed9f93da56bb232d1eeb0035f9bf0dfafdcc4606272b20a3",
		"e424dc61d4bb3cb7ef4344a7f8957a0c5134e16f7a67c074f82e6e12f49abf3c",
		"970eed7aa2bc48651545949de1dddaf0127e5965ac85d1243d6f60e7dfaee927",
		"bf96b99aa49c705c910be33142017c642ff540c76349b9dab72f981fd9347f4f",
		"17c55095819089c2e03b9cd415abdf12444e323075d98f31920b9e0f57ec871c",
		true,
	}, {	/* P (0 ) */
		"73c5f6a67456ae48209b5f85d1e7de7758bf235300c6ae2bdceb1dcb27a7730fb68c950b7fcada0ecc4661d3578230f225a875e69aaa17f1e71c6be5c831f22663bac63d0c7a9635edb0043ff8c6f26470f02a7bc56556f1437f06dfa27b487a6c4290d8bad38d4879b334e341ba092dde4e4ae694a9c09302e2dbf443581c08",
		"e0fc6a6f50e1c57475673ee54e3a57f9a49f3328e743bf52f335e3eeaa3d2864",
		"7f59d689c91e463607d9194d99faf316e25432870816dde63f5d4b373f12f22a",
		"1d75830cd36f4c9aa181b2c4221e87f176b7f05b7c87824e82e396c88315c407",
		"cb2acb01dac96efc53a32d4a0d85d0c2e48955214783ecf50a4f0414a319c05a",
		true,
	}, {	/* F (2 - R changed) */
		"666036d9b4a2426ed6585a4e0fd931a8761451d29ab04bd7dc6d0c5b9e38e6c2b263ff6cb837bd04399de3d757c6c7005f6d7a987063cf6d7e8cb38a4bf0d74a282572bd01d0f41e3fd066e3021575f0fa04f27b700d5b7ddddf50965993c3f9c7118ed78888da7cb221849b3260592b8e632d7c51e935a0ceae15207bedd548",
		"a849bef575cac3c6920fbce675c3b787136209f855de19ffe2e8d29b31a5ad86",
		"bf5fe4f7858f9b805bd8dcc05ad5e7fb889de2f822f3d8b41694e6c55c16b471",
		"25acc3aa9d9e84c7abf08f73fa4195acc506491d6fc37cb9074528a7db87b9d6",
		"9b21d5b5259ed3f2ef07dfec6cc90d3a37855d1ce122a85ba6a333f307d31537",
		false,
	}, {	/* F (4 - Q changed) */
		"7e80436bce57339ce8da1b5660149a20240b146d108deef3ec5da4ae256f8f894edcbbc57b34ce37089c0daa17f0c46cd82b5a1599314fd79d2fd2f446bd5a25b8e32fcf05b76d644573a6df4ad1dfea707b479d97237a346f1ec632ea5660efb57e8717a8628d7f82af50a4e84b11f21bdff6839196a880ae20b2a0918d58cd",
		"3dfb6f40f2471b29b77fdccba72d37c21bba019efa40c1c8f91ec405d7dcc5df",
		"f22f953f1e395a52ead7f3ae3fc47451b438117b1e04d613bc8555b7d6e6d1bb",
		"548886278e5ec26bed811dbb72db1e154b6f17be70deb1b210107decb1ec2a5a",
		"e93bfebd2f14f3d827ca32b464be6e69187f5edbd52def4f96599c37d58eee75",
		false,
	}, {	/* F (1 - Message changed) */
		"1669bfb657fdc62c3ddd63269787fc1c969f1850fb04c933dda063ef74a56ce13e3a649700820f0061efabf849a85d474326c8a541d99830eea8131eaea584f22d88c353965dabcdc4bf6b55949fd529507dfb803ab6b480cd73ca0ba00ca19c438849e2cea262a1c57d8f81cd257fb58e19dec7904da97d8386e87b84948169",
		"69b7667056e1e11d6caf6e45643f8b21e7a4bebda463c7fdbc13bc98efbd0214",
		"d3f9b12eb46c7c6fda0da3fc85bc1fd831557f9abc902a3be3cb3e8be7d1aa2f",
		"288f7a1cd391842cce21f00e6f15471c04dc182fe4b14d92dc18910879799790",
		"247b3c4e89a3bcadfea73c7bfd361def43715fa382b8c3edf4ae15d6e55e9979",
		false,
	}, {	/* F (3 - S changed) */
		"3fe60dd9ad6caccf5a6f583b3ae65953563446c4510b70da115ffaa0ba04c076115c7043ab8733403cd69c7d14c212c655c07b43a7c71b9a4cffe22c2684788ec6870dc2013f269172c822256f9e7cc674791bf2d8486c0f5684283e1649576efc982ede17c7b74b214754d70402fb4bb45ad086cf2cf76b3d63f7fce39ac970",
		"bf02cbcf6d8cc26e91766d8af0b164fc5968535e84c158eb3bc4e2d79c3cc682",
		"069ba6cb06b49d60812066afa16ecf7b51352f2c03bd93ec220822b1f3dfba03",
		"f5acb06c59c2b4927fb852faa07faf4b1852bbb5d06840935e849c4d293d1bad",
		"049dab79c89cc02f1484c437f523e080a75f134917fda752f2d5ca397addfe5d",
		false,
	}, {	/* F (2 - R changed) */
		"983a71b9994d95e876d84d28946a041f8f0a3f544cfcc055496580f1dfd4e312a2ad418fe69dbc61db230cc0c0ed97e360abab7d6ff4b81ee970a7e97466acfd9644f828ffec538abc383d0e92326d1c88c55e1f46a668a039beaa1be631a89129938c00a81a3ae46d4aecbf9707f764dbaccea3ef7665e4c4307fa0b0a3075c",
		"224a4d65b958f6d6afb2904863efd2a734b31798884801fcab5a590f4d6da9de",
		"178d51fddada62806f097aa615d33b8f2404e6b1479f5fd4859d595734d6d2b9",
		"87b93ee2fecfda54deb8dff8e426f3c72c8864991f8ec2b3205bb3b416de93d2",
		"4044a24df85be0cc76f21a4430b75b8e77b932a87f51e4eccbc45c263ebf8f66",
		false,
	}, {	/* F (3 - S changed) */
		"4a8c071ac4fd0d52faa407b0fe5dab759f7394a5832127f2a3498f34aac287339e043b4ffa79528faf199dc917f7b066ad65505dab0e11e6948515052ce20cfdb892ffb8aa9bf3f1aa5be30a5bbe85823bddf70b39fd7ebd4a93a2f75472c1d4f606247a9821f1a8c45a6cb80545de2e0c6c0174e2392088c754e9c8443eb5af",
		"43691c7795a57ead8c5c68536fe934538d46f12889680a9cb6d055a066228369",
		"f8790110b3c3b281aa1eae037d4f1234aff587d903d93ba3af225c27ddc9ccac",
		"8acd62e8c262fa50dd9840480969f4ef70f218ebf8ef9584f199031132c6b1ce",
		"cfca7ed3d4347fb2a29e526b43c348ae1ce6c60d44f3191b6d8ea3a2d9c92154",
		false,
	}, {	/* F (1 - Message changed) */
		"0a3a12c3084c865daf1d302c78215d39bfe0b8bf28272b3c0b74beb4b7409db0718239de700785581514321c6440a4bbaea4c76fa47401e151e68cb6c29017f0bce4631290af5ea5e2bf3ed742ae110b04ade83a5dbd7358f29a85938e23d87ac8233072b79c94670ff0959f9c7f4517862ff829452096c78f5f2e9a7e4e9216",
		"9157dbfcf8cf385f5bb1568ad5c6e2a8652ba6dfc63bc1753edf5268cb7eb596",
		"972570f4313d47fc96f7c02d5594d77d46f91e949808825b3d31f029e8296405",
		"dfaea6f297fa320b707866125c2a7d5d515b51a503bee817de9faa343cc48eeb",
		"8f780ad713f9c3e5a4f7fa4c519833dfefc6a7432389b1e4af463961f09764f2",
		false,
	}, {	/* F (4 - Q changed) */
		"785d07a3c54f63dca11f5d1a5f496ee2c2f9288e55007e666c78b007d95cc28581dce51f490b30fa73dc9e2d45d075d7e3a95fb8a9e1465ad191904124160b7c60fa720ef4ef1c5d2998f40570ae2a870ef3e894c2bc617d8a1dc85c3c55774928c38789b4e661349d3f84d2441a3b856a76949b9f1f80bc161648a1cad5588e",
		"072b10c081a4c1713a294f248aef850e297991aca47fa96a7470abe3b8acfdda",
		"9581145cca04a0fb94cedce752c8f0370861916d2a94e7c647c5373ce6a4c8f5",
		"09f5483eccec80f9d104815a1be9cc1a8e5b12b6eb482a65c6907b7480cf4f19",
		"a4f90e560c5e4eb8696cb276e5165b6a9d486345dedfb094a76e8442d026378d",
		false,
	}, {	/* F (1 - Message changed) */
		"76f987ec5448dd72219bd30bf6b66b0775c80b394851a43ff1f537f140a6e7229ef8cd72ad58b1d2d20298539d6347dd5598812bc65323aceaf05228f738b5ad3e8d9fe4100fd767c2f098c77cb99c2992843ba3eed91d32444f3b6db6cd212dd4e5609548f4bb62812a920f6e2bf1581be1ebeebdd06ec4e971862cc42055ca",
		"09308ea5bfad6e5adf408634b3d5ce9240d35442f7fe116452aaec0d25be8c24",
		"f40c93e023ef494b1c3079b2d10ef67f3170740495ce2cc57f8ee4b0618b8ee5",
		"5cc8aa7c35743ec0c23dde88dabd5e4fcd0192d2116f6926fef788cddb754e73",
		"9c9c045ebaa1b828c32f82ace0d18daebf5e156eb7cbfdc1eff4399a8a900ae7",
		false,
	}, {	/* P (0 ) */
		"60cd64b2cd2be6c33859b94875120361a24085f3765cb8b2bf11e026fa9d8855dbe435acf7882e84f3c7857f96e2baab4d9afe4588e4a82e17a78827bfdb5ddbd1c211fbc2e6d884cddd7cb9d90d5bf4a7311b83f352508033812c776a0e00c003c7e0d628e50736c7512df0acfa9f2320bd102229f46495ae6d0857cc452a84",
		"2d98ea01f754d34bbc3003df5050200abf445ec728556d7ed7d5c54c55552b6d",
		"9b52672742d637a32add056dfd6d8792f2a33c2e69dafabea09b960bc61e230a",
		"06108e525f845d0155bf60193222b3219c98e3d49424c2fb2a0987f825c17959",
		"62b5cdd591e5b507e560167ba8f6f7cda74673eb315680cb89ccbc4eec477dce",
		true,
	},
};

TEST(cavp_sigver)
{
	u8 pub[P256_POINT_SIZE];
	size_t i, pass = 0;

	for (i = 0; i < ARRAY_SIZE(sigver); i++) {
		/* Every Q, changed or not, is a valid public key. */
		point65(pub, sigver[i].qx, sigver[i].qy);
		EXPECT_EQ(0, tlsx_p256_check_public(pub, sizeof(pub)))
			TH_LOG("SigVer vector %zu: Q on the curve", i);
		EXPECT_EQ(sigver[i].ok ? 0 : -EBADMSG,
			  verify_msg(sigver[i].msg, sigver[i].qx, sigver[i].qy,
				     sigver[i].r, sigver[i].s))
			TH_LOG("SigVer vector %zu", i);
		pass += sigver[i].ok;
	}
	EXPECT_EQ(3, pass);
}

TEST_HARNESS_MAIN
