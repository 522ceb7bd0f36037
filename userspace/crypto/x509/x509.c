// SPDX-License-Identifier: GPL-2.0
/*
 * x509.c - the certificate parser.
 *
 * Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm,
 * signatureValue BIT STRING }; tbsCertificate ::= SEQUENCE { [0] version,
 * serialNumber, signature, issuer, validity, subject,
 * subjectPublicKeyInfo, [1] issuerUniqueID, [2] subjectUniqueID,
 * [3] extensions } (RFC 5280 4.1).  Each step reads through a der_cursor,
 * so every length has been checked against its container before use.
 */
#include "x509/x509.h"

#define OID_IS(o, ref) der_oid_equal((o), (ref), sizeof(ref))

/* 1.2.840.10045.4.3.{2,3,4}: ecdsa-with-SHA256/384/512 */
static const u8 oid_ecdsa_sha256[] = {
	0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02
};
static const u8 oid_ecdsa_sha384[] = {
	0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03
};
static const u8 oid_ecdsa_sha512[] = {
	0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x04
};
/* 1.2.840.113549.1.1.{11,12,13}: sha256/384/512WithRSAEncryption */
static const u8 oid_rsa_sha256[] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b
};
static const u8 oid_rsa_sha384[] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c
};
static const u8 oid_rsa_sha512[] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d
};
/* 1.2.840.113549.1.1.8: id-mgf1 */
static const u8 oid_mgf1[] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08
};
/* 2.16.840.1.101.3.4.2.{1,2,3}: SHA-256/384/512 */
static const u8 oid_sha256[] = {
	0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01
};
static const u8 oid_sha384[] = {
	0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02
};
static const u8 oid_sha512[] = {
	0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03
};
/* 2.5.4.3: commonName */
static const u8 oid_cn[] = { 0x55, 0x04, 0x03 };
/* 2.5.29.{15,17,19,37}: keyUsage, subjectAltName, basicConstraints, EKU */
static const u8 oid_key_usage[] = { 0x55, 0x1d, 0x0f };
static const u8 oid_san[] = { 0x55, 0x1d, 0x11 };
static const u8 oid_basic[] = { 0x55, 0x1d, 0x13 };
static const u8 oid_eku[] = { 0x55, 0x1d, 0x25 };
/* 2.5.29.37.0: anyExtendedKeyUsage */
static const u8 oid_eku_any[] = { 0x55, 0x1d, 0x25, 0x00 };
/* 1.3.6.1.5.5.7.3.{1,2}: id-kp-serverAuth, id-kp-clientAuth */
static const u8 oid_server_auth[] = {
	0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01
};
static const u8 oid_client_auth[] = {
	0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02
};

/* Records why parsing failed and returns @err. */
static int fail(struct tlsx_x509 *crt, int err, const char *why)
{
	if (!crt->error)
		crt->error = why;
	return err;
}

/* A hash AlgorithmIdentifier: SHA-256/384/512, NULL or no parameters. */
static int read_hash_alg(struct der_cursor *c, enum tlsx_hash_alg *hash)
{
	struct der_cursor alg;
	struct der_span oid;
	int err;

	err = der_enter(c, DER_SEQUENCE, &alg);
	if (!err)
		err = der_read_oid(&alg, &oid);
	if (err)
		return err;
	if (OID_IS(&oid, oid_sha256))
		*hash = TLSX_HASH_SHA256;
	else if (OID_IS(&oid, oid_sha384))
		*hash = TLSX_HASH_SHA384;
	else if (OID_IS(&oid, oid_sha512))
		*hash = TLSX_HASH_SHA512;
	else
		return -EOPNOTSUPP;
	if (!der_empty(&alg)) {
		err = der_read_null(&alg);
		if (err)
			return err;
	}
	return der_finish(&alg);
}

/*
 * RSASSA-PSS-params (RFC 4055 3.1): the defaults (SHA-1, salt 20) are
 * refused, so hashAlgorithm [0], maskGenAlgorithm [1] (MGF1 with the
 * same hash) and saltLength [2] (the digest length) must all be there;
 * trailerField [3] may only be its default, 1, which DER omits.
 */
static int read_pss_params(struct der_cursor *alg, enum tlsx_sig_alg *sig)
{
	struct der_cursor params, f, mgf;
	struct der_span oid;
	enum tlsx_hash_alg hash, mgf_hash;
	u64 salt;
	int err;

	err = der_enter(alg, DER_SEQUENCE, &params);
	if (err)
		return err;
	err = der_enter(&params, DER_CONTEXT(0), &f);
	if (err)
		return -EOPNOTSUPP;
	err = read_hash_alg(&f, &hash);
	if (!err)
		err = der_finish(&f);
	if (err)
		return err;

	err = der_enter(&params, DER_CONTEXT(1), &f);
	if (err)
		return -EOPNOTSUPP;
	err = der_enter(&f, DER_SEQUENCE, &mgf);
	if (!err)
		err = der_read_oid(&mgf, &oid);
	if (err)
		return err;
	if (!OID_IS(&oid, oid_mgf1))
		return -EOPNOTSUPP;
	err = read_hash_alg(&mgf, &mgf_hash);
	if (!err)
		err = der_finish(&mgf);
	if (!err)
		err = der_finish(&f);
	if (err)
		return err;
	if (mgf_hash != hash)
		return -EOPNOTSUPP;

	err = der_enter(&params, DER_CONTEXT(2), &f);
	if (err)
		return -EOPNOTSUPP;
	err = der_read_u64(&f, &salt);
	if (!err)
		err = der_finish(&f);
	if (err)
		return err;
	/* The digest lengths: 32, 48, 64 bytes (no link to sha2.c). */
	if (salt != (hash == TLSX_HASH_SHA256 ? 32u :
		     hash == TLSX_HASH_SHA384 ? 48u : 64u))
		return -EOPNOTSUPP;
	err = der_finish(&params);
	if (err)
		return -EOPNOTSUPP;	/* a trailerField or anything else */

	*sig = hash == TLSX_HASH_SHA256 ? TLSX_SIG_RSA_PSS_SHA256 :
	       hash == TLSX_HASH_SHA384 ? TLSX_SIG_RSA_PSS_SHA384 :
					  TLSX_SIG_RSA_PSS_SHA512;
	return 0;
}

/* A signature AlgorithmIdentifier, with its whole encoding in @whole. */
static int read_sig_alg(struct der_cursor *c, enum tlsx_sig_alg *sig,
			struct der_span *whole)
{
	struct der_cursor dup = *c, alg;
	struct der_span oid;
	u8 tag;
	int err;

	err = der_read_any(&dup, &tag, &oid, whole);
	if (err)
		return err;
	err = der_enter(c, DER_SEQUENCE, &alg);
	if (!err)
		err = der_read_oid(&alg, &oid);
	if (err)
		return err;

	/* RFC 5758 3.2 and RFC 8410 3: ECDSA and Ed25519 have no params. */
	if (OID_IS(&oid, oid_ecdsa_sha256)) {
		*sig = TLSX_SIG_ECDSA_SHA256;
	} else if (OID_IS(&oid, oid_ecdsa_sha384)) {
		*sig = TLSX_SIG_ECDSA_SHA384;
	} else if (OID_IS(&oid, oid_ecdsa_sha512)) {
		*sig = TLSX_SIG_ECDSA_SHA512;
	} else if (OID_IS(&oid, tlsx_oid_ed25519)) {
		*sig = TLSX_SIG_ED25519;
	} else if (OID_IS(&oid, oid_rsa_sha256) ||
		   OID_IS(&oid, oid_rsa_sha384) ||
		   OID_IS(&oid, oid_rsa_sha512)) {
		*sig = OID_IS(&oid, oid_rsa_sha256) ? TLSX_SIG_RSA_PKCS1_SHA256 :
		       OID_IS(&oid, oid_rsa_sha384) ? TLSX_SIG_RSA_PKCS1_SHA384 :
						      TLSX_SIG_RSA_PKCS1_SHA512;
		/* RFC 4055 5: NULL parameters (some encoders omit them). */
		if (!der_empty(&alg)) {
			err = der_read_null(&alg);
			if (err)
				return err;
		}
	} else if (OID_IS(&oid, tlsx_oid_rsassa_pss)) {
		err = read_pss_params(&alg, sig);
		if (err)
			return err;
	} else {
		return -EOPNOTSUPP;
	}
	return der_finish(&alg);
}

/*
 * Name ::= SEQUENCE OF SET OF SEQUENCE { type OID, value ANY }.  The
 * structure is checked, the whole encoding kept for comparison and the
 * last commonName in a text string type remembered.
 */
static int read_name(struct tlsx_x509 *crt, struct der_cursor *c,
		     struct der_span *whole, struct der_span *cn)
{
	struct der_cursor dup = *c, name, rdn, atv;
	struct der_span oid, val;
	unsigned int n_rdn = 0;
	u8 tag;
	int err;

	err = der_read_any(&dup, &tag, &val, whole);
	if (err)
		return err;
	err = der_enter(c, DER_SEQUENCE, &name);
	if (err)
		return err;
	cn->p = NULL;
	cn->len = 0;
	while (!der_empty(&name)) {
		if (++n_rdn > X509_MAX_RDNS)
			return fail(crt, -E2BIG, "too many name components");
		err = der_enter(&name, DER_SET, &rdn);
		if (err)
			return err;
		if (der_empty(&rdn))
			return -EBADMSG;
		while (!der_empty(&rdn)) {
			err = der_enter(&rdn, DER_SEQUENCE, &atv);
			if (!err)
				err = der_read_oid(&atv, &oid);
			if (err)
				return err;
			if (OID_IS(&oid, oid_cn)) {
				err = der_read_string(&atv, &tag, &val);
				if (err)
					return err;
				if (tag == DER_UTF8_STRING ||
				    tag == DER_PRINTABLE_STRING ||
				    tag == DER_IA5_STRING ||
				    tag == DER_T61_STRING)
					*cn = val;
			} else {
				err = der_read_any(&atv, &tag, &val, NULL);
				if (err)
					return err;
			}
			err = der_finish(&atv);
			if (err)
				return err;
		}
	}
	return 0;
}

/* SubjectAltName: GeneralNames, SEQUENCE SIZE (1..MAX) OF GeneralName. */
static int parse_san(struct tlsx_x509 *crt, struct der_cursor *c)
{
	struct der_cursor names;
	struct der_span val;
	size_t i;
	u8 tag;
	int err;

	err = der_enter(c, DER_SEQUENCE, &names);
	if (err)
		return err;
	if (der_empty(&names))
		return -EBADMSG;
	while (!der_empty(&names)) {
		err = der_read_any(&names, &tag, &val, NULL);
		if (err)
			return err;
		if (tag == DER_CONTEXT_PRIM(2)) {
			/* dNSName: IA5String, at least one character. */
			if (!val.len)
				return fail(crt, -EBADMSG, "empty dNSName");
			for (i = 0; i < val.len; i++)
				if (val.p[i] & 0x80 || !val.p[i])
					return fail(crt, -EBADMSG,
						    "dNSName not IA5");
			if (crt->n_dns == X509_MAX_DNS)
				return fail(crt, -E2BIG, "too many dNSNames");
			crt->dns[crt->n_dns++] = val;
		} else if (tag == DER_CONTEXT_PRIM(7)) {
			if (val.len != 4 && val.len != 16)
				return fail(crt, -EBADMSG, "bad iPAddress");
			if (crt->n_ip == X509_MAX_IP)
				return fail(crt, -E2BIG, "too many iPAddresses");
			crt->ip[crt->n_ip++] = val;
		} else if ((tag & 0xc0) != 0x80 || (tag & 0x1f) > 8) {
			/* Not one of GeneralName's [0]..[8]. */
			return -EBADMSG;
		}
	}
	return 0;
}

/*
 * KeyUsage ::= BIT STRING; bit 0 is the top bit of the first byte.
 * At least one bit set (RFC 5280 4.2.1.3); only bits 0..8 are named.
 */
static int parse_key_usage(struct tlsx_x509 *crt, struct der_cursor *c)
{
	struct der_span bits;
	unsigned int unused, ku = 0, i;
	int err;

	err = der_read_bit_string(c, &bits, &unused);
	if (err)
		return err;
	for (i = 0; i < bits.len * 8 - unused && i < 16; i++)
		if (bits.p[i / 8] & (0x80 >> (i % 8)))
			ku |= 1u << i;
	if (!ku)
		return fail(crt, -EBADMSG, "empty keyUsage");
	crt->key_usage = ku;
	return 0;
}

static int parse_eku(struct tlsx_x509 *crt, struct der_cursor *c)
{
	struct der_cursor seq;
	struct der_span oid;
	unsigned int n = 0;
	int err;

	err = der_enter(c, DER_SEQUENCE, &seq);
	if (err)
		return err;
	if (der_empty(&seq))
		return -EBADMSG;
	crt->eku.p = seq.p;
	crt->eku.len = seq.len;
	while (!der_empty(&seq)) {
		if (++n > X509_MAX_EKUS)
			return fail(crt, -E2BIG, "too many key purposes");
		err = der_read_oid(&seq, &oid);
		if (err)
			return err;
		if (OID_IS(&oid, oid_server_auth))
			crt->ext_key_usage |= X509_EKU_SERVER_AUTH;
		else if (OID_IS(&oid, oid_client_auth))
			crt->ext_key_usage |= X509_EKU_CLIENT_AUTH;
		else if (OID_IS(&oid, oid_eku_any))
			crt->ext_key_usage |= X509_EKU_ANY;
		else
			crt->ext_key_usage |= X509_EKU_OTHER;
	}
	return 0;
}

bool tlsx_x509_has_eku(const struct tlsx_x509 *crt, const struct der_span *oid)
{
	struct der_cursor c;
	struct der_span one;

	der_init(&c, crt->eku.p, crt->eku.len);
	/* parse_eku() read these: no error but the end. */
	while (!der_read_oid(&c, &one))
		if (der_oid_equal(&one, oid->p, oid->len))
			return true;
	return false;
}

/* BasicConstraints ::= SEQUENCE { cA DEFAULT FALSE, pathLen OPTIONAL } */
static int parse_basic(struct tlsx_x509 *crt, struct der_cursor *c)
{
	struct der_cursor seq;
	u64 path_len;
	u8 tag;
	int err;

	err = der_enter(c, DER_SEQUENCE, &seq);
	if (err)
		return err;
	if (!der_peek_tag(&seq, &tag) && tag == DER_BOOLEAN) {
		err = der_read_bool(&seq, &crt->ca);
		if (err)
			return err;
	}
	if (!der_empty(&seq)) {
		err = der_read_u64(&seq, &path_len);
		if (err)
			return err;
		/* RFC 5280 4.2.1.9: only a CA may limit the path. */
		if (!crt->ca)
			return fail(crt, -EBADMSG, "pathLen without cA");
		/* No chain is that long; keep the value in an int. */
		crt->path_len = path_len > 255 ? 255 : (int)path_len;
	}
	return der_finish(&seq);
}

static int parse_extension(struct tlsx_x509 *crt, struct der_cursor *exts)
{
	struct der_cursor ext, val;
	struct der_span oid, octets;
	unsigned int flag;
	bool critical = false;
	u8 tag;
	int err;

	err = der_enter(exts, DER_SEQUENCE, &ext);
	if (!err)
		err = der_read_oid(&ext, &oid);
	if (err)
		return err;
	if (!der_peek_tag(&ext, &tag) && tag == DER_BOOLEAN) {
		err = der_read_bool(&ext, &critical);
		if (err)
			return err;
	}
	err = der_read(&ext, DER_OCTET_STRING, &octets);
	if (!err)
		err = der_finish(&ext);
	if (err)
		return err;
	der_init(&val, octets.p, octets.len);
	val.depth = ext.depth;

	if (OID_IS(&oid, oid_key_usage))
		flag = X509_EXT_KEY_USAGE;
	else if (OID_IS(&oid, oid_eku))
		flag = X509_EXT_EXT_KEY_USAGE;
	else if (OID_IS(&oid, oid_basic))
		flag = X509_EXT_BASIC;
	else if (OID_IS(&oid, oid_san))
		flag = X509_EXT_SAN;
	else if (critical)
		return fail(crt, -EOPNOTSUPP, "unknown critical extension");
	else
		return 0;
	/* RFC 5280 4.2: at most one instance of an extension. */
	if (crt->ext & flag)
		return fail(crt, -EBADMSG, "duplicate extension");
	crt->ext |= flag;

	switch (flag) {
	case X509_EXT_KEY_USAGE:
		err = parse_key_usage(crt, &val);
		break;
	case X509_EXT_EXT_KEY_USAGE:
		err = parse_eku(crt, &val);
		break;
	case X509_EXT_BASIC:
		err = parse_basic(crt, &val);
		break;
	default:
		err = parse_san(crt, &val);
		break;
	}
	if (!err)
		err = der_finish(&val);
	return err;
}

static int parse_extensions(struct tlsx_x509 *crt, struct der_cursor *tbs)
{
	struct der_cursor wrap, exts;
	unsigned int n = 0;
	int err;

	err = der_enter(tbs, DER_CONTEXT(3), &wrap);
	if (!err)
		err = der_enter(&wrap, DER_SEQUENCE, &exts);
	if (!err)
		err = der_finish(&wrap);
	if (err)
		return fail(crt, err, "bad extensions");
	if (der_empty(&exts))
		return fail(crt, -EBADMSG, "empty extensions");
	while (!der_empty(&exts)) {
		if (++n > X509_MAX_EXTENSIONS)
			return fail(crt, -E2BIG, "too many extensions");
		err = parse_extension(crt, &exts);
		if (err)
			return fail(crt, err, "bad extension");
	}
	return 0;
}

static int parse_tbs(struct tlsx_x509 *crt, struct der_cursor *tbs,
		     struct der_span *tbs_sig_alg)
{
	struct der_cursor ver, validity;
	struct der_span uid;
	u64 version = 0;
	int err, uid1, uid2;

	err = der_enter_optional(tbs, DER_CONTEXT(0), &ver);
	if (err < 0)
		return fail(crt, err, "bad version");
	if (err) {
		err = der_read_u64(&ver, &version);
		if (!err)
			err = der_finish(&ver);
		if (err || version > 2)
			return fail(crt, -EBADMSG, "bad version");
	}
	crt->version = (unsigned int)version + 1;

	err = der_read_unsigned(tbs, &crt->serial, false);
	if (err)
		return fail(crt, err, "bad serial number");
	if (crt->serial.len > 20)
		return fail(crt, -EBADMSG, "serial number over 20 bytes");

	err = read_sig_alg(tbs, &crt->sig_alg, tbs_sig_alg);
	if (err)
		return fail(crt, err, "bad or unsupported signature algorithm");

	err = read_name(crt, tbs, &crt->issuer, &crt->issuer_cn);
	if (err)
		return fail(crt, err, "bad issuer");

	err = der_enter(tbs, DER_SEQUENCE, &validity);
	if (!err)
		err = der_read_time(&validity, &crt->not_before);
	if (!err)
		err = der_read_time(&validity, &crt->not_after);
	if (!err)
		err = der_finish(&validity);
	if (err)
		return fail(crt, err, "bad validity");

	err = read_name(crt, tbs, &crt->subject, &crt->subject_cn);
	if (err)
		return fail(crt, err, "bad subject");

	crt->spki.p = tbs->p;
	err = tlsx_spki_read(tbs, &crt->pub);
	if (err)
		return fail(crt, err, "bad or unsupported public key");
	crt->spki.len = (size_t)(tbs->p - crt->spki.p);

	/* Unique identifiers: v2 and v3 only, obsolete, skipped. */
	uid1 = der_read_optional(tbs, DER_CONTEXT_PRIM(1), &uid);
	uid2 = uid1 < 0 ? uid1 :
	       der_read_optional(tbs, DER_CONTEXT_PRIM(2), &uid);
	if (uid1 < 0 || uid2 < 0)
		return fail(crt, -EBADMSG, "bad unique identifier");
	if ((uid1 || uid2) && crt->version < 2)
		return fail(crt, -EBADMSG, "unique identifier in v1");

	if (!der_empty(tbs)) {
		if (crt->version != 3)
			return fail(crt, -EBADMSG, "extensions before v3");
		err = parse_extensions(crt, tbs);
		if (err)
			return err;
	}
	return der_finish(tbs) ? fail(crt, -EBADMSG, "trailing data") : 0;
}

int tlsx_x509_parse(struct tlsx_x509 *crt, const u8 *der, size_t len)
{
	struct der_cursor top, cert, tbs;
	struct der_span tbs_alg, alg;
	enum tlsx_sig_alg outer;
	u8 tag;
	int err;

	memset(crt, 0, sizeof(*crt));
	crt->path_len = -1;
	der_init(&top, der, len);
	err = der_enter(&top, DER_SEQUENCE, &cert);
	if (!err)
		err = der_finish(&top);
	if (err)
		return fail(crt, -EBADMSG, "not a DER certificate");
	crt->raw.p = der;
	crt->raw.len = len;

	{
		struct der_cursor dup = cert;

		err = der_read_any(&dup, &tag, &alg, &crt->tbs);
		if (err)
			return fail(crt, err, "bad tbsCertificate");
	}
	err = der_enter(&cert, DER_SEQUENCE, &tbs);
	if (err)
		return fail(crt, err, "bad tbsCertificate");
	err = parse_tbs(crt, &tbs, &tbs_alg);
	if (err)
		goto out;

	err = read_sig_alg(&cert, &outer, &alg);
	if (err) {
		err = fail(crt, err, "bad or unsupported signature algorithm");
		goto out;
	}
	/* RFC 5280 4.1.1.2: the same algorithm inside and outside. */
	if (alg.len != tbs_alg.len || memcmp(alg.p, tbs_alg.p, alg.len)) {
		err = fail(crt, -EBADMSG, "signature algorithms differ");
		goto out;
	}
	err = der_read_bit_string_bytes(&cert, &crt->sig);
	if (!err)
		err = der_finish(&cert);
	if (err)
		err = fail(crt, -EBADMSG, "bad signature value");
out:
	if (err) {
		const char *why = crt->error;

		memset(crt, 0, sizeof(*crt));
		crt->error = why;
	}
	return err;
}

enum tlsx_hash_alg tlsx_sig_alg_hash(enum tlsx_sig_alg alg)
{
	switch (alg) {
	case TLSX_SIG_ECDSA_SHA256:
	case TLSX_SIG_RSA_PKCS1_SHA256:
	case TLSX_SIG_RSA_PSS_SHA256:
		return TLSX_HASH_SHA256;
	case TLSX_SIG_ECDSA_SHA384:
	case TLSX_SIG_RSA_PKCS1_SHA384:
	case TLSX_SIG_RSA_PSS_SHA384:
		return TLSX_HASH_SHA384;
	case TLSX_SIG_ECDSA_SHA512:
	case TLSX_SIG_RSA_PKCS1_SHA512:
	case TLSX_SIG_RSA_PSS_SHA512:
		return TLSX_HASH_SHA512;
	default:
		return 0;
	}
}

const char *tlsx_sig_alg_name(enum tlsx_sig_alg alg)
{
	static const char *const names[] = {
		[TLSX_SIG_NONE] = "none",
		[TLSX_SIG_ECDSA_SHA256] = "ecdsa-with-SHA256",
		[TLSX_SIG_ECDSA_SHA384] = "ecdsa-with-SHA384",
		[TLSX_SIG_ECDSA_SHA512] = "ecdsa-with-SHA512",
		[TLSX_SIG_ED25519] = "ED25519",
		[TLSX_SIG_RSA_PKCS1_SHA256] = "sha256WithRSAEncryption",
		[TLSX_SIG_RSA_PKCS1_SHA384] = "sha384WithRSAEncryption",
		[TLSX_SIG_RSA_PKCS1_SHA512] = "sha512WithRSAEncryption",
		[TLSX_SIG_RSA_PSS_SHA256] = "rsassaPss-SHA256",
		[TLSX_SIG_RSA_PSS_SHA384] = "rsassaPss-SHA384",
		[TLSX_SIG_RSA_PSS_SHA512] = "rsassaPss-SHA512",
	};

	if ((unsigned int)alg >= ARRAY_SIZE(names))
		return "unknown";
	return names[alg];
}

int tlsx_x509_cn_string(const struct der_span *cn, char *buf, size_t size)
{
	if (!cn->p || !size || cn->len > size - 1 || memchr(cn->p, 0, cn->len))
		return -EINVAL;
	memcpy(buf, cn->p, cn->len);
	buf[cn->len] = '\0';
	return 0;
}
