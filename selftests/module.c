// SPDX-License-Identifier: GPL-2.0
/*
 * module.c - tlsx.ko unloads cleanly, is refused while a socket uses it,
 * and survives load/unload cycles.  tlsx only: the kernel's tls is not
 * ours to unload.  Each test leaves the module loaded.
 */
#include <fcntl.h>
#include <sys/syscall.h>

#include "tlsx_test.h"
#include "kselftest_harness.h"

#define TLSX_KO "/tlsx/tlsx.ko"

static int load_tlsx(void)
{
	int fd = open(TLSX_KO, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret == -EEXIST ? 0 : ret;
}

/*
 * Unload, retrying briefly: a closed socket is destroyed (and drops its
 * module reference) only when TCP is done with it.
 */
static int unload_tlsx(void)
{
	int i;

	for (i = 0; i < 200; i++) {
		if (!syscall(SYS_delete_module, "tlsx", O_NONBLOCK))
			return 0;
		if (errno != EWOULDBLOCK && errno != EAGAIN)
			return -errno;
		usleep(10000);
	}
	return -EBUSY;
}

static int attach(int fd)
{
	return setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tlsx", 4) ? -errno : 0;
}

TEST(unload_removes_the_ulp)
{
	ASSERT_EQ(0, load_tlsx());
	ASSERT_TRUE(ulp_available("tlsx"));
	ASSERT_EQ(0, unload_tlsx());
	EXPECT_FALSE(ulp_available("tlsx"));
	ASSERT_EQ(0, load_tlsx());
	EXPECT_TRUE(ulp_available("tlsx"));
}

TEST(unload_refused_while_a_socket_uses_it)
{
	int c, s;

	ASSERT_EQ(0, load_tlsx());
	ASSERT_EQ(0, tcp_pair(&c, &s));
	ASSERT_EQ(0, attach(c));
	EXPECT_EQ(-1, syscall(SYS_delete_module, "tlsx", O_NONBLOCK));
	EXPECT_EQ(EWOULDBLOCK, errno);
	EXPECT_TRUE(ulp_available("tlsx"));
	close(c);
	close(s);
	EXPECT_EQ(0, unload_tlsx());
	ASSERT_EQ(0, load_tlsx());
}

TEST(load_unload_loop)
{
	int i, c, s;

	for (i = 0; i < 30; i++) {
		ASSERT_EQ(0, load_tlsx());
		ASSERT_EQ(0, tcp_pair(&c, &s));
		ASSERT_EQ(0, attach(c));
		ASSERT_EQ(0, attach(s));
		ASSERT_EQ(3, send(c, "abc", 3, 0));
		close(c);
		close(s);
		ASSERT_EQ(0, unload_tlsx()) {
			TH_LOG("round %d", i);
		}
	}
	ASSERT_EQ(0, load_tlsx());
}

TEST_HARNESS_MAIN
