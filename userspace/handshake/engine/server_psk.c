// SPDX-License-Identifier: GPL-2.0
/*
 * server_psk.c - the server's resumption: the ClientHello's
 * pre_shared_key and psk_key_exchange_modes (4.2.9, 4.2.11), the
 * tickets opened and their binders checked, and the NewSessionTickets
 * written after the handshake (4.6.1, tlsx_hs_tickets()).
 */
#include "handshake/engine/cert.h"
#include "handshake/engine/server_impl.h"

/* Resumption: identities tried (each a ticket to open) at most. */
#define SV_MAX_PSK_TRIES	4

#define SV_DEFAULT_LIFETIME	7200	/* seconds, as OpenSSL's default */

/*
 * The ticket context (OpenSSL's session id context, made by the engine
 * rather than left to the caller): a digest of what in the server's
 * configuration decides whether the client of a session would be
 * accepted now.  That is the client-authentication mode (verify_peer,
 * require_peer_cert) and, when clients are verified, the anchors their
 * chains must reach (their digest, cert.h): a ticket from a server that
 * asked for no certificate, or took none, or trusted other CAs, must not
 * let a client past one that requires a certificate from these
 * (RFC 8446 2.2: a resumption presents no certificate, its peer's
 * authentication is the original handshake's; with a ticket-key file
 * shared across configurations or kept across a change, only this
 * binds a ticket to its issuer).  Left out on
 * purpose: the ALPN list and the server name (each session's protocol
 * and name are compared on their own, server_session_fits()), and the
 * server's own chains (a resumption does not present them again; the
 * PSK authenticates the server, and renewing a certificate must not end
 * every session).
 */
static void server_ticket_context(const struct tlsx_hs *hs,
			      u8 out[SHA256_DIGEST_SIZE])
{
	static const char label[] = "tlsx ticket context 1";
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_sha256 c;
	u8 mode[2] = { cfg->verify_peer, cfg->require_peer_cert };

	tlsx_sha256_init(&c);
	tlsx_sha256_update(&c, label, sizeof(label));
	tlsx_sha256_update(&c, mode, sizeof(mode));
	if (cfg->verify_peer && cfg->trust)
		tlsx_sha256_update(&c, cfg->trust->digest,
				   sizeof(cfg->trust->digest));
	tlsx_sha256_final(&c, out);
}

/*
 * Whether @s was made for this connection's name and protocol, by this
 * configuration (@ctx, server_ticket_context()).
 */
static bool server_session_fits(const struct tlsx_hs *hs,
			    const struct tlsx_session *s, u16 suite,
			    const u8 *ctx)
{
	enum tlsx_hash_alg hash, want;

	/*
	 * Another configuration's ticket, or one without the client
	 * certificate this one requires: declined, so a full handshake
	 * asks for the certificate (4.2.11 lets the server decline any
	 * PSK; 4.4.2.4's certificate_required then applies).  The
	 * context covers the second; it is checked on its own too, so
	 * that no context can ever let a required certificate be skipped.
	 */
	if (memcmp(s->context, ctx, SHA256_DIGEST_SIZE) ||
	    (hs->cfg->require_peer_cert && !s->peer_cert))
		return false;

	/*
	 * 4.2.11: the server "MUST ensure that it selects a compatible PSK
	 * (if any) and cipher suite": the session's hash is the suite's.
	 * Another server name or protocol: a full handshake instead
	 * (4.6.1 and RFC 7301 have no resumption across them).
	 */
	if (tlsx_suite_params(s->suite, NULL, &hash, NULL) ||
	    tlsx_suite_params(suite, NULL, &want, NULL) || hash != want)
		return false;
	return !strcmp(s->server_name, hs->server_name) &&
	       !strcmp((const char *)s->alpn, (const char *)hs->alpn);
}

/*
 * psk_key_exchange_modes (4.2.9): which modes the client allows, as
 * bits (1 << psk_ke, 1 << psk_dhe_ke).
 */
int server_psk_modes(const struct server_ch *h, unsigned int *modes)
{
	struct tlsx_rd r, list;
	u8 m;
	int ret;

	*modes = 0;
	server_ch_body(h, TLSX_EXT_PSK_KEY_EXCHANGE_MODES, &r);
	/* PskKeyExchangeMode ke_modes<1..255> */
	ret = tlsx_rd_open(&r, 1, 1, 255, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u8(&list, &m);
		if (!ret && m < 2)
			*modes |= 1u << m;
	}
	return ret;
}

/*
 * pre_shared_key (4.2.11): opens the offered tickets (the first
 * SV_MAX_PSK_TRIES), takes the first that fits and checks its binder
 * over the truncated ClientHello, in constant time; a binder that fails
 * is decrypt_error (4.2.11: "If this value is not present or does not
 * validate, the server MUST abort the handshake").  On success the key
 * schedule is at EARLY under the session's PSK and hs->session is the
 * session.
 */
int server_read_psk(struct tlsx_hs *hs, const struct server_ch *h,
		u16 suite, bool have_dhe, struct server_psk_offer *psk)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	u8 th[TLSX_KS_MAX_SECRET], key[TLSX_KS_MAX_SECRET];
	struct tlsx_rd r, ids, binders;
	const u8 *id, *binder = NULL;
	size_t id_len, b_len = 0, trunc;
	unsigned int modes, n_ids = 0, n_binders = 0, chosen = ~0u;
	u8 ctx[SHA256_DIGEST_SIZE];
	enum tlsx_hash_alg hash;
	bool ke, dhe_ke;
	u32 age;
	int ret;

	memset(psk, 0, sizeof(*psk));
	/* The modes are read even without a PSK: a malformed extension is
	 * decode_error whether or not it is used (6.2).
	 */
	modes = 0;
	if (server_ch_has(h, TLSX_EXT_PSK_KEY_EXCHANGE_MODES)) {
		ret = server_psk_modes(h, &modes);
		if (ret)
			return ret;
	}
	if (!server_ch_has(h, TLSX_EXT_PRE_SHARED_KEY))
		return 0;
	/*
	 * 4.2.9: "If clients offer "pre_shared_key" without a
	 * "psk_key_exchange_modes" extension, servers MUST abort the
	 * handshake."  9.2 names the alert: missing_extension.
	 */
	if (!server_ch_has(h, TLSX_EXT_PSK_KEY_EXCHANGE_MODES))
		return hs_refuse(hs, TLSX_ALERT_MISSING_EXTENSION,
				 "pre_shared_key without psk_key_exchange_modes");
	server_ch_body(h, TLSX_EXT_PRE_SHARED_KEY, &r);
	/* PskIdentity identities<7..2^16-1>; PskBinderEntry binders<33..2^16-1> */
	ret = tlsx_rd_open(&r, 2, 7, 65535, &ids);
	if (ret)
		return ret;
	trunc = (size_t)(r.p - h->msg);
	server_ticket_context(hs, ctx);
	ret = tlsx_rd_open(&r, 2, 33, 65535, &binders);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&ids)) {
		/* opaque identity<1..2^16-1>; uint32 obfuscated_ticket_age; */
		ret = tlsx_rd_vec(&ids, 2, 1, 65535, &id, &id_len);
		/*
		 * The age is not checked: it guards 0-RTT against replay
		 * (8.3), and tlsx accepts no early data.
		 */
		if (!ret)
			ret = tlsx_rd_u32(&ids, &age);
		if (ret)
			break;
		if (chosen == ~0u && n_ids < SV_MAX_PSK_TRIES && cfg->tickets &&
		    !tlsx_ticket_open(cfg->tickets, id, id_len, hs_now(hs),
				      &hs->session)) {
			if (server_session_fits(hs, &hs->session, suite, ctx))
				chosen = n_ids;
			else
				tlsx_session_wipe(&hs->session);
		}
		n_ids++;
	}
	while (!ret && tlsx_rd_left(&binders)) {
		const u8 *b;
		size_t len;

		/* opaque PskBinderEntry<32..255> */
		ret = tlsx_rd_vec(&binders, 1, 32, 255, &b, &len);
		if (!ret && n_binders++ == chosen) {
			binder = b;
			b_len = len;
		}
	}
	if (ret)
		goto out;
	/*
	 * 4.2.11: binders: "A series of HMAC values, one for each value in
	 * the identities list and in the same order".
	 */
	if (n_ids != n_binders) {
		ret = TLSX_ALERT_ILLEGAL_PARAMETER;
		goto out;
	}
	if (chosen == ~0u)
		goto out;
	/*
	 * 4.2.9: psk_dhe_ke when the client allows it and a group is
	 * possible: its traffic keys do not fall with the PSK (forward
	 * secrecy, E.1), so it wins over psk_ke unless the configuration
	 * says otherwise (prefer_psk_ke).  psk_ke only when both allow it;
	 * otherwise the PSK is not used (a full handshake, 4.2.11).
	 */
	ke = cfg->allow_psk_ke && (modes & 1);
	dhe_ke = (modes & 2) && have_dhe;
	if (ke && (cfg->prefer_psk_ke || !dhe_ke)) {
		psk->dhe = false;
	} else if (dhe_ke) {
		psk->dhe = true;
	} else {
		tlsx_session_wipe(&hs->session);
		goto out;
	}
	tlsx_suite_params(suite, NULL, &hash, NULL);
	/* 4.2.11.2: the binder over Transcript-Hash(Truncate(ClientHello)),
	 * after HRR's message_hash and the HRR when there was one.
	 */
	ret = tlsx_ks_init(&hs->ks, hash, hs->session.psk,
			   hs->session.psk_len);
	if (!ret)
		ret = tlsx_ks_derive(&hs->ks, TLSX_KS_RES_BINDER, NULL, key);
	if (!ret)
		ret = tlsx_transcript_peek(&hs->ts, hash, h->msg, trunc, th);
	if (!ret)
		ret = tlsx_binder_check(hash, key, th, binder, b_len);
	memzero_explicit(key, sizeof(key));
	if (ret) {
		tlsx_session_wipe(&hs->session);
		goto out;
	}
	hs->srv.psk_identity = (u16)chosen;
	hs->have_session = true;
	psk->ok = true;
out:
	if (ret)
		tlsx_session_wipe(&hs->session);
	return ret;
}

/*
 * One NewSessionTicket (4.6.1) into @w: the session (suite, PSK for
 * this ticket's nonce, time, age_add, name, protocol, client
 * certificate) sealed by ticket.c.
 */
static int server_ticket(struct tlsx_hs *hs, struct tlsx_wr *w, u16 nonce_v)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_session s;
	u8 ticket[TLSX_TICKET_MAX], nonce[2];
	size_t tlen;
	u32 life = cfg->ticket_lifetime ? cfg->ticket_lifetime :
		   SV_DEFAULT_LIFETIME;
	int ret;

	/* 4.6.1: "Servers MUST NOT use any value greater than 604800". */
	if (life > TLSX_TICKET_MAX_LIFETIME)
		life = TLSX_TICKET_MAX_LIFETIME;
	memset(&s, 0, sizeof(s));
	put_unaligned_be16(nonce_v, nonce);
	s.suite = hs->suite;
	s.psk_len = hs->hash_len;
	s.issued = hs_now(hs);
	s.lifetime = life;
	s.peer_cert = hs->peer_cert;
	server_ticket_context(hs, s.context);
	memcpy(s.server_name, hs->server_name, sizeof(s.server_name));
	memcpy(s.alpn, hs->alpn, sizeof(s.alpn));
	ret = hs_rand(hs, &s.age_add, sizeof(s.age_add));
	if (!ret)
		ret = tlsx_resumption_psk(hs->hash, hs->res_master, nonce,
					  sizeof(nonce), s.psk);
	if (!ret)
		ret = tlsx_ticket_seal(cfg->tickets, &s, hs_rand_cb, hs, ticket,
				       sizeof(ticket), &tlen);
	if (!ret) {
		tlsx_wr_u8(w, TLSX_HT_NEW_SESSION_TICKET);
		tlsx_wr_open(w, 3);
		tlsx_wr_u32(w, life);
		tlsx_wr_u32(w, s.age_add);
		tlsx_wr_vec(w, 1, nonce, sizeof(nonce));
		tlsx_wr_vec(w, 2, ticket, tlen);
		tlsx_wr_u16(w, 0);	/* no extensions: no early_data */
		ret = tlsx_wr_close(w);
	}
	tlsx_session_wipe(&s);
	return ret;
}

int server_tickets(struct tlsx_hs *hs, u8 *out, size_t cap, size_t *len)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_wr w;
	unsigned int i;
	int ret = 0;

	*len = 0;
	if (!cfg->tickets || !hs->have_res || !hs->srv.ticket_usable)
		return 0;
	tlsx_wr_init(&w, out, cap);
	for (i = 0; i < cfg->tickets_per_handshake && !ret; i++)
		ret = server_ticket(hs, &w, (u16)hs->srv.tickets_sent++);
	if (!ret)
		ret = tlsx_wr_finish(&w, len);
	return ret;
}
