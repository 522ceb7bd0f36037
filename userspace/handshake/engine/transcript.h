/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transcript.h - the running transcript hash (RFC 8446 section 4.4.1).
 *
 * The client sends ClientHello before it knows the suite's hash, so the
 * transcript hashes with SHA-256 and SHA-384 at once until
 * tlsx_transcript_choose() keeps one (and wipes the other).  Messages are
 * whole handshake messages, header included, as on the wire.
 *
 * After a HelloRetryRequest, tlsx_transcript_hrr() replaces ClientHello1
 * with the synthetic message_hash message (4.4.1):
 *
 *   Transcript-Hash(ClientHello1, HelloRetryRequest, ... Mn) =
 *       Hash(message_hash ||        // handshake type 254
 *            00 00 Hash.length ||   // its length
 *            Hash(ClientHello1) ||
 *            HelloRetryRequest || ... || Mn)
 *
 * Errors: -EINVAL for a hash other than SHA-256/384 or one already
 * dropped, -EPROTO for a call out of order (a hash before the choice, the
 * HRR substitution anywhere but right after ClientHello1).
 */
#ifndef TLSX_HS_TRANSCRIPT_H
#define TLSX_HS_TRANSCRIPT_H

#include "hash/sha2.h"

#define TLSX_HS_MESSAGE_HASH	254	/* HandshakeType message_hash */

struct tlsx_transcript {
	enum tlsx_hash_alg alg;		/* 0 until chosen */
	unsigned int msgs;		/* messages added */
	struct tlsx_sha256 s256;
	struct tlsx_sha512 s384;
};

/* Starts an empty transcript hashing with both hashes. */
void tlsx_transcript_init(struct tlsx_transcript *t);

/* Keeps @alg's hash only; choosing the same hash again is allowed. */
int tlsx_transcript_choose(struct tlsx_transcript *t, enum tlsx_hash_alg alg);

/* Adds @len bytes (one or more whole messages count as one add). */
void tlsx_transcript_add(struct tlsx_transcript *t, const void *msg,
			 size_t len);

/*
 * Transcript-Hash of what was added, then @extra (not added): the hash of
 * the truncated ClientHello for a PSK binder (4.2.11.2).  @alg is the
 * chosen hash or, before the choice, either.  Writes HashLen bytes; the
 * transcript is unchanged.
 */
int tlsx_transcript_peek(const struct tlsx_transcript *t,
			 enum tlsx_hash_alg alg, const void *extra,
			 size_t extra_len, u8 *out);

/* Transcript-Hash of what was added, under the chosen hash. */
int tlsx_transcript_hash(const struct tlsx_transcript *t, u8 *out);

/*
 * Replaces ClientHello1 (the only message added so far) with message_hash
 * (4.4.1).  The hash must be chosen: HelloRetryRequest names the suite.
 */
int tlsx_transcript_hrr(struct tlsx_transcript *t);

/* Wipes the hash states. */
void tlsx_transcript_wipe(struct tlsx_transcript *t);

#endif /* TLSX_HS_TRANSCRIPT_H */
