// SPDX-License-Identifier: GPL-2.0
/*
 * ulp.c - attaching the upper-layer protocol: where it may be attached and
 * with which errors it is refused, for tlsx and for the kernel's tls.
 */
#include "tlsx_test.h"
#include "kselftest_harness.h"

FIXTURE(ulp)
{
	int cfd;
	int sfd;
};

FIXTURE_VARIANT(ulp)
{
	const char *name;
};

FIXTURE_VARIANT_ADD(ulp, tlsx)
{
	.name = "tlsx",
};

FIXTURE_VARIANT_ADD(ulp, tls)
{
	.name = "tls",
};

FIXTURE_SETUP(ulp)
{
	ASSERT_TRUE(ulp_available(variant->name)) {
		TH_LOG("ULP %s is not registered", variant->name);
	}
	ASSERT_EQ(0, tcp_pair(&self->cfd, &self->sfd));
}

FIXTURE_TEARDOWN(ulp)
{
	close(self->cfd);
	close(self->sfd);
}

TEST_F(ulp, attaches_to_connected_socket)
{
	char name[16] = "";
	socklen_t len = sizeof(name);

	ASSERT_EQ(0, setsockopt(self->cfd, IPPROTO_TCP, TCP_ULP,
				variant->name, strlen(variant->name)));
	ASSERT_EQ(0, getsockopt(self->cfd, IPPROTO_TCP, TCP_ULP, name, &len));
	EXPECT_STREQ(variant->name, name);
}

TEST_F(ulp, second_attach_is_eexist)
{
	ASSERT_EQ(0, setsockopt(self->cfd, IPPROTO_TCP, TCP_ULP,
				variant->name, strlen(variant->name)));
	EXPECT_EQ(-1, setsockopt(self->cfd, IPPROTO_TCP, TCP_ULP,
				 variant->name, strlen(variant->name)));
	EXPECT_EQ(EEXIST, errno);
}

/* 6.12's tls refuses a listening socket in its init: ENOTCONN. */
TEST_F(ulp, listening_socket_is_enotconn)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int lfd = socket(AF_INET, SOCK_STREAM, 0);

	ASSERT_GE(lfd, 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ASSERT_EQ(0, bind(lfd, (struct sockaddr *)&sa, sizeof(sa)));
	ASSERT_EQ(0, listen(lfd, 1));
	EXPECT_EQ(-1, setsockopt(lfd, IPPROTO_TCP, TCP_ULP, variant->name,
				 strlen(variant->name)));
	EXPECT_EQ(ENOTCONN, errno);
	close(lfd);
}

TEST_F(ulp, unconnected_socket_is_enotconn)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, setsockopt(fd, IPPROTO_TCP, TCP_ULP, variant->name,
				 strlen(variant->name)));
	EXPECT_EQ(ENOTCONN, errno);
	close(fd);
}

/* Before keys are set the socket still carries plain TCP both ways. */
TEST_F(ulp, plain_data_flows_before_keys)
{
	char buf[8] = "";

	ASSERT_EQ(0, setsockopt(self->cfd, IPPROTO_TCP, TCP_ULP,
				variant->name, strlen(variant->name)));
	ASSERT_EQ(0, setsockopt(self->sfd, IPPROTO_TCP, TCP_ULP,
				variant->name, strlen(variant->name)));
	ASSERT_EQ(5, send(self->cfd, "hello", 5, 0));
	ASSERT_EQ(5, recv(self->sfd, buf, 5, MSG_WAITALL));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	ASSERT_EQ(3, send(self->sfd, "bye", 3, 0));
	ASSERT_EQ(3, recv(self->cfd, buf, 3, MSG_WAITALL));
	EXPECT_EQ(0, memcmp(buf, "bye", 3));
}

/* Many sockets attach and close: the context is freed each time. */
TEST_F(ulp, attach_and_close_many)
{
	int i, c, s;

	for (i = 0; i < 200; i++) {
		ASSERT_EQ(0, tcp_pair(&c, &s));
		ASSERT_EQ(0, setsockopt(c, IPPROTO_TCP, TCP_ULP,
					variant->name,
					strlen(variant->name)));
		close(c);
		close(s);
	}
}

TEST_HARNESS_MAIN
