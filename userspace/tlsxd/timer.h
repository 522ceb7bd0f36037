/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timer.h - a worker's connection timeouts: one intrusive list per kind
 * of timeout (handshake, header, idle, send).  Every entry of a list
 * has the same timeout added to the time it was (re)armed, and time only
 * moves forward, so appending at the tail keeps each list ordered by
 * deadline: arming, re-arming and disarming are O(1), and a tick takes
 * the expired entries from the heads, O(expired).  No allocation.
 */
#ifndef TLSXD_TIMER_H
#define TLSXD_TIMER_H

#include <stdbool.h>
#include <stdint.h>

enum timer_kind {
	TIMER_HANDSHAKE,
	TIMER_HEADER,
	TIMER_IDLE,
	TIMER_SEND,
	TIMER_LINGER,	/* after the last response: the client's rest */
	TIMER_H2_SETTINGS,	/* our HTTP/2 SETTINGS unacknowledged (conn_h2.c) */
	TIMER_KINDS
};

/* Embedded in what times out (struct conn); zeroed means disarmed. */
struct timer_node {
	struct timer_node *prev, *next;
	uint64_t deadline;	/* ms, the monotonic clock */
	int kind;		/* enum timer_kind, or -1 when disarmed */
};

struct timer_list {
	struct timer_node head;	/* a ring: head.next is the earliest */
	uint64_t timeout_ms;
};

struct timers {
	struct timer_list l[TIMER_KINDS];
};

/* Empty lists; @timeout_ms[k] the timeout of kind k. */
void timers_init(struct timers *t, const unsigned int timeout_ms[TIMER_KINDS]);

void timer_node_init(struct timer_node *n);

static inline bool timer_armed(const struct timer_node *n)
{
	return n->kind >= 0;
}

/*
 * Arms @n (disarming it first if needed) to expire at @now + the
 * timeout of @kind.  @now must not go backwards between calls.
 */
void timer_arm(struct timers *t, struct timer_node *n, enum timer_kind kind,
	       uint64_t now);

void timer_disarm(struct timer_node *n);

/*
 * The earliest node of @kind whose deadline is <= @now, disarmed, or
 * NULL: call until NULL at each tick.
 */
struct timer_node *timer_expired(struct timers *t, enum timer_kind kind,
				 uint64_t now);

#endif
