// SPDX-License-Identifier: GPL-2.0
/*
 * test_client_ossl.c - the client engine against OpenSSL's libssl as
 * the server, in process over memory BIOs (libssl in tests only):
 *
 *  - every suite (AES-128/256-GCM, ChaCha20-Poly1305, AES-128-CCM) x
 *    group (X25519, secp256r1) x certificate (ECDSA P-256, Ed25519,
 *    RSA-2048 with rsa_pss_rsae_sha256/384/512, RSA-PSS key with
 *    rsa_pss_pss_sha256/384/512) from test/data/ (tools/gen/hs-certs),
 *    the matrix shared with test_server.c (ossl_test.h), the chain
 *    verified against its root for www.example.com; then application
 *    data both ways under the secrets the engine hands out, through
 *    record_protect.c, so the keys are proven, not only the handshake;
 *  - HelloRetryRequest (the server takes secp256r1 only), with the
 *    compatibility CCS both ways; ALPN; SNI; the server's CCS and a
 *    NewSessionTicket after the handshake;
 *  - client authentication: the server requests a certificate and
 *    verifies ours (each key type, the scheme chosen from its
 *    signature_algorithms); without a chain we send an empty
 *    Certificate, which a server that only asks accepts and one that
 *    requires refuses after our Finished;
 *  - which of two client chains (ECDSA P-256, RSA-2048) answers the
 *    request, differentially: the same OpenSSL server, its request
 *    restricted as `s_server -Verify 1 -client_sigalgs LIST` does,
 *    first against OpenSSL's client holding both chains, then against
 *    ours; the leaf the server got must be the same (or none for both),
 *    and certificate_authorities, which OpenSSL's client does not
 *    consult, picks ours;
 *  - resumption: a NewSessionTicket from the first connection
 *    (ticket.c's tlsx_session_from_ticket()) resumes the second with
 *    psk_dhe_ke (OpenSSL says it reused the session); a session for
 *    another name is not offered; a ticket the server cannot open gives
 *    a full handshake;
 *  - the name to verify against (issue 26 item 2): none given while
 *    verifying is refused at the first step with nothing sent;
 *    verify_name_optional checks the chain against the anchors only;
 *    an IP address matches the leaf's iPAddress SANs (and mismatches
 *    others) and is never sent as SNI;
 *  - refusals: a TLS 1.2-only server (protocol_version), a server whose
 *    chain is not trusted (unknown_ca) or names another host
 *    (certificate_unknown), a server that asks for a group we do not
 *    offer (handshake_failure from it).
 */
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "kselftest_harness.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"
#include "handshake/engine/ticket.h"

#include "handshake/engine/test/ossl_test.h"

struct server_opts {
	const char *cert;		/* p256, ed25519, rsa, rsapss */
	const char *suites;		/* OpenSSL's names */
	const char *groups;
	const char *sigalgs;
	int max_version;		/* 0: TLS 1.3 */
	bool alpn;			/* select "h2" */
	int verify;			/* SSL_VERIFY_* for client certs */
	const char *client_ca;		/* the anchor for them */
	const char *client_ca2;		/* another one; NULL: none */
	/* The CertificateRequest's signature_algorithms (-client_sigalgs). */
	const char *client_sigalgs;
	/* certificate_authorities: the names of this file's certificates. */
	const char *ca_names;
};

struct conn {
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *rbio, *wbio;	/* the server's input and output */
	char sni[256];
	struct tlsx_hs_config cfg;
	struct tlsx_trust trust;
	struct tlsx_cert_chain chain;
	bool have_chain;
	struct tlsx_hs *hs;
	int hs_ret;
	int ssl_ret;
	u8 in[65536];
	size_t in_len;
	u8 out[TLSX_HS_OUT_MIN];
};

static int sni_cb(SSL *ssl, int *al, void *arg)
{
	struct conn *c = arg;
	const char *n = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);

	(void)al;
	snprintf(c->sni, sizeof(c->sni), "%s", n ? n : "");
	return SSL_TLSEXT_ERR_OK;
}

static int alpn_cb(SSL *ssl, const unsigned char **out, unsigned char *outlen,
		   const unsigned char *in, unsigned int inlen, void *arg)
{
	static const unsigned char h2[] = "\x02h2";
	unsigned char *sel;

	(void)ssl;
	(void)arg;
	if (SSL_select_next_proto(&sel, outlen, h2, 3, in, inlen) !=
	    OPENSSL_NPN_NEGOTIATED)
		return SSL_TLSEXT_ERR_ALERT_FATAL;
	*out = sel;
	return SSL_TLSEXT_ERR_OK;
}

static int server_setup(struct conn *c, const struct server_opts *o)
{
	char chain[64], key[64];

	snprintf(chain, sizeof(chain), "%s-chain.pem", o->cert);
	snprintf(key, sizeof(key), "%s-leaf.key", o->cert);
	c->ctx = ossl_ctx(TLS_server_method(), o->max_version, o->suites,
			  o->groups, o->sigalgs);
	if (!c->ctx)
		return -1;
	if (SSL_CTX_use_certificate_chain_file(c->ctx, data(chain)) != 1)
		return -1;
	if (SSL_CTX_use_PrivateKey_file(c->ctx, data(key),
					SSL_FILETYPE_PEM) != 1)
		return -1;
	SSL_CTX_set_tlsext_servername_callback(c->ctx, sni_cb);
	SSL_CTX_set_tlsext_servername_arg(c->ctx, c);
	if (o->alpn)
		SSL_CTX_set_alpn_select_cb(c->ctx, alpn_cb, NULL);
	if (o->verify) {
		SSL_CTX_set_verify(c->ctx, o->verify, NULL);
		if (SSL_CTX_load_verify_locations(c->ctx, data(o->client_ca),
						  NULL) != 1)
			return -1;
		if (o->client_ca2 &&
		    SSL_CTX_load_verify_locations(c->ctx, data(o->client_ca2),
						  NULL) != 1)
			return -1;
	}
	if (o->client_sigalgs &&
	    !SSL_CTX_set1_client_sigalgs_list(c->ctx, o->client_sigalgs))
		return -1;
	if (o->ca_names) {
		struct stack_st_X509_NAME *names =
			SSL_load_client_CA_file(data(o->ca_names));

		if (!names)
			return -1;
		SSL_CTX_set_client_CA_list(c->ctx, names);
	}
	c->ssl = ossl_ssl(c->ctx, &c->rbio, &c->wbio);
	if (!c->ssl)
		return -1;
	SSL_set_accept_state(c->ssl);
	return 0;
}

/* The client: trusting @root (a test/data/ file), groups and suites. */
static int client_setup(struct conn *c, const char *root, u16 suite,
			const u16 *groups, unsigned int n_groups)
{
	unsigned int i;

	if (tlsx_trust_load(&c->trust, data(root), NULL))
		return -1;
	c->cfg.trust = &c->trust;
	if (suite) {
		c->cfg.suites[0] = suite;
		c->cfg.n_suites = 1;
	}
	for (i = 0; i < n_groups; i++)
		c->cfg.groups[i] = groups[i];
	c->cfg.n_groups = n_groups;
	c->hs = tlsx_hs_new(&c->cfg);
	if (!c->hs)
		return -1;
	return tlsx_hs_set_server_name(c->hs, "www.example.com");
}

/*
 * Runs both ends until neither moves: the engine's records go into the
 * server's BIO, the server's into the engine.  Returns when the engine
 * is DONE (and the server read the client Finished) or either failed.
 */
static void run(struct conn *c)
{
	size_t used, n;
	int i, r;

	c->hs_ret = TLSX_HS_WANT_READ;
	c->ssl_ret = 0;
	for (i = 0; i < 20; i++) {
		if (c->hs_ret == TLSX_HS_WANT_READ) {
			c->hs_ret = tlsx_hs_step(c->hs, c->in, c->in_len,
						 &used, c->out,
						 sizeof(c->out), &n);
			memmove(c->in, c->in + used, c->in_len - used);
			c->in_len -= used;
			if (n)
				BIO_write(c->rbio, c->out, (int)n);
		}
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
		/* A failed server leaves its alert for the engine to read. */
		if (c->hs_ret < 0 || (c->ssl_ret == -2 && !c->in_len))
			return;
		if (c->hs_ret == TLSX_HS_DONE && c->ssl_ret == 1 && r <= 0)
			return;
	}
}

/*
 * Application data both ways under the engine's secrets: ours sealed by
 * record_protect.c and read by SSL_read, OpenSSL's (after its tickets) opened.
 */
static struct tlsx_session *ticket_out;	/* exchange() keeps one there */

static int exchange(struct conn *c)
{
	struct tlsx_rec_dir tx = { 0 }, rx = { 0 };
	struct tlsx_hs_secrets sec;
	static const char ping[] = "ping from tlsx", pong[] = "pong openssl";
	u8 rec[512], buf[64], *data, type;
	size_t len, body, off;
	int ret = -1, r;

	if (tlsx_hs_secrets(c->hs, &sec) ||
	    tlsx_rec_set_secret(&tx, sec.suite, sec.client, sec.secret_len) ||
	    tlsx_rec_set_secret(&rx, sec.suite, sec.server, sec.secret_len))
		goto out;
	if (tlsx_rec_seal(&tx, TLSX_CT_APPLICATION_DATA, (const u8 *)ping,
			  sizeof(ping), 3, rec, sizeof(rec), &len))
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
	/* NewSessionTickets first (type 22 inside), then our pong. */
	for (off = 0; off + 5 <= c->in_len; off += 5 + body) {
		if (tlsx_rec_header(c->in + off, TLSX_REC_MAX_CIPHER, &body) ||
		    off + 5 + body > c->in_len)
			goto out;
		if (tlsx_rec_open(&rx, c->in + off, 5 + body,
				  TLSX_REC_MAX_PLAIN, &type, &data, &len))
			goto out;
		if (type == TLSX_CT_HANDSHAKE &&
		    data[0] == TLSX_HT_NEW_SESSION_TICKET) {
			if (ticket_out &&
			    tlsx_session_from_ticket(&sec, "www.example.com",
						     NULL, data, len,
						     time(NULL), ticket_out))
				goto out;
			continue;
		}
		if (type == TLSX_CT_APPLICATION_DATA &&
		    len == sizeof(pong) && !memcmp(data, pong, len))
			ret = 0;
		break;
	}
out:
	tlsx_hs_secrets_wipe(&sec);
	tlsx_rec_wipe(&tx);
	tlsx_rec_wipe(&rx);
	return ret;
}

static void conn_free(struct conn *c)
{
	tlsx_hs_free(c->hs);
	tlsx_trust_free(&c->trust);
	if (c->have_chain)
		tlsx_cert_chain_free(&c->chain);
	SSL_free(c->ssl);
	SSL_CTX_free(c->ctx);
	memset(c, 0, sizeof(*c));
}

static struct conn conn;

/* --- the matrix ----------------------------------------------------------- */

FIXTURE_SETUP(matrix)
{
}

FIXTURE_TEARDOWN(matrix)
{
	conn_free(&conn);
}

TEST_F(matrix, every_suite_and_group)
{
	struct server_opts o = { .cert = variant->cert,
				 .sigalgs = variant->sigalg };
	struct tlsx_hs_info info;
	char root[64];
	unsigned int s, g;

	snprintf(root, sizeof(root), "%s-root.pem", variant->cert);
	for (s = 0; s < ARRAY_SIZE(suites); s++) {
		for (g = 0; g < ARRAY_SIZE(groups); g++) {
			o.suites = suites[s].name;
			o.groups = groups[g].name;
			ASSERT_EQ(0, server_setup(&conn, &o));
			/* The group under test first: no HelloRetryRequest. */
			ASSERT_EQ(0, client_setup(&conn, root, suites[s].suite,
						  &groups[g].group, 1));
			run(&conn);
			ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
				TH_LOG("%s %s: alert %d", suites[s].name,
				       groups[g].name, tlsx_hs_alert(conn.hs));
			ASSERT_EQ(1, conn.ssl_ret);
			ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
			EXPECT_EQ(suites[s].suite, info.suite);
			EXPECT_EQ(groups[g].group, info.group);
			EXPECT_EQ(variant->scheme, info.sig_scheme);
			EXPECT_TRUE(info.peer_cert);
			EXPECT_FALSE(info.hrr);
			EXPECT_EQ(0, exchange(&conn))
				TH_LOG("%s %s", suites[s].name,
				       groups[g].name);
			conn_free(&conn);
		}
	}
}

/* --- shapes and extensions ------------------------------------------------ */

TEST(hello_retry_request)
{
	struct server_opts o = { .cert = "p256", .groups = "P-256" };
	const u16 both[] = { TLSX_GROUP_X25519, TLSX_GROUP_SECP256R1 };
	struct tlsx_hs_info info;

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, both, 2));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.hrr);
	EXPECT_EQ(TLSX_GROUP_SECP256R1, info.group);
	EXPECT_TRUE(conn.hs->ccs_sent);
	EXPECT_EQ(0, exchange(&conn));
	conn_free(&conn);
}

/* Without compatibility mode: no session id, no CCS from us. */
TEST(no_compat_mode)
{
	struct server_opts o = { .cert = "p256", .groups = "P-256" };
	const u16 both[] = { TLSX_GROUP_X25519, TLSX_GROUP_SECP256R1 };

	ASSERT_EQ(0, server_setup(&conn, &o));
	conn.cfg.no_compat_mode = true;
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, both, 2));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	EXPECT_FALSE(conn.hs->ccs_sent);
	EXPECT_EQ(0, exchange(&conn));
	conn_free(&conn);
}

TEST(alpn_and_sni)
{
	struct server_opts o = { .cert = "ed25519", .alpn = true };
	struct tlsx_hs_info info;
	const unsigned char *sel;
	unsigned int sel_len;

	ASSERT_EQ(0, server_setup(&conn, &o));
	memcpy(conn.cfg.alpn, "\x08http/1.1\x02h2", 12);
	conn.cfg.alpn_len = 12;
	ASSERT_EQ(0, client_setup(&conn, "ed25519-root.pem", 0, NULL, 0));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_STREQ("h2", (char *)info.alpn);
	SSL_get0_alpn_selected(conn.ssl, &sel, &sel_len);
	EXPECT_EQ(2, sel_len);
	EXPECT_STREQ("www.example.com", conn.sni);
	EXPECT_STREQ("www.example.com", info.server_name);
	conn_free(&conn);
}

TEST(record_size_limit_sent)
{
	struct server_opts o = { .cert = "p256" };

	ASSERT_EQ(0, server_setup(&conn, &o));
	conn.cfg.record_size_limit = 4096;
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, NULL, 0));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	EXPECT_TRUE(conn.hs->sent_exts &
		    TLSX_EXT_BIT(TLSX_EXT_RECORD_SIZE_LIMIT));
	conn_free(&conn);
}

/* --- client authentication ------------------------------------------------ */

FIXTURE(client_auth) {
};

FIXTURE_VARIANT(client_auth) {
	const char *cert;
	u16 scheme;	/* what the server's list makes us sign with */
};

FIXTURE_VARIANT_ADD(client_auth, ecdsa_p256) {
	"p256", TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(client_auth, ed25519) { "ed25519", TLSX_SIG_ED25519 };
FIXTURE_VARIANT_ADD(client_auth, rsa) { "rsa", TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(client_auth, rsapss) {
	"rsapss", TLSX_SIG_RSA_PSS_PSS_SHA256 };

FIXTURE_SETUP(client_auth)
{
}

FIXTURE_TEARDOWN(client_auth)
{
	conn_free(&conn);
}

TEST_F(client_auth, server_verifies_our_chain)
{
	char root[64], chain[64], key[64];
	struct server_opts o = { .cert = "p256" };
	X509 *peer;

	snprintf(root, sizeof(root), "%s-root.pem", variant->cert);
	snprintf(chain, sizeof(chain), "%s-chain.pem", variant->cert);
	snprintf(key, sizeof(key), "%s-leaf.key", variant->cert);
	o.verify = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT;
	o.client_ca = root;
	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, tlsx_cert_chain_load(&conn.chain, data(chain), data(key),
					  NULL));
	conn.have_chain = true;
	conn.cfg.chains[0] = &conn.chain;
	conn.cfg.n_chains = 1;
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, NULL, 0));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	EXPECT_TRUE(conn.hs->cert_requested);
	EXPECT_EQ(variant->scheme, conn.hs->own_sig_scheme);
	peer = SSL_get1_peer_certificate(conn.ssl);
	EXPECT_NE(NULL, peer);
	X509_free(peer);
	EXPECT_EQ(X509_V_OK, SSL_get_verify_result(conn.ssl));
	EXPECT_EQ(0, exchange(&conn));
}

/* No chain: an empty Certificate (4.4.2), fine where it is optional. */
TEST(client_auth_optional_without_chain)
{
	struct server_opts o = { .cert = "p256", .verify = SSL_VERIFY_PEER,
				 .client_ca = "p256-root.pem" };
	X509 *peer;

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, NULL, 0));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	EXPECT_TRUE(conn.hs->cert_requested);
	peer = SSL_get1_peer_certificate(conn.ssl);
	EXPECT_EQ(NULL, peer);
	X509_free(peer);
	EXPECT_EQ(0, exchange(&conn));
	conn_free(&conn);
}

/* Required: our side is done, the server refuses our empty Certificate. */
TEST(client_auth_required_without_chain)
{
	struct server_opts o = { .cert = "p256", .client_ca = "p256-root.pem",
				 .verify = SSL_VERIFY_PEER |
					   SSL_VERIFY_FAIL_IF_NO_PEER_CERT };

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, NULL, 0));
	run(&conn);
	EXPECT_EQ(TLSX_HS_DONE, conn.hs_ret);
	EXPECT_EQ(-2, conn.ssl_ret);
	conn_free(&conn);
}

/* --- which client chain: tlsx against OpenSSL's client ------------------- */

/* Moves what @from wrote to @to's input. */
static void shuttle(BIO *from, BIO *to)
{
	char buf[16384];
	int n;

	while ((n = BIO_read(from, buf, sizeof(buf))) > 0)
		BIO_write(to, buf, n);
}

/*
 * OpenSSL's client with the P-256 and the RSA chain (one per key type,
 * as libssl holds them) against the server @c was set up as; the leaf
 * the server got into @leaf, or "failed".
 */
static void ossl_client_choice(struct conn *c, char *leaf, size_t len)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	BIO *rbio = BIO_new(BIO_s_mem()), *wbio = BIO_new(BIO_s_mem());
	SSL *ssl = ctx ? SSL_new(ctx) : NULL;
	int i, rc = 0, rs = 0;

	snprintf(leaf, len, "failed");
	if (!ssl || !rbio || !wbio ||
	    SSL_use_certificate_chain_file(ssl, data("p256-chain.pem")) != 1 ||
	    SSL_use_PrivateKey_file(ssl, data("p256-leaf.key"),
				    SSL_FILETYPE_PEM) != 1 ||
	    SSL_use_certificate_chain_file(ssl, data("rsa-chain.pem")) != 1 ||
	    SSL_use_PrivateKey_file(ssl, data("rsa-leaf.key"),
				    SSL_FILETYPE_PEM) != 1) {
		BIO_free(rbio);
		BIO_free(wbio);
		goto out;
	}
	SSL_set_min_proto_version(ssl, TLS1_3_VERSION);
	SSL_set_verify(ssl, SSL_VERIFY_NONE, NULL);
	SSL_set_bio(ssl, rbio, wbio);
	SSL_set_connect_state(ssl);
	for (i = 0; i < 20 && (rc != 1 || rs != 1); i++) {
		if (rc != 1)
			rc = SSL_do_handshake(ssl);
		shuttle(wbio, c->rbio);
		if (rs != 1)
			rs = SSL_do_handshake(c->ssl);
		shuttle(c->wbio, rbio);
	}
	if (rc == 1 && rs == 1)
		peer_leaf(c->ssl, leaf, len);
out:
	SSL_free(ssl);
	SSL_CTX_free(ctx);
}

/* test/data/@name-chain.pem and its key. */
static int load_pair(struct tlsx_cert_chain *c, const char *name)
{
	char chain[64], key[64];

	snprintf(chain, sizeof(chain), "%s-chain.pem", name);
	snprintf(key, sizeof(key), "%s-leaf.key", name);
	return tlsx_cert_chain_load(c, data(chain), data(key), NULL);
}

FIXTURE(client_choice) {
};

FIXTURE_VARIANT(client_choice) {
	const char *client_sigalgs;	/* NULL: OpenSSL's default list */
	const char *ca_names;		/* NULL: no certificate_authorities */
	bool rsa_first;			/* our order */
	const char *want;		/* the leaf the server got */
	bool same;			/* OpenSSL's client chooses alike */
};

#define LEAF_P256	"www.example.com|p256 intermediate"
#define LEAF_RSA	"www.example.com|rsa intermediate"
#define LEAF_NONE	"|"

FIXTURE_VARIANT_ADD(client_choice, ecdsa_only) {
	.client_sigalgs = "ECDSA+SHA256", .rsa_first = true,
	.want = LEAF_P256, .same = true };
FIXTURE_VARIANT_ADD(client_choice, rsa_pss_only) {
	.client_sigalgs = "rsa_pss_rsae_sha256", .want = LEAF_RSA,
	.same = true };
FIXTURE_VARIANT_ADD(client_choice, rsa_pss_sha384_only) {
	.client_sigalgs = "rsa_pss_rsae_sha384", .want = LEAF_RSA,
	.same = true };
FIXTURE_VARIANT_ADD(client_choice, ed25519_only_none) {
	.client_sigalgs = "ed25519", .want = LEAF_NONE, .same = true };
FIXTURE_VARIANT_ADD(client_choice, ecdsa_then_rsa) {
	.client_sigalgs = "ECDSA+SHA256:rsa_pss_rsae_sha256",
	.want = LEAF_P256, .same = true };
/* certificate_authorities: ours follow it, OpenSSL's client does not. */
FIXTURE_VARIANT_ADD(client_choice, authorities_rsa_root) {
	.ca_names = "rsa-root.pem", .want = LEAF_RSA };
FIXTURE_VARIANT_ADD(client_choice, authorities_p256_root) {
	.ca_names = "p256-root.pem", .rsa_first = true, .want = LEAF_P256 };
FIXTURE_VARIANT_ADD(client_choice, authorities_other_root_none) {
	.ca_names = "other-root.pem", .want = LEAF_NONE };

FIXTURE_SETUP(client_choice)
{
}

FIXTURE_TEARDOWN(client_choice)
{
	conn_free(&conn);
}

TEST_F(client_choice, same_leaf_as_openssl)
{
	struct server_opts o = { .cert = "p256", .verify = SSL_VERIFY_PEER,
				 .client_ca = "p256-root.pem",
				 .client_ca2 = "rsa-root.pem",
				 .client_sigalgs = variant->client_sigalgs,
				 .ca_names = variant->ca_names };
	struct tlsx_cert_chain rsa;
	char ossl[300], ours[300];

	ASSERT_EQ(0, server_setup(&conn, &o));
	ossl_client_choice(&conn, ossl, sizeof(ossl));
	TH_LOG("OpenSSL's client: %s", ossl);
	if (variant->same)
		ASSERT_STREQ(variant->want, ossl);
	conn_free(&conn);

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, load_pair(&conn.chain, "p256"));
	conn.have_chain = true;
	ASSERT_EQ(0, load_pair(&rsa, "rsa"));
	conn.cfg.chains[variant->rsa_first ? 1 : 0] = &conn.chain;
	conn.cfg.chains[variant->rsa_first ? 0 : 1] = &rsa;
	conn.cfg.n_chains = 2;
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, NULL, 0));
	run(&conn);
	EXPECT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	EXPECT_EQ(1, conn.ssl_ret);
	peer_leaf(conn.ssl, ours, sizeof(ours));
	EXPECT_STREQ(variant->want, ours);
	if (variant->same)
		EXPECT_STREQ(ossl, ours);
	EXPECT_EQ(0, exchange(&conn));
	tlsx_cert_chain_free(&rsa);
}

/* --- resumption ----------------------------------------------------------- */

/* A first connection that leaves the server's SSL_CTX and a session. */
static void first_connection(struct __test_metadata *_metadata,
			     struct tlsx_session *sess)
{
	struct server_opts o = { .cert = "p256" };

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, NULL, 0));
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	ticket_out = sess;
	ASSERT_EQ(0, exchange(&conn));
	ticket_out = NULL;
	ASSERT_NE(0, sess->ticket_len);
	EXPECT_STREQ("www.example.com", sess->server_name);
}

/* A second connection on the same SSL_CTX (its ticket keys). */
static void second_connection(struct __test_metadata *_metadata,
			      const struct tlsx_session *sess,
			      const char *name)
{
	SSL_CTX *ctx = conn.ctx;

	conn.ctx = NULL;
	SSL_CTX_up_ref(ctx);
	conn_free(&conn);
	conn.ctx = ctx;
	conn.ssl = ossl_ssl(ctx, &conn.rbio, &conn.wbio);
	ASSERT_NE(NULL, conn.ssl);
	SSL_set_accept_state(conn.ssl);
	ASSERT_EQ(0, tlsx_trust_load(&conn.trust, data("p256-root.pem"),
				     NULL));
	conn.cfg.trust = &conn.trust;
	conn.hs = tlsx_hs_new(&conn.cfg);
	ASSERT_NE(NULL, conn.hs);
	ASSERT_EQ(0, tlsx_hs_set_server_name(conn.hs, name));
	ASSERT_EQ(0, tlsx_hs_set_session(conn.hs, sess));
	run(&conn);
}

TEST(resumption_psk_dhe_ke)
{
	struct tlsx_session sess;
	struct tlsx_hs_info info;

	first_connection(_metadata, &sess);
	second_connection(_metadata, &sess, "www.example.com");
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.resumed);
	EXPECT_EQ(TLSX_GROUP_X25519, info.group);	/* psk_dhe_ke */
	EXPECT_EQ(0, info.sig_scheme);			/* no CertificateVerify */
	EXPECT_EQ(1, SSL_session_reused(conn.ssl));
	EXPECT_TRUE(conn.hs->sent_exts & TLSX_EXT_BIT(TLSX_EXT_PRE_SHARED_KEY));
	EXPECT_EQ(0, exchange(&conn));
	tlsx_session_wipe(&sess);
	conn_free(&conn);
}

TEST(resumption_other_name_not_offered)
{
	struct tlsx_session sess;
	struct tlsx_hs_info info;

	first_connection(_metadata, &sess);
	/* The chain names *.example.org too: a full handshake there. */
	second_connection(_metadata, &sess, "a.example.org");
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_FALSE(info.resumed);
	EXPECT_FALSE(conn.hs->sent_exts &
		     TLSX_EXT_BIT(TLSX_EXT_PRE_SHARED_KEY));
	EXPECT_EQ(0, SSL_session_reused(conn.ssl));
	tlsx_session_wipe(&sess);
	conn_free(&conn);
}

TEST(resumption_ticket_refused_full_handshake)
{
	struct tlsx_session sess;
	struct tlsx_hs_info info;

	first_connection(_metadata, &sess);
	sess.ticket[sess.ticket_len / 2] ^= 1;	/* the server cannot open it */
	second_connection(_metadata, &sess, "www.example.com");
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret)
		TH_LOG("alert %d", tlsx_hs_alert(conn.hs));
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_FALSE(info.resumed);
	EXPECT_TRUE(info.peer_cert);
	tlsx_session_wipe(&sess);
	conn_free(&conn);
}

/* --- refusals ------------------------------------------------------------- */

/* OpenSSL finds no version in common and says protocol_version. */
TEST(tls12_only_server)
{
	struct server_opts o = { .cert = "p256",
				 .max_version = TLS1_2_VERSION };

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, NULL, 0));
	run(&conn);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_PROTOCOL_VERSION), conn.hs_ret);
	EXPECT_EQ(TLSX_ALERT_PROTOCOL_VERSION, tlsx_hs_alert(conn.hs));
	conn_free(&conn);
}

TEST(untrusted_chain)
{
	struct server_opts o = { .cert = "p256" };

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, client_setup(&conn, "other-root.pem", 0, NULL, 0));
	run(&conn);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNKNOWN_CA), conn.hs_ret);
	EXPECT_FALSE(tlsx_hs_alert_received(conn.hs));
	/* The server got our alert (it ends with an error). */
	EXPECT_EQ(-2, conn.ssl_ret);
	conn_free(&conn);
}

TEST(wrong_host)
{
	struct server_opts o = { .cert = "p256" };

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, tlsx_trust_load(&conn.trust, data("p256-root.pem"),
				     NULL));
	conn.cfg.trust = &conn.trust;
	conn.hs = tlsx_hs_new(&conn.cfg);
	ASSERT_NE(NULL, conn.hs);
	ASSERT_EQ(0, tlsx_hs_set_server_name(conn.hs, "www.example.net"));
	run(&conn);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_CERTIFICATE_UNKNOWN),
		  conn.hs_ret);
	conn_free(&conn);
}

/* --- the name to verify (issue 26 item 2) --------------------------- */

/* The client trusting p256-root.pem, its engine made; no name set. */
static void nameless_client(struct __test_metadata *_metadata,
			    struct conn *c)
{
	struct server_opts o = { .cert = "p256" };

	ASSERT_EQ(0, server_setup(c, &o));
	ASSERT_EQ(0, tlsx_trust_load(&c->trust, data("p256-root.pem"),
				     NULL));
	c->cfg.trust = &c->trust;
}

/*
 * Verifying without a name would take any host's chain from the CA:
 * refused at the first step, before a byte is written, and sticky.
 */
TEST(verify_without_name_refused)
{
	size_t used = 1, n = 1;

	nameless_client(_metadata, &conn);
	conn.hs = tlsx_hs_new(&conn.cfg);
	ASSERT_NE(NULL, conn.hs);
	EXPECT_EQ(-EDESTADDRREQ, tlsx_hs_step(conn.hs, NULL, 0, &used,
					      conn.out, sizeof(conn.out), &n));
	EXPECT_EQ(0, used);
	EXPECT_EQ(0, n);
	EXPECT_EQ(-1, tlsx_hs_alert(conn.hs));
	EXPECT_EQ(-EDESTADDRREQ, tlsx_hs_step(conn.hs, NULL, 0, &used,
					      conn.out, sizeof(conn.out), &n));
	EXPECT_EQ(0, n);
	/* Too late to set one now. */
	EXPECT_EQ(-EINVAL, tlsx_hs_set_server_name(conn.hs, "www.example.com"));
	conn_free(&conn);
}

/* verify_name_optional: the chain checked against the anchors only. */
TEST(verify_name_optional_accepts_chain)
{
	struct tlsx_hs_info info;

	nameless_client(_metadata, &conn);
	conn.cfg.verify_name_optional = true;
	conn.hs = tlsx_hs_new(&conn.cfg);
	ASSERT_NE(NULL, conn.hs);
	run(&conn);
	ASSERT_EQ(TLSX_HS_DONE, conn.hs_ret);
	ASSERT_EQ(1, conn.ssl_ret);
	ASSERT_EQ(0, tlsx_hs_get_info(conn.hs, &info));
	EXPECT_TRUE(info.peer_cert);
	EXPECT_STREQ("", conn.sni);
	conn_free(&conn);
}

/* ...and still refuses a chain from another CA. */
TEST(verify_name_optional_still_verifies_chain)
{
	nameless_client(_metadata, &conn);
	tlsx_trust_free(&conn.trust);
	ASSERT_EQ(0, tlsx_trust_load(&conn.trust, data("other-root.pem"),
				     NULL));
	conn.cfg.verify_name_optional = true;
	conn.hs = tlsx_hs_new(&conn.cfg);
	ASSERT_NE(NULL, conn.hs);
	run(&conn);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNKNOWN_CA), conn.hs_ret);
	conn_free(&conn);
}

/* Verification off needs no name (nothing is matched). */
TEST(insecure_without_name)
{
	struct server_opts o = { .cert = "p256" };

	ASSERT_EQ(0, server_setup(&conn, &o));
	conn.cfg.insecure = true;
	conn.hs = tlsx_hs_new(&conn.cfg);
	ASSERT_NE(NULL, conn.hs);
	run(&conn);
	EXPECT_EQ(TLSX_HS_DONE, conn.hs_ret);
	conn_free(&conn);
}

/*
 * An IP address as the name (RFC 6125, RFC 5280 4.2.1.6): matched
 * against the leaf's iPAddress SANs (192.0.2.1, 2001:db8::1), and never
 * sent as SNI (RFC 6066 3: "Literal IPv4 and IPv6 addresses are not
 * permitted in HostName").
 */
static void ip_name(struct __test_metadata *_metadata, const char *ip,
		    int want)
{
	nameless_client(_metadata, &conn);
	conn.hs = tlsx_hs_new(&conn.cfg);
	ASSERT_NE(NULL, conn.hs);
	ASSERT_EQ(0, tlsx_hs_set_server_name(conn.hs, ip));
	snprintf(conn.sni, sizeof(conn.sni), "unset");
	run(&conn);
	EXPECT_EQ(want, conn.hs_ret) TH_LOG("%s", ip);
	EXPECT_STREQ("", conn.sni);
	conn_free(&conn);
}

TEST(ip_san_matches)
{
	ip_name(_metadata, "192.0.2.1", TLSX_HS_DONE);
	ip_name(_metadata, "2001:db8::1", TLSX_HS_DONE);
}

TEST(ip_san_mismatch)
{
	ip_name(_metadata, "192.0.2.2",
		-TLSX_HS_EALERT(TLSX_ALERT_CERTIFICATE_UNKNOWN));
	ip_name(_metadata, "2001:db8::2",
		-TLSX_HS_EALERT(TLSX_ALERT_CERTIFICATE_UNKNOWN));
}

/* The server takes only a group we do not offer: its alert comes back. */
TEST(no_common_group)
{
	struct server_opts o = { .cert = "p256", .groups = "P-384" };

	ASSERT_EQ(0, server_setup(&conn, &o));
	ASSERT_EQ(0, client_setup(&conn, "p256-root.pem", 0, NULL, 0));
	run(&conn);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_HANDSHAKE_FAILURE), conn.hs_ret);
	EXPECT_TRUE(tlsx_hs_alert_received(conn.hs));
	conn_free(&conn);
}

TEST_HARNESS_MAIN
