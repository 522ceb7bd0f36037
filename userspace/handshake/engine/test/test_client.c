// SPDX-License-Identifier: GPL-2.0
/*
 * test_client.c - the client engine against RFC 8448's traces:
 *
 *  - section 3 (simple 1-RTT): with the trace's Random and X25519 key
 *    injected through cfg->rand, the RFC's server flight gives the RFC's
 *    client Finished record byte for byte and the RFC's application and
 *    resumption secrets; the same fed whole, record by record and byte by
 *    byte (consumed counts exactly the whole records), with a CCS;
 *  - section 5 (HelloRetryRequest): the X25519 then secp256r1 keys
 *    injected, the HRR and its cookie, message_hash, the client Finished
 *    record byte for byte;
 *  - section 6 (client authentication): the CertificateRequest, our
 *    Certificate, CertificateVerify and Finished record byte for byte
 *    (the RFC's RSA-1024 client signature, checked by OpenSSL against
 *    the engine's transcript before the seam hands it out);
 *  - section 7 (compatibility mode): the 32-byte session id echoed, the
 *    server's CCS dropped, our CCS then Finished byte for byte;
 *  - refusals, each with the RFC's alert, sent as a record: ServerHello
 *    (TLS 1.2, downgrade sentinels, supported_versions, session id,
 *    suite, compression, key share group, all-zero X25519 share,
 *    missing key_share, unknown extension), HelloRetryRequest (a group
 *    already shared or not offered, no change, a second one), the
 *    server's flight re-sealed with a bad Finished, a truncated
 *    EncryptedExtensions, a missing one, an empty Certificate or one
 *    with a context, a bad CCS, a message across the key change, plaintext
 *    after the keys, application data, max_msg, a received alert, the
 *    server's pre_shared_key (not offered, identity, hash); every
 *    error sticky; a short output buffer refused before anything moves;
 *  - framing: a flight over a record split at 2^14, or under the peer's
 *    record_size_limit once protected, and opened back in order.
 *
 * tlsx's own ClientHello cannot be the RFC's: the trace offers groups
 * (secp384r1, secp521r1, ffdhe*) and schemes (rsa_pkcs1 and SHA-1 ones
 * in signature_algorithms) tlsx does not implement, and renegotiation_info
 * and session_ticket.  The test seam hs_test_hooks.client_hello sends the
 * RFC's bytes instead (the client's state -- Random, session id, key
 * share -- is its own, from the injected draws, and must match them).
 * The trace's server certificate is RSA-1024, under RSA_MIN_BITS: the
 * seam's peer_cert/cert_verify check it and its CertificateVerify with
 * OpenSSL (RSA-PSS-SHA256 over the 4.4.3 content), a real check.
 */
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <time.h>

#include "kselftest_harness.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"
#include "handshake/engine/test/hs_test.h"
#include "handshake/engine/test/rfc8448.h"

/* --- the OpenSSL verifier behind the seam -------------------------------- */

static struct evp_pkey_st *peer_key;

static int ossl_peer_cert(struct tlsx_hs *hs, const u8 *const *certs,
			  const size_t *lens, size_t n)
{
	const unsigned char *p = certs[0];
	X509 *x;

	(void)hs;
	if (!n)
		return TLSX_ALERT_BAD_CERTIFICATE;
	x = d2i_X509(NULL, &p, (long)lens[0]);
	if (!x || p != certs[0] + lens[0])
		return TLSX_ALERT_BAD_CERTIFICATE;
	EVP_PKEY_free(peer_key);
	peer_key = X509_get_pubkey(x);
	X509_free(x);
	return peer_key ? 0 : TLSX_ALERT_BAD_CERTIFICATE;
}

/*
 * A CertificateVerify by @key checked by OpenSSL: rsa_pss_rsae_sha256 or
 * ecdsa_secp256r1_sha256 over the 4.4.3 content of @role ("server" or
 * "client").
 */
static bool ossl_cv_ok(struct evp_pkey_st *key, const char *role, u16 scheme,
		       const u8 *th, size_t th_len, const u8 *sig,
		       size_t sig_len)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc;
	u8 content[64 + 34 + 64];
	size_t n;
	bool ok = false;

	if (!md || !key || (scheme != TLSX_SIG_RSA_PSS_RSAE_SHA256 &&
			    scheme != TLSX_SIG_ECDSA_SECP256R1_SHA256))
		goto out;
	memset(content, ' ', 64);
	n = 64 + sprintf((char *)content + 64, "TLS 1.3, %s CertificateVerify",
			 role) + 1;
	memcpy(content + n, th, th_len);
	if (EVP_DigestVerifyInit(md, &pc, EVP_sha256(), NULL, key) <= 0)
		goto out;
	if (scheme == TLSX_SIG_RSA_PSS_RSAE_SHA256 &&
	    (EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) <= 0 ||
	     EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) <= 0))
		goto out;
	ok = EVP_DigestVerify(md, sig, sig_len, content, n + th_len) == 1;
out:
	EVP_MD_CTX_free(md);
	return ok;
}

static int ossl_cert_verify(struct tlsx_hs *hs, u16 scheme, const u8 *th,
			    size_t th_len, const u8 *sig, size_t sig_len)
{
	(void)hs;
	return ossl_cv_ok(peer_key, "server", scheme, th, th_len, sig,
			  sig_len) ? 0 : TLSX_ALERT_DECRYPT_ERROR;
}

/* --- RFC 8448 section 3 --------------------------------------------------- */

static u8 s3_ch[512];
static size_t s3_ch_len;

static u8 s5_ch1[512], s5_ch2[600];

static const struct hs_test_hooks s3_hooks = {
	.peer_cert = ossl_peer_cert,
	.cert_verify = ossl_cert_verify,
	.client_hello = s3_ch,
};

struct s3 {
	struct tlsx_hs_config cfg;
	struct hs_test_hooks hooks;
	struct feed rand;
	struct tlsx_hs *hs;
	u8 in[2048];
	size_t in_len;
	u8 out[TLSX_HS_OUT_MIN];
};

static struct s3 s3;
static u8 secret_buf[48];

/* A client set up to replay section 3; the server's records in s3.in. */
static struct tlsx_hs *s3_client(void)
{
	size_t n;

	memset(&s3, 0, sizeof(s3));
	s3_ch_len = unhex(r8448_s3_ch, s3_ch, sizeof(s3_ch));
	s3.hooks = s3_hooks;
	s3.hooks.client_hello_len = s3_ch_len;
	/* The trace's draws: the Random (in the ClientHello), the key. */
	feed_add_bytes(&s3.rand, s3_ch + 6, 32);
	feed_add(&s3.rand, S3_C_PRIV);
	s3.cfg.rand = feed_rand;
	/* RFC 8448 predates the hybrids: the classical defaults of then. */
	s3.cfg.groups[0] = TLSX_GROUP_X25519;
	s3.cfg.groups[1] = TLSX_GROUP_SECP256R1;
	s3.cfg.n_groups = 2;
	s3.cfg.rand_ctx = &s3.rand;
	s3.cfg.no_compat_mode = true;	/* the trace sends no session id */
	s3.cfg.insecure = true;
	s3.cfg.suites[0] = TLSX_SUITE_AES_128_GCM_SHA256;
	s3.cfg.suites[1] = TLSX_SUITE_CHACHA20_POLY1305_SHA256;
	s3.cfg.suites[2] = TLSX_SUITE_AES_256_GCM_SHA384;
	s3.cfg.n_suites = 3;
	s3.hs = tlsx_hs_new(&s3.cfg);
	if (!s3.hs)
		return NULL;
	s3.hs->test = &s3.hooks;
	if (tlsx_hs_set_server_name(s3.hs, "server"))
		return NULL;

	/* The ServerHello record, then the server's protected flight. */
	s3.in[0] = TLSX_CT_HANDSHAKE;
	s3.in[1] = 3;
	s3.in[2] = 3;
	n = unhex(r8448_s3_sh, s3.in + 5, sizeof(s3.in) - 5);
	put_unaligned_be16((u16)n, s3.in + 3);
	s3.in_len = 5 + n;
	s3.in_len += unhex(r8448_s3_rec_sflight, s3.in + s3.in_len,
			   sizeof(s3.in) - s3.in_len);
	return s3.hs;
}

/* The first step writes the ClientHello record (0x0301, 5.1). */
static bool s3_hello(struct tlsx_hs *hs)
{
	size_t used, n;

	if (tlsx_hs_step(hs, NULL, 0, &used, s3.out, sizeof(s3.out), &n) !=
	    TLSX_HS_WANT_READ)
		return false;
	return n == 5 + s3_ch_len && !memcmp(s3.out, "\x16\x03\x01", 3) &&
	       get_unaligned_be16(s3.out + 3) == s3_ch_len &&
	       !memcmp(s3.out + 5, s3_ch, s3_ch_len) && used == 0;
}

static void s3_check_done(struct __test_metadata *_metadata,
			  struct tlsx_hs *hs, const u8 *out, size_t n)
{
	struct tlsx_hs_secrets sec;
	struct tlsx_hs_info info;
	u8 want[128];
	size_t w = unhex(r8448_s3_rec_cfin, want, sizeof(want));

	/* No compatibility CCS: the Finished record only, the RFC's. */
	ASSERT_EQ(w, n);
	EXPECT_EQ(0, memcmp(out, want, w));
	ASSERT_EQ(0, tlsx_hs_secrets(hs, &sec));
	EXPECT_EQ(TLSX_SUITE_AES_128_GCM_SHA256, sec.suite);
	EXPECT_EQ(32, sec.secret_len);
	EXPECT_TRUE(hex_is(sec.client, S3_C_AP));
	EXPECT_TRUE(hex_is(sec.server, S3_S_AP));
	EXPECT_TRUE(hex_is(sec.res_master, S3_RES));
	tlsx_hs_secrets_wipe(&sec);
	ASSERT_EQ(0, tlsx_hs_get_info(hs, &info));
	EXPECT_EQ(TLSX_GROUP_X25519, info.group);
	EXPECT_EQ(TLSX_SIG_RSA_PSS_RSAE_SHA256, info.sig_scheme);
	EXPECT_EQ(16385, info.peer_record_size_limit);
	EXPECT_FALSE(info.hrr);
	EXPECT_STREQ("server", info.server_name);
	/* Two draws: the Random and the key share's private key. */
	EXPECT_EQ(2, s3.rand.calls);
}

TEST(rfc8448_s3_whole_flight)
{
	struct tlsx_hs *hs = s3_client();
	size_t used, n;

	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(s3_hello(hs));
	ASSERT_EQ(TLSX_HS_DONE, tlsx_hs_step(hs, s3.in, s3.in_len, &used,
					     s3.out, sizeof(s3.out), &n));
	EXPECT_EQ(s3.in_len, used);
	s3_check_done(_metadata, hs, s3.out, n);
	/* DONE is sticky and writes nothing more. */
	EXPECT_EQ(TLSX_HS_DONE, tlsx_hs_step(hs, s3.in, s3.in_len, &used,
					     s3.out, sizeof(s3.out), &n));
	EXPECT_EQ(0, used);
	EXPECT_EQ(0, n);
	tlsx_hs_free(hs);
}

/* Fed one byte more each time: only whole records are consumed. */
TEST(rfc8448_s3_byte_by_byte)
{
	struct tlsx_hs *hs = s3_client();
	size_t have = 0, pos = 0, used, n, sh_rec;
	int ret = TLSX_HS_WANT_READ;

	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(s3_hello(hs));
	sh_rec = 5 + get_unaligned_be16(s3.in + 3);
	while (ret == TLSX_HS_WANT_READ && have < s3.in_len) {
		have++;
		ret = tlsx_hs_step(hs, s3.in + pos, have - pos, &used, s3.out,
				   sizeof(s3.out), &n);
		ASSERT_LE(0, ret);
		if (used) {
			/* Exactly a record: the ServerHello's, then the rest. */
			ASSERT_EQ(pos ? s3.in_len - sh_rec : sh_rec, used);
			pos += used;
		}
		if (ret == TLSX_HS_WANT_READ)
			ASSERT_EQ(0, n);
	}
	ASSERT_EQ(TLSX_HS_DONE, ret);
	EXPECT_EQ(s3.in_len, have);
	s3_check_done(_metadata, hs, s3.out, n);
	tlsx_hs_free(hs);
}

/* Bytes after the completing record stay the caller's (record-exact). */
TEST(rfc8448_s3_record_exact)
{
	struct tlsx_hs *hs = s3_client();
	size_t used, n, extra;

	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(s3_hello(hs));
	/* The server's NewSessionTicket record, right behind its flight. */
	extra = unhex(r8448_s3_rec_nst, s3.in + s3.in_len,
		      sizeof(s3.in) - s3.in_len);
	ASSERT_EQ(TLSX_HS_DONE, tlsx_hs_step(hs, s3.in, s3.in_len + extra,
					     &used, s3.out, sizeof(s3.out),
					     &n));
	EXPECT_EQ(s3.in_len, used);
	s3_check_done(_metadata, hs, s3.out, n);
	tlsx_hs_free(hs);
}

/* --- RFC 8448 section 5: HelloRetryRequest --------------------------------- */

/* A plaintext handshake record of the message @hex at @dst. */
static size_t hs_rec(u8 *dst, const char *hex, size_t cap)
{
	size_t n = unhex(hex, dst + 5, cap - 5);

	dst[0] = TLSX_CT_HANDSHAKE;
	dst[1] = 3;
	dst[2] = 3;
	put_unaligned_be16((u16)n, dst + 3);
	return 5 + n;
}

TEST(rfc8448_s5_hello_retry_request)
{
	struct tlsx_hs_secrets sec;
	struct tlsx_hs_info info;
	struct tlsx_hs *hs;
	size_t used, n, ch2, in_len;
	u8 want[128];

	memset(&s3, 0, sizeof(s3));
	s3.hooks = s3_hooks;
	s3.hooks.client_hello = s5_ch1;
	s3.hooks.client_hello_len = unhex(r8448_s5_ch1, s5_ch1,
					  sizeof(s5_ch1));
	s3.hooks.client_hello2 = s5_ch2;
	s3.hooks.client_hello2_len = ch2 = unhex(r8448_s5_ch2, s5_ch2,
						 sizeof(s5_ch2));
	feed_add_bytes(&s3.rand, s5_ch1 + 6, 32);
	feed_add(&s3.rand, S5_C_X25519_PRIV);
	feed_add(&s3.rand, S5_C_P256_PRIV);
	s3.cfg.rand = feed_rand;
	/* RFC 8448 predates the hybrids: the classical defaults of then. */
	s3.cfg.groups[0] = TLSX_GROUP_X25519;
	s3.cfg.groups[1] = TLSX_GROUP_SECP256R1;
	s3.cfg.n_groups = 2;
	s3.cfg.rand_ctx = &s3.rand;
	s3.cfg.no_compat_mode = true;
	s3.cfg.insecure = true;
	hs = tlsx_hs_new(&s3.cfg);
	ASSERT_NE(NULL, hs);
	hs->test = &s3.hooks;
	ASSERT_EQ(TLSX_HS_WANT_READ, tlsx_hs_step(hs, NULL, 0, &used, s3.out,
						  sizeof(s3.out), &n));
	ASSERT_EQ(5 + s3.hooks.client_hello_len, n);

	/* The HRR: ClientHello2 comes back in a 0x0303 record (5.1). */
	in_len = hs_rec(s3.in, r8448_s5_hrr, sizeof(s3.in));
	ASSERT_EQ(TLSX_HS_WANT_READ, tlsx_hs_step(hs, s3.in, in_len, &used,
						  s3.out, sizeof(s3.out), &n));
	EXPECT_EQ(in_len, used);
	ASSERT_EQ(5 + ch2, n);
	EXPECT_EQ(0, memcmp(s3.out, "\x16\x03\x03", 3));
	EXPECT_EQ(0, memcmp(s3.out + 5, s5_ch2, ch2));
	EXPECT_EQ(TLSX_GROUP_SECP256R1, hs->shares[0].group);

	in_len = hs_rec(s3.in, r8448_s5_sh, sizeof(s3.in));
	in_len += unhex(r8448_s5_rec_sflight, s3.in + in_len,
			sizeof(s3.in) - in_len);
	ASSERT_EQ(TLSX_HS_DONE, tlsx_hs_step(hs, s3.in, in_len, &used, s3.out,
					     sizeof(s3.out), &n))
		TH_LOG("alert %d", tlsx_hs_alert(hs));
	EXPECT_EQ(in_len, used);
	ASSERT_EQ(unhex(r8448_s5_rec_cfin, want, sizeof(want)), n);
	EXPECT_EQ(0, memcmp(s3.out, want, n));
	ASSERT_EQ(0, tlsx_hs_secrets(hs, &sec));
	EXPECT_TRUE(hex_is(sec.client, S5_C_AP));
	EXPECT_TRUE(hex_is(sec.server, S5_S_AP));
	EXPECT_TRUE(hex_is(sec.res_master, S5_RES));
	tlsx_hs_secrets_wipe(&sec);
	ASSERT_EQ(0, tlsx_hs_get_info(hs, &info));
	EXPECT_TRUE(info.hrr);
	EXPECT_EQ(TLSX_GROUP_SECP256R1, info.group);
	EXPECT_EQ(3, s3.rand.calls);
	tlsx_hs_free(hs);
}

/* --- RFC 8448 section 6: client authentication ----------------------------- */

/*
 * The trace's client CertificateVerify, handed out by the seam only once
 * OpenSSL has checked it against the transcript hash the engine gives
 * and the client certificate's key: the engine's transcript is the RFC's.
 */
static const u8 *s6_cv_sig;
static size_t s6_cv_sig_len;
static struct evp_pkey_st *s6_client_key;

static int s6_cert_sign(struct tlsx_hs *hs, u16 scheme, const u8 *th,
			size_t th_len, u8 *sig, size_t cap, size_t *sig_len)
{
	(void)hs;
	if (!ossl_cv_ok(s6_client_key, "client", scheme, th, th_len,
			s6_cv_sig, s6_cv_sig_len) || cap < s6_cv_sig_len)
		return -EINVAL;
	memcpy(sig, s6_cv_sig, s6_cv_sig_len);
	*sig_len = s6_cv_sig_len;
	return 0;
}

TEST(rfc8448_s6_client_authentication)
{
	static u8 ch[512], rec[1024], want[1024];
	struct tlsx_cert_chain chain = { 0 };
	struct tlsx_rec_dir d = { 0 };
	struct tlsx_hs_secrets sec;
	const unsigned char *p;
	struct tlsx_hs *hs;
	size_t used, n, ch_len, in_len, w, plen, cert_len, off;
	u8 *plain, type;
	X509 *x;

	/* The client's flight of the trace, opened: its certificate and
	 * CertificateVerify signature.
	 */
	w = unhex(r8448_s6_rec_cflight, want, sizeof(want));
	memcpy(rec, want, w);
	unhex(S6_C_HS, secret_buf, sizeof(secret_buf));
	ASSERT_EQ(0, tlsx_rec_set_secret(&d, TLSX_SUITE_AES_128_GCM_SHA256,
					 secret_buf, 32));
	ASSERT_EQ(0, tlsx_rec_open(&d, rec, w, TLSX_REC_MAX_PLAIN, &type,
				   &plain, &plen));
	tlsx_rec_wipe(&d);
	ASSERT_EQ(TLSX_HT_CERTIFICATE, plain[0]);
	/* 0b len24 | 00 | list len24 | cert len24 | cert | 00 00 */
	cert_len = (size_t)plain[8] << 16 | plain[9] << 8 | plain[10];
	chain.der = plain + 11;
	chain.der_len = cert_len;
	chain.n = 1;
	chain.len[0] = cert_len;
	p = chain.der;
	x = d2i_X509(NULL, &p, (long)cert_len);
	ASSERT_NE(NULL, x);
	s6_client_key = X509_get_pubkey(x);
	X509_free(x);
	off = 4 + ((size_t)plain[1] << 16 | plain[2] << 8 | plain[3]);
	ASSERT_EQ(TLSX_HT_CERTIFICATE_VERIFY, plain[off]);
	s6_cv_sig_len = get_unaligned_be16(plain + off + 6);
	s6_cv_sig = plain + off + 8;

	memset(&s3, 0, sizeof(s3));
	ch_len = unhex(r8448_s6_ch, ch, sizeof(ch));
	s3.hooks = s3_hooks;
	s3.hooks.client_hello = ch;
	s3.hooks.client_hello_len = ch_len;
	s3.hooks.cert_sign = s6_cert_sign;
	feed_add_bytes(&s3.rand, ch + 6, 32);
	feed_add(&s3.rand, S6_C_PRIV);
	s3.cfg.rand = feed_rand;
	/* RFC 8448 predates the hybrids: the classical defaults of then. */
	s3.cfg.groups[0] = TLSX_GROUP_X25519;
	s3.cfg.groups[1] = TLSX_GROUP_SECP256R1;
	s3.cfg.n_groups = 2;
	s3.cfg.rand_ctx = &s3.rand;
	s3.cfg.no_compat_mode = true;
	s3.cfg.insecure = true;
	s3.cfg.chains[0] = &chain;
	s3.cfg.n_chains = 1;
	/* The seam signs with the first of ours the server lists: RSA. */
	s3.cfg.sig_schemes[0] = TLSX_SIG_RSA_PSS_RSAE_SHA256;
	s3.cfg.sig_schemes[1] = TLSX_SIG_ECDSA_SECP256R1_SHA256;
	s3.cfg.n_sig_schemes = 2;
	hs = tlsx_hs_new(&s3.cfg);
	ASSERT_NE(NULL, hs);
	hs->test = &s3.hooks;
	ASSERT_EQ(TLSX_HS_WANT_READ, tlsx_hs_step(hs, NULL, 0, &used, s3.out,
						  sizeof(s3.out), &n));
	ASSERT_EQ(5 + ch_len, n);

	in_len = hs_rec(s3.in, r8448_s6_sh, sizeof(s3.in));
	in_len += unhex(r8448_s6_rec_sflight, s3.in + in_len,
			sizeof(s3.in) - in_len);
	ASSERT_EQ(TLSX_HS_DONE, tlsx_hs_step(hs, s3.in, in_len, &used, s3.out,
					     sizeof(s3.out), &n))
		TH_LOG("alert %d", tlsx_hs_alert(hs));
	EXPECT_TRUE(hs->cert_requested);
	EXPECT_EQ(TLSX_SIG_RSA_PSS_RSAE_SHA256, hs->own_sig_scheme);
	/* Certificate, CertificateVerify, Finished: the RFC's record. */
	ASSERT_EQ(w, n);
	EXPECT_EQ(0, memcmp(s3.out, want, w));
	ASSERT_EQ(0, tlsx_hs_secrets(hs, &sec));
	EXPECT_TRUE(hex_is(sec.client, S6_C_AP));
	EXPECT_TRUE(hex_is(sec.server, S6_S_AP));
	EXPECT_TRUE(hex_is(sec.res_master, S6_RES));
	tlsx_hs_secrets_wipe(&sec);
	tlsx_hs_free(hs);
	EVP_PKEY_free(s6_client_key);
}

/* --- RFC 8448 section 7: compatibility mode -------------------------------- */

TEST(rfc8448_s7_compatibility_mode)
{
	static u8 ch[512], want[128];
	struct tlsx_hs_secrets sec;
	struct tlsx_hs *hs;
	size_t used, n, ch_len, in_len, w;

	memset(&s3, 0, sizeof(s3));
	ch_len = unhex(r8448_s7_ch, ch, sizeof(ch));
	s3.hooks = s3_hooks;
	s3.hooks.client_hello = ch;
	s3.hooks.client_hello_len = ch_len;
	/* The Random, the 32-byte session id (D.4), the key. */
	feed_add_bytes(&s3.rand, ch + 6, 32);
	feed_add_bytes(&s3.rand, ch + 6 + 32 + 1, 32);
	feed_add(&s3.rand, S7_C_PRIV);
	s3.cfg.rand = feed_rand;
	/* RFC 8448 predates the hybrids: the classical defaults of then. */
	s3.cfg.groups[0] = TLSX_GROUP_X25519;
	s3.cfg.groups[1] = TLSX_GROUP_SECP256R1;
	s3.cfg.n_groups = 2;
	s3.cfg.rand_ctx = &s3.rand;
	s3.cfg.insecure = true;		/* compatibility mode is the default */
	hs = tlsx_hs_new(&s3.cfg);
	ASSERT_NE(NULL, hs);
	hs->test = &s3.hooks;
	ASSERT_EQ(TLSX_HS_WANT_READ, tlsx_hs_step(hs, NULL, 0, &used, s3.out,
						  sizeof(s3.out), &n));
	ASSERT_EQ(5 + ch_len, n);
	EXPECT_EQ(0, memcmp(s3.out, "\x16\x03\x01", 3));
	EXPECT_EQ(32, hs->session_id_len);

	/* ServerHello (echoing the id), the server's CCS, its flight. */
	in_len = hs_rec(s3.in, r8448_s7_sh, sizeof(s3.in));
	memcpy(s3.in + in_len, "\x14\x03\x03\x00\x01\x01", 6);
	in_len += 6;
	in_len += unhex(r8448_s7_rec_sflight, s3.in + in_len,
			sizeof(s3.in) - in_len);
	ASSERT_EQ(TLSX_HS_DONE, tlsx_hs_step(hs, s3.in, in_len, &used, s3.out,
					     sizeof(s3.out), &n))
		TH_LOG("alert %d", tlsx_hs_alert(hs));
	EXPECT_EQ(in_len, used);
	/* Our CCS before the first protected record, then Finished. */
	memcpy(want, "\x14\x03\x03\x00\x01\x01", 6);
	w = 6 + unhex(r8448_s7_rec_cfin, want + 6, sizeof(want) - 6);
	ASSERT_EQ(w, n);
	EXPECT_EQ(0, memcmp(s3.out, want, w));
	ASSERT_EQ(0, tlsx_hs_secrets(hs, &sec));
	EXPECT_TRUE(hex_is(sec.client, S7_C_AP));
	EXPECT_TRUE(hex_is(sec.server, S7_S_AP));
	EXPECT_TRUE(hex_is(sec.res_master, S7_RES));
	tlsx_hs_secrets_wipe(&sec);
	EXPECT_EQ(3, s3.rand.calls);
	tlsx_hs_free(hs);
}

/* --- refusals ------------------------------------------------------------- */

/*
 * The engine failed with @alert, sent it as a plaintext record, sticky.
 * *@np is read after @ret was computed (the argument order is not).
 */
/*
 * The section 3 client's alert after ServerHello: one record under its
 * handshake secret (RFC 8448's legacy_session_id is empty: no CCS).
 */
static bool alert_protected(const u8 *out, size_t n, int alert)
{
	struct tlsx_rec_dir d = { 0 };
	u8 rec[64], *data, type;
	size_t len;
	bool ok;

	if (n != 5 + 3 + 16 || out[0] != TLSX_CT_APPLICATION_DATA)
		return false;
	memcpy(rec, out, n);
	unhex(S3_C_HS, secret_buf, sizeof(secret_buf));
	ok = !tlsx_rec_set_secret(&d, TLSX_SUITE_AES_128_GCM_SHA256,
				  secret_buf, 32) &&
	     !tlsx_rec_open(&d, rec, n, TLSX_REC_MAX_PLAIN, &type, &data,
			    &len) &&
	     type == TLSX_CT_ALERT && len == 2 && data[0] == 2 &&
	     data[1] == alert;
	tlsx_rec_wipe(&d);
	return ok;
}

static bool failed_with(struct tlsx_hs *hs, int ret, const u8 *out,
			const size_t *np, int alert)
{
	size_t used, n2, n = *np;

	if (ret != -TLSX_HS_EALERT(alert) || tlsx_hs_alert(hs) != alert ||
	    tlsx_hs_alert_received(hs))
		return false;
	if (n == 7) {
		if (memcmp(out, "\x15\x03\x03\x00\x02\x02", 6) ||
		    out[6] != alert)
			return false;
	} else if (!alert_protected(out, n, alert)) {
		return false;
	}
	/* Sticky: the same error, nothing more written or consumed. */
	return tlsx_hs_step(hs, s3.in, s3.in_len, &used, s3.out,
			    sizeof(s3.out), &n2) == ret && !n2 && !used;
}

/* Runs the section 3 client on @in[0..@len) after its ClientHello. */
static int s3_feed(struct tlsx_hs *hs, const u8 *in, size_t len, size_t *n)
{
	size_t used;

	if (!s3_hello(hs))
		return -999;
	return tlsx_hs_step(hs, in, len, &used, s3.out, sizeof(s3.out), n);
}

/*
 * A ServerHello record from hex parts: legacy_version, Random, session
 * id (with its length byte), suite, compression and the extension
 * block's contents (NULL: no block at all, as TLS 1.2 allows).
 */
static size_t sh_build(u8 *dst, size_t cap, const char *version,
		       const char *random, const char *sid, const char *suite,
		       const char *comp, const char *exts)
{
	const char *const parts[] = { version, random, sid, suite, comp };
	u8 *m = dst + 5;
	size_t n = 4, e, i;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		n += unhex(parts[i], m + n, cap - 5 - n);
	if (exts) {
		e = unhex(exts, m + n + 2, cap - 5 - n - 2);
		put_unaligned_be16((u16)e, m + n);
		n += 2 + e;
	}
	m[0] = TLSX_HT_SERVER_HELLO;
	m[1] = 0;
	put_unaligned_be16((u16)(n - 4), m + 2);
	dst[0] = TLSX_CT_HANDSHAKE;
	dst[1] = 3;
	dst[2] = 3;
	put_unaligned_be16((u16)n, dst + 3);
	return 5 + n;
}

#define S3_RANDOM "a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dac155772ed3e26928"
#define KS_X25519 "00330024001d0020" S3_S_PUB
#define SV_13 "002b00020304"

static int sh_case(struct __test_metadata *_metadata, const char *version,
		   const char *random, const char *sid, const char *suite,
		   const char *comp, const char *exts, int alert)
{
	struct tlsx_hs *hs = s3_client();
	size_t len, n = 0;
	int ret;

	if (!hs)
		return -1;
	len = sh_build(s3.in, sizeof(s3.in), version, random, sid, suite,
		       comp, exts);
	ret = s3_feed(hs, s3.in, len, &n);
	EXPECT_TRUE(failed_with(hs, ret, s3.out, &n, alert))
		TH_LOG("ret %d alert %d, want %d", ret, tlsx_hs_alert(hs),
		       alert);
	tlsx_hs_free(hs);
	return 0;
}

TEST(server_hello_refusals)
{
	/* The trace's own ServerHello, rebuilt: the baseline works. */
	struct tlsx_hs *hs = s3_client();
	size_t len, used, n;

	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(s3_hello(hs));
	len = sh_build(s3.in, sizeof(s3.in), "0303", S3_RANDOM, "00", "1301",
		       "00", KS_X25519 SV_13);
	ASSERT_EQ(0, memcmp(s3.in + 5, (u8[]){ 2, 0, 0, 0x56 }, 4));
	ASSERT_EQ(TLSX_HS_WANT_READ, tlsx_hs_step(hs, s3.in, len, &used,
						  s3.out, sizeof(s3.out), &n));
	tlsx_hs_free(hs);

	/* 4.1.3: a TLS 1.2 ServerHello (no supported_versions). */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		KS_X25519, TLSX_ALERT_PROTOCOL_VERSION);
	/* ... with TLS 1.2's and TLS 1.1's downgrade sentinels. */
	sh_case(_metadata, "0303",
		"a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dc444f574e47524401",
		"00", "1301", "00", KS_X25519, TLSX_ALERT_ILLEGAL_PARAMETER);
	sh_case(_metadata, "0302",
		"a6af06a4121860dc5e6e60249cd34c95930c8ac5cb1434dc444f574e47524400",
		"00", "1301", "00", NULL, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* legacy_version not 0x0303. */
	sh_case(_metadata, "0302", S3_RANDOM, "00", "1301", "00",
		KS_X25519 SV_13, TLSX_ALERT_PROTOCOL_VERSION);
	/* 4.2.1: supported_versions selecting TLS 1.2. */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		KS_X25519 "002b00020303", TLSX_ALERT_ILLEGAL_PARAMETER);
	/* 4.1.3: a session id we did not send. */
	sh_case(_metadata, "0303", S3_RANDOM, "0101", "1301", "00",
		KS_X25519 SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* A suite we did not offer (CCM is not configured). */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1304", "00",
		KS_X25519 SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	sh_case(_metadata, "0303", S3_RANDOM, "00", "c02f", "00",
		KS_X25519 SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* Compression. */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "01",
		KS_X25519 SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* A share for a group we sent none for. */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		"003300450017004104583e054b7a66672ae020ad9d2686fcc85b5ad41a134a0f03ee72b893052bd85b4c8de6776f5b04ac07d83540eab3e3d9c547bc6528c4317d294686093a6cad7d"
		SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* 7.4.2: an X25519 share that gives the all-zero secret. */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		"00330024001d00200000000000000000000000000000000000000000000000000000000000000000"
		SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* A share of the wrong length. */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		"00330023001d001f00000000000000000000000000000000000000000000000000000000000000"
		SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* No key_share at all (and no PSK). */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00", SV_13,
		TLSX_ALERT_MISSING_EXTENSION);
	/* An extension we never asked for; ALPN, which SH cannot carry
	 * (4.2); a duplicate.
	 */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		KS_X25519 SV_13 "fa000000", TLSX_ALERT_UNSUPPORTED_EXTENSION);
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		KS_X25519 SV_13 "00100005000302683200",
		TLSX_ALERT_ILLEGAL_PARAMETER);
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		KS_X25519 SV_13 SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* A truncated ServerHello. */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "13", "", NULL,
		TLSX_ALERT_DECODE_ERROR);
}

/*
 * A client whose suites share one hash runs its transcript on that hash
 * alone from the start (hs.c, hs_client_one_hash()); with both hashes
 * among its suites, both until the ServerHello.  That such a client
 * completes its handshakes: test_client_ossl, one suite at a time
 * against OpenSSL.
 */
TEST(client_one_hash_transcript)
{
	static const struct {
		u16 suites[2];
		unsigned int n;
		enum tlsx_hash_alg alg;
	} c[] = {
		{ { TLSX_SUITE_AES_128_GCM_SHA256,
		    TLSX_SUITE_CHACHA20_POLY1305_SHA256 }, 2, TLSX_HASH_SHA256 },
		{ { TLSX_SUITE_AES_256_GCM_SHA384 }, 1, TLSX_HASH_SHA384 },
		{ { TLSX_SUITE_AES_128_GCM_SHA256,
		    TLSX_SUITE_AES_256_GCM_SHA384 }, 2, 0 },
		{ { 0 }, 0, 0 },	/* the defaults: both hashes */
	};
	struct tlsx_hs_config cfg;
	struct tlsx_hs *hs;
	size_t i, used, n;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		memset(&cfg, 0, sizeof(cfg));
		memcpy(cfg.suites, c[i].suites, sizeof(c[i].suites));
		cfg.n_suites = c[i].n;
		cfg.insecure = true;
		hs = tlsx_hs_new(&cfg);
		ASSERT_NE(NULL, hs);
		EXPECT_EQ(c[i].alg, hs->ts.alg) TH_LOG("case %zu", i);
		ASSERT_EQ(TLSX_HS_WANT_READ,
			  tlsx_hs_step(hs, NULL, 0, &used, s3.out,
				       sizeof(s3.out), &n));
		EXPECT_EQ(c[i].alg, hs->ts.alg) TH_LOG("case %zu", i);
		tlsx_hs_free(hs);
	}
}

/* RFC 8448 section 5's secp256r1 point (a point on the curve). */
#define S5_P256	"04a6da7392ec591e17abfd535964b99894d13befb221b3def2ebe3830eac8f0151812677c4d6d2237e85cf01d6910cfb83954e76ba7352830534159897e8065780"

/*
 * A client offering @group alone (its share drawn from the system) is
 * answered by a ServerHello whose key_share is @group's with @len bytes:
 * zeros (ML-KEM's ciphertext: decapsulation never fails) with the ECDH
 * part @ec (hex) first or last when it fits.  @alert 0: the client takes
 * it and awaits EncryptedExtensions.
 */
static void hybrid_sh_case(struct __test_metadata *_metadata, u16 group,
			   size_t len, const char *ec, bool ec_first,
			   int alert)
{
	static char exts[2 * 1300 + 64];
	struct tlsx_hs_config cfg;
	struct tlsx_hs *hs;
	size_t at, ec_hex = strlen(ec), used, n, in_len;
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	cfg.groups[0] = group;
	cfg.n_groups = 1;
	cfg.suites[0] = TLSX_SUITE_AES_128_GCM_SHA256;
	cfg.n_suites = 1;
	cfg.no_compat_mode = true;	/* the ServerHello echoes no id */
	cfg.insecure = true;
	hs = tlsx_hs_new(&cfg);
	ASSERT_NE(NULL, hs);
	ASSERT_EQ(TLSX_HS_WANT_READ, tlsx_hs_step(hs, NULL, 0, &used, s3.out,
						  sizeof(s3.out), &n));
	at = (size_t)sprintf(exts, "0033%04zx%04x%04zx", len + 4, group,
			     len);
	memset(exts + at, '0', 2 * len);
	if (2 * len >= ec_hex)
		memcpy(exts + at + (ec_first ? 0 : 2 * len - ec_hex), ec,
		       ec_hex);
	memcpy(exts + at + 2 * len, SV_13, sizeof(SV_13));
	in_len = sh_build(s3.in, sizeof(s3.in), "0303", S3_RANDOM, "00",
			  "1301", "00", exts);
	s3.in_len = 0;
	ret = tlsx_hs_step(hs, s3.in, in_len, &used, s3.out, sizeof(s3.out),
			   &n);
	if (!alert) {
		EXPECT_EQ(TLSX_HS_WANT_READ, ret);
		EXPECT_EQ(in_len, used);
		EXPECT_EQ(group, hs->group);
	} else {
		EXPECT_TRUE(failed_with(hs, ret, s3.out, &n, alert))
			TH_LOG("group 0x%04x, %zu bytes: ret %d alert %d",
			       group, len, ret, tlsx_hs_alert(hs));
	}
	tlsx_hs_free(hs);
}

/*
 * draft-ietf-tls-ecdhe-mlkem's server shares have one length each:
 * X25519MLKEM768 1,120 (ciphertext 1,088 || X25519 32),
 * SecP256r1MLKEM768 1,153 (point 65 || ciphertext 1,088); another length
 * is illegal_parameter (RFC 8446 4.2.8.2; kx.c).  One byte short or
 * long, the ciphertext alone, the ECDH part alone; the right length
 * taken.
 */
TEST(server_hello_hybrid_share_lengths)
{
	static const size_t xm[] = { 1119, 1121, 1088, 32 };
	static const size_t pm[] = { 1152, 1154, 1088, 65 };
	size_t i;

	hybrid_sh_case(_metadata, 0x11ec, 1120, S3_S_PUB, false, 0);
	hybrid_sh_case(_metadata, 0x11eb, 1153, S5_P256, true, 0);
	for (i = 0; i < ARRAY_SIZE(xm); i++) {
		hybrid_sh_case(_metadata, 0x11ec, xm[i], S3_S_PUB, false,
			       TLSX_ALERT_ILLEGAL_PARAMETER);
		hybrid_sh_case(_metadata, 0x11eb, pm[i], S5_P256, true,
			       TLSX_ALERT_ILLEGAL_PARAMETER);
	}
}

#define HRR_RANDOM "cf21ad74e59a6111be1d8c021e65b891c2a211167abb8c5e079e09e2c8a8339c"

TEST(hello_retry_request_refusals)
{
	struct tlsx_hs *hs;
	size_t len, used, n;

	/* 4.2.8: the group we already sent a share for. */
	sh_case(_metadata, "0303", HRR_RANDOM, "00", "1301", "00",
		"00330002001d" SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* A group not in our supported_groups (secp384r1). */
	sh_case(_metadata, "0303", HRR_RANDOM, "00", "1301", "00",
		"003300020018" SV_13, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* 4.1.4: an HRR that would not change the ClientHello. */
	sh_case(_metadata, "0303", HRR_RANDOM, "00", "1301", "00", SV_13,
		TLSX_ALERT_ILLEGAL_PARAMETER);
	/* An empty cookie. */
	sh_case(_metadata, "0303", HRR_RANDOM, "00", "1301", "00",
		"002c00020000" SV_13, TLSX_ALERT_DECODE_ERROR);

	/* 4.1.4: a second HelloRetryRequest. */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	len = sh_build(s3.in, sizeof(s3.in), "0303", HRR_RANDOM, "00", "1301",
		       "00", "003300020017" SV_13);
	ASSERT_EQ(TLSX_HS_WANT_READ, s3_feed(hs, s3.in, len, &n));
	EXPECT_NE(0, n);	/* ClientHello2 */
	ASSERT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
		  tlsx_hs_step(hs, s3.in, len, &used, s3.out, sizeof(s3.out),
			       &n));
	tlsx_hs_free(hs);

	/* After an HRR, a ServerHello with another suite. */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	len = sh_build(s3.in, sizeof(s3.in), "0303", HRR_RANDOM, "00", "1301",
		       "00", "003300020017" SV_13);
	ASSERT_EQ(TLSX_HS_WANT_READ, s3_feed(hs, s3.in, len, &n));
	len = sh_build(s3.in, sizeof(s3.in), "0303", S3_RANDOM, "00", "1303",
		       "00", KS_X25519 SV_13);
	EXPECT_TRUE(failed_with(hs, tlsx_hs_step(hs, s3.in, len, &used,
						 s3.out, sizeof(s3.out), &n),
				s3.out, &n, TLSX_ALERT_ILLEGAL_PARAMETER))
		TH_LOG("alert %d", tlsx_hs_alert(hs));
	tlsx_hs_free(hs);
}

/*
 * The section 3 server flight re-sealed (server handshake key, sequence
 * 0) from @plain, after the RFC's ServerHello record, into s3.in.
 */
static void s3_reseal(const u8 *plain, size_t len)
{
	struct tlsx_rec_dir d = { 0 };
	size_t sh = 5 + get_unaligned_be16(s3.in + 3), n;

	unhex(S3_S_HS, secret_buf, sizeof(secret_buf));
	if (tlsx_rec_set_secret(&d, TLSX_SUITE_AES_128_GCM_SHA256, secret_buf,
				32) ||
	    tlsx_rec_seal(&d, TLSX_CT_HANDSHAKE, plain, len, 0, s3.in + sh,
			  sizeof(s3.in) - sh, &n))
		abort();
	s3.in_len = sh + n;
	tlsx_rec_wipe(&d);
}

/* EE, Certificate, CertificateVerify, Finished of section 3, as hex. */
static size_t s3_msgs(u8 *buf, size_t cap, const char *ee, const char *cert,
		      const char *cv, const char *fin)
{
	size_t n = 0;

	n += unhex(ee, buf + n, cap - n);
	n += unhex(cert, buf + n, cap - n);
	n += unhex(cv, buf + n, cap - n);
	n += unhex(fin, buf + n, cap - n);
	return n;
}

static void flight_case(struct __test_metadata *_metadata, const u8 *plain,
			size_t len, int alert)
{
	struct tlsx_hs *hs = s3_client();
	size_t n = 0;

	ASSERT_NE(NULL, hs);
	s3_reseal(plain, len);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, s3.in, s3.in_len, &n), s3.out,
				&n, alert))
		TH_LOG("alert %d, want %d", tlsx_hs_alert(hs), alert);
	/* Past ServerHello: under the client's handshake key (7.1, A.2). */
	EXPECT_TRUE(alert_protected(s3.out, n, alert));
	tlsx_hs_free(hs);
}

TEST(server_flight_refusals)
{
	static u8 plain[1024];
	struct tlsx_hs *hs;
	size_t n, used, out;

	/* The re-sealed flight unchanged works: the method is sound. */
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee, r8448_s3_cert,
		    r8448_s3_cv, r8448_s3_sf);
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	s3_reseal(plain, n);
	ASSERT_EQ(TLSX_HS_DONE, s3_feed(hs, s3.in, s3.in_len, &out));
	tlsx_hs_free(hs);

	/* 4.4.4: a Finished that does not verify. */
	plain[n - 1] ^= 1;
	flight_case(_metadata, plain, n, TLSX_ALERT_DECRYPT_ERROR);
	/* ... or is short (a Finished of HashLen - 1 bytes). */
	plain[n - 1] ^= 1;
	plain[n - 33] = 31;
	flight_case(_metadata, plain, n - 1, TLSX_ALERT_DECODE_ERROR);

	/* A truncated EncryptedExtensions: its block says one byte more. */
	n = s3_msgs(plain, sizeof(plain),
		    "080000230022000a00140012001d00170018001901000101010201030104001c00024001000000",
		    r8448_s3_cert, r8448_s3_cv, r8448_s3_sf);
	flight_case(_metadata, plain, n, TLSX_ALERT_DECODE_ERROR);
	/* EncryptedExtensions missing: Certificate is unexpected. */
	n = s3_msgs(plain, sizeof(plain), "", r8448_s3_cert, r8448_s3_cv,
		    r8448_s3_sf);
	flight_case(_metadata, plain, n, TLSX_ALERT_UNEXPECTED_MESSAGE);
	/* An unsolicited extension in EE (early_data). */
	n = s3_msgs(plain, sizeof(plain), "08000006000400 2a 00 00",
		    r8448_s3_cert, r8448_s3_cv, r8448_s3_sf);
	flight_case(_metadata, plain, n, TLSX_ALERT_UNSUPPORTED_EXTENSION);
	/* 4.4.2.4: an empty Certificate. */
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee, "0b0000040000 0000",
		    r8448_s3_cv, r8448_s3_sf);
	flight_case(_metadata, plain, n, TLSX_ALERT_DECODE_ERROR);
	/* 4.4.2: a certificate_request_context in the server's. */
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee, "0b00000501aa000000",
		    r8448_s3_cv, r8448_s3_sf);
	flight_case(_metadata, plain, n, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* 4.3.2: a CertificateRequest with a context, or without
	 * signature_algorithms.
	 */
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee,
		    "0d00000e01aa000a000d000600040804 0403", r8448_s3_cert,
		    r8448_s3_cv);
	flight_case(_metadata, plain, n, TLSX_ALERT_ILLEGAL_PARAMETER);
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee,
		    "0d0000070000 04 fafa 0000", r8448_s3_cert, r8448_s3_cv);
	flight_case(_metadata, plain, n, TLSX_ALERT_MISSING_EXTENSION);
	/* A CertificateVerify with a scheme we did not offer (pkcs1). */
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee, r8448_s3_cert,
		    "0f00000604010002aaaa", r8448_s3_sf);
	flight_case(_metadata, plain, n, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* A Finished before CertificateVerify. */
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee, r8448_s3_cert,
		    r8448_s3_sf, "");
	flight_case(_metadata, plain, n, TLSX_ALERT_UNEXPECTED_MESSAGE);
	/* A ServerHello inside the protected flight. */
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee, r8448_s3_sh, "", "");
	flight_case(_metadata, plain, n, TLSX_ALERT_UNEXPECTED_MESSAGE);
	/* Bytes after the server's Finished in its record (5.1). */
	n = s3_msgs(plain, sizeof(plain), r8448_s3_ee, r8448_s3_cert,
		    r8448_s3_cv, r8448_s3_sf);
	n += unhex("0b000000", plain + n, sizeof(plain) - n);
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	s3_reseal(plain, n);
	/* The client's write key is set by then: the alert is protected. */
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
		  s3_feed(hs, s3.in, s3.in_len, &out));
	EXPECT_EQ(5 + 2 + 1 + 16, out);
	EXPECT_EQ(TLSX_CT_APPLICATION_DATA, s3.out[0]);
	tlsx_hs_free(hs);
	(void)used;
}

TEST(record_refusals)
{
	struct tlsx_hs *hs;
	size_t sh, n, used;
	u8 rec[8];

	/* A CCS of 0x02 (5). */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	sh = 5 + get_unaligned_be16(s3.in + 3);
	memcpy(s3.in + sh, "\x14\x03\x03\x00\x01\x02", 6);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, s3.in, sh + 6, &n), s3.out, &n,
				TLSX_ALERT_UNEXPECTED_MESSAGE));
	tlsx_hs_free(hs);

	/* A CCS of two bytes. */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	memcpy(s3.in + sh, "\x14\x03\x03\x00\x02\x01\x01", 7);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, s3.in, sh + 7, &n), s3.out, &n,
				TLSX_ALERT_UNEXPECTED_MESSAGE));
	tlsx_hs_free(hs);

	/* 5.1: the ServerHello's record carries the start of the next
	 * message (across the key change).
	 */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	memcpy(s3.in + sh, "\x08\x00", 2);
	put_unaligned_be16((u16)(sh - 5 + 2), s3.in + 3);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, s3.in, sh + 2, &n), s3.out, &n,
				TLSX_ALERT_UNEXPECTED_MESSAGE));
	tlsx_hs_free(hs);

	/* 5.2: a plaintext handshake record once the keys are set. */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	sh += hs_rec(s3.in + sh, r8448_s3_ee, sizeof(s3.in) - sh);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, s3.in, sh, &n), s3.out, &n,
				TLSX_ALERT_UNEXPECTED_MESSAGE));
	tlsx_hs_free(hs);

	/* Application data before any key. */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	memcpy(rec, "\x17\x03\x03\x00\x01\x00", 6);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, rec, 6, &n), s3.out, &n,
				TLSX_ALERT_UNEXPECTED_MESSAGE));
	tlsx_hs_free(hs);

	/* A zero-length handshake record (5.1). */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	memcpy(rec, "\x16\x03\x03\x00\x00", 5);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, rec, 5, &n), s3.out, &n,
				TLSX_ALERT_UNEXPECTED_MESSAGE));
	tlsx_hs_free(hs);

	/* A record type that is not TLS 1.3's: 5, unexpected_message. */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	memcpy(rec, "\x18\x03\x03\x00\x01\x00", 6);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, rec, 6, &n), s3.out, &n,
				TLSX_ALERT_UNEXPECTED_MESSAGE));
	tlsx_hs_free(hs);

	/* A plaintext record over 2^14. */
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	memcpy(rec, "\x16\x03\x03\x40\x01", 5);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, rec, 5, &n), s3.out, &n,
				TLSX_ALERT_RECORD_OVERFLOW));
	tlsx_hs_free(hs);
	(void)used;
}

/* 4.2.11: the ServerHello's pre_shared_key checked against our offer. */
static void psk_case(struct __test_metadata *_metadata, const char *suite,
		     const char *exts, int alert)
{
	struct tlsx_session sess = { 0 };
	struct tlsx_hs *hs = s3_client();
	size_t len, used, n = 0;

	ASSERT_NE(NULL, hs);
	sess.suite = TLSX_SUITE_AES_128_GCM_SHA256;
	sess.psk_len = 32;
	sess.issued = time(NULL);
	sess.lifetime = 3600;
	memcpy(sess.server_name, "server", 7);
	sess.ticket_len = 40;
	ASSERT_EQ(0, tlsx_hs_set_session(hs, &sess));
	/* Our own ClientHello (the RFC's has no pre_shared_key). */
	s3.hooks.client_hello = NULL;
	ASSERT_EQ(TLSX_HS_WANT_READ, tlsx_hs_step(hs, NULL, 0, &used, s3.out,
						  sizeof(s3.out), &n));
	len = sh_build(s3.in, sizeof(s3.in), "0303", S3_RANDOM, "00", suite,
		       "00", exts);
	EXPECT_TRUE(failed_with(hs, tlsx_hs_step(hs, s3.in, len, &used,
						 s3.out, sizeof(s3.out), &n),
				s3.out, &n, alert))
		TH_LOG("alert %d, want %d", tlsx_hs_alert(hs), alert);
	EXPECT_TRUE(hs->psk_offered);
	tlsx_hs_free(hs);
}

TEST(pre_shared_key_refusals)
{
	/* Not offered: unsupported_extension (ext.c). */
	sh_case(_metadata, "0303", S3_RANDOM, "00", "1301", "00",
		KS_X25519 SV_13 "002900020000",
		TLSX_ALERT_UNSUPPORTED_EXTENSION);
	/* An identity we did not send. */
	psk_case(_metadata, "1301", KS_X25519 SV_13 "002900020001",
		 TLSX_ALERT_ILLEGAL_PARAMETER);
	/* A suite of another hash than the PSK's. */
	psk_case(_metadata, "1302", KS_X25519 SV_13 "002900020000",
		 TLSX_ALERT_ILLEGAL_PARAMETER);
	/* Resumed without a key share, psk_ke not allowed. */
	psk_case(_metadata, "1301", SV_13 "002900020000",
		 TLSX_ALERT_MISSING_EXTENSION);
}

/* A CCS between the ServerHello and the flight is dropped (5, D.4). */
TEST(rfc8448_s3_with_ccs)
{
	struct tlsx_hs *hs = s3_client();
	size_t sh, used, n;

	ASSERT_NE(NULL, hs);
	sh = 5 + get_unaligned_be16(s3.in + 3);
	memmove(s3.in + sh + 6, s3.in + sh, s3.in_len - sh);
	memcpy(s3.in + sh, "\x14\x03\x03\x00\x01\x01", 6);
	s3.in_len += 6;
	ASSERT_TRUE(s3_hello(hs));
	ASSERT_EQ(TLSX_HS_DONE, tlsx_hs_step(hs, s3.in, s3.in_len, &used,
					     s3.out, sizeof(s3.out), &n));
	s3_check_done(_metadata, hs, s3.out, n);
	tlsx_hs_free(hs);
}

TEST(alert_received)
{
	struct tlsx_hs *hs = s3_client();
	size_t used, n;

	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(s3_hello(hs));
	memcpy(s3.in, "\x15\x03\x03\x00\x02\x02\x28", 7);
	ASSERT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_HANDSHAKE_FAILURE),
		  tlsx_hs_step(hs, s3.in, 7, &used, s3.out, sizeof(s3.out),
			       &n));
	EXPECT_EQ(0, n);	/* nothing sent back */
	EXPECT_TRUE(tlsx_hs_alert_received(hs));
	EXPECT_EQ(TLSX_ALERT_HANDSHAKE_FAILURE, tlsx_hs_alert(hs));
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_HANDSHAKE_FAILURE),
		  tlsx_hs_step(hs, s3.in, 7, &used, s3.out, sizeof(s3.out),
			       &n));
	/* A malformed alert record is decode_error. */
	tlsx_hs_free(hs);
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	memcpy(s3.in, "\x15\x03\x03\x00\x01\x02", 6);
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, s3.in, 6, &n), s3.out, &n,
				TLSX_ALERT_DECODE_ERROR));
	tlsx_hs_free(hs);
}

/* The certificate (445 bytes) over a 400-byte max_msg. */
TEST(max_msg)
{
	struct tlsx_hs *hs;
	size_t n;

	memset(&s3, 0, sizeof(s3));
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	s3.cfg.max_msg = 400;
	tlsx_hs_free(hs);
	hs = tlsx_hs_new(&s3.cfg);
	ASSERT_NE(NULL, hs);
	hs->test = &s3.hooks;
	EXPECT_EQ(sizeof(struct tlsx_hs) + TLSX_REC_MAX,
		  tlsx_hs_mem_size(&s3.cfg));
	EXPECT_EQ(sizeof(struct tlsx_hs) + TLSX_REC_MAX + 4 + 400,
		  tlsx_hs_mem_peak(&s3.cfg));
	EXPECT_TRUE(failed_with(hs, s3_feed(hs, s3.in, s3.in_len, &n), s3.out,
				&n, TLSX_ALERT_DECODE_ERROR));
	tlsx_hs_free(hs);
}

TEST(short_output_not_sticky)
{
	struct tlsx_hs *hs = s3_client();
	size_t used, n;

	ASSERT_NE(NULL, hs);
	EXPECT_EQ(-ENOSPC, tlsx_hs_step(hs, NULL, 0, &used, s3.out,
					TLSX_HS_OUT_MIN - 1, &n));
	EXPECT_EQ(0, n);
	EXPECT_EQ(-1, tlsx_hs_alert(hs));
	ASSERT_TRUE(s3_hello(hs));
	tlsx_hs_free(hs);
}

/*
 * hs_frame(): a flight larger than a record is split (5.1), under the
 * peer's record_size_limit when protected (RFC 8449 4), and opens back
 * to the same bytes in order.
 */
static void frame_case(struct __test_metadata *_metadata, bool protect,
		       u16 limit, size_t msg_len, size_t frag)
{
	static u8 got[40000];
	struct tlsx_rec_dir rd = { 0 };
	struct hs_out o = { .buf = s3.out, .cap = sizeof(s3.out) };
	struct tlsx_wr w;
	struct tlsx_hs *hs;
	size_t off = 0, have = 0, body, len, i, recs = 0;
	u8 *data, type;

	memset(&s3, 0, sizeof(s3));
	s3.cfg.insecure = true;
	hs = tlsx_hs_new(&s3.cfg);
	ASSERT_NE(NULL, hs);
	ASSERT_EQ(0, hs_set_suite(hs, TLSX_SUITE_AES_128_GCM_SHA256));
	memset(secret_buf, 7, 32);
	if (protect) {
		ASSERT_EQ(0, hs_set_write_secret(hs, secret_buf));
		ASSERT_EQ(0, tlsx_rec_set_secret(&rd,
						 TLSX_SUITE_AES_128_GCM_SHA256,
						 secret_buf, 32));
	}
	hs->peer_record_size_limit = limit;
	hs_msg_begin(hs, &o, TLSX_HT_CERTIFICATE, &w);
	for (i = 0; i < msg_len - 4; i++)
		tlsx_wr_u8(&w, (u8)i);
	ASSERT_EQ(0, hs_msg_end(hs, &o, &w));
	EXPECT_EQ(0, o.len);		/* pending until flushed */
	ASSERT_EQ(0, hs_flush(hs, &o));
	while (off < o.len) {
		ASSERT_EQ(0, tlsx_rec_header(o.buf + off, TLSX_REC_MAX_CIPHER,
					     &body));
		if (protect) {
			ASSERT_EQ(0, tlsx_rec_open(&rd, o.buf + off,
						   5 + body, TLSX_REC_MAX_PLAIN,
						   &type, &data, &len));
		} else {
			type = o.buf[off];
			data = o.buf + off + 5;
			len = body;
		}
		EXPECT_EQ(TLSX_CT_HANDSHAKE, type);
		EXPECT_LE(len, frag);
		memcpy(got + have, data, len);
		have += len;
		off += 5 + body;
		recs++;
	}
	ASSERT_EQ(msg_len, have);
	EXPECT_EQ((msg_len + frag - 1) / frag, recs);
	EXPECT_EQ(TLSX_HT_CERTIFICATE, got[0]);
	EXPECT_EQ(msg_len - 4, (size_t)got[1] << 16 | got[2] << 8 | got[3]);
	for (i = 0; i < msg_len - 4; i++)
		ASSERT_EQ((u8)i, got[4 + i]) TH_LOG("byte %zu", i);
	tlsx_rec_wipe(&rd);
	tlsx_hs_free(hs);
}

TEST(framing_splits)
{
	/* Plaintext: 2^14 per record, the limit applies to protected only. */
	frame_case(_metadata, false, 0, 36000, TLSX_REC_MAX_PLAIN);
	frame_case(_metadata, false, 100, 16385, TLSX_REC_MAX_PLAIN);
	/* Protected: 2^14, or the limit less the content type byte. */
	frame_case(_metadata, true, 0, 16384, TLSX_REC_MAX_PLAIN);
	frame_case(_metadata, true, 0, 33000, TLSX_REC_MAX_PLAIN);
	frame_case(_metadata, true, 64, 1000, 63);
	frame_case(_metadata, true, 4097, 10000, 4096);
}

/* What the default configuration costs, for docs/handshake.md. */
TEST(memory)
{
	struct tlsx_hs_config cfg = { 0 };

	TH_LOG("sizeof(struct tlsx_hs) %zu, tlsx_hs_mem_size(default) %zu",
	       sizeof(struct tlsx_hs), tlsx_hs_mem_size(&cfg));
	/*
	 * The state itself, so that it cannot grow unseen: 12,096 bytes on
	 * x86-64 (the AEAD keys of both directions are 3,200 of them:
	 * AES-GCM's key keeps 33 powers of H and their Karatsuba halves,
	 * 768 bytes more than before the one-pass records up to 1 KiB, and
	 * 2,176 fewer than with the 66 powers they took at first; the two
	 * key shares 2 x 2,504, for X25519MLKEM768's 1,216-byte share and
	 * 1,248 bytes of ML-KEM private key: 4,800 more than before the
	 * hybrids).
	 */
	EXPECT_GE(12096, sizeof(struct tlsx_hs));
	/* The record room; a spanning message only at the peak (hs.h). */
	EXPECT_EQ(sizeof(struct tlsx_hs) + TLSX_REC_MAX,
		  tlsx_hs_mem_size(&cfg));
	EXPECT_EQ(sizeof(struct tlsx_hs) + TLSX_REC_MAX + 4 +
		  TLSX_HS_DEFAULT_MAX_MSG, tlsx_hs_mem_peak(&cfg));
}

/* --- tlsx_hs_step_inplace() and cfg->inplace -------------------------------- */

/* The section 3 client again, configured for the in-place step only. */
static struct tlsx_hs *s3_client_inplace(void)
{
	struct tlsx_hs *hs = s3_client();

	if (!hs)
		return NULL;
	tlsx_hs_free(hs);
	s3.cfg.inplace = true;
	s3.hs = tlsx_hs_new(&s3.cfg);
	if (!s3.hs)
		return NULL;
	s3.hs->test = &s3.hooks;
	if (tlsx_hs_set_server_name(s3.hs, "server"))
		return NULL;
	return s3.hs;
}

static int s3_step_inplace(struct tlsx_hs *hs, u8 *in, size_t len,
			   size_t *used, size_t *n)
{
	return tlsx_hs_step_inplace(hs, in, len, used, s3.out, sizeof(s3.out),
				    n);
}

/* The ClientHello through the in-place step (nothing to read yet). */
static bool s3_hello_inplace(struct tlsx_hs *hs)
{
	size_t used, n;

	return s3_step_inplace(hs, NULL, 0, &used, &n) == TLSX_HS_WANT_READ &&
	       n == 5 + s3_ch_len && !memcmp(s3.out + 5, s3_ch, s3_ch_len) &&
	       !used;
}

/* The allocation is the state alone; a spanning message adds its own. */
TEST(inplace_mem_size)
{
	struct tlsx_hs_config cfg = { .inplace = true, .max_msg = 1000 };

	EXPECT_EQ(sizeof(struct tlsx_hs), tlsx_hs_mem_size(&cfg));
	EXPECT_EQ(sizeof(struct tlsx_hs) + 4 + 1000, tlsx_hs_mem_peak(&cfg));
	cfg.inplace = false;
	EXPECT_EQ(sizeof(struct tlsx_hs) + TLSX_REC_MAX,
		  tlsx_hs_mem_size(&cfg));
}

/* cfg->inplace: the const step is refused, not sticky, nothing done. */
TEST(inplace_const_step_einval)
{
	struct tlsx_hs *hs = s3_client_inplace();
	size_t used = 1, n = 1;

	ASSERT_NE(NULL, hs);
	EXPECT_EQ(-EINVAL, tlsx_hs_step(hs, s3.in, s3.in_len, &used, s3.out,
					sizeof(s3.out), &n));
	EXPECT_EQ(0, used);
	EXPECT_EQ(0, n);
	EXPECT_EQ(0, s3.rand.calls);	/* no ClientHello was built */
	ASSERT_TRUE(s3_hello_inplace(hs));
	EXPECT_EQ(-EINVAL, tlsx_hs_step(hs, s3.in, s3.in_len, &used, s3.out,
					sizeof(s3.out), &n));
	EXPECT_EQ(TLSX_HS_DONE, s3_step_inplace(hs, s3.in, s3.in_len, &used,
						&n));
	EXPECT_EQ(s3.in_len, used);
	s3_check_done(_metadata, hs, s3.out, n);
	tlsx_hs_free(hs);
}

/* RFC 8448 section 3 whole, with the NewSessionTicket behind it kept. */
TEST(inplace_rfc8448_s3)
{
	struct tlsx_hs *hs = s3_client_inplace();
	u8 nst[512];
	size_t used, n, extra;

	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(s3_hello_inplace(hs));
	extra = unhex(r8448_s3_rec_nst, nst, sizeof(nst));
	memcpy(s3.in + s3.in_len, nst, extra);
	ASSERT_EQ(TLSX_HS_DONE, s3_step_inplace(hs, s3.in, s3.in_len + extra,
						&used, &n));
	EXPECT_EQ(s3.in_len, used);
	/* Record-exact: what follows is untouched for the record layer. */
	EXPECT_EQ(0, memcmp(s3.in + s3.in_len, nst, extra));
	s3_check_done(_metadata, hs, s3.out, n);
	/* A step on a connection that is not inplace-only works too. */
	tlsx_hs_free(hs);
	hs = s3_client();
	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(s3_hello(hs));
	ASSERT_EQ(TLSX_HS_DONE, s3_step_inplace(hs, s3.in, s3.in_len, &used,
						&n));
	s3_check_done(_metadata, hs, s3.out, n);
	tlsx_hs_free(hs);
}

/* One byte more each time: whole records consumed, the rest untouched. */
TEST(inplace_byte_by_byte)
{
	static u8 orig[sizeof(s3.in)];
	struct tlsx_hs *hs = s3_client_inplace();
	size_t have = 0, pos = 0, used, n, sh_rec;
	int ret = TLSX_HS_WANT_READ;

	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(s3_hello_inplace(hs));
	memcpy(orig, s3.in, s3.in_len);
	sh_rec = 5 + get_unaligned_be16(s3.in + 3);
	while (ret == TLSX_HS_WANT_READ && have < s3.in_len) {
		have++;
		ret = s3_step_inplace(hs, s3.in + pos, have - pos, &used, &n);
		ASSERT_LE(0, ret);
		if (used) {
			ASSERT_EQ(pos ? s3.in_len - sh_rec : sh_rec, used);
			pos += used;
		}
		ASSERT_EQ(0, memcmp(s3.in + pos, orig + pos, have - pos));
		if (ret == TLSX_HS_WANT_READ)
			ASSERT_EQ(0, n);
	}
	ASSERT_EQ(TLSX_HS_DONE, ret);
	EXPECT_EQ(s3.in_len, have);
	/* The protected flight was opened where it lay. */
	EXPECT_NE(0, memcmp(s3.in + sh_rec, orig + sh_rec, 64));
	s3_check_done(_metadata, hs, s3.out, n);
	tlsx_hs_free(hs);
}

static u8 split_in[16384];
static size_t split_len;

/*
 * The RFC's server flight (EE..Finished, 5.1 lets messages span records)
 * re-sealed in records of @frag plaintext bytes after the ServerHello
 * record, into split_in.
 */
static void s3_reseal_split(size_t frag)
{
	static u8 plain[1024];
	struct tlsx_rec_dir d = { 0 };
	size_t sh = 5 + get_unaligned_be16(s3.in + 3), len, off, n, fl;

	len = s3_msgs(plain, sizeof(plain), r8448_s3_ee, r8448_s3_cert,
		      r8448_s3_cv, r8448_s3_sf);
	memcpy(split_in, s3.in, sh);
	split_len = sh;
	unhex(S3_S_HS, secret_buf, sizeof(secret_buf));
	if (tlsx_rec_set_secret(&d, TLSX_SUITE_AES_128_GCM_SHA256, secret_buf,
				32))
		abort();
	for (off = 0; off < len; off += fl) {
		fl = len - off < frag ? len - off : frag;
		if (tlsx_rec_seal(&d, TLSX_CT_HANDSHAKE, plain + off, fl, 0,
				  split_in + split_len,
				  sizeof(split_in) - split_len, &n))
			abort();
		split_len += n;
	}
	tlsx_rec_wipe(&d);
}

/*
 * Messages spanning records, record by record, both steps: each one
 * gathered in an allocation grown with what came, to its own size at
 * most (4 + its length, the Certificate's header read across records
 * too), freed once handled.
 */
static void split_case(struct __test_metadata *_metadata, size_t frag,
		       bool inplace)
{
	struct tlsx_hs *hs = inplace ? s3_client_inplace() : s3_client();
	size_t pos, used, n, max_cap = 0, rec;
	int ret = TLSX_HS_WANT_READ;

	ASSERT_NE(NULL, hs);
	ASSERT_TRUE(inplace ? s3_hello_inplace(hs) : s3_hello(hs));
	s3_reseal_split(frag);
	for (pos = 0; ret == TLSX_HS_WANT_READ && pos < split_len;
	     pos += rec) {
		rec = 5 + get_unaligned_be16(split_in + pos + 3);
		ret = inplace ? s3_step_inplace(hs, split_in + pos, rec, &used,
						&n) :
		      tlsx_hs_step(hs, split_in + pos, rec, &used, s3.out,
				   sizeof(s3.out), &n);
		ASSERT_LE(0, ret);
		ASSERT_EQ(rec, used);
		if (hs->msg) {
			ASSERT_LT(hs->msg_len, hs->msg_need);
			ASSERT_EQ(4 + (hs->msg[1] << 16 | hs->msg[2] << 8 |
				       hs->msg[3]), hs->msg_need);
			ASSERT_LE(hs->msg_cap, hs->msg_need);
			/* Grown with what came: twice that at most. */
			ASSERT_LE(hs->msg_cap, hs->msg_len * 2 < 256 ? 256 :
				  hs->msg_len * 2);
			ASSERT_LE(hs->msg_cap, 4 + hs->max_msg);
			if (hs->msg_need > max_cap)
				max_cap = hs->msg_need;
		}
	}
	ASSERT_EQ(TLSX_HS_DONE, ret);
	EXPECT_EQ(split_len, pos);
	EXPECT_EQ(NULL, hs->msg);
	EXPECT_EQ(0, hs->msg_len);
	/* The largest gathered: the Certificate, 4 + 441 bytes. */
	EXPECT_EQ(frag < 445 ? 445 : 0, max_cap);
	s3_check_done(_metadata, hs, s3.out, n);
	tlsx_hs_free(hs);
}

TEST(inplace_message_spans_records)
{
	split_case(_metadata, 1, true);
	split_case(_metadata, 3, true);
	split_case(_metadata, 7, true);
	split_case(_metadata, 100, true);
	split_case(_metadata, 400, true);
	split_case(_metadata, 1, false);
	split_case(_metadata, 100, false);
	/* One record for the flight: nothing gathered. */
	split_case(_metadata, 16384, true);
}

/* A spanning message over max_msg: refused at its header, not allocated. */
TEST(inplace_span_over_max_msg)
{
	struct tlsx_hs *hs = s3_client();
	size_t pos, used, n, rec;
	int ret = TLSX_HS_WANT_READ;

	ASSERT_NE(NULL, hs);
	tlsx_hs_free(hs);
	s3.cfg.inplace = true;
	s3.cfg.max_msg = 400;	/* the Certificate has 441 */
	hs = tlsx_hs_new(&s3.cfg);
	ASSERT_NE(NULL, hs);
	hs->test = &s3.hooks;
	ASSERT_TRUE(s3_hello_inplace(hs));
	s3_reseal_split(3);
	for (pos = 0; ret == TLSX_HS_WANT_READ && pos < split_len;
	     pos += rec) {
		rec = 5 + get_unaligned_be16(split_in + pos + 3);
		ret = s3_step_inplace(hs, split_in + pos, rec, &used, &n);
		/* EncryptedExtensions, gathered too, is under the bound. */
		if (hs->msg)
			ASSERT_GE(4 + 400, hs->msg_cap);
	}
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_DECODE_ERROR), ret);
	EXPECT_EQ(NULL, hs->msg);
	tlsx_hs_free(hs);
}

TEST_HARNESS_MAIN
