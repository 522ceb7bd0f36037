// SPDX-License-Identifier: GPL-2.0
/*
 * suite.c - the cipher suite table (suite_rows.h) and its lookups; the
 * contract is in suite.h.
 */
#include <stddef.h>
#include <strings.h>

#include "handshake/engine/suite.h"

#define FIELD_SIZE(type, f)	sizeof(((type *)0)->f)

/* The layout of struct tls12_crypto_info_@kinfo, from <linux/tls.h>. */
#define KERNEL_LAYOUT(kcipher, kinfo) {					\
	.cipher_type = TLS_CIPHER_##kcipher,				\
	.size = sizeof(struct tls12_crypto_info_##kinfo),		\
	.key_off = offsetof(struct tls12_crypto_info_##kinfo, key),	\
	.key_len = FIELD_SIZE(struct tls12_crypto_info_##kinfo, key),	\
	.salt_off = offsetof(struct tls12_crypto_info_##kinfo, salt),	\
	.salt_len = FIELD_SIZE(struct tls12_crypto_info_##kinfo, salt), \
	.iv_off = offsetof(struct tls12_crypto_info_##kinfo, iv),	\
	.iv_len = FIELD_SIZE(struct tls12_crypto_info_##kinfo, iv),	\
	.rec_seq_off = offsetof(struct tls12_crypto_info_##kinfo, rec_seq), \
	.rec_seq_len = FIELD_SIZE(struct tls12_crypto_info_##kinfo, rec_seq), \
}

const struct tlsx_suite tlsx_suites[] = {
#define TLSX_SUITE_ROW(id, c, aead_id, hash_id, key, rekey, def, kcipher, kinfo) \
	{								\
		.code = (c),						\
		.name = "TLS_" #id,					\
		.aead = TLSX_AEAD_##aead_id,				\
		.hash = TLSX_HASH_##hash_id,				\
		.key_len = (key),					\
		.by_default = (def),					\
		.rekey_limit = (rekey),					\
		.kernel = KERNEL_LAYOUT(kcipher, kinfo),			\
	},
#include "handshake/engine/suite_rows.h"
#undef TLSX_SUITE_ROW
};

const unsigned int tlsx_n_suites = ARRAY_SIZE(tlsx_suites);

const struct tlsx_suite *tlsx_suite_find(u16 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tlsx_suites); i++)
		if (tlsx_suites[i].code == code)
			return &tlsx_suites[i];
	return NULL;
}

const struct tlsx_suite *tlsx_suite_by_name(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tlsx_suites); i++)
		if (strlen(tlsx_suites[i].name) == len &&
		    !strncasecmp(tlsx_suites[i].name, name, len))
			return &tlsx_suites[i];
	return NULL;
}

unsigned int tlsx_suite_defaults(u16 *codes, unsigned int cap)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(tlsx_suites) && n < cap; i++)
		if (tlsx_suites[i].by_default)
			codes[n++] = tlsx_suites[i].code;
	return n;
}

int tlsx_suite_params(u16 suite, enum tlsx_aead_alg *aead,
		      enum tlsx_hash_alg *hash, size_t *key_len)
{
	const struct tlsx_suite *s = tlsx_suite_find(suite);

	if (!s)
		return -EINVAL;
	if (aead)
		*aead = s->aead;
	if (hash)
		*hash = s->hash;
	if (key_len)
		*key_len = s->key_len;
	return 0;
}

const char *tlsx_suite_name(u16 suite)
{
	const struct tlsx_suite *s = tlsx_suite_find(suite);

	return s ? s->name : "unknown";
}

size_t tlsx_suite_kernel_info(const struct tlsx_suite *s, const u8 *key,
			      const u8 iv[TLSX_IV_SIZE],
			      union tlsx_suite_kernel_info *ci)
{
	const struct tlsx_suite_kernel *k = &s->kernel;
	u8 *p = (u8 *)ci;

	memset(ci, 0, sizeof(*ci));
	ci->hdr.version = TLS_1_3_VERSION;
	ci->hdr.cipher_type = k->cipher_type;
	memcpy(p + k->key_off, key, k->key_len);
	memcpy(p + k->salt_off, iv, k->salt_len);
	memcpy(p + k->iv_off, iv + k->salt_len, k->iv_len);
	return k->size;
}
