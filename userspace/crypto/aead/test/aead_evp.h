/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aead_evp.h - OpenSSL's EVP cipher for each tlsx AEAD: the reference of
 * the tests and the anchor of the benchmark (tools/bench/crypto.c).
 */
#ifndef TLSX_AEAD_EVP_H
#define TLSX_AEAD_EVP_H

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
	}
	return NULL;
}

#endif /* TLSX_AEAD_EVP_H */
