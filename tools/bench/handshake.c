// SPDX-License-Identifier: GPL-2.0
/*
 * handshake.c - "tlsx-bench handshake": full TLS 1.3 handshakes per
 * second in memory, one thread, client and server driven in one loop,
 * tlsx's engine (handshake_tlsx.c) beside OpenSSL's libssl with memory
 * BIOs (handshake_ossl.c), for each row of rows[] below.
 *
 * Method (../shared/notes/perf.md): each library runs batches of about
 * --batch-ms of back-to-back handshakes, tlsx and OpenSSL alternately
 * for --rounds rounds, who goes first alternating too.  Per row:
 *
 * - handshakes/s: handshakes of a batch over its CLOCK_MONOTONIC_RAW
 *   time; the median over rounds with the min and max;
 * - ratio: the median of the per-round ratios tlsx rate / OpenSSL rate
 *   (both batches of a round ran back to back under the same load;
 *   above 1, tlsx is faster), with the min and max, beside the issue's
 *   target;
 * - client and server time per handshake: TSC ticks spent inside each
 *   party's own calls (object creation, every step, reading the ticket,
 *   freeing), in microseconds; the median over rounds.  The TSC is read
 *   around each call (a few dozen cycles), not the thread CPU clock (a
 *   system call each time), so preemption inside a call counts;
 * - heap: handshake_heap.c's peak of live heap bytes over one
 *   client+server handshake (both parties' objects, the two memory BIOs,
 *   everything the library allocates), above its value before it,
 *   halved: bytes per connection.  Also each party's own peak.  Measured
 *   once per library after the timed rounds (warm caches, as in a
 *   running server).
 *
 * A library whose setup or a handshake fails is reported as such, with
 * the engine's alert, and its columns stay empty: the other library's
 * figure is then labelled as measured alone.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>

#include "handshake.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ROUNDS	201

enum hsb_party hsb_party;

/* The targets: ECDSA 2.5x, RSA 1.5x, resumption 3x. */
static const struct hsb_row rows[] = {
	{ "x25519-ecdsa-p256", HSB_X25519, HSB_KEY_ECDSA_P256, HSB_FULL, 2.5 },
	{ "x25519-ed25519", HSB_X25519, HSB_KEY_ED25519, HSB_FULL, 0 },
	{ "x25519-rsa2048", HSB_X25519, HSB_KEY_RSA2048, HSB_FULL, 1.5 },
	{ "secp256r1-ecdsa-p256", HSB_SECP256R1, HSB_KEY_ECDSA_P256, HSB_FULL,
	  2.5 },
	{ "resume-psk-dhe", HSB_X25519, HSB_KEY_ECDSA_P256, HSB_PSK_DHE, 3.0 },
	{ "resume-psk-ke", HSB_X25519, HSB_KEY_ECDSA_P256, HSB_PSK_KE, 3.0 },
	/*
	 * Issue 30: the hybrid against OpenSSL 3.0's classical X25519 (it
	 * has no ML-KEM), at least 2.5x; its resumption measured only.
	 */
	{ "x25519mlkem768-ecdsa-p256", HSB_X25519MLKEM768, HSB_KEY_ECDSA_P256,
	  HSB_FULL, 2.5 },
	{ "resume-psk-dhe-x25519mlkem768", HSB_X25519MLKEM768,
	  HSB_KEY_ECDSA_P256, HSB_PSK_DHE, 0 },
};

/* Heap per connection: at most a quarter of OpenSSL's. */
#define HEAP_TARGET	0.25

struct hs_opts {
	int rounds;
	double batch_ms;
	const char *only;
	const char *csv;
	bool openssl_only;
	bool tlsx_only;		/* for profiling the engine alone */
};

/* --json, --plot (out.c) and the progress line: one run per process. */
static struct bench_out hs_out;
static struct bench_progress hs_prog;

/* One library's run of one row. */
struct side {
	const struct hsb_impl *impl;
	void *st;
	bool ok;		/* set up, and no handshake failed */
	char why[HSB_ERR_LEN];
	size_t n;		/* handshakes per batch */
	size_t nd;		/* batches done */
	double rate[MAX_ROUNDS], cli_us[MAX_ROUNDS], srv_us[MAX_ROUNDS];
	struct bench_stats r, c, s;
	struct hsb_heap heap;
	bool heap_ok;
};

static void side_fail(struct side *sd)
{
	snprintf(sd->why, sizeof(sd->why), "handshake failed: %s",
		 sd->impl->error(sd->st));
	sd->ok = false;
}

/* One batch of handshakes: its rate and per-party times, or -1. */
static int batch(struct side *sd)
{
	size_t i, n = sd->n;
	struct hsb_times t = { 0, 0 };
	double tpus = bench_tsc_per_ns() * 1e3;
	uint64_t t0 = bench_now_ns(), el;

	for (i = 0; i < n; i++) {
		if (sd->impl->run(sd->st, &t)) {
			side_fail(sd);
			return -1;
		}
	}
	el = bench_now_ns() - t0;
	sd->rate[sd->nd] = (double)n * 1e9 / (double)(el ? el : 1);
	sd->cli_us[sd->nd] = (double)t.client / tpus / (double)n;
	sd->srv_us[sd->nd] = (double)t.server / tpus / (double)n;
	sd->nd++;
	return 0;
}

/* Handshakes per batch so that one batch lasts about @batch_ms. */
static int calibrate(struct side *sd, double batch_ms)
{
	struct hsb_times t = { 0, 0 };
	size_t n = 1, i;

	for (;;) {
		uint64_t t0 = bench_now_ns(), el;

		for (i = 0; i < n; i++) {
			if (sd->impl->run(sd->st, &t)) {
				side_fail(sd);
				return -1;
			}
		}
		el = bench_now_ns() - t0;
		if (el >= batch_ms * 1e6 / 4 || n >= (1u << 20)) {
			sd->n = (size_t)((double)n * batch_ms * 1e6 /
					 (double)(el ? el : 1)) + 1;
			return 0;
		}
		n *= 2;
	}
}

static void measure_heap(struct side *sd)
{
	struct hsb_times t = { 0, 0 };
	int bad;

	if (!hsb_heap_counts || !sd->ok)
		return;
	hsb_heap_start();
	bad = sd->impl->run(sd->st, &t);
	hsb_heap_stop(&sd->heap);
	if (bad)
		side_fail(sd);
	else
		sd->heap_ok = true;
}

static void print_side(const char *row, const struct side *sd,
		       const char *alone)
{
	char a[48], h[48];

	if (!sd->nd) {
		printf("%-21s %-8s %s\n", row, sd->impl->name, sd->why);
		return;
	}
	snprintf(a, sizeof(a), "%.0f [%.0f-%.0f]", sd->r.median, sd->r.min,
		 sd->r.max);
	if (sd->heap_ok)
		snprintf(h, sizeof(h), "%ld (%ld/%ld)", (sd->heap.peak + 1) / 2,
			 sd->heap.peak_client, sd->heap.peak_server);
	else
		snprintf(h, sizeof(h), "-");
	printf("%-21s %-8s %22s %9.1f %9.1f %22s  %s%s", row,
	       sd->impl->name, a, sd->c.median, sd->s.median, h,
	       sd->impl->note(sd->st), alone);
	if (sd->heap_ok)
		printf("; live when done %ld; %lu allocations",
		       (sd->heap.done + 1) / 2, sd->heap.allocs);
	putchar('\n');
	if (!sd->ok)
		printf("%-21s %-8s then %s\n", "", "", sd->why);
}

static void print_ratio(const struct hsb_row *row, const struct side *t,
			const struct side *e, const struct bench_stats *rs)
{
	printf("%-21s %-8s %.3f [%.3f-%.3f]", "", "ratio", rs->median,
	       rs->min, rs->max);
	if (row->target > 0)
		printf("  target >= %.2f %s", row->target,
		       rs->median >= row->target ? "met" : "NOT MET");
	else
		printf("  (no target)");
	if (t->heap_ok && e->heap_ok && e->heap.peak > 0) {
		double hr = (double)t->heap.peak / (double)e->heap.peak;

		printf("; heap %.3f of OpenSSL's, target <= %.2f %s", hr,
		       HEAP_TARGET, hr <= HEAP_TARGET ? "met" : "NOT MET");
	}
	putchar('\n');
}

static void csv_row(FILE *f, const struct hsb_row *row,
		    const struct side *t, const struct side *e,
		    const struct bench_stats *rs, bool both)
{
	fprintf(f, "%s,", row->name);
	if (t->nd)
		fprintf(f, "%.1f", t->r.median);
	fputc(',', f);
	if (e->nd)
		fprintf(f, "%.1f", e->r.median);
	fputc(',', f);
	if (both)
		fprintf(f, "%.4f", rs->median);
	fputc(',', f);
	if (t->heap_ok)
		fprintf(f, "%ld", (t->heap.peak + 1) / 2);
	fputc(',', f);
	if (e->heap_ok)
		fprintf(f, "%ld", (e->heap.peak + 1) / 2);
	fputc('\n', f);
	fflush(f);
}

/* The row in --json; in --plot a panel of two bars with their min-max. */
static void out_row(const struct hsb_row *row, const struct side *t,
		    const struct side *e, const struct bench_stats *rs,
		    bool both)
{
	struct bench_field f[] = {
		BF_STR("row", row->name),
		BF_NUM("tlsx_per_s", t->nd ? t->r.median : NAN),
		BF_NUM("tlsx_per_s_min", t->nd ? t->r.min : NAN),
		BF_NUM("tlsx_per_s_max", t->nd ? t->r.max : NAN),
		BF_NUM("openssl_per_s", e->nd ? e->r.median : NAN),
		BF_NUM("openssl_per_s_min", e->nd ? e->r.min : NAN),
		BF_NUM("openssl_per_s_max", e->nd ? e->r.max : NAN),
		BF_NUM("ratio", both ? rs->median : NAN),
		BF_NUM("ratio_min", both ? rs->min : NAN),
		BF_NUM("ratio_max", both ? rs->max : NAN),
		BF_NUM("target", row->target),
		BF_NUM("tlsx_client_us", t->nd ? t->c.median : NAN),
		BF_NUM("tlsx_server_us", t->nd ? t->s.median : NAN),
		BF_NUM("openssl_client_us", e->nd ? e->c.median : NAN),
		BF_NUM("openssl_server_us", e->nd ? e->s.median : NAN),
		BF_NUM("tlsx_heap", t->heap_ok ?
		       (double)((t->heap.peak + 1) / 2) : NAN),
		BF_NUM("openssl_heap", e->heap_ok ?
		       (double)((e->heap.peak + 1) / 2) : NAN),
		BF_NUM("rounds", (double)t->nd),
	};

	bench_out_row(&hs_out, f, ARRAY_SIZE(f));
	if (t->nd)
		bench_plot_bar(hs_out.plot, row->name, "tlsx", t->r.median,
			       t->r.min, t->r.max);
	if (e->nd)
		bench_plot_bar(hs_out.plot, row->name, "OpenSSL", e->r.median,
			       e->r.min, e->r.max);
}

static int run_row(const struct hsb_row *row, const struct hs_opts *o,
		   FILE *csv)
{
	static struct side sides[2];
	struct side *t = &sides[0], *e = &sides[1];
	double ratio[MAX_ROUNDS];
	const struct hsb_creds *c;
	struct bench_stats rs = { 0, 0, 0 };
	int i, k;
	size_t nr = 0;
	bool both;

	memset(sides, 0, sizeof(sides));
	t->impl = &hsb_tlsx;
	e->impl = &hsb_openssl;
	c = hsb_creds_get(row->key);
	if (!c) {
		printf("%-21s making the credentials failed\n", row->name);
		return -1;
	}
	for (k = 0; k < 2; k++) {
		struct side *sd = &sides[k];

		if ((k == 0 && o->openssl_only) || (k == 1 && o->tlsx_only)) {
			snprintf(sd->why, sizeof(sd->why), "not run (--%s-only)",
				 k ? "tlsx" : "openssl");
			continue;
		}
		sd->st = sd->impl->setup(row, c, sd->why);
		sd->ok = sd->st && !calibrate(sd, o->batch_ms);
		if (!sd->st) {
			char msg[HSB_ERR_LEN];

			snprintf(msg, sizeof(msg), "setup failed: %s",
				 sd->why);
			snprintf(sd->why, sizeof(sd->why), "%s", msg);
		}
	}
	for (i = 0; i < o->rounds && (t->ok || e->ok); i++) {
		struct side *order[2] = { i % 2 ? e : t, i % 2 ? t : e };
		bool pair = true;

		for (k = 0; k < 2; k++)
			if (!order[k]->ok || batch(order[k]))
				pair = false;
		if (pair)
			ratio[nr++] = t->rate[t->nd - 1] / e->rate[e->nd - 1];
		bench_progress_round(&hs_prog, i);
	}
	bench_progress_row_done(&hs_prog);
	for (k = 0; k < 2; k++) {
		struct side *sd = &sides[k];

		if (sd->nd) {
			sd->r = bench_summarize(sd->rate, sd->nd);
			sd->c = bench_summarize(sd->cli_us, sd->nd);
			sd->s = bench_summarize(sd->srv_us, sd->nd);
		}
		measure_heap(sd);
	}
	both = nr > 0;
	if (both)
		rs = bench_summarize(ratio, nr);
	print_side(row->name, t, both || !t->nd ? "" : "  (measured alone)");
	print_side("", e, both || !e->nd ? "" : "  (measured alone)");
	if (both)
		print_ratio(row, t, e, &rs);
	else if (row->target > 0)
		printf("%-21s %-8s none (target >= %.2f)\n", "", "ratio",
		       row->target);
	fflush(stdout);
	if (csv)
		csv_row(csv, row, t, e, &rs, both);
	out_row(row, t, e, &rs, both);
	for (k = 0; k < 2; k++)
		if (sides[k].st)
			sides[k].impl->teardown(sides[k].st);
	return (t->ok || o->openssl_only) && (e->ok || o->tlsx_only) ? 0 : -1;
}

/* "family 26 model 2 (AMD EPYC)" from /proc/cpuinfo. */
static void print_machine(void)
{
	char line[256], name[128] = "?", fam[16] = "?", model[16] = "?";
	double l1 = 0, l5 = 0, l15 = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "\n", 1))
			break;
		if (sscanf(line, "model name : %127[^\n]", name) == 1 ||
		    sscanf(line, "cpu family : %15s", fam) == 1)
			continue;
		if (sscanf(line, "model : %15s", model) == 1)
			continue;
	}
	if (f)
		fclose(f);
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) != 3)
			l1 = l5 = l15 = 0;
		fclose(f);
	}
	printf("# %s, CPU family %s model %s, load average %.2f %.2f %.2f\n",
	       name, fam, model, l1, l5, l15);
}

void bench_handshake_usage(void)
{
	fprintf(stderr,
		"Usage: tlsx-bench handshake [--rounds N] [--batch-ms MS]\n"
		"                            [--csv FILE] [--only ROW]\n"
		"                            [--openssl-only | --tlsx-only]\n"
		"  --rounds N      alternating rounds per row (11)\n"
		"  --batch-ms MS   length of one timed batch (100)\n"
		"  --csv FILE      also write rows row,tlsx_per_s,openssl_per_s,\n"
		"                  ratio,tlsx_heap,openssl_heap (empty: not\n"
		"                  measured; heap: bytes per connection)\n"
		"  --only ROW      rows whose name contains ROW\n"
		"  --json FILE     every row, with machine, kernel, commit, date,\n"
		"                  command line, as one JSON document\n"
		"  --plot FILE     FILE.svg or .png: bars (min-max) per row\n"
		"  --openssl-only  the OpenSSL anchors alone\n"
		"  --tlsx-only     tlsx alone (for profiling)\n"
		"Rows:");
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		fprintf(stderr, " %s", rows[i].name);
	fputc('\n', stderr);
}

int bench_handshake(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "batch-ms", required_argument, NULL, 'b' },
		{ "only", required_argument, NULL, 'o' },
		{ "csv", required_argument, NULL, 'c' },
		{ "openssl-only", no_argument, NULL, 'O' },
		{ "tlsx-only", no_argument, NULL, 'T' },
		{ "json", required_argument, NULL, BENCH_OPT_JSON },
		{ "plot", required_argument, NULL, BENCH_OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	struct hs_opts o = { .rounds = 11, .batch_ms = 100 };
	FILE *csv = NULL;
	int c, fails = 0, ran = 0;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (bench_opt_int(optarg, 1, MAX_ROUNDS, &o.rounds)) {
				bench_opt_bad("handshake", lopts, c, optarg);
				return 2;
			}
			break;
		case 'b':
			if (bench_opt_double(optarg, 0.001, 60000, &o.batch_ms)) {
				bench_opt_bad("handshake", lopts, c, optarg);
				return 2;
			}
			break;
		case 'o':
			o.only = optarg;
			break;
		case 'c':
			o.csv = optarg;
			break;
		case 'O':
			o.openssl_only = true;
			break;
		case 'T':
			o.tlsx_only = true;
			break;
		default:
			if (bench_out_opt(&hs_out, c, optarg))
				break;
			bench_handshake_usage();
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr,
			"tlsx-bench handshake: unexpected argument '%s'\n",
			argv[optind]);
		bench_handshake_usage();
		return 2;
	}
	if (o.openssl_only && o.tlsx_only) {
		fprintf(stderr, "tlsx-bench handshake: %s\n",
			"--openssl-only and --tlsx-only exclude each other");
		return 2;
	}
	if (bench_out_begin(&hs_out, "handshake"))
		return 1;
	if (hs_out.plot)
		bench_plot_labels(hs_out.plot, "tlsx-bench handshake: handshakes/s, median and min-max over rounds",
				  "", "handshakes/s", "", 4);
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		if (!o.only || strstr(rows[i].name, o.only))
			ran++;
	bench_progress_begin(&hs_prog, "handshake", ran, o.rounds);
	ran = 0;
	if (o.csv) {
		csv = fopen(o.csv, "w");
		if (!csv) {
			perror(o.csv);
			bench_out_end(&hs_out);
			return 1;
		}
		fputs("row,tlsx_per_s,openssl_per_s,ratio,tlsx_heap,openssl_heap\n",
		      csv);
	}
	printf("# tlsx-bench handshake: TSC %.3f GHz, %s\n",
	       bench_tsc_per_ns(), OpenSSL_version(OPENSSL_VERSION));
	print_machine();
	printf("# %d rounds of ~%.0f ms batches per library, alternating;\n"
	       "# hs/s: median [min-max] over rounds; client, server: us of\n"
	       "# TSC time in each party's calls per handshake (median);\n"
	       "# heap: peak live heap of one client+server handshake / 2,\n"
	       "# bytes per connection (client peak/server peak); %s;\n"
	       "# live when done: the same when both are done, before freeing;\n"
	       "# allocations: calls in that handshake, both parties\n"
	       "# ratio: median [min-max] of per-round tlsx/OpenSSL rates,\n"
	       "# above 1 = tlsx faster\n", o.rounds, o.batch_ms,
	       hsb_heap_counts ? "malloc_usable_size of live blocks" :
	       "not measured in this build");
	printf("%-21s %-8s %22s %9s %9s %22s  %s\n", "row", "impl",
	       "hs/s [min-max]", "client", "server", "heap B (c/s)",
	       "negotiated");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		if (o.only && !strstr(rows[i].name, o.only))
			continue;
		ran++;
		bench_progress_row(&hs_prog, ran - 1, rows[i].name);
		if (run_row(&rows[i], &o, csv))
			fails++;
	}
	bench_progress_end(&hs_prog);
	if (csv)
		fclose(csv);
	if (ran && bench_out_end(&hs_out))
		fails++;
	hsb_creds_free_all();
	if (!ran) {
		fprintf(stderr, "handshake: no row matches '%s'\n", o.only);
		return 2;
	}
	return fails ? 1 : 0;
}
