// SPDX-License-Identifier: GPL-2.0
/*
 * test_timer.c - the per-kind deadline lists (timer.c): expiry in
 * deadline order and only when due, re-arming moves a node to the tail,
 * disarming unlinks it from anywhere, a node moves between kinds, and a
 * tick takes the expired only (O(expired): the walk stops at the first
 * node not due).
 */
#include <stddef.h>

#include "kselftest_harness.h"
#include "tlsxd/timer.h"

static const unsigned int timeouts[TIMER_KINDS] = {
	[TIMER_HANDSHAKE] = 10000,
	[TIMER_HEADER] = 5000,
	[TIMER_IDLE] = 60000,
	[TIMER_SEND] = 1000,
};

struct item {
	int id;
	struct timer_node t;
};

static struct item *item_of(struct timer_node *n)
{
	return n ? (struct item *)((char *)n - offsetof(struct item, t)) :
		   NULL;
}

static int expire_one(struct timers *t, enum timer_kind k, uint64_t now)
{
	struct item *it = item_of(timer_expired(t, k, now));

	return it ? it->id : -1;
}

FIXTURE(timer) {
	struct timers t;
	struct item it[8];
};

FIXTURE_SETUP(timer)
{
	int i;

	timers_init(&self->t, timeouts);
	for (i = 0; i < 8; i++) {
		self->it[i].id = i;
		timer_node_init(&self->it[i].t);
	}
}

FIXTURE_TEARDOWN(timer)
{
}

TEST_F(timer, expires_in_deadline_order_and_only_when_due)
{
	int i;

	for (i = 0; i < 4; i++)
		timer_arm(&self->t, &self->it[i].t, TIMER_HEADER, 100 * i);
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_HEADER, 4999));
	EXPECT_EQ(0, expire_one(&self->t, TIMER_HEADER, 5000));
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_HEADER, 5099));
	EXPECT_EQ(1, expire_one(&self->t, TIMER_HEADER, 5250));
	EXPECT_EQ(2, expire_one(&self->t, TIMER_HEADER, 5250));
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_HEADER, 5250));
	EXPECT_EQ(3, expire_one(&self->t, TIMER_HEADER, 100000));
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_HEADER, 100000));
	for (i = 0; i < 4; i++)
		EXPECT_FALSE(timer_armed(&self->it[i].t));
}

TEST_F(timer, rearm_moves_to_the_tail)
{
	timer_arm(&self->t, &self->it[0].t, TIMER_SEND, 0);
	timer_arm(&self->t, &self->it[1].t, TIMER_SEND, 10);
	/* Progress on 0 at 500: its deadline moves past 1's. */
	timer_arm(&self->t, &self->it[0].t, TIMER_SEND, 500);
	EXPECT_EQ(1500, self->it[0].t.deadline);
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_SEND, 1009));
	EXPECT_EQ(1, expire_one(&self->t, TIMER_SEND, 1010));
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_SEND, 1499));
	EXPECT_EQ(0, expire_one(&self->t, TIMER_SEND, 1500));
}

TEST_F(timer, disarm_from_head_middle_tail)
{
	int i;

	for (i = 0; i < 5; i++)
		timer_arm(&self->t, &self->it[i].t, TIMER_IDLE, i);
	timer_disarm(&self->it[0].t);
	timer_disarm(&self->it[2].t);
	timer_disarm(&self->it[4].t);
	timer_disarm(&self->it[4].t);	/* twice: a no-op */
	EXPECT_FALSE(timer_armed(&self->it[2].t));
	EXPECT_EQ(1, expire_one(&self->t, TIMER_IDLE, 1000000));
	EXPECT_EQ(3, expire_one(&self->t, TIMER_IDLE, 1000000));
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_IDLE, 1000000));
}

TEST_F(timer, a_node_moves_between_kinds)
{
	timer_arm(&self->t, &self->it[0].t, TIMER_HANDSHAKE, 0);
	timer_arm(&self->t, &self->it[0].t, TIMER_IDLE, 10);
	EXPECT_EQ(TIMER_IDLE, self->it[0].t.kind);
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_HANDSHAKE, 1000000));
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_IDLE, 60009));
	EXPECT_EQ(0, expire_one(&self->t, TIMER_IDLE, 60010));
}

TEST_F(timer, kinds_are_independent)
{
	timer_arm(&self->t, &self->it[0].t, TIMER_IDLE, 0);
	timer_arm(&self->t, &self->it[1].t, TIMER_SEND, 0);
	timer_arm(&self->t, &self->it[2].t, TIMER_HEADER, 0);
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_IDLE, 1000));
	EXPECT_EQ(1, expire_one(&self->t, TIMER_SEND, 1000));
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_HEADER, 1000));
	EXPECT_EQ(2, expire_one(&self->t, TIMER_HEADER, 5000));
	EXPECT_EQ(0, expire_one(&self->t, TIMER_IDLE, 60000));
}

/* Many armed, few due: the walk visits the due ones only. */
TEST_F(timer, a_tick_takes_the_expired_only)
{
	static struct item many[10000];
	int i, n = 0;

	for (i = 0; i < 10000; i++) {
		many[i].id = i;
		timer_node_init(&many[i].t);
		timer_arm(&self->t, &many[i].t, TIMER_SEND, i);
	}
	while (expire_one(&self->t, TIMER_SEND, 1000 + 9) >= 0)
		n++;
	EXPECT_EQ(10, n);
	EXPECT_TRUE(timer_armed(&many[10].t));
	EXPECT_FALSE(timer_armed(&many[9].t));
	for (i = 10; i < 10000; i++)
		timer_disarm(&many[i].t);
	EXPECT_EQ(-1, expire_one(&self->t, TIMER_SEND, UINT64_MAX / 2));
}

TEST_HARNESS_MAIN
