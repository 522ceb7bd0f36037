/* SPDX-License-Identifier: GPL-2.0 */
/*
 * range.h - byte ranges (RFC 9110 14.1-14.4) and multipart/byteranges
 * (RFC 9110 14.6).  No I/O.
 */
#ifndef TLSXD_RANGE_H
#define TLSXD_RANGE_H

#include <stddef.h>
#include <stdint.h>

#include "http_req.h"

struct byte_range {
	uint64_t first;		/* inclusive */
	uint64_t last;		/* inclusive */
};

enum range_result {
	RANGE_NONE,		/* serve the whole representation (200) */
	RANGE_OK,		/* *@n ranges to serve (206) */
	RANGE_UNSATISFIABLE,	/* 416, Content-Range: bytes * / size */
};

/*
 * @hdr: the Range field value; @size: the representation's length.
 * Parses "bytes=" ranges (first-last, first-, -suffix; RFC 9110 14.1.1),
 * sorted and coalesced where they overlap or touch (14.2 allows it, and
 * it defeats many-small-overlapping-ranges attacks), at most @max kept.
 * RANGE_NONE for: no header, another unit, a syntax error (14.2: a
 * server MAY ignore it; nginx does), more than @max ranges after
 * coalescing (served whole, as nginx's max_ranges), or ranges covering
 * the whole file.  RANGE_UNSATISFIABLE when no range is satisfiable
 * (first >= size for all; a zero-length file has none).  Unsatisfiable
 * ranges among satisfiable ones are dropped.
 */
enum range_result range_parse(struct http_str hdr, uint64_t size,
			      struct byte_range *out, unsigned int max,
			      unsigned int *n);

/*
 * A boundary for multipart/byteranges: 20 hex digits from @seed (any
 * per-response value), NUL-terminated in @out (>= 21 bytes).
 */
void range_boundary(uint64_t seed, char *out);

/*
 * The part header before range @r of a multipart/byteranges body
 * ("\r\n--B\r\nContent-Type: T\r\nContent-Range: bytes a-b/size\r\n\r\n";
 * the first part's leading CRLF is kept, RFC 9110 14.6 allows it) into
 * @out; and the closing delimiter ("\r\n--B--\r\n").  Each returns the
 * length written, or 0 when @cap is too small.
 */
size_t range_part_header(char *out, size_t cap, const char *boundary,
			 const char *content_type, const struct byte_range *r,
			 uint64_t size);
size_t range_closing(char *out, size_t cap, const char *boundary);

#endif
