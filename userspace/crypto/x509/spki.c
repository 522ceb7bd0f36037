// SPDX-License-Identifier: GPL-2.0
/*
 * spki.c - SubjectPublicKeyInfo: the algorithm identifier picks the key
 * type, the BIT STRING carries the key in that type's encoding.
 */
#include "x509/spki.h"

/* 1.2.840.10045.2.1 */
const u8 tlsx_oid_ec_public_key[7] = {
	0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01
};

/* 1.2.840.10045.3.1.7 */
const u8 tlsx_oid_prime256v1[8] = {
	0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07
};

/* 1.3.101.112 */
const u8 tlsx_oid_ed25519[3] = { 0x2b, 0x65, 0x70 };

/* 1.2.840.113549.1.1.1 */
const u8 tlsx_oid_rsa_encryption[9] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01
};

/* 1.2.840.113549.1.1.10 */
const u8 tlsx_oid_rsassa_pss[9] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a
};

#define OID_IS(o, ref) der_oid_equal((o), (ref), sizeof(ref))

int tlsx_rsa_public_set(struct tlsx_rsa_public *k, const struct der_span *n,
			u64 e)
{
	unsigned int bits;

	if (e < 3 || !(e & 1))
		return -EBADMSG;
	if (!n->len || !n->p[0])
		return -EBADMSG;
	if (n->len > RSA_MAX_BYTES)
		return -EOPNOTSUPP;
	/* n has no leading zero byte: its top byte gives the last bits. */
	bits = (unsigned int)(n->len - 1) * 8 + 32 - __builtin_clz(n->p[0]);
	if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS)
		return -EOPNOTSUPP;
	memcpy(k->n, n->p, n->len);
	k->n_len = n->len;
	k->e = e;
	return 0;
}

int tlsx_rsa_public_read(struct der_cursor *c, struct tlsx_rsa_public *k)
{
	struct der_cursor seq;
	struct der_span n;
	u64 e;
	int err;

	err = der_enter(c, DER_SEQUENCE, &seq);
	if (!err)
		err = der_read_unsigned(&seq, &n, true);
	if (!err)
		err = der_read_u64(&seq, &e);
	if (!err)
		err = der_finish(&seq);
	if (err)
		return err;
	return tlsx_rsa_public_set(k, &n, e);
}

/*
 * RSASSA-PSS-params on a key (RFC 4055 3.1) restrict how it signs; we
 * only sign and verify the sane forms anyway, so a key's parameters are
 * only checked to be a well-formed SEQUENCE.
 */
static int read_rsa_key_params(struct der_cursor *alg)
{
	struct der_cursor params;

	if (der_empty(alg))
		return 0;
	return der_enter(alg, DER_SEQUENCE, &params);
}

int tlsx_spki_read(struct der_cursor *c, struct tlsx_public_key *pk)
{
	struct der_cursor spki, alg, bits;
	struct der_span oid, curve, key;
	int err;

	memset(pk, 0, sizeof(*pk));
	err = der_enter(c, DER_SEQUENCE, &spki);
	if (err)
		return err;
	err = der_enter(&spki, DER_SEQUENCE, &alg);
	if (err)
		return err;
	err = der_read_oid(&alg, &oid);
	if (err)
		return err;
	err = der_read_bit_string_bytes(&spki, &key);
	if (err)
		return err;
	err = der_finish(&spki);
	if (err)
		return err;

	if (OID_IS(&oid, tlsx_oid_ec_public_key)) {
		err = der_read_oid(&alg, &curve);
		if (err)
			return err;
		if (!OID_IS(&curve, tlsx_oid_prime256v1))
			return -EOPNOTSUPP;
		/* Compressed points are not in RFC 8422's TLS 1.3 profile. */
		if (key.len != P256_POINT_SIZE || key.p[0] != 0x04)
			return -EOPNOTSUPP;
		memcpy(pk->p256, key.p, key.len);
		pk->type = TLSX_KEY_P256;
	} else if (OID_IS(&oid, tlsx_oid_ed25519)) {
		/* RFC 8410 3: the parameters MUST be absent. */
		if (key.len != ED25519_PUBLIC_SIZE)
			return -EBADMSG;
		memcpy(pk->ed25519, key.p, key.len);
		pk->type = TLSX_KEY_ED25519;
	} else if (OID_IS(&oid, tlsx_oid_rsa_encryption) ||
		   OID_IS(&oid, tlsx_oid_rsassa_pss)) {
		if (OID_IS(&oid, tlsx_oid_rsa_encryption)) {
			/* RFC 3279 2.3.1: NULL parameters. */
			err = der_read_null(&alg);
		} else {
			err = read_rsa_key_params(&alg);
			pk->rsa_pss_only = true;
		}
		if (err)
			return err;
		der_init(&bits, key.p, key.len);
		bits.depth = spki.depth;
		err = tlsx_rsa_public_read(&bits, &pk->rsa);
		if (err)
			return err;
		err = der_finish(&bits);
		if (err)
			return err;
		pk->type = TLSX_KEY_RSA;
	} else {
		return -EOPNOTSUPP;
	}
	return der_finish(&alg);
}

int tlsx_spki_parse(struct tlsx_public_key *pk, const u8 *der, size_t len)
{
	struct der_cursor c;
	int err;

	der_init(&c, der, len);
	err = tlsx_spki_read(&c, pk);
	if (!err)
		err = der_finish(&c);
	if (err)
		memset(pk, 0, sizeof(*pk));
	return err;
}

bool tlsx_public_key_equal(const struct tlsx_public_key *a,
			   const struct tlsx_public_key *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case TLSX_KEY_P256:
		return !memcmp(a->p256, b->p256, sizeof(a->p256));
	case TLSX_KEY_ED25519:
		return !memcmp(a->ed25519, b->ed25519, sizeof(a->ed25519));
	case TLSX_KEY_RSA:
		return a->rsa.n_len == b->rsa.n_len && a->rsa.e == b->rsa.e &&
		       !memcmp(a->rsa.n, b->rsa.n, a->rsa.n_len);
	default:
		return false;
	}
}
