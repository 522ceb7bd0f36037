// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx_io.c - a connection after the handshake: read, write, sendfile,
 * KeyUpdate and close, whichever record layer runs: each call checks the
 * connection's state, pays a KeyUpdate owed (RFC 8446 4.6.3) and goes
 * down through the layer's table (c->ops, set by handoff.c), never
 * asking which layer it is.  The control records the layers meet on
 * their way are rl_control.c's.
 */
#include <stdlib.h>
#include <time.h>

#include "handshake/engine/alert.h"
#include "handshake/libtlsx/tlsx_int.h"
#include "handshake/engine/ticket.h"

struct tlsx_conn *tlsx__conn_alloc(int fd, bool server)
{
	struct tlsx_conn *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->fd = fd;
	c->server = server;
	c->alert = -1;
	tlsx__rx_bounds_init(c);
	return c;
}

/*
 * Sends the KeyUpdate the peer asked for, if one is owed and the socket
 * can take it: TLSX_WANT_WRITE leaves it owed (one reply answers every
 * request made before it, 4.6.3).  On the userspace layer only once what
 * is pending went, so that a peer that does not read cannot have replies
 * pile up behind it.  After our close_notify nothing more is sent (6.1).
 */
static int pay_key_update(struct tlsx_conn *c)
{
	int err;

	if (!c->ku_owed)
		return TLSX_OK;
	if (c->tx_closed) {
		c->ku_owed = false;
		return TLSX_OK;
	}
	err = c->ops->flush(c, 0);
	if (err)
		return err;
	err = tlsx__tx_key_update(c, false);
	if (!err)
		c->ku_owed = false;
	return err;
}

/* Client: a NewSessionTicket after the handshake becomes c->session. */
int tlsx__store_ticket(struct tlsx_conn *c, const u8 *msg, size_t len)
{
	struct tlsx_session *s = malloc(sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	err = tlsx_session_from_ticket(&c->sec,
				       c->server_name ? c->server_name : "",
				       (const u8 *)(c->alpn ? c->alpn : ""),
				       msg, len, time(NULL), s);
	if (err) {
		tlsx_session_wipe(s);
		free(s);
		return err;
	}
	if (c->session) {
		tlsx_session_wipe(c->session);
		free(c->session);
	}
	c->session = s;
	return 0;
}

static int usable(const struct tlsx_conn *c)
{
	if (!c->established)
		return TLSX_E_INVAL;
	return c->err;
}

ssize_t tlsx_read(struct tlsx_conn *c, void *buf, size_t len)
{
	ssize_t n;
	int err = usable(c);

	if (err)
		return err;
	if (c->rx_err)
		return c->rx_err;
	if (c->rx_closed)
		return 0;
	if (!len)
		return TLSX_E_INVAL;
	/*
	 * A reply owed and no room for it: nothing is read until it goes,
	 * so a peer that asks for KeyUpdates and does not read is not read
	 * either.
	 */
	err = pay_key_update(c);
	if (err)
		return err;
	c->rx_call_ctl = 0;
	n = c->ops->read(c, buf, len);
	if (n > 0)
		tlsx__rx_data(c, n);
	/* The requests this call read: one reply for all (4.6.3). */
	err = pay_key_update(c);
	/* Data read is returned; a failure is sticky for the next call. */
	if (err && n == TLSX_WANT_READ)
		return err;
	return n;
}

bool tlsx_conn_rx_plain(const struct tlsx_conn *c)
{
	return c->established && !c->err && !c->rx_err && !c->rx_closed &&
	       c->ops->rx_failed && !tlsx__rx_mid_message(c);
}

int tlsx_conn_rx_failed(struct tlsx_conn *c, int err)
{
	int ret = usable(c);

	if (ret)
		return ret;
	if (c->rx_err)
		return c->rx_err;
	if (!c->ops->rx_failed)
		return tlsx__sys(c, err);
	return c->ops->rx_failed(c, err);
}

bool tlsx_conn_want_write(const struct tlsx_conn *c)
{
	if (!c || !c->established || c->err)
		return false;
	if (c->ku_owed && !c->tx_closed)
		return true;
	return c->ops->want_write(c);
}

size_t tlsx_pending(const struct tlsx_conn *c)
{
	if (!c || !c->established)
		return 0;
	return c->ops->pending(c);
}

ssize_t tlsx_write(struct tlsx_conn *c, const void *buf, size_t len)
{
	int err = usable(c);

	if (err)
		return err;
	if (c->tx_closed)
		return TLSX_E_CLOSED;
	err = pay_key_update(c);
	if (err)
		return err;
	if (!len)
		return 0;
	return c->ops->write(c, buf, len);
}

int tlsx_conn_flush(struct tlsx_conn *c)
{
	int err = usable(c);

	if (err)
		return err;
	err = pay_key_update(c);
	if (err)
		return err;
	return c->ops->flush(c, 0);
}

static int tx_usable(const struct tlsx_conn *c)
{
	if (!c || !c->established)
		return TLSX_E_INVAL;
	if (c->err)
		return c->err;
	return c->tx_closed ? TLSX_E_CLOSED : TLSX_OK;
}

int tlsx_conn_tx_reserve(struct tlsx_conn *c, u64 len)
{
	int err = tx_usable(c);

	if (err)
		return err;
	return c->ops->tx_reserve(c, tlsx_tx_records_max(len));
}

int tlsx_conn_tx_left(struct tlsx_conn *c, u64 *records)
{
	int err = tx_usable(c);

	if (err)
		return err;
	if (!records)
		return TLSX_E_INVAL;
	return c->ops->tx_left(c, records);
}

ssize_t tlsx_sendfile(struct tlsx_conn *c, int file_fd, off_t *off,
		      size_t count)
{
	int err = usable(c);

	if (err)
		return err;
	if (c->tx_closed)
		return TLSX_E_CLOSED;
	if (!off)
		return TLSX_E_INVAL;
	err = pay_key_update(c);
	if (err)
		return err;
	if (!count)
		return 0;
	return c->ops->sendfile(c, file_fd, off, count);
}

ssize_t tlsx_sendv(struct tlsx_conn *c, const struct tlsx_piece *p,
		   unsigned int n)
{
	unsigned int i;
	int err = usable(c);

	if (err)
		return err;
	if (c->tx_closed)
		return TLSX_E_CLOSED;
	if ((!p && n) || n > TLSX_SENDV_MAX)
		return TLSX_E_INVAL;
	for (i = 0; i < n; i++)
		if (!p[i].mem && p[i].len && (p[i].fd < 0 || p[i].off < 0))
			return TLSX_E_INVAL;
	err = pay_key_update(c);
	if (err)
		return err;
	/* Nothing to send: 0, as tlsx_write() of none. */
	for (i = 0; i < n && !p[i].len; i++)
		;
	if (i == n)
		return 0;
	return c->ops->sendv(c, p + i, n - i);
}

int tlsx_conn_key_update(struct tlsx_conn *c, bool request_peer)
{
	int err = usable(c);

	if (err)
		return err;
	if (c->tx_closed)
		return TLSX_E_CLOSED;
	if (!c->ops->rekey)
		return TLSX_E_REKEY;	/* not sticky: nothing was sent */
	err = tlsx__tx_key_update(c, request_peer);
	if (!err)
		c->ku_owed = false;	/* ours answers a request too */
	return err;
}

int tlsx_close(struct tlsx_conn *c)
{
	static const u8 close_notify[2] = { 1, TLSX_ALERT_CLOSE_NOTIFY };
	int err = usable(c);

	if (err)
		return err;
	if (!c->tx_closed) {
		err = c->ops->send_record(c, TLSX_CT_ALERT, close_notify,
					  sizeof(close_notify), 0);
		if (err)
			return err;
		c->tx_closed = true;
	}
	return c->ops->flush(c, 0);
}

void tlsx_conn_free(struct tlsx_conn *c)
{
	if (!c)
		return;
	if (c->hsd && c->hs_release)
		c->hs_release(c);
	if (c->ops)
		c->ops->free(c);
	/* tlsx_hs_secrets_wipe()'s work, without a call into the engine. */
	memzero_explicit(&c->sec, sizeof(c->sec));
	tlsx__pm_free(c);
	if (c->session) {
		tlsx_session_wipe(c->session);
		free(c->session);
	}
	free(c->alpn);
	free(c->server_name);
	tlsx_peer_chain_free(c->peer_chain);
	memzero_explicit(c, sizeof(*c));
	free(c);
}

int tlsx_conn_fd(const struct tlsx_conn *c)
{
	return c->fd;
}

enum tlsx_record_layer tlsx_conn_record_layer(const struct tlsx_conn *c)
{
	/* Before the handoff: none yet, as the configuration's AUTO. */
	return c->ops ? c->ops->id : TLSX_RL_AUTO;
}

int tlsx_conn_errno(const struct tlsx_conn *c)
{
	return c->sys_errno;
}

int tlsx_conn_alert(const struct tlsx_conn *c)
{
	return c->alert;
}

const char *tlsx_conn_reason(const struct tlsx_conn *c)
{
	return c->reason;
}

int tlsx_conn_info(const struct tlsx_conn *c, struct tlsx_conn_info *info)
{
	memset(info, 0, sizeof(*info));
	if (!c->established)
		return TLSX_E_INVAL;
	info->suite = c->suite;
	info->suite_name = tlsx_suite_name(c->suite);
	info->group = c->group;
	info->group_name = c->group ? tlsx_group_name(c->group) : "none";
	info->sig_scheme = c->sig_scheme;
	info->alpn = c->alpn ? c->alpn : "";
	info->server_name = c->server_name ? c->server_name : "";
	info->resumed = c->resumed;
	info->hrr = c->hrr;
	info->peer_cert = c->peer_cert;
	info->record_layer = c->ops->id;
	info->peer_record_size_limit = c->peer_rsl;
	info->fd_send_fits = c->ops->id != TLSX_RL_USER && c->k_rsl;
	info->hs_reads = c->hs_reads;
	info->hs_writes = c->hs_writes;
	info->key_updates_sent = c->ku_sent;
	info->key_updates_received = c->ku_recv;
	info->state_bytes = sizeof(*c) + c->ops->state_size(c);
	if (c->alpn)
		info->state_bytes += strlen(c->alpn) + 1;
	if (c->server_name)
		info->state_bytes += strlen(c->server_name) + 1;
	info->state_bytes += tlsx__pm_size(c);
	if (c->session)
		info->state_bytes += sizeof(*c->session);
	info->state_bytes += tlsx_peer_chain_size(c->peer_chain);
	return TLSX_OK;
}

int tlsx_peer_cert(const struct tlsx_conn *c, size_t index,
		   const uint8_t **der, size_t *len)
{
	if (!der || !len)
		return TLSX_E_INVAL;
	*der = NULL;
	*len = 0;
	if (!c->established)
		return TLSX_E_INVAL;
	if (tlsx_peer_chain_cert(c->peer_chain, index, der, len))
		return TLSX_E_NO_CERT;
	return TLSX_OK;
}

int tlsx_conn_session(const struct tlsx_conn *c, uint8_t *buf, size_t cap,
		      size_t *len)
{
	u8 tmp[sizeof(struct tlsx_session) + 256];
	size_t n;
	int err;

	*len = 0;
	if (!c->session)
		return TLSX_E_NO_SESSION;
	err = tlsx_session_encode(c->session, tmp, sizeof(tmp), &n);
	if (err) {
		memzero_explicit(tmp, sizeof(tmp));
		return TLSX_E_INVAL;
	}
	*len = n;
	if (n > cap) {
		memzero_explicit(tmp, sizeof(tmp));
		return TLSX_E_INVAL;
	}
	memcpy(buf, tmp, n);
	memzero_explicit(tmp, sizeof(tmp));
	return TLSX_OK;
}

int tlsx__conn_from_secrets(int fd, bool server,
			    const struct tlsx_hs_secrets *sec,
			    enum tlsx_record_layer rl, u64 rekey_limit,
			    u16 peer_rsl, struct tlsx_conn **out)
{
	const struct tlsx_suite *s = tlsx_suite_find(sec->suite);
	struct tlsx_conn *c;
	u64 max;
	int err;

	*out = NULL;
	if (!s)
		return TLSX_E_INVAL;
	c = tlsx__conn_alloc(fd, server);
	if (!c)
		return TLSX_E_NOMEM;
	c->sec = *sec;
	c->suite = sec->suite;
	c->peer_rsl = peer_rsl;
	if (!server)
		c->on_ticket = tlsx__store_ticket;
	max = s->rekey_limit;
	c->rekey_limit = rekey_limit && rekey_limit < max ? rekey_limit : max;
	if (c->rekey_limit < 2)
		c->rekey_limit = 2;
	err = tlsx__handoff(c, rl);
	if (err) {
		tlsx_conn_free(c);
		return err;
	}
	c->established = true;
	*out = c;
	return TLSX_OK;
}

const char *tlsx_strerror(int result)
{
	switch (result) {
	case TLSX_OK:
		return "success";
	case TLSX_WANT_READ:
		return "want read";
	case TLSX_WANT_WRITE:
		return "want write";
	case TLSX_E_SYSCALL:
		return "system call failed";
	case TLSX_E_NOMEM:
		return "out of memory";
	case TLSX_E_INVAL:
		return "invalid argument or call out of order";
	case TLSX_E_CONFIG:
		return "bad configuration";
	case TLSX_E_EOF:
		return "connection closed without close_notify";
	case TLSX_E_ALERT_SENT:
		return "peer violated the protocol (alert sent)";
	case TLSX_E_ALERT_RECEIVED:
		return "peer sent a fatal alert";
	case TLSX_E_CERT:
		return "peer certificate refused";
	case TLSX_E_RECORD_LAYER:
		return "record layer unavailable";
	case TLSX_E_REKEY:
		return "kernel tls cannot change keys (KeyUpdate)";
	case TLSX_E_CLOSED:
		return "connection closed for writing";
	case TLSX_E_NO_SESSION:
		return "no session ticket received";
	case TLSX_E_NO_CERT:
		return "no such peer certificate";
	case TLSX_E_NO_SERVER_NAME:
		return "no server name to verify the certificate against (set one, or opt out with tlsx_config_set_verify_name_optional())";
	case TLSX_E_FLOOD:
		return "peer sent too many records without application data (alert sent)";
	}
	return "unknown error";
}

const char *tlsx_record_layer_name(enum tlsx_record_layer rl)
{
	switch (rl) {
	case TLSX_RL_AUTO:
		return "auto";
	case TLSX_RL_TLSX:
		return "tlsx";
	case TLSX_RL_TLS:
		return "tls";
	case TLSX_RL_USER:
		return "user";
	}
	return "unknown";
}

const char *tlsx_alert_string(int alert)
{
	return tlsx_alert_name(alert);
}
