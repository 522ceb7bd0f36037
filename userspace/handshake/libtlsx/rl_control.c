// SPDX-License-Identifier: GPL-2.0
/*
 * rl_control.c - what every record layer shares after the handshake,
 * below them all: the control records (RFC 8446 4.6, 5.1, 6), the
 * bounds on what a peer may make us do without application data, the
 * sending key's record limit (5.5), and the connection's sticky error.
 *
 * The layers (urec.c, ktls.c) deliver application data themselves and
 * pass every other content type here as it comes: whole records from the
 * userspace layer (@record_end true), pieces of records from the kernel,
 * which returns a control record in as many recvmsg() calls as the
 * caller's buffer needs.  Handshake bytes are reassembled into messages
 * (5.1: a message may span records), an alert is collected to its two
 * bytes.
 *
 * The layers call this file and it never calls them by name: what it
 * sends (an alert, our KeyUpdate, a server's tickets) and the keys it
 * changes go through the connection's table (c->ops, handoff.c), as
 * tlsx_io.c's calls do.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "handshake/engine/alert.h"
#include "handshake/engine/keysched.h"
#include "handshake/libtlsx/tlsx_int.h"

/*
 * Longest post-handshake message kept: a NewSessionTicket with a ticket
 * of TLSX_TICKET_MAX bytes and room for its extensions; a longer one (a
 * peer's bigger ticket) is skipped, not an error (tlsx could not use it).
 */
#define PM_MAX		(4 + 2048)

/*
 * What a peer may make us do without sending application data (RFC 8446
 * sets no limit; the run's is OpenSSL's, which real peers live with):
 *
 * RX_PER_CALL: records (kernel: pieces of records) without application
 * data one tlsx_read() works through before it returns TLSX_WANT_READ,
 * so that an event loop serves its other connections in between.
 *
 * RX_RUN_MAX: records in a row without application data (empty data
 * records, KeyUpdates, user_canceled alerts; OpenSSL's
 * MAX_EMPTY_RECORDS and MAX_KEY_UPDATE_MESSAGES are 32): past it the
 * peer is only costing us work, and is closed with unexpected_message
 * (6.2: a message not appropriate here) and TLSX_E_FLOOD.  Not tickets:
 * a server may send many, and only a server sends them (4.6.1).
 *
 * KU_BURST, KU_PER: KeyUpdates by volume.  Each costs two HKDF-Expands
 * and an AEAD key setup (7.2), and a reply when requested: a peer may
 * send KU_BURST of them, and earns one more per KU_PER bytes of
 * application data received (one full record, whose opening costs more
 * than the KeyUpdate), so their work stays a fraction of the data's.
 * A peer rekeying at 5.5's limits sends one per 2^24 records.
 */
#define RX_PER_CALL	16
#define RX_RUN_MAX	32
#define KU_BURST	32
#define KU_PER		16384

/* A new connection's KeyUpdate allowance (KU_BURST). */
void tlsx__rx_bounds_init(struct tlsx_conn *c)
{
	c->ku_tokens = KU_BURST;
}

int tlsx__fail(struct tlsx_conn *c, int err)
{
	if (!c->err)
		c->err = err;
	return c->err;
}

int tlsx__sys(struct tlsx_conn *c, int err)
{
	if (!c->err)
		c->sys_errno = err;
	return tlsx__fail(c, TLSX_E_SYSCALL);
}

/* The fatal alert @alert for error @err, best effort: it never waits. */
static int abort_with(struct tlsx_conn *c, int alert, int err)
{
	u8 rec[2] = { 2, 0 };	/* fatal (6) */

	if (c->err)
		return c->err;
	rec[1] = tlsx_alert_of(alert);
	c->alert = rec[1];
	/* First, so that a failure to send it does not replace it. */
	tlsx__fail(c, err);
	if (!c->tx_closed) {
		/*
		 * A peer that does not read must not hold us here: the
		 * alert goes if the socket has room now (6: the connection
		 * is closed either way).
		 */
		c->ops->send_record(c, TLSX_CT_ALERT, rec, sizeof(rec),
				    MSG_DONTWAIT);
		c->ops->flush(c, MSG_DONTWAIT);
		c->tx_closed = true;
	}
	return c->err;
}

/*
 * The peer sent what RFC 8446 forbids: send @alert (internal_error for a
 * local failure), best effort, and fail for good.
 */
int tlsx__abort(struct tlsx_conn *c, int alert)
{
	return abort_with(c, alert, TLSX_E_ALERT_SENT);
}

/* One more record in a row without application data: RX_RUN_MAX. */
static int rx_run(struct tlsx_conn *c)
{
	if (++c->rx_run > RX_RUN_MAX)
		return abort_with(c, TLSX_ALERT_UNEXPECTED_MESSAGE,
				  TLSX_E_FLOOD);
	return TLSX_OK;
}

/*
 * From the layers, after a record (the kernel: a piece of one) without
 * application data, @empty for an empty data record: TLSX_WANT_READ once
 * this tlsx_read() met RX_PER_CALL of them (on a non-blocking fd; a
 * blocking one waits in the kernel anyway), an error past RX_RUN_MAX.
 */
int tlsx__rx_nodata(struct tlsx_conn *c, bool empty)
{
	int err;

	if (empty) {
		err = rx_run(c);
		if (err)
			return err;
	}
	if (++c->rx_call_ctl < RX_PER_CALL)
		return TLSX_OK;
	c->rx_call_ctl = 0;
	if (fcntl(c->fd, F_GETFL) & O_NONBLOCK)
		return TLSX_WANT_READ;
	return TLSX_OK;
}

/* @n bytes of application data arrived: the run ends, KeyUpdates earned. */
void tlsx__rx_data(struct tlsx_conn *c, size_t n)
{
	c->rx_run = 0;
	if (c->ku_tokens >= KU_BURST)
		return;
	n += c->ku_gap;
	while (n >= KU_PER && c->ku_tokens < KU_BURST) {
		c->ku_tokens++;
		n -= KU_PER;
	}
	c->ku_gap = c->ku_tokens < KU_BURST ? (u32)n : 0;
}

/* Our KeyUpdate (4.6.3), then our next sending key (7.2). */
int tlsx__tx_key_update(struct tlsx_conn *c, bool request)
{
	u8 msg[5] = { TLSX_HS_KEY_UPDATE, 0, 0, 1, request };
	int err;

	if (!c->ops->rekey)
		return tlsx__fail(c, TLSX_E_REKEY);
	/* TLSX_WANT_WRITE: nothing went, the key stays. */
	err = c->ops->send_record(c, TLSX_CT_HANDSHAKE, msg, sizeof(msg), 0);
	if (err)
		return err;
	err = tlsx_next_traffic_secret(c->sec.hash, tlsx__tx_secret(c));
	if (!err)
		err = c->ops->set_key(c, true);
	if (err)
		return tlsx__sys(c, -err);
	c->ku_sent++;
	c->k_tx_bound = 0;
	return TLSX_OK;
}

/* Before @records more records: our own KeyUpdate if the limit is near. */
int tlsx__rekey_if_due(struct tlsx_conn *c, u64 seq, u64 records)
{
	/* One record stays for the KeyUpdate itself. */
	if (seq + records + 1 <= c->rekey_limit)
		return TLSX_OK;
	return tlsx__tx_key_update(c, false);
}

/* A KeyUpdate from the peer (4.6.3): its next key (7.2). */
static int rx_key_update(struct tlsx_conn *c, const u8 *msg, size_t len,
			 bool more)
{
	int err;

	if (len != 5)
		return tlsx__abort(c, TLSX_ALERT_DECODE_ERROR);
	/* 4.6.3: request_update other than 0 or 1. */
	if (msg[4] > 1)
		return tlsx__abort(c, TLSX_ALERT_ILLEGAL_PARAMETER);
	/* 5.1: a message before a key change ends its record. */
	if (more)
		return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
	if (!c->ops->rekey) {
		/*
		 * 6.12's tls cannot take a second TLS_RX: the records after
		 * this one would fail to open.  Reading ends here; writing
		 * (and close_notify) still works.
		 */
		c->rx_err = TLSX_E_REKEY;
		return TLSX_E_REKEY;
	}
	/* The bounds (RX_RUN_MAX, KU_BURST): before the key work. */
	err = rx_run(c);
	if (err)
		return err;
	if (!c->ku_tokens)
		return abort_with(c, TLSX_ALERT_UNEXPECTED_MESSAGE,
				  TLSX_E_FLOOD);
	c->ku_tokens--;
	err = tlsx_next_traffic_secret(c->sec.hash, tlsx__rx_secret(c));
	if (!err)
		err = c->ops->set_key(c, false);
	if (err)
		return tlsx__sys(c, -err);
	c->ku_recv++;
	/*
	 * 4.6.3: ours before our next application data; sent when
	 * tlsx_read() returns (one for a burst of requests), or owed.
	 */
	if (msg[4])
		c->ku_owed = true;
	return TLSX_OK;
}

static int handle_message(struct tlsx_conn *c, const u8 *msg, size_t len,
			  bool more)
{
	int err;

	switch (msg[0]) {
	case TLSX_HS_KEY_UPDATE:
		return rx_key_update(c, msg, len, more);
	case TLSX_HS_NEW_SESSION_TICKET:
		/* 4.6.1: only a server sends them. */
		if (c->server)
			break;
		if (!c->on_ticket)
			return TLSX_OK;
		err = c->on_ticket(c, msg, len);
		if (err > 0)
			return tlsx__abort(c, err);
		/* A ticket we cannot keep (no memory) is not fatal. */
		return TLSX_OK;
	}
	/* No post_handshake_auth offered: a CertificateRequest is too. */
	return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

static size_t pm_body_len(const struct tlsx_conn *c)
{
	return (size_t)c->pm[1] << 16 | (size_t)c->pm[2] << 8 | c->pm[3];
}

/*
 * 5.1: "Handshake messages MUST NOT be interleaved with other record
 * types.  That is, if a handshake message is split over two or more
 * records, there MUST NOT be any other records between them": a record
 * of application data (empty or not) or an alert while a message is
 * half-read is unexpected_message.  The read paths call this before
 * they hand out application data (urec.c, ktls.c).
 */
int tlsx__hs_interleaved(struct tlsx_conn *c)
{
	if (c->pm_len || c->pm_skip)
		return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
	return TLSX_OK;
}

/*
 * Part of a post-handshake message or of an alert is held (the kernel's
 * reads come in pieces): the next record must be its rest (5.1).
 */
bool tlsx__rx_mid_message(const struct tlsx_conn *c)
{
	return c->pm_len || c->pm_skip || c->alert_len;
}

/*
 * A post-handshake message's header: refused at once where its type or
 * length cannot be right, so nothing is gathered for it.  Each type's
 * bound: KeyUpdate one byte (4.6.3); a NewSessionTicket, to a client,
 * any length (one over PM_MAX is skipped); no other type comes after
 * the handshake (no post_handshake_auth offered; 4.6.1: a ticket only
 * from a server).
 */
static int pm_header(struct tlsx_conn *c)
{
	switch (c->pm[0]) {
	case TLSX_HS_KEY_UPDATE:
		if (pm_body_len(c) != 1)
			return tlsx__abort(c, TLSX_ALERT_DECODE_ERROR);
		return TLSX_OK;
	case TLSX_HS_NEW_SESSION_TICKET:
		if (!c->server)
			return TLSX_OK;
		break;
	}
	return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

static int handshake_bytes(struct tlsx_conn *c, const u8 *data, size_t len)
{
	int err;

	/*
	 * 5.1: no zero-length fragments of Handshake (5.4: padded or not).
	 * The kernel's reads (which cannot tell a record's end) give 0
	 * bytes only for an empty record: tlsx_read() takes no empty buffer.
	 */
	if (!len)
		return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
	if (!c->pm) {
		c->pm = malloc(PM_MAX);
		if (!c->pm)
			return tlsx__fail(c, TLSX_E_NOMEM);
	}
	while (len) {
		size_t take, need;

		if (c->pm_skip) {
			/* The rest of a ticket too long to keep. */
			take = c->pm_skip < len ? c->pm_skip : len;
			c->pm_skip -= take;
			data += take;
			len -= take;
			continue;
		}
		need = 4;
		if (c->pm_len >= 4)
			need += pm_body_len(c);
		take = need - c->pm_len < len ? need - c->pm_len : len;
		memcpy(c->pm + c->pm_len, data, take);
		c->pm_len += take;
		data += take;
		len -= take;
		if (c->pm_len < 4)
			continue;
		/* The header is whole with this take: judged once. */
		if (c->pm_len - take < 4) {
			err = pm_header(c);
			if (err)
				return err;
		}
		need = 4 + pm_body_len(c);
		if (need > PM_MAX) {
			if (c->pm[0] != TLSX_HS_NEW_SESSION_TICKET || c->server)
				return tlsx__abort(c,
					TLSX_ALERT_UNEXPECTED_MESSAGE);
			c->pm_skip = need - c->pm_len;
			c->pm_len = 0;
			continue;
		}
		if (c->pm_len < need)
			continue;
		err = handle_message(c, c->pm, c->pm_len, len != 0);
		memzero_explicit(c->pm, c->pm_len);
		c->pm_len = 0;
		if (err)
			return err;
	}
	/* Nothing half-read: the buffer goes (state kept stays small). */
	if (!c->pm_len) {
		free(c->pm);
		c->pm = NULL;
	}
	return TLSX_OK;
}

static int alert(struct tlsx_conn *c, const u8 a[2])
{
	if (a[1] == TLSX_ALERT_CLOSE_NOTIFY) {
		c->rx_closed = true;
		return TLSX_OK;
	}
	/*
	 * 6.1: user_canceled comes before a close_notify; not an error,
	 * but many in a row are a peer costing us work (RX_RUN_MAX).
	 */
	if (a[1] == TLSX_ALERT_USER_CANCELED)
		return rx_run(c);
	/* 6: every other alert is an error alert, whatever its level. */
	c->alert = a[1];
	c->tx_closed = true;
	return tlsx__fail(c, TLSX_E_ALERT_RECEIVED);
}

int tlsx__control(struct tlsx_conn *c, u8 type, const u8 *data, size_t len,
		  bool record_end)
{
	int err;

	switch (type) {
	case TLSX_CT_HANDSHAKE:
		return handshake_bytes(c, data, len);
	case TLSX_CT_ALERT:
		/*
		 * 5.4: an alert record with no content (padded or not; the
		 * kernel's reads give 0 bytes only for one) is
		 * unexpected_message; 5.1: so is one inside a handshake
		 * message.
		 */
		if (!len)
			return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
		err = tlsx__hs_interleaved(c);
		if (err)
			return err;
		if (record_end) {
			/* 5.1: one alert per record, never fragmented. */
			if (len != 2)
				return tlsx__abort(c, TLSX_ALERT_DECODE_ERROR);
			return alert(c, data);
		}
		while (len) {
			c->alert_buf[c->alert_len++] = *data++;
			len--;
			if (c->alert_len == 2) {
				int err = alert(c, c->alert_buf);

				c->alert_len = 0;
				if (err || c->rx_closed)
					return err;
			}
		}
		return TLSX_OK;
	}
	/* 5: change_cipher_spec after the handshake, or another type. */
	return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

int tlsx__send_tickets(struct tlsx_conn *c, const u8 *msgs, size_t len)
{
	bool sent = false;

	while (len) {
		size_t n = len > TLSX_REC_MAX_PLAIN ? TLSX_REC_MAX_PLAIN : len;
		int err;

		if (c->peer_rsl && n > (size_t)c->peer_rsl - 1)
			n = c->peer_rsl - 1;
		err = c->ops->send_record(c, TLSX_CT_HANDSHAKE, msgs, n, 0);
		/*
		 * A full socket: the tickets are dropped, not waited for
		 * (4.6.1 makes them optional) unless one went in part.
		 */
		if (err == TLSX_WANT_WRITE && !sent)
			return TLSX_OK;
		if (err == TLSX_WANT_WRITE)
			return tlsx__sys(c, EAGAIN);
		if (err)
			return err;
		msgs += n;
		len -= n;
		sent = true;
	}
	return TLSX_OK;
}

/* The post-handshake message buffer, wiped (tlsx_conn_free()). */
void tlsx__pm_free(struct tlsx_conn *c)
{
	if (!c->pm)
		return;
	memzero_explicit(c->pm, PM_MAX);
	free(c->pm);
	c->pm = NULL;
}

/* Its bytes while allocated (tlsx_conn_info()'s state_bytes). */
size_t tlsx__pm_size(const struct tlsx_conn *c)
{
	return c->pm ? PM_MAX : 0;
}
