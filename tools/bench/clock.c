// SPDX-License-Identifier: GPL-2.0
/*
 * clock.c - time for the benchmarks.  The TSC gives cheap, fine-grained
 * timestamps; its rate is calibrated against CLOCK_MONOTONIC_RAW (not
 * slewed by NTP) so results can be given in nanoseconds, and it is what
 * "TSC cycles per byte" counts: reference cycles at the TSC's constant
 * rate, not the core's actual clock.
 */
#include <time.h>

#include "bench.h"

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One window: TSC ticks over ~@window_ns of CLOCK_MONOTONIC_RAW. */
static double tsc_window(uint64_t window_ns)
{
	uint64_t t0, t1, c0, c1;

	t0 = bench_now_ns();
	c0 = bench_rdtsc();
	do {
		t1 = bench_now_ns();
	} while (t1 - t0 < window_ns);
	c1 = bench_rdtsc();
	t1 = bench_now_ns();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

double bench_tsc_per_ns(void)
{
	static double rate;
	double r[5];
	int i;

	if (rate > 0)
		return rate;
	for (i = 0; i < 5; i++)
		r[i] = tsc_window(20000000);
	/* The median window: robust to one preempted window. */
	rate = bench_summarize(r, 5).median;
	return rate;
}
