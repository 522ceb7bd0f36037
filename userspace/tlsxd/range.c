// SPDX-License-Identifier: GPL-2.0
/*
 * range.c - the Range field (RFC 9110 14.1-14.2) and the pieces of a
 * multipart/byteranges body (14.6).
 *
 * Parsing is strict about the grammar and lenient about meaning: any
 * syntax error, an unknown unit or a number too large for 64 bits makes
 * the whole field ignored (14.2: a server MAY ignore a Range field), and
 * the full representation is served.  The satisfiable ranges are kept in
 * a sorted array, each new one merged with those it overlaps or touches,
 * so that a field of many small overlapping ranges costs at most a few
 * parts (14.2 names that attack; coalescing is allowed by 15.3.7.2).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "range.h"

/*
 * How many disjoint ranges the merge may hold before coalescing can no
 * longer bring them under @max: past this the field is ignored.
 */
#define RANGE_WORK_MAX	64

static bool is_ows(char c)
{
	return c == ' ' || c == '\t';
}

/* 1*DIGIT at *@p (not past @end) into *@v; false on none or overflow. */
static bool parse_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s == end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned int d = *s - '0';

		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*p = s;
	*v = x;
	return true;
}

/* Inserts [first, last] into the sorted, disjoint, non-touching @set. */
static bool merge(struct byte_range *set, unsigned int *n,
		  uint64_t first, uint64_t last)
{
	unsigned int i = 0, j, k;

	/* The first range that ends at or after first - 1 (touching). */
	while (i < *n && set[i].last + 1 < first)
		i++;
	/* Those from i that start at or before last + 1 merge with it. */
	j = i;
	while (j < *n && (last == UINT64_MAX || set[j].first <= last + 1)) {
		if (set[j].first < first)
			first = set[j].first;
		if (set[j].last > last)
			last = set[j].last;
		j++;
	}
	if (j == i) {
		if (*n == RANGE_WORK_MAX)
			return false;
		memmove(&set[i + 1], &set[i], (*n - i) * sizeof(*set));
		(*n)++;
	} else if (j > i + 1) {
		k = j - i - 1;
		memmove(&set[i + 1], &set[j], (*n - j) * sizeof(*set));
		*n -= k;
	}
	set[i].first = first;
	set[i].last = last;
	return true;
}

enum range_result range_parse(struct http_str hdr, uint64_t size,
			      struct byte_range *out, unsigned int max,
			      unsigned int *n)
{
	struct byte_range set[RANGE_WORK_MAX];
	const char *p = hdr.p, *end = hdr.p + hdr.len;
	unsigned int count = 0, specs = 0;
	bool suffix_on_empty = false;

	*n = 0;
	/* RFC 9110 14.1: the range unit is case-insensitive. */
	if (!hdr.p || hdr.len < 6 || strncasecmp(p, "bytes=", 6))
		return RANGE_NONE;
	p += 6;
	/* range-set = 1#range-spec (5.6.1: empty elements are allowed). */
	while (p < end) {
		uint64_t first, last;

		while (p < end && (is_ows(*p) || *p == ','))
			p++;
		if (p == end)
			break;
		if (*p == '-') {
			/* suffix-range: the last N bytes, all when shorter. */
			p++;
			if (!parse_u64(&p, end, &last))
				return RANGE_NONE;
			specs++;
			if (last == 0)
				goto next;	/* unsatisfiable, 14.1.1 */
			if (size == 0) {
				suffix_on_empty = true;
				goto next;
			}
			first = last >= size ? 0 : size - last;
			last = size - 1;
		} else {
			if (!parse_u64(&p, end, &first) || p == end ||
			    *p != '-')
				return RANGE_NONE;
			p++;
			if (p < end && *p >= '0' && *p <= '9') {
				if (!parse_u64(&p, end, &last))
					return RANGE_NONE;
				/* 14.1.1: last-pos < first-pos is invalid. */
				if (last < first)
					return RANGE_NONE;
			} else {
				last = UINT64_MAX;
			}
			specs++;
			if (first >= size)
				goto next;	/* unsatisfiable */
			if (last >= size)
				last = size - 1;
		}
		if (!merge(set, &count, first, last))
			return RANGE_NONE;
next:
		while (p < end && is_ows(*p))
			p++;
		if (p < end && *p != ',')
			return RANGE_NONE;
	}
	if (!specs)
		return RANGE_NONE;
	if (!count) {
		/*
		 * 14.1.1: on a zero-length representation a suffix range
		 * is satisfiable, and "the entire representation is used":
		 * the (empty) whole, 200.  Nothing else is satisfiable.
		 */
		return suffix_on_empty ? RANGE_NONE : RANGE_UNSATISFIABLE;
	}
	if (count > max || (count == 1 && set[0].first == 0 &&
			    set[0].last == size - 1))
		return RANGE_NONE;
	memcpy(out, set, count * sizeof(*set));
	*n = count;
	return RANGE_OK;
}

/* SplitMix64's finaliser: a boundary that does not echo its seed. */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

void range_boundary(uint64_t seed, char *out)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t a = mix64(seed), b = mix64(a);
	int i;

	for (i = 0; i < 16; i++)
		out[i] = hex[(a >> (60 - 4 * i)) & 15];
	for (i = 0; i < 4; i++)
		out[16 + i] = hex[(b >> (60 - 4 * i)) & 15];
	out[20] = '\0';
}

size_t range_part_header(char *out, size_t cap, const char *boundary,
			 const char *content_type, const struct byte_range *r,
			 uint64_t size)
{
	int len = snprintf(out, cap,
			   "\r\n--%s\r\nContent-Type: %s\r\n"
			   "Content-Range: bytes %llu-%llu/%llu\r\n\r\n",
			   boundary, content_type,
			   (unsigned long long)r->first,
			   (unsigned long long)r->last,
			   (unsigned long long)size);

	return len < 0 || (size_t)len >= cap ? 0 : (size_t)len;
}

size_t range_closing(char *out, size_t cap, const char *boundary)
{
	int len = snprintf(out, cap, "\r\n--%s--\r\n", boundary);

	return len < 0 || (size_t)len >= cap ? 0 : (size_t)len;
}
