// SPDX-License-Identifier: GPL-2.0
/*
 * p256.c - the P-256 API of p256.h except signing (p256_sign.c): key and
 * point checks, key generation, ECDH, ECDSA verification, and the choice
 * of curve operations (p256_impl.c holds the choice itself).
 *
 * Points are accepted only in the uncompressed SEC 1 form (0x04 || X ||
 * Y): TLS 1.3 allows no other, so compressed and hybrid encodings are
 * refused.
 */
#include "p256/p256.h"
#include "p256/p256_field.h"
#include "p256/p256_internal.h"
#include "rand/random.h"
#include "aead/stack_wipe.h"

/*
 * The curve operations of the implementation p256_impl.c chose: the
 * MULX/ADX code when the CPU has it, unless told otherwise.
 */
const struct p256_curve_ops *p256_curve(void)
{
	return p256_use_adx() ? &p256_curve_adx : &p256_curve_generic;
}

/* --- checks ---------------------------------------------------------- */

static const u64 p256_p[4] = { P256_P0, P256_P1, P256_P2, P256_P3 };

/* b in Montgomery form */
static const u64 p256_b_mont[4] = {
	0xd89cdf6229c4bddfULL, 0xacf005cd78843090ULL,
	0xe5a220abf7212ed6ULL, 0xdc30061d04874834ULL,
};

/*
 * Decodes an uncompressed point and checks it: the right length and
 * prefix, both coordinates below p, and y^2 = x^3 - 3x + b.  The
 * infinity has no such encoding (its SEC 1 form is the single byte 0),
 * so it is refused by the length.  Public data: variable time.
 */
static int p256_decode_point(u64 x[4], u64 y[4], const u8 *pub, size_t len)
{
	u64 xm[4], ym[4], l[4], r[4], t[4];

	if (!pub || len != P256_POINT_SIZE || pub[0] != 0x04)
		return -EINVAL;
	p256_from_be(x, pub + 1);
	p256_from_be(y, pub + 33);
	if (!p256_lt_mask(x, p256_p) || !p256_lt_mask(y, p256_p))
		return -EINVAL;
	p256_fe_mul_generic(xm, x, p256_fe_r2);
	p256_fe_mul_generic(ym, y, p256_fe_r2);
	p256_fe_sqr_generic(l, ym);
	p256_fe_sqr_generic(t, xm);
	p256_fe_mul_generic(r, t, xm);		/* x^3 */
	p256_fe_add(t, xm, xm);
	p256_fe_add(t, t, xm);
	p256_fe_sub(r, r, t);			/* x^3 - 3x */
	p256_fe_add(r, r, p256_b_mont);
	if (memcmp(l, r, sizeof(l)))
		return -EINVAL;
	return 0;
}

int tlsx_p256_check_private(const u8 priv[P256_SCALAR_SIZE])
{
	u64 d[4], ok;

	p256_from_be(d, priv);
	ok = p256_sc_valid_mask(d);
	memzero_explicit(d, sizeof(d));
	p256_declassify(&ok, sizeof(ok));
	return ok ? 0 : -EINVAL;
}

int tlsx_p256_check_public(const u8 *pub, size_t len)
{
	u64 x[4], y[4];

	return p256_decode_point(x, y, pub, len);
}

static void p256_encode_point(u8 out[P256_POINT_SIZE], const u64 x[4],
			      const u64 y[4])
{
	out[0] = 0x04;
	p256_to_be(out + 1, x);
	p256_to_be(out + 33, y);
}

/* --- keys and ECDH --------------------------------------------------- */

static noinline int p256_public_work(u8 pub[P256_POINT_SIZE],
				     const u8 priv[P256_SCALAR_SIZE])
{
	u64 d[4], x[4], y[4];

	if (tlsx_p256_check_private(priv))
		return -EINVAL;
	p256_from_be(d, priv);
	p256_curve()->base_mul(x, y, d);
	p256_encode_point(pub, x, y);
	memzero_explicit(d, sizeof(d));
	return 0;
}

int tlsx_p256_public(u8 pub[P256_POINT_SIZE], const u8 priv[P256_SCALAR_SIZE])
{
	int err = p256_public_work(pub, priv);

	tlsx_stack_wipe_user(p256_curve()->stack_wipe);
	return err;
}

/*
 * Rejection sampling: 32 random bytes until they are in [1, n-1] (each
 * try fails with probability about 2^-32), so the key is uniform.
 */
int tlsx_p256_keygen(u8 priv[P256_SCALAR_SIZE], u8 pub[P256_POINT_SIZE])
{
	int err, tries;

	for (tries = 0; tries < 64; tries++) {
		err = tlsx_random_bytes(priv, P256_SCALAR_SIZE);
		if (err)
			return err;
		if (!tlsx_p256_check_private(priv))
			return tlsx_p256_public(pub, priv);
	}
	memzero_explicit(priv, P256_SCALAR_SIZE);
	return -EIO;
}

static noinline int p256_ecdh_work(u8 shared[P256_SCALAR_SIZE],
				   const u8 priv[P256_SCALAR_SIZE],
				   const u8 *peer, size_t peer_len)
{
	u64 d[4], px[4], py[4], x[4], y[4];

	if (p256_decode_point(px, py, peer, peer_len) ||
	    tlsx_p256_check_private(priv))
		return -EINVAL;
	p256_from_be(d, priv);
	/*
	 * The peer's point is on the curve and the group has prime order,
	 * so d*P is never the infinity for d in [1, n-1].
	 */
	p256_curve()->var_mul(x, y, d, px, py);
	p256_to_be(shared, x);
	memzero_explicit(d, sizeof(d));
	memzero_explicit(x, sizeof(x));
	memzero_explicit(y, sizeof(y));
	return 0;
}

int tlsx_p256_ecdh(u8 shared[P256_SCALAR_SIZE], const u8 priv[P256_SCALAR_SIZE],
		   const u8 *peer, size_t peer_len)
{
	int err = p256_ecdh_work(shared, priv, peer, peer_len);

	tlsx_stack_wipe_user(p256_curve()->stack_wipe);
	return err;
}

/* --- verification (public data: variable time) ----------------------- */

int tlsx_p256_verify(const u8 sig[P256_SIG_SIZE], const u8 *pub,
		     size_t pub_len, const u8 *digest, size_t digest_len)
{
	u64 qx[4], qy[4], r[4], s[4], e[4], w[4], u1[4], u2[4];

	if (p256_decode_point(qx, qy, pub, pub_len))
		return -EINVAL;
	if (!sig || (!digest && digest_len))
		return -EBADMSG;
	p256_from_be(r, sig);
	p256_from_be(s, sig + 32);
	if (!p256_sc_valid_mask(r) || !p256_sc_valid_mask(s))
		return -EBADMSG;
	p256_sc_from_digest(e, digest, digest_len);

	/* w = s^-1; u1 = e w, u2 = r w (Montgomery: R cancels out). */
	p256_sc_to_mont(w, s);
	p256_sc_inv_mont(w, w);			/* s^-1 R */
	p256_sc_mul(u1, e, w);			/* e s^-1 */
	p256_sc_mul(u2, r, w);			/* r s^-1 */
	if (!p256_curve()->verify(u1, u2, qx, qy, r))
		return -EBADMSG;
	return 0;
}
