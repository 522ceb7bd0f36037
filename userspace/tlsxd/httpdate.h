/* SPDX-License-Identifier: GPL-2.0 */
/* httpdate.h - HTTP dates (RFC 9110 5.6.7). */
#ifndef TLSXD_HTTPDATE_H
#define TLSXD_HTTPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define HTTPDATE_LEN	29	/* "Sun, 06 Nov 1994 08:49:37 GMT" */

/* IMF-fixdate of @t into @out (HTTPDATE_LEN + 1 bytes, NUL-terminated). */
void httpdate_format(time_t t, char *out);

/*
 * Parses IMF-fixdate, the obsolete RFC 850 form and asctime (a recipient
 * MUST accept all three, 5.6.7) into *@t.  false for anything else (the
 * condition is then ignored, RFC 9110 13.1.3).
 */
bool httpdate_parse(const char *s, size_t len, time_t *t);

/* The same, with the RFC 850 two-digit year read relative to @now. */
bool httpdate_parse_at(const char *s, size_t len, time_t now, time_t *t);

#endif
