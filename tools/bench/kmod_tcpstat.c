// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_tcpstat.c - the TCP counters of /proc/net/netstat (TcpExt) that
 * moved during each ULP's transfers, for "tlsx-bench kmod --tcpstat".
 *
 * A throughput gap between two record layers on the same TCP is often
 * TCP reacting differently to them: a window that closes, a backlog
 * that overflows, a queue that is pruned.  Counting those events per
 * ULP over the same transfers says which.  The counters are system-wide,
 * so this is meant for a quiet guest where the benchmark is alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmod.h"

#define TCPSTAT_LINE	8192
/* Separators of /proc/net/netstat fields: a space, or the line end. */
#define TCPSTAT_SEP	"\n "

/* Read the TcpExt names and values; returns how many, or -errno. */
static int tcpstat_read(char names[][KMOD_TCPSTAT_NAME],
			unsigned long long *vals, int max)
{
	char *head = malloc(TCPSTAT_LINE), *vline = malloc(TCPSTAT_LINE);
	char *np, *vp, *ns, *vs;
	FILE *f = fopen("/proc/net/netstat", "r");
	int n = -ENOENT;

	if (!f || !head || !vline)
		goto out;
	while (fgets(head, TCPSTAT_LINE, f) &&
	       fgets(vline, TCPSTAT_LINE, f)) {
		if (strncmp(head, "TcpExt:", 7))
			continue;
		n = 0;
		np = strtok_r(head + 7, TCPSTAT_SEP, &ns);
		vp = strtok_r(vline + 7, TCPSTAT_SEP, &vs);
		while (np && vp && n < max) {
			snprintf(names[n], KMOD_TCPSTAT_NAME, "%s", np);
			vals[n++] = strtoull(vp, NULL, 10);
			np = strtok_r(NULL, TCPSTAT_SEP, &ns);
			vp = strtok_r(NULL, TCPSTAT_SEP, &vs);
		}
		break;
	}
out:
	if (f)
		fclose(f);
	free(head);
	free(vline);
	return n;
}

int kmod_tcpstat_begin(struct kmod_tcpstat *t)
{
	int n = tcpstat_read(t->names, t->start, KMOD_TCPSTAT_MAX);

	if (n < 0)
		return n;
	t->n = n;
	return 0;
}

void kmod_tcpstat_end(struct kmod_tcpstat *t, int ulp)
{
	static char names[KMOD_TCPSTAT_MAX][KMOD_TCPSTAT_NAME];
	unsigned long long now[KMOD_TCPSTAT_MAX];
	int i, n = tcpstat_read(names, now, KMOD_TCPSTAT_MAX);

	/* The kernel's list does not change between two reads. */
	for (i = 0; i < n && i < t->n; i++)
		t->delta[ulp][i] += now[i] - t->start[i];
}

void kmod_tcpstat_print(const struct kmod_tcpstat *t, const char *const *ulps)
{
	int i;

	printf("  TcpExt counters that moved, summed over the rounds:\n");
	printf("  %-28s %12s %12s\n", "", ulps[0], ulps[1]);
	for (i = 0; i < t->n; i++)
		if (t->delta[0][i] || t->delta[1][i])
			printf("  %-28s %12llu %12llu\n", t->names[i],
			       t->delta[0][i], t->delta[1][i]);
}
