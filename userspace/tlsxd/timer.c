// SPDX-License-Identifier: GPL-2.0
/*
 * timer.c - the per-kind deadline lists (timer.h).  A list is a ring
 * through its head; a disarmed node points nowhere and has kind -1.
 */
#include <stddef.h>

#include "timer.h"

void timers_init(struct timers *t, const unsigned int timeout_ms[TIMER_KINDS])
{
	int k;

	for (k = 0; k < TIMER_KINDS; k++) {
		t->l[k].head.prev = &t->l[k].head;
		t->l[k].head.next = &t->l[k].head;
		t->l[k].head.kind = k;
		t->l[k].head.deadline = 0;
		t->l[k].timeout_ms = timeout_ms[k];
	}
}

void timer_node_init(struct timer_node *n)
{
	n->prev = NULL;
	n->next = NULL;
	n->deadline = 0;
	n->kind = -1;
}

void timer_disarm(struct timer_node *n)
{
	if (!timer_armed(n))
		return;
	n->prev->next = n->next;
	n->next->prev = n->prev;
	timer_node_init(n);
}

void timer_arm(struct timers *t, struct timer_node *n, enum timer_kind kind,
	       uint64_t now)
{
	struct timer_list *l = &t->l[kind];

	timer_disarm(n);
	n->deadline = now + l->timeout_ms;
	n->kind = kind;
	/* The same timeout for all and @now non-decreasing: still sorted. */
	n->prev = l->head.prev;
	n->next = &l->head;
	l->head.prev->next = n;
	l->head.prev = n;
}

struct timer_node *timer_expired(struct timers *t, enum timer_kind kind,
				 uint64_t now)
{
	struct timer_node *n = t->l[kind].head.next;

	if (n == &t->l[kind].head || n->deadline > now)
		return NULL;
	timer_disarm(n);
	return n;
}
