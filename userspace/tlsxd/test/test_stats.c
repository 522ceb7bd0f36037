// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - the counters (stats.c): every counter named, names
 * unique and in the "conn_accepted" style, statuses to their counters,
 * the sum of several workers' arrays (a gauge going down included), and
 * the printed lines.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/stats.h"

TEST(every_counter_named_once)
{
	unsigned int i, j;

	for (i = 0; i < STAT_COUNT; i++) {
		const char *n = stats_names[i];
		const char *p;

		ASSERT_NE(NULL, n) TH_LOG("counter %u has no name", i);
		ASSERT_NE(0, strlen(n));
		for (p = n; *p; p++)
			ASSERT_TRUE(islower((unsigned char)*p) ||
				    isdigit((unsigned char)*p) || *p == '_');
		for (j = 0; j < i; j++)
			ASSERT_STRNE(stats_names[j], n);
	}
	ASSERT_STREQ("conn_accepted", stats_names[STAT_CONN_ACCEPTED]);
	ASSERT_STREQ("status_404", stats_names[STAT_S_404]);
	ASSERT_STREQ("timeout_header", stats_names[STAT_TO_HEADER]);
	ASSERT_STREQ("body_user", stats_names[STAT_BODY_USER]);
	/* The open-file cache's (fcache.h), dumped with the others. */
	ASSERT_STREQ("fcache_hits", stats_names[STAT_FC_HITS]);
	ASSERT_STREQ("fcache_neg_hits", stats_names[STAT_FC_NEG_HITS]);
	ASSERT_STREQ("fcache_entries", stats_names[STAT_FC_ENTRIES]);
}

TEST(status_to_counter)
{
	ASSERT_EQ(STAT_S_2XX, stats_status_id(200));
	ASSERT_EQ(STAT_S_2XX, stats_status_id(206));
	ASSERT_EQ(STAT_S_2XX, stats_status_id(100));
	ASSERT_EQ(STAT_S_304, stats_status_id(304));
	ASSERT_EQ(STAT_S_3XX, stats_status_id(301));
	ASSERT_EQ(STAT_S_400, stats_status_id(400));
	ASSERT_EQ(STAT_S_400, stats_status_id(411));
	ASSERT_EQ(STAT_S_403, stats_status_id(403));
	ASSERT_EQ(STAT_S_404, stats_status_id(404));
	ASSERT_EQ(STAT_S_405, stats_status_id(405));
	ASSERT_EQ(STAT_S_408, stats_status_id(408));
	ASSERT_EQ(STAT_S_412, stats_status_id(412));
	ASSERT_EQ(STAT_S_413, stats_status_id(413));
	ASSERT_EQ(STAT_S_414, stats_status_id(414));
	ASSERT_EQ(STAT_S_416, stats_status_id(416));
	ASSERT_EQ(STAT_S_417, stats_status_id(417));
	ASSERT_EQ(STAT_S_431, stats_status_id(431));
	ASSERT_EQ(STAT_S_5XX, stats_status_id(500));
	ASSERT_EQ(STAT_S_5XX, stats_status_id(505));
	ASSERT_EQ(STAT_S_5XX, stats_status_id(0));
	ASSERT_EQ(STAT_S_5XX, stats_status_id(-1));
	ASSERT_EQ(STAT_S_5XX, stats_status_id(999));
}

TEST(sum_of_workers)
{
	struct stats w[3], sum;
	const struct stats *in[3] = { &w[0], &w[1], &w[2] };
	unsigned int j;

	memset(w, 0, sizeof(w));
	memset(&sum, 0xa5, sizeof(sum));
	stats_add(&w[0], STAT_CONN_ACCEPTED, 5);
	stats_add(&w[1], STAT_CONN_ACCEPTED, 7);
	stats_add(&w[2], STAT_BYTES_BODY, 1ULL << 40);
	stats_add(&w[2], STAT_BYTES_BODY, 3);
	/* A gauge: up 4 on one worker, down 1 there, up 2 on another. */
	stats_add(&w[0], STAT_CONN_ACTIVE, 4);
	stats_add(&w[0], STAT_CONN_ACTIVE, -1);
	stats_add(&w[1], STAT_CONN_ACTIVE, 2);
	stats_sum(in, 3, &sum);
	ASSERT_EQ(12, sum.v[STAT_CONN_ACCEPTED]);
	ASSERT_EQ((1ULL << 40) + 3, sum.v[STAT_BYTES_BODY]);
	ASSERT_EQ(5, sum.v[STAT_CONN_ACTIVE]);
	for (j = 0; j < STAT_COUNT; j++)
		if (j != STAT_CONN_ACCEPTED && j != STAT_BYTES_BODY &&
		    j != STAT_CONN_ACTIVE)
			ASSERT_EQ(0, sum.v[j]);
	stats_sum(in, 0, &sum);
	for (j = 0; j < STAT_COUNT; j++)
		ASSERT_EQ(0, sum.v[j]);
}

TEST(print_lines)
{
	struct stats s;
	char *buf = NULL, *line, *save;
	size_t len = 0;
	unsigned int n = 0;
	FILE *f;

	memset(&s, 0, sizeof(s));
	stats_add(&s, STAT_S_404, 42);
	f = open_memstream(&buf, &len);
	ASSERT_NE(NULL, f);
	stats_print(f, &s);
	fclose(f);
	ASSERT_NE(NULL, strstr(buf, "\nstatus_404 42\n"));
	ASSERT_EQ(0, strncmp(buf, "conn_accepted 0\n", 16));
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		unsigned long long v;
		int got = sscanf(line, "%63s %llu", name, &v);

		ASSERT_EQ(2, got);
		ASSERT_STREQ(stats_names[n], name);
		n++;
	}
	ASSERT_EQ(STAT_COUNT, n);
	free(buf);
}

TEST_HARNESS_MAIN
