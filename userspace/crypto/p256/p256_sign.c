// SPDX-License-Identifier: GPL-2.0
/*
 * p256_sign.c - ECDSA P-256 signing (FIPS 186-5 6.4.1, SEC 1 4.1.3) with
 * the nonce of RFC 6979 section 3.2: an HMAC-DRBG keyed by the private
 * key and the reduced digest, optionally hedged with 32 fresh random
 * bytes as section 3.6's additional data k'.
 *
 * Constant-time in the private key and the nonce: the scalar arithmetic
 * is p256_scalar.c's, k*G the fixed-base table's masked scans.  The only
 * branches on secret-derived bits are the nonce's range check (a retry
 * with probability about 2^-32, as RFC 6979 specifies) and r or s being
 * zero (published anyway); p256_declassify() marks them for valgrind.
 */
#include "hash/hmac.h"
#include "p256/p256.h"
#include "p256/p256_internal.h"
#include "rand/random.h"
#include "aead/stack_wipe.h"

struct p256_drbg {
	enum tlsx_hash_alg alg;
	size_t hlen;
	u8 k[TLSX_HASH_MAX_DIGEST];
	u8 v[TLSX_HASH_MAX_DIGEST];
};

/* K = HMAC_K(V || sep || x || h [|| extra]); V = HMAC_K(V). */
static void drbg_update(struct p256_drbg *d, u8 sep, const u8 x[32],
			const u8 h[32], const u8 *extra, size_t extra_len)
{
	struct tlsx_hmac m;

	tlsx_hmac_init(&m, d->alg, d->k, d->hlen);
	tlsx_hmac_update(&m, d->v, d->hlen);
	tlsx_hmac_update(&m, &sep, 1);
	if (x) {
		tlsx_hmac_update(&m, x, 32);
		tlsx_hmac_update(&m, h, 32);
		if (extra_len)
			tlsx_hmac_update(&m, extra, extra_len);
	}
	tlsx_hmac_final(&m, d->k);
	__tlsx_hmac(d->alg, d->k, d->hlen, d->v, d->hlen, d->v);
}

/* RFC 6979 3.2 steps b-f. */
static void drbg_init(struct p256_drbg *d, enum tlsx_hash_alg alg,
		      const u8 x[32], const u8 h[32], const u8 *extra,
		      size_t extra_len)
{
	d->alg = alg;
	d->hlen = tlsx_hash_digest_size(alg);
	memset(d->v, 0x01, d->hlen);
	memset(d->k, 0x00, d->hlen);
	drbg_update(d, 0x00, x, h, extra, extra_len);
	drbg_update(d, 0x01, x, h, extra, extra_len);
}

/*
 * RFC 6979 3.2 step h: the next candidate k in [1, n-1].  Every hash
 * here is at least 256 bits long, so one V gives qlen bits; bits2int
 * keeps its leftmost 256.  A candidate out of range (or one whose r or s
 * is zero, by the caller) moves the generator on with K = HMAC_K(V ||
 * 0x00), V = HMAC_K(V).
 */
static void drbg_next(struct p256_drbg *d, u64 k[4], bool reseed)
{
	u64 ok;

	if (reseed)
		drbg_update(d, 0x00, NULL, NULL, NULL, 0);
	for (;;) {
		__tlsx_hmac(d->alg, d->k, d->hlen, d->v, d->hlen, d->v);
		p256_from_be(k, d->v);
		ok = p256_sc_valid_mask(k);
		p256_declassify(&ok, sizeof(ok));
		if (ok)
			return;
		drbg_update(d, 0x00, NULL, NULL, NULL, 0);
	}
}

int tlsx_p256_sign(u8 sig[P256_SIG_SIZE], const u8 priv[P256_SCALAR_SIZE],
		   enum tlsx_hash_alg hash, const u8 *digest,
		   size_t digest_len, bool hedge)
{
	u8 extra[32];
	int err = 0;

	if (hedge)
		err = tlsx_random_bytes(extra, sizeof(extra));
	if (!err)
		err = tlsx_p256_sign_extra(sig, priv, hash, digest, digest_len,
					   hedge ? extra : NULL);
	memzero_explicit(extra, sizeof(extra));
	return err;
}

static noinline int p256_sign_work(u8 sig[P256_SIG_SIZE],
				   const u8 priv[P256_SCALAR_SIZE],
				   enum tlsx_hash_alg hash, const u8 *digest,
				   size_t digest_len, const u8 extra_in[32])
{
	bool hedge = extra_in;
	struct p256_drbg drbg;
	u64 d[4], e[4], k[4], x[4], y[4], r[4], s[4], t[4], zr, zs;
	u8 xb[32], hb[32], extra[32] = { 0 };
	bool again = false;

	if (!tlsx_hash_digest_size(hash) || (!digest && digest_len))
		return -EINVAL;
	if (tlsx_p256_check_private(priv))
		return -EINVAL;
	if (hedge)
		memcpy(extra, extra_in, sizeof(extra));
	p256_from_be(d, priv);
	p256_sc_from_digest(e, digest, digest_len);
	memcpy(xb, priv, 32);
	p256_to_be(hb, e);			/* bits2octets(h1) */
	drbg_init(&drbg, hash, xb, hb, extra, hedge ? sizeof(extra) : 0);

	for (;;) {
		drbg_next(&drbg, k, again);
		again = true;
		p256_sc_to_mont(y, k);
		/* x of k*G, and t = k^-1 R (Montgomery form) */
		p256_curve()->sign_mul(x, t, k, y);
		p256_sc_reduce_once(r, x);	/* x < p < 2n */

		/* s = k^-1 (e + r d) mod n */
		p256_sc_to_mont(s, d);
		p256_sc_mul(s, r, s);		/* r d */
		p256_sc_add(s, s, e);
		p256_sc_mul(s, t, s);		/* k^-1 (e + r d) */

		zr = ~p256_sc_valid_mask(r);
		zs = ~p256_sc_valid_mask(s);
		p256_declassify(&zr, sizeof(zr));
		p256_declassify(&zs, sizeof(zs));
		if (!zr && !zs)
			break;
	}
	p256_to_be(sig, r);
	p256_to_be(sig + 32, s);

	memzero_explicit(&drbg, sizeof(drbg));
	memzero_explicit(d, sizeof(d));
	memzero_explicit(k, sizeof(k));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(s, sizeof(s));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(y, sizeof(y));
	memzero_explicit(xb, sizeof(xb));
	memzero_explicit(extra, sizeof(extra));
	return 0;
}

int tlsx_p256_sign_extra(u8 sig[P256_SIG_SIZE],
			 const u8 priv[P256_SCALAR_SIZE],
			 enum tlsx_hash_alg hash, const u8 *digest,
			 size_t digest_len, const u8 extra_in[32])
{
	int err = p256_sign_work(sig, priv, hash, digest, digest_len,
				 extra_in);

	tlsx_stack_wipe_user(p256_curve()->stack_wipe);
	return err;
}
