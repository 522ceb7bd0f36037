// SPDX-License-Identifier: GPL-2.0
/*
 * keysched.c - the TLS 1.3 key schedule (RFC 8446 section 7.1) and the
 * functions of its secrets; the contract is in keysched.h.  HKDF,
 * HKDF-Expand-Label and Derive-Secret are hash/hkdf.c's.
 */
#include "hash/hkdf.h"
#include "hash/hmac.h"
#include "handshake/engine/keysched.h"

static const struct {
	const char *label;
	enum tlsx_ks_stage stage;
	bool empty;		/* over Transcript-Hash("") */
} ks_secrets[] = {
	[TLSX_KS_EXT_BINDER] = { "ext binder", TLSX_KS_EARLY, true },
	[TLSX_KS_RES_BINDER] = { "res binder", TLSX_KS_EARLY, true },
	[TLSX_KS_C_E_TRAFFIC] = { "c e traffic", TLSX_KS_EARLY, false },
	[TLSX_KS_E_EXP_MASTER] = { "e exp master", TLSX_KS_EARLY, false },
	[TLSX_KS_C_HS_TRAFFIC] = { "c hs traffic", TLSX_KS_HANDSHAKE, false },
	[TLSX_KS_S_HS_TRAFFIC] = { "s hs traffic", TLSX_KS_HANDSHAKE, false },
	[TLSX_KS_C_AP_TRAFFIC] = { "c ap traffic", TLSX_KS_MASTER, false },
	[TLSX_KS_S_AP_TRAFFIC] = { "s ap traffic", TLSX_KS_MASTER, false },
	[TLSX_KS_EXP_MASTER] = { "exp master", TLSX_KS_MASTER, false },
	[TLSX_KS_RES_MASTER] = { "res master", TLSX_KS_MASTER, false },
};

static bool ks_alg_ok(enum tlsx_hash_alg alg)
{
	return alg == TLSX_HASH_SHA256 || alg == TLSX_HASH_SHA384;
}

int tlsx_ks_init(struct tlsx_ks *ks, enum tlsx_hash_alg alg, const u8 *psk,
		 size_t psk_len)
{
	static const u8 zeros[TLSX_KS_MAX_SECRET];
	int ret;

	ks->stage = TLSX_KS_NONE;
	if (!ks_alg_ok(alg))
		return -EINVAL;
	ks->alg = alg;
	/* RFC 8446 7.1: "if no PSK is selected, it will then be a string of
	 * Hash.length bytes set to zeros" (the salt 0 is hkdf.c's).
	 */
	if (!psk) {
		psk = zeros;
		psk_len = tlsx_hash_digest_size(alg);
	}
	ret = tlsx_hkdf_extract(alg, NULL, 0, psk, psk_len, ks->secret);
	if (ret)
		return ret;
	ks->stage = TLSX_KS_EARLY;
	return 0;
}

/*
 * secret = HKDF-Extract(Derive-Secret(secret, "derived", ""), @ikm or
 * HashLen zeros), in place, "derived" wiped.
 */
static int ks_next(struct tlsx_ks *ks, const u8 *ikm, size_t ikm_len)
{
	static const u8 zeros[TLSX_KS_MAX_SECRET];
	size_t hl = tlsx_hash_digest_size(ks->alg);
	u8 empty[TLSX_KS_MAX_SECRET], derived[TLSX_KS_MAX_SECRET];
	int ret;

	if (!ikm) {
		ikm = zeros;
		ikm_len = hl;
	}
	ret = tlsx_hash(ks->alg, NULL, 0, empty);
	if (!ret)
		ret = tlsx_derive_secret(ks->alg, ks->secret, "derived", empty,
					 derived);
	if (!ret)
		ret = tlsx_hkdf_extract(ks->alg, derived, hl, ikm, ikm_len,
					ks->secret);
	memzero_explicit(derived, sizeof(derived));
	if (ret)
		tlsx_ks_wipe(ks);
	return ret;
}

int tlsx_ks_handshake(struct tlsx_ks *ks, const u8 *dhe, size_t dhe_len)
{
	int ret;

	if (ks->stage != TLSX_KS_EARLY)
		return -EPROTO;
	ret = ks_next(ks, dhe, dhe_len);
	if (!ret)
		ks->stage = TLSX_KS_HANDSHAKE;
	return ret;
}

int tlsx_ks_master(struct tlsx_ks *ks)
{
	int ret;

	if (ks->stage != TLSX_KS_HANDSHAKE)
		return -EPROTO;
	ret = ks_next(ks, NULL, 0);
	if (!ret)
		ks->stage = TLSX_KS_MASTER;
	return ret;
}

int tlsx_ks_derive(struct tlsx_ks *ks, enum tlsx_ks_secret which,
		   const u8 *th, u8 *out)
{
	u8 empty[TLSX_KS_MAX_SECRET];
	int ret;

	if ((unsigned int)which >= ARRAY_SIZE(ks_secrets) ||
	    ks->stage == TLSX_KS_NONE || ks_secrets[which].stage != ks->stage)
		return -EPROTO;
	if (ks_secrets[which].empty) {
		ret = tlsx_hash(ks->alg, NULL, 0, empty);
		if (ret)
			return ret;
		th = empty;
	}
	return tlsx_derive_secret(ks->alg, ks->secret, ks_secrets[which].label,
				  th, out);
}

void tlsx_ks_wipe(struct tlsx_ks *ks)
{
	memzero_explicit(ks->secret, sizeof(ks->secret));
	ks->stage = TLSX_KS_NONE;
}

int tlsx_traffic_keys(enum tlsx_hash_alg alg, const u8 *secret, u8 *key,
		      size_t key_len, u8 iv[TLSX_IV_SIZE])
{
	int ret;

	if (!ks_alg_ok(alg))
		return -EINVAL;
	ret = tlsx_hkdf_expand_label(alg, secret, "key", NULL, 0, key,
				     key_len);
	if (!ret)
		ret = tlsx_hkdf_expand_label(alg, secret, "iv", NULL, 0, iv,
					     TLSX_IV_SIZE);
	if (ret)
		memzero_explicit(key, key_len);
	return ret;
}

int tlsx_next_traffic_secret(enum tlsx_hash_alg alg, u8 *secret)
{
	u8 next[TLSX_KS_MAX_SECRET];
	size_t hl = tlsx_hash_digest_size(alg);
	int ret;

	if (!ks_alg_ok(alg))
		return -EINVAL;
	ret = tlsx_hkdf_expand_label(alg, secret, "traffic upd", NULL, 0,
				     next, hl);
	if (!ret)
		memcpy(secret, next, hl);
	memzero_explicit(next, sizeof(next));
	return ret;
}

int tlsx_finished_mac(enum tlsx_hash_alg alg, const u8 *base_key,
		      const u8 *th, u8 *out)
{
	u8 key[TLSX_KS_MAX_SECRET];
	size_t hl = tlsx_hash_digest_size(alg);
	int ret;

	if (!ks_alg_ok(alg))
		return -EINVAL;
	ret = tlsx_hkdf_expand_label(alg, base_key, "finished", NULL, 0, key,
				     hl);
	if (!ret)
		ret = tlsx_hmac(alg, key, hl, th, hl, out);
	memzero_explicit(key, sizeof(key));
	return ret;
}

int tlsx_ct_memeq(const void *a, const void *b, size_t len)
{
	const u8 *x = a, *y = b;
	u8 d = 0;
	size_t i;

	/* The barrier keeps the compiler from leaving the loop early. */
	for (i = 0; i < len; i++) {
		d |= x[i] ^ y[i];
		__asm__ ("" : "+r" (d));
	}
	return (int)(((u32)d - 1) >> 31);
}

static int mac_check(enum tlsx_hash_alg alg, const u8 *base_key,
		     const u8 *th, const u8 *got)
{
	u8 want[TLSX_KS_MAX_SECRET];
	int ret = tlsx_finished_mac(alg, base_key, th, want);

	if (!ret && !tlsx_ct_memeq(want, got, tlsx_hash_digest_size(alg)))
		ret = TLSX_ALERT_DECRYPT_ERROR;
	memzero_explicit(want, sizeof(want));
	return ret;
}

int tlsx_finished_check(enum tlsx_hash_alg alg, const u8 *base_key,
			const u8 *th, const u8 *got, size_t len)
{
	if (!ks_alg_ok(alg))
		return -EINVAL;
	/* RFC 8446 4.4.4: verify_data is Hash.length bytes. */
	if (len != tlsx_hash_digest_size(alg))
		return TLSX_ALERT_DECODE_ERROR;
	/* RFC 8446 4.4.4: "if incorrect MUST terminate the connection
	 * with a "decrypt_error" alert".
	 */
	return mac_check(alg, base_key, th, got);
}

int tlsx_binder_check(enum tlsx_hash_alg alg, const u8 *binder_key,
		      const u8 *th, const u8 *got, size_t len)
{
	if (!ks_alg_ok(alg))
		return -EINVAL;
	/* RFC 8446 4.2.11: a binder that does not validate aborts; 6.2
	 * names decrypt_error for it.  The length is public.
	 */
	if (len != tlsx_hash_digest_size(alg))
		return TLSX_ALERT_DECRYPT_ERROR;
	return mac_check(alg, binder_key, th, got);
}

int tlsx_resumption_psk(enum tlsx_hash_alg alg, const u8 *res_master,
			const u8 *nonce, size_t nonce_len, u8 *out)
{
	if (!ks_alg_ok(alg) || nonce_len > 255)
		return -EINVAL;
	return tlsx_hkdf_expand_label(alg, res_master, "resumption", nonce,
				      nonce_len, out,
				      tlsx_hash_digest_size(alg));
}
