/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha2.h - SHA-256, SHA-384 and SHA-512 (FIPS 180-4), and a small
 * dispatcher over them (struct tlsx_hash) for the code that is generic in
 * its hash: HMAC, HKDF, the TLS 1.3 key schedule, signatures.
 *
 * Userspace only (the handshake).  SHA-256 uses SHA-NI when the CPU has
 * it, else an AVX2 message schedule; SHA-512 an AVX-512VL or AVX2 message
 * schedule; both fall back to portable C.
 * The hashes have no secret-dependent branch or index, so hashing a key
 * (HMAC, HKDF, RFC 6979) is constant-time.  A finished or abandoned
 * context holds message bytes: _final() wipes it.
 */
#ifndef TLSX_SHA2_H
#define TLSX_SHA2_H

#include "aead/platform.h"

#define SHA256_DIGEST_SIZE	32
#define SHA256_BLOCK_SIZE	64
#define SHA384_DIGEST_SIZE	48
#define SHA512_DIGEST_SIZE	64
#define SHA512_BLOCK_SIZE	128
#define TLSX_HASH_MAX_DIGEST	SHA512_DIGEST_SIZE
#define TLSX_HASH_MAX_BLOCK	SHA512_BLOCK_SIZE

struct tlsx_sha256 {
	u32 h[8];
	u64 bytes;		/* message length so far */
	u8 buf[SHA256_BLOCK_SIZE];
};

/* SHA-384 is SHA-512 with other initial values, truncated. */
struct tlsx_sha512 {
	u64 h[8];
	u64 bytes;
	u8 buf[SHA512_BLOCK_SIZE];
};

void tlsx_sha256_init(struct tlsx_sha256 *c);
void tlsx_sha256_update(struct tlsx_sha256 *c, const void *data, size_t len);
void tlsx_sha256_final(struct tlsx_sha256 *c, u8 out[SHA256_DIGEST_SIZE]);
void tlsx_sha256(const void *data, size_t len, u8 out[SHA256_DIGEST_SIZE]);

void tlsx_sha384_init(struct tlsx_sha512 *c);
void tlsx_sha384_final(struct tlsx_sha512 *c, u8 out[SHA384_DIGEST_SIZE]);
void tlsx_sha384(const void *data, size_t len, u8 out[SHA384_DIGEST_SIZE]);

void tlsx_sha512_init(struct tlsx_sha512 *c);
/* Also SHA-384's update. */
void tlsx_sha512_update(struct tlsx_sha512 *c, const void *data, size_t len);
void tlsx_sha512_final(struct tlsx_sha512 *c, u8 out[SHA512_DIGEST_SIZE]);
void tlsx_sha512(const void *data, size_t len, u8 out[SHA512_DIGEST_SIZE]);

/* --- one interface over the three ---------------------------------- */

enum tlsx_hash_alg {
	TLSX_HASH_SHA256 = 1,
	TLSX_HASH_SHA384,
	TLSX_HASH_SHA512,
};

struct tlsx_hash {
	enum tlsx_hash_alg alg;
	union {
		struct tlsx_sha256 s256;
		struct tlsx_sha512 s512;
	};
};

/* 0 for an unknown algorithm. */
size_t tlsx_hash_digest_size(enum tlsx_hash_alg alg);
size_t tlsx_hash_block_size(enum tlsx_hash_alg alg);

/* -EINVAL for an unknown algorithm. */
int tlsx_hash_init(struct tlsx_hash *h, enum tlsx_hash_alg alg);
void tlsx_hash_update(struct tlsx_hash *h, const void *data, size_t len);
/* Writes tlsx_hash_digest_size() bytes and wipes @h. */
void tlsx_hash_final(struct tlsx_hash *h, u8 *out);
int tlsx_hash(enum tlsx_hash_alg alg, const void *data, size_t len, u8 *out);

/*
 * Which SHA-256/SHA-512 code runs: "shani"/"avx2"/"generic",
 * "avx512"/"avx2"/"generic".
 * TLSX_SHA_IMPL=generic in the environment forces the portable code (for
 * tests and valgrind, which cannot run SHA-NI).
 */
const char *tlsx_sha256_impl(void);
const char *tlsx_sha512_impl(void);

/*
 * How deep hashing with @alg's block function reaches below the caller
 * of tlsx_hash_update()/_final(): what a wipe after hashing a secret
 * covers (HMAC, hmac.c).  0 for an unknown algorithm.
 */
size_t tlsx_hash_stack_reach(enum tlsx_hash_alg alg);

#endif /* TLSX_SHA2_H */
