// SPDX-License-Identifier: GPL-2.0
/*
 * ct_record.c - constant-time check of the inner plaintext split of
 * record_protect.c (RFC 8446 5.4: the content type is the last nonzero byte,
 * zeros after it are padding), run under valgrind's memcheck
 * (tools/ctgrind, from `make test-unit`).
 *
 * The decrypted record is marked undefined: a branch or an address that
 * depends on where the content ends (the padding's length) is reported.
 * The type and the length are made public only once the split returns:
 * the record layer hands them on.  A naive split (a scan from the end
 * that stops at the first nonzero byte) is run too and must be
 * reported, which shows that the check can fail.  Natively the tests
 * skip.
 */
#include <stdlib.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"
#include "handshake/engine/record_protect.h"

struct split {
	size_t content, pad;	/* lengths */
	bool naive;
};

static int split(void *arg)
{
	const struct split *s = arg;
	static u8 buf[2048];
	size_t n = s->content + 1 + s->pad, len = 0, i;
	u8 type = 0;

	memset(buf, 0x5a, s->content);
	buf[s->content] = TLSX_CT_APPLICATION_DATA;
	memset(buf + s->content + 1, 0, s->pad);
	SECRET(buf, n);
	if (s->naive) {
		for (i = n; i > 0; i--)
			if (buf[i - 1])
				break;
		type = i ? buf[i - 1] : 0;
		len = i ? i - 1 : 0;
	} else {
		tlsx_rec_inner(buf, n, &type, &len);
	}
	PUBLIC(&type, sizeof(type));
	PUBLIC(&len, sizeof(len));
	PUBLIC(buf, n);
	return type == TLSX_CT_APPLICATION_DATA && len == s->content ? 0 : 1;
}

static void run(struct __test_metadata *_metadata, size_t content,
		size_t pad)
{
	struct split s = { content, pad, false };

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	EXPECT_EQ(0, ct_count_reports(split, &s));
}

TEST(no_padding)
{
	run(_metadata, 100, 0);
}

TEST(padding)
{
	run(_metadata, 100, 900);
}

TEST(empty_content)
{
	run(_metadata, 0, 64);
}

/* The check can fail: a split that stops at the padding's end. */
TEST(naive_split_reported)
{
	struct split s = { 100, 900, true };

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	EXPECT_LT(0, ct_count_reports(split, &s));
}

TEST_HARNESS_MAIN
