// SPDX-License-Identifier: GPL-2.0
/*
 * hs.c - the engine's API entry points (hs.h): the configuration, the
 * accessors, the step loop and its one error exit, and the helpers both
 * roles share for randomness, time, the suite and the key schedule.
 * Records are in hs_record.c, the messages both roles write in
 * hs_msg.c (hs_impl.h says which part does what).
 */
#include <stdlib.h>
#include <time.h>

#include "rand/random.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"

/* RFC 8446 4.1.3: SHA-256 of "HelloRetryRequest". */
const u8 tlsx_hrr_random[TLSX_HS_RANDOM] = {
	0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11,
	0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
	0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e,
	0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

/* Every scheme CertificateVerify can use (rsa_pkcs1_* cannot, 4.4.3). */
static const u16 default_schemes[] = {
	TLSX_SIG_ECDSA_SECP256R1_SHA256,
	TLSX_SIG_ED25519,
	TLSX_SIG_RSA_PSS_RSAE_SHA256,
	TLSX_SIG_RSA_PSS_RSAE_SHA384,
	TLSX_SIG_RSA_PSS_RSAE_SHA512,
	TLSX_SIG_RSA_PSS_PSS_SHA256,
	TLSX_SIG_RSA_PSS_PSS_SHA384,
	TLSX_SIG_RSA_PSS_PSS_SHA512,
};

/* --- configuration ------------------------------------------------------ */

/* Copies @n codes of @src that @ok accepts, or @def when none are given. */
static unsigned int hs_fill_list(u16 *dst, const u16 *src, unsigned int n,
				 const u16 *def, unsigned int n_def,
				 bool (*ok)(u16 v))
{
	unsigned int i, k = 0;

	if (!n) {
		src = def;
		n = n_def;
	}
	for (i = 0; i < n && i < TLSX_HS_MAX_LIST; i++)
		if (ok(src[i]) && !hs_list_has(dst, k, src[i]))
			dst[k++] = src[i];
	return k;
}

static bool hs_suite_ok(u16 v)
{
	return !tlsx_suite_params(v, NULL, NULL, NULL);
}

bool hs_scheme_ok(u16 v)
{
	return strcmp(tlsx_sig_scheme_name(v), "unknown") != 0;
}

static size_t hs_max_msg(const struct tlsx_hs_config *cfg)
{
	/* A handshake message's length is a uint24. */
	if (!cfg->max_msg || cfg->max_msg > (1u << 24) - 1)
		return cfg->max_msg ? (1u << 24) - 1 : TLSX_HS_DEFAULT_MAX_MSG;
	return cfg->max_msg;
}

/*
 * The connection: the state, and for tlsx_hs_step() room to open one
 * protected record (tlsx_hs_step_inplace() opens them where they lie).
 */
static size_t hs_alloc_size(bool inplace)
{
	return sizeof(struct tlsx_hs) + (inplace ? 0 : TLSX_REC_MAX);
}

size_t tlsx_hs_mem_size(const struct tlsx_hs_config *cfg)
{
	return hs_alloc_size(cfg->inplace);
}

/* With, at worst, one message spanning records gathered (hs_gather()). */
size_t tlsx_hs_mem_peak(const struct tlsx_hs_config *cfg)
{
	size_t kept = cfg->keep_peer_chain ?
		      sizeof(struct tlsx_peer_chain) + hs_max_msg(cfg) : 0;
	size_t msg = hs_max_msg(cfg);

	/* hs_record.c hs_msg_max(): a server's ClientHello. */
	if (cfg->server && msg < TLSX_HS_MAX_CLIENT_HELLO)
		msg = TLSX_HS_MAX_CLIENT_HELLO;
	return tlsx_hs_mem_size(cfg) + TLSX_HS_MSG_HDR + msg + kept;
}

/*
 * A client whose suites all use one hash runs the transcript on that one
 * alone from its ClientHello on: the server may only choose among them
 * (4.1.3, refused before the suite is set: client_role.c), and a session
 * is offered only with a suite we offer (client_psk.c).  Else both
 * hashes run until the ServerHello.  The hybrid ClientHello is 1,443
 * bytes: SHA-384 over it was about 1.5 us for nothing when SHA-256 alone
 * was configured (docs/perf-handshake.md run 14).
 */
static void hs_client_one_hash(struct tlsx_hs *hs)
{
	enum tlsx_hash_alg hash, first = 0;
	unsigned int i;

	for (i = 0; i < hs->n_suites; i++) {
		if (tlsx_suite_params(hs->suites[i], NULL, &hash, NULL) ||
		    (i && hash != first))
			return;
		first = hash;
	}
	if (hs->n_suites)
		tlsx_transcript_choose(&hs->ts, first);
}

struct tlsx_hs *tlsx_hs_new(const struct tlsx_hs_config *cfg)
{
	u16 def[TLSX_HS_MAX_LIST];
	unsigned int n_def;
	struct tlsx_hs *hs;

	hs = calloc(1, tlsx_hs_mem_size(cfg));
	if (!hs)
		return NULL;
	hs->cfg = cfg;
	hs->server = cfg->server;
	hs->role = cfg->server ? &tlsx_hs_server_role : &tlsx_hs_client_role;
	hs->alert = -1;
	hs->max_msg = hs_max_msg(cfg);
	hs->inplace = cfg->inplace;
	hs->compat = !cfg->no_compat_mode;
	n_def = tlsx_suite_defaults(def, ARRAY_SIZE(def));
	hs->n_suites = hs_fill_list(hs->suites, cfg->suites, cfg->n_suites,
				    def, n_def, hs_suite_ok);
	n_def = tlsx_group_defaults(def, ARRAY_SIZE(def));
	hs->n_groups = hs_fill_list(hs->groups, cfg->groups, cfg->n_groups,
				    def, n_def, tlsx_kx_supported);
	hs->n_sig_schemes = hs_fill_list(hs->sig_schemes, cfg->sig_schemes,
					 cfg->n_sig_schemes, default_schemes,
					 ARRAY_SIZE(default_schemes),
					 hs_scheme_ok);
	tlsx_transcript_init(&hs->ts);
	if (!hs->server)
		hs_client_one_hash(hs);
	return hs;
}

void hs_wipe_secrets(struct tlsx_hs *hs)
{
	unsigned int i;

	tlsx_ks_wipe(&hs->ks);
	tlsx_transcript_wipe(&hs->ts);
	for (i = 0; i < TLSX_HS_MAX_SHARES; i++)
		tlsx_kx_wipe(&hs->shares[i]);
	memzero_explicit(hs->c_hs, sizeof(hs->c_hs));
	memzero_explicit(hs->s_hs, sizeof(hs->s_hs));
	memzero_explicit(hs->c_ap, sizeof(hs->c_ap));
	memzero_explicit(hs->s_ap, sizeof(hs->s_ap));
	memzero_explicit(hs->res_master, sizeof(hs->res_master));
	hs->have_ap = false;
	hs->have_res = false;
	tlsx_session_wipe(&hs->session);
	hs->have_session = false;
	tlsx_rec_wipe(&hs->wr);
	tlsx_rec_wipe(&hs->rd);
	hs_msg_free(hs);
}

void tlsx_hs_free(struct tlsx_hs *hs)
{
	if (!hs)
		return;
	hs_wipe_secrets(hs);
	tlsx_peer_chain_free(hs->peer_chain);
	/* rec[] held the peer's decrypted records. */
	memzero_explicit(hs, hs_alloc_size(hs->inplace));
	free(hs);
}

int tlsx_hs_set_server_name(struct tlsx_hs *hs, const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (hs->server || hs->started || !n || n > TLSX_HS_MAX_NAME)
		return -EINVAL;
	memcpy(hs->server_name, name, n + 1);
	return 0;
}

int tlsx_hs_set_session(struct tlsx_hs *hs, const struct tlsx_session *s)
{
	enum tlsx_hash_alg hash;

	if (hs->server || hs->started || !s->ticket_len ||
	    s->ticket_len > TLSX_TICKET_MAX ||
	    tlsx_suite_params(s->suite, NULL, &hash, NULL) ||
	    s->psk_len != tlsx_hash_digest_size(hash))
		return -EINVAL;
	hs->session = *s;
	hs->have_session = true;
	return 0;
}

void tlsx_hs_set_time(struct tlsx_hs *hs, s64 now)
{
	hs->now = now;
}

s64 hs_now(const struct tlsx_hs *hs)
{
	return hs->now ? hs->now : (s64)time(NULL);
}

int tlsx_hs_alert(const struct tlsx_hs *hs)
{
	return hs->alert;
}

bool tlsx_hs_alert_received(const struct tlsx_hs *hs)
{
	return hs->alert_received;
}

const char *tlsx_hs_reason(const struct tlsx_hs *hs)
{
	return hs->err && !hs->alert_received ? hs->why : NULL;
}

int tlsx_hs_get_info(const struct tlsx_hs *hs, struct tlsx_hs_info *info)
{
	memset(info, 0, sizeof(*info));
	info->suite = hs->suite;
	info->group = hs->group;
	info->sig_scheme = hs->peer_sig_scheme;
	info->resumed = hs->resumed;
	info->hrr = hs->hrr;
	info->peer_cert = hs->peer_cert;
	info->peer_record_size_limit = hs->peer_record_size_limit;
	memcpy(info->alpn, hs->alpn, sizeof(info->alpn));
	memcpy(info->server_name, hs->server_name, sizeof(info->server_name));
	return hs->done ? 0 : -EAGAIN;
}

int tlsx_hs_secrets(const struct tlsx_hs *hs, struct tlsx_hs_secrets *s)
{
	memset(s, 0, sizeof(*s));
	if (!hs->done || !hs->have_ap)
		return -EAGAIN;
	s->suite = hs->suite;
	s->hash = hs->hash;
	s->secret_len = hs->hash_len;
	memcpy(s->client, hs->c_ap, hs->hash_len);
	memcpy(s->server, hs->s_ap, hs->hash_len);
	if (hs->have_res)
		memcpy(s->res_master, hs->res_master, hs->hash_len);
	s->peer_verified = hs->peer_cert;
	return 0;
}

void tlsx_hs_secrets_wipe(struct tlsx_hs_secrets *s)
{
	memzero_explicit(s, sizeof(*s));
}

int tlsx_hs_tickets(struct tlsx_hs *hs, u8 *out, size_t cap, size_t *len)
{
	*len = 0;
	if (!hs->server || !hs->done)
		return -EINVAL;
	if (!hs->role->tickets)
		return 0;
	return hs->role->tickets(hs, out, cap, len);
}

/* --- shared helpers ----------------------------------------------------- */

int hs_rand(struct tlsx_hs *hs, void *buf, size_t len)
{
	if (hs->cfg->rand)
		return hs->cfg->rand(hs->cfg->rand_ctx, buf, len);
	return tlsx_random_bytes(buf, len);
}

int hs_rand_cb(void *ctx, void *buf, size_t len)
{
	return hs_rand(ctx, buf, len);
}

bool hs_list_has(const u16 *list, unsigned int n, u16 v)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (list[i] == v)
			return true;
	return false;
}

int hs_set_suite(struct tlsx_hs *hs, u16 suite)
{
	enum tlsx_hash_alg hash;
	int ret = tlsx_suite_params(suite, NULL, &hash, NULL);

	if (ret)
		return ret;
	ret = tlsx_transcript_choose(&hs->ts, hash);
	if (ret)
		return ret;
	hs->suite = suite;
	hs->hash = hash;
	hs->hash_len = tlsx_hash_digest_size(hash);
	return 0;
}

int hs_set_read_secret(struct tlsx_hs *hs, const u8 *secret)
{
	hs->rd_key_changed = true;
	return tlsx_rec_set_secret(&hs->rd, hs->suite, secret, hs->hash_len);
}

int hs_set_write_secret(struct tlsx_hs *hs, const u8 *secret)
{
	/* 5.1: what was written before the key change goes under the old. */
	int ret = hs->out ? hs_flush(hs, hs->out) : 0;

	if (ret)
		return ret;
	return tlsx_rec_set_secret(&hs->wr, hs->suite, secret, hs->hash_len);
}

int hs_derive_handshake(struct tlsx_hs *hs, const u8 *dhe, size_t dhe_len)
{
	u8 th[TLSX_KS_MAX_SECRET];
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = tlsx_ks_handshake(&hs->ks, dhe, dhe_len);
	if (!ret)
		ret = tlsx_ks_derive(&hs->ks, TLSX_KS_C_HS_TRAFFIC, th, hs->c_hs);
	if (!ret)
		ret = tlsx_ks_derive(&hs->ks, TLSX_KS_S_HS_TRAFFIC, th, hs->s_hs);
	return ret;
}

int hs_derive_application(struct tlsx_hs *hs)
{
	u8 th[TLSX_KS_MAX_SECRET];
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = tlsx_ks_master(&hs->ks);
	if (!ret)
		ret = tlsx_ks_derive(&hs->ks, TLSX_KS_C_AP_TRAFFIC, th, hs->c_ap);
	if (!ret)
		ret = tlsx_ks_derive(&hs->ks, TLSX_KS_S_AP_TRAFFIC, th, hs->s_ap);
	hs->have_ap = !ret;
	return ret;
}

int hs_derive_resumption(struct tlsx_hs *hs)
{
	u8 th[TLSX_KS_MAX_SECRET];
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = tlsx_ks_derive(&hs->ks, TLSX_KS_RES_MASTER, th,
				     hs->res_master);
	hs->have_res = !ret;
	return ret;
}

/*
 * The one error exit: the half-built flight is dropped, the alert for
 * @ret (an alert, or internal_error for a local errno) is written, every
 * secret is wiped and the error becomes sticky.
 */
static int hs_fail(struct tlsx_hs *hs, int ret, struct hs_out *o)
{
	if (ret == HS_EALERT_IN) {
		o->len = 0;
		o->pend = 0;
		hs->err = -TLSX_HS_EALERT(hs->alert);
	} else {
		hs->alert = ret > 0 ? ret : TLSX_ALERT_INTERNAL_ERROR;
		hs_send_alert(hs, o, (u8)hs->alert);
		hs->err = ret > 0 ? -TLSX_HS_EALERT(ret) : ret;
	}
	hs_wipe_secrets(hs);
	return hs->err;
}

/* tlsx_hs_step() and tlsx_hs_step_inplace(): @win is @in writable or NULL. */
static int hs_step(struct tlsx_hs *hs, const u8 *in, u8 *win, size_t in_len,
		   size_t *consumed, u8 *out, size_t out_cap, size_t *out_len)
{
	struct hs_out o = { .buf = out, .cap = out_cap };
	size_t pos = 0, body, max;
	int ret = 0;

	*consumed = 0;
	*out_len = 0;
	if (hs->err)
		return hs->err;
	if (hs->done)
		return TLSX_HS_DONE;
	/* The caller's bug, found before anything changes: not sticky. */
	if (!out || out_cap < TLSX_HS_OUT_MIN)
		return -ENOSPC;
	hs->out = &o;
	if (!hs->started) {
		/*
		 * A verifying client without a name would accept any
		 * host's chain from a trusted CA: refused before anything
		 * is written (no alert), unless the configuration opted
		 * out (hs.h, verify_name_optional).
		 */
		if (!hs->server && !hs->server_name[0] &&
		    (hs->cfg->trust || !hs->cfg->insecure) &&
		    !hs->cfg->verify_name_optional) {
			hs->out = NULL;
			hs->started = true;
			hs->err = -EDESTADDRREQ;
			return hs->err;
		}
		hs->started = true;
		if (hs->role->start)
			ret = hs->role->start(hs, &o);
		if (ret)
			goto fail;
		/* The client's ClientHello is out: a CCS may follow. */
		hs->ccs_ok = !hs->server;
	}
	while (!hs->done && in_len - pos >= TLSX_REC_HDR) {
		const u8 *rec = in + pos;

		/* 5.1: plaintext at most 2^14; 5.2: protected 2^14 + 256. */
		max = rec[0] == TLSX_CT_APPLICATION_DATA ?
		      TLSX_REC_MAX_CIPHER : TLSX_REC_MAX_PLAIN;
		ret = tlsx_rec_header(rec, max, &body);
		if (ret)
			goto fail;
		if (in_len - pos - TLSX_REC_HDR < body)
			break;
		ret = hs_record(hs, rec, win ? win + pos : NULL,
				TLSX_REC_HDR + body, &o);
		if (ret)
			goto fail;
		pos += TLSX_REC_HDR + body;
	}
	ret = hs_flush(hs, &o);
	if (ret)
		goto fail;
	hs->out = NULL;
	*consumed = pos;
	*out_len = o.len;
	return hs->done ? TLSX_HS_DONE : TLSX_HS_WANT_READ;
fail:
	*consumed = pos;
	ret = hs_fail(hs, ret, &o);
	hs->out = NULL;
	*out_len = o.len;
	return ret;
}

int tlsx_hs_step(struct tlsx_hs *hs, const u8 *in, size_t in_len,
		 size_t *consumed, u8 *out, size_t out_cap, size_t *out_len)
{
	/* cfg->inplace: no hs->rec to open a record in (hs.h). */
	if (hs->inplace) {
		*consumed = 0;
		*out_len = 0;
		return -EINVAL;
	}
	return hs_step(hs, in, NULL, in_len, consumed, out, out_cap, out_len);
}

int tlsx_hs_step_inplace(struct tlsx_hs *hs, u8 *in, size_t in_len,
			 size_t *consumed, u8 *out, size_t out_cap,
			 size_t *out_len)
{
	return hs_step(hs, in, in, in_len, consumed, out, out_cap, out_len);
}
