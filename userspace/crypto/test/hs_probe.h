/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs_probe.h - the handshake's secret-key primitives under the stack
 * probe (stack_region.h): X25519, Ed25519, P-256, ML-KEM-768, RSA-PSS,
 * and the HMAC and HKDF of the key schedule, each run twice with its
 * public inputs equal (peer key, message, ciphertext, salt, label) and
 * its private key or secret different.  For
 * test_stack_left (nothing may be left) and test_stack_depth (the
 * wipes reach past all the stack the work touched).  Include after
 * kselftest_harness.h.
 */
#ifndef TLSX_HS_PROBE_H
#define TLSX_HS_PROBE_H

#include "curve25519/x25519.h"
#include "curve25519/ed25519.h"
#include "p256/p256.h"
#include "mlkem/mlkem.h"
#include "rsa/rsa.h"
#include "rsa/test/rsa_test.h"
#include "hash/hmac.h"
#include "hash/hkdf.h"
#include "hash/sha2_impl.h"
#include "rand/random.h"
#include "test/stack_region.h"

#define HS_REGION	(80 * 1024)

/* Everything a run touches, at fixed addresses; [k]: run k's secret. */
static struct hs_inputs {
	u8 seed[2][96];			/* private scalars, seeds, m */
	struct tlsx_ed25519_key ed[2];
	struct tlsx_rsa_private rsa2048[2], rsa4096[2];
	u8 mlkem_ek[2][MLKEM768_EK_SIZE], mlkem_dk[2][MLKEM768_DK_SIZE];
	u8 mlkem_ct[MLKEM768_CT_SIZE];
	u8 x25519_peer[32], p256_peer[P256_POINT_SIZE];
	u8 msg[64], salt[64], extra[32];
	u8 secret[64];	/* run k's HMAC key or HKDF secret, one address */
	u8 out[2 * MLKEM768_DK_SIZE];
} hs;

static u8 hs_seen[2][HS_REGION];

/* The keys and the public inputs (RSA's if @rsa: slow); 0 or -1. */
static int hs_inputs_init(bool rsa)
{
	EVP_PKEY *k;
	int i;

	if (tlsx_random_bytes((u8 *)hs.seed, sizeof(hs.seed)) ||
	    tlsx_random_bytes(hs.msg, sizeof(hs.msg)) ||
	    tlsx_random_bytes(hs.salt, sizeof(hs.salt)) ||
	    tlsx_random_bytes(hs.extra, sizeof(hs.extra)))
		return -1;
	for (i = 0; i < 2; i++) {
		hs.seed[i][0] = 0x40 | (hs.seed[i][0] & 0x3f);	/* < n */
		tlsx_ed25519_key_from_seed(&hs.ed[i], hs.seed[i]);
		tlsx_mlkem768_keygen_internal(hs.mlkem_ek[i], hs.mlkem_dk[i],
					      hs.seed[i], hs.seed[i] + 32);
		if (!rsa)
			continue;
		k = rt_keygen(2048);
		if (!k || rt_export(k, &hs.rsa2048[i]))
			return -1;
		EVP_PKEY_free(k);
		k = rt_keygen(4096);
		if (!k || rt_export(k, &hs.rsa4096[i]))
			return -1;
		EVP_PKEY_free(k);
	}
	tlsx_x25519_public(hs.x25519_peer, hs.seed[0] + 64);
	if (tlsx_p256_public(hs.p256_peer, hs.seed[1] + 64) ||
	    tlsx_mlkem768_encaps_internal(hs.mlkem_ct, hs.out, hs.mlkem_ek[0],
					  hs.seed[0] + 64))
		return -1;
	return 0;
}

enum hs_op {
	HS_X25519, HS_X25519_PUBLIC, HS_ED25519_FROM_SEED, HS_ED25519_SIGN,
	HS_P256_PUBLIC, HS_P256_ECDH, HS_P256_SIGN, HS_MLKEM_KEYGEN,
	HS_MLKEM_ENCAPS, HS_MLKEM_DECAPS, HS_RSA2048_SIGN, HS_RSA4096_SIGN,
	HS_RSA_CHECK, HS_HMAC_SHA256, HS_HMAC_SHA384, HS_HKDF_EXTRACT,
	HS_HKDF_EXPAND_SHA256, HS_HKDF_EXPAND_SHA384, HS_OP_COUNT
};

static const char *const hs_op_names[HS_OP_COUNT] = {
	"X25519", "X25519 public key", "Ed25519 key from seed",
	"Ed25519 sign", "P-256 public key", "P-256 ECDH", "P-256 sign",
	"ML-KEM-768 keygen", "ML-KEM-768 encaps", "ML-KEM-768 decaps",
	"RSA-2048 PSS sign", "RSA-4096 PSS sign", "RSA-2048 key check",
	"HMAC-SHA256", "HMAC-SHA384", "HKDF-Extract (SHA-256)",
	"HKDF-Expand-Label (SHA-256)", "HKDF-Expand-Label (SHA-384)",
};

/* Run @op with run @k's secret; 0 or the primitive's error. */
static noinline int hs_run(enum hs_op op, int k)
{
	const u8 *s = hs.seed[k];

	/*
	 * The key schedule's callers keep a pointer to the secret in their
	 * frames (above the wipe): these take run k's secret from one
	 * address, so the pointer is the same in both runs.
	 */
	if (op >= HS_HMAC_SHA256) {
		memcpy(hs.secret, s, sizeof(hs.secret));
		s = hs.secret;
	}
	switch (op) {
	case HS_X25519:
		return tlsx_x25519(hs.out, s, hs.x25519_peer);
	case HS_X25519_PUBLIC:
		tlsx_x25519_public(hs.out, s);
		return 0;
	case HS_ED25519_FROM_SEED:
		tlsx_ed25519_key_from_seed(&hs.ed[k], s);
		return 0;
	case HS_ED25519_SIGN:
		tlsx_ed25519_sign(hs.out, &hs.ed[k], hs.msg, sizeof(hs.msg));
		return 0;
	case HS_P256_PUBLIC:
		return tlsx_p256_public(hs.out, s);
	case HS_P256_ECDH:
		return tlsx_p256_ecdh(hs.out, s, hs.p256_peer,
				      sizeof(hs.p256_peer));
	case HS_P256_SIGN:
		return tlsx_p256_sign_extra(hs.out, s, TLSX_HASH_SHA256,
					    hs.msg, 32, hs.extra);
	case HS_MLKEM_KEYGEN:
		tlsx_mlkem768_keygen_internal(hs.out, hs.out + 1200, s,
					      s + 32);
		return 0;
	case HS_MLKEM_ENCAPS:
		return tlsx_mlkem768_encaps_internal(hs.out, hs.out + 1200,
						     hs.mlkem_ek[0], s);
	case HS_MLKEM_DECAPS:
		tlsx_mlkem768_decaps(hs.out, hs.mlkem_dk[k], hs.mlkem_ct);
		return 0;
	case HS_RSA2048_SIGN:
		return tlsx_rsa_pss_sign_salt(hs.out, sizeof(hs.out),
					      &hs.rsa2048[k],
					      TLSX_HASH_SHA256, hs.msg, 32,
					      hs.salt);
	case HS_RSA4096_SIGN:
		return tlsx_rsa_pss_sign_salt(hs.out, sizeof(hs.out),
					      &hs.rsa4096[k],
					      TLSX_HASH_SHA384, hs.msg, 48,
					      hs.salt);
	case HS_RSA_CHECK:
		return tlsx_rsa_check_private(&hs.rsa2048[k]);
	case HS_HMAC_SHA256:
		return tlsx_hmac(TLSX_HASH_SHA256, s, 32, hs.msg,
				 sizeof(hs.msg), hs.out);
	case HS_HMAC_SHA384:
		return tlsx_hmac(TLSX_HASH_SHA384, s, 48, hs.msg,
				 sizeof(hs.msg), hs.out);
	case HS_HKDF_EXTRACT:	/* the (EC)DHE secret is the IKM */
		return tlsx_hkdf_extract(TLSX_HASH_SHA256, hs.salt, 32, s, 32,
					 hs.out);
	case HS_HKDF_EXPAND_SHA256:	/* two blocks: T(1) feeds T(2) */
		return tlsx_hkdf_expand_label(TLSX_HASH_SHA256, s,
					      "c hs traffic", hs.msg, 32,
					      hs.out, 48);
	case HS_HKDF_EXPAND_SHA384:
		return tlsx_hkdf_expand_label(TLSX_HASH_SHA384, s,
					      "s ap traffic", hs.msg, 48,
					      hs.out, 64);
	default:
		return -1;
	}
}

/*
 * Both runs of @op, hs_seen[k] holding what run @k left; @before, if not
 * NULL, called after each fill.  Returns the number of bytes that differ
 * (*@lowest: the lowest) and sets *@reached to how deep either run
 * touched the stack, or returns -1 if a run failed.
 */
static int hs_probe(enum hs_op op, void (*before)(void), u8 **lowest,
		    size_t *reached)
{
	size_t j, r;
	int k, bad = 0;

	if (hs_run(op, 0))	/* first-time work (lazy binding) */
		return -1;
	*reached = 0;
	for (k = 0; k < 2; k++) {
		stack_region_fill(HS_REGION);
		if (before)
			before();
		if (hs_run(op, k))
			return -1;
		stack_region_read(HS_REGION);
		memcpy(hs_seen[k], stack_region_got, HS_REGION);
		r = stack_region_reached(hs_seen[k], HS_REGION);
		if (r > *reached)
			*reached = r;
	}
	*lowest = NULL;
	for (j = 0; j < HS_REGION; j++) {
		if (hs_seen[0][j] == hs_seen[1][j])
			continue;
		if (!bad++)
			*lowest = stack_region_base(HS_REGION) + j;
	}
	return bad;
}

#endif /* TLSX_HS_PROBE_H */
