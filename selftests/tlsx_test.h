/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx_test.h - helpers shared by the module selftests: connected TCP
 * pairs over loopback and ULP lookups.  Every selftest runs as variants
 * against both tlsx and the kernel's tls, so a difference shows.
 */
#ifndef TLSX_SELFTEST_H
#define TLSX_SELFTEST_H

#include <errno.h>
#include <linux/tls.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef SOL_TLS
#define SOL_TLS 282
#endif

/*
 * tcp_pair_bufs() - a connected TCP pair over 127.0.0.1: *cfd the client
 * end, *sfd the accepted end; @mss, when not 0, bounds the segment size
 * both ways (TCP_MAXSEG before the handshake); @rcvbuf, when not 0, is
 * the accepted end's SO_RCVBUF from before the handshake, so the window
 * it advertises stays that small (and TCP's segments at most half of
 * it).  Return: 0, or -errno.
 */
static inline int tcp_pair_bufs(int *cfd, int *sfd, int mss, int rcvbuf)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int lfd, err = 0;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		return -errno;
	if ((mss && setsockopt(lfd, IPPROTO_TCP, TCP_MAXSEG, &mss,
			       sizeof(mss))) ||
	    (rcvbuf && setsockopt(lfd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				  sizeof(rcvbuf))) ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 1) ||
	    getsockname(lfd, (struct sockaddr *)&sa, &len)) {
		err = -errno;
		goto out;
	}
	*cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (*cfd < 0 ||
	    (mss && setsockopt(*cfd, IPPROTO_TCP, TCP_MAXSEG, &mss,
			       sizeof(mss))) ||
	    connect(*cfd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		goto out;
	}
	*sfd = accept(lfd, NULL, NULL);
	if (*sfd < 0)
		err = -errno;
out:
	close(lfd);
	return err;
}

static inline int tcp_pair_mss(int *cfd, int *sfd, int mss)
{
	return tcp_pair_bufs(cfd, sfd, mss, 0);
}

static inline int tcp_pair(int *cfd, int *sfd)
{
	return tcp_pair_mss(cfd, sfd, 0);
}

/*
 * The running kernel's series as KERNEL_SERIES(major, minor), 0 if
 * unknown.  tlsx behaves the same on every kernel it supports (README);
 * the kernel's own tls does not, and a test of a behaviour that an older
 * kernel's tls lacks skips there (saying so) when run against tls.
 */
#define KERNEL_SERIES(major, minor)	((major) * 1000 + (minor))

static inline int kernel_series(void)
{
	struct utsname u;
	int major, minor;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return KERNEL_SERIES(major, minor);
}

/* Is @ulp the kernel's tls of a kernel before @major.@minor? */
static inline int old_ktls(const char *ulp, int major, int minor)
{
	return !strcmp(ulp, "tls") &&
	       kernel_series() < KERNEL_SERIES(major, minor);
}

/* Is @ulp listed in /proc/sys/net/ipv4/tcp_available_ulp? */
static inline int ulp_available(const char *ulp)
{
	char buf[256], *tok, *save;
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_available_ulp", "r");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		for (tok = strtok_r(buf, "\n ", &save); tok;
		     tok = strtok_r(NULL, "\n ", &save))
			if (!strcmp(tok, ulp))
				found = 1;
	}
	fclose(f);
	return found;
}

/*
 * sendmsg() of one record of @type (a TLS_SET_RECORD_TYPE cmsg), @flags
 * as send(2)'s: the counterpart of recv_type().  Shared with the VM
 * tests' clients (tools/tlsxd/alert-client.c).
 */
static inline ssize_t send_type(int fd, const void *buf, size_t len,
				int flags, unsigned char type)
{
	char cbuf[CMSG_SPACE(sizeof(unsigned char))] = { 0 };
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	cmsg->cmsg_level = SOL_TLS;
	cmsg->cmsg_type = TLS_SET_RECORD_TYPE;
	cmsg->cmsg_len = CMSG_LEN(sizeof(unsigned char));
	*CMSG_DATA(cmsg) = type;
	return sendmsg(fd, &msg, flags);
}

/* recvmsg() with room for one cmsg; *type gets the record type or -1. */
static inline ssize_t recv_type(int fd, void *buf, size_t len, int flags,
				int *type)
{
	char cbuf[CMSG_SPACE(sizeof(unsigned char))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	ssize_t ret;

	*type = -1;
	ret = recvmsg(fd, &msg, flags);
	cmsg = CMSG_FIRSTHDR(&msg);
	if (ret >= 0 && cmsg && cmsg->cmsg_level == SOL_TLS &&
	    cmsg->cmsg_type == TLS_GET_RECORD_TYPE)
		*type = *(unsigned char *)CMSG_DATA(cmsg);
	return ret;
}

#endif /* TLSX_SELFTEST_H */
