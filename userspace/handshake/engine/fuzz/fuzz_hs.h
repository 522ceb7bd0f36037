/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_hs.h - what the engine's fuzz targets (fuzz_client.c,
 * fuzz_server.c) and their seed generator (tools/gen/hs_fuzz_seeds.c)
 * share: the configurations, the deterministic randomness, the fixed
 * clock and ticket keys, and the input format.  Everything here must
 * be the same in the generator and the targets, or the recorded flights
 * stop matching the engine that replays them (its Random and key shares
 * are in the peer's transcript).
 *
 * The input, after one configuration byte (FZ_C_* / FZ_S_* bits):
 *
 *	chunk = kind:u8 len:u16 bytes[len]	(len cut at the input's end)
 *
 * kind 0: @bytes go to the engine as they are (the fuzzer writes record
 * headers, splits and joins records).  Otherwise one record of content
 * type kind & 0x7f is built around @bytes: protected under the key the
 * engine reads with, if it has one and bit 0x80 is clear, plaintext
 * otherwise.  So the fuzzer mutates the plaintext of the encrypted
 * flight (EncryptedExtensions, Certificate, ...) and still gets past
 * the AEAD.  After each chunk the engine is stepped on everything
 * not yet consumed.
 *
 * Static inline functions in a header: each target is one translation
 * unit, and not every one uses all of them.
 */
#ifndef TLSX_HS_FUZZ_HS_H
#define TLSX_HS_FUZZ_HS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"
#include "handshake/engine/ticket.h"
#include "handshake/engine/test/test_data.h"

/* 2027-01-01 00:00:00 UTC: inside the test certificates' validity. */
#define FZ_NOW		1798761600LL
#define FZ_HOST		"www.example.com"

/* Client configuration bits. */
#define FZ_C_CHAIN	0x01	/* a certificate for a CertificateRequest */
#define FZ_C_SESSION	0x02	/* resume fz_session */
#define FZ_C_PSK_KE	0x04	/* also offer psk_ke */
/* Issue 30's hybrids (the default client offers X25519MLKEM768 already). */
#define FZ_C_P256MLKEM	0x08	/* SecP256r1MLKEM768 and P-256 shares */
#define FZ_C_PQ_LATE	0x10	/* x25519's share, X25519MLKEM768 listed */
/* Server configuration bits. */
#define FZ_S_VERIFY	0x01	/* CertificateRequest, a chain required */
#define FZ_S_P256	0x02	/* P-256 only: an X25519 share gets HRR */
#define FZ_S_TICKETS	0x04	/* tickets, fz_keys */
#define FZ_S_PSK_KE	0x08	/* allow psk_ke */
#define FZ_S_P256MLKEM	0x10	/* SecP256r1MLKEM768 first, then defaults */

#define FZ_CHUNK_HDR	3
#define FZ_KIND_PLAIN	0x80

/* --- randomness: a counter through splitmix64, reset per connection ------- */

struct fz_rand {
	u64 ctr;
};

static inline int fz_rand_fn(void *ctx, void *buf, size_t len)
{
	struct fz_rand *r = ctx;
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		u64 z = (r->ctr++ + 1) * 0x9e3779b97f4a7c15ULL;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		p[i] = (u8)(z ^ (z >> 31));
	}
	return 0;
}

/* --- fixtures, loaded once ------------------------------------------------ */

struct fz_fixtures {
	struct tlsx_cert_chain server_chain, client_chain, client_rsa;
	struct tlsx_trust trust;
	struct tlsx_ticket_keys *keys;
	struct tlsx_session session;	/* a ticket of fz_keys */
	bool have_session;
};

static struct fz_fixtures fz;

/*
 * test/data/@name, whole (test_data.h's slurp()), from the top of the
 * tree or from up to two levels below it, where the fuzzers may be run.
 */
static inline char *fz_slurp(const char *name, size_t *len)
{
	static const char *const up[] = { "", "../", "../../" };
	char path[512];
	unsigned int i;
	char *p;

	for (i = 0; i < ARRAY_SIZE(up); i++) {
		snprintf(path, sizeof(path),
			 "%suserspace/handshake/engine/test/data/%s", up[i], name);
		p = slurp(path, len);
		if (p)
			return p;
	}
	return NULL;
}

static inline int fz_chain(struct tlsx_cert_chain *c, const char *leaf,
			   const char *inter, const char *key)
{
	char *a, *b, *k, *both;
	size_t al = 0, bl = 0, kl = 0;
	int ret = -1;

	a = fz_slurp(leaf, &al);
	b = fz_slurp(inter, &bl);
	k = fz_slurp(key, &kl);
	both = malloc(al + bl + 1);
	if (a && b && k && both) {
		memcpy(both, a, al);
		memcpy(both + al, b, bl);
		ret = tlsx_cert_chain_load_mem(c, both, al + bl, k, kl, NULL);
	}
	free(a);
	free(b);
	free(k);
	free(both);
	return ret;
}

/* Fixed ticket keys: the 80-byte key file format, from a counter. */
static inline struct tlsx_ticket_keys *fz_ticket_keys(void)
{
	char path[] = "/tmp/tlsx-fuzz-keys-XXXXXX";
	struct tlsx_ticket_keys *k = NULL;
	u8 key[80];
	unsigned int i;
	int fd;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (u8)(i * 7 + 1);
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, key, sizeof(key)) == (ssize_t)sizeof(key))
		k = tlsx_ticket_keys_load(path, NULL);
	close(fd);
	unlink(path);
	return k;
}

static const u8 fz_alpn[] = "\x02h2\x08http/1.1";

static inline void fz_client_config(struct tlsx_hs_config *cfg,
				    unsigned int bits, struct fz_rand *r)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->trust = &fz.trust;
	memcpy(cfg->alpn, fz_alpn, sizeof(fz_alpn) - 1);
	cfg->alpn_len = sizeof(fz_alpn) - 1;
	cfg->record_size_limit = 4096;
	/*
	 * An ECDSA chain, then an RSA one the fuzzed CertificateRequest
	 * may choose instead (chain_pick.c); the peer's chain kept.
	 */
	if (bits & FZ_C_CHAIN) {
		cfg->chains[0] = &fz.client_chain;
		cfg->chains[1] = &fz.client_rsa;
		cfg->n_chains = 2;
	}
	cfg->keep_peer_chain = true;
	if (bits & FZ_C_P256MLKEM) {
		cfg->groups[0] = TLSX_GROUP_SECP256R1MLKEM768;
		cfg->groups[1] = TLSX_GROUP_SECP256R1;
		cfg->n_groups = 2;
	} else if (bits & FZ_C_PQ_LATE) {
		/* The server prefers the hybrid: a HelloRetryRequest. */
		cfg->groups[0] = TLSX_GROUP_X25519;
		cfg->groups[1] = TLSX_GROUP_X25519MLKEM768;
		cfg->n_groups = 2;
		cfg->key_shares = 1;
	}
	cfg->allow_psk_ke = bits & FZ_C_PSK_KE;
	cfg->rand = fz_rand_fn;
	cfg->rand_ctx = r;
}

static inline void fz_server_config(struct tlsx_hs_config *cfg,
				    unsigned int bits, struct fz_rand *r)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->server = true;
	cfg->chains[0] = &fz.server_chain;
	cfg->n_chains = 1;
	memcpy(cfg->alpn, fz_alpn, sizeof(fz_alpn) - 1);
	cfg->alpn_len = sizeof(fz_alpn) - 1;
	cfg->record_size_limit = 4096;
	if (bits & FZ_S_VERIFY) {
		cfg->trust = &fz.trust;
		cfg->verify_peer = true;
		cfg->require_peer_cert = true;
		cfg->keep_peer_chain = true;
	}
	if (bits & FZ_S_P256) {
		cfg->groups[0] = TLSX_GROUP_SECP256R1;
		cfg->n_groups = 1;
	} else if (bits & FZ_S_P256MLKEM) {
		cfg->groups[0] = TLSX_GROUP_SECP256R1MLKEM768;
		cfg->groups[1] = TLSX_GROUP_X25519MLKEM768;
		cfg->groups[2] = TLSX_GROUP_X25519;
		cfg->groups[3] = TLSX_GROUP_SECP256R1;
		cfg->n_groups = 4;
	}
	if (bits & FZ_S_TICKETS) {
		cfg->tickets = fz.keys;
		cfg->tickets_per_handshake = 1;
		cfg->ticket_lifetime = 7200;
	}
	cfg->allow_psk_ke = bits & FZ_S_PSK_KE;
	/* So that the psk_ke path stays reachable: the client offers both. */
	cfg->prefer_psk_ke = bits & FZ_S_PSK_KE;
	cfg->rand = fz_rand_fn;
	cfg->rand_ctx = r;
}

/* A new client of configuration @bits, time and name set; NULL: error. */
static inline struct tlsx_hs *fz_client(struct tlsx_hs_config *cfg,
					unsigned int bits, struct fz_rand *r)
{
	struct tlsx_hs *hs;

	fz_client_config(cfg, bits, r);
	hs = tlsx_hs_new(cfg);
	if (!hs)
		return NULL;
	tlsx_hs_set_time(hs, FZ_NOW);
	if (tlsx_hs_set_server_name(hs, FZ_HOST) ||
	    ((bits & FZ_C_SESSION) && fz.have_session &&
	     tlsx_hs_set_session(hs, &fz.session))) {
		tlsx_hs_free(hs);
		return NULL;
	}
	return hs;
}

/*
 * The HelloRetryRequest cookie's MAC key is drawn from the system once
 * per process (server_role.c), so a recorded ClientHello2 would carry a
 * cookie no other process takes: the test seam's fixed cookie instead.
 * The check that it comes back unchanged still runs.
 */
static const struct hs_test_hooks fz_hooks = {
	.hrr_cookie = (const u8 *)"tlsx fuzz cookie",
	.hrr_cookie_len = 16,
};

static inline struct tlsx_hs *fz_server(struct tlsx_hs_config *cfg,
					unsigned int bits, struct fz_rand *r)
{
	struct tlsx_hs *hs;

	fz_server_config(cfg, bits, r);
	hs = tlsx_hs_new(cfg);
	if (hs) {
		hs->test = &fz_hooks;
		tlsx_hs_set_time(hs, FZ_NOW);
	}
	return hs;
}

/* --- a tlsx client against a tlsx server, in memory ----------------------- */

struct fz_pair {
	struct tlsx_hs_config ccfg, scfg;
	struct fz_rand cr, sr;
	struct tlsx_hs *c, *s;
	int cret, sret;
	/* Each side's pending input. */
	u8 c_in[65536], s_in[65536];
	size_t c_in_len, s_in_len;
	u8 out[TLSX_HS_OUT_MIN];
	/* Called with each record before the receiver takes it. */
	void (*tap)(void *ctx, struct tlsx_hs *to, const u8 *rec, size_t len);
	void *tap_ctx;
};

/* The whole records at the start of @in[0..@len): their total length. */
static inline size_t fz_whole_record(const u8 *in, size_t len)
{
	size_t body;

	if (len < TLSX_REC_HDR)
		return 0;
	body = (size_t)in[3] << 8 | in[4];
	return len < TLSX_REC_HDR + body ? 0 : TLSX_REC_HDR + body;
}

/* One side: its input record by record (each tapped first). */
static inline int fz_pair_side(struct fz_pair *p, struct tlsx_hs *hs,
			       u8 *in, size_t *in_len, u8 *to,
			       size_t *to_len)
{
	size_t used, n, rec;
	int ret;

	/* First call: nothing in, the client's ClientHello out. */
	do {
		rec = fz_whole_record(in, *in_len);
		if (rec && p->tap)
			p->tap(p->tap_ctx, hs, in, rec);
		ret = tlsx_hs_step(hs, in, rec, &used, p->out,
				   sizeof(p->out), &n);
		if (used != rec && ret == TLSX_HS_WANT_READ)
			return -EPROTO;	/* a whole record not taken */
		memmove(in, in + used, *in_len - used);
		*in_len -= used;
		if (n > 65536 - *to_len)
			return -ENOSPC;
		memcpy(to + *to_len, p->out, n);
		*to_len += n;
	} while (ret == TLSX_HS_WANT_READ && fz_whole_record(in, *in_len));
	return ret;
}

static inline void fz_pair_run(struct fz_pair *p)
{
	int i;

	p->cret = p->sret = TLSX_HS_WANT_READ;
	for (i = 0; i < 20; i++) {
		if (p->cret == TLSX_HS_WANT_READ)
			p->cret = fz_pair_side(p, p->c, p->c_in, &p->c_in_len,
					       p->s_in, &p->s_in_len);
		if (p->sret == TLSX_HS_WANT_READ)
			p->sret = fz_pair_side(p, p->s, p->s_in, &p->s_in_len,
					       p->c_in, &p->c_in_len);
		if (p->cret != TLSX_HS_WANT_READ &&
		    p->sret != TLSX_HS_WANT_READ)
			return;
	}
}

static inline void fz_pair_free(struct fz_pair *p)
{
	tlsx_hs_free(p->c);
	tlsx_hs_free(p->s);
	p->c = p->s = NULL;
}

/*
 * fz.session: a full handshake (client 0, server FZ_S_TICKETS), the
 * server's first NewSessionTicket taken by the client.
 */
static inline int fz_make_session(struct fz_pair *p)
{
	struct tlsx_hs_secrets sec;
	u8 nst[2048];
	size_t len;
	int ret = -1;

	memset(p, 0, sizeof(*p));
	p->c = fz_client(&p->ccfg, 0, &p->cr);
	p->s = fz_server(&p->scfg, FZ_S_TICKETS, &p->sr);
	if (!p->c || !p->s)
		goto out;
	fz_pair_run(p);
	if (p->cret != TLSX_HS_DONE || p->sret != TLSX_HS_DONE)
		goto out;
	if (tlsx_hs_tickets(p->s, nst, sizeof(nst), &len) || !len)
		goto out;
	if (tlsx_hs_secrets(p->c, &sec))
		goto out;
	ret = tlsx_session_from_ticket(&sec, FZ_HOST, (const u8 *)"h2", nst,
				       len, FZ_NOW, &fz.session);
	tlsx_hs_secrets_wipe(&sec);
	fz.have_session = !ret;
out:
	fz_pair_free(p);
	return ret;
}

static struct fz_pair fz_pair;

/* Loads the fixtures once; aborts when the tree's data is not found. */
static inline void fz_init(void)
{
	size_t len;
	char *pem;

	if (fz_chain(&fz.server_chain, "p256-leaf.pem", "p256-int.pem",
		     "p256-leaf.key") ||
	    fz_chain(&fz.client_chain, "client-leaf.pem", "p256-int.pem",
		     "p256-leaf.key") ||
	    fz_chain(&fz.client_rsa, "rsa-leaf.pem", "rsa-int.pem",
		     "rsa-leaf.key")) {
		fprintf(stderr, "fuzz: no test/data (run from the top)\n");
		abort();
	}
	pem = fz_slurp("p256-root.pem", &len);
	if (!pem || tlsx_trust_load_mem(&fz.trust, pem, len, NULL))
		abort();
	free(pem);
	fz.keys = fz_ticket_keys();
	if (!fz.keys || fz_make_session(&fz_pair)) {
		fprintf(stderr, "fuzz: no ticket keys or session\n");
		abort();
	}
}

/* --- feeding the engine one chunk at a time ------------------------------- */

struct fz_feeder {
	struct tlsx_hs *hs;
	struct tlsx_rec_dir pw;		/* the peer's writer: hs->rd's twin */
	u8 in[4 * TLSX_REC_MAX];
	size_t in_len;
	u8 out[TLSX_HS_OUT_MIN];
	size_t out_len;
	u8 rec[TLSX_REC_MAX + 64];
};

/* Appends chunk @kind/@p[0..@len) to the engine's pending input. */
static inline void fz_add_chunk(struct fz_feeder *f, u8 kind, const u8 *p,
				size_t len)
{
	struct tlsx_hs *hs = f->hs;
	size_t n = 0, room = sizeof(f->in) - f->in_len;
	u8 type = kind & 0x7f;

	if (!kind) {
		n = len < room ? len : room;
		memcpy(f->in + f->in_len, p, n);
		f->in_len += n;
		return;
	}
	if (hs->rd.set && !(kind & FZ_KIND_PLAIN)) {
		/*
		 * A new read key (its IV differs): the peer's write side
		 * starts over with it at sequence number 0.
		 */
		if (!f->pw.set || memcmp(f->pw.iv, hs->rd.iv, TLSX_IV_SIZE)) {
			f->pw = hs->rd;
			f->pw.seq = 0;
		}
		if (tlsx_rec_seal(&f->pw, type, p, len, 0, f->rec,
				  sizeof(f->rec), &n))
			return;
	} else {
		if (len > TLSX_REC_MAX_CIPHER)
			len = TLSX_REC_MAX_CIPHER;
		f->rec[0] = type;
		f->rec[1] = 3;
		f->rec[2] = 3;
		f->rec[3] = (u8)(len >> 8);
		f->rec[4] = (u8)len;
		memcpy(f->rec + TLSX_REC_HDR, p, len);
		n = TLSX_REC_HDR + len;
	}
	if (n > room)
		return;
	memcpy(f->in + f->in_len, f->rec, n);
	f->in_len += n;
}

/*
 * RFC 8446 6.2's contract of an error: the alert is one RFC 8446 names
 * (never close_notify, which is no error), written once as the whole
 * output, and the error is sticky.  A broken promise aborts.
 */
static const u8 fz_ccs[6] = { TLSX_CT_CHANGE_CIPHER_SPEC, 3, 3, 0, 1, 1 };

static inline void fz_check_error(struct fz_feeder *f, int ret)
{
	struct tlsx_hs *hs = f->hs;
	int alert = tlsx_hs_alert(hs);
	size_t used, n;

	if (ret == -ENOSPC)
		abort();	/* our buffer is TLSX_HS_OUT_MIN */
	if (alert < 0 || alert > 255)
		abort();
	if (tlsx_hs_alert_received(hs)) {
		if (f->out_len || ret != -TLSX_HS_EALERT(alert))
			abort();
	} else {
		if (!tlsx_alert_name(alert) ||
		    alert == TLSX_ALERT_CLOSE_NOTIFY)
			abort();
		/*
		 * A local error on the peer's bytes (internal_error) means
		 * the engine took input it should have refused with the
		 * peer's alert, or has a bug: a finding too.
		 */
		if (ret > -TLSX_HS_EALERT_BASE || alert ==
		    TLSX_ALERT_INTERNAL_ERROR)
			abort();
		if (ret <= -TLSX_HS_EALERT_BASE &&
		    ret != -TLSX_HS_EALERT(alert))
			abort();
		/*
		 * The alert record, plaintext (7 bytes) or protected; a
		 * client's first protected record after D.4's dummy CCS.
		 */
		if (f->out_len == 6 + TLSX_REC_HDR + 3 + 16 &&
		    memcmp(f->out, fz_ccs, 6))
			abort();
		if (f->out_len == TLSX_REC_HDR + 2) {
			if (f->out[0] != TLSX_CT_ALERT || f->out[5] != 2 ||
			    f->out[6] != alert)
				abort();
		} else if ((f->out_len != TLSX_REC_HDR + 3 + 16 &&
			    f->out_len != 6 + TLSX_REC_HDR + 3 + 16) ||
			   f->out[f->out_len - 24] != TLSX_CT_APPLICATION_DATA) {
			abort();
		}
	}
	/* Sticky, and nothing more written. */
	if (tlsx_hs_step(hs, f->in, f->in_len, &used, f->out, sizeof(f->out),
			 &n) != ret || n || used)
		abort();
	if (tlsx_hs_alert(hs) != alert)
		abort();
}

/* What a done engine must give. */
static inline void fz_check_done(struct fz_feeder *f)
{
	struct tlsx_hs_secrets sec;
	struct tlsx_hs_info info;

	if (tlsx_hs_secrets(f->hs, &sec) || tlsx_hs_get_info(f->hs, &info))
		abort();
	if (!sec.secret_len || sec.secret_len > sizeof(sec.client))
		abort();
	tlsx_hs_secrets_wipe(&sec);
}

/*
 * Runs @data[0..@size) (after the configuration byte) through @f->hs:
 * returns the last step's result.
 */
static inline int fz_feed(struct fz_feeder *f, const u8 *data, size_t size)
{
	size_t used, len;
	int ret;

	f->in_len = 0;
	f->pw.set = false;
	/* The client's first flight comes from a step on no input. */
	ret = tlsx_hs_step(f->hs, f->in, 0, &used, f->out, sizeof(f->out),
			   &f->out_len);
	while (ret == TLSX_HS_WANT_READ && size >= FZ_CHUNK_HDR) {
		u8 kind = data[0];

		len = (size_t)data[1] << 8 | data[2];
		data += FZ_CHUNK_HDR;
		size -= FZ_CHUNK_HDR;
		if (len > size)
			len = size;
		fz_add_chunk(f, kind, data, len);
		data += len;
		size -= len;
		ret = tlsx_hs_step(f->hs, f->in, f->in_len, &used, f->out,
				   sizeof(f->out), &f->out_len);
		if (used > f->in_len)
			abort();
		memmove(f->in, f->in + used, f->in_len - used);
		f->in_len -= used;
	}
	if (ret < 0)
		fz_check_error(f, ret);
	else if (ret == TLSX_HS_DONE)
		fz_check_done(f);
	tlsx_rec_wipe(&f->pw);
	return ret;
}

/* FUZZ_HS_VERBOSE=1: each input's outcome, to check the seeds replay. */
static inline void fz_report(const char *who, unsigned int bits, int ret,
			     const struct tlsx_hs *hs)
{
	static int verbose = -1;

	if (verbose < 0)
		verbose = !!getenv("FUZZ_HS_VERBOSE");
	if (!verbose)
		return;
	fprintf(stderr, "%s config %#x: %s (%d, alert %d %s, state %d)\n",
		who, bits, ret == TLSX_HS_DONE ? "done" :
		ret == TLSX_HS_WANT_READ ? "wants more" : "error", ret,
		tlsx_hs_alert(hs),
		tlsx_alert_name(tlsx_hs_alert(hs)) ?: "", hs->state);
}

#endif /* TLSX_HS_FUZZ_HS_H */
