// SPDX-License-Identifier: GPL-2.0
/*
 * random.c - getrandom(2) in a loop.  getrandom() may return fewer bytes
 * than asked (above 256 bytes, or when a signal arrives), and blocks only
 * until the kernel's pool is first initialised, which is what key
 * generation wants.
 */
#include <sys/random.h>

#include "rand/random.h"

int tlsx_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;

	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			memzero_explicit(buf, (size_t)(p - (u8 *)buf) + len);
			return -err;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
