// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_proxy_proto.c - libFuzzer target: arbitrary bytes as the start of
 * a connection on a PROXY-protocol listener, for proxy_parse().  Checked
 * on every input:
 *  - the return is a length in 1..min(input, cap), 0, or -PROXY_E_*;
 *  - a header's length parses the same on its own (what follows it, the
 *    TLS bytes, never changes it), and each of its strict prefixes is 0
 *    ("read more"): a header split over reads at any byte is read whole;
 *  - 0 only while the input is shorter than the longest header taken
 *    (a connection cannot be kept waiting past that many bytes);
 *  - a header naming a client names an IPv4 or IPv6 one, and a v1 TCP4
 *    line is exactly the canonical form of the addresses it yields
 *    (2.1: no leading zeroes, single spaces).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlsxd/proxy_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proxy_hdr h, h2;
	long r = proxy_parse(data, size, &h), r2;
	size_t i;

	if (r < 0) {
		if (r < -PROXY_E_V2_CRC)
			abort();
		return 0;
	}
	if (r == 0) {
		if (size >= PROXY_HDR_MAX)
			abort();
		return 0;
	}
	if ((size_t)r > size || r > PROXY_HDR_MAX)
		abort();
	r2 = proxy_parse(data, (size_t)r, &h2);
	if (r2 != r || h2.local != h.local || h2.version != h.version)
		abort();
	for (i = 0; i < (size_t)r; i++)
		if (proxy_parse(data, i, &h2) != 0)
			abort();
	if (h.version != 1 && h.version != 2)
		abort();
	if (h.local)
		return 0;
	if (h.src.ss_family != h.dst.ss_family ||
	    (h.src.ss_family != AF_INET && h.src.ss_family != AF_INET6))
		abort();
	if (h.version == 1 && h.src.ss_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)&h.src;
		const struct sockaddr_in *d = (const void *)&h.dst;
		char a[16], b[16], line[128];
		int n;

		inet_ntop(AF_INET, &s->sin_addr, a, sizeof(a));
		inet_ntop(AF_INET, &d->sin_addr, b, sizeof(b));
		n = snprintf(line, sizeof(line), "PROXY TCP4 %s %s %u %u\r\n",
			     a, b, ntohs(s->sin_port), ntohs(d->sin_port));
		if (n != r || memcmp(line, data, (size_t)n))
			abort();
	}
	return 0;
}
