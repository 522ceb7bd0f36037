/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs_impl.h - the engine's inside, shared by hs.c (the API entry points,
 * the step loop, the helpers both roles use), hs_record.c (record
 * framing, message reassembly), hs_msg.c (the messages both roles write
 * or check), the client (client*.c, client_impl.h) and the server
 * (server*.c, server_impl.h).  Not part of the API (hs.h is).
 *
 * Division of labour:
 *
 *  - hs_record.c owns the records: it checks headers, opens protected
 *    records, drops the compatibility ChangeCipherSpec where RFC 8446 5
 *    allows it, turns a received alert into the error, reassembles
 *    handshake messages (bounded per type: hs_msg_max()) and hands each
 *    whole message to the role's handler.  It enforces 5.1's alignment rule:
 *    a handler that changes the read key (hs_set_read_secret()) must
 *    have been given the last bytes of its record.  On error hs.c's one
 *    exit writes the alert record (hs_send_alert(), protected once a
 *    write key is set) and makes the error sticky.
 *  - A role (client*.c, server*.c) is a struct tlsx_hs_role: start()
 *    writes the first flight (the client's ClientHello; NULL for the
 *    server), handle() takes one whole handshake message (header
 *    included, for the transcript) and returns 0 or an alert (> 0) or a
 *    negative errno.  Each handler adds its message to the transcript
 *    itself, at the point the RFC's hashes need it, and sets hs->state
 *    last.  A role ends the handshake with hs->done = true; hs.c then
 *    consumes nothing after that record.
 *  - Output: handlers write handshake messages with hs_msg_begin() /
 *    hs_msg_end() straight into the caller's buffer (struct hs_out);
 *    hs_msg_end() adds the message to the transcript and frames it as
 *    one or more records (protected under hs->wr once set).
 */
#ifndef TLSX_HS_HS_IMPL_H
#define TLSX_HS_HS_IMPL_H

#include "handshake/engine/codec.h"
#include "handshake/engine/ext.h"
#include "handshake/engine/hs.h"
#include "handshake/engine/kx.h"
#include "handshake/engine/record_protect.h"
#include "handshake/engine/ticket.h"
#include "handshake/engine/transcript.h"
#include "x509/spki.h"

/* Handshake message types (RFC 8446 4). */
#define TLSX_HT_CLIENT_HELLO		1
#define TLSX_HT_SERVER_HELLO		2
#define TLSX_HT_NEW_SESSION_TICKET	4
#define TLSX_HT_END_OF_EARLY_DATA	5
#define TLSX_HT_ENCRYPTED_EXTENSIONS	8
#define TLSX_HT_CERTIFICATE		11
#define TLSX_HT_CERTIFICATE_REQUEST	13
#define TLSX_HT_CERTIFICATE_VERIFY	15
#define TLSX_HT_FINISHED		20
#define TLSX_HT_KEY_UPDATE		24
#define TLSX_HT_MESSAGE_HASH		254

#define TLSX_HS_MSG_HDR		4	/* type, uint24 length */
#define TLSX_HS_RANDOM		32
#define TLSX_HS_SESSION_ID	32	/* legacy_session_id<0..32> */
#define TLSX_HS_MAX_COOKIE	512	/* an HRR cookie echoed (client) */
#define TLSX_HS_MAX_SHARES	2	/* key shares held at once */
#define TLSX_HS_VERSION_13	0x0304
#define TLSX_HS_VERSION_12	0x0303
#define TLSX_HS_VERSION_SSL3	0x0300

/* RFC 8446 4.1.3: HelloRetryRequest's Random, SHA-256("HelloRetryRequest"). */
extern const u8 tlsx_hrr_random[TLSX_HS_RANDOM];

struct tlsx_hs;

/*
 * The caller's output buffer, as a step fills it: @len bytes of whole
 * records, then @pend bytes of handshake messages not yet framed (at
 * buf + len + 5), so that a flight goes out in as few records as it
 * fits (RFC 8448's traces put one in one record).  The pending bytes
 * are framed before a CCS, before the write key changes and when the
 * step returns (hs_flush()).
 */
struct hs_out {
	u8 *buf;
	size_t cap;
	size_t len;
	size_t pend;
	size_t msg_start;	/* hs_msg_begin(): where the message is */
};

struct tlsx_hs_role {
	const char *name;
	/* First flight, called once before any input; NULL: nothing. */
	int (*start)(struct tlsx_hs *hs, struct hs_out *o);
	/* One whole handshake message @msg[0..@len), header included. */
	int (*handle)(struct tlsx_hs *hs, const u8 *msg, size_t len,
		      struct hs_out *o);
	/* Server, after DONE: tlsx_hs_tickets(); NULL: none. */
	int (*tickets)(struct tlsx_hs *hs, u8 *out, size_t cap, size_t *len);
};

/*
 * Test seams (tests only; NULL in every real connection): RFC 8448's
 * server certificate is RSA-1024, below RSA_MIN_BITS, so its test
 * checks the chain and the CertificateVerify with OpenSSL through these
 * instead of x509/ and rsa/ -- the checks still run, by another
 * verifier.  client_hello(2) make the client send those exact bytes
 * (RFC 8448's ClientHello offers groups and schemes tlsx does not
 * implement) after building its own, whose state (random, session id,
 * key shares) the test makes match through cfg->rand.
 */
struct hs_test_hooks {
	int (*peer_cert)(struct tlsx_hs *hs, const u8 *const *certs,
			 const size_t *lens, size_t n);
	int (*cert_verify)(struct tlsx_hs *hs, u16 scheme, const u8 *th,
			   size_t th_len, const u8 *sig, size_t sig_len);
	const u8 *client_hello;		/* ClientHello1 */
	size_t client_hello_len;
	const u8 *client_hello2;	/* after a HelloRetryRequest */
	size_t client_hello2_len;
	/*
	 * RFC 8448's traces: cert_sign signs CertificateVerify in place of
	 * tlsx_cv_sign() (the RSA-1024 keys again, the server's and in
	 * section 6 the client's).  Server: hrr_cookie is sent as the
	 * HelloRetryRequest's cookie and must come back as is (the RFC's
	 * server had its own format); ee_groups is the body of
	 * EncryptedExtensions' supported_groups (the RFC's server lists
	 * groups tlsx does not implement).  cr_exts are whole extensions
	 * (type, length, body) added as they are to the CertificateRequest
	 * (test_client_oidf.c's oid_filters, which tlsx's server does not
	 * send).
	 */
	int (*cert_sign)(struct tlsx_hs *hs, u16 scheme, const u8 *th,
			 size_t th_len, u8 *sig, size_t cap, size_t *sig_len);
	const u8 *hrr_cookie;
	size_t hrr_cookie_len;
	const u8 *ee_groups;
	size_t ee_groups_len;
	const u8 *cr_exts;
	size_t cr_exts_len;
};

extern const struct tlsx_hs_role tlsx_hs_client_role;
extern const struct tlsx_hs_role tlsx_hs_server_role;

struct tlsx_hs {
	const struct tlsx_hs_config *cfg;
	const struct tlsx_hs_role *role;
	const struct hs_test_hooks *test;
	bool server;
	int state;		/* the role's enum: CLIENT_* or SERVER_* */
	bool started;		/* role->start() ran */
	bool done;		/* the handshake is complete */
	int err;		/* sticky: 0 or a negative error */
	int alert;		/* sent or received; -1: none */
	bool alert_received;
	const char *why;	/* the failure's cause, static; NULL: none */
	s64 now;		/* 0: time(NULL) when needed */

	/* The configuration's lists, defaults filled in (tlsx_hs_new()). */
	u16 suites[TLSX_HS_MAX_LIST];
	unsigned int n_suites;
	u16 groups[TLSX_HS_MAX_LIST];
	unsigned int n_groups;
	u16 sig_schemes[TLSX_HS_MAX_LIST];
	unsigned int n_sig_schemes;
	size_t max_msg;

	/* Negotiated. */
	u16 suite;		/* 0 until ServerHello/HRR */
	enum tlsx_hash_alg hash;
	size_t hash_len;
	u16 group;		/* the (EC)DHE group */
	u16 peer_sig_scheme;	/* the peer's CertificateVerify */
	u16 own_sig_scheme;	/* ours, if we sent one */
	bool hrr;
	bool resumed;
	bool peer_cert;
	bool compat;		/* middlebox compatibility mode (D.4) */
	bool ccs_sent;		/* our dummy ChangeCipherSpec went out */
	/* 5: a 0x01 CCS from the peer is dropped (after the 1st CH). */
	bool ccs_ok;
	bool ccs_seen;		/* D.4: the peer's one dummy CCS came */
	bool ch_record_0301;	/* client: the first ClientHello's record */
	bool cert_requested;	/* client: a CertificateRequest came */
	u16 peer_record_size_limit;
	u8 alpn[256];		/* NUL-terminated */
	char server_name[TLSX_HS_MAX_NAME + 1];

	/* Hello state. */
	u8 random[TLSX_HS_RANDOM];		/* our Random */
	u8 session_id[TLSX_HS_SESSION_ID];	/* legacy_session_id */
	u8 session_id_len;
	u32 sent_exts;		/* TLSX_EXT_BIT()s of our ClientHello */
	/*
	 * Client: the HelloRetryRequest's cookie, pointing into the HRR
	 * while its handler writes ClientHello2; NULL otherwise.
	 */
	const u8 *cookie;
	size_t cookie_len;
	/* The peer's signature_algorithms (ClientHello, CertificateRequest). */
	u16 peer_sig_schemes[TLSX_HS_MAX_LIST];
	unsigned int n_peer_sig_schemes;
	u16 hrr_group;		/* the group a HelloRetryRequest asked for */
	struct tlsx_kx shares[TLSX_HS_MAX_SHARES];
	unsigned int n_shares;

	/* Secrets. */
	struct tlsx_transcript ts;
	struct tlsx_ks ks;
	u8 c_hs[TLSX_KS_MAX_SECRET];
	u8 s_hs[TLSX_KS_MAX_SECRET];
	u8 c_ap[TLSX_KS_MAX_SECRET];
	u8 s_ap[TLSX_KS_MAX_SECRET];
	u8 res_master[TLSX_KS_MAX_SECRET];
	bool have_ap;		/* c_ap, s_ap derived */
	bool have_res;		/* res_master derived */

	/* The peer's leaf key (CertificateVerify checks against it). */
	struct tlsx_public_key peer_pub;
	/* Its certificates, with cfg->keep_peer_chain (peer_chain.c). */
	struct tlsx_peer_chain *peer_chain;
	/*
	 * Client: the chain that answers the CertificateRequest and its
	 * scheme (own_sig_scheme), chosen when the request came (NULL: an
	 * empty Certificate).
	 */
	const struct tlsx_cert_chain *own_chain;

	/* A session to resume: the client's (tlsx_hs_set_session()), the
	 * server's from the ticket it accepted.
	 */
	struct tlsx_session session;
	bool have_session;
	bool psk_offered;	/* client: the session is in our ClientHello */


	/* Records: our write direction and the peer's. */
	struct tlsx_rec_dir wr;
	struct tlsx_rec_dir rd;
	bool rd_key_changed;	/* set by hs_set_read_secret(), 5.1 */
	struct hs_out *out;	/* during a step: hs_set_write_secret() flushes */
	/*
	 * Server: bytes of the client's 0-RTT records still to skip when
	 * early data was declined (4.2.10); 0: none.
	 */
	size_t early_skip;

	/* Server-only state (server*.c); the resumed session is in session. */
	struct hs_server {
		const struct tlsx_cert_chain *chain;	/* by server_name */
		u32 client_exts;	/* TLSX_EXT_BIT()s of the ClientHello */
		u16 hrr_group;		/* the group our HRR asked for */
		u16 psk_identity;	/* selected_identity (4.2.11) */
		bool psk_ke;		/* resumed without (EC)DHE */
		/*
		 * 4.2.9: the client's psk_key_exchange_modes allow a mode
		 * we take, so a ticket could be used: none sent otherwise.
		 */
		bool ticket_usable;
		/* 4.1.2: the parts of ClientHello1 the second must repeat. */
		u8 ch1_digest[SHA256_DIGEST_SIZE];
		u8 ch1_hash[TLSX_KS_MAX_SECRET];	/* Hash(ClientHello1) */
		unsigned int tickets_sent;
	} srv;

	/*
	 * A handshake message that spans records (5.1 allows it) is gathered
	 * here: its header in hdr while the header itself is split, then the
	 * message in msg, msg_cap bytes allocated, grown with what arrives
	 * up to msg_need (4 + its length, at most its type's bound:
	 * hs_record.c hs_msg_max()) and wiped and freed as soon as the role
	 * has handled it.  msg_len bytes of it have come so far; 0: no
	 * message is open.  A message that lies within one record is handled
	 * where it lies and never copied.
	 */
	u8 hdr[TLSX_HS_MSG_HDR];
	u8 *msg;
	size_t msg_len;
	size_t msg_cap;
	size_t msg_need;
	/* cfg->inplace: only tlsx_hs_step_inplace(), rec[] not allocated. */
	bool inplace;
	/*
	 * tlsx_hs_step(): its input is const, so a protected record is
	 * copied here (TLSX_REC_MAX bytes) and opened.
	 */
	u8 rec[];
};

/*
 * --- helpers for both roles: hs.c (randomness, time, suite, secrets),
 * hs_record.c (output, hs_msg_free()), hs_msg.c (the shared messages).
 */

/*
 * Refuses with @alert and names the cause, @why (a static string, "no
 * cipher suite in common"), for tlsx_hs_reason(): the alert alone does
 * not say which of the hello's choices failed.  The first cause stands.
 */
static inline int hs_refuse(struct tlsx_hs *hs, int alert, const char *why)
{
	if (!hs->why)
		hs->why = why;
	return alert;
}

/* Draws @len bytes from the configuration's source (or the system's). */
int hs_rand(struct tlsx_hs *hs, void *buf, size_t len);

/* hs_rand() as a plain callback, @ctx the struct tlsx_hs. */
int hs_rand_cb(void *ctx, void *buf, size_t len);

/* The time for certificates and tickets. */
s64 hs_now(const struct tlsx_hs *hs);

/* The suite's hash chosen: transcript narrowed, hash/hash_len set. */
int hs_set_suite(struct tlsx_hs *hs, u16 suite);

/* Whether @list[0..@n) holds @v. */
bool hs_list_has(const u16 *list, unsigned int n, u16 v);

/* Whether cert.c knows signature scheme @v (its name is not "unknown"). */
bool hs_scheme_ok(u16 v);

/* Frames the pending handshake messages of @o as records. */
int hs_flush(struct tlsx_hs *hs, struct hs_out *o);

/* Keys the peer's records from now on (5.1: at a record boundary). */
int hs_set_read_secret(struct tlsx_hs *hs, const u8 *secret);
/* Keys our records from now on (what is pending goes under the old). */
int hs_set_write_secret(struct tlsx_hs *hs, const u8 *secret);

/*
 * The handshake secrets from the (EC)DHE secret @dhe (NULL: psk_ke)
 * over the transcript so far (..ServerHello): ks -> HANDSHAKE, c_hs and
 * s_hs set.  The key schedule must be at EARLY (tlsx_ks_init() done).
 */
int hs_derive_handshake(struct tlsx_hs *hs, const u8 *dhe, size_t dhe_len);
/* The application secrets over ..server Finished: ks -> MASTER. */
int hs_derive_application(struct tlsx_hs *hs);
/* The resumption master secret over ..client Finished. */
int hs_derive_resumption(struct tlsx_hs *hs);

/*
 * Starts a handshake message of type @type in @o and returns the writer
 * for its body (the 4-byte header is reserved); hs_msg_end() patches the
 * length, adds the message to the transcript and leaves it pending, to
 * be framed with the rest of the flight into records of
 * TLSX_CT_HANDSHAKE (protected under hs->wr if set; split at 2^14 bytes
 * or the peer's record_size_limit).
 */
void hs_msg_begin(struct tlsx_hs *hs, struct hs_out *o, u8 type,
		  struct tlsx_wr *w);
int hs_msg_end(struct tlsx_hs *hs, struct hs_out *o, struct tlsx_wr *w);

/*
 * hs_msg_end() without adding to the transcript (a ClientHello whose
 * binders are written afterwards): then hs_msg_commit() after patching.
 */
int hs_msg_end_raw(struct tlsx_hs *hs, struct hs_out *o, struct tlsx_wr *w,
		   u8 **msg, size_t *len);
int hs_msg_commit(struct tlsx_hs *hs, struct hs_out *o, u8 *msg, size_t len);

/* A plaintext ChangeCipherSpec record (5, D.4), once per handshake. */
int hs_send_ccs(struct tlsx_hs *hs, struct hs_out *o);

/*
 * Finished (4.4.4): ours, over the transcript so far, from @base_key
 * (our handshake traffic secret); and the check of the peer's message
 * (constant time, keysched.c): 0, decode_error, decrypt_error.
 */
int hs_send_finished(struct tlsx_hs *hs, struct hs_out *o, const u8 *base_key);
int hs_check_finished(struct tlsx_hs *hs, const u8 *msg, size_t len,
		      const u8 *base_key);

/*
 * Certificate (4.4.2) with @chain (NULL: an empty list, a client with no
 * certificate) and @ctx as certificate_request_context.
 */
int hs_send_certificate(struct tlsx_hs *hs, struct hs_out *o,
			const struct tlsx_cert_chain *chain, const u8 *ctx,
			size_t ctx_len);

/*
 * What the peer's Certificate and CertificateVerify (4.4.2, 4.4.3) mean
 * to one role, the reading being the same for both (hs_peer_certificate(),
 * hs_peer_cert_verify()): the extendedKeyUsage purpose the peer's leaf
 * must have, the role's verdict on an empty Certificate (4.4.2.4: the
 * client must refuse it, the server may take it), and the states that
 * follow.
 */
struct hs_peer_auth {
	unsigned int purpose;		/* X509_EKU_SERVER_AUTH / _CLIENT_AUTH */
	/* An empty certificate_list: 0 to go on unauthenticated, or the alert. */
	int (*empty_chain)(struct tlsx_hs *hs);
	int expect_cert_verify;		/* after a chain */
	int expect_finished;		/* after CertificateVerify, or no chain */
};

/*
 * The peer's Certificate (4.4.2): read (at most TLSX_CERT_MAX_CHAIN
 * certificates, each CertificateEntry's extensions through ext.c,
 * @requested being what our ClientHello or CertificateRequest asked
 * for), its context checked empty, an empty list judged by
 * @auth->empty_chain, a chain verified for @auth->purpose
 * (hs_verify_peer_chain() in hs_msg.c: hs->peer_pub, hs->peer_cert, the
 * chain kept); then added to the transcript, and hs->state set to
 * @auth->expect_cert_verify, or expect_finished for no chain.  0 or
 * the alert (decode_error, illegal_parameter, bad_certificate for a
 * chain too long, the verifier's), or -ENOMEM.
 */
int hs_peer_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len,
			u32 requested, const struct hs_peer_auth *auth);

/*
 * The signature scheme for our CertificateVerify with @chain: the first
 * of our configured schemes that the peer offered (@peer, @n_peer) and
 * that the key and leaf can do (rsa_pss_pss_* only for an id-RSASSA-PSS
 * leaf, rsa_pss_rsae_* only for rsaEncryption).  0 when none.
 */
u16 hs_pick_sig_scheme(const struct tlsx_hs *hs,
		       const struct tlsx_cert_chain *chain, const u16 *peer,
		       unsigned int n_peer);
/*
 * chain_pick.c: which of our chains answers the peer (4.4.2.2), for both
 * roles.  Among @chains[i] with bit i of @candidates set, in order: the
 * first whose key can sign a scheme of @peer (hs_pick_sig_scheme()) and
 * whose certificates are all signed as @cert_algs (TLSX_CERT_SIG_BIT()s,
 * hs_read_cert_sigs()) allows, with sigs_fit set; failing that the
 * first whose key can sign, sigs_fit clear; chain NULL when no key can.
 */
struct hs_chain_choice {
	const struct tlsx_cert_chain *chain;
	u16 scheme;			/* for our CertificateVerify */
	bool sigs_fit;
};
void hs_pick_chain(const struct tlsx_hs *hs,
		   const struct tlsx_cert_chain *const *chains, unsigned int n,
		   u32 candidates, const u16 *peer, unsigned int n_peer,
		   unsigned int cert_algs, struct hs_chain_choice *out);
/*
 * The certificate signatures the peer accepts (4.2.3): its
 * signature_algorithms_cert, else signature_algorithms, of a ClientHello
 * or CertificateRequest walked into @ext; 0 or decode_error.
 */
int hs_read_cert_sigs(const struct tlsx_exts *ext, unsigned int *algs);
/* certificate_authorities' body (4.2.4) opened into @list: 0 or an alert. */
int hs_open_authorities(const u8 *data, size_t len, struct tlsx_rd *list);
/* Whether a certificate of @c is issued by a name of @list. */
bool hs_chain_issued_by(const struct tlsx_cert_chain *c, struct tlsx_rd list);
/*
 * oid_filters (4.2.5, oid_filter.c): the body @data checked, 0 or the
 * alert (decode_error, illegal_parameter); and whether @leaf has every
 * recognised extension (keyUsage, extendedKeyUsage) and value a checked
 * body asks for.
 */
struct tlsx_x509;
int hs_oid_filters_check(const u8 *data, size_t len);
bool hs_oid_filters_match(const u8 *data, size_t len,
			  const struct tlsx_x509 *leaf);

/*
 * peer_chain.c: with cfg->keep_peer_chain, copies the accepted chain
 * into hs->peer_chain (tlsx_hs_peer_cert()); 0 or -ENOMEM.
 */
int hs_keep_peer_chain(struct tlsx_hs *hs, const u8 *const *certs,
		       const size_t *lens, size_t n);

/*
 * CertificateVerify over the transcript so far, signed with @chain's key
 * in @scheme (by the test seam's cert_sign when set: @chain unused);
 * sets hs->own_sig_scheme.
 */
int hs_send_cert_verify(struct tlsx_hs *hs, struct hs_out *o,
			const struct tlsx_cert_chain *chain, u16 scheme);
/*
 * The peer's CertificateVerify (4.4.3) @msg checked against hs->peer_pub
 * and the transcript so far (the scheme must be one of ours:
 * illegal_parameter), hs->peer_sig_scheme set; then added to the
 * transcript and hs->state set to @auth->expect_finished.
 */
int hs_peer_cert_verify(struct tlsx_hs *hs, const u8 *msg, size_t len,
			const struct hs_peer_auth *auth);

/*
 * Reads a signature_algorithms(_cert) body into @out (at most
 * TLSX_HS_MAX_LIST kept; unknown codes skipped): 0 or decode_error.
 */
int hs_parse_sig_schemes(const u8 *data, size_t len, u16 *out,
			 unsigned int *n);

/* Extension writers both roles use (the extension's whole body). */
int hs_write_alpn(struct tlsx_wr *w, const u8 *alpn, size_t len);
int hs_write_record_size_limit(struct tlsx_wr *w, u16 limit);

/*
 * RFC 8449 4: the record_size_limit extension's value, checked (< 64 is
 * illegal_parameter); 0 or an alert.
 */
int hs_parse_record_size_limit(const u8 *data, size_t len, u16 *limit);

/* Wipes every secret in @hs (tlsx_hs_free() and the error exit). */
void hs_wipe_secrets(struct tlsx_hs *hs);
/* Wipes and frees a message being gathered (hs->msg), if any. */
void hs_msg_free(struct tlsx_hs *hs);

/* --- hs_record.c: for hs.c's step loop ----------------------------------- */

/* A received alert ends the step without an alert of ours. */
#define HS_EALERT_IN	(-ECONNRESET)

/* A fatal alert (6), protected once we have a write key. */
void hs_send_alert(struct tlsx_hs *hs, struct hs_out *o, u8 alert);

/* One whole record, its header checked; @wrec: the same bytes writable. */
int hs_record(struct tlsx_hs *hs, const u8 *rec, u8 *wrec,
	      size_t rec_len, struct hs_out *o);

#endif /* TLSX_HS_HS_IMPL_H */
