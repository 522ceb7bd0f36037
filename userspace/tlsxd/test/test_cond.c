// SPDX-License-Identifier: GPL-2.0
/*
 * test_cond.c - validators and preconditions (cond.c, RFC 9110 8.8, 13):
 * the entity tag's form and what changes it; each precondition alone
 * (If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since,
 * If-Range) with strong and weak comparison, "*", lists over several
 * field lines, unparseable fields ignored; and their order (13.2.2):
 * a failed If-Match is 412 whatever If-None-Match says, If-Match hides
 * If-Unmodified-Since, If-None-Match hides If-Modified-Since.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/cond.h"
#include "tlsxd/httpdate.h"

#define TAG	"\"1a-2b-3c\""
/* Sun, 06 Nov 1994 08:49:37 GMT, and a "now" a day later. */
#define MTIME	784111777
#define NOW	(MTIME + 86400)

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

TEST(no_conditionals_proceed)
{
	struct http_req r;

	req_init(&r);
	ASSERT_EQ(COND_PROCEED, eval(&r));
}

TEST(if_match)
{
	struct http_req r;

	req_init(&r);
	add(&r.if_match, TAG);
	ASSERT_EQ(COND_PROCEED, eval(&r));
	req_init(&r);
	add(&r.if_match, "\"other\"");
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	req_init(&r);
	add(&r.if_match, "*");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	/* Strong comparison: a weak tag never matches (8.8.3.2). */
	req_init(&r);
	add(&r.if_match, "W/" TAG);
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	/* A list, and a list over two field lines. */
	req_init(&r);
	add(&r.if_match, "\"x\", " TAG " ,\"y\"");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	req_init(&r);
	add(&r.if_match, "\"x\", \"y\"");
	add(&r.if_match, TAG);
	ASSERT_EQ(COND_PROCEED, eval(&r));
	req_init(&r);
	add(&r.if_match, "\"x\", \"y\"");
	add(&r.if_match, "\"z\"");
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	/* A comma inside a tag is an etagc, not a separator. */
	req_init(&r);
	add(&r.if_match, "\"a,b\"");
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	ASSERT_EQ(COND_PROCEED, cond_evaluate(&r, "\"a,b\"", MTIME, NOW));
	/* A prefix or an unquoted tag is no match. */
	req_init(&r);
	add(&r.if_match, "\"1a-2b-3c");
	ASSERT_EQ(COND_PROCEED, eval(&r));	/* malformed: ignored */
	req_init(&r);
	add(&r.if_match, "\"1a-2b-3\"");
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
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

TEST(if_unmodified_since)
{
	struct http_req r;

	req_init(&r);
	r.if_unmodified_since = S("Sun, 06 Nov 1994 08:49:37 GMT");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	r.if_unmodified_since = S("Sun, 06 Nov 1994 08:49:36 GMT");
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	r.if_unmodified_since = S("Sunday, 06-Nov-94 08:49:36 GMT");
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	r.if_unmodified_since = S("Sun Nov  6 08:49:36 1994");
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	/* Not a date: ignored. */
	r.if_unmodified_since = S("yesterday");
	ASSERT_EQ(COND_PROCEED, eval(&r));
}

TEST(if_none_match)
{
	struct http_req r;

	req_init(&r);
	add(&r.if_none_match, TAG);
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	r.method = HTTP_M_HEAD;
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	/* Any other method: 412 (13.1.2). */
	r.method = HTTP_M_OTHER;
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	/* Weak comparison: W/ matches. */
	req_init(&r);
	add(&r.if_none_match, "W/" TAG);
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	req_init(&r);
	add(&r.if_none_match, "*");
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	req_init(&r);
	add(&r.if_none_match, "\"x\"");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	req_init(&r);
	add(&r.if_none_match, "\"x\"");
	add(&r.if_none_match, "W/\"y\", " TAG);
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	/* A comma inside a weak tag does not split it. */
	req_init(&r);
	add(&r.if_none_match, "W/\"a,b\", " TAG);
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	ASSERT_EQ(COND_NOT_MODIFIED, cond_evaluate(&r, "\"a,b\"", MTIME, NOW));
	req_init(&r);
	add(&r.if_none_match, "W/\"a,b\"");
	ASSERT_EQ(COND_PROCEED, cond_evaluate(&r, "\"a\"", MTIME, NOW));
}

TEST(if_modified_since)
{
	struct http_req r;

	req_init(&r);
	r.if_modified_since = S("Sun, 06 Nov 1994 08:49:37 GMT");
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	r.if_modified_since = S("Sun, 06 Nov 1994 09:00:00 GMT");
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	r.if_modified_since = S("Sun, 06 Nov 1994 08:49:36 GMT");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	/* A date after now is invalid (13.1.3): ignored. */
	r.if_modified_since = S("Tue, 08 Nov 1994 08:49:37 GMT");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	r.if_modified_since = S("Mon, 07 Nov 1994 08:49:37 GMT");	/* = now */
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	r.if_modified_since = S("Sun, 06 Nov 1994 08:49:37 CET");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	/* Only for GET and HEAD. */
	r.if_modified_since = S("Sun, 06 Nov 1994 08:49:37 GMT");
	r.method = HTTP_M_HEAD;
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	r.method = HTTP_M_OTHER;
	ASSERT_EQ(COND_PROCEED, eval(&r));
}

/* RFC 9110 13.2.2's order. */
TEST(order_if_match_first)
{
	struct http_req r;

	/* A failed If-Match is 412 even though If-None-Match is 304. */
	req_init(&r);
	add(&r.if_match, "\"other\"");
	add(&r.if_none_match, TAG);
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	/* ... and even though If-Modified-Since would be. */
	req_init(&r);
	add(&r.if_match, "\"other\"");
	r.if_modified_since = S("Sun, 06 Nov 1994 08:49:37 GMT");
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
	/* A passed If-Match hands over to If-None-Match. */
	req_init(&r);
	add(&r.if_match, TAG);
	add(&r.if_none_match, TAG);
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
}

TEST(order_if_match_hides_unmodified_since)
{
	struct http_req r;

	req_init(&r);
	add(&r.if_match, TAG);
	r.if_unmodified_since = S("Sun, 06 Nov 1994 08:49:36 GMT");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	/* A failed If-Unmodified-Since beats a matching If-None-Match. */
	req_init(&r);
	r.if_unmodified_since = S("Sun, 06 Nov 1994 08:49:36 GMT");
	add(&r.if_none_match, TAG);
	ASSERT_EQ(COND_PRECONDITION_FAILED, eval(&r));
}

TEST(order_if_none_match_hides_modified_since)
{
	struct http_req r;

	/* If-None-Match does not match: If-Modified-Since is not asked. */
	req_init(&r);
	add(&r.if_none_match, "\"other\"");
	r.if_modified_since = S("Sun, 06 Nov 1994 08:49:37 GMT");
	ASSERT_EQ(COND_PROCEED, eval(&r));
	/* Matches: 304 although the date alone would say modified. */
	req_init(&r);
	add(&r.if_none_match, TAG);
	r.if_modified_since = S("Sun, 06 Nov 1994 08:49:36 GMT");
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
	/* An unparseable If-None-Match is ignored: the date decides. */
	req_init(&r);
	add(&r.if_none_match, "bogus");
	r.if_modified_since = S("Sun, 06 Nov 1994 08:49:37 GMT");
	ASSERT_EQ(COND_NOT_MODIFIED, eval(&r));
}

TEST(if_range)
{
	struct http_req r;

	req_init(&r);
	ASSERT_TRUE(cond_if_range(&r, TAG, MTIME, NOW));
	r.if_range = S(TAG);
	ASSERT_TRUE(cond_if_range(&r, TAG, MTIME, NOW));
	r.if_range = S("\"other\"");
	ASSERT_FALSE(cond_if_range(&r, TAG, MTIME, NOW));
	/* Weak tags never match in If-Range (13.1.5). */
	r.if_range = S("W/" TAG);
	ASSERT_FALSE(cond_if_range(&r, TAG, MTIME, NOW));
	r.if_range = S("\"1a-2b-3c");
	ASSERT_FALSE(cond_if_range(&r, TAG, MTIME, NOW));
	/* A date: exactly Last-Modified, and at least a second old. */
	r.if_range = S("Sun, 06 Nov 1994 08:49:37 GMT");
	ASSERT_TRUE(cond_if_range(&r, TAG, MTIME, NOW));
	ASSERT_TRUE(cond_if_range(&r, TAG, MTIME, MTIME + 1));
	ASSERT_FALSE(cond_if_range(&r, TAG, MTIME, MTIME));
	r.if_range = S("Sun, 06 Nov 1994 08:49:38 GMT");
	ASSERT_FALSE(cond_if_range(&r, TAG, MTIME, NOW));
	r.if_range = S("Sun, 06 Nov 1994 08:49:36 GMT");
	ASSERT_FALSE(cond_if_range(&r, TAG, MTIME, NOW));
	r.if_range = S("Sun Nov  6 08:49:37 1994");
	ASSERT_TRUE(cond_if_range(&r, TAG, MTIME, NOW));
	/* Neither a tag nor a date. */
	r.if_range = S("whatever");
	ASSERT_FALSE(cond_if_range(&r, TAG, MTIME, NOW));
	r.if_range = S("");
	ASSERT_FALSE(cond_if_range(&r, TAG, MTIME, NOW));
}

TEST_HARNESS_MAIN
