// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx-client - a TLS 1.3 client on libtlsx, in the manner of
 * `openssl s_client`: connects to HOST PORT, runs the handshake, hands
 * the keys to a record layer, prints what was negotiated on stderr, then
 * relays stdin to the connection and the connection to stdout.
 *
 * At EOF on stdin it sends close_notify and goes on reading until the
 * peer's close_notify (TLS 1.3 allows the half-close, RFC 8446 6.1), so
 * `printf 'GET / ...' | tlsx-client` prints the whole answer; with
 * --ign-eof it sends nothing at EOF and waits for the peer to close
 * (s_client -ign_eof).  The peer's close_notify ends the relay (ours
 * answers it), as s_client and gnutls-cli end there.
 *
 * A peer that closes TCP without close_notify gets a warning (possible
 * truncation) and exit status 0: nginx does so after the client's
 * close_notify, and an HTTP client judges completeness by the message's
 * framing.  --strict makes it exit status 3.  The session a
 * NewSessionTicket gave is saved (--sess-out) whatever the end, once the
 * handshake is done.  Exit status 1 with a one-line message on any
 * failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tool.h"

enum {
	OPT_INSECURE = OPT_COMMON_END,
	OPT_NAME,
	OPT_SESS_OUT,
	OPT_SESS_IN,
	OPT_IGN_EOF,
	OPT_STRICT,
};

static const struct option own_longopts[] = {
	{ "insecure", no_argument, NULL, OPT_INSECURE },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "sess-out", required_argument, NULL, OPT_SESS_OUT },
	{ "sess-in", required_argument, NULL, OPT_SESS_IN },
	{ "ign-eof", no_argument, NULL, OPT_IGN_EOF },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ NULL, 0, NULL, 0 },
};

struct client_opts {
	struct tool_opts t;
	bool insecure, ign_eof, strict;
	const char *name, *sess_out, *sess_in;
	const char *host, *port;
};

static void print_help(FILE *f)
{
	fprintf(f,
"usage: tlsx-client [OPTIONS] HOST PORT\n"
"TLS 1.3 client (libtlsx): handshake, then stdin -> connection -> stdout.\n"
"At EOF on stdin, close_notify is sent and the peer's awaited.\n"
"  --name SNI           server name to send and verify (default: HOST);\n"
"                       an IP address is verified against the\n"
"                       certificate's IP addresses, not sent as SNI\n"
"  --insecure           do not verify the server's certificate\n"
"  --sess-out FILE      save the session (a ticket) at the end, however\n"
"                       the connection ended after the handshake\n"
"  --sess-in FILE       resume the session saved in FILE (one saved\n"
"                       with --insecure, or for another name, is not\n"
"                       offered when verifying: a full handshake)\n"
"  --ign-eof            at EOF on stdin, send nothing: wait for the peer\n"
"                       to close\n"
"  --strict             exit 3 when the peer closes without close_notify\n"
"                       (possible truncation; else a warning, exit 0)\n"
"  --cert/--key         repeatable: the client's chains; a server's\n"
"                       CertificateRequest gets the first, in the order\n"
"                       given, that its CAs and signature algorithms\n"
"                       allow (none: an empty Certificate)\n"
"  (without --ca, below, the system bundle is trusted)\n"
"%s", tool_common_help);
}

static int client_opt(void *ctx, int opt, const char *arg)
{
	struct client_opts *o = ctx;

	switch (opt) {
	case OPT_INSECURE:
		o->insecure = true;
		break;
	case OPT_NAME:
		o->name = arg;
		break;
	case OPT_SESS_OUT:
		o->sess_out = arg;
		break;
	case OPT_SESS_IN:
		o->sess_in = arg;
		break;
	case OPT_IGN_EOF:
		o->ign_eof = true;
		break;
	case OPT_STRICT:
		o->strict = true;
		break;
	}
	return 0;
}

/* 0 to go on, 1 after an error, 2 after --help. */
static int parse_args(struct client_opts *o, int argc, char **argv)
{
	int ret = tool_parse_args(&o->t, argc, argv, own_longopts, client_opt,
				  o, print_help);

	if (ret)
		return ret;
	if (argc - optind != 2) {
		tool_err("need HOST and PORT (--help)");
		return 1;
	}
	o->host = argv[optind];
	o->port = argv[optind + 1];
	if (!o->name)
		o->name = o->host;
	return 0;
}

static int dial_one(int fd, const struct addrinfo *ai)
{
	return connect(fd, ai->ai_addr, ai->ai_addrlen);
}

/* The first address of HOST PORT that accepts: a connected fd, or -1. */
static int dial(const struct client_opts *o)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_ADDRCONFIG,
	};
	const struct addrinfo *ai;
	struct addrinfo *res;
	char addr[NI_MAXHOST];
	int fd, err;

	err = getaddrinfo(o->host, o->port, &hints, &res);
	if (err) {
		tool_err("%s port %s: %s", o->host, o->port, gai_strerror(err));
		return -1;
	}
	fd = tool_socket_first(res, dial_one, &ai);
	if (fd < 0) {
		tool_err("connect to %s port %s: %s", o->host, o->port,
			 strerror(errno));
	} else {
		tool_nodelay(fd);
		if (getnameinfo(ai->ai_addr, ai->ai_addrlen, addr, sizeof(addr),
				NULL, 0, NI_NUMERICHOST))
			snprintf(addr, sizeof(addr), "?");
		tool_note(&o->t, "connected to %s (%s) port %s", o->host, addr,
			  o->port);
	}
	freeaddrinfo(res);
	return fd;
}

static int load_session(struct tlsx_conn *c, const char *path)
{
	static uint8_t buf[16384];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0) {
		tool_err("--sess-in %s: %s", path, strerror(errno));
		return 1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || (size_t)n == sizeof(buf)) {
		tool_err("--sess-in %s: %s", path,
			 n < 0 ? strerror(errno) : "empty or too large");
		return 1;
	}
	rc = tlsx_conn_set_session(c, buf, (size_t)n);
	memset(buf, 0, sizeof(buf));
	if (rc) {
		tool_err("--sess-in %s: not a usable session (%s)", path,
			 tlsx_strerror(rc));
		return 1;
	}
	return 0;
}

/* The session holds the resumption PSK: the file is the user's only. */
static int save_session(const struct client_opts *o, struct tlsx_conn *c)
{
	static uint8_t buf[16384];
	size_t len = 0;
	int fd, rc, ret = 1;

	rc = tlsx_conn_session(c, buf, sizeof(buf), &len);
	if (rc) {
		tool_err("--sess-out %s: %s", o->sess_out,
			 rc == TLSX_E_NO_SESSION ? "the server sent no ticket" :
			 tlsx_strerror(rc));
		return 1;
	}
	fd = open(o->sess_out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		tool_err("--sess-out %s: %s", o->sess_out, strerror(errno));
	} else {
		if (write(fd, buf, len) == (ssize_t)len && !close(fd))
			ret = 0;
		else
			tool_err("--sess-out %s: write failed", o->sess_out);
		if (ret)
			close(fd);
	}
	memset(buf, 0, sizeof(buf));
	if (!ret)
		tool_note(&o->t, "session saved to %s", o->sess_out);
	return ret;
}

static int client_config(void *ctx, struct tlsx_config *cfg)
{
	const struct client_opts *o = ctx;
	int rc;

	if (o->insecure) {
		rc = tlsx_config_set_verify_peer(cfg, false, false);
		if (rc) {
			tool_err("--insecure: %s", tlsx_strerror(rc));
			return 1;
		}
	}
	return 0;
}

/* Before the handshake: the name to send and verify, --sess-in. */
static int client_prepare(void *ctx, struct tlsx_conn *c)
{
	const struct client_opts *o = ctx;
	int rc;

	rc = tlsx_conn_set_server_name(c, o->name);
	if (rc) {
		tool_err("--name %s: %s", o->name, tlsx_strerror(rc));
		return 1;
	}
	if (o->sess_in && load_session(c, o->sess_in))
		return 1;
	/* The connect deadline ends: the handshake keeps its own. */
	tool_deadline(0, "");
	return 0;
}

static int client_exchange(void *ctx, struct tlsx_conn *c)
{
	const struct client_opts *o = ctx;
	int ret;

	ret = tool_relay(&o->t, c, o->ign_eof ? TOOL_RELAY_IGN_EOF : 0);
	if (ret == TOOL_RELAY_TRUNCATED)
		ret = o->strict ? TOOL_RELAY_TRUNCATED : 0;
	return ret;
}

/*
 * The session is the handshake's and its tickets': an exchange that
 * ended badly afterwards does not make it unusable.
 */
static int client_finish(void *ctx, struct tlsx_conn *c, int status)
{
	const struct client_opts *o = ctx;

	if (o->sess_out && save_session(o, c) && !status)
		return 1;
	return status;
}

static const struct tool_conn_ops client_ops = {
	.prepare = client_prepare,
	.exchange = client_exchange,
	.finish = client_finish,
};

int main(int argc, char **argv)
{
	static struct client_opts o;
	struct tlsx_config *cfg;
	int fd, ret;

	tool_name = "tlsx-client";
	ret = parse_args(&o, argc, argv);
	if (ret)
		return ret == 2 ? 0 : 1;
	cfg = tool_config(TLSX_ROLE_CLIENT, &o.t, client_config, &o);
	if (!cfg)
		return 1;
	if (o.t.timeout)
		tool_deadline(o.t.timeout, "connect");
	fd = dial(&o);
	if (fd < 0) {
		tlsx_config_free(cfg);
		return 1;
	}
	ret = tool_conn_run(&o.t, cfg, fd, &client_ops, &o);
	close(fd);
	tlsx_config_free(cfg);
	return ret;
}
