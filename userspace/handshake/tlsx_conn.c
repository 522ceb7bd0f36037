// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx_conn.c - a connection's handshake: the sans-I/O engine
 * (handshake/hs.h) driven over the fd, or by a caller that does its own
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
 * The engine, its configuration reference and the handshake buffers
 * (struct tlsx_hsd) are freed at the handoff: an established
 * connection keeps only what tlsx_int.h lists.
 */
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "handshake/ticket.h"
#include "handshake/tlsx_int.h"

_Static_assert(TLSX_STEP_OUT_MIN >= TLSX_HS_OUT_MIN,
	       "the public output bound holds the engine's flight");

static void hs_release(struct tlsx_conn *c)
{
	struct tlsx_hsd *h = c->hsd;

	if (!h)
		return;
	tlsx_hs_free(h->hs);
	tlsx_config_free(h->cfg);
	/* The buffers held handshake records, some of them plaintext. */
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
	h = malloc(sizeof(*h));
	if (!c || !h)
		goto fail;
	h->hs = tlsx_hs_new(&cfg->hs);
	if (!h->hs)
		goto fail;
	h->cfg = tlsx_config_ref(cfg);
	h->engine_done = false;
	h->started = false;
	h->fail = 0;
	h->in_len = 0;
	h->out_len = 0;
	h->out_off = 0;
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

	if (-ret >= TLSX_HS_EALERT_BASE) {
		c->alert = -ret - TLSX_HS_EALERT_BASE;
		if (tlsx_hs_alert_received(hs))
			return TLSX_E_ALERT_RECEIVED;
		return cert_alert(c->alert) ? TLSX_E_CERT : TLSX_E_ALERT_SENT;
	}
	return ret == -ENOMEM ? TLSX_E_NOMEM : TLSX_E_INVAL;
}

/* One engine step; TLSX_WANT_READ, TLSX_DONE or an error code. */
static int engine_step(struct tlsx_conn *c, const u8 *in, size_t in_len,
		       size_t *used, u8 *out, size_t cap, size_t *out_len)
{
	struct tlsx_hsd *h = c->hsd;
	int ret;

	h->started = true;
	ret = tlsx_hs_step(h->hs, in, in_len, used, out, cap, out_len);
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
	size_t body;

	(void)c;
	if (in_len < TLSX_REC_HDR)
		return TLSX_REC_HDR - in_len;
	body = get_unaligned_be16(in + 3);
	/* Too long: the engine refuses it from the header alone (5.1). */
	if (body > TLSX_REC_MAX_CIPHER)
		return 0;
	return TLSX_REC_HDR + body > in_len ? TLSX_REC_HDR + body - in_len : 0;
}

/* Handshake done: what was negotiated, the keys to the layer, tickets. */
static int finish_handshake(struct tlsx_conn *c)
{
	struct tlsx_hsd *h = c->hsd;
	struct tlsx_config *cfg = h->cfg;
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
	max = tlsx__suite_rekey_limit(c->suite);
	c->rekey_limit = cfg->rekey_limit && cfg->rekey_limit < max ?
			 cfg->rekey_limit : max;
	if (c->server) {
		/* A server opens tickets with its ticket keys, not this. */
		memzero_explicit(c->sec.res_master, sizeof(c->sec.res_master));
		/* The output buffer is free now: the tickets go there. */
		err = tlsx_hs_tickets(h->hs, h->out, sizeof(h->out),
				      &tickets_len);
		if (err)
			tickets_len = 0;
	}
	err = tlsx__handoff(c, cfg->rl);
	if (err)
		return err;
	c->established = true;
	if (tickets_len) {
		err = tlsx__send_tickets(c, h->out, tickets_len);
		if (err)
			return err;
	}
	hs_release(c);
	return TLSX_DONE;
}

/* Writes what the engine produced; TLSX_OK when all went. */
static int flush_out(struct tlsx_conn *c)
{
	struct tlsx_hsd *h = c->hsd;

	while (h->out_off < h->out_len) {
		ssize_t n = send(c->fd, h->out + h->out_off,
				 h->out_len - h->out_off, MSG_NOSIGNAL);

		if (n < 0 && errno == ENOTSOCK)
			n = write(c->fd, h->out + h->out_off,
				  h->out_len - h->out_off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return TLSX_WANT_WRITE;
			/* An alert that cannot go: the failure stands. */
			if (h->fail)
				return tlsx__fail(c, h->fail);
			return tlsx__sys(c, errno);
		}
		c->hs_writes++;
		h->out_off += n;
	}
	h->out_off = 0;
	h->out_len = 0;
	return TLSX_OK;
}

/* Feeds the record in h->in to the engine. */
static void feed(struct tlsx_conn *c, size_t len)
{
	struct tlsx_hsd *h = c->hsd;
	size_t used = 0;
	int ret;

	ret = engine_step(c, h->in, len, &used, h->out, sizeof(h->out),
			  &h->out_len);
	if (ret < 0 && ret != TLSX_WANT_READ)
		h->fail = ret;
	else if (used != len)
		/* hs.h: whole records are consumed; anything else is a bug. */
		h->fail = TLSX_E_INVAL;
	h->in_len = 0;
}

int tlsx_conn_step(struct tlsx_conn *c)
{
	struct tlsx_hsd *h = c->hsd;
	int err;

	if (c->established)
		return TLSX_DONE;
	if (c->err)
		return c->err;
	if (!h)
		return TLSX_E_INVAL;
	for (;;) {
		size_t want;
		ssize_t n;

		err = flush_out(c);
		if (err)
			return err;
		if (h->fail)
			return tlsx__fail(c, h->fail);
		if (h->engine_done)
			return finish_handshake(c);
		if (!h->started && !c->server) {
			feed(c, 0);	/* the ClientHello */
			continue;
		}
		want = tlsx_conn_read_hint(c, h->in, h->in_len);
		if (!want) {
			/* A header announcing more than a record may hold. */
			feed(c, h->in_len);
			if (!h->fail && !h->engine_done)
				h->fail = TLSX_E_INVAL;
			continue;
		}
		n = read(c->fd, h->in + h->in_len, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return TLSX_WANT_READ;
			return tlsx__sys(c, errno);
		}
		c->hs_reads++;
		if (!n)
			return tlsx__fail(c, TLSX_E_EOF);
		h->in_len += n;
		if (!tlsx_conn_read_hint(c, h->in, h->in_len))
			feed(c, h->in_len);
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

int tlsx_conn_step_buf(struct tlsx_conn *c, const uint8_t *in, size_t in_len,
		       size_t *consumed, uint8_t *out, size_t out_cap,
		       size_t *out_len)
{
	struct tlsx_hsd *h = c->hsd;
	int ret;

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
	ret = engine_step(c, in, in_len, consumed, out, out_cap, out_len);
	if (ret < 0 && ret != TLSX_WANT_READ)
		return tlsx__fail(c, ret);
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
