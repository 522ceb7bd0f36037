/* SPDX-License-Identifier: GPL-2.0 */
/*
 * suite.h - everything tlsx knows about a TLS 1.3 cipher suite, from one
 * table (suite_rows.h): its code and name, AEAD, hash, key length, rekey
 * limit, whether it is on by default, and how the kernel takes its keys
 * (the TLS_CIPHER_* and the layout of its tls12_crypto_info_*).
 *
 * The kernel's columns are here, in the engine, so that a suite is one
 * row: <linux/tls.h> is constants and structure layouts only, and
 * nothing here opens a socket; libtlsx's handoff passes what
 * tlsx_suite_kernel_info() fills to setsockopt(TLS_TX/TLS_RX).
 */
#ifndef TLSX_HS_SUITE_H
#define TLSX_HS_SUITE_H

#include <linux/tls.h>

#include "aead/platform.h"
#include "aead/aead.h"
#include "hash/sha2.h"
#include "handshake/engine/keysched.h"

/* The wire codes (RFC 8446 B.4): TLSX_SUITE_AES_128_GCM_SHA256, ... */
enum tlsx_suite_code {
#define TLSX_SUITE_ROW(id, code, ...)	TLSX_SUITE_##id = (code),
#include "handshake/engine/suite_rows.h"
#undef TLSX_SUITE_ROW
};

/* Room for the longest key of any row. */
union tlsx_suite_key_room {
#define TLSX_SUITE_ROW(id, code, aead, hash, key, ...)	u8 id[key];
#include "handshake/engine/suite_rows.h"
#undef TLSX_SUITE_ROW
};

#define TLSX_SUITE_MAX_KEY	sizeof(union tlsx_suite_key_room)

/* Room for the kernel's crypto_info of any row. */
union tlsx_suite_kernel_info {
	struct tls_crypto_info hdr;
#define TLSX_SUITE_ROW(id, code, aead, hash, key, rekey, def, kernel, kinfo) \
	struct tls12_crypto_info_##kinfo id;
#include "handshake/engine/suite_rows.h"
#undef TLSX_SUITE_ROW
};

/*
 * Where a tls12_crypto_info_* keeps what: the 12-byte write IV (7.3) is
 * split as the kernel wants it, salt = IV[0..salt_len) and iv = the rest
 * (net/tls builds the nonce as salt || iv, XORed with the sequence
 * number, 5.3).
 */
struct tlsx_suite_kernel {
	u16 cipher_type;		/* TLS_CIPHER_* */
	u16 size;			/* sizeof(struct tls12_crypto_info_*) */
	u8 key_off, key_len;
	u8 salt_off, salt_len;
	u8 iv_off, iv_len;
	u8 rec_seq_off, rec_seq_len;
};

struct tlsx_suite {
	u16 code;
	const char *name;		/* "TLS_AES_128_GCM_SHA256" */
	enum tlsx_aead_alg aead;
	enum tlsx_hash_alg hash;
	u8 key_len;
	bool by_default;
	u64 rekey_limit;		/* records under one sending key */
	struct tlsx_suite_kernel kernel;
};

/* The rows, in default preference order. */
extern const struct tlsx_suite tlsx_suites[];
extern const unsigned int tlsx_n_suites;

/* The row of @code, or NULL. */
const struct tlsx_suite *tlsx_suite_find(u16 code);
/* The row named @name[0..@len), case-insensitive, or NULL. */
const struct tlsx_suite *tlsx_suite_by_name(const char *name, size_t len);
/* The default suites' codes, in order, into @codes: how many. */
unsigned int tlsx_suite_defaults(u16 *codes, unsigned int cap);

/* The AEAD and hash of cipher suite @suite; -EINVAL for another. */
int tlsx_suite_params(u16 suite, enum tlsx_aead_alg *aead,
		      enum tlsx_hash_alg *hash, size_t *key_len);
/* "TLS_AES_128_GCM_SHA256", ...; "unknown" for another code. */
const char *tlsx_suite_name(u16 suite);

/*
 * Fills @ci for @s, TLS 1.3, with @key (s->key_len bytes) and @iv, for
 * setsockopt(SOL_TLS, TLS_TX or TLS_RX); returns its size
 * (s->kernel.size).  rec_seq is 0.
 */
size_t tlsx_suite_kernel_info(const struct tlsx_suite *s, const u8 *key,
			      const u8 iv[TLSX_IV_SIZE],
			      union tlsx_suite_kernel_info *ci);

#endif /* TLSX_HS_SUITE_H */
