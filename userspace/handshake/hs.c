// SPDX-License-Identifier: GPL-2.0
/*
 * hs.c - the engine's step loop: record framing (RFC 8446 5), message
 * reassembly, the one error exit, and the helpers both roles share
 * (hs_impl.h says which part does what).
 */
#include <stdlib.h>
#include <time.h>

#include "rand/random.h"
#include "x509/x509.h"
#include "handshake/cert.h"
#include "handshake/hs_impl.h"

/* RFC 8446 4.1.3: SHA-256 of "HelloRetryRequest". */
const u8 tlsx_hrr_random[TLSX_HS_RANDOM] = {
	0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11,
	0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
	0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e,
	0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c,
};

static const u16 default_suites[] = {
	TLSX_SUITE_AES_128_GCM_SHA256,
	TLSX_SUITE_AES_256_GCM_SHA384,
	TLSX_SUITE_CHACHA20_POLY1305_SHA256,
};

static const u16 default_groups[] = {
	TLSX_GROUP_X25519,
	TLSX_GROUP_SECP256R1,
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

/* A received alert ends the step without an alert of ours. */
#define HS_EALERT_IN	(-ECONNRESET)

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

static bool hs_scheme_ok(u16 v)
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

/* The reassembly buffer: a message's start, then one record opened. */
static size_t hs_buf_cap(const struct tlsx_hs_config *cfg)
{
	return TLSX_HS_MSG_HDR + hs_max_msg(cfg) + TLSX_REC_MAX;
}

size_t tlsx_hs_mem_size(const struct tlsx_hs_config *cfg)
{
	return sizeof(struct tlsx_hs) + hs_buf_cap(cfg);
}

struct tlsx_hs *tlsx_hs_new(const struct tlsx_hs_config *cfg)
{
	struct tlsx_hs *hs;

	hs = calloc(1, tlsx_hs_mem_size(cfg));
	if (!hs)
		return NULL;
	hs->cfg = cfg;
	hs->server = cfg->server;
	hs->role = cfg->server ? &tlsx_hs_server_role : &tlsx_hs_client_role;
	hs->alert = -1;
	hs->max_msg = hs_max_msg(cfg);
	hs->buf_cap = hs_buf_cap(cfg);
	hs->compat = !cfg->no_compat_mode;
	hs->n_suites = hs_fill_list(hs->suites, cfg->suites, cfg->n_suites,
				    default_suites, ARRAY_SIZE(default_suites),
				    hs_suite_ok);
	hs->n_groups = hs_fill_list(hs->groups, cfg->groups, cfg->n_groups,
				    default_groups, ARRAY_SIZE(default_groups),
				    tlsx_kx_supported);
	hs->n_sig_schemes = hs_fill_list(hs->sig_schemes, cfg->sig_schemes,
					 cfg->n_sig_schemes, default_schemes,
					 ARRAY_SIZE(default_schemes),
					 hs_scheme_ok);
	tlsx_transcript_init(&hs->ts);
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
}

void tlsx_hs_free(struct tlsx_hs *hs)
{
	if (!hs)
		return;
	hs_wipe_secrets(hs);
	/* The buffer held the peer's decrypted flight. */
	memzero_explicit(hs, tlsx_hs_mem_size(hs->cfg));
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

/* --- output ------------------------------------------------------------- */

/* The largest content of one record we send (5.1, RFC 8449 4). */
static size_t hs_frag_max(const struct tlsx_hs *hs)
{
	/* RFC 8449 4: in TLS 1.3 the limit counts the content type byte. */
	if (hs->wr.set && hs->peer_record_size_limit &&
	    hs->peer_record_size_limit - 1u < TLSX_REC_MAX_PLAIN)
		return hs->peer_record_size_limit - 1u;
	return TLSX_REC_MAX_PLAIN;
}

/*
 * Frames @len bytes of @type, which lie at o->buf + o->len + 5 already,
 * as records: one header each (and a tag, when protected), the content
 * split at hs_frag_max().  Fragments are moved into place last first
 * (each moves right), then sealed first to last, in sequence order.
 */
static int hs_frame(struct tlsx_hs *hs, struct hs_out *o, u8 type, size_t len)
{
	size_t frag = hs_frag_max(hs), ovh = TLSX_REC_HDR, n, i, rl;
	u8 *base = o->buf + o->len;
	int ret;

	if (hs->wr.set)
		ovh += 1 + TLSX_AEAD_TAG_LEN;
	n = len ? (len + frag - 1) / frag : 1;
	if (o->cap - o->len < len || o->cap - o->len - len < n * ovh)
		return -ENOSPC;
	for (i = n - 1; i > 0; i--)
		memmove(base + i * (frag + ovh) + TLSX_REC_HDR,
			base + TLSX_REC_HDR + i * frag,
			i == n - 1 ? len - i * frag : frag);
	for (i = 0; i < n; i++) {
		u8 *r = base + i * (frag + ovh);
		size_t fl = i == n - 1 ? len - i * frag : frag;

		if (hs->wr.set) {
			ret = tlsx_rec_seal(&hs->wr, type, r + TLSX_REC_HDR,
					    fl, 0, r, o->cap - (size_t)(r -
					    o->buf), &rl);
			if (ret)
				return ret;
		} else {
			r[0] = type;
			r[1] = 0x03;
			/*
			 * 5.1: legacy_record_version 0x0303, but the initial
			 * ClientHello's "MAY also be 0x0301" for middleboxes.
			 */
			r[2] = hs->ch_record_0301 ? 0x01 : 0x03;
			put_unaligned_be16((u16)fl, r + 3);
			rl = TLSX_REC_HDR + fl;
		}
		o->len += rl;
	}
	hs->ch_record_0301 = false;
	return 0;
}

int hs_flush(struct tlsx_hs *hs, struct hs_out *o)
{
	size_t n = o->pend;

	if (!n)
		return 0;
	o->pend = 0;
	return hs_frame(hs, o, TLSX_CT_HANDSHAKE, n);
}

void hs_msg_begin(struct tlsx_hs *hs, struct hs_out *o, u8 type,
		  struct tlsx_wr *w)
{
	size_t room = o->cap - o->len - o->pend;

	(void)hs;
	o->msg_start = o->len + TLSX_REC_HDR + o->pend;
	/* A writer on nothing fails at its first push with -ENOSPC. */
	tlsx_wr_init(w, o->buf + o->msg_start,
		     room > TLSX_REC_HDR ? room - TLSX_REC_HDR : 0);
	tlsx_wr_u8(w, type);
	tlsx_wr_open(w, 3);
}

int hs_msg_end_raw(struct tlsx_hs *hs, struct hs_out *o, struct tlsx_wr *w,
		   u8 **msg, size_t *len)
{
	int ret;

	(void)hs;
	ret = tlsx_wr_close(w);
	if (!ret)
		ret = tlsx_wr_finish(w, len);
	if (ret)
		return ret;
	*msg = o->buf + o->msg_start;
	return 0;
}

int hs_msg_commit(struct tlsx_hs *hs, struct hs_out *o, u8 *msg, size_t len)
{
	tlsx_transcript_add(&hs->ts, msg, len);
	o->pend += len;
	return 0;
}

int hs_msg_end(struct tlsx_hs *hs, struct hs_out *o, struct tlsx_wr *w)
{
	size_t len;
	u8 *msg;
	int ret = hs_msg_end_raw(hs, o, w, &msg, &len);

	if (ret)
		return ret;
	return hs_msg_commit(hs, o, msg, len);
}

int hs_send_ccs(struct tlsx_hs *hs, struct hs_out *o)
{
	static const u8 ccs[] = { TLSX_CT_CHANGE_CIPHER_SPEC, 3, 3, 0, 1, 1 };

	int ret;

	if (hs->ccs_sent)
		return 0;
	ret = hs_flush(hs, o);
	if (ret)
		return ret;
	if (o->cap - o->len < sizeof(ccs))
		return -ENOSPC;
	memcpy(o->buf + o->len, ccs, sizeof(ccs));
	o->len += sizeof(ccs);
	hs->ccs_sent = true;
	return 0;
}

/* A fatal alert (6), protected once we have a write key. */
static void hs_send_alert(struct tlsx_hs *hs, struct hs_out *o, u8 alert)
{
	u8 body[2] = { 2, alert };	/* AlertLevel fatal */
	size_t len;

	o->len = 0;
	o->pend = 0;
	if (hs->wr.set) {
		if (tlsx_rec_seal(&hs->wr, TLSX_CT_ALERT, body, 2, 0, o->buf,
				  o->cap, &len))
			return;
		o->len = len;
		return;
	}
	if (o->cap < TLSX_REC_HDR + 2)
		return;
	o->buf[0] = TLSX_CT_ALERT;
	o->buf[1] = 3;
	o->buf[2] = 3;
	put_unaligned_be16(2, o->buf + 3);
	memcpy(o->buf + TLSX_REC_HDR, body, 2);
	o->len = TLSX_REC_HDR + 2;
}

/* --- messages both roles send or check ---------------------------------- */

int hs_send_finished(struct tlsx_hs *hs, struct hs_out *o, const u8 *base_key)
{
	u8 th[TLSX_KS_MAX_SECRET], vd[TLSX_KS_MAX_SECRET];
	struct tlsx_wr w;
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = tlsx_finished_mac(hs->hash, base_key, th, vd);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_FINISHED, &w);
	tlsx_wr_bytes(&w, vd, hs->hash_len);
	memzero_explicit(vd, sizeof(vd));
	return hs_msg_end(hs, o, &w);
}

int hs_check_finished(struct tlsx_hs *hs, const u8 *msg, size_t len,
		      const u8 *base_key)
{
	u8 th[TLSX_KS_MAX_SECRET];
	int ret = tlsx_transcript_hash(&hs->ts, th);

	if (ret)
		return ret;
	/* 4.4.4: "verify_data" is Hash.length bytes, checked in constant
	 * time; a wrong one is decrypt_error.
	 */
	return tlsx_finished_check(hs->hash, base_key, th,
				   msg + TLSX_HS_MSG_HDR,
				   len - TLSX_HS_MSG_HDR);
}

int hs_send_certificate(struct tlsx_hs *hs, struct hs_out *o,
			const struct tlsx_cert_chain *chain, const u8 *ctx,
			size_t ctx_len)
{
	struct tlsx_wr w;
	size_t i;

	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE, &w);
	tlsx_wr_vec(&w, 1, ctx, ctx_len);
	tlsx_wr_open(&w, 3);
	for (i = 0; chain && i < chain->n; i++) {
		tlsx_wr_vec(&w, 3, chain->der + chain->off[i], chain->len[i]);
		tlsx_wr_u16(&w, 0);	/* no CertificateEntry extensions */
	}
	tlsx_wr_close(&w);
	return hs_msg_end(hs, o, &w);
}

int hs_parse_certificate(const u8 *msg, size_t len, u32 requested,
			 const u8 **ctx, size_t *ctx_len, const u8 **certs,
			 size_t *lens, size_t *n)
{
	struct tlsx_rd r, list, exts;
	struct tlsx_exts found;
	int ret;

	*n = 0;
	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	/* 4.4.2: opaque certificate_request_context<0..2^8-1>;
	 * CertificateEntry certificate_list<0..2^24-1>.
	 */
	ret = tlsx_rd_vec(&r, 1, 0, 255, ctx, ctx_len);
	if (!ret)
		ret = tlsx_rd_open(&r, 3, 0, (1u << 24) - 1, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		if (*n == TLSX_CERT_MAX_CHAIN)
			return TLSX_ALERT_BAD_CERTIFICATE;
		/* opaque cert_data<1..2^24-1>; Extension extensions<0..2^16-1> */
		ret = tlsx_rd_vec(&list, 3, 1, (1u << 24) - 1, &certs[*n],
				  &lens[*n]);
		if (!ret)
			ret = tlsx_rd_open(&list, 2, 0, 65535, &exts);
		if (!ret)
			ret = tlsx_ext_parse(TLSX_CTX_CT, &exts, requested,
					     &found);
		if (!ret)
			(*n)++;
	}
	return ret;
}

int hs_verify_peer_chain(struct tlsx_hs *hs, const u8 *const *certs,
			 const size_t *lens, size_t n, unsigned int purpose)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_x509 leaf;
	int ret;

	if (hs->test && hs->test->peer_cert)
		return hs->test->peer_cert(hs, certs, lens, n);
	if (!n)
		return TLSX_ALERT_BAD_CERTIFICATE;
	if (cfg->insecure && !cfg->trust) {
		/* No verification asked for: the leaf's key only, which
		 * CertificateVerify is still checked against.
		 */
		ret = tlsx_x509_parse(&leaf, certs[0], lens[0]);
		if (ret == -EOPNOTSUPP)
			return TLSX_ALERT_UNSUPPORTED_CERTIFICATE;
		if (ret)
			return TLSX_ALERT_BAD_CERTIFICATE;
		hs->peer_pub = leaf.pub;
		hs->peer_cert = false;	/* not verified */
		return 0;
	}
	if (!cfg->trust)
		return TLSX_ALERT_INTERNAL_ERROR;
	ret = tlsx_cert_verify_peer(cfg->trust, certs, lens, n, hs_now(hs),
				    purpose,
				    hs->server || !hs->server_name[0] ?
				    NULL : hs->server_name,
				    &hs->peer_pub, NULL);
	if (ret)
		return ret;
	hs->peer_cert = true;
	return 0;
}

/* Whether @scheme fits the leaf's key as 4.2.3 defines the RSA schemes. */
static bool hs_scheme_fits_leaf(const struct tlsx_public_key *pub, u16 scheme)
{
	bool pss_pss = scheme >= TLSX_SIG_RSA_PSS_PSS_SHA256 &&
		       scheme <= TLSX_SIG_RSA_PSS_PSS_SHA512;
	bool rsae = scheme >= TLSX_SIG_RSA_PSS_RSAE_SHA256 &&
		    scheme <= TLSX_SIG_RSA_PSS_RSAE_SHA512;

	if (pub->type != TLSX_KEY_RSA)
		return true;
	return pub->rsa_pss_only ? pss_pss : rsae;
}

u16 hs_pick_sig_scheme(const struct tlsx_hs *hs,
		       const struct tlsx_cert_chain *chain, const u16 *peer,
		       unsigned int n_peer)
{
	unsigned int i;

	for (i = 0; i < hs->n_sig_schemes; i++) {
		u16 s = hs->sig_schemes[i];

		if (hs_list_has(peer, n_peer, s) &&
		    tlsx_cv_key_can(&chain->key, s) &&
		    hs_scheme_fits_leaf(&chain->leaf.pub, s))
			return s;
	}
	return 0;
}

int hs_send_cert_verify(struct tlsx_hs *hs, struct hs_out *o,
			const struct tlsx_cert_chain *chain, u16 scheme)
{
	u8 th[TLSX_KS_MAX_SECRET], sig[RSA_MAX_BYTES];
	struct tlsx_wr w;
	size_t sig_len;
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = tlsx_cv_sign(&chain->key, scheme, hs->server, th,
				   hs->hash_len, hs_rand_cb, hs, sig,
				   sizeof(sig), &sig_len);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE_VERIFY, &w);
	tlsx_wr_u16(&w, scheme);
	tlsx_wr_vec(&w, 2, sig, sig_len);
	hs->own_sig_scheme = scheme;
	return hs_msg_end(hs, o, &w);
}

int hs_check_cert_verify(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	u8 th[TLSX_KS_MAX_SECRET];
	const u8 *sig;
	size_t sig_len;
	struct tlsx_rd r;
	u16 scheme;
	int ret;

	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	/* 4.4.3: SignatureScheme algorithm; opaque signature<0..2^16-1>. */
	ret = tlsx_rd_u16(&r, &scheme);
	if (!ret)
		ret = tlsx_rd_vec(&r, 2, 0, 65535, &sig, &sig_len);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	/*
	 * 4.4.3: the algorithm "MUST be one of those present in the
	 * supported_signature_algorithms field of the
	 * "signature_algorithms" extension" we sent.
	 */
	if (!hs_list_has(hs->sig_schemes, hs->n_sig_schemes, scheme))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	ret = tlsx_transcript_hash(&hs->ts, th);
	if (ret)
		return ret;
	if (hs->test && hs->test->cert_verify)
		ret = hs->test->cert_verify(hs, scheme, th, hs->hash_len, sig,
					    sig_len);
	else
		ret = tlsx_cv_verify(&hs->peer_pub, scheme, !hs->server, th,
				     hs->hash_len, sig, sig_len);
	if (ret)
		return ret;
	hs->peer_sig_scheme = scheme;
	return 0;
}

int hs_parse_sig_schemes(const u8 *data, size_t len, u16 *out,
			 unsigned int *n)
{
	struct tlsx_rd r, list;
	u16 v;
	int ret;

	*n = 0;
	tlsx_rd_init(&r, data, len);
	/* 4.2.3: SignatureScheme supported_signature_algorithms<2..2^16-2> */
	ret = tlsx_rd_open(&r, 2, 2, 65534, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u16(&list, &v);
		if (!ret && *n < TLSX_HS_MAX_LIST && hs_scheme_ok(v) &&
		    !hs_list_has(out, *n, v))
			out[(*n)++] = v;
	}
	return ret;
}

int hs_write_alpn(struct tlsx_wr *w, const u8 *alpn, size_t len)
{
	/* RFC 7301 3.1: ProtocolName protocol_name_list<2..2^16-1>. */
	return tlsx_wr_vec(w, 2, alpn, len);
}

int hs_write_record_size_limit(struct tlsx_wr *w, u16 limit)
{
	return tlsx_wr_u16(w, limit);
}

int hs_parse_record_size_limit(const u8 *data, size_t len, u16 *limit)
{
	struct tlsx_rd r;
	int ret;

	tlsx_rd_init(&r, data, len);
	ret = tlsx_rd_u16(&r, limit);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	/* RFC 8449 4: "a value less than 64 MUST be treated as a fatal
	 * error ... "illegal_parameter" alert".
	 */
	if (*limit < 64)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

/* --- input -------------------------------------------------------------- */

/* An alert record's body: the handshake ends, nothing is sent back. */
static int hs_alert_in(struct tlsx_hs *hs, const u8 *body, size_t len)
{
	/* 6: struct { AlertLevel level; AlertDescription description; } */
	if (len != 2)
		return TLSX_ALERT_DECODE_ERROR;
	/*
	 * 5.1: "Handshake messages MUST NOT be interleaved with other
	 * record types": an alert between two fragments of a message is
	 * refused rather than taken (a CCS is, in hs_record()).
	 */
	if (hs->msg_len)
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	/*
	 * 6: in TLS 1.3 the level is implicit; every alert but
	 * close_notify and user_canceled is fatal, and those two also end
	 * a handshake that is not done.
	 */
	hs->alert = body[1];
	hs->alert_received = true;
	return HS_EALERT_IN;
}

/*
 * The handshake bytes now at hs->buf[0..hs->msg_len + @len): each whole
 * message goes to the role; the start of the next stays for the next
 * record.
 */
static int hs_messages(struct tlsx_hs *hs, size_t len, struct hs_out *o)
{
	size_t avail = hs->msg_len + len, off = 0, mlen;
	int ret;

	/* 5.1: "Implementations MUST NOT send zero-length fragments of
	 * Handshake types."
	 */
	if (!len)
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	while (avail - off >= TLSX_HS_MSG_HDR && !hs->done) {
		const u8 *m = hs->buf + off;

		mlen = (size_t)m[1] << 16 | (size_t)m[2] << 8 | m[3];
		/*
		 * Our bound (a certificate chain too long for max_msg): the
		 * RFC names no alert; the length is out of the range this
		 * endpoint takes, 6.2's decode_error.
		 */
		if (mlen > hs->max_msg)
			return TLSX_ALERT_DECODE_ERROR;
		if (avail - off < TLSX_HS_MSG_HDR + mlen)
			break;
		hs->rd_key_changed = false;
		ret = hs->role->handle(hs, m, TLSX_HS_MSG_HDR + mlen, o);
		if (ret)
			return ret;
		off += TLSX_HS_MSG_HDR + mlen;
		/* The server's ClientHello may now be followed by a CCS. */
		hs->ccs_ok = true;
		/*
		 * 5.1: a message that precedes a key change (ServerHello,
		 * Finished, ...) must end its record: "if they are not,
		 * then they MUST terminate the connection with an
		 * "unexpected_message" alert".  The last message of the
		 * handshake ends the record too: nothing after it is ours.
		 */
		if ((hs->rd_key_changed || hs->done) && off != avail)
			return TLSX_ALERT_UNEXPECTED_MESSAGE;
	}
	hs->msg_len = avail - off;
	if (off && hs->msg_len)
		memmove(hs->buf, hs->buf + off, hs->msg_len);
	return 0;
}

/*
 * The largest TLSInnerPlaintext (content, type byte and padding) the
 * peer may send us: 2^14 + 1 (5.4), or the record_size_limit we
 * announced once the peer has announced one too (RFC 8449 4: a server
 * answers only a client that sent it; a client's is in force once the
 * server's EncryptedExtensions answered with its own).
 */
static size_t hs_inner_max(const struct tlsx_hs *hs)
{
	size_t lim = hs->cfg->record_size_limit;

	if (lim && hs->peer_record_size_limit && lim <= TLSX_REC_MAX_PLAIN)
		return lim;
	return TLSX_REC_MAX_PLAIN + 1;
}

/* One protected record: opened into hs->buf after the pending bytes. */
static int hs_protected(struct tlsx_hs *hs, const u8 *rec, size_t rec_len,
			struct hs_out *o)
{
	u8 *copy = hs->buf + hs->msg_len, *data, type;
	size_t len;
	int ret;

	memcpy(copy, rec, rec_len);
	ret = tlsx_rec_open(&hs->rd, copy, rec_len, TLSX_REC_MAX_PLAIN, &type,
			    &data, &len);
	if (ret == TLSX_ALERT_BAD_RECORD_MAC &&
	    hs->early_skip >= rec_len - TLSX_REC_HDR) {
		/* 4.2.10: 0-RTT declined, the client's early records are
		 * discarded, up to max_early_data_size.
		 */
		hs->early_skip -= rec_len - TLSX_REC_HDR;
		return 0;
	}
	if (ret)
		return ret;
	/*
	 * 5.4: "the full encoded TLSInnerPlaintext MUST NOT exceed 2^14 +
	 * 1 octets", padding included (tlsx_rec_open() checks that bound,
	 * not a limit we announced, which counts the padding too); RFC 8449 4: "A TLS endpoint that receives a record larger
	 * than its advertised limit MUST generate a fatal
	 * "record_overflow" alert".  Judged once the record opened: 0-RTT
	 * records skipped above were sent before any limit was known.
	 */
	if (rec_len - TLSX_REC_HDR - TLSX_AEAD_TAG_LEN > hs_inner_max(hs))
		return TLSX_ALERT_RECORD_OVERFLOW;
	hs->early_skip = 0;
	switch (type) {
	case TLSX_CT_HANDSHAKE:
		memmove(copy, data, len);
		return hs_messages(hs, len, o);
	case TLSX_CT_ALERT:
		return hs_alert_in(hs, data, len);
	default:
		/*
		 * 5: a protected change_cipher_spec, or application data
		 * before the handshake is done (tlsx accepts no 0-RTT):
		 * unexpected_message.
		 */
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	}
}

/* One whole record @rec[0..@rec_len), its header checked. */
static int hs_record(struct tlsx_hs *hs, const u8 *rec, size_t rec_len,
		     struct hs_out *o)
{
	const u8 *body = rec + TLSX_REC_HDR;
	size_t len = rec_len - TLSX_REC_HDR;

	switch (rec[0]) {
	case TLSX_CT_CHANGE_CIPHER_SPEC:
		/*
		 * 5: "An implementation may receive an unencrypted record of
		 * type change_cipher_spec consisting of the single byte
		 * value 0x01 at any time after the first ClientHello message
		 * has been sent or received and before the peer's Finished
		 * message has been received and MUST simply drop it ...  An
		 * implementation which receives any other change_cipher_spec
		 * value ... MUST abort the handshake with an
		 * "unexpected_message" alert."  Not inside a message either
		 * (5.1: no interleaving).
		 */
		if (!hs->ccs_ok || len != 1 || body[0] != 1 || hs->msg_len)
			return TLSX_ALERT_UNEXPECTED_MESSAGE;
		/*
		 * D.4: a compatibility-mode peer sends "a dummy
		 * change_cipher_spec record" once (after its first
		 * ClientHello or before its second flight; after the
		 * server's first handshake message); a second one is not
		 * that record.
		 */
		if (hs->ccs_seen)
			return TLSX_ALERT_UNEXPECTED_MESSAGE;
		hs->ccs_seen = true;
		return 0;
	case TLSX_CT_ALERT:
		/*
		 * Unprotected alerts are taken even once the read key is
		 * set: a peer that fails before it switches its write key
		 * (OpenSSL does) sends them so, and the handshake ends
		 * either way.
		 */
		return hs_alert_in(hs, body, len);
	case TLSX_CT_HANDSHAKE:
		/* 5.2: once keyed, handshake records are protected. */
		if (hs->rd.set)
			return TLSX_ALERT_UNEXPECTED_MESSAGE;
		memcpy(hs->buf + hs->msg_len, body, len);
		return hs_messages(hs, len, o);
	default:	/* application_data: tlsx_rec_header() checked */
		if (hs->rd.set)
			return hs_protected(hs, rec, rec_len, o);
		/* 4.2.10: after a HelloRetryRequest, early data is skipped. */
		if (hs->early_skip >= len) {
			hs->early_skip -= len;
			return 0;
		}
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	}
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

int tlsx_hs_step(struct tlsx_hs *hs, const u8 *in, size_t in_len,
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
		ret = hs_record(hs, rec, TLSX_REC_HDR + body, &o);
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
