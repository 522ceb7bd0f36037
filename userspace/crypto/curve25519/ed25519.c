// SPDX-License-Identifier: GPL-2.0
/*
 * ed25519.c - Ed25519 (RFC 8032 section 5.1, pure: no context, no
 * prehash), over the Curve25519 implementation c25519_impl_get() chose.
 *
 * Verification is cofactorless, as OpenSSL's: it accepts exactly when
 * the canonical encoding of [S]B - [k]A equals the R of the signature
 * byte for byte, where k = SHA-512(R || A || M) mod L.  RFC 8032
 * section 5.1.7 permits this or the cofactored [8][S]B = [8]R + [8][k]A;
 * the two differ only on signatures built with small-order components,
 * which no honest signer produces, and agreeing with OpenSSL matters
 * more for a TLS peer.  Before that: S must be below L (non-canonical S
 * is the classic malleability), and A must decode as RFC 8032 section
 * 5.1.3 says (y < p, and not x = 0 with the sign bit set).  A
 * non-canonical R never equals an encoding we produce, so it fails too.
 *
 * The one difference from OpenSSL 3.0: it decodes A without those two
 * checks, so a public key with y >= p or a "negative zero" x (only a few
 * such encodings exist, none produced by a signer) is accepted there
 * and rejected here, as the RFC requires (test_ed25519 edge_public_keys
 * shows both answers).  Small-order A is accepted by both.
 */
#include "curve25519/ed25519.h"
#include "hash/sha2.h"
#include "rand/random.h"
#include "curve25519/sc25519.h"
#include "curve25519/c25519_impl.h"
#include "aead/stack_wipe.h"

void c25519_ed25519_key_from_seed(const struct c25519_impl *impl,
				   struct tlsx_ed25519_key *k,
				   const u8 seed[ED25519_SEED_SIZE])
{
	u8 h[SHA512_DIGEST_SIZE];

	memcpy(k->seed, seed, ED25519_SEED_SIZE);
	tlsx_sha512(seed, ED25519_SEED_SIZE, h);
	h[0] &= 248;
	h[31] &= 127;
	h[31] |= 64;
	memcpy(k->scalar, h, 32);
	memcpy(k->prefix, h + 32, 32);
	impl->ed25519_base(k->pub, k->scalar);
	memzero_explicit(h, sizeof(h));
}

/*
 * The entry points that touch the key wipe what the work below them left
 * in the stack (stack_wipe.h): it reaches about 4.3 KiB below the caller
 * (the signature's SHA-512 on AVX2 and the scalar multiplication,
 * test_stack_depth).
 */
#define ED25519_STACK_WIPE	5632

void tlsx_ed25519_key_from_seed(struct tlsx_ed25519_key *k,
				const u8 seed[ED25519_SEED_SIZE])
{
	c25519_ed25519_key_from_seed(c25519_impl_get(), k, seed);
	tlsx_stack_wipe_user(ED25519_STACK_WIPE);
}

int tlsx_ed25519_keygen(struct tlsx_ed25519_key *k)
{
	u8 seed[ED25519_SEED_SIZE];
	int err = tlsx_random_bytes(seed, sizeof(seed));

	if (!err)
		tlsx_ed25519_key_from_seed(k, seed);
	memzero_explicit(seed, sizeof(seed));
	return err;
}

void tlsx_ed25519_key_wipe(struct tlsx_ed25519_key *k)
{
	memzero_explicit(k, sizeof(*k));
}

/* k = SHA-512(R || A || M) mod L */
static void ed25519_challenge(u8 k[32], const u8 r[32], const u8 pub[32],
			      const u8 *msg, size_t len)
{
	struct tlsx_sha512 c;
	u8 h[SHA512_DIGEST_SIZE];

	tlsx_sha512_init(&c);
	tlsx_sha512_update(&c, r, 32);
	tlsx_sha512_update(&c, pub, 32);
	tlsx_sha512_update(&c, msg, len);
	tlsx_sha512_final(&c, h);
	sc25519_reduce(k, h);
}

void c25519_ed25519_sign(const struct c25519_impl *impl,
			  u8 sig[ED25519_SIG_SIZE],
			  const struct tlsx_ed25519_key *k,
			  const u8 *msg, size_t len)
{
	struct tlsx_sha512 c;
	u8 h[SHA512_DIGEST_SIZE], r[32], kk[32];

	/* the nonce r = SHA-512(prefix || M) mod L, and R = r B */
	tlsx_sha512_init(&c);
	tlsx_sha512_update(&c, k->prefix, 32);
	tlsx_sha512_update(&c, msg, len);
	tlsx_sha512_final(&c, h);
	sc25519_reduce(r, h);
	impl->ed25519_base(sig, r);

	/* S = (r + k s) mod L */
	ed25519_challenge(kk, sig, k->pub, msg, len);
	sc25519_muladd(sig + 32, kk, k->scalar, r);

	memzero_explicit(h, sizeof(h));
	memzero_explicit(r, sizeof(r));
}

void tlsx_ed25519_sign(u8 sig[ED25519_SIG_SIZE],
		       const struct tlsx_ed25519_key *k,
		       const u8 *msg, size_t len)
{
	c25519_ed25519_sign(c25519_impl_get(), sig, k, msg, len);
	tlsx_stack_wipe_user(ED25519_STACK_WIPE);
}

int c25519_ed25519_verify(const struct c25519_impl *impl,
			  const u8 sig[ED25519_SIG_SIZE],
			  const u8 pub[ED25519_PUBLIC_SIZE],
			  const u8 *msg, size_t len)
{
	u8 kk[32], rcheck[32];

	if (!sc25519_is_canonical(sig + 32))
		return -EBADMSG;
	ed25519_challenge(kk, sig, pub, msg, len);
	if (impl->ed25519_dsm(rcheck, pub, kk, sig + 32))
		return -EBADMSG;
	return memcmp(rcheck, sig, 32) ? -EBADMSG : 0;
}

int tlsx_ed25519_verify(const u8 sig[ED25519_SIG_SIZE],
			const u8 pub[ED25519_PUBLIC_SIZE],
			const u8 *msg, size_t len)
{
	return c25519_ed25519_verify(c25519_impl_get(), sig, pub, msg, len);
}
