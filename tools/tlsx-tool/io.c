// SPDX-License-Identifier: GPL-2.0
/*
 * io.c - moving bytes after the handshake: the s_client-style relay
 * between stdin/stdout and the connection, the echo loop, the closing.
 *
 * The fd stays blocking, so writes, KeyUpdates and close_notify go out
 * whole.  Reading is the one subtle part: the userspace record layer may
 * hold whole records it read ahead, which poll(2) on the fd cannot see.
 * So when the fd is readable the connection is drained with the fd
 * switched to non-blocking, until libtlsx itself says TLSX_WANT_READ
 * (its buffer is empty and so is the socket's).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

#define IO_BUF		(16 * 1024 + 256)

static int set_nonblock(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl);
}

static int idle_ms(const struct tool_opts *o)
{
	return o->timeout ? (int)o->timeout * 1000 : -1;
}

static int fail(const struct tlsx_conn *c, const char *what, ssize_t rc)
{
	return tool_conn_fail(c, what, (int)rc);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int tool_handshake(const struct tool_opts *o, struct tlsx_conn *c)
{
	struct pollfd p = { .fd = tlsx_conn_fd(c) };
	long long end = now_ms() + o->timeout * 1000LL;
	int rc, left;

	if (set_nonblock(p.fd, true))
		return TLSX_E_SYSCALL;
	for (;;) {
		rc = tlsx_conn_step(c);
		if (rc != TLSX_WANT_READ && rc != TLSX_WANT_WRITE)
			break;
		p.events = rc == TLSX_WANT_READ ? POLLIN : POLLOUT;
		left = o->timeout ? (int)(end - now_ms()) : -1;
		if (o->timeout && left <= 0) {
			rc = TOOL_E_TIMEOUT;
			break;
		}
		if (poll(&p, 1, left) < 0 && errno != EINTR) {
			rc = TLSX_E_SYSCALL;
			break;
		}
	}
	set_nonblock(p.fd, false);
	return rc;
}

ssize_t tool_read(const struct tool_opts *o, struct tlsx_conn *c, void *buf,
		  size_t len)
{
	struct pollfd p = { .fd = tlsx_conn_fd(c), .events = POLLIN };
	ssize_t n;

	if (set_nonblock(p.fd, true))
		return TLSX_E_SYSCALL;
	for (;;) {
		n = tlsx_read(c, buf, len);
		/* A bounded call returned with records still kept. */
		if (n == TLSX_WANT_READ && tlsx_pending(c))
			continue;
		if (n != TLSX_WANT_READ && n != TLSX_WANT_WRITE)
			break;
		/* WANT_WRITE: a KeyUpdate the peer asked for is owed. */
		p.events = n == TLSX_WANT_READ ? POLLIN : POLLOUT;
		n = poll(&p, 1, idle_ms(o));
		if (n < 0 && errno != EINTR) {
			n = TLSX_E_SYSCALL;
			break;
		}
		if (!n) {
			n = TOOL_E_TIMEOUT;
			break;
		}
	}
	set_nonblock(p.fd, false);
	return n;
}

int tool_write_all(struct tlsx_conn *c, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = tlsx_write(c, p, len);
		if (n < 0)
			return (int)n;
		p += n;
		len -= (size_t)n;
	}
	return tlsx_conn_flush(c);
}

static int write_fd(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Everything readable now, to stdout.  0 when more may come, 1 at the
 * peer's close_notify, or an error.  A KeyUpdate the peer asked for that
 * the socket had no room for (TLSX_WANT_WRITE) is paid by a blocking
 * flush, as our writes block; the flush after the loop pushes the rest.
 */
static int drain(struct tlsx_conn *c, bool can_send)
{
	static char buf[IO_BUF];
	int fd = tlsx_conn_fd(c), ret;
	ssize_t n;

	if (set_nonblock(fd, true))
		return TLSX_E_SYSCALL;
	for (;;) {
		n = tlsx_read(c, buf, sizeof(buf));
		if (n == TLSX_WANT_READ && tlsx_pending(c))
			continue;
		if (n == TLSX_WANT_WRITE && can_send) {
			set_nonblock(fd, false);
			ret = tlsx_conn_flush(c);
			if (ret)
				return ret;
			set_nonblock(fd, true);
			continue;
		}
		if (n <= 0)
			break;
		if (write_fd(STDOUT_FILENO, buf, (size_t)n)) {
			set_nonblock(fd, false);
			tool_err("stdout: %s", strerror(errno));
			return TLSX_E_SYSCALL;
		}
	}
	set_nonblock(fd, false);
	if (n == TLSX_WANT_READ)
		ret = 0;
	else if (n == 0)
		ret = 1;
	else
		return (int)n;
	if (can_send) {
		int err = tlsx_conn_flush(c);

		if (err)
			return err;
	}
	return ret;
}

struct relay {
	const struct tool_opts *o;
	struct tlsx_conn *c;
	bool in_open, sent_close;
	char line[IO_BUF];
	size_t line_len;
};

static int send_close(struct relay *r, const char *why)
{
	int err;

	if (r->sent_close)
		return 0;
	err = tlsx_close(r->c);
	if (err)
		return err;
	r->sent_close = true;
	tool_note(r->o, "%s: sent close_notify", why);
	return 0;
}

/* An --interactive line: a command, or data. */
static int line_out(struct relay *r, const char *s, size_t len)
{
	size_t n = len;
	int err;

	if (n && s[n - 1] == '\n')
		n--;
	if (n && s[n - 1] == '\r')
		n--;
	if (n == 1 && (s[0] == 'k' || s[0] == 'K')) {
		err = tlsx_conn_key_update(r->c, s[0] == 'K');
		if (!err)
			tool_note(r->o, "KeyUpdate sent%s",
				  s[0] == 'K' ? " (update_requested)" : "");
		return err;
	}
	if (n == 1 && s[0] == 'Q') {
		r->in_open = false;
		return send_close(r, "Q");
	}
	return tool_write_all(r->c, s, len);
}

static int lines_out(struct relay *r, bool at_eof)
{
	size_t start = 0, i;
	int err;

	for (i = 0; i < r->line_len; i++) {
		if (r->line[i] != '\n')
			continue;
		err = line_out(r, r->line + start, i + 1 - start);
		if (err)
			return err;
		start = i + 1;
		if (r->sent_close)
			break;
	}
	if (r->sent_close) {
		r->line_len = 0;
		return 0;
	}
	memmove(r->line, r->line + start, r->line_len - start);
	r->line_len -= start;
	/* A line longer than the buffer, or the last one, is plain data. */
	if (r->line_len && (at_eof || r->line_len == sizeof(r->line))) {
		err = tool_write_all(r->c, r->line, r->line_len);
		r->line_len = 0;
		return err;
	}
	return 0;
}

static int stdin_eof(struct relay *r, bool ign_eof)
{
	r->in_open = false;
	if (r->o->interactive) {
		int err = lines_out(r, true);

		if (err)
			return err;
	}
	if (ign_eof || r->sent_close)
		return 0;
	return send_close(r, "stdin EOF");
}

static void cork(struct tlsx_conn *c, int on)
{
	setsockopt(tlsx_conn_fd(c), IPPROTO_TCP, TCP_CORK, &on, sizeof(on));
}

/*
 * Data read from stdin, sent; when stdin's end is already there (a
 * pipe whose writer is gone, a file), the close_notify goes out in the
 * same TCP segment (TCP_CORK), as TCP sends a FIN with the last data.
 * A server that reads the request then reads the close_notify with it:
 * one sent in a segment of its own may arrive after the server's last
 * read, and nginx, which closes a "Connection: close" exchange without
 * reading on, then resets the connection over the unread close_notify
 * and its own unsent response (without the cork, 8 to 14 of the 20
 * runs of interop's close-client-nginx, a 60 KB body, were cut off so).
 * One look ahead, no more: a producer that keeps stdin readable is sent
 * as it comes.
 */
static int send_stdin(struct relay *r, const char *buf, size_t len,
		      bool ign_eof)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	static char more[IO_BUF];
	ssize_t n;
	int err;

	cork(r->c, 1);
	err = tool_write_all(r->c, buf, len);
	if (!err && poll(&p, 1, 0) == 1) {
		n = read(STDIN_FILENO, more, sizeof(more));
		if (n > 0)
			err = tool_write_all(r->c, more, (size_t)n);
		else if (!n)
			err = stdin_eof(r, ign_eof);
		/* An error shows again at the next read. */
	}
	cork(r->c, 0);
	return err;
}

static int from_stdin(struct relay *r, bool ign_eof)
{
	static char buf[IO_BUF];
	ssize_t n;

	if (!r->o->interactive) {
		n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n > 0)
			return send_stdin(r, buf, (size_t)n, ign_eof);
	} else {
		n = read(STDIN_FILENO, r->line + r->line_len,
			 sizeof(r->line) - r->line_len);
		if (n > 0) {
			r->line_len += (size_t)n;
			return lines_out(r, false);
		}
	}
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN)
			return 0;
		tool_err("stdin: %s", strerror(errno));
		return TLSX_E_SYSCALL;
	}
	return stdin_eof(r, ign_eof);
}

/*
 * After the peer's close_notify (tlsx-server, @flags TOOL_RELAY_OUTLIVE):
 * RFC 8446 6.1 closes only the peer's write side, so what stdin still
 * holds is owed to it.  Only stdin is watched now (the socket stays
 * readable at its EOF); our close_notify goes out at stdin's EOF or "Q".
 */
static int relay_rest(struct relay *r)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	int n, err = 0;

	while (r->in_open && !r->sent_close && !err) {
		n = poll(&p, 1, idle_ms(r->o));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			tool_err("poll: %s", strerror(errno));
			return TLSX_E_SYSCALL;
		}
		if (!n)
			return TOOL_E_TIMEOUT;
		err = from_stdin(r, false);
	}
	return err;
}

int tool_relay(const struct tool_opts *o, struct tlsx_conn *c,
	       unsigned int flags)
{
	static struct relay r;
	bool ign_eof = flags & TOOL_RELAY_IGN_EOF;
	struct pollfd p[2];
	int n, err;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.c = c;
	r.in_open = true;
	/* Records that came with the last handshake flight first. */
	err = drain(c, true);
	while (err == 0) {
		p[0].fd = tlsx_conn_fd(c);
		p[0].events = POLLIN;
		p[1].fd = STDIN_FILENO;
		p[1].events = POLLIN;
		n = poll(p, r.in_open ? 2 : 1, idle_ms(o));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			tool_err("poll: %s", strerror(errno));
			return 1;
		}
		if (!n)
			return fail(c, "connection", TOOL_E_TIMEOUT);
		if (p[0].revents) {
			err = drain(c, !r.sent_close);
			if (err)
				break;
		}
		if (r.in_open && p[1].revents)
			err = from_stdin(&r, ign_eof);
	}
	if (err == TLSX_E_EOF) {
		/*
		 * A TCP close without close_notify: everything before it
		 * was authenticated, but the peer may have been cut off
		 * (6.1).  nginx closes so after the client's close_notify:
		 * whether the data is whole is for the caller to judge
		 * (HTTP's Content-Length), so it is a warning and a status
		 * of its own, not a failure.  Nothing can be sent now.
		 */
		fprintf(stderr, "%s: warning: %s (possible truncation)\n",
			tool_name, tlsx_strerror(TLSX_E_EOF));
		return TOOL_RELAY_TRUNCATED;
	}
	if (err < 0)
		return fail(c, "connection", err);
	if (flags & TOOL_RELAY_OUTLIVE) {
		tool_note(o, "peer's close_notify: relaying stdin until its end");
		err = relay_rest(&r);
		if (err)
			return fail(c, "connection", err);
	}
	/*
	 * 6.1: the peer's close_notify is answered with ours.  A peer that
	 * closed TCP at once (s_server, nginx) may have reset the
	 * connection by now: all it sent has arrived, so that is no
	 * failure.
	 */
	err = send_close(&r, "peer's close_notify");
	if (err == TLSX_E_SYSCALL && (tlsx_conn_errno(c) == EPIPE ||
				      tlsx_conn_errno(c) == ECONNRESET)) {
		tool_note(o, "peer's close_notify: the peer is gone (%s)",
			  strerror(tlsx_conn_errno(c)));
		return 0;
	}
	if (err)
		return fail(c, "close", err);
	return 0;
}

int tool_echo(const struct tool_opts *o, struct tlsx_conn *c)
{
	static char buf[IO_BUF];
	ssize_t n;
	int err;

	for (;;) {
		n = tool_read(o, c, buf, sizeof(buf));
		if (n <= 0)
			break;
		err = tool_write_all(c, buf, (size_t)n);
		if (err)
			return fail(c, "echo", err);
	}
	if (n < 0)
		return fail(c, "echo", n);
	err = tlsx_close(c);
	if (err)
		return fail(c, "close", err);
	return 0;
}

int tool_shutdown(const struct tool_opts *o, struct tlsx_conn *c)
{
	struct tool_opts linger = *o;
	static char buf[IO_BUF];
	ssize_t n;
	int err = tlsx_close(c);

	if (err)
		return fail(c, "close", err);
	/*
	 * Read what the peer still sends (its close_notify) rather than
	 * close with unread bytes, which resets the connection and can cost
	 * the peer our last records; but not for long.
	 */
	shutdown(tlsx_conn_fd(c), SHUT_WR);
	linger.timeout = 2;
	do {
		n = tool_read(&linger, c, buf, sizeof(buf));
	} while (n > 0);
	return 0;
}
