// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_p256.c - libFuzzer target for the P-256 code that parses what a
 * peer sends: the input is tried as a DER ECDSA signature (accepted only
 * when strict, so re-encoding it must give the input back), as an
 * uncompressed public point (accepted only on the curve), and the two
 * together with a digest go to verification, which must not crash and
 * must agree with the checks.
 */
#include <stdlib.h>
#include <string.h>

#include "p256/p256.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 sig[P256_SIG_SIZE], der[P256_SIG_DER_MAX], shared[32];
	static const u8 priv[32] = { [31] = 7 };
	size_t n;
	int ret;

	if (!tlsx_p256_sig_from_der(sig, data, size)) {
		n = tlsx_p256_sig_to_der(der, sig);
		if (n != size || memcmp(der, data, n))
			abort();
	}

	ret = tlsx_p256_check_public(data, size);
	if (!ret && tlsx_p256_ecdh(shared, priv, data, size))
		abort();
	if (ret && tlsx_p256_ecdh(shared, priv, data, size) != -EINVAL)
		abort();

	/* point || r || s || digest */
	if (size >= P256_POINT_SIZE + P256_SIG_SIZE) {
		const u8 *s = data + P256_POINT_SIZE;

		ret = tlsx_p256_verify(s, data, P256_POINT_SIZE,
				       s + P256_SIG_SIZE,
				       size - P256_POINT_SIZE - P256_SIG_SIZE);
		if (ret && ret != -EBADMSG && ret != -EINVAL)
			abort();
		if (ret == -EINVAL &&
		    !tlsx_p256_check_public(data, P256_POINT_SIZE))
			abort();
	}
	return 0;
}
