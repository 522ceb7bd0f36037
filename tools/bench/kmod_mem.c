// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_mem.c - memory a TLS ULP adds to a TCP socket once its TX and RX
 * keys are set: /proc/meminfo's Slab and MemFree, read with N connected
 * pairs open before and after the keys are set on every socket, so TCP's
 * own memory is not counted; /proc/slabinfo names the caches that grew.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "../../selftests/tlsx_test.h"
#include "kmod.h"

#define MAX_CACHES	512

struct slab {
	char name[64];
	double bytes;
};

/* A line of /proc/meminfo, in bytes, or -1. */
static double read_meminfo(const char *key)
{
	char name[64];
	double kb, ret = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lf kB\n", name, &kb) == 2)
		if (!strncmp(name, key, strlen(key)) &&
		    name[strlen(key)] == ':')
			ret = kb * 1024;
	fclose(f);
	return ret;
}

/* Active bytes per slab cache, from /proc/slabinfo (root only). */
static int read_slabinfo(struct slab *s, int max)
{
	char line[512];
	unsigned long active, total, size;
	FILE *f = fopen("/proc/slabinfo", "r");
	int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%63s %lu %lu %lu", s[n].name, &active, &total,
			   &size) != 4)
			continue;
		s[n].bytes = (double)active * size;
		n++;
	}
	fclose(f);
	return n;
}

static void settle(void)
{
	/* Let RCU-freed objects and deferred frees drain. */
	usleep(300000);
	sync();
}

/* The three caches that grew most between @a and @b, per socket. */
static void top_growth(struct slab *a, int na, struct slab *b, int nb,
		       int socks, char *out, size_t len)
{
	double best[3] = { 0 };
	const char *name[3] = { 0 };
	size_t used = 0;
	int i, j, k;

	for (i = 0; i < nb; i++) {
		double d = b[i].bytes;

		for (j = 0; j < na; j++)
			if (!strcmp(a[j].name, b[i].name)) {
				d -= a[j].bytes;
				break;
			}
		for (k = 0; k < 3; k++)
			if (d > best[k]) {
				memmove(&best[k + 1], &best[k],
					(2 - k) * sizeof(best[0]));
				memmove(&name[k + 1], &name[k],
					(2 - k) * sizeof(name[0]));
				best[k] = d;
				name[k] = b[i].name;
				break;
			}
	}
	out[0] = 0;
	for (k = 0; k < 3 && name[k]; k++)
		used += snprintf(out + used, len - used, "%s%s %.0f",
				 k ? ", " : "", name[k], best[k] / socks);
}

int kmod_mem_measure(const char *ulp, const struct kmod_cipher *c,
		     int pairs, struct kmod_mem *m)
{
	static struct slab before[MAX_CACHES], after[MAX_CACHES];
	struct rlimit rl = { 4 * pairs + 64, 4 * pairs + 64 };
	double slab0, free0, slab1, free1;
	int *fd = calloc(2 * pairs, sizeof(int));
	int i, err = 0, nb, na, n = 0;

	if (!fd)
		return -ENOMEM;
	setrlimit(RLIMIT_NOFILE, &rl);
	for (n = 0; n < pairs; n++) {
		err = tcp_pair(&fd[2 * n], &fd[2 * n + 1]);
		if (err)
			goto out;
	}
	settle();
	nb = read_slabinfo(before, MAX_CACHES);
	slab0 = read_meminfo("Slab");
	free0 = read_meminfo("MemFree");
	for (i = 0; i < 2 * pairs; i++) {
		err = kmod_set_keys(fd[i], ulp, c, 1, 1);
		if (err)
			goto out;
	}
	settle();
	slab1 = read_meminfo("Slab");
	free1 = read_meminfo("MemFree");
	na = read_slabinfo(after, MAX_CACHES);
	m->slab = (slab1 - slab0) / (2 * pairs);
	m->total = (free0 - free1) / (2 * pairs);
	top_growth(before, nb, after, na, 2 * pairs, m->top, sizeof(m->top));
out:
	for (i = 0; i < 2 * n; i++)
		close(fd[i]);
	free(fd);
	return err;
}
