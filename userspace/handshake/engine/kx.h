/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kx.h - the (EC)DHE key exchange of the handshake (RFC 8446 4.2.8,
 * 7.4): X25519 and secp256r1, our key share and the shared secret with
 * the peer's.
 *
 * Private keys are drawn through the caller's random function (the
 * engine's cfg->rand, so tests inject RFC 8448's).  Peer shares are
 * validated as 4.2.8.2 and 7.4.2 require; every failure the peer causes
 * is illegal_parameter.  tlsx_kx_wipe() erases the private key; the
 * caller wipes the shared secret once the key schedule has it.
 */
#ifndef TLSX_HS_KX_H
#define TLSX_HS_KX_H

#include "aead/platform.h"
#include "handshake/engine/alert.h"

#define TLSX_KX_MAX_PUB		65	/* secp256r1 uncompressed */
#define TLSX_KX_MAX_SHARED	32

struct tlsx_kx {
	u16 group;			/* TLSX_GROUP_*; 0: unused */
	u8 priv[32];
	u8 pub[TLSX_KX_MAX_PUB];
	u8 pub_len;
};

/* Whether tlsx implements @group. */
bool tlsx_kx_supported(u16 group);

/*
 * A fresh key pair for @group, the private key from @rand: 0, -EINVAL
 * for a group tlsx does not do, or @rand's error.
 */
int tlsx_kx_generate(struct tlsx_kx *kx, u16 group,
		     int (*rand)(void *ctx, void *buf, size_t len),
		     void *rand_ctx);

/*
 * The shared secret with the peer's key_exchange @peer[0..@peer_len):
 * *@out_len bytes (32 for both groups) in @out.  0, or
 * TLSX_ALERT_ILLEGAL_PARAMETER for a share of the wrong length, a
 * secp256r1 point that is not uncompressed or not on the curve
 * (4.2.8.2), an X25519 result of all zeros (7.4.2); a negative errno
 * for a @kx not set up.
 */
int tlsx_kx_shared(const struct tlsx_kx *kx, const u8 *peer, size_t peer_len,
		   u8 out[TLSX_KX_MAX_SHARED], size_t *out_len);

void tlsx_kx_wipe(struct tlsx_kx *kx);

#endif /* TLSX_HS_KX_H */
