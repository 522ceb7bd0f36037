// SPDX-License-Identifier: GPL-2.0
/*
 * h2_resp.c - a plan's HTTP/1.1 head as HTTP/2 fields (h2_resp.h).
 * resp.c writes one fixed grammar: "HTTP/1.1 NNN reason" CRLF, then
 * "Name: value" CRLF lines, then CRLF; nothing else is accepted here.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "h2_frame.h"
#include "h2_resp.h"

/* 8.2.2: never sent in HTTP/2. */
static bool conn_specific(const char *n, size_t len)
{
	static const char *const names[] = {
		"connection", "keep-alive", "proxy-connection",
		"transfer-encoding", "upgrade",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == len && !memcmp(n, names[i], len))
			return true;
	return false;
}

/* The line at @p up to its CRLF: its length, or -1 when none. */
static long line_len(const char *p, const char *end)
{
	const char *cr;

	for (cr = p; cr + 1 < end; cr++)
		if (cr[0] == '\r' && cr[1] == '\n')
			return cr - p;
	return -1;
}

int h2_resp_fields(const char *head, size_t len, h2_resp_field_fn fn,
		   void *arg)
{
	const char *p = head, *end = head + len;
	char name[H2_RESP_NAME_MAX];
	long n = line_len(p, end);
	int r;

	/* "HTTP/1.1 NNN ": 8.3.2: :status is the three digits alone. */
	if (n < 12 || memcmp(p, "HTTP/1.1 ", 9) || p[12] != ' ')
		return -EINVAL;
	r = fn(arg, ":status", 7, p + 9, 3);
	if (r < 0)
		return r;
	p += n + 2;
	while ((n = line_len(p, end)) > 0) {
		const char *colon = memchr(p, ':', n), *v;
		size_t nlen, vlen, i;

		if (!colon || colon == p ||
		    (size_t)(colon - p) > sizeof(name))
			return -EINVAL;
		nlen = colon - p;
		/* 8.2.1: names in lower case. */
		for (i = 0; i < nlen; i++)
			name[i] = p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i];
		v = colon + 1;
		while (v < p + n && (*v == ' ' || *v == '\t'))
			v++;
		vlen = p + n - v;
		if (!conn_specific(name, nlen)) {
			r = fn(arg, name, nlen, v, vlen);
			if (r < 0)
				return r;
		}
		p += n + 2;
	}
	/* The empty line ends it: a head without one is not a plan's. */
	return n == 0 ? 0 : -EINVAL;
}
