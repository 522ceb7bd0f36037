// SPDX-License-Identifier: GPL-2.0
/*
 * pkey.c - private key files.
 *
 * The DER of a private key is secret.  The reader (der.c) branches only
 * on its structure - tags and lengths - which a key's type and size fix;
 * the values are copied out with memcpy of public lengths.  The one
 * length that depends on a value is that of an INTEGER whose top byte
 * is zero (one byte shorter), which the encoding's length shows anyway.
 */
#include "x509/pem.h"
#include "x509/pkey.h"

/*
 * A public key computed from a secret one is public: the constant-time
 * check (ct_pkey.c) marks it so through this seam before it is compared
 * with the one in the file.
 */
#ifndef tlsx_pkey_declassify
#define tlsx_pkey_declassify(p, n) ((void)(p), (void)(n))
#endif

#define OID_IS(o, ref) der_oid_equal((o), (ref), sizeof(ref))

enum key_form {
	FORM_ANY,
	FORM_PKCS8,
	FORM_SEC1,
	FORM_PKCS1,
};

/*
 * Copies the magnitude of a positive INTEGER into @out (at most @max
 * bytes) and sets *len.
 */
static int read_part(struct der_cursor *c, u8 *out, size_t max, size_t *len)
{
	struct der_span m;
	int err;

	err = der_read_unsigned(c, &m, true);
	if (err)
		return err;
	if (m.len > max)
		return -EBADMSG;
	memcpy(out, m.p, m.len);
	*len = m.len;
	return 0;
}

/*
 * RSAPrivateKey ::= SEQUENCE { version 0, n, e, d, p, q, dP, dQ, qInv }
 * (RFC 8017 A.1.2); version 1 is the multi-prime form.
 */
static int parse_pkcs1(struct tlsx_private_key *k, struct der_cursor *c)
{
	struct tlsx_rsa_private *r = &k->rsa;
	struct der_cursor seq;
	struct der_span n, d;
	u64 version, e;
	int err;

	err = der_enter(c, DER_SEQUENCE, &seq);
	if (!err)
		err = der_read_u64(&seq, &version);
	if (err)
		return err;
	if (version != 0)
		return -EOPNOTSUPP;
	err = der_read_unsigned(&seq, &n, true);
	if (!err)
		err = der_read_u64(&seq, &e);
	if (!err)
		err = tlsx_rsa_public_set(&r->pub, &n, e);
	if (err)
		return err;
	/* d is not kept: CRT signing uses dP and dQ. */
	err = der_read_unsigned(&seq, &d, true);
	if (!err)
		err = read_part(&seq, r->p, sizeof(r->p), &r->p_len);
	if (!err)
		err = read_part(&seq, r->q, sizeof(r->q), &r->q_len);
	if (!err)
		err = read_part(&seq, r->dp, sizeof(r->dp), &r->dp_len);
	if (!err)
		err = read_part(&seq, r->dq, sizeof(r->dq), &r->dq_len);
	if (!err)
		err = read_part(&seq, r->qinv, sizeof(r->qinv), &r->qinv_len);
	if (!err)
		err = der_finish(&seq);
	if (err)
		return err;
	k->type = TLSX_KEY_RSA;
	err = tlsx_rsa_check_private(r);
	tlsx_pkey_declassify(&err, sizeof(err));	/* valid or not */
	return err ? -EINVAL : 0;
}

/*
 * ECPrivateKey ::= SEQUENCE { version 1, privateKey OCTET STRING,
 * [0] parameters OPTIONAL, [1] publicKey BIT STRING OPTIONAL }
 * (RFC 5915 3).  Inside PKCS#8 the curve is in the algorithm identifier
 * already; when the parameters are here too they must name P-256.
 */
static int parse_sec1(struct tlsx_private_key *k, struct der_cursor *c)
{
	struct der_cursor seq, f;
	struct der_span priv, oid, pub = { NULL, 0 };
	u64 version;
	int err, ret;

	err = der_enter(c, DER_SEQUENCE, &seq);
	if (!err)
		err = der_read_u64(&seq, &version);
	if (!err)
		err = der_read(&seq, DER_OCTET_STRING, &priv);
	if (err)
		return err;
	if (version != 1)
		return -EBADMSG;
	/* SEC 1 C.4: exactly ceil(log2(n) / 8) = 32 bytes. */
	if (priv.len != P256_SCALAR_SIZE)
		return -EBADMSG;
	ret = der_enter_optional(&seq, DER_CONTEXT(0), &f);
	if (ret < 0)
		return ret;
	if (ret) {
		err = der_read_oid(&f, &oid);
		if (!err)
			err = der_finish(&f);
		if (err)
			return err;
		if (!OID_IS(&oid, tlsx_oid_prime256v1))
			return -EOPNOTSUPP;
	}
	ret = der_enter_optional(&seq, DER_CONTEXT(1), &f);
	if (ret < 0)
		return ret;
	if (ret) {
		err = der_read_bit_string_bytes(&f, &pub);
		if (!err)
			err = der_finish(&f);
		if (err)
			return err;
	}
	err = der_finish(&seq);
	if (err)
		return err;

	memcpy(k->p256.priv, priv.p, P256_SCALAR_SIZE);
	k->type = TLSX_KEY_P256;
	err = tlsx_p256_check_private(k->p256.priv);
	if (!err)
		err = tlsx_p256_public(k->p256.pub, k->p256.priv);
	tlsx_pkey_declassify(&err, sizeof(err));
	if (err)
		return -EINVAL;
	tlsx_pkey_declassify(k->p256.pub, sizeof(k->p256.pub));
	/* A public key that is not the private key's is a broken file. */
	if (pub.p && (pub.len != P256_POINT_SIZE ||
		      memcmp(pub.p, k->p256.pub, P256_POINT_SIZE)))
		return -EINVAL;
	return 0;
}

/*
 * PrivateKeyInfo / OneAsymmetricKey ::= SEQUENCE { version 0 or 1,
 * privateKeyAlgorithm, privateKey OCTET STRING, [0] attributes OPTIONAL,
 * [1] publicKey OPTIONAL (version 1 only) }.
 */
static int parse_pkcs8(struct tlsx_private_key *k, struct der_cursor *c)
{
	struct der_cursor seq, alg, inner, params;
	struct der_span oid, curve, octets, seed, attrs, pub = { NULL, 0 };
	u64 version;
	int err, ret;

	err = der_enter(c, DER_SEQUENCE, &seq);
	if (!err)
		err = der_read_u64(&seq, &version);
	if (!err)
		err = der_enter(&seq, DER_SEQUENCE, &alg);
	if (!err)
		err = der_read_oid(&alg, &oid);
	if (!err)
		err = der_read(&seq, DER_OCTET_STRING, &octets);
	if (err)
		return err;
	if (version > 1)
		return -EBADMSG;
	ret = der_read_optional(&seq, DER_CONTEXT(0), &attrs);
	if (ret < 0)
		return ret;
	ret = der_read_optional(&seq, DER_CONTEXT_PRIM(1), &pub);
	if (ret < 0)
		return ret;
	if (ret) {
		/* [1] IMPLICIT BIT STRING: an unused-bits byte of 0 first. */
		if (version != 1 || pub.len < 1 || pub.p[0] != 0)
			return -EBADMSG;
		pub.p++;
		pub.len--;
	}
	err = der_finish(&seq);
	if (err)
		return err;

	der_init(&inner, octets.p, octets.len);
	inner.depth = seq.depth;
	if (OID_IS(&oid, tlsx_oid_ec_public_key)) {
		err = der_read_oid(&alg, &curve);
		if (!err)
			err = der_finish(&alg);
		if (err)
			return err;
		if (!OID_IS(&curve, tlsx_oid_prime256v1))
			return -EOPNOTSUPP;
		err = parse_sec1(k, &inner);
		if (!err && pub.p && (pub.len != P256_POINT_SIZE ||
				      memcmp(pub.p, k->p256.pub, pub.len)))
			err = -EINVAL;
	} else if (OID_IS(&oid, tlsx_oid_ed25519)) {
		/* RFC 8410 7: CurvePrivateKey ::= OCTET STRING (the seed). */
		err = der_finish(&alg);
		if (!err)
			err = der_read(&inner, DER_OCTET_STRING, &seed);
		if (err)
			return err;
		if (seed.len != ED25519_SEED_SIZE)
			return -EBADMSG;
		tlsx_ed25519_key_from_seed(&k->ed25519, seed.p);
		tlsx_pkey_declassify(k->ed25519.pub, sizeof(k->ed25519.pub));
		k->type = TLSX_KEY_ED25519;
		if (pub.p && (pub.len != ED25519_PUBLIC_SIZE ||
			      memcmp(pub.p, k->ed25519.pub, pub.len)))
			return -EINVAL;
	} else if (OID_IS(&oid, tlsx_oid_rsa_encryption) ||
		   OID_IS(&oid, tlsx_oid_rsassa_pss)) {
		/* rsaEncryption has NULL parameters; PSS keys their own. */
		if (OID_IS(&oid, tlsx_oid_rsa_encryption))
			err = der_read_null(&alg);
		else if (!der_empty(&alg))
			err = der_enter(&alg, DER_SEQUENCE, &params);
		if (!err)
			err = der_finish(&alg);
		if (err)
			return err;
		err = parse_pkcs1(k, &inner);
	} else {
		return -EOPNOTSUPP;
	}
	if (!err)
		err = der_finish(&inner);
	return err;
}

static int parse_key(struct tlsx_private_key *k, const u8 *der, size_t len,
		     enum key_form form)
{
	struct der_cursor c, seq, peek;
	u64 version;
	u8 tag;
	int err;

	memset(k, 0, sizeof(*k));
	der_init(&c, der, len);
	if (form == FORM_ANY) {
		/* Tell the three apart by what follows the version. */
		peek = c;
		err = der_enter(&peek, DER_SEQUENCE, &seq);
		if (!err)
			err = der_read_u64(&seq, &version);
		if (!err)
			err = der_peek_tag(&seq, &tag);
		if (err)
			return -EBADMSG;
		form = tag == DER_SEQUENCE ? FORM_PKCS8 :
		       tag == DER_OCTET_STRING ? FORM_SEC1 : FORM_PKCS1;
	}
	switch (form) {
	case FORM_PKCS8:
		err = parse_pkcs8(k, &c);
		break;
	case FORM_SEC1:
		err = parse_sec1(k, &c);
		break;
	default:
		err = parse_pkcs1(k, &c);
		break;
	}
	if (!err)
		err = der_finish(&c);
	if (err)
		tlsx_private_key_wipe(k);
	return err;
}

int tlsx_private_key_from_der(struct tlsx_private_key *k, const u8 *der,
			      size_t len)
{
	return parse_key(k, der, len, FORM_ANY);
}

int tlsx_private_key_from_pem(struct tlsx_private_key *k, const char *pem,
			      size_t len)
{
	const char *pos = pem, *end = pem + len;
	struct pem_block b;
	u8 der[PKEY_DER_MAX];
	enum key_form form;
	int ret;

	memset(k, 0, sizeof(*k));
	while ((ret = pem_next(&pos, end, &b, der, sizeof(der))) != 0) {
		if (ret < 0)
			return ret;	/* pem_next() wiped @der */
		form = FORM_ANY;
		if (!strcmp(b.label, "PRIVATE KEY"))
			form = FORM_PKCS8;
		else if (!strcmp(b.label, "EC PRIVATE KEY"))
			form = FORM_SEC1;
		else if (!strcmp(b.label, "RSA PRIVATE KEY"))
			form = FORM_PKCS1;
		else if (!strcmp(b.label, "ENCRYPTED PRIVATE KEY"))
			ret = -EOPNOTSUPP;
		/* else not a key (e.g. EC PARAMETERS): skip it */
		if (ret < 0 || form != FORM_ANY) {
			if (ret > 0)
				ret = parse_key(k, der, b.der_len, form);
			memzero_explicit(der, b.der_len);
			return ret;
		}
		memzero_explicit(der, b.der_len);
	}
	return -ENOENT;
}

int tlsx_private_key_public(const struct tlsx_private_key *k,
			    struct tlsx_public_key *pub)
{
	memset(pub, 0, sizeof(*pub));
	switch (k->type) {
	case TLSX_KEY_P256:
		memcpy(pub->p256, k->p256.pub, sizeof(pub->p256));
		break;
	case TLSX_KEY_ED25519:
		memcpy(pub->ed25519, k->ed25519.pub, sizeof(pub->ed25519));
		break;
	case TLSX_KEY_RSA:
		pub->rsa = k->rsa.pub;
		break;
	default:
		return -EINVAL;
	}
	pub->type = k->type;
	return 0;
}

void tlsx_private_key_wipe(struct tlsx_private_key *k)
{
	memzero_explicit(k, sizeof(*k));
}
