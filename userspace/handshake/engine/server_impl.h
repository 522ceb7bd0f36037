/* SPDX-License-Identifier: GPL-2.0 */
/*
 * server_impl.h - what the server's files share: server_role.c (the role:
 * states, shapes, the dispatch switch and the handlers' sequencing),
 * server_hello.c (the ClientHello read, ServerHello and
 * HelloRetryRequest), server_psk.c (resumption and NewSessionTicket)
 * and server_auth.c (CertificateRequest, CertificateVerify, the
 * client's certificate).  Not part of the API.
 */
#ifndef TLSX_HS_SERVER_IMPL_H
#define TLSX_HS_SERVER_IMPL_H

#include "handshake/engine/hs_impl.h"

enum server_state {
	SERVER_EXPECT_CLIENT_HELLO,
	SERVER_EXPECT_SECOND_CLIENT_HELLO,
	SERVER_EXPECT_CERTIFICATE,
	SERVER_EXPECT_CERTIFICATE_VERIFY,
	SERVER_EXPECT_FINISHED,
	SERVER_DONE,		/* done */
};

/* --- the ClientHello, parsed -------------------------------------------- */

struct server_ch {
	const u8 *msg;		/* the whole message, header included */
	size_t len;
	u16 version;		/* legacy_version */
	const u8 *random;
	const u8 *sid;
	size_t sid_len;
	const u8 *suites;
	size_t suites_len;
	bool bad_compression;
	struct tlsx_exts ext;
	/* 4.1.2: the fields the second ClientHello must repeat. */
	u8 digest[SHA256_DIGEST_SIZE];
};

/* What the ClientHello's groups and key shares allow. */
struct server_groups {
	u16 group;		/* ours, with a share from the client; 0: none */
	const u8 *share;
	size_t share_len;
	u16 retry;		/* most preferred common group; 0: none */
	unsigned int n_shares;
	u16 share_group;	/* the group of the only share, if one */
};

/* What a PSK offer gave (4.2.11). */
struct server_psk_offer {
	bool ok;		/* a session was opened and its binder checked */
	bool dhe;		/* psk_dhe_ke */
};

static inline bool server_ch_has(const struct server_ch *h, enum tlsx_ext_id id)
{
	return h->ext.present & TLSX_EXT_BIT(id);
}

static inline void server_ch_body(const struct server_ch *h, enum tlsx_ext_id id,
			   struct tlsx_rd *r)
{
	tlsx_rd_init(r, h->ext.ext[id].data, h->ext.ext[id].len);
}

static inline void server_ext_begin(struct tlsx_wr *w, enum tlsx_ext_id id)
{
	tlsx_wr_u16(w, tlsx_ext_def(id)->type);
	tlsx_wr_open(w, 2);
}

/* --- server_hello.c ------------------------------------------------------ */

/* The ClientHello's framing and fixed fields, its extensions walked (4.1.2). */
int server_parse_ch(struct server_ch *h, const u8 *msg, size_t len);

/*
 * legacy_version above 0x0300 (D.5) and supported_versions offering TLS
 * 1.3 (4.2.1); 0 or protocol_version.
 */
int server_check_versions(struct tlsx_hs *hs, const struct server_ch *h);

/* The first of our suites the client offers (4.1.1) into @suite. */
int server_pick_suite(struct tlsx_hs *hs, const struct server_ch *h,
		  u16 *suite);

/* supported_groups and key_share read into @g (4.2.7, 4.2.8). */
int server_read_groups(struct tlsx_hs *hs, const struct server_ch *h,
		   struct server_groups *g);

/* server_name (RFC 6066 3) into hs->server_name. */
int server_read_server_name(struct tlsx_hs *hs, const struct server_ch *h);

/* ALPN (RFC 7301 3.2): our first protocol the client offers. */
int server_read_alpn(struct tlsx_hs *hs, const struct server_ch *h);

/* ClientHello2 against ClientHello1 and our HRR (4.1.2, 4.2.2). */
int server_check_second(struct tlsx_hs *hs, const struct server_ch *h,
		    const struct server_groups *g);

/*
 * The chain for hs->server_name, @peer (signature_algorithms) and
 * @cert_algs (hs_read_cert_sigs()), into hs->srv.chain, and its
 * CertificateVerify scheme into hs->own_sig_scheme (4.4.2.2; the choice
 * is chain_pick.c's, shared with the client).
 */
int server_pick_certificate(struct tlsx_hs *hs, const struct server_ch *h,
			const u16 *peer, unsigned int n_peer,
			unsigned int cert_algs);

/* HelloRetryRequest (4.1.4) for hs->srv.hrr_group, with its cookie. */
int server_send_hrr(struct tlsx_hs *hs, struct hs_out *o);

/* ServerHello (4.1.3) with the share for @g, pre_shared_key if @psk. */
int server_send_server_hello(struct tlsx_hs *hs, struct hs_out *o,
			 const struct server_groups *g, bool psk);

/* --- server_psk.c -------------------------------------------------------- */

/* psk_key_exchange_modes (4.2.9) as a bit mask in @modes. */
int server_psk_modes(const struct server_ch *h, unsigned int *modes);

/* pre_shared_key (4.2.11): a ticket opened, its binder checked. */
int server_read_psk(struct tlsx_hs *hs, const struct server_ch *h,
		u16 suite, bool have_dhe, struct server_psk_offer *psk);

/* The role's tickets(): NewSessionTickets (4.6.1) into @out. */
int server_tickets(struct tlsx_hs *hs, u8 *out, size_t cap, size_t *len);

/* --- server_auth.c ------------------------------------------------------- */

/* CertificateRequest (4.3.2). */
int server_send_cert_request(struct tlsx_hs *hs, struct hs_out *o);

/* Our CertificateVerify (4.4.3) with the chosen chain. */
int server_send_cert_verify(struct tlsx_hs *hs, struct hs_out *o);

/* The client's Certificate (4.4.2). */
int server_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len);

/* The client's CertificateVerify (4.4.3). */
int server_certificate_verify(struct tlsx_hs *hs, const u8 *msg,
			  size_t len);

#endif /* TLSX_HS_SERVER_IMPL_H */
