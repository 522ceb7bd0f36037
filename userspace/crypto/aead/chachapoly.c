// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20-Poly1305 (RFC 8439 section 2.8): key setup, the AEAD
 * construction and the choice of engine.
 *
 * The construction, for key K, nonce N, associated data A and text P:
 *
 *	otk = first 32 bytes of ChaCha20(K, N, counter 0)
 *	C   = P XOR ChaCha20(K, N, counters 1, 2, ...)
 *	tag = Poly1305(otk, A || pad16(A) || C || pad16(C) ||
 *		       le64(len A) || le64(len C))
 *
 * Every engine shares this file's code and differs only in the ChaCha20
 * primitives it calls, the width of its batches and the Poly1305
 * implementation it asks for.
 *
 * The Poly1305 key.  A lone ChaCha20 block costs as much time as a full
 * SIMD pass (its rounds are one dependency chain), a large share of a
 * small record.  So init() only records the nonce and, when it is short
 * (TLS has 5 or 13 bytes), the associated data; the first text call (or
 * final(), for an empty text) runs the engine's first pass, which yields
 * block 0 together with the first blocks of keystream, then keys
 * Poly1305 and absorbs the waiting associated data.  Longer associated
 * data is absorbed at once after a first pass with no text.
 *
 * Stitching.  The text is processed in batches (4 KiB for the SIMD
 * engines, see below): encryption XORs a batch with keystream and then
 * MACs that ciphertext while it is still in L1; decryption MACs the
 * ciphertext of a batch first and then decrypts it, so in-place operation
 * works both ways.  The first pass of an in-place decryption is the
 * exception, as the key comes out of it: see chachapoly_first().
 *
 * Plain C: in the kernel this file is built without vector registers.  It
 * calls the SIMD primitives only from the ops of SIMD engines, which the
 * dispatcher runs inside a SIMD section.
 */
#include "aead/platform.h"
#include "aead/aead_impl.h"
#include "aead/chacha_engines.h"
#include "aead/stack_wipe.h"

/* Most bytes of an in-place decryption's first pass (a stack copy). */
#define CHACHAPOLY_FIRST_INPLACE	512

typedef void (*chacha_xor_fn)(const u32 key[8], const u32 nonce[3],
			      u32 counter, const u8 *src, u8 *dst,
			      size_t len);
typedef void (*chacha_xor0_fn)(const u32 key[8], const u32 nonce[3],
			       u8 otk[32], const u8 *src, u8 *dst,
			       size_t len);

int tlsx_chachapoly_setkey(struct tlsx_aead_key *k, const u8 *key,
			   size_t key_len, enum tlsx_aead_impl impl)
{
	struct tlsx_chachapoly_key *ck = &k->u.chachapoly;
	int i;

	if (key_len != TLSX_CHACHA_KEY_LEN)
		return -EINVAL;
	if (!tlsx_chachapoly_ops(impl))
		return -EOPNOTSUPP;

	for (i = 0; i < 8; i++)
		ck->k[i] = get_unaligned_le32(key + 4 * i);
	k->impl = impl;
	return 0;
}

static const u8 zero_pad[16];

/* Zero bytes that bring @len to a multiple of 16. */
static inline size_t pad16(u64 len)
{
	return (16 - (len & 15)) & 15;
}

/* Key Poly1305 with @otk (32 bytes, then wiped); absorb the padded AD. */
static void chachapoly_mac_start(struct tlsx_chachapoly_state *st, u8 *otk,
				 const u8 *ad, enum tlsx_aead_impl impl)
{
	tlsx_poly1305_init(&st->poly, otk, impl);
	memzero_explicit(otk, 32);
	tlsx_poly1305_update(&st->poly, ad, st->ad_len);
	tlsx_poly1305_update(&st->poly, zero_pad, pad16(st->ad_len));
}

static __always_inline void chachapoly_init(union tlsx_aead_state *ust,
					    const struct tlsx_aead_key *k,
					    const u8 *nonce, const u8 *ad,
					    size_t ad_len,
					    chacha_xor0_fn xor0,
					    enum tlsx_aead_impl impl)
{
	struct tlsx_chachapoly_state *st = &ust->chachapoly;
	u8 otk[32];

	st->nonce[0] = get_unaligned_le32(nonce);
	st->nonce[1] = get_unaligned_le32(nonce + 4);
	st->nonce[2] = get_unaligned_le32(nonce + 8);
	st->counter = 0;
	st->ad_len = ad_len;
	st->text_len = 0;
	if (ad_len <= TLSX_CHACHAPOLY_AD_INLINE) {
		if (ad_len)
			memcpy(st->ad, ad, ad_len);
		return;
	}
	xor0(k->u.chachapoly.k, st->nonce, otk, NULL, NULL, 0);
	chachapoly_mac_start(st, otk, ad, impl);
	st->counter = 1;
}

/*
 * The first pass of an operation whose MAC has not started: @n bytes
 * (at most the engine's first-pass size) and the Poly1305 key.  In place,
 * decryption must MAC the ciphertext before it overwrites it, but the key
 * only comes out of the pass: up to CHACHAPOLY_FIRST_INPLACE bytes the
 * ciphertext (public) is copied aside first; beyond that, block 0 is
 * computed alone with the portable code and the MAC starts before any
 * text (the caller then runs its usual passes from block 1).
 */
static __always_inline size_t chachapoly_first(struct tlsx_chachapoly_state *st,
					       const u32 *key, const u8 *src,
					       u8 *dst, size_t n,
					       chacha_xor0_fn xor0,
					       enum tlsx_aead_impl impl,
					       bool enc)
{
	u8 copy[CHACHAPOLY_FIRST_INPLACE];
	u8 otk[64];
	const u8 *mac = enc ? dst : src;

	if (!enc && src == dst) {
		if (n > CHACHAPOLY_FIRST_INPLACE) {
			tlsx_chacha20_block_generic(key, st->nonce, 0, otk);
			chachapoly_mac_start(st, otk, st->ad, impl);
			memzero_explicit(otk, sizeof(otk));
			st->counter = 1;
			return 0;
		}
		if (n) {
			memcpy(copy, src, n);
			mac = copy;
		}
	}
	xor0(key, st->nonce, otk, src, dst, n);
	chachapoly_mac_start(st, otk, st->ad, impl);
	tlsx_poly1305_update(&st->poly, mac, n);
	st->counter = 1 + (u32)((n + 63) / 64);
	return n;
}

/*
 * Encrypt (@enc) or decrypt @len bytes in batches of @batch bytes (a
 * multiple of 64).  Every call but the last of an operation has @len a
 * multiple of 64, so the counter advances by whole blocks.
 */
static __always_inline void chachapoly_crypt(union tlsx_aead_state *ust,
					     const struct tlsx_aead_key *k,
					     const u8 *src, u8 *dst,
					     size_t len, chacha_xor_fn xor,
					     chacha_xor0_fn xor0,
					     size_t first, size_t batch,
					     enum tlsx_aead_impl impl,
					     bool enc)
{
	struct tlsx_chachapoly_state *st = &ust->chachapoly;
	const u32 *key = k->u.chachapoly.k;
	size_t n;

	st->text_len += len;
	if (!st->counter) {
		n = len < first ? len : first;
		n = chachapoly_first(st, key, src, dst, n, xor0, impl, enc);
		src += n;
		dst += n;
		len -= n;
	}
	while (len) {
		n = len < batch ? len : batch;
		if (!enc)
			tlsx_poly1305_update(&st->poly, src, n);
		xor(key, st->nonce, st->counter, src, dst, n);
		if (enc)
			tlsx_poly1305_update(&st->poly, dst, n);
		st->counter += (u32)((n + 63) / 64);
		src += n;
		dst += n;
		len -= n;
	}
}

static __always_inline void chachapoly_final(union tlsx_aead_state *ust,
					     const struct tlsx_aead_key *k,
					     u8 *tag, chacha_xor0_fn xor0,
					     enum tlsx_aead_impl impl)
{
	struct tlsx_chachapoly_state *st = &ust->chachapoly;
	u8 lens[16];

	if (!st->counter)
		chachapoly_first(st, k->u.chachapoly.k, NULL, NULL, 0, xor0,
				 impl, true);
	put_unaligned_le64(st->ad_len, lens);
	put_unaligned_le64(st->text_len, lens + 8);
	tlsx_poly1305_update(&st->poly, zero_pad, pad16(st->text_len));
	tlsx_poly1305_update(&st->poly, lens, sizeof(lens));
	tlsx_poly1305_final(&st->poly, tag);
}

/*
 * One engine: the ops bound to its ChaCha20 primitives (tlsx_chacha20_
 * xor_NAME and xor0_NAME), its first-pass and batch sizes and the impl
 * handed to Poly1305.
 */
#define CHACHAPOLY_ENGINE(NAME, IMPL, FIRST, BATCH, ONESHOT, ONESHOT_MAX, \
			  UPDATE_SG, STACK_WIPE, STACK_WIPE_SG)		\
static void chachapoly_init_##NAME(union tlsx_aead_state *st,		\
				   const struct tlsx_aead_key *k,	\
				   const u8 *nonce, const u8 *ad,	\
				   size_t ad_len, size_t len)		\
{									\
	(void)len;	/* no length up front */			\
	chachapoly_init(st, k, nonce, ad, ad_len,			\
			tlsx_chacha20_xor0_##NAME, IMPL);		\
}									\
static void chachapoly_encrypt_##NAME(union tlsx_aead_state *st,	\
				      const struct tlsx_aead_key *k,	\
				      const u8 *src, u8 *dst,		\
				      size_t len)			\
{									\
	chachapoly_crypt(st, k, src, dst, len,				\
			 tlsx_chacha20_xor_##NAME,			\
			 tlsx_chacha20_xor0_##NAME, FIRST, BATCH,	\
			 IMPL, true);					\
}									\
static void chachapoly_decrypt_##NAME(union tlsx_aead_state *st,	\
				      const struct tlsx_aead_key *k,	\
				      const u8 *src, u8 *dst,		\
				      size_t len)			\
{									\
	chachapoly_crypt(st, k, src, dst, len,				\
			 tlsx_chacha20_xor_##NAME,			\
			 tlsx_chacha20_xor0_##NAME, FIRST, BATCH,	\
			 IMPL, false);					\
}									\
static void chachapoly_final_##NAME(union tlsx_aead_state *st,		\
				    const struct tlsx_aead_key *k,	\
				    u8 *tag)				\
{									\
	chachapoly_final(st, k, tag, tlsx_chacha20_xor0_##NAME, IMPL);	\
}									\
static const struct tlsx_aead_ops chachapoly_##NAME##_ops = {		\
	.name = "chacha20-poly1305-" #NAME,				\
	.init = chachapoly_init_##NAME,					\
	.encrypt = chachapoly_encrypt_##NAME,				\
	.decrypt = chachapoly_decrypt_##NAME,				\
	.final = chachapoly_final_##NAME,				\
	.oneshot = ONESHOT,						\
	.oneshot_max = ONESHOT_MAX,					\
	.update_sg = UPDATE_SG,						\
	.stack_wipe = STACK_WIPE,					\
	.stack_wipe_sg = STACK_WIPE_SG,					\
}

/*
 * Batches: the keystream XOR runs over a whole batch, then Poly1305 over
 * its ciphertext, which is still in L1.  Each Poly1305 update call pays
 * for moving its accumulator in and out of vector form (about 36 TSC
 * cycles for the IFMA engine on Zen 5), so the SIMD engines take 4 KiB,
 * the dispatcher's chunk.
 *
 * The last two numbers: how deep the dispatcher wipes the stack after an
 * operation on one buffer and over segment lists (aead_impl.h), a
 * quarter or more beyond the deepest secret test_aead_wipe_depth finds
 * on Zen 5 (generic 1400 / 1544 bytes, SSSE3 1728 / 1872, AVX2 2656 /
 * 2832, AVX-512 1264 / 2112; the last two vary by up to 48 bytes with the
 * stack's alignment, their frames being aligned to 32 and 64 bytes), and
 * in tlsx.ko (selftests/kmod_aead.c: the AVX2 engine 2736 / 2352).  The
 * AVX2 and AVX-512 engines are defined after their update_sg() below.
 */
CHACHAPOLY_ENGINE(generic, TLSX_IMPL_GENERIC, TLSX_CHACHA_FIRST_GENERIC,
		  256, NULL, 0, NULL, 1792, 2048);
CHACHAPOLY_ENGINE(ssse3, TLSX_IMPL_SSE, TLSX_CHACHA_FIRST_SSSE3, 4096,
		  NULL, 0, NULL, 2176, 2368);
CHACHAPOLY_ENGINE(ssse3_vex, TLSX_IMPL_SSE, TLSX_CHACHA_FIRST_SSSE3, 4096,
		  NULL, 0, NULL, 2176, 2368);

/*
 * AVX-512: records up to TLSX_CHACHAPOLY_SHORT_MAX bytes in one call
 * (chachapoly_avx512.c), without the streaming state; at most one block
 * of text with its rounds and MAC in registers.  Each path then wipes as
 * deep as it reaches (stack_wipe.h; test_aead_wipe_depth measures up to
 * 312 and 1944 bytes on Zen 5, give or take 48 with the stack's
 * alignment): a 64-byte record need not pay for the short path's 1.8 KiB
 * frame.
 */
#define CHACHAPOLY_TINY_WIPE	512
#define CHACHAPOLY_SHORT_WIPE	2496

static void chachapoly_oneshot_avx512(const struct tlsx_aead_key *k,
				      bool enc, const u8 *nonce,
				      const u8 *ad, size_t ad_len,
				      const u8 *src, u8 *dst, size_t len,
				      u8 *tag)
{
	if (len <= TLSX_CHACHA_BLOCK) {
		tlsx_chachapoly_tiny_avx512(k->u.chachapoly.k, nonce, enc, ad,
					    ad_len, src, dst, len, tag);
		tlsx_stack_wipe(CHACHAPOLY_TINY_WIPE);
	} else {
		tlsx_chachapoly_short_avx512(k->u.chachapoly.k, nonce, enc,
					     ad, ad_len, src, dst, len, tag);
		tlsx_stack_wipe(CHACHAPOLY_SHORT_WIPE);
	}
}

/* Feed Poly1305 the next @len bytes at @p (a copy of a list position). */
static void chachapoly_mac_sg(struct tlsx_poly1305_state *poly,
			      struct tlsx_sg_pos p, size_t len)
{
	size_t n;

	while (len) {
		n = tlsx_sg_avail(&p);
		if (n > len)
			n = len;
		tlsx_poly1305_update(poly, tlsx_sg_ptr(&p), n);
		p.off += n;
		len -= n;
	}
}

typedef void (*chacha_xor_sg_fn)(const u32 key[8], const u32 nonce[3],
				 u32 counter, struct tlsx_sg_pos *src,
				 struct tlsx_sg_pos *dst, size_t len);

/*
 * update_sg(): the first pass on what the first segments hold whole (it
 * keys Poly1305), then batches of the text as chachapoly_crypt() runs
 * them, the keystream XORed across the segments in one pass (the
 * engine's @xor_sg) and the ciphertext MACed piece by piece while it is
 * in L1 (after the XOR when sealing, before when opening, so in place
 * works both ways).
 */
static __always_inline void chachapoly_update_sg(union tlsx_aead_state *ust,
						 const struct tlsx_aead_key *k,
						 bool enc,
						 struct tlsx_sg_pos *src,
						 struct tlsx_sg_pos *dst,
						 size_t len,
						 chacha_xor_sg_fn xor_sg,
						 chacha_xor_fn xor,
						 chacha_xor0_fn xor0,
						 size_t first,
						 enum tlsx_aead_impl impl)
{
	struct tlsx_chachapoly_state *st = &ust->chachapoly;
	const u32 *key = k->u.chachapoly.k;
	struct tlsx_sg_pos mac;
	size_t n;

	if (!len)
		return;
	if (!st->counter) {
		n = tlsx_sg_run(src, dst);
		if (n > first)
			n = first;
		if (n > len)
			n = len;
		if (n < len)
			n &= ~(size_t)(TLSX_CHACHA_BLOCK - 1);
		/* n may be 0: then only block 0, and the MAC starts */
		chachapoly_crypt(ust, k, tlsx_sg_ptr(src), tlsx_sg_ptr(dst), n,
				 xor, xor0, first, 4096, impl, enc);
		src->off += n;
		dst->off += n;
		len -= n;
	}
	st->text_len += len;
	while (len) {
		/*
		 * Batches end where the text's 4 KiB do, so pages that start
		 * with the text (a file's, sent whole) get whole passes, as
		 * chachapoly_crypt() gives a buffer.
		 */
		n = 4096 - ((st->counter - 1) * TLSX_CHACHA_BLOCK) % 4096;
		if (n > len)
			n = len;
		mac = enc ? *dst : *src;
		if (!enc)
			chachapoly_mac_sg(&st->poly, mac, n);
		xor_sg(key, st->nonce, st->counter, src, dst, n);
		if (enc)
			chachapoly_mac_sg(&st->poly, mac, n);
		st->counter += (u32)((n + 63) / 64);
		len -= n;
	}
}

static void chachapoly_update_sg_avx2(union tlsx_aead_state *ust,
				      const struct tlsx_aead_key *k,
				      bool enc, struct tlsx_sg_pos *src,
				      struct tlsx_sg_pos *dst, size_t len)
{
	chachapoly_update_sg(ust, k, enc, src, dst, len,
			     tlsx_chacha20_xor_sg_avx2, tlsx_chacha20_xor_avx2,
			     tlsx_chacha20_xor0_avx2, TLSX_CHACHA_FIRST_AVX2,
			     TLSX_IMPL_AVX2);
}

static void chachapoly_update_sg_avx512(union tlsx_aead_state *ust,
					const struct tlsx_aead_key *k,
					bool enc, struct tlsx_sg_pos *src,
					struct tlsx_sg_pos *dst, size_t len)
{
	chachapoly_update_sg(ust, k, enc, src, dst, len,
			     tlsx_chacha20_xor_sg_avx512,
			     tlsx_chacha20_xor_avx512,
			     tlsx_chacha20_xor0_avx512,
			     TLSX_CHACHA_FIRST_AVX512, TLSX_IMPL_AVX512);
}

CHACHAPOLY_ENGINE(avx2, TLSX_IMPL_AVX2, TLSX_CHACHA_FIRST_AVX2, 4096,
		  NULL, 0, chachapoly_update_sg_avx2, 3520, 3584);
CHACHAPOLY_ENGINE(avx512, TLSX_IMPL_AVX512, TLSX_CHACHA_FIRST_AVX512, 4096,
		  chachapoly_oneshot_avx512, TLSX_CHACHAPOLY_SHORT_MAX,
		  chachapoly_update_sg_avx512, 1664, 2752);

const struct tlsx_aead_ops *tlsx_chachapoly_ops(enum tlsx_aead_impl impl)
{
	switch (impl) {
	case TLSX_IMPL_GENERIC:
		return &chachapoly_generic_ops;
	case TLSX_IMPL_SSE:
		/* VEX encoding whenever AVX is there: see chacha_ssse3.c */
		if (tlsx_cpu_features()->avx)
			return &chachapoly_ssse3_vex_ops;
		return &chachapoly_ssse3_ops;
	case TLSX_IMPL_AVX2:
		return &chachapoly_avx2_ops;
	case TLSX_IMPL_AVX512:
		return &chachapoly_avx512_ops;
	default:
		return NULL;
	}
}
