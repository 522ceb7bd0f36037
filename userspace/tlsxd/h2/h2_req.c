// SPDX-License-Identifier: GPL-2.0
/*
 * h2_req.c - an HTTP/2 request's fields into struct http_req (h2_req.h).
 * The field semantics are the HTTP/1.1 parser's (http_field_apply(): one
 * set of rules for Host, Range, the conditionals, Accept-Encoding, ...);
 * what is HTTP/2's own is here, each rule with its RFC 9113 section.
 */
#include <string.h>
#include <strings.h>

#include "h2_frame.h"
#include "h2_req.h"

enum {
	H2_PS_METHOD = 1 << 0,
	H2_PS_SCHEME = 1 << 1,
	H2_PS_PATH = 1 << 2,
	H2_PS_AUTHORITY = 1 << 3,
};

static const struct {
	const char *name;
	size_t len;
	unsigned int bit;
} pseudo_defs[] = {
	{ ":method", 7, H2_PS_METHOD },
	{ ":scheme", 7, H2_PS_SCHEME },
	{ ":path", 5, H2_PS_PATH },
	{ ":authority", 10, H2_PS_AUTHORITY },
};

/*
 * 8.2.2: fields that are connection-specific in HTTP/1.1 make a message
 * malformed in HTTP/2 (TE is allowed with "trailers" only).
 */
static const char *const conn_specific[] = {
	"connection", "proxy-connection", "keep-alive", "transfer-encoding",
	"upgrade",
};

static bool name_is(const char *n, size_t len, const char *lit)
{
	return strlen(lit) == len && !memcmp(n, lit, len);
}

/*
 * 8.2.1: a name has no octet in 0x00-0x20, 0x41-0x5a (upper case) or
 * 0x7f-0xff, and no colon past the first octet; it is not empty (RFC
 * 9110 5.1: a token).
 */
static bool name_valid(const char *n, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		unsigned char c = n[i];

		if (c <= 0x20 || (c >= 'A' && c <= 'Z') || c >= 0x7f)
			return false;
		if (c == ':' && i)
			return false;
	}
	return true;
}

/*
 * 8.2.1: a value has no NUL, LF or CR, and does not start or end with
 * SP or HTAB.  The other control octets are refused too, as the
 * HTTP/1.1 parser refuses them (RFC 9110 5.5).
 */
static bool value_valid(const char *v, size_t len)
{
	size_t i;

	if (len && (v[0] == ' ' || v[0] == '\t' || v[len - 1] == ' ' ||
		    v[len - 1] == '\t'))
		return false;
	for (i = 0; i < len; i++) {
		unsigned char c = v[i];

		if ((c < ' ' && c != '\t') || c == 0x7f)
			return false;
	}
	return true;
}

/* RFC 9110 9.1, 5.6.2: a method is a token. */
static bool token_valid(const char *p, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++)
		if (!p[i] || strchr("\"(),/:;<=>?@[\\]{} \t", p[i]) ||
		    (unsigned char)p[i] < 0x21 || (unsigned char)p[i] > 0x7e)
			return false;
	return true;
}

void h2_req_begin(struct h2_req_build *b, struct http_req *req, char *buf,
		  size_t cap, const struct http_limits *lim)
{
	static const struct http_limits defaults = HTTP_LIMITS_DEFAULT;
	static const struct http_field_state st0 = HTTP_FIELD_STATE_INIT;

	memset(b, 0, sizeof(*b));
	memset(req, 0, sizeof(*req));
	b->req = req;
	b->st = st0;
	b->lim = lim ? lim : &defaults;
	b->buf = buf;
	b->cap = cap;
	/* HTTP/2 is persistent, and is served with HTTP/1.1's semantics. */
	req->version_minor = 1;
	req->keep_alive = true;
	req->http2 = true;
}

/* @v copied into the build's buffer: NULL when it is full. */
static const char *keep(struct h2_req_build *b, const char *v, size_t len)
{
	char *p;

	if (len > b->cap - b->len) {
		b->too_large = true;
		return NULL;
	}
	p = b->buf + b->len;
	memcpy(p, v, len);
	b->len += len;
	return p;
}

static void pseudo_field(struct h2_req_build *b, const char *name,
			 size_t nlen, const char *v, size_t vlen)
{
	struct http_req *req = b->req;
	unsigned int i, bit = 0;
	const char *p;

	for (i = 0; i < ARRAY_SIZE(pseudo_defs); i++)
		if (name_is(name, nlen, pseudo_defs[i].name))
			bit = pseudo_defs[i].bit;
	/*
	 * 8.3: a pseudo-header after a regular field, one not defined for
	 * requests (a response's :status included), or one repeated (8.3.1)
	 * is malformed.
	 */
	if (!bit || b->regular || (b->pseudo & bit)) {
		b->malformed = true;
		return;
	}
	b->pseudo |= bit;
	p = keep(b, v, vlen);
	if (!p)
		return;
	switch (bit) {
	case H2_PS_METHOD:
		if (!token_valid(v, vlen)) {
			b->malformed = true;
			return;
		}
		req->method_str.p = p;
		req->method_str.len = vlen;
		if (name_is(v, vlen, "GET"))
			req->method = HTTP_M_GET;
		else if (name_is(v, vlen, "HEAD"))
			req->method = HTTP_M_HEAD;
		else
			req->method = HTTP_M_OTHER;
		return;
	case H2_PS_SCHEME:
		/* Served over TLS: "https" (8.3.1, RFC 9110 4.2.2). */
		if (!name_is(v, vlen, "https") && !name_is(v, vlen, "http"))
			b->status = b->status ? b->status : 400;
		return;
	case H2_PS_PATH:
		req->target.p = p;
		req->target.len = vlen;
		return;
	case H2_PS_AUTHORITY:
		/*
		 * 8.3.1: no userinfo ("@"); otherwise the Host rules (RFC
		 * 9110 7.2) decide, a bad one being a 400 as for Host.
		 */
		if (memchr(v, '@', vlen)) {
			b->malformed = true;
			return;
		}
		if (!http_host_valid(v, vlen) && !b->status)
			b->status = 400;
		b->authority.p = p;
		b->authority.len = vlen;
		return;
	}
}

int h2_req_field(void *arg, const char *name, size_t nlen, const char *v,
		 size_t vlen, unsigned int flags)
{
	struct h2_req_build *b = arg;
	struct http_str hn, hv;
	unsigned int i;
	int r;

	(void)flags;
	if (b->malformed)
		return 0;
	if (!name_valid(name, nlen) || !value_valid(v, vlen)) {
		b->malformed = true;
		return 0;
	}
	if (name[0] == ':') {
		pseudo_field(b, name, nlen, v, vlen);
		return 0;
	}
	b->regular = true;
	for (i = 0; i < ARRAY_SIZE(conn_specific); i++)
		if (name_is(name, nlen, conn_specific[i])) {
			b->malformed = true;
			return 0;
		}
	/* 8.2.2: TE may be present with "trailers" only. */
	if (name_is(name, nlen, "te")) {
		if (!name_is(v, vlen, "trailers"))
			b->malformed = true;
		return 0;
	}
	if (b->status || b->too_large)
		return 0;
	if (++b->req->header_count > b->lim->header_count_max) {
		b->too_large = true;
		return 0;
	}
	hv.p = keep(b, v, vlen);
	if (!hv.p)
		return 0;
	hv.len = vlen;
	hn.p = name;
	hn.len = nlen;
	if (name_is(name, nlen, "host")) {
		/* Kept aside: compared with :authority at the end (8.3.1). */
		if (b->host.p) {
			b->status = 400;
			return 0;
		}
		b->host = hv;
	}
	r = http_field_apply(b->req, &b->st, hn, hv);
	if (r < 0)
		b->status = -r;
	return 0;
}

int h2_req_end(struct h2_req_build *b, bool end_stream)
{
	struct http_req *req = b->req;

	if (b->malformed)
		return H2_REQ_MALFORMED;
	/*
	 * 8.3.1: :method, :scheme and :path exactly once (CONNECT, 8.5,
	 * is not served and not special-cased: without :scheme and :path
	 * it is malformed); :path not empty.
	 */
	if ((b->pseudo & (H2_PS_METHOD | H2_PS_SCHEME | H2_PS_PATH)) !=
	    (H2_PS_METHOD | H2_PS_SCHEME | H2_PS_PATH) || !req->target.len)
		return H2_REQ_MALFORMED;
	if (b->too_large)
		return 431;
	if (b->status)
		return b->status;
	/*
	 * 8.3.1: a Host that differs from :authority SHOULD make the
	 * request malformed; with no :authority, Host names the target.
	 */
	if (b->authority.p && b->host.p &&
	    (b->authority.len != b->host.len ||
	     strncasecmp(b->authority.p, b->host.p, b->host.len)))
		return H2_REQ_MALFORMED;
	if (b->authority.p)
		req->host = b->authority;
	/* RFC 9112 3.2.2's rule, as HTTP/1.1: a target is origin-form. */
	if (req->target.p[0] != '/' && req->method != HTTP_M_OTHER)
		return 400;
	if (req->has_content_length && req->content_length > b->lim->body_max)
		return 413;
	/*
	 * 8.1: a HEADERS without END_STREAM announces content; requests
	 * carry none here (as HTTP/1.1 answers a body: 413).
	 */
	if (!end_stream && b->lim->body_max == 0)
		return 413;
	http_fields_finish(req, &b->st);
	return 0;
}
