// SPDX-License-Identifier: GPL-2.0
/*
 * test_listen_check.c - listen_check.h:
 *
 *  - listen_spans_overlap() over a table: IPv4 and IPv6 addresses, any
 *    addresses, v4-mapped binds, IPV6_V6ONLY, other ports; each pair
 *    both ways round (overlap is symmetric);
 *  - listen_check() against real listeners: ours (by inode) are not
 *    reported, someone else's on an overlapping address is, with its
 *    address and inode, and the span it overlaps among several; one on
 *    another port or a disjoint address is not; a socket that is not
 *    NETLINK_SOCK_DIAG is "cannot check" (1).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsxd/listen_check.h"

/* The span of "ADDR" (numeric IPv4 or IPv6) on @port. */
static void span(const char *addr, unsigned int port, bool v6only,
		 struct listen_span *sp)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };

	if (inet_pton(AF_INET, addr, &sin.sin_addr) == 1) {
		sin.sin_port = htons((uint16_t)port);
		listen_span_of((struct sockaddr *)&sin, v6only, sp);
		return;
	}
	if (inet_pton(AF_INET6, addr, &sin6.sin6_addr) != 1)
		abort();
	sin6.sin6_port = htons((uint16_t)port);
	listen_span_of((struct sockaddr *)&sin6, v6only, sp);
}

TEST(spans_overlap)
{
	static const struct {
		const char *a;
		bool a_v6only;
		const char *b;
		bool b_v6only;
		bool overlap;
	} t[] = {
		{ "127.0.0.1", false, "127.0.0.1", false, true },
		{ "127.0.0.1", false, "127.0.0.2", false, false },
		{ "0.0.0.0", false, "127.0.0.1", false, true },
		{ "0.0.0.0", false, "0.0.0.0", false, true },
		/* A dual-stack any address takes IPv4's too. */
		{ "::", false, "0.0.0.0", false, true },
		{ "::", false, "127.0.0.1", false, true },
		{ "::", true, "127.0.0.1", false, false },
		{ "::", true, "0.0.0.0", false, false },
		{ "::", true, "::", false, true },
		{ "::", true, "::1", false, true },
		{ "::1", false, "::1", true, true },
		{ "::1", false, "::2", false, false },
		/* A specific IPv6 address takes no IPv4 address. */
		{ "::1", false, "127.0.0.1", false, false },
		{ "::1", false, "0.0.0.0", false, false },
		/* ::ffff:a.b.c.d is IPv4's a.b.c.d. */
		{ "::ffff:127.0.0.1", false, "127.0.0.1", false, true },
		{ "::ffff:127.0.0.1", false, "127.0.0.2", false, false },
		{ "::ffff:127.0.0.1", false, "0.0.0.0", false, true },
		{ "::ffff:127.0.0.1", false, "::", false, true },
		{ "::ffff:127.0.0.1", false, "::", true, false },
		{ "::ffff:127.0.0.1", false, "::1", false, false },
		{ "::ffff:0.0.0.0", false, "10.1.2.3", false, true },
	};
	struct listen_span a, b;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		span(t[i].a, 8443, t[i].a_v6only, &a);
		span(t[i].b, 8443, t[i].b_v6only, &b);
		EXPECT_EQ(t[i].overlap, listen_spans_overlap(&a, &b))
			TH_LOG("%s%s vs %s%s", t[i].a,
			       t[i].a_v6only ? " (v6only)" : "", t[i].b,
			       t[i].b_v6only ? " (v6only)" : "");
		EXPECT_EQ(t[i].overlap, listen_spans_overlap(&b, &a))
			TH_LOG("%s vs %s", t[i].b, t[i].a);
		/* Another port never overlaps. */
		span(t[i].b, 8444, t[i].b_v6only, &b);
		EXPECT_FALSE(listen_spans_overlap(&a, &b));
	}
}

/* A TCP listener on @addr:@port (0: any), SO_REUSEPORT; its port out. */
static int listener(const char *addr, unsigned int *port, bool v6only)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in6 *sin6 = (void *)&ss;
	struct sockaddr_in *sin = (void *)&ss;
	socklen_t len;
	int fd, on = 1, v6 = v6only;

	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)*port);
		len = sizeof(*sin);
	} else if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)*port);
		len = sizeof(*sin6);
	} else {
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) ||
	    (ss.ss_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6, sizeof(v6))) ||
	    bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 1) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*port = ntohs(ss.ss_family == AF_INET ? sin->sin_port :
		      sin6->sin6_port);
	return fd;
}

static ino_t inode_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : st.st_ino;
}

/* Room for listen_check()'s description of a listener. */
#define FOUND_LEN 160

FIXTURE(chk) {
	int nl, ours;
	unsigned int port;
	ino_t ino;
	struct listen_span want;
	char found[FOUND_LEN];
};

FIXTURE_SETUP(chk)
{
	self->port = 0;
	self->nl = listen_check_open();
	ASSERT_LE(0, self->nl);
	self->ours = listener("127.0.0.1", &self->port, false);
	ASSERT_LE(0, self->ours);
	self->ino = inode_of(self->ours);
	span("127.0.0.1", self->port, false, &self->want);
	self->found[0] = 0;
}

FIXTURE_TEARDOWN(chk)
{
	close(self->ours);
	close(self->nl);
}

/* listen_check() on @nl for one span, @ino being ours. */
static int check(int nl, const struct listen_span *want, ino_t ino,
		 char *found)
{
	unsigned int which = 99;
	int r;

	r = listen_check(nl, want, 1, &ino, 1, &which, found, FOUND_LEN);
	if (r < 0 && which != 0)
		return -2;	/* the hit named a span we did not give */
	return r;
}

/* @other on @want's port is reported as "HOST:PORT, uid N, inode N". */
static void expect_reported(struct __test_metadata *_metadata, int nl,
			    const struct listen_span *want, ino_t ino,
			    const char *host, int other)
{
	char found[FOUND_LEN], line[FOUND_LEN];

	EXPECT_EQ(-1, check(nl, want, ino, found));
	snprintf(line, sizeof(line), "%s:%u, uid %u, inode %lu", host,
		 want->port, getuid(), (unsigned long)inode_of(other));
	EXPECT_STREQ(line, found);
}

TEST_F(chk, ours_only_is_clean)
{
	EXPECT_EQ(0, check(self->nl, &self->want, self->ino, self->found)) TH_LOG("%s", self->found);
	/* Again on the same socket: each dump is read to its end. */
	EXPECT_EQ(0, check(self->nl, &self->want, self->ino, self->found));
}

TEST_F(chk, not_ours_is_reported)
{
	char want[160];

	/* Without our inode, our own listener is someone else's. */
	EXPECT_EQ(-1, check(self->nl, &self->want, 0, self->found));
	snprintf(want, sizeof(want), "127.0.0.1:%u, uid %u, inode %lu",
		 self->port, getuid(), (unsigned long)self->ino);
	EXPECT_STREQ(want, self->found);
}

TEST_F(chk, a_second_listener_in_the_group)
{
	unsigned int port = self->port;
	int other = listener("127.0.0.1", &port, false);

	ASSERT_LE(0, other);
	expect_reported(_metadata, self->nl, &self->want, self->ino,
			"127.0.0.1", other);
	close(other);
	EXPECT_EQ(0, check(self->nl, &self->want, self->ino, self->found));
}

TEST_F(chk, an_ipv6_any_listener_overlaps)
{
	unsigned int port = self->port;
	int other = listener("::", &port, false);

	ASSERT_LE(0, other);
	expect_reported(_metadata, self->nl, &self->want, self->ino,
			"[::]", other);
	close(other);
}

/* One dump for several spans: the hit names the span it overlaps. */
TEST_F(chk, which_span_is_named)
{
	struct listen_span spans[3];
	unsigned int which = 99, any = 0;
	int elsewhere = listener("127.0.0.1", &any, false);
	ino_t ours[2];

	ASSERT_LE(0, elsewhere);
	ours[0] = self->ino;
	ours[1] = inode_of(elsewhere);
	span("10.9.8.7", self->port, false, &spans[0]);
	span("127.0.0.1", any, false, &spans[1]);
	spans[2] = self->want;
	/* Both listeners ours: clean; the second not ours: span 1. */
	EXPECT_EQ(0, listen_check(self->nl, spans, 3, ours, 2, &which,
				  self->found, sizeof(self->found)))
		TH_LOG("%s", self->found);
	EXPECT_EQ(-1, listen_check(self->nl, spans, 3, ours, 1, &which,
				   self->found, sizeof(self->found)));
	EXPECT_EQ(1, which);
	close(elsewhere);
}

TEST_F(chk, disjoint_listeners_are_not_reported)
{
	unsigned int port = self->port, any = 0;
	int v6only = listener("::", &port, true);
	int loop6, elsewhere;

	port = self->port;
	loop6 = listener("::1", &port, false);
	elsewhere = listener("127.0.0.1", &any, false);
	ASSERT_LE(0, v6only);
	ASSERT_LE(0, loop6);
	ASSERT_LE(0, elsewhere);
	ASSERT_NE(self->port, any);
	EXPECT_EQ(0, check(self->nl, &self->want, self->ino, self->found)) TH_LOG("%s", self->found);
	close(v6only);
	close(loop6);
	close(elsewhere);
}

TEST_F(chk, no_diag_socket_cannot_check)
{
	int fd[2];

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM, 0, fd));
	close(fd[1]);
	EXPECT_EQ(1, check(fd[0], &self->want, self->ino, self->found));
	EXPECT_EQ(0, strncmp(self->found, "sock_diag request: ", 19))
		TH_LOG("%s", self->found);
	close(fd[0]);
}

TEST_HARNESS_MAIN
