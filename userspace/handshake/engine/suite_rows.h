/* SPDX-License-Identifier: GPL-2.0 */
/*
 * suite_rows.h - the TLS 1.3 cipher suites tlsx implements, one row each,
 * in default preference order (suite.h expands the rows; no include
 * guard, on purpose).  A new suite whose AEAD aead/aead.h has is one row
 * here; test_suite.c checks every row against the RFC and the kernel.
 *
 *   id:	TLSX_SUITE_<id> is the code, "TLS_<id>" the IANA name
 *   code:	RFC 8446 B.4
 *   aead:	TLSX_AEAD_<aead> (aead/aead.h)
 *   hash:	TLSX_HASH_<hash>, the key schedule's and the tickets'
 *   key:	the AEAD key length, bytes (7.3's key_length)
 *   rekey:	records one key may seal before a KeyUpdate (5.5): AES-GCM
 *		2^24.5 full-size records, taken as 2^24; ChaCha20-Poly1305
 *		none below the sequence number's wrap; AES-CCM half of
 *		AES-GCM's, as it runs the block cipher twice per block
 *		(5.5 names no figure for it)
 *   default:	offered and accepted when the configuration lists no
 *		suites (CCM only when listed)
 *   kernel:	the kernel's TLS_CIPHER_<kernel> and its
 *		struct tls12_crypto_info_<kinfo> (<linux/tls.h>)
 */
/*             id                        code    aead                 hash    key rekey          default kernel              kinfo */
TLSX_SUITE_ROW(AES_128_GCM_SHA256,       0x1301, AES_128_GCM,         SHA256, 16, 1ULL << 24,    true,   AES_GCM_128,        aes_gcm_128)
TLSX_SUITE_ROW(AES_256_GCM_SHA384,       0x1302, AES_256_GCM,         SHA384, 32, 1ULL << 24,    true,   AES_GCM_256,        aes_gcm_256)
TLSX_SUITE_ROW(CHACHA20_POLY1305_SHA256, 0x1303, CHACHA20_POLY1305,   SHA256, 32, ~0ULL,         true,   CHACHA20_POLY1305,  chacha20_poly1305)
TLSX_SUITE_ROW(AES_128_CCM_SHA256,       0x1304, AES_128_CCM,         SHA256, 16, 1ULL << 23,    false,  AES_CCM_128,        aes_ccm_128)
