/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs.h - the TLS 1.3 engine's API (RFC 8446), client and server, sans
 * I/O: the caller hands in the bytes that arrived and a buffer it owns
 * for the bytes to send; the engine never touches a socket, reads a clock
 * it was not given, or allocates beyond tlsx_hs_new()'s and, while a
 * handshake message spans records, one more (tlsx_hs_mem_peak() bounds
 * both).  docs/handshake.md is the design.
 *
 * The configuration (struct tlsx_hs_config) is read-only to the engine
 * and may be shared by any number of connections on any number of
 * threads; what it points to must outlive them.  The ticket keys are
 * the one part that changes under a running server: they are read
 * through an atomic pointer (handshake/engine/ticket.h), never under a lock.
 *
 * A connection:
 *
 *	hs = tlsx_hs_new(cfg);				// NULL: -ENOMEM
 *	tlsx_hs_set_server_name(hs, "example.com");	// client
 *	for (;;) {
 *		ret = tlsx_hs_step(hs, in, in_len, &used, out, cap, &n);
 *		send out[0..n);  drop in[0..used);
 *		if (ret == TLSX_HS_DONE) break;
 *		if (ret < 0) fail (tlsx_hs_alert() says which alert went);
 *		read more (ret == TLSX_HS_WANT_READ);
 *	}
 *	tlsx_hs_secrets(hs, &sec);		// for the record layer
 *	tlsx_hs_free(hs);			// wipes everything
 *
 * tlsx_hs_step() consumes whole records only and never more than the
 * last record of the handshake, so whatever the peer sent after its
 * Finished stays in the caller's buffer for the record layer (the
 * record-exact rule libtlsx depends on).  @out must hold a flight:
 * TLSX_HS_OUT_MIN bytes are always enough for the messages tlsx builds
 * with a certificate chain up to the configuration's max_cert_chain.
 */
#ifndef TLSX_HS_HS_H
#define TLSX_HS_HS_H

#include "aead/platform.h"
#include "hash/sha2.h"
#include "handshake/engine/alert.h"
#include "handshake/engine/group.h"
#include "handshake/engine/keysched.h"
#include "handshake/engine/suite.h"

struct tlsx_cert_chain;		/* handshake/engine/cert.h */
struct tlsx_trust;		/* handshake/engine/cert.h */
struct tlsx_ticket_keys;	/* handshake/engine/ticket.h */
struct tlsx_session;		/* handshake/engine/ticket.h */

/* Wire codes: suites (suite.h), groups (group.h), schemes (4.2.3). */
#define TLSX_SIG_RSA_PKCS1_SHA256	0x0401
#define TLSX_SIG_RSA_PKCS1_SHA384	0x0501
#define TLSX_SIG_RSA_PKCS1_SHA512	0x0601
#define TLSX_SIG_ECDSA_SECP256R1_SHA256	0x0403
#define TLSX_SIG_RSA_PSS_RSAE_SHA256	0x0804
#define TLSX_SIG_RSA_PSS_RSAE_SHA384	0x0805
#define TLSX_SIG_RSA_PSS_RSAE_SHA512	0x0806
#define TLSX_SIG_ED25519		0x0807
#define TLSX_SIG_RSA_PSS_PSS_SHA256	0x0809
#define TLSX_SIG_RSA_PSS_PSS_SHA384	0x080a
#define TLSX_SIG_RSA_PSS_PSS_SHA512	0x080b

#define TLSX_HS_MAX_LIST	16	/* suites, groups, schemes configured */
#define TLSX_HS_MAX_ALPN	256	/* ALPN list, wire form, bytes */
#define TLSX_HS_MAX_NAME	255	/* server_name (RFC 6066: < 2^8 in DNS) */
#define TLSX_HS_MAX_CHAINS	16	/* server certificates (SNI) */

/* Default bound on one handshake message (the certificate chain). */
#define TLSX_HS_DEFAULT_MAX_MSG	(16 * 1024)
/*
 * A server takes a ClientHello of any length its structure allows
 * (RFC 8446 4.1.2), whatever max_msg says: 131,396 bytes of body.
 */
#define TLSX_HS_MAX_CLIENT_HELLO	131396
/* An output buffer this large always holds one flight. */
#define TLSX_HS_OUT_MIN		(2 * TLSX_HS_DEFAULT_MAX_MSG + 4096)

/*
 * Randomness: the engine draws every random byte (Random, key shares,
 * session ids, ticket nonces, signature salts and hedges) through this,
 * so tests inject RFC 8448's values.  0, or a negative errno.
 */
typedef int (*tlsx_hs_rand_fn)(void *ctx, void *buf, size_t len);

struct tlsx_hs_config {
	bool server;

	/*
	 * Preference order, wire codes; count 0 takes the defaults
	 * (suites and groups: the rows of suite_rows.h and group_rows.h
	 * marked default, in their order: AES-128-GCM, AES-256-GCM,
	 * ChaCha20-Poly1305, not CCM; X25519, secp256r1; schemes: every
	 * one tlsx implements).  CCM is offered or accepted only when
	 * listed here.
	 */
	u16 suites[TLSX_HS_MAX_LIST];
	unsigned int n_suites;
	u16 groups[TLSX_HS_MAX_LIST];
	unsigned int n_groups;
	/*
	 * Client: key shares in the first ClientHello (4.2.8), at most
	 * TLSX_HS_MAX_SHARES.  1: the first group's only; 2: also the
	 * first group after it of the other kind (classical beside a
	 * post-quantum hybrid, or the reverse); 0, the default: 2 when the
	 * first group is a hybrid (X25519MLKEM768 and X25519 by default:
	 * a classical-only server then needs no HelloRetryRequest), else 1.
	 */
	unsigned int key_shares;
	u16 sig_schemes[TLSX_HS_MAX_LIST];
	unsigned int n_sig_schemes;

	/* ALPN (RFC 7301) in wire form (8-bit length, name, ...); 0: none. */
	u8 alpn[TLSX_HS_MAX_ALPN];
	unsigned int alpn_len;

	/*
	 * Server: the certificates (RFC 8446 4.4.2.2).  The candidates are
	 * those whose leaf names the server_name (every one when none
	 * does or none was sent); the first of them, in this order, whose
	 * key can sign a scheme of signature_algorithms and whose
	 * certificates (self-signed ones aside) are signed as
	 * signature_algorithms_cert, else signature_algorithms, allows is
	 * sent; failing the latter, the first whose key can sign;
	 * none: handshake_failure.  Client: the chain that answers a
	 * CertificateRequest is chosen alike (the same code, chain_pick.c)
	 * among those under its certificate_authorities, if sent; when the
	 * request carries signature_algorithms_cert, a chain signed
	 * otherwise is never sent, and none acceptable is an empty
	 * Certificate (client_auth.c says why the two differ).
	 */
	const struct tlsx_cert_chain *chains[TLSX_HS_MAX_CHAINS];
	unsigned int n_chains;

	/*
	 * Client: the anchors the server's chain must reach (NULL with
	 * insecure set: no verification, for tests and tools only).
	 * Server: with verify_peer, the anchors for client certificates.
	 */
	const struct tlsx_trust *trust;
	bool insecure;
	/*
	 * Client, verifying: a handshake without a server name (no
	 * tlsx_hs_set_server_name()) checks the chain against the anchors
	 * only, accepting any host's certificate from them.  Off (default):
	 * such a handshake fails at its first step, before a byte is
	 * written, with -EDESTADDRREQ: a name forgotten must not turn the
	 * host check off silently (RFC 6125 6: the reference identity is
	 * the caller's to give).  For callers that pin or check the
	 * identity themselves (tlsx_hs_peer_cert()).
	 */
	bool verify_name_optional;

	/* Server: send a CertificateRequest (4.3.2); require a chain. */
	bool verify_peer;
	bool require_peer_cert;

	/* Server: issue and accept tickets (NULL: no resumption). */
	struct tlsx_ticket_keys *tickets;
	unsigned int tickets_per_handshake;	/* NewSessionTickets sent */
	u32 ticket_lifetime;			/* seconds, <= 604800 */

	/* Both: also allow psk_ke (resumption without (EC)DHE, 4.2.9). */
	bool allow_psk_ke;
	/*
	 * Server, with allow_psk_ke: take psk_ke even when the client also
	 * offers psk_dhe_ke.  Off (default): psk_dhe_ke whenever the client
	 * allows it and a group is possible, for forward secrecy (E.1:
	 * psk_ke's traffic keys fall with the PSK); psk_ke only for a
	 * client that offers nothing else.
	 */
	bool prefer_psk_ke;

	/* RFC 8449 record_size_limit to announce; 0: do not send it. */
	u16 record_size_limit;

	/*
	 * Largest handshake message body accepted; 0:
	 * TLSX_HS_DEFAULT_MAX_MSG.  Not a server's ClientHello
	 * (TLSX_HS_MAX_CLIENT_HELLO), nor Finished, KeyUpdate and
	 * EndOfEarlyData, which have tighter bounds of their own.
	 */
	size_t max_msg;

	/*
	 * Keep a copy of the peer's certificates once its chain is
	 * accepted (tlsx_hs_peer_cert()): one more allocation, the size of
	 * the DER it sent (at most max_msg) plus struct tlsx_peer_chain,
	 * held until tlsx_hs_free() or tlsx_hs_take_peer_chain().  Off: the
	 * chain is checked where it lies and nothing of it stays.
	 */
	bool keep_peer_chain;

	/* Client: middlebox compatibility mode (4.1.2, D.4); default on. */
	bool no_compat_mode;

	/*
	 * Only tlsx_hs_step_inplace() will be used: the connection needs
	 * no room of its own to open a protected record in (TLSX_REC_MAX
	 * bytes less, tlsx_hs_mem_size()); tlsx_hs_step() fails -EINVAL.
	 */
	bool inplace;

	tlsx_hs_rand_fn rand;	/* NULL: the system's (rand/random.h) */
	void *rand_ctx;
};

/* What tlsx_hs_step() returns besides a negative error. */
enum tlsx_hs_status {
	TLSX_HS_DONE = 0,	/* keys ready: tlsx_hs_secrets() */
	TLSX_HS_WANT_READ = 1,	/* send @out, then step with more input */
};

/*
 * Errors are negative: -TLSX_HS_EALERT(a) when the engine sent (or, for
 * a received alert, got) alert @a; other negative errnos are local
 * (-ENOMEM, -ENOSPC for an @out too small: a caller bug, not sticky;
 * -EDESTADDRREQ, sticky and with nothing sent, for a verifying client
 * given no server name, see verify_name_optional).
 */
#define TLSX_HS_EALERT_BASE	1000
#define TLSX_HS_EALERT(a)	(TLSX_HS_EALERT_BASE + (a))

struct tlsx_hs;

/*
 * One allocation, of tlsx_hs_mem_size(@cfg) bytes; NULL: out of memory.
 *
 * A deliberate deviation from "one bounded allocation" (issue 15): a
 * handshake message that lies within one record, the usual case (a
 * ClientHello, a Finished, a flight packed in records), is parsed where
 * it lies; only one that spans records (a certificate chain over 2^14
 * bytes, a ClientHello over 2^14, or a peer that splits messages) is
 * gathered in a second allocation, grown with what arrives (at most
 * twice what came) to 4 + its length, at most 4 + max_msg (4 +
 * TLSX_HS_MAX_CLIENT_HELLO for a server's ClientHello), freed (wiped)
 * as soon as it was handled; -ENOMEM (internal_error) when that fails.
 * So a connection holds tlsx_hs_mem_size() bytes in the usual case and
 * never more than tlsx_hs_mem_peak(): with the defaults about 7 KB
 * (inplace) or 24 KB for a client; a server's peak is the 131 KB
 * ClientHello only a client that sent one makes it reach.
 */
struct tlsx_hs *tlsx_hs_new(const struct tlsx_hs_config *cfg);
size_t tlsx_hs_mem_size(const struct tlsx_hs_config *cfg);
/*
 * The most a connection holds at once: mem_size + 4 + max_msg (a
 * server: + 4 + the larger of max_msg and TLSX_HS_MAX_CLIENT_HELLO), and
 * with keep_peer_chain another max_msg + sizeof(struct tlsx_peer_chain).
 */
size_t tlsx_hs_mem_peak(const struct tlsx_hs_config *cfg);
/* Wipes every secret and frees. */
void tlsx_hs_free(struct tlsx_hs *hs);

/*
 * Client, before the first step: the name the server's chain must match
 * (a DNS name against dNSName SANs, an IPv4 or IPv6 literal against
 * iPAddress SANs, RFC 6125 6.4, RFC 5280 4.2.1.6) and, unless it is an IP
 * literal, which RFC 6066 3 does not permit there, the SNI sent.  A
 * verifying client needs one (verify_name_optional).
 */
int tlsx_hs_set_server_name(struct tlsx_hs *hs, const char *name);
/* Client, before the first step: a session to resume (copied). */
int tlsx_hs_set_session(struct tlsx_hs *hs, const struct tlsx_session *s);
/* Seconds since the epoch, for certificates and tickets; 0: time(NULL). */
void tlsx_hs_set_time(struct tlsx_hs *hs, s64 now);

/*
 * Runs the handshake on @in_len bytes of @in (whole or partial records;
 * *@consumed says how many were taken) and writes the records to send
 * into @out (*@out_len).  Returns enum tlsx_hs_status or a negative
 * error; after an error every call returns it again (sticky), with the
 * alert record, if one was sent, in @out the first time.  -EINVAL (not
 * sticky, nothing done) when the configuration set inplace.
 */
int tlsx_hs_step(struct tlsx_hs *hs, const u8 *in, size_t in_len,
		 size_t *consumed, u8 *out, size_t out_cap, size_t *out_len);

/*
 * tlsx_hs_step() with the same contract, but the engine may overwrite
 * @in[0..*@consumed) and the record it failed on, if any: it opens
 * protected records where they lie (their plaintext, the peer's
 * decrypted handshake messages, stays there: the caller drops or wipes
 * those bytes).  Bytes after *@consumed are left as they came, so the
 * record-exact rule holds.  The only step a cfg->inplace connection
 * takes; any other may use it too.
 */
int tlsx_hs_step_inplace(struct tlsx_hs *hs, u8 *in, size_t in_len,
			 size_t *consumed, u8 *out, size_t out_cap,
			 size_t *out_len);

/* The alert sent or received when the engine failed; -1 if none. */
int tlsx_hs_alert(const struct tlsx_hs *hs);
/* Whether the alert came from the peer. */
bool tlsx_hs_alert_received(const struct tlsx_hs *hs);
/*
 * Why the engine failed, in words ("no common signature scheme for the
 * certificate"), when the alert alone does not say it; NULL if no cause
 * was named (a malformed message: the alert says it) or the alert came
 * from the peer.  A static string.
 */
const char *tlsx_hs_reason(const struct tlsx_hs *hs);

/* What was negotiated, valid once tlsx_hs_step() returned DONE. */
struct tlsx_hs_info {
	u16 suite;
	u16 group;		/* 0 when resumed with psk_ke */
	u16 sig_scheme;		/* the peer's CertificateVerify; 0: none */
	bool resumed;
	bool hrr;		/* a HelloRetryRequest was sent or received */
	/*
	 * The peer's chain was verified: in this handshake, or, resumed,
	 * in the one that issued the session (a server's ticket, a
	 * client's session, record it), whose chain a resumption does not
	 * carry (tlsx_hs_peer_cert() then has none: RFC 8446 2.2).
	 */
	bool peer_cert;
	u16 peer_record_size_limit;	/* 0: not announced */
	u8 alpn[256];		/* NUL-terminated; "" when none */
	char server_name[TLSX_HS_MAX_NAME + 1];
};
int tlsx_hs_get_info(const struct tlsx_hs *hs, struct tlsx_hs_info *info);

/*
 * The application traffic secrets (7.1) the record layer needs, and the
 * resumption master secret a client keeps for tickets that arrive after
 * the handshake.  Wipe with tlsx_hs_secrets_wipe().
 */
struct tlsx_hs_secrets {
	u16 suite;
	enum tlsx_hash_alg hash;
	size_t secret_len;
	u8 client[TLSX_KS_MAX_SECRET];	/* client_application_traffic_secret_0 */
	u8 server[TLSX_KS_MAX_SECRET];
	u8 res_master[TLSX_KS_MAX_SECRET];	/* client: for NewSessionTicket */
	bool peer_verified;	/* tlsx_hs_info's peer_cert, for the session */
};
int tlsx_hs_secrets(const struct tlsx_hs *hs, struct tlsx_hs_secrets *s);
void tlsx_hs_secrets_wipe(struct tlsx_hs_secrets *s);

/*
 * The peer's certificates (4.4.2: DER, leaf first, as its Certificate
 * message listed them, extra ones included), kept when the
 * configuration set keep_peer_chain and the chain was accepted: verified
 * against the trust anchors, or only parsed for its key when
 * verification is off.  One allocation of tlsx_peer_chain_size() bytes;
 * nothing in it is secret.
 */
#define TLSX_HS_MAX_PEER_CERTS	8	/* handshake/engine/cert.h's TLSX_CERT_MAX_CHAIN */
struct tlsx_peer_chain {
	size_t n;
	size_t size;			/* of this allocation */
	size_t off[TLSX_HS_MAX_PEER_CERTS];
	size_t len[TLSX_HS_MAX_PEER_CERTS];
	u8 der[];
};

/*
 * The @index-th certificate (0: the leaf) into *@der, *@len, valid while
 * @hs holds the copy: 0, or -ENOENT when none was kept (no
 * keep_peer_chain, no chain accepted yet, a resumed handshake, a client
 * that sent an empty Certificate) or @index is past the last.
 */
int tlsx_hs_peer_cert(const struct tlsx_hs *hs, size_t index, const u8 **der,
		      size_t *len);
/* Hands the copy to the caller (tlsx_peer_chain_free()); NULL: none. */
struct tlsx_peer_chain *tlsx_hs_take_peer_chain(struct tlsx_hs *hs);
/* tlsx_hs_peer_cert() on a chain taken; @pc may be NULL (-ENOENT). */
int tlsx_peer_chain_cert(const struct tlsx_peer_chain *pc, size_t index,
			 const u8 **der, size_t *len);
/* Its heap bytes; 0 for NULL. */
size_t tlsx_peer_chain_size(const struct tlsx_peer_chain *pc);
void tlsx_peer_chain_free(struct tlsx_peer_chain *pc);

/*
 * Server, after DONE: the NewSessionTicket messages to send (4.6.1), as
 * handshake messages (not records: the record layer seals them under
 * the server's application key).  0 with *@len 0 when none.
 */
int tlsx_hs_tickets(struct tlsx_hs *hs, u8 *out, size_t cap, size_t *len);

#endif /* TLSX_HS_HS_H */
