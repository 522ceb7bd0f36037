// SPDX-License-Identifier: GPL-2.0
/*
 * conf.c - the command line and the configuration file.  One table of
 * options serves both: a long option "--name VALUE" is the file's line
 * "name VALUE" (docs/tlsxd-config.md).  Options are applied in the order
 * they come; --config FILE is read where it stands, so what follows it on
 * the command line wins.  A list (listen, cert, add-header) set again by
 * a later source replaces the earlier source's list instead of growing
 * it (as nginx's add_header in a block replaces the outer block's).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "conf.h"
#include "resp.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The command line is source 1; each file read gets the next number. */
#define SRC_ARGS	1

/* A configuration file longer than this is refused: it is not data. */
#define CONF_FILE_MAX	(1 << 20)
#define CONF_LINE_MAX	4096	/* bytes in one line */
#define CONF_TOKENS_MAX	4

enum opt_kind {
	K_STR,		/* a string, replaced */
	K_UINT,		/* an unsigned int in [min, max] */
	K_MS,		/* a duration in milliseconds, [min, max] */
	K_FLAG,		/* a bool set to true (file: optional on/off) */
	K_NOFLAG,	/* a bool set to false ("no-precompressed") */
	K_ONOFF,	/* a bool given as on or off, everywhere ("http2 off") */
	K_LISTEN,
	K_METRICS,
	K_CERT,
	K_KEY,
	K_RL,
	K_BODY,
	K_ALOG_FORMAT,
	K_HEADER,	/* add-header: NAME VALUE [always], or "NAME: VALUE" */
	K_HEADER_ALWAYS,
	K_CONFIG,
	K_HELP,
	K_VERSION,
};

struct opt {
	const char *name;
	enum opt_kind kind;
	size_t off;		/* of the field in struct tlsxd_conf */
	unsigned int min, max;
};

#define F(field) offsetof(struct tlsxd_conf, field)
#define DAY_MS	86400000u

static const struct opt opts[] = {
	{ "listen", K_LISTEN, 0, 0, 0 },
	{ "root", K_STR, F(root), 0, 0 },
	{ "cert", K_CERT, 0, 0, 0 },
	{ "key", K_KEY, 0, 0, 0 },
	{ "ticket-keys", K_STR, F(ticket_key_file), 0, 0 },
	{ "ticket-keys-watch", K_FLAG, F(ticket_keys_watch), 0, 0 },
	{ "metrics", K_METRICS, 0, 0, 0 },
	{ "workers", K_UINT, F(workers), 1, 1024 },
	{ "user", K_STR, F(user), 0, 0 },
	{ "access-log", K_STR, F(access_log), 0, 0 },
	{ "access-log-format", K_ALOG_FORMAT, 0, 0, 0 },
	{ "error-log", K_STR, F(error_log), 0, 0 },
	{ "mime-types", K_STR, F(mime_types), 0, 0 },
	{ "pid-file", K_STR, F(pid_file), 0, 0 },
	{ "record-layer", K_RL, 0, 0, 0 },
	{ "groups", K_STR, F(groups), 0, 0 },
	{ "body", K_BODY, 0, 0, 0 },
	{ "hidden", K_FLAG, F(allow_hidden), 0, 0 },
	{ "precompressed", K_FLAG, F(precompressed), 0, 0 },
	{ "no-precompressed", K_NOFLAG, F(precompressed), 0, 0 },
	{ "debug", K_FLAG, F(debug), 0, 0 },
	{ "http2", K_ONOFF, F(http2), 0, 0 },
	{ "max-conns", K_UINT, F(max_conns), 1, 1u << 20 },
	{ "open-file-cache", K_UINT, F(open_file_cache), 0, 1u << 20 },
	{ "keepalive-requests", K_UINT, F(keepalive_requests), 1, 1u << 30 },
	{ "timeout-handshake", K_MS, F(handshake_timeout_ms), 1, DAY_MS },
	{ "timeout-header", K_MS, F(header_timeout_ms), 1, DAY_MS },
	{ "timeout-idle", K_MS, F(idle_timeout_ms), 1, DAY_MS },
	{ "timeout-send", K_MS, F(send_timeout_ms), 1, DAY_MS },
	{ "timeout-h2-settings", K_MS, F(h2_settings_timeout_ms), 1, DAY_MS },
	{ "timeout-drain", K_MS, F(drain_timeout_ms), 0, DAY_MS },
	/* RFC 9112 3: at least 8000 octets of request line are advised. */
	{ "max-request-line", K_UINT, F(http.request_line_max), 16, 1u << 20 },
	{ "max-header-bytes", K_UINT, F(http.header_bytes_max), 64, 1u << 20 },
	{ "max-header-count", K_UINT, F(http.header_count_max), 1, 10000 },
	{ "max-ranges", K_UINT, F(ranges_max), 1, RESP_RANGES_MAX },
	{ "add-header", K_HEADER, 0, 0, 0 },
	{ "add-header-always", K_HEADER_ALWAYS, 0, 0, 0 },
	{ "config", K_CONFIG, 0, 0, 0 },
	{ "help", K_HELP, 0, 0, 0 },
	{ "version", K_VERSION, 0, 0, 0 },
};

#define NOPTS		ARRAY_SIZE(opts)

const char conf_usage[] =
"usage: tlsxd --listen ADDR:PORT --root DIR --cert FILE --key FILE [OPTIONS]\n"
"       tlsxd --config FILE [OPTIONS]\n"
"\n"
"  --listen ADDR:PORT     0.0.0.0:8443, [::1]:8443, :8443 (all, dual-stack);\n"
"                         repeatable (up to 8); ADDR:PORT proxy: a PROXY\n"
"                         protocol header (v1 or v2) comes first\n"
"  --root DIR             the document root\n"
"  --cert FILE --key FILE a PEM chain (leaf first) and its key; repeat the\n"
"                         pair for more server names (SNI, up to 16)\n"
"  --config FILE          read FILE (docs/tlsxd-config.md) here; options\n"
"                         after it override it\n"
"  --workers N            worker threads (default: the CPUs we may run on)\n"
"  --user NAME            drop to NAME's uid/gid after binding\n"
"  --access-log PATH      combined format; \"-\" stdout (default: off)\n"
"  --access-log-format F  combined|combined-port: the client as ADDR:PORT\n"
"                         (default combined)\n"
"  --error-log PATH       default: stderr\n"
"  --record-layer L       auto|tlsx|tls|user (default auto)\n"
"  --groups LIST          key exchange groups in preference order\n"
"                         (default X25519MLKEM768:X25519:P-256)\n"
"  --body B               auto|sendfile|splice (default auto)\n"
"  --http2 on|off         offer HTTP/2 by ALPN (h2, then http/1.1; default on)\n"
"  --max-conns N          per worker (default 4096)\n"
"  --open-file-cache N    files kept open per worker (default 1024, 0 off)\n"
"  --keepalive-requests N per connection (default 1000)\n"
"  --timeout-handshake T  T in ms, or with an s suffix (default 10s)\n"
"  --timeout-header T     the request head (default 10s)\n"
"  --timeout-idle T       keep-alive (default 60s)\n"
"  --timeout-send T       no progress sending (default 60s)\n"
"  --timeout-h2-settings T  HTTP/2: our SETTINGS unacknowledged, then\n"
"                         GOAWAY SETTINGS_TIMEOUT (default 10s)\n"
"  --timeout-drain T      SIGTERM (default 10s)\n"
"  --max-request-line N   bytes (default 8192; over: 414)\n"
"  --max-header-bytes N   the whole head (default 16384; over: 431)\n"
"  --max-header-count N   fields (default 100; over: 431)\n"
"  --max-ranges N         ranges in one Range (default 16, at most 16)\n"
"  --add-header 'NAME: VALUE'\n"
"                         a field on 200, 206, 301 and 304 responses;\n"
"                         repeatable, in order (up to 32, 3072 bytes)\n"
"  --add-header-always 'NAME: VALUE'\n"
"                         the same on every response\n"
"  --hidden               serve .name files (default: 404)\n"
"  --no-precompressed     do not serve .gz/.br siblings\n"
"  --mime-types FILE      default /etc/mime.types\n"
"  --ticket-keys FILE     session ticket keys (nginx's 80-byte format)\n"
"  --ticket-keys-watch    re-read --ticket-keys when the file changes\n"
"  --metrics ADDR:PORT    Prometheus metrics over plain HTTP (default off)\n"
"  --pid-file FILE\n"
"  --debug                a log line per connection\n"
"  --version, --help\n";

static __attribute__((format(printf, 3, 4)))
int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void conf_init(struct tlsxd_conf *c)
{
	const struct http_limits lim = HTTP_LIMITS_DEFAULT;

	memset(c, 0, sizeof(*c));
	c->record_layer = TLSX_RL_AUTO;
	c->body = CONF_BODY_AUTO;
	c->precompressed = true;
	c->http2 = true;
	c->http = lim;
	c->ranges_max = 16;
	c->max_conns = 4096;
	c->open_file_cache = 1024;
	c->keepalive_requests = 1000;
	c->handshake_timeout_ms = 10000;
	c->header_timeout_ms = 10000;
	c->idle_timeout_ms = 60000;
	c->send_timeout_ms = 60000;
	c->h2_settings_timeout_ms = 10000;
	c->drain_timeout_ms = 10000;
	c->src_next = SRC_ARGS + 1;
}

void conf_free(struct tlsxd_conf *c)
{
	unsigned int i;

	for (i = 0; i < c->nlisten; i++)
		free(c->listen[i]);
	for (i = 0; i < c->ncerts; i++) {
		free(c->certs[i].cert_file);
		free(c->certs[i].key_file);
	}
	free(c->root);
	free(c->ticket_key_file);
	free(c->metrics);
	free(c->user);
	free(c->access_log);
	free(c->error_log);
	free(c->mime_types);
	free(c->pid_file);
	free(c->groups);
	for (i = 0; i < c->nheaders; i++) {
		free(c->headers[i].name);
		free(c->headers[i].value);
	}
	conf_init(c);
}

const char *conf_option_name(unsigned int i)
{
	return i < NOPTS ? opts[i].name : NULL;
}

/* A decimal number without sign, space or leading garbage. */
static int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (v > (max - (unsigned long)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*out = v;
	return 0;
}

int conf_parse_ms(const char *s, unsigned int *ms)
{
	char num[24];
	size_t n = strlen(s);
	unsigned long v, mul = 1;

	if (n >= 2 && !strcmp(s + n - 2, "ms")) {
		n -= 2;
	} else if (n >= 1 && s[n - 1] == 's') {
		n -= 1;
		mul = 1000;
	}
	if (n == 0 || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	if (parse_ulong(num, 0xffffffffUL / mul, &v))
		return -1;
	*ms = (unsigned int)(v * mul);
	return 0;
}

int conf_parse_listen(const char *s, struct sockaddr_storage *ss,
		      socklen_t *len, char *err, size_t errlen)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	const char *colon, *port;
	char host[INET6_ADDRSTRLEN + 1];
	unsigned long p;
	size_t hlen;
	bool v6;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		const char *end = strchr(s, ']');

		if (!end || end[1] != ':')
			return fail(err, errlen, "bad address \"%s\" ([IPv6]:PORT)",
				    s);
		hlen = (size_t)(end - s - 1);
		if (hlen >= sizeof(host))
			return fail(err, errlen, "bad address \"%s\"", s);
		memcpy(host, s + 1, hlen);
		host[hlen] = '\0';
		port = end + 2;
		v6 = true;
	} else {
		colon = strrchr(s, ':');
		if (!colon)
			return fail(err, errlen, "no port in \"%s\" (ADDR:PORT)",
				    s);
		hlen = (size_t)(colon - s);
		if (hlen >= sizeof(host))
			return fail(err, errlen, "bad address \"%s\"", s);
		memcpy(host, s, hlen);
		host[hlen] = '\0';
		port = colon + 1;
		v6 = hlen == 0;	/* ":8443": every address, both families */
		if (memchr(host, ':', hlen))
			return fail(err, errlen,
				    "bad address \"%s\" (an IPv6 address goes in brackets)",
				    s);
	}
	if (parse_ulong(port, 65535, &p) || p == 0)
		return fail(err, errlen, "bad port \"%s\"", port);

	if (v6) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)p);
		if (host[0] && inet_pton(AF_INET6, host, &sin6->sin6_addr) != 1)
			return fail(err, errlen, "bad IPv6 address \"%s\"", host);
		if (!host[0])
			sin6->sin6_addr = in6addr_any;
		*len = sizeof(*sin6);
	} else {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)p);
		if (inet_pton(AF_INET, host, &sin->sin_addr) != 1)
			return fail(err, errlen,
				    "bad address \"%s\" (a numeric IPv4 or [IPv6] address)",
				    host);
		*len = sizeof(*sin);
	}
	return 0;
}

static int set_str(char **field, const char *v, char *err, size_t errlen)
{
	char *dup = strdup(v);

	if (!dup)
		return fail(err, errlen, "out of memory");
	free(*field);
	*field = dup;
	return 0;
}

enum conf_list { LIST_LISTEN, LIST_CERT, LIST_HEADER };

/* Starts a list afresh when a new source sets it. */
static void list_source(struct tlsxd_conf *c, enum conf_list list,
			unsigned int src)
{
	unsigned int *list_src = list == LIST_LISTEN ? &c->listen_src :
				 list == LIST_CERT ? &c->cert_src :
				 &c->header_src;
	unsigned int i;

	if (*list_src == src)
		return;
	*list_src = src;
	switch (list) {
	case LIST_LISTEN:
		for (i = 0; i < c->nlisten; i++)
			free(c->listen[i]);
		c->nlisten = 0;
		c->listen_proxy = 0;
		return;
	case LIST_CERT:
		for (i = 0; i < c->ncerts; i++) {
			free(c->certs[i].cert_file);
			free(c->certs[i].key_file);
		}
		memset(c->certs, 0, sizeof(c->certs));
		c->ncerts = 0;
		return;
	case LIST_HEADER:
		for (i = 0; i < c->nheaders; i++) {
			free(c->headers[i].name);
			free(c->headers[i].value);
		}
		memset(c->headers, 0, sizeof(c->headers));
		c->nheaders = 0;
		return;
	}
}

/*
 * --cert and --key come in pairs: each fills the first entry that lacks
 * it, so "--cert a --cert b --key ka --key kb" pairs a with ka.
 */
static int add_cert_part(struct tlsxd_conf *c, bool key, const char *v,
			 const char *name, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < c->ncerts; i++)
		if (!(key ? c->certs[i].key_file : c->certs[i].cert_file))
			break;
	if (i == c->ncerts) {
		if (c->ncerts == CONF_CERT_MAX)
			return fail(err, errlen, "%s: more than %d certificates",
				    name, CONF_CERT_MAX);
		c->ncerts++;
	}
	return set_str(key ? &c->certs[i].key_file : &c->certs[i].cert_file,
		       v, err, errlen);
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (!strcmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

/*
 * Fields add-header may not name, compared without case.  Framing and
 * connection management first: a second Content-Length or a
 * Transfer-Encoding makes the client read the body wrong (request
 * smuggling's ground), and the connection-specific fields (RFC 9110
 * 7.6.1) are tlsxd's to manage.  Then each field resp.c writes itself:
 * a second copy of it is either invalid (a singleton field, RFC 9110
 * 5.3) or contradicts the response tlsxd planned (its type, range,
 * encoding, validators, redirect target).
 */
static const struct {
	const char *name, *why;
} header_owned[] = {
	{ "Content-Length", "framing, RFC 9112 6.2" },
	{ "Transfer-Encoding", "framing, RFC 9112 6.1" },
	{ "Trailer", "framing: tlsxd sends no trailers, RFC 9110 6.6.2" },
	{ "Connection", "connection management, RFC 9110 7.6.1" },
	{ "Keep-Alive", "connection management, RFC 9110 7.6.1" },
	{ "Proxy-Connection", "connection management, RFC 9110 7.6.1" },
	{ "TE", "connection management, RFC 9110 7.6.1" },
	{ "Upgrade", "connection management, RFC 9110 7.8" },
	{ "Date", "tlsxd writes it, RFC 9110 6.6.1" },
	{ "Server", "tlsxd writes it" },
	{ "Content-Type", "tlsxd writes it from the MIME types" },
	{ "Content-Range", "tlsxd writes it for ranges, RFC 9110 14.4" },
	{ "Content-Encoding", "tlsxd writes it for .br and .gz" },
	{ "Accept-Ranges", "tlsxd writes it" },
	{ "Last-Modified", "tlsxd's validator, RFC 9110 8.8.2" },
	{ "ETag", "tlsxd's validator, RFC 9110 8.8.3" },
	{ "Vary", "tlsxd writes it for .br and .gz, RFC 9110 12.5.5" },
	{ "Location", "tlsxd writes it for its redirects" },
	{ "Allow", "tlsxd writes it on 405" },
};

/* RFC 9110 5.6.2: tchar. */
static bool is_tchar(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

static bool is_ows(char ch)
{
	return ch == ' ' || ch == '\t';
}

/*
 * add-header's NAME (@nlen bytes) and VALUE (@vlen bytes, its optional
 * whitespace trimmed) checked: NAME a token (RFC 9110 5.1) that is not
 * in header_owned[]; VALUE field-content (5.5: visible characters,
 * obs-text, and blanks inside), so no CR, LF or NUL can end the field
 * early and start another.  0, or -1 with the message.
 */
static int header_check(const char *name, size_t nlen, const char *value,
			size_t vlen, const char *opt, char *err, size_t errlen)
{
	unsigned int i;
	size_t k;

	if (!nlen)
		return fail(err, errlen, "%s: no field name", opt);
	for (k = 0; k < nlen; k++)
		if (!is_tchar((unsigned char)name[k]))
			return fail(err, errlen,
				    "%s: \"%.*s\" is not a field name (RFC 9110 5.1: a token)",
				    opt, (int)nlen, name);
	for (i = 0; i < ARRAY_SIZE(header_owned); i++)
		if (strlen(header_owned[i].name) == nlen &&
		    !strncasecmp(header_owned[i].name, name, nlen))
			return fail(err, errlen, "%s: %s is not allowed (%s)",
				    opt, header_owned[i].name,
				    header_owned[i].why);
	if (!vlen)
		return fail(err, errlen, "%s: %.*s: empty value", opt,
			    (int)nlen, name);
	for (k = 0; k < vlen; k++) {
		unsigned char ch = value[k];

		if (ch == '\r' || ch == '\n')
			return fail(err, errlen,
				    "%s: %.*s: a CR or LF in the value (RFC 9110 5.5)",
				    opt, (int)nlen, name);
		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			return fail(err, errlen,
				    "%s: %.*s: a control character in the value (RFC 9110 5.5)",
				    opt, (int)nlen, name);
	}
	return 0;
}

/*
 * add-header from source @src: @nv values, "NAME: VALUE" (one value, the
 * command line's form) or NAME VALUE [always] (a file's, as nginx's
 * add_header).  Appended after the list's checks and bounds.
 */
static int add_header(struct tlsxd_conf *c, bool always, unsigned int nv,
		      char **v, unsigned int src, const char *opt, char *err,
		      size_t errlen)
{
	const char *name, *value, *colon;
	size_t nlen, vlen, bytes = 0;
	struct resp_header *h;
	unsigned int i;

	if (nv == 1) {
		colon = strchr(v[0], ':');
		if (!colon)
			return fail(err, errlen,
				    "%s: \"%s\" is not NAME: VALUE", opt, v[0]);
		name = v[0];
		nlen = (size_t)(colon - v[0]);
		value = colon + 1;
	} else if (nv == 2 || nv == 3) {
		if (nv == 3 && strcmp(v[2], "always"))
			return fail(err, errlen,
				    "%s: \"%s\" after the value (only always)",
				    opt, v[2]);
		always = always || nv == 3;
		name = v[0];
		nlen = strlen(v[0]);
		value = v[1];
	} else {
		return fail(err, errlen, "%s: needs NAME VALUE", opt);
	}
	while (is_ows(*value))
		value++;
	vlen = strlen(value);
	while (vlen && is_ows(value[vlen - 1]))
		vlen--;
	if (header_check(name, nlen, value, vlen, opt, err, errlen))
		return -1;

	list_source(c, LIST_HEADER, src);
	if (c->nheaders == RESP_HEADERS_MAX)
		return fail(err, errlen, "%s: more than %d fields", opt,
			    RESP_HEADERS_MAX);
	for (i = 0; i < c->nheaders; i++)
		bytes += strlen(c->headers[i].name) +
			 strlen(c->headers[i].value) + 4;
	if (bytes + nlen + vlen + 4 > RESP_HEADERS_BYTES_MAX)
		return fail(err, errlen,
			    "%s: the fields are over %d bytes (\"NAME: VALUE\\r\\n\" each)",
			    opt, RESP_HEADERS_BYTES_MAX);
	h = &c->headers[c->nheaders];
	h->name = strndup(name, nlen);
	h->value = strndup(value, vlen);
	if (!h->name || !h->value) {
		free(h->name);
		free(h->value);
		h->name = h->value = NULL;
		return fail(err, errlen, "out of memory");
	}
	h->always = always;
	c->nheaders++;
	return 0;
}

static int conf_load(struct tlsxd_conf *c, const char *path, char *err,
		     size_t errlen);

/*
 * Applies option @o with its @nv values @v from source @src.  @dash is
 * "--" on the command line, "" in a file (for the messages).  Returns 0,
 * 1 (help or version printed), or -1.
 */
static int apply(struct tlsxd_conf *c, const struct opt *o, unsigned int nv,
		 char **v, unsigned int src, const char *dash, char *err,
		 size_t errlen)
{
	char name[40];
	char *field = (char *)c + o->off;
	unsigned long n;
	unsigned int ms, i;
	bool b;

	snprintf(name, sizeof(name), "%s%s", dash, o->name);
	switch (o->kind) {
	case K_FLAG:
	case K_NOFLAG:
		b = o->kind == K_FLAG;
		if (nv == 1 && parse_bool(v[0], &b))
			return fail(err, errlen, "%s: bad value \"%s\" (on or off)",
				    name, v[0]);
		if (nv == 1 && o->kind == K_NOFLAG)
			b = !b;
		*(bool *)field = b;
		return 0;
	case K_ONOFF:
		if (nv != 1 || parse_bool(v[0], &b))
			return fail(err, errlen, "%s: bad value \"%s\" (on or off)",
				    name, nv ? v[0] : "");
		*(bool *)field = b;
		return 0;
	case K_HELP:
		fputs(conf_usage, stdout);
		return 1;
	case K_VERSION:
		printf("tlsxd %s, libtlsx %s\n", TLSXD_VERSION,
		       TLSX_VERSION_STRING);
		return 1;
	default:
		break;
	}
	if (o->kind == K_HEADER || o->kind == K_HEADER_ALWAYS)
		return add_header(c, o->kind == K_HEADER_ALWAYS, nv, v, src,
				  name, err, errlen);
	if (o->kind == K_CERT && nv == 2 && src != SRC_ARGS) {
		/* The file's "cert FILE KEY": one pair on one line. */
		list_source(c, LIST_CERT, src);
		if (add_cert_part(c, false, v[0], name, err, errlen) ||
		    add_cert_part(c, true, v[1], name, err, errlen))
			return -1;
		return 0;
	}
	if (o->kind == K_LISTEN && nv == 2) {
		/* "listen ADDR:PORT proxy": a PROXY header first. */
		if (strcmp(v[1], "proxy"))
			return fail(err, errlen, "%s: bad option \"%s\" (proxy)",
				    name, v[1]);
	} else if (nv != 1) {
		return fail(err, errlen, "%s: needs %s", name,
			    nv ? "one value" : "a value");
	}

	switch (o->kind) {
	case K_STR:
		if (!v[0][0])
			return fail(err, errlen, "%s: empty value", name);
		if (o->off == F(access_log) && !strcmp(v[0], "off")) {
			free(c->access_log);
			c->access_log = NULL;
			return 0;
		}
		return set_str((char **)field, v[0], err, errlen);
	case K_UINT:
		if (parse_ulong(v[0], o->max, &n) || n < o->min)
			return fail(err, errlen, "%s: bad number \"%s\" (%u..%u)",
				    name, v[0], o->min, o->max);
		*(unsigned int *)field = (unsigned int)n;
		return 0;
	case K_MS:
		if (conf_parse_ms(v[0], &ms) || ms < o->min || ms > o->max)
			return fail(err, errlen,
				    "%s: bad duration \"%s\" (milliseconds, or seconds with an s: 10s)",
				    name, v[0]);
		*(unsigned int *)field = ms;
		return 0;
	case K_LISTEN: {
		struct sockaddr_storage ss;
		socklen_t len;
		char msg[200];

		if (conf_parse_listen(v[0], &ss, &len, msg, sizeof(msg)))
			return fail(err, errlen, "%s: %s", name, msg);
		list_source(c, LIST_LISTEN, src);
		if (c->nlisten == CONF_LISTEN_MAX)
			return fail(err, errlen, "%s: more than %d addresses",
				    name, CONF_LISTEN_MAX);
		c->listen[c->nlisten] = NULL;
		if (set_str(&c->listen[c->nlisten], v[0], err, errlen))
			return -1;
		if (nv == 2)
			c->listen_proxy |= 1u << c->nlisten;
		c->nlisten++;
		return 0;
	}
	case K_METRICS: {
		struct sockaddr_storage ss;
		socklen_t len;
		char msg[200];

		if (!strcmp(v[0], "off")) {
			free(c->metrics);
			c->metrics = NULL;
			return 0;
		}
		if (conf_parse_listen(v[0], &ss, &len, msg, sizeof(msg)))
			return fail(err, errlen, "%s: %s", name, msg);
		return set_str(&c->metrics, v[0], err, errlen);
	}
	case K_CERT:
	case K_KEY:
		if (!v[0][0])
			return fail(err, errlen, "%s: empty value", name);
		list_source(c, LIST_CERT, src);
		return add_cert_part(c, o->kind == K_KEY, v[0], name, err,
				     errlen);
	case K_RL:
		for (i = TLSX_RL_AUTO; i <= TLSX_RL_USER; i++) {
			if (!strcmp(v[0], tlsx_record_layer_name(i))) {
				c->record_layer = i;
				return 0;
			}
		}
		return fail(err, errlen,
			    "%s: bad value \"%s\" (auto, tlsx, tls or user)",
			    name, v[0]);
	case K_BODY:
		if (!strcmp(v[0], "auto"))
			c->body = CONF_BODY_AUTO;
		else if (!strcmp(v[0], "sendfile"))
			c->body = CONF_BODY_SENDFILE;
		else if (!strcmp(v[0], "splice"))
			c->body = CONF_BODY_SPLICE;
		else
			return fail(err, errlen,
				    "%s: bad value \"%s\" (auto, sendfile or splice)",
				    name, v[0]);
		return 0;
	case K_ALOG_FORMAT:
		if (!strcmp(v[0], "combined"))
			c->access_log_format = ALOG_FMT_COMBINED;
		else if (!strcmp(v[0], "combined-port"))
			c->access_log_format = ALOG_FMT_COMBINED_PORT;
		else
			return fail(err, errlen,
				    "%s: bad value \"%s\" (combined or combined-port)",
				    name, v[0]);
		return 0;
	case K_CONFIG:
		if (src != SRC_ARGS)
			return fail(err, errlen,
				    "%s: a file cannot include another", name);
		return conf_load(c, v[0], err, errlen);
	default:
		return fail(err, errlen, "%s: internal error", name);
	}
}

static const struct opt *find_opt(const char *name)
{
	size_t i;

	for (i = 0; i < NOPTS; i++)
		if (!strcmp(opts[i].name, name))
			return &opts[i];
	return NULL;
}

static bool opt_takes_arg(const struct opt *o)
{
	return o->kind != K_FLAG && o->kind != K_NOFLAG &&
	       o->kind != K_HELP && o->kind != K_VERSION;
}

int conf_parse_args(struct tlsxd_conf *c, int argc, char **argv, char *err,
		    size_t errlen)
{
	struct option lopts[NOPTS + 1];
	size_t i;
	int ch, ret;

	for (i = 0; i < NOPTS; i++) {
		lopts[i].name = opts[i].name;
		lopts[i].has_arg = opt_takes_arg(&opts[i]) ? required_argument
							   : no_argument;
		lopts[i].flag = NULL;
		lopts[i].val = 256 + (int)i;
	}
	memset(&lopts[NOPTS], 0, sizeof(lopts[NOPTS]));

	/* optind = 0: getopt's full reset, so tests may parse again. */
	optind = 0;
	opterr = 0;
	/* "+": stop at the first non-option (no permutation). */
	while ((ch = getopt_long(argc, argv, "+hV", lopts, NULL)) != -1) {
		const struct opt *o;

		if (ch == 'h')
			o = find_opt("help");
		else if (ch == 'V')
			o = find_opt("version");
		else if (ch >= 256 && ch < 256 + (int)NOPTS)
			o = &opts[ch - 256];
		else if (optopt >= 256 && optopt < 256 + (int)NOPTS)
			return fail(err, errlen, "--%s: %s",
				    opts[optopt - 256].name,
				    opt_takes_arg(&opts[optopt - 256]) ?
				    "needs a value" : "takes no value");
		else
			return fail(err, errlen,
				    "unknown option \"%s\" (--help lists them)",
				    argv[optind - 1]);
		if (o->kind == K_LISTEN && optind < argc &&
		    !strcmp(argv[optind], "proxy")) {
			/* --listen ADDR:PORT proxy: the word is its own arg. */
			char *lv[2] = { optarg, argv[optind++] };

			ret = apply(c, o, 2, lv, SRC_ARGS, "--", err, errlen);
		} else {
			ret = apply(c, o, opt_takes_arg(o) ? 1 : 0,
				    opt_takes_arg(o) ? &optarg : NULL, SRC_ARGS,
				    "--", err, errlen);
		}
		if (ret)
			return ret;
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument \"%s\"",
			    argv[optind]);
	return 0;
}

/*
 * Splits @line into at most CONF_TOKENS_MAX tokens in place: blanks
 * separate them, '#' at a token's start begins a comment, "..." quotes
 * one (with \" and \\).  The count, or -1 with a message.
 */
static int tokenize(char *line, char **tok, const char **why)
{
	char *r = line, *w;
	int n = 0;

	for (;;) {
		while (*r == ' ' || *r == '\t' || *r == '\r')
			r++;
		if (!*r || *r == '#')
			return n;
		if (n == CONF_TOKENS_MAX) {
			*why = "too many values";
			return -1;
		}
		tok[n++] = w = r;
		if (*r == '"') {
			r++;
			while (*r != '"') {
				if (!*r) {
					*why = "unterminated quote";
					return -1;
				}
				if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
					r++;
				*w++ = *r++;
			}
			r++;
			if (*r && *r != ' ' && *r != '\t' && *r != '\r') {
				*why = "text after a closing quote";
				return -1;
			}
		} else {
			while (*r && *r != ' ' && *r != '\t' && *r != '\r')
				*w++ = *r++;
		}
		if (*r)
			r++;
		*w = '\0';
	}
}

/* The whole of @path (a file or a pipe), NUL-terminated; NULL on error. */
static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap), *nbuf;
	ssize_t r;
	int fd;

	if (!buf) {
		fail(err, errlen, "out of memory");
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fail(err, errlen, "%s: %s", path, strerror(errno));
		free(buf);
		return NULL;
	}
	for (;;) {
		if (n > CONF_FILE_MAX) {
			fail(err, errlen, "%s: over %d bytes", path,
			     CONF_FILE_MAX);
			goto err;
		}
		if (n + 1 == cap) {
			nbuf = realloc(buf, cap * 2);
			if (!nbuf) {
				fail(err, errlen, "out of memory");
				goto err;
			}
			buf = nbuf;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fail(err, errlen, "%s: %s", path, strerror(errno));
			goto err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
err:
	close(fd);
	free(buf);
	return NULL;
}

static int conf_load(struct tlsxd_conf *c, const char *path, char *err,
		     size_t errlen)
{
	unsigned int src = c->src_next++, lineno = 0;
	char msg[512], *buf, *line, *end;
	size_t len;
	int ret = 0;

	buf = slurp(path, &len, err, errlen);
	if (!buf)
		return -1;
	if (memchr(buf, '\0', len)) {
		free(buf);
		return fail(err, errlen, "%s: a NUL byte: not a text file",
			    path);
	}
	for (line = buf; !ret && line < buf + len; line = end + 1) {
		const struct opt *o;
		const char *why = NULL;
		char *tok[CONF_TOKENS_MAX];
		int n;

		lineno++;
		end = strchr(line, '\n');
		if (!end)
			end = buf + len;
		*end = '\0';
		if (end - line > CONF_LINE_MAX) {
			ret = fail(err, errlen, "%s:%u: line over %d bytes",
				   path, lineno, CONF_LINE_MAX);
			break;
		}
		n = tokenize(line, tok, &why);
		if (n < 0) {
			ret = fail(err, errlen, "%s:%u: %s", path, lineno, why);
			break;
		}
		if (n == 0)
			continue;
		o = find_opt(tok[0]);
		if (!o || o->kind == K_HELP || o->kind == K_VERSION) {
			ret = fail(err, errlen, "%s:%u: unknown directive \"%s\"",
				   path, lineno, tok[0]);
			break;
		}
		if (!opt_takes_arg(o) && n > 2) {
			ret = fail(err, errlen, "%s:%u: %s: too many values",
				   path, lineno, o->name);
			break;
		}
		if (apply(c, o, (unsigned int)n - 1, tok + 1, src, "", msg,
			  sizeof(msg)))
			ret = fail(err, errlen, "%s:%u: %s", path, lineno, msg);
	}
	free(buf);
	return ret;
}

int conf_load_file(struct tlsxd_conf *c, const char *path, char *err,
		   size_t errlen)
{
	return conf_load(c, path, err, errlen);
}

int conf_check(const struct tlsxd_conf *c, char *err, size_t errlen)
{
	struct sockaddr_storage a, b;
	socklen_t alen, blen;
	unsigned int i, j;
	char msg[8];

	if (!c->nlisten && !c->systemd)
		return fail(err, errlen, "no --listen address (and no systemd sockets)");
	for (i = 0; i < c->nlisten; i++) {
		if (conf_parse_listen(c->listen[i], &a, &alen, msg, sizeof(msg)))
			return fail(err, errlen, "--listen: bad \"%s\"",
				    c->listen[i]);
		for (j = 0; j < i; j++) {
			conf_parse_listen(c->listen[j], &b, &blen, msg,
					  sizeof(msg));
			if (alen == blen && !memcmp(&a, &b, alen))
				return fail(err, errlen,
					    "--listen: \"%s\" given twice",
					    c->listen[i]);
		}
	}
	if (!c->root)
		return fail(err, errlen, "no --root directory");
	if (!c->ncerts)
		return fail(err, errlen, "no --cert and --key");
	for (i = 0; i < c->ncerts; i++) {
		if (!c->certs[i].key_file)
			return fail(err, errlen, "--cert %s: no --key for it",
				    c->certs[i].cert_file);
		if (!c->certs[i].cert_file)
			return fail(err, errlen, "--key %s: no --cert for it",
				    c->certs[i].key_file);
	}
	if (c->http.request_line_max > c->http.header_bytes_max)
		return fail(err, errlen,
			    "--max-request-line (%u) is over --max-header-bytes (%u)",
			    c->http.request_line_max, c->http.header_bytes_max);
	return 0;
}
