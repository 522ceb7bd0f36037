// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_path.c - libFuzzer target: arbitrary bytes as a request-target for
 * path_normalize().  Checked on every input:
 *  - the return is 0, -400 or -414;
 *  - on success the output is what path.h promises: length = strlen, no
 *    leading or trailing '/', no "//", no "." or ".." segment, no NUL,
 *    '\' or control character, valid UTF-8 (checked here by decoding
 *    code points, not by path.c's state machine), hidden set exactly when
 *    a segment starts with '.', and it never is nor starts with "../";
 *  - normalising "/" + the output again gives the output (idempotence):
 *    once with the bytes path.c would take for syntax ('%', '?', '#',
 *    ' ') percent-encoded, once with every byte but '/' encoded;
 *  - with a small @cap the result is the same, or 414 exactly when the
 *    full result is longer than @cap - 1 (the phantom-segment logic).
 */
#include <stdlib.h>
#include <string.h>

#include "tlsxd/path.h"

#define SMALL_CAP 24

/* RFC 3629: decode each code point and check its range and length. */
static bool utf8_ok(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned int cp, n, k;

		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((s[i] & 0xe0) == 0xc0) {
			n = 1;
			cp = s[i] & 0x1f;
		} else if ((s[i] & 0xf0) == 0xe0) {
			n = 2;
			cp = s[i] & 0x0f;
		} else if ((s[i] & 0xf8) == 0xf0) {
			n = 3;
			cp = s[i] & 0x07;
		} else {
			return false;
		}
		if (len - i <= n)
			return false;
		for (k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
		    (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n + 1;
	}
	return true;
}

static void check_output(const char *out, const struct path_result *res)
{
	const unsigned char *s = (const unsigned char *)out;
	size_t i, seg = 0;
	bool hidden = false;

	if (strlen(out) != res->len)
		abort();
	if (!res->len)
		return;
	if (out[0] == '/' || out[res->len - 1] == '/')
		abort();
	if (!strcmp(out, "..") || !strncmp(out, "../", 3))
		abort();
	if (!utf8_ok(s, res->len))
		abort();
	for (i = 0; i <= res->len; i++) {
		if (i < res->len && out[i] != '/') {
			if (s[i] < 0x20 || s[i] == 0x7f || s[i] == '\\')
				abort();
			continue;
		}
		/* A segment is out[seg, i). */
		if (i == seg)
			abort();		/* "//" */
		if (out[seg] == '.') {
			hidden = true;
			if (i - seg == 1 || (i - seg == 2 && out[seg + 1] == '.'))
				abort();	/* "." or ".." */
		}
		seg = i + 1;
	}
	if (hidden != res->hidden)
		abort();
}

/* "/" + @out as a target, encoded as the comment above says, again. */
static void renormalize(const char *out, const struct path_result *res,
			char *target, char *again, bool all)
{
	static const char hex[] = "0123456789ABCDEF";
	struct path_result res2;
	size_t i, n = 0;

	target[n++] = '/';
	for (i = 0; i < res->len; i++) {
		unsigned char c = out[i];

		if (c != '/' && (all || c == '%' || c == '?' || c == '#' ||
				 c == ' ')) {
			target[n++] = '%';
			target[n++] = hex[c >> 4];
			target[n++] = hex[c & 15];
		} else {
			target[n++] = c;
		}
	}
	if (path_normalize(target, n, again, PATH_MAX_OUT, &res2) ||
	    res2.len != res->len || memcmp(again, out, res->len + 1) ||
	    res2.hidden != res->hidden || res2.trailing_slash != !res->len)
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char out[PATH_MAX_OUT], again[PATH_MAX_OUT];
	static char small[SMALL_CAP], target[3 * PATH_MAX_OUT + 1];
	struct path_result res, res2;
	int ret, ret2;

	ret = path_normalize((const char *)data, size, out, sizeof(out), &res);
	if (ret && ret != -400 && ret != -414)
		abort();

	/* A smaller @out changes nothing but the 414 boundary. */
	ret2 = path_normalize((const char *)data, size, small, sizeof(small),
			      &res2);
	if (ret == -400 && ret2 != -400)
		abort();
	if (ret == -414 && ret2 != -414)
		abort();
	if (!ret) {
		if (res.len > SMALL_CAP - 1) {
			if (ret2 != -414)
				abort();
		} else if (ret2 || strcmp(out, small) || res2.len != res.len ||
			   res2.hidden != res.hidden ||
			   res2.trailing_slash != res.trailing_slash) {
			abort();
		}
	}
	if (ret)
		return 0;

	check_output(out, &res);

	/* Normalising the output again is the identity. */
	renormalize(out, &res, target, again, false);
	renormalize(out, &res, target, again, true);
	return 0;
}
