// SPDX-License-Identifier: GPL-2.0
/*
 * test_resp.c - response plans (resp.c) on a temporary document root:
 * files of several sizes, a directory with and one without index.html,
 * x.txt with .gz and .br siblings, a hidden file, a FIFO, symlinks
 * inside and out of the root.  Each test checks the status, every field
 * of the head in its order, and the body segments: file ranges read
 * back and memory parts assembled must equal the expected body, and
 * Content-Length must be its exact length.
 *
 * Covered: 200, HEAD, HTTP/1.0 keep-alive and close, 304 by ETag and by
 * date, 412, 206 single and suffix, multipart (and a coalesced set),
 * 416, If-Range match and mismatch, 301 with a query and re-encoding,
 * 404, 403 (FIFO, directory without index, symlink out), 405 with
 * Allow, hidden on and off, precompressed gz/br/none with Vary, errors;
 * the configuration's added fields (add-header) in order on 200, HEAD,
 * 206, 304 and 301, on the other statuses only when "always", and at
 * their bounds with the largest heads; and real request heads through
 * http_req_parse() planned end to end.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsxd/cond.h"
#include "tlsxd/http_req.h"
#include "tlsxd/httpdate.h"
#include "tlsxd/range.h"
#include "tlsxd/resp.h"

#include "site_test.h"

#define NOW	1800000000	/* after every mtime we set */
#define MTIME	1700000000

static const char *const mtime_str = "Tue, 14 Nov 2023 22:13:20 GMT";

/* One field of a head: its name and value (no CRLF). */
struct field {
	char name[64];
	char value[512];
};

struct head {
	char line[128];
	struct field f[32];
	unsigned int n;
};

/* Splits @h (head_len bytes, ending in CRLF CRLF) into its fields. */
static bool head_split(const struct resp *r, struct head *h)
{
	const char *p = r->head, *end = r->head + r->head_len, *eol, *colon;
	size_t len;

	memset(h, 0, sizeof(*h));
	if (r->head_len < 4 || memcmp(end - 4, "\r\n\r\n", 4))
		return false;
	eol = memmem(p, end - p, "\r\n", 2);
	len = eol - p;
	if (len >= sizeof(h->line))
		return false;
	memcpy(h->line, p, len);
	for (p = eol + 2; p < end - 2; p = eol + 2) {
		eol = memmem(p, end - p, "\r\n", 2);
		colon = memchr(p, ':', eol - p);
		if (!colon || colon[1] != ' ' || h->n == 32 ||
		    colon - p >= 64 || eol - colon - 2 >= 512)
			return false;
		memcpy(h->f[h->n].name, p, colon - p);
		memcpy(h->f[h->n].value, colon + 2, eol - colon - 2);
		h->n++;
	}
	return true;
}

static const char *field(const struct head *h, const char *name)
{
	unsigned int i;

	for (i = 0; i < h->n; i++)
		if (!strcasecmp(h->f[i].name, name))
			return h->f[i].value;
	return NULL;
}

/* The field names in order, "Server,Date,..." */
static void names(const struct head *h, char *out, size_t cap)
{
	unsigned int i;
	size_t len = 0;

	out[0] = '\0';
	for (i = 0; i < h->n; i++)
		len += snprintf(out + len, cap - len, "%s%s", i ? "," : "",
				h->f[i].name);
}

/* The body the plan sends, assembled; its length in *@len. */
static char *body_of(const struct resp *r, size_t *len)
{
	char *b = malloc(r->body_len + 1);
	size_t at = 0;
	unsigned int i;

	if (!b)
		return NULL;
	for (i = 0; i < r->nseg; i++) {
		const struct resp_seg *s = &r->seg[i];

		if (s->mem)
			memcpy(b + at, s->mem, s->len);
		else if (r->fd < 0 ||
			 pread(r->fd, b + at, s->len, s->off) != (ssize_t)s->len)
			return free(b), NULL;
		at += s->len;
	}
	*len = at;
	b[at] = '\0';
	return b;
}

FIXTURE(site) {
	char root[SITE_DIR_MAX];
	char outside[SITE_DIR_MAX];
	struct mime_table *mime;
	struct site site;
	char *big;		/* big.bin's bytes */
	char buf[RESP_BUF_MIN];
	struct resp r;
	struct head h;
	char etag_small[ETAG_MAX];
};

FIXTURE_SETUP(site)
{
	char p[256], q[256];
	struct stat st;
	size_t i;

	site_dirs_make(_metadata, self->root, self->outside, "test_resp");
	site_put(_metadata, self->outside, "secret.txt", "secret\n", MTIME);

	site_put(_metadata, self->root, "small.txt", "hello, world\n", MTIME);
	site_put(_metadata, self->root, "empty.txt", "", MTIME);
	self->big = malloc(100000);
	ASSERT_NE(NULL, self->big);
	for (i = 0; i < 100000; i++)
		self->big[i] = 'a' + (i * 7 + i / 26) % 26;
	site_put_len(_metadata, self->root, "big.bin", self->big, 100000, MTIME);
	site_put(_metadata, self->root, "x.txt", "plain x\n", MTIME);
	site_put(_metadata, self->root, "x.txt.gz", "GZIPPED", MTIME);
	site_put(_metadata, self->root, "x.txt.br", "BROTLI", MTIME);
	site_put(_metadata, self->root, "y.css", "y {}\n", MTIME);
	site_put(_metadata, self->root, "y.css.gz", "GZ-Y", MTIME);
	site_put(_metadata, self->root, "z.js", "z()\n", MTIME);
	site_path(p, self->root, "z.js.br");	/* a directory: not a sibling */
	ASSERT_EQ(0, mkdir(p, 0755));
	site_put(_metadata, self->root, ".hidden", "hidden\n", MTIME);
	site_path(p, self->root, "dir");
	ASSERT_EQ(0, mkdir(p, 0755));
	site_put(_metadata, p, "index.html", "<p>index</p>\n", MTIME);
	site_path(p, self->root, "noindex");
	ASSERT_EQ(0, mkdir(p, 0755));
	site_put(_metadata, p, "other.txt", "o\n", MTIME);
	site_path(p, self->root, "a b");
	ASSERT_EQ(0, mkdir(p, 0755));
	site_path(p, self->root, "fifo");
	ASSERT_EQ(0, mkfifo(p, 0644));
	site_path(p, self->root, "out.txt");
	site_path(q, self->outside, "secret.txt");
	ASSERT_EQ(0, symlink(q, p));
	site_path(p, self->root, "in.txt");
	ASSERT_EQ(0, symlink("small.txt", p));

	site_open(_metadata, &self->site, &self->mime, self->root);
	self->r.fd = -1;

	site_path(p, self->root, "small.txt");
	ASSERT_EQ(0, stat(p, &st));
	etag_make(&st, self->etag_small);
}

FIXTURE_TEARDOWN(site)
{
	resp_release(&self->r);
	site_close(&self->site, self->mime);
	free(self->big);
	site_dirs_remove(_metadata, self->root, self->outside);
}

/* Plans @q into self->r and splits its head into self->h. */
#define PLAN(q) do {							\
		resp_release(&self->r);					\
		ASSERT_EQ(resp_plan(&self->site, (q), NOW, 0, self->buf, \
				    sizeof(self->buf), &self->r),	\
			  self->r.status);				\
		ASSERT_TRUE(head_split(&self->r, &self->h));		\
	} while (0)

/* The status line, the field names in order, then body checks. */
#define EXPECT_HEAD(_line, _order) do {				\
		char _n[512];						\
									\
		ASSERT_STREQ(_line, self->h.line);			\
		names(&self->h, _n, sizeof(_n));			\
		ASSERT_STREQ(_order, _n);				\
	} while (0)

/* The body assembled equals @want (@len bytes) and Content-Length. */
#define EXPECT_BODY(want, len) do {					\
		size_t _l = 0;						\
		char *_b = body_of(&self->r, &_l);			\
		char _cl[32];						\
									\
		ASSERT_NE(NULL, _b);					\
		ASSERT_EQ((size_t)(len), _l);				\
		ASSERT_EQ((uint64_t)(len), self->r.body_len);		\
		ASSERT_EQ(0, memcmp(want, _b, _l));			\
		free(_b);						\
		snprintf(_cl, sizeof(_cl), "%zu", (size_t)(len));	\
		ASSERT_STREQ(_cl, field(&self->h, "Content-Length"));	\
	} while (0)

#define FILE_FIELDS "Server,Date,Content-Type,Content-Length,Last-Modified,ETag,Accept-Ranges"

TEST_F(site, get_200)
{
	struct http_req q;
	char date[HTTPDATE_LEN + 1];

	req_get(&q, "/small.txt");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS);
	httpdate_format(NOW, date);
	ASSERT_STREQ("tlsxd/0.1", field(&self->h, "Server"));
	ASSERT_STREQ(date, field(&self->h, "Date"));
	ASSERT_STREQ("text/plain; charset=utf-8",
		     field(&self->h, "Content-Type"));
	ASSERT_STREQ(mtime_str, field(&self->h, "Last-Modified"));
	ASSERT_STREQ(self->etag_small, field(&self->h, "ETag"));
	ASSERT_STREQ("bytes", field(&self->h, "Accept-Ranges"));
	ASSERT_EQ(1, self->r.nseg);
	ASSERT_EQ(NULL, self->r.seg[0].mem);
	ASSERT_EQ(0, self->r.seg[0].off);
	EXPECT_BODY("hello, world\n", 13);
	ASSERT_FALSE(self->r.close);
	ASSERT_EQ(NULL, self->r.encoding);
	/* The plan's head is exactly what was split. */
	ASSERT_EQ(0, memcmp(self->r.head, "HTTP/1.1 200 OK\r\nServer: tlsxd/0.1\r\n",
			    35));

	req_get(&q, "/big.bin");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS);
	ASSERT_STREQ("application/octet-stream",
		     field(&self->h, "Content-Type"));
	EXPECT_BODY(self->big, 100000);

	/* An empty file: 200, no segment, Content-Length: 0. */
	req_get(&q, "/empty.txt");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS);
	ASSERT_EQ(0, self->r.nseg);
	EXPECT_BODY("", 0);

	/* A symlink inside the root is followed. */
	req_get(&q, "/in.txt");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	EXPECT_BODY("hello, world\n", 13);
}

TEST_F(site, head_is_the_get_head)
{
	struct http_req q;
	char get_head[1024];
	size_t get_len;

	req_get(&q, "/big.bin");
	PLAN(&q);
	get_len = self->r.head_len;
	memcpy(get_head, self->r.head, get_len);
	q.method = HTTP_M_HEAD;
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	ASSERT_EQ(get_len, self->r.head_len);
	ASSERT_EQ(0, memcmp(get_head, self->r.head, get_len));
	ASSERT_STREQ("100000", field(&self->h, "Content-Length"));
	ASSERT_EQ(0, self->r.nseg);
	ASSERT_EQ(0, self->r.body_len);
	ASSERT_EQ(-1, self->r.fd);
	/* Range is for GET only (RFC 9110 14.2): HEAD still says 200. */
	q.range = S("bytes=0-9");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	ASSERT_EQ(0, self->r.nseg);
	/* An error's HEAD has its Content-Length, no body. */
	req_get(&q, "/missing");
	q.method = HTTP_M_HEAD;
	PLAN(&q);
	ASSERT_EQ(404, self->r.status);
	ASSERT_EQ(0, self->r.nseg);
	ASSERT_LT(0, atoi(field(&self->h, "Content-Length")));
}

TEST_F(site, connection_field)
{
	struct http_req q;

	req_get(&q, "/small.txt");
	q.keep_alive = false;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS ",Connection");
	ASSERT_STREQ("close", field(&self->h, "Connection"));
	ASSERT_TRUE(self->r.close);
	/* The caller's flag closes a keep-alive request. */
	req_get(&q, "/small.txt");
	resp_release(&self->r);
	resp_plan(&self->site, &q, NOW, RESP_F_CLOSE, self->buf,
		  sizeof(self->buf), &self->r);
	ASSERT_TRUE(head_split(&self->r, &self->h));
	ASSERT_STREQ("close", field(&self->h, "Connection"));
	ASSERT_TRUE(self->r.close);
	/* HTTP/1.0 with keep-alive hears it back (RFC 9112 C.2.2). */
	req_get(&q, "/small.txt");
	q.version_minor = 0;
	PLAN(&q);
	ASSERT_STREQ("HTTP/1.1 200 OK", self->h.line);
	ASSERT_STREQ("keep-alive", field(&self->h, "Connection"));
	ASSERT_FALSE(self->r.close);
	q.keep_alive = false;
	PLAN(&q);
	ASSERT_STREQ("close", field(&self->h, "Connection"));
	/* Errors keep the connection's mode too. */
	req_get(&q, "/missing");
	q.version_minor = 0;
	PLAN(&q);
	ASSERT_EQ(404, self->r.status);
	ASSERT_STREQ("keep-alive", field(&self->h, "Connection"));
}

TEST_F(site, not_modified_by_etag_and_date)
{
	struct http_req q;

	req_get(&q, "/small.txt");
	q.if_none_match.v[0] = S(self->etag_small);
	q.if_none_match.n = 1;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 304 Not Modified",
		    "Server,Date,Last-Modified,ETag");
	ASSERT_STREQ(self->etag_small, field(&self->h, "ETag"));
	ASSERT_STREQ(mtime_str, field(&self->h, "Last-Modified"));
	ASSERT_EQ(0, self->r.nseg);
	ASSERT_EQ(-1, self->r.fd);

	req_get(&q, "/small.txt");
	q.if_modified_since = S(mtime_str);
	PLAN(&q);
	ASSERT_EQ(304, self->r.status);
	ASSERT_EQ(NULL, field(&self->h, "Content-Length"));
	/* A second earlier: modified since. */
	q.if_modified_since = S("Tue, 14 Nov 2023 22:13:19 GMT");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	EXPECT_BODY("hello, world\n", 13);
}

TEST_F(site, precondition_failed)
{
	struct http_req q;

	req_get(&q, "/small.txt");
	q.if_match.v[0] = S("\"not-it\"");
	q.if_match.n = 1;
	/* 412 even though If-None-Match would be 304 (13.2.2). */
	q.if_none_match.v[0] = S(self->etag_small);
	q.if_none_match.n = 1;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 412 Precondition Failed",
		    "Server,Date,Content-Type,Content-Length");
	ASSERT_EQ(-1, self->r.fd);
	ASSERT_EQ(1, self->r.nseg);
	ASSERT_NE(NULL, self->r.seg[0].mem);
	ASSERT_NE(NULL, strstr(self->r.seg[0].mem, "412"));

	req_get(&q, "/small.txt");
	q.if_unmodified_since = S("Tue, 14 Nov 2023 22:13:19 GMT");
	PLAN(&q);
	ASSERT_EQ(412, self->r.status);
}

TEST_F(site, range_single_and_suffix)
{
	struct http_req q;

	req_get(&q, "/big.bin");
	q.range = S("bytes=100-199");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 206 Partial Content",
		    FILE_FIELDS ",Content-Range");
	ASSERT_STREQ("bytes 100-199/100000", field(&self->h, "Content-Range"));
	ASSERT_STREQ("application/octet-stream",
		     field(&self->h, "Content-Type"));
	ASSERT_EQ(1, self->r.nseg);
	ASSERT_EQ(100, self->r.seg[0].off);
	EXPECT_BODY(self->big + 100, 100);

	q.range = S("bytes=-500");
	PLAN(&q);
	ASSERT_EQ(206, self->r.status);
	ASSERT_STREQ("bytes 99500-99999/100000",
		     field(&self->h, "Content-Range"));
	EXPECT_BODY(self->big + 99500, 500);

	q.range = S("bytes=99990-");
	PLAN(&q);
	ASSERT_STREQ("bytes 99990-99999/100000",
		     field(&self->h, "Content-Range"));
	EXPECT_BODY(self->big + 99990, 10);

	/* The whole file asked for: 200. A syntax error: 200. */
	q.range = S("bytes=0-");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	EXPECT_BODY(self->big, 100000);
	q.range = S("bytes=5-1");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	ASSERT_EQ(NULL, field(&self->h, "Content-Range"));
}

/* Checks a multipart/byteranges body part by part. */
static void check_multipart(struct __test_metadata *_metadata,
			    const struct resp *r, const struct head *h,
			    const char *file, uint64_t size, const char *type,
			    const struct byte_range *want, unsigned int n)
{
	const char *ct = field(h, "Content-Type"), *b;
	size_t len = 0, got_len, cap = 2 * size + 8192;
	char *expect = malloc(cap), boundary[64];
	unsigned int i;
	char *got;

	ASSERT_NE(NULL, expect);

	ASSERT_EQ(0, strncmp(ct, "multipart/byteranges; boundary=", 31));
	b = ct + 31;
	ASSERT_EQ(20, strlen(b));
	snprintf(boundary, sizeof(boundary), "%s", b);
	for (i = 0; i < n; i++) {
		len += snprintf(expect + len, cap - len,
				"\r\n--%s\r\nContent-Type: %s\r\n"
				"Content-Range: bytes %llu-%llu/%llu\r\n\r\n",
				boundary, type,
				(unsigned long long)want[i].first,
				(unsigned long long)want[i].last,
				(unsigned long long)size);
		memcpy(expect + len, file + want[i].first,
		       want[i].last - want[i].first + 1);
		len += want[i].last - want[i].first + 1;
	}
	len += snprintf(expect + len, cap - len, "\r\n--%s--\r\n", boundary);
	ASSERT_EQ(2 * n + 1, r->nseg);
	got = body_of(r, &got_len);
	ASSERT_NE(NULL, got);
	ASSERT_EQ(len, got_len);
	ASSERT_EQ(len, r->body_len);
	ASSERT_EQ(0, memcmp(expect, got, len));
	free(got);
	free(expect);
	ASSERT_EQ(len, strtoull(field(h, "Content-Length"), NULL, 10));
	/* The boundary never occurs in the parts' data. */
	for (i = 0; i < n; i++)
		ASSERT_EQ(NULL, memmem(file + want[i].first,
				       want[i].last - want[i].first + 1,
				       boundary, 20));
}

TEST_F(site, range_multipart)
{
	static const struct byte_range want[] = { { 0, 9 }, { 500, 599 },
						  { 99000, 99999 } };
	struct http_req q;

	req_get(&q, "/big.bin");
	q.range = S("bytes=500-599,-1000,0-9");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 206 Partial Content", FILE_FIELDS);
	ASSERT_EQ(NULL, field(&self->h, "Content-Range"));
	check_multipart(_metadata, &self->r, &self->h, self->big, 100000,
			"application/octet-stream", want, 3);
	/* Text parts carry the file's type with its charset. */
	{
		static const struct byte_range w2[] = { { 0, 1 }, { 5, 6 } };

		req_get(&q, "/small.txt");
		q.range = S("bytes=0-1,5-6");
		PLAN(&q);
		check_multipart(_metadata, &self->r, &self->h,
				"hello, world\n", 13,
				"text/plain; charset=utf-8", w2, 2);
	}
}

TEST_F(site, range_coalesced_and_capped)
{
	static const struct byte_range want[] = { { 0, 199 }, { 300, 300 } };
	struct http_req q;

	/* Overlapping and touching ranges become one part: a plain 206. */
	req_get(&q, "/big.bin");
	q.range = S("bytes=0-99,50-149,150-199");
	PLAN(&q);
	ASSERT_EQ(206, self->r.status);
	ASSERT_STREQ("bytes 0-199/100000", field(&self->h, "Content-Range"));
	EXPECT_BODY(self->big, 200);
	q.range = S("bytes=0-99,300-300,50-199");
	PLAN(&q);
	check_multipart(_metadata, &self->r, &self->h, self->big, 100000,
			"application/octet-stream", want, 2);
	/* Over ranges_max (4) after coalescing: the whole file. */
	q.range = S("bytes=0-0,2-2,4-4,6-6,8-8");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	EXPECT_BODY(self->big, 100000);
}

/* RESP_RANGES_MAX parts of the longest type fit in RESP_BUF_MIN. */
TEST_F(site, range_max_parts_fit)
{
	struct byte_range want[RESP_RANGES_MAX];
	char h[1024];
	size_t len = 6;
	struct http_req q;
	unsigned int i;

	memcpy(h, "bytes=", 6);
	for (i = 0; i < RESP_RANGES_MAX; i++) {
		want[i].first = 99 + i * 6000;
		want[i].last = want[i].first + 4999;
		len += snprintf(h + len, sizeof(h) - len, "%s%llu-%llu",
				i ? "," : "",
				(unsigned long long)want[i].first,
				(unsigned long long)want[i].last);
	}
	self->site.ranges_max = RESP_RANGES_MAX;
	req_get(&q, "/big.bin");
	q.range = S(h);
	PLAN(&q);
	ASSERT_EQ(206, self->r.status);
	check_multipart(_metadata, &self->r, &self->h, self->big, 100000,
			"application/octet-stream", want, RESP_RANGES_MAX);
}

TEST_F(site, range_unsatisfiable_416)
{
	struct http_req q;

	req_get(&q, "/big.bin");
	q.range = S("bytes=100000-");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 416 Range Not Satisfiable",
		    "Server,Date,Content-Type,Content-Length,Accept-Ranges,Content-Range");
	ASSERT_STREQ("bytes */100000", field(&self->h, "Content-Range"));
	ASSERT_EQ(-1, self->r.fd);
	/* "bytes=0-" of an empty file. */
	req_get(&q, "/empty.txt");
	q.range = S("bytes=0-");
	PLAN(&q);
	ASSERT_EQ(416, self->r.status);
	ASSERT_STREQ("bytes */0", field(&self->h, "Content-Range"));
}

TEST_F(site, if_range)
{
	struct http_req q;

	req_get(&q, "/small.txt");
	q.range = S("bytes=0-4");
	q.if_range = S(self->etag_small);
	PLAN(&q);
	ASSERT_EQ(206, self->r.status);
	EXPECT_BODY("hello", 5);
	q.if_range = S(mtime_str);
	PLAN(&q);
	ASSERT_EQ(206, self->r.status);
	/* Mismatch: the Range is ignored, the whole file sent. */
	q.if_range = S("\"stale\"");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	EXPECT_BODY("hello, world\n", 13);
	q.if_range = S("Tue, 14 Nov 2023 22:13:21 GMT");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	/* A mismatching If-Range cannot turn a bad range into 416. */
	q.range = S("bytes=500-");
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
}

TEST_F(site, directories)
{
	struct http_req q;
	char p[256];

	req_get(&q, "/dir/");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS);
	ASSERT_STREQ("text/html; charset=utf-8",
		     field(&self->h, "Content-Type"));
	EXPECT_BODY("<p>index</p>\n", 13);

	req_get(&q, "/dir?a=1&b=%20");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 301 Moved Permanently",
		    "Server,Date,Content-Type,Content-Length,Location");
	ASSERT_STREQ("/dir/?a=1&b=%20", field(&self->h, "Location"));
	ASSERT_EQ(-1, self->r.fd);
	ASSERT_EQ(1, self->r.nseg);
	ASSERT_NE(NULL, strstr(self->r.seg[0].mem, "301"));

	req_get(&q, "/dir");
	PLAN(&q);
	ASSERT_STREQ("/dir/", field(&self->h, "Location"));
	/* The decoded name is encoded again. */
	req_get(&q, "/a%20b");
	PLAN(&q);
	ASSERT_EQ(301, self->r.status);
	ASSERT_STREQ("/a%20b/", field(&self->h, "Location"));
	/* The root itself. */
	req_get(&q, "/");
	PLAN(&q);
	ASSERT_EQ(403, self->r.status);	/* the root has no index.html */
	/* A directory without index: 403, no listing. */
	req_get(&q, "/noindex/");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 403 Forbidden",
		    "Server,Date,Content-Type,Content-Length");
	/* An index that is not a regular file. */
	site_path(p, self->root, "noindex/index.html");
	ASSERT_EQ(0, mkdir(p, 0755));
	req_get(&q, "/noindex/");
	PLAN(&q);
	ASSERT_EQ(403, self->r.status);
	/* A file named as a directory. */
	req_get(&q, "/small.txt/");
	PLAN(&q);
	ASSERT_EQ(404, self->r.status);
}

TEST_F(site, not_found_and_forbidden)
{
	struct http_req q;

	req_get(&q, "/missing.txt");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 404 Not Found",
		    "Server,Date,Content-Type,Content-Length");
	ASSERT_STREQ("text/html; charset=utf-8",
		     field(&self->h, "Content-Type"));
	ASSERT_NE(NULL, strstr(self->r.seg[0].mem, "<h1>404 Not Found</h1>"));
	EXPECT_BODY(self->r.seg[0].mem, self->r.seg[0].len);
	req_get(&q, "/missing/deeper");
	PLAN(&q);
	ASSERT_EQ(404, self->r.status);
	req_get(&q, "/small.txt/deeper");
	PLAN(&q);
	ASSERT_EQ(404, self->r.status);
	/* A FIFO opens without blocking, then is refused. */
	req_get(&q, "/fifo");
	PLAN(&q);
	ASSERT_EQ(403, self->r.status);
	ASSERT_EQ(-1, self->r.fd);
	/* A symlink out of the root: refused by the kernel. */
	req_get(&q, "/out.txt");
	PLAN(&q);
	ASSERT_EQ(403, self->r.status);
	/* The normaliser's refusals keep their status. */
	req_get(&q, "/../etc/passwd");
	PLAN(&q);
	ASSERT_EQ(400, self->r.status);
	req_get(&q, "/a%2fb");
	PLAN(&q);
	ASSERT_EQ(400, self->r.status);
}

TEST_F(site, method_not_allowed)
{
	struct http_req q;

	req_get(&q, "/small.txt");
	q.method = HTTP_M_OTHER;
	q.method_str = S("POST");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 405 Method Not Allowed",
		    "Server,Date,Content-Type,Content-Length,Allow");
	ASSERT_STREQ("GET, HEAD", field(&self->h, "Allow"));
	ASSERT_EQ(-1, self->r.fd);
	ASSERT_EQ(1, self->r.nseg);
	/* resp_error() says the same, and closes when told. */
	resp_error(&self->site, 405, NOW, RESP_F_CLOSE, false, self->buf,
		   sizeof(self->buf), &self->r);
	ASSERT_TRUE(head_split(&self->r, &self->h));
	EXPECT_HEAD("HTTP/1.1 405 Method Not Allowed",
		    "Server,Date,Content-Type,Content-Length,Allow,Connection");
	ASSERT_TRUE(self->r.close);
}

TEST_F(site, hidden_on_and_off)
{
	struct http_req q;

	req_get(&q, "/.hidden");
	PLAN(&q);
	ASSERT_EQ(404, self->r.status);
	self->site.allow_hidden = true;
	PLAN(&q);
	ASSERT_EQ(200, self->r.status);
	EXPECT_BODY("hidden\n", 7);
}

TEST_F(site, precompressed)
{
	struct http_req q;
	struct stat st;
	char p[256], etag[ETAG_MAX];

	/* Off: the plain file even when the client accepts both. */
	req_get(&q, "/x.txt");
	q.accept_gzip = q.accept_br = true;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS);
	EXPECT_BODY("plain x\n", 8);

	self->site.precompressed = true;
	/* Both accepted: br, with its own ETag and the original's type. */
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK",
		    FILE_FIELDS ",Content-Encoding,Vary");
	ASSERT_STREQ("br", field(&self->h, "Content-Encoding"));
	ASSERT_STREQ("Accept-Encoding", field(&self->h, "Vary"));
	ASSERT_STREQ("text/plain; charset=utf-8",
		     field(&self->h, "Content-Type"));
	site_path(p, self->root, "x.txt.br");
	ASSERT_EQ(0, stat(p, &st));
	etag_make(&st, etag);
	ASSERT_STREQ(etag, field(&self->h, "ETag"));
	ASSERT_STREQ("br", self->r.encoding);
	EXPECT_BODY("BROTLI", 6);
	/* gzip only. */
	q.accept_br = false;
	PLAN(&q);
	ASSERT_STREQ("gzip", field(&self->h, "Content-Encoding"));
	EXPECT_BODY("GZIPPED", 7);
	/* br accepted, only .gz there: identity (gzip not accepted). */
	req_get(&q, "/y.css");
	q.accept_br = true;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS ",Vary");
	EXPECT_BODY("y {}\n", 5);
	q.accept_gzip = true;
	PLAN(&q);
	ASSERT_STREQ("gzip", field(&self->h, "Content-Encoding"));
	ASSERT_STREQ("text/css; charset=utf-8",
		     field(&self->h, "Content-Type"));
	EXPECT_BODY("GZ-Y", 4);
	/* A .br that is a directory is no sibling. */
	req_get(&q, "/z.js");
	q.accept_br = q.accept_gzip = true;
	PLAN(&q);
	ASSERT_EQ(NULL, field(&self->h, "Content-Encoding"));
	ASSERT_STREQ("Accept-Encoding", field(&self->h, "Vary"));
	EXPECT_BODY("z()\n", 4);
	/* Nothing accepted: identity, still Vary. */
	req_get(&q, "/x.txt");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS ",Vary");
	EXPECT_BODY("plain x\n", 8);
	/* A range of the compressed representation, and 304 with Vary. */
	q.accept_gzip = true;
	q.range = S("bytes=0-3");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 206 Partial Content",
		    FILE_FIELDS ",Content-Range,Content-Encoding,Vary");
	ASSERT_STREQ("bytes 0-3/7", field(&self->h, "Content-Range"));
	EXPECT_BODY("GZIP", 4);
	site_path(p, self->root, "x.txt.gz");
	ASSERT_EQ(0, stat(p, &st));
	etag_make(&st, etag);
	q.range = S(NULL);
	q.if_none_match.v[0] = S(etag);
	q.if_none_match.n = 1;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 304 Not Modified",
		    "Server,Date,Last-Modified,ETag,Content-Encoding,Vary");
}

TEST_F(site, errors_from_resp_error)
{
	static const int st[] = { 400, 403, 404, 408, 412, 413, 414, 416,
				  417, 431, 500, 503, 505 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(st); i++) {
		char line[64];

		resp_error(&self->site, st[i], NOW, RESP_F_CLOSE, false,
			   self->buf, sizeof(self->buf), &self->r);
		ASSERT_EQ(st[i], self->r.status);
		ASSERT_TRUE(head_split(&self->r, &self->h));
		snprintf(line, sizeof(line), "HTTP/1.1 %d ", st[i]);
		ASSERT_EQ(0, strncmp(line, self->h.line, strlen(line)));
		EXPECT_HEAD(self->h.line,
			    "Server,Date,Content-Type,Content-Length,Connection");
		EXPECT_BODY(self->r.seg[0].mem, self->r.seg[0].len);
		ASSERT_TRUE(self->r.close);
		resp_error(&self->site, st[i], NOW, 0, true, self->buf,
			   sizeof(self->buf), &self->r);
		ASSERT_EQ(0, self->r.nseg);
		ASSERT_FALSE(self->r.close);
	}
}

/* Real request heads through http_req_parse(), then planned. */
TEST_F(site, parsed_requests)
{
	static const struct {
		const char *head;
		int status;
		const char *field, *value;	/* one field to check */
	} c[] = {
		{ "GET /small.txt HTTP/1.1\r\nHost: x\r\n\r\n", 200,
		  "Content-Length", "13" },
		{ "HEAD /big.bin HTTP/1.1\r\nHost: x\r\n\r\n", 200,
		  "Content-Length", "100000" },
		{ "GET /big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=-5\r\n\r\n",
		  206, "Content-Range", "bytes 99995-99999/100000" },
		{ "GET /big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=0-0,9-9\r\n\r\n",
		  206, NULL, NULL },
		{ "GET /big.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=200000-\r\n\r\n",
		  416, "Content-Range", "bytes */100000" },
		{ "GET /small.txt HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"a\", *\r\n\r\n",
		  304, "Last-Modified", "Tue, 14 Nov 2023 22:13:20 GMT" },
		{ "GET /small.txt HTTP/1.1\r\nHost: x\r\nIf-Match: \"a\"\r\nIf-None-Match: *\r\n\r\n",
		  412, NULL, NULL },
		{ "GET /small.txt HTTP/1.1\r\nHost: x\r\nIf-Modified-Since: Tue, 14 Nov 2023 22:13:20 GMT\r\n\r\n",
		  304, NULL, NULL },
		{ "GET /x.txt HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip, br;q=0\r\n\r\n",
		  200, "Content-Encoding", "gzip" },
		{ "GET /x.txt HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br, gzip\r\n\r\n",
		  200, "Content-Encoding", "br" },
		{ "POST /small.txt HTTP/1.1\r\nHost: x\r\n\r\n", 405,
		  "Allow", "GET, HEAD" },
		{ "GET /dir?q=1 HTTP/1.0\r\n\r\n", 301, "Location", "/dir/?q=1" },
		{ "GET /dir?q=1 HTTP/1.0\r\n\r\n", 301, "Connection", "close" },
		{ "GET /dir/ HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 200,
		  "Connection", "keep-alive" },
		{ "GET /small.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		  200, "Connection", "close" },
		{ "GET http://x/small.txt HTTP/1.1\r\nHost: x\r\n\r\n", 200,
		  NULL, NULL },
		{ "GET /%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 400,
		  NULL, NULL },
		{ "GET /.hidden HTTP/1.1\r\nHost: x\r\n\r\n", 404, NULL, NULL },
		{ "GET /out.txt HTTP/1.1\r\nHost: x\r\n\r\n", 403, NULL, NULL },
	};
	struct http_limits lim = HTTP_LIMITS_DEFAULT;
	unsigned int i;

	self->site.precompressed = true;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		const char *h = c[i].head;
		struct http_req q;
		int n = http_req_parse(&q, h, strlen(h), &lim);

		ASSERT_EQ((int)strlen(h), n) TH_LOG("%s", h);
		PLAN(&q);
		EXPECT_EQ(c[i].status, self->r.status) TH_LOG("%s", h);
		if (c[i].field && c[i].value) {
			const char *v = field(&self->h, c[i].field);

			ASSERT_NE(NULL, v) TH_LOG("%s: no %s", h, c[i].field);
			EXPECT_STREQ(c[i].value, v) TH_LOG("%s", h);
		}
		if (!strncmp(h, "HEAD", 4) || self->r.status == 304) {
			ASSERT_EQ(0, self->r.nseg);
		} else {
			/* Whatever the body, Content-Length is its length. */
			size_t len;
			char *b = body_of(&self->r, &len);

			ASSERT_NE(NULL, b);
			free(b);
			ASSERT_EQ(len, self->r.body_len);
			ASSERT_EQ(len, strtoull(field(&self->h, "Content-Length"),
						NULL, 10));
		}
	}
}

/* A head that cannot fit is a 500, never a truncated head. */
TEST_F(site, head_too_big_is_500)
{
	static char server[RESP_BUF_MIN];
	struct http_req q;

	/* A Server name too long for any head: the bare 500. */
	memset(server, 'S', sizeof(server) - 1);
	self->site.server = server;
	req_get(&q, "/small.txt");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 500 Internal Server Error",
		    "Content-Length,Connection");
	ASSERT_TRUE(self->r.close);
	ASSERT_EQ(-1, self->r.fd);
	ASSERT_EQ(0, self->r.nseg);
}

/* add-header X-A 1; add-header X-B "two words"; add-header X-C 3 always */
static struct resp_header added[] = {
	{ "X-A", "1", false },
	{ "X-B", "two words", false },
	{ "X-C", "3", true },
};

#define ADDED		",X-A,X-B,X-C"
#define ADDED_ALWAYS	",X-C"

/*
 * nginx's add_header: on 200, 206, 301 and 304 (of the statuses tlsxd
 * sends) every field in its order, after tlsxd's own and before
 * Connection; elsewhere only the "always" ones.
 */
TEST_F(site, added_fields_by_status)
{
	struct http_req q;
	char get_head[1024];
	size_t get_len;

	self->site.headers = added;
	self->site.nheaders = ARRAY_SIZE(added);

	req_get(&q, "/small.txt");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS ADDED);
	ASSERT_STREQ("1", field(&self->h, "X-A"));
	ASSERT_STREQ("two words", field(&self->h, "X-B"));
	ASSERT_STREQ("3", field(&self->h, "X-C"));
	EXPECT_BODY("hello, world\n", 13);

	/* HEAD: the GET's head, the fields included. */
	get_len = self->r.head_len;
	memcpy(get_head, self->r.head, get_len);
	q.method = HTTP_M_HEAD;
	PLAN(&q);
	ASSERT_EQ(get_len, self->r.head_len);
	ASSERT_EQ(0, memcmp(get_head, self->r.head, get_len));

	/* 206, one range and several. */
	req_get(&q, "/big.bin");
	q.range = S("bytes=100-199");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 206 Partial Content",
		    FILE_FIELDS ",Content-Range" ADDED);
	EXPECT_BODY(self->big + 100, 100);
	q.range = S("bytes=0-9,500-599");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 206 Partial Content", FILE_FIELDS ADDED);

	/* 304. */
	req_get(&q, "/small.txt");
	q.if_none_match.v[0] = S(self->etag_small);
	q.if_none_match.n = 1;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 304 Not Modified",
		    "Server,Date,Last-Modified,ETag" ADDED);

	/* 301, and closing: the fields come before Connection. */
	req_get(&q, "/dir");
	q.keep_alive = false;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 301 Moved Permanently",
		    "Server,Date,Content-Type,Content-Length,Location" ADDED
		    ",Connection");

	/* An HTTP/1.0 keep-alive: before its Connection too. */
	req_get(&q, "/small.txt");
	q.version_minor = 0;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 200 OK", FILE_FIELDS ADDED ",Connection");

	/* The other statuses: "always" only. */
	req_get(&q, "/missing.txt");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 404 Not Found",
		    "Server,Date,Content-Type,Content-Length" ADDED_ALWAYS);
	q.method = HTTP_M_HEAD;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 404 Not Found",
		    "Server,Date,Content-Type,Content-Length" ADDED_ALWAYS);
	req_get(&q, "/noindex/");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 403 Forbidden",
		    "Server,Date,Content-Type,Content-Length" ADDED_ALWAYS);
	req_get(&q, "/small.txt");
	q.if_match.v[0] = S("\"not-it\"");
	q.if_match.n = 1;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 412 Precondition Failed",
		    "Server,Date,Content-Type,Content-Length" ADDED_ALWAYS);
	req_get(&q, "/big.bin");
	q.range = S("bytes=200000-");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 416 Range Not Satisfiable",
		    "Server,Date,Content-Type,Content-Length,Accept-Ranges,Content-Range"
		    ADDED_ALWAYS);
	req_get(&q, "/small.txt");
	q.method = HTTP_M_OTHER;
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 405 Method Not Allowed",
		    "Server,Date,Content-Type,Content-Length,Allow" ADDED_ALWAYS);
	resp_error(&self->site, 400, NOW, RESP_F_CLOSE, false, self->buf,
		   sizeof(self->buf), &self->r);
	ASSERT_TRUE(head_split(&self->r, &self->h));
	EXPECT_HEAD("HTTP/1.1 400 Bad Request",
		    "Server,Date,Content-Type,Content-Length" ADDED_ALWAYS
		    ",Connection");
	EXPECT_BODY(self->r.seg[0].mem, self->r.seg[0].len);

	/* None "always": nothing added to an error. */
	self->site.nheaders = 2;
	req_get(&q, "/missing.txt");
	PLAN(&q);
	EXPECT_HEAD("HTTP/1.1 404 Not Found",
		    "Server,Date,Content-Type,Content-Length");
}

/*
 * Added fields at their byte bound (RESP_HEADERS_BYTES_MAX) still leave
 * room for the largest heads: a 301 whose Location is as long as a
 * field of ours may be, and RESP_RANGES_MAX parts.
 */
TEST_F(site, added_fields_at_their_bound_fit)
{
	static char values[6][502];
	static struct resp_header big[6];
	static char target[RESP_BUF_MIN / 2];
	struct byte_range want[RESP_RANGES_MAX];
	size_t used = 0, len;
	struct http_req q;
	char h[1024];
	unsigned int i;

	for (i = 0; i < 6; i++) {
		memset(values[i], 'a' + i, 501);
		big[i].name = "X-0";
		big[i].value = values[i];
		used += strlen(big[i].name) + strlen(big[i].value) + 4;
	}
	ASSERT_GE(RESP_HEADERS_BYTES_MAX, used);
	ASSERT_LT(RESP_HEADERS_BYTES_MAX - 100, used);
	self->site.headers = big;
	self->site.nheaders = 6;

	/* "Location: /dir/?q...\r\n" just fits its buffer. */
	len = sizeof(target) - sizeof("Location: /dir/\r\n") - 1;
	memcpy(target, "/dir?", 5);
	memset(target + 5, 'q', len - 5);
	target[len] = '\0';
	req_get(&q, target);
	/* (A Location this long is past head_split()'s field size.) */
	ASSERT_EQ(301, resp_plan(&self->site, &q, NOW, 0, self->buf,
				 sizeof(self->buf), &self->r));
	ASSERT_NE(NULL, memmem(self->r.head, self->r.head_len, target + 4,
			       strlen(target + 4)));
	snprintf(h, sizeof(h), "\r\nX-0: %s\r\n\r\n", values[5]);
	ASSERT_EQ(0, memcmp(self->r.head + self->r.head_len - strlen(h), h,
			    strlen(h)));

	memcpy(h, "bytes=", 6);
	len = 6;
	for (i = 0; i < RESP_RANGES_MAX; i++) {
		want[i].first = 99 + i * 6000;
		want[i].last = want[i].first + 4999;
		len += snprintf(h + len, sizeof(h) - len, "%s%llu-%llu",
				i ? "," : "",
				(unsigned long long)want[i].first,
				(unsigned long long)want[i].last);
	}
	self->site.ranges_max = RESP_RANGES_MAX;
	req_get(&q, "/big.bin");
	q.range = S(h);
	PLAN(&q);
	ASSERT_EQ(206, self->r.status);
	check_multipart(_metadata, &self->r, &self->h, self->big, 100000,
			"application/octet-stream", want, RESP_RANGES_MAX);
}

/* Last-Modified never after Date (RFC 9110 8.8.2.1). */
TEST_F(site, future_mtime_clamped)
{
	struct timespec ts[2] = { { NOW + 1000, 0 }, { NOW + 1000, 0 } };
	char p[256], date[HTTPDATE_LEN + 1];
	struct http_req q;
	int fd;

	site_path(p, self->root, "small.txt");
	fd = open(p, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, futimens(fd, ts));
	close(fd);
	req_get(&q, "/small.txt");
	PLAN(&q);
	httpdate_format(NOW, date);
	ASSERT_STREQ(date, field(&self->h, "Last-Modified"));
}

TEST_HARNESS_MAIN
