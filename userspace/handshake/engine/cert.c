// SPDX-License-Identifier: GPL-2.0
/*
 * cert.c - a party's chain and key, trust anchors, and the check of a
 * peer's chain with RFC 8446 6.2's alerts; the contract is in cert.h.
 * Parsing and path checks are x509/'s; this file reads files, keeps the
 * DER the parses point into, and says which alert each failure is.
 * CertificateVerify (tlsx_cv_*) is sig.c's.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "x509/pem.h"
#include "x509/x509_chain.h"
#include "x509/x509_verify.h"
#include "handshake/engine/alert.h"
#include "handshake/engine/cert.h"

/* Bounds on what is read from a file: a chain, a key, a CA bundle. */
#define CERT_FILE_MAX	(1u << 20)
#define KEY_FILE_MAX	(64u << 10)
#define TRUST_FILE_MAX	(16u << 20)
#define TRUST_DIR_MAX	(64u << 20)

/*
 * Reads the regular file @path whole (at most @max bytes) into a new
 * buffer, NUL-terminated for the PEM code's benefit.  0 or a negative
 * errno (-EFBIG over @max).
 */
static int read_file(const char *path, size_t max, char **buf, size_t *len)
{
	struct stat st;
	size_t got = 0;
	ssize_t r;
	char *p;
	int fd, ret;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	ret = -EISDIR;
	if (S_ISDIR(st.st_mode))
		goto out;
	ret = -EINVAL;
	if (!S_ISREG(st.st_mode))
		goto out;
	ret = -EFBIG;
	if ((u64)st.st_size > max)
		goto out;
	ret = -ENOMEM;
	p = malloc((size_t)st.st_size + 1);
	if (!p)
		goto out;
	while (got < (size_t)st.st_size) {
		r = read(fd, p + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got != (size_t)st.st_size) {
		/* Short: the file changed under us, or an I/O error. */
		ret = r < 0 ? -errno : -EIO;
		memzero_explicit(p, got);
		free(p);
		goto out;
	}
	p[got] = '\0';
	*buf = p;
	*len = got;
	ret = 0;
out:
	close(fd);
	return ret;
}

/* Wipes (a key file, or a chain file that may hold one) and frees. */
static void free_file(char *buf, size_t len)
{
	if (buf) {
		memzero_explicit(buf, len);
		free(buf);
	}
}

/* ---- a party's own chain and key ----------------------------------- */

static void chain_release(struct tlsx_cert_chain *c)
{
	tlsx_private_key_wipe(&c->key);
	free(c->der);
	c->der = NULL;
	c->der_len = 0;
	c->n = 0;
	memset(&c->leaf, 0, sizeof(c->leaf));
}

/* Frees what was loaded, writes "@name: ..." to c->err, returns @ret. */
static int chain_fail(struct tlsx_cert_chain *c, const char **err, int ret,
		      const char *name, const char *fmt, ...)
{
	va_list ap;
	int n;

	chain_release(c);
	n = snprintf(c->err, sizeof(c->err), "%s: ", name);
	if (n < 0 || (size_t)n >= sizeof(c->err))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(c->err + n, sizeof(c->err) - (size_t)n, fmt, ap);
	va_end(ap);
	if (err)
		*err = c->err;
	return ret;
}

static bool span_equal(const struct der_span *a, const struct der_span *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

/* What tlsx_x509_chain_load()'s @ret says of the @n-th certificate. */
static int chain_parse_fail(struct tlsx_cert_chain *c, const char **err,
			    int ret, const char *name,
			    const struct tlsx_x509 *bad, size_t n)
{
	switch (ret) {
	case -ENOENT:
		return chain_fail(c, err, ret, name,
				  "no CERTIFICATE block");
	case -ENOBUFS:
		return chain_fail(c, err, ret, name,
				  "more than %d certificates",
				  TLSX_CERT_MAX_CHAIN);
	case -ENOMEM:
		return chain_fail(c, err, ret, name, "out of memory");
	}
	/* chain_load() clears ->error; the parser sets it when it refuses. */
	if (bad->error)
		return chain_fail(c, err, ret, name, "certificate %zu: %s%s",
				  n + 1, ret == -EOPNOTSUPP ?
				  "not supported: " : "", bad->error);
	if (ret == -EOPNOTSUPP)
		return chain_fail(c, err, ret, name,
				  "block %zu: encrypted PEM is not supported",
				  n + 1);
	if (!n)
		return chain_fail(c, err, ret, name,
				  "malformed PEM block (base64 or END line)");
	return chain_fail(c, err, ret, name,
			  "malformed PEM block after certificate %zu", n);
}

static int key_fail(struct tlsx_cert_chain *c, const char **err, int ret,
		    const char *name)
{
	switch (ret) {
	case -ENOENT:
		return chain_fail(c, err, ret, name,
				  "no PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY block");
	case -EOPNOTSUPP:
		return chain_fail(c, err, ret, name,
				  "key not supported (encrypted, or not P-256, Ed25519 or RSA 2048..4096)");
	default:
		return chain_fail(c, err, ret, name,
				  "malformed or inconsistent private key");
	}
}

static int chain_load(struct tlsx_cert_chain *c, const char *pem,
		      size_t pem_len, const char *cert_name, const char *key,
		      size_t key_len, const char *key_name, const char **err)
{
	struct tlsx_public_key pub;
	struct tlsx_x509 *certs;
	size_t i, n = 0;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!pem_len)
		return chain_parse_fail(c, err, -ENOENT, cert_name, NULL, 0);
	/* Base64 decodes shorter than its text: @pem_len bytes suffice. */
	c->der = malloc(pem_len);
	certs = calloc(TLSX_CERT_MAX_CHAIN, sizeof(*certs));
	if (!c->der || !certs) {
		free(certs);
		return chain_parse_fail(c, err, -ENOMEM, cert_name, NULL, 0);
	}
	ret = tlsx_x509_chain_load(pem, pem_len, c->der, pem_len, certs,
				   TLSX_CERT_MAX_CHAIN, &n);
	if (ret) {
		ret = chain_parse_fail(c, err, ret, cert_name,
				       n < TLSX_CERT_MAX_CHAIN ? &certs[n] :
				       &certs[0], n);
		free(certs);
		return ret;
	}
	for (i = 0; i < n; i++) {
		c->off[i] = (size_t)(certs[i].raw.p - c->der);
		c->len[i] = certs[i].raw.len;
		c->der_len = c->off[i] + c->len[i];
		c->issuer_off[i] = (size_t)(certs[i].issuer.p - c->der);
		c->issuer_len[i] = certs[i].issuer.len;
	}
	/*
	 * RFC 8446 4.4.2: the sender's certificate first, "each following
	 * certificate SHOULD directly certify the one immediately preceding
	 * it".  A peer may cope with another order; ours will not send one.
	 */
	for (i = 1; i < n; i++) {
		if (!span_equal(&certs[i].subject, &certs[i - 1].issuer)) {
			free(certs);
			return chain_fail(c, err, -EINVAL, cert_name,
					  "certificate %zu is not the issuer of certificate %zu (the leaf first, then each issuer)",
					  i + 1, i);
		}
	}
	c->n = n;
	c->leaf = certs[0];
	/*
	 * 4.4.2.2: "Certificates that are self-signed or certificates that
	 * are expected to be trust anchors are not validated as part of
	 * the chain and therefore MAY be signed with any algorithm": a
	 * self-signed one (by name) does not count.
	 */
	c->sig_algs = 0;
	for (i = 0; i < n; i++)
		if (!span_equal(&certs[i].subject, &certs[i].issuer))
			c->sig_algs |= TLSX_CERT_SIG_BIT(certs[i].sig_alg);
	free(certs);

	if (key_len && memmem(key, key_len, "-----BEGIN", 10))
		ret = tlsx_private_key_from_pem(&c->key, key, key_len);
	else
		ret = tlsx_private_key_from_der(&c->key, (const u8 *)key,
						key_len);
	if (ret)
		return key_fail(c, err, ret, key_name);
	ret = tlsx_private_key_public(&c->key, &pub);
	if (ret || !tlsx_public_key_equal(&pub, &c->leaf.pub))
		return chain_fail(c, err, -EINVAL, key_name,
				  "private key does not match the certificate of %s",
				  cert_name);
	return 0;
}

int tlsx_cert_chain_load_mem(struct tlsx_cert_chain *c, const char *cert_pem,
			     size_t cert_len, const char *key_pem,
			     size_t key_len, const char **err)
{
	return chain_load(c, cert_pem, cert_len, "certificate PEM", key_pem,
			  key_len, "key PEM", err);
}

int tlsx_cert_chain_load(struct tlsx_cert_chain *c, const char *cert_file,
			 const char *key_file, const char **err)
{
	char *pem = NULL, *key = NULL, ebuf[128];
	size_t pem_len, key_len;
	int ret;

	memset(c, 0, sizeof(*c));
	ret = read_file(cert_file, CERT_FILE_MAX, &pem, &pem_len);
	if (ret)
		return chain_fail(c, err, ret, cert_file, "cannot read: %s",
				  strerror_r(-ret, ebuf, sizeof(ebuf)));
	ret = read_file(key_file, KEY_FILE_MAX, &key, &key_len);
	if (ret) {
		free_file(pem, pem_len);
		return chain_fail(c, err, ret, key_file, "cannot read: %s",
				  strerror_r(-ret, ebuf, sizeof(ebuf)));
	}
	ret = chain_load(c, pem, pem_len, cert_file, key, key_len, key_file,
			 err);
	/* Both may hold a private key (a combined PEM is common). */
	free_file(pem, pem_len);
	free_file(key, key_len);
	return ret;
}

void tlsx_cert_chain_free(struct tlsx_cert_chain *c)
{
	chain_release(c);
	memzero_explicit(c, sizeof(*c));
}

/*
 * signature_algorithms_cert's codes (4.2.3) and the certificate
 * signature each allows.  Wire numbers: handshake/engine/hs.h's TLSX_SIG_*
 * codes are not included here, as its TLSX_SIG_ED25519 (0x0807) would
 * hide x509.h's enum member of the same name.
 */
static const struct {
	u16 scheme;
	enum tlsx_sig_alg alg;
} cert_schemes[] = {
	{ 0x0401, TLSX_SIG_RSA_PKCS1_SHA256 },	/* rsa_pkcs1_sha256 */
	{ 0x0501, TLSX_SIG_RSA_PKCS1_SHA384 },
	{ 0x0601, TLSX_SIG_RSA_PKCS1_SHA512 },
	{ 0x0403, TLSX_SIG_ECDSA_SHA256 },	/* ecdsa_secp256r1_sha256 */
	{ 0x0503, TLSX_SIG_ECDSA_SHA384 },	/* ecdsa_secp384r1_sha384 */
	{ 0x0603, TLSX_SIG_ECDSA_SHA512 },	/* ecdsa_secp521r1_sha512 */
	{ 0x0807, TLSX_SIG_ED25519 },		/* ed25519 */
	{ 0x0804, TLSX_SIG_RSA_PSS_SHA256 },	/* rsa_pss_rsae_sha256 */
	{ 0x0805, TLSX_SIG_RSA_PSS_SHA384 },
	{ 0x0806, TLSX_SIG_RSA_PSS_SHA512 },
	{ 0x0809, TLSX_SIG_RSA_PSS_SHA256 },	/* rsa_pss_pss_sha256 */
	{ 0x080a, TLSX_SIG_RSA_PSS_SHA384 },
	{ 0x080b, TLSX_SIG_RSA_PSS_SHA512 },
};

unsigned int tlsx_sig_scheme_cert_algs(u16 scheme)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cert_schemes); i++)
		if (cert_schemes[i].scheme == scheme)
			return TLSX_CERT_SIG_BIT(cert_schemes[i].alg);
	return 0;
}

bool tlsx_cert_chain_matches(const struct tlsx_cert_chain *c,
			     const char *host)
{
	return c->n && host && tlsx_x509_match_host(&c->leaf, host);
}

/* ---- trust anchors ------------------------------------------------- */

/* sha1WithRSAEncryption and sha256WithRSAEncryption (RFC 8017 A.2.4). */
static const u8 oid_sha1_rsa[9] = {
	0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x05
};
#define OID_SHA256_RSA_LAST	0x0b

/* Where the last byte of the sha1WithRSA OID of AlgorithmIdentifier is. */
static bool sha1_rsa_at(struct der_cursor *c, const u8 *base, size_t *pos)
{
	struct der_cursor alg;
	struct der_span oid;

	if (der_enter(c, DER_SEQUENCE, &alg) || der_read_oid(&alg, &oid) ||
	    !der_oid_equal(&oid, oid_sha1_rsa, sizeof(oid_sha1_rsa)))
		return false;
	*pos = (size_t)(oid.p - base) + oid.len - 1;
	return true;
}

/*
 * RFC 5280 6.1.1 (d): a trust anchor is a name and a key; the signature
 * on a self-signed root is never checked (tlsx_x509_verify() reads an
 * anchor's subject, key, validity and constraints only).  The parser
 * refuses sha1WithRSAEncryption, which would drop 30 of Debian's roots
 * (DigiCert Global Root CA among them) for a signature nobody checks:
 * such an anchor is parsed with both AlgorithmIdentifiers (tbsCertificate
 * signature, signatureAlgorithm) patched in place to sha256WithRSA, an
 * OID of the same length, and kept so.  Never done for a peer's chain.
 */
static int anchor_parse(struct tlsx_x509 *crt, u8 *der, size_t len)
{
	struct der_cursor all, cert, tbs;
	struct der_span skip;
	size_t inner, outer;
	int ret;

	ret = tlsx_x509_parse(crt, der, len);
	if (ret != -EOPNOTSUPP)
		return ret;
	der_init(&all, der, len);
	if (der_enter(&all, DER_SEQUENCE, &cert) ||
	    der_enter(&cert, DER_SEQUENCE, &tbs) ||
	    der_read_optional(&tbs, DER_CONTEXT(0), &skip) < 0 ||
	    der_read(&tbs, DER_INTEGER, &skip) ||
	    !sha1_rsa_at(&tbs, der, &inner) || !sha1_rsa_at(&cert, der, &outer))
		return ret;
	der[inner] = OID_SHA256_RSA_LAST;
	der[outer] = OID_SHA256_RSA_LAST;
	if (!tlsx_x509_parse(crt, der, len))
		return 0;
	der[inner] = oid_sha1_rsa[8];
	der[outer] = oid_sha1_rsa[8];
	return ret;
}

int tlsx_trust_load_mem(struct tlsx_trust *t, const char *pem, size_t len,
			size_t *skipped)
{
	const char *pos = pem, *end = pem + len;
	size_t used = 0, cap = 0, i, bad = 0;
	struct tlsx_x509 *certs = NULL, *more;
	struct pem_block b;
	bool dup;
	u8 *der;
	int ret;

	memset(t, 0, sizeof(*t));
	if (skipped)
		*skipped = 0;
	der = malloc(len ? len : 1);
	if (!der)
		return -ENOMEM;
	for (;;) {
		ret = pem_next(&pos, end, &b, der + used, len - used);
		if (!ret)
			break;
		if (ret < 0) {
			/* A malformed block; pem_next() goes on after it. */
			bad++;
			continue;
		}
		if (strcmp(b.label, "CERTIFICATE")) {
			memzero_explicit(der + used, b.der_len);
			continue;
		}
		if (t->n == cap) {
			cap = cap ? 2 * cap : 64;
			more = realloc(certs, cap * sizeof(*certs));
			if (!more) {
				ret = -ENOMEM;
				goto fail;
			}
			certs = more;
		}
		/*
		 * As OpenSSL does with a bundle: a certificate we cannot use
		 * (a P-384 root) is left out, not an error.
		 */
		if (anchor_parse(&certs[t->n], der + used, b.der_len)) {
			bad++;
			continue;
		}
		/* A directory may hold a bundle and its parts: once each. */
		for (i = 0, dup = false; i < t->n && !dup; i++)
			dup = span_equal(&certs[i].raw, &certs[t->n].raw);
		if (dup)
			continue;
		used += b.der_len;
		t->n++;
	}
	if (!t->n) {
		ret = -ENOENT;
		goto fail;
	}
	/* The parses point into @der: it is kept whole, never moved. */
	t->der = der;
	t->der_len = used;
	t->certs = certs;
	tlsx_sha256(der, used, t->digest);
	if (skipped)
		*skipped = bad;
	return 0;
fail:
	free(certs);
	free(der);
	memset(t, 0, sizeof(*t));
	if (skipped)
		*skipped = bad;
	return ret;
}

static int trust_name_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 4 &&
	       (!strcmp(d->d_name + n - 4, ".pem") ||
		!strcmp(d->d_name + n - 4, ".crt"));
}

/*
 * Every *.pem and *.crt of the directory @path, in name order, one after
 * the other in one buffer (an unreadable file is passed over, as
 * OpenSSL's directory lookup does).
 */
static int read_dir(const char *path, char **buf, size_t *len)
{
	struct dirent **names;
	char file[4096], *all = NULL, *p, *more;
	size_t total = 0, n;
	int count, i, ret = 0;

	count = scandir(path, &names, trust_name_filter, alphasort);
	if (count < 0)
		return -errno;
	for (i = 0; i < count; i++) {
		if (ret || (size_t)snprintf(file, sizeof(file), "%s/%s", path,
					    names[i]->d_name) >= sizeof(file) ||
		    read_file(file, TRUST_FILE_MAX, &p, &n)) {
			free(names[i]);
			continue;
		}
		more = total + n + 1 > TRUST_DIR_MAX ? NULL :
		       realloc(all, total + n + 2);
		if (more) {
			all = more;
			memcpy(all + total, p, n);
			total += n;
			all[total++] = '\n';	/* a file without a last EOL */
			all[total] = '\0';
		} else {
			ret = total + n + 1 > TRUST_DIR_MAX ? -EFBIG : -ENOMEM;
		}
		free(p);
		free(names[i]);
	}
	free(names);
	if (ret) {
		free(all);
		return ret;
	}
	*buf = all;
	*len = total;
	return 0;
}

int tlsx_trust_load(struct tlsx_trust *t, const char *path, size_t *skipped)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	if (skipped)
		*skipped = 0;
	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		ret = read_dir(path, &buf, &len);
	else
		ret = read_file(path, TRUST_FILE_MAX, &buf, &len);
	if (ret)
		return ret;
	ret = tlsx_trust_load_mem(t, buf ? buf : "", len, skipped);
	free(buf);
	return ret;
}

void tlsx_trust_free(struct tlsx_trust *t)
{
	free(t->certs);
	free(t->der);
	memset(t, 0, sizeof(*t));
}

/* ---- a peer's chain ------------------------------------------------ */

/*
 * RFC 8446 6.2's alert for each way a chain can fail (docs/handshake.md
 * has the table and why).
 */
static int verify_alert(int verr)
{
	switch (verr) {
	case X509_VERIFY_OK:
		return 0;
	case X509_VERIFY_BAD_SIGNATURE:
		/* "contained signatures that did not verify correctly" */
		return TLSX_ALERT_BAD_CERTIFICATE;
	case X509_VERIFY_EXPIRED:
	case X509_VERIFY_NOT_YET_VALID:
		/* "expired or is not currently valid" */
		return TLSX_ALERT_CERTIFICATE_EXPIRED;
	case X509_VERIFY_NO_ISSUER:
	case X509_VERIFY_NOT_CA:
	case X509_VERIFY_PATH_LEN:
	case X509_VERIFY_ISSUER_KEY_USAGE:
	case X509_VERIFY_DEPTH:
		/*
		 * "the CA certificate could not be located or could not be
		 * matched with a known trust anchor": no acceptable path (an
		 * issuer that may not issue is no issuer; OpenSSL says the
		 * same of X509_V_ERR_INVALID_CA).
		 */
		return TLSX_ALERT_UNKNOWN_CA;
	case X509_VERIFY_LEAF_KEY_USAGE:
	case X509_VERIFY_EXT_KEY_USAGE:
	case X509_VERIFY_HOST_MISMATCH:
		/* A good chain, but not for this name or this use. */
		return TLSX_ALERT_CERTIFICATE_UNKNOWN;
	default:
		return TLSX_ALERT_INTERNAL_ERROR;
	}
}

static void set_err(int *x509_err, int v)
{
	if (x509_err)
		*x509_err = v;
}

int tlsx_cert_verify_peer(const struct tlsx_trust *t, const u8 *const *certs,
			  const size_t *lens, size_t n, s64 now,
			  unsigned int purpose, const char *host,
			  struct tlsx_public_key *leaf_pub, int *x509_err)
{
	struct tlsx_x509_verify_params params = {
		.now = now, .host = host, .purpose = purpose,
	};
	struct tlsx_x509 chain[TLSX_CERT_MAX_CHAIN];
	size_t i, m = 0;
	int ret;

	set_err(x509_err, X509_VERIFY_INVALID);
	if (!n || !certs || !lens || !leaf_pub)
		return -EINVAL;
	if (n > TLSX_CERT_MAX_CHAIN) {
		/* Longer than any path tlsx would follow (X.509's bound). */
		set_err(x509_err, TLSX_CERT_ERR_TOO_MANY);
		return TLSX_ALERT_BAD_CERTIFICATE;
	}
	for (i = 0; i < n; i++) {
		ret = tlsx_x509_parse(&chain[m], certs[i], lens[i]);
		/*
		 * 4.4.2: "SHOULD be prepared to handle potentially extraneous
		 * certificates": an intermediate tlsx cannot use is left out
		 * (if the path needed it, no issuer is found: unknown_ca).
		 */
		if (ret == -EOPNOTSUPP && i) {
			continue;
		} else if (ret) {
			set_err(x509_err, ret);
			return ret == -EOPNOTSUPP ?
			       TLSX_ALERT_UNSUPPORTED_CERTIFICATE :
			       TLSX_ALERT_BAD_CERTIFICATE;
		}
		m++;
	}
	/*
	 * 4.4.2: "The sender's certificate MUST come in the first
	 * CertificateEntry in the list."  A first certificate that issued
	 * (name and signature) another one of the list is an issuer, not
	 * the sender's: the chain was sent in the wrong order.
	 */
	for (i = 1; i < m; i++) {
		if (span_equal(&chain[i].raw, &chain[0].raw) ||
		    !span_equal(&chain[i].issuer, &chain[0].subject) ||
		    tlsx_x509_check_signature(&chain[i], &chain[0].pub))
			continue;
		set_err(x509_err, TLSX_CERT_ERR_ORDER);
		return TLSX_ALERT_BAD_CERTIFICATE;
	}
	ret = tlsx_x509_verify(chain, m, t ? t->certs : NULL, t ? t->n : 0,
			       &params);
	set_err(x509_err, -ret);
	if (ret)
		return verify_alert(-ret);
	*leaf_pub = chain[0].pub;
	return 0;
}

const char *tlsx_cert_verify_strerror(int x509_err)
{
	switch (x509_err) {
	case TLSX_CERT_ERR_ORDER:
		return "the first certificate is an issuer of another: chain not in order";
	case TLSX_CERT_ERR_TOO_MANY:
		return "more certificates than tlsx accepts in a chain";
	case -EBADMSG:
		return "malformed certificate";
	case -EOPNOTSUPP:
		return "certificate uses an algorithm, key or critical extension tlsx does not support";
	case -E2BIG:
		return "certificate has more names or extensions than tlsx keeps";
	}
	return tlsx_x509_verify_strerror(-x509_err);
}
