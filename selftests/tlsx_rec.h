/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx_rec.h - for selftests that play a TLS peer themselves: the
 * struct tls12_crypto_info_* of each cipher, TLS 1.2/1.3 records sealed
 * in userspace with the project's AEAD (the same code as in tlsx.ko, so
 * a record built here is what a correct sender puts on the wire), the
 * per-ULP statistics file and the module reference count.
 */
#ifndef TLSX_SELFTEST_REC_H
#define TLSX_SELFTEST_REC_H

#include <linux/tls.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aead/aead.h"

#define REC_HDR		5
#define REC_TAG		16
#define REC_MAX_TEXT	16384
/* Largest record a peer may send: header, IV, text, type, tag. */
#define REC_MAX_WIRE	(REC_HDR + 8 + REC_MAX_TEXT + 1 + REC_TAG)

#define REC_TYPE_ALERT		21
#define REC_TYPE_HANDSHAKE	22
#define REC_TYPE_DATA		23

/* One cipher as the tests name it. */
struct rec_cipher {
	const char *name;
	unsigned short type;		/* TLS_CIPHER_* */
	enum tlsx_aead_alg alg;
	unsigned int key_len;
};

static const struct rec_cipher rec_ciphers[] = {
	{ "aes128gcm", TLS_CIPHER_AES_GCM_128, TLSX_AEAD_AES_128_GCM, 16 },
	{ "aes256gcm", TLS_CIPHER_AES_GCM_256, TLSX_AEAD_AES_256_GCM, 32 },
	{ "chacha", TLS_CIPHER_CHACHA20_POLY1305,
	  TLSX_AEAD_CHACHA20_POLY1305, 32 },
	{ "aes128ccm", TLS_CIPHER_AES_CCM_128, TLSX_AEAD_AES_128_CCM, 16 },
};

/* The user's struct for TLS_TX/TLS_RX, any of the four ciphers. */
struct rec_info {
	union {
		struct tls_crypto_info info;
		struct tls12_crypto_info_aes_gcm_128 gcm128;
		struct tls12_crypto_info_aes_gcm_256 gcm256;
		struct tls12_crypto_info_chacha20_poly1305 chacha;
		struct tls12_crypto_info_aes_ccm_128 ccm128;
	};
	unsigned int len;
};

/*
 * rec_info_init() - keys, IV, salt and starting sequence number derived
 * from @seed, so both ends of a test agree and different seeds give
 * different keys.  The sequence number starts away from zero to catch a
 * side that ignores rec_seq.
 */
static inline void rec_info_init(struct rec_info *ri, unsigned short version,
				 unsigned short cipher, unsigned int seed)
{
	unsigned char *key, *iv, *salt = NULL, *seq;
	unsigned int key_len, iv_len, salt_len = 0, i;

	memset(ri, 0, sizeof(*ri));
	ri->info.version = version;
	ri->info.cipher_type = cipher;
	switch (cipher) {
	case TLS_CIPHER_AES_GCM_128:
		ri->len = sizeof(ri->gcm128);
		key = ri->gcm128.key;
		key_len = sizeof(ri->gcm128.key);
		iv = ri->gcm128.iv;
		iv_len = sizeof(ri->gcm128.iv);
		salt = ri->gcm128.salt;
		salt_len = sizeof(ri->gcm128.salt);
		seq = ri->gcm128.rec_seq;
		break;
	case TLS_CIPHER_AES_GCM_256:
		ri->len = sizeof(ri->gcm256);
		key = ri->gcm256.key;
		key_len = sizeof(ri->gcm256.key);
		iv = ri->gcm256.iv;
		iv_len = sizeof(ri->gcm256.iv);
		salt = ri->gcm256.salt;
		salt_len = sizeof(ri->gcm256.salt);
		seq = ri->gcm256.rec_seq;
		break;
	case TLS_CIPHER_AES_CCM_128:
		ri->len = sizeof(ri->ccm128);
		key = ri->ccm128.key;
		key_len = sizeof(ri->ccm128.key);
		iv = ri->ccm128.iv;
		iv_len = sizeof(ri->ccm128.iv);
		salt = ri->ccm128.salt;
		salt_len = sizeof(ri->ccm128.salt);
		seq = ri->ccm128.rec_seq;
		break;
	default:
		ri->len = sizeof(ri->chacha);
		key = ri->chacha.key;
		key_len = sizeof(ri->chacha.key);
		iv = ri->chacha.iv;
		iv_len = sizeof(ri->chacha.iv);
		seq = ri->chacha.rec_seq;
		break;
	}
	for (i = 0; i < key_len; i++)
		key[i] = (unsigned char)(seed * 31 + i * 7 + 1);
	for (i = 0; i < iv_len; i++)
		iv[i] = (unsigned char)(seed * 17 + i * 3 + 2);
	for (i = 0; i < salt_len; i++)
		salt[i] = (unsigned char)(seed * 13 + i + 3);
	seq[7] = (unsigned char)(seed % 200 + 1);
}

/* One direction's state, as a peer keeps it. */
struct rec_key {
	struct tlsx_aead_key aead;
	unsigned short version;
	unsigned char nonce[12];	/* salt || iv, or chacha's iv */
	unsigned char explicit_iv[8];	/* TLS 1.2 AES-GCM/CCM only */
	int explicit_len;
	unsigned long long seq;
};

/* rec_key_init() - @rk from @ri.  Return: 0 or the AEAD's -errno. */
static inline int rec_key_init(struct rec_key *rk, const struct rec_info *ri)
{
	const unsigned char *key, *seq;
	enum tlsx_aead_alg alg;
	size_t key_len;
	int i;

	memset(rk, 0, sizeof(*rk));
	rk->version = ri->info.version;
	switch (ri->info.cipher_type) {
	case TLS_CIPHER_AES_GCM_128:
		alg = TLSX_AEAD_AES_128_GCM;
		key = ri->gcm128.key;
		key_len = sizeof(ri->gcm128.key);
		memcpy(rk->nonce, ri->gcm128.salt, 4);
		memcpy(rk->nonce + 4, ri->gcm128.iv, 8);
		seq = ri->gcm128.rec_seq;
		break;
	case TLS_CIPHER_AES_GCM_256:
		alg = TLSX_AEAD_AES_256_GCM;
		key = ri->gcm256.key;
		key_len = sizeof(ri->gcm256.key);
		memcpy(rk->nonce, ri->gcm256.salt, 4);
		memcpy(rk->nonce + 4, ri->gcm256.iv, 8);
		seq = ri->gcm256.rec_seq;
		break;
	case TLS_CIPHER_CHACHA20_POLY1305:
		alg = TLSX_AEAD_CHACHA20_POLY1305;
		key = ri->chacha.key;
		key_len = sizeof(ri->chacha.key);
		memcpy(rk->nonce, ri->chacha.iv, 12);
		seq = ri->chacha.rec_seq;
		break;
	case TLS_CIPHER_AES_CCM_128:
		alg = TLSX_AEAD_AES_128_CCM;
		key = ri->ccm128.key;
		key_len = sizeof(ri->ccm128.key);
		memcpy(rk->nonce, ri->ccm128.salt, 4);
		memcpy(rk->nonce + 4, ri->ccm128.iv, 8);
		seq = ri->ccm128.rec_seq;
		break;
	default:
		return -EINVAL;
	}
	/*
	 * TLS 1.2 AES-GCM and AES-CCM carry the nonce's last 8 bytes in the
	 * record.
	 */
	if (rk->version == TLS_1_2_VERSION && alg != TLSX_AEAD_CHACHA20_POLY1305) {
		rk->explicit_len = 8;
		memcpy(rk->explicit_iv, rk->nonce + 4, 8);
	}
	for (i = 0; i < 8; i++)
		rk->seq = rk->seq << 8 | seq[i];
	return tlsx_aead_setkey(&rk->aead, alg, TLSX_IMPL_AUTO, key, key_len);
}

/* Bytes a record of @len bytes of text and @pad of padding takes. */
static inline size_t rec_wire_len(const struct rec_key *rk, size_t len,
				  size_t pad)
{
	return REC_HDR + rk->explicit_len + len +
	       (rk->version == TLS_1_3_VERSION ? 1 + pad : 0) + REC_TAG;
}

/*
 * rec_seal() - append to @out one record of type @type carrying @len
 * bytes of @data (TLS 1.3: followed by @pad zero bytes of padding), as a
 * kTLS sender would, and advance the sequence number.  @out must hold
 * rec_wire_len() bytes.  Return: the bytes written.
 */
static inline size_t rec_seal(struct rec_key *rk, unsigned char type,
			      const void *data, size_t len, size_t pad,
			      unsigned char *out)
{
	size_t wire = rec_wire_len(rk, len, pad);
	size_t body = wire - REC_HDR - rk->explicit_len - REC_TAG;
	unsigned char nonce[12], aad[13], *text;
	size_t aad_len;
	int i;

	memcpy(nonce, rk->nonce, 12);
	out[0] = rk->version == TLS_1_3_VERSION ? REC_TYPE_DATA : type;
	out[1] = 3;
	out[2] = 3;
	out[3] = (unsigned char)((wire - REC_HDR) >> 8);
	out[4] = (unsigned char)(wire - REC_HDR);
	text = out + REC_HDR + rk->explicit_len;
	memmove(text, data, len);
	if (rk->explicit_len) {
		/* As kTLS: the IV's last 8 bytes, incremented per record. */
		memcpy(out + REC_HDR, rk->explicit_iv, 8);
		memcpy(nonce + 4, rk->explicit_iv, 8);
		for (i = 7; i >= 0 && !++rk->explicit_iv[i]; i--)
			;
	} else {
		for (i = 0; i < 8; i++)
			nonce[4 + i] ^= (unsigned char)(rk->seq >> (56 - 8 * i));
	}
	if (rk->version == TLS_1_3_VERSION) {
		text[len] = type;
		memset(text + len + 1, 0, pad);
		memcpy(aad, out, REC_HDR);
		aad_len = REC_HDR;
	} else {
		for (i = 0; i < 8; i++)
			aad[i] = (unsigned char)(rk->seq >> (56 - 8 * i));
		aad[8] = type;
		aad[9] = 3;
		aad[10] = 3;
		aad[11] = (unsigned char)(len >> 8);
		aad[12] = (unsigned char)len;
		aad_len = 13;
	}
	tlsx_aead_seal(&rk->aead, nonce, aad, aad_len, text, text, body,
		       text + body);
	rk->seq++;
	return wire;
}

/*
 * ulp_stat() - counter @name of @ulp's statistics file (tls:
 * /proc/net/tls_stat, tlsx: /proc/net/tlsx_stat) in this network
 * namespace.  Return: its value, or -1 if the file or the counter is
 * missing.
 */
static inline long long ulp_stat(const char *ulp, const char *name)
{
	char path[64], key[64];
	long long val, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/net/%s_stat", ulp);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &val) == 2)
		if (!strcmp(key, name))
			ret = val;
	fclose(f);
	return ret;
}

/* /sys/module/@mod/refcnt, or -1. */
static inline long module_refcnt(const char *mod)
{
	char path[96];
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/refcnt", mod);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &val) != 1)
		val = -1;
	fclose(f);
	return val;
}

/*
 * ulp_settle() - wait (up to about 5 s) until @ulp has no current RX and
 * TX sockets above @rx/@tx and its module count is back to @ref: closed
 * sockets are destroyed when TCP is done with them, not at close().
 * Return: true when everything came back.
 */
static inline bool ulp_settle(const char *ulp, long long rx, long long tx,
			      long ref)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (ulp_stat(ulp, "TlsCurrRxSw") <= rx &&
		    ulp_stat(ulp, "TlsCurrTxSw") <= tx &&
		    module_refcnt(ulp) <= ref)
			return true;
		usleep(10000);
	}
	return false;
}

#endif /* TLSX_SELFTEST_REC_H */
