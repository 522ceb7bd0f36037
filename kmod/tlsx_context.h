/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx_context.h - the per-socket context of the tlsx upper-layer protocol
 * (struct tlsx_context) and the entry points between its files.  Named
 * for the context, not "tlsx.h": that is libtlsx's public header
 * (userspace/handshake/tlsx.h).
 *
 *   main.c     ULP registration, protocol ops, setsockopt/getsockopt,
 *              close, the context's lifetime, drop-in mode
 *   tx.c       the transmit path: records from sendmsg and splice
 *   rx.c       the receive path: recvmsg, splice_read, poll
 *   rx_read_sock.c  read_sock: records for in-kernel readers (nvme-tcp)
 *   strp.c     the record parser over the TCP receive queue
 *   sockopt.c  setsockopt/getsockopt(SOL_TLS): keys in, crypto info out
 *   record.c   nonce, associated data and sequence numbers of records
 *   proc.c     /proc/net/tlsx_stat, per network namespace
 *
 * One context per socket, reached from the socket in one step through
 * inet_csk(sk)->icsk_ulp_data, as the kernel's kTLS does.  The socket's
 * original struct proto and callbacks are saved here and restored, never
 * patched in place.
 *
 * Where tlsx differs from kTLS: it does not use the crypto API.  Records
 * are sealed and opened synchronously by the engines of userspace/crypto/
 * (aead.h) directly on the record's pages; there are no scatterlists, no
 * async crypto and no hardware offload.
 */
#ifndef TLSX_KMOD_TLSX_CONTEXT_H
#define TLSX_KMOD_TLSX_CONTEXT_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <net/inet_connection_sock.h>
#include <net/sock.h>
#include <uapi/linux/tls.h>

#include "aead/aead.h"
/* The kernel API differences (6.1, 6.12), the socket code's part too. */
#define TLSX_COMPAT_NET
#include "compat.h"

#define TLSX_HEADER_LEN		5	/* type, version, length */
/* application_data: the default type, and the outer type in TLS 1.3 */
#define TLSX_TYPE_DATA		23
#define TLSX_MAX_PAYLOAD	(1 << 14)	/* 2^14 bytes of plaintext */
/* RFC 8449 4: the smallest record_size_limit a peer may send. */
#define TLSX_MIN_RECORD_LIMIT	64
#define TLSX_TAG_LEN		16
#define TLSX_NONCE_LEN		12
#define TLSX_MAX_IV_LEN		8	/* TLS 1.2 AES-GCM explicit nonce */
#define TLSX_REC_SEQ_LEN	8
#define TLSX_AAD_MAX		13	/* TLS 1.2 associated data */
/* Largest record on the wire: header, explicit IV, text, type, tag. */
#define TLSX_MAX_RECORD \
	(TLSX_HEADER_LEN + TLSX_MAX_IV_LEN + TLSX_MAX_PAYLOAD + 1 + \
	 TLSX_TAG_LEN + 256)

/*
 * The keys and parameters of one direction, as set by TLS_TX or TLS_RX.
 * Built by sockopt.c from the user's struct tls12_crypto_info_*.
 */
struct tlsx_crypto {
	struct tlsx_aead_key key;
	u16 version;		/* TLS_1_2_VERSION or TLS_1_3_VERSION */
	u16 cipher_type;	/* TLS_CIPHER_* */
	/*
	 * The 12-byte nonce base.  TLS 1.2 AES-GCM/CCM: salt (4) || explicit
	 * nonce (8), and the explicit part goes on the wire before the
	 * ciphertext and counts records (tlsx_crypto_advance()).  TLS 1.3
	 * and ChaCha20-Poly1305: salt || iv, XORed with the sequence number.
	 */
	u8 iv[TLSX_NONCE_LEN];
	u64 rec_seq;		/* next record's sequence number */
	u64 rec_seq_set;	/* rec_seq as TLS_TX/TLS_RX gave it */
	u8 explicit_iv_len;	/* 8 for TLS 1.2 AES-GCM/CCM, else 0 */
	/*
	 * The user's struct as set; getsockopt() reports it with the
	 * current explicit nonce and rec_seq taken from iv and rec_seq.
	 */
	union {
		struct tls_crypto_info info;
		struct tls12_crypto_info_aes_gcm_128 gcm128;
		struct tls12_crypto_info_aes_gcm_256 gcm256;
		struct tls12_crypto_info_chacha20_poly1305 chacha;
	} user;
	u16 user_len;
};

/* Record overhead of @c: header + explicit IV + tag (+1 type in 1.3). */
static inline unsigned int tlsx_overhead(const struct tlsx_crypto *c)
{
	return TLSX_HEADER_LEN + c->explicit_iv_len + TLSX_TAG_LEN +
	       (c->version == TLS_1_3_VERSION ? 1 : 0);
}

/*
 * tlsx_nonce() - the 12-byte nonce of the record with sequence number
 * @seq.  TLS 1.2 AES-GCM: salt || the explicit nonce the sender put in the
 * record (@explicit, 8 bytes; NULL on TX: iv[4..11], which is also what
 * TX writes on the wire).  Otherwise: iv XOR (0^4 || seq big-endian).
 */
void tlsx_nonce(const struct tlsx_crypto *c, u64 seq, const u8 *explicit,
		u8 *nonce);

/*
 * tlsx_aad() - the associated data of record @seq of type @type with
 * @len bytes of plaintext (in TLS 1.3 counting the inner content type
 * byte and any padding): TLS 1.2: seq (8) || type || 3,3 || len (13
 * bytes); TLS 1.3: the record header, 23 || 3,3 || len + tag (5 bytes,
 * @type ignored: the outer type is always application_data).  @aad holds
 * at least TLSX_AAD_MAX bytes.  Returns the length written.
 */
unsigned int tlsx_aad(const struct tlsx_crypto *c, u64 seq, u8 type,
		      unsigned int len, u8 *aad);

/*
 * tlsx_crypto_advance() - step @c to the next record after one was sealed
 * or opened: rec_seq + 1 and, for TLS 1.2 AES-GCM, the explicit nonce
 * iv[4..11] + 1 (big-endian), as kTLS does, so that getsockopt() reports
 * the current values.  Return: 0, or -EBADMSG when the sequence number
 * wrapped (kTLS then aborts the socket with EBADMSG).
 */
int tlsx_crypto_advance(struct tlsx_crypto *c);

/*
 * tlsx_seal_limit() - records one TLS 1.3 key may seal (RFC 8446 5.5):
 * AES-GCM 2^24.5 full-size records, AES-CCM 2^23.5 (half), none below
 * the sequence wrap for ChaCha20-Poly1305 and for TLS 1.2, which cannot
 * change keys.  A safety net under libtlsx, which sends its KeyUpdate
 * before 2^24 (2^23): TX refuses to open a data record once it sealed
 * limit - 1 under the key (EKEYEXPIRED), leaving the last for the
 * KeyUpdate.  Counted from the rec_seq TLS_TX gave, not from 0: kTLS
 * takes any starting rec_seq, and what was sealed before the handoff
 * is the caller's to count.  A test build
 * (TLSX_TEST_HOOKS) lowers it by debugfs tlsx/seal_limit.
 */
u64 tlsx_seal_limit(const struct tlsx_crypto *c);
#ifdef TLSX_TEST_HOOKS
extern u64 tlsx_test_seal_limit;	/* 0: off */
#endif

struct tlsx_tx;			/* tx.c */
struct tlsx_rx;			/* rx.c */

struct tlsx_context {
	struct sock *sk;
	/* What the socket had before tlsx: restored on close. */
	struct proto *sk_proto;
	const struct proto_ops *sk_proto_ops;
	void (*sk_write_space)(struct sock *sk);
	void (*sk_data_ready)(struct sock *sk);

	/*
	 * The keys of each direction, NULL until TLS_TX / TLS_RX succeeds.
	 * Allocated, filled and freed (wiped) by sockopt.c/main.c; the
	 * pointer never changes while the direction is on, so tx.c and rx.c
	 * may keep it.  Read and advanced under the socket lock.
	 */
	struct tlsx_crypto *crypto_tx;
	struct tlsx_crypto *crypto_rx;

	struct tlsx_tx *tx;	/* tx.c's state, NULL until TLS_TX */
	struct tlsx_rx *rx;	/* rx.c's state, NULL until TLS_RX */

	/* Of the first key set (both directions must agree), for diag. */
	u16 version;
	u16 cipher_type;

	/* TLS_TX_ZEROCOPY_RO and TLS_RX_EXPECT_NO_PAD (read by tx.c/rx.c). */
	bool tx_zerocopy_ro;
	bool rx_no_pad;
	/*
	 * TLS_TX_MAX_PAYLOAD_LEN (kTLS 6.19): the most plaintext a data or
	 * control record carries, TLS 1.3's content type byte not counted;
	 * TLSX_MAX_PAYLOAD unless set.  Changed under the socket lock only
	 * while no record is open, so tx.c reads it per record.
	 */
	u16 tx_max_payload;

	struct rcu_head rcu;
};

static inline struct tlsx_context *tlsx_get_ctx(const struct sock *sk)
{
	/*
	 * Set once in the ULP init before any tlsx op can run, cleared on
	 * close after the ops are restored; the context itself is freed
	 * after an RCU grace period.
	 */
	return (__force void *)rcu_access_pointer(inet_csk(sk)->icsk_ulp_data);
}

/*
 * proto.c: the tables of ops a tlsx socket switches between, per address
 * family, indexed [TX on][RX on].  Not const: copies of TCP's, filled by
 * main.c (which owns the entry points they hold) when @base, the TCP
 * proto they were copied from, is not the socket's.
 */
enum { TLSX_V4, TLSX_V6, TLSX_NUM_FAMILIES };

struct tlsx_protos {
	struct proto prot[2][2];
	struct proto_ops ops[2][2];
	const struct proto *base;
};

struct tlsx_protos *tlsx_protos_of(const struct sock *sk);
/* Switch the socket's ops to match which directions are set. */
void tlsx_update_sk_prot(struct sock *sk, struct tlsx_context *ctx);

/*
 * tx.c.  All called with the socket locked unless noted.
 *
 * tlsx_tx_setkey(): install the TX keys.
 *  - First TLS_TX (@rekey false): @c == ctx->crypto_tx, already filled;
 *    allocate ctx->tx.  On error leave ctx->tx NULL (main.c then frees
 *    @c and clears ctx->crypto_tx).  After success main.c installs
 *    tlsx_write_space as sk_write_space (the old one is kept in
 *    ctx->sk_write_space) and switches the ops.
 *  - TLS 1.3 rekey (@rekey true): @c is a temporary holding the new keys
 *    (same version and cipher, already checked).  Push what is pending
 *    under the old keys, then copy *@c over *ctx->crypto_tx.  On error
 *    the old keys stay.  main.c wipes and frees @c afterwards.
 */
int tlsx_tx_setkey(struct sock *sk, struct tlsx_context *ctx,
		   const struct tlsx_crypto *c, bool rekey);
int tlsx_sendmsg(struct sock *sk, struct msghdr *msg, size_t size);
/* Is a data record open (MSG_MORE)?  Socket locked. */
bool tlsx_tx_has_open_record(const struct tlsx_context *ctx);
/* tx_pages.c: record pages, recycled per CPU (any context that may sleep). */
bool tlsx_tx_frag_refill(struct sock *sk, struct page_frag *pf);
int tlsx_tx_pages_init(void);
void tlsx_tx_pages_exit(void);	/* module exit, no socket left */
unsigned long tlsx_tx_pages_held(void);	/* pages the rings hold now */
/* The selftests' debugfs files, in a test build (TLSX_TEST_HOOKS). */
struct dentry;
void tlsx_tx_pages_debugfs(struct dentry *dir);	/* debugfs_tx_pages.c */
void tlsx_read_sock_debugfs(struct dentry *dir);	/* debugfs_read_sock.c */
void tlsx_splice_eof(struct socket *sock);
/*
 * close, socket locked: hand what is pending to TCP without waiting
 * (past the send buffer limit) and release what needs the socket lock
 * (queued pages, memory charge).  Never sleeps on the peer.
 */
void tlsx_tx_flush_on_close(struct sock *sk);
void tlsx_write_space(struct sock *sk);	/* sk_write_space callback */
/*
 * shutdown(SHUT_WR or SHUT_RDWR), socket locked, before TCP queues its
 * FIN (sk_shutdown is not yet set): close the open record and push what
 * is pending, waiting for send buffer space up to *@timeo (0 for a
 * non-blocking socket) for records of blocking sends.  Return: true when
 * nothing is left, so the FIN may go now; false when records are still
 * pending: TX then takes no more data and sends the FIN itself once they
 * are out.
 */
bool tlsx_tx_flush_on_shutdown(struct sock *sk, long *timeo);
/*
 * close, socket NOT locked (cancel_work_sync() is allowed), after the
 * socket's callbacks and ops are restored: free ctx->tx.  tlsx_get_ctx()
 * still returns @ctx until this and tlsx_rx_free() returned.
 */
void tlsx_tx_free(struct sock *sk, struct tlsx_context *ctx);

/*
 * rx.c and strp.c.
 * tlsx_rx_setkey(): as tlsx_tx_setkey() with ctx->crypto_rx.  A rekey may
 * come with or without a KeyUpdate received before (kTLS's tls_basic
 * rekey_rx sets RX twice in a row): it clears the pending KeyUpdate
 * state and resumes the parser on what is queued.
 * After the first successful set, main.c installs tlsx_data_ready as
 * sk_data_ready (the old one kept in ctx->sk_data_ready), switches the
 * ops, then calls tlsx_data_ready(sk) once itself, in process context
 * with the socket locked, for what TCP queued before TLS_RX.
 */
int tlsx_rx_setkey(struct sock *sk, struct tlsx_context *ctx,
		   const struct tlsx_crypto *c, bool rekey);
int tlsx_recvmsg(struct sock *sk, struct msghdr *msg, size_t len, int flags,
		 int *addr_len);
ssize_t tlsx_splice_read(struct socket *sock, loff_t *ppos,
			 struct pipe_inode_info *pipe, size_t len,
			 unsigned int flags);
__poll_t tlsx_poll(struct file *file, struct socket *sock,
		   struct poll_table_struct *wait);
/*
 * rx_read_sock.c: proto_ops.read_sock, socket locked by the caller, in
 * process context (-EOPNOTSUPP in softirq or with BHs or IRQs off).
 */
int tlsx_read_sock(struct sock *sk, read_descriptor_t *desc,
		   sk_read_actor_t read_actor);
bool tlsx_sock_is_readable(struct sock *sk);
void tlsx_data_ready(struct sock *sk);	/* sk_data_ready callback */
/*
 * close, socket locked, before the callbacks are restored: stop the
 * parser (no new work after this) and drop what needs the lock.
 */
void tlsx_rx_stop(struct sock *sk, struct tlsx_context *ctx);
/* close, socket NOT locked, as tlsx_tx_free(): free ctx->rx. */
void tlsx_rx_free(struct sock *sk, struct tlsx_context *ctx);

/* proc.c: per-netns counters, kTLS's /proc/net/tls_stat names. */
enum tlsx_stat {
	TLSX_STAT_CURR_TX_SW,		/* TlsCurrTxSw */
	TLSX_STAT_CURR_RX_SW,		/* TlsCurrRxSw */
	TLSX_STAT_TX_SW,		/* TlsTxSw */
	TLSX_STAT_RX_SW,		/* TlsRxSw */
	TLSX_STAT_DECRYPT_ERROR,	/* TlsDecryptError */
	TLSX_STAT_RX_NO_PAD_VIOLATION,	/* TlsRxNoPadViolation */
	TLSX_STAT_TX_REKEY_OK,		/* TlsTxRekeyOk */
	TLSX_STAT_TX_REKEY_ERROR,	/* TlsTxRekeyError */
	TLSX_STAT_RX_REKEY_OK,		/* TlsRxRekeyOk */
	TLSX_STAT_RX_REKEY_ERROR,	/* TlsRxRekeyError */
	TLSX_STAT_RX_REKEY_RECEIVED,	/* TlsRxRekeyReceived */
	TLSX_STAT_RX_BAD_RECORD,	/* malformed header or length */
	TLSX_STAT_COUNT
};

/* Any context (process, softirq). */
void tlsx_stat_inc(const struct sock *sk, enum tlsx_stat s);
void tlsx_stat_dec(const struct sock *sk, enum tlsx_stat s);
int tlsx_proc_init(void);
void tlsx_proc_exit(void);

/* sockopt.c */
int tlsx_setsockopt(struct sock *sk, int level, int optname,
		    sockptr_t optval, unsigned int optlen);
int tlsx_getsockopt(struct sock *sk, int level, int optname,
		    char __user *optval, int __user *optlen);
void tlsx_crypto_free(struct tlsx_crypto *c);	/* wipes; NULL is fine */
int tlsx_sockopt_init(void);
void tlsx_sockopt_exit(void);

#endif /* TLSX_KMOD_TLSX_CONTEXT_H */
