/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cond.h - validators (ETag, Last-Modified; RFC 9110 8.8) and
 * conditional requests (RFC 9110 13).  No I/O.
 */
#ifndef TLSXD_COND_H
#define TLSXD_COND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

#include "http_req.h"

#define ETAG_MAX	64

/*
 * A strong entity tag from the inode, the size and the mtime (seconds
 * and nanoseconds), quoted: "\"<ino hex>-<size hex>-<mtime hex>\"",
 * NUL-terminated in @out (ETAG_MAX bytes).  A changed file gets a new
 * tag; the same file the same tag across restarts.
 */
void etag_make(const struct stat *st, char *out);

enum cond_result {
	COND_PROCEED,		/* serve as planned */
	COND_NOT_MODIFIED,	/* 304 */
	COND_PRECONDITION_FAILED,	/* 412 */
};

/*
 * Evaluates the preconditions in RFC 9110 13.2.2's order: If-Match
 * (strong comparison; "*" matches), else If-Unmodified-Since; then
 * If-None-Match (weak comparison; "*"), else If-Modified-Since (only for
 * GET/HEAD; a date later than @now is ignored).  A field whose value does
 * not parse is ignored.  @etag: etag_make()'s; @mtime: Last-Modified.
 */
enum cond_result cond_evaluate(const struct http_req *req, const char *etag,
			       time_t mtime, time_t now);

/*
 * If-Range (RFC 9110 13.1.5): true when the Range may be honoured: no
 * If-Range, or a strong match of the entity tag, or a date exactly equal
 * to Last-Modified (a date is only a strong validator when it is at
 * least a second older than the response's Date: 8.8.2.2).
 */
bool cond_if_range(const struct http_req *req, const char *etag, time_t mtime,
		   time_t now);

#endif
