// SPDX-License-Identifier: GPL-2.0
/*
 * test_http_req.c - the request head parser (tlsxd/http_req.h):
 *
 *  - every field of struct http_req, and every refusal with its status
 *    (400, 413, 414, 417, 431, 505);
 *  - leading empty lines, bare LF, pipelined heads in one buffer;
 *  - every limit at exactly its bound and one past it, and a limit
 *    crossed before the head ends (a 1 MB request line is 414 at once);
 *  - the incremental property: every prefix of a set of valid and
 *    invalid heads, each in a buffer of its exact size (so ASan sees any
 *    read past it), returns 0 or the whole head's answer, 0 for every
 *    prefix shorter than a valid head, and the same answer from the
 *    first non-zero one on;
 *  - http_req_parse_from() resumed after every split gives the same, and
 *    a 16 KiB head fed a byte per call has each byte scanned once;
 *  - http_list_next() and http_str_ieq().
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/http_req.h"

static const struct http_limits def = HTTP_LIMITS_DEFAULT;

/* Parses @len bytes of @s from a heap copy of exactly that size. */
static int parse_n(struct http_req *req, const char *s, size_t len,
		   const struct http_limits *lim)
{
	char *copy = malloc(len ? len : 1);
	int ret;

	memcpy(copy, s, len);
	ret = http_req_parse(req, copy, len, lim);
	free(copy);
	return ret;
}

static int parse_lim(const char *s, const struct http_limits *lim)
{
	struct http_req req;

	return parse_n(&req, s, strlen(s), lim);
}

static int parse(const char *s)
{
	return parse_lim(s, &def);
}

/* @s holds exactly @lit (case-sensitive). */
static bool str_is(struct http_str s, const char *lit)
{
	return s.p && s.len == strlen(lit) && !memcmp(s.p, lit, s.len);
}

#define H11(fields) "GET / HTTP/1.1\r\nHost: h\r\n" fields "\r\n"

TEST(minimal_get)
{
	const char *s = "GET /a?b HTTP/1.1\r\nHost: example.org\r\n\r\n";
	struct http_req r;

	ASSERT_EQ((int)strlen(s), http_req_parse(&r, s, strlen(s), &def));
	EXPECT_EQ(HTTP_M_GET, r.method);
	EXPECT_TRUE(str_is(r.method_str, "GET"));
	EXPECT_TRUE(str_is(r.target, "/a?b"));
	EXPECT_EQ(1, r.version_minor);
	EXPECT_TRUE(r.keep_alive);
	EXPECT_TRUE(str_is(r.host, "example.org"));
	EXPECT_EQ(1, r.header_count);
	EXPECT_NULL(r.range.p);
	EXPECT_NULL(r.if_range.p);
	EXPECT_NULL(r.if_modified_since.p);
	EXPECT_NULL(r.if_unmodified_since.p);
	EXPECT_NULL(r.user_agent.p);
	EXPECT_NULL(r.referer.p);
	EXPECT_EQ(0, r.if_match.n);
	EXPECT_EQ(0, r.if_none_match.n);
	EXPECT_FALSE(r.accept_gzip);
	EXPECT_FALSE(r.accept_br);
	EXPECT_FALSE(r.has_content_length);
	EXPECT_FALSE(r.expect_continue);
}

TEST(methods)
{
	struct http_req r;
	const char *s;

	s = "HEAD / HTTP/1.1\r\nHost: h\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_EQ(HTTP_M_HEAD, r.method);
	/* RFC 9110 9.1: case-sensitive; other tokens are 405's business. */
	s = "get / HTTP/1.1\r\nHost: h\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_EQ(HTTP_M_OTHER, r.method);
	EXPECT_TRUE(str_is(r.method_str, "get"));
	s = "PURGE! / HTTP/1.1\r\nHost: h\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_EQ(HTTP_M_OTHER, r.method);
	s = "GETS / HTTP/1.1\r\nHost: h\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_EQ(HTTP_M_OTHER, r.method);
	/* Not a token. */
	EXPECT_EQ(-400, parse("GE(T / HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GE\"T / HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("G\xc3\x89T / HTTP/1.1\r\nHost: h\r\n\r\n"));
}

TEST(http10_persistence)
{
	struct http_req r;
	const char *s;

	s = "GET / HTTP/1.0\r\n\r\n";
	ASSERT_EQ((int)strlen(s), http_req_parse(&r, s, strlen(s), &def));
	EXPECT_EQ(0, r.version_minor);
	EXPECT_FALSE(r.keep_alive);
	EXPECT_NULL(r.host.p);
	s = "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(r.keep_alive);
	s = "GET / HTTP/1.0\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_FALSE(r.keep_alive);
	/* Two Hosts are 400 in any version (RFC 9112 3.2). */
	EXPECT_EQ(-400, parse("GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n"));
}

TEST(http11_connection)
{
	struct http_req r;
	const char *s;

	s = H11("Connection: close\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_FALSE(r.keep_alive);
	s = H11("Connection: Upgrade, TE\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(r.keep_alive);
	s = H11("Connection: TE,\t CLOSE \r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_FALSE(r.keep_alive);
	s = H11("connection: keep-alive\r\nCONNECTION: foo, close\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_FALSE(r.keep_alive);
	/* "closed" is not "close". */
	s = H11("Connection: closed\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(r.keep_alive);
}

TEST(version)
{
	struct http_req r;
	const char *s;

	/* RFC 9110 2.5: 1.x above 1.1 is served as 1.1. */
	s = "GET / HTTP/1.2\r\nHost: h\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_EQ(1, r.version_minor);
	EXPECT_EQ(-505, parse("GET / HTTP/2.0\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-505, parse("GET / HTTP/0.9\r\n\r\n"));
	EXPECT_EQ(-505, parse("GET / HTTP/9.1\r\n\r\n"));
	/* RFC 9112 2.3: "HTTP" is case-sensitive, one digit each side. */
	EXPECT_EQ(-400, parse("GET / http/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.10\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/11\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/a.1\r\nHost: h\r\n\r\n"));
	/* HTTP/0.9's request line has no version: not served. */
	EXPECT_EQ(-400, parse("GET /\r\n\r\n"));
}

TEST(request_line_syntax)
{
	EXPECT_EQ(-400, parse("GET  / HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET /  HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET\t/ HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET /\tHTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1 \r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse(" GET / HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET\r\nHost: h\r\n\r\n"));
	/* A bare CR in the request line (RFC 9112 2.2). */
	EXPECT_EQ(-400, parse("GET /\r HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\r\nHost: h\r\n\r\n"));
	/* The target: visible US-ASCII only (RFC 3986 2). */
	EXPECT_EQ(-400, parse("GET /\x01 HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET /\x7f HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET /\xc3\xa9 HTTP/1.1\r\nHost: h\r\n\r\n"));
}

TEST(request_line_nul)
{
	static const char s[] = "GET /\0 HTTP/1.1\r\nHost: h\r\n\r\n";
	struct http_req r;

	EXPECT_EQ(-400, parse_n(&r, s, sizeof(s) - 1, &def));
}

TEST(target_forms)
{
	struct http_req r;
	const char *s;

	/* RFC 9112 3.2.2: absolute-form; its authority replaces Host. */
	s = "GET http://example.com/x HTTP/1.1\r\nHost: other\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(str_is(r.target, "http://example.com/x"));
	EXPECT_TRUE(str_is(r.host, "example.com"));
	s = "GET HTTPS://a.b:8443?q HTTP/1.1\r\nHost: a.b\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(str_is(r.host, "a.b:8443"));
	s = "GET http://[::1]:80/ HTTP/1.1\r\nHost: x\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(str_is(r.host, "[::1]:80"));
	/* Host is still required in 1.1 (RFC 9112 3.2). */
	EXPECT_EQ(-400, parse("GET http://a/ HTTP/1.1\r\n\r\n"));
	/* An empty host (RFC 9110 4.2.1) or userinfo (4.2.4). */
	EXPECT_EQ(-400, parse("GET http:///x HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET http://:80/x HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET http://u@h/ HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET http://a b/ HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET http://a:x/ HTTP/1.1\r\nHost: h\r\n\r\n"));
	/* Other schemes, asterisk-form, authority-form, relative. */
	EXPECT_EQ(-400, parse("GET ftp://a/ HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET http:/a HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("CONNECT h:443 HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET a/b HTTP/1.1\r\nHost: h\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET ?x HTTP/1.1\r\nHost: h\r\n\r\n"));
}

TEST(host)
{
	struct http_req r;
	const char *s;

	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n"));
	/* RFC 9110 7.2: an empty Host is valid. */
	s = "GET / HTTP/1.1\r\nHost:\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_NE(NULL, r.host.p);
	EXPECT_EQ(0, r.host.len);
	s = "GET / HTTP/1.1\r\nhOsT: \t [::1]:8443 \r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(str_is(r.host, "[::1]:8443"));
	s = "GET / HTTP/1.1\r\nHost: ex%41mple.org:\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: a b\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: a:80x\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: a:1:2\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: u@a\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: a%4\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: [::1\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: [::1]x\r\n\r\n"));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost: \xc3\xa9\r\n\r\n"));
}

TEST(singleton_fields)
{
	const char *s = H11("Range:  bytes=0-1 \r\n"
			    "If-Range: \"e\"\r\n"
			    "If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
			    "if-unmodified-since:Sun, 06 Nov 1994 08:49:37 GMT\r\n"
			    "User-Agent: curl/8.0 (x)\t\r\n"
			    "REFERER: https://a/\r\n"
			    "X-Other: ignored\r\n");
	struct http_req r;

	ASSERT_EQ((int)strlen(s), http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(str_is(r.range, "bytes=0-1"));
	EXPECT_TRUE(str_is(r.if_range, "\"e\""));
	EXPECT_TRUE(str_is(r.if_modified_since,
			   "Sun, 06 Nov 1994 08:49:37 GMT"));
	EXPECT_TRUE(str_is(r.if_unmodified_since,
			   "Sun, 06 Nov 1994 08:49:37 GMT"));
	EXPECT_TRUE(str_is(r.user_agent, "curl/8.0 (x)"));
	EXPECT_TRUE(str_is(r.referer, "https://a/"));
	EXPECT_EQ(8, r.header_count);
}

TEST(singleton_repeated)
{
	static const char * const names[] = {
		"Range", "If-Range", "If-Modified-Since",
		"If-Unmodified-Since", "User-Agent", "Referer",
	};
	char buf[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(buf, sizeof(buf), H11("%s: a\r\n%s: a\r\n"),
			 names[i], names[i]);
		EXPECT_EQ(-400, parse(buf)) TH_LOG("%s", names[i]);
	}
}

TEST(list_fields)
{
	const char *s = H11("If-None-Match: \"a\", W/\"b\"\r\n"
			    "If-Match: *\r\n"
			    "If-None-Match: \"c\"\r\n"
			    "If-None-Match:\r\n"
			    "If-None-Match: \"d\" \r\n");
	struct http_req r;

	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	ASSERT_EQ(4, r.if_none_match.n);
	EXPECT_TRUE(str_is(r.if_none_match.v[0], "\"a\", W/\"b\""));
	EXPECT_TRUE(str_is(r.if_none_match.v[1], "\"c\""));
	EXPECT_EQ(0, r.if_none_match.v[2].len);
	EXPECT_TRUE(str_is(r.if_none_match.v[3], "\"d\""));
	ASSERT_EQ(1, r.if_match.n);
	EXPECT_TRUE(str_is(r.if_match.v[0], "*"));
	/* One more occurrence than HTTP_LIST_MAX. */
	EXPECT_EQ(-400, parse(H11("If-Match: a\r\nIf-Match: b\r\n"
				  "If-Match: c\r\nIf-Match: d\r\n"
				  "If-Match: e\r\n")));
	EXPECT_EQ(-400, parse(H11("If-None-Match: a\r\nIf-None-Match: b\r\n"
				  "If-None-Match: c\r\nIf-None-Match: d\r\n"
				  "If-None-Match: e\r\n")));
}

TEST(accept_encoding)
{
	static const struct {
		const char *fields;
		bool gzip, br;
	} t[] = {
		{ "", false, false },
		{ "Accept-Encoding: gzip\r\n", true, false },
		{ "Accept-Encoding: br\r\n", false, true },
		{ "Accept-Encoding: gzip, deflate, br\r\n", true, true },
		{ "Accept-Encoding: GZIP, Br\r\n", true, true },
		{ "Accept-Encoding: x-gzip\r\n", true, false },
		{ "Accept-Encoding: gzip;q=0\r\n", false, false },
		{ "Accept-Encoding: gzip;q=0.000, br;q=0.001\r\n", false, true },
		{ "Accept-Encoding: gzip ; Q=0.5 ,br;q=1.000\r\n", true, true },
		{ "Accept-Encoding: gzip;q=0.55\r\n", true, false },
		{ "Accept-Encoding: *\r\n", true, true },
		{ "Accept-Encoding: *;q=0\r\n", false, false },
		{ "Accept-Encoding: *, gzip;q=0\r\n", false, true },
		{ "Accept-Encoding: br;q=0, *;q=0.1\r\n", true, false },
		{ "Accept-Encoding: deflate, identity\r\n", false, false },
		{ "Accept-Encoding:\r\n", false, false },
		/* Repeated fields combine (RFC 9110 5.3). */
		{ "Accept-Encoding: gzip\r\nAccept-Encoding: br\r\n", true, true },
		/* Listed twice: the higher weight. */
		{ "Accept-Encoding: gzip;q=0, gzip;q=0.3\r\n", true, false },
		{ "Accept-Encoding: gzip;q=0.3, gzip;q=0\r\n", true, false },
		/* Malformed weights or parameters: the element is ignored. */
		{ "Accept-Encoding: gzip;q=1.5\r\n", false, false },
		{ "Accept-Encoding: gzip;q=2\r\n", false, false },
		{ "Accept-Encoding: gzip;q=0.1234\r\n", false, false },
		{ "Accept-Encoding: gzip;q=\r\n", false, false },
		{ "Accept-Encoding: gzip;q=.5\r\n", false, false },
		{ "Accept-Encoding: gzip;level=1\r\n", false, false },
		{ "Accept-Encoding: gzip;q=0.5;x=1\r\n", false, false },
		{ "Accept-Encoding: gzip br\r\n", false, false },
		{ "Accept-Encoding: gzipx, brotli\r\n", false, false },
	};
	char buf[256];
	struct http_req r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		snprintf(buf, sizeof(buf), H11("%s"), t[i].fields);
		ASSERT_LT(0, http_req_parse(&r, buf, strlen(buf), &def));
		EXPECT_EQ(t[i].gzip, r.accept_gzip) TH_LOG("%s", t[i].fields);
		EXPECT_EQ(t[i].br, r.accept_br) TH_LOG("%s", t[i].fields);
	}
}

TEST(content_length)
{
	struct http_limits lim = def;
	struct http_req r;
	const char *s;

	s = H11("Content-Length: 0\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(r.has_content_length);
	EXPECT_EQ(0, r.content_length);
	/* Over body_max (0 by default): 413. */
	EXPECT_EQ(-413, parse(H11("Content-Length: 1\r\n")));
	EXPECT_EQ(-413, parse("POST / HTTP/1.1\r\nHost: h\r\n"
			      "Content-Length: 5\r\n\r\n"));
	lim.body_max = 100;
	s = H11("Content-Length: 007\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &lim));
	EXPECT_EQ(7, r.content_length);
	/* RFC 9110 8.6: identical values, in a list or repeated. */
	s = H11("Content-Length: 42, 42\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &lim));
	EXPECT_EQ(42, r.content_length);
	s = H11("Content-Length: 42\r\ncontent-length: 42,42\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &lim));
	EXPECT_EQ(42, r.content_length);
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: 42, 43\r\n"), &lim));
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: 4\r\n"
				      "Content-Length: 5\r\n"), &lim));
	/* Digits only (RFC 9112 6.3). */
	EXPECT_EQ(-400, parse_lim(H11("Content-Length:\r\n"), &lim));
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: ,\r\n"), &lim));
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: -1\r\n"), &lim));
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: +1\r\n"), &lim));
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: 0x1\r\n"), &lim));
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: 1 2\r\n"), &lim));
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: \"1\"\r\n"), &lim));
	/* 2^64 - 1 fits; 2^64 and beyond are 400, not 413. */
	lim.body_max = UINT64_MAX;
	s = H11("Content-Length: 18446744073709551615\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &lim));
	EXPECT_EQ(UINT64_MAX, r.content_length);
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: 18446744073709551616\r\n"),
				  &lim));
	EXPECT_EQ(-400, parse_lim(H11("Content-Length: 99999999999999999999\r\n"),
				  &lim));
	EXPECT_EQ(-400, parse(H11("Content-Length: 18446744073709551616\r\n")));
}

TEST(transfer_encoding)
{
	EXPECT_EQ(-413, parse(H11("Transfer-Encoding: chunked\r\n")));
	EXPECT_EQ(-413, parse(H11("transfer-encoding: identity\r\n")));
	EXPECT_EQ(-413, parse(H11("Content-Length: 0\r\n"
				  "Transfer-Encoding: chunked\r\n")));
	EXPECT_EQ(-413, parse("GET / HTTP/1.0\r\nTransfer-Encoding: x\r\n\r\n"));
	EXPECT_EQ(-413, parse(H11("Transfer-Encoding:\r\n")));
}

TEST(expect)
{
	struct http_req r;
	const char *s;

	s = H11("Expect: 100-Continue\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(r.expect_continue);
	/* RFC 9110 10.1.1: ignored in 1.0. */
	s = "GET / HTTP/1.0\r\nExpect: 100-continue\r\n\r\n";
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_FALSE(r.expect_continue);
	EXPECT_EQ(-417, parse(H11("Expect: 200-ok\r\n")));
	EXPECT_EQ(-417, parse(H11("Expect: 100-continue, x\r\n")));
	EXPECT_EQ(-417, parse(H11("Expect: 100-continue\r\nExpect: y\r\n")));
}

TEST(field_syntax)
{
	struct http_req r;
	const char *s;

	/* RFC 9112 5.1: no whitespace before the colon. */
	EXPECT_EQ(-400, parse(H11("Range : bytes=0-1\r\n")));
	EXPECT_EQ(-400, parse(H11("Range\t: bytes=0-1\r\n")));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\nHost : h\r\n\r\n"));
	/* Not a token; no name; no colon. */
	EXPECT_EQ(-400, parse(H11("X(y): 1\r\n")));
	EXPECT_EQ(-400, parse(H11("X\xc3\xa9: 1\r\n")));
	EXPECT_EQ(-400, parse(H11(": 1\r\n")));
	EXPECT_EQ(-400, parse(H11("X-No-Colon\r\n")));
	/* RFC 9112 5.2: obs-fold; 2.2: whitespace after the request line. */
	EXPECT_EQ(-400, parse(H11("X-A: a\r\n b\r\n")));
	EXPECT_EQ(-400, parse(H11("X-A: a\r\n\tb\r\n")));
	EXPECT_EQ(-400, parse("GET / HTTP/1.1\r\n Host: h\r\n\r\n"));
	/* RFC 9110 5.5: CTLs in a value; bare CR (RFC 9112 2.2). */
	EXPECT_EQ(-400, parse(H11("X-A: a\x01\r\n")));
	EXPECT_EQ(-400, parse(H11("X-A: a\x7f\r\n")));
	EXPECT_EQ(-400, parse(H11("X-A: a\rb\r\n")));
	EXPECT_EQ(-400, parse(H11("X-A: a\r\r\n")));
	EXPECT_EQ(-400, parse(H11("X-A\r: a\r\n")));
	EXPECT_EQ(-400, parse(H11("\r\r\n")));
	/* HTAB and obs-text are allowed; OWS is trimmed. */
	s = H11("User-Agent: \t a\tb \xff\xfe \t \r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(str_is(r.user_agent, "a\tb \xff\xfe"));
}

TEST(field_nul)
{
	static const char s[] = "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\0b\r\n\r\n";
	static const char n[] = "GET / HTTP/1.1\r\nHost: h\r\nX\0A: a\r\n\r\n";
	struct http_req r;

	EXPECT_EQ(-400, parse_n(&r, s, sizeof(s) - 1, &def));
	EXPECT_EQ(-400, parse_n(&r, n, sizeof(n) - 1, &def));
}

TEST(leading_empty_lines)
{
	const char *s = "\r\n\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n";
	struct http_req r;

	ASSERT_EQ((int)strlen(s), http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(str_is(r.method_str, "GET"));
	EXPECT_TRUE(str_is(r.target, "/"));
	EXPECT_EQ(0, parse("\r\n"));
	EXPECT_EQ(0, parse("\r\n\r\n\r"));
	EXPECT_EQ(0, parse("\r\nGET / HTTP/1.1\r\n"));
}

TEST(bare_lf)
{
	const char *s = "GET /x HTTP/1.1\nHost: h\nRange: bytes=1-\r\n\n";
	struct http_req r;

	ASSERT_EQ((int)strlen(s), http_req_parse(&r, s, strlen(s), &def));
	EXPECT_TRUE(str_is(r.target, "/x"));
	EXPECT_TRUE(str_is(r.host, "h"));
	EXPECT_TRUE(str_is(r.range, "bytes=1-"));
	s = "GET / HTTP/1.1\r\nHost: h\n\r\n";
	EXPECT_EQ((int)strlen(s), parse(s));
	s = "GET / HTTP/1.1\r\nHost: h\r\n\n";
	EXPECT_EQ((int)strlen(s), parse(s));
}

TEST(pipelined)
{
	const char *a = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n";
	const char *b = "HEAD /b HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n";
	const char *c = "GET /c HTTP/1.1\r\nHost:";
	char buf[512];
	struct http_req r;
	size_t off = 0, len;
	int ret;

	len = snprintf(buf, sizeof(buf), "%s%s%s", a, b, c);
	ret = http_req_parse(&r, buf, len, &def);
	ASSERT_EQ((int)strlen(a), ret);
	EXPECT_TRUE(str_is(r.target, "/a"));
	EXPECT_TRUE(r.keep_alive);
	off += ret;
	ret = http_req_parse(&r, buf + off, len - off, &def);
	ASSERT_EQ((int)strlen(b), ret);
	EXPECT_EQ(HTTP_M_HEAD, r.method);
	EXPECT_TRUE(str_is(r.target, "/b"));
	EXPECT_FALSE(r.keep_alive);
	off += ret;
	EXPECT_EQ(0, http_req_parse(&r, buf + off, len - off, &def));
	/* A bad second head does not spoil the first. */
	len = snprintf(buf, sizeof(buf), "%sGET / HTTP/3.0\r\n\r\n", a);
	EXPECT_EQ((int)strlen(a), http_req_parse(&r, buf, len, &def));
	EXPECT_EQ(-505, http_req_parse(&r, buf + strlen(a), len - strlen(a),
				       &def));
	/* More bytes after the first head than the whole bound allows. */
	memset(buf, 'x', sizeof(buf));
	memcpy(buf, a, strlen(a));
	EXPECT_EQ((int)strlen(a), http_req_parse(&r, buf, sizeof(buf), &def));
	{
		struct http_limits lim = { 64, 100, 10, 0 };

		EXPECT_EQ((int)strlen(a),
			  http_req_parse(&r, buf, sizeof(buf), &lim));
		EXPECT_EQ(-414, http_req_parse(&r, buf + strlen(a),
					       sizeof(buf) - strlen(a), &lim));
	}
}

TEST(incomplete)
{
	EXPECT_EQ(0, parse(""));
	EXPECT_EQ(0, parse("G"));
	EXPECT_EQ(0, parse("GET / HTTP/1.1"));
	EXPECT_EQ(0, parse("GET / HTTP/1.1\r"));
	EXPECT_EQ(0, parse("GET / HTTP/1.1\r\n"));
	EXPECT_EQ(0, parse("GET / HTTP/1.1\r\nHost: h\r\n"));
	EXPECT_EQ(0, parse("GET / HTTP/1.1\r\nHost: h\r\n\r"));
	/* Syntax is judged on the whole head only. */
	EXPECT_EQ(0, parse("GET  / HTTP/9.9\r\nX : y\r\n"));
}

/* Builds "GET /xxx HTTP/1.1" with a request line of @n content bytes. */
static size_t request_line(char *buf, size_t n)
{
	static const char pre[] = "GET /", post[] = " HTTP/1.1";
	size_t k = n - (sizeof(pre) - 1) - (sizeof(post) - 1);

	memcpy(buf, pre, sizeof(pre) - 1);
	memset(buf + sizeof(pre) - 1, 'a', k);
	memcpy(buf + n - (sizeof(post) - 1), post, sizeof(post) - 1);
	return n;
}

TEST(limit_request_line)
{
	struct http_limits lim = { 64, 1024, 10, 0 };
	struct http_req r;
	char buf[256];
	size_t n;

	/* Exactly request_line_max content bytes, CRLF or bare LF. */
	n = request_line(buf, 64);
	memcpy(buf + n, "\r\nHost: h\r\n\r\n", 13);
	EXPECT_EQ((int)n + 13, parse_n(&r, buf, n + 13, &lim));
	EXPECT_EQ(0, parse_n(&r, buf, n + 1, &lim));	/* ends in CR */
	memcpy(buf + n, "\nHost: h\n\n", 10);
	EXPECT_EQ((int)n + 10, parse_n(&r, buf, n + 10, &lim));
	/* One past it. */
	n = request_line(buf, 65);
	memcpy(buf + n, "\r\nHost: h\r\n\r\n", 13);
	EXPECT_EQ(-414, parse_n(&r, buf, n + 13, &lim));
	memcpy(buf + n, "\nHost: h\n\n", 10);
	EXPECT_EQ(-414, parse_n(&r, buf, n + 10, &lim));
	/* Known at once, before any LF: 65 bytes, or 64 and a non-CR. */
	EXPECT_EQ(-414, parse_n(&r, buf, 65, &lim));
	EXPECT_EQ(0, parse_n(&r, buf, 64, &lim));
	/* Leading empty lines are not part of the request line. */
	memcpy(buf, "\r\n\r\n", 4);
	n = request_line(buf + 4, 64) + 4;
	memcpy(buf + n, "\r\nHost: h\r\n\r\n", 13);
	EXPECT_EQ((int)n + 13, parse_n(&r, buf, n + 13, &lim));
}

TEST(limit_request_line_1mb)
{
	size_t len = 1 << 20;
	char *buf = malloc(len);
	struct http_req r;

	ASSERT_NE(NULL, buf);
	request_line(buf, len);
	/* The default limit: 8192 bytes, checked within 16 KiB. */
	EXPECT_EQ(-414, http_req_parse(&r, buf, len, &def));
	EXPECT_EQ(-414, http_req_parse(&r, buf, 8194, &def));
	EXPECT_EQ(0, http_req_parse(&r, buf, 8192, &def));
	free(buf);
}

/* A head of exactly @total bytes: one X-Pad field fills it up. */
static size_t head_of(char *buf, size_t total)
{
	static const char pre[] = "GET / HTTP/1.1\r\nHost: h\r\nX-Pad: ";
	size_t k = total - (sizeof(pre) - 1) - 4;

	memcpy(buf, pre, sizeof(pre) - 1);
	memset(buf + sizeof(pre) - 1, 'p', k);
	memcpy(buf + total - 4, "\r\n\r\n", 4);
	return total;
}

TEST(limit_header_bytes)
{
	struct http_limits lim = { 64, 200, 10, 0 };
	struct http_req r;
	char buf[512];

	head_of(buf, 200);
	EXPECT_EQ(200, parse_n(&r, buf, 200, &lim));
	EXPECT_EQ(0, parse_n(&r, buf, 199, &lim));
	head_of(buf, 201);
	EXPECT_EQ(-431, parse_n(&r, buf, 201, &lim));
	/* No end within the bound: 431 as soon as a byte is past it. */
	EXPECT_EQ(-431, parse_n(&r, buf, 201, &lim));
	EXPECT_EQ(0, parse_n(&r, buf, 200, &lim));
	head_of(buf, 400);
	EXPECT_EQ(-431, parse_n(&r, buf, 201, &lim));
	EXPECT_EQ(-431, parse_n(&r, buf, 400, &lim));
	/* Leading empty lines count. */
	memcpy(buf, "\r\n", 2);
	head_of(buf + 2, 198);
	EXPECT_EQ(200, parse_n(&r, buf, 200, &lim));
	memcpy(buf, "\r\n\n", 3);
	head_of(buf + 3, 198);
	EXPECT_EQ(-431, parse_n(&r, buf, 201, &lim));
	/* Only empty lines, past the bound. */
	memset(buf, '\n', 201);
	EXPECT_EQ(0, parse_n(&r, buf, 200, &lim));
	EXPECT_EQ(-431, parse_n(&r, buf, 201, &lim));
	/* The default bound, 16 KiB. */
	{
		char *big = malloc(16385);

		ASSERT_NE(NULL, big);
		head_of(big, 16384);
		EXPECT_EQ(16384, parse_n(&r, big, 16384, &def));
		head_of(big, 16385);
		EXPECT_EQ(-431, parse_n(&r, big, 16385, &def));
		free(big);
	}
}

TEST(limit_header_count)
{
	struct http_limits lim = { 64, 1024, 3, 0 };
	struct http_req r;
	const char *s;

	s = H11("A: 1\r\nB: 2\r\n");
	ASSERT_LT(0, http_req_parse(&r, s, strlen(s), &lim));
	EXPECT_EQ(3, r.header_count);
	EXPECT_EQ(-431, parse_lim(H11("A: 1\r\nB: 2\r\nC: 3\r\n"), &lim));
	/* Known when the fourth line is complete, before the head ends. */
	EXPECT_EQ(-431, parse_lim("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n"
				  "C: 3\r\nD: 4\r\n", &lim));
	EXPECT_EQ(0, parse_lim("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n"
			       "C: 3\r\nD: 4", &lim));
	/* Leading empty lines are not fields. */
	EXPECT_LT(0, parse_lim("\r\n\r\n" H11("A: 1\r\nB: 2\r\n"), &lim));
	/* The default: 100. */
	{
		char buf[2048];
		size_t n = 0;
		int i;

		n += sprintf(buf, "GET / HTTP/1.1\r\nHost: h\r\n");
		for (i = 1; i < 100; i++)
			n += sprintf(buf + n, "X: %d\r\n", i);
		memcpy(buf + n, "\r\n", 3);
		ASSERT_EQ((int)n + 2, parse_n(&r, buf, n + 2, &def));
		EXPECT_EQ(100, r.header_count);
		n += sprintf(buf + n, "Y: 1\r\n\r\n");
		EXPECT_EQ(-431, parse_n(&r, buf, n, &def));
	}
}

TEST(limit_body)
{
	struct http_limits lim = def;

	lim.body_max = 1000;
	EXPECT_LT(0, parse_lim(H11("Content-Length: 1000\r\n"), &lim));
	EXPECT_EQ(-413, parse_lim(H11("Content-Length: 1001\r\n"), &lim));
}

#define CRLF4	"\r\n\r\n\r\n\r\n"
#define CRLF10	CRLF4 CRLF4 "\r\n\r\n"
#define A20	"aaaaaaaaaaaaaaaaaaaa"
#define P20	"pppppppppppppppppppp"

/*
 * Every prefix of @s (each in a buffer of its exact size) gives 0 or the
 * whole's answer; once non-zero it stays the same; a valid head gives 0
 * for every prefix shorter than it, and the same fields when complete.
 */
static bool prefixes_agree(const char *s, size_t len,
			   const struct http_limits *lim, int *whole_out)
{
	struct http_req whole, r;
	int w = parse_n(&whole, s, len, lim), ret;
	bool seen = false;
	size_t k;

	*whole_out = w;
	for (k = 0; k < len; k++) {
		ret = parse_n(&r, s, k, lim);
		if (ret && ret != w)
			return false;
		if (seen && !ret)
			return false;
		if (w > 0 && (size_t)w > k && ret)
			return false;
		seen = ret != 0;
		if (ret > 0 && (r.method != whole.method ||
				r.target.len != whole.target.len ||
				r.host.len != whole.host.len ||
				r.header_count != whole.header_count ||
				r.keep_alive != whole.keep_alive))
			return false;
	}
	return true;
}

/* Valid and invalid heads for the incremental tests, with their answer. */
static const struct {
	const char *s;
	int want;	/* 1: the whole length */
	bool tight;	/* under lim below, else the defaults */
} heads[] = {
	{ "GET / HTTP/1.1\r\nHost: h\r\n\r\n", 1, false },
	{ "\r\n\r\nHEAD /x HTTP/1.0\r\n\r\n", 1, false },
	{ "GET /x HTTP/1.1\nHost: h\nRange: bytes=0-\n\n", 1, false },
	{ "GET http://a/ HTTP/1.1\r\nHost: h\r\n"
	  "Accept-Encoding: gzip;q=0.5, br\r\n"
	  "If-None-Match: \"a\"\r\nConnection: close\r\n\r\n",
	  1, false },
	/* Pipelined: the first head's length. */
	{ "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\n",
	  28, false },
	{ "GET / HTTP/1.1\r\n\r\n", -400, false },
	{ "GET / HTTP/2.0\r\nHost: h\r\n\r\n", -505, false },
	{ "GET / HTTP/1.1\r\nHost: h\r\nExpect: x\r\n\r\n",
	  -417, false },
	{ "GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: c\r\n\r\n",
	  -413, false },
	{ "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\n",
	  -413, false },
	{ "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\rb\r\n\r\n",
	  -400, false },
	{ "GET / HTTP/1.1\r\nHost: h\r\n x\r\n\r\n", -400, false },
	/* Limits (those below): line, count, bytes. */
	{ "GET /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa HTTP/1.1\r\n\r\n",
	  -414, true },
	{ "GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n",
	  -431, true },
	{ H11("X: " P20 P20 P20 "p\r\n"), -431, true },
	/* The line limit is crossed first, then the byte limit. */
	{ CRLF10 CRLF4 "GET /" A20 A20 A20 " HTTP/1.1\r\n\r\n",
	  -414, true },
	/* The byte limit first, in the request line's middle. */
	{ CRLF10 CRLF10 CRLF10 "GET /" A20 A20 A20 " HTTP/1.1\r\n\r\n",
	  -431, true },
};

/* The tight limits heads[] marked so. */
static const struct http_limits tight = { 32, 80, 3, 0 };

TEST(incremental)
{
	unsigned int i;
	int w;

	for (i = 0; i < ARRAY_SIZE(heads); i++) {
		size_t len = strlen(heads[i].s);

		EXPECT_TRUE(prefixes_agree(heads[i].s, len,
					   heads[i].tight ? &tight : &def, &w))
			TH_LOG("head %u", i);
		EXPECT_EQ(heads[i].want == 1 ? (int)len : heads[i].want, w)
			TH_LOG("head %u", i);
	}
}

/*
 * http_req_parse_from(): every head of heads[] cut at every offset, the
 * first part then the whole given with one struct http_scan, gives what
 * http_req_parse() gives the whole (the status, or the length and the
 * same fields), each byte looked at once at most.
 */
TEST(resumed_at_every_split)
{
	unsigned int i;
	size_t cut;

	for (i = 0; i < ARRAY_SIZE(heads); i++) {
		const struct http_limits *lim = heads[i].tight ? &tight : &def;
		size_t len = strlen(heads[i].s);
		struct http_req whole, req;
		int want = http_req_parse(&whole, heads[i].s, len, lim);

		for (cut = 0; cut <= len; cut++) {
			struct http_scan sc = HTTP_SCAN_INIT;
			int first = http_req_parse_from(&req, &sc, heads[i].s,
							cut, lim);

			if (first) {
				/* A limit crossed, or a head before the cut. */
				EXPECT_EQ(want, first) TH_LOG("%u at %zu", i, cut);
				continue;
			}
			ASSERT_EQ(want, http_req_parse_from(&req, &sc,
							    heads[i].s, len,
							    lim))
				TH_LOG("head %u cut at %zu", i, cut);
			EXPECT_GE(len, sc.scanned) TH_LOG("%u at %zu", i, cut);
			if (want <= 0)
				continue;
			EXPECT_EQ(whole.header_count, req.header_count);
			EXPECT_EQ(whole.method, req.method);
			EXPECT_EQ(whole.keep_alive, req.keep_alive);
			EXPECT_EQ(whole.accept_gzip, req.accept_gzip);
			EXPECT_EQ(whole.target.p, req.target.p);
			EXPECT_EQ(whole.target.len, req.target.len);
			EXPECT_EQ(whole.host.len, req.host.len);
		}
	}
}

/* Feeds @len bytes of @buf one at a time; returns the last answer. */
static int byte_at_a_time(const char *buf, size_t len,
			  const struct http_limits *lim, struct http_scan *sc,
			  unsigned int *early)
{
	struct http_req req;
	size_t n;
	int ret = 0;

	*early = 0;
	for (n = 1; n <= len; n++) {
		ret = http_req_parse_from(&req, sc, buf, n, lim);
		if (ret && n < len)
			(*early)++;
	}
	return ret;
}

/*
 * A client sending a head a byte at a time: a 16 KiB head (the default
 * header_bytes_max) of 8 KiB request line and 100 fields, fed one byte
 * per call.  Rescanning the head on each call would look at about
 * 16384^2 / 2 = 134 M bytes; resuming looks at each byte once.
 */
TEST(resumed_byte_at_a_time_scans_each_byte_once)
{
	size_t cap = def.header_bytes_max, len, i;
	char *buf = malloc(cap + 1);
	struct http_scan sc = HTTP_SCAN_INIT;
	unsigned int early;

	ASSERT_NE(NULL, buf);
	/* A request line of exactly request_line_max (8192) bytes. */
	len = sprintf(buf, "GET /");
	memset(buf + len, 'a', def.request_line_max - 14);
	len += def.request_line_max - 14;
	len += sprintf(buf + len, " HTTP/1.1\r\n");
	ASSERT_EQ(def.request_line_max + 2, len);
	len += sprintf(buf + len, "Host: h\r\n");
	/* 99 more fields, then filler, up to exactly 16384 bytes. */
	for (i = 1; i < 99; i++)
		len += sprintf(buf + len, "X-%03zu: %058zu\r\n", i, i);
	ASSERT_GT(cap - 2, len + 10);
	i = cap - 2 - len;
	len += sprintf(buf + len, "Y: ");
	memset(buf + len, 'b', i - 5);
	len += i - 5;
	len += sprintf(buf + len, "\r\n\r\n");
	ASSERT_EQ(cap, len);

	EXPECT_EQ((int)len, byte_at_a_time(buf, len, &def, &sc, &early));
	EXPECT_EQ(0, early);
	TH_LOG("%zu bytes fed one at a time: %llu scanned", len,
	       (unsigned long long)sc.scanned);
	EXPECT_EQ(len, sc.scanned);

	/* A head over the bound: 431 at its 16385th byte, no rescan. */
	buf[len - 2] = 'c';
	buf[len - 1] = 'c';
	buf[len++] = 'c';
	sc = (struct http_scan)HTTP_SCAN_INIT;
	EXPECT_EQ(-431, byte_at_a_time(buf, len, &def, &sc, &early));
	EXPECT_EQ(0, early);
	EXPECT_EQ(len - 1, sc.scanned);
	free(buf);
}

TEST(list_next)
{
	struct http_str s = { "  a, b ,,\t\"c,d\\\",e\" , W/\"x\",", 0 };
	struct http_str e;
	size_t pos = 0;

	s.len = strlen(s.p);
	ASSERT_TRUE(http_list_next(s, &pos, &e));
	EXPECT_TRUE(str_is(e, "a"));
	ASSERT_TRUE(http_list_next(s, &pos, &e));
	EXPECT_TRUE(str_is(e, "b"));
	ASSERT_TRUE(http_list_next(s, &pos, &e));
	EXPECT_TRUE(str_is(e, "\"c,d\\\",e\""));
	ASSERT_TRUE(http_list_next(s, &pos, &e));
	EXPECT_TRUE(str_is(e, "W/\"x\""));
	EXPECT_FALSE(http_list_next(s, &pos, &e));
	EXPECT_FALSE(http_list_next(s, &pos, &e));
	/* Empty lists, absent values, an unterminated quote. */
	s.p = " , ,\t";
	s.len = strlen(s.p);
	pos = 0;
	EXPECT_FALSE(http_list_next(s, &pos, &e));
	s.p = NULL;
	s.len = 0;
	pos = 0;
	EXPECT_FALSE(http_list_next(s, &pos, &e));
	s.p = "\"a, b";
	s.len = strlen(s.p);
	pos = 0;
	ASSERT_TRUE(http_list_next(s, &pos, &e));
	EXPECT_TRUE(str_is(e, "\"a, b"));
	EXPECT_FALSE(http_list_next(s, &pos, &e));
}

TEST(str_ieq)
{
	struct http_str s = { "Keep-Alive", 10 }, none = { NULL, 0 };
	struct http_str empty = { "", 0 };

	EXPECT_TRUE(http_str_ieq(s, "keep-alive"));
	EXPECT_TRUE(http_str_ieq(s, "KEEP-ALIVE"));
	EXPECT_FALSE(http_str_ieq(s, "keep-aliv"));
	EXPECT_FALSE(http_str_ieq(s, "keep-alive2"));
	EXPECT_FALSE(http_str_ieq(s, "keep_alive"));
	EXPECT_TRUE(http_str_ieq(empty, ""));
	EXPECT_FALSE(http_str_ieq(none, ""));
}

TEST_HARNESS_MAIN
