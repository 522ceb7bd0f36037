// SPDX-License-Identifier: GPL-2.0
/*
 * net.c - the TCP socket under a connection: the walk over the
 * addresses getaddrinfo() gave, which tlsx-client ends at the first that
 * connects and tlsx-server at the first it can listen on.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tool.h"

int tool_socket_first(const struct addrinfo *res,
		      int (*use)(int fd, const struct addrinfo *ai),
		      const struct addrinfo **used)
{
	const struct addrinfo *ai;
	int fd, saved = 0;

	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			saved = errno;
			continue;
		}
		if (!use(fd, ai)) {
			*used = ai;
			return fd;
		}
		saved = errno;
		close(fd);
	}
	errno = saved;
	return -1;
}

void tool_nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}
