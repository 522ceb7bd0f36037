/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between ccm.c (setkey and engine choice) and the
 * AES-CCM engines ccm_generic.c and ccm_aesni.c, and the formatting of
 * SP 800-38C (appendix A) that they share.
 *
 * The formatting is written for any nonce length n (7..13, so the length
 * field has q = 15 - n bytes) and any tag length t (4..16, even), which
 * the unit tests use to check the published examples of SP 800-38C
 * through tlsx_ccm_generic_crypt(); the engines run it with n = 12 and
 * t = 16.  Everything here works on public values only (lengths, the
 * nonce) except the associated data, which is only copied.
 */
#ifndef TLSX_CRYPTO_CCM_ENGINES_H
#define TLSX_CRYPTO_CCM_ENGINES_H

#include "aead/aead_impl.h"

/*
 * B0 and the counter block A0 (SP 800-38C A.2.1 and A.3): B0 = flags ||
 * N || Q with flags = 64 * Adata + 8 * (t - 2) / 2 + (q - 1), A0 =
 * (q - 1) || N || 0.  @len < 2^(8q) (the dispatcher has checked it).
 */
static __always_inline void tlsx_ccm_format(u8 b0[16], u8 a0[16],
					    const u8 *nonce, size_t n,
					    size_t t, size_t ad_len,
					    u64 len)
{
	size_t q = 15 - n, i;

	b0[0] = (u8)((ad_len ? 64 : 0) + 8 * ((t - 2) / 2) + (q - 1));
	a0[0] = (u8)(q - 1);
	for (i = 0; i < n; i++) {
		b0[1 + i] = nonce[i];
		a0[1 + i] = nonce[i];
	}
	for (i = 0; i < q; i++) {
		b0[15 - i] = (u8)(q > 8 && i >= 8 ? 0 : len >> (8 * i));
		a0[15 - i] = 0;
	}
}

/*
 * Counter block @ctr: A0 with the counter in its last q bytes.  The
 * counter of a message of at most 2^(8q) - 1 bytes stays below 2^(8q - 4),
 * so XORing it into the last four bytes touches the counter field only.
 */
static __always_inline void tlsx_ccm_ctr_block(u8 out[16], const u8 a0[16],
					       u32 ctr)
{
	__builtin_memcpy(out, a0, 12);
	put_unaligned_be32(get_unaligned_be32(a0 + 12) ^ ctr, out + 12);
}

/*
 * The first block of the formatted associated data (SP 800-38C A.2.2):
 * its length encoded in 2, 6 or 10 bytes, then as much of @ad as fits,
 * zero-padded.  Returns how many bytes of @ad it took; the rest follows
 * in 16-byte blocks, the last one zero-padded.  Only for @ad_len > 0.
 */
static __always_inline size_t tlsx_ccm_ad_first(u8 blk[16], const u8 *ad,
						u64 ad_len)
{
	size_t h, take;

	if (ad_len < 0xff00) {
		put_unaligned_be16((u16)ad_len, blk);
		h = 2;
	} else if (ad_len <= 0xffffffffull) {
		blk[0] = 0xff;
		blk[1] = 0xfe;
		put_unaligned_be32((u32)ad_len, blk + 2);
		h = 6;
	} else {
		blk[0] = 0xff;
		blk[1] = 0xff;
		put_unaligned_be64(ad_len, blk + 2);
		h = 10;
	}
	take = ad_len < 16 - h ? (size_t)ad_len : 16 - h;
	__builtin_memset(blk + h, 0, 16 - h);
	__builtin_memcpy(blk + h, ad, take);
	return take;
}

/* Portable engine (ccm_generic.c, plain C, bitsliced AES of gcm_generic.c). */
extern const struct tlsx_aead_ops tlsx_ccm_generic_ops;

/*
 * tlsx_ccm_generic_crypt() - one whole CCM operation with any nonce
 * length @n (7..13) and tag length @t (4..16, even), for the known-answer
 * tests of SP 800-38C: encrypts (@encrypt) or decrypts @len bytes of
 * @src into @dst and writes the t-byte tag computed over the plaintext
 * (the caller compares it on decryption).  @len < 2^(8(15 - n)).
 */
void tlsx_ccm_generic_crypt(const struct tlsx_ccm_key *k, const u8 *nonce,
			    size_t n, const u8 *ad, size_t ad_len,
			    const u8 *src, u8 *dst, size_t len, u8 *tag,
			    size_t t, bool encrypt);

/* AES-NI with the CBC-MAC and CTR rounds interleaved (ccm_aesni.c). */
extern const struct tlsx_aead_ops tlsx_ccm_aesni_ops;

#endif /* TLSX_CRYPTO_CCM_ENGINES_H */
