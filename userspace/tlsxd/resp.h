/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resp.h - a request made into a response plan: the status, the head
 * (status line and fields) in memory, and the body as segments, each
 * either bytes in memory or a range of one open file.  No socket I/O:
 * conn.c sends a plan with whatever the record layer offers (send,
 * sendfile, splice, or libtlsx in userspace).
 */
#ifndef TLSXD_RESP_H
#define TLSXD_RESP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "http_req.h"
#include "mime.h"

/*
 * A field added to responses (the configuration's add-header, nginx's
 * add_header): "NAME: VALUE", checked at load (conf.c).  Without
 * @always only on the statuses nginx adds it to (resp.c,
 * added_on_status()); with it on every response.
 */
struct resp_header {
	char *name;
	char *value;
	bool always;
};

/* What every response of one document root shares (read-only). */
struct site {
	int root_fd;			/* O_PATH | O_DIRECTORY of the root */
	const struct mime_table *mime;
	const char *index;		/* "index.html" */
	const char *server;		/* the Server field: "tlsxd/0.1" */
	unsigned int ranges_max;	/* <= RESP_RANGES_MAX */
	bool allow_hidden;		/* serve ".name" segments */
	bool precompressed;		/* .gz / .br siblings */
	/* Written in this order after tlsxd's own fields. */
	const struct resp_header *headers;
	unsigned int nheaders;
};

#define RESP_RANGES_MAX	16
#define RESP_SEG_MAX	(2 * RESP_RANGES_MAX + 1)
/* The caller's buffer for the head and the multipart part headers. */
#define RESP_BUF_MIN	8192
/*
 * The added fields' bounds: their lines ("NAME: VALUE\r\n") together
 * leave room in RESP_BUF_MIN for the largest head tlsxd writes besides
 * (a 301 with a Location of RESP_BUF_MIN / 2, about 4.5 KiB in all).
 */
#define RESP_HEADERS_MAX	32
#define RESP_HEADERS_BYTES_MAX	3072

struct resp_seg {
	const char *mem;	/* bytes in the plan's buffer, or NULL: */
	uint64_t off;		/* ... a range of resp.fd */
	uint64_t len;
};

struct resp {
	int status;
	int fd;			/* the file, -1 when none: resp_release() */
	const char *head;	/* status line through the empty line */
	size_t head_len;
	struct resp_seg seg[RESP_SEG_MAX];	/* empty for HEAD, 304, ... */
	unsigned int nseg;
	uint64_t body_len;	/* the sum of the segments' lengths */
	bool close;		/* "Connection: close" was sent */
	const char *encoding;	/* "gzip", "br" or NULL (for the log) */
};

/* resp_plan() flags. */
#define RESP_F_CLOSE	(1u << 0)	/* the connection ends after this */

/*
 * Plans the answer to @req (parsed by http_req_parse(), its buffer still
 * valid) at time @now, using @buf (@cap >= RESP_BUF_MIN) for the head and
 * any multipart part headers.  Handles, in order: the method (405 with
 * Allow: GET, HEAD), the path (path.h: 400, 404 for hidden segments when
 * not allowed, 404 when missing, 403 for what is not a regular file or
 * directory or cannot be read), a directory (its index, or 301 with
 * Location ending in '/' when the target lacked it, the query kept; 403
 * when there is no index, as nginx: no listings), the precompressed
 * sibling (name
 * + ".br" / ".gz", a regular file, when the client accepts it: the
 * sibling's size and its own ETag, Content-Encoding, the original's
 * Content-Type; "Vary: Accept-Encoding" whenever siblings are looked
 * for), the conditionals (cond.h: 304 with ETag and Last-Modified, 412),
 * Range with If-Range (range.h: 206 with Content-Range, or
 * multipart/byteranges; 416 with "Content-Range: bytes * / LEN"),
 * else 200.  Every response has Date, Server, Content-Length (except
 * 304), Accept-Ranges: bytes on files, then @s's added fields (on
 * 200, 206, 301 and 304, on every status when "always"), and
 * Connection: close when closing (RESP_F_CLOSE, or the request did not
 * keep alive).  Returns
 * the status (also in @out->status); never fails: an internal error is
 * a 500 plan.
 */
int resp_plan(const struct site *s, const struct http_req *req, time_t now,
	      unsigned int flags, char *buf, size_t cap, struct resp *out);

/*
 * A response with no file: @status (301 excepted: 400, 403, 404, 405,
 * 408, 412, 413, 414, 416, 417, 431, 500, 503, 505) with a short
 * text/html body (none when @head_only), Connection: close when
 * RESP_F_CLOSE (error statuses after a parse failure always close: the
 * caller passes the flag).  405 carries "Allow: GET, HEAD".  @s's
 * added fields marked "always" are there too.
 */
void resp_error(const struct site *s, int status, time_t now,
		unsigned int flags, bool head_only, char *buf, size_t cap,
		struct resp *out);

/* Closes the plan's file, if any. */
void resp_release(struct resp *r);

#endif
