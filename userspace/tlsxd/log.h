/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log.h - the error log (lines with a time and a level) and the access
 * log (the combined log format, as nginx's and Apache's default:
 *   host - - [10/Oct/2000:13:55:36 +0000] "GET / HTTP/1.1" 200 2326 "ref" "ua"
 * ).  Each worker writes the access log through its own buffer, flushed
 * when full, once a second and at exit, with one write(2) of whole lines
 * (O_APPEND), so workers' lines never interleave.  Request fields are
 * escaped (\xHH for control bytes, '"' and '\\') as nginx does.
 */
#ifndef TLSXD_LOG_H
#define TLSXD_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include "http_req.h"

enum log_level { LOG_ERR, LOG_WARN, LOG_INFO, LOG_DEBUG };

/* Opens @path for the error log (NULL: stderr); @debug enables LOG_DEBUG. */
int log_open(const char *path, bool debug);
void log_msg(enum log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool log_debug_enabled(void);
/*
 * @s[0..@len), bytes a peer sent (SNI, ALPN, a header), escaped as the
 * access log's fields are (\xHH for control bytes, bytes >= 0x7f, '"'
 * and '\\') into @out, NUL-terminated, cut with "..." to fit @cap
 * (at least 8); its length.  For any such bytes in a log_msg() line.
 */
size_t log_escape(char *out, size_t cap, const char *s, size_t len);
/* Reopens the error log's file (SIGHUP, logrotate); 0 or -errno. */
int log_reopen(void);
/*
 * SIGHUP with another --error-log: @path (NULL or "-": stderr) opened
 * and put in place of the old file on the same fd number, so a thread
 * logging meanwhile writes to either; -errno (the old file stays).
 */
int log_set_path(const char *path);
void log_set_debug(bool debug);

/*
 * What the first field of a line says about the client: the address (the
 * combined format, nginx's $remote_addr), or ADDR:PORT, [ADDR]:PORT for
 * IPv6 (nginx's $remote_addr:$remote_port), to tell apart clients behind
 * one NAT or a load balancer's connections in its own logs.
 */
enum access_log_format {
	ALOG_FMT_COMBINED,
	ALOG_FMT_COMBINED_PORT,
};

struct access_log;		/* shared: the fd; reopened on SIGHUP */
struct access_log_buf;		/* per worker */

/* @path: a file (appended, created 0640), "-" for stdout. */
struct access_log *access_log_open(const char *path, char *err, size_t errlen);
int access_log_reopen(struct access_log *al);	/* logrotate */
/* SIGHUP with another --access-log (a path or "-"): as log_set_path(). */
int access_log_set_path(struct access_log *al, const char *path);
void access_log_close(struct access_log *al);
/*
 * The format of the lines added from now on (default combined); a
 * SIGHUP may change it while workers add lines: each line is wholly in
 * one format or the other.
 */
void access_log_set_format(struct access_log *al, enum access_log_format f);

struct access_log_buf *access_log_buf_new(struct access_log *al);
/*
 * One line for a response: @peer (the client: its address, and its port
 * in ALOG_FMT_COMBINED_PORT), @req (may be
 * NULL for a request that did not parse: "-" is logged as the request
 * line, as nginx does for a 400), @status, @body_bytes (what was sent).
 */
void access_log_add(struct access_log_buf *b, const struct sockaddr *peer,
		    const struct http_req *req, int status,
		    uint64_t body_bytes, time_t now);
/*
 * Writes the buffered lines.  A write that fails (ENOSPC, EDQUOT, EIO)
 * loses the lines not wholly written, counts them, and says so in the
 * error log at the first failure and then at most once a minute.
 */
void access_log_flush(struct access_log_buf *b);
/* Lines lost to failed writes so far, all workers (stats: alog_lost). */
uint64_t access_log_lines_lost(const struct access_log *al);
void access_log_buf_free(struct access_log_buf *b);

#endif
