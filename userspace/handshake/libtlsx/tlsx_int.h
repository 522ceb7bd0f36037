/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx_int.h - libtlsx's insides, shared by its files and its tests,
 * never installed:
 *
 *   tlsx_config.c  the configuration: setters, freeze, references
 *   tlsx_conn.c    a connection's handshake: the engine over the fd
 *                  (record-exact reads), the sans-I/O step, info
 *   scratch.c      the thread's record buffers (struct tlsx_scratch)
 *   handoff.c      the record layers' operations tables, the choice of
 *                  one and the keys given to it (TCP_ULP, TLS_TX, TLS_RX)
 *   tlsx_io.c      the calls after the handshake: each through the
 *                  connection's table (c->ops)
 *   rl_control.c   what every layer shares, below them all: the control
 *                  records (KeyUpdate, NewSessionTicket, alerts), the
 *                  receive bounds, the key limit, the sticky error
 *   ktls.c         the kernel modes' I/O: recv/send with record-type
 *                  cmsgs
 *   urec.c         the userspace record layer on handshake/engine/record_protect.h
 *
 * The calls go down only: tlsx_conn.c and tlsx_io.c call the layer
 * through c->ops (struct tlsx_rl_ops) and rl_control.c; ktls.c and
 * urec.c call rl_control.c, never tlsx_io.c; rl_control.c reaches the
 * layer only through c->ops (an alert, a KeyUpdate and its key).
 *
 * After the handoff a connection holds no configuration and no engine:
 * the fd, a few flags and numbers, and the two current traffic secrets
 * (for KeyUpdate, RFC 8446 7.2), plus, on the userspace layer, the two
 * AEAD keys and sequence numbers (struct tlsx_urec); its record buffers
 * are the thread's scratch, a connection keeping only what a call left
 * (a partial record, plaintext not yet read, bytes the socket did not
 * take), each in an allocation of exactly that size.
 */
#ifndef TLSX_HS_TLSX_INT_H
#define TLSX_HS_TLSX_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "aead/platform.h"
#include "handshake/libtlsx/tlsx.h"
#include "handshake/engine/hs.h"
#include "handshake/engine/record_protect.h"

/* Linux's SOL_TLS; older libc headers lack it. */
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

/* Handshake message types after the handshake (RFC 8446 4). */
#define TLSX_HS_NEW_SESSION_TICKET	4
#define TLSX_HS_KEY_UPDATE		24

struct tlsx_config {
	atomic_int refs;
	atomic_bool frozen;
	pthread_mutex_t freeze_lock;
	enum tlsx_role role;
	struct tlsx_hs_config hs;	/* what the engine reads */
	struct tlsx_cert_chain *chains[TLSX_HS_MAX_CHAINS];
	struct tlsx_trust *trust;
	bool verify;			/* client: check the server */
	bool tickets_set;		/* set or loaded: no default keys */
	u32 ticket_rotate;
	u64 rekey_limit;		/* 0: the suite's */
	enum tlsx_record_layer rl;
	char err[256];
};

/* Freezes @cfg if it is not yet: TLSX_OK or the (first) error. */
int tlsx__config_use(struct tlsx_config *cfg);

/*
 * The handshake's state, freed at the handoff.  No buffer of a whole
 * record or flight lives here: records are read into and flights written
 * from the thread's scratch (struct tlsx_scratch); a connection holds
 * @rec only while a record's body is partly received and @pend only
 * while a non-blocking send left part of a flight unsent, each of
 * exactly the size needed.
 */
struct tlsx_hsd {
	struct tlsx_config *cfg;	/* a reference */
	struct tlsx_hs *hs;
	bool started;			/* the engine has stepped */
	bool engine_done;		/* tlsx_hs_step() said DONE */
	int fail;			/* the error, once its alert is sent */
	u8 hdr[TLSX_REC_HDR];		/* the record header being read */
	size_t in_len;			/* of the record, header included */
	u8 *rec;			/* TLSX_REC_HDR + body, partly read */
	u8 *pend;			/* unsent flight bytes */
	size_t pend_len, pend_off;	/* [off, len) still to write */
};

/* A KeyUpdate or an alert, sealed: header, content, type, tag. */
#define TLSX_U_CTRL_MAX	(TLSX_REC_HDR + 16 + 1 + TLSX_AEAD_TAG_LEN)
/*
 * Application data records sealed per write(2) by the userspace layer
 * (tlsx_write, tlsx_sendfile): one preadv(2) and one send(2) per 64 KiB
 * rather than a pair per 16 KiB record.
 */
#define TLSX_U_TX_BATCH	4
/*
 * The userspace layer's sending room: a batch of records, or a record
 * pending and two controls behind it.
 */
#define TLSX_U_TX_MAX	(TLSX_U_TX_BATCH * TLSX_REC_MAX + 2 * TLSX_U_CTRL_MAX)

/*
 * One per thread that steps a connection over its fd (tlsx_conn.c) or
 * reads and writes one on the userspace layer (urec.c), allocated at its
 * first use, wiped and freed when the thread exits: the record being
 * opened in place (@in, a handshake's or the userspace layer's), the
 * flight being sent or a server's tickets (@out), the records the
 * userspace layer seals (@rec_out: apart from @out, which holds the
 * tickets while they are sealed).  Nothing stays in it between two calls.
 */
struct tlsx_scratch {
	u8 in[TLSX_REC_MAX];
	u8 out[TLSX_HS_OUT_MIN];
	u8 rec_out[TLSX_U_TX_MAX];
};

struct tlsx_urec;	/* urec.c */
struct tlsx_conn;

/*
 * A record layer's operations, one table per layer (handoff.c, which
 * alone picks one): every call after the handshake goes through
 * c->ops, so no caller asks which layer runs.  Results are libtlsx's
 * (TLSX_OK, TLSX_WANT_*, TLSX_E_*; the bytes moved for read, write and
 * sendfile) unless a member says otherwise.
 */
struct tlsx_rl_ops {
	enum tlsx_record_layer id;	/* tlsx_conn_info()'s record_layer */
	const char *ulp;		/* TCP_ULP's name; NULL: userspace */
	/*
	 * The layer takes a key after its first (a KeyUpdate, RFC 8446
	 * 4.6.3): 6.12's tls does not, which ends reading at the peer's
	 * KeyUpdate and refuses ours (TLSX_E_REKEY).
	 */
	bool rekey;
	/* Keys the current sending (@tx) or receiving secret: 0, -errno. */
	int (*set_key)(struct tlsx_conn *c, bool tx);
	ssize_t (*read)(struct tlsx_conn *c, void *buf, size_t len);
	ssize_t (*write)(struct tlsx_conn *c, const void *buf, size_t len);
	ssize_t (*sendfile)(struct tlsx_conn *c, int file_fd, off_t *off,
			    size_t count);
	/* tlsx_sendv() after the checks: @n > 0 pieces, not all empty. */
	ssize_t (*sendv)(struct tlsx_conn *c, const struct tlsx_piece *p,
			 unsigned int n);
	/*
	 * One control record, whole or not at all (TLSX_WANT_WRITE: nothing
	 * went); @flags: MSG_DONTWAIT for one that must not wait.
	 */
	int (*send_record)(struct tlsx_conn *c, u8 type, const u8 *data,
			   size_t len, int flags);
	/* Pushes what the layer holds sealed (@flags as above). */
	int (*flush)(struct tlsx_conn *c, int flags);
	/* The layer holds sealed bytes the socket did not take. */
	bool (*want_write)(const struct tlsx_conn *c);
	/* Input a read has without read(2) (tlsx_pending()). */
	size_t (*pending)(const struct tlsx_conn *c);
	/*
	 * Kernel layers: a receive of the caller's own failed with errno
	 * @err (tlsx_conn_rx_failed()); NULL: the userspace layer, whose
	 * socket carries records, not plaintext, so none is made.
	 */
	int (*rx_failed)(struct tlsx_conn *c, int err);
	/* tlsx_conn_tx_reserve() and tlsx_conn_tx_left() after the checks. */
	int (*tx_reserve)(struct tlsx_conn *c, u64 records);
	int (*tx_left)(struct tlsx_conn *c, u64 *records);
	/* The layer's own state, in bytes (tlsx_conn_info()). */
	size_t (*state_size)(const struct tlsx_conn *c);
	void (*free)(struct tlsx_conn *c);
};

struct tlsx_conn {
	int fd;
	bool server;
	bool established;		/* handed off */
	bool tx_closed;			/* close_notify sent */
	bool rx_closed;			/* close_notify received */
	bool ku_owed;			/* 4.6.3: answer before the next data */
	/*
	 * Bounds on what a peer can make one tlsx_read() and a stream of
	 * records without application data cost (rl_control.c).
	 */
	u8 rx_call_ctl;			/* this call: records without data */
	u8 rx_run;			/* in a row: empty, KeyUpdate, user_canceled */
	u8 ku_tokens;			/* KeyUpdates the peer may still send */
	u32 ku_gap;			/* data bytes toward the next token */
	const struct tlsx_rl_ops *ops;	/* the record layer, from the handoff */
	u16 suite, group, sig_scheme;
	bool resumed, hrr, peer_cert;
	u16 peer_rsl;			/* peer's record_size_limit, 0: none */
	u16 own_rsl;			/* ours, 0: none */
	/*
	 * Kernel modes: the kernel cuts our records to peer_rsl - 1
	 * (tlsx.ko's TLS_TX_MAX_PAYLOAD_LEN, handoff.c), so libtlsx
	 * need not, and the fd may be written directly.
	 */
	bool k_rsl;
	int err;			/* sticky: every call returns it */
	int rx_err;			/* reading only (TLSX_E_REKEY on tls) */
	int sys_errno;
	int alert;			/* sent or received, -1: none */
	const char *reason;		/* the engine's tlsx_hs_reason() */
	unsigned int hs_reads, hs_writes;
	u64 ku_sent, ku_recv;
	u64 rekey_limit;		/* records under one sending key */
	u64 k_tx_bound;			/* kernel: records sent, at most */

	/* Current secrets: client_/server_application_traffic_secret_N. */
	struct tlsx_hs_secrets sec;

	char *alpn;			/* heap, "" when none */
	char *server_name;

	/* A post-handshake message arriving in pieces (5.1). */
	u8 *pm;
	size_t pm_len;
	size_t pm_skip;			/* of a ticket too long to keep */
	u8 alert_buf[2];		/* kernel modes: an alert, partly read */
	size_t alert_len;

	/* The peer's certificates, taken from the engine (tlsx_peer_cert()). */
	struct tlsx_peer_chain *peer_chain;

	/* Client: the newest session, from a NewSessionTicket. */
	struct tlsx_session *session;
	/*
	 * Turns a NewSessionTicket into c->session; set by tlsx_conn.c (so
	 * the record layers do not depend on the ticket code), NULL: the
	 * message is checked for framing and dropped.
	 */
	int (*on_ticket)(struct tlsx_conn *c, const u8 *msg, size_t len);

	struct tlsx_hsd *hsd;		/* during the handshake */
	void (*hs_release)(struct tlsx_conn *c);	/* frees @hsd */
	struct tlsx_urec *u;		/* userspace layer only */
};

/* tlsx_io.c */
struct tlsx_conn *tlsx__conn_alloc(int fd, bool server);
int tlsx__store_ticket(struct tlsx_conn *c, const u8 *msg, size_t len);
u64 tlsx__suite_rekey_limit(u16 suite);

/* scratch.c */
/* The calling thread's scratch; NULL: out of memory. */
struct tlsx_scratch *tlsx__scratch(void);

/* rl_control.c: below the layers, which call it; it calls them by c->ops. */
void tlsx__rx_bounds_init(struct tlsx_conn *c);
int tlsx__fail(struct tlsx_conn *c, int err);
int tlsx__sys(struct tlsx_conn *c, int err);
int tlsx__abort(struct tlsx_conn *c, int alert);
int tlsx__hs_interleaved(struct tlsx_conn *c);
bool tlsx__rx_mid_message(const struct tlsx_conn *c);
int tlsx__rx_nodata(struct tlsx_conn *c, bool empty);
void tlsx__rx_data(struct tlsx_conn *c, size_t n);
int tlsx__control(struct tlsx_conn *c, u8 type, const u8 *data, size_t len,
		  bool record_end);
int tlsx__send_tickets(struct tlsx_conn *c, const u8 *msgs, size_t len);
int tlsx__tx_key_update(struct tlsx_conn *c, bool request);
int tlsx__rekey_if_due(struct tlsx_conn *c, u64 seq, u64 records);
void tlsx__pm_free(struct tlsx_conn *c);
size_t tlsx__pm_size(const struct tlsx_conn *c);

static inline u8 *tlsx__tx_secret(struct tlsx_conn *c)
{
	return c->server ? c->sec.server : c->sec.client;
}

static inline u8 *tlsx__rx_secret(struct tlsx_conn *c)
{
	return c->server ? c->sec.client : c->sec.server;
}

/*
 * handoff.c: c->sec set; @want from the configuration.  Sets c->ops, or
 * fails (TLSX_E_RECORD_LAYER, ...) with c->ops NULL.
 */
int tlsx__handoff(struct tlsx_conn *c, enum tlsx_record_layer want);
/* The kernel modes' set_key: TLS_TX or TLS_RX, 0 or a negative errno. */
int tlsx__ktls_set_key(struct tlsx_conn *c, bool tx);

/* ktls.c: the kernel modes' members of their tables (handoff.c). */
ssize_t tlsx__k_read(struct tlsx_conn *c, void *buf, size_t len);
int tlsx__k_rx_failed(struct tlsx_conn *c, int err);
ssize_t tlsx__k_write(struct tlsx_conn *c, const void *buf, size_t len);
ssize_t tlsx__k_sendv(struct tlsx_conn *c, const struct tlsx_piece *p,
		      unsigned int n);
ssize_t tlsx__k_sendfile(struct tlsx_conn *c, int file_fd, off_t *off,
			 size_t count);
int tlsx__k_send_record(struct tlsx_conn *c, u8 type, const u8 *data,
			size_t len, int flags);
int tlsx__k_flush(struct tlsx_conn *c, int flags);
bool tlsx__k_want_write(const struct tlsx_conn *c);
size_t tlsx__k_pending(const struct tlsx_conn *c);
int tlsx__k_tx_reserve(struct tlsx_conn *c, u64 records);
int tlsx__k_tx_reserve_fixed(struct tlsx_conn *c, u64 records);
int tlsx__k_tx_left(struct tlsx_conn *c, u64 *records);
size_t tlsx__k_size(const struct tlsx_conn *c);
void tlsx__k_free(struct tlsx_conn *c);

/* urec.c: the userspace layer's members of its table (handoff.c). */
int tlsx__u_init(struct tlsx_conn *c);
void tlsx__u_free(struct tlsx_conn *c);
size_t tlsx__u_size(const struct tlsx_conn *c);
size_t tlsx__u_pending(const struct tlsx_conn *c);
int tlsx__u_set_key(struct tlsx_conn *c, bool tx);
ssize_t tlsx__u_read(struct tlsx_conn *c, void *buf, size_t len);
ssize_t tlsx__u_write(struct tlsx_conn *c, const void *buf, size_t len);
ssize_t tlsx__u_sendv(struct tlsx_conn *c, const struct tlsx_piece *p,
		      unsigned int n);
ssize_t tlsx__u_sendfile(struct tlsx_conn *c, int file_fd, off_t *off,
			 size_t count);
int tlsx__u_send_record(struct tlsx_conn *c, u8 type, const u8 *data,
			size_t len, int flags);
int tlsx__u_flush(struct tlsx_conn *c, int flags);
bool tlsx__u_want_write(const struct tlsx_conn *c);
int tlsx__u_tx_reserve(struct tlsx_conn *c, u64 records);
int tlsx__u_tx_left(struct tlsx_conn *c, u64 *records);
u64 tlsx__u_tx_seq(const struct tlsx_conn *c);

/*
 * For tests: a connection on @fd already past a handshake someone else
 * ran (OpenSSL, in test_libtlsx.c), from its secrets, handed off to @rl
 * (AUTO: the usual order).  @sec is copied.
 */
int tlsx__conn_from_secrets(int fd, bool server,
			    const struct tlsx_hs_secrets *sec,
			    enum tlsx_record_layer rl, u64 rekey_limit,
			    u16 peer_rsl, struct tlsx_conn **out);

#endif /* TLSX_HS_TLSX_INT_H */
