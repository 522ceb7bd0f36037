// SPDX-License-Identifier: GPL-2.0
/*
 * http_req.c - the HTTP/1.x request head (RFC 9112 2-9, RFC 9110 5).
 *
 * Two passes over the caller's bytes, no copy, no allocation:
 *
 *  1. head_scan() walks the lines (memchr for LF) inside the first
 *     header_bytes_max bytes only, skipping leading empty lines, and
 *     checks the limits on what is there: the request line (414), the
 *     field count (431), and the whole head (431) when no empty line ends
 *     it inside the bound.  Every limit is a property of a prefix that
 *     only becomes true as bytes arrive, and the scan reports the one
 *     that became true first, so a head fed in pieces gets the same
 *     answer as the head whole: 0 until then.  Where it stopped is kept
 *     in a struct http_scan, and the next call goes on from there: every
 *     byte is looked at once however the head is split (a client sending
 *     a byte at a time costs linear work, not quadratic).
 *  2. Once the empty line is there, the request line and every field
 *     line are parsed; the first line in error decides the status, then
 *     what only the whole head can tell (Host missing, Content-Length
 *     over the bound).
 *
 * A line ends with LF; a CR is only allowed right before it (RFC 9112
 * 2.2: a bare CR is an error here, not a space).
 */
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include "http_req.h"

static bool is_ows(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_hex(char c)
{
	return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* RFC 9110 5.6.2: tchar, by table (names and methods are scanned a lot). */
static const bool tchar_tab[256] = {
	['0' ... '9'] = true, ['A' ... 'Z'] = true, ['a' ... 'z'] = true,
	['!'] = true, ['#'] = true, ['$'] = true, ['%'] = true, ['&'] = true,
	['\''] = true, ['*'] = true, ['+'] = true, ['-'] = true, ['.'] = true,
	['^'] = true, ['_'] = true, ['`'] = true, ['|'] = true, ['~'] = true,
};

static bool is_tchar(char c)
{
	return tchar_tab[(unsigned char)c];
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* @a and @b (@n bytes each) equal but for ASCII case. */
static bool ieq_n(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lower(a[i]) != lower(b[i]))
			return false;
	return true;
}

bool http_str_ieq(struct http_str s, const char *lit)
{
	return s.p && strlen(lit) == s.len && ieq_n(s.p, lit, s.len);
}

bool http_list_next(struct http_str s, size_t *pos, struct http_str *elem)
{
	size_t i = *pos, start, end;
	bool quoted = false;

	if (!s.p)
		return false;
	/* RFC 9110 5.6.1: empty elements and OWS around them are skipped. */
	while (i < s.len && (is_ows(s.p[i]) || s.p[i] == ','))
		i++;
	if (i >= s.len) {
		*pos = s.len;
		return false;
	}
	start = i;
	for (; i < s.len; i++) {
		char c = s.p[i];

		if (quoted) {
			/* RFC 9110 5.6.4: quoted-pair inside a quoted-string. */
			if (c == '\\' && i + 1 < s.len)
				i++;
			else if (c == '"')
				quoted = false;
		} else if (c == '"') {
			quoted = true;
		} else if (c == ',') {
			break;
		}
	}
	end = i;
	while (end > start && is_ows(s.p[end - 1]))
		end--;
	elem->p = s.p + start;
	elem->len = end - start;
	*pos = i < s.len ? i + 1 : i;
	return true;
}

/* ---- pass 1: where the head ends, and the limits --------------------- */

/*
 * A request line of @n raw bytes so far (no LF among them, a final CR
 * included) is over @max bytes of content when it has more than @max + 1,
 * or exactly @max + 1 of which the last is not the CR of a CRLF.  The same
 * test holds whether or not its LF has arrived, which is what makes the
 * answer independent of how the bytes were split.
 */
static bool line_over(const char *p, size_t n, size_t max)
{
	return n > max + 1 || (n == max + 1 && p[max] != '\r');
}

enum scan_phase { SCAN_LEADING, SCAN_REQUEST_LINE, SCAN_FIELDS };

/*
 * Finds the head in @buf[0..@len), going on from *@sc: returns 1 with
 * sc->rl (the request line's offset) and *@end (the head's length
 * through its empty line), 0 when incomplete (*@sc: where to go on), or
 * minus a limit's status.  Every check of a line looks at its start and
 * length only, so a line found in part is judged again in O(1) when
 * more of it has come, and memchr() only reads bytes not read before.
 */
static int head_scan(const char *buf, size_t len,
		     const struct http_limits *lim, struct http_scan *sc,
		     size_t *end)
{
	size_t bytes_max = lim->header_bytes_max;
	size_t region, pos = sc->line, seen = sc->seen;
	int ret = 0;

	/* The length is returned as an int. */
	if (bytes_max > INT_MAX)
		bytes_max = INT_MAX;
	region = len < bytes_max ? len : bytes_max;
	while (pos < region) {
		const char *lf = memchr(buf + seen, '\n', region - seen);
		size_t eol = lf ? (size_t)(lf - buf) : region;
		size_t n = eol - pos;
		bool empty = n == 0 || (n == 1 && buf[pos] == '\r');

		sc->scanned += (lf ? eol + 1 : region) - seen;
		seen = eol;
		if (sc->phase == SCAN_LEADING) {
			/* RFC 9112 2.2: empty lines before the request line. */
			if (empty) {
				if (!lf)
					break;
				pos = seen = eol + 1;
				continue;
			}
			sc->phase = SCAN_REQUEST_LINE;
			sc->rl = pos;
		}
		if (sc->phase == SCAN_REQUEST_LINE) {
			if (line_over(buf + pos, n, lim->request_line_max)) {
				ret = -414;
				break;
			}
			if (!lf)
				break;
			sc->phase = SCAN_FIELDS;
			pos = seen = eol + 1;
			continue;
		}
		if (!lf)
			break;
		if (empty) {
			*end = eol + 1;
			ret = 1;
			break;
		}
		if (++sc->fields > lim->header_count_max) {
			ret = -431;
			break;
		}
		pos = seen = eol + 1;
	}
	sc->line = pos;
	sc->seen = seen;
	/* No end inside the bound, and a byte past it: too long a head. */
	if (!ret && len > bytes_max)
		ret = -431;
	return ret;
}

/* ---- pass 2: the request line ----------------------------------------- */

/*
 * RFC 3986 3.2.2 reg-name / IP-literal, then an optional ":" port (3.2.3)
 * as RFC 9110 7.2 defines Host.  @p may be empty (RFC 9110 7.2 allows
 * an empty Host when the target has no authority).
 */
bool http_host_valid(const char *p, size_t n)
{
	size_t i = 0;

	if (n && p[0] == '[') {
		/* IP-literal: hex, ':', '.' and IPvFuture's characters. */
		for (i = 1; i < n && p[i] != ']'; i++)
			if (!is_hex(p[i]) && !strchr(":.vV-_~!$&'()*+,;=", p[i]))
				return false;
		if (i == n)
			return false;
		i++;
	} else {
		for (; i < n && p[i] != ':'; i++) {
			if (p[i] == '%') {
				if (i + 2 >= n || !is_hex(p[i + 1]) ||
				    !is_hex(p[i + 2]))
					return false;
				i += 2;
				continue;
			}
			if (!is_alpha(p[i]) && !is_digit(p[i]) &&
			    !strchr("-._~!$&'()*+,;=", p[i]))
				return false;
		}
	}
	if (i == n)
		return true;
	if (p[i] != ':')
		return false;
	for (i++; i < n; i++)
		if (!is_digit(p[i]))
			return false;
	return true;
}

/* @s starts with NUL-terminated @lit, compared case-insensitively. */
static bool has_iprefix(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && http_str_ieq((struct http_str){ s, k }, lit);
}

/*
 * RFC 9112 3.2: origin-form ("/path?query") or absolute-form
 * ("http://authority/path", RFC 9112 3.2.2, which a server MUST accept).
 * The authority of an absolute-form target replaces Host (RFC 9112 3.2.2:
 * the server MUST ignore the Host field then); it must not be empty
 * (RFC 9110 4.2.1) nor carry userinfo (RFC 9110 4.2.4).  Asterisk-form
 * and authority-form belong to OPTIONS and CONNECT, which are not served.
 */
static int parse_target(struct http_req *req, struct http_str *authority)
{
	const char *t = req->target.p;
	size_t n = req->target.len, i, skip;

	authority->p = NULL;
	authority->len = 0;
	if (t[0] == '/')
		return 0;
	if (has_iprefix(t, n, "http://"))
		skip = 7;
	else if (has_iprefix(t, n, "https://"))
		skip = 8;
	else
		return -400;
	for (i = skip; i < n && t[i] != '/' && t[i] != '?' && t[i] != '#'; i++)
		if (t[i] == '@')
			return -400;
	if (i == skip || t[skip] == ':' || !http_host_valid(t + skip, i - skip))
		return -400;
	authority->p = t + skip;
	authority->len = i - skip;
	return 0;
}

/*
 * RFC 9112 3: method SP request-target SP HTTP-version, one space each
 * (a lenient split on other whitespace is what request smuggling feeds
 * on: 3 allows refusing it).
 */
static int parse_request_line(struct http_req *req, const char *p, size_t n,
			      struct http_str *authority)
{
	size_t i = 0, t;
	const char *v;

	while (i < n && is_tchar(p[i]))
		i++;
	if (!i || i == n || p[i] != ' ')
		return -400;
	req->method_str.p = p;
	req->method_str.len = i;
	/* RFC 9110 9.1: method names are case-sensitive. */
	if (i == 3 && !memcmp(p, "GET", 3))
		req->method = HTTP_M_GET;
	else if (i == 4 && !memcmp(p, "HEAD", 4))
		req->method = HTTP_M_HEAD;
	else
		req->method = HTTP_M_OTHER;

	/* RFC 3986 2: a URI is visible US-ASCII; no space, CTL or 8-bit. */
	t = ++i;
	while (i < n && p[i] > ' ' && p[i] < 0x7f)
		i++;
	if (i == t || i == n || p[i] != ' ')
		return -400;
	req->target.p = p + t;
	req->target.len = i - t;

	/* RFC 9112 2.3: "HTTP/" DIGIT "." DIGIT, case-sensitive. */
	v = p + i + 1;
	if (n - i - 1 != 8 || memcmp(v, "HTTP/", 5) || !is_digit(v[5]) ||
	    v[6] != '.' || !is_digit(v[7]))
		return -400;
	if (v[5] != '1')
		return -505;
	/*
	 * RFC 9110 2.5: a higher minor version of a major version we
	 * implement is processed as the highest one we do (1.1).
	 */
	req->version_minor = v[7] == '0' ? 0 : 1;
	return parse_target(req, authority);
}

/* ---- pass 2: the fields ----------------------------------------------- */

enum field_kind {
	FK_HOST,
	FK_CONNECTION,
	FK_ACCEPT_ENCODING,
	FK_CONTENT_LENGTH,
	FK_TRANSFER_ENCODING,
	FK_EXPECT,
	FK_SINGLE,	/* a struct http_str at .off, at most once */
	FK_LIST,	/* a struct http_list at .off */
};

struct field_def {
	const char *name;	/* lower case */
	size_t len;
	enum field_kind kind;
	size_t off;
};

#define FIELD(name, kind)	{ name, sizeof(name) - 1, kind, 0 }
#define FIELD_AT(name, kind, member) \
	{ name, sizeof(name) - 1, kind, offsetof(struct http_req, member) }

static const struct field_def field_defs[] = {
	FIELD("host", FK_HOST),
	FIELD("connection", FK_CONNECTION),
	FIELD("accept-encoding", FK_ACCEPT_ENCODING),
	FIELD("content-length", FK_CONTENT_LENGTH),
	FIELD("transfer-encoding", FK_TRANSFER_ENCODING),
	FIELD("expect", FK_EXPECT),
	FIELD_AT("range", FK_SINGLE, range),
	FIELD_AT("if-range", FK_SINGLE, if_range),
	FIELD_AT("if-modified-since", FK_SINGLE, if_modified_since),
	FIELD_AT("if-unmodified-since", FK_SINGLE, if_unmodified_since),
	FIELD_AT("user-agent", FK_SINGLE, user_agent),
	FIELD_AT("referer", FK_SINGLE, referer),
	FIELD_AT("if-match", FK_LIST, if_match),
	FIELD_AT("if-none-match", FK_LIST, if_none_match),
	{ NULL, 0, FK_SINGLE, 0 }	/* the end */
};


/*
 * RFC 9110 12.4.2: qvalue = ( "0" [ "." 0*3DIGIT ] ) /
 * ( "1" [ "." 0*3("0") ] ), in thousandths; -1 when malformed.
 */
static int parse_qvalue(const char *p, size_t n)
{
	int q, scale = 100;
	size_t i;

	if (!n || (p[0] != '0' && p[0] != '1'))
		return -1;
	q = (p[0] - '0') * 1000;
	if (n == 1)
		return q;
	if (p[1] != '.' || n > 5)
		return -1;
	for (i = 2; i < n; i++, scale /= 10) {
		/* Nothing above 1: "1." takes zeros only. */
		if (!is_digit(p[i]) || (p[0] == '1' && p[i] != '0'))
			return -1;
		q += (p[i] - '0') * scale;
	}
	return q;
}

/*
 * One Accept-Encoding element (RFC 9110 12.5.3): codings [ weight ],
 * weight = OWS ";" OWS "q=" qvalue.  A malformed element is ignored:
 * the worst it costs is an uncompressed response.
 */
static void accept_encoding_elem(struct http_field_state *st, struct http_str e)
{
	size_t i = 0, k;
	struct http_str coding;
	int q = 1000, *slot;

	while (i < e.len && is_tchar(e.p[i]))
		i++;
	if (!i && e.len && e.p[0] == '*')
		i = 1;
	coding.p = e.p;
	coding.len = i;
	while (i < e.len && is_ows(e.p[i]))
		i++;
	if (i < e.len) {
		if (e.p[i++] != ';')
			return;
		while (i < e.len && is_ows(e.p[i]))
			i++;
		/* RFC 9110 12.4.2: the weight's name is case-insensitive. */
		if (i + 2 > e.len || lower(e.p[i]) != 'q' || e.p[i + 1] != '=')
			return;
		i += 2;
		for (k = i; k < e.len && !is_ows(e.p[k]); k++)
			;
		q = parse_qvalue(e.p + i, k - i);
		while (k < e.len && is_ows(e.p[k]))
			k++;
		if (q < 0 || k != e.len)
			return;
	}
	/* RFC 9110 8.4.1.3: x-gzip is gzip. */
	if (http_str_ieq(coding, "gzip") || http_str_ieq(coding, "x-gzip"))
		slot = &st->q_gzip;
	else if (http_str_ieq(coding, "br"))
		slot = &st->q_br;
	else if (http_str_ieq(coding, "*"))
		slot = &st->q_any;
	else
		return;
	/* Listed twice: the higher weight counts. */
	if (q > *slot)
		*slot = q;
}

/*
 * RFC 9112 6.3 / RFC 9110 8.6: Content-Length = 1*DIGIT; a list of
 * identical values (or repeated identical fields) is that value; anything
 * else, or a value that does not fit in 64 bits, is 400.
 */
static int content_length(struct http_req *req, struct http_str v)
{
	struct http_str e;
	size_t pos = 0, i;
	bool any = false;

	while (http_list_next(v, &pos, &e)) {
		uint64_t n = 0;

		for (i = 0; i < e.len; i++) {
			unsigned int d = e.p[i] - '0';

			if (!is_digit(e.p[i]) || n > (UINT64_MAX - d) / 10)
				return -400;
			n = n * 10 + d;
		}
		if (req->has_content_length && n != req->content_length)
			return -400;
		req->has_content_length = true;
		req->content_length = n;
		any = true;
	}
	return any ? 0 : -400;
}

static const struct field_def *field_lookup(struct http_str name)
{
	const struct field_def *d;

	for (d = field_defs; d->name; d++)
		if (name.len == d->len && ieq_n(name.p, d->name, d->len))
			return d;
	return NULL;
}

static int field_apply(struct http_req *req, struct http_field_state *st,
		       struct http_str name, struct http_str v)
{
	const struct field_def *d = field_lookup(name);
	struct http_str *s;
	struct http_list *l;
	struct http_str e;
	size_t pos = 0;

	if (!d)
		return 0;
	switch (d->kind) {
	case FK_HOST:
		/* RFC 9112 3.2: more than one Host, or an invalid one: 400. */
		if (++st->hosts > 1 || !http_host_valid(v.p, v.len))
			return -400;
		req->host = v;
		return 0;
	case FK_CONNECTION:
		/* RFC 9112 9.3, RFC 9110 7.6.1: options are case-insensitive. */
		while (http_list_next(v, &pos, &e)) {
			if (http_str_ieq(e, "close"))
				st->conn_close = true;
			else if (http_str_ieq(e, "keep-alive"))
				st->conn_keep_alive = true;
		}
		return 0;
	case FK_ACCEPT_ENCODING:
		while (http_list_next(v, &pos, &e))
			accept_encoding_elem(st, e);
		return 0;
	case FK_CONTENT_LENGTH:
		return content_length(req, v);
	case FK_TRANSFER_ENCODING:
		/*
		 * No request body is read (RFC 9112 6.1: a server may refuse
		 * what it does not handle); the connection closes, so no
		 * chunked body is ever taken for a request.
		 */
		return -413;
	case FK_EXPECT:
		/* RFC 9110 10.1.1: only 100-continue, case-insensitive. */
		while (http_list_next(v, &pos, &e)) {
			if (!http_str_ieq(e, "100-continue"))
				return -417;
			st->expect_continue = true;
		}
		return 0;
	case FK_SINGLE:
		/* RFC 9110 5.3: a field that is no list appears once. */
		s = (struct http_str *)((char *)req + d->off);
		if (s->p)
			return -400;
		*s = v;
		return 0;
	case FK_LIST:
		l = (struct http_list *)((char *)req + d->off);
		if (l->n == HTTP_LIST_MAX)
			return -400;
		l->v[l->n++] = v;
		return 0;
	}
	return 0;
}

/*
 * RFC 9112 5: field-name ":" OWS field-value OWS.  @p..@n is the line
 * without its CR LF.
 */
static int parse_field_line(struct http_req *req, struct http_field_state *st,
			    const char *p, size_t n)
{
	struct http_str name, v;
	size_t i = 0, end;

	/*
	 * RFC 9112 5.2 (obs-fold) and 2.2 (whitespace after the request
	 * line): a line that starts with whitespace is refused.
	 */
	while (i < n && is_tchar(p[i]))
		i++;
	/* RFC 9112 5.1: no whitespace between the name and the colon. */
	if (!i || i == n || p[i] != ':')
		return -400;
	name.p = p;
	name.len = i;
	/*
	 * RFC 9110 5.5: field-vchar, SP and HTAB only; CR, LF, NUL and the
	 * other CTLs are refused rather than kept.
	 */
	for (end = ++i; end < n; end++)
		if ((unsigned char)p[end] < ' ' ? p[end] != '\t'
						: p[end] == 0x7f)
			return -400;
	while (i < n && is_ows(p[i]))
		i++;
	while (end > i && is_ows(p[end - 1]))
		end--;
	v.p = p + i;
	v.len = end - i;
	return field_apply(req, st, name, v);
}

/*
 * The line at *@pos (its LF is before @end) without CR LF; *@pos moves
 * past the LF.
 */
static size_t next_line(const char *buf, size_t *pos, size_t end,
			const char **line)
{
	const char *lf = memchr(buf + *pos, '\n', end - *pos);
	size_t n = lf - (buf + *pos);

	*line = buf + *pos;
	*pos += n + 1;
	if (n && (*line)[n - 1] == '\r')
		n--;
	return n;
}

int http_req_parse_from(struct http_req *req, struct http_scan *scan,
			const char *buf, size_t len,
			const struct http_limits *lim)
{
	static const struct http_limits defaults = HTTP_LIMITS_DEFAULT;
	struct http_field_state st = HTTP_FIELD_STATE_INIT;
	struct http_str authority;
	size_t end = 0, pos, n;
	const char *line;
	int ret;

	if (!lim)
		lim = &defaults;
	/* Fewer bytes than last time: not a continuation, start over. */
	if (scan->seen > len)
		*scan = (struct http_scan)HTTP_SCAN_INIT;
	ret = head_scan(buf, len, lim, scan, &end);
	if (ret <= 0)
		return ret;
	memset(req, 0, sizeof(*req));

	/* Inside the head every line ends with LF: head_scan() saw them. */
	pos = scan->rl;
	n = next_line(buf, &pos, end, &line);
	if (memchr(line, '\r', n))
		return -400;
	ret = parse_request_line(req, line, n, &authority);
	if (ret)
		return ret;
	while (pos < end) {
		n = next_line(buf, &pos, end, &line);
		if (!n)
			break;		/* the empty line */
		req->header_count++;
		ret = parse_field_line(req, &st, line, n);
		if (ret)
			return ret;
	}

	/* RFC 9112 3.2: a 1.1 request without Host is 400. */
	if (!st.hosts && req->version_minor == 1)
		return -400;
	if (authority.p)
		req->host = authority;
	if (req->has_content_length && req->content_length > lim->body_max)
		return -413;
	/* RFC 9112 9.3: persistence by version and Connection. */
	if (st.conn_close)
		req->keep_alive = false;
	else
		req->keep_alive = req->version_minor == 1 ||
				  st.conn_keep_alive;
	/* RFC 9110 10.1.1: a 1.0 request's 100-continue is ignored. */
	req->expect_continue = st.expect_continue && req->version_minor == 1;
	http_fields_finish(req, &st);
	return (int)end;
}

int http_field_apply(struct http_req *req, struct http_field_state *st,
		     struct http_str name, struct http_str value)
{
	return field_apply(req, st, name, value);
}

void http_fields_finish(struct http_req *req,
			const struct http_field_state *st)
{
	/* RFC 9110 12.5.3: "*" stands for every coding not listed. */
	req->accept_gzip = (st->q_gzip >= 0 ? st->q_gzip : st->q_any) > 0;
	req->accept_br = (st->q_br >= 0 ? st->q_br : st->q_any) > 0;
}

int http_req_parse(struct http_req *req, const char *buf, size_t len,
		   const struct http_limits *lim)
{
	struct http_scan scan = HTTP_SCAN_INIT;

	return http_req_parse_from(req, &scan, buf, len, lim);
}
