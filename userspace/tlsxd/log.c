// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - the error log and the access log.
 *
 * Both are written with one write(2) per line (error log) or per buffer
 * of whole lines (access log) on an O_APPEND fd, so lines of different
 * threads, or of several processes sharing the file, never interleave.
 * The access log's fd number stays fixed for the server's life: a reopen
 * (logrotate) dup2()s the new file onto it, atomically for the workers.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

#define LOG_LINE_MAX	2048
#define ALOG_BUF	(16 * 1024)
/*
 * Caps on the escaped fields of an access log line, so that a line is
 * always shorter than the buffer and a flush makes room for any line.
 * A longer field is cut and ends in "...".
 */
#define ALOG_METHOD_MAX	64
#define ALOG_TARGET_MAX	4096
#define ALOG_HDR_MAX	2048	/* Referer, User-Agent */

static int err_fd = STDERR_FILENO;
static char *err_path;		/* NULL: stderr */
static bool err_debug;

static const char *const level_names[] = {
	[LOG_ERR] = "error",
	[LOG_WARN] = "warn",
	[LOG_INFO] = "info",
	[LOG_DEBUG] = "debug",
};

/*
 * Writes @n bytes of @p; how many were written (@n, or fewer when a
 * write failed: errno says why, 0 when it wrote nothing).
 */
static size_t write_all(int fd, const char *p, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = 0;
			break;
		}
		done += (size_t)w;
	}
	return done;
}

int log_open(const char *path, bool debug)
{
	int fd;

	err_debug = debug;
	if (!path || !strcmp(path, "-"))
		return 0;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0)
		return -errno;
	free(err_path);
	err_path = strdup(path);
	if (!err_path) {
		close(fd);
		return -ENOMEM;
	}
	if (err_fd != STDERR_FILENO)
		close(err_fd);
	err_fd = fd;
	return 0;
}

int log_reopen(void)
{
	int fd, ret = 0;

	if (!err_path)
		return 0;
	fd = open(err_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0)
		return -errno;
	/* The same fd number: a thread logging meanwhile writes to either. */
	if (dup3(fd, err_fd, O_CLOEXEC) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * @fd (a new file, or a copy of stdout/stderr) onto *@target's number;
 * *@target becomes the number when it was a standard stream (whose
 * number must stay that stream).  Closes @fd.  0 or -errno.
 */
static int swap_fd(int fd, int *target, int stdfd)
{
	int ret = 0, nfd;

	if (*target == stdfd) {
		/* Not onto stdout/stderr: a number of our own from now on. */
		nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		ret = nfd < 0 ? -errno : 0;
		if (!ret)
			*target = nfd;
	} else if (dup3(fd, *target, O_CLOEXEC) < 0) {
		ret = -errno;
	}
	close(fd);
	return ret;
}

int log_set_path(const char *path)
{
	bool std = !path || !strcmp(path, "-");
	char *dup = std ? NULL : strdup(path);
	int fd, ret;

	if (!std && !dup)
		return -ENOMEM;
	fd = std ? fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) :
		   open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0) {
		ret = -errno;
		free(dup);
		return ret;
	}
	ret = swap_fd(fd, &err_fd, STDERR_FILENO);
	if (ret) {
		free(dup);
		return ret;
	}
	free(err_path);
	err_path = dup;
	return 0;
}

void log_set_debug(bool debug)
{
	err_debug = debug;
}

bool log_debug_enabled(void)
{
	return err_debug;
}

/* "2026/12/01 21:40:00 [info] message": nginx's error log shape, in UTC. */
void log_msg(enum log_level lvl, const char *fmt, ...)
{
	char line[LOG_LINE_MAX];
	struct tm tm;
	va_list ap;
	time_t now;
	size_t n;
	int r;

	if (lvl == LOG_DEBUG && !err_debug)
		return;
	now = time(NULL);
	gmtime_r(&now, &tm);
	n = strftime(line, sizeof(line), "%Y/%m/%d %H:%M:%S ", &tm);
	n += (size_t)snprintf(line + n, sizeof(line) - n, "[%s] ",
			      level_names[lvl]);
	va_start(ap, fmt);
	r = vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (r < 0)
		r = 0;
	if ((size_t)r >= sizeof(line) - n - 1) {
		/* Cut: say so, and keep the newline. */
		n = sizeof(line) - 5;
		memcpy(line + n, "...", 3);
		n += 3;
	} else {
		n += (size_t)r;
	}
	line[n++] = '\n';
	write_all(err_fd, line, n);
}

struct access_log {
	int fd;
	char *path;		/* NULL for stdout: nothing to reopen */
	uint64_t lines_lost;	/* atomic: every worker's failed writes */
	time_t err_logged;	/* atomic: when a failure was last logged */
	int format;		/* atomic: enum access_log_format */
};

/* How often a failing access log is reported (nginx: once a minute). */
#define ALOG_ERR_EVERY	60

struct access_log_buf {
	struct access_log *al;
	size_t len;
	time_t first;		/* when the oldest buffered line was added */
	time_t tm_for;		/* the second tm_str was made for */
	char tm_str[32];	/* "10/Oct/2000:13:55:36 +0000" */
	char buf[ALOG_BUF];
};

static int open_append(const char *path)
{
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
}

struct access_log *access_log_open(const char *path, char *err, size_t errlen)
{
	struct access_log *al = calloc(1, sizeof(*al));

	if (!al) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!strcmp(path, "-")) {
		al->fd = STDOUT_FILENO;
		return al;
	}
	al->path = strdup(path);
	al->fd = al->path ? open_append(path) : -1;
	if (al->fd < 0) {
		snprintf(err, errlen, "%s: %s", path,
			 al->path ? strerror(errno) : "out of memory");
		free(al->path);
		free(al);
		return NULL;
	}
	return al;
}

int access_log_reopen(struct access_log *al)
{
	int fd, ret = 0;

	if (!al->path)
		return 0;
	fd = open_append(al->path);
	if (fd < 0)
		return -errno;
	if (dup3(fd, al->fd, O_CLOEXEC) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int access_log_set_path(struct access_log *al, const char *path)
{
	bool std = !strcmp(path, "-");
	char *dup = std ? NULL : strdup(path);
	int fd, ret;

	if (!std && !dup)
		return -ENOMEM;
	fd = std ? fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3) : open_append(path);
	if (fd < 0) {
		ret = -errno;
		free(dup);
		return ret;
	}
	ret = swap_fd(fd, &al->fd, STDOUT_FILENO);
	if (ret) {
		free(dup);
		return ret;
	}
	free(al->path);
	al->path = dup;
	return 0;
}

void access_log_close(struct access_log *al)
{
	if (!al)
		return;
	if (al->path)
		close(al->fd);
	free(al->path);
	free(al);
}

void access_log_set_format(struct access_log *al, enum access_log_format f)
{
	__atomic_store_n(&al->format, (int)f, __ATOMIC_RELAXED);
}

struct access_log_buf *access_log_buf_new(struct access_log *al)
{
	struct access_log_buf *b = malloc(sizeof(*b));

	if (!b)
		return NULL;
	b->al = al;
	b->len = 0;
	b->first = 0;
	b->tm_for = (time_t)-1;
	b->tm_str[0] = '\0';
	return b;
}

/*
 * A write of @b's lines failed (a full disk, a quota, an I/O error) with
 * @done bytes written: the lines not wholly written are lost, never the
 * server.  They are counted, and the error log says so at the first
 * failure and then at most once a minute, as nginx does.
 */
static void access_log_lost(struct access_log_buf *b, size_t done, int err)
{
	struct access_log *al = b->al;
	const char *p = b->buf + done, *end = b->buf + b->len;
	time_t now = time(NULL), last;
	uint64_t n = 0, total;

	/* A line cut by the failure counts as lost: its tail is missing. */
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		n++;
		p++;
	}
	total = __atomic_add_fetch(&al->lines_lost, n, __ATOMIC_RELAXED);
	last = __atomic_load_n(&al->err_logged, __ATOMIC_RELAXED);
	if (last && now - last < ALOG_ERR_EVERY)
		return;
	if (!__atomic_compare_exchange_n(&al->err_logged, &last, now, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;		/* another worker reports it */
	log_msg(LOG_ERR,
		"access log %s: write: %s: %llu lines lost so far",
		al->path ? al->path : "(stdout)",
		err ? strerror(err) : "wrote nothing",
		(unsigned long long)total);
}

void access_log_flush(struct access_log_buf *b)
{
	size_t done;

	if (!b->len)
		return;
	done = write_all(b->al->fd, b->buf, b->len);
	if (done < b->len)
		access_log_lost(b, done, errno);
	b->len = 0;
}

uint64_t access_log_lines_lost(const struct access_log *al)
{
	return __atomic_load_n(&al->lines_lost, __ATOMIC_RELAXED);
}

void access_log_buf_free(struct access_log_buf *b)
{
	if (!b)
		return;
	access_log_flush(b);
	free(b);
}

/*
 * Appends @s escaped as nginx escapes a log field: '"', '\\', control
 * bytes and bytes >= 0x7f as \xHH, so a client can neither end the
 * quoted field nor forge a line.  At most @cap bytes out.
 */
static size_t put_escaped(char *out, const char *s, size_t len, size_t cap)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0, i;

	for (i = 0; i < len; i++) {
		if (n + 4 > cap - 3) {
			memcpy(out + n, "...", 3);
			return n + 3;
		}
		unsigned char ch = (unsigned char)s[i];

		if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\') {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[ch >> 4];
			out[n++] = hex[ch & 15];
		} else {
			out[n++] = (char)ch;
		}
	}
	return n;
}

size_t log_escape(char *out, size_t cap, const char *s, size_t len)
{
	size_t n;

	if (cap < 8) {
		if (cap)
			out[0] = '\0';
		return 0;
	}
	n = put_escaped(out, s, len, cap - 1);
	out[n] = '\0';
	return n;
}

static size_t put_str(char *out, struct http_str s, size_t cap)
{
	if (!s.p || !s.len) {
		out[0] = '-';
		return 1;
	}
	return put_escaped(out, s.p, s.len, cap);
}

/*
 * The client's address, and with @port its port (ADDR:PORT, [ADDR]:PORT
 * for IPv6, as URIs write them: RFC 3986 3.2.2); an IPv4 client of a
 * dual-stack socket as IPv4.
 */
static size_t put_peer(char *out, const struct sockaddr *peer, bool port)
{
	char a[INET6_ADDRSTRLEN];
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)peer;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)peer;
	bool v6 = false;
	in_port_t pn = 0;

	if (!peer) {
		out[0] = '-';
		return 1;
	}
	if (peer->sa_family == AF_INET) {
		inet_ntop(AF_INET, &sin->sin_addr, a, sizeof(a));
		pn = sin->sin_port;
	} else if (peer->sa_family == AF_INET6 &&
		   IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
		inet_ntop(AF_INET, &sin6->sin6_addr.s6_addr[12], a, sizeof(a));
		pn = sin6->sin6_port;
	} else if (peer->sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &sin6->sin6_addr, a, sizeof(a));
		pn = sin6->sin6_port;
		v6 = true;
	} else {
		out[0] = '-';
		return 1;
	}
	if (!port)
		return (size_t)sprintf(out, "%s", a);
	return (size_t)sprintf(out, v6 ? "[%s]:%u" : "%s:%u", a,
			       (unsigned int)ntohs(pn));
}

/* The combined log format's time, local time: "[10/Oct/2000:13:55:36 -0700]". */
static const char *log_time(struct access_log_buf *b, time_t now)
{
	struct tm tm;

	if (b->tm_for != now) {
		localtime_r(&now, &tm);
		strftime(b->tm_str, sizeof(b->tm_str), "%d/%b/%Y:%H:%M:%S %z",
			 &tm);
		b->tm_for = now;
	}
	return b->tm_str;
}

/*
 * The longest line: the capped fields, and 256 bytes for the address
 * and port (at most 54: "[" INET6_ADDRSTRLEN "]:65535"), the time, the
 * version, the numbers and the separators.
 */
#define ALOG_LINE_MAX	(ALOG_METHOD_MAX + ALOG_TARGET_MAX + \
			 2 * ALOG_HDR_MAX + 256)

void access_log_add(struct access_log_buf *b, const struct sockaddr *peer,
		    const struct http_req *req, int status,
		    uint64_t body_bytes, time_t now)
{
	bool port;
	char *p;
	int r;

	_Static_assert(ALOG_LINE_MAX <= ALOG_BUF, "a line fits the buffer");
	if (b->len && (ALOG_BUF - b->len < ALOG_LINE_MAX || now - b->first >= 1))
		access_log_flush(b);
	if (!b->len)
		b->first = now;
	p = b->buf + b->len;

	port = __atomic_load_n(&b->al->format, __ATOMIC_RELAXED) ==
	       ALOG_FMT_COMBINED_PORT;
	p += put_peer(p, peer, port);
	p += sprintf(p, " - - [%s] \"", log_time(b, now));
	if (req) {
		/* The request line, rebuilt from its parts (RFC 9112 3). */
		p += put_escaped(p, req->method_str.p, req->method_str.len,
				 ALOG_METHOD_MAX);
		*p++ = ' ';
		p += put_escaped(p, req->target.p, req->target.len,
				 ALOG_TARGET_MAX);
		/* The protocol as nginx logs it: HTTP/2.0 for h2. */
		if (req->http2)
			p += sprintf(p, " HTTP/2.0\" ");
		else
			p += sprintf(p, " HTTP/1.%u\" ", req->version_minor);
	} else {
		p += sprintf(p, "-\" ");
	}
	r = sprintf(p, "%d %llu \"", status, (unsigned long long)body_bytes);
	p += r;
	if (req) {
		p += put_str(p, req->referer, ALOG_HDR_MAX);
		p += sprintf(p, "\" \"");
		p += put_str(p, req->user_agent, ALOG_HDR_MAX);
	} else {
		p += sprintf(p, "-\" \"-");
	}
	*p++ = '"';
	*p++ = '\n';
	b->len = (size_t)(p - b->buf);
	if (ALOG_BUF - b->len < ALOG_LINE_MAX)
		access_log_flush(b);
}
