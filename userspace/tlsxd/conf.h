/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conf.h - tlsxd's configuration: the command line
 * (`tlsxd --listen ADDR:PORT --root DIR --cert FILE --key FILE ...`) and
 * the configuration file (`--config FILE`, docs/tlsxd-config.md), the one
 * struct both fill.  The command line wins over the file.
 */
#ifndef TLSXD_CONF_H
#define TLSXD_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "handshake/libtlsx/tlsx.h"
#include "http_req.h"
#include "log.h"
#include "resp.h"

#define TLSXD_VERSION	TLSX_VERSION_STRING

#define CONF_LISTEN_MAX	8
#define CONF_CERT_MAX	16

struct conf_cert {
	char *cert_file;	/* PEM chain, leaf first */
	char *key_file;
};

enum conf_body {
	CONF_BODY_AUTO,		/* the measured faster one (docs/perf-http.md) */
	CONF_BODY_SENDFILE,	/* sendfile(2) */
	CONF_BODY_SPLICE,	/* IORING_OP_SPLICE file -> pipe -> socket */
};

struct tlsxd_conf {
	char *listen[CONF_LISTEN_MAX];	/* "0.0.0.0:8443", "[::1]:8443", ":8443" */
	unsigned int nlisten;
	/* Bit i: listen[i] reads a PROXY protocol header first (fleet). */
	unsigned int listen_proxy;
	char *metrics;			/* "ADDR:PORT" of /metrics; NULL: off */
	bool ticket_keys_watch;		/* re-read ticket-keys when it changes */
	char *root;
	/* Server names pick a chain by its leaf's names (libtlsx's SNI). */
	struct conf_cert certs[CONF_CERT_MAX];
	unsigned int ncerts;
	char *ticket_key_file;		/* nginx format; NULL: random, rotated */
	unsigned int workers;		/* 0: one per online CPU */
	char *user;			/* setuid/setgid to it after binding */
	char *access_log;		/* a path, "-" for stdout, NULL: off */
	enum access_log_format access_log_format;	/* default combined */
	char *error_log;		/* a path; NULL: stderr */
	char *mime_types;		/* NULL: /etc/mime.types */
	char *pid_file;
	enum tlsx_record_layer record_layer;	/* --record-layer */
	char *groups;			/* --groups; NULL: libtlsx's defaults */
	enum conf_body body;		/* --body sendfile|splice */
	bool allow_hidden;
	bool precompressed;		/* default on */
	bool http2;			/* ALPN h2 offered, default on */
	bool debug;			/* per-connection log lines */
	bool systemd;			/* LISTEN_FDS seen (set by main) */
	struct http_limits http;
	unsigned int ranges_max;	/* default 16 */
	unsigned int max_conns;		/* per worker; default 4096 */
	unsigned int open_file_cache;	/* files kept open per worker, 0: off */
	unsigned int keepalive_requests;	/* default 1000 */
	unsigned int handshake_timeout_ms;	/* default 10000 */
	unsigned int header_timeout_ms;	/* default 10000: slowloris */
	unsigned int idle_timeout_ms;	/* keep-alive, default 60000 */
	unsigned int send_timeout_ms;	/* no progress sending, 60000 */
	unsigned int h2_settings_timeout_ms;	/* SETTINGS ACK (h2), 10000 */
	unsigned int drain_timeout_ms;	/* SIGTERM, default 10000 */
	/* add-header NAME VALUE [always], in the order given. */
	struct resp_header headers[RESP_HEADERS_MAX];
	unsigned int nheaders;
	/*
	 * conf.c's own: which source (the command line, or one file) set
	 * the lists above, so that a later source replaces a list rather
	 * than appending to it.
	 */
	unsigned int listen_src, cert_src, header_src, src_next;
};

/* The defaults above. */
void conf_init(struct tlsxd_conf *c);

/*
 * Parses @argv.  Returns 0 (go on), 1 (--help or --version was printed:
 * exit 0), or -1 with a message ("--listen: bad port \"x\"") in @err.
 * --config FILE is read where it appears, so options after it override.
 */
int conf_parse_args(struct tlsxd_conf *c, int argc, char **argv, char *err,
		    size_t errlen);

/*
 * Reads a configuration file: one directive per line, "#" comments,
 * "key value..." (the long option names without "--": "listen
 * 0.0.0.0:8443", "cert FILE KEY", "root DIR", "workers 2", ...).  -1 with
 * "FILE:LINE: message" in @err.
 */
int conf_load_file(struct tlsxd_conf *c, const char *path, char *err,
		   size_t errlen);

/* After parsing: what must be there (a listener, a root, a certificate). */
int conf_check(const struct tlsxd_conf *c, char *err, size_t errlen);

void conf_free(struct tlsxd_conf *c);

/*
 * A listen address: "0.0.0.0:8443", "[::1]:8443", or ":8443" (every
 * address, IPv6 dual-stack: *@any_v6 set).  Numeric only (no name is
 * resolved).  0, or -1 with a message in @err.
 */
int conf_parse_listen(const char *s, struct sockaddr_storage *ss,
		      socklen_t *len, char *err, size_t errlen);

/* "500" and "500ms" are milliseconds, "10s" seconds.  0 or -1. */
int conf_parse_ms(const char *s, unsigned int *ms);

/*
 * The name of the @i-th option of conf.c's table ("listen", ...), NULL
 * past the last: the tests walk the table with it.
 */
const char *conf_option_name(unsigned int i);

/* Two optional strings equal (both NULL, or the same text). */
static inline bool conf_same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The usage text (--help). */
extern const char conf_usage[];

#endif
