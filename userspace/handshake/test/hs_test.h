/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs_test.h - what the engine's tests share: hex decoding and a
 * comparison against hex.  Include after "kselftest_harness.h".
 */
#ifndef TLSX_HS_TEST_H
#define TLSX_HS_TEST_H

#include <stdlib.h>
#include <string.h>

#include "aead/platform.h"

/*
 * Decodes @hex into @out, skipping spaces (so RFC 8448's dumps paste as
 * they are); returns the byte count.  Aborts on anything else malformed.
 */
static inline size_t unhex(const char *hex, u8 *out, size_t max)
{
	size_t n = 0;

	while (*hex) {
		char b[3] = { 0 }, *end;

		if (*hex == ' ') {
			hex++;
			continue;
		}
		b[0] = *hex++;
		b[1] = *hex++;
		if (!b[1] || n == max)
			abort();
		out[n++] = (u8)strtoul(b, &end, 16);
		if (*end)
			abort();
	}
	return n;
}

/* @p holds exactly the bytes @hex spells (the length is the hex's). */
static inline bool hex_is(const u8 *p, const char *hex)
{
	u8 want[1024];
	size_t n = unhex(hex, want, sizeof(want));

	return !memcmp(p, want, n);
}

#endif /* TLSX_HS_TEST_H */
