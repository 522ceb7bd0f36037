// SPDX-License-Identifier: GPL-2.0
/*
 * path.c - the request-target made into a relative path in one pass, and
 * the file opened beneath the root by openat2(2).
 *
 * path_normalize() reads the target once, byte by byte: each byte is
 * percent-decoded, checked (NUL, encoded '/', '\', control characters),
 * fed to a UTF-8 state machine (RFC 3629 section 4) and either ends a
 * segment (a raw '/') or is appended to the current one in @out.  At a
 * segment's end it is kept, dropped ("." and empty) or it pops the last
 * kept segment (".."): RFC 3986 5.2.4 over a stack of segment offsets,
 * so nothing is ever scanned twice.
 *
 * A segment that does not fit in @out is not failed at once: a later
 * ".." may remove it ("/<5000 bytes>/../x" is "x").  It becomes a
 * "phantom", counted but not stored; ".." pops phantoms first, and the
 * result is 414 only if a phantom survives to the end, i.e. exactly when
 * the result is longer than @cap - 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tlsxd/path.h"

#define ST_BAD		400
#define ST_TOO_LONG	414

/*
 * RFC 3629 section 4: the bytes that may follow a lead byte.  @need
 * continuation bytes are still expected; the next one must lie in
 * [@lo, @hi], which narrows only right after E0, ED, F0 and F4 (the
 * overlong, surrogate and beyond-U+10FFFF forms), then is 80..BF.
 */
struct utf8_state {
	unsigned int need;
	unsigned char lo, hi;
};

static bool utf8_feed(struct utf8_state *u, unsigned char c)
{
	if (u->need) {
		if (c < u->lo || c > u->hi)
			return false;
		u->need--;
		u->lo = 0x80;
		u->hi = 0xbf;
		return true;
	}
	u->lo = 0x80;
	u->hi = 0xbf;
	if (c < 0x80)
		return true;
	if (c < 0xc2)		/* a lone continuation; C0/C1 overlong */
		return false;
	if (c < 0xe0) {
		u->need = 1;
	} else if (c < 0xf0) {
		u->need = 2;
		if (c == 0xe0)
			u->lo = 0xa0;	/* E0 80..9F: overlong */
		else if (c == 0xed)
			u->hi = 0x9f;	/* ED A0..BF: surrogates */
	} else if (c < 0xf5) {
		u->need = 3;
		if (c == 0xf0)
			u->lo = 0x90;	/* F0 80..8F: overlong */
		else if (c == 0xf4)
			u->hi = 0x8f;	/* F4 90..: above U+10FFFF */
	} else {
		return false;		/* F5..FF never appear */
	}
	return true;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Only what RFC 3986 3.2 allows in an authority, '@' aside (below). */
static bool authority_byte_ok(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '\\' && c != '#' && c != '@';
}

static bool scheme_is(const char *t, size_t len, const char *s)
{
	size_t n = strlen(s), i;

	if (len < n)
		return false;
	for (i = 0; i < n; i++) {
		/* RFC 3986 3.1: the scheme is case-insensitive. */
		unsigned char c = t[i];

		if (c >= 'A' && c <= 'Z')
			c |= 0x20;
		if (c != (unsigned char)s[i])
			return false;
	}
	return true;
}

/*
 * Absolute-form (RFC 9112 3.2.2): skip "http[s]://authority" and return
 * the offset of the path, or -1.  RFC 9110 4.2.1: an empty host is
 * invalid; 4.2.4: userinfo is treated as an error.
 */
static long skip_absolute(const char *t, size_t len)
{
	size_t i;

	if (scheme_is(t, len, "http://"))
		i = 7;
	else if (scheme_is(t, len, "https://"))
		i = 8;
	else
		return 0;
	if (i == len || t[i] == '/' || t[i] == '?')
		return -1;
	for (; i < len && t[i] != '/' && t[i] != '?'; i++)
		if (!authority_byte_ok(t[i]))
			return -1;
	return i;
}

struct norm {
	char *out;
	size_t lim;		/* bytes of @out usable before the NUL */
	size_t pos;		/* end of the kept path in @out */
	size_t seg_start;	/* @pos when this segment began */
	size_t seg_len;		/* decoded bytes of this segment */
	bool seg_dots;		/* this segment is only '.' so far */
	bool seg_over;		/* this segment did not fit */
	size_t phantoms;	/* segments kept but not stored */
	size_t depth;
	size_t hidden;		/* kept segments starting with '.' */
	unsigned short stack[PATH_MAX_OUT / 2 + 1];
};

static void seg_byte(struct norm *n, unsigned char c)
{
	if (c != '.')
		n->seg_dots = false;
	if (!n->phantoms && !n->seg_over) {
		/* The separator goes in with a segment's first byte. */
		size_t need = (!n->seg_len && n->pos) ? 2 : 1;

		if (n->pos + need > n->lim) {
			n->seg_over = true;
			n->pos = n->seg_start;
		} else {
			if (need == 2)
				n->out[n->pos++] = '/';
			n->out[n->pos++] = c;
		}
	}
	n->seg_len++;
}

/* RFC 3986 5.2.4 steps 2B-2E, one segment at a time. */
static int seg_end(struct norm *n)
{
	size_t start;

	if (!n->seg_len) {
		/* "//": an empty segment, collapsed. */
	} else if (n->seg_dots && n->seg_len == 1) {
		n->pos = n->seg_start;
	} else if (n->seg_dots && n->seg_len == 2) {
		n->pos = n->seg_start;
		if (n->phantoms) {
			n->phantoms--;
		} else if (n->depth) {
			start = n->stack[--n->depth];
			if (n->out[start ? start + 1 : 0] == '.')
				n->hidden--;
			n->pos = start;
		} else {
			/* Above the root: refused, not clamped. */
			return -ST_BAD;
		}
	} else if (n->phantoms || n->seg_over) {
		n->phantoms++;
		n->pos = n->seg_start;
	} else {
		start = n->seg_start;
		if (n->out[start ? start + 1 : 0] == '.')
			n->hidden++;
		n->stack[n->depth++] = start;
	}
	n->seg_start = n->pos;
	n->seg_len = 0;
	n->seg_dots = true;
	n->seg_over = false;
	return 0;
}

int path_normalize(const char *target, size_t len, char *out, size_t cap,
		   struct path_result *res)
{
	const unsigned char *t = (const unsigned char *)target;
	struct utf8_state u = { 0 };
	struct norm n;
	bool last_dir;
	size_t i, end;
	long p;
	int ret;

	if (!cap)
		return -ST_TOO_LONG;
	if (cap > PATH_MAX_OUT)
		cap = PATH_MAX_OUT;
	n.out = out;
	n.lim = cap - 1;
	n.pos = 0;
	n.seg_start = 0;
	n.seg_len = 0;
	n.seg_dots = true;
	n.seg_over = false;
	n.phantoms = 0;
	n.depth = 0;
	n.hidden = 0;

	/*
	 * RFC 9112 3.2: no whitespace, control character or NUL anywhere in
	 * a request-target; RFC 3986 3.5: a fragment is never sent.
	 */
	for (i = 0; i < len; i++)
		if (t[i] <= 0x20 || t[i] == 0x7f || t[i] == '#')
			return -ST_BAD;

	p = skip_absolute(target, len);
	if (p < 0)
		return -ST_BAD;
	i = p;
	/* The query is no part of the file's name. */
	end = i;
	while (end < len && t[end] != '?')
		end++;
	/*
	 * Origin-form begins with '/' (RFC 9112 3.2.1); an empty path in
	 * absolute-form is "/" (RFC 3986 6.2.3); asterisk- and
	 * authority-form name no file.
	 */
	if (i < end && t[i] == '/')
		i++;
	else if (!p || i != end)
		return -ST_BAD;

	for (; i < end; i++) {
		unsigned char c = t[i];
		bool encoded = false;

		if (c == '%') {
			int hi, lo;

			/* RFC 3986 2.1: '%' HEXDIG HEXDIG, decoded once. */
			if (end - i < 3)
				return -ST_BAD;
			hi = hexval(t[i + 1]);
			lo = hexval(t[i + 2]);
			if (hi < 0 || lo < 0)
				return -ST_BAD;
			c = hi << 4 | lo;
			i += 2;
			encoded = true;
		}
		/*
		 * An encoded '/' would make a segment boundary the normaliser
		 * did not see; '\' is one on other systems; NUL ends a C
		 * string early; RFC 3629 aside, controls are never names.
		 */
		if (c == '\\' || c < 0x20 || c == 0x7f || (encoded && c == '/'))
			return -ST_BAD;
		if (!utf8_feed(&u, c))
			return -ST_BAD;
		if (c == '/') {
			ret = seg_end(&n);
			if (ret)
				return ret;
			continue;
		}
		seg_byte(&n, c);
	}
	/* A sequence cut by the end of the path (RFC 3629 section 4). */
	if (u.need)
		return -ST_BAD;
	/*
	 * RFC 3986 5.2.4 leaves a trailing '/' after a last segment that is
	 * empty, "." or "..": "/a/", "/a/." and "/a/b/.." name directories.
	 */
	last_dir = !n.seg_len || (n.seg_dots && n.seg_len <= 2);
	ret = seg_end(&n);
	if (ret)
		return ret;
	if (n.phantoms)
		return -ST_TOO_LONG;
	out[n.pos] = '\0';
	res->len = n.pos;
	res->trailing_slash = last_dir;
	res->hidden = n.hidden != 0;
	return 0;
}

int path_open_beneath(int root_fd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | flags,
		/*
		 * BENEATH: no absolute path, no ".." or symlink out of
		 * @root_fd, even in passing; NO_MAGICLINKS: no /proc/PID/fd
		 * style jump, which BENEATH alone would not catch inside a
		 * root that holds a procfs.
		 */
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	/* Read-only, whatever the caller passes. */
	if (flags & ~(O_DIRECTORY | O_PATH | O_NONBLOCK))
		return -EINVAL;
	fd = syscall(SYS_openat2, root_fd, *rel ? rel : ".", &how,
		     sizeof(how));
	if (fd < 0)
		return -errno;
	return fd;
}

int path_open_file(int root_fd, const char *rel, struct stat *st)
{
	int fd, ret;

	fd = path_open_beneath(root_fd, rel, O_NONBLOCK);
	if (fd == -ENXIO)	/* a socket, or a device without a driver */
		return -EACCES;
	if (fd < 0)
		return fd;
	if (fstat(fd, st)) {
		ret = -errno;
		goto fail;
	}
	if (S_ISDIR(st->st_mode))
		return fd;
	if (!S_ISREG(st->st_mode)) {
		ret = -EACCES;
		goto fail;
	}
	if (fcntl(fd, F_SETFL, 0)) {
		ret = -errno;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return ret;
}
