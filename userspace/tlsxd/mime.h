/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mime.h - file name extension -> media type, from /etc/mime.types
 * (Debian's media-types package) with a built-in table for the common
 * web types when the file is missing or lacks them.
 */
#ifndef TLSXD_MIME_H
#define TLSXD_MIME_H

#include <stddef.h>

struct mime_table;

/*
 * Loads @path (NULL: /etc/mime.types).  A missing or unreadable file is
 * not an error: the built-in table alone is used (and *@warn, if not
 * NULL, set to a message for the log).  NULL only when out of memory.
 * Immutable once loaded: shared by every worker.
 */
struct mime_table *mime_load(const char *path, const char **warn);
void mime_free(struct mime_table *t);

/*
 * The type for file name @name (the extension after its last '.',
 * case-insensitive); "text/html; charset=utf-8" style for text types
 * (charset=utf-8 added to text/html, text/plain, text/css,
 * text/javascript, application/javascript, application/json...); the
 * default "application/octet-stream" when none.  Never NULL.
 */
const char *mime_lookup(const struct mime_table *t, const char *name);

/* How many extensions the table knows (the log line at start). */
size_t mime_count(const struct mime_table *t);

#endif
