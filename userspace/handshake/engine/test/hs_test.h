/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs_test.h - what the engine's tests share: hex decoding, a
 * comparison against hex, and randomness injected through cfg->rand.
 * Include after "kselftest_harness.h".
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

/*
 * Injected randomness (a tlsx_hs_config rand callback, @ctx a struct
 * feed): the bytes given in order, then a counter, so that a trace's
 * random values come out where it has them.
 */
struct feed {
	u8 bytes[256];
	size_t len, pos;
	unsigned int calls;	/* how often the engine asked */
};

static inline int feed_rand(void *ctx, void *buf, size_t len)
{
	struct feed *f = ctx;
	u8 *p = buf;
	size_t i;

	f->calls++;
	for (i = 0; i < len; i++)
		p[i] = f->pos < f->len ? f->bytes[f->pos++] : (u8)(f->pos++);
	return 0;
}

/* Appends the bytes @hex spells (unhex()). */
static inline void feed_add(struct feed *f, const char *hex)
{
	f->len += unhex(hex, f->bytes + f->len, sizeof(f->bytes) - f->len);
}

/* Appends @n bytes; the caller keeps to sizeof(f->bytes). */
static inline void feed_add_bytes(struct feed *f, const u8 *p, size_t n)
{
	memcpy(f->bytes + f->len, p, n);
	f->len += n;
}

#endif /* TLSX_HS_TEST_H */
