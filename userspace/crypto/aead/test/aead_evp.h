/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aead_evp.h - OpenSSL's EVP cipher for each tlsx AEAD: the reference of
 * the tests and the anchor of the benchmark (tools/bench/crypto.c).
 *
 * Records go through aead_evp_setkey() once and aead_evp_seal() or
 * aead_evp_open() per record, which is what a TLS record layer does with
 * EVP: for GCM and ChaCha20-Poly1305 set the IV, add the associated
 * data, process the payload, finish and get or set the tag; for CCM
 * (whose first block encodes the length) also set the tag length and
 * the 12-byte IV length before the key, the tag before decrypting, and
 * the total length before the associated data, and pass the payload in
 * one call, even when empty.
 */
#ifndef TLSX_AEAD_EVP_H
#define TLSX_AEAD_EVP_H

#include <stdbool.h>
#include <openssl/evp.h>

#include "aead/aead.h"

static inline const EVP_CIPHER *aead_evp_cipher(enum tlsx_aead_alg alg)
{
	switch (alg) {
	case TLSX_AEAD_AES_128_GCM:
		return EVP_aes_128_gcm();
	case TLSX_AEAD_AES_256_GCM:
		return EVP_aes_256_gcm();
	case TLSX_AEAD_CHACHA20_POLY1305:
		return EVP_chacha20_poly1305();
	case TLSX_AEAD_AES_128_CCM:
		return EVP_aes_128_ccm();
	}
	return NULL;
}

/* Set @ctx up for @alg with @key, to encrypt (@enc) or decrypt. */
static inline bool aead_evp_setkey(EVP_CIPHER_CTX *ctx,
				   enum tlsx_aead_alg alg, const u8 *key,
				   bool enc)
{
	if (!EVP_CipherInit_ex(ctx, aead_evp_cipher(alg), NULL, NULL, NULL,
			       enc))
		return false;
	if (alg == TLSX_AEAD_AES_128_CCM &&
	    (!EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN,
				  TLSX_AEAD_NONCE_LEN, NULL) ||
	     !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
				  TLSX_AEAD_TAG_LEN, NULL)))
		return false;
	return EVP_CipherInit_ex(ctx, NULL, NULL, key, NULL, enc);
}

/* One record: @len bytes of @pt to @ct (either NULL when @len is 0). */
static inline bool aead_evp_seal(EVP_CIPHER_CTX *ctx, enum tlsx_aead_alg alg,
				 const u8 *nonce, const u8 *ad, size_t ad_len,
				 const u8 *pt, size_t len, u8 *ct, u8 *tag)
{
	bool ccm = alg == TLSX_AEAD_AES_128_CCM;
	u8 dummy[16];
	int l;

	if (!EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, nonce))
		return false;
	if (ccm && !EVP_EncryptUpdate(ctx, NULL, &l, NULL, (int)len))
		return false;
	if (ad_len && !EVP_EncryptUpdate(ctx, NULL, &l, ad, (int)ad_len))
		return false;
	l = 0;
	if ((len || ccm) &&
	    !EVP_EncryptUpdate(ctx, len ? ct : dummy, &l, len ? pt : dummy,
			       (int)len))
		return false;
	return EVP_EncryptFinal_ex(ctx, len ? ct + l : dummy, &l) &&
	       EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
				   TLSX_AEAD_TAG_LEN, tag);
}

/* One record; true when @tag matches. */
static inline bool aead_evp_open(EVP_CIPHER_CTX *ctx, enum tlsx_aead_alg alg,
				 const u8 *nonce, const u8 *ad, size_t ad_len,
				 const u8 *ct, size_t len, u8 *pt,
				 const u8 *tag)
{
	bool ccm = alg == TLSX_AEAD_AES_128_CCM;
	u8 dummy[16];
	int l;

	if (!EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, nonce))
		return false;
	if (ccm) {
		/* The tag first; the payload call checks it. */
		return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
					   TLSX_AEAD_TAG_LEN, (void *)tag) &&
		       EVP_DecryptUpdate(ctx, NULL, &l, NULL, (int)len) &&
		       (!ad_len ||
			EVP_DecryptUpdate(ctx, NULL, &l, ad, (int)ad_len)) &&
		       EVP_DecryptUpdate(ctx, len ? pt : dummy, &l,
					 len ? ct : dummy, (int)len) > 0;
	}
	l = 0;
	if (ad_len && !EVP_DecryptUpdate(ctx, NULL, &l, ad, (int)ad_len))
		return false;
	if (len && !EVP_DecryptUpdate(ctx, pt, &l, ct, (int)len))
		return false;
	return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG,
				   TLSX_AEAD_TAG_LEN, (void *)tag) &&
	       EVP_DecryptFinal_ex(ctx, len ? pt + l : dummy, &l) > 0;
}

#endif /* TLSX_AEAD_EVP_H */
