/* SPDX-License-Identifier: GPL-2.0 */
/*
 * client_impl.h - what the client's files share: client_role.c (the role:
 * states, the dispatch switch, ServerHello, HelloRetryRequest,
 * EncryptedExtensions, Finished), client_hello.c (the ClientHello),
 * client_psk.c (resumption) and client_auth.c (certificates and the
 * second flight).  Not part of the API.
 */
#ifndef TLSX_HS_CLIENT_IMPL_H
#define TLSX_HS_CLIENT_IMPL_H

#include "handshake/engine/hs_impl.h"

enum client_state {
	CLIENT_EXPECT_SERVER_HELLO,
	CLIENT_EXPECT_ENCRYPTED_EXTENSIONS,
	CLIENT_EXPECT_CERTIFICATE_REQUEST_OR_CERTIFICATE,
	CLIENT_EXPECT_CERTIFICATE,
	CLIENT_EXPECT_CERTIFICATE_VERIFY,
	CLIENT_EXPECT_FINISHED,
	CLIENT_DONE,
};

/* A ServerHello or HelloRetryRequest, parsed (client_role.c). */
struct client_sh {
	u16 version;
	const u8 *random;
	const u8 *sid;
	size_t sid_len;
	u16 suite;
	u8 compression;
	bool has_exts;
	struct tlsx_rd exts;
};

/* --- client_hello.c ------------------------------------------------------ */

/* Opens extension @id in @w and marks it sent. */
void client_ext_open(struct tlsx_hs *hs, struct tlsx_wr *w,
		     enum tlsx_ext_id id);

/* ClientHello (4.1.2), first or after a HelloRetryRequest. */
int client_send_hello(struct tlsx_hs *hs, struct hs_out *o);

/* --- client_psk.c -------------------------------------------------------- */

/* Whether hs->session may be offered (4.6.1). */
bool client_session_usable(struct tlsx_hs *hs);

/* pre_shared_key (4.2.11), its binder zeros until client_bind(). */
void client_write_pre_shared_key(struct tlsx_hs *hs, struct tlsx_wr *w);

/* Fills the binder of the ClientHello @msg (4.2.11.2). */
int client_bind(struct tlsx_hs *hs, u8 *msg, size_t len);

/* The ServerHello's pre_shared_key (4.2.11): sets hs->resumed. */
int client_psk_accepted(struct tlsx_hs *hs,
			const struct client_sh *sh,
			const struct tlsx_exts *exts);

/* --- client_auth.c ------------------------------------------------------- */

/* The server's CertificateRequest (4.3.2). */
int client_certificate_request(struct tlsx_hs *hs, const u8 *msg,
			       size_t len);

/* The server's Certificate (4.4.2), its chain verified. */
int client_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len);

/* The server's CertificateVerify (4.4.3). */
int client_certificate_verify(struct tlsx_hs *hs, const u8 *msg,
			      size_t len);

/* [CCS] [Certificate, CertificateVerify] Finished. */
int client_second_flight(struct tlsx_hs *hs, struct hs_out *o);

#endif /* TLSX_HS_CLIENT_IMPL_H */
