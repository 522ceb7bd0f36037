/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - counters.  Each worker owns its array and bumps it without
 * atomics' ordering (relaxed stores, one writer); the main thread sums
 * the workers' arrays for SIGUSR1 and at exit.
 */
#ifndef TLSXD_STATS_H
#define TLSXD_STATS_H

#include <stdint.h>
#include <stdio.h>

/*
 * The counters; stats.c names each (stats_names[]: "conn_accepted",
 * "status_404", "timeout_header", ...).  CONN_ACTIVE, FC_ENTRIES and
 * FC_ORPHANS are gauges.
 */
enum stat_id {
	STAT_CONN_ACCEPTED,
	STAT_CONN_REFUSED_MAX,
	STAT_CONN_ACTIVE,
	STAT_HS_DONE,
	STAT_HS_FAILED,
	STAT_RL_TLSX,
	STAT_RL_TLS,
	STAT_RL_USER,
	STAT_REQUESTS,
	STAT_BYTES_BODY,
	STAT_S_2XX,
	STAT_S_304,
	STAT_S_3XX,
	STAT_S_400,
	STAT_S_403,
	STAT_S_404,
	STAT_S_405,
	STAT_S_408,
	STAT_S_412,
	STAT_S_413,
	STAT_S_414,
	STAT_S_416,
	STAT_S_417,
	STAT_S_431,
	STAT_S_5XX,
	STAT_TO_HANDSHAKE,
	STAT_TO_HEADER,
	STAT_TO_IDLE,
	STAT_TO_SEND,
	STAT_CLIENT_RESET,
	STAT_TLS_OWED_WAIT,	/* POLLOUT for a KeyUpdate reply owed */
	STAT_BODY_SENDFILE,
	STAT_BODY_SPLICE,
	STAT_BODY_USER,
	/* The open-file cache (fcache.h), mirrored from struct fcache_stats. */
	STAT_FC_HITS,
	STAT_FC_MISSES,
	STAT_FC_STALE,
	STAT_FC_EVICTIONS,
	STAT_FC_UNCACHED,
	STAT_FC_ENTRIES,	/* a gauge */
	STAT_FC_ORPHANS,	/* a gauge */
	STAT_FC_NEG_HITS,	/* a failing openat2 saved */
	STAT_FC_NEG_STORED,
	STAT_FC_NEG_STALE,
	/* Sending keys (RFC 8446 5.5), conn_kernel.c. */
	STAT_KEY_UPDATES,	/* KeyUpdates sent, by closed connections */
	STAT_KEY_LIMIT_CLOSE,	/* tls: keep-alive ended before the limit */
	STAT_KEY_LIMIT_CUT,	/* tls: a response cut short at the limit */
	/* A fleet (docs/tlsxd.md, "Running a fleet"). */
	STAT_HS_RESUMED,	/* of hs_done: a ticket opened (PSK) */
	STAT_PROXY_V1,		/* PROXY headers taken, by version */
	STAT_PROXY_V2,
	STAT_PROXY_LOCAL,	/* of those: the connection's own endpoints */
	STAT_PROXY_BAD,		/* invalid or missing: closed */
	STAT_BYTES_SENDFILE,	/* file bytes sent by sendfile(2) */
	STAT_BYTES_SPLICE,	/* file bytes sent by IORING_OP_SPLICE */
	/* HTTP/2 (docs/http2.md), h2/h2_conn.c's counts and conn_h2.c's. */
	STAT_H2_CONNS,		/* connections that chose h2 */
	STAT_H2_STREAMS,	/* streams taken */
	STAT_H2_RST_PEER,	/* RST_STREAM received */
	STAT_H2_RST_SENT,	/* RST_STREAM sent */
	STAT_H2_REFUSED,	/* over MAX_CONCURRENT_STREAMS */
	STAT_H2_RAPID_RESET,	/* limits hit, each a GOAWAY or 431 */
	STAT_H2_BLOCK_LIMIT,
	STAT_H2_LIST_LIMIT,
	STAT_H2_FLOOD,
	STAT_H2_OWED,
	STAT_H2_SEND_TIMEOUT,	/* closed by the send timeout */
	STAT_H2_DATA_BYTES,	/* DATA payload of ended streams */
	/* GOAWAYs sent, in RFC 9113 7's order of codes. */
	STAT_H2_GOAWAY_NO_ERROR,
	STAT_H2_GOAWAY_PROTOCOL_ERROR,
	STAT_H2_GOAWAY_INTERNAL_ERROR,
	STAT_H2_GOAWAY_FLOW_CONTROL_ERROR,
	STAT_H2_GOAWAY_SETTINGS_TIMEOUT,
	STAT_H2_GOAWAY_STREAM_CLOSED,
	STAT_H2_GOAWAY_FRAME_SIZE_ERROR,
	STAT_H2_GOAWAY_REFUSED_STREAM,
	STAT_H2_GOAWAY_CANCEL,
	STAT_H2_GOAWAY_COMPRESSION_ERROR,
	STAT_H2_GOAWAY_CONNECT_ERROR,
	STAT_H2_GOAWAY_ENHANCE_YOUR_CALM,
	STAT_H2_GOAWAY_INADEQUATE_SECURITY,
	STAT_H2_GOAWAY_HTTP_1_1_REQUIRED,
	STAT_COUNT
};

/* Failed handshakes by alert (0..255), and STATS_ALERT_NONE without one. */
#define STATS_ALERT_NONE	256
#define STATS_ALERTS		257

struct stats {
	uint64_t v[STAT_COUNT];
	uint64_t hs_alert[STATS_ALERTS];
};

static inline void stats_add(struct stats *s, enum stat_id id, int64_t n)
{
	__atomic_store_n(&s->v[id], s->v[id] + (uint64_t)n, __ATOMIC_RELAXED);
}

/* A failed handshake's alert (tlsx_conn_alert(): -1 for none). */
static inline void stats_alert(struct stats *s, int alert)
{
	unsigned int i = alert >= 0 && alert < 256 ? (unsigned int)alert :
			 STATS_ALERT_NONE;

	__atomic_store_n(&s->hs_alert[i], s->hs_alert[i] + 1,
			 __ATOMIC_RELAXED);
}

/* The counter for an HTTP status (S_2XX for 200/206, ...). */
enum stat_id stats_status_id(int status);

/* Sums @n arrays into @out. */
void stats_sum(const struct stats *const *in, unsigned int n,
	       struct stats *out);

/* "name value" lines, one per counter. */
void stats_print(FILE *f, const struct stats *s);

extern const char *const stats_names[STAT_COUNT];

#endif
