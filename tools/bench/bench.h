/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what the parts of tlsx-bench share: the subcommand table
 * entry, the clock (TSC calibrated against CLOCK_MONOTONIC_RAW) and
 * summary statistics of repeated measurements.
 */
#ifndef TLSX_BENCH_H
#define TLSX_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One subcommand: "tlsx-bench NAME [ARGS]" runs fn(argc, argv). */
struct bench_cmd {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
	void (*usage)(void);
};

/*
 * Option values (opts.c): 0 when @arg is a whole number (or, for
 * bench_opt_double(), a decimal) from @lo to @hi, stored in *@v; -1
 * otherwise, *@v untouched.
 */
int bench_opt_uint(const char *arg, unsigned long lo, unsigned long hi,
		   unsigned long *v);
int bench_opt_int(const char *arg, int lo, int hi, int *v);
int bench_opt_double(const char *arg, double lo, double hi, double *v);
/*
 * --cpu N: pin the calling thread to CPU @arg.  Returns 0; -1 when @arg
 * is not a CPU number (the caller reports it as a bad value), -2 when
 * the kernel refused (reported here).
 */
int bench_opt_pin_cpu(const char *arg);
struct option;
/*
 * "tlsx-bench CMD: bad value 'ARG' for --NAME" on stderr, NAME the entry
 * of @lopts whose val is @val.
 */
void bench_opt_bad(const char *cmd, const struct option *lopts, int val,
		   const char *arg);

/* Subcommands (one file each). */
int bench_crypto(int argc, char **argv);
void bench_crypto_usage(void);
int bench_kmod(int argc, char **argv);
void bench_kmod_usage(void);
int bench_hs(int argc, char **argv);
void bench_hs_usage(void);
int bench_handshake(int argc, char **argv);
void bench_handshake_usage(void);
int bench_http(int argc, char **argv);
void bench_http_usage(void);
int bench_uarch(int argc, char **argv);
void bench_uarch_usage(void);

/* --- clock ----------------------------------------------------------- */

static inline uint64_t bench_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) : :
			     "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Nanoseconds of CLOCK_MONOTONIC_RAW. */
uint64_t bench_now_ns(void);

/*
 * TSC ticks per nanosecond, measured once against CLOCK_MONOTONIC_RAW
 * (the best of a few 20 ms windows).
 */
double bench_tsc_per_ns(void);

/* --- statistics -------------------------------------------------------- */

struct bench_stats {
	double median;
	double min;
	double max;
};

/* Summary of @n samples (sorted in place). */
struct bench_stats bench_summarize(double *samples, size_t n);

/* --- the run's record: machine (machine.c), JSON (json.c) ----------- */

struct bench_machine {
	char model_name[128];	/* lscpu "Model name" */
	char family[16];	/* lscpu "CPU family" */
	char model[16];		/* lscpu "Model" */
	int cpus;
	char kernel[65];	/* uname -r */
	char commit[64];	/* git describe of the build */
	char date[32];		/* UTC, ISO 8601 */
	double load[3];		/* /proc/loadavg */
};

void bench_machine_read(struct bench_machine *m);
/* main() keeps the whole command line for the record. */
void bench_set_cmdline(int argc, char **argv);
int bench_cmdline(char ***argv);

/* One field of a row: a string if @str, else the number @num. */
struct bench_field {
	const char *key;
	const char *str;
	double num;
};

#define BF_STR(k, v)	((struct bench_field){ (k), (v), 0 })
#define BF_NUM(k, v)	((struct bench_field){ (k), NULL, (v) })

FILE *bench_json_open(const char *path, const char *mode);
void bench_json_row(FILE *f, const struct bench_field *fields, size_t n,
		    unsigned long index);
int bench_json_close(FILE *f, unsigned long rows);

/* --- the figure (plot.c) ---------------------------------------------- */

struct bench_plot;

/* NULL (with a message) unless @path ends in .svg or .png. */
struct bench_plot *bench_plot_new(const char *path);
void bench_plot_free(struct bench_plot *p);
void bench_plot_labels(struct bench_plot *p, const char *title,
		       const char *xlabel, const char *ylabel,
		       const char *y2label, int cols);
/*
 * A point of line @series in sweep panel @panel.  @axis 1: an
 * implementation; BENCH_PLOT_ANCHOR: what they are compared with (one
 * point per x: the first given); 2: a ratio, drawn against the right axis
 * in the colour of the line its name starts with ("avx2/OpenSSL").
 */
#define BENCH_PLOT_ANCHOR	3
void bench_plot_point(struct bench_plot *p, const char *panel,
		      const char *series, int axis, double x, double y);
/* Bar @series of bar panel @panel: median @y, range @lo-@hi. */
void bench_plot_bar(struct bench_plot *p, const char *panel,
		    const char *series, double y, double lo, double hi);
/* Write FILE.gp beside FILE.svg and run gnuplot; 0 or -1. */
int bench_plot_write(struct bench_plot *p, const char *made_by);

/* --- --json, --plot and --sweep, for every subcommand (out.c) -------- */

/*
 * The getopt_long() values of --json FILE and --plot FILE (each
 * subcommand's table has both, required_argument) and --sweep.
 */
enum {
	BENCH_OPT_JSON = 0x1001,
	BENCH_OPT_PLOT,
	BENCH_OPT_SWEEP,
};

#define BENCH_OUT_USAGE \
	"  --json FILE  every row, with machine, kernel, commit, date and\n" \
	"               command line, as one JSON document\n" \
	"  --plot FILE  the figure, FILE.svg or FILE.png, by gnuplot (the\n" \
	"               script beside it, FILE.gp)\n"

struct bench_out {
	const char *mode;
	const char *json_path;
	const char *plot_path;
	FILE *json;
	struct bench_plot *plot;	/* NULL without --plot */
	unsigned long rows;
};

/* Takes --json and --plot (true), or leaves option @c (false). */
bool bench_out_opt(struct bench_out *o, int c, const char *arg);
int bench_out_begin(struct bench_out *o, const char *mode);
void bench_out_row(struct bench_out *o, const struct bench_field *f,
		   size_t n);
/* Close the JSON, draw the plot: 0, or -1 when either failed. */
int bench_out_end(struct bench_out *o);

/* --sweep's record sizes, smallest first. */
const size_t *bench_sweep_sizes(size_t *n);

/* --- progress on stderr (progress.c) ------------------------------- */

struct bench_progress {
	const char *what;
	unsigned long rows, rounds;
	unsigned long row, round, done_rounds;
	unsigned long printed;		/* done_rounds at the last plain line */
	char label[64];
	bool tty, shown;
	uint64_t t0, last;
};

/* A run of @rows rows of @rounds rounds each. */
void bench_progress_begin(struct bench_progress *p, const char *what,
			  unsigned long rows, unsigned long rounds);
void bench_progress_row(struct bench_progress *p, unsigned long row,
			const char *label);
/* Round @round (from 0) of the current row is done. */
void bench_progress_round(struct bench_progress *p, unsigned long round);
void bench_progress_row_done(struct bench_progress *p);
void bench_progress_end(struct bench_progress *p);

#endif /* TLSX_BENCH_H */
