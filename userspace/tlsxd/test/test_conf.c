// SPDX-License-Identifier: GPL-2.0
/*
 * test_conf.c - tlsxd's configuration (conf.c):
 *
 *  - the defaults conf.h documents;
 *  - every command-line option, each setting its field;
 *  - listen addresses (IPv4, [IPv6], ":PORT") and durations ("500",
 *    "500ms", "10s"), good and bad;
 *  - each bad value refused with its message ("--listen: bad port \"x\"");
 *  - --cert/--key pairing; conf_check's refusals;
 *  - the configuration file: every directive, comments, quotes,
 *    "cert FILE KEY", each error as "FILE:LINE: message";
 *  - the command line overriding the file, and the file what came before
 *    it; a list (listen, cert) replaced, not appended, by a later source;
 *  - add-header: both forms, the name and value checks, the bounds;
 *  - --help and --version;
 *  - tools/tlsxd/tlsxd.conf.example is a valid configuration;
 *  - runconf.c, the one path start-up and SIGHUP build the running
 *    configuration by: every option of conf.c's table, set in the file
 *    and reloaded, is either what a fresh start on that file gives
 *    (struct site included) or, where a restart is needed, the running
 *    value kept and logged.
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsxd/conf.h"
#include "tlsxd/log.h"
#include "tlsxd/runconf.h"

#define ARGV_MAX	64

/* conf_parse_args() on "tlsxd" and the NULL-terminated arguments. */
static int parse(struct tlsxd_conf *c, char *err, size_t errlen, ...)
{
	char *argv[ARGV_MAX];
	int argc = 0;
	va_list ap;

	argv[argc++] = "tlsxd";
	va_start(ap, errlen);
	while (argc < ARGV_MAX - 1) {
		char *a = va_arg(ap, char *);

		if (!a)
			break;
		argv[argc++] = a;
	}
	va_end(ap);
	argv[argc] = NULL;
	err[0] = '\0';
	return conf_parse_args(c, argc, argv, err, errlen);
}

/* A temporary file holding @text; its name in @path (unlink it). */
static void write_file(char *path, size_t cap, const char *text, size_t len)
{
	int fd;

	snprintf(path, cap, "/tmp/test_conf.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		abort();
	close(fd);
}

/* One command line with one bad option: its message. */
static int bad1(char *err, size_t errlen, const char *opt, const char *val)
{
	struct tlsxd_conf c;
	int r;

	conf_init(&c);
	r = parse(&c, err, errlen, opt, val, NULL);
	conf_free(&c);
	return r;
}

TEST(listen_forms)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	socklen_t len;
	char err[128];

	ASSERT_EQ(0, conf_parse_listen("0.0.0.0:8443", &ss, &len, err,
				       sizeof(err)));
	EXPECT_EQ(AF_INET, ss.ss_family);
	EXPECT_EQ(sizeof(*sin), len);
	EXPECT_EQ(8443, ntohs(sin->sin_port));
	EXPECT_EQ(INADDR_ANY, ntohl(sin->sin_addr.s_addr));

	ASSERT_EQ(0, conf_parse_listen("127.0.0.1:1", &ss, &len, err,
				       sizeof(err)));
	EXPECT_EQ(INADDR_LOOPBACK, ntohl(sin->sin_addr.s_addr));
	EXPECT_EQ(1, ntohs(sin->sin_port));

	ASSERT_EQ(0, conf_parse_listen("[::]:8443", &ss, &len, err,
				       sizeof(err)));
	EXPECT_EQ(AF_INET6, ss.ss_family);
	EXPECT_EQ(sizeof(*sin6), len);
	EXPECT_TRUE(IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr));
	EXPECT_EQ(8443, ntohs(sin6->sin6_port));

	ASSERT_EQ(0, conf_parse_listen("[::1]:65535", &ss, &len, err,
				       sizeof(err)));
	EXPECT_TRUE(IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr));
	EXPECT_EQ(65535, ntohs(sin6->sin6_port));

	/* ":PORT": every address, both families (a dual-stack socket). */
	ASSERT_EQ(0, conf_parse_listen(":8443", &ss, &len, err, sizeof(err)));
	EXPECT_EQ(AF_INET6, ss.ss_family);
	EXPECT_TRUE(IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr));
	EXPECT_EQ(8443, ntohs(sin6->sin6_port));
}

TEST(listen_refusals)
{
	static const struct {
		const char *in, *msg;
	} bad[] = {
		{ "8443", "no port in \"8443\" (ADDR:PORT)" },
		{ "1.2.3.4", "no port in \"1.2.3.4\" (ADDR:PORT)" },
		{ "1.2.3.4:", "bad port \"\"" },
		{ "1.2.3.4:0", "bad port \"0\"" },
		{ "1.2.3.4:65536", "bad port \"65536\"" },
		{ "1.2.3.4:x", "bad port \"x\"" },
		{ "1.2.3.4:+80", "bad port \"+80\"" },
		{ "1.2.3.4: 80", "bad port \" 80\"" },
		{ "1.2.3.4:80 ", "bad port \"80 \"" },
		{ "1.2.3:80", "bad address \"1.2.3\" (a numeric IPv4 or [IPv6] address)" },
		{ "localhost:80", "bad address \"localhost\" (a numeric IPv4 or [IPv6] address)" },
		{ "::1:80", "bad address \"::1:80\" (an IPv6 address goes in brackets)" },
		{ "[::1]80", "bad address \"[::1]80\" ([IPv6]:PORT)" },
		{ "[::1", "bad address \"[::1\" ([IPv6]:PORT)" },
		{ "[1.2.3.4]:80", "bad IPv6 address \"1.2.3.4\"" },
		{ "[::g]:80", "bad IPv6 address \"::g\"" },
		{ "[::1]:99999", "bad port \"99999\"" },
	};
	struct sockaddr_storage ss;
	socklen_t len;
	char err[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		EXPECT_EQ(-1, conf_parse_listen(bad[i].in, &ss, &len, err,
						sizeof(err)))
			TH_LOG("%s accepted", bad[i].in);
		EXPECT_STREQ(bad[i].msg, err);
	}
}

TEST(durations)
{
	static const struct {
		const char *in;
		unsigned int ms;
	} good[] = {
		{ "0", 0 }, { "500", 500 }, { "500ms", 500 }, { "10s", 10000 },
		{ "0s", 0 }, { "4294967295", 4294967295u },
		{ "4294967s", 4294967000u },
	};
	static const char *const bad[] = {
		"", "s", "ms", "1.5s", "-1", "+1", "10m", "10 s", " 10",
		"4294967296", "4294968s", "1sms", "0x10",
	};
	unsigned int i, ms;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ms = 12345;
		EXPECT_EQ(0, conf_parse_ms(good[i].in, &ms))
			TH_LOG("%s refused", good[i].in);
		EXPECT_EQ(good[i].ms, ms);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *b = bad[i];

		EXPECT_EQ(-1, conf_parse_ms(b, &ms))
			TH_LOG("\"%s\" accepted", b);
	}
}

TEST(bad_values_and_their_messages)
{
	static const struct {
		const char *opt, *val, *msg;
	} bad[] = {
		{ "--listen", "x", "--listen: no port in \"x\" (ADDR:PORT)" },
		{ "--listen", "0.0.0.0:x", "--listen: bad port \"x\"" },
		{ "--workers", "0", "--workers: bad number \"0\" (1..1024)" },
		{ "--workers", "1025", "--workers: bad number \"1025\" (1..1024)" },
		{ "--workers", "two", "--workers: bad number \"two\" (1..1024)" },
		{ "--workers", "-1", "--workers: bad number \"-1\" (1..1024)" },
		{ "--workers", "", "--workers: bad number \"\" (1..1024)" },
		{ "--max-conns", "0", "--max-conns: bad number \"0\" (1..1048576)" },
		{ "--keepalive-requests", "0",
		  "--keepalive-requests: bad number \"0\" (1..1073741824)" },
		{ "--max-ranges", "17", "--max-ranges: bad number \"17\" (1..16)" },
		{ "--max-request-line", "15",
		  "--max-request-line: bad number \"15\" (16..1048576)" },
		{ "--max-header-bytes", "99999999",
		  "--max-header-bytes: bad number \"99999999\" (64..1048576)" },
		{ "--max-header-count", "0",
		  "--max-header-count: bad number \"0\" (1..10000)" },
		{ "--timeout-header", "soon",
		  "--timeout-header: bad duration \"soon\" (milliseconds, or seconds with an s: 10s)" },
		{ "--timeout-idle", "0",
		  "--timeout-idle: bad duration \"0\" (milliseconds, or seconds with an s: 10s)" },
		{ "--timeout-send", "86401s",
		  "--timeout-send: bad duration \"86401s\" (milliseconds, or seconds with an s: 10s)" },
		{ "--timeout-handshake", "1.5s",
		  "--timeout-handshake: bad duration \"1.5s\" (milliseconds, or seconds with an s: 10s)" },
		{ "--record-layer", "kernel",
		  "--record-layer: bad value \"kernel\" (auto, tlsx, tls or user)" },
		{ "--body", "mmap",
		  "--body: bad value \"mmap\" (auto, sendfile or splice)" },
		{ "--access-log-format", "main",
		  "--access-log-format: bad value \"main\" (combined or combined-port)" },
		{ "--root", "", "--root: empty value" },
		{ "--cert", "", "--cert: empty value" },
		{ "--config", "/nonexistent/tlsxd.conf",
		  "/nonexistent/tlsxd.conf: No such file or directory" },
	};
	char err[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, bad1(err, sizeof(err), bad[i].opt, bad[i].val))
			TH_LOG("%s %s accepted", bad[i].opt, bad[i].val);
		EXPECT_STREQ(bad[i].msg, err);
	}
}

TEST(command_line_errors)
{
	struct tlsxd_conf c;
	char err[256];

	conf_init(&c);
	EXPECT_EQ(-1, parse(&c, err, sizeof(err), "--nope", NULL));
	EXPECT_STREQ("unknown option \"--nope\" (--help lists them)", err);
	EXPECT_EQ(-1, parse(&c, err, sizeof(err), "-x", NULL));
	EXPECT_STREQ("unknown option \"-x\" (--help lists them)", err);
	EXPECT_EQ(-1, parse(&c, err, sizeof(err), "--root", NULL));
	EXPECT_STREQ("--root: needs a value", err);
	EXPECT_EQ(-1, parse(&c, err, sizeof(err), "--debug=yes", NULL));
	EXPECT_STREQ("--debug: takes no value", err);
	EXPECT_EQ(-1, parse(&c, err, sizeof(err), "--root", "/a", "stray",
			    NULL));
	EXPECT_STREQ("unexpected argument \"stray\"", err);
	/* getopt's state is reset: a later parse starts afresh. */
	EXPECT_EQ(0, parse(&c, err, sizeof(err), "--root", "/b", NULL));
	EXPECT_STREQ("/b", c.root);
	conf_free(&c);
}

/*
 * "--listen ADDR:PORT proxy" and the file's "listen ADDR:PORT proxy":
 * that listener (and only it) reads a PROXY header first; another word
 * is refused; a later source's list drops the flags with the addresses.
 * --metrics takes an address or off; --ticket-keys-watch is a flag.
 */
TEST(listen_proxy_metrics_watch)
{
	static const char text[] = "listen 127.0.0.1:1\nlisten 127.0.0.1:2 proxy\n"
				   "metrics 127.0.0.1:9100\nticket-keys-watch\n";
	struct tlsxd_conf c;
	char err[256], path[64];

	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--listen", "127.0.0.1:1",
			   "proxy", "--listen", "127.0.0.1:2", "--metrics",
			   "127.0.0.1:9100", NULL)) TH_LOG("%s", err);
	EXPECT_EQ(2, c.nlisten);
	EXPECT_EQ(1, c.listen_proxy);
	EXPECT_STREQ("127.0.0.1:9100", c.metrics);
	EXPECT_FALSE(c.ticket_keys_watch);
	conf_free(&c);

	conf_init(&c);
	write_file(path, sizeof(path), text, strlen(text));
	ASSERT_EQ(0, conf_load_file(&c, path, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(2, c.nlisten);
	EXPECT_EQ(2, c.listen_proxy);
	EXPECT_TRUE(c.ticket_keys_watch);
	/* The command line's list replaces the file's, flags included. */
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--config", path, "--listen",
			   "127.0.0.1:3", "--metrics", "off", NULL))
		TH_LOG("%s", err);
	EXPECT_EQ(1, c.nlisten);
	EXPECT_EQ(0, c.listen_proxy);
	EXPECT_EQ(NULL, c.metrics);
	conf_free(&c);
	unlink(path);

	conf_init(&c);
	write_file(path, sizeof(path), "listen 127.0.0.1:1 prox\n", 24);
	EXPECT_EQ(-1, conf_load_file(&c, path, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "listen: bad option \"prox\" (proxy)"))
		TH_LOG("%s", err);
	conf_free(&c);
	unlink(path);
	EXPECT_EQ(-1, bad1(err, sizeof(err), "--metrics", "localhost"));
	EXPECT_NE(NULL, strstr(err, "--metrics:")) TH_LOG("%s", err);
}

TEST(too_many_listeners_and_certs)
{
	struct tlsxd_conf c;
	char err[256], addr[32];
	unsigned int i;
	int r = 0;

	conf_init(&c);
	for (i = 0; i <= CONF_LISTEN_MAX && !r; i++) {
		char *argv[4];

		argv[0] = "tlsxd";
		argv[1] = "--listen";
		argv[2] = addr;
		argv[3] = NULL;
		snprintf(addr, sizeof(addr), "127.0.0.1:%u", 1000 + i);
		/* Every call is the command line: one source, appending. */
		r = conf_parse_args(&c, 3, argv, err, sizeof(err));
	}
	EXPECT_EQ(-1, r);
	EXPECT_EQ(CONF_LISTEN_MAX + 1, i);
	EXPECT_EQ(CONF_LISTEN_MAX, c.nlisten);
	EXPECT_STREQ("--listen: more than 8 addresses", err);
	conf_free(&c);

	conf_init(&c);
	r = 0;
	for (i = 0; i <= CONF_CERT_MAX && !r; i++)
		r = parse(&c, err, sizeof(err), "--cert", "c.pem", "--key",
			  "k.pem", NULL);
	EXPECT_EQ(-1, r);
	EXPECT_EQ(CONF_CERT_MAX, c.ncerts);
	EXPECT_STREQ("--cert: more than 16 certificates", err);
	conf_free(&c);
}

TEST(check_refusals)
{
	static const struct {
		const char *args[12];
		const char *msg;
	} cases[] = {
		{ { "--root", "/", "--cert", "c", "--key", "k" },
		  "no --listen address (and no systemd sockets)" },
		{ { "--listen", ":1", "--cert", "c", "--key", "k" },
		  "no --root directory" },
		{ { "--listen", ":1", "--root", "/" }, "no --cert and --key" },
		{ { "--listen", ":1", "--root", "/", "--cert", "c" },
		  "--cert c: no --key for it" },
		{ { "--listen", ":1", "--root", "/", "--key", "k" },
		  "--key k: no --cert for it" },
		{ { "--listen", ":1", "--listen", "[::]:1", "--root", "/",
		    "--cert", "c", "--key", "k" },
		  "--listen: \"[::]:1\" given twice" },
		{ { "--max-request-line", "9000", "--max-header-bytes", "8000",
		    "--listen", ":1", "--root", "/", "--cert", "c", "--key",
		    "k" },
		  "--max-request-line (9000) is over --max-header-bytes (8000)" },
	};
	char err[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct tlsxd_conf c;
		char *argv[14] = { "tlsxd" };
		int argc = 1;

		while (argc < 13 && cases[i].args[argc - 1]) {
			argv[argc] = (char *)cases[i].args[argc - 1];
			argc++;
		}
		conf_init(&c);
		ASSERT_EQ(0, conf_parse_args(&c, argc, argv, err, sizeof(err)));
		err[0] = '\0';
		EXPECT_EQ(-1, conf_check(&c, err, sizeof(err)));
		EXPECT_STREQ(cases[i].msg, err);
		conf_free(&c);
	}
}

TEST(systemd_needs_no_listen)
{
	struct tlsxd_conf c;
	char err[256];

	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--root", "/", "--cert", "c",
			   "--key", "k", NULL));
	EXPECT_EQ(-1, conf_check(&c, err, sizeof(err)));
	c.systemd = true;
	EXPECT_EQ(0, conf_check(&c, err, sizeof(err)));
	conf_free(&c);
}

static const char full_file[] =
	"# tlsxd's configuration\n"
	"\n"
	"listen 127.0.0.1:8443   # a comment after a value\n"
	"listen [::1]:8443\n"
	"root \"/srv/my site\"\n"
	"cert /etc/a.pem /etc/a.key\n"
	"cert /etc/b.pem\n"
	"key /etc/b.key\n"
	"\tworkers\t2\r\n"
	"user www-data\n"
	"access-log -\n"
	"error-log /var/log/tlsxd.err\n"
	"record-layer tls\n"
	"body sendfile\n"
	"max-conns 100\n"
	"keepalive-requests 10\n"
	"timeout-handshake 5s\n"
	"timeout-header 6s\n"
	"timeout-idle 7s\n"
	"timeout-send 8s\n"
	"timeout-drain 9s\n"
	"max-request-line 4096\n"
	"max-header-bytes 8192\n"
	"max-header-count 50\n"
	"max-ranges 8\n"
	"open-file-cache 0\n"
	"hidden on\n"
	"precompressed off\n"
	"debug\n"
	"mime-types /etc/mime.types\n"
	"ticket-keys \"/etc/tlsxd/ticket \\\"keys\\\"\"\n"
	"add-header X-Frame-Options DENY\n"
	"add-header Cache-Control \"max-age=60, public\" always\n"
	"add-header \"X-Both: a:b\"\n"
	"add-header-always x-lower \"\xc3\xa9t\xc3\xa9\"\n"
	"pid-file /run/tlsxd.pid";	/* no newline at the end */

/*
 * The settings of a parsed configuration as lines "NAME VALUE", one a
 * field, in conf.h's order (names as the file's directives, durations
 * in ms, lists on one line, "(none)" for NULL): what a case compares.
 */
static const char *const rl_names[] = { "auto", "tlsx", "tls", "user" };
static const char *const body_names[] = { "auto", "sendfile", "splice" };
static const char *const alog_format_names[] = { "combined", "combined-port" };

static const char *str(const char *s)
{
	return s ? s : "(none)";
}

static void dump(const struct tlsxd_conf *c, char *out, size_t cap)
{
	FILE *f = fmemopen(out, cap, "w");
	unsigned int i;

	if (!f)
		abort();
	fputs("listen", f);
	for (i = 0; i < c->nlisten; i++)
		fprintf(f, " %s%s", c->listen[i],
			c->listen_proxy >> i & 1 ? " proxy" : "");
	fprintf(f, "\nroot %s\ncert", str(c->root));
	for (i = 0; i < c->ncerts; i++)
		fprintf(f, " %s %s", str(c->certs[i].cert_file),
			str(c->certs[i].key_file));
	fprintf(f, "\nticket-keys %s\nworkers %u\nuser %s\naccess-log %s\n"
		"error-log %s\nmime-types %s\npid-file %s\n",
		str(c->ticket_key_file), c->workers, str(c->user),
		str(c->access_log), str(c->error_log), str(c->mime_types),
		str(c->pid_file));
	fprintf(f, "access-log-format %s\n",
		c->access_log_format < ARRAY_SIZE(alog_format_names) ?
		alog_format_names[c->access_log_format] : "?");
	fprintf(f, "record-layer %s\ngroups %s\nbody %s\nhidden %s\n"
		"precompressed %s\ndebug %s\n",
		c->record_layer < ARRAY_SIZE(rl_names) ?
		rl_names[c->record_layer] : "?", str(c->groups),
		c->body < ARRAY_SIZE(body_names) ? body_names[c->body] : "?",
		c->allow_hidden ? "on" : "off",
		c->precompressed ? "on" : "off", c->debug ? "on" : "off");
	fprintf(f, "http2 %s\n", c->http2 ? "on" : "off");
	fprintf(f, "max-request-line %u\nmax-header-bytes %u\n"
		"max-header-count %u\nbody-max %llu\nmax-ranges %u\n"
		"max-conns %u\nopen-file-cache %u\nkeepalive-requests %u\n",
		c->http.request_line_max, c->http.header_bytes_max,
		c->http.header_count_max, (unsigned long long)c->http.body_max,
		c->ranges_max, c->max_conns, c->open_file_cache,
		c->keepalive_requests);
	fprintf(f, "timeout-handshake %u\ntimeout-header %u\n"
		"timeout-idle %u\ntimeout-send %u\ntimeout-drain %u\n"
		"timeout-h2-settings %u\n",
		c->handshake_timeout_ms, c->header_timeout_ms,
		c->idle_timeout_ms, c->send_timeout_ms, c->drain_timeout_ms,
		c->h2_settings_timeout_ms);
	fputs("add-header", f);
	for (i = 0; i < c->nheaders; i++)
		fprintf(f, " [%s: %s%s]", c->headers[i].name,
			c->headers[i].value,
			c->headers[i].always ? " always" : "");
	fputc('\n', f);
	/* The fleet's settings, only when set (the cases predate them). */
	if (c->metrics)
		fprintf(f, "metrics %s\n", c->metrics);
	if (c->ticket_keys_watch)
		fputs("ticket-keys-watch on\n", f);
	fclose(f);
}

/* The defaults conf.h documents, in dump()'s form. */
static const char defaults[] =
	"listen\n"
	"root (none)\n"
	"cert\n"
	"ticket-keys (none)\n"
	"workers 0\n"
	"user (none)\n"
	"access-log (none)\n"
	"error-log (none)\n"
	"mime-types (none)\n"
	"pid-file (none)\n"
	"access-log-format combined\n"
	"record-layer auto\n"
	"groups (none)\n"
	"body auto\n"
	"hidden off\n"
	"precompressed on\n"
	"debug off\n"
	"http2 on\n"
	"max-request-line 8192\n"
	"max-header-bytes 16384\n"
	"max-header-count 100\n"
	"body-max 0\n"
	"max-ranges 16\n"
	"max-conns 4096\n"
	"open-file-cache 1024\n"
	"keepalive-requests 1000\n"
	"timeout-handshake 10000\n"
	"timeout-header 10000\n"
	"timeout-idle 60000\n"
	"timeout-send 60000\n"
	"timeout-drain 10000\n"
	"timeout-h2-settings 10000\n"
	"add-header\n";

/* A line's name: the bytes before its first space or its end. */
static size_t name_len(const char *line)
{
	static const char ends[] = { ' ', '\n', '\0' };

	return strcspn(line, ends);
}

/*
 * The defaults with @set's lines in place of those of the same name:
 * the dump a case expects.  A name in @set that is not among the
 * defaults (a typo in a case) fails the test.
 */
static void expected(struct __test_metadata *_metadata, const char *set,
		     char *out, size_t cap)
{
	const char *d, *o;
	size_t n = 0, used = 0, nset = 0;

	for (o = set; *o; o = strchr(o, '\n') + 1)
		nset++;
	for (d = defaults; *d; d = strchr(d, '\n') + 1) {
		const char *line = d;
		size_t len;

		for (o = set; *o; o = strchr(o, '\n') + 1) {
			if (name_len(o) == name_len(d) &&
			    !memcmp(o, d, name_len(d))) {
				line = o;
				used++;
				break;
			}
		}
		len = strchr(line, '\n') - line + 1;
		ASSERT_LT(n + len, cap);
		memcpy(out + n, line, len);
		n += len;
	}
	out[n] = '\0';
	ASSERT_EQ(nset, used) TH_LOG("a line of the case names no setting");
}

#define ARGS_MAX	72

/*
 * A command line or a configuration file, and the settings it must
 * give: each case a line of the table below.
 */
FIXTURE(settings) {
	struct tlsxd_conf c;
	char path[64];
};

FIXTURE_VARIANT(settings) {
	/* After "tlsxd"; "@FILE" stands for the file's path. */
	const char *args[ARGS_MAX];
	/* The configuration file's text, or NULL. */
	const char *file;
	/* Load the file alone (conf_load_file), no command line. */
	bool file_only;
	/* "NAME VALUE\n" lines: the settings other than the defaults. */
	const char *set;
	/* conf_check() accepts the result. */
	bool complete;
};

/* Nothing given: the defaults. */
FIXTURE_VARIANT_ADD(settings, defaults) { .set = "" };

/* Every command-line option, each setting its field. */
FIXTURE_VARIANT_ADD(settings, every_option) {
	.args = { "--listen", "127.0.0.1:8443", "--listen", "[::1]:9443",
		  "--root", "/srv/www", "--cert", "a.pem", "--key", "a.key",
		  "--cert", "b.pem", "--key", "b.key", "--workers", "3",
		  "--user", "www-data", "--access-log", "/var/log/a.log",
		  "--access-log-format", "combined-port",
		  "--error-log", "/var/log/e.log", "--record-layer", "user",
		  "--body", "splice", "--max-conns", "77",
		  "--keepalive-requests", "5", "--timeout-handshake", "1s",
		  "--timeout-header", "2000", "--timeout-idle", "3s",
		  "--timeout-send", "4000ms", "--timeout-drain", "0",
		  "--max-request-line", "1000", "--max-header-bytes", "2000",
		  "--max-header-count", "30", "--max-ranges", "4",
		  "--open-file-cache", "7", "--hidden", "--no-precompressed",
		  "--mime-types", "/etc/m.types", "--ticket-keys",
		  "/etc/t.key", "--pid-file", "/run/tlsxd.pid", "--debug",
		  "--add-header", "X-A:1", "--add-header-always",
		  "X-B: \t two  words\t " },
	.set = "listen 127.0.0.1:8443 [::1]:9443\n"
	       "root /srv/www\n"
	       "cert a.pem a.key b.pem b.key\n"
	       "ticket-keys /etc/t.key\n"
	       "workers 3\n"
	       "user www-data\n"
	       "access-log /var/log/a.log\n"
	       "access-log-format combined-port\n"
	       "error-log /var/log/e.log\n"
	       "mime-types /etc/m.types\n"
	       "pid-file /run/tlsxd.pid\n"
	       "record-layer user\n"
	       "body splice\n"
	       "hidden on\n"
	       "precompressed off\n"
	       "debug on\n"
	       "http2 on\n"
	       "max-request-line 1000\n"
	       "max-header-bytes 2000\n"
	       "max-header-count 30\n"
	       "max-ranges 4\n"
	       "max-conns 77\n"
	       "open-file-cache 7\n"
	       "keepalive-requests 5\n"
	       "timeout-handshake 1000\n"
	       "timeout-header 2000\n"
	       "timeout-idle 3000\n"
	       "timeout-send 4000\n"
	       "timeout-drain 0\n"
	       "timeout-h2-settings 10000\n"
	       "add-header [X-A: 1] [X-B: two  words always]\n",
	.complete = true,
};

/* "--opt=value" as "--opt value"; a later value wins. */
FIXTURE_VARIANT_ADD(settings, option_equals_form_and_later_wins) {
	.args = { "--workers=2", "--root=/a", "--root", "/b",
		  "--record-layer=tlsx", "--record-layer", "tls",
		  "--body=sendfile" },
	.set = "root /b\nworkers 2\nrecord-layer tls\nbody sendfile\n",
};

/* --groups is kept as given: libtlsx parses it (server_tls_build()). */
FIXTURE_VARIANT_ADD(settings, groups) {
	.args = { "--groups", "X25519MLKEM768:X25519" },
	.set = "groups X25519MLKEM768:X25519\n" };

/* Each name of --record-layer and --body. */
FIXTURE_VARIANT_ADD(settings, record_layer_auto) {
	.args = { "--record-layer", "auto" }, .set = "record-layer auto\n" };
FIXTURE_VARIANT_ADD(settings, record_layer_tlsx) {
	.args = { "--record-layer", "tlsx" }, .set = "record-layer tlsx\n" };
FIXTURE_VARIANT_ADD(settings, record_layer_tls) {
	.args = { "--record-layer", "tls" }, .set = "record-layer tls\n" };
FIXTURE_VARIANT_ADD(settings, record_layer_user) {
	.args = { "--record-layer", "user" }, .set = "record-layer user\n" };
FIXTURE_VARIANT_ADD(settings, body_auto) {
	.args = { "--body", "auto" }, .set = "body auto\n" };
FIXTURE_VARIANT_ADD(settings, body_sendfile) {
	.args = { "--body", "sendfile" }, .set = "body sendfile\n" };
FIXTURE_VARIANT_ADD(settings, body_splice) {
	.args = { "--body", "splice" }, .set = "body splice\n" };
FIXTURE_VARIANT_ADD(settings, access_log_format_port) {
	.args = { "--access-log-format", "combined-port" },
	.set = "access-log-format combined-port\n" };
/* combined is the default: a later one undoes combined-port. */
FIXTURE_VARIANT_ADD(settings, access_log_format_combined) {
	.args = { "--access-log-format", "combined-port",
		  "--access-log-format", "combined" },
	.set = "access-log-format combined\n" };

/* Pairs fill in order: the first cert without a key gets the key. */
FIXTURE_VARIANT_ADD(settings, cert_key_pairs_in_order) {
	.args = { "--cert", "a.pem", "--cert", "b.pem", "--key", "a.key",
		  "--key", "b.key" },
	.set = "cert a.pem a.key b.pem b.key\n",
};

/* The key first is fine too. */
FIXTURE_VARIANT_ADD(settings, cert_key_key_first) {
	.args = { "--key", "a.key", "--cert", "a.pem", "--listen", ":1",
		  "--root", "/" },
	.set = "listen :1\nroot /\ncert a.pem a.key\n",
	.complete = true,
};

/* The file: every directive, comments, quotes, "cert FILE KEY". */
FIXTURE_VARIANT_ADD(settings, file_every_directive) {
	.file = full_file, .file_only = true,
	.set = "listen 127.0.0.1:8443 [::1]:8443\n"
	       "root /srv/my site\n"
	       "cert /etc/a.pem /etc/a.key /etc/b.pem /etc/b.key\n"
	       "ticket-keys /etc/tlsxd/ticket \"keys\"\n"
	       "workers 2\n"
	       "user www-data\n"
	       "access-log -\n"
	       "error-log /var/log/tlsxd.err\n"
	       "mime-types /etc/mime.types\n"
	       "pid-file /run/tlsxd.pid\n"
	       "record-layer tls\n"
	       "body sendfile\n"
	       "hidden on\n"
	       "precompressed off\n"
	       "debug on\n"
	       "http2 on\n"
	       "max-request-line 4096\n"
	       "max-header-bytes 8192\n"
	       "max-header-count 50\n"
	       "max-ranges 8\n"
	       "max-conns 100\n"
	       "open-file-cache 0\n"
	       "keepalive-requests 10\n"
	       "timeout-handshake 5000\n"
	       "timeout-header 6000\n"
	       "timeout-idle 7000\n"
	       "timeout-send 8000\n"
	       "timeout-drain 9000\n"
	       "timeout-h2-settings 10000\n"
	       "add-header [X-Frame-Options: DENY] [Cache-Control: max-age=60, public always] [X-Both: a:b] [x-lower: \xc3\xa9t\xc3\xa9 always]\n",
	.complete = true,
};

/*
 * A flag directive takes on/off (yes/no) and turns off what the
 * command line before --config turned on: debug and access-log end as
 * the defaults, precompressed stays on ("no-precompressed no").
 */
FIXTURE_VARIANT_ADD(settings, file_flags_take_on_off) {
	.args = { "--debug", "--access-log", "/x", "--config", "@FILE" },
	.file = "hidden yes\nno-precompressed no\ndebug off\n"
		"access-log off\n",
	.set = "hidden on\n",
};

#define OVERRIDDEN_FILE \
	"listen 127.0.0.1:1\nlisten 127.0.0.1:2\nroot /file\n" \
	"workers 2\ncert f.pem f.key\ntimeout-idle 5s\n" \
	"add-header X-F1 1\nadd-header X-F2 2 always\n"

/* After --config: the command line wins; lists are replaced. */
FIXTURE_VARIANT_ADD(settings, command_line_after_file_wins) {
	.args = { "--config", "@FILE", "--workers", "3", "--listen",
		  "127.0.0.1:3", "--cert", "a.pem", "--key", "a.key",
		  "--add-header", "X-C: 3" },
	.file = OVERRIDDEN_FILE,
	.set = "listen 127.0.0.1:3\nroot /file\ncert a.pem a.key\n"
	       "workers 3\ntimeout-idle 5000\nadd-header [X-C: 3]\n",
	.complete = true,
};

/* Before --config: the file, read where it stands, wins. */
FIXTURE_VARIANT_ADD(settings, file_after_command_line_wins) {
	.args = { "--workers", "3", "--listen", "127.0.0.1:3", "--root",
		  "/cmd", "--add-header", "X-Cmd: 0", "--config", "@FILE" },
	.file = OVERRIDDEN_FILE,
	.set = "listen 127.0.0.1:1 127.0.0.1:2\nroot /file\n"
	       "cert f.pem f.key\nworkers 2\ntimeout-idle 5000\n"
	       "add-header [X-F1: 1] [X-F2: 2 always]\n",
	.complete = true,
};

/* What the file does not set stays as the command line had it. */
FIXTURE_VARIANT_ADD(settings, file_keeps_what_it_does_not_set) {
	.args = { "--max-conns", "9", "--config", "@FILE" },
	.file = OVERRIDDEN_FILE,
	.set = "listen 127.0.0.1:1 127.0.0.1:2\nroot /file\n"
	       "cert f.pem f.key\nworkers 2\nmax-conns 9\n"
	       "timeout-idle 5000\nadd-header [X-F1: 1] [X-F2: 2 always]\n",
	.complete = true,
};

FIXTURE_SETUP(settings)
{
	conf_init(&self->c);
	self->path[0] = '\0';
	if (variant->file)
		write_file(self->path, sizeof(self->path), variant->file,
			   strlen(variant->file));
}

FIXTURE_TEARDOWN(settings)
{
	conf_free(&self->c);
	if (self->path[0])
		unlink(self->path);
}

TEST_F(settings, parsed)
{
	char *argv[ARGS_MAX + 2] = { "tlsxd" };
	char err[256] = "", got[2048], want[2048];
	const char *g, *w;
	int argc = 1;

	if (variant->file_only) {
		ASSERT_EQ(0, conf_load_file(&self->c, self->path, err,
					    sizeof(err)))
			TH_LOG("%s", err);
	} else {
		while (argc <= ARGS_MAX && variant->args[argc - 1]) {
			const char *a = variant->args[argc - 1];

			argv[argc++] = strcmp(a, "@FILE") ? (char *)a :
							    self->path;
		}
		argv[argc] = NULL;
		ASSERT_EQ(0, conf_parse_args(&self->c, argc, argv, err,
					     sizeof(err)))
			TH_LOG("%s", err);
	}
	dump(&self->c, got, sizeof(got));
	expected(_metadata, variant->set, want, sizeof(want));
	/* Line by line, so that a failure names the setting. */
	for (g = got, w = want; *w; w = strchr(w, '\n') + 1) {
		size_t len = strchr(w, '\n') - w;

		EXPECT_EQ(0, strncmp(g, w, len + 1))
			TH_LOG("want \"%.*s\", got \"%.*s\"", (int)len, w,
			       (int)strcspn(g, "\n"), g);
		g += strcspn(g, "\n");
		if (*g)
			g++;
	}
	if (variant->complete)
		EXPECT_EQ(0, conf_check(&self->c, err, sizeof(err)))
			TH_LOG("%s", err);
}

TEST(file_errors_name_file_and_line)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "root /a\nbogus 1\n", "%s:2: unknown directive \"bogus\"" },
		{ "\n\nworkers 0\n", "%s:3: workers: bad number \"0\" (1..1024)" },
		{ "listen 1.2.3.4:x\n", "%s:1: listen: bad port \"x\"" },
		{ "root\n", "%s:1: root: needs a value" },
		{ "root a b\n", "%s:1: root: needs one value" },
		{ "cert a b c\n", "%s:1: cert: needs one value" },
		{ "cert a b c d e\n", "%s:1: too many values" },
		{ "hidden on off\n", "%s:1: hidden: too many values" },
		{ "hidden maybe\n", "%s:1: hidden: bad value \"maybe\" (on or off)" },
		{ "root \"/a\n", "%s:1: unterminated quote" },
		{ "root \"/a\"b\n", "%s:1: text after a closing quote" },
		{ "config /etc/other.conf\n",
		  "%s:1: config: a file cannot include another" },
		{ "help\n", "%s:1: unknown directive \"help\"" },
		{ "--root /a\n", "%s:1: unknown directive \"--root\"" },
		{ "timeout-idle forever\n",
		  "%s:1: timeout-idle: bad duration \"forever\" (milliseconds, or seconds with an s: 10s)" },
		/* add-header: the name a token, not one of tlsxd's own. */
		{ "root /a\n\nadd-header \"Bad Name\" x\n",
		  "%s:3: add-header: \"Bad Name\" is not a field name (RFC 9110 5.1: a token)" },
		{ "add-header X-A: b\n",
		  "%s:1: add-header: \"X-A:\" is not a field name (RFC 9110 5.1: a token)" },
		{ "add-header \": v\"\n", "%s:1: add-header: no field name" },
		{ "add-header content-length 5\n",
		  "%s:1: add-header: Content-Length is not allowed (framing, RFC 9112 6.2)" },
		{ "add-header TRANSFER-encoding chunked\n",
		  "%s:1: add-header: Transfer-Encoding is not allowed (framing, RFC 9112 6.1)" },
		{ "add-header-always Connection close\n",
		  "%s:1: add-header-always: Connection is not allowed (connection management, RFC 9110 7.6.1)" },
		{ "add-header Date x\n",
		  "%s:1: add-header: Date is not allowed (tlsxd writes it, RFC 9110 6.6.1)" },
		{ "add-header Content-Range x\n",
		  "%s:1: add-header: Content-Range is not allowed (tlsxd writes it for ranges, RFC 9110 14.4)" },
		/* The value: field-content, no CR, LF, NUL, no control. */
		{ "add-header X-A \"a\rb\"\n",
		  "%s:1: add-header: X-A: a CR or LF in the value (RFC 9110 5.5)" },
		{ "add-header X-A \"a\x01b\"\n",
		  "%s:1: add-header: X-A: a control character in the value (RFC 9110 5.5)" },
		{ "add-header X-A \"a\x7f\"\n",
		  "%s:1: add-header: X-A: a control character in the value (RFC 9110 5.5)" },
		{ "add-header X-A \"  \"\n", "%s:1: add-header: X-A: empty value" },
		{ "add-header X-A\n",
		  "%s:1: add-header: \"X-A\" is not NAME: VALUE" },
		{ "add-header\n", "%s:1: add-header: needs NAME VALUE" },
		{ "add-header X-A b sometimes\n",
		  "%s:1: add-header: \"sometimes\" after the value (only always)" },
	};
	char path[64], err[256], want[320];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct tlsxd_conf c;

		write_file(path, sizeof(path), bad[i].text,
			   strlen(bad[i].text));
		conf_init(&c);
		err[0] = '\0';
		EXPECT_EQ(-1, conf_load_file(&c, path, err, sizeof(err)))
			TH_LOG("accepted: %s", bad[i].text);
		snprintf(want, sizeof(want), bad[i].msg, path);
		EXPECT_STREQ(want, err);
		conf_free(&c);
		unlink(path);
	}
}

/* The command line's "NAME: VALUE": the same checks. */
TEST(add_header_command_line_refusals)
{
	static const struct {
		const char *opt, *val, *msg;
	} bad[] = {
		{ "--add-header", "X-A: a\nb",
		  "--add-header: X-A: a CR or LF in the value (RFC 9110 5.5)" },
		{ "--add-header", "X-A: a\r\nX-B: b",
		  "--add-header: X-A: a CR or LF in the value (RFC 9110 5.5)" },
		{ "--add-header", "X-A b",
		  "--add-header: \"X-A b\" is not NAME: VALUE" },
		{ "--add-header", "X(A): b",
		  "--add-header: \"X(A)\" is not a field name (RFC 9110 5.1: a token)" },
		{ "--add-header-always", "content-LENGTH: 1",
		  "--add-header-always: Content-Length is not allowed (framing, RFC 9112 6.2)" },
		{ "--add-header", "Vary: Origin",
		  "--add-header: Vary is not allowed (tlsxd writes it for .br and .gz, RFC 9110 12.5.5)" },
		{ "--add-header", "X-A:",
		  "--add-header: X-A: empty value" },
	};
	char err[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, bad1(err, sizeof(err), bad[i].opt, bad[i].val))
			TH_LOG("accepted: %s", bad[i].val);
		EXPECT_STREQ(bad[i].msg, err);
	}
}

/* At most RESP_HEADERS_MAX fields of RESP_HEADERS_BYTES_MAX bytes. */
TEST(add_header_bounds)
{
	static char text[8192];
	struct tlsxd_conf c;
	char path[64], err[256], want[256], value[1001];
	size_t n = 0;
	int i;

	for (i = 0; i < RESP_HEADERS_MAX; i++)
		n += snprintf(text + n, sizeof(text) - n,
			      "add-header X-%d %d\n", i, i);
	write_file(path, sizeof(path), text, n);
	conf_init(&c);
	ASSERT_EQ(0, conf_load_file(&c, path, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(RESP_HEADERS_MAX, c.nheaders);
	EXPECT_STREQ("X-31", c.headers[31].name);
	conf_free(&c);
	unlink(path);

	n += snprintf(text + n, sizeof(text) - n, "add-header X-A a\n");
	write_file(path, sizeof(path), text, n);
	conf_init(&c);
	EXPECT_EQ(-1, conf_load_file(&c, path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:%d: add-header: more than %d fields",
		 path, RESP_HEADERS_MAX + 1, RESP_HEADERS_MAX);
	EXPECT_STREQ(want, err);
	conf_free(&c);
	unlink(path);

	/* Three "X-A: <1000>\r\n" lines are 3021 bytes; a fourth is over. */
	memset(value, 'v', 1000);
	value[1000] = '\0';
	n = 0;
	for (i = 0; i < 4; i++)
		n += snprintf(text + n, sizeof(text) - n,
			      "add-header X-A %s\n", value);
	write_file(path, sizeof(path), text, n);
	conf_init(&c);
	EXPECT_EQ(-1, conf_load_file(&c, path, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "%s:4: add-header: the fields are over %d bytes (\"NAME: VALUE\\r\\n\" each)",
		 path, RESP_HEADERS_BYTES_MAX);
	EXPECT_STREQ(want, err);
	EXPECT_EQ(3, c.nheaders);
	conf_free(&c);
	unlink(path);
}

TEST(file_not_text)
{
	struct tlsxd_conf c;
	char path[64], err[256], want[128], *big;
	size_t n = 5000;

	/* A NUL byte: the file is refused, not read short. */
	write_file(path, sizeof(path), "root /a\0b\n", 10);
	conf_init(&c);
	EXPECT_EQ(-1, conf_load_file(&c, path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: a NUL byte: not a text file", path);
	EXPECT_STREQ(want, err);
	unlink(path);

	/* A line over 4096 bytes. */
	big = malloc(n);
	ASSERT_NE(NULL, big);
	memset(big, 'a', n);
	memcpy(big, "root ", 5);
	write_file(path, sizeof(path), big, n);
	EXPECT_EQ(-1, conf_load_file(&c, path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:1: line over 4096 bytes", path);
	EXPECT_STREQ(want, err);
	unlink(path);
	free(big);

	/* Over 1 MiB: not a configuration. */
	n = (1 << 20) + 10;
	big = malloc(n);
	ASSERT_NE(NULL, big);
	memset(big, '\n', n);
	write_file(path, sizeof(path), big, n);
	EXPECT_EQ(-1, conf_load_file(&c, path, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s: over 1048576 bytes", path);
	EXPECT_STREQ(want, err);
	unlink(path);
	free(big);
	conf_free(&c);
}

TEST(a_file_error_stops_the_command_line)
{
	static const char text[] = "workers 2\nworkers x\n";
	struct tlsxd_conf c;
	char path[64], err[256], want[128];

	write_file(path, sizeof(path), text, sizeof(text) - 1);
	conf_init(&c);
	EXPECT_EQ(-1, parse(&c, err, sizeof(err), "--config", path,
			    "--workers", "3", NULL));
	snprintf(want, sizeof(want),
		 "%s:2: workers: bad number \"x\" (1..1024)", path);
	EXPECT_STREQ(want, err);
	conf_free(&c);
	unlink(path);
}

/* Runs conf_parse_args() with stdout to a file; what it printed. */
static int parse_capture(const char *opt, char *out, size_t cap)
{
	struct tlsxd_conf c;
	char path[64], err[64];
	int saved, fd, r;
	ssize_t n;

	write_file(path, sizeof(path), "", 0);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(path, O_WRONLY | O_TRUNC);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	conf_init(&c);
	r = parse(&c, err, sizeof(err), opt, "--bogus-after-it", NULL);
	conf_free(&c);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	fd = open(path, O_RDONLY);
	n = read(fd, out, cap - 1);
	close(fd);
	unlink(path);
	out[n > 0 ? n : 0] = '\0';
	return r;
}

TEST(help_and_version)
{
	char out[4096];

	EXPECT_EQ(1, parse_capture("--version", out, sizeof(out)));
	EXPECT_STREQ("tlsxd " TLSXD_VERSION ", libtlsx " TLSX_VERSION_STRING
		     "\n", out);
	EXPECT_EQ(1, parse_capture("-V", out, sizeof(out)));
	EXPECT_STREQ("tlsxd " TLSXD_VERSION ", libtlsx " TLSX_VERSION_STRING
		     "\n", out);
	EXPECT_EQ(1, parse_capture("--help", out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "usage: tlsxd --listen", 21));
	/* Every option of the table is in the help text. */
	EXPECT_NE(NULL, strstr(out, "--timeout-drain"));
	EXPECT_NE(NULL, strstr(out, "--max-header-count"));
	EXPECT_NE(NULL, strstr(out, "--no-precompressed"));
	EXPECT_NE(NULL, strstr(out, "--ticket-keys"));
	EXPECT_NE(NULL, strstr(out, "--add-header 'NAME: VALUE'"));
	EXPECT_NE(NULL, strstr(out, "--add-header-always 'NAME: VALUE'"));
	EXPECT_EQ(1, parse_capture("-h", out, sizeof(out)));
	EXPECT_EQ(0, strncmp(out, "usage: tlsxd", 12));
}

/* tools/tlsxd/tlsxd.conf.example, from this file's place in the tree. */
TEST(the_example_file_is_valid)
{
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 0;
	struct tlsxd_conf c;
	char path[256], err[256];

	snprintf(path, sizeof(path), "%.*s%s../../../tools/tlsxd/tlsxd.conf.example",
		 dir, __FILE__, slash ? "/" : "");
	conf_init(&c);
	ASSERT_EQ(0, conf_load_file(&c, path, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(0, conf_check(&c, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(1, c.nlisten);
	EXPECT_EQ(2, c.ncerts);
	EXPECT_STREQ("www-data", c.user);
	conf_free(&c);
}

TEST(free_and_reuse)
{
	struct tlsxd_conf c;
	char err[256];

	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--listen", ":1", "--root",
			   "/", "--cert", "c", "--key", "k", "--user", "u",
			   NULL));
	conf_free(&c);
	EXPECT_EQ(0, c.nlisten);
	EXPECT_EQ(0, c.ncerts);
	EXPECT_EQ(NULL, c.root);
	EXPECT_EQ(4096, c.max_conns);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--listen", ":2", NULL));
	EXPECT_EQ(1, c.nlisten);
	conf_free(&c);
}

/*
 * What a reload does with each option of conf.c's table: the line added
 * to the file, and whether it applies or needs a restart (the running
 * value kept, "restart tlsxd to apply" logged).  An option added to the
 * table without a line here fails every_option_reloads_or_restarts: say
 * what a reload does with it (docs/tlsxd-config.md, "Reloading").
 */
enum on_reload { APPLIES, RESTART, NOT_A_SETTING };

static const struct {
	const char *opt, *line;
	enum on_reload what;
} reload_cases[] = {
	{ "listen", "listen 127.0.0.1:9\n", RESTART },
	{ "listen", "listen 127.0.0.1:9 proxy\n", RESTART },
	{ "metrics", "metrics 127.0.0.1:9100\n", RESTART },
	{ "ticket-keys-watch", "ticket-keys-watch\n", APPLIES },
	{ "root", "root /srv/other\n", APPLIES },
	{ "cert", "cert /c2.pem /k2.pem\n", APPLIES },
	{ "key", "cert /c2.pem\nkey /k2.pem\n", APPLIES },
	{ "ticket-keys", "ticket-keys /t.key\n", APPLIES },
	{ "workers", "workers 7\n", RESTART },
	{ "user", "user nobody\n", RESTART },
	{ "access-log", "access-log /a2.log\n", APPLIES },
	{ "access-log", "access-log off\n", RESTART },
	{ "access-log-format", "access-log-format combined-port\n", APPLIES },
	{ "error-log", "error-log /e2.log\n", APPLIES },
	{ "mime-types", "mime-types /m.types\n", APPLIES },
	{ "pid-file", "pid-file /p.pid\n", RESTART },
	{ "record-layer", "record-layer tls\n", APPLIES },
	{ "groups", "groups X25519:P-256\n", APPLIES },
	{ "body", "body splice\n", RESTART },
	{ "hidden", "hidden\n", APPLIES },
	{ "precompressed", "precompressed off\n", APPLIES },
	{ "no-precompressed", "no-precompressed\n", APPLIES },
	{ "debug", "debug\n", APPLIES },
	{ "http2", "http2 off\n", APPLIES },
	{ "max-conns", "max-conns 100\n", APPLIES },
	{ "max-conns", "max-conns 5000\n", RESTART },
	{ "open-file-cache", "open-file-cache 5\n", RESTART },
	{ "keepalive-requests", "keepalive-requests 3\n", APPLIES },
	{ "timeout-handshake", "timeout-handshake 1s\n", APPLIES },
	{ "timeout-header", "timeout-header 2s\n", APPLIES },
	{ "timeout-idle", "timeout-idle 3s\n", APPLIES },
	{ "timeout-send", "timeout-send 4s\n", APPLIES },
	{ "timeout-drain", "timeout-drain 5s\n", APPLIES },
	{ "timeout-h2-settings", "timeout-h2-settings 3s\n", APPLIES },
	{ "max-request-line", "max-request-line 100\n", APPLIES },
	{ "max-header-bytes", "max-request-line 500\nmax-header-bytes 1000\n",
	  APPLIES },
	{ "max-header-bytes", "max-header-bytes 20000\n", RESTART },
	{ "max-header-count", "max-header-count 7\n", APPLIES },
	{ "max-ranges", "max-ranges 2\n", APPLIES },
	{ "add-header", "add-header X-A 1\nadd-header X-B 2 always\n",
	  APPLIES },
	{ "add-header-always", "add-header-always X-C 3\n", APPLIES },
	{ "config", NULL, NOT_A_SETTING },
	{ "help", NULL, NOT_A_SETTING },
	{ "version", NULL, NOT_A_SETTING },
};

#define RELOAD_BASE \
	"listen 127.0.0.1:8443\nroot /srv\ncert /c.pem /k.pem\n" \
	"access-log /a.log\nadd-header X-Old old\n"

/* runconf_build() on "tlsxd --config @path", as main.c calls it. */
static int build(struct tlsxd_conf *c, const char *path,
		 const struct tlsxd_conf *run,
		 const struct runconf_sized *sized, char *err, size_t errlen)
{
	char *argv[4];

	argv[0] = "tlsxd";
	argv[1] = "--config";
	argv[2] = (char *)path;
	argv[3] = NULL;
	return runconf_build(c, 3, argv, false, run, sized, err, errlen);
}

/* runconf_site() of @c into a zeroed @s: its padding compares too. */
static void site_of(struct site *s, const struct tlsxd_conf *c)
{
	memset(s, 0, sizeof(*s));
	runconf_site(s, c);
}

/*
 * Two sites with the same settings: the added fields' texts, then the
 * rest byte for byte (a field added to struct site and set by
 * runconf_site() is compared without a line here).
 */
static bool same_site(struct site *a, struct site *b)
{
	unsigned int i;

	if (a->nheaders != b->nheaders)
		return false;
	for (i = 0; i < a->nheaders; i++)
		if (strcmp(a->headers[i].name, b->headers[i].name) ||
		    strcmp(a->headers[i].value, b->headers[i].value) ||
		    a->headers[i].always != b->headers[i].always)
			return false;
	a->headers = b->headers;
	return !memcmp(a, b, sizeof(*a));
}

/* How many times @needle is in the file @path. */
static int count_in(const char *path, const char *needle)
{
	char buf[16384], *p;
	int fd = open(path, O_RDONLY), n = 0;
	ssize_t len;

	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[len > 0 ? len : 0] = '\0';
	for (p = buf; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

TEST(every_option_reloads_or_restarts)
{
	char base[64], next[64], logp[64], err[256], text[1024];
	char d_run[2048], d_reloaded[2048], d_fresh[2048];
	struct tlsxd_conf run, nc, fresh;
	struct runconf_sized sized;
	struct site s_reloaded, s_fresh;
	const char *name;
	unsigned int i, k;
	int n, warned;

	/* Every option of the table has its case. */
	for (i = 0; (name = conf_option_name(i)); i++) {
		for (k = 0; k < ARRAY_SIZE(reload_cases); k++)
			if (!strcmp(reload_cases[k].opt, name))
				break;
		EXPECT_LT(k, ARRAY_SIZE(reload_cases))
			TH_LOG("option %s: no reload case (what does SIGHUP do with it?)",
			       name);
	}
	EXPECT_LT(20, i);

	write_file(logp, sizeof(logp), "", 0);
	ASSERT_EQ(0, log_open(logp, false));
	write_file(base, sizeof(base), RELOAD_BASE, strlen(RELOAD_BASE));
	ASSERT_EQ(0, build(&run, base, NULL, NULL, err, sizeof(err)))
		TH_LOG("%s", err);
	sized.max_conns = run.max_conns;
	sized.header_bytes_max = run.http.header_bytes_max;
	dump(&run, d_run, sizeof(d_run));

	for (k = 0; k < ARRAY_SIZE(reload_cases); k++) {
		if (reload_cases[k].what == NOT_A_SETTING)
			continue;
		n = snprintf(text, sizeof(text), "%s%s", RELOAD_BASE,
			     reload_cases[k].line);
		write_file(next, sizeof(next), text, n);
		warned = count_in(logp, "restart tlsxd to apply");

		/* SIGHUP's path, and a fresh start on the same file. */
		ASSERT_EQ(0, build(&nc, next, &run, &sized, err, sizeof(err)))
			TH_LOG("%s: %s", reload_cases[k].line, err);
		ASSERT_EQ(0, build(&fresh, next, NULL, NULL, err,
				   sizeof(err)));
		dump(&nc, d_reloaded, sizeof(d_reloaded));
		dump(&fresh, d_fresh, sizeof(d_fresh));
		EXPECT_STRNE(d_run, d_fresh)
			TH_LOG("%s: the line changes nothing a test sees (dump())",
			       reload_cases[k].line);
		if (reload_cases[k].what == APPLIES) {
			EXPECT_STREQ(d_fresh, d_reloaded)
				TH_LOG("%s: not applied on reload",
				       reload_cases[k].line);
			EXPECT_EQ(warned, count_in(logp,
						   "restart tlsxd to apply"));
			site_of(&s_reloaded, &nc);
			site_of(&s_fresh, &fresh);
			EXPECT_TRUE(same_site(&s_reloaded, &s_fresh))
				TH_LOG("%s: the site differs after reload",
				       reload_cases[k].line);
		} else {
			EXPECT_STREQ(d_run, d_reloaded)
				TH_LOG("%s: a restart-only change applied",
				       reload_cases[k].line);
			EXPECT_EQ(warned + 1,
				  count_in(logp, "restart tlsxd to apply"))
				TH_LOG("%s: not logged", reload_cases[k].line);
		}
		conf_free(&nc);
		conf_free(&fresh);
		unlink(next);
	}
	conf_free(&run);
	unlink(base);
	log_open(NULL, false);
	unlink(logp);
}

/* The added fields reach the site in their order; a reload replaces them. */
TEST(added_fields_reach_the_site)
{
	static const char one[] = RELOAD_BASE "add-header X-B b always\n";
	static const char two[] = "listen 127.0.0.1:8443\nroot /srv\n"
		"cert /c.pem /k.pem\naccess-log /a.log\n"
		"add-header-always X-New new\n";
	struct tlsxd_conf run, nc;
	struct runconf_sized sized = { 4096, 16384 };
	struct site site;
	char p1[64], p2[64], err[256];

	write_file(p1, sizeof(p1), one, sizeof(one) - 1);
	write_file(p2, sizeof(p2), two, sizeof(two) - 1);
	ASSERT_EQ(0, build(&run, p1, NULL, NULL, err, sizeof(err)))
		TH_LOG("%s", err);
	site_of(&site, &run);
	ASSERT_EQ(2, site.nheaders);
	EXPECT_STREQ("X-Old", site.headers[0].name);
	EXPECT_STREQ("old", site.headers[0].value);
	EXPECT_FALSE(site.headers[0].always);
	EXPECT_STREQ("X-B", site.headers[1].name);
	EXPECT_TRUE(site.headers[1].always);

	ASSERT_EQ(0, build(&nc, p2, &run, &sized, err, sizeof(err)))
		TH_LOG("%s", err);
	site_of(&site, &nc);
	ASSERT_EQ(1, site.nheaders);
	EXPECT_STREQ("X-New", site.headers[0].name);
	EXPECT_TRUE(site.headers[0].always);
	conf_free(&run);
	conf_free(&nc);
	unlink(p1);
	unlink(p2);
}

/* runconf_build()'s other answers: a bad file, a failed check, --help. */
TEST(runconf_build_refusals)
{
	struct tlsxd_conf c;
	char path[64], err[256], want[256];
	static const char bad[] = "root /a\nadd-header Server x\n";
	char *help[3], *args[4];
	int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);

	help[0] = args[0] = "tlsxd";
	help[1] = "--version";
	help[2] = NULL;
	args[1] = "--config";
	args[2] = path;
	args[3] = NULL;
	write_file(path, sizeof(path), bad, sizeof(bad) - 1);
	EXPECT_EQ(-1, build(&c, path, NULL, NULL, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "%s:2: add-header: Server is not allowed (tlsxd writes it)",
		 path);
	EXPECT_STREQ(want, err);
	conf_free(&c);
	unlink(path);

	write_file(path, sizeof(path), "root /a\ncert c k\n", 17);
	EXPECT_EQ(-1, build(&c, path, NULL, NULL, err, sizeof(err)));
	EXPECT_STREQ("no --listen address (and no systemd sockets)", err);
	conf_free(&c);
	/* systemd's sockets stand for --listen. */
	EXPECT_EQ(0, runconf_build(&c, 3, args, true, NULL, NULL, err,
				   sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_TRUE(c.systemd);
	conf_free(&c);
	unlink(path);

	fflush(stdout);
	dup2(null, STDOUT_FILENO);
	EXPECT_EQ(1, runconf_build(&c, 2, help, false, NULL, NULL, err,
				   sizeof(err)));
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(null);
	conf_free(&c);
}

TEST_HARNESS_MAIN
