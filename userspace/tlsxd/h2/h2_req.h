/* SPDX-License-Identifier: GPL-2.0 */
/*
 * h2_req.h - an HTTP/2 request's decoded fields made into the struct
 * http_req the HTTP/1.1 parser fills (so resp.c plans both the same
 * way), under RFC 9113 8.2 (field validity, connection-specific fields)
 * and 8.3 (pseudo-header fields).  No I/O; the strings kept are copied
 * into the caller's buffer.
 */
#ifndef TLSXD_H2_REQ_H
#define TLSXD_H2_REQ_H

#include "../http_req.h"

/* h2_req_end(): the request is malformed (8.1.1): RST_STREAM PROTOCOL_ERROR. */
#define H2_REQ_MALFORMED	(-1)

struct h2_req_build {
	struct http_req *req;
	struct http_field_state st;
	const struct http_limits *lim;
	char *buf;		/* the field values kept: req's strings */
	size_t cap, len;
	unsigned int pseudo;	/* H2_PS_* seen */
	bool regular;		/* a regular field came: no pseudo after */
	bool malformed;
	bool too_large;		/* over the buffer or the field count: 431 */
	int status;		/* the first semantic error, else 0 */
	struct http_str authority;
	struct http_str host;	/* a Host field, for 8.3.1's comparison */
};

/* Starts request @req; @buf[@cap] keeps its strings (@lim NULL: defaults). */
void h2_req_begin(struct h2_req_build *b, struct http_req *req, char *buf,
		  size_t cap, const struct http_limits *lim);

/*
 * One decoded field (hpack_field_fn's signature: the HPACK decoder calls
 * it).  Always 0: a malformed field is remembered and decoding goes on,
 * so the decoder's table stays in step with the peer's (RFC 9113 4.3).
 */
int h2_req_field(void *arg, const char *name, size_t name_len,
		 const char *value, size_t value_len, unsigned int flags);

/*
 * After the block: 0 to serve, H2_REQ_MALFORMED, or a status to answer
 * with (400, 413, 417, 431) as the HTTP/1.1 parser would.  @end_stream:
 * the HEADERS ended the stream (else a body would follow: 413, 8.1).
 */
int h2_req_end(struct h2_req_build *b, bool end_stream);

#endif
