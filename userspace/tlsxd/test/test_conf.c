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
 *  - --help and --version;
 *  - tools/tlsxd/tlsxd.conf.example is a valid configuration.
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

TEST(defaults)
{
	struct tlsxd_conf c;

	conf_init(&c);
	EXPECT_EQ(0, c.nlisten);
	EXPECT_EQ(NULL, c.root);
	EXPECT_EQ(0, c.ncerts);
	EXPECT_EQ(0, c.workers);
	EXPECT_EQ(TLSX_RL_AUTO, c.record_layer);
	EXPECT_EQ(CONF_BODY_AUTO, c.body);
	EXPECT_FALSE(c.allow_hidden);
	EXPECT_TRUE(c.precompressed);
	EXPECT_FALSE(c.debug);
	EXPECT_EQ(8192, c.http.request_line_max);
	EXPECT_EQ(16384, c.http.header_bytes_max);
	EXPECT_EQ(100, c.http.header_count_max);
	EXPECT_EQ(0, c.http.body_max);
	EXPECT_EQ(16, c.ranges_max);
	EXPECT_EQ(4096, c.max_conns);
	EXPECT_EQ(1000, c.keepalive_requests);
	EXPECT_EQ(10000, c.handshake_timeout_ms);
	EXPECT_EQ(10000, c.header_timeout_ms);
	EXPECT_EQ(60000, c.idle_timeout_ms);
	EXPECT_EQ(60000, c.send_timeout_ms);
	EXPECT_EQ(10000, c.drain_timeout_ms);
	EXPECT_EQ(NULL, c.access_log);
	EXPECT_EQ(NULL, c.error_log);
	conf_free(&c);
}

TEST(every_option)
{
	struct tlsxd_conf c;
	char err[256];

	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err),
			   "--listen", "127.0.0.1:8443", "--listen", "[::1]:9443",
			   "--root", "/srv/www", "--cert", "a.pem", "--key",
			   "a.key", "--cert", "b.pem", "--key", "b.key",
			   "--workers", "3", "--user", "www-data",
			   "--access-log", "/var/log/a.log", "--error-log",
			   "/var/log/e.log", "--record-layer", "user", "--body",
			   "splice", "--max-conns", "77",
			   "--keepalive-requests", "5", "--timeout-handshake",
			   "1s", "--timeout-header", "2000", "--timeout-idle",
			   "3s", "--timeout-send", "4000ms", "--timeout-drain",
			   "0", "--max-request-line", "1000",
			   "--max-header-bytes", "2000", "--max-header-count",
			   "30", "--max-ranges", "4", "--hidden",
			   "--no-precompressed", "--mime-types", "/etc/m.types",
			   "--ticket-keys", "/etc/t.key", "--pid-file",
			   "/run/tlsxd.pid", "--debug", NULL)) {
		TH_LOG("%s", err);
	}
	ASSERT_EQ(2, c.nlisten);
	EXPECT_STREQ("127.0.0.1:8443", c.listen[0]);
	EXPECT_STREQ("[::1]:9443", c.listen[1]);
	EXPECT_STREQ("/srv/www", c.root);
	ASSERT_EQ(2, c.ncerts);
	EXPECT_STREQ("a.pem", c.certs[0].cert_file);
	EXPECT_STREQ("a.key", c.certs[0].key_file);
	EXPECT_STREQ("b.pem", c.certs[1].cert_file);
	EXPECT_STREQ("b.key", c.certs[1].key_file);
	EXPECT_EQ(3, c.workers);
	EXPECT_STREQ("www-data", c.user);
	EXPECT_STREQ("/var/log/a.log", c.access_log);
	EXPECT_STREQ("/var/log/e.log", c.error_log);
	EXPECT_EQ(TLSX_RL_USER, c.record_layer);
	EXPECT_EQ(CONF_BODY_SPLICE, c.body);
	EXPECT_EQ(77, c.max_conns);
	EXPECT_EQ(5, c.keepalive_requests);
	EXPECT_EQ(1000, c.handshake_timeout_ms);
	EXPECT_EQ(2000, c.header_timeout_ms);
	EXPECT_EQ(3000, c.idle_timeout_ms);
	EXPECT_EQ(4000, c.send_timeout_ms);
	EXPECT_EQ(0, c.drain_timeout_ms);
	EXPECT_EQ(1000, c.http.request_line_max);
	EXPECT_EQ(2000, c.http.header_bytes_max);
	EXPECT_EQ(30, c.http.header_count_max);
	EXPECT_EQ(4, c.ranges_max);
	EXPECT_TRUE(c.allow_hidden);
	EXPECT_FALSE(c.precompressed);
	EXPECT_STREQ("/etc/m.types", c.mime_types);
	EXPECT_STREQ("/etc/t.key", c.ticket_key_file);
	EXPECT_STREQ("/run/tlsxd.pid", c.pid_file);
	EXPECT_TRUE(c.debug);
	EXPECT_EQ(0, conf_check(&c, err, sizeof(err)));
	conf_free(&c);
}

TEST(option_equals_form_and_later_wins)
{
	struct tlsxd_conf c;
	char err[256];

	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--workers=2", "--root=/a",
			   "--root", "/b", "--record-layer=tlsx",
			   "--record-layer", "tls", "--body=sendfile", NULL));
	EXPECT_EQ(2, c.workers);
	EXPECT_STREQ("/b", c.root);
	EXPECT_EQ(TLSX_RL_TLS, c.record_layer);
	EXPECT_EQ(CONF_BODY_SENDFILE, c.body);
	conf_free(&c);
}

TEST(record_layer_and_body_names)
{
	static const char *const rl[] = { "auto", "tlsx", "tls", "user" };
	static const char *const body[] = { "auto", "sendfile", "splice" };
	struct tlsxd_conf c;
	char err[256];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		conf_init(&c);
		ASSERT_EQ(0, parse(&c, err, sizeof(err), "--record-layer",
				   rl[i], NULL));
		EXPECT_EQ((enum tlsx_record_layer)i, c.record_layer);
		conf_free(&c);
	}
	for (i = 0; i < 3; i++) {
		conf_init(&c);
		ASSERT_EQ(0, parse(&c, err, sizeof(err), "--body", body[i],
				   NULL));
		EXPECT_EQ((enum conf_body)i, c.body);
		conf_free(&c);
	}
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

TEST(cert_key_pairs)
{
	struct tlsxd_conf c;
	char err[256];

	/* Pairs fill in order: the first cert without a key gets the key. */
	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--cert", "a.pem", "--cert",
			   "b.pem", "--key", "a.key", "--key", "b.key", NULL));
	ASSERT_EQ(2, c.ncerts);
	EXPECT_STREQ("a.pem", c.certs[0].cert_file);
	EXPECT_STREQ("a.key", c.certs[0].key_file);
	EXPECT_STREQ("b.pem", c.certs[1].cert_file);
	EXPECT_STREQ("b.key", c.certs[1].key_file);
	conf_free(&c);

	/* The key first is fine too. */
	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--key", "a.key", "--cert",
			   "a.pem", "--listen", ":1", "--root", "/", NULL));
	ASSERT_EQ(1, c.ncerts);
	EXPECT_STREQ("a.pem", c.certs[0].cert_file);
	EXPECT_STREQ("a.key", c.certs[0].key_file);
	EXPECT_EQ(0, conf_check(&c, err, sizeof(err)));
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
	"hidden on\n"
	"precompressed off\n"
	"debug\n"
	"mime-types /etc/mime.types\n"
	"ticket-keys \"/etc/tlsxd/ticket \\\"keys\\\"\"\n"
	"pid-file /run/tlsxd.pid";	/* no newline at the end */

TEST(file_every_directive)
{
	struct tlsxd_conf c;
	char path[64], err[256];

	write_file(path, sizeof(path), full_file, sizeof(full_file) - 1);
	conf_init(&c);
	ASSERT_EQ(0, conf_load_file(&c, path, err, sizeof(err)))
		TH_LOG("%s", err);
	unlink(path);
	ASSERT_EQ(2, c.nlisten);
	EXPECT_STREQ("127.0.0.1:8443", c.listen[0]);
	EXPECT_STREQ("[::1]:8443", c.listen[1]);
	EXPECT_STREQ("/srv/my site", c.root);
	ASSERT_EQ(2, c.ncerts);
	EXPECT_STREQ("/etc/a.pem", c.certs[0].cert_file);
	EXPECT_STREQ("/etc/a.key", c.certs[0].key_file);
	EXPECT_STREQ("/etc/b.pem", c.certs[1].cert_file);
	EXPECT_STREQ("/etc/b.key", c.certs[1].key_file);
	EXPECT_EQ(2, c.workers);
	EXPECT_STREQ("www-data", c.user);
	EXPECT_STREQ("-", c.access_log);
	EXPECT_STREQ("/var/log/tlsxd.err", c.error_log);
	EXPECT_EQ(TLSX_RL_TLS, c.record_layer);
	EXPECT_EQ(CONF_BODY_SENDFILE, c.body);
	EXPECT_EQ(100, c.max_conns);
	EXPECT_EQ(10, c.keepalive_requests);
	EXPECT_EQ(5000, c.handshake_timeout_ms);
	EXPECT_EQ(6000, c.header_timeout_ms);
	EXPECT_EQ(7000, c.idle_timeout_ms);
	EXPECT_EQ(8000, c.send_timeout_ms);
	EXPECT_EQ(9000, c.drain_timeout_ms);
	EXPECT_EQ(4096, c.http.request_line_max);
	EXPECT_EQ(8192, c.http.header_bytes_max);
	EXPECT_EQ(50, c.http.header_count_max);
	EXPECT_EQ(8, c.ranges_max);
	EXPECT_TRUE(c.allow_hidden);
	EXPECT_FALSE(c.precompressed);
	EXPECT_TRUE(c.debug);
	EXPECT_STREQ("/etc/mime.types", c.mime_types);
	EXPECT_STREQ("/etc/tlsxd/ticket \"keys\"", c.ticket_key_file);
	EXPECT_STREQ("/run/tlsxd.pid", c.pid_file);
	EXPECT_EQ(0, conf_check(&c, err, sizeof(err)));
	conf_free(&c);
}

TEST(file_flags_take_on_off)
{
	static const char text[] =
		"hidden yes\nno-precompressed no\ndebug off\naccess-log off\n";
	struct tlsxd_conf c;
	char path[64], err[256];

	write_file(path, sizeof(path), text, sizeof(text) - 1);
	conf_init(&c);
	c.debug = true;
	c.access_log = strdup("/x");
	ASSERT_EQ(0, conf_load_file(&c, path, err, sizeof(err)))
		TH_LOG("%s", err);
	unlink(path);
	EXPECT_TRUE(c.allow_hidden);
	EXPECT_TRUE(c.precompressed);	/* "no-precompressed no" */
	EXPECT_FALSE(c.debug);
	EXPECT_EQ(NULL, c.access_log);
	conf_free(&c);
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

TEST(command_line_overrides_file)
{
	static const char text[] =
		"listen 127.0.0.1:1\nlisten 127.0.0.1:2\nroot /file\n"
		"workers 2\ncert f.pem f.key\ntimeout-idle 5s\n";
	struct tlsxd_conf c;
	char path[64], err[256];

	write_file(path, sizeof(path), text, sizeof(text) - 1);

	/* After --config: the command line wins; lists are replaced. */
	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--config", path,
			   "--workers", "3", "--listen", "127.0.0.1:3",
			   "--cert", "a.pem", "--key", "a.key", NULL))
		TH_LOG("%s", err);
	EXPECT_EQ(3, c.workers);
	EXPECT_STREQ("/file", c.root);
	EXPECT_EQ(5000, c.idle_timeout_ms);
	ASSERT_EQ(1, c.nlisten);
	EXPECT_STREQ("127.0.0.1:3", c.listen[0]);
	ASSERT_EQ(1, c.ncerts);
	EXPECT_STREQ("a.pem", c.certs[0].cert_file);
	EXPECT_STREQ("a.key", c.certs[0].key_file);
	conf_free(&c);

	/* Before --config: the file, read where it stands, wins. */
	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--workers", "3", "--listen",
			   "127.0.0.1:3", "--root", "/cmd", "--config", path,
			   NULL))
		TH_LOG("%s", err);
	EXPECT_EQ(2, c.workers);
	EXPECT_STREQ("/file", c.root);
	ASSERT_EQ(2, c.nlisten);
	EXPECT_STREQ("127.0.0.1:1", c.listen[0]);
	EXPECT_STREQ("127.0.0.1:2", c.listen[1]);
	ASSERT_EQ(1, c.ncerts);
	EXPECT_STREQ("f.pem", c.certs[0].cert_file);
	conf_free(&c);

	/* What the file does not set stays as the command line had it. */
	conf_init(&c);
	ASSERT_EQ(0, parse(&c, err, sizeof(err), "--max-conns", "9",
			   "--config", path, NULL));
	EXPECT_EQ(9, c.max_conns);
	ASSERT_EQ(0, conf_check(&c, err, sizeof(err)));
	conf_free(&c);
	unlink(path);
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

TEST_HARNESS_MAIN
