// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - what TX and RX compute alike for every record: its nonce,
 * its associated data, and the step to the next sequence number.
 *
 * The wire format is fixed by RFC 5246/5288 (TLS 1.2 AES-GCM), RFC 6655
 * (TLS 1.2 AES-CCM, the same nonce and AAD), RFC 7905
 * (ChaCha20-Poly1305) and RFC 8446 (TLS 1.3); the byte choices below are
 * the ones kTLS makes, so records interoperate with it in both ways.
 */

#include "compat.h"
#include "tlsx_context.h"

#define TLSX_TYPE_APPLICATION_DATA	23
#define TLSX_WIRE_MAJOR			3	/* legacy_record_version 3,3 */
#define TLSX_WIRE_MINOR			3

static bool tlsx_has_explicit_iv(const struct tlsx_crypto *c)
{
	return c->explicit_iv_len != 0;
}

void tlsx_nonce(const struct tlsx_crypto *c, u64 seq, const u8 *explicit,
		u8 *nonce)
{
	if (tlsx_has_explicit_iv(c)) {
		/* RFC 5288: 4-byte salt, then the nonce sent in the record. */
		memcpy(nonce, c->iv, 4);
		memcpy(nonce + 4, explicit ? explicit : c->iv + 4, 8);
		return;
	}
	tlsx_aead_record_nonce(nonce, c->iv, seq);
}

unsigned int tlsx_aad(const struct tlsx_crypto *c, u64 seq, u8 type,
		      unsigned int len, u8 *aad)
{
	if (c->version == TLS_1_3_VERSION) {
		/* The header as sent: its length covers the tag too. */
		len += TLSX_TAG_LEN;
		aad[0] = TLSX_TYPE_APPLICATION_DATA;
		aad[1] = TLSX_WIRE_MAJOR;
		aad[2] = TLSX_WIRE_MINOR;
		put_unaligned_be16(len, aad + 3);
		return TLSX_HEADER_LEN;
	}
	put_unaligned_be64(seq, aad);
	aad[8] = type;
	aad[9] = TLSX_WIRE_MAJOR;
	aad[10] = TLSX_WIRE_MINOR;
	put_unaligned_be16(len, aad + 11);
	return TLSX_AAD_MAX;
}

int tlsx_crypto_advance(struct tlsx_crypto *c)
{
	/*
	 * The explicit nonce of TLS 1.2 AES-GCM counts with the records
	 * from the value the user set, as in kTLS.  Counting modulo 2^64 it
	 * stays unique per key while fewer than 2^64 records are sent, which
	 * the check on rec_seq below guarantees.
	 */
	if (tlsx_has_explicit_iv(c))
		put_unaligned_be64(get_unaligned_be64(c->iv + 4) + 1,
				   c->iv + 4);
	c->rec_seq++;
	/* 2^64 records under one key: never reuse a nonce. */
	return c->rec_seq ? 0 : -EBADMSG;
}

#ifdef TLSX_TEST_HOOKS
u64 tlsx_test_seal_limit;
#endif

u64 tlsx_seal_limit(const struct tlsx_crypto *c)
{
	u64 limit = U64_MAX;

	if (c->version == TLS_1_3_VERSION) {
		switch (c->cipher_type) {
		case TLS_CIPHER_AES_GCM_128:
		case TLS_CIPHER_AES_GCM_256:
			limit = 23726566;	/* floor(2^24.5) */
			break;
		case TLS_CIPHER_AES_CCM_128:
			limit = 11863283;	/* floor(2^23.5) */
			break;
		}
	}
#ifdef TLSX_TEST_HOOKS
	/* Lowered where a limit is kept, for the selftests. */
	if (limit != U64_MAX && tlsx_test_seal_limit &&
	    tlsx_test_seal_limit < limit)
		limit = tlsx_test_seal_limit;
#endif
	return limit;
}
