// SPDX-License-Identifier: GPL-2.0
/*
 * client.c - the TLS 1.3 client (RFC 8446): the ClientHello, the
 * HelloRetryRequest, the server's flight and the client's second flight.
 *
 * One state per message awaited; client_handle() is the one dispatch
 * switch and refuses a message the state does not expect with
 * unexpected_message; each handler checks its message, adds it to the
 * transcript where the hashes need it and sets the next state last.
 *
 *   EXPECT_SERVER_HELLO  -- HelloRetryRequest (once) --> EXPECT_SERVER_HELLO
 *          | ServerHello
 *   EXPECT_ENCRYPTED_EXTENSIONS  -- resumed (PSK) --> EXPECT_FINISHED
 *   EXPECT_CERTIFICATE_REQUEST_OR_CERTIFICATE -- CertificateRequest -->
 *          | Certificate                         EXPECT_CERTIFICATE
 *   EXPECT_CERTIFICATE_VERIFY
 *   EXPECT_FINISHED  -> [CCS] [Certificate, CertificateVerify] Finished
 *   CLIENT_DONE
 */
#include <arpa/inet.h>

#include "x509/x509.h"
#include "handshake/cert.h"
#include "handshake/hs_impl.h"

enum client_state {
	EXPECT_SERVER_HELLO,
	EXPECT_ENCRYPTED_EXTENSIONS,
	EXPECT_CERTIFICATE_REQUEST_OR_CERTIFICATE,
	EXPECT_CERTIFICATE,
	EXPECT_CERTIFICATE_VERIFY,
	EXPECT_FINISHED,
	CLIENT_DONE,
};

/* RFC 8446 4.1.3: the last 8 bytes of a downgraded server's Random. */
static const u8 downgrade_tls12[8] = {
	0x44, 0x4f, 0x57, 0x4e, 0x47, 0x52, 0x44, 0x01
};
static const u8 downgrade_tls11[8] = {
	0x44, 0x4f, 0x57, 0x4e, 0x47, 0x52, 0x44, 0x00
};

/* Certificates may be signed with PKCS #1 v1.5 (4.2.3). */
static const u16 cert_only_schemes[] = {
	TLSX_SIG_RSA_PKCS1_SHA256,
	TLSX_SIG_RSA_PKCS1_SHA384,
	TLSX_SIG_RSA_PKCS1_SHA512,
};

/* RFC 6066 3: "Literal IPv4 and IPv6 addresses are not permitted". */
static bool name_is_ip(const char *name)
{
	u8 addr[16];

	return inet_pton(AF_INET, name, addr) == 1 ||
	       inet_pton(AF_INET6, name, addr) == 1;
}

/* --- ClientHello --------------------------------------------------------- */

/* Opens extension @id in @w and marks it sent. */
static void ext_open(struct tlsx_hs *hs, struct tlsx_wr *w,
		     enum tlsx_ext_id id)
{
	tlsx_wr_u16(w, tlsx_ext_def(id)->type);
	tlsx_wr_open(w, 2);
	hs->sent_exts |= TLSX_EXT_BIT(id);
}

static void write_sig_algs(struct tlsx_hs *hs, struct tlsx_wr *w, bool cert)
{
	unsigned int i;

	ext_open(hs, w, cert ? TLSX_EXT_SIGNATURE_ALGORITHMS_CERT :
		 TLSX_EXT_SIGNATURE_ALGORITHMS);
	tlsx_wr_open(w, 2);
	for (i = 0; i < hs->n_sig_schemes; i++)
		tlsx_wr_u16(w, hs->sig_schemes[i]);
	for (i = 0; cert && i < ARRAY_SIZE(cert_only_schemes); i++)
		tlsx_wr_u16(w, cert_only_schemes[i]);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
}

/*
 * 4.2.11: one PskIdentity (the ticket and its obfuscated age) and a
 * binder of zeros, filled by client_bind() once the message is whole.
 * "The "pre_shared_key" extension MUST be the last extension".
 */
static void write_pre_shared_key(struct tlsx_hs *hs, struct tlsx_wr *w)
{
	const struct tlsx_session *s = &hs->session;
	s64 age = hs_now(hs) - s->issued;
	u8 *binder;

	ext_open(hs, w, TLSX_EXT_PRE_SHARED_KEY);
	tlsx_wr_open(w, 2);
	tlsx_wr_vec(w, 2, s->ticket, s->ticket_len);
	/* 4.2.11.1: milliseconds since issue, plus age_add, mod 2^32. */
	tlsx_wr_u32(w, (u32)((u64)(age > 0 ? age : 0) * 1000) + s->age_add);
	tlsx_wr_close(w);
	tlsx_wr_open(w, 2);
	tlsx_wr_open(w, 1);
	if (!tlsx_wr_reserve(w, s->psk_len, &binder))
		memset(binder, 0, s->psk_len);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
}

/*
 * 4.2.11.2: the binder, HMAC under the resumption binder key's finished
 * key over Transcript-Hash(the ClientHello up to the binders list; after
 * a HelloRetryRequest, the messages before it too).
 */
static int client_bind(struct tlsx_hs *hs, u8 *msg, size_t len)
{
	enum tlsx_hash_alg hash = hs->ks.alg;
	size_t hl = tlsx_hash_digest_size(hash), trunc = len - 2 - 1 - hl;
	u8 key[TLSX_KS_MAX_SECRET], th[TLSX_KS_MAX_SECRET];
	int ret;

	ret = tlsx_ks_derive(&hs->ks, TLSX_KS_RES_BINDER, NULL, key);
	if (!ret)
		ret = tlsx_transcript_peek(&hs->ts, hash, msg, trunc, th);
	if (!ret)
		ret = tlsx_finished_mac(hash, key, th, msg + len - hl);
	memzero_explicit(key, sizeof(key));
	return ret;
}

/*
 * Whether the session may be offered (4.6.1: "Clients MUST only resume
 * if the new SNI value is valid for the server certificate presented in
 * the original session, and SHOULD only resume if the SNI value matches
 * the one used in the original session"): same name, a suite we offer,
 * not expired.  Otherwise a full handshake, not an error.
 */
static bool session_usable(struct tlsx_hs *hs)
{
	const struct tlsx_session *s = &hs->session;
	s64 now = hs_now(hs);

	return hs->have_session &&
	       !strcmp(s->server_name, hs->server_name) &&
	       hs_list_has(hs->suites, hs->n_suites, s->suite) &&
	       s->lifetime && now >= s->issued &&
	       now - s->issued < (s64)s->lifetime;
}

static void write_extensions(struct tlsx_hs *hs, struct tlsx_wr *w)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	unsigned int i;

	hs->sent_exts = 0;
	tlsx_wr_open(w, 2);
	if (hs->server_name[0] && !name_is_ip(hs->server_name)) {
		/* RFC 6066 3: ServerNameList with one host_name (0). */
		ext_open(hs, w, TLSX_EXT_SERVER_NAME);
		tlsx_wr_open(w, 2);
		tlsx_wr_u8(w, 0);
		tlsx_wr_vec(w, 2, hs->server_name, strlen(hs->server_name));
		tlsx_wr_close(w);
		tlsx_wr_close(w);
	}
	/* 4.2.7: NamedGroup named_group_list<2..2^16-1>. */
	ext_open(hs, w, TLSX_EXT_SUPPORTED_GROUPS);
	tlsx_wr_open(w, 2);
	for (i = 0; i < hs->n_groups; i++)
		tlsx_wr_u16(w, hs->groups[i]);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	write_sig_algs(hs, w, false);
	write_sig_algs(hs, w, true);
	if (cfg->alpn_len) {
		ext_open(hs, w, TLSX_EXT_ALPN);
		hs_write_alpn(w, cfg->alpn, cfg->alpn_len);
		tlsx_wr_close(w);
	}
	/*
	 * RFC 8449 4: "a TLS 1.3 endpoint MUST NOT send a value larger
	 * than 2^14 + 1" (a larger one configured says no limit, as that).
	 */
	if (cfg->record_size_limit) {
		ext_open(hs, w, TLSX_EXT_RECORD_SIZE_LIMIT);
		hs_write_record_size_limit(w, cfg->record_size_limit >
					   TLSX_REC_MAX_PLAIN + 1 ?
					   TLSX_REC_MAX_PLAIN + 1 :
					   cfg->record_size_limit);
		tlsx_wr_close(w);
	}
	/* 4.2.1: ProtocolVersion versions<2..254>: TLS 1.3 only. */
	ext_open(hs, w, TLSX_EXT_SUPPORTED_VERSIONS);
	tlsx_wr_open(w, 1);
	tlsx_wr_u16(w, TLSX_HS_VERSION_13);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	/*
	 * 4.2.9: the modes a ticket from this server may be used with
	 * (psk_dhe_ke, and psk_ke when allowed); sent without a PSK too,
	 * so that the server issues tickets.
	 */
	ext_open(hs, w, TLSX_EXT_PSK_KEY_EXCHANGE_MODES);
	tlsx_wr_open(w, 1);
	tlsx_wr_u8(w, 1);
	if (cfg->allow_psk_ke)
		tlsx_wr_u8(w, 0);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	/* 4.2.8: KeyShareEntry client_shares<0..2^16-1>. */
	ext_open(hs, w, TLSX_EXT_KEY_SHARE);
	tlsx_wr_open(w, 2);
	for (i = 0; i < hs->n_shares; i++) {
		tlsx_wr_u16(w, hs->shares[i].group);
		tlsx_wr_vec(w, 2, hs->shares[i].pub, hs->shares[i].pub_len);
	}
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	/* 4.2.2: the HelloRetryRequest's cookie, echoed. */
	if (hs->cookie_len) {
		ext_open(hs, w, TLSX_EXT_COOKIE);
		tlsx_wr_vec(w, 2, hs->cookie, hs->cookie_len);
		tlsx_wr_close(w);
	}
	if (hs->psk_offered)
		write_pre_shared_key(hs, w);
	tlsx_wr_close(w);
}

/*
 * The test seam: the ClientHello @ch replaces the one built; the state
 * the rest of the handshake checks against (Random, session id, the
 * extensions sent) is taken from it.
 */
static int use_test_hello(struct tlsx_hs *hs, struct hs_out *o, u8 *msg,
			  size_t *len)
{
	const u8 *ch = hs->hrr ? hs->test->client_hello2 :
			   hs->test->client_hello, *sid;
	size_t n = hs->hrr ? hs->test->client_hello2_len :
		   hs->test->client_hello_len, sid_len;
	struct tlsx_rd r, blk;
	struct tlsx_exts exts;
	int ret;

	if ((size_t)(msg - o->buf) + n + TLSX_REC_HDR > o->cap ||
	    n < TLSX_HS_MSG_HDR)
		return -ENOSPC;
	memcpy(msg, ch, n);
	*len = n;
	tlsx_rd_init(&r, ch + TLSX_HS_MSG_HDR + 2, n - TLSX_HS_MSG_HDR - 2);
	ret = tlsx_rd_copy(&r, hs->random, TLSX_HS_RANDOM);
	if (!ret)
		ret = tlsx_rd_vec(&r, 1, 0, 32, &sid, &sid_len);
	if (!ret)
		ret = tlsx_rd_open(&r, 2, 2, 65534, &blk);
	if (!ret)
		ret = tlsx_rd_open(&r, 1, 1, 255, &blk);
	if (!ret)
		ret = tlsx_rd_open(&r, 2, 0, 65535, &blk);
	if (!ret)
		ret = tlsx_ext_parse(TLSX_CTX_CH, &blk, 0, &exts);
	if (ret)
		return -EINVAL;
	memcpy(hs->session_id, sid, sid_len);
	hs->session_id_len = (u8)sid_len;
	hs->sent_exts = exts.present;
	return 0;
}

static int client_send_hello(struct tlsx_hs *hs, struct hs_out *o)
{
	struct tlsx_wr w;
	unsigned int i;
	size_t len;
	u8 *msg;
	int ret;

	hs_msg_begin(hs, o, TLSX_HT_CLIENT_HELLO, &w);
	/* 4.1.2: legacy_version 0x0303; TLS 1.3 is in supported_versions. */
	tlsx_wr_u16(&w, TLSX_HS_VERSION_12);
	tlsx_wr_bytes(&w, hs->random, TLSX_HS_RANDOM);
	tlsx_wr_vec(&w, 1, hs->session_id, hs->session_id_len);
	tlsx_wr_open(&w, 2);
	for (i = 0; i < hs->n_suites; i++)
		tlsx_wr_u16(&w, hs->suites[i]);
	tlsx_wr_close(&w);
	/* legacy_compression_methods: exactly one byte, null (0). */
	tlsx_wr_u8(&w, 1);
	tlsx_wr_u8(&w, 0);
	write_extensions(hs, &w);
	ret = hs_msg_end_raw(hs, o, &w, &msg, &len);
	if (!ret && hs->test &&
	    (hs->hrr ? hs->test->client_hello2 : hs->test->client_hello))
		ret = use_test_hello(hs, o, msg, &len);
	if (!ret && hs->psk_offered)
		ret = client_bind(hs, msg, len);
	if (ret)
		return ret;
	return hs_msg_commit(hs, o, msg, len);
}

static int client_start(struct tlsx_hs *hs, struct hs_out *o)
{
	int ret;

	/* The draws in this order: RFC 8448's traces inject them so. */
	ret = hs_rand(hs, hs->random, TLSX_HS_RANDOM);
	if (ret)
		return ret;
	/*
	 * 4.1.2 / D.4: in compatibility mode legacy_session_id is 32
	 * random bytes, so middleboxes see a TLS 1.2 resumption.
	 */
	hs->session_id_len = 0;
	if (hs->compat) {
		ret = hs_rand(hs, hs->session_id, TLSX_HS_SESSION_ID);
		if (ret)
			return ret;
		hs->session_id_len = TLSX_HS_SESSION_ID;
	}
	/* One share, for the first group; the others by HelloRetryRequest. */
	if (!hs->n_groups || !hs->n_suites || !hs->n_sig_schemes)
		return -EINVAL;
	ret = tlsx_kx_generate(&hs->shares[0], hs->groups[0], hs_rand_cb, hs);
	if (ret)
		return ret;
	hs->n_shares = 1;
	if (session_usable(hs)) {
		enum tlsx_hash_alg hash;

		/* 7.1: the early secret from the ticket's PSK (4.6.1). */
		ret = tlsx_suite_params(hs->session.suite, NULL, &hash, NULL);
		if (!ret)
			ret = tlsx_ks_init(&hs->ks, hash, hs->session.psk,
					   hs->session.psk_len);
		if (ret)
			return ret;
		hs->psk_offered = true;
	}
	hs->ch_record_0301 = true;
	ret = client_send_hello(hs, o);
	if (ret)
		return ret;
	hs->state = EXPECT_SERVER_HELLO;
	return 0;
}

/* --- ServerHello and HelloRetryRequest ----------------------------------- */

struct server_hello {
	u16 version;
	const u8 *random;
	const u8 *sid;
	size_t sid_len;
	u16 suite;
	u8 compression;
	bool has_exts;
	struct tlsx_rd exts;
};

static int parse_server_hello(const u8 *msg, size_t len,
			      struct server_hello *sh)
{
	struct tlsx_rd r;
	int ret;

	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	ret = tlsx_rd_u16(&r, &sh->version);
	if (!ret)
		ret = tlsx_rd_bytes(&r, TLSX_HS_RANDOM, &sh->random);
	if (!ret)
		ret = tlsx_rd_vec(&r, 1, 0, 32, &sh->sid, &sh->sid_len);
	if (!ret)
		ret = tlsx_rd_u16(&r, &sh->suite);
	if (!ret)
		ret = tlsx_rd_u8(&r, &sh->compression);
	if (ret)
		return ret;
	/* A TLS 1.2 ServerHello may end here, without extensions. */
	sh->has_exts = tlsx_rd_left(&r) != 0;
	if (sh->has_exts) {
		ret = tlsx_rd_open(&r, 2, 0, 65535, &sh->exts);
		if (!ret)
			ret = tlsx_rd_done(&r);
	}
	return ret;
}

/*
 * supported_versions in a ServerHello, found before the extension walk:
 * a TLS 1.2 server's other extensions must not hide the version.  *@v
 * is 0 when absent.  An extension block that does not frame is
 * decode_error (6.2), not a missing version.
 */
static int find_selected_version(struct tlsx_rd exts, u16 *v)
{
	struct tlsx_rd body;
	u16 type;

	*v = 0;
	while (tlsx_rd_left(&exts)) {
		if (tlsx_rd_u16(&exts, &type) ||
		    tlsx_rd_open(&exts, 2, 0, 65535, &body))
			return TLSX_ALERT_DECODE_ERROR;
		if (type == tlsx_ext_def(TLSX_EXT_SUPPORTED_VERSIONS)->type) {
			if (tlsx_rd_u16(&body, v) || tlsx_rd_done(&body))
				return TLSX_ALERT_DECODE_ERROR;
			return 0;
		}
	}
	return 0;
}

/* The checks ServerHello and HelloRetryRequest share (4.1.3, 4.1.4). */
static int check_server_hello(struct tlsx_hs *hs, const struct server_hello *sh)
{
	u16 v = 0;
	int ret;

	if (sh->has_exts) {
		ret = find_selected_version(sh->exts, &v);
		if (ret)
			return ret;
	}
	/*
	 * 4.1.3: a ServerHello without supported_versions negotiates TLS
	 * 1.2 or below, which tlsx does not do.  Before that, a downgraded
	 * TLS 1.3 server's sentinel: "If a match is found, the receiving
	 * implementation MUST abort the handshake with an
	 * "illegal_parameter" alert."
	 */
	if (!v || sh->version != TLSX_HS_VERSION_12) {
		if (!memcmp(sh->random + 24, downgrade_tls12, 8) ||
		    !memcmp(sh->random + 24, downgrade_tls11, 8))
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		return TLSX_ALERT_PROTOCOL_VERSION;
	}
	/*
	 * 4.2.1: "If the "supported_versions" extension in the ServerHello
	 * contains a version not offered by the client or contains a
	 * version prior to TLS 1.3, the client MUST abort the handshake
	 * with an "illegal_parameter" alert."
	 */
	if (v != TLSX_HS_VERSION_13)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.1.3: the session id echoed, or illegal_parameter. */
	if (sh->sid_len != hs->session_id_len ||
	    memcmp(sh->sid, hs->session_id, sh->sid_len))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.1.3: a suite we did not offer is illegal_parameter. */
	if (!hs_list_has(hs->suites, hs->n_suites, sh->suite))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.1.4: ServerHello keeps the HelloRetryRequest's suite. */
	if (hs->hrr && sh->suite != hs->suite)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.1.3: legacy_compression_method "MUST have the value 0". */
	if (sh->compression)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

static int client_hrr(struct tlsx_hs *hs, const u8 *msg, size_t len,
		      struct server_hello *sh, struct hs_out *o)
{
	struct tlsx_exts exts;
	struct tlsx_rd r;
	const u8 *cookie = NULL;
	size_t cookie_len = 0;
	u16 group = 0;
	int ret;

	/* A second one was refused by the caller (4.1.4). */
	ret = tlsx_ext_parse(TLSX_CTX_HRR, &sh->exts, hs->sent_exts, &exts);
	if (ret)
		return ret;
	if (exts.present & TLSX_EXT_BIT(TLSX_EXT_KEY_SHARE)) {
		/* 4.2.8: struct { NamedGroup selected_group; } */
		tlsx_rd_init(&r, exts.ext[TLSX_EXT_KEY_SHARE].data,
			     exts.ext[TLSX_EXT_KEY_SHARE].len);
		ret = tlsx_rd_u16(&r, &group);
		if (!ret)
			ret = tlsx_rd_done(&r);
		if (ret)
			return ret;
		/*
		 * 4.2.8: the selected group must be in supported_groups and
		 * not one a share was sent for, "illegal_parameter" else.
		 */
		if (!hs_list_has(hs->groups, hs->n_groups, group) ||
		    group == hs->shares[0].group)
			return TLSX_ALERT_ILLEGAL_PARAMETER;
	}
	if (exts.present & TLSX_EXT_BIT(TLSX_EXT_COOKIE)) {
		/* 4.2.2: opaque cookie<1..2^16-1>. */
		tlsx_rd_init(&r, exts.ext[TLSX_EXT_COOKIE].data,
			     exts.ext[TLSX_EXT_COOKIE].len);
		ret = tlsx_rd_vec(&r, 2, 1, 65535, &cookie, &cookie_len);
		if (!ret)
			ret = tlsx_rd_done(&r);
		if (ret)
			return ret;
		/* Our bound, not the RFC's: the peer asks too much. */
		if (cookie_len > TLSX_HS_MAX_COOKIE)
			return TLSX_ALERT_HANDSHAKE_FAILURE;
	}
	/* 4.1.4: an HRR that "would not result in any change in the
	 * ClientHello" is illegal_parameter.
	 */
	if (!group && !cookie)
		return TLSX_ALERT_ILLEGAL_PARAMETER;

	/* 4.4.1: ClientHello1 becomes message_hash, then the HRR. */
	ret = hs_set_suite(hs, sh->suite);
	if (!ret)
		ret = tlsx_transcript_hrr(&hs->ts);
	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);

	if (cookie) {
		memcpy(hs->cookie, cookie, cookie_len);
		hs->cookie_len = cookie_len;
	}
	if (group) {
		tlsx_kx_wipe(&hs->shares[0]);
		ret = tlsx_kx_generate(&hs->shares[0], group, hs_rand_cb, hs);
		if (ret)
			return ret;
	}
	/*
	 * 4.1.4: a PSK whose hash is not the HRR suite's cannot be used;
	 * it is left out of ClientHello2 ("SHOULD omit").
	 */
	if (hs->psk_offered && hs->ks.alg != hs->hash) {
		hs->psk_offered = false;
		tlsx_ks_wipe(&hs->ks);
	}
	hs->hrr = true;
	hs->hrr_group = group;
	/* D.4: the dummy CCS "immediately before its second flight". */
	if (hs->session_id_len) {
		ret = hs_send_ccs(hs, o);
		if (ret)
			return ret;
	}
	ret = client_send_hello(hs, o);
	if (ret)
		return ret;
	hs->state = EXPECT_SERVER_HELLO;
	return 0;
}

/*
 * The ServerHello's pre_shared_key (4.2.11): the one identity we offered,
 * and a suite of the PSK's hash.  Sets hs->resumed; without it the early
 * secret is the zeros' (a full handshake).
 */
static int client_psk_accepted(struct tlsx_hs *hs,
			       const struct server_hello *sh,
			       const struct tlsx_exts *exts)
{
	enum tlsx_hash_alg hash;
	struct tlsx_rd r;
	u16 id;
	int ret;

	if (!(exts->present & TLSX_EXT_BIT(TLSX_EXT_PRE_SHARED_KEY))) {
		if (hs->psk_offered)
			tlsx_ks_wipe(&hs->ks);
		return 0;
	}
	/* ext.c refused it unless we offered one. */
	tlsx_rd_init(&r, exts->ext[TLSX_EXT_PRE_SHARED_KEY].data,
		     exts->ext[TLSX_EXT_PRE_SHARED_KEY].len);
	ret = tlsx_rd_u16(&r, &id);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	/*
	 * 4.2.11: "Clients MUST verify that the server's selected_identity
	 * is within the range supplied by the client, that the server
	 * selected a cipher suite indicating a Hash associated with the
	 * PSK ... If these values are not consistent, the client MUST abort
	 * the handshake with an "illegal_parameter" alert."
	 */
	ret = tlsx_suite_params(sh->suite, NULL, &hash, NULL);
	if (ret || id != 0 || hash != hs->ks.alg)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	hs->resumed = true;
	return 0;
}

/*
 * ServerHello accepted: the suite, the transcript, the handshake secrets
 * from @dhe (NULL: psk_ke), the server's handshake key.
 */
static int client_keys(struct tlsx_hs *hs, const u8 *msg, size_t len,
		       u16 suite, const u8 *dhe, size_t dhe_len, u16 group)
{
	int ret = hs_set_suite(hs, suite);

	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	/* 7.1: without the PSK, the early secret of zeros. */
	if (!hs->resumed)
		ret = tlsx_ks_init(&hs->ks, hs->hash, NULL, 0);
	if (!ret)
		ret = hs_derive_handshake(hs, dhe, dhe_len);
	tlsx_kx_wipe(&hs->shares[0]);
	hs->n_shares = 0;
	if (!ret)
		ret = hs_set_read_secret(hs, hs->s_hs);
	if (ret)
		return ret;
	hs->group = group;
	hs->state = EXPECT_ENCRYPTED_EXTENSIONS;
	return 0;
}

static int client_server_hello(struct tlsx_hs *hs, const u8 *msg, size_t len,
			       struct hs_out *o)
{
	struct server_hello sh;
	struct tlsx_exts exts;
	struct tlsx_rd r;
	const u8 *share;
	size_t share_len, dhe_len;
	u8 dhe[TLSX_KX_MAX_SHARED];
	bool is_hrr;
	u16 group;
	int ret;

	ret = parse_server_hello(msg, len, &sh);
	if (ret)
		return ret;
	/* 4.1.3: HelloRetryRequest is a ServerHello with this Random. */
	is_hrr = !memcmp(sh.random, tlsx_hrr_random, TLSX_HS_RANDOM);
	/* 4.1.4: "If a client receives a second HelloRetryRequest in the
	 * same connection ..., it MUST abort the handshake with an
	 * "unexpected_message" alert."
	 */
	if (is_hrr && hs->hrr)
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	ret = check_server_hello(hs, &sh);
	if (ret)
		return ret;
	if (is_hrr)
		return client_hrr(hs, msg, len, &sh, o);

	ret = tlsx_ext_parse(TLSX_CTX_SH, &sh.exts, hs->sent_exts, &exts);
	if (!ret)
		ret = client_psk_accepted(hs, &sh, &exts);
	if (ret)
		return ret;
	/* psk_ke (4.2.9): no key share, when we allowed it. */
	if (hs->resumed && hs->cfg->allow_psk_ke &&
	    !(exts.present & TLSX_EXT_BIT(TLSX_EXT_KEY_SHARE)))
		return client_keys(hs, msg, len, sh.suite, NULL, 0, 0);
	/*
	 * 6.2 missing_extension: without psk_ke, the ServerHello must
	 * carry the key share (4.2.8).
	 */
	if (!(exts.present & TLSX_EXT_BIT(TLSX_EXT_KEY_SHARE)))
		return TLSX_ALERT_MISSING_EXTENSION;
	/* 4.2.8: KeyShareEntry server_share. */
	tlsx_rd_init(&r, exts.ext[TLSX_EXT_KEY_SHARE].data,
		     exts.ext[TLSX_EXT_KEY_SHARE].len);
	ret = tlsx_rd_u16(&r, &group);
	if (!ret)
		ret = tlsx_rd_vec(&r, 2, 1, 65535, &share, &share_len);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	/*
	 * 4.2.8: "clients MUST check that [the server's share] is in the
	 * same group as one of the client's shares" (illegal_parameter,
	 * as for a group not offered, 4.2.7).
	 */
	if (group != hs->shares[0].group)
		return TLSX_ALERT_ILLEGAL_PARAMETER;

	ret = tlsx_kx_shared(&hs->shares[0], share, share_len, dhe, &dhe_len);
	if (!ret)
		ret = client_keys(hs, msg, len, sh.suite, dhe, dhe_len, group);
	memzero_explicit(dhe, sizeof(dhe));
	return ret;
}

/* --- the server's encrypted flight --------------------------------------- */

/* RFC 7301 3.1: the one protocol the server chose, which we offered. */
static int client_alpn(struct tlsx_hs *hs, const u8 *data, size_t len)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_rd r, list, offered;
	const u8 *name, *o;
	size_t n, on;
	int ret;

	tlsx_rd_init(&r, data, len);
	ret = tlsx_rd_open(&r, 2, 2, 65535, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (!ret)
		ret = tlsx_rd_vec(&list, 1, 1, 255, &name, &n);
	/* "MUST contain exactly one "ProtocolName"" */
	if (!ret)
		ret = tlsx_rd_done(&list);
	if (ret)
		return ret;
	tlsx_rd_init(&offered, cfg->alpn, cfg->alpn_len);
	while (tlsx_rd_left(&offered)) {
		if (tlsx_rd_vec(&offered, 1, 1, 255, &o, &on))
			break;
		if (on == n && !memcmp(o, name, n)) {
			memcpy(hs->alpn, name, n);
			hs->alpn[n] = 0;
			return 0;
		}
	}
	/* Not one we offered: an inconsistent field (6.2). */
	return TLSX_ALERT_ILLEGAL_PARAMETER;
}

static int client_encrypted_extensions(struct tlsx_hs *hs, const u8 *msg,
				       size_t len)
{
	struct tlsx_exts exts;
	struct tlsx_rd r, blk;
	int ret;

	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	/* 4.3.1: Extension extensions<0..2^16-1>; unsolicited ones are
	 * unsupported_extension (ext.c).
	 */
	ret = tlsx_rd_open(&r, 2, 0, 65535, &blk);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (!ret)
		ret = tlsx_ext_parse(TLSX_CTX_EE, &blk, hs->sent_exts, &exts);
	if (ret)
		return ret;
	/* RFC 6066 3: the server's server_name is empty. */
	if ((exts.present & TLSX_EXT_BIT(TLSX_EXT_SERVER_NAME)) &&
	    exts.ext[TLSX_EXT_SERVER_NAME].len)
		return TLSX_ALERT_DECODE_ERROR;
	/*
	 * 4.2.7: the server's groups are only noted (tlsx does not), but
	 * they must frame: NamedGroup named_group_list<2..2^16-1>, else
	 * decode_error (6.2).
	 */
	if (exts.present & TLSX_EXT_BIT(TLSX_EXT_SUPPORTED_GROUPS)) {
		tlsx_rd_init(&r, exts.ext[TLSX_EXT_SUPPORTED_GROUPS].data,
			     exts.ext[TLSX_EXT_SUPPORTED_GROUPS].len);
		ret = tlsx_rd_open(&r, 2, 2, 65535, &blk);
		if (!ret)
			ret = tlsx_rd_done(&r);
		if (!ret && tlsx_rd_left(&blk) % 2)
			ret = TLSX_ALERT_DECODE_ERROR;
		if (ret)
			return ret;
	}
	if (exts.present & TLSX_EXT_BIT(TLSX_EXT_ALPN)) {
		ret = client_alpn(hs, exts.ext[TLSX_EXT_ALPN].data,
				  exts.ext[TLSX_EXT_ALPN].len);
		if (ret)
			return ret;
	}
	if (exts.present & TLSX_EXT_BIT(TLSX_EXT_RECORD_SIZE_LIMIT)) {
		ret = hs_parse_record_size_limit(
			exts.ext[TLSX_EXT_RECORD_SIZE_LIMIT].data,
			exts.ext[TLSX_EXT_RECORD_SIZE_LIMIT].len,
			&hs->peer_record_size_limit);
		if (ret)
			return ret;
	}
	tlsx_transcript_add(&hs->ts, msg, len);
	/*
	 * 2.2 / 4.3.2: a PSK handshake has no Certificate, and "Servers
	 * which are authenticating with a PSK MUST NOT send the
	 * CertificateRequest message in the main handshake".
	 */
	hs->state = hs->resumed ? EXPECT_FINISHED :
		    EXPECT_CERTIFICATE_REQUEST_OR_CERTIFICATE;
	return 0;
}

static int client_certificate_request(struct tlsx_hs *hs, const u8 *msg,
				      size_t len)
{
	struct tlsx_exts exts;
	struct tlsx_rd r, blk;
	const u8 *ctx;
	size_t ctx_len;
	int ret;

	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	/* 4.3.2: opaque certificate_request_context<0..2^8-1>;
	 * Extension extensions<2..2^16-1>.
	 */
	ret = tlsx_rd_vec(&r, 1, 0, 255, &ctx, &ctx_len);
	if (!ret)
		ret = tlsx_rd_open(&r, 2, 2, 65535, &blk);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (!ret)
		ret = tlsx_ext_parse(TLSX_CTX_CR, &blk, 0, &exts);
	if (ret)
		return ret;
	/*
	 * 4.3.2: the context "SHALL be zero length unless used for the
	 * post-handshake authentication exchanges" (which we do not offer).
	 */
	if (ctx_len)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.3.2: "The "signature_algorithms" extension MUST be specified". */
	if (!(exts.present & TLSX_EXT_BIT(TLSX_EXT_SIGNATURE_ALGORITHMS)))
		return TLSX_ALERT_MISSING_EXTENSION;
	ret = hs_parse_sig_schemes(exts.ext[TLSX_EXT_SIGNATURE_ALGORITHMS].data,
				   exts.ext[TLSX_EXT_SIGNATURE_ALGORITHMS].len,
				   hs->peer_sig_schemes,
				   &hs->n_peer_sig_schemes);
	if (ret)
		return ret;
	memcpy(hs->cert_req_ctx, ctx, ctx_len);
	hs->cert_req_ctx_len = (u8)ctx_len;
	hs->cert_requested = true;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = EXPECT_CERTIFICATE;
	return 0;
}

static int client_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	const u8 *certs[TLSX_CERT_MAX_CHAIN], *ctx;
	size_t lens[TLSX_CERT_MAX_CHAIN], n, ctx_len;
	int ret;

	ret = hs_parse_certificate(msg, len, hs->sent_exts, &ctx, &ctx_len,
				   certs, lens, &n);
	if (ret)
		return ret;
	/* 4.4.2: for server authentication the context "SHALL be zero
	 * length".
	 */
	if (ctx_len)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.4.2.4: "If the server supplies an empty Certificate message,
	 * the client MUST abort the handshake with a "decode_error" alert."
	 */
	if (!n)
		return TLSX_ALERT_DECODE_ERROR;
	ret = hs_verify_peer_chain(hs, certs, lens, n, X509_EKU_SERVER_AUTH);
	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = EXPECT_CERTIFICATE_VERIFY;
	return 0;
}

static int client_certificate_verify(struct tlsx_hs *hs, const u8 *msg,
				     size_t len)
{
	int ret = hs_check_cert_verify(hs, msg, len);

	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = EXPECT_FINISHED;
	return 0;
}

/*
 * The test seam (RFC 8448 section 6, an RSA-1024 client key): the first
 * of our schemes the server listed, and its hook signs.
 */
static u16 test_pick_scheme(const struct tlsx_hs *hs)
{
	unsigned int i;

	for (i = 0; i < hs->n_sig_schemes; i++)
		if (hs_list_has(hs->peer_sig_schemes, hs->n_peer_sig_schemes,
				hs->sig_schemes[i]))
			return hs->sig_schemes[i];
	return 0;
}

static int test_send_cert_verify(struct tlsx_hs *hs, struct hs_out *o,
				 u16 scheme)
{
	u8 th[TLSX_KS_MAX_SECRET], sig[512];
	struct tlsx_wr w;
	size_t sig_len;
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = hs->test->cert_sign(hs, scheme, th, hs->hash_len, sig,
					  sizeof(sig), &sig_len);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE_VERIFY, &w);
	tlsx_wr_u16(&w, scheme);
	tlsx_wr_vec(&w, 2, sig, sig_len);
	hs->own_sig_scheme = scheme;
	return hs_msg_end(hs, o, &w);
}

/* The client's second flight: [CCS] [Certificate, CertificateVerify] Fin. */
static int client_second_flight(struct tlsx_hs *hs, struct hs_out *o)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	const struct tlsx_cert_chain *chain = NULL;
	bool test_sign = hs->test && hs->test->cert_sign;
	u16 scheme = 0;
	int ret = 0;

	/* D.4: the dummy CCS before the first protected record. */
	if (hs->session_id_len)
		ret = hs_send_ccs(hs, o);
	if (!ret)
		ret = hs_set_write_secret(hs, hs->c_hs);
	if (ret)
		return ret;
	if (hs->cert_requested) {
		if (cfg->n_chains && cfg->chains[0]) {
			chain = cfg->chains[0];
			scheme = test_sign ? test_pick_scheme(hs) :
				 hs_pick_sig_scheme(hs, chain,
						    hs->peer_sig_schemes,
						    hs->n_peer_sig_schemes);
		}
		/*
		 * 4.4.2: "If the client does not send any certificates
		 * (i.e., it sends an empty Certificate message)": also when
		 * no scheme of ours fits the server's list.
		 */
		ret = hs_send_certificate(hs, o, scheme ? chain : NULL,
					  hs->cert_req_ctx,
					  hs->cert_req_ctx_len);
		if (!ret && scheme)
			ret = test_sign ? test_send_cert_verify(hs, o, scheme) :
			      hs_send_cert_verify(hs, o, chain, scheme);
		if (ret)
			return ret;
	}
	ret = hs_send_finished(hs, o, hs->c_hs);
	if (!ret)
		ret = hs_derive_resumption(hs);
	return ret;
}

static int client_finished(struct tlsx_hs *hs, const u8 *msg, size_t len,
			   struct hs_out *o)
{
	int ret = hs_check_finished(hs, msg, len, hs->s_hs);

	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	ret = hs_derive_application(hs);
	if (!ret)
		ret = client_second_flight(hs, o);
	if (ret)
		return ret;
	/* The handshake secrets are done with; the schedule, the PSK too. */
	tlsx_ks_wipe(&hs->ks);
	tlsx_session_wipe(&hs->session);
	hs->have_session = false;
	memzero_explicit(hs->c_hs, sizeof(hs->c_hs));
	memzero_explicit(hs->s_hs, sizeof(hs->s_hs));
	hs->done = true;
	hs->state = CLIENT_DONE;
	return 0;
}

/* The one dispatch: a message the state does not expect is refused. */
static int client_handle(struct tlsx_hs *hs, const u8 *msg, size_t len,
			 struct hs_out *o)
{
	u8 type = msg[0];

	switch (hs->state) {
	case EXPECT_SERVER_HELLO:
		if (type == TLSX_HT_SERVER_HELLO)
			return client_server_hello(hs, msg, len, o);
		break;
	case EXPECT_ENCRYPTED_EXTENSIONS:
		if (type == TLSX_HT_ENCRYPTED_EXTENSIONS)
			return client_encrypted_extensions(hs, msg, len);
		break;
	case EXPECT_CERTIFICATE_REQUEST_OR_CERTIFICATE:
		if (type == TLSX_HT_CERTIFICATE_REQUEST)
			return client_certificate_request(hs, msg, len);
		if (type == TLSX_HT_CERTIFICATE)
			return client_certificate(hs, msg, len);
		break;
	case EXPECT_CERTIFICATE:
		if (type == TLSX_HT_CERTIFICATE)
			return client_certificate(hs, msg, len);
		break;
	case EXPECT_CERTIFICATE_VERIFY:
		if (type == TLSX_HT_CERTIFICATE_VERIFY)
			return client_certificate_verify(hs, msg, len);
		break;
	case EXPECT_FINISHED:
		if (type == TLSX_HT_FINISHED)
			return client_finished(hs, msg, len, o);
		break;
	default:
		break;
	}
	/* 6.2: "An inappropriate message (e.g., the wrong handshake
	 * message ...) was received."
	 */
	return TLSX_ALERT_UNEXPECTED_MESSAGE;
}

const struct tlsx_hs_role tlsx_hs_client_role = {
	.name = "client",
	.start = client_start,
	.handle = client_handle,
};
