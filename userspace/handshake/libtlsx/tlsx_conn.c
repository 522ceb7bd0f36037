// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx_conn.c - a connection's handshake: the sans-I/O engine
 * (handshake/engine/hs.h) driven over the fd, or by a caller that does its own
 * I/O (io_uring), then the handoff (handoff.c).
 *
 * Record-exact reads: read(2) asks for the 5-byte record header, then
 * for exactly the body it announces, and the engine gets one whole
 * record at a time.  The engine never takes more than the last record
 * of the handshake, and libtlsx never read more than that, so whatever
 * the peer sent after it (a client's request in the segment of its
 * Finished, a server's NewSessionTicket) is still in the socket when
 * the receive key is given to the record layer.  The cost: two read(2)s
 * per record received, one write(2) per flight sent (more only when the
 * socket takes part of it).
 *
 * Memory: the engine runs in place (cfg->inplace, tlsx_config.c), and
 * the record being opened and the flight being sent live in the calling
 * thread's scratch (struct tlsx_scratch), not in the connection: one
 * configuration serves many worker threads, each with its own scratch,
 * and a connection mid-handshake holds its engine state and a few
 * words.  Only a record whose body came in part (copied out of the
 * scratch into an allocation of exactly its length) or a flight the
 * socket took in part (the rest, likewise) is kept across calls, and
 * freed as soon as it is whole or sent.
 *
 * The engine, its configuration reference and the handshake state
 * (struct tlsx_hsd) are freed at the handoff: an established
 * connection keeps only what tlsx_int.h lists.
 */
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "handshake/engine/ticket.h"
#include "handshake/libtlsx/tlsx_int.h"

_Static_assert(TLSX_STEP_OUT_MIN >= TLSX_HS_OUT_MIN,
	       "the public output bound holds the engine's flight");

static void free_wiped(u8 **p, size_t len)
{
	if (!*p)
		return;
	memzero_explicit(*p, len);
	free(*p);
	*p = NULL;
}

static void hs_release(struct tlsx_conn *c)
{
	struct tlsx_hsd *h = c->hsd;

	if (!h)
		return;
	tlsx_hs_free(h->hs);
	tlsx_config_free(h->cfg);
	/* A partial record may be a peer's plaintext once opened. */
	if (h->rec)
		free_wiped(&h->rec,
			   TLSX_REC_HDR + get_unaligned_be16(h->hdr + 3));
	free_wiped(&h->pend, h->pend_len);
	memzero_explicit(h, sizeof(*h));
	free(h);
	c->hsd = NULL;
}

struct tlsx_conn *tlsx_conn_new(struct tlsx_config *cfg, int fd)
{
	struct tlsx_conn *c;
	struct tlsx_hsd *h;

	if (tlsx__config_use(cfg))
		return NULL;
	c = tlsx__conn_alloc(fd, cfg->role == TLSX_ROLE_SERVER);
	h = calloc(1, sizeof(*h));
	if (!c || !h)
		goto fail;
	h->hs = tlsx_hs_new(&cfg->hs);
	if (!h->hs)
		goto fail;
	h->cfg = tlsx_config_ref(cfg);
	c->hsd = h;
	c->hs_release = hs_release;
	if (!c->server)
		c->on_ticket = tlsx__store_ticket;
	else if (cfg->hs.tickets)
		/* ticket.h: a no-op until the period has passed; no lock. */
		tlsx_ticket_keys_rotate(cfg->hs.tickets, time(NULL));
	return c;
fail:
	free(h);
	free(c);
	return NULL;
}

static bool before_start(const struct tlsx_conn *c)
{
	return c->hsd && !c->hsd->started && !c->server;
}

int tlsx_conn_set_server_name(struct tlsx_conn *c, const char *name)
{
	char *copy;

	if (!before_start(c) || !name)
		return TLSX_E_INVAL;
	copy = strdup(name);
	if (!copy)
		return TLSX_E_NOMEM;
	if (tlsx_hs_set_server_name(c->hsd->hs, name)) {
		free(copy);
		return TLSX_E_INVAL;
	}
	free(c->server_name);
	c->server_name = copy;
	return TLSX_OK;
}

int tlsx_conn_set_session(struct tlsx_conn *c, const uint8_t *sess,
			  size_t len)
{
	struct tlsx_session s;
	int err;

	if (!before_start(c))
		return TLSX_E_INVAL;
	err = tlsx_session_decode(&s, sess, len);
	if (!err)
		err = tlsx_hs_set_session(c->hsd->hs, &s);
	tlsx_session_wipe(&s);
	return err ? TLSX_E_INVAL : TLSX_OK;
}

/* The alerts that mean "your certificate" (RFC 8446 6.2). */
static bool cert_alert(int alert)
{
	switch (alert) {
	case TLSX_ALERT_BAD_CERTIFICATE:
	case TLSX_ALERT_UNSUPPORTED_CERTIFICATE:
	case TLSX_ALERT_CERTIFICATE_REVOKED:
	case TLSX_ALERT_CERTIFICATE_EXPIRED:
	case TLSX_ALERT_CERTIFICATE_UNKNOWN:
	case TLSX_ALERT_UNKNOWN_CA:
	case TLSX_ALERT_CERTIFICATE_REQUIRED:
		return true;
	}
	return false;
}

/* The engine's error as a result code; the alert noted. */
static int engine_error(struct tlsx_conn *c, int ret)
{
	struct tlsx_hs *hs = c->hsd->hs;

	c->reason = tlsx_hs_reason(hs);
	if (-ret >= TLSX_HS_EALERT_BASE) {
		c->alert = -ret - TLSX_HS_EALERT_BASE;
		if (tlsx_hs_alert_received(hs))
			return TLSX_E_ALERT_RECEIVED;
		return cert_alert(c->alert) ? TLSX_E_CERT : TLSX_E_ALERT_SENT;
	}
	if (ret == -EDESTADDRREQ)
		return TLSX_E_NO_SERVER_NAME;	/* hs.h: nothing was sent */
	return ret == -ENOMEM ? TLSX_E_NOMEM : TLSX_E_INVAL;
}

/*
 * One engine step, in place: the engine opens protected records where
 * they lie in @in (hs.h), which is ours to overwrite (the thread's
 * scratch, a partial record's allocation, or the caller's bytes given
 * to tlsx_conn_step_inplace()).  TLSX_WANT_READ, TLSX_DONE or an error.
 */
static int engine_step(struct tlsx_conn *c, u8 *in, size_t in_len,
		       size_t *used, u8 *out, size_t cap, size_t *out_len)
{
	struct tlsx_hsd *h = c->hsd;
	int ret;

	h->started = true;
	ret = tlsx_hs_step_inplace(h->hs, in, in_len, used, out, cap,
				   out_len);
	if (ret == TLSX_HS_DONE) {
		h->engine_done = true;
		return TLSX_DONE;
	}
	if (ret == TLSX_HS_WANT_READ)
		return TLSX_WANT_READ;
	if (ret > 0)
		return TLSX_E_INVAL;
	return engine_error(c, ret);
}

size_t tlsx_conn_read_hint(const struct tlsx_conn *c, const uint8_t *in,
			   size_t in_len)
{
	size_t body, max;

	(void)c;
	if (in_len < TLSX_REC_HDR)
		return TLSX_REC_HDR - in_len;
	/*
	 * A header the engine refuses (5: a type that is not TLS 1.3's,
	 * 5.1: not version 3.x, longer than 2^14 plaintext or 5.2's 2^14 +
	 * 256 protected) is refused from its 5 bytes: no body is awaited,
	 * so plain HTTP or an SSLv2 hello on the port gets its alert at
	 * once, not at the handshake timeout, and no buffer is sized from
	 * a length that is not one.  The same bound as hs_step()'s.
	 */
	max = in[0] == TLSX_CT_APPLICATION_DATA ? TLSX_REC_MAX_CIPHER :
						  TLSX_REC_MAX_PLAIN;
	if (tlsx_rec_header(in, max, &body))
		return 0;
	return TLSX_REC_HDR + body > in_len ? TLSX_REC_HDR + body - in_len : 0;
}

/* Handshake done: what was negotiated, the keys to the layer, tickets. */
static int finish_handshake(struct tlsx_conn *c)
{
	struct tlsx_hsd *h = c->hsd;
	struct tlsx_config *cfg = h->cfg;
	struct tlsx_scratch *s = NULL;
	struct tlsx_hs_info info;
	size_t tickets_len = 0;
	u64 max;
	int err;

	if (tlsx_hs_get_info(h->hs, &info) || tlsx_hs_secrets(h->hs, &c->sec))
		return tlsx__fail(c, TLSX_E_INVAL);
	c->suite = info.suite;
	c->group = info.group;
	c->sig_scheme = info.sig_scheme;
	c->resumed = info.resumed;
	c->hrr = info.hrr;
	c->peer_cert = info.peer_cert;
	c->peer_chain = tlsx_hs_take_peer_chain(h->hs);
	c->peer_rsl = info.peer_record_size_limit;
	/*
	 * RFC 8449 4: a limit binds only when negotiated, both ends having
	 * sent one; otherwise records of any size 5.1 allows may come.
	 */
	c->own_rsl = c->peer_rsl ? cfg->hs.record_size_limit : 0;
	if (info.alpn[0])
		c->alpn = strdup((const char *)info.alpn);
	if (c->server && info.server_name[0])
		c->server_name = strdup(info.server_name);
	max = tlsx_suite_find(c->suite)->rekey_limit;
	c->rekey_limit = cfg->rekey_limit && cfg->rekey_limit < max ?
			 cfg->rekey_limit : max;
	if (c->server) {
		/* A server opens tickets with its ticket keys, not this. */
		memzero_explicit(c->sec.res_master, sizeof(c->sec.res_master));
		/* The thread's scratch is free between flights: tickets there. */
		s = tlsx__scratch();
		if (!s || tlsx_hs_tickets(h->hs, s->out, sizeof(s->out),
					  &tickets_len))
			tickets_len = 0;
	}
	err = tlsx__handoff(c, cfg->rl);
	if (!err) {
		c->established = true;
		if (tickets_len)
			err = tlsx__send_tickets(c, s->out, tickets_len);
	}
	if (s)
		memzero_explicit(s->out, tickets_len);
	if (err)
		return err;
	hs_release(c);
	return TLSX_DONE;
}

/*
 * Sends @buf[*@off, @len): TLSX_OK when all went, TLSX_WANT_WRITE when
 * the socket is full, or the error (the handshake's own failure, if its
 * alert was what could not go).
 */
static int send_from(struct tlsx_conn *c, const u8 *buf, size_t len,
		     size_t *off)
{
	while (*off < len) {
		ssize_t n = send(c->fd, buf + *off, len - *off, MSG_NOSIGNAL);

		if (n < 0 && errno == ENOTSOCK)
			n = write(c->fd, buf + *off, len - *off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return TLSX_WANT_WRITE;
			/* An alert that cannot go: the failure stands. */
			if (c->hsd->fail)
				return tlsx__fail(c, c->hsd->fail);
			return tlsx__sys(c, errno);
		}
		c->hs_writes++;
		*off += n;
	}
	return TLSX_OK;
}

/* What an earlier send left unsent; TLSX_OK once nothing is owed. */
static int flush_pend(struct tlsx_conn *c)
{
	struct tlsx_hsd *h = c->hsd;
	int err;

	if (!h->pend)
		return TLSX_OK;
	err = send_from(c, h->pend, h->pend_len, &h->pend_off);
	if (err)
		return err;
	free_wiped(&h->pend, h->pend_len);
	h->pend_len = 0;
	h->pend_off = 0;
	return TLSX_OK;
}

/*
 * A flight in the thread's scratch: sent, or its unsent part kept in an
 * allocation of exactly that size (the scratch is another connection's
 * at the next call).
 */
static int send_flight(struct tlsx_conn *c, const u8 *buf, size_t len)
{
	struct tlsx_hsd *h = c->hsd;
	size_t off = 0;
	int err = send_from(c, buf, len, &off);

	if (err != TLSX_WANT_WRITE)
		return err;
	h->pend = malloc(len - off);
	if (!h->pend)
		return tlsx__fail(c, TLSX_E_NOMEM);
	memcpy(h->pend, buf + off, len - off);
	h->pend_len = len - off;
	h->pend_off = 0;
	return TLSX_WANT_WRITE;
}

/*
 * Steps the engine on the whole record at @rec (@len bytes; none for a
 * client's first step) and sends what it wrote; the record's bytes,
 * opened in place, are wiped.
 */
static int feed(struct tlsx_conn *c, struct tlsx_scratch *s, u8 *rec,
		size_t len)
{
	struct tlsx_hsd *h = c->hsd;
	size_t used = 0, out_len = 0;
	int ret, err;

	ret = engine_step(c, rec, len, &used, s->out, sizeof(s->out),
			  &out_len);
	if (ret < 0 && ret != TLSX_WANT_READ)
		h->fail = ret;
	else if (used != len)
		/* hs.h: whole records are consumed; anything else is a bug. */
		h->fail = TLSX_E_INVAL;
	memzero_explicit(rec, len);
	h->in_len = 0;
	err = send_flight(c, s->out, out_len);
	memzero_explicit(s->out, out_len);
	return err;
}

/*
 * Reads the next record's body, @want bytes: into the scratch behind the
 * header when none of it came yet (the usual case, all of it in one
 * read(2)), else into h->rec.  Returns the bytes read, 0 at EOF, or -1
 * (errno).  A body read in part moves to h->rec, of exactly the
 * record's length.
 */
static ssize_t read_body(struct tlsx_conn *c, struct tlsx_scratch *s,
			 size_t want)
{
	struct tlsx_hsd *h = c->hsd;
	size_t total = TLSX_REC_HDR + get_unaligned_be16(h->hdr + 3);
	ssize_t n;

	if (h->rec)
		return read(c->fd, h->rec + h->in_len, want);
	n = read(c->fd, s->in + TLSX_REC_HDR, want);
	if (n <= 0 || (size_t)n == want)
		return n;
	h->rec = malloc(total);
	if (!h->rec) {
		memzero_explicit(s->in + TLSX_REC_HDR, n);
		errno = ENOMEM;
		return -1;
	}
	memcpy(h->rec, h->hdr, TLSX_REC_HDR);
	memcpy(h->rec + TLSX_REC_HDR, s->in + TLSX_REC_HDR, n);
	memzero_explicit(s->in + TLSX_REC_HDR, n);
	return n;
}

/* The record is whole: step on it where it lies. */
static int feed_record(struct tlsx_conn *c, struct tlsx_scratch *s)
{
	struct tlsx_hsd *h = c->hsd;
	size_t len = h->in_len;
	int err;

	if (!h->rec) {
		memcpy(s->in, h->hdr, TLSX_REC_HDR);
		return feed(c, s, s->in, len);
	}
	err = feed(c, s, h->rec, len);
	free(h->rec);		/* wiped by feed() */
	h->rec = NULL;
	return err;
}

int tlsx_conn_step(struct tlsx_conn *c)
{
	struct tlsx_hsd *h = c->hsd;
	struct tlsx_scratch *s;
	int err;

	if (c->established)
		return TLSX_DONE;
	if (c->err)
		return c->err;
	if (!h)
		return TLSX_E_INVAL;
	s = tlsx__scratch();
	if (!s)
		return TLSX_E_NOMEM;	/* not sticky: nothing was done */
	for (;;) {
		size_t want;
		ssize_t n;

		err = flush_pend(c);
		if (err)
			return err;
		if (h->fail)
			return tlsx__fail(c, h->fail);
		if (h->engine_done)
			return finish_handshake(c);
		if (!h->started && !c->server) {
			/* The ClientHello. */
			err = feed(c, s, s->in, 0);
			if (err)
				return err;
			continue;
		}
		want = tlsx_conn_read_hint(c, h->hdr, h->in_len);
		if (h->in_len >= TLSX_REC_HDR && !want) {
			/*
			 * A header announcing more than a record may hold
			 * (5.1, 5.2): the engine refuses it from the header.
			 */
			memcpy(s->in, h->hdr, TLSX_REC_HDR);
			err = feed(c, s, s->in, TLSX_REC_HDR);
			if (!h->fail && !h->engine_done)
				h->fail = TLSX_E_INVAL;
			if (err)
				return err;
			continue;
		}
		if (h->in_len < TLSX_REC_HDR)
			n = read(c->fd, h->hdr + h->in_len, want);
		else
			n = read_body(c, s, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return TLSX_WANT_READ;
			if (errno == ENOMEM)
				return tlsx__fail(c, TLSX_E_NOMEM);
			return tlsx__sys(c, errno);
		}
		c->hs_reads++;
		if (!n)
			return tlsx__fail(c, TLSX_E_EOF);
		h->in_len += n;
		if (h->in_len >= TLSX_REC_HDR &&
		    h->in_len == TLSX_REC_HDR +
				 (size_t)get_unaligned_be16(h->hdr + 3)) {
			err = feed_record(c, s);
			if (err)
				return err;
		}
	}
}

int tlsx_conn_handshake(struct tlsx_conn *c)
{
	for (;;) {
		struct pollfd p = { .fd = c->fd };
		int ret = tlsx_conn_step(c);

		if (ret == TLSX_WANT_READ)
			p.events = POLLIN;
		else if (ret == TLSX_WANT_WRITE)
			p.events = POLLOUT;
		else
			return ret;
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return tlsx__sys(c, errno);
	}
}

/* What both sans-I/O steps check first; 1: go on. */
static int step_buf_check(struct tlsx_conn *c, size_t in_len,
			  size_t *consumed, size_t out_cap, size_t *out_len)
{
	struct tlsx_hsd *h = c->hsd;

	*consumed = 0;
	*out_len = 0;
	if (c->established)
		return TLSX_DONE;
	if (c->err)
		return c->err;
	if (!h || out_cap < TLSX_STEP_OUT_MIN)
		return TLSX_E_INVAL;
	if (h->engine_done)
		return TLSX_DONE;
	if (!in_len && (c->server || h->started))
		return TLSX_WANT_READ;
	return 1;
}

int tlsx_conn_step_inplace(struct tlsx_conn *c, uint8_t *in, size_t in_len,
			   size_t *consumed, uint8_t *out, size_t out_cap,
			   size_t *out_len)
{
	int ret = step_buf_check(c, in_len, consumed, out_cap, out_len);

	if (ret != 1)
		return ret;
	ret = engine_step(c, in, in_len, consumed, out, out_cap, out_len);
	if (ret < 0 && ret != TLSX_WANT_READ)
		return tlsx__fail(c, ret);
	return ret;
}

/*
 * The whole records at the start of @in that fit in @cap bytes, or, when
 * not even the first does (a header announcing more than a record may
 * hold, or a record not yet whole), min(@in_len, @cap): the engine then
 * refuses the header or waits for the rest, as it would on @in.
 */
static size_t whole_prefix(const u8 *in, size_t in_len, size_t cap)
{
	size_t pos = 0;

	if (in_len <= cap)
		return in_len;
	while (in_len - pos >= TLSX_REC_HDR) {
		size_t rec = TLSX_REC_HDR + get_unaligned_be16(in + pos + 3);

		if (rec > in_len - pos || rec > cap - pos)
			break;
		pos += rec;
	}
	return pos ? pos : cap;
}

int tlsx_conn_step_buf(struct tlsx_conn *c, const uint8_t *in, size_t in_len,
		       size_t *consumed, uint8_t *out, size_t out_cap,
		       size_t *out_len)
{
	struct tlsx_scratch *s;
	size_t n;
	int ret = step_buf_check(c, in_len, consumed, out_cap, out_len);

	if (ret != 1)
		return ret;
	s = tlsx__scratch();
	if (!s)
		return TLSX_E_NOMEM;	/* not sticky: nothing was done */
	/*
	 * @in is const and the engine opens records in place: a copy in
	 * the thread's scratch, one record's room (the record-exact caller
	 * never has more), wiped before returning.
	 */
	n = whole_prefix(in, in_len, sizeof(s->in));
	memcpy(s->in, in, n);
	ret = tlsx_conn_step_inplace(c, s->in, n, consumed, out, out_cap,
				     out_len);
	memzero_explicit(s->in, n);
	return ret;
}

int tlsx_conn_handoff(struct tlsx_conn *c)
{
	if (c->established)
		return TLSX_DONE;
	if (c->err)
		return c->err;
	if (!c->hsd || !c->hsd->engine_done)
		return TLSX_E_INVAL;
	return finish_handshake(c);
}

static int run(struct tlsx_config *cfg, int fd, const char *name,
	       struct tlsx_conn **out)
{
	struct tlsx_conn *c;
	int err;

	*out = NULL;
	err = tlsx__config_use(cfg);
	if (err)
		return err;
	c = tlsx_conn_new(cfg, fd);
	if (!c)
		return TLSX_E_NOMEM;
	*out = c;
	if (name) {
		err = tlsx_conn_set_server_name(c, name);
		if (err)
			return tlsx__fail(c, err);
	}
	return tlsx_conn_handshake(c);
}

int tlsx_connect(struct tlsx_config *cfg, int fd, const char *server_name,
		 struct tlsx_conn **out)
{
	if (!cfg || cfg->role != TLSX_ROLE_CLIENT) {
		*out = NULL;
		return TLSX_E_INVAL;
	}
	return run(cfg, fd, server_name, out);
}

int tlsx_accept(struct tlsx_config *cfg, int fd, struct tlsx_conn **out)
{
	if (!cfg || cfg->role != TLSX_ROLE_SERVER) {
		*out = NULL;
		return TLSX_E_INVAL;
	}
	return run(cfg, fd, NULL, out);
}
