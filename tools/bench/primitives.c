// SPDX-License-Identifier: GPL-2.0
/*
 * primitives.c - "tlsx-bench hs": the handshake primitives (hashes, HKDF,
 * X25519, P-256, Ed25519, RSA) against OpenSSL.
 *
 * Each operation runs in batches of about --batch-ms milliseconds, tlsx
 * and OpenSSL alternately for --rounds rounds (who goes first alternates
 * too).  Reported: the median time per operation with its spread over
 * rounds, operations per second, and the ratio tlsx/OpenSSL as the
 * median of the per-round ratios (both sides ran back to back under the
 * same load: below 1, tlsx is faster), beside the target.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#include <openssl/crypto.h>

#include "bench.h"
#include "hs_bench.h"

#define MAX_ROUNDS	1001

struct hs_opts {
	int rounds;
	double batch_ms;
	const char *only;	/* substring of the operation names */
};

/* --json, --plot (out.c) and the progress line: one run per process. */
static struct bench_out prim_out;
static struct bench_progress prim_prog;

/* The row in --json; in --plot a panel of two bars (ops/s, min-max). */
static void out_row(const struct hs_bench_op *op, const struct hs_opts *o,
		    const struct bench_stats *ts, const struct bench_stats *es,
		    const struct bench_stats *rs)
{
	struct bench_field f[] = {
		BF_STR("op", op->name),
		BF_NUM("ns", ts->median), BF_NUM("ns_min", ts->min),
		BF_NUM("ns_max", ts->max),
		BF_NUM("openssl_ns", es->median),
		BF_NUM("openssl_ns_min", es->min),
		BF_NUM("openssl_ns_max", es->max),
		BF_NUM("ratio", rs->median), BF_NUM("ratio_min", rs->min),
		BF_NUM("ratio_max", rs->max),
		BF_NUM("bytes", (double)op->bytes),
		BF_NUM("target", op->target),
		BF_NUM("rounds", o->rounds),
	};

	bench_out_row(&prim_out, f, sizeof(f) / sizeof(*f));
	/* Operations per second: the longer bar is the faster side. */
	bench_plot_bar(prim_out.plot, op->name, "tlsx", 1e9 / ts->median,
		       1e9 / ts->max, 1e9 / ts->min);
	bench_plot_bar(prim_out.plot, op->name, "OpenSSL", 1e9 / es->median,
		       1e9 / es->max, 1e9 / es->min);
}

/* Operations per batch so that one batch lasts about @batch_ms. */
static size_t calibrate(int (*fn)(void *), void *st, double batch_ms)
{
	size_t n = 1;

	for (;;) {
		uint64_t t0 = bench_now_ns(), t;
		size_t i;

		for (i = 0; i < n; i++)
			fn(st);
		t = bench_now_ns() - t0;
		if (t >= batch_ms * 1e6 / 4 || n >= (1u << 24))
			return (size_t)((double)n * batch_ms * 1e6 /
					(double)(t ? t : 1)) + 1;
		n *= 4;
	}
}

/* ns per operation of one batch of @n; -1 when an operation failed. */
static double batch(int (*fn)(void *), void *st, size_t n)
{
	uint64_t t0 = bench_now_ns();
	size_t i;
	int bad = 0;

	for (i = 0; i < n; i++)
		bad |= fn(st);
	if (bad)
		return -1;
	return (double)(bench_now_ns() - t0) / (double)n;
}

static int run_op(const struct hs_bench_op *op, const struct hs_opts *o)
{
	double t[MAX_ROUNDS], e[MAX_ROUNDS], r[MAX_ROUNDS];
	struct bench_stats ts, es, rs;
	size_t nt, ne;
	char a[48], b[48];
	void *st;
	int i;

	st = op->setup();
	if (!st) {
		fprintf(stderr, "hs: %s: setup or cross-check failed\n",
			op->name);
		return -1;
	}
	nt = calibrate(op->tlsx, st, o->batch_ms);
	ne = calibrate(op->openssl, st, o->batch_ms);
	for (i = 0; i < o->rounds; i++) {
		if (i % 2) {
			e[i] = batch(op->openssl, st, ne);
			t[i] = batch(op->tlsx, st, nt);
		} else {
			t[i] = batch(op->tlsx, st, nt);
			e[i] = batch(op->openssl, st, ne);
		}
		if (t[i] < 0 || e[i] < 0) {
			fprintf(stderr, "hs: %s: an operation failed\n",
				op->name);
			op->teardown(st);
			return -1;
		}
		r[i] = t[i] / e[i];
		bench_progress_round(&prim_prog, i);
	}
	bench_progress_row_done(&prim_prog);
	op->teardown(st);
	ts = bench_summarize(t, (size_t)o->rounds);
	es = bench_summarize(e, (size_t)o->rounds);
	rs = bench_summarize(r, (size_t)o->rounds);
	snprintf(a, sizeof(a), "%.0f [%.0f-%.0f]", ts.median, ts.min, ts.max);
	snprintf(b, sizeof(b), "%.0f [%.0f-%.0f]", es.median, es.min, es.max);
	printf("%-28s %24s %9.0f %24s %9.0f %6.3f", op->name, a,
	       1e9 / ts.median, b, 1e9 / es.median, rs.median);
	if (op->bytes)
		printf("  %.2f/%.2f c/B", ts.median * bench_tsc_per_ns() /
		       (double)op->bytes, es.median * bench_tsc_per_ns() /
		       (double)op->bytes);
	if (op->target > 0)
		printf("  target <= %.2f %s", op->target,
		       rs.median <= op->target ? "met" : "NOT MET");
	if (op->max_cycles > 0) {
		double cyc = ts.median * bench_tsc_per_ns();

		printf("  %.0f cycles, target <= %.0f %s", cyc, op->max_cycles,
		       cyc <= op->max_cycles ? "met" : "NOT MET");
	}
	putchar('\n');
	fflush(stdout);
	out_row(op, o, &ts, &es, &rs);
	return 0;
}

void bench_hs_usage(void)
{
	fprintf(stderr,
		"Usage: tlsx-bench hs [--rounds N] [--batch-ms MS] [--only S]\n"
		"  --rounds N   alternating rounds per operation (15)\n"
		"  --batch-ms   length of one timed batch (20)\n"
		"  --only S     operations whose name contains S\n"
		BENCH_OUT_USAGE);
}

int bench_hs(int argc, char **argv)
{
	const struct hs_bench_op *const tables[] = {
		hs_bench_sha2, hs_bench_hkdf, hs_bench_x25519,
		hs_bench_p256, hs_bench_ed25519, hs_bench_rsa, hs_bench_mlkem,
	};
	static const struct option lopts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "batch-ms", required_argument, NULL, 'b' },
		{ "only", required_argument, NULL, 'o' },
		{ "json", required_argument, NULL, BENCH_OPT_JSON },
		{ "plot", required_argument, NULL, BENCH_OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	struct hs_opts o = { .rounds = 15, .batch_ms = 20, .only = NULL };
	const struct hs_bench_op *op;
	unsigned long nops = 0, row = 0;
	int c, fails = 0;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (bench_opt_int(optarg, 1, MAX_ROUNDS, &o.rounds)) {
				bench_opt_bad("hs", lopts, c, optarg);
				return 2;
			}
			break;
		case 'b':
			if (bench_opt_double(optarg, 0.001, 60000, &o.batch_ms)) {
				bench_opt_bad("hs", lopts, c, optarg);
				return 2;
			}
			break;
		case 'o':
			o.only = optarg;
			break;
		default:
			if (bench_out_opt(&prim_out, c, optarg))
				break;
			bench_hs_usage();
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "tlsx-bench hs: unexpected argument '%s'\n",
			argv[optind]);
		bench_hs_usage();
		return 2;
	}
	if (bench_out_begin(&prim_out, "hs"))
		return 2;
	if (prim_out.plot)
		bench_plot_labels(prim_out.plot, "tlsx-bench hs: operations/s, median and min-max over rounds",
				  "", "operations/s", "", 4);
	for (i = 0; i < ARRAY_SIZE(tables); i++)
		for (op = tables[i]; op && op->name; op++)
			nops += !o.only || strstr(op->name, o.only);
	bench_progress_begin(&prim_prog, "hs", nops, o.rounds);
	printf("# tlsx-bench hs: TSC %.3f GHz, %s\n", bench_tsc_per_ns(),
	       OpenSSL_version(OPENSSL_VERSION));
	printf("# %d rounds of ~%.0f ms batches per side, alternating\n",
	       o.rounds, o.batch_ms);
	printf("# median [min-max] ns per operation; ratio: median of the\n");
	printf("# per-round ratios tlsx/OpenSSL; c/B: TSC cycles per byte\n");
	printf("%-28s %24s %9s %24s %9s %6s\n", "operation", "tlsx ns",
	       "op/s", "openssl ns", "op/s", "ratio");
	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		if (!tables[i])
			continue;
		for (op = tables[i]; op->name; op++) {
			if (o.only && !strstr(op->name, o.only))
				continue;
			bench_progress_row(&prim_prog, row++, op->name);
			if (run_op(op, &o))
				fails++;
		}
	}
	bench_progress_end(&prim_prog);
	if (bench_out_end(&prim_out))
		fails++;
	return fails ? 1 : 0;
}
