// SPDX-License-Identifier: GPL-2.0
/*
 * client_psk.c - the client's resumption: whether the session may be
 * offered, its pre_shared_key and binder in the ClientHello (4.2.11),
 * and the server's acceptance read from the ServerHello.
 */
#include "handshake/engine/client_impl.h"

/*
 * Whether the session may be offered (4.6.1: "Clients MUST only resume
 * if the new SNI value is valid for the server certificate presented in
 * the original session, and SHOULD only resume if the SNI value matches
 * the one used in the original session"): same name, a suite we offer,
 * not expired, and, when this configuration verifies the server, made
 * by a connection that verified it (for that same name): a resumption
 * presents no certificate (2.2), so a session from a connection with
 * verification off would let an unverified server in.  Otherwise a full
 * handshake, not an error.
 */
bool client_session_usable(struct tlsx_hs *hs)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	const struct tlsx_session *s = &hs->session;
	bool verifying = cfg->trust || !cfg->insecure;
	s64 now = hs_now(hs);

	return hs->have_session && (s->peer_cert || !verifying) &&
	       !strcmp(s->server_name, hs->server_name) &&
	       hs_list_has(hs->suites, hs->n_suites, s->suite) &&
	       s->lifetime && now >= s->issued &&
	       now - s->issued < (s64)s->lifetime;
}

/*
 * 4.2.11: one PskIdentity (the ticket and its obfuscated age) and a
 * binder of zeros, filled by client_bind() once the message is whole.
 * "The "pre_shared_key" extension MUST be the last extension".
 */
void client_write_pre_shared_key(struct tlsx_hs *hs, struct tlsx_wr *w)
{
	const struct tlsx_session *s = &hs->session;
	s64 age = hs_now(hs) - s->issued;
	u8 *binder;

	client_ext_open(hs, w, TLSX_EXT_PRE_SHARED_KEY);
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
int client_bind(struct tlsx_hs *hs, u8 *msg, size_t len)
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
 * The ServerHello's pre_shared_key (4.2.11): the one identity we offered,
 * and a suite of the PSK's hash.  Sets hs->resumed; without it the early
 * secret is the zeros' (a full handshake).
 */
int client_psk_accepted(struct tlsx_hs *hs,
			const struct client_sh *sh,
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
	/* What the session's connection verified (tlsx_hs_info). */
	hs->peer_cert = hs->session.peer_cert;
	return 0;
}
