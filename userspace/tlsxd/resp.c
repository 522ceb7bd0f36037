// SPDX-License-Identifier: GPL-2.0
/*
 * resp.c - a request made into a response plan (resp.h): which file,
 * which status, the head in the caller's buffer, the body as segments.
 *
 * The steps follow resp.h's order: method, path, file type, directory
 * index or redirect, precompressed sibling, preconditions (RFC 9110
 * 13.2.2), Range (14.2), else the whole file.  Every failure is mapped
 * to a status in one place (status_of_errno()), and every head is built
 * through one bounded writer: a head that does not fit is a 500, never
 * a truncated response.
 *
 * Fields are written in one fixed order (Server, Date, Content-Type,
 * Content-Length, Last-Modified, ETag, Accept-Ranges, then
 * Content-Range, Content-Encoding, Vary, Location, Allow, the
 * configuration's added fields (add-header) in their order, Connection):
 * tests compare whole heads, and a reader of a capture knows where to
 * look.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cond.h"
#include "fcache.h"
#include "httpdate.h"
#include "path.h"
#include "range.h"
#include "resp.h"

/* The index name and ".br"/".gz" after a normalised path. */
#define RESP_REL_MAX	(PATH_MAX_OUT + 256)

static const char *reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 206: return "Partial Content";
	case 301: return "Moved Permanently";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 412: return "Precondition Failed";
	case 413: return "Content Too Large";
	case 414: return "URI Too Long";
	case 416: return "Range Not Satisfiable";
	case 417: return "Expectation Failed";
	case 431: return "Request Header Fields Too Large";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	}
	return "Internal Server Error";
}

/* A bounded writer into the plan's buffer; @bad once anything failed. */
struct wbuf {
	char *p;
	size_t cap, len;
	bool bad;
};

__attribute__((format(printf, 2, 3)))
static void put(struct wbuf *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->bad)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->p + w->len, w->cap - w->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= w->cap - w->len)
		w->bad = true;
	else
		w->len += n;
}

/* How the connection goes on after this response. */
struct conn_mode {
	bool close;	/* "Connection: close" */
	bool ka10;	/* an HTTP/1.0 keep-alive: "Connection: keep-alive" */
};

static struct conn_mode conn_mode(const struct http_req *req,
				  unsigned int flags)
{
	struct conn_mode m;

	m.close = (flags & RESP_F_CLOSE) || !req->keep_alive;
	/*
	 * RFC 9112 C.2.2: an HTTP/1.0 client keeps the connection only
	 * when the response says "keep-alive" too.
	 */
	m.ka10 = !m.close && req->version_minor == 0;
	return m;
}

static void put_start(struct wbuf *w, const struct site *s, int status,
		      time_t now)
{
	char date[HTTPDATE_LEN + 1];

	httpdate_format(now, date);
	/* RFC 9110 6.2: our highest version, whatever the client's. */
	put(w, "HTTP/1.1 %d %s\r\nServer: %s\r\nDate: %s\r\n", status,
	    reason(status), s->server, date);
}

/*
 * nginx's add_header without "always": the successful and redirect
 * statuses (ngx_http_headers_filter_module), of which tlsxd sends 200,
 * 206, 301 and 304.
 */
static bool added_on_status(int status)
{
	switch (status) {
	case 200: case 201: case 204: case 206:
	case 301: case 302: case 303: case 304: case 307: case 308:
		return true;
	}
	return false;
}

/* The added fields for @status, then how the connection goes on. */
static void put_end(struct wbuf *w, const struct site *s, int status,
		    struct conn_mode m)
{
	bool on_status = added_on_status(status);
	unsigned int i;

	for (i = 0; i < s->nheaders; i++)
		if (on_status || s->headers[i].always)
			put(w, "%s: %s\r\n", s->headers[i].name,
			    s->headers[i].value);
	if (m.close)
		put(w, "Connection: close\r\n");
	else if (m.ka10)
		put(w, "Connection: keep-alive\r\n");
	put(w, "\r\n");
}

static void plan_init(struct resp *out, int status, struct conn_mode m)
{
	out->status = status;
	out->fd = -1;
	out->head = NULL;
	out->head_len = 0;
	out->nseg = 0;
	out->body_len = 0;
	out->close = m.close;
	out->encoding = NULL;
}

/*
 * An error (or redirect) plan: a tiny HTML body after the head in @buf,
 * @extra (whole field lines, or NULL) between Content-Length and
 * Connection.  Fits in RESP_BUF_MIN unless @extra is huge; then a 500.
 */
static void error_plan(const struct site *s, int status, time_t now,
		       struct conn_mode m, bool head_only, const char *extra,
		       char *buf, size_t cap, struct resp *out)
{
	char body[160];
	struct wbuf w = { buf, cap, 0, false };
	int blen;

	blen = snprintf(body, sizeof(body),
			"<!DOCTYPE html>\n"
			"<html><head><title>%d %s</title></head><body><h1>%d %s</h1></body></html>\n",
			status, reason(status), status, reason(status));
	plan_init(out, status, m);
	put_start(&w, s, status, now);
	put(&w, "Content-Type: text/html; charset=utf-8\r\n"
	    "Content-Length: %d\r\n%s", blen, extra ? extra : "");
	put_end(&w, s, status, m);
	if (!head_only)
		put(&w, "%s", body);
	if (w.bad && status != 500) {
		error_plan(s, 500, now, m, head_only, NULL, buf, cap, out);
		return;
	}
	if (w.bad) {
		/* Not even a 500 fits (a huge Server name): the bare one. */
		static const char bare[] =
			"HTTP/1.1 500 Internal Server Error\r\n"
			"Content-Length: 0\r\nConnection: close\r\n\r\n";

		out->head = bare;
		out->head_len = sizeof(bare) - 1;
		out->close = true;
		return;
	}
	out->head = buf;
	out->head_len = w.len - (head_only ? 0 : blen);
	if (!head_only) {
		out->seg[0].mem = buf + out->head_len;
		out->seg[0].off = 0;
		out->seg[0].len = blen;
		out->nseg = 1;
		out->body_len = blen;
	}
}

void resp_error(const struct site *s, int status, time_t now,
		unsigned int flags, bool head_only, char *buf, size_t cap,
		struct resp *out)
{
	struct conn_mode m = { (flags & RESP_F_CLOSE) != 0, false };

	error_plan(s, status, now, m, head_only,
		   status == 405 ? "Allow: GET, HEAD\r\n" : NULL, buf, cap,
		   out);
}


/* One place maps what the file system said to what the client hears. */
static int status_of_errno(int err)
{
	switch (err) {
	case ENOENT:
	case ENOTDIR:
		return 404;
	case ENAMETOOLONG:
		return 414;
	case EACCES:
	case EPERM:
	case EXDEV:	/* a symlink out of the root (RESOLVE_BENEATH) */
	case ELOOP:
	case ENXIO:	/* a socket or a FIFO without a writer */
		return 403;
	}
	return 500;
}

/*
 * Opens @rel beneath the root for reading and fstat()s it.  O_NONBLOCK:
 * a FIFO in the root must not block the worker (it is refused after the
 * fstat as not regular); regular files ignore the flag.  Returns the fd
 * or -errno.
 */
static int open_stat(const struct site *s, const char *rel, struct stat *st)
{
	int fd = path_open_beneath(s->root_fd, rel, O_NONBLOCK);

	if (fd < 0)
		return fd;
	if (fstat(fd, st)) {
		int err = errno;

		close(fd);
		return -err;
	}
	return fd;
}

/*
 * Every file of a plan is opened by file_get() and given back by
 * file_put(), never close()d: with the worker's open-file cache
 * (fcache.h) the fd may be shared with other responses and stay open
 * after this one.  Without a cache (tests, --open-file-cache 0) they are
 * open_stat() and close().
 */
static int file_get(const struct site *s, const char *rel, struct stat *st)
{
	struct fcache *fc = fcache_thread();

	if (!fc)
		return open_stat(s, rel, st);
	return fcache_get(fc, s->root_fd, rel, st);
}

static void file_put(int fd)
{
	fcache_put(fcache_thread(), fd);
}

void resp_release(struct resp *r)
{
	file_put(r->fd);
	r->fd = -1;
}

/*
 * RFC 3986 3.3: a path segment is pchar = unreserved / pct-encoded /
 * sub-delims / ":" / "@"; everything else, '%' included (the path is
 * decoded), is percent-encoded again.
 */
static void put_path_encoded(struct wbuf *w, const char *p)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *p && !w->bad; p++) {
		unsigned char c = *p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~!$&'()*+,;=:@/", c))
			put(w, "%c", c);
		else
			put(w, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

/* The 301 to "/<path>/" with the query as the client sent it. */
static void redirect_plan(const struct site *s, const struct http_req *req,
			  const char *path, time_t now, struct conn_mode m,
			  char *buf, size_t cap, struct resp *out)
{
	const char *q = memchr(req->target.p, '?', req->target.len);
	char loc[RESP_BUF_MIN / 2];
	struct wbuf w = { loc, sizeof(loc), 0, false };

	put(&w, "Location: /");
	put_path_encoded(&w, path);
	put(&w, "/");
	if (q)
		put(&w, "%.*s", (int)(req->target.p + req->target.len - q), q);
	put(&w, "\r\n");
	/* A location too long for a field of ours: the target was too. */
	if (w.bad) {
		error_plan(s, 414, now, m, req->method == HTTP_M_HEAD, NULL, buf,
			   cap, out);
		return;
	}
	error_plan(s, 301, now, m, req->method == HTTP_M_HEAD, loc, buf, cap,
		   out);
}

/*
 * The .br or .gz sibling of @rel when the client accepts it and it is a
 * regular file: its fd (and *@st, *@enc), else -1.  br first: it is the
 * smaller where both exist.
 */
static int open_sibling(const struct site *s, const struct http_req *req,
			const char *rel, struct stat *st, const char **enc)
{
	static const struct {
		const char *suffix, *name;
	} sib[] = { { ".br", "br" }, { ".gz", "gzip" } };
	char name[RESP_REL_MAX];
	size_t len = strlen(rel);
	unsigned int i;
	int fd;

	if (len + 4 > sizeof(name))
		return -1;
	memcpy(name, rel, len);
	for (i = 0; i < 2; i++) {
		if (!(i == 0 ? req->accept_br : req->accept_gzip))
			continue;
		memcpy(name + len, sib[i].suffix, 4);
		/*
		 * Through the cache, a sibling known absent costs no
		 * failing openat2 (fcache_get_variant(): one statx of the
		 * directory for both).
		 */
		if (fcache_thread())
			fd = fcache_get_variant(fcache_thread(), s->root_fd,
						rel, sib[i].suffix, i, st);
		else
			fd = file_get(s, name, st);
		if (fd < 0)
			continue;
		if (S_ISREG(st->st_mode)) {
			*enc = sib[i].name;
			return fd;
		}
		file_put(fd);
	}
	return -1;
}

/* What a file response carries, whatever its status. */
struct file_info {
	const char *type;
	char etag[ETAG_MAX];
	char lastmod[HTTPDATE_LEN + 1];
	time_t mtime;
	uint64_t size;
	const char *encoding;
	bool vary;
};

static void put_validators(struct wbuf *w, const struct file_info *fi)
{
	put(w, "Last-Modified: %s\r\nETag: %s\r\n", fi->lastmod, fi->etag);
}

static void put_encoding(struct wbuf *w, const struct file_info *fi)
{
	if (fi->encoding)
		put(w, "Content-Encoding: %s\r\n", fi->encoding);
	if (fi->vary)
		put(w, "Vary: Accept-Encoding\r\n");
}

/* 304 (RFC 9110 15.4.5): the validators and Vary, no Content-Length. */
static bool not_modified(const struct site *s, const struct file_info *fi,
			 time_t now, struct conn_mode m, struct wbuf *w)
{
	put_start(w, s, 304, now);
	put_validators(w, fi);
	put_encoding(w, fi);
	put_end(w, s, 304, m);
	return !w->bad;
}

/*
 * 206 of several ranges (RFC 9110 14.6): the part headers and the
 * closing delimiter go first into @w (the head is written after them,
 * once the length is known), the file ranges between them.
 */
static bool multipart(const struct file_info *fi, const struct byte_range *r,
		      unsigned int n, uint64_t seed, struct wbuf *w,
		      struct resp *out, char *boundary)
{
	unsigned int i;
	size_t len;

	range_boundary(seed, boundary);
	for (i = 0; i < n; i++) {
		len = range_part_header(w->p + w->len, w->cap - w->len,
					boundary, fi->type, &r[i], fi->size);
		if (!len)
			return false;
		out->seg[out->nseg].mem = w->p + w->len;
		out->seg[out->nseg].len = len;
		out->seg[out->nseg].off = 0;
		out->nseg++;
		w->len += len;
		out->seg[out->nseg].mem = NULL;
		out->seg[out->nseg].off = r[i].first;
		out->seg[out->nseg].len = r[i].last - r[i].first + 1;
		out->nseg++;
	}
	len = range_closing(w->p + w->len, w->cap - w->len, boundary);
	if (!len)
		return false;
	out->seg[out->nseg].mem = w->p + w->len;
	out->seg[out->nseg].off = 0;
	out->seg[out->nseg].len = len;
	out->nseg++;
	w->len += len;
	for (i = 0; i < out->nseg; i++)
		out->body_len += out->seg[i].len;
	return true;
}

/*
 * The file is open and regular: preconditions, Range, else 200.  On
 * success the plan owns @fd (or has closed it: HEAD, 304).
 */
static int file_plan(const struct site *s, const struct http_req *req,
		     int fd, const struct stat *st, struct file_info *fi,
		     time_t now, struct conn_mode m, char *buf, size_t cap,
		     struct resp *out)
{
	bool head_only = req->method == HTTP_M_HEAD;
	struct wbuf w = { buf, cap, 0, false };
	struct byte_range r[RESP_RANGES_MAX];
	unsigned int n = 0, max;
	enum range_result rr = RANGE_NONE;
	char boundary[21];
	char cr[96];
	size_t head_at;

	fi->size = st->st_size;
	/*
	 * RFC 9110 8.8.2.1: a Last-Modified after the response's Date is
	 * replaced by the Date.
	 */
	fi->mtime = st->st_mtime < now ? st->st_mtime : now;
	httpdate_format(fi->mtime, fi->lastmod);
	etag_make(st, fi->etag);

	switch (cond_evaluate(req, fi->etag, fi->mtime, now)) {
	case COND_PRECONDITION_FAILED:
		file_put(fd);
		error_plan(s, 412, now, m, head_only, NULL, buf, cap, out);
		return 412;
	case COND_NOT_MODIFIED:
		file_put(fd);
		plan_init(out, 304, m);
		if (!not_modified(s, fi, now, m, &w))
			goto too_big;
		out->head = buf;
		out->head_len = w.len;
		return 304;
	case COND_PROCEED:
		break;
	}

	/*
	 * 14.2: Range is defined for GET only (HEAD gets the 200 head);
	 * If-Range decides whether it is honoured at all (13.1.5).
	 */
	max = s->ranges_max < RESP_RANGES_MAX ? s->ranges_max : RESP_RANGES_MAX;
	if (req->range.p && req->method == HTTP_M_GET &&
	    cond_if_range(req, fi->etag, fi->mtime, now))
		rr = range_parse(req->range, fi->size, r, max, &n);
	if (rr == RANGE_UNSATISFIABLE) {
		file_put(fd);
		snprintf(cr, sizeof(cr),
			 "Accept-Ranges: bytes\r\nContent-Range: bytes */%llu\r\n",
			 (unsigned long long)fi->size);
		error_plan(s, 416, now, m, head_only, cr, buf, cap, out);
		return 416;
	}
	plan_init(out, rr == RANGE_OK ? 206 : 200, m);
	out->encoding = fi->encoding;
	if (rr == RANGE_OK && n > 1 &&
	    !multipart(fi, r, n, (uint64_t)st->st_ino * 0x9e3779b97f4a7c15ULL ^
		       (uint64_t)now ^ (uintptr_t)buf, &w, out, boundary)) {
		/* No room for the parts: the whole file (14.2 allows it). */
		w.len = 0;
		rr = RANGE_NONE;
		plan_init(out, 200, m);
		out->encoding = fi->encoding;
	}
	if (rr == RANGE_OK && n == 1) {
		out->seg[0].mem = NULL;
		out->seg[0].off = r[0].first;
		out->seg[0].len = r[0].last - r[0].first + 1;
		out->nseg = 1;
		out->body_len = out->seg[0].len;
	} else if (rr == RANGE_NONE && fi->size) {
		out->seg[0].mem = NULL;
		out->seg[0].off = 0;
		out->seg[0].len = fi->size;
		out->nseg = 1;
		out->body_len = fi->size;
	}

	head_at = w.len;
	put_start(&w, s, out->status, now);
	if (rr == RANGE_OK && n > 1)
		put(&w, "Content-Type: multipart/byteranges; boundary=%s\r\n",
		    boundary);
	else
		put(&w, "Content-Type: %s\r\n", fi->type);
	put(&w, "Content-Length: %llu\r\n", (unsigned long long)out->body_len);
	put_validators(&w, fi);
	put(&w, "Accept-Ranges: bytes\r\n");
	if (rr == RANGE_OK && n == 1)
		put(&w, "Content-Range: bytes %llu-%llu/%llu\r\n",
		    (unsigned long long)r[0].first,
		    (unsigned long long)r[0].last,
		    (unsigned long long)fi->size);
	put_encoding(&w, fi);
	put_end(&w, s, out->status, m);
	if (w.bad) {
		file_put(fd);
		goto too_big;
	}
	out->head = buf + head_at;
	out->head_len = w.len - head_at;
	if (head_only) {
		/* 9.3.2: the GET's head, Content-Length included; no body. */
		file_put(fd);
		out->nseg = 0;
		out->body_len = 0;
		return out->status;
	}
	out->fd = fd;
	return out->status;

too_big:
	error_plan(s, 500, now, m, head_only, NULL, buf, cap, out);
	return 500;
}

int resp_plan(const struct site *s, const struct http_req *req, time_t now,
	      unsigned int flags, char *buf, size_t cap, struct resp *out)
{
	struct conn_mode m = conn_mode(req, flags);
	bool head_only = req->method == HTTP_M_HEAD;
	char path[PATH_MAX_OUT], rel[RESP_REL_MAX];
	const char *name = path;
	struct file_info fi;
	struct path_result pr;
	struct stat st;
	int rc, fd, sfd, status;

	if (req->method == HTTP_M_OTHER) {
		/* RFC 9110 15.5.6: 405 lists the methods we have. */
		error_plan(s, 405, now, m, false, "Allow: GET, HEAD\r\n", buf,
			   cap, out);
		return 405;
	}
	rc = path_normalize(req->target.p, req->target.len, path, sizeof(path),
			    &pr);
	if (rc < 0) {
		status = -rc;
		goto error;
	}
	if (pr.hidden && !s->allow_hidden) {
		status = 404;
		goto error;
	}
	fd = file_get(s, path, &st);
	if (fd < 0) {
		status = status_of_errno(-fd);
		goto error;
	}
	if (S_ISDIR(st.st_mode)) {
		file_put(fd);
		if (path[0] && !pr.trailing_slash) {
			redirect_plan(s, req, path, now, m, buf, cap, out);
			return out->status;
		}
		rc = snprintf(rel, sizeof(rel), "%s%s%s", path,
			      path[0] ? "/" : "", s->index);
		if (rc < 0 || (size_t)rc >= sizeof(rel)) {
			status = 414;
			goto error;
		}
		name = rel;
		fd = file_get(s, rel, &st);
		/* No index: 403 as nginx says it, there are no listings. */
		if (fd < 0) {
			status = fd == -ENOENT ? 403 : status_of_errno(-fd);
			goto error;
		}
	} else if (S_ISREG(st.st_mode) && pr.trailing_slash) {
		/* "/file/" names a directory that does not exist. */
		file_put(fd);
		status = 404;
		goto error;
	}
	if (!S_ISREG(st.st_mode)) {
		file_put(fd);
		status = 403;
		goto error;
	}

	fi.type = mime_lookup(s->mime, name);
	fi.encoding = NULL;
	fi.vary = false;
	if (s->precompressed) {
		/* 12.5.5: the choice depends on Accept-Encoding, always. */
		fi.vary = true;
		if (req->accept_br || req->accept_gzip) {
			struct stat sst;

			sfd = open_sibling(s, req, name, &sst, &fi.encoding);
			if (sfd >= 0) {
				file_put(fd);
				fd = sfd;
				st = sst;
			}
		}
	}
	return file_plan(s, req, fd, &st, &fi, now, m, buf, cap, out);

error:
	error_plan(s, status, now, m, head_only, NULL, buf, cap, out);
	return status;
}
