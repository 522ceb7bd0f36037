/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench.h - what the parts of tlsx-bench share: the subcommand table
 * entry, the clock (TSC calibrated against CLOCK_MONOTONIC_RAW) and
 * summary statistics of repeated measurements.
 */
#ifndef TLSX_BENCH_H
#define TLSX_BENCH_H

#include <stddef.h>
#include <stdint.h>

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

#endif /* TLSX_BENCH_H */
