// SPDX-License-Identifier: GPL-2.0
/*
 * test_keysched.c - the key schedule, the transcript and the functions of
 * the secrets:
 *
 *  - RFC 8448 section 3 (simple 1-RTT) byte for byte, from the trace's
 *    X25519 keys and messages: the transcript hashes, early, handshake
 *    and master secrets, the four traffic secrets, exporter and
 *    resumption master secrets, the finished keys, both Finished values
 *    (checked against the Finished messages), the four write keys and IVs,
 *    the ticket's resumption PSK;
 *  - section 4 (resumed 0-RTT): the early secret from that PSK, the binder
 *    hash, res binder key, binder finished key and binder, c e traffic,
 *    e exp master and the early key/IV, then the whole PSK-DHE schedule to
 *    the resumption master secret;
 *  - section 5 (HelloRetryRequest): message_hash replacing ClientHello1,
 *    the handshake traffic secrets over it;
 *  - stages refused out of order, wiped secrets, bad arguments;
 *  - Finished and binder checks: every bit flip and wrong lengths give the
 *    RFC's alert;
 *  - KeyUpdate's next secret and SHA-384 schedules against HKDF-Expand-
 *    Label built over OpenSSL's HKDF (EVP_KDF), an independent reference.
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>

#include "kselftest_harness.h"
#include "curve25519/x25519.h"
#include "hash/hkdf.h"
#include "handshake/engine/keysched.h"
#include "handshake/engine/transcript.h"
#include "handshake/engine/test/hs_test.h"
#include "handshake/engine/test/rfc8448.h"

static u8 msg[1024];

/* Adds the message @hex to @t. */
static void add(struct tlsx_transcript *t, const char *hex)
{
	tlsx_transcript_add(t, msg, unhex(hex, msg, sizeof(msg)));
}

/* Checks a secret of @ks against @hex. */
#define EXPECT_DERIVE(ks, which, th, hex) do {				\
	u8 _o[48];							\
	ASSERT_EQ(0, tlsx_ks_derive(ks, which, th, _o));		\
	EXPECT_TRUE(hex_is(_o, hex)) TH_LOG("%s", #which);		\
} while (0)

/* The write key and IV of @secret_hex (AES-128-GCM). */
#define EXPECT_KEYS(secret, key_hex, iv_hex) do {			\
	u8 _k[16], _iv[TLSX_IV_SIZE];					\
	ASSERT_EQ(0, tlsx_traffic_keys(TLSX_HASH_SHA256, secret, _k,	\
				       sizeof(_k), _iv));		\
	EXPECT_TRUE(hex_is(_k, key_hex)) TH_LOG("%s", #secret);		\
	EXPECT_TRUE(hex_is(_iv, iv_hex)) TH_LOG("%s", #secret);		\
} while (0)

/* The finished key of @secret (4.4.4), through hkdf.c as keysched.c. */
static bool fin_key_is(const u8 *secret, const char *hex)
{
	u8 k[32];

	if (tlsx_hkdf_expand_label(TLSX_HASH_SHA256, secret, "finished",
				   NULL, 0, k, 32))
		return false;
	return hex_is(k, hex);
}

TEST(rfc8448_s3_transcript)
{
	struct tlsx_transcript t;
	u8 th[32];

	tlsx_transcript_init(&t);
	add(&t, r8448_s3_ch);
	/* ServerHello chose TLS_AES_128_GCM_SHA256. */
	ASSERT_EQ(0, tlsx_transcript_choose(&t, TLSX_HASH_SHA256));
	add(&t, r8448_s3_sh);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	EXPECT_TRUE(hex_is(th, S3_TH_SH));
	add(&t, r8448_s3_ee);
	add(&t, r8448_s3_cert);
	add(&t, r8448_s3_cv);
	add(&t, r8448_s3_sf);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	EXPECT_TRUE(hex_is(th, S3_TH_SF));
	add(&t, r8448_s3_cf);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	EXPECT_TRUE(hex_is(th, S3_TH_CF));
	tlsx_transcript_wipe(&t);
}

TEST(rfc8448_s3_schedule)
{
	struct tlsx_transcript t;
	struct tlsx_ks ks;
	u8 priv[32], pub[32], dhe[32], dhe2[32], th[32], fin[32];
	u8 c_hs[32], s_hs[32], c_ap[32], s_ap[32], res[32], psk[32];
	u8 nonce[2];

	/* (EC)DHE from the trace's keys, both ways. */
	unhex(S3_C_PRIV, priv, 32);
	tlsx_x25519_public(pub, priv);
	ASSERT_TRUE(hex_is(pub, S3_C_PUB));
	unhex(S3_S_PUB, pub, 32);
	ASSERT_EQ(0, tlsx_x25519(dhe, priv, pub));
	unhex(S3_S_PRIV, priv, 32);
	unhex(S3_C_PUB, pub, 32);
	ASSERT_EQ(0, tlsx_x25519(dhe2, priv, pub));
	ASSERT_EQ(0, memcmp(dhe, dhe2, 32));
	ASSERT_TRUE(hex_is(dhe, S3_ECDHE));

	ASSERT_EQ(0, tlsx_ks_init(&ks, TLSX_HASH_SHA256, NULL, 0));
	EXPECT_EQ(TLSX_KS_EARLY, ks.stage);
	EXPECT_TRUE(hex_is(ks.secret, S3_EARLY));

	tlsx_transcript_init(&t);
	add(&t, r8448_s3_ch);
	ASSERT_EQ(0, tlsx_transcript_choose(&t, TLSX_HASH_SHA256));
	add(&t, r8448_s3_sh);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));

	ASSERT_EQ(0, tlsx_ks_handshake(&ks, dhe, sizeof(dhe)));
	EXPECT_TRUE(hex_is(ks.secret, S3_HS));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_C_HS_TRAFFIC, th, c_hs));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_S_HS_TRAFFIC, th, s_hs));
	EXPECT_TRUE(hex_is(c_hs, S3_C_HS));
	EXPECT_TRUE(hex_is(s_hs, S3_S_HS));
	EXPECT_KEYS(s_hs, S3_S_HS_KEY, S3_S_HS_IV);
	EXPECT_KEYS(c_hs, S3_C_HS_KEY, S3_C_HS_IV);
	EXPECT_TRUE(fin_key_is(s_hs, S3_S_FIN_KEY));
	EXPECT_TRUE(fin_key_is(c_hs, S3_C_FIN_KEY));

	ASSERT_EQ(0, tlsx_ks_master(&ks));
	EXPECT_TRUE(hex_is(ks.secret, S3_MASTER));

	/* The server's Finished covers ClientHello..CertificateVerify. */
	add(&t, r8448_s3_ee);
	add(&t, r8448_s3_cert);
	add(&t, r8448_s3_cv);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	ASSERT_EQ(0, tlsx_finished_mac(TLSX_HASH_SHA256, s_hs, th, fin));
	EXPECT_TRUE(hex_is(fin, S3_S_FINISHED));
	unhex(r8448_s3_sf, msg, sizeof(msg));
	EXPECT_EQ(0, tlsx_finished_check(TLSX_HASH_SHA256, s_hs, th,
					 msg + 4, 32));
	add(&t, r8448_s3_sf);

	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_C_AP_TRAFFIC, th, c_ap));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_S_AP_TRAFFIC, th, s_ap));
	EXPECT_TRUE(hex_is(c_ap, S3_C_AP));
	EXPECT_TRUE(hex_is(s_ap, S3_S_AP));
	EXPECT_DERIVE(&ks, TLSX_KS_EXP_MASTER, th, S3_EXP);
	EXPECT_KEYS(s_ap, S3_S_AP_KEY, S3_S_AP_IV);
	EXPECT_KEYS(c_ap, S3_C_AP_KEY, S3_C_AP_IV);

	/* The client's Finished covers ClientHello..server Finished. */
	ASSERT_EQ(0, tlsx_finished_mac(TLSX_HASH_SHA256, c_hs, th, fin));
	EXPECT_TRUE(hex_is(fin, S3_C_FINISHED));
	unhex(r8448_s3_cf, msg, sizeof(msg));
	EXPECT_EQ(0, tlsx_finished_check(TLSX_HASH_SHA256, c_hs, th,
					 msg + 4, 32));
	add(&t, r8448_s3_cf);

	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_RES_MASTER, th, res));
	EXPECT_TRUE(hex_is(res, S3_RES));
	unhex(S3_TICKET_NONCE, nonce, sizeof(nonce));
	ASSERT_EQ(0, tlsx_resumption_psk(TLSX_HASH_SHA256, res, nonce, 2,
					 psk));
	EXPECT_TRUE(hex_is(psk, S3_RES_PSK));

	tlsx_ks_wipe(&ks);
	tlsx_transcript_wipe(&t);
}

TEST(rfc8448_s4_resumed)
{
	struct tlsx_transcript t;
	struct tlsx_ks ks;
	u8 psk[32], bk[32], binder[32], th[32], priv[32], pub[32], dhe[32];
	u8 c_e[32], c_hs[32], s_hs[32], c_ap[32], s_ap[32], fin[32];
	size_t n;

	unhex(S3_RES_PSK, psk, 32);
	ASSERT_EQ(0, tlsx_ks_init(&ks, TLSX_HASH_SHA256, psk, 32));
	EXPECT_TRUE(hex_is(ks.secret, S4_EARLY));

	/* The binder, over the ClientHello up to its binders. */
	tlsx_transcript_init(&t);
	n = unhex(r8448_s4_ch_prefix, msg, sizeof(msg));
	ASSERT_EQ(477, n);
	ASSERT_EQ(0, tlsx_transcript_peek(&t, TLSX_HASH_SHA256, msg, n, th));
	EXPECT_TRUE(hex_is(th, S4_TH_BINDER));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_RES_BINDER, NULL, bk));
	EXPECT_TRUE(hex_is(bk, S4_RES_BINDER));
	EXPECT_TRUE(fin_key_is(bk, S4_BINDER_FIN_KEY));
	ASSERT_EQ(0, tlsx_finished_mac(TLSX_HASH_SHA256, bk, th, binder));
	EXPECT_TRUE(hex_is(binder, S4_BINDER));
	EXPECT_EQ(0, tlsx_binder_check(TLSX_HASH_SHA256, bk, th, binder, 32));

	/* The whole ClientHello: the prefix, then binders<33..2^16-1>. */
	msg[n++] = 0x00;
	msg[n++] = 0x21;
	msg[n++] = 0x20;
	memcpy(msg + n, binder, 32);
	n += 32;
	ASSERT_EQ(4 + 0x1fc, n);
	tlsx_transcript_add(&t, msg, n);
	ASSERT_EQ(0, tlsx_transcript_peek(&t, TLSX_HASH_SHA256, NULL, 0, th));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_C_E_TRAFFIC, th, c_e));
	EXPECT_TRUE(hex_is(c_e, S4_C_E));
	EXPECT_DERIVE(&ks, TLSX_KS_E_EXP_MASTER, th, S4_E_EXP);
	EXPECT_KEYS(c_e, S4_C_E_KEY, S4_C_E_IV);

	ASSERT_EQ(0, tlsx_transcript_choose(&t, TLSX_HASH_SHA256));
	add(&t, r8448_s4_sh);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	unhex(S4_C_PRIV, priv, 32);
	unhex(S4_S_PUB, pub, 32);
	ASSERT_EQ(0, tlsx_x25519(dhe, priv, pub));
	ASSERT_TRUE(hex_is(dhe, S4_ECDHE));
	ASSERT_EQ(0, tlsx_ks_handshake(&ks, dhe, 32));
	EXPECT_TRUE(hex_is(ks.secret, S4_HS));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_C_HS_TRAFFIC, th, c_hs));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_S_HS_TRAFFIC, th, s_hs));
	EXPECT_TRUE(hex_is(c_hs, S4_C_HS));
	EXPECT_TRUE(hex_is(s_hs, S4_S_HS));
	EXPECT_KEYS(s_hs, S4_S_HS_KEY, S4_S_HS_IV);
	EXPECT_KEYS(c_hs, S4_C_HS_KEY, S4_C_HS_IV);
	ASSERT_EQ(0, tlsx_ks_master(&ks));
	EXPECT_TRUE(hex_is(ks.secret, S4_MASTER));

	add(&t, r8448_s4_ee);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	ASSERT_EQ(0, tlsx_finished_mac(TLSX_HASH_SHA256, s_hs, th, fin));
	EXPECT_TRUE(hex_is(fin, S4_S_FINISHED));
	add(&t, r8448_s4_sf);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_C_AP_TRAFFIC, th, c_ap));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_S_AP_TRAFFIC, th, s_ap));
	EXPECT_TRUE(hex_is(c_ap, S4_C_AP));
	EXPECT_TRUE(hex_is(s_ap, S4_S_AP));
	EXPECT_DERIVE(&ks, TLSX_KS_EXP_MASTER, th, S4_EXP);
	EXPECT_KEYS(s_ap, S4_S_AP_KEY, S4_S_AP_IV);
	EXPECT_KEYS(c_ap, S4_C_AP_KEY, S4_C_AP_IV);

	/* EndOfEarlyData is in the client's Finished (4.4.1). */
	add(&t, r8448_s4_eoed);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	ASSERT_EQ(0, tlsx_finished_mac(TLSX_HASH_SHA256, c_hs, th, fin));
	EXPECT_TRUE(hex_is(fin, S4_C_FINISHED));
	add(&t, r8448_s4_cf);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	EXPECT_DERIVE(&ks, TLSX_KS_RES_MASTER, th, S4_RES);
	tlsx_ks_wipe(&ks);
}

TEST(rfc8448_s5_hello_retry)
{
	struct tlsx_transcript t;
	struct tlsx_ks ks;
	u8 th[32], ref[32], dhe[32], c_hs[32], s_hs[32], hdr[4 + 32];
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned int mdlen;
	size_t n;

	tlsx_transcript_init(&t);
	add(&t, r8448_s5_ch1);
	/* Not before the hash is known. */
	EXPECT_EQ(-EPROTO, tlsx_transcript_hrr(&t));
	ASSERT_EQ(0, tlsx_transcript_choose(&t, TLSX_HASH_SHA256));
	ASSERT_EQ(0, tlsx_transcript_hrr(&t));
	/* Once only. */
	EXPECT_EQ(-EPROTO, tlsx_transcript_hrr(&t));
	add(&t, r8448_s5_hrr);
	add(&t, r8448_s5_ch2);
	add(&t, r8448_s5_sh);
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));

	/* The reference: OpenSSL over message_hash || HRR || CH2 || SH. */
	n = unhex(r8448_s5_ch1, msg, sizeof(msg));
	hdr[0] = 254;
	hdr[1] = 0;
	hdr[2] = 0;
	hdr[3] = 32;
	ASSERT_EQ(1, EVP_Digest(msg, n, hdr + 4, &mdlen, EVP_sha256(), NULL));
	ASSERT_EQ(1, EVP_DigestInit_ex(md, EVP_sha256(), NULL));
	EVP_DigestUpdate(md, hdr, sizeof(hdr));
	n = unhex(r8448_s5_hrr, msg, sizeof(msg));
	EVP_DigestUpdate(md, msg, n);
	n = unhex(r8448_s5_ch2, msg, sizeof(msg));
	EVP_DigestUpdate(md, msg, n);
	n = unhex(r8448_s5_sh, msg, sizeof(msg));
	EVP_DigestUpdate(md, msg, n);
	ASSERT_EQ(1, EVP_DigestFinal_ex(md, ref, &mdlen));
	EVP_MD_CTX_free(md);
	EXPECT_EQ(0, memcmp(th, ref, 32));

	/* And the RFC's handshake traffic secrets over it. */
	ASSERT_EQ(0, tlsx_ks_init(&ks, TLSX_HASH_SHA256, NULL, 0));
	unhex(S5_ECDHE, dhe, 32);
	ASSERT_EQ(0, tlsx_ks_handshake(&ks, dhe, 32));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_C_HS_TRAFFIC, th, c_hs));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_S_HS_TRAFFIC, th, s_hs));
	EXPECT_TRUE(hex_is(c_hs, S5_C_HS));
	EXPECT_TRUE(hex_is(s_hs, S5_S_HS));
}

/* Only right after ClientHello1. */
TEST(hrr_only_after_first_hello)
{
	struct tlsx_transcript t;

	tlsx_transcript_init(&t);
	ASSERT_EQ(0, tlsx_transcript_choose(&t, TLSX_HASH_SHA256));
	EXPECT_EQ(-EPROTO, tlsx_transcript_hrr(&t));
	add(&t, r8448_s3_ch);
	add(&t, r8448_s3_sh);
	EXPECT_EQ(-EPROTO, tlsx_transcript_hrr(&t));
}

/* Both hashes until the choice; then one; hashing needs the choice. */
TEST(transcript_both_hashes)
{
	struct tlsx_transcript t, copy;
	u8 th[48], ref[48];
	unsigned int mdlen;
	size_t n = unhex(r8448_s3_ch, msg, sizeof(msg));

	tlsx_transcript_init(&t);
	tlsx_transcript_add(&t, msg, n);
	EXPECT_EQ(-EPROTO, tlsx_transcript_hash(&t, th));
	EXPECT_EQ(-EINVAL, tlsx_transcript_peek(&t, TLSX_HASH_SHA512, NULL,
						0, th));
	ASSERT_EQ(0, tlsx_transcript_peek(&t, TLSX_HASH_SHA256, NULL, 0, th));
	EVP_Digest(msg, n, ref, &mdlen, EVP_sha256(), NULL);
	EXPECT_EQ(0, memcmp(th, ref, 32));
	ASSERT_EQ(0, tlsx_transcript_peek(&t, TLSX_HASH_SHA384, NULL, 0, th));
	EVP_Digest(msg, n, ref, &mdlen, EVP_sha384(), NULL);
	EXPECT_EQ(0, memcmp(th, ref, 48));

	/* Peeking changes nothing. */
	copy = t;
	ASSERT_EQ(0, tlsx_transcript_peek(&t, TLSX_HASH_SHA384, msg, 10, th));
	EXPECT_EQ(0, memcmp(&copy, &t, sizeof(t)));

	ASSERT_EQ(0, tlsx_transcript_choose(&t, TLSX_HASH_SHA384));
	EXPECT_EQ(0, tlsx_transcript_choose(&t, TLSX_HASH_SHA384));
	EXPECT_EQ(-EINVAL, tlsx_transcript_choose(&t, TLSX_HASH_SHA256));
	EXPECT_EQ(-EINVAL, tlsx_transcript_peek(&t, TLSX_HASH_SHA256, NULL,
						0, th));
	ASSERT_EQ(0, tlsx_transcript_hash(&t, th));
	EXPECT_EQ(0, memcmp(th, ref, 48));
}

TEST(stages_in_order_only)
{
	struct tlsx_ks ks;
	u8 th[32] = { 0 }, out[48], dhe[32] = { 1 };
	static const u8 zeros[48];
	static const enum tlsx_ks_secret early[] = {
		TLSX_KS_EXT_BINDER, TLSX_KS_RES_BINDER, TLSX_KS_C_E_TRAFFIC,
		TLSX_KS_E_EXP_MASTER };
	static const enum tlsx_ks_secret hs[] = {
		TLSX_KS_C_HS_TRAFFIC, TLSX_KS_S_HS_TRAFFIC };
	static const enum tlsx_ks_secret ms[] = {
		TLSX_KS_C_AP_TRAFFIC, TLSX_KS_S_AP_TRAFFIC, TLSX_KS_EXP_MASTER,
		TLSX_KS_RES_MASTER };
	size_t i;

	memset(&ks, 0, sizeof(ks));
	EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, TLSX_KS_EXT_BINDER, th, out));
	EXPECT_EQ(-EPROTO, tlsx_ks_handshake(&ks, dhe, 32));
	EXPECT_EQ(-EPROTO, tlsx_ks_master(&ks));
	EXPECT_EQ(-EINVAL, tlsx_ks_init(&ks, TLSX_HASH_SHA512, NULL, 0));
	EXPECT_EQ(TLSX_KS_NONE, ks.stage);

	ASSERT_EQ(0, tlsx_ks_init(&ks, TLSX_HASH_SHA256, NULL, 0));
	EXPECT_EQ(-EPROTO, tlsx_ks_master(&ks));
	for (i = 0; i < ARRAY_SIZE(early); i++)
		EXPECT_EQ(0, tlsx_ks_derive(&ks, early[i], th, out));
	for (i = 0; i < ARRAY_SIZE(hs); i++)
		EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, hs[i], th, out));
	for (i = 0; i < ARRAY_SIZE(ms); i++)
		EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, ms[i], th, out));
	EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, 99, th, out));

	ASSERT_EQ(0, tlsx_ks_handshake(&ks, dhe, 32));
	EXPECT_EQ(-EPROTO, tlsx_ks_handshake(&ks, dhe, 32));
	for (i = 0; i < ARRAY_SIZE(early); i++)
		EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, early[i], th, out));
	for (i = 0; i < ARRAY_SIZE(hs); i++)
		EXPECT_EQ(0, tlsx_ks_derive(&ks, hs[i], th, out));
	for (i = 0; i < ARRAY_SIZE(ms); i++)
		EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, ms[i], th, out));

	ASSERT_EQ(0, tlsx_ks_master(&ks));
	EXPECT_EQ(-EPROTO, tlsx_ks_master(&ks));
	EXPECT_EQ(-EPROTO, tlsx_ks_handshake(&ks, dhe, 32));
	for (i = 0; i < ARRAY_SIZE(early); i++)
		EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, early[i], th, out));
	for (i = 0; i < ARRAY_SIZE(hs); i++)
		EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, hs[i], th, out));
	for (i = 0; i < ARRAY_SIZE(ms); i++)
		EXPECT_EQ(0, tlsx_ks_derive(&ks, ms[i], th, out));

	/* Wiped: the secret is gone and nothing derives. */
	tlsx_ks_wipe(&ks);
	EXPECT_EQ(TLSX_KS_NONE, ks.stage);
	EXPECT_EQ(0, memcmp(ks.secret, zeros, sizeof(ks.secret)));
	memset(out, 0x5a, sizeof(out));
	for (i = 0; i < ARRAY_SIZE(ms); i++)
		EXPECT_EQ(-EPROTO, tlsx_ks_derive(&ks, ms[i], th, out));
	EXPECT_EQ(0x5a, out[0]);
	EXPECT_EQ(-EPROTO, tlsx_ks_handshake(&ks, dhe, 32));
}

/* psk_ke: no (EC)DHE is HashLen zeros, as the master secret's input. */
TEST(no_dhe_is_zeros)
{
	struct tlsx_ks a, b;
	u8 zeros[32] = { 0 };

	ASSERT_EQ(0, tlsx_ks_init(&a, TLSX_HASH_SHA256, NULL, 0));
	ASSERT_EQ(0, tlsx_ks_init(&b, TLSX_HASH_SHA256, zeros, 32));
	EXPECT_EQ(0, memcmp(a.secret, b.secret, 32));
	ASSERT_EQ(0, tlsx_ks_handshake(&a, NULL, 0));
	ASSERT_EQ(0, tlsx_ks_handshake(&b, zeros, 32));
	EXPECT_EQ(0, memcmp(a.secret, b.secret, 32));
}

TEST(finished_check_alerts)
{
	u8 key[32], th[32], fin[33];
	size_t i;
	int b;

	unhex(S3_S_HS, key, 32);
	unhex(S3_TH_SF, th, 32);
	/* th here is past the server Finished: use the client's. */
	unhex(S3_C_HS, key, 32);
	ASSERT_EQ(0, tlsx_finished_mac(TLSX_HASH_SHA256, key, th, fin));
	ASSERT_TRUE(hex_is(fin, S3_C_FINISHED));
	EXPECT_EQ(0, tlsx_finished_check(TLSX_HASH_SHA256, key, th, fin, 32));
	for (i = 0; i < 32; i++)
		for (b = 0; b < 8; b++) {
			fin[i] ^= 1 << b;
			EXPECT_EQ(TLSX_ALERT_DECRYPT_ERROR,
				  tlsx_finished_check(TLSX_HASH_SHA256, key, th,
						      fin, 32));
			EXPECT_EQ(TLSX_ALERT_DECRYPT_ERROR,
				  tlsx_binder_check(TLSX_HASH_SHA256, key, th,
						    fin, 32));
			fin[i] ^= 1 << b;
		}
	/* A Finished of the wrong length is a malformed message. */
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  tlsx_finished_check(TLSX_HASH_SHA256, key, th, fin, 31));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  tlsx_finished_check(TLSX_HASH_SHA256, key, th, fin, 33));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  tlsx_finished_check(TLSX_HASH_SHA256, key, th, fin, 0));
	/* A binder of the wrong length does not validate. */
	EXPECT_EQ(TLSX_ALERT_DECRYPT_ERROR,
		  tlsx_binder_check(TLSX_HASH_SHA256, key, th, fin, 31));
	EXPECT_EQ(TLSX_ALERT_DECRYPT_ERROR,
		  tlsx_binder_check(TLSX_HASH_SHA256, key, th, fin, 48));
	EXPECT_EQ(-EINVAL,
		  tlsx_finished_check(TLSX_HASH_SHA512, key, th, fin, 64));
}

TEST(ct_memeq)
{
	u8 a[64], b[64];
	size_t i;

	memset(a, 0x33, sizeof(a));
	memcpy(b, a, sizeof(b));
	EXPECT_EQ(1, tlsx_ct_memeq(a, b, 64));
	EXPECT_EQ(1, tlsx_ct_memeq(a, b, 0));
	for (i = 0; i < 64; i++) {
		b[i] ^= 0x80;
		EXPECT_EQ(0, tlsx_ct_memeq(a, b, 64));
		b[i] ^= 0x81;
		EXPECT_EQ(0, tlsx_ct_memeq(a, b, 64));
		b[i] ^= 0x01;
	}
}

/* HKDF-Expand-Label over OpenSSL's HKDF-Expand (RFC 8446 7.1). */
static void ref_expand_label(const EVP_MD *md, const u8 *secret,
			     size_t slen, const char *label, const u8 *ctx,
			     size_t ctx_len, u8 *out, size_t out_len)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *k = EVP_KDF_CTX_new(kdf);
	u8 info[600];
	size_t n = 0, ll = strlen(label);
	int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
	OSSL_PARAM p[5];

	info[n++] = (u8)(out_len >> 8);
	info[n++] = (u8)out_len;
	info[n++] = (u8)(6 + ll);
	memcpy(info + n, "tls13 ", 6);
	n += 6;
	memcpy(info + n, label, ll);
	n += ll;
	info[n++] = (u8)ctx_len;
	if (ctx_len)
		memcpy(info + n, ctx, ctx_len);
	n += ctx_len;
	p[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
		(char *)EVP_MD_get0_name(md), 0);
	p[1] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	p[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
						 (void *)secret, slen);
	p[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info, n);
	p[4] = OSSL_PARAM_construct_end();
	if (EVP_KDF_derive(k, out, out_len, p) != 1)
		abort();
	EVP_KDF_CTX_free(k);
	EVP_KDF_free(kdf);
}

/* KeyUpdate (7.2): "traffic upd", in place, SHA-256 and SHA-384. */
TEST(key_update_next_secret)
{
	static const struct {
		enum tlsx_hash_alg alg;
		const char *md;
		size_t hl;
	} hs[] = { { TLSX_HASH_SHA256, "SHA256", 32 },
		   { TLSX_HASH_SHA384, "SHA384", 48 } };
	u8 secret[48], ref[48];
	size_t h;
	int i;

	for (h = 0; h < ARRAY_SIZE(hs); h++) {
		const EVP_MD *md = EVP_get_digestbyname(hs[h].md);

		unhex(S3_C_AP, secret, 32);
		memcpy(secret + 32, secret, 16);
		memcpy(ref, secret, sizeof(ref));
		for (i = 0; i < 5; i++) {
			u8 r[48];

			ref_expand_label(md, ref, hs[h].hl, "traffic upd",
					 NULL, 0, r, hs[h].hl);
			memcpy(ref, r, hs[h].hl);
			ASSERT_EQ(0, tlsx_next_traffic_secret(hs[h].alg,
							      secret));
			EXPECT_EQ(0, memcmp(secret, ref, hs[h].hl))
				TH_LOG("%s, update %d", hs[h].md, i + 1);
		}
	}
	EXPECT_EQ(-EINVAL, tlsx_next_traffic_secret(TLSX_HASH_SHA512, secret));
}

/*
 * A SHA-384 schedule (TLS_AES_256_GCM_SHA384) against the reference:
 * HKDF-Extract as OpenSSL's one-shot HMAC(), labels as above.
 */
TEST(sha384_schedule_vs_openssl)
{
	const EVP_MD *md = EVP_sha384();
	struct tlsx_ks ks;
	u8 zeros[48] = { 0 }, psk[48], dhe[32], th[48], empty[48];
	u8 ref[48], derived[48], got[48], key[32], iv[12], rkey[32], riv[12];
	unsigned int len;
	size_t i;

	for (i = 0; i < sizeof(psk); i++)
		psk[i] = (u8)(i * 7 + 1);
	for (i = 0; i < sizeof(dhe); i++)
		dhe[i] = (u8)(i * 13 + 5);
	for (i = 0; i < sizeof(th); i++)
		th[i] = (u8)(i * 3);
	EVP_Digest("", 0, empty, &len, md, NULL);

	ASSERT_EQ(0, tlsx_ks_init(&ks, TLSX_HASH_SHA384, psk, 48));
	HMAC(md, zeros, 48, psk, 48, ref, &len);
	EXPECT_EQ(0, memcmp(ks.secret, ref, 48));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_EXT_BINDER, NULL, got));
	ref_expand_label(md, ref, 48, "ext binder", empty, 48, derived, 48);
	EXPECT_EQ(0, memcmp(got, derived, 48));

	ref_expand_label(md, ref, 48, "derived", empty, 48, derived, 48);
	HMAC(md, derived, 48, dhe, 32, ref, &len);
	ASSERT_EQ(0, tlsx_ks_handshake(&ks, dhe, 32));
	EXPECT_EQ(0, memcmp(ks.secret, ref, 48));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_S_HS_TRAFFIC, th, got));
	ref_expand_label(md, ref, 48, "s hs traffic", th, 48, derived, 48);
	EXPECT_EQ(0, memcmp(got, derived, 48));
	ASSERT_EQ(0, tlsx_traffic_keys(TLSX_HASH_SHA384, got, key, 32, iv));
	ref_expand_label(md, got, 48, "key", NULL, 0, rkey, 32);
	ref_expand_label(md, got, 48, "iv", NULL, 0, riv, 12);
	EXPECT_EQ(0, memcmp(key, rkey, 32));
	EXPECT_EQ(0, memcmp(iv, riv, 12));

	ref_expand_label(md, ref, 48, "derived", empty, 48, derived, 48);
	HMAC(md, derived, 48, zeros, 48, ref, &len);
	ASSERT_EQ(0, tlsx_ks_master(&ks));
	EXPECT_EQ(0, memcmp(ks.secret, ref, 48));
	ASSERT_EQ(0, tlsx_ks_derive(&ks, TLSX_KS_RES_MASTER, th, got));
	ref_expand_label(md, ref, 48, "res master", th, 48, derived, 48);
	EXPECT_EQ(0, memcmp(got, derived, 48));
	tlsx_ks_wipe(&ks);
}

TEST(bad_arguments)
{
	u8 s[48] = { 0 }, out[48], key[16], iv[12];
	static u8 nonce[256];

	EXPECT_EQ(-EINVAL, tlsx_traffic_keys(TLSX_HASH_SHA512, s, key, 16,
					     iv));
	EXPECT_EQ(-EINVAL, tlsx_finished_mac(0, s, s, out));
	EXPECT_EQ(-EINVAL, tlsx_resumption_psk(TLSX_HASH_SHA256, s, nonce,
					       256, out));
	EXPECT_EQ(0, tlsx_resumption_psk(TLSX_HASH_SHA256, s, nonce, 255,
					 out));
}

TEST_HARNESS_MAIN
