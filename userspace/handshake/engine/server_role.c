// SPDX-License-Identifier: GPL-2.0
/*
 * server_role.c - the TLS 1.3 server (RFC 8446): states named after the
 * message awaited, one dispatch switch, one handler per message; the
 * flight a handshake shape sends is data (server_shapes[]).
 *
 *   SERVER_EXPECT_CLIENT_HELLO --(no share for a common group)--> HRR
 *	-> SERVER_EXPECT_SECOND_CLIENT_HELLO
 *   ClientHello: ServerHello, [CCS], EncryptedExtensions, then by shape
 *	full:        Certificate, CertificateVerify, Finished
 *	client auth: CertificateRequest, Certificate, CertificateVerify,
 *	             Finished -> SERVER_EXPECT_CERTIFICATE
 *	resumed:     Finished (psk_dhe_ke, or psk_ke when both allow it)
 *	-> SERVER_EXPECT_FINISHED
 *   Certificate -> SERVER_EXPECT_CERTIFICATE_VERIFY (or SERVER_EXPECT_FINISHED when
 *	empty) -> SERVER_EXPECT_FINISHED -> done; then tlsx_hs_tickets().
 *
 * This file is the role's sequencing; the ClientHello's checks and the
 * hellos are in server_hello.c, resumption and tickets in server_psk.c,
 * CertificateRequest and the client's certificate in server_auth.c.
 */
#include "handshake/engine/cert.h"
#include "handshake/engine/server_impl.h"

/* --- shapes --------------------------------------------------------------- */

enum server_shape_id {
	SV_FULL,
	SV_FULL_CLIENT_AUTH,
	SV_RESUMED,
};

/* What the server sends after ServerHello, and the state it then awaits. */
struct server_shape {
	const char *name;
	u8 flight[6];		/* handshake types, 0-terminated */
	enum server_state next;
};

static const struct server_shape server_shapes[] = {
	[SV_FULL] = {
		"full",
		{ TLSX_HT_ENCRYPTED_EXTENSIONS, TLSX_HT_CERTIFICATE,
		  TLSX_HT_CERTIFICATE_VERIFY, TLSX_HT_FINISHED },
		SERVER_EXPECT_FINISHED,
	},
	[SV_FULL_CLIENT_AUTH] = {
		"full, client authentication",
		{ TLSX_HT_ENCRYPTED_EXTENSIONS, TLSX_HT_CERTIFICATE_REQUEST,
		  TLSX_HT_CERTIFICATE, TLSX_HT_CERTIFICATE_VERIFY,
		  TLSX_HT_FINISHED },
		SERVER_EXPECT_CERTIFICATE,
	},
	/* 4.3.2: no CertificateRequest when authenticating with a PSK. */
	[SV_RESUMED] = {
		"resumed",
		{ TLSX_HT_ENCRYPTED_EXTENSIONS, TLSX_HT_FINISHED },
		SERVER_EXPECT_FINISHED,
	},
};

/*
 * 4.2.10: declined early data is skipped "up to the configured
 * max_early_data_size": 16 KiB of it, with each record's content type
 * byte and tag (17 bytes) for up to 64 records.
 */
#define SV_EARLY_SKIP		(16384 + 64 * 17)

/* EncryptedExtensions (4.3.1): the answers to the client's requests. */
static int server_send_ee(struct tlsx_hs *hs, struct hs_out *o)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	u32 asked = hs->srv.client_exts;
	struct tlsx_wr w;
	unsigned int i;
	u8 proto[256];
	size_t n;

	hs_msg_begin(hs, o, TLSX_HT_ENCRYPTED_EXTENSIONS, &w);
	tlsx_wr_open(&w, 2);
	/* 4.2.7: "servers MAY send the "supported_groups" extension". */
	if (asked & TLSX_EXT_BIT(TLSX_EXT_SUPPORTED_GROUPS)) {
		server_ext_begin(&w, TLSX_EXT_SUPPORTED_GROUPS);
		if (hs->test && hs->test->ee_groups) {
			tlsx_wr_bytes(&w, hs->test->ee_groups,
				      hs->test->ee_groups_len);
		} else {
			tlsx_wr_open(&w, 2);
			for (i = 0; i < hs->n_groups; i++)
				tlsx_wr_u16(&w, hs->groups[i]);
			tlsx_wr_close(&w);
		}
		tlsx_wr_close(&w);
	}
	/*
	 * RFC 8449 4: only to a client that sent record_size_limit; "a TLS
	 * 1.3 endpoint MUST NOT send a value larger than 2^14 + 1" (a
	 * larger configured value says no limit: 2^14 + 1 says the same).
	 */
	if (cfg->record_size_limit &&
	    (asked & TLSX_EXT_BIT(TLSX_EXT_RECORD_SIZE_LIMIT))) {
		server_ext_begin(&w, TLSX_EXT_RECORD_SIZE_LIMIT);
		hs_write_record_size_limit(&w, cfg->record_size_limit >
					   TLSX_REC_MAX_PLAIN + 1 ?
					   TLSX_REC_MAX_PLAIN + 1 :
					   cfg->record_size_limit);
		tlsx_wr_close(&w);
	}
	/*
	 * RFC 6066 3: a server that used the name "SHALL include an
	 * extension of type "server_name" ... The "extension_data" field
	 * of this extension SHALL be empty."
	 */
	if (asked & TLSX_EXT_BIT(TLSX_EXT_SERVER_NAME)) {
		server_ext_begin(&w, TLSX_EXT_SERVER_NAME);
		tlsx_wr_close(&w);
	}
	if (hs->alpn[0]) {
		n = strlen((const char *)hs->alpn);
		proto[0] = (u8)n;
		memcpy(proto + 1, hs->alpn, n);
		server_ext_begin(&w, TLSX_EXT_ALPN);
		hs_write_alpn(&w, proto, n + 1);
		tlsx_wr_close(&w);
	}
	/* 4.2.10: declined early data: no "early_data" here. */
	tlsx_wr_close(&w);
	return hs_msg_end(hs, o, &w);
}

/* The flight of shape @id after ServerHello, then the next state. */
static int server_send_flight(struct tlsx_hs *hs, struct hs_out *o,
			  enum server_shape_id id)
{
	const struct server_shape *shape = &server_shapes[id];
	const u8 *t;
	int ret = 0;

	for (t = shape->flight; *t && !ret; t++) {
		switch (*t) {
		case TLSX_HT_ENCRYPTED_EXTENSIONS:
			ret = server_send_ee(hs, o);
			break;
		case TLSX_HT_CERTIFICATE_REQUEST:
			ret = server_send_cert_request(hs, o);
			break;
		case TLSX_HT_CERTIFICATE:
			ret = hs_send_certificate(hs, o, hs->srv.chain, NULL,
						  0);
			break;
		case TLSX_HT_CERTIFICATE_VERIFY:
			ret = server_send_cert_verify(hs, o);
			break;
		case TLSX_HT_FINISHED:
			ret = hs_send_finished(hs, o, hs->s_hs);
			/* 7.1: the application secrets over ..server Finished. */
			if (!ret)
				ret = hs_derive_application(hs);
			/*
			 * 7.1, A.2: after its Finished the server writes under
			 * its application key, so an alert about the client's
			 * flight (certificate_required, a bad Finished) is
			 * one the client, which has read our Finished, opens.
			 */
			if (!ret)
				ret = hs_set_write_secret(hs, hs->s_ap);
			break;
		default:
			ret = -EINVAL;
		}
	}
	if (!ret)
		hs->state = shape->next;
	return ret;
}

/* --- handlers --------------------------------------------------------------- */

/*
 * HelloRetryRequest for @group (4.1.4); a PSK taken from ClientHello1
 * is dropped and judged again, binder and all, on ClientHello2.
 */
static int server_retry(struct tlsx_hs *hs, struct hs_out *o,
		    const struct server_ch *h, u16 group, bool psk)
{
	int ret;

	hs->srv.hrr_group = group;
	hs->hrr = true;
	tlsx_ks_wipe(&hs->ks);
	if (psk) {
		tlsx_session_wipe(&hs->session);
		hs->have_session = false;
	}
	/* 4.2.10: 0-RTT records after ClientHello1 are skipped. */
	if (server_ch_has(h, TLSX_EXT_EARLY_DATA))
		hs->early_skip = SV_EARLY_SKIP;
	ret = server_send_hrr(hs, o);
	if (!ret)
		hs->state = SERVER_EXPECT_SECOND_CLIENT_HELLO;
	return ret;
}

/*
 * ClientHello (4.1.2), first or second: every check in the RFC's order
 * of fields, the choices (suite, group, chain, scheme, protocol, PSK),
 * then HelloRetryRequest or the whole server flight.
 */
static int server_client_hello(struct tlsx_hs *hs, const u8 *msg, size_t len,
			   struct hs_out *o)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	bool second = hs->state == SERVER_EXPECT_SECOND_CLIENT_HELLO;
	u16 peer_schemes[TLSX_HS_MAX_LIST];
	unsigned int n_peer = 0, cert_algs = 0, modes = 0;
	struct server_ch h;
	struct server_groups g = { 0 };
	struct server_psk_offer psk = { 0 };
	bool dhe_ok;
	u16 suite;
	int ret;

	ret = server_parse_ch(&h, msg, len);
	if (ret == TLSX_ALERT_PROTOCOL_VERSION)
		hs_refuse(hs, ret, "a ClientHello without extensions (TLS 1.2 or older)");
	if (ret)
		return ret;
	ret = server_check_versions(hs, &h);
	if (ret)
		return ret;
	/*
	 * 4.1.2: "For every TLS 1.3 ClientHello, this vector MUST contain
	 * exactly one byte, set to zero ... If a TLS 1.3 ClientHello is
	 * received with any other value in this field, the server MUST
	 * abort the handshake with an "illegal_parameter" alert."
	 */
	if (h.bad_compression)
		return hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
				 "legacy_compression_methods other than null alone");
	ret = server_pick_suite(hs, &h, &suite);
	if (ret)
		return ret;
	if (second && suite != hs->suite)
		return hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
				 "the second ClientHello changes the suite");
	/*
	 * 9.2: "If containing a "supported_groups" extension, it MUST also
	 * contain a "key_share" extension, and vice versa."
	 */
	if (server_ch_has(&h, TLSX_EXT_SUPPORTED_GROUPS) !=
	    server_ch_has(&h, TLSX_EXT_KEY_SHARE))
		return hs_refuse(hs, TLSX_ALERT_MISSING_EXTENSION,
				 "supported_groups and key_share not both sent");
	if (server_ch_has(&h, TLSX_EXT_SUPPORTED_GROUPS)) {
		ret = server_read_groups(hs, &h, &g);
		if (ret)
			return ret;
	}
	if (second) {
		ret = server_check_second(hs, &h, &g);
		if (ret)
			return ret;
	} else {
		/* 4.2.2: "Clients MUST NOT use cookies in their initial
		 * ClientHello"; this server never sent this one.
		 */
		if (server_ch_has(&h, TLSX_EXT_COOKIE))
			return hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
					 "a cookie in the first ClientHello");
		memcpy(hs->srv.ch1_digest, h.digest, sizeof(h.digest));
		memcpy(hs->session_id, h.sid, h.sid_len);
		hs->session_id_len = (u8)h.sid_len;
		/* D.4: compatibility mode is the client's non-empty id. */
		hs->compat = h.sid_len != 0;
		ret = hs_set_suite(hs, suite);
		if (ret)
			return ret;
	}
	hs->srv.client_exts = h.ext.present;

	if (server_ch_has(&h, TLSX_EXT_RECORD_SIZE_LIMIT)) {
		ret = hs_parse_record_size_limit(
			h.ext.ext[TLSX_EXT_RECORD_SIZE_LIMIT].data,
			h.ext.ext[TLSX_EXT_RECORD_SIZE_LIMIT].len,
			&hs->peer_record_size_limit);
		if (ret)
			return ret;
	}
	ret = server_read_server_name(hs, &h);
	if (!ret)
		ret = server_read_alpn(hs, &h);
	if (!ret && server_ch_has(&h, TLSX_EXT_SIGNATURE_ALGORITHMS))
		ret = hs_parse_sig_schemes(
			h.ext.ext[TLSX_EXT_SIGNATURE_ALGORITHMS].data,
			h.ext.ext[TLSX_EXT_SIGNATURE_ALGORITHMS].len,
			peer_schemes, &n_peer);
	/*
	 * Read for their framing (6.2: decode_error) even when they decide
	 * nothing (a PSK taken): signature_algorithms_cert (4.2.3), and
	 * psk_key_exchange_modes without a pre_shared_key (4.2.9).
	 */
	if (!ret)
		ret = hs_read_cert_sigs(&h.ext, &cert_algs);
	if (!ret && server_ch_has(&h, TLSX_EXT_PSK_KEY_EXCHANGE_MODES))
		ret = server_psk_modes(&h, &modes);
	if (ret)
		return ret;
	/*
	 * 4.2.9: "Servers SHOULD NOT send NewSessionTicket with tickets
	 * that are not compatible with the advertised modes": psk_dhe_ke,
	 * or psk_ke when we allow it (none advertised: none compatible).
	 */
	hs->srv.ticket_usable = (modes & 2) ||
				(cfg->allow_psk_ke && (modes & 1));
	dhe_ok = g.retry != 0;
	ret = server_read_psk(hs, &h, suite, dhe_ok, &psk);
	if (ret)
		return ret;
	/* After the binder, which hashes the ClientHello truncated. */
	tlsx_transcript_add(&hs->ts, msg, len);

	if (!psk.ok) {
		ret = server_pick_certificate(hs, &h, peer_schemes, n_peer,
					  cert_algs);
		if (ret)
			return ret;
	}
	if (!psk.ok || psk.dhe) {
		/* 4.1.1: no common group: handshake_failure. */
		if (!g.retry)
			return server_ch_has(&h, TLSX_EXT_SUPPORTED_GROUPS) ?
			       hs_refuse(hs, TLSX_ALERT_HANDSHAKE_FAILURE,
					 "no group in common") :
			       hs_refuse(hs, TLSX_ALERT_MISSING_EXTENSION,
					 "no supported_groups (a PSK needs psk_dhe_ke)");
		/* Only ClientHello1 gets here without a share for it:
		 * server_check_second() refused a second one.
		 */
		if (!g.group)
			return server_retry(hs, o, &h, g.retry, psk.ok);
	}
	if (!psk.ok) {
		ret = tlsx_ks_init(&hs->ks, hs->hash, NULL, 0);
		if (ret)
			return ret;
	}
	/* 4.2.10: offered 0-RTT is declined; its records are skipped. */
	hs->early_skip = !second && server_ch_has(&h, TLSX_EXT_EARLY_DATA) ?
			 SV_EARLY_SKIP : 0;
	hs->resumed = psk.ok;
	if (psk.ok) {
		hs->srv.psk_ke = !psk.dhe;
		hs->peer_cert = hs->session.peer_cert;
	}
	ret = server_send_server_hello(hs, o, psk.ok && !psk.dhe ? NULL : &g,
				   psk.ok);
	if (ret)
		return ret;
	return server_send_flight(hs, o, psk.ok ? SV_RESUMED :
				     cfg->verify_peer ? SV_FULL_CLIENT_AUTH :
				     SV_FULL);
}

/* The client's Finished (4.4.4): the handshake is done. */
static int server_finished(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	int ret = hs_check_finished(hs, msg, len, hs->c_hs);

	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	/* 7.1: resumption_master_secret over ..client Finished. */
	if (hs->cfg->tickets) {
		ret = hs_derive_resumption(hs);
		if (ret)
			return ret;
	}
	tlsx_ks_wipe(&hs->ks);
	memzero_explicit(hs->c_hs, sizeof(hs->c_hs));
	memzero_explicit(hs->s_hs, sizeof(hs->s_hs));
	hs->done = true;
	hs->state = SERVER_DONE;
	return 0;
}

/* The dispatch: the message the state awaits, or unexpected_message. */
static int server_handle(struct tlsx_hs *hs, const u8 *msg, size_t len,
		     struct hs_out *o)
{
	u8 type = msg[0];

	switch (hs->state) {
	case SERVER_EXPECT_CLIENT_HELLO:
	case SERVER_EXPECT_SECOND_CLIENT_HELLO:
		if (type == TLSX_HT_CLIENT_HELLO)
			return server_client_hello(hs, msg, len, o);
		break;
	case SERVER_EXPECT_CERTIFICATE:
		if (type == TLSX_HT_CERTIFICATE)
			return server_certificate(hs, msg, len);
		break;
	case SERVER_EXPECT_CERTIFICATE_VERIFY:
		if (type == TLSX_HT_CERTIFICATE_VERIFY)
			return server_certificate_verify(hs, msg, len);
		break;
	case SERVER_EXPECT_FINISHED:
		if (type == TLSX_HT_FINISHED)
			return server_finished(hs, msg, len);
		break;
	default:
		break;
	}
	/* 6.2 / 5: a message the state does not expect. */
	return TLSX_ALERT_UNEXPECTED_MESSAGE;
}

const struct tlsx_hs_role tlsx_hs_server_role = {
	.name = "server",
	.start = NULL,
	.handle = server_handle,
	.tickets = server_tickets,
};
