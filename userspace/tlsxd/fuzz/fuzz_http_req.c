// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_http_req.c - libFuzzer target: the request head parser
 * (tlsxd/http_req.c) on arbitrary bytes, read as a stream of pipelined
 * heads.  A hash of the input picks the limits (the defaults, or small
 * ones so that every limit is reached) and a split offset.  Checked, for
 * every head parsed:
 *  - the result is a head length, 0, or one of the statuses http_req.h
 *    promises;
 *  - a head length is <= the bytes given and the head ends with an empty
 *    line; every string in struct http_req lies inside the head; the
 *    method matches its string;
 *  - the input cut at the split offset, in a buffer of exactly that size
 *    (so ASan sees any read past it), parses to 0 or to the same result,
 *    and then to the same fields;
 *  - http_req_parse_from() given the head in up to four growing pieces
 *    (cut where the hash says, each in a buffer of exactly its size) with
 *    one struct http_scan answers 0 or the same, the last piece the same
 *    with the same fields, having looked at each byte once at most.
 */
#include <stdlib.h>
#include <string.h>

#include "tlsxd/http_req.h"

static void check_str(struct http_str s, const char *head, size_t len)
{
	if (!s.p) {
		if (s.len)
			abort();
		return;
	}
	if (s.p < head || s.len > len || s.p + s.len > head + len)
		abort();
}

/* All the strings of @r, for the checks below. */
static size_t req_strs(const struct http_req *r, struct http_str *out)
{
	size_t n = 0, i;

	out[n++] = r->method_str;
	out[n++] = r->target;
	out[n++] = r->host;
	out[n++] = r->range;
	out[n++] = r->if_range;
	out[n++] = r->if_modified_since;
	out[n++] = r->if_unmodified_since;
	out[n++] = r->user_agent;
	out[n++] = r->referer;
	for (i = 0; i < HTTP_LIST_MAX; i++) {
		out[n++] = r->if_match.v[i];
		out[n++] = r->if_none_match.v[i];
	}
	return n;
}

#define REQ_STRS	(9 + 2 * HTTP_LIST_MAX)

static void check_head(const struct http_req *r, const char *buf, size_t len,
		       int ret)
{
	struct http_str s[REQ_STRS];
	size_t n, i, head = (size_t)ret;

	if (head > len || head < 3 || buf[head - 1] != '\n')
		abort();
	if (buf[head - 2] != '\n' &&
	    (buf[head - 2] != '\r' || buf[head - 3] != '\n'))
		abort();
	n = req_strs(r, s);
	for (i = 0; i < n; i++)
		check_str(s[i], buf, head);
	if (!r->method_str.len || !r->target.len)
		abort();
	if (r->if_match.n > HTTP_LIST_MAX || r->if_none_match.n > HTTP_LIST_MAX)
		abort();
	if (r->version_minor > 1 || (r->version_minor == 1 && !r->host.p))
		abort();
	if ((r->method == HTTP_M_GET) !=
	    (r->method_str.len == 3 && !memcmp(r->method_str.p, "GET", 3)))
		abort();
	if ((r->method == HTTP_M_HEAD) !=
	    (r->method_str.len == 4 && !memcmp(r->method_str.p, "HEAD", 4)))
		abort();
}

/* @a over @abuf and @b over @bbuf hold the same fields. */
static void check_same(const struct http_req *a, const char *abuf,
		       const struct http_req *b, const char *bbuf)
{
	struct http_str sa[REQ_STRS], sb[REQ_STRS];
	size_t n = req_strs(a, sa), i;

	req_strs(b, sb);
	for (i = 0; i < n; i++) {
		if (!sa[i].p != !sb[i].p || sa[i].len != sb[i].len)
			abort();
		if (sa[i].p && sa[i].p - abuf != sb[i].p - bbuf)
			abort();
	}
	if (a->method != b->method || a->version_minor != b->version_minor ||
	    a->keep_alive != b->keep_alive ||
	    a->if_match.n != b->if_match.n ||
	    a->if_none_match.n != b->if_none_match.n ||
	    a->accept_gzip != b->accept_gzip ||
	    a->accept_br != b->accept_br ||
	    a->has_content_length != b->has_content_length ||
	    a->content_length != b->content_length ||
	    a->expect_continue != b->expect_continue ||
	    a->header_count != b->header_count)
		abort();
}

/* @buf[0..@len) in up to four growing pieces, resumed; @ret the whole's. */
static void check_resumed(const struct http_req *whole, const char *buf,
			  size_t len, const struct http_limits *lim, int ret,
			  uint32_t h)
{
	struct http_scan sc = HTTP_SCAN_INIT;
	struct http_req part;
	size_t n = 0, k;
	int pret = 0;
	char *copy;

	for (k = 0; k < 4 && n < len && !pret; k++) {
		/* The last piece is the whole. */
		n = k == 3 ? len : n + (h >> (8 * k) & 0xff) % (len - n + 1);
		copy = malloc(n ? n : 1);
		if (!copy)
			return;
		memcpy(copy, buf, n);
		pret = http_req_parse_from(&part, &sc, copy, n, lim);
		if (pret && pret != ret)
			abort();
		if (pret > 0)
			check_same(whole, buf, &part, copy);
		free(copy);
	}
	if (n == len && pret != ret)
		abort();
	if (sc.scanned > len)
		abort();
}

static bool status_ok(int ret)
{
	switch (ret) {
	case -400: case -413: case -414: case -417: case -431: case -505:
		return true;
	}
	return ret >= 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const struct http_limits def = HTTP_LIMITS_DEFAULT;
	static const struct http_limits small = { 40, 160, 4, 10 };
	const struct http_limits *lim;
	const char *buf = (const char *)data;
	struct http_req whole, part;
	uint32_t h = 2166136261u;
	size_t off = 0, i, cut;
	int ret, pret;
	char *copy;

	/* FNV-1a: the same input always gets the same limits and split. */
	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	lim = h & 1 ? &small : &def;

	/* At most 64 heads: a long input of tiny heads stays quick. */
	for (i = 0; i < 64 && off <= size; i++) {
		size_t len = size - off;

		ret = http_req_parse(&whole, buf + off, len, lim);
		if (!status_ok(ret))
			abort();
		if (ret > 0)
			check_head(&whole, buf + off, len, ret);

		cut = len ? (h >> 1) % (len + 1) : 0;
		copy = malloc(cut ? cut : 1);
		if (!copy)
			return 0;
		memcpy(copy, buf + off, cut);
		pret = http_req_parse(&part, copy, cut, lim);
		if (pret && pret != ret)
			abort();
		if (pret > 0)
			check_same(&whole, buf + off, &part, copy);
		free(copy);
		check_resumed(&whole, buf + off, len, lim, ret, h);

		if (ret <= 0)
			break;
		off += ret;
		h = h * 16777619u + (uint32_t)i;
	}
	return 0;
}
