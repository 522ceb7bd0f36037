/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ed25519.h - Ed25519 signatures (RFC 8032, pure Ed25519, no context).
 * Signing is constant-time in the private key and the nonce; verification
 * works on public data and may take variable time.
 */
#ifndef TLSX_ED25519_H
#define TLSX_ED25519_H

#include "aead/platform.h"

#define ED25519_SEED_SIZE	32
#define ED25519_PUBLIC_SIZE	32
#define ED25519_SIG_SIZE	64

/* The expanded private key: kept so signing does not rehash the seed. */
struct tlsx_ed25519_key {
	u8 seed[ED25519_SEED_SIZE];
	u8 scalar[32];		/* clamped s, little-endian */
	u8 prefix[32];		/* second half of SHA-512(seed) */
	u8 pub[ED25519_PUBLIC_SIZE];
};

void tlsx_ed25519_key_from_seed(struct tlsx_ed25519_key *k,
				const u8 seed[ED25519_SEED_SIZE]);
int tlsx_ed25519_keygen(struct tlsx_ed25519_key *k);
/* Wipes the key. */
void tlsx_ed25519_key_wipe(struct tlsx_ed25519_key *k);

void tlsx_ed25519_sign(u8 sig[ED25519_SIG_SIZE],
		       const struct tlsx_ed25519_key *k,
		       const u8 *msg, size_t len);

/*
 * 0 when @sig is a valid signature of @msg by @pub; -EBADMSG otherwise
 * (including a non-canonical S >= L or an undecodable point), -EINVAL
 * never: every input is merely data.
 */
int tlsx_ed25519_verify(const u8 sig[ED25519_SIG_SIZE],
			const u8 pub[ED25519_PUBLIC_SIZE],
			const u8 *msg, size_t len);

#endif /* TLSX_ED25519_H */
