// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the counters' names, the status -> counter map, and the sum
 * of the workers' arrays.  Each array has one writer (its worker); the
 * reader here loads each counter relaxed: a sum is a snapshot of
 * counters, not of one instant, which is all SIGUSR1 promises.
 */
#include "stats.h"

const char *const stats_names[STAT_COUNT] = {
	[STAT_CONN_ACCEPTED]	= "conn_accepted",
	[STAT_CONN_REFUSED_MAX]	= "conn_refused_max",
	[STAT_CONN_ACTIVE]	= "conn_active",
	[STAT_HS_DONE]		= "hs_done",
	[STAT_HS_FAILED]	= "hs_failed",
	[STAT_RL_TLSX]		= "rl_tlsx",
	[STAT_RL_TLS]		= "rl_tls",
	[STAT_RL_USER]		= "rl_user",
	[STAT_REQUESTS]		= "requests",
	[STAT_BYTES_BODY]	= "bytes_body",
	[STAT_S_2XX]		= "status_2xx",
	[STAT_S_304]		= "status_304",
	[STAT_S_3XX]		= "status_3xx",
	[STAT_S_400]		= "status_400",
	[STAT_S_403]		= "status_403",
	[STAT_S_404]		= "status_404",
	[STAT_S_405]		= "status_405",
	[STAT_S_408]		= "status_408",
	[STAT_S_412]		= "status_412",
	[STAT_S_413]		= "status_413",
	[STAT_S_414]		= "status_414",
	[STAT_S_416]		= "status_416",
	[STAT_S_417]		= "status_417",
	[STAT_S_431]		= "status_431",
	[STAT_S_5XX]		= "status_5xx",
	[STAT_TO_HANDSHAKE]	= "timeout_handshake",
	[STAT_TO_HEADER]	= "timeout_header",
	[STAT_TO_IDLE]		= "timeout_idle",
	[STAT_TO_SEND]		= "timeout_send",
	[STAT_CLIENT_RESET]	= "client_reset",
	[STAT_TLS_OWED_WAIT]	= "tls_owed_wait",
	[STAT_BODY_SENDFILE]	= "body_sendfile",
	[STAT_BODY_SPLICE]	= "body_splice",
	[STAT_BODY_USER]	= "body_user",
	[STAT_FC_HITS]		= "fcache_hits",
	[STAT_FC_MISSES]	= "fcache_misses",
	[STAT_FC_STALE]		= "fcache_stale",
	[STAT_FC_EVICTIONS]	= "fcache_evictions",
	[STAT_FC_UNCACHED]	= "fcache_uncached",
	[STAT_FC_ENTRIES]	= "fcache_entries",
	[STAT_FC_ORPHANS]	= "fcache_orphans",
	[STAT_FC_NEG_HITS]	= "fcache_neg_hits",
	[STAT_FC_NEG_STORED]	= "fcache_neg_stored",
	[STAT_FC_NEG_STALE]	= "fcache_neg_stale",
	[STAT_KEY_UPDATES]	= "key_updates_sent",
	[STAT_KEY_LIMIT_CLOSE]	= "key_limit_close",
	[STAT_KEY_LIMIT_CUT]	= "key_limit_cut",
	[STAT_HS_RESUMED]	= "hs_resumed",
	[STAT_PROXY_V1]		= "proxy_v1",
	[STAT_PROXY_V2]		= "proxy_v2",
	[STAT_PROXY_LOCAL]	= "proxy_local",
	[STAT_PROXY_BAD]	= "proxy_bad",
	[STAT_BYTES_SENDFILE]	= "bytes_sendfile",
	[STAT_BYTES_SPLICE]	= "bytes_splice",
	[STAT_H2_CONNS]		= "h2_conns",
	[STAT_H2_STREAMS]	= "h2_streams",
	[STAT_H2_RST_PEER]	= "h2_rst_by_peer",
	[STAT_H2_RST_SENT]	= "h2_rst_sent",
	[STAT_H2_REFUSED]	= "h2_refused_streams",
	[STAT_H2_RAPID_RESET]	= "h2_limit_rapid_reset",
	[STAT_H2_BLOCK_LIMIT]	= "h2_limit_header_block",
	[STAT_H2_LIST_LIMIT]	= "h2_limit_header_list",
	[STAT_H2_FLOOD]		= "h2_limit_flood",
	[STAT_H2_OWED]		= "h2_limit_owed_frames",
	[STAT_H2_SEND_TIMEOUT]	= "h2_send_timeout",
	[STAT_H2_DATA_BYTES]	= "h2_data_bytes",
	[STAT_H2_GOAWAY_NO_ERROR]	= "h2_goaway_no_error",
	[STAT_H2_GOAWAY_PROTOCOL_ERROR]	= "h2_goaway_protocol_error",
	[STAT_H2_GOAWAY_INTERNAL_ERROR]	= "h2_goaway_internal_error",
	[STAT_H2_GOAWAY_FLOW_CONTROL_ERROR]	= "h2_goaway_flow_control_error",
	[STAT_H2_GOAWAY_SETTINGS_TIMEOUT]	= "h2_goaway_settings_timeout",
	[STAT_H2_GOAWAY_STREAM_CLOSED]	= "h2_goaway_stream_closed",
	[STAT_H2_GOAWAY_FRAME_SIZE_ERROR]	= "h2_goaway_frame_size_error",
	[STAT_H2_GOAWAY_REFUSED_STREAM]	= "h2_goaway_refused_stream",
	[STAT_H2_GOAWAY_CANCEL]	= "h2_goaway_cancel",
	[STAT_H2_GOAWAY_COMPRESSION_ERROR]	= "h2_goaway_compression_error",
	[STAT_H2_GOAWAY_CONNECT_ERROR]	= "h2_goaway_connect_error",
	[STAT_H2_GOAWAY_ENHANCE_YOUR_CALM]	= "h2_goaway_enhance_your_calm",
	[STAT_H2_GOAWAY_INADEQUATE_SECURITY]	= "h2_goaway_inadequate_security",
	[STAT_H2_GOAWAY_HTTP_1_1_REQUIRED]	= "h2_goaway_http_1_1_required",
};

/*
 * Statuses tlsxd never sends still land somewhere: a 1xx with the 2xx
 * (tlsxd's only one is 100 Continue, which precedes a final status), an
 * unlisted 4xx with the 400s, and anything else with the 5xx.
 */
enum stat_id stats_status_id(int status)
{
	switch (status) {
	case 304:
		return STAT_S_304;
	case 403:
		return STAT_S_403;
	case 404:
		return STAT_S_404;
	case 405:
		return STAT_S_405;
	case 408:
		return STAT_S_408;
	case 412:
		return STAT_S_412;
	case 413:
		return STAT_S_413;
	case 414:
		return STAT_S_414;
	case 416:
		return STAT_S_416;
	case 417:
		return STAT_S_417;
	case 431:
		return STAT_S_431;
	}
	if (status >= 100 && status < 300)
		return STAT_S_2XX;
	if (status >= 300 && status < 400)
		return STAT_S_3XX;
	if (status >= 400 && status < 500)
		return STAT_S_400;
	return STAT_S_5XX;
}

void stats_sum(const struct stats *const *in, unsigned int n,
	       struct stats *out)
{
	unsigned int i, j;

	for (j = 0; j < STAT_COUNT; j++)
		out->v[j] = 0;
	for (j = 0; j < STATS_ALERTS; j++)
		out->hs_alert[j] = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < STAT_COUNT; j++)
			out->v[j] += __atomic_load_n(&in[i]->v[j],
						     __ATOMIC_RELAXED);
		for (j = 0; j < STATS_ALERTS; j++)
			out->hs_alert[j] += __atomic_load_n(&in[i]->hs_alert[j],
							    __ATOMIC_RELAXED);
	}
}

void stats_print(FILE *f, const struct stats *s)
{
	unsigned int j;

	for (j = 0; j < STAT_COUNT; j++)
		fprintf(f, "%s %llu\n", stats_names[j],
			(unsigned long long)s->v[j]);
}
