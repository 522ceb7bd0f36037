/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx.h - libtlsx, the one header a program includes: a TLS 1.3
 * (RFC 8446) handshake run by tlsx's own engine over a connected TCP
 * socket, then the traffic keys handed to a record layer: the tlsx.ko
 * module, the kernel's own "tls", or, where neither exists, the same
 * record protection in userspace.  The calls after the handshake are the
 * same whichever layer runs.  docs/libtlsx.md is the one-page contract.
 *
 * Conventions:
 *  - Functions returning int return TLSX_OK (0) or a negative enum
 *    tlsx_result; tlsx_read()/tlsx_write()/tlsx_sendfile() return a byte
 *    count or one of those.  tlsx_strerror() names each.  Nothing here
 *    prints, exits, or installs a signal handler: write on a socket whose
 *    peer reset can raise SIGPIPE (libtlsx sends with MSG_NOSIGNAL where
 *    it can; the kernel modes write through send(2) too).
 *  - A configuration is built, then frozen: read-only, shared by any
 *    number of connections and threads.  A connection is used by one
 *    thread at a time.
 *  - The fd stays the caller's: libtlsx never closes it.
 *  - Errors of a connection are sticky: after one, every call on it
 *    returns the same code (tlsx_close() and tlsx_conn_free() excepted).
 *  - Secrets (keys, traffic secrets, the PSK of a session) are wiped
 *    before the memory holding them is freed.
 */
#ifndef TLSX_H
#define TLSX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TLSX_API __attribute__((visibility("default")))

/*
 * The project's one version, the top-level VERSION file: the Makefile
 * passes it (-DTLSX_VERSION_STRING) and `make install` writes it into the
 * installed copy of this header in place of "unknown".
 */
#ifndef TLSX_VERSION_STRING
#define TLSX_VERSION_STRING	"unknown"
#endif

enum tlsx_result {
	TLSX_OK = 0,
	TLSX_DONE = 0,		/* the handshake is complete */
	TLSX_WANT_READ = -1,	/* non-blocking: wait until readable */
	TLSX_WANT_WRITE = -2,	/* non-blocking: wait until writable */
	TLSX_E_SYSCALL = -3,	/* a system call failed: tlsx_conn_errno() */
	TLSX_E_NOMEM = -4,
	TLSX_E_INVAL = -5,	/* bad argument or a call out of order */
	TLSX_E_CONFIG = -6,	/* see tlsx_config_error() */
	TLSX_E_EOF = -7,	/* TCP closed without close_notify (6.1) */
	TLSX_E_ALERT_SENT = -8,	/* the peer broke the protocol: alert sent */
	TLSX_E_ALERT_RECEIVED = -9,	/* the peer sent a fatal alert */
	TLSX_E_CERT = -10,	/* the peer's certificate was refused */
	TLSX_E_RECORD_LAYER = -11,	/* the forced record layer is missing */
	TLSX_E_REKEY = -12,	/* the kernel's tls cannot change keys */
	TLSX_E_CLOSED = -13,	/* written after tlsx_close() */
	TLSX_E_NO_SESSION = -14,	/* no ticket received (yet) */
	TLSX_E_NO_CERT = -15,	/* no such peer certificate */
	TLSX_E_NO_SERVER_NAME = -16,	/* verifying, but no name to verify */
	TLSX_E_FLOOD = -17,	/* records without data past the bounds */
};

/* "want read", "peer sent a fatal alert", ...; never NULL. */
TLSX_API const char *tlsx_strerror(int result);

enum tlsx_role {
	TLSX_ROLE_CLIENT = 0,
	TLSX_ROLE_SERVER = 1,
};

enum tlsx_record_layer {
	TLSX_RL_AUTO = 0,	/* config only: tlsx, then tls, then user */
	TLSX_RL_TLSX,		/* tlsx.ko (TCP_ULP "tlsx") */
	TLSX_RL_TLS,		/* the kernel's kTLS (TCP_ULP "tls") */
	TLSX_RL_USER,		/* libtlsx seals and opens in userspace */
};

/* "auto", "tlsx", "tls", "user". */
TLSX_API const char *tlsx_record_layer_name(enum tlsx_record_layer rl);

/* ------------------------------------------------------------------ */
/* Configuration                                                       */
/* ------------------------------------------------------------------ */

struct tlsx_config;

/*
 * A configuration for @role with the defaults: suites AES-128-GCM,
 * AES-256-GCM, ChaCha20-Poly1305; groups X25519MLKEM768, X25519,
 * secp256r1 (shares for the first two); every
 * signature scheme; a client verifies the server against the system
 * bundle (/etc/ssl/certs/ca-certificates.crt, loaded at freeze); a
 * server issues one ticket per handshake under random keys rotated
 * daily; the record layer tried in the order tlsx, tls, user; rekey at
 * the suite's limit.  NULL when out of memory.  The caller holds one
 * reference.
 */
TLSX_API struct tlsx_config *tlsx_config_new(enum tlsx_role role);

/*
 * References: each connection takes one for its handshake and drops it
 * when the handshake ends (a connection after the handoff needs no
 * configuration).  tlsx_config_free() drops the caller's; the last one
 * frees (wiping the private and ticket keys).
 */
TLSX_API struct tlsx_config *tlsx_config_ref(struct tlsx_config *cfg);
TLSX_API void tlsx_config_free(struct tlsx_config *cfg);

/*
 * The message of the last failed tlsx_config_*() call ("cert.pem: no
 * certificate", "unknown group \"P-384\""); "" when none failed.  Valid
 * until the next call on @cfg.  Not for a frozen, shared configuration.
 */
TLSX_API const char *tlsx_config_error(const struct tlsx_config *cfg);

/*
 * The setters below fail with TLSX_E_INVAL on a frozen configuration and
 * TLSX_E_CONFIG (with a message) for a bad value; the configuration is
 * then unchanged.
 */

/*
 * A certificate chain (PEM, leaf first) and its private key (PEM or DER:
 * RSA, P-256, Ed25519).  A server may add several (up to 16), also more
 * than one for a name (an ECDSA and an RSA chain, as nginx's two
 * ssl_certificate lines).  Each handshake sends, among the chains whose
 * leaf names the client's server_name (all of them when none does, or
 * no name came), the first in the order added whose key can sign a
 * scheme of the client's signature_algorithms and whose certificates
 * are signed as its signature_algorithms_cert (else
 * signature_algorithms) allows; when no chain's signatures fit, the
 * first whose key does (RFC 8446 4.4.2.2).  No key fits: the handshake
 * fails with handshake_failure.  So the first chain added is the
 * default, and a preferred key type goes first.  A client may add
 * several too: a CertificateRequest is answered by the first, in the
 * order added, issued under the request's certificate_authorities (when
 * it lists some) whose key signs a scheme the request lists and whose
 * certificates are signed as it allows (RFC 8446 4.3.2, 4.4.2.2); with
 * none acceptable the client sends no certificate (an empty Certificate:
 * the server decides whether to go on).
 */
TLSX_API int tlsx_config_add_cert(struct tlsx_config *cfg,
				  const char *cert_file, const char *key_file);

/*
 * Trust anchors: a PEM bundle or a directory of *.pem / *.crt.  Client:
 * replaces the system bundle.  Server: the CAs client certificates must
 * reach (with tlsx_config_set_verify_peer()).
 */
TLSX_API int tlsx_config_set_trust(struct tlsx_config *cfg, const char *path);

/*
 * Client: whether the server's chain and name are checked (default
 * true; false is for tests).  Server: whether a CertificateRequest is
 * sent (default false); @require: refuse a client without one
 * (certificate_required, RFC 8446 4.4.2.4).
 */
TLSX_API int tlsx_config_set_verify_peer(struct tlsx_config *cfg, bool verify,
					 bool require);

/*
 * Client, verifying: a connection given no server name (tlsx_connect()
 * with NULL, no tlsx_conn_set_server_name()) fails with
 * TLSX_E_NO_SERVER_NAME before it sends a byte, since its chain could
 * not be matched to any host: a certificate a trusted CA issued for any
 * name would pass.  @optional true opts out: such a connection checks
 * the chain against the trust anchors only, and the caller checks the
 * identity itself (tlsx_peer_cert()).  Default false.  A name that is an
 * IP address is matched against the certificate's iPAddress names and
 * is not sent as SNI (RFC 6066 3).
 */
TLSX_API int tlsx_config_set_verify_name_optional(struct tlsx_config *cfg,
						  bool optional);

/*
 * ALPN (RFC 7301), comma-separated in preference order: "h2,http/1.1".
 * A server picks the first of its own list the client offers; "" clears.
 */
TLSX_API int tlsx_config_set_alpn(struct tlsx_config *cfg, const char *list);

/*
 * Suites, groups, signature schemes: names separated by ':' or ',', in
 * preference order, case-insensitive.  Suites: TLS_AES_128_GCM_SHA256,
 * TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256,
 * TLS_AES_128_CCM_SHA256.  Groups: X25519MLKEM768, X25519, P-256 (also
 * secp256r1, prime256v1), SecP256r1MLKEM768 (the default list is the
 * first three; a client sends shares for X25519MLKEM768 and X25519).
 * Schemes: RFC 8446's names (ecdsa_secp256r1_sha256,
 * ed25519, rsa_pss_rsae_sha256, ...).
 */
TLSX_API int tlsx_config_set_suites(struct tlsx_config *cfg, const char *list);
TLSX_API int tlsx_config_set_groups(struct tlsx_config *cfg, const char *list);
TLSX_API int tlsx_config_set_sig_schemes(struct tlsx_config *cfg,
					 const char *list);

/*
 * Server tickets (RFC 8446 4.6.1): @count NewSessionTickets per
 * handshake (0: none, no resumption), each valid @lifetime seconds
 * (<= 604800), under fresh random keys rotated every @rotate seconds (0:
 * never), the previous key still accepted.
 */
TLSX_API int tlsx_config_set_tickets(struct tlsx_config *cfg,
				     unsigned int count, uint32_t lifetime,
				     uint32_t rotate);
/*
 * Ticket keys from a file (80 bytes per key, newest first, nginx's
 * ssl_session_ticket_key format) instead: servers sharing tickets.
 */
TLSX_API int tlsx_config_load_ticket_keys(struct tlsx_config *cfg,
					  const char *path);

/*
 * Both: allow resumption without (EC)DHE, psk_ke (default: no).  A
 * server still takes psk_dhe_ke when the client offers it too (forward
 * secrecy: psk_ke's keys fall with the ticket's PSK), unless
 * tlsx_config_prefer_psk_ke() says otherwise.
 */
TLSX_API int tlsx_config_set_psk_ke(struct tlsx_config *cfg, bool allow);
/* Server: with psk_ke allowed, take it over psk_dhe_ke (default: no). */
TLSX_API int tlsx_config_prefer_psk_ke(struct tlsx_config *cfg, bool prefer);

/*
 * The record layer: TLSX_RL_AUTO (default) tries tlsx.ko, then kTLS,
 * then userspace.  Any other forces that one: then its absence is
 * TLSX_E_RECORD_LAYER at the handoff, not a fallback.
 */
TLSX_API int tlsx_config_set_record_layer(struct tlsx_config *cfg,
					  enum tlsx_record_layer rl);

/*
 * Largest handshake message accepted (the peer's chain); default 16 KiB.
 * Not the ClientHello: a server takes one of any length RFC 8446 4.1.2
 * allows (131,396 bytes), held only as it arrives.
 */
TLSX_API int tlsx_config_set_max_handshake_message(struct tlsx_config *cfg,
						   size_t bytes);

/*
 * Our own KeyUpdate (RFC 8446 5.5) after @records records sealed under
 * one key; 0 (default): the suite's limit, 2^24 records for AES-GCM,
 * 2^23 for AES-CCM, none for ChaCha20-Poly1305 (5.5).  A lower value is
 * for tests.  The suite's limit is never exceeded.
 */
TLSX_API int tlsx_config_set_rekey_limit(struct tlsx_config *cfg,
					 uint64_t records);

/*
 * Client: key shares in the first ClientHello (RFC 8446 4.2.8): 1 the
 * first group's only, 2 also the first group of the other kind (the
 * classical one beside a post-quantum hybrid); 0, the default, is 2
 * when the first group is a hybrid, else 1.
 */
TLSX_API int tlsx_config_set_key_shares(struct tlsx_config *cfg,
					unsigned int n);

/* RFC 8449 record_size_limit to announce (64..16385); 0: do not send. */
TLSX_API int tlsx_config_set_record_size_limit(struct tlsx_config *cfg,
					       unsigned int limit);

/*
 * Loads what was deferred (the system bundle), checks the whole (a
 * server needs a certificate), and makes @cfg read-only.  Called by the
 * first connection if not before; calling it first reports a bad
 * configuration once, with its message, rather than on every connection.
 * Idempotent; safe from several threads.
 */
TLSX_API int tlsx_config_freeze(struct tlsx_config *cfg);

/* ------------------------------------------------------------------ */
/* Connections                                                         */
/* ------------------------------------------------------------------ */

struct tlsx_conn;

/*
 * Blocking: runs the handshake on connected TCP socket @fd (blocking or
 * not: a non-blocking fd is waited on with poll(2)), hands off to the
 * record layer and returns TLSX_DONE with the connection in *@out.
 * @server_name is sent as SNI and is the name the server's certificate
 * must carry (the engine's rules, handshake/engine/hs.h; an IP address is
 * matched against iPAddress names and not sent as SNI); NULL only with
 * verification off or tlsx_config_set_verify_name_optional(), else
 * TLSX_E_NO_SERVER_NAME with nothing sent.  On a handshake failure *@out is still set, to the
 * failed connection (tlsx_conn_alert(), tlsx_conn_errno() say why; the
 * alert, if any, went out): free it.  *@out is NULL only when no
 * connection could be made (TLSX_E_NOMEM, TLSX_E_CONFIG).
 */
TLSX_API int tlsx_connect(struct tlsx_config *cfg, int fd,
			  const char *server_name, struct tlsx_conn **out);
TLSX_API int tlsx_accept(struct tlsx_config *cfg, int fd,
			 struct tlsx_conn **out);

/*
 * Non-blocking: a connection on @fd (NULL: out of memory, or a
 * configuration that does not freeze: tlsx_config_error()), then
 * tlsx_conn_step() until TLSX_DONE.  Between the two, a client may set
 * the server name and a session to resume.
 */
TLSX_API struct tlsx_conn *tlsx_conn_new(struct tlsx_config *cfg, int fd);
TLSX_API int tlsx_conn_set_server_name(struct tlsx_conn *c, const char *name);
/* A session saved by tlsx_conn_session() (copied; it may be freed). */
TLSX_API int tlsx_conn_set_session(struct tlsx_conn *c, const uint8_t *sess,
				   size_t len);

/*
 * One step of the handshake on the fd: reads and writes what it can
 * without blocking on a non-blocking fd.  Returns TLSX_WANT_READ or
 * TLSX_WANT_WRITE (call again when the fd is ready), TLSX_DONE (the
 * handoff is made: read and write), or an error.
 *
 * Reads are record-exact: the 5-byte header, then exactly the body it
 * announces, so after the peer's last handshake record nothing is taken
 * from the socket: what follows (a client's request in the segment of its
 * Finished) is read under the record layer's key.  A handshake costs
 * two read(2)s per record received plus one write(2) per flight (see
 * tlsx_conn_info.hs_reads/hs_writes), and the handoff's setsockopt(2)s.
 */
TLSX_API int tlsx_conn_step(struct tlsx_conn *c);
/* tlsx_conn_step() until done, waiting with poll(2) (blocking). */
TLSX_API int tlsx_conn_handshake(struct tlsx_conn *c);

/*
 * Sans-I/O (io_uring): the caller does the I/O.  @in holds @in_len bytes
 * the caller read; *@consumed says how many were taken (the rest must
 * be given again).  Bytes to send go to @out (*@out_len; @out_cap at
 * least TLSX_STEP_OUT_MIN).  Returns TLSX_WANT_READ (send @out, then
 * read: never more than tlsx_conn_read_hint() bytes, the record-exact
 * rule), TLSX_DONE (send @out, then call tlsx_conn_handoff()), or an
 * error (send @out: it may hold the alert).
 */
#define TLSX_STEP_OUT_MIN	(36 * 1024 + 4096)
TLSX_API int tlsx_conn_step_buf(struct tlsx_conn *c, const uint8_t *in,
				size_t in_len, size_t *consumed, uint8_t *out,
				size_t out_cap, size_t *out_len);
/*
 * Memory of the sans-I/O steps.  The connection keeps no record and no
 * flight: @out is the caller's and may be shared by every connection a
 * thread steps (a worker's one buffer of TLSX_STEP_OUT_MIN) as long as
 * what a step wrote there is sent, or copied, before that buffer is
 * given to the next step.  tlsx_conn_step_buf() copies @in (at most one
 * record, TLSX_REC_MAX bytes, when it holds more: *@consumed says so)
 * into the calling thread's scratch, opens it there and wipes the copy;
 * tlsx_conn_step_inplace() is the same step without the copy: it may
 * overwrite @in[0..*@consumed) and the record it failed on (protected
 * records are decrypted where they lie, so those bytes then hold the
 * peer's handshake messages in plaintext: drop or wipe them), and leaves
 * the bytes after *@consumed as they came.  The thread's scratch (70,230
 * bytes, for tlsx_conn_step(), tlsx_conn_step_buf(), a server's tickets
 * at the handoff and the userspace record layer's records) is allocated
 * at its first use and wiped and freed at the thread's exit.
 */
TLSX_API int tlsx_conn_step_inplace(struct tlsx_conn *c, uint8_t *in,
				    size_t in_len, size_t *consumed,
				    uint8_t *out, size_t out_cap,
				    size_t *out_len);
/*
 * How many bytes the next read may take (5 for a header, then the body);
 * 0 once the record is whole, or as soon as its header is one the engine
 * refuses (RFC 8446 5, 5.1, 5.2): then step on what is there.
 */
TLSX_API size_t tlsx_conn_read_hint(const struct tlsx_conn *c,
				    const uint8_t *in, size_t in_len);
/*
 * After tlsx_conn_step_buf() returned TLSX_DONE and @out was written:
 * installs the keys on the fd (or the userspace layer) and, on a server,
 * sends the tickets.  TLSX_DONE, or an error.
 */
TLSX_API int tlsx_conn_handoff(struct tlsx_conn *c);

/*
 * After the handshake.  tlsx_read() returns the bytes read (> 0), 0 at
 * the peer's close_notify (and after), TLSX_WANT_READ/WRITE on a
 * non-blocking fd, or an error: TLSX_E_EOF for a TCP close without
 * close_notify (a truncation, RFC 8446 6.1), TLSX_E_ALERT_RECEIVED for
 * the peer's fatal alert, TLSX_E_ALERT_SENT when the peer sent what the
 * RFC forbids (the alert went out), TLSX_E_FLOOD when it sent more
 * records without application data than the bounds allow (alert
 * unexpected_message sent).  Control records (KeyUpdate,
 * NewSessionTicket, alerts) are handled inside and never returned.
 *
 * Never blocks on a non-blocking fd.  The KeyUpdate a peer asks for
 * (4.6.3) is owed until the socket takes it: while it is, tlsx_read()
 * reads nothing and returns TLSX_WANT_WRITE (poll for POLLOUT, then call
 * again, or tlsx_conn_flush()); tlsx_conn_want_write() says whether a
 * write is owed after a read that returned data.  One tlsx_read() works
 * through at most 16 records without application data, then returns
 * TLSX_WANT_READ: with tlsx_pending() > 0 the rest is already inside
 * libtlsx (call again after serving others, not poll).
 */
TLSX_API ssize_t tlsx_read(struct tlsx_conn *c, void *buf, size_t len);
/*
 * What tlsx_read() would work on without a read(2): on the userspace
 * layer, the plaintext already decrypted and not yet read, or else the
 * bytes of the whole records already received and not yet opened (an
 * upper bound of their plaintext: they may be control records, after
 * which tlsx_read() reads the socket and can return TLSX_WANT_READ).
 * 0: the next tlsx_read() would read the socket first, so an event loop
 * waits for POLLIN.  In the kernel modes always 0: the kernel holds the
 * received records, and POLLIN (or tlsx_read()'s TLSX_WANT_READ) says
 * whether any wait.  0 before the handshake is done.
 */
TLSX_API size_t tlsx_pending(const struct tlsx_conn *c);
/*
 * For a caller that receives application data on a kernel record layer
 * with its own recv(2) or IORING_OP_RECV, not tlsx_read() (tlsxd): such
 * a receive fails with EIO where a control record comes next, which
 * tlsx_read() then takes.
 *
 * tlsx_conn_rx_plain(): whether such a receive may be made now.  False
 * while libtlsx holds part of a post-handshake message or alert, whose
 * rest must be the next record (RFC 8446 5.1: a record of another type
 * between its pieces is unexpected_message, which only tlsx_read()
 * checks); false on the userspace layer, before the handshake is done
 * and after a failure.
 *
 * tlsx_conn_rx_failed(): such a receive failed with errno @err.  As
 * tlsx_read() would on the same failure: a record the kernel refused
 * gets its alert (EBADMSG: it did not open, bad_record_mac; EMSGSIZE:
 * over the record size limit, record_overflow; RFC 8446 5.2) and
 * TLSX_E_ALERT_SENT, another errno TLSX_E_SYSCALL (tlsx_conn_errno()).
 * The connection has failed either way.
 */
TLSX_API bool tlsx_conn_rx_plain(const struct tlsx_conn *c);
TLSX_API int tlsx_conn_rx_failed(struct tlsx_conn *c, int err);

/*
 * Writes up to @len bytes; returns how many were taken (all of them on a
 * blocking fd), TLSX_WANT_WRITE when none could be, or an error.  On the
 * userspace layer a record the socket took part of counts as taken:
 * tlsx_conn_flush() pushes its rest when nothing else is written.
 */
TLSX_API ssize_t tlsx_write(struct tlsx_conn *c, const void *buf, size_t len);
TLSX_API int tlsx_conn_flush(struct tlsx_conn *c);
/*
 * True when something is owed to the socket: the KeyUpdate the peer
 * asked for, or (userspace layer) sealed bytes not yet written.
 * tlsx_conn_flush() pays it (TLSX_WANT_WRITE: poll for POLLOUT).
 */
TLSX_API bool tlsx_conn_want_write(const struct tlsx_conn *c);

/*
 * @count bytes of @file_fd from *@off (advanced by what was sent), as
 * sendfile(2): the kernel modes call sendfile(2); the userspace layer
 * reads (preadv, up to four records at a time) and seals.  Returns as
 * tlsx_write().
 */
TLSX_API ssize_t tlsx_sendfile(struct tlsx_conn *c, int file_fd, off_t *off,
			       size_t count);

/*
 * One piece of what tlsx_sendv() sends: @len bytes at @mem, or, with
 * @mem NULL, @len bytes of the file @fd from offset @off.
 */
struct tlsx_piece {
	const void *mem;
	int fd;
	off_t off;
	size_t len;
};

/*
 * Sends the pieces' bytes in order, as one stream (an HTTP/2 DATA frame
 * is a 9-octet header in memory and a range of a file; many frames make
 * one call).  Returns how many bytes were taken from the front of that
 * stream (all of them on a blocking fd; fewer where a file ended early,
 * as sendfile(2) stops there), TLSX_WANT_WRITE when none could be, or an
 * error; the caller goes on from the byte after the last one taken.
 *
 *   userspace  the stream is cut into full records (2^14 bytes, or the
 *              peer's record_size_limit - 1), a record holding the bytes
 *              of as many pieces as fit, the last one of the call short;
 *              memory is copied into the records' plaintext and file
 *              bytes are read by preadv(2) straight into it (one preadv
 *              for a file's ranges that follow each other), sealed in
 *              place, four records per send(2).  Partial writes as
 *              tlsx_write(): a record the socket took part of counts as
 *              taken, the records it took nothing of are given back.
 *   tlsx, tls  each memory piece by send(MSG_MORE) (the kernel keeps its
 *              record open), each file piece by sendfile(2), which ends
 *              the record where it ends: header and payload in one
 *              record, no byte of the file through userspace.
 *
 * @n at most TLSX_SENDV_MAX; the pieces may be given again from the
 * first byte not taken (with the offsets moved on).
 */
#define TLSX_SENDV_MAX	1024
TLSX_API ssize_t tlsx_sendv(struct tlsx_conn *c, const struct tlsx_piece *p,
			    unsigned int n);

/*
 * Sends the caller makes itself in a kernel mode (tlsx or tls): bytes it
 * gives the socket directly (send(2), sendfile(2), splice(2), io_uring)
 * pass no libtlsx call, so libtlsx's count of the records sealed under
 * the sending key does not see them, and one key must seal no more than
 * its limit (RFC 8446 5.5: 2^24 records for AES-GCM here, 2^23 for
 * AES-CCM; tlsx_config_set_rekey_limit()).  Before each such send of up
 * to @len bytes, tlsx_conn_tx_reserve() counts the records it can make
 * (tlsx_tx_records_max()) and makes room for them:
 *   tlsx    our KeyUpdate (4.6.3) goes first when the kernel's own count
 *           would pass the limit; TLSX_WANT_WRITE when it did not fit in
 *           the socket (wait for POLLOUT and call again, send nothing);
 *   tls     6.12's tls cannot change keys: TLSX_E_REKEY when the send
 *           could pass the limit (room stays for close_notify).  Send
 *           nothing more: tlsx_close() and a new connection.  Not sticky.
 *   user    TLSX_OK: tlsx_write() and tlsx_sendfile() count their own.
 * TLSX_E_INVAL when @len could not fit under a fresh key: send less.
 * The kernel's count is read (getsockopt) only near the limit.
 */
TLSX_API int tlsx_conn_tx_reserve(struct tlsx_conn *c, uint64_t len);

/*
 * Records one send of @len bytes can make at most, on either kernel
 * layer: one per 4 KiB page it touches (a record may end at any page
 * of a sendfile or splice), and the record a MSG_MORE left open.
 */
TLSX_API uint64_t tlsx_tx_records_max(uint64_t len);

/*
 * Records the kernel may still seal under the current sending key before
 * it must change (or, on tls, before the connection must end, keeping
 * one for close_notify), from the kernel's own count; UINT64_MAX on the
 * userspace layer, which changes keys by itself.
 */
TLSX_API int tlsx_conn_tx_left(struct tlsx_conn *c, uint64_t *records);

/*
 * Sends a KeyUpdate (RFC 8446 4.6.3) and changes our sending key;
 * @request_peer asks the peer to change its own.  TLSX_E_REKEY on the
 * kernel's tls (6.12 cannot rekey).
 */
TLSX_API int tlsx_conn_key_update(struct tlsx_conn *c, bool request_peer);

/*
 * Sends close_notify (RFC 8446 6.1): we write no more; reading goes on
 * until the peer's.  TLSX_WANT_WRITE on a full non-blocking socket (call
 * again).  Does not close the fd.
 */
TLSX_API int tlsx_close(struct tlsx_conn *c);

/* Wipes every secret and frees; the fd stays open. */
TLSX_API void tlsx_conn_free(struct tlsx_conn *c);

TLSX_API int tlsx_conn_fd(const struct tlsx_conn *c);
TLSX_API enum tlsx_record_layer tlsx_conn_record_layer(const struct tlsx_conn *c);

/* errno of the system call behind TLSX_E_SYSCALL; 0 if none. */
TLSX_API int tlsx_conn_errno(const struct tlsx_conn *c);
/* The alert behind TLSX_E_ALERT_SENT, _RECEIVED, _CERT, _FLOOD; or -1. */
TLSX_API int tlsx_conn_alert(const struct tlsx_conn *c);
/*
 * Why the handshake failed on our side, in words, where the alert alone
 * does not say it: "no signature scheme in common for the certificate",
 * "no cipher suite in common", "no group in common", ...; NULL when no
 * cause was named (a malformed message: the alert names it; an alert
 * received).  A static string, valid for the program's life.
 */
TLSX_API const char *tlsx_conn_reason(const struct tlsx_conn *c);
/* "decode_error", ...; NULL for another value. */
TLSX_API const char *tlsx_alert_string(int alert);

struct tlsx_conn_info {
	uint16_t suite;			/* wire code, 0x1301.. */
	const char *suite_name;		/* "TLS_AES_128_GCM_SHA256" */
	uint16_t group;			/* 0: resumed with psk_ke */
	const char *group_name;		/* "x25519", "secp256r1", "none" */
	uint16_t sig_scheme;		/* the peer's CertificateVerify, or 0 */
	const char *alpn;		/* "" when none */
	/*
	 * Server: the SNI received.  Client: the name set, which the
	 * server's chain was verified against (sent as SNI unless it is
	 * an IP address).  "" if none.
	 */
	const char *server_name;
	bool resumed;
	bool hrr;			/* a HelloRetryRequest took place */
	/*
	 * The peer's chain was verified against the trust anchors: in
	 * this handshake, or, when resumed, in the handshake that made
	 * the session (the server's ticket records it for the client, the
	 * client's session for the server); a resumption carries no
	 * chain, so then tlsx_peer_cert() has none (TLSX_E_NO_CERT).
	 */
	bool peer_cert;
	enum tlsx_record_layer record_layer;
	unsigned int peer_record_size_limit;	/* 0: none announced */
	/*
	 * A kernel mode whose records fit the peer's record_size_limit
	 * (none, or the kernel cuts to it: tlsx.ko's
	 * TLS_TX_MAX_PAYLOAD_LEN): the program may send and sendfile on
	 * the fd itself.  False: send through tlsx_write()/tlsx_sendfile(),
	 * which cut records to the limit (6.1's and 6.12's tls), or the
	 * userspace layer.
	 */
	bool fd_send_fits;
	unsigned int hs_reads, hs_writes;	/* syscalls of the handshake */
	uint64_t key_updates_sent, key_updates_received;
	size_t state_bytes;		/* heap libtlsx holds for @c now */
};

/* Fills @info (its strings live as long as @c); TLSX_E_INVAL before DONE. */
TLSX_API int tlsx_conn_info(const struct tlsx_conn *c,
			    struct tlsx_conn_info *info);

/*
 * The peer's certificate number @index into *@der and *@len: DER, 0 the
 * leaf, then the others in the order of its Certificate message (RFC
 * 8446 4.4.2; extra certificates included), pointing into memory @c
 * owns until tlsx_conn_free().  The chain is kept when the handshake
 * accepted it: verified against the trust anchors (then
 * tlsx_conn_info().peer_cert is true), or, on a client with verification
 * off, only parsed.  So a client has its server's chain, and a server
 * the client's when it asked for one (tlsx_config_set_verify_peer()) and
 * got one.  TLSX_E_NO_CERT when there is no such certificate: @index
 * past the last, no chain sent (a client's empty Certificate, a
 * resumed handshake: RFC 8446 2.2 sends none, and tickets do not keep
 * the chain; tlsx_conn_info().peer_cert still says whether the original
 * handshake verified it), TLSX_E_INVAL before
 * TLSX_DONE.  Memory: the DER the peer sent plus 144 bytes, counted in
 * tlsx_conn_info().state_bytes, bounded by the maximum handshake message.
 */
TLSX_API int tlsx_peer_cert(const struct tlsx_conn *c, size_t index,
			    const uint8_t **der, size_t *len);

/*
 * Client: the newest session a NewSessionTicket gave (tickets arrive
 * after the handshake: read at least once), as bytes to keep for
 * tlsx_conn_set_session().  The bytes hold the resumption PSK: treat
 * them as a secret.  TLSX_E_NO_SESSION when none came; TLSX_E_INVAL with
 * *@len the size needed when @cap is too small.
 */
TLSX_API int tlsx_conn_session(const struct tlsx_conn *c, uint8_t *buf,
			       size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* TLSX_H */
