// SPDX-License-Identifier: GPL-2.0
/*
 * driver.c - one connection of a BoGo test: connect to the runner and
 * send the shim id (PORTING.md: the shim is the TCP client in both TLS
 * roles, the id a 64-bit little-endian integer), run libtlsx's
 * handshake, check the expectations, then the runner's exchange: the
 * shim echoes every byte it reads XORed with 0xff until the runner's
 * close_notify, and answers it with its own.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "shim.h"

/* The runner's shimInitialWrite: what -shim-writes-first sends. */
#define SHIM_FIRST_WRITE	"hello"

void shim_report(const char *step, struct tlsx_conn *c, int err)
{
	int alert = c ? tlsx_conn_alert(c) : -1;
	const char *reason = c ? tlsx_conn_reason(c) : NULL;
	const char *name = alert >= 0 ? tlsx_alert_string(alert) : NULL;

	fprintf(stderr, "%s: %s", step, tlsx_strerror(err));
	/* The config's ErrorMap matches these words (tools/bogo/config.json). */
	if (err == TLSX_E_ALERT_RECEIVED)
		fprintf(stderr, " alert=%s(%d) received alert=%s received",
			name ? name : "unknown", alert, name ? name : "unknown");
	else if (alert >= 0)
		fprintf(stderr, " alert=%s sent", name ? name : "unknown");
	if (reason)
		fprintf(stderr, " reason=%s", reason);
	if (err == TLSX_E_SYSCALL && c)
		fprintf(stderr, " errno=%s", strerror(tlsx_conn_errno(c)));
	fputc('\n', stderr);
}

static int runner_connect(const struct shim_opts *o)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in a4 = { .sin_family = AF_INET };
	uint64_t id = (uint64_t)o->shim_id;
	unsigned char id_le[8];
	int fd, one = 1, i;

	fd = socket(o->ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	a6.sin6_port = htons(o->port);
	a6.sin6_addr = in6addr_loopback;
	a4.sin_port = htons(o->port);
	a4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((o->ipv6 ? connect(fd, (struct sockaddr *)&a6, sizeof(a6)) :
		       connect(fd, (struct sockaddr *)&a4, sizeof(a4))) < 0)
		goto fail;
	/* The runner's tests time each flight: no Nagle delay. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (i = 0; i < 8; i++)
		id_le[i] = (id >> (8 * i)) & 0xff;
	if (write(fd, id_le, sizeof(id_le)) != sizeof(id_le))
		goto fail;
	if (o->async && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK))
		goto fail;
	return fd;
fail:
	perror("connect to the runner");
	close(fd);
	return -1;
}

/* -async: wait as an event loop would, then call again. */
static bool wait_fd(struct tlsx_conn *c, int rc)
{
	struct pollfd p = { .fd = tlsx_conn_fd(c) };

	if (rc != TLSX_WANT_READ && rc != TLSX_WANT_WRITE)
		return false;
	p.events = rc == TLSX_WANT_READ ? POLLIN : POLLOUT;
	return poll(&p, 1, 30000) >= 0;
}

static int write_all(struct tlsx_conn *c,
		     const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = tlsx_write(c, buf, len);

		if (n < 0) {
			if (wait_fd(c, (int)n))
				continue;
			shim_report("write", c, (int)n);
			return -1;
		}
		buf += n;
		len -= n;
	}
	while (tlsx_conn_want_write(c)) {
		int rc = tlsx_conn_flush(c);

		if (rc && !wait_fd(c, rc)) {
			shim_report("flush", c, rc);
			return -1;
		}
	}
	return 0;
}

static ssize_t read_some(struct tlsx_conn *c, unsigned char *buf, size_t len)
{
	for (;;) {
		ssize_t n = tlsx_read(c, buf, len);

		/*
		 * tlsx_read() stops after 16 records without data; what is
		 * left is already inside libtlsx (tlsx_pending()): call
		 * again rather than wait for the socket.
		 */
		if (n == TLSX_WANT_READ && tlsx_pending(c))
			continue;
		if (n >= 0 || !wait_fd(c, (int)n))
			return n;
	}
}

static int close_notify(struct tlsx_conn *c)
{
	int rc;

	while ((rc = tlsx_close(c)) && wait_fd(c, rc))
		;
	return rc;
}

/* The shim closes first (-shim-shuts-down): then waits for the reply. */
static int shim_shutdown(const struct shim_opts *o, struct tlsx_conn *c)
{
	unsigned char buf[256];
	ssize_t n;
	int rc = close_notify(c);

	if (rc) {
		shim_report("close", c, rc);
		return -1;
	}
	if (!o->check_close_notify)
		return 0;
	while ((n = read_some(c, buf, sizeof(buf))) > 0)
		;
	if (n < 0) {
		shim_report("close: no close_notify from the peer", c, (int)n);
		return -1;
	}
	return 0;
}

static int exchange(const struct shim_opts *o, struct tlsx_conn *c)
{
	size_t want = o->read_size > 0 ? (size_t)o->read_size : 16384;
	static unsigned char buf[16384];
	ssize_t n;
	size_t i;

	if (want > sizeof(buf))
		want = sizeof(buf);
	if (o->key_update) {
		int rc = tlsx_conn_key_update(c, false);

		if (rc) {
			shim_report("key update", c, rc);
			return -1;
		}
	}
	if (o->shim_writes_first &&
	    write_all(c, (const unsigned char *)SHIM_FIRST_WRITE,
		      strlen(SHIM_FIRST_WRITE)))
		return -1;
	if (o->shim_shuts_down)
		return shim_shutdown(o, c);
	while ((n = read_some(c, buf, want)) > 0) {
		for (i = 0; i < (size_t)n; i++)
			buf[i] ^= 0xff;
		if (write_all(c, buf, n))
			return -1;
	}
	/*
	 * A TCP close without close_notify (RFC 8446 6.1: a truncation)
	 * ends the exchange too unless the test checks the close.
	 */
	if (n < 0 && !(n == TLSX_E_EOF && !o->check_close_notify)) {
		shim_report("read", c, (int)n);
		return -1;
	}
	if (n == 0) {
		/* The peer's close_notify: ours in reply (6.1). */
		int rc = close_notify(c);

		if (rc && o->check_close_notify) {
			shim_report("close", c, rc);
			return -1;
		}
	}
	return 0;
}

static int handshake(struct tlsx_conn *c)
{
	int rc;

	while ((rc = tlsx_conn_step(c)) != TLSX_DONE)
		if (!wait_fd(c, rc))
			return rc;
	return 0;
}

int shim_connection(const struct shim_opts *o, struct tlsx_config *cfg,
		    bool is_resume, uint8_t *sess, size_t *sess_len)
{
	struct tlsx_conn *c = NULL;
	int fd, rc, ret = -1;
	size_t len;

	fd = runner_connect(o);
	if (fd < 0)
		return -1;
	c = tlsx_conn_new(cfg, fd);
	if (!c) {
		fprintf(stderr, "connection: %s\n", tlsx_config_error(cfg));
		goto out;
	}
	if (!o->server && o->host_name &&
	    tlsx_conn_set_server_name(c, o->host_name)) {
		fprintf(stderr, "connection: bad -host-name\n");
		goto out;
	}
	if (!o->server && *sess_len &&
	    tlsx_conn_set_session(c, sess, *sess_len)) {
		fprintf(stderr, "connection: session refused\n");
		goto out;
	}
	rc = handshake(c);
	if (rc) {
		shim_report("handshake", c, rc);
		goto out;
	}
	if (shim_expect(o, c, is_resume) || exchange(o, c))
		goto out;
	if (!o->server) {
		rc = tlsx_conn_session(c, sess, SHIM_SESSION_MAX, &len);
		if (o->expect_no_session && rc != TLSX_E_NO_SESSION) {
			fprintf(stderr, "expect: no session, got one\n");
			goto out;
		}
		/* A resumption without a new ticket keeps the old one. */
		if (!rc)
			*sess_len = len;
	}
	ret = 0;
out:
	tlsx_conn_free(c);
	close(fd);
	return ret;
}
