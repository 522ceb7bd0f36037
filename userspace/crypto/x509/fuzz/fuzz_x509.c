// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_x509.c - libFuzzer target: the input is one DER certificate.
 * When it parses, every field is walked (each span read end to end, so
 * ASan sees any span that leaves the input) and the invariants the
 * verifier relies on are checked (a broken invariant aborts); then the
 * signature is checked with the certificate's own key (so hostile
 * signature encodings reach the ECDSA, Ed25519 and RSA verifiers) and
 * the names are matched against a few hosts.
 */
#include <stdlib.h>

#include "x509/x509_verify.h"

static unsigned int sink;

/* Touches every byte of @s, which must lie inside [base, base + len). */
static void walk(const struct der_span *s, const u8 *base, size_t len)
{
	size_t i;

	if (!s->len)
		return;
	if (s->p < base || s->len > len || s->p - base > (long)(len - s->len))
		abort();
	for (i = 0; i < s->len; i++)
		sink += s->p[i];
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tlsx_x509 crt;
	char cn[128];
	unsigned int i;

	if (tlsx_x509_parse(&crt, data, size)) {
		if (!crt.error)
			abort();	/* every failure says why */
		return 0;
	}
	walk(&crt.raw, data, size);
	walk(&crt.tbs, data, size);
	walk(&crt.serial, data, size);
	walk(&crt.sig, data, size);
	walk(&crt.issuer, data, size);
	walk(&crt.subject, data, size);
	walk(&crt.issuer_cn, data, size);
	walk(&crt.subject_cn, data, size);
	walk(&crt.spki, data, size);
	if (crt.n_dns > X509_MAX_DNS || crt.n_ip > X509_MAX_IP)
		abort();
	for (i = 0; i < crt.n_dns; i++)
		walk(&crt.dns[i], data, size);
	for (i = 0; i < crt.n_ip; i++) {
		if (crt.ip[i].len != 4 && crt.ip[i].len != 16)
			abort();
		walk(&crt.ip[i], data, size);
	}
	if (crt.version < 1 || crt.version > 3 || crt.path_len > 255 ||
	    crt.path_len < -1 || crt.sig_alg == TLSX_SIG_NONE ||
	    crt.pub.type == TLSX_KEY_NONE)
		abort();
	if (crt.pub.type == TLSX_KEY_RSA &&
	    (crt.pub.rsa.n_len < 256 || crt.pub.rsa.n_len > RSA_MAX_BYTES ||
	     !crt.pub.rsa.n[0] || !(crt.pub.rsa.e & 1)))
		abort();
	if (crt.sig_alg != TLSX_SIG_ED25519 && !tlsx_sig_alg_hash(crt.sig_alg))
		abort();
	sink += tlsx_sig_alg_name(crt.sig_alg)[0];
	if (!tlsx_x509_cn_string(&crt.subject_cn, cn, sizeof(cn)))
		sink += cn[0];
	if (!tlsx_x509_cn_string(&crt.issuer_cn, cn, sizeof(cn)))
		sink += cn[0];
	sink += !tlsx_x509_check_signature(&crt, &crt.pub);
	sink += tlsx_x509_match_host(&crt, "www.example.com");
	sink += tlsx_x509_match_host(&crt, "a.example.org.");
	sink += tlsx_x509_match_host(&crt, "192.0.2.1");
	sink += tlsx_x509_match_host(&crt, "2001:db8::1");
	return 0;
}
