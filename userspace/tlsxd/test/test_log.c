// SPDX-License-Identifier: GPL-2.0
/*
 * test_log.c - tlsxd's logs (log.c):
 *
 *  - the access log's combined-format line, byte for byte: IPv4, IPv6
 *    and IPv4-mapped clients, local time with its offset, a request
 *    that did not parse ("-"), absent fields as "-";
 *  - escaping of '"', '\\', control bytes and bytes over 0x7e as \xHH,
 *    and the caps on long fields (the line stays whole);
 *  - buffering: nothing written before a flush, a full buffer or a line
 *    a second old; only whole lines reach the file; what is left is
 *    written at free;
 *  - two workers' buffers writing at once never interleave lines;
 *  - reopen after a rename (logrotate), for the access and error logs;
 *  - the error log's line shape, levels and the debug switch.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "handshake/engine/test/test_data.h"
#include "tlsxd/log.h"

/* 2000-10-10 13:55:36 UTC: the combined format's own example. */
#define T0	((time_t)971186136)

static struct http_str str(const char *s)
{
	struct http_str r = { s, s ? (uint32_t)strlen(s) : 0 };

	return r;
}

static void mkreq(struct http_req *req, const char *method,
		  const char *target, unsigned int minor, const char *ref,
		  const char *ua)
{
	memset(req, 0, sizeof(*req));
	req->method = HTTP_M_GET;
	req->method_str = str(method);
	req->target = str(target);
	req->version_minor = (uint8_t)minor;
	req->referer = str(ref);
	req->user_agent = str(ua);
}

static struct sockaddr_in v4(const char *a, unsigned int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };

	sin.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, a, &sin.sin_addr);
	return sin;
}

static struct sockaddr_in6 v6(const char *a)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };

	inet_pton(AF_INET6, a, &sin6.sin6_addr);
	return sin6;
}

/* A fresh temporary file name (the file exists, empty). */
static void tmpname(char *path, size_t cap)
{
	int fd;

	snprintf(path, cap, "/tmp/test_log.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		abort();
	close(fd);
}

static void utc(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
}

/* One line for @req from @peer, through a fresh log on a file in @fmt. */
static char *one_line_fmt(const struct sockaddr *peer,
			  const struct http_req *req, int status,
			  uint64_t bytes, enum access_log_format fmt)
{
	struct access_log_buf *b;
	struct access_log *al;
	char path[64], err[128], *text;

	tmpname(path, sizeof(path));
	al = access_log_open(path, err, sizeof(err));
	if (!al)
		abort();
	access_log_set_format(al, fmt);
	b = access_log_buf_new(al);
	access_log_add(b, peer, req, status, bytes, T0);
	access_log_buf_free(b);
	access_log_close(al);
	text = slurp(path, NULL);
	unlink(path);
	return text;
}

static char *one_line(const struct sockaddr *peer, const struct http_req *req,
		      int status, uint64_t bytes)
{
	return one_line_fmt(peer, req, status, bytes, ALOG_FMT_COMBINED);
}

TEST(combined_line)
{
	struct sockaddr_in sin = v4("192.0.2.1", 51000);
	struct http_req req;
	char *line;

	utc();
	mkreq(&req, "GET", "/apache_pb.gif", 1, "http://www.example.com/start.html",
	      "Mozilla/4.08 [en] (Win98; I ;Nav)");
	line = one_line((struct sockaddr *)&sin, &req, 200, 2326);
	EXPECT_STREQ("192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] \"GET /apache_pb.gif HTTP/1.1\" 200 2326 \"http://www.example.com/start.html\" \"Mozilla/4.08 [en] (Win98; I ;Nav)\"\n",
		     line);
	free(line);
}

TEST(local_time_and_offset)
{
	struct sockaddr_in sin = v4("192.0.2.1", 1);
	struct http_req req;
	char *line;

	/* POSIX TZ: "XYZ-2" is two hours east of UTC. */
	setenv("TZ", "XYZ-2", 1);
	tzset();
	mkreq(&req, "HEAD", "/", 0, NULL, NULL);
	line = one_line((struct sockaddr *)&sin, &req, 304, 0);
	EXPECT_STREQ("192.0.2.1 - - [10/Oct/2000:15:55:36 +0200] \"HEAD / HTTP/1.0\" 304 0 \"-\" \"-\"\n",
		     line);
	free(line);
	utc();
}

/* A request that came by HTTP/2 is logged as nginx logs it: HTTP/2.0. */
TEST(http2_protocol)
{
	struct sockaddr_in sin = v4("192.0.2.1", 1);
	struct http_req req;
	char *line;

	utc();
	mkreq(&req, "GET", "/h2", 1, NULL, "h2load");
	req.http2 = true;
	line = one_line((struct sockaddr *)&sin, &req, 200, 7);
	EXPECT_STREQ("192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] \"GET /h2 HTTP/2.0\" 200 7 \"-\" \"h2load\"\n",
		     line);
	free(line);
}

TEST(peers)
{
	struct sockaddr_in6 a = v6("2001:db8::1"), m = v6("::ffff:198.51.100.7");
	struct http_req req;
	char *line;

	utc();
	mkreq(&req, "GET", "/x", 1, "", "curl/8");
	line = one_line((struct sockaddr *)&a, &req, 404, 153);
	EXPECT_STREQ("2001:db8::1 - - [10/Oct/2000:13:55:36 +0000] \"GET /x HTTP/1.1\" 404 153 \"-\" \"curl/8\"\n",
		     line);
	free(line);
	/* A v4 client of a dual-stack socket is logged as IPv4. */
	line = one_line((struct sockaddr *)&m, &req, 404, 153);
	EXPECT_EQ(0, strncmp(line, "198.51.100.7 - - [", 18));
	free(line);
	line = one_line(NULL, &req, 404, 153);
	EXPECT_EQ(0, strncmp(line, "- - - [", 7));
	free(line);
}

/*
 * --access-log-format combined-port: ADDR:PORT, [ADDR]:PORT for IPv6 (a
 * v4-mapped client as IPv4); combined (the default) has no port.
 */
TEST(combined_port_both_families)
{
	static const struct {
		const char *addr;
		unsigned short port;
		const char *combined, *with_port;
	} cases[] = {
		{ "192.0.2.1", 51000, "192.0.2.1 - - [", "192.0.2.1:51000 - - [" },
		{ "0.0.0.0", 0, "0.0.0.0 - - [", "0.0.0.0:0 - - [" },
		{ "2001:db8::1", 443, "2001:db8::1 - - [",
		  "[2001:db8::1]:443 - - [" },
		{ "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535,
		  "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff - - [",
		  "[ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff]:65535 - - [" },
		{ "::ffff:198.51.100.7", 40001, "198.51.100.7 - - [",
		  "198.51.100.7:40001 - - [" },
	};
	struct sockaddr_storage ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	struct http_req req;
	unsigned int i;
	char *line;

	utc();
	mkreq(&req, "GET", "/x", 1, NULL, "curl/8");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&ss, 0, sizeof(ss));
		if (strchr(cases[i].addr, ':')) {
			*sin6 = v6(cases[i].addr);
			sin6->sin6_port = htons(cases[i].port);
		} else {
			*(struct sockaddr_in *)&ss = v4(cases[i].addr,
							cases[i].port);
		}
		line = one_line_fmt((struct sockaddr *)&ss, &req, 200, 3,
				    ALOG_FMT_COMBINED);
		EXPECT_EQ(0, strncmp(line, cases[i].combined,
				     strlen(cases[i].combined)))
			TH_LOG("combined: %s", line);
		free(line);
		line = one_line_fmt((struct sockaddr *)&ss, &req, 200, 3,
				    ALOG_FMT_COMBINED_PORT);
		EXPECT_EQ(0, strncmp(line, cases[i].with_port,
				     strlen(cases[i].with_port)))
			TH_LOG("combined-port: %s", line);
		/* The rest of the line is the combined format's. */
		EXPECT_NE(NULL, strstr(line, "] \"GET /x HTTP/1.1\" 200 3 \"-\" \"curl/8\"\n"));
		free(line);
	}
	/* No peer: "-" in both. */
	line = one_line_fmt(NULL, &req, 200, 3, ALOG_FMT_COMBINED_PORT);
	EXPECT_EQ(0, strncmp(line, "- - - [", 7));
	free(line);
}

/* The whole line, port and all; a reload switches the format mid-buffer. */
TEST(combined_port_line_and_switch)
{
	struct sockaddr_in sin = v4("192.0.2.1", 51000);
	struct sockaddr_in6 a = v6("2001:db8::1");
	struct access_log_buf *b;
	struct access_log *al;
	struct http_req req;
	char path[64], err[128], *text;

	utc();
	a.sin6_port = htons(8080);
	mkreq(&req, "GET", "/apache_pb.gif", 1, "http://www.example.com/start.html",
	      "Mozilla/4.08 [en] (Win98; I ;Nav)");
	tmpname(path, sizeof(path));
	al = access_log_open(path, err, sizeof(err));
	ASSERT_NE(NULL, al);
	b = access_log_buf_new(al);
	access_log_add(b, (struct sockaddr *)&sin, &req, 200, 2326, T0);
	access_log_set_format(al, ALOG_FMT_COMBINED_PORT);
	access_log_add(b, (struct sockaddr *)&sin, &req, 200, 2326, T0);
	access_log_add(b, (struct sockaddr *)&a, &req, 200, 2326, T0);
	access_log_set_format(al, ALOG_FMT_COMBINED);
	access_log_add(b, (struct sockaddr *)&a, &req, 200, 2326, T0);
	access_log_buf_free(b);
	access_log_close(al);
	text = slurp(path, NULL);
	unlink(path);
#define REST " - - [10/Oct/2000:13:55:36 +0000] \"GET /apache_pb.gif HTTP/1.1\" 200 2326 \"http://www.example.com/start.html\" \"Mozilla/4.08 [en] (Win98; I ;Nav)\"\n"
	EXPECT_STREQ("192.0.2.1" REST "192.0.2.1:51000" REST
		     "[2001:db8::1]:8080" REST "2001:db8::1" REST, text);
#undef REST
	free(text);
}

TEST(unparsed_request)
{
	struct sockaddr_in sin = v4("203.0.113.9", 1);
	char *line;

	utc();
	line = one_line((struct sockaddr *)&sin, NULL, 400, 150);
	EXPECT_STREQ("203.0.113.9 - - [10/Oct/2000:13:55:36 +0000] \"-\" 400 150 \"-\" \"-\"\n",
		     line);
	free(line);
}

TEST(escaping)
{
	struct sockaddr_in sin = v4("192.0.2.1", 1);
	struct http_req req;
	char *line;

	utc();
	mkreq(&req, "GET", "/a\"b\\c\x01\x7f\xff\xc3\xa9", 1,
	      "x\" \"forged", "ua\nbad");
	line = one_line((struct sockaddr *)&sin, &req, 200, 1);
	EXPECT_STREQ("192.0.2.1 - - [10/Oct/2000:13:55:36 +0000] \"GET /a\\x22b\\x5Cc\\x01\\x7F\\xFF\\xC3\\xA9 HTTP/1.1\" 200 1 \"x\\x22 \\x22forged\" \"ua\\x0Abad\"\n",
		     line);
	/* One line: the newline only at its end. */
	EXPECT_EQ(strlen(line) - 1, (size_t)(strchr(line, '\n') - line));
	free(line);
}

/*
 * log_escape(): a peer's bytes in an error log line (SNI, ALPN) escaped
 * as the access log's fields, NUL-terminated, cut on a whole escape.
 */
TEST(log_escape_for_error_lines)
{
	char out[64], small[12];
	size_t n;

	n = log_escape(out, sizeof(out), "a\r\nb\"c\\d\x7f\xe9 e", 12);
	EXPECT_STREQ("a\\x0D\\x0Ab\\x22c\\x5Cd\\x7F\\xE9 e", out);
	EXPECT_EQ(strlen(out), n);
	n = log_escape(out, sizeof(out), "www.example.com", 15);
	EXPECT_STREQ("www.example.com", out);
	/* Cut to the buffer: never half an escape, always terminated. */
	n = log_escape(small, sizeof(small), "\n\n\n\n", 4);
	EXPECT_LT(n, sizeof(small));
	EXPECT_STREQ("\\x0A\\x0A...", small);
	EXPECT_EQ(0, log_escape(small, 4, "abc", 3));
	EXPECT_STREQ("", small);
}

TEST(long_fields_are_capped)
{
	struct sockaddr_in sin = v4("192.0.2.1", 1);
	struct http_req req;
	char *target = malloc(9000), *ua = malloc(9000), *line, *q;
	size_t len;

	utc();
	memset(target, 'a', 8999);
	target[0] = '/';
	target[8999] = '\0';
	memset(ua, '"', 8999);	/* each escaped to 4 bytes */
	ua[8999] = '\0';
	mkreq(&req, "GET", target, 1, NULL, ua);
	line = one_line((struct sockaddr *)&sin, &req, 200, 5);
	len = strlen(line);
	EXPECT_GT(len, 6000);
	EXPECT_LT(len, 16384);
	EXPECT_EQ('\n', line[len - 1]);
	EXPECT_EQ(strchr(line, '\n'), line + len - 1);
	/* The cut fields end in "...": the target's, and the agent's. */
	q = strstr(line, "... HTTP/1.1\" 200 5 \"-\" \"");
	EXPECT_NE(NULL, q);
	EXPECT_EQ(0, memcmp(line + len - 5, "...\"\n", 5));
	/* The agent was cut on a whole escape, never inside \x22. */
	EXPECT_EQ(0, memcmp(line + len - 9, "\\x22...\"\n", 9));
	free(line);
	free(target);
	free(ua);
}

/*
 * A log on a fresh file with one worker's buffer: what the buffered
 * tests share.  A test that frees the buffer itself (to see what that
 * writes) sets self->b to NULL.
 */
FIXTURE(buffered) {
	struct sockaddr_in sin;
	struct access_log *al;
	struct access_log_buf *b;
	struct http_req req;
	char path[64];
};

FIXTURE_SETUP(buffered)
{
	char err[128];

	utc();
	self->sin = v4("192.0.2.1", 1);
	tmpname(self->path, sizeof(self->path));
	self->al = access_log_open(self->path, err, sizeof(err));
	ASSERT_NE(NULL, self->al) TH_LOG("%s", err);
	self->b = access_log_buf_new(self->al);
	ASSERT_NE(NULL, self->b);
	mkreq(&self->req, "GET", "/", 1, NULL, NULL);
}

FIXTURE_TEARDOWN(buffered)
{
	if (self->b)
		access_log_buf_free(self->b);
	if (self->al)
		access_log_close(self->al);
	unlink(self->path);
}

/* One line of @bytes at @when into the fixture's buffer. */
static void add(struct access_log_buf *b, const struct sockaddr_in *sin,
		const struct http_req *req, uint64_t bytes, time_t when)
{
	access_log_add(b, (const struct sockaddr *)sin, req, 200, bytes, when);
}

TEST_F(buffered, buffered_until_flush)
{
	char *text;
	size_t len;

	add(self->b, &self->sin, &self->req, 1, T0);
	add(self->b, &self->sin, &self->req, 2, T0);
	text = slurp(self->path, &len);
	EXPECT_EQ(0, len);	/* in the buffer only */
	free(text);
	access_log_flush(self->b);
	text = slurp(self->path, &len);
	EXPECT_NE(NULL, strstr(text, "\" 200 1 \""));
	EXPECT_NE(NULL, strstr(text, "\" 200 2 \""));
	free(text);
	access_log_flush(self->b);	/* nothing more: no duplicate */
	text = slurp(self->path, &len);
	EXPECT_NE(NULL, strstr(text, "\" 200 2 \""));
	EXPECT_EQ(NULL, strstr(strstr(text, "\" 200 2 \"") + 1, "\" 200 2 \""));
	free(text);
}

TEST_F(buffered, a_second_old_line_is_flushed)
{
	char *text;

	add(self->b, &self->sin, &self->req, 1, T0);
	add(self->b, &self->sin, &self->req, 2, T0 + 1);
	text = slurp(self->path, NULL);
	/* The first line went out, the second waits. */
	EXPECT_NE(NULL, strstr(text, "\" 200 1 \""));
	EXPECT_EQ(NULL, strstr(text, "\" 200 2 \""));
	free(text);
	access_log_buf_free(self->b);	/* writes the rest */
	self->b = NULL;
	text = slurp(self->path, NULL);
	EXPECT_NE(NULL, strstr(text, "\" 200 2 \""));
	EXPECT_NE(NULL, strstr(text, "[10/Oct/2000:13:55:37 +0000]"));
	free(text);
}

/* Counts lines of @text and checks that each is a whole log line. */
static unsigned int whole_lines(const char *text, const char *tail)
{
	unsigned int n = 0;
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			return 0;	/* a cut line */
		if (nl - p < (long)strlen(tail) ||
		    memcmp(nl - strlen(tail), tail, strlen(tail)) ||
		    strncmp(p, "192.0.2.1 - - [", 15))
			return 0;
		n++;
		p = nl + 1;
	}
	return n;
}

TEST_F(buffered, full_buffer_writes_whole_lines)
{
	unsigned int i, n;
	char *text, ua[201];
	size_t len;

	memset(ua, 'u', 200);
	ua[200] = '\0';
	mkreq(&self->req, "GET", "/file", 1, NULL, ua);
	/* About 290 bytes a line: 200 lines are 58 KB, several buffers. */
	for (i = 0; i < 200; i++)
		add(self->b, &self->sin, &self->req, i, T0);
	text = slurp(self->path, &len);
	n = whole_lines(text, "uuu\"");
	EXPECT_GT(n, 100);	/* written as the buffer filled */
	EXPECT_LT(n, 200);	/* the last ones still buffered */
	EXPECT_LE(len, 200 * 300);
	free(text);
	access_log_buf_free(self->b);
	self->b = NULL;
	text = slurp(self->path, &len);
	EXPECT_EQ(200, whole_lines(text, "uuu\""));
	free(text);
}

struct writer {
	struct access_log *al;
	unsigned int id;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	struct access_log_buf *b = access_log_buf_new(w->al);
	struct sockaddr_in sin = v4("192.0.2.1", 1);
	struct http_req req;
	char ua[300];
	unsigned int i;

	memset(ua, 'a' + (char)w->id, sizeof(ua) - 1);
	ua[sizeof(ua) - 1] = '\0';
	mkreq(&req, "GET", "/concurrent", 1, NULL, ua);
	for (i = 0; i < 2000; i++)
		access_log_add(b, (struct sockaddr *)&sin, &req, 200, i, T0);
	access_log_buf_free(b);
	return NULL;
}

TEST(workers_never_interleave)
{
	struct writer w[4];
	pthread_t t[4];
	struct access_log *al;
	char path[64], err[128], *text, *p, *nl;
	unsigned int i, count[4] = { 0 };

	utc();
	tmpname(path, sizeof(path));
	al = access_log_open(path, err, sizeof(err));
	ASSERT_NE(NULL, al);
	for (i = 0; i < 4; i++) {
		w[i].al = al;
		w[i].id = i;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, writer_main, &w[i]));
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	access_log_close(al);
	text = slurp(path, NULL);
	/* Each line has one writer's agent whole: no line was split. */
	for (p = text; *p; p = nl + 1) {
		char *ua;
		unsigned int id, k;

		nl = strchr(p, '\n');
		ASSERT_NE(NULL, nl);
		ASSERT_EQ(0, strncmp(p, "192.0.2.1 - - [", 15));
		ua = nl - 301;	/* '"', 299 bytes of agent, '"' */
		ASSERT_EQ('"', ua[0]);
		ASSERT_EQ('"', nl[-1]);
		id = (unsigned int)(ua[1] - 'a');
		ASSERT_LT(id, 4);
		for (k = 1; k < 300; k++)
			ASSERT_EQ('a' + id, ua[k]);
		count[id]++;
	}
	for (i = 0; i < 4; i++)
		EXPECT_EQ(2000, count[i]);
	free(text);
	unlink(path);
}

TEST_F(buffered, reopen_after_rotation)
{
	char old[80], *text;

	snprintf(old, sizeof(old), "%s.1", self->path);
	mkreq(&self->req, "GET", "/before", 1, NULL, NULL);
	add(self->b, &self->sin, &self->req, 1, T0);
	access_log_flush(self->b);
	ASSERT_EQ(0, rename(self->path, old));	/* logrotate */
	ASSERT_EQ(0, access_log_reopen(self->al));
	mkreq(&self->req, "GET", "/after", 1, NULL, NULL);
	add(self->b, &self->sin, &self->req, 2, T0);
	access_log_buf_free(self->b);
	self->b = NULL;
	text = slurp(old, NULL);
	unlink(old);
	EXPECT_NE(NULL, strstr(text, "/before"));
	EXPECT_EQ(NULL, strstr(text, "/after"));
	free(text);
	text = slurp(self->path, NULL);
	EXPECT_NE(NULL, strstr(text, "/after"));
	EXPECT_EQ(NULL, strstr(text, "/before"));
	free(text);
}

TEST(appends_and_creates_0640)
{
	struct sockaddr_in sin = v4("192.0.2.1", 1);
	struct access_log_buf *b;
	struct access_log *al;
	struct http_req req;
	char path[64], err[128], *text;
	struct stat st;
	int fd;

	utc();
	tmpname(path, sizeof(path));
	fd = open(path, O_WRONLY);
	ASSERT_EQ(9, write(fd, "existing\n", 9));
	close(fd);
	al = access_log_open(path, err, sizeof(err));
	ASSERT_NE(NULL, al);
	b = access_log_buf_new(al);
	mkreq(&req, "GET", "/", 1, NULL, NULL);
	access_log_add(b, (struct sockaddr *)&sin, &req, 200, 1, T0);
	access_log_buf_free(b);
	access_log_close(al);
	text = slurp(path, NULL);
	EXPECT_EQ(0, strncmp(text, "existing\n192.0.2.1 ", 19));
	free(text);
	unlink(path);

	umask(0);
	al = access_log_open(path, err, sizeof(err));
	ASSERT_NE(NULL, al);
	ASSERT_EQ(0, stat(path, &st));
	EXPECT_EQ(0640, st.st_mode & 0777);
	access_log_close(al);
	umask(022);
	unlink(path);
}

TEST(open_errors)
{
	char err[128];

	EXPECT_EQ(NULL, access_log_open("/nonexistent/dir/access.log", err,
					sizeof(err)));
	EXPECT_STREQ("/nonexistent/dir/access.log: No such file or directory",
		     err);
	EXPECT_EQ(-ENOENT, log_open("/nonexistent/dir/error.log", false));
}

TEST(stdout_log_is_not_closed)
{
	struct access_log *al;
	char err[128];

	al = access_log_open("-", err, sizeof(err));
	ASSERT_NE(NULL, al);
	EXPECT_EQ(0, access_log_reopen(al));	/* nothing to reopen */
	access_log_close(al);
	EXPECT_NE(-1, fcntl(STDOUT_FILENO, F_GETFD));
}

/* The error log's one shape: "YYYY/MM/DD HH:MM:SS [level] message". */
static bool error_line_ok(const char *l, const char *level, const char *msg)
{
	char want[256];
	unsigned int i;

	for (i = 0; i < 19; i++) {
		char c = l[i];

		if (i == 4 || i == 7) {
			if (c != '/')
				return false;
		} else if (i == 10) {
			if (c != ' ')
				return false;
		} else if (i == 13 || i == 16) {
			if (c != ':')
				return false;
		} else if (c < '0' || c > '9') {
			return false;
		}
	}
	snprintf(want, sizeof(want), " [%s] %s\n", level, msg);
	return !strncmp(l + 19, want, strlen(want));
}

TEST(error_log)
{
	char path[64], old[80], *text, *l, big[4000];

	tmpname(path, sizeof(path));
	ASSERT_EQ(0, log_open(path, false));
	EXPECT_FALSE(log_debug_enabled());
	log_msg(LOG_ERR, "bad %d", 1);
	log_msg(LOG_WARN, "careful");
	log_msg(LOG_INFO, "hello %s", "world");
	log_msg(LOG_DEBUG, "not shown");
	text = slurp(path, NULL);
	l = text;
	EXPECT_TRUE(error_line_ok(l, "error", "bad 1"));
	l = strchr(l, '\n') + 1;
	EXPECT_TRUE(error_line_ok(l, "warn", "careful"));
	l = strchr(l, '\n') + 1;
	EXPECT_TRUE(error_line_ok(l, "info", "hello world"));
	l = strchr(l, '\n') + 1;
	EXPECT_EQ('\0', *l);
	free(text);

	/* --debug: LOG_DEBUG lines too; a long message is cut, still a line. */
	ASSERT_EQ(0, log_open(path, true));
	EXPECT_TRUE(log_debug_enabled());
	log_msg(LOG_DEBUG, "shown");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	log_msg(LOG_INFO, "%s", big);
	text = slurp(path, NULL);
	l = strstr(text, "[debug] shown\n");
	EXPECT_NE(NULL, l);
	l = strchr(l, '\n') + 1;
	EXPECT_EQ(0, strncmp(l + 19, " [info] xxx", 11));
	EXPECT_NE(NULL, strstr(l, "x...\n"));
	EXPECT_LT(strlen(l), 2100);
	EXPECT_EQ('\n', l[strlen(l) - 1]);
	free(text);

	/* Rotation: the old file keeps its lines, new ones go to the new. */
	snprintf(old, sizeof(old), "%s.1", path);
	ASSERT_EQ(0, rename(path, old));
	ASSERT_EQ(0, log_reopen());
	log_msg(LOG_INFO, "after");
	text = slurp(path, NULL);
	EXPECT_TRUE(error_line_ok(text, "info", "after"));
	free(text);
	text = slurp(old, NULL);
	EXPECT_EQ(NULL, strstr(text, "after"));
	free(text);
	unlink(path);
	unlink(old);
}

/*
 * A full disk (/dev/full: every write ENOSPC): the lines are lost and
 * counted, the error log says so once (not at every flush), and the
 * log stays usable.
 */
TEST(a_full_disk_loses_lines_not_the_server)
{
	struct sockaddr_in sin = v4("192.0.2.1", 1);
	struct access_log_buf *b;
	struct access_log *al;
	struct http_req req;
	char path[64], err[128], *text, *l;

	utc();
	tmpname(path, sizeof(path));
	ASSERT_EQ(0, log_open(path, false));
	al = access_log_open("/dev/full", err, sizeof(err));
	ASSERT_NE(NULL, al) TH_LOG("%s", err);
	b = access_log_buf_new(al);
	ASSERT_NE(NULL, b);
	mkreq(&req, "GET", "/", 1, NULL, NULL);
	access_log_add(b, (struct sockaddr *)&sin, &req, 200, 1, T0);
	access_log_add(b, (struct sockaddr *)&sin, &req, 200, 2, T0);
	access_log_add(b, (struct sockaddr *)&sin, &req, 200, 3, T0);
	EXPECT_EQ(0, access_log_lines_lost(al));	/* still buffered */
	access_log_flush(b);
	EXPECT_EQ(3, access_log_lines_lost(al));
	access_log_add(b, (struct sockaddr *)&sin, &req, 200, 4, T0);
	access_log_flush(b);
	EXPECT_EQ(4, access_log_lines_lost(al));
	text = slurp(path, NULL);
	EXPECT_TRUE(error_line_ok(text, "error",
		"access log /dev/full: write: No space left on device: 3 lines lost so far"))
		TH_LOG("%s", text);
	l = strchr(text, '\n');
	ASSERT_NE(NULL, l);
	EXPECT_EQ('\0', l[1]);		/* once a minute, not per flush */
	free(text);
	access_log_buf_free(b);
	access_log_close(al);
	unlink(path);
}

TEST_HARNESS_MAIN
