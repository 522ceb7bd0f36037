// SPDX-License-Identifier: GPL-2.0
/*
 * kx_hybrid.c - the ML-KEM-768 hybrid groups of draft-ietf-tls-ecdhe-
 * mlkem (X25519MLKEM768, SecP256r1MLKEM768), group.h's struct
 * tlsx_kx_ops as a KEM: the client's keygen and shared (decapsulation),
 * the server's validate and encaps.  Each is ML-KEM-768 (FIPS 203,
 * crypto/mlkem) beside the classical group's own operations
 * (kx_x25519.c, kx_p256.c), which keep their checks.
 *
 * The draft's layouts (its "Construction" section):
 *
 *   X25519MLKEM768      client: ek (1184) || X25519 (32)
 *                       server: ciphertext (1088) || X25519 (32)
 *                       secret: ML-KEM (32) || X25519 (32)
 *   SecP256r1MLKEM768   client: P-256 point (65) || ek (1184)
 *                       server: P-256 point (65) || ciphertext (1088)
 *                       secret: ECDH (32) || ML-KEM (32)
 *
 * Checks on each part: the encapsulation key by FIPS 203 7.2's modulus
 * check (the draft: "MUST perform the encapsulation key check ... and
 * abort with an illegal_parameter alert if it fails"), X25519's
 * all-zero result (RFC 8446 7.4.2), P-256's point validation (4.2.8.2);
 * the ciphertext's length only (decapsulation never fails: implicit
 * rejection makes a bad ciphertext a secret the server does not have).
 *
 * Our private state is ML-KEM's dk without the ek it holds (the ek is
 * in our share already): dkPKE (1152) || H(ek) (32) || z (32), then the
 * classical scalar (32): 1248 bytes, where the whole dk would be 2400.
 * Decapsulation puts the dk together on the stack and wipes it.
 */
#include "mlkem/mlkem.h"
#include "curve25519/x25519.h"
#include "p256/p256.h"
#include "handshake/engine/kx.h"

#define HY_DKPKE_LEN	1152
#define HY_HZ_LEN	(2 * 32)
#define HY_DK		0
#define HY_ECDH_PRIV	(HY_DKPKE_LEN + HY_HZ_LEN)

_Static_assert(HY_DKPKE_LEN + MLKEM768_EK_SIZE + HY_HZ_LEN ==
	       MLKEM768_DK_SIZE, "FIPS 203's dk = dkPKE || ek || H(ek) || z");

typedef int (*kx_rand_fn)(void *ctx, void *buf, size_t len);

/*
 * One draw for both halves.  The system's source is a getrandom(2) per
 * draw, about 1.1 us here (docs/perf-handshake.md, run 14): as much as
 * a twentieth of ML-KEM's own time, and the hybrid's two halves drew
 * separately (KeyGen's d || z, then the scalar; Encaps' m, then the
 * server's scalar).  So each side draws what both halves need at once
 * and hands it out in the order the halves ask for it: an injected
 * source (the tests') sees the same bytes in the same order, in fewer
 * calls.  What a half asks for beyond it (P-256's rejection sampling,
 * about once in 2^32) comes from @rand itself.
 */
#define HY_DRAW_MAX	(2 * MLKEM_SEED_SIZE + 32)

struct hy_draw {
	u8 buf[HY_DRAW_MAX];
	size_t at, len;
	kx_rand_fn rand;
	void *rand_ctx;
};

static int hy_draw_fill(struct hy_draw *d, size_t len, kx_rand_fn rand,
			void *rand_ctx)
{
	d->at = 0;
	d->len = len;
	d->rand = rand;
	d->rand_ctx = rand_ctx;
	return rand(rand_ctx, d->buf, len);
}

static int hy_draw_take(void *ctx, void *out, size_t len)
{
	struct hy_draw *d = ctx;

	if (len > d->len - d->at)
		return d->rand(d->rand_ctx, out, len);
	memcpy(out, d->buf + d->at, len);
	memzero_explicit(d->buf + d->at, len);
	d->at += len;
	return 0;
}

static void hy_draw_wipe(struct hy_draw *d)
{
	memzero_explicit(d->buf, sizeof(d->buf));
}

/*
 * ML-KEM.KeyGen with d || z drawn from @rand (FIPS 203 algorithm 19):
 * ek into @ek, the dk less its ek into @priv.
 */
static int hy_mlkem_keygen(u8 *priv, u8 *ek, kx_rand_fn rand,
			   void *rand_ctx)
{
	u8 seed[2 * MLKEM_SEED_SIZE], dk[MLKEM768_DK_SIZE];
	int ret = rand(rand_ctx, seed, sizeof(seed));

	if (!ret) {
		tlsx_mlkem768_keygen_internal(ek, dk, seed,
					      seed + MLKEM_SEED_SIZE);
		memcpy(priv, dk, HY_DKPKE_LEN);
		memcpy(priv + HY_DKPKE_LEN, dk + MLKEM768_DK_SIZE - HY_HZ_LEN,
		       HY_HZ_LEN);
	}
	memzero_explicit(seed, sizeof(seed));
	memzero_explicit(dk, sizeof(dk));
	return ret;
}

/* ML-KEM.Decaps with the dk put back together from @priv and @ek. */
static void hy_mlkem_decaps(u8 *ss, const u8 *priv, const u8 *ek,
			    const u8 *ct)
{
	u8 dk[MLKEM768_DK_SIZE];

	memcpy(dk, priv, HY_DKPKE_LEN);
	memcpy(dk + HY_DKPKE_LEN, ek, MLKEM768_EK_SIZE);
	memcpy(dk + HY_DKPKE_LEN + MLKEM768_EK_SIZE, priv + HY_DKPKE_LEN,
	       HY_HZ_LEN);
	tlsx_mlkem768_decaps(ss, dk, ct);
	memzero_explicit(dk, sizeof(dk));
}

/* ML-KEM.Encaps with m from @rand (algorithm 20), ek checked first. */
static int hy_mlkem_encaps(u8 *ss, u8 *ct, const u8 *ek, kx_rand_fn rand,
			   void *rand_ctx)
{
	u8 m[MLKEM_SEED_SIZE];
	int ret = rand(rand_ctx, m, sizeof(m));

	if (!ret && tlsx_mlkem768_encaps_internal(ct, ss, ek, m))
		ret = TLSX_ALERT_ILLEGAL_PARAMETER;
	memzero_explicit(m, sizeof(m));
	return ret;
}

/*
 * The classical half on the server: a fresh key pair of @ops, our share
 * into @pub, the secret with @peer into @out.  The scalar is wiped.
 */
static int hy_ecdh_respond(const struct tlsx_kx_ops *ops, u8 *out, u8 *pub,
			   const u8 *peer, size_t peer_len, kx_rand_fn rand,
			   void *rand_ctx)
{
	u8 priv[32];
	int ret = ops->keygen(priv, pub, rand, rand_ctx);

	if (!ret)
		ret = ops->shared(out, priv, pub, peer, peer_len);
	memzero_explicit(priv, sizeof(priv));
	return ret;
}

/* --- X25519MLKEM768 -------------------------------------------------- */

#define XM_C_EK		0
#define XM_C_X		MLKEM768_EK_SIZE
#define XM_S_CT		0
#define XM_S_X		MLKEM768_CT_SIZE

static int xm_keygen(u8 *priv, u8 *pub, kx_rand_fn rand, void *rand_ctx)
{
	struct hy_draw d;
	int ret = hy_draw_fill(&d, 2 * MLKEM_SEED_SIZE + X25519_KEY_SIZE,
			       rand, rand_ctx);

	if (!ret)
		ret = hy_mlkem_keygen(priv + HY_DK, pub + XM_C_EK,
				      hy_draw_take, &d);
	if (!ret)
		ret = tlsx_kx_x25519.keygen(priv + HY_ECDH_PRIV, pub + XM_C_X,
					    hy_draw_take, &d);
	hy_draw_wipe(&d);
	return ret;
}

static int xm_validate(const u8 *peer, size_t len)
{
	(void)len;
	if (tlsx_mlkem768_check_ek(peer + XM_C_EK))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

static int xm_encaps(u8 *out, u8 *pub, const u8 *peer, size_t len,
		     kx_rand_fn rand, void *rand_ctx)
{
	struct hy_draw d;
	int ret;

	(void)len;
	ret = hy_draw_fill(&d, MLKEM_SEED_SIZE + X25519_KEY_SIZE, rand,
			   rand_ctx);
	if (!ret)
		ret = hy_mlkem_encaps(out, pub + XM_S_CT, peer + XM_C_EK,
				      hy_draw_take, &d);
	if (!ret)
		ret = hy_ecdh_respond(&tlsx_kx_x25519, out + MLKEM_SS_SIZE,
				      pub + XM_S_X, peer + XM_C_X,
				      X25519_KEY_SIZE, hy_draw_take, &d);
	hy_draw_wipe(&d);
	return ret;
}

static int xm_shared(u8 *out, const u8 *priv, const u8 *pub, const u8 *peer,
		     size_t len)
{
	(void)len;
	hy_mlkem_decaps(out, priv + HY_DK, pub + XM_C_EK, peer + XM_S_CT);
	return tlsx_kx_x25519.shared(out + MLKEM_SS_SIZE, priv + HY_ECDH_PRIV,
				     pub + XM_C_X, peer + XM_S_X,
				     X25519_KEY_SIZE);
}

const struct tlsx_kx_ops tlsx_kx_x25519mlkem768 = {
	.keygen = xm_keygen,
	.validate = xm_validate,
	.shared = xm_shared,
	.encaps = xm_encaps,
};

/* --- SecP256r1MLKEM768 ----------------------------------------------- */

#define PM_C_EK		P256_POINT_SIZE
#define PM_S_CT		P256_POINT_SIZE

static int pm_keygen(u8 *priv, u8 *pub, kx_rand_fn rand, void *rand_ctx)
{
	struct hy_draw d;
	int ret = hy_draw_fill(&d, 2 * MLKEM_SEED_SIZE + P256_SCALAR_SIZE,
			       rand, rand_ctx);

	if (!ret)
		ret = hy_mlkem_keygen(priv + HY_DK, pub + PM_C_EK,
				      hy_draw_take, &d);
	if (!ret)
		ret = tlsx_kx_p256.keygen(priv + HY_ECDH_PRIV, pub,
					  hy_draw_take, &d);
	hy_draw_wipe(&d);
	return ret;
}

static int pm_validate(const u8 *peer, size_t len)
{
	(void)len;
	if (tlsx_kx_p256.validate(peer, P256_POINT_SIZE) ||
	    tlsx_mlkem768_check_ek(peer + PM_C_EK))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

static int pm_encaps(u8 *out, u8 *pub, const u8 *peer, size_t len,
		     kx_rand_fn rand, void *rand_ctx)
{
	struct hy_draw d;
	int ret;

	(void)len;
	ret = hy_draw_fill(&d, P256_SCALAR_SIZE + MLKEM_SEED_SIZE, rand,
			   rand_ctx);
	if (!ret)
		ret = hy_ecdh_respond(&tlsx_kx_p256, out, pub, peer,
				      P256_POINT_SIZE, hy_draw_take, &d);
	if (!ret)
		ret = hy_mlkem_encaps(out + P256_SCALAR_SIZE, pub + PM_S_CT,
				      peer + PM_C_EK, hy_draw_take, &d);
	hy_draw_wipe(&d);
	return ret;
}

static int pm_shared(u8 *out, const u8 *priv, const u8 *pub, const u8 *peer,
		     size_t len)
{
	int ret;

	(void)len;
	/* The server's point is checked as any secp256r1 share. */
	ret = tlsx_kx_p256.validate(peer, P256_POINT_SIZE);
	if (!ret)
		ret = tlsx_kx_p256.shared(out, priv + HY_ECDH_PRIV, pub, peer,
					  P256_POINT_SIZE);
	if (!ret)
		hy_mlkem_decaps(out + P256_SCALAR_SIZE, priv + HY_DK,
				pub + PM_C_EK, peer + PM_S_CT);
	return ret;
}

const struct tlsx_kx_ops tlsx_kx_secp256r1mlkem768 = {
	.keygen = pm_keygen,
	.validate = pm_validate,
	.shared = pm_shared,
	.encaps = pm_encaps,
};
