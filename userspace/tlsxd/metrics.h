/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - the counters (stats.h) as a Prometheus text-format page
 * (exposition format 0.0.4) on a plain-HTTP listener of its own
 * (--metrics ADDR:PORT), served by a thread that only reads the
 * workers' counters (relaxed loads, no lock: a worker never waits for
 * it).  docs/tlsxd.md, "Running a fleet", lists the metrics.
 */
#ifndef TLSXD_METRICS_H
#define TLSXD_METRICS_H

#include <stdint.h>
#include <stdio.h>

#include "stats.h"

struct server;

/* What the page shows beside the workers' counters. */
struct metrics_extra {
	const char *record_layer;	/* the layer probed at start */
	uint64_t alog_lost;		/* access log lines lost */
};

/*
 * The page for @n workers' arrays @w (each worker's own: the sums are
 * made here), HELP and TYPE lines first for each metric.
 */
void metrics_write(FILE *f, const struct stats *const *w, unsigned int n,
		   const struct metrics_extra *x);

/*
 * Binds and listens on @addr ("127.0.0.1:9100"): before privileges are
 * dropped.  The socket, or -1 with a message in @err.
 */
int metrics_listen(const char *addr, char *err, size_t errlen);

/*
 * Serves GET /metrics on @fd from a thread of its own, reading @srv's
 * workers; one request per connection, each bounded by a 2 s timeout.
 * 0, or -errno.
 */
int metrics_start(struct server *srv, int fd, const char *record_layer);

/* Stops the thread and closes its socket (at exit). */
void metrics_stop(void);

#endif
