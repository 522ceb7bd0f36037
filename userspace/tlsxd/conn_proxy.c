// SPDX-License-Identifier: GPL-2.0
/*
 * conn_proxy.c - a connection accepted on a "listen ADDR:PORT proxy"
 * listener: the PROXY protocol header (proxy_proto.c) is read before
 * the TLS handshake, and the client it names becomes the connection's
 * peer (the access log, the debug lines).
 *
 * No TLS byte may be taken with the header: the handshake reads its
 * records from the socket itself.  So each read peeks (MSG_PEEK) what
 * has arrived, the parser says how much of it is header, and exactly
 * that much is then consumed by a recv(2) of bytes already queued (it
 * cannot block).  A header split over several segments is kept in the
 * connection (hs_rec, unused until the handshake: at most PROXY_HDR_MAX
 * bytes) and the rest waited for with POLLIN; the handshake's timer,
 * armed at the accept, bounds the header and the handshake together.
 * Anything that is not a valid header, and a close before one is whole,
 * closes the connection (the spec's rule; counted proxy_bad); a header
 * naming no client (v2 LOCAL, as HAProxy's health checks send, v1
 * UNKNOWN) keeps the connection's own endpoints.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "conn_priv.h"
#include "proxy_proto.h"

void conn_proxy_start(struct loop *lp, struct conn *c)
{
	timer_arm(&lp->timers, &c->timer, TIMER_HANDSHAKE, lp->now_ms);
	c->proxy_wait = true;
	/* The header usually came with the connection: no poll first. */
	conn_proxy_read(lp, c);
}

static void proxy_refused(struct loop *lp, struct conn *c, const char *why)
{
	stats_add(lp->st, STAT_PROXY_BAD, 1);
	if (log_debug_enabled())
		log_msg(LOG_DEBUG, "conn %d: PROXY header refused: %s", c->fd,
			why);
	conn_close(lp, c, false);
}

/* The client the header names becomes the peer. */
static void proxy_taken(struct loop *lp, struct conn *c,
			const struct proxy_hdr *h)
{
	stats_add(lp->st, h->version == 1 ? STAT_PROXY_V1 : STAT_PROXY_V2, 1);
	if (h->local)
		stats_add(lp->st, STAT_PROXY_LOCAL, 1);
	else if (h->src.ss_family == AF_INET)
		memcpy(&c->peer.v4, &h->src, sizeof(c->peer.v4));
	else
		memcpy(&c->peer.v6, &h->src, sizeof(c->peer.v6));
	if (log_debug_enabled()) {
		char a[INET6_ADDRSTRLEN] = "-";
		const void *addr = c->peer.sa.sa_family == AF_INET6 ?
				   (const void *)&c->peer.v6.sin6_addr :
				   (const void *)&c->peer.v4.sin_addr;
		unsigned int port = ntohs(c->peer.sa.sa_family == AF_INET6 ?
					  c->peer.v6.sin6_port :
					  c->peer.v4.sin_port);

		if (c->peer.sa.sa_family != AF_UNSPEC)
			inet_ntop(c->peer.sa.sa_family, addr, a, sizeof(a));
		log_msg(LOG_DEBUG, "conn %d: PROXY v%u%s client %s port %u",
			c->fd, h->version, h->local ? " (local)" : "", a,
			port);
	}
}

void conn_proxy_read(struct loop *lp, struct conn *c)
{
	uint8_t buf[PROXY_HDR_MAX];
	size_t have = c->hs_rec_len, take;
	struct proxy_hdr h;
	ssize_t n;
	long r;

	if (have)
		memcpy(buf, c->hs_rec, have);
	n = recv(c->fd, buf + have, sizeof(buf) - have,
		 MSG_PEEK | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		conn_poll(lp, c, false);
		return;
	}
	if (n <= 0) {
		if (n < 0 && conn_is_reset(errno))
			stats_add(lp->st, STAT_CLIENT_RESET, 1);
		proxy_refused(lp, c, n ? strerror(errno) :
			      "closed before a whole header");
		return;
	}
	r = proxy_parse(buf, have + (size_t)n, &h);
	if (r < 0) {
		proxy_refused(lp, c, proxy_strerror(r));
		return;
	}
	/* What is header of the bytes peeked: all of them while r is 0. */
	take = r ? (size_t)r - have : (size_t)n;
	if (recv(c->fd, buf + have, take, MSG_DONTWAIT) != (ssize_t)take) {
		proxy_refused(lp, c, "queued bytes not read back");
		return;
	}
	if (!r) {
		if (!c->hs_rec) {
			c->hs_rec = malloc(PROXY_HDR_MAX);
			if (!c->hs_rec) {
				conn_close(lp, c, false);
				return;
			}
		}
		memcpy(c->hs_rec + have, buf + have, take);
		c->hs_rec_len = (uint32_t)(have + take);
		conn_poll(lp, c, false);
		return;
	}
	free(c->hs_rec);
	c->hs_rec = NULL;
	c->hs_rec_len = 0;
	c->proxy_wait = false;
	proxy_taken(lp, c, &h);
	conn_hs_start(lp, c, true);
}
