// SPDX-License-Identifier: GPL-2.0
/*
 * handshake_tlsx.c - one TLS 1.3 handshake with tlsx's engine
 * (handshake/engine/hs.h), client and server in one loop, set up as the
 * OpenSSL side is (handshake_ossl.c): TLS_AES_128_GCM_SHA256 only, the
 * row's group and signature scheme only, the client verifying the chain
 * against the CA and HSB_HOST, resumption rows with the server issuing
 * one ticket per handshake and the client opening it.
 *
 * The wire is the same as OpenSSL's: two memory BIOs, one per direction,
 * made per handshake.  The engine is sans-I/O, so each party reads what
 * arrived from its BIO into an input buffer, steps, and writes its
 * output flight to the other BIO; the input and output buffers are the
 * benchmark's, made once (a server keeps one output buffer per worker
 * thread, the flight being sent at once), so the heap figure is the
 * engine's own allocations plus the BIOs, as for OpenSSL.  The engine
 * opens records where they lie in the input buffer
 * (tlsx_hs_step_inplace(), cfg.inplace: no record buffer of its own).
 *
 * After both parties are done, each takes its traffic secrets
 * (tlsx_hs_secrets(), what the handoff needs) and wipes them.  In the
 * resumption rows the server then seals its NewSessionTicket under its
 * application key (record.h) and the client opens it and makes the
 * session (tlsx_session_from_ticket()), the work libtlsx does after the
 * handoff; every resumed handshake offers the session saved at setup.

 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <openssl/bio.h>

#include "handshake.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs.h"
#include "handshake/engine/record_protect.h"
#include "handshake/engine/ticket.h"

#define IN_CAP	TLSX_HS_OUT_MIN

struct party {
	struct tlsx_hs *hs;
	BIO *rd, *wr;
	u8 *in;
	size_t in_len;
	int ret;		/* the last step's */
};

struct tlsx_state {
	const struct hsb_row *row;
	struct tlsx_hs_config ccfg, scfg;
	struct tlsx_cert_chain chain;
	struct tlsx_trust trust;
	bool chain_loaded, trust_loaded;
	struct tlsx_ticket_keys *keys;
	struct tlsx_session sess;	/* what every resumption offers */
	bool have_sess;
	struct tlsx_session fresh;	/* the ticket a handshake brought */
	u8 cin[IN_CAP], sin[IN_CAP], out[TLSX_HS_OUT_MIN];
	char err[HSB_ERR_LEN];
	char note[HSB_ERR_LEN];
};

static const u16 row_groups[] = {
	[HSB_X25519] = TLSX_GROUP_X25519,
	[HSB_SECP256R1] = TLSX_GROUP_SECP256R1,
	[HSB_X25519MLKEM768] = TLSX_GROUP_X25519MLKEM768,
};

/* The CertificateVerify scheme first; RSA also the certificate's own. */
static const u16 row_schemes[][2] = {
	[HSB_KEY_ECDSA_P256] = { TLSX_SIG_ECDSA_SECP256R1_SHA256, 0 },
	[HSB_KEY_ED25519] = { TLSX_SIG_ED25519, 0 },
	[HSB_KEY_RSA2048] = { TLSX_SIG_RSA_PSS_RSAE_SHA256,
			      TLSX_SIG_RSA_PKCS1_SHA256 },
};

static void cfg_common(struct tlsx_hs_config *cfg, const struct hsb_row *row)
{
	unsigned int i;

	cfg->suites[0] = TLSX_SUITE_AES_128_GCM_SHA256;
	cfg->n_suites = 1;
	cfg->groups[0] = row_groups[row->group];
	cfg->n_groups = 1;
	for (i = 0; i < 2 && row_schemes[row->key][i]; i++)
		cfg->sig_schemes[i] = row_schemes[row->key][i];
	cfg->n_sig_schemes = i;
	cfg->allow_psk_ke = row->mode == HSB_PSK_KE;
	/* The server takes psk_dhe_ke when offered unless told otherwise. */
	cfg->prefer_psk_ke = row->mode == HSB_PSK_KE;
}

/* The engine's error as text: the alert, and who sent it. */
static void engine_fail(struct tlsx_state *s, const char *who,
			struct tlsx_hs *hs, int ret)
{
	int alert = hs ? tlsx_hs_alert(hs) : -1;

	if (alert >= 0)
		snprintf(s->err, sizeof(s->err), "%s: %s alert %s (%d)", who,
			 tlsx_hs_alert_received(hs) ? "received" : "sent",
			 tlsx_alert_name(alert), ret);
	else
		snprintf(s->err, sizeof(s->err), "%s: %s (%d)", who,
			 strerror(ret < 0 ? -ret : ret), ret);
}

/*
 * One turn of a party: take what arrived, step until the engine stops
 * consuming, send what it wrote.  Returns the engine's status.
 */
static int party_turn(struct tlsx_state *s, struct party *p, uint64_t *acc,
		      enum hsb_party who)
{
	uint64_t t0 = hsb_enter(who);
	size_t used, n;
	int got, ret;

	got = BIO_read(p->rd, p->in + p->in_len, (int)(IN_CAP - p->in_len));
	if (got > 0)
		p->in_len += (size_t)got;
	do {
		used = 0;
		n = 0;
		ret = tlsx_hs_step_inplace(p->hs, p->in, p->in_len, &used,
					   s->out, sizeof(s->out), &n);
		if (n && BIO_write(p->wr, s->out, (int)n) != (int)n)
			ret = -ENOMEM;
		if (used > p->in_len)
			ret = -EOVERFLOW;
		else if (used) {
			memmove(p->in, p->in + used, p->in_len - used);
			p->in_len -= used;
		}
	} while (ret == TLSX_HS_WANT_READ && used && p->in_len);
	hsb_leave(acc, t0);
	p->ret = ret;
	return ret;
}

/*
 * After the handshake, resumption rows: the server seals its ticket as
 * one handshake record under its application key, the client opens it
 * with the same secret and turns it into a session.
 */
static int ticket_pass(struct tlsx_state *s, struct party *c,
		       struct party *sv, const struct tlsx_hs_secrets *csec,
		       const struct tlsx_hs_secrets *ssec,
		       struct hsb_times *t)
{
	struct tlsx_rec_dir dir;
	size_t len = 0, rec_len, body;
	uint64_t t0;
	u8 type, *data;
	int ret;

	t0 = hsb_enter(HSB_SERVER);
	memset(&dir, 0, sizeof(dir));
	ret = tlsx_hs_tickets(sv->hs, s->sin, sizeof(s->sin), &len);
	if (!ret && !len)
		ret = -ENOMSG;
	if (!ret)
		ret = tlsx_rec_set_secret(&dir, ssec->suite, ssec->server,
					  ssec->secret_len);
	if (!ret)
		ret = tlsx_rec_seal(&dir, TLSX_CT_HANDSHAKE, s->sin, len, 0,
				    s->out, sizeof(s->out), &rec_len);
	if (!ret && BIO_write(sv->wr, s->out, (int)rec_len) != (int)rec_len)
		ret = -ENOMEM;
	tlsx_rec_wipe(&dir);
	hsb_leave(&t->server, t0);
	if (ret) {
		snprintf(s->err, sizeof(s->err), "server ticket: %d", ret);
		return -1;
	}

	t0 = hsb_enter(HSB_CLIENT);
	memset(&dir, 0, sizeof(dir));
	ret = BIO_read(c->rd, c->in + c->in_len, (int)(IN_CAP - c->in_len));
	if (ret > 0)
		c->in_len += (size_t)ret;
	ret = c->in_len < TLSX_REC_HDR ? -ENOMSG :
	      tlsx_rec_header(c->in, TLSX_REC_MAX_CIPHER, &body);
	if (!ret && c->in_len != TLSX_REC_HDR + body)
		ret = -EMSGSIZE;
	if (!ret)
		ret = tlsx_rec_set_secret(&dir, csec->suite, csec->server,
					  csec->secret_len);
	if (!ret)
		ret = tlsx_rec_open(&dir, c->in, c->in_len, TLSX_REC_MAX_PLAIN,
				    &type, &data, &len);
	if (!ret && type != TLSX_CT_HANDSHAKE)
		ret = -EPROTO;
	if (!ret)
		ret = tlsx_session_from_ticket(csec, HSB_HOST,
					       (const u8 *)"", data, len,
					       time(NULL), &s->fresh);
	c->in_len = 0;
	tlsx_rec_wipe(&dir);
	hsb_leave(&t->client, t0);
	if (ret) {
		snprintf(s->err, sizeof(s->err), "client ticket: %d", ret);
		return -1;
	}
	return 0;
}

struct tlsx_facts {
	struct tlsx_hs_info info;
	bool same_secrets;
};

static int tlsx_pair(struct tlsx_state *s, struct hsb_times *t,
		     struct tlsx_facts *f)
{
	struct party c = { .in = s->cin }, sv = { .in = s->sin };
	struct tlsx_hs_secrets csec, ssec;
	int i, ret = -1;
	uint64_t t0;

	t0 = hsb_enter(HSB_CLIENT);
	c.wr = BIO_new(BIO_s_mem());
	c.hs = tlsx_hs_new(&s->ccfg);
	if (c.hs && tlsx_hs_set_server_name(c.hs, HSB_HOST))
		c.ret = -EINVAL;
	if (c.hs && !c.ret && s->have_sess &&
	    tlsx_hs_set_session(c.hs, &s->sess))
		c.ret = -EINVAL;
	hsb_leave(&t->client, t0);
	t0 = hsb_enter(HSB_SERVER);
	sv.wr = BIO_new(BIO_s_mem());
	sv.hs = tlsx_hs_new(&s->scfg);
	hsb_leave(&t->server, t0);
	if (!c.hs || !sv.hs || !c.wr || !sv.wr || c.ret) {
		snprintf(s->err, sizeof(s->err), "%s",
			 !c.hs ? "client: tlsx_hs_new() returned NULL" :
			 !sv.hs ? "server: tlsx_hs_new() returned NULL" :
			 c.ret ? "client: set_server_name/set_session failed" :
			 "BIO_new failed");
		goto out;
	}
	c.rd = sv.wr;
	sv.rd = c.wr;
	c.ret = sv.ret = TLSX_HS_WANT_READ;

	for (i = 0; i < 8; i++) {
		if (c.ret == TLSX_HS_WANT_READ)
			party_turn(s, &c, &t->client, HSB_CLIENT);
		if (c.ret >= 0 && sv.ret == TLSX_HS_WANT_READ)
			party_turn(s, &sv, &t->server, HSB_SERVER);
		if (c.ret < 0 || sv.ret < 0 ||
		    (c.ret == TLSX_HS_DONE && sv.ret == TLSX_HS_DONE))
			break;
	}
	if (c.ret < 0) {
		engine_fail(s, "client", c.hs, c.ret);
		goto out;
	}
	if (sv.ret < 0) {
		engine_fail(s, "server", sv.hs, sv.ret);
		goto out;
	}
	if (c.ret != TLSX_HS_DONE || sv.ret != TLSX_HS_DONE) {
		snprintf(s->err, sizeof(s->err),
			 "handshake stalled (client %d, server %d)", c.ret,
			 sv.ret);
		goto out;
	}

	t0 = hsb_enter(HSB_CLIENT);
	ret = tlsx_hs_secrets(c.hs, &csec);
	hsb_leave(&t->client, t0);
	t0 = hsb_enter(HSB_SERVER);
	ret |= tlsx_hs_secrets(sv.hs, &ssec);
	hsb_leave(&t->server, t0);
	if (ret) {
		snprintf(s->err, sizeof(s->err), "tlsx_hs_secrets: %d", ret);
		ret = -1;
	} else if (s->row->mode != HSB_FULL) {
		ret = ticket_pass(s, &c, &sv, &csec, &ssec, t);
	}
	if (f && !ret) {
		f->same_secrets = csec.secret_len == ssec.secret_len &&
			!memcmp(csec.client, ssec.client, csec.secret_len) &&
			!memcmp(csec.server, ssec.server, csec.secret_len);
		if (tlsx_hs_get_info(c.hs, &f->info)) {
			snprintf(s->err, sizeof(s->err), "tlsx_hs_get_info");
			ret = -1;
		}
	}
	hsb_heap_mark();
	tlsx_hs_secrets_wipe(&csec);
	tlsx_hs_secrets_wipe(&ssec);
out:
	t0 = hsb_enter(HSB_CLIENT);
	tlsx_hs_free(c.hs);
	BIO_free(c.wr);
	hsb_leave(&t->client, t0);
	t0 = hsb_enter(HSB_SERVER);
	tlsx_hs_free(sv.hs);
	BIO_free(sv.wr);
	hsb_leave(&t->server, t0);
	return ret ? -1 : 0;
}

static void tlsx_teardown(void *p)
{
	struct tlsx_state *s = p;

	if (!s)
		return;
	if (s->keys)
		tlsx_ticket_keys_free(s->keys);
	if (s->chain_loaded)
		tlsx_cert_chain_free(&s->chain);
	if (s->trust_loaded)
		tlsx_trust_free(&s->trust);
	if (s->have_sess)
		tlsx_session_wipe(&s->sess);
	tlsx_session_wipe(&s->fresh);
	free(s);
}

/* The facts of a handshake against what the row asks for. */
static int tlsx_check(struct tlsx_state *s, const struct tlsx_facts *f,
		      bool resumed)
{
	const struct tlsx_hs_info *in = &f->info;
	u16 want_group = row_groups[s->row->group];

	if (!f->same_secrets) {
		snprintf(s->err, sizeof(s->err),
			 "client and server traffic secrets differ");
		return -1;
	}
	if (in->suite != TLSX_SUITE_AES_128_GCM_SHA256) {
		snprintf(s->err, sizeof(s->err), "suite 0x%04x", in->suite);
		return -1;
	}
	if (in->resumed != resumed) {
		snprintf(s->err, sizeof(s->err), "%s",
			 resumed ? "session not resumed" : "resumed");
		return -1;
	}
	if (!resumed && in->sig_scheme != row_schemes[s->row->key][0]) {
		snprintf(s->err, sizeof(s->err), "signature scheme 0x%04x",
			 in->sig_scheme);
		return -1;
	}
	if (resumed && s->row->mode == HSB_PSK_KE)
		want_group = 0;
	if (in->group != want_group) {
		snprintf(s->err, sizeof(s->err), "group 0x%04x", in->group);
		return -1;
	}
	return 0;
}

static int tlsx_configure(struct tlsx_state *s, const struct hsb_creds *c)
{
	const struct hsb_row *row = s->row;
	const char *why = NULL;
	size_t skipped = 0;
	int ret;

	cfg_common(&s->ccfg, row);
	cfg_common(&s->scfg, row);
	s->scfg.server = true;
	/* Records are opened in p->in (the in-place step): no record room. */
	s->ccfg.inplace = true;
	s->scfg.inplace = true;
	ret = tlsx_cert_chain_load_mem(&s->chain, c->leaf_pem, c->leaf_len,
				       c->key_pem, c->key_len, &why);
	if (ret) {
		snprintf(s->err, sizeof(s->err), "loading the chain: %s (%d)",
			 why ? why : "", ret);
		return -1;
	}
	s->chain_loaded = true;
	s->scfg.chains[0] = &s->chain;
	s->scfg.n_chains = 1;
	ret = tlsx_trust_load_mem(&s->trust, c->ca_pem, c->ca_len, &skipped);
	if (ret || skipped) {
		snprintf(s->err, sizeof(s->err), "loading the CA: %d", ret);
		return -1;
	}
	s->trust_loaded = true;
	s->ccfg.trust = &s->trust;
	if (row->mode == HSB_FULL)
		return 0;
	s->keys = tlsx_ticket_keys_new(0, time(NULL));
	if (!s->keys) {
		snprintf(s->err, sizeof(s->err), "tlsx_ticket_keys_new");
		return -1;
	}
	s->scfg.tickets = s->keys;
	s->scfg.tickets_per_handshake = 1;
	s->scfg.ticket_lifetime = 7200;
	return 0;
}

static void *tlsx_setup(const struct hsb_row *row, const struct hsb_creds *c,
			char err[HSB_ERR_LEN])
{
	struct tlsx_facts f;
	struct hsb_times t = { 0, 0 };
	struct tlsx_state *s;

	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, HSB_ERR_LEN, "out of memory");
		return NULL;
	}
	s->row = row;
	if (tlsx_configure(s, c))
		goto fail;
	memset(&f, 0, sizeof(f));
	if (tlsx_pair(s, &t, &f) || tlsx_check(s, &f, false))
		goto fail;
	if (row->mode != HSB_FULL) {
		/* The session the setup handshake's ticket made. */
		s->sess = s->fresh;
		s->have_sess = true;
		memset(&f, 0, sizeof(f));
		if (tlsx_pair(s, &t, &f) || tlsx_check(s, &f, true))
			goto fail;
	}
	if (row->mode == HSB_FULL)
		snprintf(s->note, sizeof(s->note), "full, %s",
			 tlsx_sig_scheme_name(f.info.sig_scheme));
	else if (f.info.group)
		snprintf(s->note, sizeof(s->note),
			 "resumed with psk_dhe_ke, group 0x%04x",
			 f.info.group);
	else
		snprintf(s->note, sizeof(s->note), "resumed with psk_ke");
	snprintf(s->note + strlen(s->note), sizeof(s->note) - strlen(s->note),
		 "; tlsx_hs_mem_size %zu/%zu (client/server)",
		 tlsx_hs_mem_size(&s->ccfg), tlsx_hs_mem_size(&s->scfg));
	return s;
fail:
	snprintf(err, HSB_ERR_LEN, "%s", s->err);
	tlsx_teardown(s);
	return NULL;
}

static int tlsx_run(void *p, struct hsb_times *t)
{
	return tlsx_pair(p, t, NULL);
}

static const char *tlsx_error(void *p)
{
	return ((struct tlsx_state *)p)->err;
}

static const char *tlsx_note(void *p)
{
	return ((struct tlsx_state *)p)->note;
}

const struct hsb_impl hsb_tlsx = {
	.name = "tlsx",
	.setup = tlsx_setup,
	.run = tlsx_run,
	.error = tlsx_error,
	.note = tlsx_note,
	.teardown = tlsx_teardown,
};
