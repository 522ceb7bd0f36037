// SPDX-License-Identifier: GPL-2.0
/*
 * p256_der.c - ECDSA signatures as DER Ecdsa-Sig-Value (RFC 3279, SEC 1
 * C.5): SEQUENCE { INTEGER r, INTEGER s }, the form TLS carries.
 *
 * Decoding is strict DER: definite short-form lengths (the whole value
 * is at most 72 bytes, so a long form would not be minimal), exact
 * lengths with nothing after the sequence, integers minimally encoded
 * and positive, each in [1, n-1].  Signatures are public: variable time.
 */
#include "p256/p256.h"
#include "p256/p256_internal.h"

/* Writes INTEGER v (32 big-endian bytes) and returns its length. */
static size_t der_put_int(u8 *out, const u8 v[32])
{
	size_t skip = 0, len, pad;

	while (skip < 31 && !v[skip])
		skip++;
	pad = v[skip] & 0x80 ? 1 : 0;	/* keep it positive */
	len = 32 - skip + pad;
	out[0] = 0x02;
	out[1] = (u8)len;
	out[2] = 0;
	memcpy(out + 2 + pad, v + skip, 32 - skip);
	return 2 + len;
}

size_t tlsx_p256_sig_to_der(u8 der[P256_SIG_DER_MAX],
			    const u8 sig[P256_SIG_SIZE])
{
	size_t n;

	n = der_put_int(der + 2, sig);
	n += der_put_int(der + 2 + n, sig + 32);
	der[0] = 0x30;
	der[1] = (u8)n;
	return 2 + n;
}

/*
 * Reads INTEGER at *p (at most @left bytes) into 32 big-endian bytes;
 * advances *p.  -EBADMSG unless strict DER of a value in [1, n-1].
 */
static int der_get_int(u8 out[32], const u8 **p, size_t left)
{
	const u8 *q = *p;
	size_t len;
	u64 v[4];

	if (left < 2 || q[0] != 0x02)
		return -EBADMSG;
	len = q[1];
	if (len < 1 || len > 33 || len > left - 2)
		return -EBADMSG;
	q += 2;
	if (q[0] & 0x80)			/* negative */
		return -EBADMSG;
	if (len > 1 && !q[0] && !(q[1] & 0x80))	/* not minimal */
		return -EBADMSG;
	if (len == 33) {	/* only a sign byte may make it 33 */
		if (q[0])
			return -EBADMSG;
		q++;
		len--;
	}
	memset(out, 0, 32);
	memcpy(out + 32 - len, q, len);
	p256_from_be(v, out);
	if (!p256_sc_valid_mask(v))
		return -EBADMSG;
	*p = q + len;
	return 0;
}

int tlsx_p256_sig_from_der(u8 sig[P256_SIG_SIZE], const u8 *der,
			   size_t len)
{
	const u8 *p, *end;

	if (!der || len < 2 || der[0] != 0x30 || der[1] & 0x80 ||
	    (size_t)der[1] + 2 != len)
		return -EBADMSG;
	p = der + 2;
	end = der + len;
	if (der_get_int(sig, &p, (size_t)(end - p)) ||
	    der_get_int(sig + 32, &p, (size_t)(end - p)) || p != end) {
		memset(sig, 0, P256_SIG_SIZE);
		return -EBADMSG;
	}
	return 0;
}
