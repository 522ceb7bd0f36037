// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - what every subcommand writes beside its table: the options
 * --json FILE and --plot FILE.svg, the rows into the JSON record
 * (json.c) and the points into the figure (plot.c), and the record
 * sizes of --sweep.  A subcommand puts "json" and "plot"
 * (BENCH_OPT_JSON, BENCH_OPT_PLOT) in its option table, passes the
 * values it does not know to bench_out_opt(), calls
 * bench_out_begin() before it measures (a file that cannot be written
 * fails then, not after the run) and bench_out_end() at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * --sweep's record sizes: the two ends of what a TLS record carries
 * (RFC 8446 5.1: at most 2^14 bytes of plaintext) and the powers of 4
 * between.
 */
static const size_t sweep_sizes[] = { 64, 256, 1024, 4096, 16384 };

const size_t *bench_sweep_sizes(size_t *n)
{
	*n = ARRAY_SIZE(sweep_sizes);
	return sweep_sizes;
}

bool bench_out_opt(struct bench_out *o, int c, const char *arg)
{
	switch (c) {
	case BENCH_OPT_JSON:
		o->json_path = arg;
		return true;
	case BENCH_OPT_PLOT:
		o->plot_path = arg;
		return true;
	}
	return false;
}

int bench_out_begin(struct bench_out *o, const char *mode)
{
	o->mode = mode;
	o->rows = 0;
	if (o->plot_path) {
		o->plot = bench_plot_new(o->plot_path);
		if (!o->plot)
			return -1;
	}
	if (o->json_path) {
		o->json = bench_json_open(o->json_path, mode);
		if (!o->json) {
			fprintf(stderr, "tlsx-bench %s: --json %s: ", mode,
				o->json_path);
			perror(NULL);
			bench_plot_free(o->plot);
			o->plot = NULL;
			return -1;
		}
	}
	return 0;
}

void bench_out_row(struct bench_out *o, const struct bench_field *f,
		   size_t n)
{
	if (o->json)
		bench_json_row(o->json, f, n, o->rows);
	o->rows++;
}

/* "tlsx-bench crypto --sweep; commit X; AMD ... (family 26 model 2); ..." */
static void made_by(char *buf, size_t len)
{
	struct bench_machine m;
	size_t off = 0;
	char **argv;
	int argc, i;

	bench_machine_read(&m);
	argc = bench_cmdline(&argv);
	for (i = 0; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "",
				argv[i]);
	if (off < len)
		snprintf(buf + off, len - off,
			 "; commit %s; %s (family %s model %s, %d CPUs, load %.2f); kernel %s; %s",
			 m.commit, m.model_name, m.family, m.model, m.cpus,
			 m.load[0], m.kernel, m.date);
	/* One comment line in the gnuplot script. */
	for (off = 0; buf[off]; off++)
		if (buf[off] == '\n')
			buf[off] = ' ';
}

int bench_out_end(struct bench_out *o)
{
	char by[1024];
	int ret = 0;

	if (o->json && bench_json_close(o->json, o->rows)) {
		fprintf(stderr, "tlsx-bench %s: writing %s failed\n", o->mode,
			o->json_path);
		ret = -1;
	}
	o->json = NULL;
	if (o->plot) {
		made_by(by, sizeof(by));
		if (bench_plot_write(o->plot, by))
			ret = -1;
		bench_plot_free(o->plot);
		o->plot = NULL;
	}
	return ret;
}
