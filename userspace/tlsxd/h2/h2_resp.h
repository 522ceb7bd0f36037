/* SPDX-License-Identifier: GPL-2.0 */
/*
 * h2_resp.h - a response plan's head (resp.c writes it as HTTP/1.1:
 * the status line and field lines) read back as HTTP/2 fields: the
 * status as :status first, then every field with its name in lower case
 * (RFC 9113 8.2.1) but the connection-specific ones (8.2.2).  So both
 * protocols answer from one plan.  No I/O, no allocation.
 */
#ifndef TLSXD_H2_RESP_H
#define TLSXD_H2_RESP_H

#include <stddef.h>

/* The longest field name resp.c or an add-header writes. */
#define H2_RESP_NAME_MAX	256

typedef int (*h2_resp_field_fn)(void *arg, const char *name, size_t nlen,
				const char *value, size_t vlen);

/*
 * Calls @fn for each field of @head[0..@len) (a plan's head through its
 * empty line).  Returns 0, -EINVAL for a head resp.c would not write
 * (no status line, a line without a colon, a name over
 * H2_RESP_NAME_MAX), or @fn's negative value.
 */
int h2_resp_fields(const char *head, size_t len, h2_resp_field_fn fn,
		   void *arg);

#endif
