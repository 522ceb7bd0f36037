// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_pkey.c - libFuzzer target: the input as a DER private key (any
 * of PKCS#8, SEC 1, PKCS#1), as a SubjectPublicKeyInfo and, when it
 * looks like text, as a PEM key file.  A refused key must come back
 * wiped; a loaded one must give its public half.
 */
#include <stdlib.h>

#include "x509/pkey.h"

static void check(struct tlsx_private_key *k, int err)
{
	struct tlsx_public_key pub;

	if (err) {
		if (k->type != TLSX_KEY_NONE)
			abort();
		return;
	}
	if (tlsx_private_key_public(k, &pub) || pub.type != k->type)
		abort();
	tlsx_private_key_wipe(k);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tlsx_private_key k;
	struct tlsx_public_key pub;

	check(&k, tlsx_private_key_from_der(&k, data, size));
	if (size && data[0] == '-')
		check(&k, tlsx_private_key_from_pem(&k, (const char *)data,
						    size));
	if (!tlsx_spki_parse(&pub, data, size)) {
		if (pub.type == TLSX_KEY_NONE)
			abort();
		if (pub.type == TLSX_KEY_RSA &&
		    (pub.rsa.n_len < 256 || !pub.rsa.n[0] || !(pub.rsa.e & 1)))
			abort();
	}
	return 0;
}
