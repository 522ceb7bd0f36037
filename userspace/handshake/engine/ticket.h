/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ticket.h - session resumption (RFC 8446 sections 2.2, 4.6.1, 4.2.11):
 * the server's stateless tickets, sealed under ticket keys it rotates,
 * and the client's saved sessions.
 *
 * Server: a ticket is the session state (suite, resumption PSK, issue
 * time, age_add, server name, ALPN, whether a client certificate was
 * verified, the issuing configuration's context digest) sealed with AES-256-GCM under the current ticket key, named
 * by a 16-byte key name so tlsx_ticket_open() finds the key without
 * trying each.  Rotation: tlsx_ticket_keys_rotate() makes a new current
 * key every @period seconds and keeps the previous one for opening only,
 * so a ticket stays valid for at least one period and at most two.  The
 * handshake path reads the keys through one atomic pointer to an
 * immutable generation (no lock); a rotation publishes a new generation
 * and frees the one before the previous after a grace period: once a
 * counter of the seals and opens in flight reads zero after the new
 * generation was published (ticket.c says why that is enough).
 *
 * Client: struct tlsx_session is what it keeps (ticket, PSK, suite,
 * times, the name and ALPN it was made for, whether the server's chain
 * was verified for that name), built from a
 * NewSessionTicket with tlsx_session_from_ticket() and saved to a file
 * with tlsx_session_encode() (tlsx-client --sess-out).
 */
#ifndef TLSX_HS_TICKET_H
#define TLSX_HS_TICKET_H

#include "aead/platform.h"
#include "handshake/engine/hs.h"
#include "handshake/engine/keysched.h"

#define TLSX_TICKET_MAX		1024	/* ticket bytes kept or accepted */
#define TLSX_TICKET_MAX_LIFETIME 604800	/* seven days (4.6.1) */

struct tlsx_session {
	u16 suite;
	u8 psk[TLSX_KS_MAX_SECRET];
	size_t psk_len;
	s64 issued;			/* seconds since the epoch */
	u32 lifetime;			/* seconds */
	u32 age_add;
	u32 max_early_data;		/* as sent; tlsx sends no 0-RTT */
	/*
	 * Server: the client's chain was verified.  Client: the server's
	 * was, against server_name (or, with verify_name_optional and no
	 * name, against the anchors only); a session made with
	 * verification off has it false and is never offered by a
	 * verifying client (client_psk.c).
	 */
	bool peer_cert;
	/*
	 * Server: the digest of the configuration that issued the ticket
	 * (server_psk.c's server_ticket_context(), as OpenSSL's session id
	 * context): a ticket resumes only under the same one.  Client:
	 * zeros, not used.
	 */
	u8 context[SHA256_DIGEST_SIZE];
	char server_name[TLSX_HS_MAX_NAME + 1];
	u8 alpn[256];			/* NUL-terminated protocol */
	u8 ticket[TLSX_TICKET_MAX];	/* client: the opaque ticket */
	size_t ticket_len;
};

void tlsx_session_wipe(struct tlsx_session *s);

struct tlsx_ticket_keys;

/*
 * Server ticket keys: fresh random keys rotated every @period seconds
 * (0: never).  NULL on failure.
 */
struct tlsx_ticket_keys *tlsx_ticket_keys_new(u32 period, s64 now);
/*
 * Keys from a file of 80 bytes per key, laid out as nginx's 80-byte
 * ssl_session_ticket_key file (16-byte name, 32 bytes nginx uses as its
 * HMAC key and AES-256-GCM does not need, 32-byte AES key), up to 8 keys
 * one after the other, newest first: the first seals, every one opens.
 * For servers that share tickets across machines; never rotated (replace
 * the file).  NULL with *@err (when not NULL) a static message.
 */
struct tlsx_ticket_keys *tlsx_ticket_keys_load(const char *path,
					       const char **err);
/*
 * Rotates if the period has passed at @now; safe beside handshakes, and
 * against other rotations.  0 (rotated or not due) or a negative errno
 * (-ENOMEM, the random source's), the keys then unchanged.
 */
int tlsx_ticket_keys_rotate(struct tlsx_ticket_keys *k, s64 now);
/* Wipes and frees; no handshake may be using @k. */
void tlsx_ticket_keys_free(struct tlsx_ticket_keys *k);

/*
 * Seals @s (server side: everything but ticket[]) into @out as a ticket
 * under the current key.  @rand draws the AEAD nonce.
 */
int tlsx_ticket_seal(struct tlsx_ticket_keys *k, const struct tlsx_session *s,
		     int (*rand)(void *ctx, void *buf, size_t len),
		     void *rand_ctx, u8 *out, size_t cap, size_t *len);
/*
 * Opens ticket @t into @s (wiped first; on failure wiped again).  0, or
 * -ENOENT for a ticket that is not
 * ours, was tampered with, or was sealed under a key rotated out: the
 * server then does a full handshake, it is not an error (4.2.11).
 * Expiry (issued + lifetime < @now) is -ETIME, likewise.
 */
int tlsx_ticket_open(struct tlsx_ticket_keys *k, const u8 *t, size_t len,
		     s64 now, struct tlsx_session *s);

/*
 * Client: the session a NewSessionTicket message @msg (whole handshake
 * message, type and length included) gives, under the resumption
 * master secret of the connection (4.6.1: PSK = HKDF-Expand-Label(
 * res_master, "resumption", ticket_nonce, Hash.length)).  0, or the
 * alert for a malformed message (decode_error) or a lifetime over seven
 * days (illegal_parameter); an extension block as tlsx_ext_parse()
 * checks it (TLSX_CTX_NST).  -EMSGSIZE for a well-formed ticket longer
 * than TLSX_TICKET_MAX: not the peer's fault, drop the ticket and keep
 * the connection.  -EINVAL for bad arguments or a message that is not a
 * NewSessionTicket.  A lifetime of 0 is returned as it is (4.6.1: the
 * ticket "should be discarded immediately").  @now becomes ->issued;
 * @server_name and @alpn (NUL-terminated, may be NULL) are copied;
 * ->peer_cert is @sec->peer_verified.
 * On failure *@s is wiped.
 */
int tlsx_session_from_ticket(const struct tlsx_hs_secrets *sec,
			     const char *server_name, const u8 *alpn,
			     const u8 *msg, size_t len, s64 now,
			     struct tlsx_session *s);

/*
 * A session as bytes for a file, and back (versioned, checked): the
 * encoding holds the PSK, so the file is a secret.  A file of another
 * version (version 1 had no context and no verified-server bit) is
 * refused by its magic, never read under this layout.  Encode: 0, -EINVAL
 * for a session that is not whole (no ticket, a PSK that does not fit
 * the suite), -ENOSPC (@out then wiped).  Decode: 0 or -EBADMSG (*@s
 * then wiped).
 */
int tlsx_session_encode(const struct tlsx_session *s, u8 *out, size_t cap,
			size_t *len);
int tlsx_session_decode(struct tlsx_session *s, const u8 *in, size_t len);

#endif /* TLSX_HS_TICKET_H */
