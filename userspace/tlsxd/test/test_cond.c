// SPDX-License-Identifier: GPL-2.0
/*
 * test_cond.c - validators and preconditions (cond.c, RFC 9110 8.8, 13):
 * the entity tag's form and what changes it; each precondition alone
 * (If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since,
 * If-Range) with strong and weak comparison, "*", lists over several
 * field lines, unparseable fields ignored; and their order (13.2.2):
 * a failed If-Match is 412 whatever If-None-Match says, If-Match hides
 * If-Unmodified-Since, If-None-Match hides If-Modified-Since.  A case
 * is a line of a table (a FIXTURE_VARIANT): the request's fields, the
 * result they must give.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/cond.h"
#include "tlsxd/httpdate.h"

#define TAG	"\"1a-2b-3c\""
/* Sun, 06 Nov 1994 08:49:37 GMT, and a "now" a day later. */
#define MTIME	784111777
#define NOW	(MTIME + 86400)
/* The file's Last-Modified, and a second before it. */
#define D37	"Sun, 06 Nov 1994 08:49:37 GMT"
#define D36	"Sun, 06 Nov 1994 08:49:36 GMT"

static struct http_str S(const char *s)
{
	struct http_str h = { s, (uint32_t)strlen(s) };

	return h;
}

static void add(struct http_list *l, const char *v)
{
	l->v[l->n++] = S(v);
}

static void req_init(struct http_req *r)
{
	memset(r, 0, sizeof(*r));
	r->method = HTTP_M_GET;
}

static enum cond_result eval(const struct http_req *r)
{
	return cond_evaluate(r, TAG, MTIME, NOW);
}

TEST(etag_form_and_changes)
{
	struct stat st, st2;
	char a[ETAG_MAX], b[ETAG_MAX];

	memset(&st, 0, sizeof(st));
	st.st_ino = 0x1234;
	st.st_size = 0x10;
	st.st_mtim.tv_sec = 1;
	st.st_mtim.tv_nsec = 5;
	etag_make(&st, a);
	ASSERT_STREQ("\"1234-10-3b9aca05\"", a);
	etag_make(&st, b);
	ASSERT_STREQ(a, b);
	st2 = st;
	st2.st_ino++;
	etag_make(&st2, b);
	ASSERT_STRNE(a, b);
	st2 = st;
	st2.st_size++;
	etag_make(&st2, b);
	ASSERT_STRNE(a, b);
	st2 = st;
	st2.st_mtim.tv_nsec++;
	etag_make(&st2, b);
	ASSERT_STRNE(a, b);
	/* The largest values still fit, quoted and terminated. */
	st.st_ino = ~0ULL;
	st.st_size = 0x7fffffffffffffffLL;
	st.st_mtim.tv_sec = 0x7fffffffffffLL;
	st.st_mtim.tv_nsec = 999999999;
	etag_make(&st, a);
	ASSERT_LT(strlen(a), ETAG_MAX);
	ASSERT_EQ('"', a[0]);
	ASSERT_EQ('"', a[strlen(a) - 1]);
}

TEST(unparseable_lists_ignored)
{
	static const char *const bad[] = {
		"1a-2b-3c", "\"a\" \"b\"", "w/\"1a-2b-3c\"", "\"a\"b",
		"\"a b\"", "W/", "\"", ",", " , ,",
	};
	struct http_req r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *v = bad[i];

		req_init(&r);
		add(&r.if_match, v);
		EXPECT_EQ(COND_PROCEED, eval(&r)) TH_LOG("If-Match: %s", v);
		req_init(&r);
		add(&r.if_none_match, v);
		EXPECT_EQ(COND_PROCEED, eval(&r)) TH_LOG("If-None-Match: %s", v);
	}
}

/* Field lines of a list (If-Match, If-None-Match), at most three. */
#define LINES_MAX	3

/* cond_evaluate() on one request: the validators TAG, MTIME, at NOW. */
FIXTURE(evaluate) {
	struct http_req r;
};

FIXTURE_VARIANT(evaluate) {
	const char *if_match[LINES_MAX], *if_none_match[LINES_MAX];
	const char *if_unmodified_since, *if_modified_since;
	enum http_method method;	/* 0: GET */
	const char *etag;		/* the file's; NULL: TAG */
	enum cond_result want;
};

/* None: proceed. */
FIXTURE_VARIANT_ADD(evaluate, none) { .want = COND_PROCEED };

/* If-Match (13.1.1). */
FIXTURE_VARIANT_ADD(evaluate, im_same) {
	.if_match = { TAG }, .want = COND_PROCEED };
FIXTURE_VARIANT_ADD(evaluate, im_other) {
	.if_match = { "\"other\"" }, .want = COND_PRECONDITION_FAILED };
FIXTURE_VARIANT_ADD(evaluate, im_any) {
	.if_match = { "*" }, .want = COND_PROCEED };
/* Strong comparison: a weak tag never matches (8.8.3.2). */
FIXTURE_VARIANT_ADD(evaluate, im_weak_never) {
	.if_match = { "W/" TAG }, .want = COND_PRECONDITION_FAILED };
/* A list, and a list over two field lines. */
FIXTURE_VARIANT_ADD(evaluate, im_list) {
	.if_match = { "\"x\", " TAG " ,\"y\"" }, .want = COND_PROCEED };
FIXTURE_VARIANT_ADD(evaluate, im_two_lines) {
	.if_match = { "\"x\", \"y\"", TAG }, .want = COND_PROCEED };
FIXTURE_VARIANT_ADD(evaluate, im_two_lines_none) {
	.if_match = { "\"x\", \"y\"", "\"z\"" },
	.want = COND_PRECONDITION_FAILED };
/* A comma inside a tag is an etagc, not a separator. */
FIXTURE_VARIANT_ADD(evaluate, im_comma_in_tag) {
	.if_match = { "\"a,b\"" }, .want = COND_PRECONDITION_FAILED };
FIXTURE_VARIANT_ADD(evaluate, im_comma_in_tag_same) {
	.if_match = { "\"a,b\"" }, .etag = "\"a,b\"", .want = COND_PROCEED };
/* An unterminated tag is malformed: the field is ignored. */
FIXTURE_VARIANT_ADD(evaluate, im_malformed_ignored) {
	.if_match = { "\"1a-2b-3c" }, .want = COND_PROCEED };
/* A prefix is no match. */
FIXTURE_VARIANT_ADD(evaluate, im_prefix) {
	.if_match = { "\"1a-2b-3\"" }, .want = COND_PRECONDITION_FAILED };

/* If-Unmodified-Since (13.1.4), in the three date forms (5.6.7). */
FIXTURE_VARIANT_ADD(evaluate, ius_same) {
	.if_unmodified_since = D37, .want = COND_PROCEED };
FIXTURE_VARIANT_ADD(evaluate, ius_before) {
	.if_unmodified_since = D36, .want = COND_PRECONDITION_FAILED };
FIXTURE_VARIANT_ADD(evaluate, ius_before_rfc850) {
	.if_unmodified_since = "Sunday, 06-Nov-94 08:49:36 GMT",
	.want = COND_PRECONDITION_FAILED };
FIXTURE_VARIANT_ADD(evaluate, ius_before_asctime) {
	.if_unmodified_since = "Sun Nov  6 08:49:36 1994",
	.want = COND_PRECONDITION_FAILED };
/* Not a date: ignored. */
FIXTURE_VARIANT_ADD(evaluate, ius_not_a_date) {
	.if_unmodified_since = "yesterday", .want = COND_PROCEED };

/* If-None-Match (13.1.2). */
FIXTURE_VARIANT_ADD(evaluate, inm_same) {
	.if_none_match = { TAG }, .want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, inm_same_head) {
	.if_none_match = { TAG }, .method = HTTP_M_HEAD,
	.want = COND_NOT_MODIFIED };
/* Any other method: 412 (13.1.2). */
FIXTURE_VARIANT_ADD(evaluate, inm_same_other_method) {
	.if_none_match = { TAG }, .method = HTTP_M_OTHER,
	.want = COND_PRECONDITION_FAILED };
/* Weak comparison: W/ matches. */
FIXTURE_VARIANT_ADD(evaluate, inm_weak) {
	.if_none_match = { "W/" TAG }, .want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, inm_any) {
	.if_none_match = { "*" }, .want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, inm_other) {
	.if_none_match = { "\"x\"" }, .want = COND_PROCEED };
FIXTURE_VARIANT_ADD(evaluate, inm_two_lines) {
	.if_none_match = { "\"x\"", "W/\"y\", " TAG },
	.want = COND_NOT_MODIFIED };
/* A comma inside a weak tag does not split it. */
FIXTURE_VARIANT_ADD(evaluate, inm_comma_in_weak_tag) {
	.if_none_match = { "W/\"a,b\", " TAG }, .want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, inm_comma_in_weak_tag_same) {
	.if_none_match = { "W/\"a,b\", " TAG }, .etag = "\"a,b\"",
	.want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, inm_comma_in_weak_tag_not_split) {
	.if_none_match = { "W/\"a,b\"" }, .etag = "\"a\"",
	.want = COND_PROCEED };

/* If-Modified-Since (13.1.3). */
FIXTURE_VARIANT_ADD(evaluate, ims_same) {
	.if_modified_since = D37, .want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, ims_later) {
	.if_modified_since = "Sun, 06 Nov 1994 09:00:00 GMT",
	.want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, ims_before) {
	.if_modified_since = D36, .want = COND_PROCEED };
/* A date after now is invalid (13.1.3): ignored. */
FIXTURE_VARIANT_ADD(evaluate, ims_future_ignored) {
	.if_modified_since = "Tue, 08 Nov 1994 08:49:37 GMT",
	.want = COND_PROCEED };
FIXTURE_VARIANT_ADD(evaluate, ims_now) {
	.if_modified_since = "Mon, 07 Nov 1994 08:49:37 GMT",
	.want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, ims_not_gmt_ignored) {
	.if_modified_since = "Sun, 06 Nov 1994 08:49:37 CET",
	.want = COND_PROCEED };
/* Only for GET and HEAD. */
FIXTURE_VARIANT_ADD(evaluate, ims_head) {
	.if_modified_since = D37, .method = HTTP_M_HEAD,
	.want = COND_NOT_MODIFIED };
FIXTURE_VARIANT_ADD(evaluate, ims_other_method) {
	.if_modified_since = D37, .method = HTTP_M_OTHER,
	.want = COND_PROCEED };

/* RFC 9110 13.2.2's order: a failed If-Match is 412 even though ... */
FIXTURE_VARIANT_ADD(evaluate, order_im_before_inm) {
	.if_match = { "\"other\"" }, .if_none_match = { TAG },
	.want = COND_PRECONDITION_FAILED };
/* ... If-None-Match would be 304, or If-Modified-Since would. */
FIXTURE_VARIANT_ADD(evaluate, order_im_before_ims) {
	.if_match = { "\"other\"" }, .if_modified_since = D37,
	.want = COND_PRECONDITION_FAILED };
/* A passed If-Match hands over to If-None-Match. */
FIXTURE_VARIANT_ADD(evaluate, order_im_passed_then_inm) {
	.if_match = { TAG }, .if_none_match = { TAG },
	.want = COND_NOT_MODIFIED };
/* If-Match present: If-Unmodified-Since is not asked. */
FIXTURE_VARIANT_ADD(evaluate, order_im_hides_ius) {
	.if_match = { TAG }, .if_unmodified_since = D36,
	.want = COND_PROCEED };
/* A failed If-Unmodified-Since beats a matching If-None-Match. */
FIXTURE_VARIANT_ADD(evaluate, order_ius_before_inm) {
	.if_unmodified_since = D36, .if_none_match = { TAG },
	.want = COND_PRECONDITION_FAILED };
/* If-None-Match does not match: If-Modified-Since is not asked. */
FIXTURE_VARIANT_ADD(evaluate, order_inm_hides_ims) {
	.if_none_match = { "\"other\"" }, .if_modified_since = D37,
	.want = COND_PROCEED };
/* Matches: 304 although the date alone would say modified. */
FIXTURE_VARIANT_ADD(evaluate, order_inm_match_hides_ims) {
	.if_none_match = { TAG }, .if_modified_since = D36,
	.want = COND_NOT_MODIFIED };
/* An unparseable If-None-Match is ignored: the date decides. */
FIXTURE_VARIANT_ADD(evaluate, order_inm_bogus_then_ims) {
	.if_none_match = { "bogus" }, .if_modified_since = D37,
	.want = COND_NOT_MODIFIED };

FIXTURE_SETUP(evaluate)
{
	unsigned int i;

	req_init(&self->r);
	self->r.method = variant->method;
	for (i = 0; i < LINES_MAX; i++) {
		if (variant->if_match[i])
			add(&self->r.if_match, variant->if_match[i]);
		if (variant->if_none_match[i])
			add(&self->r.if_none_match, variant->if_none_match[i]);
	}
	if (variant->if_unmodified_since)
		self->r.if_unmodified_since = S(variant->if_unmodified_since);
	if (variant->if_modified_since)
		self->r.if_modified_since = S(variant->if_modified_since);
}

FIXTURE_TEARDOWN(evaluate)
{
}

TEST_F(evaluate, result)
{
	const char *etag = variant->etag ? variant->etag : TAG;

	ASSERT_EQ(variant->want, cond_evaluate(&self->r, etag, MTIME, NOW));
}

/* cond_if_range() (13.1.5): TAG, MTIME, at @now. */
FIXTURE(if_range) {
	struct http_req r;
};

FIXTURE_VARIANT(if_range) {
	const char *if_range;	/* NULL: no If-Range */
	time_t now;		/* 0: NOW */
	bool want;		/* send the range */
};

FIXTURE_VARIANT_ADD(if_range, absent) { .want = true };
FIXTURE_VARIANT_ADD(if_range, tag_same) { .if_range = TAG, .want = true };
FIXTURE_VARIANT_ADD(if_range, tag_other) { .if_range = "\"other\"" };
/* Weak tags never match in If-Range (13.1.5). */
FIXTURE_VARIANT_ADD(if_range, tag_weak) { .if_range = "W/" TAG };
FIXTURE_VARIANT_ADD(if_range, tag_unterminated) {
	.if_range = "\"1a-2b-3c" };
/* A date: exactly Last-Modified, and at least a second old. */
FIXTURE_VARIANT_ADD(if_range, date_same) { .if_range = D37, .want = true };
FIXTURE_VARIANT_ADD(if_range, date_same_a_second_old) {
	.if_range = D37, .now = MTIME + 1, .want = true };
FIXTURE_VARIANT_ADD(if_range, date_same_not_a_second_old) {
	.if_range = D37, .now = MTIME };
FIXTURE_VARIANT_ADD(if_range, date_later) {
	.if_range = "Sun, 06 Nov 1994 08:49:38 GMT" };
FIXTURE_VARIANT_ADD(if_range, date_earlier) { .if_range = D36 };
FIXTURE_VARIANT_ADD(if_range, date_asctime) {
	.if_range = "Sun Nov  6 08:49:37 1994", .want = true };
/* Neither a tag nor a date. */
FIXTURE_VARIANT_ADD(if_range, neither) { .if_range = "whatever" };
FIXTURE_VARIANT_ADD(if_range, empty) { .if_range = "" };

FIXTURE_SETUP(if_range)
{
	req_init(&self->r);
	if (variant->if_range)
		self->r.if_range = S(variant->if_range);
}

FIXTURE_TEARDOWN(if_range)
{
}

TEST_F(if_range, result)
{
	time_t now = variant->now ? variant->now : NOW;

	ASSERT_EQ(variant->want, cond_if_range(&self->r, TAG, MTIME, now));
}

TEST_HARNESS_MAIN
