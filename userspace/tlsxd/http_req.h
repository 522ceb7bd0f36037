/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_req.h - the HTTP/1.x request head (RFC 9112 2-5, RFC 9110 5),
 * parsed without copying: every string points into the caller's buffer,
 * which must outlive the struct.  No I/O, no allocation.
 */
#ifndef TLSXD_HTTP_REQ_H
#define TLSXD_HTTP_REQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits on a request head; conf.c fills them, tests set their own. */
struct http_limits {
	unsigned int request_line_max;	/* bytes, CRLF excluded: 414 */
	unsigned int header_bytes_max;	/* whole head: 431 (see below) */
	unsigned int header_count_max;	/* fields: 431 */
	uint64_t body_max;		/* Content-Length a GET may carry */
};

#define HTTP_LIMITS_DEFAULT { 8192, 16384, 100, 0 }

enum http_method {
	HTTP_M_GET,
	HTTP_M_HEAD,
	HTTP_M_OTHER,	/* a valid token: 405 with Allow: GET, HEAD */
};

struct http_str {
	const char *p;		/* NULL when absent */
	uint32_t len;
};

/* A list field (RFC 9110 5.6.1) that may be repeated: each occurrence. */
#define HTTP_LIST_MAX	4
struct http_list {
	struct http_str v[HTTP_LIST_MAX];
	uint8_t n;
};

struct http_req {
	enum http_method method;
	struct http_str method_str;
	struct http_str target;		/* the raw request-target */
	uint8_t version_minor;		/* HTTP/1.0 or HTTP/1.1 */
	/*
	 * After the version and every Connection field (RFC 9112 9.3):
	 * 1.1 unless "close", 1.0 only with "keep-alive".
	 */
	bool keep_alive;
	/* Host, or the authority of an absolute-form target (RFC 9112 3.2.2) */
	struct http_str host;
	/* Singleton fields: the value (OWS trimmed); repeated: 400. */
	struct http_str range;
	struct http_str if_range;
	struct http_str if_modified_since;
	struct http_str if_unmodified_since;
	struct http_str user_agent;	/* for the access log */
	struct http_str referer;
	/* List fields: every occurrence, in order. */
	struct http_list if_match;
	struct http_list if_none_match;
	bool accept_gzip;	/* Accept-Encoding lists gzip with q > 0 */
	bool accept_br;		/* ... br with q > 0 */
	bool has_content_length;
	uint64_t content_length;
	bool expect_continue;	/* Expect: 100-continue */
	bool http2;		/* came by HTTP/2 (h2/h2_req.c): the log says so */
	unsigned int header_count;
};

/*
 * Parses the head at @buf[0..@len).  Returns:
 *   > 0  the head's length (through its empty line); *@req filled;
 *   0    incomplete: call again with more bytes (limits are checked on
 *        what is there, so a request line over the limit fails at once);
 *   < 0  minus the status to answer, then close:
 *        400 malformed: a bare CR, obs-fold (RFC 9112 5.2), whitespace
 *            before ':' (5.1), a control character or a non-token in a
 *            name, a missing or repeated Host in 1.1 (RFC 9112 3.2), a
 *            repeated singleton field, conflicting or malformed
 *            Content-Length (6.3), a target that is not origin-form or
 *            absolute-form (3.2), a list field repeated over HTTP_LIST_MAX;
 *        413 Transfer-Encoding (no request bodies are read), or a
 *            Content-Length over body_max;
 *        414 the request line over request_line_max;
 *        417 an Expect other than 100-continue;
 *        431 the head over header_bytes_max, fields over header_count_max;
 *        505 a major version other than 1 (RFC 9110 2.5: HTTP/1.2
 *            and up are served as 1.1, version_minor 1).
 * Leading empty lines are skipped (RFC 9112 2.2) and counted in the
 * returned length and in header_bytes_max (which bounds the returned
 * length: a head of exactly header_bytes_max bytes passes); a bare LF
 * ends a line.  When several limits are crossed, the status is the one
 * crossed first in the byte stream, so feeding a head in pieces gives
 * what the whole gives.  Errors in a complete head: the first line in
 * error decides.  @lim NULL: HTTP_LIMITS_DEFAULT.  On a return <= 0,
 * *@req holds nothing the caller may use.
 */
int http_req_parse(struct http_req *req, const char *buf, size_t len,
		   const struct http_limits *lim);

/*
 * Where a scan of an incomplete head stopped, for http_req_parse_from():
 * HTTP_SCAN_INIT for a new head, and again whenever the bytes it has
 * seen change (the buffer shifted, a head answered).  The offsets are
 * the parser's; @scanned counts the bytes it has looked for LF in, over
 * every call (each byte once: a caller or a test may check it).
 */
struct http_scan {
	uint32_t line;		/* the offset of the line not yet ended */
	uint32_t seen;		/* bytes from 0 looked at (>= line) */
	uint32_t rl;		/* the request line's offset */
	uint32_t fields;	/* field lines ended so far */
	uint8_t phase;
	uint64_t scanned;
};

#define HTTP_SCAN_INIT	{ 0 }

/*
 * http_req_parse() for a head that arrives in pieces: @buf[0..@len)
 * holds what came so far (the bytes of earlier calls unchanged, more
 * after them), and *@scan what the last call found, so only the new
 * bytes are scanned; the head's fields are parsed once, when it is
 * whole.  Returns what http_req_parse() returns for the same bytes.  A
 * @len below what *@scan has seen starts over.
 */
int http_req_parse_from(struct http_req *req, struct http_scan *scan,
			const char *buf, size_t len,
			const struct http_limits *lim);

/*
 * Iterates the comma-separated elements of @s (RFC 9110 5.6.1): stores
 * the next one (OWS trimmed, a quoted string kept whole) in *@elem and
 * advances *@pos (start at 0).  Empty elements are skipped.  false when
 * none is left.
 */
bool http_list_next(struct http_str s, size_t *pos, struct http_str *elem);

/*
 * The fields one at a time, for HTTP/2 (h2/h2_req.c), which has no head
 * to parse but the same field semantics: what the fields leave for the
 * checks after the last one.
 */
struct http_field_state {
	unsigned int hosts;
	bool conn_close;
	bool conn_keep_alive;
	bool expect_continue;
	/* Accept-Encoding weights in thousandths; -1: not listed. */
	int q_gzip, q_br, q_any;
};
#define HTTP_FIELD_STATE_INIT	{ .q_gzip = -1, .q_br = -1, .q_any = -1 }

/*
 * Applies field @name (any case) with @value (OWS trimmed) to @req as
 * the head parser does: Host, Range, the conditionals, Accept-Encoding,
 * Content-Length, ... (unknown names are ignored).  @value must outlive
 * @req.  0, or minus the status (400, 413, 417) as http_req_parse().
 */
int http_field_apply(struct http_req *req, struct http_field_state *st,
		     struct http_str name, struct http_str value);
/* After the last field: what depends on them all (Accept-Encoding). */
void http_fields_finish(struct http_req *req,
			const struct http_field_state *st);
/* RFC 9110 7.2: @p[0..@n) is a valid Host (uri-host [ ":" port ]). */
bool http_host_valid(const char *p, size_t n);

/*
 * Case-insensitive (ASCII) comparison of @s with NUL-terminated @lit;
 * false when @s is absent (p NULL).
 */
bool http_str_ieq(struct http_str s, const char *lit);

#endif
