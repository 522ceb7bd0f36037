// SPDX-License-Identifier: GPL-2.0
/*
 * Portable, constant-time AES-CCM (NIST SP 800-38C): the engine of last
 * resort, on the bitsliced AES of gcm_generic.c (tlsx_aes_encrypt4(),
 * four blocks per call, no table lookups).
 *
 * CBC-MAC is a chain: each block of MAC input needs the AES of the
 * previous one, so every call of the four-block AES advances the MAC by
 * one block.  Its second lane carries a counter block alongside, so text
 * costs one four-block call per 16 bytes: encryption MACs block i and
 * makes the keystream of block i in the same call; decryption makes the
 * keystream of block i + 1 while it MACs the plaintext of block i (which
 * needed the keystream of block i first), plus one call at the end of
 * each update.  The other two lanes stay idle: the chain, not the AES
 * work, bounds CCM.
 *
 * Everything that depends on the key or the data goes through the
 * bitsliced AES and XORs; branches and copies depend on lengths only.
 */
#include "aead/platform.h"
#include "aead/gcm_engines.h"
#include "aead/ccm_engines.h"

/* One CBC-MAC step on @blk (16 bytes, already padded), in lane 0. */
static void ccm_mac_block(const struct tlsx_aes_planes *pk, u8 mac[16],
			  const u8 blk[16], u8 lanes[64])
{
	int i;

	__builtin_memset(lanes, 0, 64);
	for (i = 0; i < 16; i++)
		lanes[i] = mac[i] ^ blk[i];
	tlsx_aes_encrypt4(pk, lanes, lanes);
	__builtin_memcpy(mac, lanes, 16);
}

/*
 * Start an operation: A0, E(A0) and E(B0) (the first MAC step) in one
 * call, then the formatted associated data.
 */
static void ccm_generic_start(struct tlsx_ccm_state *s,
			      const struct tlsx_ccm_key *k, const u8 *nonce,
			      size_t n, size_t t, const u8 *ad, size_t ad_len,
			      size_t len)
{
	struct tlsx_aes_planes pk;
	u8 lanes[64] = { 0 };
	u8 blk[16];
	size_t c;

	tlsx_aes_planes_setkey(&pk, k->rk, k->rounds);
	tlsx_ccm_format(lanes, s->a0, nonce, n, t, ad_len, len);
	__builtin_memcpy(lanes + 16, s->a0, 16);
	tlsx_aes_encrypt4(&pk, lanes, lanes);
	__builtin_memcpy(s->mac, lanes, 16);
	__builtin_memcpy(s->s0, lanes + 16, 16);
	s->ctr = 1;

	if (ad_len) {
		c = tlsx_ccm_ad_first(blk, ad, ad_len);
		ccm_mac_block(&pk, s->mac, blk, lanes);
		ad += c;
		ad_len -= c;
	}
	while (ad_len) {
		c = ad_len < 16 ? ad_len : 16;
		__builtin_memset(blk, 0, 16);
		__builtin_memcpy(blk, ad, c);
		ccm_mac_block(&pk, s->mac, blk, lanes);
		ad += c;
		ad_len -= c;
	}
	memzero_explicit(blk, sizeof(blk));
	memzero_explicit(lanes, sizeof(lanes));
	memzero_explicit(&pk, sizeof(pk));
}

static void ccm_generic_crypt(struct tlsx_ccm_state *s,
			      const struct tlsx_ccm_key *k, const u8 *src,
			      u8 *dst, size_t len, bool encrypt)
{
	struct tlsx_aes_planes pk;
	u8 lanes[64], blk[16];
	bool pending = false;	/* decryption: blk waits for its MAC step */
	size_t n;
	int i;

	if (!len)
		return;
	tlsx_aes_planes_setkey(&pk, k->rk, k->rounds);

	while (len || pending) {
		n = len < 16 ? len : 16;
		__builtin_memset(lanes, 0, sizeof(lanes));
		if (encrypt) {
			__builtin_memset(blk, 0, 16);
			__builtin_memcpy(blk, src, n);
			for (i = 0; i < 16; i++)
				lanes[i] = s->mac[i] ^ blk[i];
		} else if (pending) {
			for (i = 0; i < 16; i++)
				lanes[i] = s->mac[i] ^ blk[i];
		}
		if (n)
			tlsx_ccm_ctr_block(lanes + 16, s->a0, s->ctr++);
		tlsx_aes_encrypt4(&pk, lanes, lanes);
		if (encrypt || pending)
			__builtin_memcpy(s->mac, lanes, 16);
		pending = false;
		if (!n)
			break;
		if (encrypt) {
			for (i = 0; i < (int)n; i++)
				dst[i] = blk[i] ^ lanes[16 + i];
		} else {
			__builtin_memset(blk, 0, 16);
			for (i = 0; i < (int)n; i++)
				blk[i] = src[i] ^ lanes[16 + i];
			__builtin_memcpy(dst, blk, n);
			pending = true;
		}
		src += n;
		dst += n;
		len -= n;
	}
	memzero_explicit(blk, sizeof(blk));
	memzero_explicit(lanes, sizeof(lanes));
	memzero_explicit(&pk, sizeof(pk));
}

static void ccm_generic_init(union tlsx_aead_state *st,
			     const struct tlsx_aead_key *k, const u8 *nonce,
			     const u8 *ad, size_t ad_len, size_t len)
{
	ccm_generic_start(&st->ccm, &k->u.ccm, nonce, TLSX_AEAD_NONCE_LEN,
			  TLSX_AEAD_TAG_LEN, ad, ad_len, len);
}

static void ccm_generic_encrypt(union tlsx_aead_state *st,
				const struct tlsx_aead_key *k,
				const u8 *src, u8 *dst, size_t len)
{
	ccm_generic_crypt(&st->ccm, &k->u.ccm, src, dst, len, true);
}

static void ccm_generic_decrypt(union tlsx_aead_state *st,
				const struct tlsx_aead_key *k,
				const u8 *src, u8 *dst, size_t len)
{
	ccm_generic_crypt(&st->ccm, &k->u.ccm, src, dst, len, false);
}

static void ccm_generic_final(union tlsx_aead_state *st,
			      const struct tlsx_aead_key *k, u8 *tag)
{
	int i;

	(void)k;	/* E(A0) was made at init */
	for (i = 0; i < 16; i++)
		tag[i] = st->ccm.mac[i] ^ st->ccm.s0[i];
}

const struct tlsx_aead_ops tlsx_ccm_generic_ops = {
	.name = "ccm-generic",
	.init = ccm_generic_init,
	.encrypt = ccm_generic_encrypt,
	.decrypt = ccm_generic_decrypt,
	.final = ccm_generic_final,
	/* table-free AES, CBC-MAC and CTR state: 944 / 1072 bytes down */
	.stack_wipe = 1216,
	.stack_wipe_sg = 1408,
};

void tlsx_ccm_generic_crypt(const struct tlsx_ccm_key *k, const u8 *nonce,
			    size_t n, const u8 *ad, size_t ad_len,
			    const u8 *src, u8 *dst, size_t len, u8 *tag,
			    size_t t, bool encrypt)
{
	struct tlsx_ccm_state s;
	size_t i;

	ccm_generic_start(&s, k, nonce, n, t, ad, ad_len, len);
	ccm_generic_crypt(&s, k, src, dst, len, encrypt);
	for (i = 0; i < t; i++)
		tag[i] = s.mac[i] ^ s.s0[i];
	memzero_explicit(&s, sizeof(s));
}
