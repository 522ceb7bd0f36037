// SPDX-License-Identifier: GPL-2.0
/*
 * hkdf.c - HKDF (RFC 5869) and TLS 1.3's HKDF-Expand-Label and
 * Derive-Secret (RFC 8446 section 7.1).  Secrets pass only through HMAC
 * and are wiped from every buffer here; Extract (tlsx_hmac()) and Expand
 * also wipe the stack their work touched (aead/stack_wipe.h).
 */
#include "aead/platform.h"
#include "aead/stack_wipe.h"
#include "hash/hkdf.h"
#include "hash/hmac.h"

/* "tls13 " before every label (RFC 8446 section 7.1). */
#define TLS13_LABEL_PREFIX	"tls13 "
#define TLS13_LABEL_PREFIX_LEN	6

int tlsx_hkdf_extract(enum tlsx_hash_alg alg, const u8 *salt,
		      size_t salt_len, const u8 *ikm, size_t ikm_len,
		      u8 *prk)
{
	static const u8 zeros[TLSX_HASH_MAX_DIGEST];

	/* HMAC pads a short key with zeros: HashLen zeros are no key. */
	if (!salt || !salt_len) {
		salt = zeros;
		salt_len = tlsx_hash_digest_size(alg);
	}
	return tlsx_hmac(alg, salt, salt_len, ikm, ikm_len, prk);
}

/* Expand's frame (two HMAC states, a T(i)) above HMAC's. */
#define HKDF_EXPAND_FRAMES	768

/*
 * T(i) = HMAC(PRK, T(i-1) || info || i), T(0) empty; the output is
 * T(1) || T(2) || ... cut to @out_len.  The keyed state (HMAC of the PRK
 * padded with ipad/opad) is computed once and copied for each T(i).
 */
static noinline int hkdf_expand(enum tlsx_hash_alg alg, const u8 *prk,
				size_t prk_len, const u8 *info,
				size_t info_len, u8 *out, size_t out_len)
{
	struct tlsx_hmac keyed, m;
	u8 t[TLSX_HASH_MAX_DIGEST];
	size_t ds = tlsx_hash_digest_size(alg), done, n;
	u8 i;
	int ret;

	if (!ds || out_len > 255 * ds)
		return -EINVAL;
	ret = tlsx_hmac_init(&keyed, alg, prk, prk_len);
	if (ret)
		return ret;
	for (done = 0, i = 1; done < out_len; done += n, i++) {
		m = keyed;
		if (done)
			tlsx_hmac_update(&m, t, ds);
		tlsx_hmac_update(&m, info, info_len);
		tlsx_hmac_update(&m, &i, 1);
		tlsx_hmac_final(&m, t);
		n = out_len - done < ds ? out_len - done : ds;
		memcpy(out + done, t, n);
	}
	memzero_explicit(t, sizeof(t));
	memzero_explicit(&keyed, sizeof(keyed));
	return 0;
}

int tlsx_hkdf_expand(enum tlsx_hash_alg alg, const u8 *prk, size_t prk_len,
		     const u8 *info, size_t info_len, u8 *out,
		     size_t out_len)
{
	int ret = hkdf_expand(alg, prk, prk_len, info, info_len, out,
			      out_len);

	tlsx_stack_wipe_user(HKDF_EXPAND_FRAMES + TLSX_HMAC_FRAMES +
			     tlsx_hash_stack_reach(alg));
	return ret;
}

/*
 * struct HkdfLabel { uint16 length; opaque label<7..255>;
 * opaque context<0..255>; }, the label with its "tls13 " prefix, each
 * opaque vector behind a one-byte length.
 */
int tlsx_hkdf_expand_label(enum tlsx_hash_alg alg, const u8 *secret,
			   const char *label, const u8 *context,
			   size_t context_len, u8 *out, size_t out_len)
{
	u8 info[2 + 1 + 255 + 1 + 255];
	size_t ds = tlsx_hash_digest_size(alg);
	size_t label_len = strlen(label), n = 0;
	int ret;

	if (!ds || TLS13_LABEL_PREFIX_LEN + label_len > 255 ||
	    context_len > 255 || out_len > 65535)
		return -EINVAL;
	put_unaligned_be16((u16)out_len, info);
	info[2] = (u8)(TLS13_LABEL_PREFIX_LEN + label_len);
	n = 3;
	memcpy(info + n, TLS13_LABEL_PREFIX, TLS13_LABEL_PREFIX_LEN);
	n += TLS13_LABEL_PREFIX_LEN;
	memcpy(info + n, label, label_len);
	n += label_len;
	info[n++] = (u8)context_len;
	if (context_len)
		memcpy(info + n, context, context_len);
	n += context_len;
	ret = tlsx_hkdf_expand(alg, secret, ds, info, n, out, out_len);
	memzero_explicit(info, n);
	return ret;
}

int tlsx_derive_secret(enum tlsx_hash_alg alg, const u8 *secret,
		       const char *label, const u8 *transcript_hash,
		       u8 *out)
{
	size_t ds = tlsx_hash_digest_size(alg);

	return tlsx_hkdf_expand_label(alg, secret, label, transcript_hash, ds,
				      out, ds);
}
