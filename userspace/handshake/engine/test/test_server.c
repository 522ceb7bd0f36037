// SPDX-License-Identifier: GPL-2.0
/*
 * test_server.c - the server engine (server_role.c):
 *
 *  - RFC 8448 section 3 from the server side: the trace's ClientHello
 *    in, with the trace's server Random and X25519 key injected through
 *    cfg->rand, gives the trace's ServerHello record and its protected
 *    flight record (EncryptedExtensions, Certificate, CertificateVerify,
 *    Finished) byte for byte; the trace's client Finished record then
 *    completes the handshake with the trace's application secrets.  The
 *    trace's certificate is RSA-1024 (under RSA_MIN_BITS), so the seam's
 *    cert_sign checks the trace's signature with OpenSSL over the
 *    engine's own transcript hash and hands it back: the signature is
 *    the RFC's, the content it signs is ours.  Section 5's
 *    HelloRetryRequest byte for byte (the trace's cookie through the
 *    hrr_cookie seam) and its ClientHello2 taken; section 7's session id
 *    echoed with the dummy CCS.  (The traces' server key shares of
 *    sections 5-7 are not in the RFC: their later bytes are not ours to
 *    reproduce.)
 *  - OpenSSL 3.0's libssl as the client, in process over memory BIOs:
 *    every suite x group x signature scheme, with application data both
 *    ways under the secrets the engine hands out; HelloRetryRequest
 *    (with the compatibility CCS), ALPN, SNI choosing between two
 *    chains, client certificates (verified, absent, required,
 *    untrusted, certificate_authorities), TLS 1.2 only; several chains
 *    chosen by the client's signature_algorithms (ECDSA+RSA in both
 *    orders, ECDSA+Ed25519+RSA, RSA-PSS keys, two names with two chains
 *    each after a default, a chain signed by RSA over an ECDSA key; the
 *    leaf the client saw checked); resumption
 *    (psk_dhe_ke, psk_ke, through an HRR, refused for another name or
 *    protocol or an unknown ticket, a bad binder; psk_dhe_ke taken when
 *    both modes are offered unless prefer_psk_ke; a ticket declined by
 *    a server that now requires client certificates, or verifies them
 *    otherwise, and a full handshake with a CertificateRequest instead;
 *    the client-auth verdict kept on resumption).
 *  - tlsx's client against tlsx's server in memory: full, HRR, client
 *    certificate, resumption.
 *  - refusals: every ClientHello MUST of RFC 8446 4.1.2 and its
 *    extensions with its alert, the second ClientHello's rules after a
 *    HelloRetryRequest, declined early data skipped up to its bound; the
 *    client's flight sealed by hand (Finished good, wrong, short, not
 *    ending its record, data after it left alone; unexpected messages);
 *    the chain chosen by signature_algorithms_cert.
 */
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <time.h>

#include "kselftest_harness.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"
#include "handshake/engine/server_impl.h"
#include "handshake/engine/test/hs_pair_test.h"
#include "handshake/engine/test/hs_test.h"
#include "handshake/engine/test/ossl_test.h"
#include "handshake/engine/test/rfc8448.h"


/* --- RFC 8448 ------------------------------------------------------------- */

static u8 rfc_cert[1024], rfc_cv[256];
static size_t rfc_cert_len, rfc_cv_len;
static struct tlsx_cert_chain rfc_chain;
static int rfc_sign_calls;

/*
 * The seam's signer: the RFC's CertificateVerify signature, after
 * OpenSSL has verified it over the 4.4.3 content built from the
 * engine's own transcript hash @th (RSA-PSS-SHA256, salt = hash length).
 */
static int rfc_cert_sign(struct tlsx_hs *hs, u16 scheme, const u8 *th,
			 size_t th_len, u8 *sig, size_t cap, size_t *sig_len)
{
	static const char ctx[] = "TLS 1.3, server CertificateVerify";
	const unsigned char *p = rfc_cert;
	u8 content[64 + sizeof(ctx) + 64];
	const u8 *s = rfc_cv + 8;	/* header, scheme, length */
	size_t s_len = rfc_cv_len - 8;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY *key = NULL;
	EVP_PKEY_CTX *pc;
	X509 *x;
	int ok = 0;

	(void)hs;
	rfc_sign_calls++;
	x = d2i_X509(NULL, &p, (long)rfc_cert_len);
	if (x)
		key = X509_get_pubkey(x);
	if (scheme != TLSX_SIG_RSA_PSS_RSAE_SHA256 || !md || !key ||
	    cap < s_len)
		goto out;
	memset(content, ' ', 64);
	memcpy(content + 64, ctx, sizeof(ctx));
	memcpy(content + 64 + sizeof(ctx), th, th_len);
	if (EVP_DigestVerifyInit(md, &pc, EVP_sha256(), NULL, key) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) <= 0)
		goto out;
	ok = EVP_DigestVerify(md, s, s_len, content,
			      64 + sizeof(ctx) + th_len) == 1;
	if (ok) {
		memcpy(sig, s, s_len);
		*sig_len = s_len;
	}
out:
	EVP_MD_CTX_free(md);
	EVP_PKEY_free(key);
	X509_free(x);
	return ok ? 0 : -EBADMSG;
}

static u8 rfc_ee_groups[64];

struct rfc {
	struct tlsx_hs_config cfg;
	struct hs_test_hooks hooks;
	struct feed rand;
	struct tlsx_hs *hs;
	u8 in[4096];
	size_t in_len;
	u8 out[TLSX_HS_OUT_MIN];
	size_t out_len;
};

static struct rfc rfc;

/* The section 3 server: the trace's certificate (a chain by hand). */
static struct tlsx_hs *rfc_server(void)
{
	u8 msg[1024];
	size_t n;

	memset(&rfc, 0, sizeof(rfc));
	/* Certificate: ctx 00, list u24, cert_data u24, ..., ext 0000. */
	n = unhex(r8448_s3_cert, msg, sizeof(msg));
	rfc_cert_len = (size_t)msg[8] << 16 | msg[9] << 8 | msg[10];
	if (rfc_cert_len + 13 != n)
		return NULL;
	memcpy(rfc_cert, msg + 11, rfc_cert_len);
	rfc_cv_len = unhex(r8448_s3_cv, rfc_cv, sizeof(rfc_cv));
	memset(&rfc_chain, 0, sizeof(rfc_chain));
	rfc_chain.der = rfc_cert;
	rfc_chain.der_len = rfc_cert_len;
	rfc_chain.n = 1;
	rfc_chain.len[0] = rfc_cert_len;
	/* What the scheme choice reads: an rsaEncryption key and leaf. */
	rfc_chain.key.type = TLSX_KEY_RSA;
	rfc_chain.leaf.pub.type = TLSX_KEY_RSA;
	rfc.cfg.server = true;
	rfc.cfg.chains[0] = &rfc_chain;
	rfc.cfg.n_chains = 1;
	rfc.cfg.record_size_limit = 0x4001;
	rfc.cfg.rand = feed_rand;
	rfc.cfg.rand_ctx = &rfc.rand;
	rfc.hooks.cert_sign = rfc_cert_sign;
	/* The trace's EE lists ffdhe and secp384/521 as well. */
	rfc.hooks.ee_groups = rfc_ee_groups;
	rfc.hooks.ee_groups_len = unhex("0012001d00170018001901000101010201030104",
					rfc_ee_groups, sizeof(rfc_ee_groups));
	rfc.hs = tlsx_hs_new(&rfc.cfg);
	if (rfc.hs)
		rfc.hs->test = &rfc.hooks;
	return rfc.hs;
}

/* @hex as a plaintext record of @type at rfc.in. */
static void rfc_record(u8 type, const char *hex)
{
	size_t n = unhex(hex, rfc.in + rfc.in_len + 5,
			 sizeof(rfc.in) - rfc.in_len - 5);

	rfc.in[rfc.in_len] = type;
	rfc.in[rfc.in_len + 1] = 3;
	rfc.in[rfc.in_len + 2] = 1;
	put_unaligned_be16((u16)n, rfc.in + rfc.in_len + 3);
	rfc.in_len += 5 + n;
}

static int rfc_step(void)
{
	size_t used;
	int ret = tlsx_hs_step(rfc.hs, rfc.in, rfc.in_len, &used, rfc.out,
			       sizeof(rfc.out), &rfc.out_len);

	memmove(rfc.in, rfc.in + used, rfc.in_len - used);
	rfc.in_len -= used;
	return ret;
}

/* The plaintext handshake messages of @out's protected records. */
static size_t open_flight(struct tlsx_rec_dir *d, u8 *out, size_t len,
			  u8 *msgs, size_t cap)
{
	size_t off = 0, body, n = 0, plen;
	u8 *p, type;

	while (off + 5 <= len) {
		if (tlsx_rec_header(out + off, TLSX_REC_MAX_CIPHER, &body) ||
		    off + 5 + body > len)
			return 0;
		if (out[off] == TLSX_CT_APPLICATION_DATA) {
			if (tlsx_rec_open(d, out + off, 5 + body,
					  TLSX_REC_MAX_PLAIN, &type, &p, &plen) ||
			    type != TLSX_CT_HANDSHAKE || n + plen > cap)
				return 0;
			memcpy(msgs + n, p, plen);
			n += plen;
		}
		off += 5 + body;
	}
	return n;
}

static bool hex_eq(const u8 *p, size_t len, const char *hex)
{
	static u8 want[2048];
	size_t n = unhex(hex, want, sizeof(want));

	return n == len && !memcmp(p, want, n);
}

TEST(rfc8448_section3_server)
{
	static u8 msgs[4096], want_sh[256], secret[48];
	struct tlsx_rec_dir rd = { 0 };
	struct tlsx_hs_secrets sec;
	size_t n, sh_len, off;

	ASSERT_NE(NULL, rfc_server());
	sh_len = unhex(r8448_s3_sh, want_sh, sizeof(want_sh));
	/* Draws: the ServerHello Random, then the X25519 private key. */
	feed_add_bytes(&rfc.rand, want_sh + 6, 32);
	feed_add(&rfc.rand, S3_S_PRIV);
	rfc_record(TLSX_CT_HANDSHAKE, r8448_s3_ch);
	ASSERT_EQ(TLSX_HS_WANT_READ, rfc_step());
	ASSERT_EQ(0, rfc.in_len);
	/* The ServerHello record, byte for byte: 16 03 03 00 5a ... */
	ASSERT_GT(rfc.out_len, 5 + sh_len);
	EXPECT_EQ(TLSX_CT_HANDSHAKE, rfc.out[0]);
	EXPECT_EQ(0x0303, get_unaligned_be16(rfc.out + 1));
	EXPECT_EQ(sh_len, get_unaligned_be16(rfc.out + 3));
	EXPECT_EQ(0, memcmp(rfc.out + 5, want_sh, sh_len));
	EXPECT_EQ(0, memcmp(rfc.hs->s_hs, secret,
			    unhex(S3_S_HS, secret, sizeof(secret))));
	EXPECT_EQ(1, rfc_sign_calls);
	/* No CCS: the trace's client sent an empty session id. */
	off = 5 + sh_len;
	EXPECT_EQ(TLSX_CT_APPLICATION_DATA, rfc.out[off]);
	/* The protected flight, one record, as the trace prints it. */
	EXPECT_TRUE(hex_eq(rfc.out + off, rfc.out_len - off,
			   r8448_s3_rec_sflight));
	n = unhex(S3_S_HS, secret, sizeof(secret));
	ASSERT_EQ(0, tlsx_rec_set_secret(&rd, TLSX_SUITE_AES_128_GCM_SHA256,
					 secret, n));
	n = open_flight(&rd, rfc.out + off, rfc.out_len - off, msgs,
			sizeof(msgs));
	ASSERT_GT(n, 0);
	/* EncryptedExtensions, Certificate, CertificateVerify, Finished. */
	off = 0;
#define NEXT_IS(hex) do {						\
		size_t _l = strlen(hex) / 2;				\
		ASSERT_LE(off + _l, n);					\
		EXPECT_TRUE(hex_eq(msgs + off, _l, hex));		\
		off += _l;						\
	} while (0)
	NEXT_IS(r8448_s3_ee);
	NEXT_IS(r8448_s3_cert);
	NEXT_IS(r8448_s3_cv);
	NEXT_IS(r8448_s3_sf);
#undef NEXT_IS
	EXPECT_EQ(n, off);
	tlsx_rec_wipe(&rd);

	/* The trace's client Finished record: done. */
	rfc.in_len = unhex(r8448_s3_rec_cfin, rfc.in, sizeof(rfc.in));
	ASSERT_EQ(TLSX_HS_DONE, rfc_step());
	EXPECT_EQ(0, rfc.out_len);
	ASSERT_EQ(0, tlsx_hs_secrets(rfc.hs, &sec));
	EXPECT_TRUE(hex_eq(sec.client, sec.secret_len, S3_C_AP));
	EXPECT_TRUE(hex_eq(sec.server, sec.secret_len, S3_S_AP));
	tlsx_hs_secrets_wipe(&sec);
	tlsx_hs_free(rfc.hs);
}

/*
 * Where the trace's server key share is not reproduced (sections 5 past
 * the HRR, 7), its signature is not checked: any bytes do.
 */
static int dummy_sign(struct tlsx_hs *hs, u16 scheme, const u8 *th,
		      size_t th_len, u8 *sig, size_t cap, size_t *sig_len)
{
	(void)hs;
	(void)scheme;
	(void)th;
	(void)th_len;
	if (cap < 128)
		return -ENOSPC;
	memset(sig, 0x5a, 128);
	*sig_len = 128;
	return 0;
}

/*
 * Section 7 (compatibility mode): the trace's ClientHello carries a
 * 32-byte session id; the ServerHello echoes it and the dummy CCS
 * follows it, before the protected flight (D.4).  (The trace's server
 * key share is not in the RFC, so its bytes are not reproduced.)
 */
TEST(rfc8448_section7_compat_mode)
{
	static u8 ch[512];
	size_t ch_len, sh_len;

	ASSERT_NE(NULL, rfc_server());
	rfc.hooks.cert_sign = dummy_sign;
	ch_len = unhex(r8448_s7_ch, ch, sizeof(ch));
	ASSERT_GT(ch_len, 4 + 2 + 32 + 33);
	ASSERT_EQ(32, ch[4 + 2 + 32]);
	rfc_record(TLSX_CT_HANDSHAKE, r8448_s7_ch);
	ASSERT_EQ(TLSX_HS_WANT_READ, rfc_step());
	ASSERT_GT(rfc.out_len, 5 + 4 + 2 + 32 + 33);
	sh_len = get_unaligned_be16(rfc.out + 3);
	/* legacy_session_id_echo */
	EXPECT_EQ(32, rfc.out[5 + 4 + 2 + 32]);
	EXPECT_EQ(0, memcmp(rfc.out + 5 + 4 + 2 + 32 + 1, ch + 4 + 2 + 32 + 1,
			    32));
	ASSERT_GT(rfc.out_len, 5 + sh_len + 6);
	EXPECT_EQ(0, memcmp(rfc.out + 5 + sh_len, "\x14\x03\x03\x00\x01\x01",
			    6));
	EXPECT_EQ(TLSX_CT_APPLICATION_DATA, rfc.out[5 + sh_len + 6]);
	EXPECT_TRUE(rfc.hs->ccs_sent);
	tlsx_hs_free(rfc.hs);
}

/* The same ClientHello fed one byte at a time: the same ServerHello. */
TEST(rfc8448_section3_byte_by_byte)
{
	static u8 all[1024], want_sh[256];
	size_t total, fed = 0, used, sh_len;
	int ret = TLSX_HS_WANT_READ;

	ASSERT_NE(NULL, rfc_server());
	sh_len = unhex(r8448_s3_sh, want_sh, sizeof(want_sh));
	feed_add_bytes(&rfc.rand, want_sh + 6, 32);
	feed_add(&rfc.rand, S3_S_PRIV);
	rfc_record(TLSX_CT_HANDSHAKE, r8448_s3_ch);
	total = rfc.in_len;
	memcpy(all, rfc.in, total);
	for (fed = 1; fed <= total && !rfc.out_len; fed++) {
		ret = tlsx_hs_step(rfc.hs, all, fed, &used, rfc.out,
				   sizeof(rfc.out), &rfc.out_len);
		ASSERT_EQ(TLSX_HS_WANT_READ, ret);
		ASSERT_EQ(fed == total ? total : 0, used);
	}
	ASSERT_EQ(0, memcmp(rfc.out + 5, want_sh, sh_len));
	tlsx_hs_free(rfc.hs);
}

/*
 * Section 5: ClientHello1 offers only an X25519 share while the server
 * takes secp256r1 only: the trace's HelloRetryRequest, byte for byte.
 */
TEST(rfc8448_section5_hello_retry_request)
{
	static u8 hrr[512], cookie[256];
	struct tlsx_rd r;
	const u8 *c;
	size_t hrr_len, c_len;

	ASSERT_NE(NULL, rfc_server());
	tlsx_hs_free(rfc.hs);
	rfc.cfg.groups[0] = TLSX_GROUP_SECP256R1;
	rfc.cfg.n_groups = 1;
	hrr_len = unhex(r8448_s5_hrr, hrr, sizeof(hrr));
	/* The cookie: after key_share (00 33 00 02 00 17), 00 2c len. */
	tlsx_rd_init(&r, hrr + 4 + 2 + 32 + 1 + 2 + 1 + 2 + 6 + 4,
		     hrr_len - 54);
	ASSERT_EQ(0, tlsx_rd_vec(&r, 2, 1, 65535, &c, &c_len));
	memcpy(cookie, c, c_len);
	rfc.hooks.cert_sign = dummy_sign;
	rfc.hooks.hrr_cookie = cookie;
	rfc.hooks.hrr_cookie_len = c_len;
	rfc.hs = tlsx_hs_new(&rfc.cfg);
	ASSERT_NE(NULL, rfc.hs);
	rfc.hs->test = &rfc.hooks;
	rfc_record(TLSX_CT_HANDSHAKE, r8448_s5_ch1);
	ASSERT_EQ(TLSX_HS_WANT_READ, rfc_step());
	ASSERT_EQ(5 + hrr_len, rfc.out_len);
	EXPECT_EQ(0, memcmp(rfc.out + 5, hrr, hrr_len));
	EXPECT_TRUE(rfc.hs->hrr);
	EXPECT_EQ(SERVER_EXPECT_SECOND_CLIENT_HELLO, rfc.hs->state);
	/* ClientHello2 (the trace's, its cookie the trace's) is taken. */
	rfc_record(TLSX_CT_HANDSHAKE, r8448_s5_ch2);
	ASSERT_EQ(TLSX_HS_WANT_READ, rfc_step())
		TH_LOG("alert %d", tlsx_hs_alert(rfc.hs));
	EXPECT_EQ(TLSX_GROUP_SECP256R1, rfc.hs->group);
	/* A ServerHello (not another HRR) with a P-256 share. */
	ASSERT_GT(rfc.out_len, 5 + 4 + 2 + 32);
	EXPECT_EQ(TLSX_HT_SERVER_HELLO, rfc.out[5]);
	EXPECT_NE(0, memcmp(rfc.out + 5 + 6, tlsx_hrr_random, 32));
	tlsx_hs_free(rfc.hs);
}

/* --- OpenSSL's libssl as the client --------------------------------------- */

struct client_opts {
	const char *suites;	/* OpenSSL's names; NULL: its defaults */
	const char *groups;
	const char *sigalgs;
	const char *sni;	/* NULL: none */
	const u8 *alpn;		/* wire form */
	unsigned int alpn_len;
	bool cert;		/* present client-leaf (P-256) */
	const char *verify_root;	/* check the server's chain */
	int max_version;	/* 0: TLS 1.3 */
};

struct conn {
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *rbio, *wbio;	/* the client's input and output */
	struct tlsx_hs_config cfg;
	struct tlsx_cert_chain chains[5];
	unsigned int n_chains;
	struct tlsx_trust trust;
	struct tlsx_hs *hs;
	int hs_ret;
	int ssl_ret;
	u8 in[65536];		/* the server's input */
	size_t in_len;
	u8 out[TLSX_HS_OUT_MIN];
};

static struct conn conn;

/* client-leaf.pem with its intermediate, the P-256 leaf key. */
static int client_cert(SSL_CTX *ctx)
{
	BIO *b = BIO_new_file(data("p256-int.pem"), "r");
	X509 *inter = b ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
	int ret = -1;

	if (inter &&
	    SSL_CTX_use_certificate_file(ctx, data("client-leaf.pem"),
					 SSL_FILETYPE_PEM) == 1 &&
	    SSL_CTX_add1_chain_cert(ctx, inter) == 1 &&
	    SSL_CTX_use_PrivateKey_file(ctx, data("p256-leaf.key"),
					SSL_FILETYPE_PEM) == 1)
		ret = 0;
	X509_free(inter);
	BIO_free(b);
	return ret;
}

/*
 * The client's session from our first NewSessionTicket, as OpenSSL
 * hands it to its new-session callback.
 */
static struct ssl_session_st *sess;

static int new_session(SSL *ssl, SSL_SESSION *s)
{
	(void)ssl;
	if (sess)
		return 0;
	sess = s;
	return 1;	/* kept: the reference is ours */
}

static int client_setup(struct conn *c, const struct client_opts *o)
{
	c->ctx = ossl_ctx(TLS_client_method(), o->max_version, o->suites,
			  o->groups, o->sigalgs);
	if (!c->ctx)
		return -1;
	SSL_CTX_set_session_cache_mode(c->ctx, SSL_SESS_CACHE_CLIENT |
				       SSL_SESS_CACHE_NO_INTERNAL_STORE);
	SSL_CTX_sess_set_new_cb(c->ctx, new_session);
	if (o->verify_root) {
		if (SSL_CTX_load_verify_locations(c->ctx, data(o->verify_root),
						  NULL) != 1)
			return -1;
		SSL_CTX_set_verify(c->ctx, SSL_VERIFY_PEER, NULL);
	}
	if (o->cert && client_cert(c->ctx))
		return -1;
	if (o->alpn && SSL_CTX_set_alpn_protos(c->ctx, o->alpn, o->alpn_len))
		return -1;
	c->ssl = ossl_ssl(c->ctx, &c->rbio, &c->wbio);
	if (!c->ssl)
		return -1;
	if (o->sni && !SSL_set_tlsext_host_name(c->ssl, o->sni))
		return -1;
	SSL_set_connect_state(c->ssl);
	return 0;
}

/* The server: @chain (test/data/ prefix: p256, ed25519, rsa, rsapss). */
static int server_setup(struct conn *c, const char *chain)
{
	char cert[64], key[64];

	snprintf(cert, sizeof(cert), "%s-chain.pem", chain);
	snprintf(key, sizeof(key), "%s-leaf.key", chain);
	if (load_chain(&c->chains[c->n_chains], cert, NULL, key))
		return -1;
	c->cfg.server = true;
	c->cfg.chains[c->n_chains] = &c->chains[c->n_chains];
	c->n_chains++;
	c->cfg.n_chains = c->n_chains;
	return 0;
}

static int server_start(struct conn *c)
{
	c->hs = tlsx_hs_new(&c->cfg);
	return c->hs ? 0 : -1;
}

/*
 * Runs both ends until neither moves: the client's records into the
 * engine, the engine's into the client's BIO.  Returns when the engine
 * is DONE and the client finished, or either failed.
 */
static void run(struct conn *c)
{
	size_t used, n;
	int i, r;

	c->hs_ret = TLSX_HS_WANT_READ;
	c->ssl_ret = 0;
	for (i = 0; i < 20; i++) {
		if (c->ssl_ret != 1 && c->ssl_ret != -2) {
			c->ssl_ret = SSL_do_handshake(c->ssl);
			if (c->ssl_ret != 1 &&
			    SSL_get_error(c->ssl, c->ssl_ret) !=
			    SSL_ERROR_WANT_READ)
				c->ssl_ret = -2;
		}
		r = BIO_read(c->wbio, c->in + c->in_len,
			     (int)(sizeof(c->in) - c->in_len));
		if (r > 0)
			c->in_len += (size_t)r;
		if (c->hs_ret == TLSX_HS_WANT_READ) {
			c->hs_ret = tlsx_hs_step(c->hs, c->in, c->in_len,
						 &used, c->out,
						 sizeof(c->out), &n);
			memmove(c->in, c->in + used, c->in_len - used);
			c->in_len -= used;
			if (n)
				BIO_write(c->rbio, c->out, (int)n);
		}
		if (c->hs_ret < 0 && c->ssl_ret == -2)
			return;
		if (c->hs_ret < 0 && i > 2 && r <= 0) {
			/* Let the client read our alert. */
			SSL_do_handshake(c->ssl);
			return;
		}
		if (c->ssl_ret == -2 && r <= 0)
			return;
		if (c->hs_ret == TLSX_HS_DONE && c->ssl_ret == 1)
			return;
	}
}

/*
 * Application data both ways under the engine's secrets, through
 * record_protect.c: ours read by SSL_read, the client's opened here.
 */
static int exchange_tickets(struct conn *c, bool tickets)
{
	struct tlsx_rec_dir tx = { 0 }, rx = { 0 };
	struct tlsx_hs_secrets sec;
	static const char ping[] = "ping from tlsx", pong[] = "pong openssl";
	static u8 rec[8192], nst[4096];
	u8 buf[64], *p, type;
	size_t len, body, nst_len;
	int ret = -1, r;

	if (tlsx_hs_secrets(c->hs, &sec) ||
	    tlsx_rec_set_secret(&tx, sec.suite, sec.server, sec.secret_len) ||
	    tlsx_rec_set_secret(&rx, sec.suite, sec.client, sec.secret_len))
		goto out;
	/* The NewSessionTickets first, as a record of their own. */
	if (tickets) {
		if (tlsx_hs_tickets(c->hs, nst, sizeof(nst), &nst_len) ||
		    !nst_len ||
		    tlsx_rec_seal(&tx, TLSX_CT_HANDSHAKE, nst, nst_len, 0, rec,
				  sizeof(rec), &len))
			goto out;
		BIO_write(c->rbio, rec, (int)len);
	}
	if (tlsx_rec_seal(&tx, TLSX_CT_APPLICATION_DATA, (const u8 *)ping,
			  sizeof(ping), 0, rec, sizeof(rec), &len))
		goto out;
	BIO_write(c->rbio, rec, (int)len);
	r = SSL_read(c->ssl, buf, sizeof(buf));
	if (r != (int)sizeof(ping) || memcmp(buf, ping, sizeof(ping)))
		goto out;
	if (SSL_write(c->ssl, pong, sizeof(pong)) != (int)sizeof(pong))
		goto out;
	r = BIO_read(c->wbio, c->in + c->in_len,
		     (int)(sizeof(c->in) - c->in_len));
	if (r > 0)
		c->in_len += (size_t)r;
	if (c->in_len < 5 ||
	    tlsx_rec_header(c->in, TLSX_REC_MAX_CIPHER, &body) ||
	    5 + body > c->in_len ||
	    tlsx_rec_open(&rx, c->in, 5 + body, TLSX_REC_MAX_PLAIN, &type, &p,
			  &len))
		goto out;
	if (type == TLSX_CT_APPLICATION_DATA && len == sizeof(pong) &&
	    !memcmp(p, pong, len))
		ret = 0;
out:
	tlsx_hs_secrets_wipe(&sec);
	tlsx_rec_wipe(&tx);
	tlsx_rec_wipe(&rx);
	return ret;
}

static int exchange(struct conn *c)
{
	return exchange_tickets(c, false);
}

static void conn_free(struct conn *c)
{
	unsigned int i;

	tlsx_hs_free(c->hs);
	for (i = 0; i < c->n_chains; i++)
		tlsx_cert_chain_free(&c->chains[i]);
	tlsx_trust_free(&c->trust);
	/* A clean close, so OpenSSL keeps the session resumable. */
	if (c->ssl)
		SSL_set_shutdown(c->ssl, SSL_SENT_SHUTDOWN |
				 SSL_RECEIVED_SHUTDOWN);
	SSL_free(c->ssl);
	SSL_CTX_free(c->ctx);
	memset(c, 0, sizeof(*c));
}

FIXTURE_SETUP(matrix)
{
}

FIXTURE_TEARDOWN(matrix)
{
	conn_free(&conn);
}

TEST_F(matrix, every_suite_and_group)
{
	struct client_opts o = { .sigalgs = variant->sigalg,
				 .sni = "www.example.com" };
	struct tlsx_hs_info info;
	char root[64];
	unsigned int s, g;

	snprintf(root, sizeof(root), "%s-root.pem", variant->cert);
	o.verify_root = root;
	for (s = 0; s < ARRAY_SIZE(suites); s++) {
		for (g = 0; g < ARRAY_SIZE(groups); g++) {
			o.suites = suites[s].name;
			o.groups = groups[g].name;
			ASSERT_EQ(0, client_setup(&conn, &o));
			ASSERT_EQ(0, server_setup(&conn, variant->cert));
			/* CCM is accepted only when listed. */
			memcpy(conn.cfg.suites, (u16[]){
			       TLSX_SUITE_AES_128_GCM_SHA256,
			       TLSX_SUITE_AES_256_GCM_SHA384,
			       TLSX_SUITE_CHACHA20_POLY1305_SHA256,
			       TLSX_SUITE_AES_128_CCM_SHA256 }, 8);
			conn.cfg.n_suites = 4;
			ASSERT_EQ(0, server_start(&conn));
			run(&conn);
			ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
				TH_LOG("%s %s: alert %d", suites[s].name,
				       groups[g].name, tlsx_hs_alert(conn.hs));
			ASSERT_EQ(1, conn.ssl_ret);
			ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
			EXPECT_EQ(suites[s].suite, info.suite);
			EXPECT_EQ(groups[g].group, info.group);
			EXPECT_EQ(variant->scheme, conn.hs->own_sig_scheme);
			EXPECT_FALSE(info.hrr);
			EXPECT_FALSE(info.resumed);
			EXPECT_EQ(0, exchange(&conn))
				TH_LOG("%s %s", suites[s].name,
				       groups[g].name);
			conn_free(&conn);
		}
	}
}

/* OpenSSL sends an X25519 share only; the server takes P-256 only. */
TEST(hello_retry_request)
{
	struct client_opts o = { .groups = "X25519:P-256",
				 .verify_root = "p256-root.pem",
				 .sni = "www.example.com" };
	struct tlsx_hs_info info;

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	conn.cfg.groups[0] = TLSX_GROUP_SECP256R1;
	conn.cfg.n_groups = 1;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.hrr);
	EXPECT_EQ(TLSX_GROUP_SECP256R1, info.group);
	/* OpenSSL's client uses compatibility mode: our CCS went out. */
	EXPECT_TRUE(conn.hs->ccs_sent);
	EXPECT_EQ(0, exchange(&conn));
	conn_free(&conn);
}

/* The server's preference wins among the shares the client sent. */
TEST(group_preference_with_two_shares)
{
	struct client_opts o = { .groups = "X25519:P-256" };

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	conn.cfg.groups[0] = TLSX_GROUP_SECP256R1;
	conn.cfg.groups[1] = TLSX_GROUP_X25519;
	conn.cfg.n_groups = 2;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	/* OpenSSL shares X25519 only: taken rather than a retry. */
	EXPECT_EQ(TLSX_GROUP_X25519, conn.hs->group);
	EXPECT_FALSE(conn.hs->hrr);
	conn_free(&conn);
}

TEST(alpn_first_of_ours)
{
	static const u8 offer[] = "\x08http/1.1\x02h2";
	struct client_opts o = { .alpn = offer, .alpn_len = 12 };
	struct tlsx_hs_info info;
	const unsigned char *sel;
	unsigned int sel_len;

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "ed25519"));
	memcpy(conn.cfg.alpn, "\x02h2\x08http/1.1", 12);
	conn.cfg.alpn_len = 12;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_STREQ("h2", (char *)info.alpn);
	SSL_get0_alpn_selected(conn.ssl, &sel, &sel_len);
	ASSERT_EQ(2, sel_len);
	EXPECT_EQ(0, memcmp(sel, "h2", 2));
	conn_free(&conn);
}

TEST(alpn_none_in_common)
{
	static const u8 offer[] = "\x06spdy/3";
	struct client_opts o = { .alpn = offer, .alpn_len = 7 };

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	memcpy(conn.cfg.alpn, "\x02h2", 3);
	conn.cfg.alpn_len = 3;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_NO_APPLICATION_PROTOCOL),
		  conn.hs_ret);
	EXPECT_NE(1, conn.ssl_ret);
	conn_free(&conn);
}

/* The leaf the client saw: its subject's CN. */
static void peer_cn(SSL *ssl, char *cn, size_t len)
{
	X509 *x = SSL_get1_peer_certificate(ssl);

	cn[0] = 0;
	if (x)
		X509_NAME_get_text_by_NID(X509_get_subject_name(x),
					  NID_commonName, cn, (int)len);
	X509_free(x);
}

/* Two chains: ed25519's (www.example.com, the default), client-leaf's. */
static void sni_case(struct __test_metadata *_metadata, const char *sni,
		     const char *want_cn)
{
	struct client_opts o = { .sni = sni };
	char cn[128];

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "ed25519"));
	ASSERT_EQ(0, load_chain(&conn.chains[1], "client-leaf.pem",
				"p256-int.pem", "p256-leaf.key"));
	conn.cfg.chains[1] = &conn.chains[1];
	conn.n_chains = conn.cfg.n_chains = 2;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	peer_cn(conn.ssl, cn, sizeof(cn));
	EXPECT_STREQ(want_cn, cn);
	conn_free(&conn);
}

TEST(sni_picks_the_matching_chain)
{
	sni_case(_metadata, "client.example.com", "client.example.com");
	sni_case(_metadata, "CLIENT.example.com", "client.example.com");
	sni_case(_metadata, "www.example.com", "www.example.com");
}

TEST(sni_unknown_name_gets_the_default)
{
	sni_case(_metadata, "nobody.example.net", "www.example.com");
	sni_case(_metadata, NULL, "www.example.com");
}

/* --- several chains: chosen by the client's signature algorithms ------------ */

/* One chain of a configuration: the leaf, its intermediate, the key. */
struct mc_chain {
	const char *leaf, *inter, *key;
};

#define MC_P256		{ "p256-leaf.pem", "p256-int.pem", "p256-leaf.key" }
#define MC_RSA		{ "rsa-leaf.pem", "rsa-int.pem", "rsa-leaf.key" }
#define MC_ED25519	{ "ed25519-leaf.pem", "ed25519-int.pem", \
			  "ed25519-leaf.key" }
#define MC_RSAPSS	{ "rsapss-leaf.pem", "rsapss-int.pem", \
			  "rsapss-leaf.key" }
#define MC_ALT_P256	{ "alt-p256-leaf.pem", "p256-int.pem", "p256-leaf.key" }
#define MC_ALT_RSA	{ "alt-rsa-leaf.pem", "rsa-int.pem", "rsa-leaf.key" }
#define MC_CLIENT	{ "client-leaf.pem", "p256-int.pem", "p256-leaf.key" }
/* The P-256 leaf's key and names, signed by the RSA intermediate. */
#define MC_MIXED	{ "mixed-leaf.pem", "rsa-int.pem", "p256-leaf.key" }

/* Two names with an ECDSA and an RSA chain each, after a default. */
#define MC_SNI		{ MC_CLIENT, MC_P256, MC_RSA, MC_ALT_P256, MC_ALT_RSA }

/* Loads @chains (up to one with a NULL leaf) into @c's configuration. */
static int mc_setup(struct conn *c, const struct mc_chain *chains,
		    unsigned int max)
{
	unsigned int i;

	for (i = 0; i < max && chains[i].leaf; i++) {
		if (load_chain(&c->chains[i], chains[i].leaf, chains[i].inter,
			       chains[i].key))
			return -1;
		c->cfg.chains[i] = &c->chains[i];
	}
	c->cfg.server = true;
	c->n_chains = c->cfg.n_chains = i;
	return 0;
}

FIXTURE(multicert) {
};

FIXTURE_VARIANT(multicert) {
	struct mc_chain chains[5];	/* in configuration order */
	const char *sigalgs;		/* OpenSSL's list; NULL: its own */
	const char *sni;		/* NULL: none */
	const char *want;		/* peer_leaf(); NULL: handshake_failure */
	u16 scheme;			/* our CertificateVerify's */
};

#define WWW_P256	"www.example.com|p256 intermediate"
#define WWW_RSA		"www.example.com|rsa intermediate"

FIXTURE_VARIANT_ADD(multicert, ecdsa_rsa_client_rsa_pss) {
	.chains = { MC_P256, MC_RSA }, .sigalgs = "rsa_pss_rsae_sha256",
	.sni = "www.example.com", .want = WWW_RSA,
	.scheme = TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(multicert, ecdsa_rsa_client_ecdsa) {
	.chains = { MC_P256, MC_RSA }, .sigalgs = "ECDSA+SHA256",
	.sni = "www.example.com", .want = WWW_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(multicert, ecdsa_rsa_client_any) {
	.chains = { MC_P256, MC_RSA }, .sni = "www.example.com",
	.want = WWW_P256, .scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
/* Configuration order decides between chains the client takes alike. */
FIXTURE_VARIANT_ADD(multicert, rsa_ecdsa_client_any) {
	.chains = { MC_RSA, MC_P256 }, .sni = "www.example.com",
	.want = WWW_RSA, .scheme = TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(multicert, rsa_ecdsa_client_ecdsa) {
	.chains = { MC_RSA, MC_P256 }, .sigalgs = "ECDSA+SHA256",
	.sni = "www.example.com", .want = WWW_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(multicert, ecdsa_ed25519_rsa_client_ed25519) {
	.chains = { MC_P256, MC_ED25519, MC_RSA }, .sigalgs = "ed25519",
	.sni = "www.example.com",
	.want = "www.example.com|ed25519 intermediate",
	.scheme = TLSX_SIG_ED25519 };
FIXTURE_VARIANT_ADD(multicert, ecdsa_ed25519_rsa_client_rsa_pss) {
	.chains = { MC_P256, MC_ED25519, MC_RSA },
	.sigalgs = "rsa_pss_rsae_sha384", .sni = "www.example.com",
	.want = WWW_RSA, .scheme = TLSX_SIG_RSA_PSS_RSAE_SHA384 };
FIXTURE_VARIANT_ADD(multicert, ecdsa_ed25519_rsa_client_ecdsa) {
	.chains = { MC_P256, MC_ED25519, MC_RSA }, .sigalgs = "ECDSA+SHA256",
	.sni = "www.example.com", .want = WWW_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
/* 4.2.3: an id-RSASSA-PSS key does rsa_pss_pss_* only. */
FIXTURE_VARIANT_ADD(multicert, rsapss_rsa_client_rsae) {
	.chains = { MC_RSAPSS, MC_RSA }, .sigalgs = "rsa_pss_rsae_sha256",
	.sni = "www.example.com", .want = WWW_RSA,
	.scheme = TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(multicert, rsa_rsapss_client_pss) {
	.chains = { MC_RSA, MC_RSAPSS }, .sigalgs = "rsa_pss_pss_sha256",
	.sni = "www.example.com",
	.want = "www.example.com|rsapss intermediate",
	.scheme = TLSX_SIG_RSA_PSS_PSS_SHA256 };
FIXTURE_VARIANT_ADD(multicert, ecdsa_ed25519_client_rsa_fails) {
	.chains = { MC_P256, MC_ED25519 }, .sigalgs = "rsa_pss_rsae_sha256",
	.sni = "www.example.com" };
/* Names: the chains naming it, else every chain from the default on. */
FIXTURE_VARIANT_ADD(multicert, sni_alt_client_rsa) {
	.chains = MC_SNI, .sigalgs = "rsa_pss_rsae_sha256",
	.sni = "alt.example.net", .want = "alt.example.net|rsa intermediate",
	.scheme = TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(multicert, sni_alt_client_ecdsa) {
	.chains = MC_SNI, .sigalgs = "ECDSA+SHA256", .sni = "ALT.example.net",
	.want = "alt.example.net|p256 intermediate",
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(multicert, sni_www_client_rsa) {
	.chains = MC_SNI, .sigalgs = "rsa_pss_rsae_sha256",
	.sni = "www.example.com", .want = WWW_RSA,
	.scheme = TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(multicert, sni_www_client_any) {
	.chains = MC_SNI, .sni = "www.example.com", .want = WWW_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(multicert, sni_default_client_any) {
	.chains = MC_SNI, .sni = "client.example.com",
	.want = "client.example.com|p256 intermediate",
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(multicert, sni_unknown_client_any) {
	.chains = MC_SNI, .sni = "nobody.example.net",
	.want = "client.example.com|p256 intermediate",
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(multicert, sni_unknown_client_rsa) {
	.chains = MC_SNI, .sigalgs = "rsa_pss_rsae_sha256",
	.sni = "nobody.example.net", .want = WWW_RSA,
	.scheme = TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(multicert, no_sni_client_rsa) {
	.chains = MC_SNI, .sigalgs = "rsa_pss_rsae_sha384", .want = WWW_RSA,
	.scheme = TLSX_SIG_RSA_PSS_RSAE_SHA384 };
/* A name some chain matches never gets another name's chain. */
FIXTURE_VARIANT_ADD(multicert, sni_alt_client_ed25519_fails) {
	.chains = { MC_ED25519, MC_ALT_P256, MC_ALT_RSA },
	.sigalgs = "ed25519", .sni = "alt.example.net" };
/* 4.4.2.2: the chain's signatures as signature_algorithms allows. */
FIXTURE_VARIANT_ADD(multicert, mixed_ecdsa_client_ecdsa) {
	.chains = { MC_MIXED, MC_P256 }, .sigalgs = "ECDSA+SHA256",
	.sni = "www.example.com", .want = WWW_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(multicert, mixed_ecdsa_client_ecdsa_pkcs1) {
	.chains = { MC_MIXED, MC_P256 }, .sigalgs = "ECDSA+SHA256:RSA+SHA256",
	.sni = "www.example.com", .want = WWW_RSA,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
/* None signed as asked: the first the key allows goes all the same. */
FIXTURE_VARIANT_ADD(multicert, mixed_client_ecdsa_fallback) {
	.chains = { MC_RSA, MC_MIXED }, .sigalgs = "ECDSA+SHA256",
	.sni = "www.example.com", .want = WWW_RSA,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };

FIXTURE_SETUP(multicert)
{
}

FIXTURE_TEARDOWN(multicert)
{
	conn_free(&conn);
}

TEST_F(multicert, chain_for_the_client)
{
	struct client_opts o = { .sigalgs = variant->sigalgs,
				 .sni = variant->sni };
	char leaf[300];

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, mc_setup(&conn, variant->chains,
			      ARRAY_SIZE(variant->chains)));
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	if (!variant->want) {
		EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_HANDSHAKE_FAILURE),
			  conn.hs_ret);
		EXPECT_NE(1, conn.ssl_ret);
		return;
	}
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	peer_leaf(conn.ssl, leaf, sizeof(leaf));
	EXPECT_STREQ(variant->want, leaf);
	EXPECT_EQ(variant->scheme, conn.hs->own_sig_scheme);
	EXPECT_EQ(0, exchange(&conn));
}

/* The second ClientHello chooses again, alike. */
TEST(multicert_after_hello_retry_request)
{
	static const struct mc_chain chains[] = { MC_P256, MC_RSA };
	struct client_opts o = { .groups = "X25519:P-256",
				 .sigalgs = "rsa_pss_rsae_sha256",
				 .verify_root = "rsa-root.pem",
				 .sni = "www.example.com" };
	char leaf[300];

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, mc_setup(&conn, chains, ARRAY_SIZE(chains)));
	conn.cfg.groups[0] = TLSX_GROUP_SECP256R1;
	conn.cfg.n_groups = 1;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	EXPECT_TRUE(conn.hs->hrr);
	peer_leaf(conn.ssl, leaf, sizeof(leaf));
	EXPECT_STREQ(WWW_RSA, leaf);
	conn_free(&conn);
}

/* --- client certificates ---------------------------------------------------- */

static int client_auth(struct conn *c, bool present, bool require)
{
	struct client_opts o = { .cert = present };

	if (client_setup(c, &o) || server_setup(c, "p256") ||
	    tlsx_trust_load(&c->trust, data("p256-root.pem"), NULL))
		return -1;
	c->cfg.trust = &c->trust;
	c->cfg.verify_peer = true;
	c->cfg.require_peer_cert = require;
	if (server_start(c))
		return -1;
	run(c);
	return 0;
}

TEST(client_certificate_verified)
{
	const struct stack_st_X509_NAME *cas;
	struct tlsx_hs_info info;
	char cn[128] = "";

	ASSERT_EQ(0, client_auth(&conn, true, true));
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	/* certificate_authorities: the one anchor's name reached OpenSSL. */
	cas = SSL_get0_peer_CA_list(conn.ssl);
	ASSERT_NE(NULL, cas);
	ASSERT_EQ(1, sk_X509_NAME_num(cas));
	X509_NAME_get_text_by_NID(sk_X509_NAME_value(cas, 0), NID_commonName,
				  cn, sizeof(cn));
	EXPECT_STREQ("p256 root", cn);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.peer_cert);
	EXPECT_EQ(TLSX_SIG_ECDSA_SECP256R1_SHA256, info.sig_scheme);
	EXPECT_EQ(0, exchange(&conn));
	conn_free(&conn);
}

TEST(client_certificate_absent_allowed)
{
	struct tlsx_hs_info info;

	ASSERT_EQ(0, client_auth(&conn, false, false));
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_FALSE(info.peer_cert);
	EXPECT_EQ(0, exchange(&conn));
	conn_free(&conn);
}

/* 4.4.2.4: an empty Certificate when one is required. */
TEST(client_certificate_required)
{
	ASSERT_EQ(0, client_auth(&conn, false, true));
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_CERTIFICATE_REQUIRED),
		  conn.hs_ret);
	EXPECT_EQ(TLSX_ALERT_CERTIFICATE_REQUIRED, tlsx_hs_alert(conn.hs));
	conn_free(&conn);
}

/* A client chain that does not reach the anchors: unknown_ca. */
TEST(client_certificate_untrusted)
{
	struct client_opts o = { .cert = true };

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	ASSERT_EQ(0, tlsx_trust_load(&conn.trust, data("other-root.pem"),
				     NULL));
	conn.cfg.trust = &conn.trust;
	conn.cfg.verify_peer = true;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNKNOWN_CA), conn.hs_ret);
	conn_free(&conn);
}

/* --- resumption ------------------------------------------------------------ */

static struct tlsx_ticket_keys *keys;

/*
 * A full handshake with tickets, the client's session kept; then a
 * second connection offering it.  @psk_ke: both allow psk_ke.  @sni2,
 * @alpn2: what the second connection asks for.
 */
static u16 resume_group2;	/* the second server's only group; 0: defaults */
static bool resume_prefer_ke;	/* the second server sets prefer_psk_ke */

static void resume(struct __test_metadata *_metadata, bool psk_ke,
		   const char *sni2, const char *alpn2)
{
	struct client_opts o = { .sni = "www.example.com",
				 .alpn = (const u8 *)"\x02h2",
				 .alpn_len = 3 };

	keys = tlsx_ticket_keys_new(0, time(NULL));
	ASSERT_NE(NULL, keys);
	ASSERT_EQ(0, client_setup(&conn, &o));
	if (psk_ke)
		SSL_set_options(conn.ssl, SSL_OP_ALLOW_NO_DHE_KEX);
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	memcpy(conn.cfg.alpn, "\x02h2\x08http/1.1", 12);
	conn.cfg.alpn_len = 12;
	conn.cfg.tickets = keys;
	conn.cfg.tickets_per_handshake = 2;
	conn.cfg.allow_psk_ke = psk_ke;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_FALSE(conn.hs->resumed);
	ASSERT_EQ(0, exchange_tickets(&conn, true));
	ASSERT_NE(NULL, sess);
	ASSERT_TRUE(SSL_SESSION_has_ticket(sess));
	conn_free(&conn);

	o.sni = sni2;
	if (alpn2) {
		o.alpn = (const u8 *)alpn2;
		o.alpn_len = (unsigned int)strlen(alpn2);
	}
	ASSERT_EQ(0, client_setup(&conn, &o));
	if (psk_ke)
		SSL_set_options(conn.ssl, SSL_OP_ALLOW_NO_DHE_KEX);
	ASSERT_EQ(1, SSL_set_session(conn.ssl, sess));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	memcpy(conn.cfg.alpn, "\x02h2\x08http/1.1", 12);
	conn.cfg.alpn_len = 12;
	conn.cfg.tickets = keys;
	conn.cfg.tickets_per_handshake = 1;
	conn.cfg.allow_psk_ke = psk_ke;
	conn.cfg.prefer_psk_ke = resume_prefer_ke;
	if (resume_group2) {
		conn.cfg.groups[0] = resume_group2;
		conn.cfg.n_groups = 1;
	}
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	/* Data both ways, and a ticket from the resumed connection. */
	EXPECT_EQ(0, exchange_tickets(&conn, true));
}

static void resume_done(void)
{
	resume_group2 = 0;
	resume_prefer_ke = false;
	conn_free(&conn);
	SSL_SESSION_free(sess);
	sess = NULL;
	tlsx_ticket_keys_free(keys);
	keys = NULL;
}

TEST(resumption_psk_dhe_ke)
{
	struct tlsx_hs_info info;

	resume(_metadata, false, "www.example.com", NULL);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.resumed);
	EXPECT_TRUE(SSL_session_reused(conn.ssl));
	EXPECT_EQ(TLSX_GROUP_X25519, info.group);
	EXPECT_FALSE(conn.hs->srv.psk_ke);
	EXPECT_STREQ("h2", (char *)info.alpn);
	/* No Certificate: the client saw none this time. */
	EXPECT_EQ(0, conn.hs->own_sig_scheme);
	resume_done();
}

/*
 * psk_ke allowed on both sides, the client (OpenSSL with
 * SSL_OP_ALLOW_NO_DHE_KEX) offering psk_ke and psk_dhe_ke: the server
 * takes psk_dhe_ke, for forward secrecy (issue 26 item 8).
 */
TEST(resumption_psk_ke_allowed_takes_psk_dhe_ke)
{
	struct tlsx_hs_info info;

	resume(_metadata, true, "www.example.com", NULL);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.resumed);
	EXPECT_TRUE(SSL_session_reused(conn.ssl));
	EXPECT_FALSE(conn.hs->srv.psk_ke);
	EXPECT_EQ(TLSX_GROUP_X25519, info.group);
	resume_done();
}

/* prefer_psk_ke: the explicit choice of psk_ke over psk_dhe_ke. */
TEST(resumption_psk_ke_preferred)
{
	struct tlsx_hs_info info;

	resume_prefer_ke = true;
	resume(_metadata, true, "www.example.com", NULL);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.resumed);
	EXPECT_TRUE(SSL_session_reused(conn.ssl));
	EXPECT_TRUE(conn.hs->srv.psk_ke);
	EXPECT_EQ(0, info.group);
	resume_done();
}

/*
 * Resumption and client authentication (issue 26 item 3): a ticket from
 * a server that verified clients as @v1/@r1 (the client sending its
 * certificate when @cert1), offered by an OpenSSL client that holds a
 * certificate to a server with the same ticket keys (a key file kept
 * across a configuration change) that verifies as @v2/@r2.
 */
static void auth_resume(struct __test_metadata *_metadata, bool v1, bool r1,
			bool cert1, bool v2, bool r2)
{
	struct client_opts o = { .sni = "www.example.com", .cert = cert1 };

	keys = tlsx_ticket_keys_new(0, time(NULL));
	ASSERT_NE(NULL, keys);
	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	ASSERT_EQ(0, tlsx_trust_load(&conn.trust, data("p256-root.pem"),
				     NULL));
	if (v1)
		conn.cfg.trust = &conn.trust;
	conn.cfg.verify_peer = v1;
	conn.cfg.require_peer_cert = r1;
	conn.cfg.tickets = keys;
	conn.cfg.tickets_per_handshake = 1;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(cert1 && v1, conn.hs->peer_cert);
	ASSERT_EQ(0, exchange_tickets(&conn, true));
	ASSERT_NE(NULL, sess);
	conn_free(&conn);

	o.cert = true;
	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(1, SSL_set_session(conn.ssl, sess));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	ASSERT_EQ(0, tlsx_trust_load(&conn.trust, data("p256-root.pem"),
				     NULL));
	if (v2)
		conn.cfg.trust = &conn.trust;
	conn.cfg.verify_peer = v2;
	conn.cfg.require_peer_cert = r2;
	conn.cfg.keep_peer_chain = true;
	conn.cfg.tickets = keys;
	conn.cfg.tickets_per_handshake = 1;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	EXPECT_EQ(0, exchange(&conn));
}

/*
 * The checks after a ticket was declined: a full handshake with a
 * CertificateRequest, answered with OpenSSL's certificate, verified.
 */
static void auth_resume_declined(struct __test_metadata *_metadata)
{
	struct tlsx_hs_info info;
	const u8 *der;
	size_t len;

	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_FALSE(info.resumed);
	EXPECT_FALSE(SSL_session_reused(conn.ssl));
	EXPECT_TRUE(info.peer_cert);
	EXPECT_EQ(TLSX_SIG_ECDSA_SECP256R1_SHA256, info.sig_scheme);
	EXPECT_EQ(0, tlsx_hs_peer_cert(conn.hs, 0, &der, &len));
}

/* A ticket from a server without client authentication: declined. */
TEST(resumption_declined_when_client_cert_now_required)
{
	auth_resume(_metadata, false, false, true, true, true);
	auth_resume_declined(_metadata);
	resume_done();
}

/* Optional before (no certificate sent), required now: declined. */
TEST(resumption_declined_optional_to_required)
{
	auth_resume(_metadata, true, false, false, true, true);
	auth_resume_declined(_metadata);
	resume_done();
}

/*
 * Optional before, the certificate sent and verified; required now:
 * another configuration, so declined too (the context digest).
 */
TEST(resumption_declined_other_client_auth_mode)
{
	auth_resume(_metadata, true, false, true, true, true);
	auth_resume_declined(_metadata);
	resume_done();
}

/*
 * The same configuration requiring certificates: resumed, peer_cert
 * true (the ticket says the client was verified), and no chain to hand
 * out: a resumption carries none (RFC 8446 2.2), tickets do not keep it.
 */
TEST(resumption_keeps_client_auth_verdict)
{
	struct tlsx_hs_info info;
	const u8 *der;
	size_t len;

	auth_resume(_metadata, true, true, true, true, true);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.resumed);
	EXPECT_TRUE(SSL_session_reused(conn.ssl));
	EXPECT_TRUE(info.peer_cert);
	EXPECT_EQ(0, info.sig_scheme);
	EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(conn.hs, 0, &der, &len));
	resume_done();
}

/*
 * Resumption through a HelloRetryRequest: the client's X25519 share is
 * refused, its second ClientHello's binder (over message_hash, the HRR
 * and ClientHello2 truncated) is checked again.
 */
TEST(resumption_after_hello_retry_request)
{
	struct tlsx_hs_info info;

	resume_group2 = TLSX_GROUP_SECP256R1;
	resume(_metadata, false, "www.example.com", NULL);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.resumed);
	EXPECT_TRUE(info.hrr);
	EXPECT_TRUE(SSL_session_reused(conn.ssl));
	EXPECT_EQ(TLSX_GROUP_SECP256R1, info.group);
	resume_done();
}

/* Another server name: the ticket is not taken, a full handshake. */
TEST(resumption_refused_for_another_name)
{
	struct tlsx_hs_info info;

	resume(_metadata, false, "other.example.org", NULL);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_FALSE(info.resumed);
	EXPECT_FALSE(SSL_session_reused(conn.ssl));
	resume_done();
}

TEST(resumption_refused_for_another_protocol)
{
	struct tlsx_hs_info info;

	resume(_metadata, false, "www.example.com", "\x08http/1.1");
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_FALSE(info.resumed);
	EXPECT_FALSE(SSL_session_reused(conn.ssl));
	EXPECT_STREQ("http/1.1", (char *)info.alpn);
	resume_done();
}

/*
 * The second connection to a server with fresh ticket keys: the ticket
 * does not open, a full handshake (4.2.11), no alert.
 */
static void offer_session(struct __test_metadata *_metadata, bool new_keys,
			  const u8 *psk, size_t psk_len)
{
	struct client_opts o = { .sni = "www.example.com" };

	keys = tlsx_ticket_keys_new(0, time(NULL));
	ASSERT_NE(NULL, keys);
	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	conn.cfg.tickets = keys;
	conn.cfg.tickets_per_handshake = 1;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(0, exchange_tickets(&conn, true));
	conn_free(&conn);
	ASSERT_NE(NULL, sess);
	ASSERT_TRUE(SSL_SESSION_is_resumable(sess));
	if (psk)
		ASSERT_EQ(1, SSL_SESSION_set1_master_key(sess, psk, psk_len));
	if (new_keys) {
		tlsx_ticket_keys_free(keys);
		keys = tlsx_ticket_keys_new(0, time(NULL));
		ASSERT_NE(NULL, keys);
	}
	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(1, SSL_set_session(conn.ssl, sess));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	conn.cfg.tickets = keys;
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
}

TEST(resumption_unknown_ticket_is_a_full_handshake)
{
	struct tlsx_hs_info info;

	offer_session(_metadata, true, NULL, 0);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	EXPECT_TRUE(conn.hs->srv.client_exts &
		    TLSX_EXT_BIT(TLSX_EXT_PRE_SHARED_KEY));
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_FALSE(info.resumed);
	EXPECT_FALSE(SSL_session_reused(conn.ssl));
	resume_done();
}

/*
 * The client's PSK changed under the same ticket: its binder does not
 * validate, decrypt_error (4.2.11, 6.2).
 */
TEST(resumption_bad_binder_is_decrypt_error)
{
	static const u8 wrong[32] = { 1, 2, 3 };

	offer_session(_metadata, false, wrong, sizeof(wrong));
	/* Offered, with a binder from the wrong key. */
	EXPECT_TRUE(conn.hs->srv.client_exts &
		    TLSX_EXT_BIT(TLSX_EXT_PRE_SHARED_KEY));
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_DECRYPT_ERROR), conn.hs_ret);
	resume_done();
}

/* OpenSSL offers TLS 1.2 only: protocol_version (4.2.1). */
TEST(tls12_only_client)
{
	struct client_opts o = { .max_version = TLS1_2_VERSION };

	ASSERT_EQ(0, client_setup(&conn, &o));
	ASSERT_EQ(0, server_setup(&conn, "p256"));
	ASSERT_EQ(0, server_start(&conn));
	run(&conn);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_PROTOCOL_VERSION), conn.hs_ret);
	conn_free(&conn);
}

/* --- refusals: ClientHellos built by hand ------------------------------------ */

/* One extension of a hand-built ClientHello: type and body (hex). */
struct ch_ext {
	u16 type;
	const char *body;
};

struct ch_opts {
	u16 version;			/* 0: 0x0303 */
	const char *sid;		/* hex, with its length byte; NULL: 00 */
	const char *suites;		/* hex, with its length; NULL: 0002 1301 */
	const char *comp;		/* hex, with its length; NULL: 0100 */
	const struct ch_ext *ext;	/* NULL-terminated (type 0 ends with body NULL) */
	bool no_exts;			/* no extension block at all */
};

#define Z8		"0000000000000000"
#define Z32		"0000000000000000000000000000000000000000000000000000000000000000"
#define SHARE_X25519	"0024001d0020" S3_C_PUB
#define EXT_VERSIONS	{ 43, "020304" }
#define EXT_GROUPS	{ 10, "0004001d0017" }
#define EXT_SHARE	{ 51, SHARE_X25519 }
#define EXT_SIGALGS	{ 13, "000a04030807080408050806" }
#define EXT_END		{ 0, NULL }

static const struct ch_ext good_exts[] = {
	EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS, EXT_END
};

/* A ClientHello record as @o says, at @rec; its length. */
static size_t ch_record(u8 *rec, size_t cap, const struct ch_opts *o)
{
	static u8 tmp[4096];
	struct tlsx_wr w;
	const struct ch_ext *e;
	size_t n, len;
	u8 rnd[32];

	memset(rnd, 0x42, sizeof(rnd));
	tlsx_wr_init(&w, rec, cap);
	tlsx_wr_u8(&w, TLSX_CT_HANDSHAKE);
	tlsx_wr_u16(&w, 0x0301);
	tlsx_wr_open(&w, 2);
	tlsx_wr_u8(&w, TLSX_HT_CLIENT_HELLO);
	tlsx_wr_open(&w, 3);
	tlsx_wr_u16(&w, o->version ? o->version : 0x0303);
	tlsx_wr_bytes(&w, rnd, 32);
	n = unhex(o->sid ? o->sid : "00", tmp, sizeof(tmp));
	tlsx_wr_bytes(&w, tmp, n);
	n = unhex(o->suites ? o->suites : "00021301", tmp, sizeof(tmp));
	tlsx_wr_bytes(&w, tmp, n);
	n = unhex(o->comp ? o->comp : "0100", tmp, sizeof(tmp));
	tlsx_wr_bytes(&w, tmp, n);
	if (!o->no_exts) {
		tlsx_wr_open(&w, 2);
		for (e = o->ext ? o->ext : good_exts; e->body; e++) {
			tlsx_wr_u16(&w, e->type);
			n = unhex(e->body, tmp, sizeof(tmp));
			tlsx_wr_vec(&w, 2, tmp, n);
		}
		tlsx_wr_close(&w);
	}
	tlsx_wr_close(&w);
	tlsx_wr_close(&w);
	if (tlsx_wr_finish(&w, &len))
		abort();
	return len;
}

static struct tlsx_cert_chain p256_chain;

/* A server with the P-256 chain; @setup adjusts its configuration. */
static struct tlsx_hs *raw_server(struct tlsx_hs_config *cfg)
{
	if (!p256_chain.n &&
	    load_chain(&p256_chain, "p256-chain.pem", NULL, "p256-leaf.key"))
		return NULL;
	cfg->server = true;
	cfg->chains[0] = &p256_chain;
	cfg->n_chains = 1;
	return tlsx_hs_new(cfg);
}

static u8 raw_out[TLSX_HS_OUT_MIN];
static size_t raw_out_len;

/* Steps @hs on @rec; the step's return. */
static int raw_step(struct tlsx_hs *hs, const u8 *rec, size_t len)
{
	size_t used;

	return tlsx_hs_step(hs, rec, len, &used, raw_out, sizeof(raw_out),
			    &raw_out_len);
}

/* The alert a server with @cfg sends for ClientHello @o. */
static int refusal(struct tlsx_hs_config *cfg, const struct ch_opts *o)
{
	static u8 rec[8192];
	struct tlsx_hs *hs = raw_server(cfg);
	size_t len = ch_record(rec, sizeof(rec), o);
	int ret, alert;

	if (!hs)
		return -1;
	ret = raw_step(hs, rec, len);
	alert = tlsx_hs_alert(hs);
	if (ret >= 0)
		alert = 0;
	/* The alert record went out, in the clear. */
	else if (raw_out_len != 7 || raw_out[0] != TLSX_CT_ALERT ||
		 raw_out[6] != alert || ret != -TLSX_HS_EALERT(alert))
		alert = -2;
	tlsx_hs_free(hs);
	return alert;
}

#define REFUSE(want, ...) do {						\
		struct tlsx_hs_config _cfg = { 0 };			\
		struct ch_opts _o = { __VA_ARGS__ };			\
		EXPECT_EQ(want, refusal(&_cfg, &_o));			\
	} while (0)

TEST(raw_good_hello_is_taken)
{
	REFUSE(0, .ext = good_exts);
}

TEST(raw_refusals_versions)
{
	static const struct ch_ext tls12[] = {
		{ 43, "020303" }, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext none[] = {
		EXT_GROUPS, EXT_SHARE, EXT_SIGALGS, EXT_END
	};

	/* 4.2.1: no 0x0304 in supported_versions, or none at all. */
	REFUSE(TLSX_ALERT_PROTOCOL_VERSION, .ext = tls12);
	REFUSE(TLSX_ALERT_PROTOCOL_VERSION, .ext = none);
	/* A TLS 1.2 ClientHello without extensions. */
	REFUSE(TLSX_ALERT_PROTOCOL_VERSION, .no_exts = true);
	/* 4.2.1: with supported_versions, legacy_version is not used. */
	REFUSE(0, .version = 0x0301);
	/* Without it, 0x0304 there is no TLS 1.3 offer. */
	REFUSE(TLSX_ALERT_PROTOCOL_VERSION, .version = 0x0304, .ext = none);
}

TEST(raw_refusals_fields)
{
	/* 4.1.2: compression methods exactly [0]. */
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .comp = "020100");
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .comp = "0101");
	/* legacy_session_id<0..32>: 33 bytes is a decode_error. */
	REFUSE(TLSX_ALERT_DECODE_ERROR,
	       .sid = "21000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
	/* cipher_suites of odd length; no suite in common. */
	REFUSE(TLSX_ALERT_DECODE_ERROR, .suites = "0003130113");
	REFUSE(TLSX_ALERT_HANDSHAKE_FAILURE, .suites = "0002c02f");
}

TEST(raw_refusals_extensions)
{
	static const struct ch_ext dup[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS, EXT_SIGALGS,
		EXT_END
	};
	static const struct ch_ext dup_unknown[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 0x1234, "" }, { 0x1234, "00" }, EXT_END
	};
	static const struct ch_ext psk_not_last[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 45, "0101" },
		{ 41, "000a0004aabbccdd00000000002120" Z32 },
		{ 0x1234, "" }, EXT_END
	};
	static const struct ch_ext psk_no_modes[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 41, "000a0004aabbccdd00000000002120" Z32 },
		EXT_END
	};
	static const struct ch_ext cookie1[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 44, "0003abcdef" }, EXT_END
	};
	static const struct ch_ext rsl63[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 28, "003f" }, EXT_END
	};
	static const struct ch_ext ee_only[] = {
		/* oid_filters: CertificateRequest only (4.2). */
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 48, "0000" }, EXT_END
	};

	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = dup);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = dup_unknown);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = psk_not_last);
	REFUSE(TLSX_ALERT_MISSING_EXTENSION, .ext = psk_no_modes);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = cookie1);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = rsl63);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = ee_only);
}

TEST(raw_refusals_groups_and_shares)
{
	static const struct ch_ext no_common[] = {
		/* x448 only (tlsx does not do it), with its share. */
		EXT_VERSIONS, { 10, "0002001e" },
		{ 51, "003c001e0038" Z32 Z8 Z8 Z8 },
		EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext share_not_listed[] = {
		EXT_VERSIONS, { 10, "00020017" }, EXT_SHARE, EXT_SIGALGS,
		EXT_END
	};
	static const struct ch_ext dup_share[] = {
		EXT_VERSIONS, EXT_GROUPS,
		{ 51, "0048001d0020" S3_C_PUB "001d0020" S3_C_PUB },
		EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext groups_no_share[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext share_no_groups[] = {
		EXT_VERSIONS, EXT_SHARE, EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext bad_point[] = {
		EXT_VERSIONS, EXT_GROUPS, { 51, "0007001700030400ff" },
		EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext zero_x25519[] = {
		EXT_VERSIONS, EXT_GROUPS,
		{ 51, "0024001d0020" Z32 },
		EXT_SIGALGS, EXT_END
	};

	REFUSE(TLSX_ALERT_HANDSHAKE_FAILURE, .ext = no_common);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = share_not_listed);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = dup_share);
	REFUSE(TLSX_ALERT_MISSING_EXTENSION, .ext = groups_no_share);
	REFUSE(TLSX_ALERT_MISSING_EXTENSION, .ext = share_no_groups);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = bad_point);
	/* 7.4.2: an all-zero X25519 shared secret. */
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = zero_x25519);
}

TEST(raw_refusals_signatures)
{
	static const struct ch_ext no_sigalgs[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_END
	};
	static const struct ch_ext pkcs1_only[] = {
		/* rsa_pkcs1_sha256 and ed25519: neither fits a P-256 key. */
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, { 13, "000404010807" },
		EXT_END
	};

	REFUSE(TLSX_ALERT_MISSING_EXTENSION, .ext = no_sigalgs);
	REFUSE(TLSX_ALERT_HANDSHAKE_FAILURE, .ext = pkcs1_only);
}

TEST(raw_refusals_alpn_and_names)
{
	static const struct ch_ext alpn[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 16, "000706687474703131" }, EXT_END
	};
	static const struct ch_ext two_names[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 0, "000c000003616161000003626262" }, EXT_END
	};
	static const struct ch_ext nul_name[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 0, "0006000003610062" }, EXT_END
	};
	struct tlsx_hs_config cfg = { 0 };
	struct ch_opts o = { .ext = alpn };

	memcpy(cfg.alpn, "\x02h2", 3);
	cfg.alpn_len = 3;
	EXPECT_EQ(TLSX_ALERT_NO_APPLICATION_PROTOCOL, refusal(&cfg, &o));
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = two_names);
	REFUSE(TLSX_ALERT_ILLEGAL_PARAMETER, .ext = nul_name);
}

/*
 * record_size_limit (RFC 8449): ours in EncryptedExtensions, at most
 * 2^14 + 1; the client's limit splits our records.
 */
TEST(record_size_limit_both_ways)
{
	static const struct ch_ext rsl[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS,
		{ 28, "0100" }, EXT_END
	};
	static u8 rec[8192], msgs[16384];
	struct tlsx_hs_config cfg = { .record_size_limit = 65535 };
	struct ch_opts o = { .ext = rsl };
	struct tlsx_rec_dir d = { 0 };
	struct tlsx_hs *hs = raw_server(&cfg);
	size_t len, off, body, n, records = 0;

	ASSERT_NE(NULL, hs);
	len = ch_record(rec, sizeof(rec), &o);
	ASSERT_EQ(TLSX_HS_WANT_READ, raw_step(hs, rec, len));
	EXPECT_EQ(256, hs->peer_record_size_limit);
	/* Every protected record's content: at most 255 bytes + type. */
	off = 5 + get_unaligned_be16(raw_out + 3);
	for (; off + 5 <= raw_out_len; off += 5 + body) {
		body = get_unaligned_be16(raw_out + off + 3);
		EXPECT_LE(body, 256 + 16);
		records++;
	}
	EXPECT_GT(records, 2);
	/* EncryptedExtensions: 001c 0002 4001. */
	ASSERT_EQ(0, tlsx_rec_set_secret(&d, hs->suite, hs->s_hs,
					 hs->hash_len));
	off = 5 + get_unaligned_be16(raw_out + 3);
	n = open_flight(&d, raw_out + off, raw_out_len - off, msgs,
			sizeof(msgs));
	ASSERT_GT(n, 12);
	EXPECT_EQ(TLSX_HT_ENCRYPTED_EXTENSIONS, msgs[0]);
	EXPECT_TRUE(memmem(msgs, 4 + msgs[3], "\x00\x1c\x00\x02\x40\x01", 6));
	tlsx_rec_wipe(&d);
	tlsx_hs_free(hs);
}

/* A message other than ClientHello first: unexpected_message. */
TEST(raw_refusals_wrong_first_message)
{
	static const u8 fin[] = { 22, 3, 3, 0, 8, 20, 0, 0, 4, 1, 2, 3, 4 };
	struct tlsx_hs_config cfg = { 0 };
	struct tlsx_hs *hs = raw_server(&cfg);

	ASSERT_NE(NULL, hs);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
		  raw_step(hs, fin, sizeof(fin)));
	tlsx_hs_free(hs);
}

/* --- the second ClientHello (4.1.2) -------------------------------------------- */

/* RFC 8448 section 5's client P-256 share. */
#define P256_PUB	"04a6da7392ec591e17abfd535964b99894d13befb221b3def2ebe3830eac8f0151812677c4d6d2237e85cf01d6910cfb83954e76ba7352830534159897e8065780"
#define SHARE_P256_1	"004500170041" P256_PUB

/*
 * ClientHello1 with an X25519 share to a P-256-only server, then @ch2's
 * extensions plus the cookie the HRR carried (unless @no_cookie): the
 * step's result on ClientHello2.
 */
static const char *second_why;	/* tlsx_hs_reason() of the last */

/* As second_hello(), ClientHello1 with @ch1's extensions. */
static int second_hello_after(const struct ch_ext *ch1,
			      const struct ch_ext *ch2, bool no_cookie)
{
	static u8 rec[8192], cookie_hex[1024];
	static struct ch_ext ext2[16];
	struct tlsx_hs_config cfg = { 0 };
	struct ch_opts o = { .ext = ch1 };
	struct tlsx_hs *hs;
	struct tlsx_rd r;
	const u8 *c;
	size_t len, c_len, i, k = 0;
	int ret;

	cfg.groups[0] = TLSX_GROUP_SECP256R1;
	cfg.n_groups = 1;
	hs = raw_server(&cfg);
	if (!hs)
		return -1;
	len = ch_record(rec, sizeof(rec), &o);
	ret = raw_step(hs, rec, len);
	if (ret != TLSX_HS_WANT_READ || !hs->hrr) {
		tlsx_hs_free(hs);
		return -3;
	}
	/* The HRR's cookie: 5 + 4 + 2 + 32 + 1 + 2 + 1 + 2, key_share 6. */
	tlsx_rd_init(&r, raw_out + 55 + 4, raw_out_len - 59);
	if (tlsx_rd_vec(&r, 2, 1, 65535, &c, &c_len)) {
		tlsx_hs_free(hs);
		return -4;
	}
	for (i = 0; i < c_len + 2; i++)
		sprintf((char *)cookie_hex + 2 * i, "%02x",
			i < 2 ? (unsigned int)(c_len >> (8 - 8 * i)) & 0xff :
			c[i - 2]);
	for (i = 0; ch2[i].body; i++)
		ext2[k++] = ch2[i];
	if (!no_cookie)
		ext2[k++] = (struct ch_ext){ 44, (const char *)cookie_hex };
	ext2[k] = (struct ch_ext)EXT_END;
	o.ext = ext2;
	len = ch_record(rec, sizeof(rec), &o);
	ret = raw_step(hs, rec, len);
	if (ret < 0)
		ret = tlsx_hs_alert(hs);
	second_why = tlsx_hs_reason(hs);
	tlsx_hs_free(hs);
	return ret;
}

static int second_hello(const struct ch_ext *ch2, bool no_cookie,
			bool early_data1)
{
	static const struct ch_ext ch1_early[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS, { 42, "" },
		EXT_END
	};

	return second_hello_after(early_data1 ? ch1_early : good_exts, ch2,
				  no_cookie);
}

static const struct ch_ext ch2_good[] = {
	EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 }, EXT_SIGALGS, EXT_END
};

TEST(second_hello_good)
{
	EXPECT_EQ(TLSX_HS_WANT_READ, second_hello(ch2_good, false,
						  false));
	/* padding may change; early_data may go. */
	{
		static const struct ch_ext padded[] = {
			EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 },
			EXT_SIGALGS, { 21, "00000000" }, EXT_END
		};

		EXPECT_EQ(TLSX_HS_WANT_READ,
			  second_hello(padded, false, true));
	}
}

TEST(second_hello_refusals)
{
	static const struct ch_ext x25519_share[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext two_shares[] = {
		EXT_VERSIONS, EXT_GROUPS,
		{ 51, "0069001d0020" S3_C_PUB "00170041" P256_PUB },
		EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext changed_sigalgs[] = {
		EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 },
		{ 13, "00020403" }, EXT_END
	};
	static const struct ch_ext added_ext[] = {
		EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 }, EXT_SIGALGS,
		{ 0x1234, "" }, EXT_END
	};
	static const struct ch_ext early[] = {
		EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 }, EXT_SIGALGS,
		{ 42, "" }, EXT_END
	};
	static const struct ch_ext bad_cookie[] = {
		EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 }, EXT_SIGALGS,
		{ 44, "0003abcdef" }, EXT_END
	};

	/* The HRR asked for secp256r1: a second HRR is never sent. */
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello(x25519_share, false, false));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello(two_shares, false, false));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello(changed_sigalgs, false, false));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello(added_ext, false, false));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello(early, false, false));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello(ch2_good, true, false));
	/* A cookie that is not ours (and a duplicate cookie extension). */
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello(bad_cookie, true, false));
}

/*
 * 4.1.2 compares ClientHellos, not bytes: "the client MUST send the same
 * ClientHello without modification, except" key_share replaced, early_data
 * removed, the cookie added, pre_shared_key updated, padding added,
 * changed or removed.  So the extensions 4.1.2 lets change may move or
 * come and go (key_share first instead of third, the cookie in the
 * middle, padding added), while those it keeps are kept in their order:
 * two unknown extensions swapped are a modification the list does not
 * allow (tlsfuzzer's test-tls13-shuffled-extentions.py expects
 * illegal_parameter for that too), as is one dropped or changed.
 */
TEST(second_hello_compares_what_4_1_2_keeps)
{
	static const struct ch_ext ch1[] = {
		{ 0x1234, "" }, EXT_VERSIONS, EXT_GROUPS, EXT_SHARE,
		{ 0x5678, "00" }, { 21, "0000" }, EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext moved[] = {
		{ 51, SHARE_P256_1 }, { 0x1234, "" }, EXT_VERSIONS,
		EXT_GROUPS, { 0x5678, "00" }, EXT_SIGALGS,
		{ 21, "000000000000" }, EXT_END
	};
	static const struct ch_ext no_padding[] = {
		{ 0x1234, "" }, EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 },
		{ 0x5678, "00" }, EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext swapped[] = {
		{ 0x5678, "00" }, EXT_VERSIONS, EXT_GROUPS,
		{ 51, SHARE_P256_1 }, { 0x1234, "" }, EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext dropped[] = {
		EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 },
		{ 0x5678, "00" }, EXT_SIGALGS, EXT_END
	};
	static const struct ch_ext changed[] = {
		{ 0x1234, "" }, EXT_VERSIONS, EXT_GROUPS, { 51, SHARE_P256_1 },
		{ 0x5678, "01" }, EXT_SIGALGS, EXT_END
	};

	EXPECT_EQ(TLSX_HS_WANT_READ, second_hello_after(ch1, moved, false));
	EXPECT_EQ(TLSX_HS_WANT_READ,
		  second_hello_after(ch1, no_padding, false));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello_after(ch1, swapped, false));
	EXPECT_STREQ("the second ClientHello changes what 4.1.2 keeps",
		     second_why);
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello_after(ch1, dropped, false));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  second_hello_after(ch1, changed, false));
}

/* --- declined early data -------------------------------------------------- */

/*
 * 4.2.10: with early_data offered, records that do not open under the
 * handshake key are dropped up to the bound; then bad_record_mac.
 */
TEST(early_data_skipped_up_to_bound)
{
	static const struct ch_ext early[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIGALGS, { 42, "" },
		EXT_END
	};
	static u8 rec[8192], junk[5 + 16384 + 17];
	struct tlsx_hs_config cfg = { 0 };
	struct ch_opts o = { .ext = early };
	struct tlsx_hs *hs = raw_server(&cfg);
	size_t len, sent = 0;
	int ret = TLSX_HS_WANT_READ;

	ASSERT_NE(NULL, hs);
	len = ch_record(rec, sizeof(rec), &o);
	ASSERT_EQ(TLSX_HS_WANT_READ, raw_step(hs, rec, len));
	/* No early_data in EncryptedExtensions: checked by size below. */
	junk[0] = TLSX_CT_APPLICATION_DATA;
	junk[1] = 3;
	junk[2] = 3;
	put_unaligned_be16(1000, junk + 3);
	memset(junk + 5, 0xa5, 1000);
	while (ret == TLSX_HS_WANT_READ && sent < 64 * 1024) {
		ret = raw_step(hs, junk, 1005);
		sent += 1000;
	}
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_BAD_RECORD_MAC), ret);
	/* Dropped: at least 16 KiB, at most the bound. */
	EXPECT_GT(sent, 16384);
	EXPECT_LE(sent, 16384 + 64 * 17 + 1000);
	tlsx_hs_free(hs);
}

/* Without early_data offered, the first bad record is bad_record_mac. */
TEST(no_early_data_no_skipping)
{
	static u8 rec[8192], junk[1005];
	struct tlsx_hs_config cfg = { 0 };
	struct ch_opts o = { .ext = good_exts };
	struct tlsx_hs *hs = raw_server(&cfg);
	size_t len;

	ASSERT_NE(NULL, hs);
	len = ch_record(rec, sizeof(rec), &o);
	ASSERT_EQ(TLSX_HS_WANT_READ, raw_step(hs, rec, len));
	junk[0] = TLSX_CT_APPLICATION_DATA;
	junk[1] = 3;
	junk[2] = 3;
	put_unaligned_be16(1000, junk + 3);
	memset(junk + 5, 0xa5, 1000);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_BAD_RECORD_MAC),
		  raw_step(hs, junk, sizeof(junk)));
	tlsx_hs_free(hs);
}

/* --- the client's flight, sealed by hand ------------------------------------- */

/*
 * A server past a hand-built ClientHello; the client's records are
 * sealed here under the engine's own client handshake secret (the test
 * reads hs->c_hs), so each message the server awaits can be replaced.
 */
struct flight {
	struct tlsx_hs *hs;
	struct tlsx_rec_dir d;
	u8 in[8192];
	size_t in_len;
};

static struct flight fl;

static int flight_start(struct tlsx_hs_config *cfg)
{
	static u8 rec[8192];
	struct ch_opts o = { .ext = good_exts };
	size_t len;

	memset(&fl, 0, sizeof(fl));
	fl.hs = raw_server(cfg);
	if (!fl.hs)
		return -1;
	len = ch_record(rec, sizeof(rec), &o);
	if (raw_step(fl.hs, rec, len) != TLSX_HS_WANT_READ)
		return -1;
	return tlsx_rec_set_secret(&fl.d, fl.hs->suite, fl.hs->c_hs,
				   fl.hs->hash_len);
}

/* Appends @len bytes of @type, sealed, to fl.in. */
static void flight_add(u8 type, const u8 *p, size_t len)
{
	size_t n;

	if (tlsx_rec_seal(&fl.d, type, p, len, 0, fl.in + fl.in_len,
			  sizeof(fl.in) - fl.in_len, &n))
		abort();
	fl.in_len += n;
}

/* The client Finished the server expects now. */
static size_t good_finished(u8 *msg)
{
	u8 th[TLSX_KS_MAX_SECRET];

	msg[0] = TLSX_HT_FINISHED;
	msg[1] = 0;
	msg[2] = 0;
	msg[3] = (u8)fl.hs->hash_len;
	if (tlsx_transcript_hash(&fl.hs->ts, th) ||
	    tlsx_finished_mac(fl.hs->hash, fl.hs->c_hs, th, msg + 4))
		abort();
	return 4 + fl.hs->hash_len;
}

static int flight_step(size_t *used)
{
	return tlsx_hs_step(fl.hs, fl.in, fl.in_len, used, raw_out,
			    sizeof(raw_out), &raw_out_len);
}

static void flight_free(void)
{
	tlsx_rec_wipe(&fl.d);
	tlsx_hs_free(fl.hs);
	memset(&fl, 0, sizeof(fl));
}

/*
 * The client Finished, then application data in the same input: the
 * handshake is done and the data is left for the record layer.
 */
TEST(client_finished_then_data_left_alone)
{
	struct tlsx_hs_config cfg = { 0 };
	u8 msg[64];
	size_t n, used, fin_rec;

	ASSERT_EQ(0, flight_start(&cfg));
	n = good_finished(msg);
	flight_add(TLSX_CT_HANDSHAKE, msg, n);
	fin_rec = fl.in_len;
	memcpy(fl.in + fl.in_len, "\x17\x03\x03\x00\x05hello", 10);
	fl.in_len += 10;
	EXPECT_EQ(TLSX_HS_DONE, flight_step(&used));
	EXPECT_EQ(fin_rec, used);
	EXPECT_EQ(0, raw_out_len);
	flight_free();
}

TEST(client_finished_wrong_is_decrypt_error)
{
	struct tlsx_hs_config cfg = { 0 };
	u8 msg[64];
	size_t n, used;

	ASSERT_EQ(0, flight_start(&cfg));
	n = good_finished(msg);
	msg[10] ^= 1;
	flight_add(TLSX_CT_HANDSHAKE, msg, n);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_DECRYPT_ERROR),
		  flight_step(&used));
	/* The alert went out protected under our handshake key. */
	EXPECT_EQ(TLSX_CT_APPLICATION_DATA, raw_out[0]);
	flight_free();
}

TEST(client_finished_short_is_decode_error)
{
	struct tlsx_hs_config cfg = { 0 };
	u8 msg[64];
	size_t n, used;

	ASSERT_EQ(0, flight_start(&cfg));
	n = good_finished(msg);
	msg[3]--;
	flight_add(TLSX_CT_HANDSHAKE, msg, n - 1);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_DECODE_ERROR),
		  flight_step(&used));
	flight_free();
}

/* 5.1: the Finished must end its record. */
TEST(client_finished_not_at_record_end)
{
	struct tlsx_hs_config cfg = { 0 };
	u8 msg[64];
	size_t n, used;

	ASSERT_EQ(0, flight_start(&cfg));
	n = good_finished(msg);
	memcpy(msg + n, "\x18\x00\x00\x01\x00", 5);	/* a KeyUpdate */
	flight_add(TLSX_CT_HANDSHAKE, msg, n + 5);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
		  flight_step(&used));
	flight_free();
}

/* Messages the state does not await: unexpected_message. */
TEST(client_flight_unexpected_messages)
{
	static const u8 cert[] = { TLSX_HT_CERTIFICATE, 0, 0, 4, 0, 0, 0, 0 };
	static const u8 eoed[] = { TLSX_HT_END_OF_EARLY_DATA, 0, 0, 0 };
	static const u8 cv[] = { TLSX_HT_CERTIFICATE_VERIFY, 0, 0, 4,
				 4, 3, 0, 0 };
	const u8 *msgs[] = { cert, eoed, cv };
	const size_t lens[] = { sizeof(cert), sizeof(eoed), sizeof(cv) };
	struct tlsx_hs_config cfg = { 0 };
	size_t i, used;

	for (i = 0; i < ARRAY_SIZE(msgs); i++) {
		ASSERT_EQ(0, flight_start(&cfg));
		flight_add(TLSX_CT_HANDSHAKE, msgs[i], lens[i]);
		EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
			  flight_step(&used))
			TH_LOG("message type %u", msgs[i][0]);
		flight_free();
	}
}

/* With a CertificateRequest: Finished without Certificate, and a bad context. */
TEST(client_auth_flight_refusals)
{
	static const u8 ctx_cert[] = { TLSX_HT_CERTIFICATE, 0, 0, 5,
				       1, 7, 0, 0, 0 };
	struct tlsx_hs_config cfg = { .verify_peer = true, .insecure = true };
	u8 msg[64];
	size_t n, used;

	ASSERT_EQ(0, flight_start(&cfg));
	n = good_finished(msg);
	flight_add(TLSX_CT_HANDSHAKE, msg, n);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
		  flight_step(&used));
	flight_free();

	/* 4.4.2: the context must be the CertificateRequest's (empty). */
	ASSERT_EQ(0, flight_start(&cfg));
	flight_add(TLSX_CT_HANDSHAKE, ctx_cert, sizeof(ctx_cert));
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_ILLEGAL_PARAMETER),
		  flight_step(&used));
	flight_free();
}

/* A CertificateRequest went out with our signature_algorithms. */
TEST(certificate_request_sent)
{
	struct tlsx_hs_config cfg = { .verify_peer = true, .insecure = true };
	struct tlsx_rec_dir d = { 0 };
	static u8 msgs[16384];
	size_t n, off, sh;

	ASSERT_EQ(0, flight_start(&cfg));
	ASSERT_EQ(0, tlsx_rec_set_secret(&d, fl.hs->suite, fl.hs->s_hs,
					 fl.hs->hash_len));
	sh = 5 + get_unaligned_be16(raw_out + 3);
	n = open_flight(&d, raw_out + sh, raw_out_len - sh, msgs,
			sizeof(msgs));
	ASSERT_GT(n, 4);
	off = 4 + ((size_t)msgs[1] << 16 | msgs[2] << 8 | msgs[3]);
	ASSERT_LT(off, n);
	EXPECT_EQ(TLSX_HT_CERTIFICATE_REQUEST, msgs[off]);
	/* context 00, extensions: 000d, the list of our 8 schemes. */
	EXPECT_EQ(0, msgs[off + 4]);
	EXPECT_EQ(13, get_unaligned_be16(msgs + off + 7));
	EXPECT_EQ(2 + 2 * fl.hs->n_sig_schemes,
		  get_unaligned_be16(msgs + off + 9));
	tlsx_rec_wipe(&d);
	flight_free();
}

/* --- signature_algorithms_cert: ClientHellos built by hand ------------------- */

/*
 * Which of [mixed (ECDSA key, RSA signatures), p256] a server takes for
 * ClientHello @ext: 0, 1, or -1 when it failed.
 */
static int cert_choice(const struct ch_ext *ext)
{
	static const struct mc_chain chains[] = { MC_MIXED, MC_P256 };
	static struct tlsx_cert_chain c[2];
	struct tlsx_hs_config cfg = { .server = true, .n_chains = 2 };
	struct ch_opts o = { .ext = ext };
	static u8 rec[8192];
	struct tlsx_hs *hs;
	int i, ret = -1;

	for (i = 0; i < 2; i++) {
		if (!c[i].n && load_chain(&c[i], chains[i].leaf,
					  chains[i].inter, chains[i].key))
			return -1;
		cfg.chains[i] = &c[i];
	}
	hs = tlsx_hs_new(&cfg);
	if (!hs)
		return -1;
	if (raw_step(hs, rec, ch_record(rec, sizeof(rec), &o)) >= 0)
		ret = hs->srv.chain == &c[0] ? 0 :
		      hs->srv.chain == &c[1] ? 1 : -1;
	tlsx_hs_free(hs);
	return ret;
}

#define EXT_SIG_ECDSA	{ 13, "00020403" }

TEST(cert_sigs_from_signature_algorithms_cert)
{
	static const struct ch_ext ecdsa_only[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIG_ECDSA, EXT_END
	};
	static const struct ch_ext ecdsa_pkcs1[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, { 13, "000404030401" },
		EXT_END
	};
	static const struct ch_ext cert_pkcs1[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIG_ECDSA,
		{ 50, "00020401" }, EXT_END
	};
	static const struct ch_ext cert_ecdsa[] = {
		/* signature_algorithms allows PKCS #1; _cert does not. */
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, { 13, "000404030401" },
		{ 50, "00020403" }, EXT_END
	};
	static const struct ch_ext cert_neither[] = {
		/* ed25519 and ecdsa_secp384r1_sha384: no chain is signed so. */
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIG_ECDSA,
		{ 50, "000408070503" }, EXT_END
	};
	static const struct ch_ext cert_bad[] = {
		EXT_VERSIONS, EXT_GROUPS, EXT_SHARE, EXT_SIG_ECDSA,
		{ 50, "0003040104" }, EXT_END
	};

	/* 4.2.3: without _cert, signature_algorithms applies to both. */
	EXPECT_EQ(1, cert_choice(ecdsa_only));
	EXPECT_EQ(0, cert_choice(ecdsa_pkcs1));
	EXPECT_EQ(0, cert_choice(cert_pkcs1));
	EXPECT_EQ(1, cert_choice(cert_ecdsa));
	/* 4.4.2.2: none satisfies it: the first with a usable key. */
	EXPECT_EQ(0, cert_choice(cert_neither));
	EXPECT_EQ(-1, cert_choice(cert_bad));
}

/* --- memory ------------------------------------------------------------------ */

TEST(mem_size_of_a_server)
{
	struct tlsx_hs_config cfg = { .server = true };

	/* Printed for the record (docs): the one allocation. */
	TH_LOG("tlsx_hs_mem_size(server, defaults) = %zu bytes (struct tlsx_hs %zu, struct hs_server %zu)",
	       tlsx_hs_mem_size(&cfg), sizeof(struct tlsx_hs),
	       sizeof(((struct tlsx_hs *)0)->srv));
	EXPECT_LT(tlsx_hs_mem_size(&cfg), 64 * 1024);
}

/* --- tlsx's client against tlsx's server ------------------------------------ */

static struct pair pair;

static int pair_setup(struct pair *p, bool hrr, bool client_auth)
{
	struct tlsx_hs *s;

	if (tlsx_trust_load(&p->ctrust, data("p256-root.pem"), NULL))
		return -1;
	p->ccfg.trust = &p->ctrust;
	if (hrr) {
		/* The client shares X25519; the server takes P-256 only. */
		p->scfg.groups[0] = TLSX_GROUP_SECP256R1;
		p->scfg.n_groups = 1;
	}
	if (client_auth) {
		if (load_chain(&p->client_chain, "client-leaf.pem",
			       "p256-int.pem", "p256-leaf.key") ||
		    tlsx_trust_load(&p->strust, data("p256-root.pem"), NULL))
			return -1;
		p->ccfg.chains[0] = &p->client_chain;
		p->ccfg.n_chains = 1;
		p->scfg.trust = &p->strust;
		p->scfg.verify_peer = true;
		p->scfg.require_peer_cert = true;
	}
	s = raw_server(&p->scfg);
	p->s = s;
	p->c = tlsx_hs_new(&p->ccfg);
	if (!p->s || !p->c)
		return -1;
	return tlsx_hs_set_server_name(p->c, "www.example.com");
}

static void pair_check(struct __test_metadata *_metadata, struct pair *p)
{
	struct tlsx_hs_secrets cs, ss;

	ASSERT_EQ(TLSX_HS_DONE, p->cret)
		TH_LOG("client alert %d", tlsx_hs_alert(p->c));
	ASSERT_EQ(TLSX_HS_DONE, p->sret)
		TH_LOG("server alert %d", tlsx_hs_alert(p->s));
	ASSERT_EQ(0, tlsx_hs_secrets(p->c, &cs));
	ASSERT_EQ(0, tlsx_hs_secrets(p->s, &ss));
	EXPECT_EQ(cs.secret_len, ss.secret_len);
	EXPECT_EQ(0, memcmp(cs.client, ss.client, cs.secret_len));
	EXPECT_EQ(0, memcmp(cs.server, ss.server, cs.secret_len));
	tlsx_hs_secrets_wipe(&cs);
	tlsx_hs_secrets_wipe(&ss);
}

TEST(tlsx_client_full)
{
	ASSERT_EQ(0, pair_setup(&pair, false, false));
	pair_run(&pair);
	pair_check(_metadata, &pair);
	EXPECT_FALSE(pair.s->hrr);
	pair_free(&pair);
}

TEST(tlsx_client_hello_retry_request)
{
	ASSERT_EQ(0, pair_setup(&pair, true, false));
	pair_run(&pair);
	pair_check(_metadata, &pair);
	EXPECT_TRUE(pair.s->hrr);
	EXPECT_TRUE(pair.c->hrr);
	EXPECT_EQ(TLSX_GROUP_SECP256R1, pair.s->group);
	pair_free(&pair);
}

/*
 * issue 30, the hybrids between tlsx's two sides: @cg the client's
 * groups (@shares key shares, 0 the default), @sg the server's (0
 * entries: the defaults); the group both settle on, whether the server
 * sent a HelloRetryRequest, and how many shares ClientHello1 carried.
 */
static void pair_groups(struct __test_metadata *_metadata, const u16 *cg,
			unsigned int nc, unsigned int shares, const u16 *sg,
			unsigned int ns, u16 want, bool want_hrr,
			unsigned int want_shares)
{
	unsigned int i;
	size_t n;

	for (i = 0; i < nc; i++)
		pair.ccfg.groups[i] = cg[i];
	pair.ccfg.n_groups = nc;
	pair.ccfg.key_shares = shares;
	for (i = 0; i < ns; i++)
		pair.scfg.groups[i] = sg[i];
	pair.scfg.n_groups = ns;
	ASSERT_EQ(0, pair_setup(&pair, false, false));
	/* ClientHello1's shares, counted before the run wipes them. */
	ASSERT_EQ(TLSX_HS_WANT_READ,
		  tlsx_hs_step(pair.c, NULL, 0, &(size_t){ 0 }, pair.out,
			       sizeof(pair.out), &n));
	EXPECT_EQ(want_shares, pair.c->n_shares);
	memcpy(pair.s_in, pair.out, n);
	pair.s_in_len = n;
	pair_run(&pair);
	pair_check(_metadata, &pair);
	EXPECT_EQ(want, pair.s->group);
	EXPECT_EQ(want_hrr, pair.s->hrr);
	EXPECT_EQ(want_hrr, pair.c->hrr);
	pair_free(&pair);
}

TEST(hybrid_default_pair)
{
	/* X25519MLKEM768 and X25519 shares; the hybrid, no HRR. */
	pair_groups(_metadata, NULL, 0, 0, NULL, 0,
		    TLSX_GROUP_X25519MLKEM768, false, 2);
}

TEST(hybrid_server_asks_for_it)
{
	static const u16 c[] = { TLSX_GROUP_X25519, TLSX_GROUP_X25519MLKEM768 };

	/* Listed but not shared: the server's preference gets an HRR. */
	pair_groups(_metadata, c, 2, 1, NULL, 0, TLSX_GROUP_X25519MLKEM768,
		    true, 1);
}

TEST(hybrid_classical_client_no_hrr)
{
	static const u16 c[] = { TLSX_GROUP_X25519, TLSX_GROUP_SECP256R1 };

	/* A client without the hybrid (OpenSSL 3.0's list): no HRR. */
	pair_groups(_metadata, c, 2, 0, NULL, 0, TLSX_GROUP_X25519, false, 1);
}

TEST(hybrid_classical_server_no_hrr)
{
	static const u16 s[] = { TLSX_GROUP_X25519, TLSX_GROUP_SECP256R1 };

	/* The default client's X25519 share serves a classical server. */
	pair_groups(_metadata, NULL, 0, 0, s, 2, TLSX_GROUP_X25519, false, 2);
}

TEST(hybrid_server_prefers_classical)
{
	static const u16 s[] = { TLSX_GROUP_X25519, TLSX_GROUP_X25519MLKEM768 };

	pair_groups(_metadata, NULL, 0, 0, s, 2, TLSX_GROUP_X25519, false, 2);
}

TEST(hybrid_every_pair)
{
	static const u16 all[] = { TLSX_GROUP_X25519MLKEM768,
				   TLSX_GROUP_X25519, TLSX_GROUP_SECP256R1,
				   TLSX_GROUP_SECP256R1MLKEM768 };
	unsigned int i, j;

	/*
	 * Client listing @i first, server taking only @j: the same group
	 * at once, another by HRR (the server has one group).
	 */
	for (i = 0; i < ARRAY_SIZE(all); i++)
		for (j = 0; j < ARRAY_SIZE(all); j++) {
			u16 c[ARRAY_SIZE(all)];
			unsigned int k, n = 0;

			c[n++] = all[i];
			for (k = 0; k < ARRAY_SIZE(all); k++)
				if (k != i)
					c[n++] = all[k];
			pair_groups(_metadata, c, n, 1, &all[j], 1, all[j],
				    i != j, 1);
		}
}

/*
 * The hybrid ClientHello (1,443 bytes) cut into records of 100 bytes
 * (RFC 8446 5.1: a message may span records) and given to the server 7
 * bytes at a time: it gathers the message and answers as for one
 * record.
 */
TEST(hybrid_client_hello_split)
{
	static u8 wire[8192];
	size_t n, off, k, wlen = 0, fed = 0, used;
	int ret = TLSX_HS_WANT_READ, records = 0;

	ASSERT_EQ(0, pair_setup(&pair, false, false));
	ASSERT_EQ(TLSX_HS_WANT_READ,
		  tlsx_hs_step(pair.c, NULL, 0, &used, pair.out,
			       sizeof(pair.out), &n));
	ASSERT_LT(1400, n);
	for (off = 5; off < n; off += k) {
		k = n - off < 100 ? n - off : 100;
		wire[wlen++] = 22;
		wire[wlen++] = 3;
		wire[wlen++] = 1;
		wire[wlen++] = 0;
		wire[wlen++] = (u8)k;
		memcpy(wire + wlen, pair.out + off, k);
		wlen += k;
		records++;
	}
	EXPECT_LE(14, records);
	pair.s_in_len = 0;
	n = 0;
	while (fed < wlen && ret == TLSX_HS_WANT_READ && !n) {
		size_t step = wlen - fed < 7 ? wlen - fed : 7;

		memcpy(pair.s_in + pair.s_in_len, wire + fed, step);
		pair.s_in_len += step;
		fed += step;
		ret = tlsx_hs_step(pair.s, pair.s_in, pair.s_in_len, &used,
				   pair.out, sizeof(pair.out), &n);
		memmove(pair.s_in, pair.s_in + used, pair.s_in_len - used);
		pair.s_in_len -= used;
	}
	ASSERT_EQ(TLSX_HS_WANT_READ, ret);
	/* Its answer only once the last byte is in. */
	EXPECT_EQ(wlen, fed);
	ASSERT_LT(0, n);
	memcpy(pair.c_in, pair.out, n);
	pair.c_in_len = n;
	pair_run(&pair);
	pair_check(_metadata, &pair);
	EXPECT_EQ(TLSX_GROUP_X25519MLKEM768, pair.s->group);
	pair_free(&pair);
}

TEST(hybrid_p256_pair)
{
	static const u16 g[] = { TLSX_GROUP_SECP256R1MLKEM768,
				 TLSX_GROUP_SECP256R1 };

	/* SecP256r1MLKEM768 with a P-256 share beside it by default. */
	pair_groups(_metadata, g, 2, 0, g, 2, TLSX_GROUP_SECP256R1MLKEM768,
		    false, 2);
}

TEST(tlsx_client_certificate)
{
	struct tlsx_hs_info info;

	ASSERT_EQ(0, pair_setup(&pair, false, true));
	pair_run(&pair);
	pair_check(_metadata, &pair);
	ASSERT_EQ(0, tlsx_hs_get_info(pair.s, &info));
	EXPECT_TRUE(info.peer_cert);
	EXPECT_EQ(TLSX_SIG_ECDSA_SECP256R1_SHA256, info.sig_scheme);
	pair_free(&pair);
}

/*
 * Both in place, each announcing a record_size_limit of 64 (RFC 8449):
 * the protected flights come in records of 63 bytes, so the chains,
 * CertificateVerify and Finished span records on both sides and are
 * gathered; with a HelloRetryRequest and client authentication.
 */
TEST(tlsx_client_inplace_small_records)
{
	struct tlsx_hs_info info;

	pair.inplace = true;
	pair.one_record = true;
	pair.ccfg.inplace = true;
	pair.scfg.inplace = true;
	pair.ccfg.record_size_limit = 64;
	pair.scfg.record_size_limit = 64;
	ASSERT_EQ(0, pair_setup(&pair, true, true));
	EXPECT_EQ(sizeof(struct tlsx_hs), tlsx_hs_mem_size(&pair.scfg));
	pair_run(&pair);
	pair_check(_metadata, &pair);
	ASSERT_EQ(0, tlsx_hs_get_info(pair.s, &info));
	EXPECT_TRUE(info.peer_cert);
	EXPECT_TRUE(info.hrr);
	EXPECT_EQ(64, info.peer_record_size_limit);
	/* A chain was gathered, in an allocation of its size, now freed. */
	TH_LOG("largest message gathered: %zu bytes", pair.gathered);
	EXPECT_LT(63, pair.gathered);
	EXPECT_GE(4 + TLSX_HS_DEFAULT_MAX_MSG, pair.gathered);
	EXPECT_EQ(NULL, pair.c->msg);
	EXPECT_EQ(NULL, pair.s->msg);
	/* The const step is refused on such a connection. */
	EXPECT_EQ(-EINVAL, tlsx_hs_step(pair.c, pair.c_in, 0, &(size_t){ 0 },
					pair.out, sizeof(pair.out),
					&(size_t){ 0 }));
	pair_free(&pair);
}

/*
 * The server's NewSessionTicket to tlsx's client, which makes a session
 * of it (ticket.c) and offers it in a second connection.
 */
static void pair_resume(struct __test_metadata *_metadata, bool psk_ke,
			bool prefer)
{
	static u8 nst[4096];
	struct tlsx_ticket_keys *tk = tlsx_ticket_keys_new(0, time(NULL));
	struct tlsx_hs_secrets cs;
	struct tlsx_session session;
	struct tlsx_hs_info ci, si;
	size_t nst_len;

	ASSERT_NE(NULL, tk);
	pair.scfg.tickets = tk;
	pair.scfg.tickets_per_handshake = 1;
	pair.scfg.allow_psk_ke = psk_ke;
	pair.ccfg.allow_psk_ke = psk_ke;
	ASSERT_EQ(0, pair_setup(&pair, false, false));
	pair_run(&pair);
	pair_check(_metadata, &pair);
	ASSERT_EQ(0, tlsx_hs_tickets(pair.s, nst, sizeof(nst), &nst_len));
	ASSERT_EQ(TLSX_HT_NEW_SESSION_TICKET, nst[0]);
	ASSERT_EQ(0, tlsx_hs_secrets(pair.c, &cs));
	ASSERT_EQ(0, tlsx_session_from_ticket(&cs, "www.example.com", NULL,
					      nst, nst_len, time(NULL),
					      &session));
	tlsx_hs_secrets_wipe(&cs);
	pair_free(&pair);

	pair.scfg.tickets = tk;
	pair.scfg.allow_psk_ke = psk_ke;
	pair.scfg.prefer_psk_ke = prefer;
	pair.ccfg.allow_psk_ke = psk_ke;
	ASSERT_EQ(0, pair_setup(&pair, false, false));
	ASSERT_EQ(0, tlsx_hs_set_session(pair.c, &session));
	tlsx_session_wipe(&session);
	pair_run(&pair);
	pair_check(_metadata, &pair);
	ASSERT_EQ(0, tlsx_hs_get_info(pair.c, &ci));
	ASSERT_EQ(0, tlsx_hs_get_info(pair.s, &si));
	EXPECT_TRUE(ci.resumed);
	EXPECT_TRUE(si.resumed);
	/* psk_dhe_ke unless the server prefers psk_ke (issue 26 item 8). */
	EXPECT_EQ(prefer, pair.s->srv.psk_ke);
	EXPECT_EQ(prefer ? 0 : TLSX_GROUP_X25519MLKEM768, si.group);
	EXPECT_EQ(si.group, ci.group);
	pair_free(&pair);
	tlsx_ticket_keys_free(tk);
}

TEST(tlsx_client_resumes_psk_dhe_ke)
{
	pair_resume(_metadata, false, false);
}

/* Both allow psk_ke; the client offers both modes: psk_dhe_ke. */
TEST(tlsx_client_psk_ke_allowed_resumes_psk_dhe_ke)
{
	pair_resume(_metadata, true, false);
}

TEST(tlsx_client_resumes_psk_ke)
{
	pair_resume(_metadata, true, true);
}

TEST_HARNESS_MAIN
