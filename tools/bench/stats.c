// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the median and the spread of repeated measurements.  The
 * machine is shared: the median resists the rounds that another process
 * disturbed, and min/max show how noisy the run was.
 */
#include <stdlib.h>

#include "bench.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct bench_stats bench_summarize(double *samples, size_t n)
{
	struct bench_stats s = { 0, 0, 0 };

	if (!n)
		return s;
	qsort(samples, n, sizeof(*samples), cmp_double);
	s.min = samples[0];
	s.max = samples[n - 1];
	if (n % 2)
		s.median = samples[n / 2];
	else
		s.median = (samples[n / 2 - 1] + samples[n / 2]) / 2;
	return s;
}
