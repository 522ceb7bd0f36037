// SPDX-License-Identifier: GPL-2.0
/*
 * client_role.c - the TLS 1.3 client (RFC 8446): the ClientHello, the
 * HelloRetryRequest, the server's flight and the client's second flight.
 *
 * One state per message awaited; client_handle() is the one dispatch
 * switch and refuses a message the state does not expect with
 * unexpected_message; each handler checks its message, adds it to the
 * transcript where the hashes need it and sets the next state last.
 *
 *   CLIENT_EXPECT_SERVER_HELLO  -- HelloRetryRequest (once) --> CLIENT_EXPECT_SERVER_HELLO
 *          | ServerHello
 *   CLIENT_EXPECT_ENCRYPTED_EXTENSIONS  -- resumed (PSK) --> CLIENT_EXPECT_FINISHED
 *   CLIENT_EXPECT_CERTIFICATE_REQUEST_OR_CERTIFICATE -- CertificateRequest -->
 *          | Certificate                         CLIENT_EXPECT_CERTIFICATE
 *   CLIENT_EXPECT_CERTIFICATE_VERIFY
 *   CLIENT_EXPECT_FINISHED  -> [CCS] [Certificate, CertificateVerify] Finished
 *   CLIENT_DONE
 *
 * This file is the role's sequencing; the ClientHello is built in
 * client_hello.c, the resumption offer in client_psk.c, the
 * certificates and the second flight in client_auth.c.
 */
#include "handshake/engine/client_impl.h"

/* RFC 8446 4.1.3: the last 8 bytes of a downgraded server's Random. */
static const u8 downgrade_tls12[8] = {
	0x44, 0x4f, 0x57, 0x4e, 0x47, 0x52, 0x44, 0x01
};
static const u8 downgrade_tls11[8] = {
	0x44, 0x4f, 0x57, 0x4e, 0x47, 0x52, 0x44, 0x00
};


/*
 * The groups of ClientHello1's key shares (hs.h's key_shares): the
 * first group's, then with two the first group of the other kind, so
 * that the default X25519MLKEM768 list also carries an X25519 share
 * (draft-ietf-tls-ecdhe-mlkem: a classical server answers at once).
 */
static unsigned int client_share_groups(const struct tlsx_hs *hs,
					u16 out[TLSX_HS_MAX_SHARES])
{
	unsigned int want = hs->cfg->key_shares, i, n = 0;
	bool pq0 = tlsx_group_is_pq(hs->groups[0]);

	if (!want)
		want = pq0 ? 2 : 1;
	out[n++] = hs->groups[0];
	for (i = 1; i < hs->n_groups && n < want && n < TLSX_HS_MAX_SHARES;
	     i++)
		if (tlsx_group_is_pq(hs->groups[i]) != pq0)
			out[n++] = hs->groups[i];
	return n;
}

static int client_make_shares(struct tlsx_hs *hs)
{
	u16 groups[TLSX_HS_MAX_SHARES];
	unsigned int i, n = client_share_groups(hs, groups);
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = tlsx_kx_generate(&hs->shares[i], groups[i], false,
				       hs_rand_cb, hs);
	hs->n_shares = ret ? 0 : n;
	return ret;
}

/* Ours for @group among the shares sent, or NULL. */
static struct tlsx_kx *client_share_of(struct tlsx_hs *hs, u16 group)
{
	unsigned int i;

	for (i = 0; i < hs->n_shares; i++)
		if (hs->shares[i].group == group)
			return &hs->shares[i];
	return NULL;
}

static void client_wipe_shares(struct tlsx_hs *hs)
{
	unsigned int i;

	for (i = 0; i < TLSX_HS_MAX_SHARES; i++)
		tlsx_kx_wipe(&hs->shares[i]);
	hs->n_shares = 0;
}
/* --- ClientHello --------------------------------------------------------- */

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
	/* The first group's share and maybe one more; others by HRR. */
	if (!hs->n_groups || !hs->n_suites || !hs->n_sig_schemes)
		return -EINVAL;
	ret = client_make_shares(hs);
	if (ret)
		return ret;
	if (client_session_usable(hs)) {
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
	hs->state = CLIENT_EXPECT_SERVER_HELLO;
	return 0;
}

/* --- ServerHello and HelloRetryRequest ----------------------------------- */

static int parse_server_hello(const u8 *msg, size_t len,
			      struct client_sh *sh)
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
static int check_server_hello(struct tlsx_hs *hs, const struct client_sh *sh)
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
		      struct client_sh *sh, struct hs_out *o)
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
		    client_share_of(hs, group))
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
			return hs_refuse(hs, TLSX_ALERT_HANDSHAKE_FAILURE,
					 "the HelloRetryRequest's cookie is over 512 bytes");
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

	if (group) {
		/* 4.1.2: ClientHello2 has one share, the selected group's. */
		client_wipe_shares(hs);
		ret = tlsx_kx_generate(&hs->shares[0], group, false,
				       hs_rand_cb, hs);
		if (ret)
			return ret;
		hs->n_shares = 1;
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
	/* The cookie, echoed from the HRR itself: nothing kept after. */
	hs->cookie = cookie;
	hs->cookie_len = cookie_len;
	ret = client_send_hello(hs, o);
	hs->cookie = NULL;
	hs->cookie_len = 0;
	if (ret)
		return ret;
	hs->state = CLIENT_EXPECT_SERVER_HELLO;
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
	client_wipe_shares(hs);
	if (!ret)
		ret = hs_set_read_secret(hs, hs->s_hs);
	if (ret)
		return ret;
	hs->group = group;
	hs->state = CLIENT_EXPECT_ENCRYPTED_EXTENSIONS;
	return 0;
}

static int client_server_hello(struct tlsx_hs *hs, const u8 *msg, size_t len,
			       struct hs_out *o)
{
	struct client_sh sh;
	struct tlsx_exts exts;
	struct tlsx_rd r;
	const u8 *share;
	size_t share_len, dhe_len;
	u8 dhe[TLSX_KX_MAX_SHARED];
	struct tlsx_kx *kx;
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
	kx = client_share_of(hs, group);
	if (!kx)
		return TLSX_ALERT_ILLEGAL_PARAMETER;

	ret = tlsx_kx_shared(kx, share, share_len, dhe, &dhe_len);
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
	hs->state = hs->resumed ? CLIENT_EXPECT_FINISHED :
		    CLIENT_EXPECT_CERTIFICATE_REQUEST_OR_CERTIFICATE;
	return 0;
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
	case CLIENT_EXPECT_SERVER_HELLO:
		if (type == TLSX_HT_SERVER_HELLO)
			return client_server_hello(hs, msg, len, o);
		break;
	case CLIENT_EXPECT_ENCRYPTED_EXTENSIONS:
		if (type == TLSX_HT_ENCRYPTED_EXTENSIONS)
			return client_encrypted_extensions(hs, msg, len);
		break;
	case CLIENT_EXPECT_CERTIFICATE_REQUEST_OR_CERTIFICATE:
		if (type == TLSX_HT_CERTIFICATE_REQUEST)
			return client_certificate_request(hs, msg, len);
		if (type == TLSX_HT_CERTIFICATE)
			return client_certificate(hs, msg, len);
		break;
	case CLIENT_EXPECT_CERTIFICATE:
		if (type == TLSX_HT_CERTIFICATE)
			return client_certificate(hs, msg, len);
		break;
	case CLIENT_EXPECT_CERTIFICATE_VERIFY:
		if (type == TLSX_HT_CERTIFICATE_VERIFY)
			return client_certificate_verify(hs, msg, len);
		break;
	case CLIENT_EXPECT_FINISHED:
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
