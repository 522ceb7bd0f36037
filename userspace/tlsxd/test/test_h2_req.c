// SPDX-License-Identifier: GPL-2.0
/*
 * test_h2_req.c - HTTP/2 requests and responses as fields (h2/h2_req.c,
 * h2/h2_resp.c): RFC 9113 8.2.1 (lower-case names, values without NUL,
 * CR, LF or edge whitespace), 8.2.2 (connection-specific fields, TE),
 * 8.3 and 8.3.1 (pseudo-headers: order, repeats, unknown and response
 * ones, the three required, an empty :path, :authority against Host and
 * its userinfo), request bodies refused (413), the HTTP/1.1 field rules
 * reused (a repeated Range: 400, Accept-Encoding, the field count: 431);
 * then one plan for both protocols: resp_plan() on a request built from
 * fields, its head read back as :status and lower-case fields without
 * Connection.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "site_test.h"
#include "tlsxd/h2/h2_req.h"
#include "tlsxd/h2/h2_resp.h"

struct fld {
	const char *n, *v;
};

/* BASE as a first entry: ":method GET", ":scheme https", ":path /a". */
#define BASE { "+", "" }
static const struct fld base[] = {
	{ ":method", "GET" }, { ":scheme", "https" }, { ":path", "/a" },
	{ NULL, NULL }
};

/* The fields @f (NULL-terminated) as one request; h2_req_end()'s answer. */
static int build(const struct fld *f, bool end_stream, struct http_req *req,
		 char *buf, size_t cap)
{
	struct h2_req_build b;

	h2_req_begin(&b, req, buf, cap, NULL);
	if (f->n && !strcmp(f->n, "+")) {
		const struct fld *g;

		for (g = base; g->n; g++)
			h2_req_field(&b, g->n, strlen(g->n), g->v,
				     strlen(g->v), 0);
		f++;
	}
	for (; f->n; f++)
		if (h2_req_field(&b, f->n, strlen(f->n), f->v, strlen(f->v),
				 0))
			return -99;
	return h2_req_end(&b, end_stream);
}

static int run(const struct fld *f)
{
	static char buf[4096];
	struct http_req req;

	return build(f, true, &req, buf, sizeof(buf));
}


TEST(valid_get)
{
	static const struct fld f[] = {
		BASE, { ":authority", "example.com:8443" },
		{ "range", "bytes=0-1" }, { "accept-encoding", "gzip, br;q=0" },
		{ "if-none-match", "\"x\"" }, { "user-agent", "t/1" },
		{ NULL, NULL }
	};
	char buf[4096];
	struct http_req req;

	ASSERT_EQ(0, build(f, true, &req, buf, sizeof(buf)));
	ASSERT_EQ(HTTP_M_GET, req.method);
	ASSERT_TRUE(http_str_ieq(req.target, "/a"));
	ASSERT_TRUE(http_str_ieq(req.host, "example.com:8443"));
	ASSERT_TRUE(http_str_ieq(req.range, "bytes=0-1"));
	ASSERT_TRUE(http_str_ieq(req.user_agent, "t/1"));
	ASSERT_EQ(1, req.if_none_match.n);
	ASSERT_TRUE(req.accept_gzip);
	ASSERT_FALSE(req.accept_br);
	ASSERT_TRUE(req.keep_alive);
	ASSERT_EQ(1, req.version_minor);
}

TEST(field_validity_8_2_1)
{
	static const struct fld upper[] = { BASE, { "User-Agent", "x" },
					    { NULL, NULL } };
	static const struct fld space[] = { BASE, { "user agent", "x" },
					    { NULL, NULL } };
	static const struct fld colon[] = { BASE, { "a:b", "x" },
					    { NULL, NULL } };
	static const struct fld lead[] = { BASE, { "x-a", " x" },
					   { NULL, NULL } };
	static const struct fld trail[] = { BASE, { "x-a", "x\t" },
					    { NULL, NULL } };
	static const struct fld cr[] = { BASE, { "x-a", "a\rb" },
					 { NULL, NULL } };
	static const struct fld inner[] = { BASE, { "x-a", "a b\tc" },
					    { NULL, NULL } };
	static const struct fld high[] = { BASE, { "x-\xc3\xa9", "x" },
					   { NULL, NULL } };

	ASSERT_EQ(H2_REQ_MALFORMED, run(upper));
	ASSERT_EQ(H2_REQ_MALFORMED, run(space));
	ASSERT_EQ(H2_REQ_MALFORMED, run(colon));
	ASSERT_EQ(H2_REQ_MALFORMED, run(lead));
	ASSERT_EQ(H2_REQ_MALFORMED, run(trail));
	ASSERT_EQ(H2_REQ_MALFORMED, run(cr));
	ASSERT_EQ(H2_REQ_MALFORMED, run(high));
	ASSERT_EQ(0, run(inner));
}

TEST(value_with_nul_8_2_1)
{
	char buf[256];
	struct http_req req;
	struct h2_req_build b;

	h2_req_begin(&b, &req, buf, sizeof(buf), NULL);
	h2_req_field(&b, ":method", 7, "GET", 3, 0);
	h2_req_field(&b, ":scheme", 7, "https", 5, 0);
	h2_req_field(&b, ":path", 5, "/", 1, 0);
	h2_req_field(&b, "x-a", 3, "a\0b", 3, 0);
	ASSERT_EQ(H2_REQ_MALFORMED, h2_req_end(&b, true));
}

TEST(connection_specific_8_2_2)
{
	static const char *const names[] = { "connection", "keep-alive",
		"proxy-connection", "transfer-encoding", "upgrade" };
	static const struct fld te_ok[] = { BASE, { "te", "trailers" },
					    { NULL, NULL } };
	static const struct fld te_bad[] = { BASE, { "te", "gzip" },
					     { NULL, NULL } };
	unsigned int i;

	for (i = 0; i < 5; i++) {
		struct fld f[] = { BASE, { names[i], "x" }, { NULL, NULL } };

		ASSERT_EQ(H2_REQ_MALFORMED, run(f));
	}
	ASSERT_EQ(0, run(te_ok));
	ASSERT_EQ(H2_REQ_MALFORMED, run(te_bad));
}

TEST(pseudo_headers_8_3)
{
	static const struct fld after[] = { { ":method", "GET" },
		{ ":scheme", "https" }, { "x-a", "1" }, { ":path", "/" },
		{ NULL, NULL } };
	static const struct fld twice[] = { BASE, { ":path", "/b" },
					    { NULL, NULL } };
	static const struct fld status[] = { BASE, { ":status", "200" },
					     { NULL, NULL } };
	static const struct fld unknown[] = { BASE, { ":protocol", "ws" },
					      { NULL, NULL } };
	static const struct fld no_path[] = { { ":method", "GET" },
		{ ":scheme", "https" }, { NULL, NULL } };
	static const struct fld no_scheme[] = { { ":method", "GET" },
		{ ":path", "/" }, { NULL, NULL } };
	static const struct fld no_method[] = { { ":scheme", "https" },
		{ ":path", "/" }, { NULL, NULL } };
	static const struct fld empty_path[] = { { ":method", "GET" },
		{ ":scheme", "https" }, { ":path", "" }, { NULL, NULL } };
	static const struct fld bad_method[] = { { ":method", "G T" },
		{ ":scheme", "https" }, { ":path", "/" }, { NULL, NULL } };

	ASSERT_EQ(H2_REQ_MALFORMED, run(after));
	ASSERT_EQ(H2_REQ_MALFORMED, run(twice));
	ASSERT_EQ(H2_REQ_MALFORMED, run(status));
	ASSERT_EQ(H2_REQ_MALFORMED, run(unknown));
	ASSERT_EQ(H2_REQ_MALFORMED, run(no_path));
	ASSERT_EQ(H2_REQ_MALFORMED, run(no_scheme));
	ASSERT_EQ(H2_REQ_MALFORMED, run(no_method));
	ASSERT_EQ(H2_REQ_MALFORMED, run(empty_path));
	ASSERT_EQ(H2_REQ_MALFORMED, run(bad_method));
}

TEST(authority_and_host_8_3_1)
{
	static const struct fld same[] = { BASE, { ":authority", "a.test" },
					   { "host", "A.test" },
					   { NULL, NULL } };
	static const struct fld differ[] = { BASE,
		{ ":authority", "a.test" }, { "host", "b.test" },
		{ NULL, NULL } };
	static const struct fld userinfo[] = { BASE,
		{ ":authority", "u@a.test" }, { NULL, NULL } };
	static const struct fld bad[] = { BASE, { ":authority", "a b" },
					  { NULL, NULL } };
	static const struct fld host_only[] = { BASE, { "host", "h.test" },
						{ NULL, NULL } };
	char buf[512];
	struct http_req req;

	ASSERT_EQ(0, run(same));
	ASSERT_EQ(H2_REQ_MALFORMED, run(differ));
	ASSERT_EQ(H2_REQ_MALFORMED, run(userinfo));
	ASSERT_EQ(400, run(bad));
	ASSERT_EQ(0, build(host_only, true, &req, buf, sizeof(buf)));
	ASSERT_TRUE(http_str_ieq(req.host, "h.test"));
}

TEST(http11_field_rules_reused)
{
	static const struct fld two_ranges[] = { BASE,
		{ "range", "bytes=0-1" }, { "range", "bytes=2-3" },
		{ NULL, NULL } };
	static const struct fld clen[] = { BASE, { "content-length", "5" },
					   { NULL, NULL } };
	static const struct fld target[] = { { ":method", "GET" },
		{ ":scheme", "https" }, { ":path", "a" }, { NULL, NULL } };
	static const struct fld post[] = { { ":method", "POST" },
		{ ":scheme", "https" }, { ":path", "/" }, { NULL, NULL } };
	char buf[4096];
	struct http_req req;

	ASSERT_EQ(400, run(two_ranges));
	ASSERT_EQ(413, run(clen));
	ASSERT_EQ(400, run(target));
	ASSERT_EQ(0, build(post, true, &req, buf, sizeof(buf)));
	ASSERT_EQ(HTTP_M_OTHER, req.method);
	/* 8.1: no END_STREAM on the HEADERS: a body follows, refused. */
	ASSERT_EQ(413, build(post, false, &req, buf, sizeof(buf)));
}

TEST(too_large_431)
{
	struct fld f[110];
	char small[16], buf[8192];
	struct http_req req;
	unsigned int i;
	static const struct fld big[] = { BASE,
		{ "user-agent", "0123456789abcdef0123" }, { NULL, NULL } };

	/* The buffer the strings are kept in: full is 431. */
	ASSERT_EQ(431, build(big, true, &req, small, sizeof(small)));
	/* HTTP_LIMITS_DEFAULT's 100 fields. */
	f[0] = (struct fld){ ":method", "GET" };
	f[1] = (struct fld){ ":scheme", "https" };
	f[2] = (struct fld){ ":path", "/" };
	for (i = 3; i < 104; i++)
		f[i] = (struct fld){ "x-a", "1" };
	f[104] = (struct fld){ NULL, NULL };
	ASSERT_EQ(431, build(f, true, &req, buf, sizeof(buf)));
	f[103] = (struct fld){ NULL, NULL };
	ASSERT_EQ(0, build(f, true, &req, buf, sizeof(buf)));
}

/* h2_resp_fields()' output, "name=value\n" each. */
struct collect {
	char out[4096];
	size_t len;
};

static int collect(void *arg, const char *n, size_t nl, const char *v,
		   size_t vl)
{
	struct collect *c = arg;

	c->len += snprintf(c->out + c->len, sizeof(c->out) - c->len,
			   "%.*s=%.*s\n", (int)nl, n, (int)vl, v);
	return 0;
}

TEST(resp_head_as_fields)
{
	static const char head[] =
		"HTTP/1.1 206 Partial Content\r\nServer: tlsxd/0.1\r\n"
		"Content-Length: 2\r\nX-Mixed-Case: A b\r\n"
		"Connection: close\r\nKeep-Alive: timeout=5\r\n\r\n";
	struct collect c = { .len = 0 };

	ASSERT_EQ(0, h2_resp_fields(head, sizeof(head) - 1, collect, &c));
	ASSERT_STREQ(":status=206\nserver=tlsxd/0.1\ncontent-length=2\n"
		     "x-mixed-case=A b\n", c.out);
	c.len = 0;
	ASSERT_EQ(-EINVAL, h2_resp_fields("HTTP/1.1 200 OK\r\nX\r\n\r\n",
					  21, collect, &c));
	ASSERT_EQ(-EINVAL, h2_resp_fields("HTTP/1.1 200 OK\r\nA: b\r\n",
					  24, collect, &c));
	ASSERT_EQ(-EINVAL, h2_resp_fields("HTTP/1.0", 8, collect, &c));
}

/* One plan for both protocols: the same resp_plan(), read back. */
TEST(one_plan)
{
	static const struct fld f[] = {
		{ ":method", "GET" }, { ":scheme", "https" },
		{ ":path", "/f.txt" }, { ":authority", "localhost" },
		{ "range", "bytes=1-3" }, { NULL, NULL }
	};
	char root[SITE_DIR_MAX], outside[SITE_DIR_MAX], buf[1024];
	char rbuf[RESP_BUF_MIN];
	struct mime_table *mime;
	struct collect c = { .len = 0 };
	struct http_req req;
	struct site site;
	struct resp r;

	site_dirs_make(_metadata, root, outside, "h2req");
	site_put(_metadata, root, "f.txt", "abcdef", 1000000000);
	site_open(_metadata, &site, &mime, root);
	ASSERT_EQ(0, build(f, true, &req, buf, sizeof(buf)));
	ASSERT_EQ(206, resp_plan(&site, &req, 1700000000, 0, rbuf,
				 sizeof(rbuf), &r));
	ASSERT_EQ(1, r.nseg);
	ASSERT_EQ(1, r.seg[0].off);
	ASSERT_EQ(3, r.seg[0].len);
	ASSERT_EQ(0, h2_resp_fields(r.head, r.head_len, collect, &c));
	ASSERT_EQ(0, strncmp(c.out, ":status=206\nserver=tlsxd/0.1\ndate=", 34));
	ASSERT_NE(NULL, strstr(c.out, "\ncontent-type=text/plain"));
	ASSERT_NE(NULL, strstr(c.out, "\ncontent-range=bytes 1-3/6\n"));
	ASSERT_NE(NULL, strstr(c.out, "\ncontent-length=3\n"));
	ASSERT_EQ(NULL, strstr(c.out, "connection"));
	resp_release(&r);
	/* A closing plan says Connection: close; HTTP/2 drops it. */
	c.len = 0;
	ASSERT_EQ(206, resp_plan(&site, &req, 1700000000, RESP_F_CLOSE, rbuf,
				 sizeof(rbuf), &r));
	ASSERT_NE(NULL, strstr(r.head, "Connection: close"));
	ASSERT_EQ(0, h2_resp_fields(r.head, r.head_len, collect, &c));
	ASSERT_EQ(NULL, strstr(c.out, "connection"));
	resp_release(&r);
	site_close(&site, mime);
	site_dirs_remove(_metadata, root, outside);
}

TEST_HARNESS_MAIN
