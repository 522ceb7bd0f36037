// SPDX-License-Identifier: GPL-2.0
/*
 * rsa.c - RSA signatures (RFC 8017): the private operation with CRT,
 * base blinding and a check of the result, PSS signing, PSS and PKCS#1
 * v1.5 verification, key checks.
 *
 * The private operation on m < n:
 *	r random below n, m' = m r^e mod n		(blinding)
 *	s_p = m'^dp r^-1 mod p, s_q likewise mod q	(CRT, unblinded)
 *	h = qinv (s_p - s_q) mod p, s = s_q + q h	(Garner)
 *	s^e mod n == m, or -EIO and nothing released	(fault check)
 * m' mod p is computed as (m mod p) (r mod p)^e mod p: the same number
 * for a quarter of the work mod n would take.
 * m'^dp = m^dp r^(e dp) = m^dp r mod p since e dp = 1 mod p - 1, so
 * r^-1 mod p (a constant-time inversion) removes the blinding in each
 * half.  Everything touching p, q, dp, dq, qinv or r is constant-time
 * (bignum.c); only lengths and the final pass/fail decide branches.
 *
 * The blinding pair and the key's Montgomery set-up are kept with the
 * key (struct tlsx_rsa_sign_state, rsa.h), which halves what a
 * signature costs beyond its two exponentiations (docs/perf-handshake.md):
 * the pair (r^e, r^-1) mod p, q is drawn and inverted once per
 * RSA_BLIND_USES signatures and squared after each, (r^2)^e and
 * (r^2)^-1 being a pair again; so each signature is blinded by a value
 * no other signature used, as with OpenSSL's BN_BLINDING.
 */
#include "rsa/rsa.h"
#include "rsa/rsa_pad.h"
#include "rsa/bignum.h"
#include "rand/random.h"
#include "aead/stack_wipe.h"

/*
 * The entry points that use the private key run a worker and then wipe
 * this much of the stack below them (stack_wipe.h): the CRT
 * exponentiations' frames, whose arrays are sized for the largest key,
 * reach about 47 KiB below the caller (the key check; test_stack_depth).
 */
#define RSA_STACK_WIPE		(60 * 1024)

/*
 * Seams for the tests, which compile this file into themselves:
 * declassify marks the fault check's verdict public for valgrind (the
 * ctgrind test); fault lets a test corrupt s_p before recombination.
 */
#ifndef tlsx_rsa_declassify
#define tlsx_rsa_declassify(p, n) ((void)(p), (void)(n))
#endif
#ifndef tlsx_rsa_fault
#define tlsx_rsa_fault(sp, n) ((void)(sp), (void)(n))
#endif

#define RSA_HALF_BYTES	(RSA_MAX_BYTES / 2)
/* Signatures one drawn blinding pair serves, squared between (OpenSSL's 32). */
#define RSA_BLIND_USES	32

static size_t rsa_limbs(size_t bytes)
{
	return (bytes + 7) / 8;
}

int tlsx_rsa_check_public(const struct tlsx_rsa_public *k)
{
	size_t bits;

	if (k->n_len < RSA_MIN_BITS / 8 || k->n_len > RSA_MAX_BYTES ||
	    !k->n[0] || !(k->n[k->n_len - 1] & 1))
		return -EINVAL;
	bits = 8 * k->n_len - (size_t)__builtin_clz(k->n[0]) + 24;
	if (bits < RSA_MIN_BITS || bits > RSA_MAX_BITS)
		return -EINVAL;
	if (k->e < 3 || !(k->e & 1))
		return -EINVAL;
	return 0;
}

/* The modulus' bit count, for a checked key. */
static size_t rsa_bits(const struct tlsx_rsa_public *k)
{
	return 8 * k->n_len - (size_t)__builtin_clz(k->n[0]) + 24;
}

static int rsa_load_public(struct bn_mont *mn, const struct tlsx_rsa_public *k)
{
	u64 n[BN_MAX_LIMBS];
	int err = tlsx_rsa_check_public(k);

	if (err)
		return err;
	bn_from_be(n, rsa_limbs(k->n_len), k->n, k->n_len);
	/* n is public: its set-up may take the variable-time route. */
	return bn_mont_init_pub(mn, n, rsa_limbs(k->n_len));
}

static void rsa_priv_wipe(struct tlsx_rsa_crt *c)
{
	memzero_explicit(c, sizeof(*c));
}

static bool rsa_half_len_ok(size_t len)
{
	return len >= 1 && len <= RSA_HALF_BYTES;
}

/*
 * Lengths only (public); the values are not looked at here, so a key
 * that passes this but is inconsistent fails the fault check (-EIO).
 */
static int rsa_load_private(struct tlsx_rsa_crt *c,
			    const struct tlsx_rsa_private *k)
{
	u64 x[BN_MAX_LIMBS];
	int err;

	/* Zero limbs above each value: exponents are read to one length. */
	memset(c, 0, sizeof(*c));
	if (!rsa_half_len_ok(k->p_len) || !rsa_half_len_ok(k->q_len) ||
	    !rsa_half_len_ok(k->dp_len) || !rsa_half_len_ok(k->dq_len) ||
	    !rsa_half_len_ok(k->qinv_len) || k->dp_len > k->p_len ||
	    k->dq_len > k->q_len || k->qinv_len > k->p_len)
		return -EINVAL;
	err = rsa_load_public(&c->mn, &k->pub);
	if (err)
		return err;
	c->nl = c->mn.n;
	c->pl = rsa_limbs(k->p_len);
	c->ql = rsa_limbs(k->q_len);
	if (c->pl + c->ql < c->nl || c->pl + c->ql > BN_MAX_LIMBS ||
	    c->pl > BN_INV_MAX_LIMBS || c->ql > BN_INV_MAX_LIMBS)
		return -EINVAL;

	bn_from_be(x, c->pl, k->p, k->p_len);
	err = bn_mont_init(&c->mp, x, c->pl);
	bn_from_be(x, c->ql, k->q, k->q_len);
	err |= bn_mont_init(&c->mq, x, c->ql);
	memzero_explicit(x, sizeof(x));
	bn_from_be(c->dp, c->pl, k->dp, k->dp_len);
	bn_from_be(c->dq, c->ql, k->dq, k->dq_len);
	bn_from_be(c->qinv, c->pl, k->qinv, k->qinv_len);
	return err ? -EINVAL : 0;
}

/* r random in [1, 2^(bits - 1)), so below n (bits = n's bit count). */
static int rsa_blind_random(u64 *r, size_t nl, size_t bits)
{
	size_t i, top = bits - 1;
	int err = tlsx_random_bytes(r, nl * 8);

	if (err)
		return err;
	for (i = 0; i < nl; i++) {
		if (64 * i >= top)
			r[i] = 0;
		else if (64 * (i + 1) > top)
			r[i] &= (1ULL << (top - 64 * i)) - 1;
	}
	/* Zero has probability 2^-2047; make it one rather than branch. */
	r[0] |= bn_is_zero_mask(r, nl) & 1;
	return 0;
}

/* r = x mod P, plain, for x of xn limbs. */
static void rsa_reduce(u64 *r, const u64 *x, size_t xn,
		       const struct bn_mont *mp)
{
	bn_mont_to_reduce(r, x, xn, mp);
	bn_mont_from(r, r, mp);
}

/* r = a b mod P, all plain (a, b below P): REDC(a R, b). */
static void rsa_mul_plain(u64 *r, const u64 *a, const u64 *b,
			  const struct bn_mont *mp)
{
	u64 x[BN_MAX_LIMBS];

	bn_mont_to_reduce(x, a, mp->n, mp);
	bn_mont_mul(r, x, b, mp);
	memzero_explicit(x, sizeof(x));
}

/* A new pair: r random, (r^e, r^-1) mod p and mod q. */
static int rsa_blind_draw(struct tlsx_rsa_sign_state *st, size_t bits,
			  u64 e)
{
	const struct bn_mont *mp = &st->crt.mp, *mq = &st->crt.mq;
	u64 r[BN_MAX_LIMBS], rp[BN_MAX_LIMBS], rq[BN_MAX_LIMBS];
	int err = rsa_blind_random(r, st->crt.nl, bits);

	if (!err) {
		rsa_reduce(rp, r, st->crt.nl, mp);
		rsa_reduce(rq, r, st->crt.nl, mq);
		bn_exp_pub_x2(st->bp, rp, mp, st->bq, rq, mq, e);
		bn_mod_inv_x2(st->ip, rp, mp, st->iq, rq, mq);
	}
	memzero_explicit(r, sizeof(r));
	memzero_explicit(rp, sizeof(rp));
	memzero_explicit(rq, sizeof(rq));
	return err;
}

/* All ones when @st was made from @k's bytes as they are now. */
static u64 rsa_state_of_mask(const struct tlsx_rsa_sign_state *st,
			     const struct tlsx_rsa_private *k)
{
	const u8 *parts[6] = { k->pub.n, k->p, k->q, k->dp, k->dq, k->qinv };
	const size_t lens[6] = { k->pub.n_len, k->p_len, k->q_len, k->dp_len,
				 k->dq_len, k->qinv_len };
	const u8 *of = st->of;
	u64 diff = st->of_e ^ k->pub.e;
	size_t i, j, len;

	for (i = 0; i < 6; i++) {
		len = i ? RSA_HALF_BYTES : RSA_MAX_BYTES;
		diff |= st->of_lens[i] ^ lens[i];
		for (j = 0; j < len; j++)
			diff |= of[j] ^ parts[i][j];
		of += len;
	}
	/* All ones for 0, else 0, without a branch on the key's bytes. */
	return ((diff | (0 - diff)) >> 63) - 1;
}

static void rsa_state_mark_of(struct tlsx_rsa_sign_state *st,
			      const struct tlsx_rsa_private *k)
{
	const u8 *parts[6] = { k->pub.n, k->p, k->q, k->dp, k->dq, k->qinv };
	const size_t lens[6] = { k->pub.n_len, k->p_len, k->q_len, k->dp_len,
				 k->dq_len, k->qinv_len };
	u8 *of = st->of;
	size_t i, len;

	for (i = 0; i < 6; i++) {
		len = i ? RSA_HALF_BYTES : RSA_MAX_BYTES;
		memcpy(of, parts[i], len);
		st->of_lens[i] = lens[i];
		of += len;
	}
	st->of_e = k->pub.e;
}

static void rsa_state_lock(struct tlsx_rsa_sign_state *st)
{
	while (__atomic_exchange_n(&st->lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&st->lock, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
}

static void rsa_state_unlock(struct tlsx_rsa_sign_state *st)
{
	__atomic_store_n(&st->lock, 0, __ATOMIC_RELEASE);
}

/*
 * For one signature: *@c = the key in limbs and set up, and a blinding
 * pair no other signature gets (the state's, which is then squared);
 * the state made or remade first when due.  0, or -EINVAL for a key of
 * bad lengths, or the random source's error.
 */
static int rsa_sign_begin(const struct tlsx_rsa_private *k,
			  struct tlsx_rsa_crt *c, u64 *bp, u64 *bq, u64 *ip,
			  u64 *iq)
{
	/* The key's own state, mutable beside it (rsa.h). */
	struct tlsx_rsa_sign_state *st =
		(struct tlsx_rsa_sign_state *)&k->sign;
	const struct bn_mont *mp = &st->crt.mp, *mq = &st->crt.mq;
	u64 same;
	int err = 0;

	rsa_state_lock(st);
	same = st->uses ? rsa_state_of_mask(st, k) : 0;
	/* Whether the key changed since: its bytes are secret, this is not. */
	tlsx_rsa_declassify(&same, sizeof(same));
	if (!same) {
		st->uses = 0;
		err = rsa_load_private(&st->crt, k);
		if (err)
			goto out;
		rsa_state_mark_of(st, k);
	}
	if (!st->uses || st->uses >= RSA_BLIND_USES) {
		st->uses = 0;
		err = rsa_blind_draw(st, rsa_bits(&k->pub), k->pub.e);
		if (err)
			goto out;
	}
	*c = st->crt;
	memcpy(bp, st->bp, sizeof(st->bp));
	memcpy(bq, st->bq, sizeof(st->bq));
	memcpy(ip, st->ip, sizeof(st->ip));
	memcpy(iq, st->iq, sizeof(st->iq));
	/* The next signature's pair: (r^2)^e and (r^2)^-1. */
	rsa_mul_plain(st->bp, st->bp, st->bp, mp);
	rsa_mul_plain(st->bq, st->bq, st->bq, mq);
	rsa_mul_plain(st->ip, st->ip, st->ip, mp);
	rsa_mul_plain(st->iq, st->iq, st->iq, mq);
	st->uses++;
out:
	if (err)
		memzero_explicit(st, sizeof(*st));	/* and unlocked */
	else
		rsa_state_unlock(st);
	return err;
}

struct rsa_op_tmp {
	u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS];
	u64 bp[BN_MAX_LIMBS], bq[BN_MAX_LIMBS];
	u64 ip[BN_MAX_LIMBS], iq[BN_MAX_LIMBS];
	u64 sp[BN_MAX_LIMBS], sq[BN_MAX_LIMBS];
	u64 t[BN_MAX_LIMBS], h[BN_MAX_LIMBS];
	u64 s[2 * BN_MAX_LIMBS];
};

/* out (k = n_len bytes) = in^d mod n; in is k bytes and below n. */
static int rsa_private_op(u8 *out, const struct tlsx_rsa_private *k,
			  const u8 *in)
{
	struct tlsx_rsa_crt c;
	struct rsa_op_tmp w;
	const struct bn_mont *mn = &c.mn, *mp = &c.mp, *mq = &c.mq;
	size_t nl, pl, ql, i;
	u64 ok;
	int err;

	/* The key's lengths are checked when its state is made. */
	err = rsa_sign_begin(k, &c, w.bp, w.bq, w.ip, w.iq);
	if (err)
		goto out;
	nl = c.nl;
	pl = c.pl;
	ql = c.ql;
	bn_from_be(w.m, nl, in, k->pub.n_len);

	/*
	 * Blinding by r^e mod n, applied in each half:
	 * (m r^e mod n) mod P = (m mod P) (r mod P)^e mod P.
	 * REDC(m R, r^e) = m r^e, plain.
	 */
	bn_mont_to_reduce(w.t, w.m, nl, mp);
	bn_mont_mul(w.sp, w.t, w.bp, mp);
	bn_mont_to_reduce(w.t, w.m, nl, mq);
	bn_mont_mul(w.sq, w.t, w.bq, mq);

	/* The two halves: m'^dP mod P, then times r^-1 mod P. */
	bn_exp_ct_x2(w.sp, w.sp, c.dp, mp, w.sq, w.sq, c.dq, mq,
		     8 * (k->dp_len > k->dq_len ? k->dp_len : k->dq_len));
	rsa_mul_plain(w.sp, w.sp, w.ip, mp);
	rsa_mul_plain(w.sq, w.sq, w.iq, mq);
	tlsx_rsa_fault(w.sp, pl);

	/* Garner: h = qinv (s_p - s_q) mod p, in Montgomery form mod p. */
	bn_mont_to_reduce(w.t, w.sp, pl, mp);
	bn_mont_to_reduce(w.h, w.sq, ql, mp);
	bn_mod_sub(w.t, w.t, w.h, mp);
	bn_mont_to_reduce(w.h, c.qinv, pl, mp);
	bn_mont_mul(w.h, w.t, w.h, mp);
	bn_mont_from(w.h, w.h, mp);
	/* s = s_q + q h < q + q (p - 1) = n. */
	bn_mul(w.s, c.mq.m, ql, w.h, pl);
	memset(w.t, 0, sizeof(w.t));
	memcpy(w.t, w.sq, ql * 8);
	bn_add(w.s, w.s, w.t, pl + ql);

	/*
	 * The check: s^e mod n must give m back.  s < n by construction;
	 * a conditional subtraction makes sure of what is checked and
	 * released.  One operand asked for twice: the pair routine sees
	 * that and runs one chain (bn_exp_pub_x2_ifma()'s b52_amm_x1(),
	 * else one bn_mont_exp_pub() and a copy), the second result
	 * being the first.
	 */
	ok = bn_sub(w.t, w.s, mn->m, nl);
	bn_cmov(w.t, w.s, nl, 0 - ok);
	bn_exp_pub_x2(w.a, w.t, mn, w.h, w.t, mn, k->pub.e);
	ok = bn_eq_mask(w.a, w.m, nl);
	tlsx_rsa_declassify(&ok, sizeof(ok));
	if (!ok) {
		err = -EIO;
		goto out;
	}
	bn_to_be(out, k->pub.n_len, w.t, nl);
out:
	for (i = 0; err && i < k->pub.n_len; i++)
		out[i] = 0;
	rsa_priv_wipe(&c);
	memzero_explicit(&w, sizeof(w));
	return err;
}

static noinline int rsa_pss_sign_work(u8 *sig, size_t sig_len,
				      const struct tlsx_rsa_private *k,
				      enum tlsx_hash_alg hash, const u8 *digest,
				      size_t digest_len, const u8 *salt)
{
	u8 em[RSA_MAX_BYTES];
	size_t hlen = tlsx_hash_digest_size(hash), em_bits, em_len, n_len;
	int err;

	err = tlsx_rsa_check_public(&k->pub);
	if (err || !hlen || digest_len != hlen || sig_len < k->pub.n_len)
		return -EINVAL;
	n_len = k->pub.n_len;
	/* EM has the modulus' bits minus one: a leading zero byte or not. */
	em_bits = rsa_bits(&k->pub) - 1;
	em_len = (em_bits + 7) / 8;
	memset(em, 0, n_len - em_len);
	err = rsa_pss_encode(em + n_len - em_len, em_bits, hash, digest,
			     digest_len, salt);
	if (!err)
		err = rsa_private_op(sig, k, em);
	memzero_explicit(em, sizeof(em));
	return err;
}

int tlsx_rsa_pss_sign_salt(u8 *sig, size_t sig_len,
			   const struct tlsx_rsa_private *k,
			   enum tlsx_hash_alg hash, const u8 *digest,
			   size_t digest_len, const u8 *salt)
{
	int err = rsa_pss_sign_work(sig, sig_len, k, hash, digest,
				    digest_len, salt);

	tlsx_stack_wipe_user(RSA_STACK_WIPE);
	return err;
}

int tlsx_rsa_pss_sign(u8 *sig, size_t sig_len,
		      const struct tlsx_rsa_private *k,
		      enum tlsx_hash_alg hash, const u8 *digest,
		      size_t digest_len)
{
	u8 salt[TLSX_HASH_MAX_DIGEST];
	size_t hlen = tlsx_hash_digest_size(hash);
	int err;

	if (!hlen)
		return -EINVAL;
	err = tlsx_random_bytes(salt, hlen);
	if (!err)
		err = tlsx_rsa_pss_sign_salt(sig, sig_len, k, hash, digest,
					     digest_len, salt);
	memzero_explicit(salt, sizeof(salt));
	return err;
}

/* em = sig^e mod n (n_len bytes); -EBADMSG for a bad length or sig >= n. */
static int rsa_public_op(u8 *em, const struct tlsx_rsa_public *k,
			 const u8 *sig, size_t sig_len)
{
	struct bn_mont mn;
	u64 s[BN_MAX_LIMBS], spare[BN_MAX_LIMBS];
	int err = rsa_load_public(&mn, k);

	if (err)
		return err;
	if (sig_len != k->n_len)
		return -EBADMSG;
	bn_from_be(s, mn.n, sig, sig_len);
	if (!bn_lt_mask(s, mn.m, mn.n))
		return -EBADMSG;
	/* The pair routine (IFMA where there is one), its second half idle. */
	bn_exp_pub_x2(s, s, &mn, spare, s, &mn, k->e);
	bn_to_be(em, k->n_len, s, mn.n);
	return 0;
}

static int rsa_digest_ok(enum tlsx_hash_alg hash, size_t digest_len)
{
	size_t hlen = tlsx_hash_digest_size(hash);

	return hlen && digest_len == hlen ? 0 : -EINVAL;
}

int tlsx_rsa_pss_verify(const struct tlsx_rsa_public *k,
			enum tlsx_hash_alg hash, const u8 *digest,
			size_t digest_len, const u8 *sig, size_t sig_len)
{
	u8 em[RSA_MAX_BYTES];
	size_t em_bits, em_len;
	int err = rsa_digest_ok(hash, digest_len);

	if (!err)
		err = rsa_public_op(em, k, sig, sig_len);
	if (err)
		return err;
	em_bits = rsa_bits(k) - 1;
	em_len = (em_bits + 7) / 8;
	/* When em_len < n_len the extra top byte must be zero. */
	if (em_len < k->n_len && em[0])
		return -EBADMSG;
	return rsa_pss_check(em + k->n_len - em_len, em_bits, hash, digest,
			     digest_len);
}

int tlsx_rsa_pkcs1_verify(const struct tlsx_rsa_public *k,
			  enum tlsx_hash_alg hash, const u8 *digest,
			  size_t digest_len, const u8 *sig, size_t sig_len)
{
	u8 em[RSA_MAX_BYTES], want[RSA_MAX_BYTES];
	int err = rsa_digest_ok(hash, digest_len);

	if (!err)
		err = rsa_public_op(em, k, sig, sig_len);
	if (err)
		return err;
	/* Build the one valid encoding and compare all of it. */
	if (rsa_pkcs1_encode(want, k->n_len, hash, digest, digest_len))
		return -EINVAL;
	return memcmp(em, want, k->n_len) ? -EBADMSG : 0;
}

/* All ones when the big-endian a (len bytes) is below b (len bytes). */
static int rsa_be_less(const u8 *a, size_t alen, const u8 *b, size_t blen)
{
	u64 x[BN_MAX_LIMBS], y[BN_MAX_LIMBS];
	size_t n = rsa_limbs(alen > blen ? alen : blen);
	int lt;

	bn_from_be(x, n, a, alen);
	bn_from_be(y, n, b, blen);
	lt = bn_lt_mask(x, y, n) != 0;
	memzero_explicit(x, sizeof(x));
	memzero_explicit(y, sizeof(y));
	return lt;
}

static noinline int rsa_check_private_work(const struct tlsx_rsa_private *k)
{
	struct tlsx_rsa_crt c;
	u64 pq[BN_MAX_LIMBS], n[BN_MAX_LIMBS];
	u8 m[RSA_MAX_BYTES], s[RSA_MAX_BYTES];
	int err;

	/* Key checking is not on the signing path: it may branch. */
	err = rsa_load_private(&c, k);
	if (err)
		goto out;
	err = -EINVAL;
	if (!k->p[0] || !k->q[0] || !(k->p[k->p_len - 1] & 1) ||
	    !(k->q[k->q_len - 1] & 1))
		goto out;
	/* n = p q */
	bn_mul(pq, c.mp.m, c.pl, c.mq.m, c.ql);
	memset(n, 0, sizeof(n));
	memcpy(n, c.mn.m, c.nl * 8);
	if (!bn_eq_mask(pq, n, c.pl + c.ql))
		goto out;
	/* dp < p, dq < q, qinv < p, and p != q. */
	if (!rsa_be_less(k->dp, k->dp_len, k->p, k->p_len) ||
	    !rsa_be_less(k->dq, k->dq_len, k->q, k->q_len) ||
	    !rsa_be_less(k->qinv, k->qinv_len, k->p, k->p_len) ||
	    (k->p_len == k->q_len && !memcmp(k->p, k->q, k->p_len)))
		goto out;
	/*
	 * The CRT parts: one private operation on a fixed message, which
	 * verifies itself with e (a wrong dp, dq or qinv gives -EIO).
	 */
	memset(m, 0, k->pub.n_len);
	m[k->pub.n_len - 1] = 2;
	m[k->pub.n_len / 2] = 0x5a;
	err = rsa_private_op(s, k, m) ? -EINVAL : 0;
out:
	rsa_priv_wipe(&c);
	memzero_explicit(pq, sizeof(pq));
	memzero_explicit(s, sizeof(s));
	return err;
}

int tlsx_rsa_check_private(const struct tlsx_rsa_private *k)
{
	int err = rsa_check_private_work(k);

	tlsx_stack_wipe_user(RSA_STACK_WIPE);
	return err;
}

void tlsx_rsa_private_wipe(struct tlsx_rsa_private *k)
{
	memzero_explicit(k, sizeof(*k));
}
