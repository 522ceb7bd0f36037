// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx-server - a TLS 1.3 server on libtlsx, in the manner of
 * `openssl s_server`: listens, runs each handshake with libtlsx, prints
 * what was negotiated on stderr, then serves the connection: --www
 * answers an HTTP GET with a page of the negotiated parameters, --echo
 * sends back what arrives, and without either stdin and stdout are
 * relayed as with tlsx-client.
 *
 * One connection at a time, in the one process: a test or a demo needs
 * no more, and the output of one connection is not mixed with another's.
 * A failed connection is reported and the next one accepted; --once
 * serves one and exits with its status (0, or 1 after a failure).
 */
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tool.h"

enum {
	OPT_LISTEN = OPT_COMMON_END,
	OPT_WWW,
	OPT_ECHO,
	OPT_VERIFY,
	OPT_VERIFY_OPTIONAL,
	OPT_TICKETS,
	OPT_ONCE,
};

static const struct option own_longopts[] = {
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "www", no_argument, NULL, OPT_WWW },
	{ "echo", no_argument, NULL, OPT_ECHO },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "verify-optional", no_argument, NULL, OPT_VERIFY_OPTIONAL },
	{ "tickets", required_argument, NULL, OPT_TICKETS },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ NULL, 0, NULL, 0 },
};

enum serve_mode { SERVE_RELAY, SERVE_WWW, SERVE_ECHO };

struct server_opts {
	struct tool_opts t;
	const char *listen;
	enum serve_mode mode;
	bool verify, verify_optional, once;
	int tickets;		/* -1: libtlsx's default */
};

static void print_help(FILE *f)
{
	fprintf(f,
"usage: tlsx-server --cert FILE --key FILE [--listen ADDR:PORT]\n"
"                   [--www | --echo] [OPTIONS]\n"
"TLS 1.3 server (libtlsx), one connection at a time.\n"
"  --listen ADDR:PORT   default [::]:4433; \"[::1]:0\", \"127.0.0.1:0\" pick\n"
"                       a free port (printed: \"listening on ADDR:PORT\")\n"
"  --www                answer an HTTP GET with the negotiated parameters\n"
"  --echo               send back what arrives\n"
"                       (neither: relay stdin and stdout, as s_server)\n"
"  --cert/--key         repeatable: the chain whose leaf names the\n"
"                       client's SNI is sent, else the first\n"
"  --ca FILE --verify   require a client certificate from these CAs\n"
"  --verify-optional    request one, accept a client without\n"
"  --tickets N          NewSessionTickets per handshake (0: none)\n"
"  --once               serve one connection, exit with its status\n"
"%s", tool_common_help);
}

static int server_opt(void *ctx, int opt, const char *arg)
{
	struct server_opts *o = ctx;
	char *end;
	long v;

	switch (opt) {
	case OPT_LISTEN:
		o->listen = arg;
		break;
	case OPT_WWW:
	case OPT_ECHO:
		if (o->mode != SERVE_RELAY) {
			tool_err("--www or --echo, not both");
			return -1;
		}
		o->mode = opt == OPT_WWW ? SERVE_WWW : SERVE_ECHO;
		break;
	case OPT_VERIFY:
		o->verify = true;
		break;
	case OPT_VERIFY_OPTIONAL:
		o->verify_optional = true;
		break;
	case OPT_TICKETS:
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 0 || v > 16) {
			tool_err("--tickets: \"%s\" is not 0..16", arg);
			return -1;
		}
		o->tickets = (int)v;
		break;
	case OPT_ONCE:
		o->once = true;
		break;
	}
	return 0;
}

/* 0 to go on, 1 after an error, 2 after --help. */
static int parse_args(struct server_opts *o, int argc, char **argv)
{
	int ret;

	o->tickets = -1;
	o->listen = "[::]:4433";
	ret = tool_parse_args(&o->t, argc, argv, own_longopts, server_opt, o,
			      print_help);
	if (ret)
		return ret;
	if (optind != argc) {
		tool_err("unexpected argument \"%s\" (--help)", argv[optind]);
		return 1;
	}
	if (!o->t.n_cert) {
		tool_err("--cert FILE --key FILE is required");
		return 1;
	}
	if ((o->verify || o->verify_optional) && !o->t.ca) {
		tool_err("--verify needs --ca FILE");
		return 1;
	}
	return 0;
}

/* "ADDR:PORT", "[V6]:PORT", ":PORT" or "PORT" into host and port. */
static int split_listen(const char *arg, char *host, size_t cap,
			const char **port)
{
	const char *colon = strrchr(arg, ':');
	size_t n;

	if (!colon) {
		host[0] = '\0';
		*port = arg;
		return 0;
	}
	*port = colon + 1;
	n = (size_t)(colon - arg);
	if (n >= 2 && arg[0] == '[' && arg[n - 1] == ']') {
		arg++;
		n -= 2;
	}
	if (n >= cap)
		return -1;
	memcpy(host, arg, n);
	host[n] = '\0';
	return 0;
}

static int listen_one(int fd, const struct addrinfo *ai)
{
	int one = 1;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 16))
		return -1;
	return 0;
}

static int listen_on(const struct server_opts *o)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	const struct addrinfo *ai;
	struct addrinfo *res;
	char host[256], addr[NI_MAXHOST], serv[NI_MAXSERV];
	const char *port;
	int fd, err;

	if (split_listen(o->listen, host, sizeof(host), &port) || !*port) {
		tool_err("--listen %s: not ADDR:PORT", o->listen);
		return -1;
	}
	err = getaddrinfo(*host ? host : NULL, port, &hints, &res);
	if (err) {
		tool_err("--listen %s: %s", o->listen, gai_strerror(err));
		return -1;
	}
	fd = tool_socket_first(res, listen_one, &ai);
	err = errno;
	freeaddrinfo(res);
	if (fd < 0) {
		tool_err("--listen %s: %s", o->listen, strerror(err));
		return -1;
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) ||
	    getnameinfo((struct sockaddr *)&ss, sl, addr, sizeof(addr), serv,
			sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV)) {
		tool_err("--listen %s: getsockname failed", o->listen);
		close(fd);
		return -1;
	}
	/* Always printed, --quiet or not: a test reads the port from it. */
	fprintf(stderr, "listening on %s%s%s:%s\n",
		ss.ss_family == AF_INET6 ? "[" : "", addr,
		ss.ss_family == AF_INET6 ? "]" : "", serv);
	return fd;
}

static int server_config(void *ctx, struct tlsx_config *cfg)
{
	const struct server_opts *o = ctx;
	int rc = 0;

	if (o->verify || o->verify_optional)
		rc = tlsx_config_set_verify_peer(cfg, true, o->verify);
	if (rc) {
		tool_err("--verify: %s", tlsx_strerror(rc));
		return 1;
	}
	if (o->tickets >= 0)
		rc = tlsx_config_set_tickets(cfg, (unsigned int)o->tickets,
					     7200, 86400);
	if (rc) {
		tool_err("--tickets: %s", *tlsx_config_error(cfg) ?
			 tlsx_config_error(cfg) : tlsx_strerror(rc));
		return 1;
	}
	return 0;
}

/* The request as text in the page: markup and CRs left out. */
static size_t put_request(char *dst, size_t cap, const char *req)
{
	size_t n = 0;

	for (; *req && n + 1 < cap; req++) {
		if (*req == '\r')
			continue;
		dst[n++] = strchr("<>&", *req) ? '.' : *req;
	}
	dst[n] = '\0';
	return n;
}

/*
 * --www: the request up to its blank line (bounded), then a page with
 * the facts and the request, as `openssl s_server -www` and gnutls-serv
 * --http answer.
 */
static int serve_www(const struct server_opts *o, struct tlsx_conn *c)
{
	static char req[8192], body[12288], resp[16384];
	size_t len = 0, blen;
	ssize_t n;
	int head, err;

	while (len < sizeof(req) - 1) {
		n = tool_read(&o->t, c, req + len, sizeof(req) - 1 - len);
		if (n <= 0) {
			if (n == 0 && !len)
				return tool_shutdown(&o->t, c);
			if (n < 0)
				return tool_conn_fail(c, "www", (int)n);
			tool_err("www: the connection ended before a request");
			return 1;
		}
		len += (size_t)n;
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	if (strncmp(req, "GET ", 4)) {
		blen = (size_t)snprintf(body, sizeof(body), "Bad Request\n");
		head = snprintf(resp, sizeof(resp),
				"HTTP/1.0 400 Bad Request\r\n"
				"Content-Type: text/plain\r\n");
	} else {
		blen = (size_t)snprintf(body, sizeof(body),
					"<html><body><pre>\ntlsx-server\n");
		blen += tool_describe(c, body + blen, sizeof(body) - blen - 64,
				      "\n");
		blen += (size_t)snprintf(body + blen, sizeof(body) - blen,
					 "request:\n");
		blen += put_request(body + blen, sizeof(body) - blen - 64, req);
		blen += (size_t)snprintf(body + blen, sizeof(body) - blen,
					 "</pre></body></html>\n");
		head = snprintf(resp, sizeof(resp),
				"HTTP/1.0 200 OK\r\n"
				"Content-Type: text/html\r\n");
	}
	head += snprintf(resp + head, sizeof(resp) - head,
			 "Connection: close\r\nContent-Length: %zu\r\n\r\n%s",
			 blen, body);
	if ((size_t)head >= sizeof(resp)) {
		tool_err("www: page too large");
		return 1;
	}
	err = tool_write_all(c, resp, (size_t)head);
	if (err)
		return tool_conn_fail(c, "www", err);
	return tool_shutdown(&o->t, c);
}

static int server_exchange(void *ctx, struct tlsx_conn *c)
{
	const struct server_opts *o = ctx;
	int ret;

	switch (o->mode) {
	case SERVE_WWW:
		return serve_www(o, c);
	case SERVE_ECHO:
		return tool_echo(&o->t, c);
	default:
		/*
		 * A client that half-closes first (gnutls-cli at its EOF)
		 * still gets our stdin (6.1); a close without close_notify
		 * is a warning, as on the client.
		 */
		ret = tool_relay(&o->t, c, TOOL_RELAY_OUTLIVE);
		return ret == TOOL_RELAY_TRUNCATED ? 0 : ret;
	}
}

static const struct tool_conn_ops server_ops = {
	.exchange = server_exchange,
};

int main(int argc, char **argv)
{
	static struct server_opts o;
	struct tlsx_config *cfg;
	int lfd, fd, ret = 0;

	tool_name = "tlsx-server";
	/* A client that resets must not kill the server (libtlsx's note). */
	signal(SIGPIPE, SIG_IGN);
	ret = parse_args(&o, argc, argv);
	if (ret)
		return ret == 2 ? 0 : 1;
	cfg = tool_config(TLSX_ROLE_SERVER, &o.t, server_config, &o);
	if (!cfg)
		return 1;
	lfd = listen_on(&o);
	if (lfd < 0) {
		tlsx_config_free(cfg);
		return 1;
	}
	for (;;) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			tool_err("accept: %s", strerror(errno));
			ret = 1;
			break;
		}
		tool_nodelay(fd);
		ret = tool_conn_run(&o.t, cfg, fd, &server_ops, &o);
		tool_note(&o.t, "connection closed: %s",
			  ret ? "FAILED" : "ok");
		close(fd);
		if (o.once)
			break;
	}
	close(lfd);
	tlsx_config_free(cfg);
	return ret;
}
