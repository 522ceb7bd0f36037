// SPDX-License-Identifier: GPL-2.0
/*
 * test_metrics.c - the Prometheus page (metrics.c): every metric has one
 * HELP and one TYPE line before its samples, counters end in _total and
 * gauges do not, names are unique and in Prometheus's charset; each
 * counter of stats.h reaches the page (a new counter fails here until it
 * has a metric, or is listed as shown through others); values from two
 * workers' arrays: per-worker series, sums, full handshakes as done less
 * resumed, status classes, failed handshakes by alert name.  The fleet
 * test (tools/tlsxd/fleet) parses a live page with prometheus_client.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/metrics.h"

static char *render(const struct stats *a, const struct stats *b)
{
	const struct stats *in[2] = { a, b };
	struct metrics_extra x = { "tlsx", 3 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	metrics_write(f, in, 2, &x);
	fclose(f);
	return text;
}

/* The sample line "NAME{LABELS} VALUE" or "NAME VALUE": its value. */
static long long sample(const char *text, const char *series)
{
	char want[256];
	const char *p;

	snprintf(want, sizeof(want), "\n%s ", series);
	p = strstr(text, want);
	if (!p)
		return -1;
	return atoll(p + strlen(want));
}

TEST(format_and_names)
{
	struct stats a = { 0 }, b = { 0 };
	char *text = render(&a, &b), *line, *save = NULL;
	char names[128][96];
	unsigned int n = 0, i;
	char typed[96] = "";
	int k;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[96];
		const char *p;

		if (!strncmp(line, "# HELP ", 7)) {
			k = sscanf(line + 7, "%95s", name);
			ASSERT_EQ(1, k);
			for (i = 0; i < n; i++)
				ASSERT_STRNE(names[i], name);
			ASSERT_LT(n, 128);
			snprintf(names[n++], sizeof(names[0]), "%s", name);
			for (p = name; *p; p++)
				ASSERT_TRUE(islower((unsigned char)*p) ||
					    isdigit((unsigned char)*p) ||
					    *p == '_');
			ASSERT_EQ(0, strncmp(name, "tlsxd_", 6));
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			char type[16];
			size_t l;

			k = sscanf(line + 7, "%95s %15s", name, type);
			ASSERT_EQ(2, k);
			ASSERT_STREQ(names[n - 1], name);
			l = strlen(name);
			if (!strcmp(type, "counter")) {
				ASSERT_STREQ("_total", name + l - 6)
					TH_LOG("counter %s", name);
			} else {
				ASSERT_STREQ("gauge", type);
				ASSERT_STRNE("_total", name + l - 6);
			}
			snprintf(typed, sizeof(typed), "%s", name);
			continue;
		}
		/* A sample of the metric typed last. */
		ASSERT_EQ(0, strncmp(line, typed, strlen(typed))) TH_LOG("%s", line);
		p = line + strlen(typed);
		ASSERT_TRUE(*p == ' ' || *p == '{') TH_LOG("%s", line);
	}
	ASSERT_LT(20, n);
	free(text);
}

/*
 * Each counter of stats.h is on the page: set it alone to a value no
 * other has and find that value.  Those shown only through others: the
 * failed handshakes (by alert) and the requests (by class).
 */
TEST(every_counter_reaches_the_page)
{
	unsigned int id;

	for (id = 0; id < STAT_COUNT; id++) {
		struct stats a = { 0 }, b = { 0 };
		char *text, want[32];

		if (id == STAT_HS_FAILED || id == STAT_REQUESTS)
			continue;
		a.v[id] = 7654321;
		/* Full handshakes are done less resumed: keep it positive. */
		if (id == STAT_HS_RESUMED)
			a.v[STAT_HS_DONE] = 7654321 * 2;
		text = render(&a, &b);
		snprintf(want, sizeof(want), " 7654321\n");
		EXPECT_NE(NULL, strstr(text, want))
			TH_LOG("counter %s is on no metric (metrics.c's metric_rows[])",
			       stats_names[id]);
		free(text);
	}
}

TEST(values)
{
	struct stats a = { 0 }, b = { 0 };
	char *text;

	a.v[STAT_CONN_ACCEPTED] = 10;
	b.v[STAT_CONN_ACCEPTED] = 5;
	a.v[STAT_CONN_ACTIVE] = 2;
	a.v[STAT_HS_DONE] = 8;
	b.v[STAT_HS_DONE] = 4;
	a.v[STAT_HS_RESUMED] = 3;
	b.v[STAT_HS_RESUMED] = 1;
	a.v[STAT_S_304] = 2;
	b.v[STAT_S_3XX] = 1;
	a.v[STAT_S_404] = 4;
	b.v[STAT_S_416] = 1;
	a.v[STAT_BYTES_SENDFILE] = 1000;
	b.v[STAT_BYTES_SENDFILE] = 24;
	a.hs_alert[50] = 2;		/* decode_error */
	b.hs_alert[STATS_ALERT_NONE] = 6;
	text = render(&a, &b);
	EXPECT_EQ(10, sample(text, "tlsxd_connections_accepted_total{worker=\"0\"}"));
	EXPECT_EQ(5, sample(text, "tlsxd_connections_accepted_total{worker=\"1\"}"));
	EXPECT_EQ(2, sample(text, "tlsxd_connections_open{worker=\"0\"}"));
	EXPECT_EQ(8, sample(text, "tlsxd_handshakes_total{type=\"full\"}"));
	EXPECT_EQ(4, sample(text, "tlsxd_handshakes_total{type=\"resumed\"}"));
	EXPECT_EQ(3, sample(text, "tlsxd_requests_total{class=\"3xx\"}"));
	EXPECT_EQ(5, sample(text, "tlsxd_requests_total{class=\"4xx\"}"));
	EXPECT_EQ(0, sample(text, "tlsxd_requests_total{class=\"2xx\"}"));
	EXPECT_EQ(1024, sample(text, "tlsxd_file_body_bytes_total{method=\"sendfile\"}"));
	EXPECT_EQ(2, sample(text, "tlsxd_handshakes_failed_total{alert=\"decode_error\"}"));
	EXPECT_EQ(6, sample(text, "tlsxd_handshakes_failed_total{alert=\"none\"}"));
	/* Alerts never seen have no series. */
	EXPECT_EQ(-1, sample(text, "tlsxd_handshakes_failed_total{alert=\"bad_record_mac\"}"));
	EXPECT_EQ(1, sample(text, "tlsxd_record_layer_info{layer=\"tlsx\"}"));
	EXPECT_EQ(3, sample(text, "tlsxd_access_log_lost_lines_total"));
	EXPECT_EQ(2, sample(text, "tlsxd_workers"));
	free(text);
}

TEST_HARNESS_MAIN
