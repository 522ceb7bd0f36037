// SPDX-License-Identifier: GPL-2.0
/*
 * conn_hs.c - a connection's handshake on the worker's ring: an
 * IORING_OP_RECV of a record's 5-byte header, then of its body
 * (tlsx_conn_read_hint(): record-exact, so a request in the segment of
 * the client's Finished stays in the socket for the record layer),
 * tlsx_conn_step_inplace(), the flight from the worker's one output
 * buffer, then tlsx_conn_handoff() and the first wait for a request.
 *
 * A handshake flight goes out by one send(2) from the worker's buffer
 * (a fresh socket has room for it); only what does not fit is copied
 * into the connection and sent by IORING_OP_SEND, so the worker's
 * buffer is free for the next connection's step.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "conn_priv.h"

#define TLS_REC_HDR	5

static void hs_failed(struct loop *lp, struct conn *c)
{
	stats_add(lp->st, STAT_HS_FAILED, 1);
	stats_alert(lp->st, c->tls ? tlsx_conn_alert(c->tls) : -1);
	if (log_debug_enabled()) {
		int err = c->tls ? tlsx_conn_errno(c->tls) : 0;
		int alert = c->tls ? tlsx_conn_alert(c->tls) : -1;
		const char *why = c->tls ? tlsx_conn_reason(c->tls) : NULL;
		const char *name = alert >= 0 ? tlsx_alert_string(alert) : NULL;

		log_msg(LOG_DEBUG, "conn %d: handshake failed (alert %d%s%s, %s)",
			c->fd, alert, name ? " " : "", name ? name : "",
			why ? why : err ? strerror(err) : "-");
	}
	conn_close(lp, c, false);
}

/* The next read: a record's header, then exactly its body. */
void conn_hs_read(struct loop *lp, struct conn *c)
{
	struct io_uring_sqe *sqe;
	uint8_t *dst;
	size_t want;

	if (c->hs_hdr_len < TLS_REC_HDR) {
		want = tlsx_conn_read_hint(c->tls, c->hs_hdr, c->hs_hdr_len);
		dst = c->hs_hdr + c->hs_hdr_len;
	} else {
		want = tlsx_conn_read_hint(c->tls, c->hs_rec, c->hs_rec_len);
		dst = c->hs_rec + c->hs_rec_len;
	}
	sqe = conn_sqe(lp);
	io_uring_prep_recv(sqe, c->fd, dst, want, 0);
	conn_set_op(c, sqe, OP_RECV);
}

static void peer_name(const struct conn *c, char *buf, size_t len)
{
	const void *addr = &c->peer.v4.sin_addr;

	if (c->peer.sa.sa_family == AF_INET6)
		addr = &c->peer.v6.sin6_addr;
	if (!inet_ntop(c->peer.sa.sa_family, addr, buf, len))
		snprintf(buf, len, "-");
}

static void hs_handoff(struct loop *lp, struct conn *c)
{
	static const enum stat_id rl_stat[] = {
		[TLSX_RL_TLSX] = STAT_RL_TLSX,
		[TLSX_RL_TLS] = STAT_RL_TLS,
		[TLSX_RL_USER] = STAT_RL_USER,
	};
	struct tlsx_conn_info info;
	enum tlsx_record_layer rl;
	int ret = tlsx_conn_handoff(c->tls);

	if (ret != TLSX_DONE || tlsx_conn_info(c->tls, &info)) {
		hs_failed(lp, c);
		return;
	}
	c->established = true;
	rl = info.record_layer;
	/*
	 * The layer's table, the one choice (conn_layer.c).  The kernel
	 * seals what the socket is given; the peer's record_size_limit
	 * (RFC 8449 4) is cut to by tlsx.ko (TLS_TX_MAX_PAYLOAD_LEN) but
	 * not by 6.1's or 6.12's tls: then only libtlsx cuts, and bodies
	 * go through tlsx_write()/tlsx_sendfile().
	 */
	c->layer = conn_layer_of(rl, !info.fd_send_fits);
	if (rl != TLSX_RL_USER && !lp->br && !lp->br_failed &&
	    conn_bufs_init(lp)) {
		lp->br_failed = true;
		log_msg(LOG_INFO, "worker %u: no provided buffers: POLLIN",
			lp->w->id);
	}
	stats_add(lp->st, STAT_HS_DONE, 1);
	if (info.resumed)
		stats_add(lp->st, STAT_HS_RESUMED, 1);
	if (rl <= TLSX_RL_USER && rl != TLSX_RL_AUTO)
		stats_add(lp->st, rl_stat[rl], 1);
	if (log_debug_enabled()) {
		char peer[INET6_ADDRSTRLEN];
		/* A peer's bytes, escaped (the engine checks them too). */
		char alpn[4 * 255 + 1], sni[4 * 255 + 1];

		peer_name(c, peer, sizeof(peer));
		log_escape(alpn, sizeof(alpn), info.alpn, strlen(info.alpn));
		log_escape(sni, sizeof(sni), info.server_name,
			   strlen(info.server_name));
		log_msg(LOG_DEBUG,
			"conn %s: %s %s%s alpn \"%s\" sni \"%s\", record layer %s, state %zu + %zu bytes",
			peer, info.suite_name, info.group_name,
			info.resumed ? " resumed" : "", alpn, sni,
			tlsx_record_layer_name(rl), info.state_bytes,
			sizeof(*c));
	}
	/* RFC 9113 3.2: "h2" chosen by ALPN is HTTP/2 from the first byte. */
	if (!strcmp(info.alpn, "h2") && !conn_h2_start(lp, c)) {
		conn_close(lp, c, false);
		return;
	}
	conn_to_idle(lp, c, true);
}

/* After a step's output went out: hand off, or read the next record. */
static void hs_next(struct loop *lp, struct conn *c)
{
	if (c->hs_done)
		hs_handoff(lp, c);
	else
		conn_hs_read(lp, c);
}

/*
 * Sends a step's output from the worker's buffer.  A socket has room
 * for a flight almost always, so it goes by one send(2) now; what does
 * not fit is copied into the connection (the worker's buffer is the next
 * step's) and goes by IORING_OP_SEND.  @fatal: the output is an alert,
 * best effort, then close.
 */
static void hs_send(struct loop *lp, struct conn *c, size_t len, bool fatal)
{
	ssize_t n = 0;

	if (len)
		n = send(c->fd, lp->hs_out, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (fatal) {
		hs_failed(lp, c);
		return;
	}
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		hs_failed(lp, c);
		return;
	}
	if (n < 0)
		n = 0;
	if ((size_t)n == len) {
		hs_next(lp, c);
		return;
	}
	c->pend_len = len - n;
	c->pend_off = 0;
	c->pend = malloc(c->pend_len);
	if (!c->pend) {
		hs_failed(lp, c);
		return;
	}
	memcpy(c->pend, lp->hs_out + n, c->pend_len);
	conn_hs_pend_send(lp, c);
}

void conn_hs_pend_send(struct loop *lp, struct conn *c)
{
	struct io_uring_sqe *sqe = conn_sqe(lp);

	io_uring_prep_send(sqe, c->fd, c->pend + c->pend_off,
			   c->pend_len - c->pend_off, MSG_NOSIGNAL);
	conn_set_op(c, sqe, OP_SEND);
}

void conn_hs_pend_done(struct loop *lp, struct conn *c, int res)
{
	if (res == -EAGAIN) {
		conn_poll(lp, c, true);
		return;
	}
	if (res <= 0) {
		hs_failed(lp, c);
		return;
	}
	c->pend_off += res;
	if (c->pend_off < c->pend_len) {
		conn_hs_pend_send(lp, c);
		return;
	}
	free(c->pend);
	c->pend = NULL;
	c->pend_len = 0;
	hs_next(lp, c);
}

/* A whole record (or a header the engine refuses alone): one step. */
static void hs_step(struct loop *lp, struct conn *c, uint8_t *in, size_t len)
{
	size_t used = 0, out_len = 0;
	int ret;

	ret = tlsx_conn_step_inplace(c->tls, in, len, &used, lp->hs_out,
				     TLSX_STEP_OUT_MIN, &out_len);
	/* The record now holds the peer's handshake in plaintext. */
	explicit_bzero(in, len);
	free(c->hs_rec);
	c->hs_rec = NULL;
	c->hs_rec_len = 0;
	c->hs_hdr_len = 0;
	if ((ret == TLSX_WANT_READ && used != len) ||
	    (ret != TLSX_WANT_READ && ret != TLSX_DONE)) {
		hs_send(lp, c, out_len, true);
		return;
	}
	c->hs_done = ret == TLSX_DONE;
	hs_send(lp, c, out_len, false);
}

void conn_hs_recv_done(struct loop *lp, struct conn *c, int res)
{
	size_t body;

	if (res == -EAGAIN) {
		conn_poll(lp, c, false);
		return;
	}
	if (res <= 0) {
		if (res < 0 && conn_is_reset(-res))
			stats_add(lp->st, STAT_CLIENT_RESET, 1);
		hs_failed(lp, c);
		return;
	}
	if (c->hs_hdr_len < TLS_REC_HDR) {
		c->hs_hdr_len += res;
		if (c->hs_hdr_len < TLS_REC_HDR) {
			conn_hs_read(lp, c);
			return;
		}
		body = tlsx_conn_read_hint(c->tls, c->hs_hdr, TLS_REC_HDR);
		if (!body) {
			/* Empty, or longer than a record may be (5.1). */
			hs_step(lp, c, c->hs_hdr, TLS_REC_HDR);
			return;
		}
		c->hs_rec = malloc(TLS_REC_HDR + body);
		if (!c->hs_rec) {
			hs_failed(lp, c);
			return;
		}
		memcpy(c->hs_rec, c->hs_hdr, TLS_REC_HDR);
		c->hs_rec_len = TLS_REC_HDR;
		conn_hs_read(lp, c);
		return;
	}
	c->hs_rec_len += res;
	if (tlsx_conn_read_hint(c->tls, c->hs_rec, c->hs_rec_len)) {
		conn_hs_read(lp, c);
		return;
	}
	hs_step(lp, c, c->hs_rec, c->hs_rec_len);
}

/*
 * @armed: the handshake's timer already runs (since the accept, a PROXY
 * header read first: one bound for both).
 */
void conn_hs_start(struct loop *lp, struct conn *c, bool armed)
{
	if (!c->tls) {
		hs_failed(lp, c);
		return;
	}
	if (!armed)
		timer_arm(&lp->timers, &c->timer, TIMER_HANDSHAKE, lp->now_ms);
	conn_hs_read(lp, c);
}
