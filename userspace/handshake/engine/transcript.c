// SPDX-License-Identifier: GPL-2.0
/*
 * transcript.c - the running transcript hash, with both suite hashes
 * until one is chosen, and HelloRetryRequest's message_hash (RFC 8446
 * 4.4.1).  The contract is in transcript.h.
 */
#include "handshake/engine/transcript.h"

void tlsx_transcript_init(struct tlsx_transcript *t)
{
	t->alg = 0;
	t->msgs = 0;
	tlsx_sha256_init(&t->s256);
	tlsx_sha384_init(&t->s384);
}

static bool live(const struct tlsx_transcript *t, enum tlsx_hash_alg alg)
{
	if (alg != TLSX_HASH_SHA256 && alg != TLSX_HASH_SHA384)
		return false;
	return !t->alg || t->alg == alg;
}

int tlsx_transcript_choose(struct tlsx_transcript *t, enum tlsx_hash_alg alg)
{
	if (!live(t, alg))
		return -EINVAL;
	t->alg = alg;
	if (alg == TLSX_HASH_SHA256)
		memzero_explicit(&t->s384, sizeof(t->s384));
	else
		memzero_explicit(&t->s256, sizeof(t->s256));
	return 0;
}

void tlsx_transcript_add(struct tlsx_transcript *t, const void *msg,
			 size_t len)
{
	if (live(t, TLSX_HASH_SHA256))
		tlsx_sha256_update(&t->s256, msg, len);
	if (live(t, TLSX_HASH_SHA384))
		tlsx_sha512_update(&t->s384, msg, len);
	t->msgs++;
}

int tlsx_transcript_peek(const struct tlsx_transcript *t,
			 enum tlsx_hash_alg alg, const void *extra,
			 size_t extra_len, u8 *out)
{
	struct tlsx_sha256 c256;
	struct tlsx_sha512 c384;

	if (!live(t, alg))
		return -EINVAL;
	/* A copy is finished (and wiped by _final); @t goes on. */
	if (alg == TLSX_HASH_SHA256) {
		c256 = t->s256;
		tlsx_sha256_update(&c256, extra, extra_len);
		tlsx_sha256_final(&c256, out);
	} else {
		c384 = t->s384;
		tlsx_sha512_update(&c384, extra, extra_len);
		tlsx_sha384_final(&c384, out);
	}
	return 0;
}

int tlsx_transcript_hash(const struct tlsx_transcript *t, u8 *out)
{
	if (!t->alg)
		return -EPROTO;
	return tlsx_transcript_peek(t, t->alg, NULL, 0, out);
}

int tlsx_transcript_hrr(struct tlsx_transcript *t)
{
	u8 msg[4 + TLSX_HASH_MAX_DIGEST];
	size_t hl;
	int ret;

	/* RFC 8446 4.4.1: only ClientHello1 is replaced, and the hash is
	 * the one of the suite the HelloRetryRequest names.
	 */
	if (!t->alg || t->msgs != 1)
		return -EPROTO;
	hl = tlsx_hash_digest_size(t->alg);
	ret = tlsx_transcript_hash(t, msg + 4);
	if (ret)
		return ret;
	msg[0] = TLSX_HS_MESSAGE_HASH;
	msg[1] = 0;
	msg[2] = 0;
	msg[3] = (u8)hl;
	if (t->alg == TLSX_HASH_SHA256) {
		memzero_explicit(&t->s256, sizeof(t->s256));
		tlsx_sha256_init(&t->s256);
	} else {
		memzero_explicit(&t->s384, sizeof(t->s384));
		tlsx_sha384_init(&t->s384);
	}
	/* msgs goes on to 2: a second substitution is refused. */
	tlsx_transcript_add(t, msg, 4 + hl);
	return 0;
}

void tlsx_transcript_wipe(struct tlsx_transcript *t)
{
	memzero_explicit(t, sizeof(*t));
}
