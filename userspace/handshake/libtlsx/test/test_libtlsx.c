// SPDX-License-Identifier: GPL-2.0
/*
 * test_libtlsx.c - libtlsx end to end over loopback TCP, natively (so
 * with the userspace record layer: this machine's kernel has no ULP):
 *
 *  - tlsx_connect() against OpenSSL's libssl as server, per suite and
 *    group, HelloRetryRequest, ALPN, resumption with the session a ticket
 *    after the handoff gave, and the refusals (wrong host, unknown CA);
 *  - the non-blocking step on an O_NONBLOCK socket, and the sans-I/O step
 *    with the caller reading only what tlsx_conn_read_hint() allows, and
 *    a first header that is no TLS record refused from its 5 bytes;
 *  - tlsx_accept() against OpenSSL as client (blocking and through the
 *    non-blocking step), tlsx against tlsx, and one configuration per
 *    role shared by eight threads;
 *  - record-exact reads: OpenSSL's client Finished and its first request
 *    written in one write(2), so in one segment: the server reads the
 *    request under the record layer, nothing is lost;
 *  - configuration errors with their messages;
 *  - the syscalls a handshake costs and the memory kept after it.
 *
 * Certificates are made at the start with OpenSSL (a P-256 CA and a leaf
 * for "localhost" and 127.0.0.1) into a temporary directory.
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "handshake/libtlsx/tlsx.h"

static char dir[32];
static char ca_pem[64], leaf_pem[64], key_pem[64], other_ca_pem[64];
static char leaf2_pem[64], key2_pem[64];

static X509 *make_cert(EVP_PKEY *key, EVP_PKEY *signer, X509 *issuer,
		       const char *cn, const char *san)
{
	X509 *x = X509_new();
	X509V3_CTX v3;
	X509_EXTENSION *e;
	bool ca = !san;

	ASN1_INTEGER_set(X509_get_serialNumber(x), ca ? 1 : 2);
	X509_set_version(x, 2);
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 86400 * 30);
	X509_set_pubkey(x, key);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN",
				   MBSTRING_ASC, (const unsigned char *)cn,
				   -1, -1, 0);
	X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) :
					 X509_get_subject_name(x));
	X509V3_set_ctx(&v3, issuer ? issuer : x, x, NULL, NULL, 0);
	if (ca) {
		e = X509V3_EXT_conf_nid(NULL, &v3, NID_basic_constraints,
					"critical,CA:TRUE");
		X509_add_ext(x, e, -1);
		X509_EXTENSION_free(e);
		e = X509V3_EXT_conf_nid(NULL, &v3, NID_key_usage,
					"critical,keyCertSign,cRLSign");
	} else {
		e = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, san);
		X509_add_ext(x, e, -1);
		X509_EXTENSION_free(e);
		e = X509V3_EXT_conf_nid(NULL, &v3, NID_ext_key_usage,
					"serverAuth,clientAuth");
	}
	X509_add_ext(x, e, -1);
	X509_EXTENSION_free(e);
	X509_sign(x, signer, EVP_sha256());
	return x;
}

static void write_pem(const char *path, X509 *x, EVP_PKEY *k)
{
	FILE *f = fopen(path, "w");

	if (!f)
		abort();
	if (x)
		PEM_write_X509(f, x);
	if (k)
		PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL);
	fclose(f);
}

static void make_files(void)
{
	EVP_PKEY *cak, *leafk, *otherk, *leaf2k;
	X509 *ca, *leaf, *other, *leaf2;

	snprintf(dir, sizeof(dir), "%s", "/tmp/test_libtlsx_XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(ca_pem, sizeof(ca_pem), "%s/ca.pem", dir);
	snprintf(leaf_pem, sizeof(leaf_pem), "%s/leaf.pem", dir);
	snprintf(key_pem, sizeof(key_pem), "%s/key.pem", dir);
	snprintf(other_ca_pem, sizeof(other_ca_pem), "%s/other.pem", dir);
	snprintf(leaf2_pem, sizeof(leaf2_pem), "%s/leaf2.pem", dir);
	snprintf(key2_pem, sizeof(key2_pem), "%s/key2.pem", dir);
	cak = EVP_EC_gen("P-256");
	leafk = EVP_EC_gen("P-256");
	otherk = EVP_EC_gen("P-256");
	leaf2k = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	ca = make_cert(cak, cak, NULL, "tlsx test CA", NULL);
	leaf = make_cert(leafk, cak, ca, "localhost",
			 "DNS:localhost,IP:127.0.0.1");
	leaf2 = make_cert(leaf2k, cak, ca, "other.test", "DNS:other.test");
	other = make_cert(otherk, otherk, NULL, "another CA", NULL);
	write_pem(ca_pem, ca, NULL);
	write_pem(leaf_pem, leaf, NULL);
	write_pem(key_pem, NULL, leafk);
	write_pem(other_ca_pem, other, NULL);
	write_pem(leaf2_pem, leaf2, NULL);
	write_pem(key2_pem, NULL, leaf2k);
	X509_free(leaf2);
	EVP_PKEY_free(leaf2k);
	X509_free(ca);
	X509_free(leaf);
	X509_free(other);
	EVP_PKEY_free(cak);
	EVP_PKEY_free(leafk);
	EVP_PKEY_free(otherk);
}

static void __attribute__((destructor)) remove_files(void)
{
	if (!ca_pem[0])
		return;
	unlink(ca_pem);
	unlink(leaf_pem);
	unlink(key_pem);
	unlink(other_ca_pem);
	unlink(leaf2_pem);
	unlink(key2_pem);
	rmdir(dir);
}

static void __attribute__((constructor)) setup_files(void)
{
	make_files();
}

static int tcp_pair(int *c, int *s)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sa, &len))
		return -1;
	*c = socket(AF_INET, SOCK_STREAM, 0);
	if (*c < 0 || connect(*c, (struct sockaddr *)&sa, sizeof(sa)))
		return -1;
	*s = accept(lfd, NULL, NULL);
	close(lfd);
	return *s < 0 ? -1 : 0;
}

static void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* ---- OpenSSL's server: handshake, then echo until close_notify ---- */

struct ossl_server {
	SSL_CTX *ctx;
	int fd;
	int ret;		/* 0: handshake and echo went well */
	bool resumed;
	char alpn[32];
	pthread_t t;
};

static int alpn_select(SSL *s, const unsigned char **out,
		       unsigned char *outlen, const unsigned char *in,
		       unsigned int inlen, void *arg)
{
	static const unsigned char mine[] = "\x08http/1.1";

	(void)s;
	(void)arg;
	if (SSL_select_next_proto((unsigned char **)out, outlen, mine,
				  sizeof(mine) - 1, in, inlen) !=
	    OPENSSL_NPN_NEGOTIATED)
		return SSL_TLSEXT_ERR_NOACK;
	return SSL_TLSEXT_ERR_OK;
}

static SSL_CTX *ossl_server_ctx(const char *suites, const char *groups)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());

	SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
	if (suites)
		SSL_CTX_set_ciphersuites(ctx, suites);
	if (groups)
		SSL_CTX_set1_groups_list(ctx, groups);
	SSL_CTX_use_certificate_chain_file(ctx, leaf_pem);
	SSL_CTX_use_PrivateKey_file(ctx, key_pem, SSL_FILETYPE_PEM);
	SSL_CTX_set_alpn_select_cb(ctx, alpn_select, NULL);
	return ctx;
}

static void *ossl_server_run(void *arg)
{
	struct ossl_server *o = arg;
	SSL *s = SSL_new(o->ctx);
	const unsigned char *alpn;
	unsigned int alen;
	char buf[4096];
	int n;

	o->ret = -1;
	/* Late, so that a non-blocking client sees EAGAIN first. */
	usleep(20000);
	SSL_set_fd(s, o->fd);
	if (SSL_accept(s) != 1)
		goto out;
	o->resumed = SSL_session_reused(s);
	SSL_get0_alpn_selected(s, &alpn, &alen);
	if (alen && alen < sizeof(o->alpn)) {
		memcpy(o->alpn, alpn, alen);
		o->alpn[alen] = 0;
	}
	while ((n = SSL_read(s, buf, sizeof(buf))) > 0)
		if (SSL_write(s, buf, n) != n)
			goto out;
	if (SSL_get_error(s, n) == SSL_ERROR_ZERO_RETURN) {
		SSL_shutdown(s);
		o->ret = 0;
	}
out:
	SSL_free(s);
	return NULL;
}

static int ossl_server_start(struct ossl_server *o, SSL_CTX *ctx, int fd)
{
	memset(o, 0, sizeof(*o));
	o->ctx = ctx;
	o->fd = fd;
	return pthread_create(&o->t, NULL, ossl_server_run, o);
}

static struct tlsx_config *client_cfg(const char *trust)
{
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_CLIENT);

	if (cfg && tlsx_config_set_trust(cfg, trust)) {
		tlsx_config_free(cfg);
		return NULL;
	}
	return cfg;
}

/* "ping" out, "ping" back, then close_notify both ways. */
static int echo_and_close(struct tlsx_conn *c)
{
	char buf[8];
	ssize_t n;

	if (tlsx_write(c, "ping", 4) != 4)
		return -1;
	n = tlsx_read(c, buf, 4);
	while (n > 0 && n < 4) {
		ssize_t m = tlsx_read(c, buf + n, 4 - n);

		if (m <= 0)
			return -1;
		n += m;
	}
	if (n != 4 || memcmp(buf, "ping", 4))
		return -1;
	if (tlsx_close(c))
		return -1;
	return tlsx_read(c, buf, sizeof(buf)) == 0 ? 0 : -1;
}

/*
 * The peer's certificates tlsx_peer_cert() gives, counted until
 * TLSX_E_NO_CERT; the leaf copied into @leaf.  (size_t)-1 when a call
 * fails otherwise.
 */
static size_t peer_certs(const struct tlsx_conn *c, unsigned char *leaf,
			 size_t cap, size_t *leaf_len)
{
	const uint8_t *der;
	size_t i, len;
	int ret;

	*leaf_len = 0;
	for (i = 0; i < 16; i++) {
		ret = tlsx_peer_cert(c, i, &der, &len);
		if (ret == TLSX_E_NO_CERT && !der && !len)
			return i;
		if (ret || !der || !len)
			return (size_t)-1;
		if (!i && len <= cap) {
			memcpy(leaf, der, len);
			*leaf_len = len;
		}
	}
	return (size_t)-1;
}

/* The DER of the first certificate of PEM file @path; 0 on failure. */
static size_t pem_der(const char *path, unsigned char *out, size_t cap)
{
	FILE *f = fopen(path, "r");
	X509 *x = f ? PEM_read_X509(f, NULL, NULL, NULL) : NULL;
	int n = x ? i2d_X509(x, NULL) : 0;
	unsigned char *p = out;

	if (n <= 0 || (size_t)n > cap || i2d_X509(x, &p) != n)
		n = 0;
	X509_free(x);
	if (f)
		fclose(f);
	return (size_t)n;
}

FIXTURE(vs_openssl)
{
	int cfd, sfd;
	struct tlsx_config *cfg;
	struct tlsx_conn *c;
	struct ossl_server o;
	SSL_CTX *sctx;
};

FIXTURE_VARIANT(vs_openssl)
{
	const char *suites;		/* the server's */
	const char *groups;		/* the server's */
	unsigned short suite;
	unsigned short group;
	bool hrr;
};

FIXTURE_VARIANT_ADD(vs_openssl, aes128gcm_x25519)
{
	.suites = "TLS_AES_128_GCM_SHA256", .groups = "X25519",
	.suite = 0x1301, .group = 0x001d,
};

FIXTURE_VARIANT_ADD(vs_openssl, aes256gcm_x25519)
{
	.suites = "TLS_AES_256_GCM_SHA384", .groups = "P-256:X25519",
	.suite = 0x1302, .group = 0x001d,
};

FIXTURE_VARIANT_ADD(vs_openssl, chacha_x25519)
{
	.suites = "TLS_CHACHA20_POLY1305_SHA256", .groups = "X25519",
	.suite = 0x1303, .group = 0x001d,
};

/* The client's first key share is X25519: P-256 only needs an HRR. */
FIXTURE_VARIANT_ADD(vs_openssl, hrr_p256)
{
	.suites = "TLS_AES_128_GCM_SHA256", .groups = "P-256",
	.suite = 0x1301, .group = 0x0017, .hrr = true,
};

FIXTURE_SETUP(vs_openssl)
{
	ASSERT_EQ(0, tcp_pair(&self->cfd, &self->sfd));
	self->cfg = client_cfg(ca_pem);
	ASSERT_NE(NULL, self->cfg);
	self->sctx = ossl_server_ctx(variant->suites, variant->groups);
	ASSERT_NE(NULL, self->sctx);
	ASSERT_EQ(0, ossl_server_start(&self->o, self->sctx, self->sfd));
}

FIXTURE_TEARDOWN(vs_openssl)
{
	tlsx_conn_free(self->c);
	close(self->cfd);
	pthread_join(self->o.t, NULL);
	close(self->sfd);
	SSL_CTX_free(self->sctx);
	tlsx_config_free(self->cfg);
}

TEST_F(vs_openssl, connect)
{
	unsigned char want[2048], leaf[2048];
	struct tlsx_conn_info info;
	size_t want_len, leaf_len;

	ASSERT_EQ(TLSX_DONE, tlsx_connect(self->cfg, self->cfd, "localhost",
					  &self->c));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c, &info));
	EXPECT_EQ(variant->suite, info.suite);
	EXPECT_EQ(variant->group, info.group);
	EXPECT_EQ(variant->hrr, info.hrr);
	EXPECT_FALSE(info.resumed);
	EXPECT_TRUE(info.peer_cert);
	EXPECT_EQ(TLSX_RL_USER, info.record_layer);
	EXPECT_STREQ("localhost", info.server_name);
	/* The server's one certificate, as its file has it. */
	want_len = pem_der(leaf_pem, want, sizeof(want));
	ASSERT_NE(0, want_len);
	EXPECT_EQ(1, peer_certs(self->c, leaf, sizeof(leaf), &leaf_len));
	ASSERT_EQ(want_len, leaf_len);
	EXPECT_EQ(0, memcmp(want, leaf, leaf_len));
	TH_LOG("%s %s: handshake %u reads, %u writes; kept %zu bytes",
	       info.suite_name, info.group_name, info.hs_reads,
	       info.hs_writes, info.state_bytes);
	EXPECT_EQ(0, echo_and_close(self->c));
	pthread_join(self->o.t, NULL);
	self->o.t = pthread_self();
	EXPECT_EQ(0, self->o.ret);
}

TEST_F(vs_openssl, nonblocking_step)
{
	int ret, reads = 0;

	set_nonblock(self->cfd);
	self->c = tlsx_conn_new(self->cfg, self->cfd);
	ASSERT_NE(NULL, self->c);
	ASSERT_EQ(TLSX_OK, tlsx_conn_set_server_name(self->c, "localhost"));
	while ((ret = tlsx_conn_step(self->c)) != TLSX_DONE) {
		struct pollfd p = { .fd = self->cfd };

		ASSERT_TRUE(ret == TLSX_WANT_READ || ret == TLSX_WANT_WRITE);
		p.events = ret == TLSX_WANT_READ ? POLLIN : POLLOUT;
		reads += ret == TLSX_WANT_READ;
		ASSERT_EQ(1, poll(&p, 1, 10000));
	}
	EXPECT_GT(reads, 0);
	for (;;) {
		char buf[8];
		ssize_t n;

		n = tlsx_write(self->c, "ping", 4);
		if (n == TLSX_WANT_WRITE)
			continue;
		ASSERT_EQ(4, n);
		do {
			struct pollfd p = { .fd = self->cfd, .events = POLLIN };

			poll(&p, 1, 10000);
			n = tlsx_read(self->c, buf, 4);
		} while (n == TLSX_WANT_READ);
		ASSERT_EQ(4, n);
		EXPECT_EQ(0, memcmp(buf, "ping", 4));
		break;
	}
	EXPECT_EQ(TLSX_OK, tlsx_close(self->c));
}

/* The caller's own I/O, reading no more than the hint allows. */
TEST_F(vs_openssl, sans_io_step)
{
	static unsigned char out[TLSX_STEP_OUT_MIN];
	unsigned char in[20000];
	size_t in_len = 0, used, out_len;
	int ret;

	self->c = tlsx_conn_new(self->cfg, self->cfd);
	ASSERT_NE(NULL, self->c);
	ASSERT_EQ(TLSX_OK, tlsx_conn_set_server_name(self->c, "localhost"));
	for (;;) {
		size_t hint;
		ssize_t n;

		ret = tlsx_conn_step_buf(self->c, in, in_len, &used, out,
					 sizeof(out), &out_len);
		memmove(in, in + used, in_len - used);
		in_len -= used;
		if (out_len)
			ASSERT_EQ((ssize_t)out_len,
				  write(self->cfd, out, out_len));
		if (ret == TLSX_DONE)
			break;
		ASSERT_EQ(TLSX_WANT_READ, ret);
		hint = tlsx_conn_read_hint(self->c, in, in_len);
		ASSERT_GT(hint, 0);
		ASSERT_LE(in_len + hint, sizeof(in));
		n = read(self->cfd, in + in_len, hint);
		ASSERT_GT(n, 0);
		in_len += n;
	}
	EXPECT_EQ(0, in_len);
	ASSERT_EQ(TLSX_DONE, tlsx_conn_handoff(self->c));
	EXPECT_EQ(0, echo_and_close(self->c));
}

TEST_F(vs_openssl, alpn)
{
	struct tlsx_conn_info info;

	ASSERT_EQ(TLSX_OK, tlsx_config_set_alpn(self->cfg, "h2,http/1.1"));
	ASSERT_EQ(TLSX_DONE, tlsx_connect(self->cfg, self->cfd, "localhost",
					  &self->c));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c, &info));
	EXPECT_STREQ("http/1.1", info.alpn);
	EXPECT_EQ(0, echo_and_close(self->c));
}

/* RFC 6125 via the engine: the certificate is for localhost. */
TEST_F(vs_openssl, wrong_host)
{
	EXPECT_EQ(TLSX_E_CERT, tlsx_connect(self->cfg, self->cfd,
					    "example.com", &self->c));
	ASSERT_NE(NULL, self->c);
	EXPECT_NE(-1, tlsx_conn_alert(self->c));
	EXPECT_EQ(TLSX_E_INVAL, tlsx_write(self->c, "x", 1));
}

/*
 * No name (issue 26 item 2): with verification on, refused before a
 * byte goes out; tlsx_config_set_verify_name_optional() opts out.
 */
TEST(verify_without_name_refused)
{
	struct tlsx_config *cfg = client_cfg(ca_pem);
	struct tlsx_conn *c = NULL;
	char b;
	int cfd, sfd;

	ASSERT_NE(NULL, cfg);
	ASSERT_EQ(0, tcp_pair(&cfd, &sfd));
	/* Non-blocking first, so that a client that did go on fails here
	 * (TLSX_WANT_READ) rather than waiting for a server there is not.
	 */
	set_nonblock(cfd);
	c = tlsx_conn_new(cfg, cfd);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(TLSX_E_NO_SERVER_NAME, tlsx_conn_step(c));
	EXPECT_EQ(TLSX_E_NO_SERVER_NAME, tlsx_conn_step(c));
	EXPECT_EQ(-1, tlsx_conn_alert(c));
	tlsx_conn_free(c);
	c = NULL;
	EXPECT_EQ(TLSX_E_NO_SERVER_NAME, tlsx_connect(cfg, cfd, NULL, &c));
	ASSERT_NE(NULL, c);
	EXPECT_NE(NULL, strstr(tlsx_strerror(TLSX_E_NO_SERVER_NAME),
			       "server name"));
	tlsx_conn_free(c);
	/* Not one byte reached the server. */
	EXPECT_EQ(-1, recv(sfd, &b, 1, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	/* A server's configuration has no such setting. */
	tlsx_config_free(cfg);
	cfg = tlsx_config_new(TLSX_ROLE_SERVER);
	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(TLSX_E_CONFIG, tlsx_config_set_verify_name_optional(cfg,
								      true));
	tlsx_config_free(cfg);
	close(cfd);
	close(sfd);
}

TEST_F(vs_openssl, verify_name_optional)
{
	struct tlsx_conn_info info;

	ASSERT_EQ(TLSX_OK, tlsx_config_set_verify_name_optional(self->cfg,
								true));
	ASSERT_EQ(TLSX_DONE, tlsx_connect(self->cfg, self->cfd, NULL,
					  &self->c));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c, &info));
	EXPECT_TRUE(info.peer_cert);
	EXPECT_STREQ("", info.server_name);
	EXPECT_EQ(0, echo_and_close(self->c));
}

/* An IP address as the name: the leaf's iPAddress SAN (127.0.0.1). */
TEST_F(vs_openssl, ip_address_name)
{
	struct tlsx_conn_info info;

	ASSERT_EQ(TLSX_DONE, tlsx_connect(self->cfg, self->cfd, "127.0.0.1",
					  &self->c));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c, &info));
	EXPECT_TRUE(info.peer_cert);
	EXPECT_EQ(0, echo_and_close(self->c));
}

TEST_F(vs_openssl, ip_address_mismatch)
{
	EXPECT_EQ(TLSX_E_CERT, tlsx_connect(self->cfg, self->cfd, "127.0.0.2",
					    &self->c));
}

TEST_F(vs_openssl, unknown_ca)
{
	struct tlsx_config *other = client_cfg(other_ca_pem);

	ASSERT_NE(NULL, other);
	EXPECT_EQ(TLSX_E_CERT, tlsx_connect(other, self->cfd, "localhost",
					    &self->c));
	EXPECT_EQ(48, tlsx_conn_alert(self->c));	/* unknown_ca */
	tlsx_config_free(other);
}

/* A ticket after the handoff, then a resumed handshake with it. */
TEST(resume_with_openssl)
{
	struct tlsx_config *cfg = client_cfg(ca_pem);
	SSL_CTX *sctx = ossl_server_ctx(NULL, NULL);
	unsigned char sess[4096];
	struct tlsx_conn_info info;
	struct ossl_server o;
	struct tlsx_conn *c;
	size_t len = 0;
	int cfd, sfd, round;

	ASSERT_NE(NULL, cfg);
	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, tcp_pair(&cfd, &sfd));
		ASSERT_EQ(0, ossl_server_start(&o, sctx, sfd));
		c = tlsx_conn_new(cfg, cfd);
		ASSERT_NE(NULL, c);
		ASSERT_EQ(TLSX_OK, tlsx_conn_set_server_name(c, "localhost"));
		if (round)
			ASSERT_EQ(TLSX_OK, tlsx_conn_set_session(c, sess, len));
		ASSERT_EQ(TLSX_DONE, tlsx_conn_handshake(c));
		ASSERT_EQ(TLSX_OK, tlsx_conn_info(c, &info));
		EXPECT_EQ(round == 1, info.resumed);
		/* The echo's read takes the tickets that came first. */
		EXPECT_EQ(0, echo_and_close(c));
		if (!round)
			ASSERT_EQ(TLSX_OK, tlsx_conn_session(c, sess,
							     sizeof(sess),
							     &len));
		tlsx_conn_free(c);
		close(cfd);
		pthread_join(o.t, NULL);
		close(sfd);
		EXPECT_EQ(0, o.ret);
		EXPECT_EQ(round == 1, o.resumed);
	}
	SSL_CTX_free(sctx);
	tlsx_config_free(cfg);
}

/* ---- tlsx as server ---------------------------------------------- */

static struct tlsx_config *server_cfg(void)
{
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_SERVER);

	if (!cfg)
		return NULL;
	if (tlsx_config_add_cert(cfg, leaf_pem, key_pem) ||
	    tlsx_config_set_alpn(cfg, "http/1.1") ||
	    tlsx_config_freeze(cfg)) {
		tlsx_config_free(cfg);
		return NULL;
	}
	return cfg;
}

/*
 * Whether the engine has its server half (hs-server merged).  A first
 * use: @cfg is frozen afterwards.
 */
static bool have_server(struct tlsx_config *cfg)
{
	struct tlsx_conn *c = tlsx_conn_new(cfg, -1);

	tlsx_conn_free(c);
	return c != NULL;
}

struct tlsx_server {
	struct tlsx_config *cfg;
	int fd;
	int ret;
	bool peer_cert;			/* what the server saw */
	unsigned char peer_leaf[2048];	/* tlsx_peer_cert(0) */
	size_t peer_leaf_len;
	size_t peer_certs;		/* how many tlsx_peer_cert() gave */
	char server_name[64];
	unsigned int hs_reads, hs_writes;
	int alert;			/* tlsx_conn_alert() of a failure */
	const char *reason;		/* tlsx_conn_reason() of a failure */
	pthread_t t;
};

static void *tlsx_server_run(void *arg)
{
	struct tlsx_server *s = arg;
	struct tlsx_conn_info info;
	struct tlsx_conn *c;
	char buf[4096];
	ssize_t n;

	s->ret = tlsx_accept(s->cfg, s->fd, &c);
	s->alert = c ? tlsx_conn_alert(c) : -1;
	s->reason = c ? tlsx_conn_reason(c) : NULL;
	if (s->ret) {
		tlsx_conn_free(c);
		return NULL;
	}
	if (!tlsx_conn_info(c, &info)) {
		s->peer_cert = info.peer_cert;
		s->hs_reads = info.hs_reads;
		s->hs_writes = info.hs_writes;
		snprintf(s->server_name, sizeof(s->server_name), "%s",
			 info.server_name);
	}
	s->peer_certs = peer_certs(c, s->peer_leaf, sizeof(s->peer_leaf),
				   &s->peer_leaf_len);
	while ((n = tlsx_read(c, buf, sizeof(buf))) > 0)
		if (tlsx_write(c, buf, n) != n)
			break;
	s->ret = n ? (int)n : tlsx_close(c);
	tlsx_conn_free(c);
	return NULL;
}

/*
 * A connected pair and tlsx's server on its accepted end (@s reset, its
 * configuration @scfg, its fd the accepted end); *@cfd the client's end.
 * 0, or -1 with no thread started.
 */
static int server_start(struct tlsx_server *s, struct tlsx_config *scfg,
			int *cfd)
{
	memset(s, 0, sizeof(*s));
	s->cfg = scfg;
	if (tcp_pair(cfd, &s->fd))
		return -1;
	if (pthread_create(&s->t, NULL, tlsx_server_run, s)) {
		close(*cfd);
		close(s->fd);
		return -1;
	}
	return 0;
}

/*
 * Record-exact (tlsx_conn.c): OpenSSL's client over memory BIOs, its
 * Finished and its first request written into the socket in one write,
 * as one segment.  The server reads the request after the handoff.
 */
TEST(record_exact_request_with_finished)
{
	struct tlsx_config *cfg = server_cfg();
	SSL_CTX *cctx = SSL_CTX_new(TLS_client_method());
	BIO *rb = BIO_new(BIO_s_mem()), *wb = BIO_new(BIO_s_mem());
	struct tlsx_conn *c = NULL;
	struct tlsx_server s;
	char buf[256], *p;
	int cfd, sfd, i, ret = 0;
	SSL *cl;
	long n;

	ASSERT_NE(NULL, cfg);
	if (!have_server(cfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(0, tcp_pair(&cfd, &sfd));
	SSL_CTX_set_min_proto_version(cctx, TLS1_3_VERSION);
	cl = SSL_new(cctx);
	SSL_set_bio(cl, rb, wb);
	SSL_set_connect_state(cl);
	s.cfg = cfg;
	s.fd = sfd;
	(void)c;
	ASSERT_EQ(0, pthread_create(&s.t, NULL, tlsx_server_run, &s));
	for (i = 0; i < 100 && ret != 1; i++) {
		ret = SSL_do_handshake(cl);
		n = BIO_get_mem_data(wb, &p);
		/* Held back once done: the request joins it. */
		if (ret != 1 && n > 0) {
			ASSERT_EQ(n, write(cfd, p, n));
			BIO_reset(wb);
		}
		if (ret != 1) {
			struct pollfd pf = { .fd = cfd, .events = POLLIN };
			ssize_t got;

			ASSERT_EQ(1, poll(&pf, 1, 10000));
			got = read(cfd, buf, sizeof(buf));
			ASSERT_GT(got, 0);
			BIO_write(rb, buf, got);
		}
	}
	ASSERT_EQ(1, ret);
	ASSERT_EQ(5, SSL_write(cl, "GET /", 5));
	n = BIO_get_mem_data(wb, &p);
	ASSERT_GT(n, 5);
	ASSERT_EQ(n, write(cfd, p, n));	/* Finished and request, at once */
	BIO_reset(wb);
	/* The echo: read until OpenSSL has it (tickets come first). */
	for (i = 0; i < 100; i++) {
		int got = SSL_read(cl, buf, sizeof(buf));
		ssize_t r;

		if (got > 0) {
			ASSERT_EQ(5, got);
			EXPECT_EQ(0, memcmp(buf, "GET /", 5));
			break;
		}
		ASSERT_EQ(SSL_ERROR_WANT_READ, SSL_get_error(cl, got));
		r = read(cfd, buf, sizeof(buf));
		ASSERT_GT(r, 0);
		BIO_write(rb, buf, r);
	}
	ASSERT_LT(i, 100);
	shutdown(cfd, SHUT_WR);
	pthread_join(s.t, NULL);
	SSL_free(cl);
	SSL_CTX_free(cctx);
	close(cfd);
	close(sfd);
	tlsx_config_free(cfg);
}

TEST(accept_openssl_client)
{
	struct tlsx_config *cfg = server_cfg();
	SSL_CTX *cctx = SSL_CTX_new(TLS_client_method());
	struct tlsx_server s;
	char buf[8];
	int cfd, sfd;
	SSL *cl;

	ASSERT_NE(NULL, cfg);
	if (!have_server(cfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(0, tcp_pair(&cfd, &sfd));
	s.cfg = cfg;
	s.fd = sfd;
	ASSERT_EQ(0, pthread_create(&s.t, NULL, tlsx_server_run, &s));
	SSL_CTX_load_verify_locations(cctx, ca_pem, NULL);
	SSL_CTX_set_verify(cctx, SSL_VERIFY_PEER, NULL);
	cl = SSL_new(cctx);
	SSL_set_fd(cl, cfd);
	SSL_set_tlsext_host_name(cl, "localhost");
	SSL_set1_host(cl, "localhost");
	ASSERT_EQ(1, SSL_connect(cl));
	ASSERT_EQ(4, SSL_write(cl, "pong", 4));
	ASSERT_EQ(4, SSL_read(cl, buf, 4));
	EXPECT_EQ(0, memcmp(buf, "pong", 4));
	SSL_shutdown(cl);
	EXPECT_EQ(0, SSL_read(cl, buf, sizeof(buf)));
	pthread_join(s.t, NULL);
	EXPECT_EQ(TLSX_OK, s.ret);
	SSL_free(cl);
	SSL_CTX_free(cctx);
	close(cfd);
	close(sfd);
	tlsx_config_free(cfg);
}

/* tlsx against tlsx, twice: the second resumes from the first's ticket. */
TEST(tlsx_both_ends)
{
	struct tlsx_config *scfg = server_cfg(), *ccfg = client_cfg(ca_pem);
	unsigned char sess[4096], leaf[2048];
	struct tlsx_conn_info info;
	struct tlsx_server s;
	struct tlsx_conn *c;
	size_t len = 0, der_len, leaf_len;
	const uint8_t *der;
	int cfd, round;

	ASSERT_NE(NULL, scfg);
	ASSERT_NE(NULL, ccfg);
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, server_start(&s, scfg, &cfd));
		c = tlsx_conn_new(ccfg, cfd);
		ASSERT_NE(NULL, c);
		/* Before the handshake: no chain, and a bad call. */
		EXPECT_EQ(TLSX_E_INVAL, tlsx_peer_cert(c, 0, &der, &der_len));
		EXPECT_EQ(TLSX_E_INVAL, tlsx_peer_cert(c, 0, NULL, &der_len));
		ASSERT_EQ(TLSX_OK, tlsx_conn_set_server_name(c, "localhost"));
		if (round)
			ASSERT_EQ(TLSX_OK, tlsx_conn_set_session(c, sess, len));
		ASSERT_EQ(TLSX_DONE, tlsx_conn_handshake(c));
		ASSERT_EQ(TLSX_OK, tlsx_conn_info(c, &info));
		EXPECT_EQ(round == 1, info.resumed);
		/*
		 * The server's leaf on the full handshake; none resumed (RFC
		 * 8446 2.2: no Certificate); none on a server that asked for
		 * none.
		 */
		EXPECT_EQ(round ? 0 : 1, peer_certs(c, leaf, sizeof(leaf),
						    &leaf_len));
		EXPECT_EQ(0, echo_and_close(c));
		pthread_join(s.t, NULL);
		TH_LOG("tlsx-tlsx %s: client %u reads, %u writes; server %u reads, %u writes",
		       round ? "resumed" : "full", info.hs_reads,
		       info.hs_writes, s.hs_reads, s.hs_writes);
		if (!round)
			ASSERT_EQ(TLSX_OK, tlsx_conn_session(c, sess,
							     sizeof(sess),
							     &len));
		tlsx_conn_free(c);
		EXPECT_EQ(TLSX_OK, s.ret);
		EXPECT_EQ(0, s.peer_certs);
		close(cfd);
		close(s.fd);
	}
	tlsx_config_free(scfg);
	tlsx_config_free(ccfg);
}

/*
 * tlsx_conn_rx_plain() and tlsx_conn_rx_failed() are for a caller's own
 * receive on a kernel layer: before the handshake and on the userspace
 * layer (the socket carries records) no such receive may be made, and a
 * failure given anyway fails the connection as the system call it was.
 * The kernel layers' cases are selftests/libtlsx.c's.
 */
TEST(own_receive_userspace_layer)
{
	struct tlsx_config *scfg = server_cfg(), *ccfg = client_cfg(ca_pem);
	struct tlsx_server s;
	struct tlsx_conn *c;
	int cfd;

	ASSERT_NE(NULL, scfg);
	ASSERT_NE(NULL, ccfg);
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(0, server_start(&s, scfg, &cfd));
	c = tlsx_conn_new(ccfg, cfd);
	ASSERT_NE(NULL, c);
	EXPECT_FALSE(tlsx_conn_rx_plain(c));
	EXPECT_EQ(TLSX_E_INVAL, tlsx_conn_rx_failed(c, EBADMSG));
	ASSERT_EQ(TLSX_OK, tlsx_conn_set_server_name(c, "localhost"));
	ASSERT_EQ(TLSX_DONE, tlsx_conn_handshake(c));
	EXPECT_EQ(TLSX_RL_USER, tlsx_conn_record_layer(c));
	EXPECT_FALSE(tlsx_conn_rx_plain(c));
	EXPECT_EQ(TLSX_E_SYSCALL, tlsx_conn_rx_failed(c, EBADMSG));
	EXPECT_EQ(EBADMSG, tlsx_conn_errno(c));
	/* Sticky, as every failure: the next call says the same. */
	EXPECT_EQ(TLSX_E_SYSCALL, tlsx_read(c, &s, 1));
	shutdown(cfd, SHUT_RDWR);
	pthread_join(s.t, NULL);
	tlsx_conn_free(c);
	close(cfd);
	close(s.fd);
	tlsx_config_free(scfg);
	tlsx_config_free(ccfg);
}

/*
 * One handshake between tlsx ends, @len bytes echoed, close_notify both
 * ways; the client's facts in *@ci, the server's in *@s.  0 or the first
 * failing result.
 */
static int last_client_alert;

static int ours_pair(struct tlsx_config *scfg, struct tlsx_config *ccfg,
		     const char *name, size_t len, struct tlsx_server *s,
		     struct tlsx_conn_info *ci)
{
	static char out[8192], back[8192];
	struct tlsx_conn *c = NULL;
	ssize_t n = 0, got = 0;
	int cfd, ret;
	size_t i;

	if (len > sizeof(out) || server_start(s, scfg, &cfd))
		return TLSX_E_INVAL;
	for (i = 0; i < len; i++)
		out[i] = (char)(i * 13);
	ret = tlsx_connect(ccfg, cfd, name, &c);
	if (!ret)
		ret = tlsx_conn_info(c, ci);
	if (!ret)
		n = tlsx_write(c, out, len);
	while (!ret && n == (ssize_t)len && got < n) {
		ssize_t r = tlsx_read(c, back + got, len - got);

		if (r <= 0)
			ret = r ? (int)r : TLSX_E_EOF;
		got += r > 0 ? r : 0;
	}
	if (!ret && (n != (ssize_t)len || memcmp(out, back, len)))
		ret = TLSX_E_INVAL;
	if (!ret)
		ret = tlsx_close(c);
	if (!ret && tlsx_read(c, back, 1) != 0)
		ret = TLSX_E_INVAL;
	if (ret && c) {
		last_client_alert = tlsx_conn_alert(c);
		shutdown(cfd, SHUT_RDWR);
	}
	tlsx_conn_free(c);
	pthread_join(s->t, NULL);
	close(cfd);
	close(s->fd);
	return ret;
}

static struct tlsx_config *server_cfg_with(const char *cert, const char *key)
{
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_SERVER);

	if (cfg && tlsx_config_add_cert(cfg, cert, key)) {
		tlsx_config_free(cfg);
		return NULL;
	}
	return cfg;
}

/* SNI (RFC 6066): the chain whose leaf names the server_name is sent. */
TEST(sni_chooses_certificate)
{
	struct tlsx_config *scfg = server_cfg_with(leaf_pem, key_pem);
	struct tlsx_config *ccfg = client_cfg(ca_pem);
	struct tlsx_conn_info ci;
	struct tlsx_server s;

	ASSERT_NE(NULL, scfg);
	ASSERT_NE(NULL, ccfg);
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(TLSX_E_INVAL, tlsx_config_add_cert(scfg, leaf2_pem,
						     key2_pem));
	tlsx_config_free(scfg);
	scfg = server_cfg_with(leaf_pem, key_pem);
	ASSERT_EQ(TLSX_OK, tlsx_config_add_cert(scfg, leaf2_pem, key2_pem));
	/* The second chain's leaf (Ed25519) for other.test... */
	EXPECT_EQ(0, ours_pair(scfg, ccfg, "other.test", 100, &s, &ci));
	EXPECT_STREQ("other.test", s.server_name);
	EXPECT_EQ(0x0807, ci.sig_scheme);
	/* ...the first (P-256) for localhost and for no match. */
	EXPECT_EQ(0, ours_pair(scfg, ccfg, "localhost", 100, &s, &ci));
	EXPECT_EQ(0x0403, ci.sig_scheme);
	tlsx_config_free(scfg);
	tlsx_config_free(ccfg);
}

/*
 * One handshake of @ccfg (offering @sess, @len bytes, when @len) against
 * a tlsx server of @scfg, echoed and closed; the session after it in
 * @sess (*@len; 0 when none came), what each end saw in *@ci and *@s.
 */
static int resume_round(struct tlsx_config *scfg, struct tlsx_config *ccfg,
			unsigned char *sess, size_t cap, size_t *len,
			struct tlsx_conn_info *ci, struct tlsx_server *s)
{
	struct tlsx_conn *c;
	int cfd, ret;

	if (server_start(s, scfg, &cfd))
		return -1;
	c = tlsx_conn_new(ccfg, cfd);
	ret = c ? tlsx_conn_set_server_name(c, "localhost") : -1;
	if (!ret && *len)
		ret = tlsx_conn_set_session(c, sess, *len);
	if (!ret)
		ret = tlsx_conn_handshake(c);
	if (!ret)
		ret = tlsx_conn_info(c, ci);
	if (!ret)
		ret = echo_and_close(c);
	if (!ret && tlsx_conn_session(c, sess, cap, len))
		*len = 0;
	if (ret)
		shutdown(cfd, SHUT_RDWR);
	tlsx_conn_free(c);
	pthread_join(s->t, NULL);
	close(cfd);
	close(s->fd);
	return ret;
}

/*
 * Issue 26 item 3: a server switched from optional to required client
 * certificates with a persistent ticket-key file declines the tickets it
 * issued before (a full handshake asks for the certificate); tickets of
 * the new configuration resume, and the resumed server says the client
 * was verified though it has no chain.
 */
TEST(ticket_key_file_optional_to_required)
{
	struct tlsx_config *opt = server_cfg_with(leaf_pem, key_pem);
	struct tlsx_config *req = server_cfg_with(leaf_pem, key_pem);
	struct tlsx_config *ccfg = client_cfg(ca_pem);
	unsigned char keys[80], sess[4096];
	struct tlsx_conn_info ci;
	struct tlsx_server s;
	char path[64];
	size_t len = 0, i;
	int fd;

	ASSERT_TRUE(opt && req && ccfg);
	for (i = 0; i < sizeof(keys); i++)
		keys[i] = (unsigned char)(i * 11 + 3);
	snprintf(path, sizeof(path), "%s/ticket.key", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)sizeof(keys), write(fd, keys, sizeof(keys)));
	close(fd);
	ASSERT_EQ(TLSX_OK, tlsx_config_set_trust(opt, ca_pem));
	ASSERT_EQ(TLSX_OK, tlsx_config_set_verify_peer(opt, true, false));
	ASSERT_EQ(TLSX_OK, tlsx_config_load_ticket_keys(opt, path));
	ASSERT_EQ(TLSX_OK, tlsx_config_set_trust(req, ca_pem));
	ASSERT_EQ(TLSX_OK, tlsx_config_set_verify_peer(req, true, true));
	ASSERT_EQ(TLSX_OK, tlsx_config_load_ticket_keys(req, path));
	unlink(path);
	if (!have_server(opt))
		SKIP(return, "the engine's server half is not merged");
	/* Optional: the client, without a certificate yet, sends none. */
	ASSERT_EQ(0, resume_round(opt, ccfg, sess, sizeof(sess), &len, &ci,
				  &s));
	EXPECT_EQ(TLSX_OK, s.ret);
	EXPECT_FALSE(s.peer_cert);
	ASSERT_NE(0, len);
	/* Required now, the client has a certificate: a full handshake. */
	tlsx_config_free(ccfg);
	ccfg = client_cfg(ca_pem);
	ASSERT_EQ(TLSX_OK, tlsx_config_add_cert(ccfg, leaf_pem, key_pem));
	ASSERT_EQ(0, resume_round(req, ccfg, sess, sizeof(sess), &len, &ci,
				  &s));
	EXPECT_FALSE(ci.resumed);
	EXPECT_EQ(TLSX_OK, s.ret);
	EXPECT_TRUE(s.peer_cert);
	EXPECT_EQ(1, s.peer_certs);
	ASSERT_NE(0, len);
	/* The new configuration's ticket resumes; no chain to hand out. */
	ASSERT_EQ(0, resume_round(req, ccfg, sess, sizeof(sess), &len, &ci,
				  &s));
	EXPECT_TRUE(ci.resumed);
	EXPECT_TRUE(ci.peer_cert);
	EXPECT_EQ(TLSX_OK, s.ret);
	EXPECT_TRUE(s.peer_cert);
	EXPECT_EQ(0, s.peer_certs);
	tlsx_config_free(opt);
	tlsx_config_free(req);
	tlsx_config_free(ccfg);
}

/*
 * A session saved by a client with verification off is not offered by
 * one that verifies: a full handshake, the server verified.
 */
TEST(unverified_session_not_offered)
{
	struct tlsx_config *scfg = server_cfg_with(leaf_pem, key_pem);
	struct tlsx_config *off = tlsx_config_new(TLSX_ROLE_CLIENT);
	struct tlsx_config *on = client_cfg(ca_pem);
	unsigned char sess[4096];
	struct tlsx_conn_info ci;
	struct tlsx_server s;
	size_t len = 0;

	ASSERT_TRUE(scfg && off && on);
	ASSERT_EQ(TLSX_OK, tlsx_config_set_verify_peer(off, false, false));
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(0, resume_round(scfg, off, sess, sizeof(sess), &len, &ci,
				  &s));
	EXPECT_FALSE(ci.peer_cert);
	ASSERT_NE(0, len);
	ASSERT_EQ(0, resume_round(scfg, on, sess, sizeof(sess), &len, &ci,
				  &s));
	EXPECT_FALSE(ci.resumed);
	EXPECT_TRUE(ci.peer_cert);
	/* The verifying connection's session is offered again, and resumes. */
	ASSERT_NE(0, len);
	ASSERT_EQ(0, resume_round(scfg, on, sess, sizeof(sess), &len, &ci,
				  &s));
	EXPECT_TRUE(ci.resumed);
	EXPECT_TRUE(ci.peer_cert);
	tlsx_config_free(scfg);
	tlsx_config_free(off);
	tlsx_config_free(on);
}

/*
 * A failure names its cause (tlsx_conn_reason()): an Ed25519-only server
 * and a client without Ed25519 get handshake_failure, and the server
 * says why, "no signature scheme in common for the certificate", not
 * only the alert.  A handshake that works names none.
 */
TEST(failure_cause_named)
{
	struct tlsx_config *scfg = server_cfg_with(leaf2_pem, key2_pem);
	struct tlsx_config *ccfg = client_cfg(ca_pem);
	struct tlsx_config *no_ed = client_cfg(ca_pem);
	struct tlsx_conn_info ci;
	struct tlsx_server s;

	ASSERT_TRUE(scfg && ccfg && no_ed);
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(TLSX_OK, tlsx_config_set_sig_schemes(
			no_ed, "ecdsa_secp256r1_sha256,rsa_pss_rsae_sha256"));
	EXPECT_EQ(0, ours_pair(scfg, ccfg, "other.test", 100, &s, &ci));
	EXPECT_EQ(NULL, s.reason);
	EXPECT_NE(0, ours_pair(scfg, no_ed, "other.test", 100, &s, &ci));
	EXPECT_EQ(TLSX_E_ALERT_SENT, s.ret);
	EXPECT_EQ(40, s.alert);			/* handshake_failure */
	EXPECT_STREQ("no signature scheme in common for the certificate",
		     s.reason);
	EXPECT_EQ(40, last_client_alert);
	tlsx_config_free(scfg);
	tlsx_config_free(ccfg);
	tlsx_config_free(no_ed);
}

/* 4.3.2, 4.4.2.4: a client certificate asked for, sent, verified. */
TEST(client_certificate)
{
	struct tlsx_config *scfg = server_cfg_with(leaf_pem, key_pem);
	struct tlsx_config *ccfg = client_cfg(ca_pem);
	struct tlsx_config *anon = client_cfg(ca_pem);
	unsigned char want[2048];
	struct tlsx_conn_info ci;
	struct tlsx_server s;
	size_t want_len;

	ASSERT_TRUE(scfg && ccfg && anon);
	ASSERT_EQ(TLSX_OK, tlsx_config_set_trust(scfg, ca_pem));
	ASSERT_EQ(TLSX_OK, tlsx_config_set_verify_peer(scfg, true, true));
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(TLSX_OK, tlsx_config_add_cert(ccfg, leaf_pem, key_pem));
	EXPECT_EQ(0, ours_pair(scfg, ccfg, "localhost", 100, &s, &ci));
	EXPECT_TRUE(s.peer_cert);
	/* tlsx_peer_cert() on the server: the client's one certificate. */
	want_len = pem_der(leaf_pem, want, sizeof(want));
	ASSERT_NE(0, want_len);
	EXPECT_EQ(1, s.peer_certs);
	ASSERT_EQ(want_len, s.peer_leaf_len);
	EXPECT_EQ(0, memcmp(want, s.peer_leaf, want_len));
	/* Without one: the server refuses (certificate_required). */
	EXPECT_NE(0, ours_pair(scfg, anon, "localhost", 100, &s, &ci));
	EXPECT_EQ(TLSX_E_CERT, s.ret);
	/*
	 * The client reads that alert after its handshake, under the
	 * server's application key: the server sent its Finished, so its
	 * records go under that key (RFC 8446 7.1).  OpenSSL reads it the
	 * same way.
	 */
	EXPECT_EQ(116, last_client_alert);
	tlsx_config_free(scfg);
	tlsx_config_free(ccfg);
	tlsx_config_free(anon);
}

/* RFC 8449: the server's limit reaches the client, which keeps to it. */
TEST(record_size_limit)
{
	struct tlsx_config *scfg = server_cfg_with(leaf_pem, key_pem);
	struct tlsx_config *ccfg = client_cfg(ca_pem);
	struct tlsx_config *lcfg = client_cfg(ca_pem);
	struct tlsx_conn_info ci;
	struct tlsx_server s;

	ASSERT_TRUE(scfg && ccfg && lcfg);
	ASSERT_EQ(TLSX_OK, tlsx_config_set_record_size_limit(lcfg, 1024));
	ASSERT_EQ(TLSX_OK, tlsx_config_set_record_size_limit(scfg, 512));
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	/* The client announces none: no limit is negotiated (8449 4). */
	EXPECT_EQ(0, ours_pair(scfg, ccfg, "localhost", 5000, &s, &ci));
	EXPECT_EQ(0, ci.peer_record_size_limit);
	EXPECT_EQ(0, ours_pair(scfg, lcfg, "localhost", 5000, &s, &ci));
	EXPECT_EQ(512, ci.peer_record_size_limit);
	tlsx_config_free(scfg);
	tlsx_config_free(ccfg);
	tlsx_config_free(lcfg);
}

/* Tickets off: no NewSessionTicket, so no session. */
TEST(no_tickets)
{
	struct tlsx_config *scfg = server_cfg_with(leaf_pem, key_pem);
	struct tlsx_config *ccfg = client_cfg(ca_pem);
	unsigned char sess[4096];
	struct tlsx_server s;
	struct tlsx_conn *c;
	size_t len;
	int cfd;

	ASSERT_TRUE(scfg && ccfg);
	ASSERT_EQ(TLSX_OK, tlsx_config_set_tickets(scfg, 0, 0, 0));
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(0, server_start(&s, scfg, &cfd));
	ASSERT_EQ(TLSX_DONE, tlsx_connect(ccfg, cfd, "localhost", &c));
	EXPECT_EQ(0, echo_and_close(c));
	EXPECT_EQ(TLSX_E_NO_SESSION,
		  tlsx_conn_session(c, sess, sizeof(sess), &len));
	tlsx_conn_free(c);
	pthread_join(s.t, NULL);
	close(cfd);
	close(s.fd);
	tlsx_config_free(scfg);
	tlsx_config_free(ccfg);
}

/*
 * One configuration per role shared by 4 server and 4 client threads,
 * 8 handshakes each (every fourth resuming): the frozen configuration is
 * read without a lock (run under ASan here; see docs/libtlsx.md).
 */
#define THREADS		4
#define PER_THREAD	8

struct shared_job {
	struct tlsx_config *ccfg, *scfg;
	int failures;
	pthread_t t;
};

static void *shared_run(void *arg)
{
	struct shared_job *j = arg;
	unsigned char sess[4096];
	size_t len = 0;
	int i;

	for (i = 0; i < PER_THREAD; i++) {
		struct tlsx_server s;
		struct tlsx_conn *c;
		int cfd, ret;

		if (server_start(&s, j->scfg, &cfd)) {
			j->failures++;
			continue;
		}
		c = tlsx_conn_new(j->ccfg, cfd);
		ret = c ? tlsx_conn_set_server_name(c, "localhost") : -1;
		if (!ret && len && i % 4 == 3)
			ret = tlsx_conn_set_session(c, sess, len);
		if (!ret)
			ret = tlsx_conn_handshake(c);
		if (ret || echo_and_close(c))
			j->failures++;
		else if (!len && tlsx_conn_session(c, sess, sizeof(sess),
						   &len))
			j->failures++;
		tlsx_conn_free(c);
		pthread_join(s.t, NULL);
		if (s.ret)
			j->failures++;
		close(cfd);
		close(s.fd);
	}
	return NULL;
}

TEST(shared_config_threads)
{
	struct tlsx_config *scfg = server_cfg(), *ccfg = client_cfg(ca_pem);
	struct shared_job j[THREADS];
	int i;

	ASSERT_NE(NULL, scfg);
	ASSERT_NE(NULL, ccfg);
	if (!have_server(scfg))
		SKIP(return, "the engine's server half is not merged");
	for (i = 0; i < THREADS; i++) {
		j[i] = (struct shared_job){ .ccfg = ccfg, .scfg = scfg };
		ASSERT_EQ(0, pthread_create(&j[i].t, NULL, shared_run, &j[i]));
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(j[i].t, NULL);
		EXPECT_EQ(0, j[i].failures);
	}
	tlsx_config_free(scfg);
	tlsx_config_free(ccfg);
}

/* tlsx_conn_step() on a server's O_NONBLOCK socket, OpenSSL's client. */
TEST(nonblocking_accept)
{
	struct tlsx_config *cfg = server_cfg();
	SSL_CTX *cctx = SSL_CTX_new(TLS_client_method());
	struct tlsx_conn *c;
	int cfd, sfd, ret, waits = 0;
	char buf[8];
	SSL *cl;

	ASSERT_NE(NULL, cfg);
	if (!have_server(cfg))
		SKIP(return, "the engine's server half is not merged");
	ASSERT_EQ(0, tcp_pair(&cfd, &sfd));
	set_nonblock(sfd);
	set_nonblock(cfd);
	c = tlsx_conn_new(cfg, sfd);
	ASSERT_NE(NULL, c);
	cl = SSL_new(cctx);
	SSL_set_fd(cl, cfd);
	SSL_set_connect_state(cl);
	/* Both ends stepped in turn: neither may block. */
	do {
		int r = SSL_do_handshake(cl);

		ASSERT_TRUE(r == 1 || SSL_get_error(cl, r) == SSL_ERROR_WANT_READ);
		ret = tlsx_conn_step(c);
		waits += ret == TLSX_WANT_READ;
		ASSERT_LT(waits, 10000);
		usleep(100);
	} while (ret != TLSX_DONE);
	while ((ret = SSL_do_handshake(cl)) != 1)
		ASSERT_EQ(SSL_ERROR_WANT_READ, SSL_get_error(cl, ret));
	EXPECT_GT(waits, 0);
	ASSERT_EQ(3, SSL_write(cl, "abc", 3));
	do {
		usleep(100);
		ret = (int)tlsx_read(c, buf, sizeof(buf));
	} while (ret == TLSX_WANT_READ);
	ASSERT_EQ(3, ret);
	EXPECT_EQ(0, memcmp(buf, "abc", 3));
	tlsx_conn_free(c);
	SSL_free(cl);
	SSL_CTX_free(cctx);
	close(cfd);
	close(sfd);
	tlsx_config_free(cfg);
}

/*
 * A first record that is no TLS record is refused from its 5-byte
 * header: tlsx_conn_read_hint() asks for no body, so the step judges
 * the header (RFC 8446 5, 5.1) instead of waiting, until the handshake
 * timeout, for a body the header made up ("GET /" announces 8239
 * bytes).  Found by tools/tlsxd/probe: plain HTTP and an SSLv2 hello
 * to tlsxd's port hung for 10 s.
 */
struct bad_header {
	const char *name;
	uint8_t hdr[5];
	uint8_t alert;		/* what the server sends, RFC 8446 6 */
};

static const struct bad_header bad_headers[] = {
	/* 5: "an unexpected record type ... unexpected_message". */
	{ "plain HTTP", { 'G', 'E', 'T', ' ', '/' }, 10 },
	{ "SSLv2 CLIENT-HELLO", { 0x80, 0x2e, 0x01, 0x03, 0x01 }, 10 },
	{ "heartbeat", { 24, 0x03, 0x03, 0x00, 0x13 }, 10 },
	/* record_protect.c: not major version 3 at all, decode_error. */
	{ "version 2.0", { 22, 0x02, 0x00, 0x00, 0x40 }, 50 },
	/* 5.1: plaintext "MUST NOT exceed 2^14 bytes": record_overflow. */
	{ "2^14 + 1 plaintext", { 22, 0x03, 0x01, 0x40, 0x01 }, 22 },
};

TEST(read_hint_refuses_bad_headers)
{
	static const uint8_t ch[5] = { 22, 0x03, 0x01, 0x00, 0xc8 };
	static const uint8_t ad_max[5] = { 23, 0x03, 0x03, 0x41, 0x00 };
	static const uint8_t ad_over[5] = { 23, 0x03, 0x03, 0x41, 0x01 };
	struct tlsx_config *cfg = server_cfg();
	struct tlsx_conn *c;
	unsigned int i;

	ASSERT_NE(NULL, cfg);
	if (!have_server(cfg))
		SKIP(return, "the engine's server half is not merged");
	c = tlsx_conn_new(cfg, -1);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(5, tlsx_conn_read_hint(c, ch, 0));
	EXPECT_EQ(2, tlsx_conn_read_hint(c, ch, 3));
	EXPECT_EQ(200, tlsx_conn_read_hint(c, ch, 5));
	EXPECT_EQ(150, tlsx_conn_read_hint(c, ch, 55));
	/* 5.2: a protected record may be 2^14 + 256, not more. */
	EXPECT_EQ(16640, tlsx_conn_read_hint(c, ad_max, 5));
	EXPECT_EQ(0, tlsx_conn_read_hint(c, ad_over, 5));
	for (i = 0; i < ARRAY_SIZE(bad_headers); i++) {
		TH_LOG("%s", bad_headers[i].name);
		EXPECT_EQ(0, tlsx_conn_read_hint(c, bad_headers[i].hdr, 5));
	}
	tlsx_conn_free(c);
	tlsx_config_free(cfg);
}

TEST(bad_first_header_alerts_at_once)
{
	struct tlsx_config *cfg = server_cfg();
	unsigned int i;

	ASSERT_NE(NULL, cfg);
	if (!have_server(cfg))
		SKIP(return, "the engine's server half is not merged");
	for (i = 0; i < ARRAY_SIZE(bad_headers); i++) {
		const struct bad_header *b = &bad_headers[i];
		struct tlsx_conn *c;
		int cfd, sfd, ret, n;
		uint8_t rec[16];

		TH_LOG("%s", b->name);
		ASSERT_EQ(0, tcp_pair(&cfd, &sfd));
		set_nonblock(sfd);
		c = tlsx_conn_new(cfg, sfd);
		ASSERT_NE(NULL, c);
		ASSERT_EQ(5, write(cfd, b->hdr, 5));
		/* The header is there; no body will ever come. */
		for (n = 0; n < 20; n++) {
			ret = tlsx_conn_step(c);
			if (ret != TLSX_WANT_READ)
				break;
			usleep(5000);
		}
		EXPECT_EQ(TLSX_E_ALERT_SENT, ret);
		/* 6: a fatal alert record, 5.1's legacy_record_version. */
		ASSERT_EQ(1, poll(&(struct pollfd){ .fd = cfd, .events = POLLIN },
				  1, 1000));
		ASSERT_EQ(7, read(cfd, rec, sizeof(rec)));
		EXPECT_EQ(21, rec[0]);
		EXPECT_EQ(0x0303, rec[1] << 8 | rec[2]);
		EXPECT_EQ(2, rec[5]);
		EXPECT_EQ(b->alert, rec[6]);
		tlsx_conn_free(c);
		close(cfd);
		close(sfd);
	}
	tlsx_config_free(cfg);
}

/* ---- configuration ------------------------------------------------- */

TEST(config_errors)
{
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_SERVER);

	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(TLSX_E_CONFIG, tlsx_config_set_suites(cfg, "TLS_RC4"));
	EXPECT_STREQ("unknown suite \"TLS_RC4\"", tlsx_config_error(cfg));
	EXPECT_EQ(TLSX_OK, tlsx_config_set_suites(cfg,
		  "tls_chacha20_poly1305_sha256:TLS_AES_128_GCM_SHA256"));
	EXPECT_EQ(TLSX_E_CONFIG, tlsx_config_set_groups(cfg,
							"X25519,x25519"));
	EXPECT_EQ(TLSX_OK, tlsx_config_set_groups(cfg, "P-256,X25519"));
	EXPECT_EQ(TLSX_E_CONFIG, tlsx_config_set_alpn(cfg, "h2,,x"));
	EXPECT_EQ(TLSX_E_CONFIG, tlsx_config_set_record_size_limit(cfg, 63));
	EXPECT_EQ(TLSX_E_CONFIG, tlsx_config_set_rekey_limit(cfg, 1));
	EXPECT_EQ(TLSX_E_CONFIG, tlsx_config_add_cert(cfg, "/nonexistent",
						      key_pem));
	EXPECT_NE(0, strlen(tlsx_config_error(cfg)));
	/* A server without a certificate does not freeze. */
	EXPECT_EQ(TLSX_E_CONFIG, tlsx_config_freeze(cfg));
	EXPECT_EQ(NULL, tlsx_conn_new(cfg, -1));
	EXPECT_EQ(TLSX_OK, tlsx_config_add_cert(cfg, leaf_pem, key_pem));
	EXPECT_EQ(TLSX_OK, tlsx_config_freeze(cfg));
	EXPECT_EQ(TLSX_OK, tlsx_config_freeze(cfg));
	EXPECT_EQ(TLSX_E_INVAL, tlsx_config_set_alpn(cfg, "h2"));
	tlsx_config_free(cfg);
}

TEST_HARNESS_MAIN
