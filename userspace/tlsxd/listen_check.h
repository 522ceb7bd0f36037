/* SPDX-License-Identifier: GPL-2.0 */
/*
 * listen_check.h - is anything but us listening where we listen?
 *
 * server.c binds a trial socket without SO_REUSEPORT first: it fails
 * where any listener is.  Between that trial and the SO_REUSEPORT bind
 * another process of the same user could start listening and would
 * then share our port, taking part of the connections.  After all of
 * our listeners exist, one NETLINK_SOCK_DIAG dump of the TCP listeners
 * closes that window: a listener on our port whose address overlaps
 * ours and whose inode is not one of our sockets is someone else's.
 */
#ifndef TLSXD_LISTEN_CHECK_H
#define TLSXD_LISTEN_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

/*
 * What one listening socket takes: its IPv4 and its IPv6 side, each
 * none, any, or one address.  A v4-mapped IPv6 bind takes IPv4 only;
 * an IPv6 any address without IPV6_V6ONLY takes both.
 */
enum listen_side { LISTEN_NONE, LISTEN_ANY, LISTEN_ONE };

struct listen_span {
	unsigned short port;		/* host order */
	enum listen_side v4, v6;
	unsigned char a4[4], a6[16];
};

/* The span of a socket bound to @sa; @v6only for an AF_INET6 one. */
void listen_span_of(const struct sockaddr *sa, bool v6only,
		    struct listen_span *sp);

/* Whether a connection could reach both: same port, sides overlapping. */
bool listen_spans_overlap(const struct listen_span *a,
			  const struct listen_span *b);

/* A NETLINK_SOCK_DIAG socket for listen_check(); -1 with errno. */
int listen_check_open(void);

/*
 * listen_check() - dumps the TCP listeners of both families on @nl once
 * and looks for one overlapping any of @want[@nwant] whose inode is none
 * of @ours[@nours].  0: none; -1: one found, *@which the span it
 * overlaps, the listener described in @found ("HOST:PORT, uid N, inode
 * N"); 1: the dump could not be done, the reason in @found.
 */
int listen_check(int nl, const struct listen_span *want, unsigned int nwant,
		 const ino_t *ours, unsigned int nours, unsigned int *which,
		 char *found, size_t foundlen);

#endif
