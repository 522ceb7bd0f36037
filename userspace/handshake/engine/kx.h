/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kx.h - the key exchange of the handshake (RFC 8446 4.2.8, 7.4): our
 * key share and the shared secret with the peer's, for any group of
 * group.h's table, through the row's operations (kx_*.c, one file per
 * group).
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
#include "handshake/engine/group.h"

#define TLSX_KX_MAX_PUB		TLSX_GROUP_MAX_SHARE
#define TLSX_KX_MAX_SHARED	TLSX_GROUP_MAX_SECRET

/*
 * Our share's length is the row's (tlsx_kx_pub_len()), not kept here:
 * two of these are in every struct tlsx_hs.
 */
struct tlsx_kx {
	u16 group;			/* TLSX_GROUP_*; 0: unused */
	bool server;			/* ours is the server's share */
	u8 priv[TLSX_GROUP_MAX_PRIV];
	u8 pub[TLSX_KX_MAX_PUB];
};

/* Whether tlsx implements @group. */
bool tlsx_kx_supported(u16 group);

/*
 * A fresh key pair for @group, the private key from @rand, our share
 * the client's or (@server) the server's: 0, -EINVAL for a group tlsx
 * does not do, or @rand's error.
 */
int tlsx_kx_generate(struct tlsx_kx *kx, u16 group, bool server,
		     int (*rand)(void *ctx, void *buf, size_t len),
		     void *rand_ctx);

/*
 * The server's side in one step: our share for @group in @kx (as
 * tlsx_kx_generate(.., true, ..) would leave it) and the shared secret
 * with the client's @peer in @out, *@out_len bytes.  A Diffie-Hellman
 * group draws a key pair and wipes its private half; a KEM (the ML-KEM
 * hybrids) encapsulates to @peer.  Errors as tlsx_kx_shared(); -EINVAL
 * for a group tlsx does not do.
 */
int tlsx_kx_respond(struct tlsx_kx *kx, u16 group, const u8 *peer,
		    size_t peer_len,
		    int (*rand)(void *ctx, void *buf, size_t len),
		    void *rand_ctx, u8 out[TLSX_KX_MAX_SHARED],
		    size_t *out_len);

/*
 * The shared secret with the peer's key_exchange @peer[0..@peer_len):
 * *@out_len bytes (the row's secret length) in @out.  0, or
 * TLSX_ALERT_ILLEGAL_PARAMETER for a share of the wrong length, or one
 * the group's validation refuses (a secp256r1 point that is not
 * uncompressed or not on the curve, 4.2.8.2) or whose result it refuses
 * (an X25519 result of all zeros, 7.4.2); a negative errno for a @kx
 * not set up.
 */
int tlsx_kx_shared(const struct tlsx_kx *kx, const u8 *peer, size_t peer_len,
		   u8 out[TLSX_KX_MAX_SHARED], size_t *out_len);

/* The length of our share in @kx->pub; 0 for a @kx not set up. */
size_t tlsx_kx_pub_len(const struct tlsx_kx *kx);

void tlsx_kx_wipe(struct tlsx_kx *kx);

#endif /* TLSX_HS_KX_H */
