// SPDX-License-Identifier: GPL-2.0
/*
 * handshake_ossl.c - the anchor: one TLS 1.3 handshake with OpenSSL's
 * libssl, client and server in one loop over two memory BIOs (each
 * party's write BIO is the other's read BIO, so no bytes are copied
 * between them).
 *
 * As a TLS server and client set up for speed would be: one SSL_CTX per
 * party made once per row, an SSL object per handshake; TLS 1.3 only,
 * TLS_AES_128_GCM_SHA256 only, the row's group only, the row's
 * signature scheme only (the RSA row also lists rsa_pkcs1_sha256 for the
 * certificate's own signature), the client verifying the chain against
 * the CA and the name (SSL_set1_host), no session cache on either side.
 * Full rows issue no ticket (SSL_CTX_set_num_tickets(0); note that
 * SSL_OP_NO_TICKET would make TLS 1.3 tickets stateful, not absent);
 * resumption rows issue one per handshake, stateless, and the client
 * reads it (SSL_read), as a client that keeps its session does.  Every
 * resumed handshake offers the one session saved at setup.
 *
 * psk_ke: OpenSSL 3.0's client always offers psk_dhe_ke, also with
 * SSL_OP_ALLOW_NO_DHE_KEX (which adds psk_ke), and its server then takes
 * psk_dhe_ke; so libssl against itself cannot do psk_ke, and that row's
 * OpenSSL figure is a psk_dhe_ke resumption.  setup() checks what was
 * negotiated and says so in its note.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

#include "handshake.h"

struct ossl_state {
	const struct hsb_row *row;
	SSL_CTX *cctx, *sctx;
	SSL_SESSION *sess;
	char err[HSB_ERR_LEN];
	char note[HSB_ERR_LEN];
};

/* What setup() checks after a handshake, read before the SSLs go. */
struct ossl_facts {
	bool reused;
	int group;		/* NID, 0 for none */
	int sig_nid;		/* the server's CertificateVerify hash/type */
	const char *suite;
	SSL_SESSION *sess;	/* the client's session, if asked for */
};

static void ossl_fail(struct ossl_state *s, const char *what)
{
	unsigned long e = ERR_get_error();
	char buf[160];

	ERR_error_string_n(e, buf, sizeof(buf));
	snprintf(s->err, sizeof(s->err), "%s%s%s", what, e ? ": " : "",
		 e ? buf : "");
	ERR_clear_error();
}

/* OpenSSL 3.0 has no ML-KEM: the hybrid rows' anchor is X25519. */
static const char *const groups[] = {
	[HSB_X25519] = "X25519",
	[HSB_SECP256R1] = "P-256",
	[HSB_X25519MLKEM768] = "X25519",
};

static const char *const sigalgs[] = {
	[HSB_KEY_ECDSA_P256] = "ECDSA+SHA256",
	[HSB_KEY_ED25519] = "ed25519",
	[HSB_KEY_RSA2048] = "rsa_pss_rsae_sha256:rsa_pkcs1_sha256",
};

static int ctx_common(SSL_CTX *ctx, const struct hsb_row *row)
{
	if (SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION) != 1 ||
	    SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION) != 1 ||
	    SSL_CTX_set_ciphersuites(ctx, "TLS_AES_128_GCM_SHA256") != 1 ||
	    SSL_CTX_set1_groups_list(ctx, groups[row->group]) != 1 ||
	    SSL_CTX_set1_sigalgs_list(ctx, sigalgs[row->key]) != 1)
		return -1;
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	if (row->mode == HSB_PSK_KE)
		SSL_CTX_set_options(ctx, SSL_OP_ALLOW_NO_DHE_KEX);
	return 0;
}

static int ossl_ctxs(struct ossl_state *s, const struct hsb_creds *c)
{
	const struct hsb_row *row = s->row;

	s->sctx = SSL_CTX_new(TLS_server_method());
	s->cctx = SSL_CTX_new(TLS_client_method());
	if (!s->sctx || !s->cctx)
		return -1;
	if (ctx_common(s->sctx, row) || ctx_common(s->cctx, row))
		return -1;
	if (SSL_CTX_use_certificate(s->sctx, c->leaf) != 1 ||
	    SSL_CTX_use_PrivateKey(s->sctx, c->leaf_key) != 1 ||
	    SSL_CTX_check_private_key(s->sctx) != 1)
		return -1;
	if (SSL_CTX_set_num_tickets(s->sctx, row->mode == HSB_FULL ? 0 : 1)
	    != 1)
		return -1;
	SSL_CTX_set_verify(s->cctx, SSL_VERIFY_PEER, NULL);
	if (X509_STORE_add_cert(SSL_CTX_get_cert_store(s->cctx), c->ca) != 1)
		return -1;
	return 0;
}

/* One SSL_do_handshake() of one party: 1 done, 0 wants input, -1 fails. */
static int ossl_step(SSL *ssl, uint64_t *acc, enum hsb_party p)
{
	uint64_t t0 = hsb_enter(p);
	int r = SSL_do_handshake(ssl);

	if (r != 1)
		r = SSL_get_error(ssl, r) == SSL_ERROR_WANT_READ ? 0 : -1;
	hsb_leave(acc, t0);
	return r;
}

/*
 * The client reads what the server sent after its Finished: the
 * NewSessionTicket (no application data comes, so SSL_read() ends with
 * WANT_READ once the ticket is processed).
 */
static int ossl_read_ticket(SSL *ssl, uint64_t *acc)
{
	uint64_t t0 = hsb_enter(HSB_CLIENT);
	unsigned char b;
	int r = SSL_read(ssl, &b, 1);

	r = r <= 0 && SSL_get_error(ssl, r) == SSL_ERROR_WANT_READ ? 0 : -1;
	hsb_leave(acc, t0);
	return r;
}

static int ossl_pair(struct ossl_state *s, struct hsb_times *t,
		     struct ossl_facts *f)
{
	SSL *cs = NULL, *ss = NULL;
	BIO *c2s = NULL, *s2c = NULL;
	int cr = 0, sr = 0, i, ret = -1;
	uint64_t t0;

	t0 = hsb_enter(HSB_CLIENT);
	c2s = BIO_new(BIO_s_mem());
	cs = SSL_new(s->cctx);
	if (cs) {
		SSL_set_connect_state(cs);
		if (SSL_set_tlsext_host_name(cs, HSB_HOST) != 1 ||
		    SSL_set1_host(cs, HSB_HOST) != 1 ||
		    (s->sess && SSL_set_session(cs, s->sess) != 1)) {
			SSL_free(cs);
			cs = NULL;
		}
	}
	hsb_leave(&t->client, t0);
	t0 = hsb_enter(HSB_SERVER);
	s2c = BIO_new(BIO_s_mem());
	ss = SSL_new(s->sctx);
	if (ss)
		SSL_set_accept_state(ss);
	hsb_leave(&t->server, t0);
	if (!cs || !ss || !c2s || !s2c) {
		ossl_fail(s, "SSL_new or BIO_new");
		BIO_free(c2s);
		BIO_free(s2c);
		goto out;
	}
	/* Each SSL takes one reference of each BIO. */
	BIO_up_ref(c2s);
	BIO_up_ref(s2c);
	SSL_set_bio(cs, s2c, c2s);
	SSL_set_bio(ss, c2s, s2c);

	/* Client, server, client, server: done in two round trips. */
	for (i = 0; i < 8 && (cr != 1 || sr != 1); i++) {
		if (cr != 1)
			cr = ossl_step(cs, &t->client, HSB_CLIENT);
		if (cr >= 0 && sr != 1)
			sr = ossl_step(ss, &t->server, HSB_SERVER);
		if (cr < 0 || sr < 0) {
			ossl_fail(s, cr < 0 ? "client handshake" :
				  "server handshake");
			goto out;
		}
	}
	if (cr != 1 || sr != 1) {
		snprintf(s->err, sizeof(s->err), "handshake stalled");
		goto out;
	}
	if (s->row->mode != HSB_FULL && ossl_read_ticket(cs, &t->client)) {
		ossl_fail(s, "client reading the ticket");
		goto out;
	}
	if (f) {
		f->reused = SSL_session_reused(cs) == 1;
		f->group = SSL_get_negotiated_group(cs);
		if (SSL_get_peer_signature_type_nid(cs, &f->sig_nid) != 1)
			f->sig_nid = 0;
		f->suite = SSL_CIPHER_get_name(SSL_get_current_cipher(cs));
		f->sess = SSL_get1_session(cs);
	}
	hsb_heap_mark();
	/*
	 * Closed without close_notify, as tlsx's side is, but not as a
	 * failed connection: SSL_free() would mark the session not
	 * resumable otherwise.
	 */
	SSL_set_shutdown(cs, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	SSL_set_shutdown(ss, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	ret = 0;
out:
	t0 = hsb_enter(HSB_CLIENT);
	SSL_free(cs);
	hsb_leave(&t->client, t0);
	t0 = hsb_enter(HSB_SERVER);
	SSL_free(ss);
	hsb_leave(&t->server, t0);
	return ret;
}

static void ossl_teardown(void *p)
{
	struct ossl_state *s = p;

	if (!s)
		return;
	SSL_SESSION_free(s->sess);
	SSL_CTX_free(s->cctx);
	SSL_CTX_free(s->sctx);
	free(s);
}

static const char *const scheme_names[] = {
	[HSB_KEY_ECDSA_P256] = "ecdsa_secp256r1_sha256",
	[HSB_KEY_ED25519] = "ed25519",
	[HSB_KEY_RSA2048] = "rsa_pss_rsae_sha256",
};

/* What SSL_get_peer_signature_type_nid() gives for each. */
static const int sig_nids[] = {
	[HSB_KEY_ECDSA_P256] = NID_X9_62_id_ecPublicKey,
	[HSB_KEY_ED25519] = NID_ED25519,
	[HSB_KEY_RSA2048] = NID_rsassaPss,
};

/* The facts of a handshake against what @row asks for. */
static int ossl_check(struct ossl_state *s, const struct ossl_facts *f,
		      bool resumed)
{
	const int want_group = s->row->group == HSB_SECP256R1 ?
			       NID_X9_62_prime256v1 : NID_X25519;

	if (strcmp(f->suite ? f->suite : "", "TLS_AES_128_GCM_SHA256")) {
		snprintf(s->err, sizeof(s->err), "negotiated %s", f->suite);
		return -1;
	}
	if (f->reused != resumed) {
		snprintf(s->err, sizeof(s->err), "%s",
			 resumed ? "session not resumed" : "resumed");
		return -1;
	}
	/* A resumption has no CertificateVerify to report. */
	if (!resumed && f->sig_nid != sig_nids[s->row->key]) {
		snprintf(s->err, sizeof(s->err), "signature type %s",
			 OBJ_nid2sn(f->sig_nid));
		return -1;
	}
	if (f->group != want_group && !(resumed && !f->group &&
					s->row->mode == HSB_PSK_KE)) {
		snprintf(s->err, sizeof(s->err), "group %s",
			 f->group ? OBJ_nid2sn(f->group) : "none");
		return -1;
	}
	return 0;
}

static void *ossl_setup(const struct hsb_row *row, const struct hsb_creds *c,
			char err[HSB_ERR_LEN])
{
	struct ossl_state *s = calloc(1, sizeof(*s));
	struct ossl_facts f = { 0 };
	struct hsb_times t = { 0, 0 };

	if (!s) {
		snprintf(err, HSB_ERR_LEN, "out of memory");
		return NULL;
	}
	s->row = row;
	if (ossl_ctxs(s, c)) {
		ossl_fail(s, "SSL_CTX setup");
		goto fail;
	}
	if (ossl_pair(s, &t, &f) || ossl_check(s, &f, false))
		goto fail;
	if (row->mode == HSB_FULL) {
		SSL_SESSION_free(f.sess);
		snprintf(s->note, sizeof(s->note), "full, %s",
			 scheme_names[row->key]);
		return s;
	}
	if (!f.sess || !SSL_SESSION_is_resumable(f.sess)) {
		snprintf(s->err, sizeof(s->err), "no ticket received");
		goto fail;
	}
	s->sess = f.sess;
	memset(&f, 0, sizeof(f));
	if (ossl_pair(s, &t, &f) || ossl_check(s, &f, true))
		goto fail;
	SSL_SESSION_free(f.sess);
	snprintf(s->note, sizeof(s->note), "resumed with %s%s",
		 f.group ? "psk_dhe_ke, " : "psk_ke",
		 f.group ? OBJ_nid2sn(f.group) : "");
	return s;
fail:
	SSL_SESSION_free(f.sess);
	snprintf(err, HSB_ERR_LEN, "%s", s->err);
	ossl_teardown(s);
	return NULL;
}

static int ossl_run(void *p, struct hsb_times *t)
{
	return ossl_pair(p, t, NULL);
}

static const char *ossl_error(void *p)
{
	return ((struct ossl_state *)p)->err;
}

static const char *ossl_note(void *p)
{
	return ((struct ossl_state *)p)->note;
}

const struct hsb_impl hsb_openssl = {
	.name = "openssl",
	.setup = ossl_setup,
	.run = ossl_run,
	.error = ossl_error,
	.note = ossl_note,
	.teardown = ossl_teardown,
};
