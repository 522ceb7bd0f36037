// SPDX-License-Identifier: GPL-2.0
/*
 * openssl.c - an unmodified kTLS user on tlsx: OpenSSL (libssl 3.0, built
 * with kTLS) with SSL_OP_ENABLE_KTLS, once on the kernel's tls and once
 * on tlsx in drop-in mode (tlsx.ko ulp_name=tls, the kernel's tls
 * unloaded), so that OpenSSL's own TCP_ULP "tls" gets tlsx.
 *
 * A client and a server on loopback complete a handshake (a self-signed
 * P-256 certificate made at start), then OpenSSL must have handed its
 * keys to the kernel on both ends (both directions on TLS 1.2, sending
 * on 1.3, as OpenSSL 3.0 does); data goes both ways through SSL_write
 * and SSL_read and a file through SSL_sendfile, all checked byte for
 * byte, close_notify alerts go both ways, and the ULP's counters show
 * whose sockets they were.  Variants: TLS 1.2 and 1.3, three ciphers,
 * and AES-CCM on TLS 1.2.
 */
#include <pthread.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "tlsx_test.h"
#include "tlsx_modules.h"
#include "tlsx_rec.h"
#include "kselftest_harness.h"

#define XFER_LEN	(300 * 1024 + 77)	/* not a multiple of a record */

FIXTURE(openssl)
{
	int had_tls;
	int cfd, sfd;
	SSL_CTX *cctx, *sctx;
	SSL *c, *s;
	EVP_PKEY *key;
	X509 *cert;
};

FIXTURE_VARIANT(openssl)
{
	const char *ulp;	/* whose "tls" OpenSSL gets */
	int version;
	const char *cipher;	/* 1.2 cipher list or 1.3 suite */
};

FIXTURE_VARIANT_ADD(openssl, tlsx_12_aes128gcm)
{
	.ulp = "tlsx", .version = TLS1_2_VERSION,
	.cipher = "ECDHE-ECDSA-AES128-GCM-SHA256",
};

FIXTURE_VARIANT_ADD(openssl, tlsx_12_aes256gcm)
{
	.ulp = "tlsx", .version = TLS1_2_VERSION,
	.cipher = "ECDHE-ECDSA-AES256-GCM-SHA384",
};

FIXTURE_VARIANT_ADD(openssl, tlsx_12_chacha)
{
	.ulp = "tlsx", .version = TLS1_2_VERSION,
	.cipher = "ECDHE-ECDSA-CHACHA20-POLY1305",
};

/*
 * AES-CCM on TLS 1.2 only: OpenSSL 3.0 hands CCM keys to the kernel for
 * TLS 1.2 alone (ssl/ktls.c refuses TLS 1.3 CCM, "broken on 5.x
 * kernels"); TLS 1.3 CCM runs in the other per-cipher tests.
 */
FIXTURE_VARIANT_ADD(openssl, tlsx_12_aes128ccm)
{
	.ulp = "tlsx", .version = TLS1_2_VERSION,
	.cipher = "ECDHE-ECDSA-AES128-CCM",
};

FIXTURE_VARIANT_ADD(openssl, tlsx_13_aes128gcm)
{
	.ulp = "tlsx", .version = TLS1_3_VERSION,
	.cipher = "TLS_AES_128_GCM_SHA256",
};

FIXTURE_VARIANT_ADD(openssl, tlsx_13_aes256gcm)
{
	.ulp = "tlsx", .version = TLS1_3_VERSION,
	.cipher = "TLS_AES_256_GCM_SHA384",
};

FIXTURE_VARIANT_ADD(openssl, tlsx_13_chacha)
{
	.ulp = "tlsx", .version = TLS1_3_VERSION,
	.cipher = "TLS_CHACHA20_POLY1305_SHA256",
};

FIXTURE_VARIANT_ADD(openssl, tls_12_aes128gcm)
{
	.ulp = "tls", .version = TLS1_2_VERSION,
	.cipher = "ECDHE-ECDSA-AES128-GCM-SHA256",
};

FIXTURE_VARIANT_ADD(openssl, tls_12_aes256gcm)
{
	.ulp = "tls", .version = TLS1_2_VERSION,
	.cipher = "ECDHE-ECDSA-AES256-GCM-SHA384",
};

FIXTURE_VARIANT_ADD(openssl, tls_12_chacha)
{
	.ulp = "tls", .version = TLS1_2_VERSION,
	.cipher = "ECDHE-ECDSA-CHACHA20-POLY1305",
};

FIXTURE_VARIANT_ADD(openssl, tls_12_aes128ccm)
{
	.ulp = "tls", .version = TLS1_2_VERSION,
	.cipher = "ECDHE-ECDSA-AES128-CCM",
};

FIXTURE_VARIANT_ADD(openssl, tls_13_aes128gcm)
{
	.ulp = "tls", .version = TLS1_3_VERSION,
	.cipher = "TLS_AES_128_GCM_SHA256",
};

FIXTURE_VARIANT_ADD(openssl, tls_13_aes256gcm)
{
	.ulp = "tls", .version = TLS1_3_VERSION,
	.cipher = "TLS_AES_256_GCM_SHA384",
};

FIXTURE_VARIANT_ADD(openssl, tls_13_chacha)
{
	.ulp = "tls", .version = TLS1_3_VERSION,
	.cipher = "TLS_CHACHA20_POLY1305_SHA256",
};

/* A self-signed certificate for "tlsx.test" over a new P-256 key. */
static X509 *self_signed(EVP_PKEY *key)
{
	X509 *x = X509_new();
	X509_NAME *name;

	if (!x)
		return NULL;
	name = X509_get_subject_name(x);
	if (!X509_set_version(x, 2) ||
	    !ASN1_INTEGER_set(X509_get_serialNumber(x), 1) ||
	    !X509_gmtime_adj(X509_getm_notBefore(x), -3600) ||
	    !X509_gmtime_adj(X509_getm_notAfter(x), 3600) ||
	    !X509_set_pubkey(x, key) ||
	    !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
					(const unsigned char *)"tlsx.test",
					-1, -1, 0) ||
	    !X509_set_issuer_name(x, name) ||
	    !X509_sign(x, key, EVP_sha256())) {
		X509_free(x);
		return NULL;
	}
	return x;
}

static SSL_CTX *ctx_new(const SSL_METHOD *m,
			const struct _fixture_variant_openssl *v)
{
	SSL_CTX *ctx = SSL_CTX_new(m);

	if (!ctx)
		return NULL;
	SSL_CTX_set_options(ctx, SSL_OP_ENABLE_KTLS);
	SSL_CTX_set_min_proto_version(ctx, v->version);
	SSL_CTX_set_max_proto_version(ctx, v->version);
	if (v->version == TLS1_3_VERSION ?
	    !SSL_CTX_set_ciphersuites(ctx, v->cipher) :
	    !SSL_CTX_set_cipher_list(ctx, v->cipher)) {
		SSL_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

static void *accept_thread(void *arg)
{
	return (void *)(long)SSL_accept(arg);
}

/* Modules as the variant wants them: the kernel's tls, or tlsx as tls. */
static int modules_for(const struct _fixture_variant_openssl *v)
{
	if (!strcmp(v->ulp, "tls"))
		return module_loaded("tls") ? 0 : load_with_modprobe("tls");
	if (unload("tlsx") || unload("tls"))
		return -1;
	return load_tlsx("ulp_name=tls");
}

FIXTURE_SETUP(openssl)
{
	pthread_t t;
	void *ret;

	self->cfd = -1;
	self->sfd = -1;
	self->had_tls = module_loaded("tls");
	ASSERT_EQ(0, modules_for(variant)) {
		TH_LOG("cannot set up the modules for %s", variant->ulp);
	}
	self->key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	ASSERT_NE(NULL, self->key);
	self->cert = self_signed(self->key);
	ASSERT_NE(NULL, self->cert);
	self->sctx = ctx_new(TLS_server_method(), variant);
	self->cctx = ctx_new(TLS_client_method(), variant);
	ASSERT_NE(NULL, self->sctx);
	ASSERT_NE(NULL, self->cctx);
	ASSERT_EQ(1, SSL_CTX_use_certificate(self->sctx, self->cert));
	ASSERT_EQ(1, SSL_CTX_use_PrivateKey(self->sctx, self->key));

	ASSERT_EQ(0, tcp_pair(&self->cfd, &self->sfd));
	self->c = SSL_new(self->cctx);
	self->s = SSL_new(self->sctx);
	ASSERT_NE(NULL, self->c);
	ASSERT_NE(NULL, self->s);
	ASSERT_EQ(1, SSL_set_fd(self->c, self->cfd));
	ASSERT_EQ(1, SSL_set_fd(self->s, self->sfd));
	ASSERT_EQ(0, pthread_create(&t, NULL, accept_thread, self->s));
	EXPECT_EQ(1, SSL_connect(self->c)) {
		ERR_print_errors_fp(stderr);
	}
	pthread_join(t, &ret);
	ASSERT_EQ(1, (long)ret) {
		ERR_print_errors_fp(stderr);
	}
}

/* Back to the usual state: tlsx as "tlsx", the kernel's tls as found. */
FIXTURE_TEARDOWN(openssl)
{
	SSL_free(self->c);
	SSL_free(self->s);
	SSL_CTX_free(self->cctx);
	SSL_CTX_free(self->sctx);
	X509_free(self->cert);
	EVP_PKEY_free(self->key);
	if (self->cfd >= 0)
		close(self->cfd);
	if (self->sfd >= 0)
		close(self->sfd);
	if (!strcmp(variant->ulp, "tlsx")) {
		unload("tlsx");
		load_tlsx("");
	}
	if (self->had_tls && !module_loaded("tls"))
		load_with_modprobe("tls");
}

static unsigned char xfer_byte(size_t i)
{
	return (unsigned char)(i * 131 + (i >> 9));
}

/* SSL_write all of @buf on @ssl; SSL_read_ex exactly @len into @out. */
struct xfer {
	SSL *ssl;
	unsigned char *buf;
	size_t len;
	int ok;
};

static void *write_all(void *arg)
{
	struct xfer *x = arg;
	size_t off = 0, n;

	while (off < x->len) {
		if (!SSL_write_ex(x->ssl, x->buf + off, x->len - off, &n))
			return NULL;
		off += n;
	}
	x->ok = 1;
	return NULL;
}

static int read_all(SSL *ssl, unsigned char *out, size_t len)
{
	size_t off = 0, n;

	while (off < len) {
		if (!SSL_read_ex(ssl, out + off, len - off, &n))
			return -1;
		off += n;
	}
	return 0;
}

/* @len bytes from @from to @to, checked: 0 or -1. */
static int transfer(SSL *from, SSL *to, size_t len)
{
	unsigned char *in = malloc(len), *out = malloc(len);
	struct xfer x = { .ssl = from, .buf = in, .len = len };
	pthread_t t;
	size_t i;
	int ret = -1;

	if (!in || !out)
		goto out;
	for (i = 0; i < len; i++)
		in[i] = xfer_byte(i);
	if (pthread_create(&t, NULL, write_all, &x))
		goto out;
	ret = read_all(to, out, len);
	pthread_join(t, NULL);
	if (!x.ok || memcmp(in, out, len))
		ret = -1;
out:
	free(in);
	free(out);
	return ret;
}

/*
 * Both ends send through the ULP and the data is right.  OpenSSL 3.0
 * hands the kernel receive keys for TLS 1.2 only (TLS 1.3 receive
 * offload came with 3.2): on 1.3 each end opens in userspace what the
 * other's kernel sealed, which holds the ULP's records to OpenSSL's.
 */
TEST_F(openssl, ktls_both_ways)
{
	int rx = variant->version == TLS1_2_VERSION;

	EXPECT_EQ(1, BIO_get_ktls_send(SSL_get_wbio(self->c)));
	EXPECT_EQ(1, BIO_get_ktls_send(SSL_get_wbio(self->s)));
	EXPECT_EQ(rx, BIO_get_ktls_recv(SSL_get_rbio(self->c)));
	EXPECT_EQ(rx, BIO_get_ktls_recv(SSL_get_rbio(self->s)));
	/* The ULP's counters: these sockets are its. */
	EXPECT_LE(2, ulp_stat(variant->ulp, "TlsCurrTxSw"));
	EXPECT_LE(2 * rx, ulp_stat(variant->ulp, "TlsCurrRxSw"));
	EXPECT_EQ(0, transfer(self->c, self->s, XFER_LEN));
	EXPECT_EQ(0, transfer(self->s, self->c, XFER_LEN));
}

struct sendfile_job {
	SSL *ssl;
	int fd;
	ossl_ssize_t n;
};

static void *sendfile_thread(void *arg)
{
	struct sendfile_job *j = arg;

	j->n = SSL_sendfile(j->ssl, j->fd, 0, XFER_LEN, 0);
	return NULL;
}

/* SSL_sendfile: the file goes from the page cache through the ULP. */
TEST_F(openssl, sendfile_through_ktls)
{
	char path[] = "/tmp/tlsx-openssl-XXXXXX";
	unsigned char *data = malloc(XFER_LEN), *got = malloc(XFER_LEN);
	struct sendfile_job j = { .ssl = self->s };
	pthread_t t;
	size_t i;

	ASSERT_NE(NULL, data);
	ASSERT_NE(NULL, got);
	for (i = 0; i < XFER_LEN; i++)
		data[i] = xfer_byte(i * 3);
	j.fd = mkstemp(path);
	ASSERT_LE(0, j.fd);
	unlink(path);
	ASSERT_EQ(XFER_LEN, write(j.fd, data, XFER_LEN));
	ASSERT_EQ(1, BIO_get_ktls_send(SSL_get_wbio(self->s)));
	ASSERT_EQ(0, pthread_create(&t, NULL, sendfile_thread, &j));
	EXPECT_EQ(0, read_all(self->c, got, XFER_LEN));
	pthread_join(t, NULL);
	EXPECT_EQ(XFER_LEN, j.n) {
		ERR_print_errors_fp(stderr);
	}
	EXPECT_EQ(0, memcmp(data, got, XFER_LEN));
	close(j.fd);
	free(data);
	free(got);
}

/* close_notify both ways: an alert record through the ULP, then EOF. */
TEST_F(openssl, shutdown_alerts)
{
	char buf[8];
	int ret;

	ASSERT_EQ(0, transfer(self->c, self->s, 1000));
	EXPECT_EQ(0, SSL_shutdown(self->c));
	ret = SSL_read(self->s, buf, sizeof(buf));
	EXPECT_EQ(0, ret);
	EXPECT_EQ(SSL_ERROR_ZERO_RETURN, SSL_get_error(self->s, ret));
	EXPECT_EQ(1, SSL_shutdown(self->s));
	EXPECT_EQ(1, SSL_shutdown(self->c));
}

TEST_HARNESS_MAIN
