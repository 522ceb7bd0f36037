// SPDX-License-Identifier: GPL-2.0
/*
 * ulp-probe.c - attach a ULP to one end of a fresh loopback TCP pair and
 * print "0" or the errno, for failslab-run's depth calibration.
 *
 *	ulp-probe [ULP]		(default tlsx; run in the debug guest)
 *
 * The ULP's init allocates its context with kzalloc() (tlsx:
 * tlsx_init(), kmod/main.c; tls: tls_ctx_create()), so with failslab
 * failing every allocation under the module's text, the attach fails
 * with ENOMEM exactly when the stack-trace filter reaches as deep as the
 * module's frame above the slab allocator's.  How deep that is differs
 * between kernels (6.1's kmalloc() is one frame deeper than 6.12's), so
 * failslab-run measures it instead of assuming it.  Only the attach has
 * the module on the stack, so only it can be failed.  Static so it runs
 * in the busybox guest.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	const char *ulp = argc > 1 ? argv[1] : "tlsx";
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int ls, c, s;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(ls, 1) || getsockname(ls, (struct sockaddr *)&a, &len)) {
		perror("ulp-probe: listen");
		return 2;
	}
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a))) {
		perror("ulp-probe: connect");
		return 2;
	}
	s = accept(ls, NULL, NULL);
	if (s < 0) {
		perror("ulp-probe: accept");
		return 2;
	}
	if (setsockopt(c, IPPROTO_TCP, TCP_ULP, ulp, strlen(ulp))) {
		printf("%d\n", errno);
		return 1;
	}
	printf("0\n");
	return 0;
}
