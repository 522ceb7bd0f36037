// SPDX-License-Identifier: GPL-2.0
/*
 * test_poly1305.c - the Poly1305 API (poly1305.h) fed in pieces, on every
 * engine this CPU has (scalar, AVX2, IFMA), against OpenSSL's Poly1305
 * MAC over the whole message.  The pieces are what the record layer hands
 * it: pages behind a header, TCP segments, blocks bounced across a
 * boundary, single bytes; so the bytes a vector run leaves short of a
 * group, and the partial blocks, are carried from call to call in every
 * combination, and the tag must not depend on the cut.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"
#include "aead/aead.h"
#include "aead/poly1305.h"

#define MAXLEN 9000

static void ossl_poly1305(const u8 key[32], const u8 *msg, size_t len,
			  u8 tag[16])
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	size_t out = 0;

	if (!ctx || !EVP_MAC_init(ctx, key, 32, NULL) ||
	    !EVP_MAC_update(ctx, msg, len) ||
	    !EVP_MAC_final(ctx, tag, &out, 16) || out != 16)
		memset(tag, 0xee, 16);	/* fails the comparison */
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
}

static u64 rng = 0x2545f491;

/* The next random number (aead_test.h's generator). */
static u32 rnd(void)
{
	return (u32)rng_next(&rng);
}

/* The next piece of a cut in @style, at most @left bytes. */
static size_t piece_len(int style, size_t done, size_t left)
{
	size_t n;

	switch (style) {
	case 0:		/* a header, then pages */
		n = done ? 4096 : 300;
		break;
	case 1:		/* TCP segments */
		n = 1448;
		break;
	case 2:		/* a record's pieces and the 64-byte bounces */
		n = (done / 64) % 2 ? 64 : 64 * (1 + rnd() % 40);
		break;
	case 3:		/* anything, mostly short */
		n = rnd() % 8 ? 1 + rnd() % 200 : 1 + rnd() % 3000;
		break;
	default:	/* single bytes */
		n = 1;
		break;
	}
	return n < left ? n : left;
}

static const enum tlsx_aead_impl impls[] = {
	TLSX_IMPL_GENERIC, TLSX_IMPL_AVX2, TLSX_IMPL_AVX512,
};

TEST(pieces_match_openssl)
{
	u8 *msg = malloc(MAXLEN);
	unsigned int i, tested = 0, cases = 0;
	size_t len, j;

	ASSERT_TRUE(msg != NULL);
	for (j = 0; j < MAXLEN; j++)
		msg[j] = (u8)rnd();
	for (i = 0; i < ARRAY_SIZE(impls); i++) {
		int style;

		if (impls[i] != TLSX_IMPL_GENERIC &&
		    !tlsx_aead_impl_available(TLSX_AEAD_CHACHA20_POLY1305,
					      impls[i]))
			continue;
		tested++;
		for (len = 0; len <= MAXLEN;
		     len += len < 300 ? 1 : 1 + rnd() % 97) {
			for (style = 0; style < 5; style++) {
				struct tlsx_poly1305_state st;
				u8 key[32], want[16], got[16];
				size_t done = 0, n;

				if (style == 4 && len > 600)
					continue;
				for (j = 0; j < 32; j++)
					key[j] = (u8)rnd();
				ossl_poly1305(key, msg, len, want);
				tlsx_poly1305_init(&st, key, impls[i]);
				while (done < len) {
					n = piece_len(style, done, len - done);
					tlsx_poly1305_update(&st, msg + done,
							     n);
					done += n;
				}
				tlsx_poly1305_final(&st, got);
				ASSERT_EQ(0, memcmp(want, got, 16)) {
					TH_LOG("impl %s len %zu style %d",
					       tlsx_aead_impl_name(impls[i]),
					       len, style);
				}
				cases++;
			}
		}
	}
	TH_LOG("%u engines, %u messages", tested, cases);
	ASSERT_GE(tested, 1);
	free(msg);
}

TEST_HARNESS_MAIN
