// SPDX-License-Identifier: GPL-2.0
/*
 * sockopt.c - setsockopt and getsockopt at level SOL_TLS.
 *
 * The validation and the errors are kTLS's (6.12, net/tls/tls_main.c),
 * so programs see the same answers, with one deliberate difference taken
 * from later kernels (6.14 and on): TLS_TX and TLS_RX may be set again on
 * a TLS 1.3 socket with the same version and cipher.  That is the TLS 1.3
 * KeyUpdate: the new keys replace the old ones, the sequence number
 * restarts from the rec_seq given, and a change of version or cipher is
 * -EINVAL.  A second set on a TLS 1.2 socket stays -EBUSY.  Each attempt
 * counts in TlsTxRekeyOk/TlsTxRekeyError (RX alike), as in those kernels.
 *
 * TLS_TX_MAX_PAYLOAD_LEN is 6.19's (RFC 8449 record_size_limit), offered
 * on 6.1 and 6.12 alike: see tlsx_set_tx_max_payload().
 *
 * Only AES-GCM-128/256, ChaCha20-Poly1305 and AES-CCM-128 are accepted;
 * kTLS's other ciphers (SM4, ARIA) get -EINVAL, kTLS's answer to a
 * cipher it does not know.
 */
#include <linux/skmsg.h>
#include <linux/slab.h>
#include <linux/sockptr.h>
#include <net/tcp.h>

#include "compat.h"
#include "tlsx_context.h"

struct tlsx_cipher {
	u16 type;
	u16 info_len;		/* sizeof the tls12_crypto_info_* struct */
	u8 alg;			/* enum tlsx_aead_alg */
	u8 key_len;
	u8 salt_len;
	u8 iv_len;
	u8 key_off;
	u8 salt_off;
	u8 iv_off;
	u8 rec_seq_off;
};

#define TLSX_CIPHER(_type, _st, _alg) {					\
	.type = _type,							\
	.info_len = sizeof(struct _st),					\
	.alg = _alg,							\
	.key_len = sizeof_field(struct _st, key),			\
	.salt_len = sizeof_field(struct _st, salt),			\
	.iv_len = sizeof_field(struct _st, iv),				\
	.key_off = offsetof(struct _st, key),				\
	.salt_off = offsetof(struct _st, salt),				\
	.iv_off = offsetof(struct _st, iv),				\
	.rec_seq_off = offsetof(struct _st, rec_seq),			\
}

static const struct tlsx_cipher tlsx_ciphers[] = {
	TLSX_CIPHER(TLS_CIPHER_AES_GCM_128, tls12_crypto_info_aes_gcm_128,
		    TLSX_AEAD_AES_128_GCM),
	TLSX_CIPHER(TLS_CIPHER_AES_GCM_256, tls12_crypto_info_aes_gcm_256,
		    TLSX_AEAD_AES_256_GCM),
	TLSX_CIPHER(TLS_CIPHER_CHACHA20_POLY1305,
		    tls12_crypto_info_chacha20_poly1305,
		    TLSX_AEAD_CHACHA20_POLY1305),
	/*
	 * kTLS builds a 16-byte crypto API IV for ccm(aes) (a first byte
	 * of 2, TLS_AES_CCM_IV_B0_BYTE, then salt || iv); our AEAD takes
	 * the 12-byte nonce itself and formats CCM's blocks, so the nonce,
	 * AAD and explicit nonce of TLS 1.2 are those of AES-GCM.
	 */
	TLSX_CIPHER(TLS_CIPHER_AES_CCM_128, tls12_crypto_info_aes_ccm_128,
		    TLSX_AEAD_AES_128_CCM),
};

/* salt || iv is the 12-byte nonce base for every cipher we accept. */
static_assert(TLS_CIPHER_AES_GCM_128_SALT_SIZE +
	      TLS_CIPHER_AES_GCM_128_IV_SIZE == TLSX_NONCE_LEN);
static_assert(TLS_CIPHER_AES_GCM_256_SALT_SIZE +
	      TLS_CIPHER_AES_GCM_256_IV_SIZE == TLSX_NONCE_LEN);
static_assert(TLS_CIPHER_CHACHA20_POLY1305_SALT_SIZE +
	      TLS_CIPHER_CHACHA20_POLY1305_IV_SIZE == TLSX_NONCE_LEN);
static_assert(TLS_CIPHER_AES_CCM_128_SALT_SIZE +
	      TLS_CIPHER_AES_CCM_128_IV_SIZE == TLSX_NONCE_LEN);
static_assert(TLS_CIPHER_AES_CCM_128_TAG_SIZE == TLSX_TAG_LEN);
static_assert(sizeof_field(struct tlsx_crypto, user) ==
	      sizeof(struct tls12_crypto_info_aes_gcm_256));

static const struct tlsx_cipher *tlsx_cipher_find(u16 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tlsx_ciphers); i++)
		if (tlsx_ciphers[i].type == type)
			return &tlsx_ciphers[i];
	return NULL;
}

/*
 * The keys are about 1.2 KiB (AES round keys and the powers of H for the
 * wide engines) and 64-byte aligned: a cache of their own keeps them
 * aligned without rounding every allocation up to 2 KiB.
 */
static struct kmem_cache *tlsx_crypto_cache;

void tlsx_crypto_free(struct tlsx_crypto *c)
{
	if (!c)
		return;
	tlsx_aead_wipe(&c->key);
	memzero_explicit(c, sizeof(*c));
	kmem_cache_free(tlsx_crypto_cache, c);
}

/*
 * Build the keys of one direction from the user's struct, already
 * copied into c->user and checked.
 */
static int tlsx_crypto_build(struct tlsx_crypto *c,
			     const struct tlsx_cipher *ci)
{
	const u8 *u = (const u8 *)&c->user;
	int err;

	c->version = c->user.info.version;
	c->cipher_type = c->user.info.cipher_type;
	c->user_len = ci->info_len;
	memcpy(c->iv, u + ci->salt_off, ci->salt_len);
	memcpy(c->iv + ci->salt_len, u + ci->iv_off, ci->iv_len);
	c->rec_seq = get_unaligned_be64(u + ci->rec_seq_off);
	c->rec_seq_set = c->rec_seq;
	/*
	 * Only TLS 1.2 AES-GCM and AES-CCM send their nonce in the record
	 * (RFC 5288, RFC 6655).
	 */
	c->explicit_iv_len = (c->version == TLS_1_2_VERSION &&
			      ci->alg != TLSX_AEAD_CHACHA20_POLY1305) ?
			     TLSX_MAX_IV_LEN : 0;
	err = tlsx_aead_setkey(&c->key, ci->alg, TLSX_IMPL_AUTO,
			       u + ci->key_off, ci->key_len);
	/* Only -ENOMEM-like failures are possible here; keep kTLS's view. */
	return err ? -EINVAL : 0;
}

static bool tlsx_sk_has_psock(struct sock *sk)
{
	bool ret;

	rcu_read_lock();
	ret = sk_psock(sk) != NULL;
	rcu_read_unlock();
	return ret;
}

/* A second set: only a TLS 1.3 key update (see the top of this file). */
static int tlsx_check_rekey(const struct tlsx_crypto *cur,
			    const struct tls_crypto_info *info)
{
	if (info->version != cur->version ||
	    info->cipher_type != cur->cipher_type)
		return -EINVAL;
	return 0;
}

/* A first set, as kTLS's validate_crypto_info(). */
static int tlsx_check_first(const struct tlsx_crypto *other,
			    const struct tls_crypto_info *info)
{
	if (info->version != TLS_1_2_VERSION &&
	    info->version != TLS_1_3_VERSION)
		return -EINVAL;
	/* Both directions of a socket use one version and one cipher. */
	if (other && (other->version != info->version ||
		      other->cipher_type != info->cipher_type))
		return -EINVAL;
	return 0;
}

/* The socket's ops follow the directions that are on. */
static void tlsx_enable_tx(struct sock *sk, struct tlsx_context *ctx)
{
	write_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_write_space != tlsx_write_space) {
		ctx->sk_write_space = sk->sk_write_space;
		sk->sk_write_space = tlsx_write_space;
	}
	write_unlock_bh(&sk->sk_callback_lock);
	tlsx_update_sk_prot(sk, ctx);
}

static void tlsx_enable_rx(struct sock *sk, struct tlsx_context *ctx)
{
	write_lock_bh(&sk->sk_callback_lock);
	if (sk->sk_data_ready != tlsx_data_ready) {
		ctx->sk_data_ready = sk->sk_data_ready;
		WRITE_ONCE(sk->sk_data_ready, tlsx_data_ready);
	}
	write_unlock_bh(&sk->sk_callback_lock);
	tlsx_update_sk_prot(sk, ctx);
	/* Records that arrived before TLS_RX wait in the TCP queue. */
	tlsx_data_ready(sk);
}

static int tlsx_setkey_first(struct sock *sk, struct tlsx_context *ctx,
			     struct tlsx_crypto *c, bool tx)
{
	int err;

	if (tx) {
		ctx->crypto_tx = c;
		err = tlsx_tx_setkey(sk, ctx, c, false);
		if (err) {
			ctx->crypto_tx = NULL;
			return err;
		}
	} else {
		ctx->crypto_rx = c;
		err = tlsx_rx_setkey(sk, ctx, c, false);
		if (err) {
			ctx->crypto_rx = NULL;
			return err;
		}
	}
	if (!ctx->version) {
		WRITE_ONCE(ctx->version, c->version);
		WRITE_ONCE(ctx->cipher_type, c->cipher_type);
	}
	tlsx_stat_inc(sk, tx ? TLSX_STAT_TX_SW : TLSX_STAT_RX_SW);
	tlsx_stat_inc(sk, tx ? TLSX_STAT_CURR_TX_SW : TLSX_STAT_CURR_RX_SW);
	if (tx)
		tlsx_enable_tx(sk, ctx);
	else
		tlsx_enable_rx(sk, ctx);
	return 0;
}

/* Socket locked. */
static int tlsx_set_conf(struct sock *sk, sockptr_t optval,
			 unsigned int optlen, bool tx)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	struct tlsx_crypto *cur = tx ? ctx->crypto_tx : ctx->crypto_rx;
	struct tlsx_crypto *other = tx ? ctx->crypto_rx : ctx->crypto_tx;
	const struct tlsx_cipher *ci;
	struct tls_crypto_info info;
	struct tlsx_crypto *c;
	bool rekey = cur != NULL;
	int err;

	/* TLS and sockmap exclude each other, as in kTLS. */
	if (tlsx_sk_has_psock(sk))
		return -EINVAL;
	if (sockptr_is_null(optval) || optlen < sizeof(info))
		return -EINVAL;

	if (rekey && cur->version != TLS_1_3_VERSION) {
		err = -EBUSY;
		goto out_stat;
	}
	if (copy_from_sockptr(&info, optval, sizeof(info))) {
		err = -EFAULT;
		goto out_stat;
	}
	err = rekey ? tlsx_check_rekey(cur, &info) :
		      tlsx_check_first(other, &info);
	if (err)
		goto out_stat;
	ci = tlsx_cipher_find(info.cipher_type);
	if (!ci || optlen != ci->info_len) {
		err = -EINVAL;
		goto out_stat;
	}

	c = kmem_cache_zalloc(tlsx_crypto_cache, GFP_KERNEL);
	if (!c) {
		err = -ENOMEM;
		goto out_stat;
	}
	if (copy_from_sockptr(&c->user, optval, optlen)) {
		err = -EFAULT;
		goto out_free;
	}
	/* The header again: it may have changed since the first copy. */
	c->user.info = info;
	err = tlsx_crypto_build(c, ci);
	if (err)
		goto out_free;

	if (!rekey) {
		err = tlsx_setkey_first(sk, ctx, c, tx);
		if (err)
			goto out_free;
		return 0;
	}
	err = tx ? tlsx_tx_setkey(sk, ctx, c, true) :
		   tlsx_rx_setkey(sk, ctx, c, true);
	/* The callee copied what it keeps: the temporary goes either way. */
out_free:
	tlsx_crypto_free(c);
out_stat:
	if (rekey) {
		enum tlsx_stat s;

		if (tx)
			s = err ? TLSX_STAT_TX_REKEY_ERROR :
				  TLSX_STAT_TX_REKEY_OK;
		else
			s = err ? TLSX_STAT_RX_REKEY_ERROR :
				  TLSX_STAT_RX_REKEY_OK;
		tlsx_stat_inc(sk, s);
	}
	return err;
}

static int tlsx_set_tx_zc(struct sock *sk, sockptr_t optval,
			  unsigned int optlen)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	unsigned int val;

	if (sockptr_is_null(optval) || optlen != sizeof(val))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	if (val > 1)
		return -EINVAL;
	WRITE_ONCE(ctx->tx_zerocopy_ro, val);
	return 0;
}

/* Socket not locked: the checks that need no lock come first, as kTLS. */
static int tlsx_set_no_pad(struct sock *sk, sockptr_t optval,
			   unsigned int optlen)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	u32 val;
	int err;

	if (READ_ONCE(ctx->version) != TLS_1_3_VERSION ||
	    sockptr_is_null(optval) || optlen < sizeof(val))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	if (val > 1)
		return -EINVAL;
	/* A longer option is accepted if the rest is zero. */
	err = check_zeroed_sockptr(optval, sizeof(val), optlen - sizeof(val));
	if (err < 1)
		return err ? err : -EINVAL;

	lock_sock(sk);
	err = -EINVAL;
	if (ctx->crypto_rx) {
		WRITE_ONCE(ctx->rx_no_pad, val);
		err = 0;
	}
	release_sock(sk);
	return err;
}

/*
 * TLS_TX_MAX_PAYLOAD_LEN, socket locked, with kTLS 6.19's semantics: a
 * u16 of exactly two bytes, the most plaintext one record carries, from
 * RFC 8449's smallest limit (64) to 2^14.  The peer's record_size_limit
 * counts TLS 1.3's content type byte (RFC 8449 4), which this value does
 * not: the caller passes limit - 1, so on a TLS 1.3 socket 63 is
 * accepted too.  Allowed before TLS_TX and between records, EBUSY while
 * a record is open (MSG_MORE), whose size was planned with the old one.
 */
static int tlsx_set_tx_max_payload(struct sock *sk, sockptr_t optval,
				   unsigned int optlen)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	unsigned int min = TLSX_MIN_RECORD_LIMIT;
	u16 val;

	if (tlsx_tx_has_open_record(ctx))
		return -EBUSY;
	if (sockptr_is_null(optval) || optlen != sizeof(val))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	if (ctx->version == TLS_1_3_VERSION)
		min--;
	if (val < min || val > TLSX_MAX_PAYLOAD)
		return -EINVAL;
	WRITE_ONCE(ctx->tx_max_payload, val);
	return 0;
}

int tlsx_setsockopt(struct sock *sk, int level, int optname,
		    sockptr_t optval, unsigned int optlen)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	int err;

	if (level != SOL_TLS)
		return ctx->sk_proto->setsockopt(sk, level, optname, optval,
						 optlen);
	switch (optname) {
	case TLS_TX:
	case TLS_RX:
		lock_sock(sk);
		err = tlsx_set_conf(sk, optval, optlen, optname == TLS_TX);
		release_sock(sk);
		return err;
	case TLS_TX_ZEROCOPY_RO:
		lock_sock(sk);
		err = tlsx_set_tx_zc(sk, optval, optlen);
		release_sock(sk);
		return err;
	case TLS_RX_EXPECT_NO_PAD:
		return tlsx_set_no_pad(sk, optval, optlen);
	case TLS_TX_MAX_PAYLOAD_LEN:
		lock_sock(sk);
		err = tlsx_set_tx_max_payload(sk, optval, optlen);
		release_sock(sk);
		return err;
	default:
		return -ENOPROTOOPT;
	}
}

/*
 * The struct as set, with the current nonce and sequence number (kTLS
 * reports the explicit nonce of TLS 1.2 AES-GCM as it advanced).
 */
static int tlsx_get_conf(struct sock *sk, char __user *optval,
			 int __user *optlen, bool tx)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	struct tlsx_crypto *c = tx ? ctx->crypto_tx : ctx->crypto_rx;
	const struct tlsx_cipher *ci;
	typeof(c->user) out;
	int len, err = 0;
	u8 *u;

	if (get_user(len, optlen))
		return -EFAULT;
	/*
	 * Unsigned, as kTLS compares it with a sizeof: a negative length
	 * is not "too short" (EBUSY before the keys, then no struct's).
	 */
	if (!optval || (unsigned int)len < sizeof(struct tls_crypto_info))
		return -EINVAL;
	if (!c)
		return -EBUSY;
	if (len == sizeof(struct tls_crypto_info))
		return copy_to_user(optval, &c->user.info, len) ? -EFAULT : 0;
	ci = tlsx_cipher_find(c->cipher_type);
	if (!ci || len != ci->info_len)
		return -EINVAL;

	/* A copy: the live struct stays as set. */
	memcpy(&out, &c->user, ci->info_len);
	u = (u8 *)&out;
	memcpy(u + ci->iv_off, c->iv + ci->salt_len, ci->iv_len);
	put_unaligned_be64(c->rec_seq, u + ci->rec_seq_off);
	if (copy_to_user(optval, u, ci->info_len))
		err = -EFAULT;
	memzero_explicit(&out, sizeof(out));	/* it holds the key */
	return err;
}

static int tlsx_get_tx_zc(struct sock *sk, char __user *optval,
			  int __user *optlen)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	unsigned int val;
	int len;

	if (get_user(len, optlen))
		return -EFAULT;
	if (len != sizeof(val))
		return -EINVAL;
	val = ctx->tx_zerocopy_ro;
	return copy_to_user(optval, &val, sizeof(val)) ? -EFAULT : 0;
}

static int tlsx_get_no_pad(struct sock *sk, char __user *optval,
			   int __user *optlen)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	int val, len;

	if (ctx->version != TLS_1_3_VERSION)
		return -EINVAL;
	if (get_user(len, optlen))
		return -EFAULT;
	/* Unsigned, as kTLS: a negative length gets the int, and 4. */
	if ((unsigned int)len < sizeof(val))
		return -EINVAL;
	if (!ctx->crypto_rx)
		return -EINVAL;
	val = ctx->rx_no_pad;
	if (put_user(sizeof(val), optlen))
		return -EFAULT;
	return copy_to_user(optval, &val, sizeof(val)) ? -EFAULT : 0;
}

/*
 * As kTLS 6.19: any length from 2 gets the u16, and optlen 2.  Unsigned,
 * as kTLS compares it with a sizeof: a negative length gets it too.
 */
static int tlsx_get_tx_max_payload(struct sock *sk, char __user *optval,
				   int __user *optlen)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	u16 val = ctx->tx_max_payload;
	int len;

	if (get_user(len, optlen))
		return -EFAULT;
	if ((unsigned int)len < sizeof(val))
		return -EINVAL;
	if (put_user(sizeof(val), optlen))
		return -EFAULT;
	return copy_to_user(optval, &val, sizeof(val)) ? -EFAULT : 0;
}

int tlsx_getsockopt(struct sock *sk, int level, int optname,
		    char __user *optval, int __user *optlen)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	int err;

	if (level != SOL_TLS)
		return ctx->sk_proto->getsockopt(sk, level, optname, optval,
						 optlen);
	lock_sock(sk);
	switch (optname) {
	case TLS_TX:
	case TLS_RX:
		err = tlsx_get_conf(sk, optval, optlen, optname == TLS_TX);
		break;
	case TLS_TX_ZEROCOPY_RO:
		err = tlsx_get_tx_zc(sk, optval, optlen);
		break;
	case TLS_RX_EXPECT_NO_PAD:
		err = tlsx_get_no_pad(sk, optval, optlen);
		break;
	case TLS_TX_MAX_PAYLOAD_LEN:
		err = tlsx_get_tx_max_payload(sk, optval, optlen);
		break;
	default:
		err = -ENOPROTOOPT;
		break;
	}
	release_sock(sk);
	return err;
}

int tlsx_sockopt_init(void)
{
	/* Only the user's struct is ever copied from userspace. */
	tlsx_crypto_cache = kmem_cache_create_usercopy("tlsx_crypto",
			sizeof(struct tlsx_crypto),
			__alignof__(struct tlsx_crypto), 0,
			offsetof(struct tlsx_crypto, user),
			sizeof_field(struct tlsx_crypto, user), NULL);
	return tlsx_crypto_cache ? 0 : -ENOMEM;
}

void tlsx_sockopt_exit(void)
{
	kmem_cache_destroy(tlsx_crypto_cache);
}
