// SPDX-License-Identifier: GPL-2.0
/*
 * ktls.c - I/O when the kernel seals and opens (tlsx.ko or kTLS): data
 * goes through recvmsg/send/sendfile unchanged, control records through
 * the record-type cmsgs (TLS_GET_RECORD_TYPE on receive,
 * TLS_SET_RECORD_TYPE on send).
 *
 * Receiving: recvmsg() into the caller's buffer with room for the cmsg.
 * A data record's bytes are the caller's; any other record (the kernel
 * returns it alone, in as many calls as the buffer needs) goes to
 * tlsx__control() and the read goes on, at most RX_PER_CALL times per
 * call (rl_control.c); empty data records are the kernel's, which reads
 * past them.  After a KeyUpdate tlsx.ko holds
 * the next records (EKEYEXPIRED) until the new TLS_RX, which
 * tlsx__control() sets (through the table's set_key) before the next
 * recvmsg.
 *
 * The two kernel modes share these functions; what differs between them
 * is in their tables (handoff.c): tlsx takes a new key, 6.12's tls does
 * not (rekey), so a reservation on tls is refused at the limit
 * (tlsx__k_tx_reserve_fixed()) where tlsx sends a KeyUpdate.
 *
 * Sending: the kernel counts the records, not libtlsx.  k_tx_bound is
 * an upper bound of them (each send(2) closes a record, and a record holds
 * 2^14 bytes, sendfile's pages perhaps fewer): only when it nears the
 * rekey limit is the kernel's own count read (getsockopt(TLS_TX) gives
 * rec_seq) and a KeyUpdate sent if due.  With the peer's
 * record_size_limit (RFC 8449) below 2^14 the kernel cuts the records
 * when it took TLS_TX_MAX_PAYLOAD_LEN (tlsx.ko, c->k_rsl: handoff.c);
 * otherwise (6.1's and 6.12's tls have no such option) each send(2)
 * carries one record's worth and sendfile goes through a buffer.
 */
#include <linux/tls.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "handshake/engine/alert.h"
#include "handshake/libtlsx/tlsx_int.h"

/* The most plaintext one of our records carries, whoever cuts it. */
static size_t max_plain(const struct tlsx_conn *c)
{
	if (c->peer_rsl && c->peer_rsl - 1 < TLSX_REC_MAX_PLAIN)
		return c->peer_rsl - 1;
	return TLSX_REC_MAX_PLAIN;
}

/* Must each send(2) be one record's worth?  Not when the kernel cuts. */
static bool lib_cuts(const struct tlsx_conn *c)
{
	return !c->k_rsl && max_plain(c) < TLSX_REC_MAX_PLAIN;
}

/* The kernel's sending sequence number: records under the current key. */
static int kernel_tx_seq(struct tlsx_conn *c, u64 *seq)
{
	const struct tlsx_suite *s = tlsx_suite_find(c->sec.suite);
	union tlsx_suite_kernel_info ci;
	socklen_t len;

	/* A suite without a row has no layout to read: never guess one. */
	if (!s)
		return -EINVAL;
	/* The whole structure: it holds the key too, wiped below. */
	len = s->kernel.size;
	if (getsockopt(c->fd, SOL_TLS, TLS_TX, &ci, &len)) {
		memzero_explicit(&ci, sizeof(ci));
		return -errno;
	}
	*seq = get_unaligned_be64((const u8 *)&ci + s->kernel.rec_seq_off);
	memzero_explicit(&ci, sizeof(ci));
	return 0;
}

/*
 * Before a send that can make @records records: KeyUpdate first if the
 * kernel's count would pass the limit (RFC 8446 5.5).
 */
static int k_tx_room(struct tlsx_conn *c, size_t records)
{
	u64 seq = 0;
	int err;

	if (c->k_tx_bound + records + 1 <= c->rekey_limit)
		return TLSX_OK;
	err = kernel_tx_seq(c, &seq);
	if (err)
		return tlsx__sys(c, -err);
	c->k_tx_bound = seq;
	return tlsx__rekey_if_due(c, seq, records);
}

/*
 * One control record: TLSX_WANT_WRITE when the socket has no room.  Both
 * kernels take a record that fits one (2^14 bytes, and a control record
 * always does) whole or not at all: tlsx.ko's and tls's sendmsg wait for
 * send buffer room before they copy a byte into a new record, and with
 * MSG_DONTWAIT or a non-blocking socket return EAGAIN then, having taken
 * nothing; once copied, the record is sealed and queued, and goes when
 * TCP has room.  So a control record is never cut (5.1: a KeyUpdate ends
 * its record) and nothing here waits: a blocking socket blocks in the
 * kernel, as a write does.
 */
int tlsx__k_send_record(struct tlsx_conn *c, u8 type, const u8 *data,
			size_t len, int flags)
{
	size_t total = len;
	char cbuf[CMSG_SPACE(1)] = { 0 };
	struct iovec iov;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_TLS;
	cm->cmsg_type = TLS_SET_RECORD_TYPE;
	cm->cmsg_len = CMSG_LEN(1);
	*CMSG_DATA(cm) = type;
	while (len) {
		ssize_t n;

		iov.iov_base = (void *)data;
		iov.iov_len = len;
		n = sendmsg(c->fd, &msg, MSG_NOSIGNAL | flags);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return tlsx__sys(c, errno);
			/* Part of a record cannot be resumed: see above. */
			if (len != total)
				return tlsx__sys(c, errno);
			return TLSX_WANT_WRITE;
		}
		c->k_tx_bound++;
		data += n;
		len -= n;
	}
	return TLSX_OK;
}

/*
 * @chunk cut so that one send(2) of it, at @per bytes a record at worst,
 * stays under one key with room for the KeyUpdate (RFC 8446 5.5): a
 * single large write must not carry the records of several epochs.
 */
static size_t key_room(const struct tlsx_conn *c, size_t per, size_t chunk)
{
	u64 recs = c->rekey_limit > 3 ? c->rekey_limit - 2 : 1;

	if (recs < chunk / per)
		return recs * per;
	return chunk;
}

static ssize_t send_error(struct tlsx_conn *c, size_t total)
{
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return total ? (ssize_t)total : TLSX_WANT_WRITE;
	if (total)
		return total;
	return tlsx__sys(c, errno);
}

/* @flags: MSG_MORE when more of the record follows (tlsx__k_sendv()). */
static ssize_t k_send(struct tlsx_conn *c, const void *buf, size_t len,
		      int flags)
{
	size_t per = max_plain(c), total = 0;
	bool cut = lib_cuts(c);
	int err;

	while (total < len) {
		size_t chunk = len - total;
		ssize_t n;

		/* Under a record_size_limit, one record per send(2). */
		if (cut && chunk > per)
			chunk = per;
		chunk = key_room(c, per, chunk);
		err = k_tx_room(c, 1 + chunk / per);
		if (err)
			return total ? (ssize_t)total : err;
		n = send(c->fd, (const u8 *)buf + total, chunk,
			 MSG_NOSIGNAL | flags);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return send_error(c, total);
		c->k_tx_bound += 1 + n / per;
		total += n;
	}
	return total;
}

ssize_t tlsx__k_write(struct tlsx_conn *c, const void *buf, size_t len)
{
	return k_send(c, buf, len, 0);
}

ssize_t tlsx__k_sendfile(struct tlsx_conn *c, int file_fd, off_t *off,
			 size_t count)
{
	size_t total = 0, unit;
	int err;

	if (lib_cuts(c)) {
		/* Records cut to the peer's limit: through tlsx__k_write(). */
		u8 buf[4096];

		while (total < count) {
			size_t want = count - total;
			ssize_t got, n;

			if (want > sizeof(buf))
				want = sizeof(buf);
			got = pread(file_fd, buf, want, *off);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				return total ? (ssize_t)total :
					       tlsx__sys(c, errno);
			if (!got)
				break;
			n = tlsx__k_write(c, buf, got);
			if (n <= 0)
				return total ? (ssize_t)total : n;
			*off += n;
			total += n;
			if (n < got)
				break;
		}
		return total;
	}
	/*
	 * A page per record at worst (splice); under a smaller record limit
	 * the kernel's cuts come on top of the pages', at most one per
	 * limit - 1 bytes and one per page: one per half of it, bounded.
	 */
	unit = max_plain(c) < 4096 ? max_plain(c) / 2 : 4096;
	while (total < count) {
		size_t chunk = count - total;
		ssize_t n;

		if (chunk > 1 << 20)
			chunk = 1 << 20;
		chunk = key_room(c, unit, chunk);
		err = k_tx_room(c, 1 + chunk / unit);
		if (err)
			return total ? (ssize_t)total : err;
		n = sendfile(c->fd, file_fd, off, chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return send_error(c, total);
		if (!n)
			break;
		c->k_tx_bound += 1 + n / unit;
		total += n;
	}
	return total;
}

/*
 * Memory by send(MSG_MORE): the kernel keeps the record open for what
 * follows, so an HTTP/2 DATA frame's header and the file's bytes after it
 * (by sendfile(2), which ends the record where it ends) make one record,
 * and no byte of the file passes through userspace.  Not where libtlsx
 * cuts records to the peer's limit (6.1's and 6.12's tls): an open record
 * would grow past it, so each piece makes its own records there.
 */
ssize_t tlsx__k_sendv(struct tlsx_conn *c, const struct tlsx_piece *p,
		      unsigned int n)
{
	size_t total = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		ssize_t r;

		if (!p[i].len)
			continue;
		if (p[i].mem) {
			bool more = i + 1 < n && !lib_cuts(c);

			r = k_send(c, p[i].mem, p[i].len, more ? MSG_MORE : 0);
		} else {
			off_t off = p[i].off;

			r = tlsx__k_sendfile(c, p[i].fd, &off, p[i].len);
		}
		if (r <= 0)
			return total ? (ssize_t)total : r;
		total += r;
		if ((size_t)r < p[i].len)
			break;
	}
	return total;
}

/*
 * A receive on the kernel's layer failed with @err: the records it
 * refused get the alert RFC 8446 names for them.  A record that failed
 * to open leaves its error set on the socket (net/tls's tls_err_abort(),
 * and tlsx.ko's as it), and TCP fails every send with it until it is
 * read: read it (SO_ERROR), or the alert would not go.
 */
int tlsx__k_rx_failed(struct tlsx_conn *c, int err)
{
	int pending;
	socklen_t len = sizeof(pending);

	if (err == EBADMSG || err == EMSGSIZE)
		getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &pending, &len);
	switch (err) {
	case EBADMSG:	/* a record failed to open (5.2) */
		return tlsx__abort(c, TLSX_ALERT_BAD_RECORD_MAC);
	case EMSGSIZE:	/* over the record size limit (5.2, 5.4) */
		return tlsx__abort(c, TLSX_ALERT_RECORD_OVERFLOW);
	}
	return tlsx__sys(c, err);
}

ssize_t tlsx__k_read(struct tlsx_conn *c, void *buf, size_t len)
{
	for (;;) {
		char cbuf[CMSG_SPACE(1)];
		struct iovec iov = { .iov_base = buf, .iov_len = len };
		struct msghdr msg = {
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct cmsghdr *cm;
		u8 type = TLSX_CT_APPLICATION_DATA;
		ssize_t n;
		int err;

		n = recvmsg(c->fd, &msg, 0);
		if (n < 0) {
			switch (errno) {
			case EINTR:
				continue;
			case EAGAIN:
				return TLSX_WANT_READ;
			}
			return tlsx__k_rx_failed(c, errno);
		}
		cm = CMSG_FIRSTHDR(&msg);
		if (cm && cm->cmsg_level == SOL_TLS &&
		    cm->cmsg_type == TLS_GET_RECORD_TYPE)
			type = *CMSG_DATA(cm);
		if (!n && type == TLSX_CT_APPLICATION_DATA) {
			if (c->rx_closed)
				return 0;
			/* 6.1: a TCP close before close_notify. */
			return tlsx__fail(c, TLSX_E_EOF);
		}
		if (type == TLSX_CT_APPLICATION_DATA) {
			/* 5.1: not inside a handshake message. */
			err = tlsx__hs_interleaved(c);
			return err ? err : n;
		}
		/*
		 * 5.1: a control record the kernel hands over as 0 bytes
		 * (into a buffer that had room) was empty: an alert record
		 * without its one alert, a zero-length Handshake fragment.
		 * tlsx__control() cannot tell, being given pieces.
		 */
		if (!n && len)
			return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
		err = tlsx__control(c, type, buf, n, false);
		if (err)
			return err;
		if (c->rx_closed)
			return 0;
		if (c->err)
			return c->err;
		/* A bounded number per call (rl_control.c RX_PER_CALL). */
		err = tlsx__rx_nodata(c, false);
		if (err)
			return err;
	}
}

/*
 * Sends the caller makes itself (tlsx.h: tlsx_conn_tx_reserve(), through
 * the kernel modes' tables).  Kept apart from libtlsx's own send paths
 * above, which count in k_tx_bound too: the caller's reservations add to
 * it, so the kernel's count is read only when the bound nears the limit.
 */
u64 tlsx_tx_records_max(u64 len)
{
	/*
	 * A record ends when full (2^14), at the end of a send without
	 * MSG_MORE, or when its page list is full: never more than one per
	 * page, and @len bytes touch at most len / 4096 + 2 pages; one more
	 * for a record a MSG_MORE send left open.
	 */
	return len / 4096 + 3;
}

/*
 * tlsx: the reservation is counted in k_tx_bound, and our KeyUpdate goes
 * first when the kernel's count would pass the limit.
 */
int tlsx__k_tx_reserve(struct tlsx_conn *c, u64 records)
{
	int err;

	/* One record stays for the KeyUpdate. */
	if (records > c->rekey_limit - 1)
		return TLSX_E_INVAL;
	err = k_tx_room(c, records);
	if (err)
		return err;
	c->k_tx_bound += records;
	return TLSX_OK;
}

/*
 * tls, which cannot change keys (6.12): the reservation is refused
 * (TLSX_E_REKEY) where it would pass the limit, which then ends the
 * connection's sending.
 */
int tlsx__k_tx_reserve_fixed(struct tlsx_conn *c, u64 records)
{
	u64 seq;
	int err;

	/* One record stays for close_notify. */
	if (records > c->rekey_limit - 1)
		return TLSX_E_INVAL;
	if (c->k_tx_bound + records + 1 > c->rekey_limit) {
		err = kernel_tx_seq(c, &seq);
		if (err)
			return tlsx__sys(c, -err);
		c->k_tx_bound = seq;
		if (seq + records + 1 > c->rekey_limit)
			return TLSX_E_REKEY;
	}
	c->k_tx_bound += records;
	return TLSX_OK;
}

int tlsx__k_tx_left(struct tlsx_conn *c, u64 *records)
{
	u64 seq;
	int err;

	err = kernel_tx_seq(c, &seq);
	if (err)
		return tlsx__sys(c, -err);
	c->k_tx_bound = seq;
	*records = seq + 1 < c->rekey_limit ? c->rekey_limit - 1 - seq : 0;
	return TLSX_OK;
}

/*
 * What the kernel modes do not have: the socket holds what is sealed and
 * what is received, the kernel the keys (until the fd is closed).
 */
int tlsx__k_flush(struct tlsx_conn *c __always_unused, int flags __always_unused)
{
	return TLSX_OK;
}

bool tlsx__k_want_write(const struct tlsx_conn *c __always_unused)
{
	return false;
}

size_t tlsx__k_pending(const struct tlsx_conn *c __always_unused)
{
	return 0;
}

size_t tlsx__k_size(const struct tlsx_conn *c __always_unused)
{
	return 0;
}

void tlsx__k_free(struct tlsx_conn *c __always_unused)
{
}
