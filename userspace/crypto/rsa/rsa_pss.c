// SPDX-License-Identifier: GPL-2.0
/*
 * rsa_pss.c - EMSA-PSS (RFC 8017 9.1) with MGF1 (B.2.1) over the same
 * hash and a salt as long as the digest, and EMSA-PKCS1-v1_5 (9.2).
 *
 * PKCS#1 v1.5 is checked by building the expected encoding and comparing
 * all of it, never by parsing the recovered one (parsers of this format
 * have been fooled by garbage hidden in the DigestInfo).
 */
#include "rsa/rsa_pad.h"

/* MGF1's mask of @mask_len bytes from @seed, XORed into @out. */
static void mgf1_xor(u8 *out, size_t mask_len, enum tlsx_hash_alg hash,
		     const u8 *seed, size_t seed_len)
{
	size_t hlen = tlsx_hash_digest_size(hash), done = 0, i;
	u8 block[TLSX_HASH_MAX_DIGEST], ctr[4];
	struct tlsx_hash h;
	u32 counter = 0;

	while (done < mask_len) {
		size_t take = mask_len - done < hlen ? mask_len - done : hlen;

		put_unaligned_be32(counter++, ctr);
		tlsx_hash_init(&h, hash);
		tlsx_hash_update(&h, seed, seed_len);
		tlsx_hash_update(&h, ctr, sizeof(ctr));
		tlsx_hash_final(&h, block);
		for (i = 0; i < take; i++)
			out[done + i] ^= block[i];
		done += take;
	}
	memzero_explicit(block, sizeof(block));
}

/* H = Hash(00 x 8 || mHash || salt). */
static void pss_hash(u8 *out, enum tlsx_hash_alg hash, const u8 *digest,
		     size_t hlen, const u8 *salt)
{
	static const u8 zeros[8];
	struct tlsx_hash h;

	tlsx_hash_init(&h, hash);
	tlsx_hash_update(&h, zeros, sizeof(zeros));
	tlsx_hash_update(&h, digest, hlen);
	tlsx_hash_update(&h, salt, hlen);
	tlsx_hash_final(&h, out);
}

int rsa_pss_encode(u8 *em, size_t em_bits, enum tlsx_hash_alg hash,
		   const u8 *digest, size_t digest_len, const u8 *salt)
{
	size_t hlen = tlsx_hash_digest_size(hash);
	size_t em_len = (em_bits + 7) / 8, db_len;

	if (!hlen || digest_len != hlen || em_len < 2 * hlen + 2)
		return -EINVAL;
	db_len = em_len - hlen - 1;

	/* DB = PS (zeros) || 01 || salt, then masked with MGF1(H). */
	memset(em, 0, db_len);
	em[db_len - hlen - 1] = 0x01;
	memcpy(em + db_len - hlen, salt, hlen);
	pss_hash(em + db_len, hash, digest, hlen, salt);
	mgf1_xor(em, db_len, hash, em + db_len, hlen);
	/* Clear the bits above em_bits so that EM < 2^em_bits < n. */
	em[0] &= 0xff >> (8 * em_len - em_bits);
	em[em_len - 1] = 0xbc;
	return 0;
}

int rsa_pss_check(const u8 *em, size_t em_bits, enum tlsx_hash_alg hash,
		  const u8 *digest, size_t digest_len)
{
	size_t hlen = tlsx_hash_digest_size(hash);
	size_t em_len = (em_bits + 7) / 8, db_len, i;
	u8 db[RSA_MAX_BYTES], h2[TLSX_HASH_MAX_DIGEST];
	u8 top = (u8)(0xff << (8 - (8 * em_len - em_bits)));
	int bad;

	if (!hlen || digest_len != hlen || em_len < 2 * hlen + 2 ||
	    em_len > sizeof(db))
		return -EBADMSG;
	db_len = em_len - hlen - 1;
	if (em[em_len - 1] != 0xbc || (em[0] & top))
		return -EBADMSG;

	memcpy(db, em, db_len);
	mgf1_xor(db, db_len, hash, em + db_len, hlen);
	db[0] &= (u8)~top;
	/* PS must be zeros and the salt preceded by 01. */
	bad = db[db_len - hlen - 1] != 0x01;
	for (i = 0; i < db_len - hlen - 1; i++)
		bad |= db[i];
	if (!bad) {
		pss_hash(h2, hash, digest, hlen, db + db_len - hlen);
		bad = memcmp(h2, em + db_len, hlen) != 0;
	}
	return bad ? -EBADMSG : 0;
}

/*
 * DER DigestInfo prefixes (RFC 8017 9.2, note 1): AlgorithmIdentifier
 * with NULL parameters, then an OCTET STRING of the digest's length.
 */
static const u8 di_sha256[] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20,
};

static const u8 di_sha384[] = {
	0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30,
};

static const u8 di_sha512[] = {
	0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40,
};

int rsa_pkcs1_encode(u8 *em, size_t em_len, enum tlsx_hash_alg hash,
		     const u8 *digest, size_t digest_len)
{
	size_t hlen = tlsx_hash_digest_size(hash), t_len;
	const u8 *di;

	switch (hash) {
	case TLSX_HASH_SHA256:
		di = di_sha256;
		break;
	case TLSX_HASH_SHA384:
		di = di_sha384;
		break;
	case TLSX_HASH_SHA512:
		di = di_sha512;
		break;
	default:
		return -EINVAL;
	}
	/* Every prefix is 19 bytes; PS must be at least 8 bytes. */
	t_len = sizeof(di_sha256) + hlen;
	if (digest_len != hlen || em_len < t_len + 11)
		return -EINVAL;
	em[0] = 0x00;
	em[1] = 0x01;
	memset(em + 2, 0xff, em_len - t_len - 3);
	em[em_len - t_len - 1] = 0x00;
	memcpy(em + em_len - t_len, di, sizeof(di_sha256));
	memcpy(em + em_len - hlen, digest, hlen);
	return 0;
}
