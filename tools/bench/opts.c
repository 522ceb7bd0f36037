// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - the option values tlsx-bench's subcommands take: numbers
 * parsed whole (strtoul/strtod to the end of the argument, in range),
 * --cpu's pinning, and an error that names the option and the value it
 * refused.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

int bench_opt_uint(const char *arg, unsigned long lo, unsigned long hi,
		   unsigned long *v)
{
	unsigned long x;
	char *end;

	/* strtoul() accepts "-1" as ULONG_MAX: no sign here. */
	if (!*arg || *arg == '-' || *arg == '+')
		return -1;
	errno = 0;
	x = strtoul(arg, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return -1;
	*v = x;
	return 0;
}

int bench_opt_int(const char *arg, int lo, int hi, int *v)
{
	unsigned long x;

	if (lo < 0 || bench_opt_uint(arg, (unsigned long)lo,
				     (unsigned long)hi, &x))
		return -1;
	*v = (int)x;
	return 0;
}

int bench_opt_pin_cpu(const char *arg)
{
	cpu_set_t set;
	int cpu;

	if (bench_opt_int(arg, 0, CPU_SETSIZE - 1, &cpu))
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return -2;
	}
	return 0;
}

int bench_opt_double(const char *arg, double lo, double hi, double *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(arg, &end);
	/* !(x >= lo) also refuses a NaN. */
	if (!*arg || errno || *end || !(x >= lo) || x > hi)
		return -1;
	*v = x;
	return 0;
}

void bench_opt_bad(const char *cmd, const struct option *lopts, int val,
		   const char *arg)
{
	const char *name = "?";

	for (; lopts->name; lopts++)
		if (lopts->val == val)
			name = lopts->name;
	fprintf(stderr, "tlsx-bench %s: bad value '%s' for --%s\n", cmd, arg,
		name);
}
