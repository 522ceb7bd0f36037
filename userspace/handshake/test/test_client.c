// SPDX-License-Identifier: GPL-2.0
/*
 * test_client.c - the client engine against RFC 8448's traces:
 *
 *  - section 3 (simple 1-RTT): with the trace's Random and X25519 key
 *    injected through cfg->rand, the RFC's server flight gives the RFC's
 *    client Finished record byte for byte and the RFC's application and
 *    resumption secrets; the same fed whole, record by record and byte by
 *    byte (consumed counts exactly the whole records).
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

#include "kselftest_harness.h"
#include "handshake/hs_impl.h"
#include "handshake/test/hs_test.h"
#include "handshake/test/rfc8448.h"

/* --- injected randomness: the given bytes in order, then a counter ------- */

struct feed {
	u8 bytes[256];
	size_t len, pos;
	unsigned int calls;
};

static int feed_rand(void *ctx, void *buf, size_t len)
{
	struct feed *f = ctx;
	u8 *p = buf;
	size_t i;

	f->calls++;
	for (i = 0; i < len; i++)
		p[i] = f->pos < f->len ? f->bytes[f->pos++] : (u8)(f->pos++);
	return 0;
}

static void feed_add(struct feed *f, const char *hex)
{
	f->len += unhex(hex, f->bytes + f->len, sizeof(f->bytes) - f->len);
}

static void feed_add_bytes(struct feed *f, const u8 *p, size_t n)
{
	memcpy(f->bytes + f->len, p, n);
	f->len += n;
}

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

static int ossl_cert_verify(struct tlsx_hs *hs, u16 scheme, const u8 *th,
			    size_t th_len, const u8 *sig, size_t sig_len)
{
	static const char ctx[] = "TLS 1.3, server CertificateVerify";
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc;
	u8 content[64 + sizeof(ctx) + 64];
	int ok = 0;

	(void)hs;
	if (scheme != TLSX_SIG_RSA_PSS_RSAE_SHA256 || !md || !peer_key)
		goto out;
	memset(content, ' ', 64);
	memcpy(content + 64, ctx, sizeof(ctx));
	memcpy(content + 64 + sizeof(ctx), th, th_len);
	if (EVP_DigestVerifyInit(md, &pc, EVP_sha256(), NULL, peer_key) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) <= 0)
		goto out;
	ok = EVP_DigestVerify(md, sig, sig_len, content,
			      64 + sizeof(ctx) + th_len) == 1;
out:
	EVP_MD_CTX_free(md);
	return ok ? 0 : TLSX_ALERT_DECRYPT_ERROR;
}

/* --- RFC 8448 section 3 --------------------------------------------------- */

static u8 s3_ch[512];
static size_t s3_ch_len;

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

TEST_HARNESS_MAIN
