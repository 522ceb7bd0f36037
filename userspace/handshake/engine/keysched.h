/* SPDX-License-Identifier: GPL-2.0 */
/*
 * keysched.h - the TLS 1.3 key schedule (RFC 8446 section 7.1) as
 * explicit stages, and the functions of its secrets: traffic keys (7.3),
 * Finished (4.4.4), PSK binders (4.2.11.2), KeyUpdate (7.2) and the
 * resumption PSK (4.6.1).  Built on hash/hkdf.h.
 *
 * A struct tlsx_ks holds one secret, the current stage's:
 *
 *   tlsx_ks_init(psk)         -> EARLY      ext/res binder, c e traffic,
 *                                           e exp master
 *   tlsx_ks_handshake(dhe)    -> HANDSHAKE  c hs traffic, s hs traffic
 *   tlsx_ks_master()          -> MASTER     c ap traffic, s ap traffic,
 *                                           exp master, res master
 *   tlsx_ks_wipe()            -> NONE
 *
 * tlsx_ks_derive() refuses a secret of another stage with -EPROTO, and a
 * stage moves only forward, one step at a time, so no secret can be
 * derived out of order (a handshake secret before the DHE, a traffic
 * secret from a wiped schedule).  Moving on overwrites the previous
 * stage's secret; every intermediate ("derived", finished keys, HMAC
 * contexts) is wiped before return.  Only the suites' hashes: SHA-256 and
 * SHA-384 (-EINVAL for another).
 *
 * Transcript hashes (@th) are HashLen bytes, from handshake/engine/transcript.h.
 */
#ifndef TLSX_HS_KEYSCHED_H
#define TLSX_HS_KEYSCHED_H

#include "hash/sha2.h"
#include "handshake/engine/alert.h"

#define TLSX_KS_MAX_SECRET	SHA384_DIGEST_SIZE
#define TLSX_IV_SIZE		12	/* every TLS 1.3 AEAD (7.3) */

enum tlsx_ks_stage {
	TLSX_KS_NONE = 0,
	TLSX_KS_EARLY,
	TLSX_KS_HANDSHAKE,
	TLSX_KS_MASTER,
};

/* What tlsx_ks_derive() derives: Derive-Secret's labels, by stage. */
enum tlsx_ks_secret {
	TLSX_KS_EXT_BINDER,	/* EARLY, over "" (@th ignored) */
	TLSX_KS_RES_BINDER,	/* EARLY, over "" (@th ignored) */
	TLSX_KS_C_E_TRAFFIC,	/* EARLY, over ClientHello */
	TLSX_KS_E_EXP_MASTER,	/* EARLY, over ClientHello */
	TLSX_KS_C_HS_TRAFFIC,	/* HANDSHAKE, over ClientHello..ServerHello */
	TLSX_KS_S_HS_TRAFFIC,
	TLSX_KS_C_AP_TRAFFIC,	/* MASTER, over ClientHello..server Finished */
	TLSX_KS_S_AP_TRAFFIC,
	TLSX_KS_EXP_MASTER,
	TLSX_KS_RES_MASTER,	/* MASTER, over ClientHello..client Finished */
};

struct tlsx_ks {
	enum tlsx_hash_alg alg;
	enum tlsx_ks_stage stage;
	u8 secret[TLSX_KS_MAX_SECRET];
};

/*
 * Early Secret = HKDF-Extract(0, PSK); without a PSK (@psk NULL) HashLen
 * zeros.  -> EARLY.  -EINVAL for a hash other than SHA-256/384.
 */
int tlsx_ks_init(struct tlsx_ks *ks, enum tlsx_hash_alg alg, const u8 *psk,
		 size_t psk_len);

/*
 * Handshake Secret = HKDF-Extract(Derive-Secret(Early, "derived", ""),
 * (EC)DHE); without one (psk_ke, @dhe NULL) HashLen zeros.  EARLY ->
 * HANDSHAKE, else -EPROTO.  The caller wipes @dhe.
 */
int tlsx_ks_handshake(struct tlsx_ks *ks, const u8 *dhe, size_t dhe_len);

/*
 * Master Secret = HKDF-Extract(Derive-Secret(Handshake, "derived", ""),
 * 0).  HANDSHAKE -> MASTER, else -EPROTO.
 */
int tlsx_ks_master(struct tlsx_ks *ks);

/*
 * Derive-Secret(current secret, label of @which, @th) into @out (HashLen
 * bytes); -EPROTO when @which belongs to another stage (@out untouched).
 */
int tlsx_ks_derive(struct tlsx_ks *ks, enum tlsx_ks_secret which,
		   const u8 *th, u8 *out);

/* Wipes the secret; -> NONE.  Every derivation after it fails. */
void tlsx_ks_wipe(struct tlsx_ks *ks);

/* HashLen of @ks's hash. */
static inline size_t tlsx_ks_hash_len(const struct tlsx_ks *ks)
{
	return tlsx_hash_digest_size(ks->alg);
}

/*
 * RFC 8446 7.3: [sender]_write_key = HKDF-Expand-Label(Secret, "key", "",
 * @key_len) and [sender]_write_iv = HKDF-Expand-Label(Secret, "iv", "",
 * TLSX_IV_SIZE).  @secret is HashLen bytes.
 */
int tlsx_traffic_keys(enum tlsx_hash_alg alg, const u8 *secret, u8 *key,
		      size_t key_len, u8 iv[TLSX_IV_SIZE]);

/*
 * RFC 8446 7.2: application_traffic_secret_N+1 = HKDF-Expand-Label(
 * application_traffic_secret_N, "traffic upd", "", Hash.length), in place
 * (the old secret is overwritten).
 */
int tlsx_next_traffic_secret(enum tlsx_hash_alg alg, u8 *secret);

/*
 * RFC 8446 4.4.4: verify_data = HMAC(finished_key, @th), finished_key =
 * HKDF-Expand-Label(@base_key, "finished", "", Hash.length).  The base key
 * is a handshake traffic secret, or a binder key for a PSK binder
 * (4.2.11.2, @th then the hash of the truncated ClientHello).  Writes
 * HashLen bytes; the finished key is wiped.
 */
int tlsx_finished_mac(enum tlsx_hash_alg alg, const u8 *base_key,
		      const u8 *th, u8 *out);

/*
 * Checks a received Finished's verify_data in constant time: 0,
 * TLSX_ALERT_DECODE_ERROR when @len is not HashLen (the message's length
 * is wrong), TLSX_ALERT_DECRYPT_ERROR when it differs (4.4.4), or a
 * negative errno.
 */
int tlsx_finished_check(enum tlsx_hash_alg alg, const u8 *base_key,
			const u8 *th, const u8 *got, size_t len);

/*
 * Checks a PSK binder (4.2.11.2) in constant time: 0,
 * TLSX_ALERT_DECRYPT_ERROR when it does not validate, whatever its length
 * (6.2: "unable to ... validate ... a PSK binder").
 */
int tlsx_binder_check(enum tlsx_hash_alg alg, const u8 *binder_key,
		      const u8 *th, const u8 *got, size_t len);

/*
 * RFC 8446 4.6.1: the PSK of a ticket = HKDF-Expand-Label(
 * resumption_master_secret, "resumption", ticket_nonce, Hash.length).
 * -EINVAL for a nonce over 255 bytes (ticket_nonce<0..255>).
 */
int tlsx_resumption_psk(enum tlsx_hash_alg alg, const u8 *res_master,
			const u8 *nonce, size_t nonce_len, u8 *out);

/* Equal in time independent of the contents: 1 if equal, else 0. */
int tlsx_ct_memeq(const void *a, const void *b, size_t len);

#endif /* TLSX_HS_KEYSCHED_H */
