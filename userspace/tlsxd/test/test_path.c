// SPDX-License-Identifier: GPL-2.0
/*
 * test_path.c - path.c: the normaliser and the opener.
 *
 *  - path_normalize() against every trick: "..", "%2e%2e" and its
 *    spellings, double encoding (decoded once), encoded '/' and '\',
 *    NUL raw and encoded, overlong and otherwise invalid UTF-8 (RFC 3629),
 *    "//", "/./", trailing dot-segments, absolute-, authority- and
 *    asterisk-form, fragments, control characters; each with the status
 *    or the exact output, trailing_slash and hidden (one variant each);
 *  - the cap: a result of exactly @cap - 1 bytes, one more (414), a
 *    segment too long for @out that a later ".." removes;
 *  - path_open_beneath() on a temporary tree (files, a subdirectory,
 *    symlinks inside, to /etc/passwd, "up" -> "..", escaping by
 *    "../../", absolute, a loop, a link to /proc/self/fd/N, a FIFO) and
 *    on /proc/self (magic links): what is inside opens, every escape is
 *    -EXDEV or -ELOOP, and no fd returned is ever a file outside;
 *  - path_open_file(): regular files (O_NONBLOCK cleared) and directories
 *    open, a FIFO, a socket and a device are -EACCES without blocking.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsxd/path.h"

/* ---- the normaliser, one variant per trick ---------------------------- */

FIXTURE(norm) {
	char out[PATH_MAX_OUT];
};

FIXTURE_VARIANT(norm) {
	const char *target;
	size_t len;		/* 0: strlen(target); else raw NULs count */
	int ret;
	const char *out;
	bool slash;
	bool hidden;
};

FIXTURE_SETUP(norm)
{
	memset(self->out, 0x55, sizeof(self->out));
}

FIXTURE_TEARDOWN(norm)
{
}

/* Plain paths. */
FIXTURE_VARIANT_ADD(norm, root) {
	.target = "/", .out = "", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, file) {
	.target = "/index.html", .out = "index.html",
};
FIXTURE_VARIANT_ADD(norm, nested) {
	.target = "/a/b/c.txt", .out = "a/b/c.txt",
};
FIXTURE_VARIANT_ADD(norm, dir_slash) {
	.target = "/a/", .out = "a", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, unreserved_hex) {
	.target = "/%41%62c", .out = "Abc",
};
FIXTURE_VARIANT_ADD(norm, encoded_space) {
	.target = "/a%20b", .out = "a b",
};
FIXTURE_VARIANT_ADD(norm, encoded_question) {
	.target = "/a%3fb", .out = "a?b",
};
FIXTURE_VARIANT_ADD(norm, encoded_hash) {
	.target = "/a%23b", .out = "a#b",
};
FIXTURE_VARIANT_ADD(norm, encoded_percent) {
	.target = "/100%25", .out = "100%",
};

/* Dot-segments (RFC 3986 5.2.4) and empty segments. */
FIXTURE_VARIANT_ADD(norm, dotdot) {
	.target = "/..", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, dotdot_slash) {
	.target = "/../", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, dotdot_bare) {
	.target = "..", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, a_up_up_b) {
	.target = "/a/../../b", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, deep_up_too_far) {
	.target = "/a/b/../../../etc/passwd", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, a_up_b) {
	.target = "/a/../b", .out = "b",
};
FIXTURE_VARIANT_ADD(norm, a_b_up_up_c) {
	.target = "/a/b/../../c", .out = "c",
};
FIXTURE_VARIANT_ADD(norm, pct_dotdot) {
	.target = "/%2e%2e", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_dotdot_mixed_slash) {
	.target = "/%2E%2e/", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, dot_pct_dot) {
	.target = "/.%2e", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_dot_dot) {
	.target = "/%2e.", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, sub_pct_dotdot) {
	.target = "/a/%2e%2e/b", .out = "b",
};
FIXTURE_VARIANT_ADD(norm, pct_dot) {
	.target = "/a/%2e/b", .out = "a/b",
};
FIXTURE_VARIANT_ADD(norm, double_encoded_dotdot) {
	.target = "/%252e%252e", .out = "%2e%2e",
};
FIXTURE_VARIANT_ADD(norm, double_encoded_dotdot_dir) {
	.target = "/%252e%252e/x", .out = "%2e%2e/x",
};
FIXTURE_VARIANT_ADD(norm, double_encoded_slash) {
	.target = "/a%252fb", .out = "a%2fb",
};
FIXTURE_VARIANT_ADD(norm, double_slash) {
	.target = "//a//b", .out = "a/b",
};
FIXTURE_VARIANT_ADD(norm, many_slashes) {
	.target = "////", .out = "", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, dot_segments) {
	.target = "/./a/./b", .out = "a/b",
};
FIXTURE_VARIANT_ADD(norm, trailing_dot) {
	.target = "/a/.", .out = "a", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, trailing_dotdot) {
	.target = "/a/b/..", .out = "a", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, trailing_dotdot_to_root) {
	.target = "/a/..", .out = "", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, three_dots) {
	.target = "/a/.../b", .out = "a/.../b", .hidden = true,
};
FIXTURE_VARIANT_ADD(norm, dot_name) {
	.target = "/a/.b./c", .out = "a/.b./c", .hidden = true,
};

/* Hidden segments: of the result, not of the input. */
FIXTURE_VARIANT_ADD(norm, hidden_dir) {
	.target = "/.git/config", .out = ".git/config", .hidden = true,
};
FIXTURE_VARIANT_ADD(norm, hidden_removed) {
	.target = "/.git/../x", .out = "x",
};
FIXTURE_VARIANT_ADD(norm, hidden_last) {
	.target = "/a/.htaccess", .out = "a/.htaccess", .hidden = true,
};
FIXTURE_VARIANT_ADD(norm, hidden_encoded) {
	.target = "/%2ehtaccess", .out = ".htaccess", .hidden = true,
};
FIXTURE_VARIANT_ADD(norm, hidden_popped_deep) {
	.target = "/a/.b/c/../../d", .out = "a/d",
};

/* Encoded '/' and '\', NUL (RFC 3986 2.1 decoding, once). */
FIXTURE_VARIANT_ADD(norm, pct_slash) {
	.target = "/a%2fb", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_slash_upper) {
	.target = "/a%2Fb", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_slash_escape) {
	.target = "/..%2fetc%2fpasswd", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_backslash) {
	.target = "/a%5cb", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_backslash_upper) {
	.target = "/..%5C..%5Cx", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, backslash) {
	.target = "/a\\b", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, backslash_dotdot) {
	.target = "/..\\x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_nul) {
	.target = "/a%00b", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, raw_nul) {
	.target = "/a\0b", .len = sizeof("/a\0b") - 1, .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, raw_nul_end) {
	.target = "/index.html\0.txt",
	.len = sizeof("/index.html\0.txt") - 1,
	.ret = -400,
};
FIXTURE_VARIANT_ADD(norm, bad_escape_letters) {
	.target = "/%zz", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, bad_escape_short) {
	.target = "/a%2", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, bad_escape_bare) {
	.target = "/a%", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, bad_escape_half) {
	.target = "/%g1", .ret = -400,
};

/* UTF-8 (RFC 3629 section 4). */
FIXTURE_VARIANT_ADD(norm, utf8_encoded) {
	.target = "/caf%c3%a9", .out = "caf\xc3\xa9",
};
FIXTURE_VARIANT_ADD(norm, utf8_raw) {
	.target = "/caf\xc3\xa9", .out = "caf\xc3\xa9",
};
FIXTURE_VARIANT_ADD(norm, utf8_u0800) {
	.target = "/%e0%a0%80", .out = "\xe0\xa0\x80",
};
FIXTURE_VARIANT_ADD(norm, utf8_ud7ff) {
	.target = "/%ed%9f%bf", .out = "\xed\x9f\xbf",
};
FIXTURE_VARIANT_ADD(norm, utf8_ue000) {
	.target = "/%ee%80%80", .out = "\xee\x80\x80",
};
FIXTURE_VARIANT_ADD(norm, utf8_u10000) {
	.target = "/%f0%90%80%80", .out = "\xf0\x90\x80\x80",
};
FIXTURE_VARIANT_ADD(norm, utf8_u10ffff) {
	.target = "/%f4%8f%bf%bf", .out = "\xf4\x8f\xbf\xbf",
};
FIXTURE_VARIANT_ADD(norm, overlong_c0_dots) {
	.target = "/%c0%ae%c0%ae", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, overlong_c0_dots_raw) {
	.target = "/\xc0\xae\xc0\xae/x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, overlong_c1) {
	.target = "/%c1%bf", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, overlong_c0_slash) {
	.target = "/a%c0%afb", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, overlong_e0_dot) {
	.target = "/%e0%80%ae", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, overlong_e0_9f) {
	.target = "/%e0%9f%bf", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, overlong_f0) {
	.target = "/%f0%80%80%ae", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, overlong_f0_8f) {
	.target = "/%f0%8f%bf%bf", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, surrogate_high) {
	.target = "/%ed%a0%80", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, surrogate_low) {
	.target = "/%ed%bf%bf", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, above_10ffff) {
	.target = "/%f4%90%80%80", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, lead_f5) {
	.target = "/%f5%80%80%80", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, lead_ff) {
	.target = "/%ff", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, lone_continuation) {
	.target = "/%80", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, truncated_end) {
	.target = "/%c3", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, truncated_by_slash) {
	.target = "/%c3/a", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, truncated_by_query) {
	.target = "/%e2%82?x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, truncated_3_of_4) {
	.target = "/%f0%90%80", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, ascii_as_continuation) {
	.target = "/%c3a", .ret = -400,
};

/* Control characters, raw and encoded; raw whitespace. */
FIXTURE_VARIANT_ADD(norm, raw_ctl_01) {
	.target = "/a\001b", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, raw_tab) {
	.target = "/a\tb", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, raw_del) {
	.target = "/a\x7f", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, raw_space) {
	.target = "/a b", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, raw_lf) {
	.target = "/a\nb", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_ctl_01) {
	.target = "/a%01b", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_lf) {
	.target = "/a%0a", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_cr) {
	.target = "/a%0Db", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, pct_del) {
	.target = "/a%7f", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, raw_ctl_in_query) {
	.target = "/a?x\x01", .ret = -400,
};

/* Forms of request-target (RFC 9112 3.2), query, fragment. */
FIXTURE_VARIANT_ADD(norm, absolute_dotdot) {
	.target = "http://h/../x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, absolute) {
	.target = "http://h/a/b", .out = "a/b",
};
FIXTURE_VARIANT_ADD(norm, absolute_upper_scheme) {
	.target = "HTTPS://h:443/x", .out = "x",
};
FIXTURE_VARIANT_ADD(norm, absolute_no_path) {
	.target = "https://h", .out = "", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, absolute_query_only) {
	.target = "http://h?q=/../x", .out = "", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, absolute_collapsed) {
	.target = "http://h//a/./b/", .out = "a/b", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, absolute_empty_host) {
	.target = "http:///x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, absolute_bare) {
	.target = "http://", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, absolute_userinfo) {
	.target = "http://u@h/x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, absolute_fragment) {
	.target = "http://h#x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, absolute_backslash_host) {
	.target = "http://h\\x/a", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, other_scheme) {
	.target = "ftp://h/x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, scheme_one_slash) {
	.target = "http:/x", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, authority_form) {
	.target = "h:443", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, asterisk) {
	.target = "*", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, relative) {
	.target = "a/b", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, empty) {
	.target = "", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, fragment) {
	.target = "/a#b", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, fragment_in_query) {
	.target = "/a?x#y", .ret = -400,
};
FIXTURE_VARIANT_ADD(norm, query_dropped) {
	.target = "/a?../../etc/passwd", .out = "a",
};
FIXTURE_VARIANT_ADD(norm, query_not_decoded) {
	.target = "/a?x=%2f%00%zz", .out = "a",
};
FIXTURE_VARIANT_ADD(norm, query_empty) {
	.target = "/a/?", .out = "a", .slash = true,
};
FIXTURE_VARIANT_ADD(norm, query_on_root) {
	.target = "/?x", .out = "", .slash = true,
};

TEST_F(norm, result)
{
	struct path_result res = { 0 };
	size_t len = variant->len ? variant->len : strlen(variant->target);
	int ret;

	ret = path_normalize(variant->target, len, self->out,
			     sizeof(self->out), &res);
	ASSERT_EQ(variant->ret, ret);
	if (ret)
		return;
	EXPECT_STREQ(variant->out, self->out);
	EXPECT_EQ(strlen(variant->out), res.len);
	EXPECT_EQ(variant->slash, res.trailing_slash);
	EXPECT_EQ(variant->hidden, res.hidden);
}

/* ---- the cap ------------------------------------------------------------ */

/* "/" followed by @n bytes of 'a', or of "a/" pairs when @segs. */
static char *make_target(size_t n, bool segs)
{
	char *t = malloc(n + 2);
	size_t i;

	if (!t)
		return NULL;
	t[0] = '/';
	for (i = 0; i < n; i++)
		t[i + 1] = segs && (i & 1) ? '/' : 'a';
	t[n + 1] = '\0';
	return t;
}

TEST(cap_exact_fits)
{
	char out[16], *t = make_target(15, false);
	struct path_result res;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, path_normalize(t, 16, out, sizeof(out), &res));
	EXPECT_EQ(15, res.len);
	EXPECT_STREQ(t + 1, out);
	free(t);
}

TEST(cap_one_over_is_414)
{
	char out[16], *t = make_target(16, false);
	struct path_result res;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(-414, path_normalize(t, 17, out, sizeof(out), &res));
	free(t);
}

/* "a/a/.../a": the separators count; the last byte lands at cap - 2. */
TEST(cap_exact_fits_segments)
{
	char out[16], *t = make_target(15, true);
	struct path_result res;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, path_normalize(t, 16, out, sizeof(out), &res));
	EXPECT_STREQ("a/a/a/a/a/a/a/a", out);
	free(t);
}

TEST(cap_one_over_segments_is_414)
{
	char out[16], *t = make_target(17, true);
	struct path_result res;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(-414, path_normalize(t, 18, out, sizeof(out), &res));
	free(t);
}

/* Collapsed slashes do not count against the cap. */
TEST(cap_collapsed_slashes_fit)
{
	static const char t[] = "/////aaaaaaa//////////aaaaaaa/////";
	struct path_result res;
	char out[16];

	ASSERT_EQ(0, path_normalize(t, sizeof(t) - 1, out, sizeof(out),
				    &res));
	EXPECT_STREQ("aaaaaaa/aaaaaaa", out);
	EXPECT_EQ(true, res.trailing_slash);
}

TEST(cap_path_max_out)
{
	static char out[PATH_MAX_OUT];
	char *t = make_target(PATH_MAX_OUT - 1, false);
	struct path_result res;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, path_normalize(t, PATH_MAX_OUT, out, sizeof(out), &res));
	EXPECT_EQ(PATH_MAX_OUT - 1, res.len);
	free(t);
	t = make_target(PATH_MAX_OUT, false);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(-414, path_normalize(t, PATH_MAX_OUT + 1, out, sizeof(out),
				       &res));
	free(t);
}

/* A @cap above PATH_MAX_OUT counts as PATH_MAX_OUT (path.h). */
TEST(cap_above_path_max_out_clamped)
{
	static char out[2 * PATH_MAX_OUT];
	char *t = make_target(PATH_MAX_OUT, false);
	struct path_result res;

	ASSERT_NE(NULL, t);
	ASSERT_EQ(-414, path_normalize(t, PATH_MAX_OUT + 1, out, sizeof(out),
				       &res));
	free(t);
}

TEST(cap_zero)
{
	struct path_result res;
	char out[1];

	ASSERT_EQ(-414, path_normalize("/", 1, out, 0, &res));
	ASSERT_EQ(0, path_normalize("/", 1, out, 1, &res));
	EXPECT_STREQ("", out);
}

/* A segment too long for @out that a later ".." removes need not fit. */
TEST(cap_long_segment_removed_by_dotdot)
{
	char *t = make_target(5000, false), *big;
	struct path_result res;
	char out[64];

	ASSERT_NE(NULL, t);
	big = realloc(t, 5001 + 16);
	ASSERT_NE(NULL, big);
	memcpy(big + 5001, "/b/../../x", sizeof("/b/../../x"));
	ASSERT_EQ(0, path_normalize(big, strlen(big), out, sizeof(out), &res));
	EXPECT_STREQ("x", out);
	/* Popping one segment too many is still caught after a phantom. */
	memcpy(big + 5001, "/../../x", sizeof("/../../x"));
	ASSERT_EQ(-400, path_normalize(big, strlen(big), out, sizeof(out),
				       &res));
	/* Kept, it is 414. */
	memcpy(big + 5001, "/b/../x", sizeof("/b/../x"));
	ASSERT_EQ(-414, path_normalize(big, strlen(big), out, sizeof(out),
				       &res));
	free(big);
}

/* A prefix that fits survives the phantoms above it being popped. */
TEST(cap_prefix_kept_under_phantoms)
{
	char t[80], out[16];
	struct path_result res;

	snprintf(t, sizeof(t), "/keep/%s/%s/../../.x", "aaaaaaaaaaaaaaaaaaaa",
		 "bbbbbbbbbbbbbbbbbbbb");
	ASSERT_EQ(0, path_normalize(t, strlen(t), out, sizeof(out), &res));
	EXPECT_STREQ("keep/.x", out);
	EXPECT_EQ(true, res.hidden);
}

/* The length is @len, not strlen: bytes past it are never read. */
TEST(len_bounds_the_target)
{
	struct path_result res;
	char out[16];

	ASSERT_EQ(0, path_normalize("/ab/../../../", 3, out, sizeof(out),
				    &res));
	EXPECT_STREQ("ab", out);
	ASSERT_EQ(-400, path_normalize("/%2e", 3, out, sizeof(out), &res));
}

/* ---- the opener on a real tree ------------------------------------------ */

FIXTURE(tree) {
	char base[64];
	char path[PATH_MAX];
	int root_fd;
	int secret_fd;
	int sock_fd;
	struct stat secret;
	struct stat passwd;
};

FIXTURE_VARIANT(tree) {
};

FIXTURE_VARIANT_ADD(tree, tmp) {
};

static void put(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(body, f) < 0 || fclose(f))
		abort();
}

static void link_at(const char *target, const char *base, const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/root/%s", base, name);
	if (symlink(target, p))
		abort();
}

static int unix_socket_at(const char *base)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/root/sock", base);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		abort();
	return fd;
}

FIXTURE_SETUP(tree)
{
	char p[PATH_MAX], t[PATH_MAX];

	snprintf(self->base, sizeof(self->base), "/tmp/tlsxd-path-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->base));
	snprintf(p, sizeof(p), "%s/secret", self->base);
	put(p, "secret\n");
	self->secret_fd = open(p, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->secret_fd);
	ASSERT_EQ(0, fstat(self->secret_fd, &self->secret));
	ASSERT_EQ(0, stat("/etc/passwd", &self->passwd));

	snprintf(p, sizeof(p), "%s/root", self->base);
	ASSERT_EQ(0, mkdir(p, 0755));
	snprintf(p, sizeof(p), "%s/root/sub", self->base);
	ASSERT_EQ(0, mkdir(p, 0755));
	snprintf(p, sizeof(p), "%s/root/index.html", self->base);
	put(p, "index\n");
	snprintf(p, sizeof(p), "%s/root/sub/file.txt", self->base);
	put(p, "file\n");
	snprintf(p, sizeof(p), "%s/root/.hidden", self->base);
	put(p, "hidden\n");
	snprintf(p, sizeof(p), "%s/root/fifo", self->base);
	ASSERT_EQ(0, mkfifo(p, 0644));
	self->sock_fd = unix_socket_at(self->base);
	ASSERT_LE(0, self->sock_fd);

	link_at("sub/file.txt", self->base, "in");
	link_at("../index.html", self->base, "sub/back");
	link_at("..", self->base, "sub/dotdot");
	link_at("sub", self->base, "subdir");
	link_at("/etc/passwd", self->base, "passwd");
	link_at("..", self->base, "up");
	link_at("../../secret", self->base, "sub/esc");
	link_at("../secret", self->base, "secret");
	link_at("loop", self->base, "loop");
	link_at("/tmp", self->base, "tmp");
	snprintf(t, sizeof(t), "%s/root/index.html", self->base);
	link_at(t, self->base, "abs_inside");
	snprintf(t, sizeof(t), "/proc/self/fd/%d", self->secret_fd);
	link_at(t, self->base, "magic");
	snprintf(t, sizeof(t), "../../../../../../../../proc/self/fd/%d",
		 self->secret_fd);
	link_at(t, self->base, "magic_rel");

	snprintf(p, sizeof(p), "%s/root", self->base);
	self->root_fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, self->root_fd);
}

static int rm_one(const char *p, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(p) : unlink(p);
}

FIXTURE_TEARDOWN(tree)
{
	close(self->root_fd);
	close(self->secret_fd);
	close(self->sock_fd);
	nftw(self->base, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The fd is open on @rel's file inside the root, never on one outside. */
static bool is_at(int fd, int dir_fd, const char *rel)
{
	struct stat a, b;

	if (fstat(fd, &a) ||
	    fstatat(dir_fd, *rel ? rel : ".", &b, AT_EMPTY_PATH))
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static bool is_outside(int fd, const struct stat *secret,
		       const struct stat *passwd)
{
	struct stat a;

	if (fstat(fd, &a))
		return true;
	return (a.st_dev == secret->st_dev && a.st_ino == secret->st_ino) ||
	       (a.st_dev == passwd->st_dev && a.st_ino == passwd->st_ino);
}

static int read_all(int fd, char *buf, size_t cap)
{
	ssize_t n = read(fd, buf, cap - 1);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

TEST_F(tree, file_opens)
{
	char buf[32];
	int fd;

	fd = path_open_beneath(self->root_fd, "index.html", 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(6, read_all(fd, buf, sizeof(buf)));
	EXPECT_STREQ("index\n", buf);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(O_RDONLY, fcntl(fd, F_GETFL) & O_ACCMODE);
	close(fd);
}

TEST_F(tree, subdir_file_opens)
{
	char buf[32];
	int fd;

	fd = path_open_beneath(self->root_fd, "sub/file.txt", 0);
	ASSERT_LE(0, fd);
	EXPECT_STREQ("file\n", (read_all(fd, buf, sizeof(buf)), buf));
	close(fd);
}

TEST_F(tree, root_itself_opens)
{
	int fd = path_open_beneath(self->root_fd, "", O_DIRECTORY);

	ASSERT_LE(0, fd);
	EXPECT_TRUE(is_at(fd, self->root_fd, ""));
	close(fd);
}

TEST_F(tree, directory_opens_with_o_directory)
{
	int fd = path_open_beneath(self->root_fd, "sub", O_DIRECTORY);

	ASSERT_LE(0, fd);
	EXPECT_TRUE(is_at(fd, self->root_fd, "sub"));
	close(fd);
	EXPECT_EQ(-ENOTDIR, path_open_beneath(self->root_fd, "index.html",
					      O_DIRECTORY));
}

TEST_F(tree, hidden_file_opens)
{
	/* Refusing hidden names is the caller's choice (path_result). */
	int fd = path_open_beneath(self->root_fd, ".hidden", 0);

	ASSERT_LE(0, fd);
	close(fd);
}

TEST_F(tree, missing_is_enoent)
{
	EXPECT_EQ(-ENOENT, path_open_beneath(self->root_fd, "nope", 0));
	EXPECT_EQ(-ENOENT, path_open_beneath(self->root_fd, "sub/nope", 0));
}

TEST_F(tree, symlink_inside_opens)
{
	int fd;

	fd = path_open_beneath(self->root_fd, "in", 0);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(is_at(fd, self->root_fd, "sub/file.txt"));
	close(fd);
	fd = path_open_beneath(self->root_fd, "sub/back", 0);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(is_at(fd, self->root_fd, "index.html"));
	close(fd);
	fd = path_open_beneath(self->root_fd, "subdir/file.txt", 0);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(is_at(fd, self->root_fd, "sub/file.txt"));
	close(fd);
	/* sub/dotdot -> ".." is the root: inside. */
	fd = path_open_beneath(self->root_fd, "sub/dotdot/index.html", 0);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(is_at(fd, self->root_fd, "index.html"));
	close(fd);
}

/* Every way out, each refused by the kernel, with no fd outside. */
static const struct {
	const char *rel;
	int err;
} escapes[] = {
	{ "passwd", -EXDEV },		/* absolute symlink out */
	{ "abs_inside", -EXDEV },	/* absolute, even to inside */
	{ "tmp", -EXDEV },
	{ "up", -EXDEV },		/* up -> ".." */
	{ "up/secret", -EXDEV },
	{ "up/root/index.html", -EXDEV },	/* out and back in */
	{ "sub/esc", -EXDEV },		/* "../../secret" */
	{ "secret", -EXDEV },		/* "../secret" */
	{ "sub/dotdot/up/secret", -EXDEV },
	{ "magic", -EXDEV },		/* -> /proc/self/fd/N */
	{ "magic_rel", -EXDEV },	/* ../../ to /proc/self/fd/N */
	{ "loop", -ELOOP },
	/* Not normaliser output, but the kernel is the second fence. */
	{ "../secret", -EXDEV },
	{ "sub/../../secret", -EXDEV },
	{ "/etc/passwd", -EXDEV },
	{ "..", -EXDEV },
};

TEST_F(tree, escapes_refused)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(escapes); i++) {
		int flags[] = { 0, O_PATH, O_NONBLOCK };
		size_t j;

		for (j = 0; j < ARRAY_SIZE(flags); j++) {
			int fd = path_open_beneath(self->root_fd,
						   escapes[i].rel, flags[j]);

			if (fd >= 0) {
				EXPECT_FALSE(is_outside(fd, &self->secret,
							&self->passwd));
				close(fd);
			}
			EXPECT_EQ(escapes[i].err, fd) {
				TH_LOG("%s flags %#x", escapes[i].rel,
				       flags[j]);
			}
		}
	}
}

/* The normaliser's output for the tricks the opener must still refuse. */
TEST_F(tree, normalised_then_opened)
{
	static const char *const targets[] = {
		"/up/secret", "/sub/esc", "/passwd", "/%75p/secret",
		"/sub/./esc", "//up//secret", "http://h/sub/esc",
		"/subdir/../up/root/index.html", "/magic",
	};
	struct path_result res;
	char out[PATH_MAX_OUT];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		int fd;

		ASSERT_EQ(0, path_normalize(targets[i], strlen(targets[i]),
					    out, sizeof(out), &res));
		fd = path_open_beneath(self->root_fd, out, 0);
		if (fd >= 0) {
			EXPECT_FALSE(is_outside(fd, &self->secret,
						&self->passwd));
			close(fd);
		}
		EXPECT_EQ(-EXDEV, fd) {
			TH_LOG("%s -> %s", targets[i], out);
		}
	}
}

TEST_F(tree, fifo_opens_nonblocking_and_is_no_file)
{
	struct stat st;
	int fd;

	/* Without O_NONBLOCK (or O_PATH) a FIFO blocks for a writer. */
	fd = path_open_beneath(self->root_fd, "fifo", O_NONBLOCK);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	close(fd);
	fd = path_open_beneath(self->root_fd, "fifo", O_PATH);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstat(fd, &st));
	EXPECT_TRUE(S_ISFIFO(st.st_mode));
	close(fd);
}

TEST_F(tree, write_and_create_flags_refused)
{
	char p[PATH_MAX];

	EXPECT_EQ(-EINVAL, path_open_beneath(self->root_fd, "index.html",
					     O_WRONLY));
	EXPECT_EQ(-EINVAL, path_open_beneath(self->root_fd, "index.html",
					     O_RDWR));
	EXPECT_EQ(-EINVAL, path_open_beneath(self->root_fd, "new",
					     O_CREAT));
	EXPECT_EQ(-EINVAL, path_open_beneath(self->root_fd, "index.html",
					     O_TRUNC));
	snprintf(p, sizeof(p), "%s/root/new", self->base);
	EXPECT_NE(0, access(p, F_OK));
}

TEST_F(tree, bad_root_fd)
{
	EXPECT_EQ(-EBADF, path_open_beneath(-1, "index.html", 0));
}

/* ---- path_open_file(): regular files and directories only ---------- */

TEST_F(tree, open_file_regular_blocking)
{
	struct stat st;
	char buf[32];
	int fd;

	fd = path_open_file(self->root_fd, "in", &st);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ(5, st.st_size);
	EXPECT_TRUE(is_at(fd, self->root_fd, "sub/file.txt"));
	/* O_NONBLOCK was for the open only. */
	EXPECT_EQ(0, fcntl(fd, F_GETFL) & O_NONBLOCK);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	EXPECT_EQ(5, read_all(fd, buf, sizeof(buf)));
	close(fd);
}

TEST_F(tree, open_file_directory)
{
	struct stat st;
	int fd;

	fd = path_open_file(self->root_fd, "sub", &st);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	close(fd);
	fd = path_open_file(self->root_fd, "", &st);
	ASSERT_LE(0, fd);
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	EXPECT_TRUE(is_at(fd, self->root_fd, ""));
	close(fd);
}

/* A FIFO with no writer: refused at once (a hang fails the harness). */
TEST_F(tree, open_file_fifo_refused)
{
	struct stat st;

	EXPECT_EQ(-EACCES, path_open_file(self->root_fd, "fifo", &st));
}

TEST_F(tree, open_file_socket_refused)
{
	struct stat st;

	EXPECT_EQ(-EACCES, path_open_file(self->root_fd, "sock", &st));
}

TEST_F(tree, open_file_escapes_refused)
{
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(escapes); i++) {
		int fd = path_open_file(self->root_fd, escapes[i].rel, &st);

		if (fd >= 0)
			close(fd);
		EXPECT_EQ(escapes[i].err, fd) {
			TH_LOG("%s", escapes[i].rel);
		}
	}
	EXPECT_EQ(-ENOENT, path_open_file(self->root_fd, "nope", &st));
}

TEST(open_file_device_refused)
{
	int dev_fd = open("/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;

	ASSERT_LE(0, dev_fd);
	EXPECT_EQ(-EACCES, path_open_file(dev_fd, "null", &st));
	close(dev_fd);
}

/* ---- magic links: a root that holds a procfs ---------------------------- */

/*
 * /proc/self as the root: "fd/N", "cwd", "root" and "exe" are magic links
 * beneath it, which RESOLVE_BENEATH alone would follow; NO_MAGICLINKS
 * refuses them with -ELOOP, as the last component or in passing.
 */
TEST(magic_links_refused)
{
	static const char *const names[] = { "root", "cwd", "exe", "cwd/etc" };
	int proc_fd, file_fd, dir_fd, fd;
	char rel[64];
	size_t i;

	proc_fd = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, proc_fd);
	file_fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, file_fd);
	dir_fd = open("/etc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, dir_fd);

	/* The fence is real: "status" beneath /proc/self opens. */
	fd = path_open_beneath(proc_fd, "status", 0);
	ASSERT_LE(0, fd);
	close(fd);

	snprintf(rel, sizeof(rel), "fd/%d", file_fd);
	EXPECT_EQ(-ELOOP, path_open_beneath(proc_fd, rel, 0));
	EXPECT_EQ(-ELOOP, path_open_beneath(proc_fd, rel, O_PATH));
	snprintf(rel, sizeof(rel), "fd/%d/passwd", dir_fd);
	EXPECT_EQ(-ELOOP, path_open_beneath(proc_fd, rel, 0));
	for (i = 0; i < ARRAY_SIZE(names); i++)
		EXPECT_EQ(-ELOOP, path_open_beneath(proc_fd, names[i], 0));
	close(dir_fd);
	close(file_fd);
	close(proc_fd);
}

TEST_HARNESS_MAIN
