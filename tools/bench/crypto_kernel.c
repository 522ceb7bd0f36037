// SPDX-License-Identifier: GPL-2.0
/*
 * crypto_kernel.c - the linkage shim between tlsx-bench and the kernel's
 * x86 AEAD assembly (crypto_kernel.h).  The assembly is 6.12's, from
 * build/ksrc, assembled by the Makefile with the macros of
 * tools/bench/kanchor/; this file does what the kernel's C glue does
 * around it, and nothing more, so that a record costs what it costs kTLS
 * minus the crypto API's scatterlist walk and kernel_fpu_begin(), which
 * tlsx.ko pays as well:
 *
 * - AES-GCM (aesni-intel_glue.c): the key struct at the offsets the
 *   assembly reads (round keys at 0, key length at 480, hash key powers
 *   at 512 or 496), the round keys expanded with AES-NI and the powers
 *   set up by the assembly's own precompute; per record, as gcm_crypt():
 *   counter block 2 in little-endian words, the AD through aad_update,
 *   each piece of data through enc/dec_update (non-last pieces a
 *   multiple of 16 bytes), then enc/dec_final (which compares the tag).
 * - ChaCha20-Poly1305 (crypto/chacha20poly1305.c over chacha_glue.c and
 *   poly1305_glue.c): encrypt with counter 1 through chacha_dosimd()'s
 *   choice of 8/4/2-block functions; the one-time key from a 32-byte
 *   encryption with counter 0; Poly1305 fed as the template feeds its
 *   hash (key, AD, pad, ciphertext, pad, lengths) through the glue's
 *   buffering, SIMD from 288 bytes or once in base 2^26.  Open hashes
 *   first and decrypts only after the tag compares equal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <immintrin.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "aead/test/aead_evp.h"
#include "crypto_kernel.h"
#include "crypto_kernel_asm.h"
#include "crypto_kernel_walk.h"

/* --- keys --------------------------------------------------------------- */

/* struct crypto_aes_ctx: the round keys the GCM assembly reads. */
struct kanchor_aes_ctx {
	u32 key_enc[60];
	u32 key_dec[60];
	u32 key_length;		/* bytes: 16 or 32 */
	u32 rfc4106_nonce;	/* unused: "gcm(aes)" */
};

/* struct aes_gcm_key_avx10: H^16..H^1 and three zero blocks after them. */
struct kanchor_gcm_avx10 {
	struct kanchor_aes_ctx aes;
	u64 h_powers[16][2] __aligned(64);
	u64 padding[3][2];
};

/* struct aes_gcm_key_aesni: H^8..H^1, Karatsuba halves, H * x^64. */
struct kanchor_gcm_aesni {
	struct kanchor_aes_ctx aes;
	u64 h_powers[8][2] __aligned(16);
	u64 h_powers_xored[8] __aligned(16);
	u64 h_times_x64[2] __aligned(16);
};

_Static_assert(__builtin_offsetof(struct kanchor_gcm_avx10, aes.key_length) ==
	       480, "key length offset");
_Static_assert(__builtin_offsetof(struct kanchor_gcm_avx10, h_powers) == 512,
	       "avx10 h_powers offset");
_Static_assert(__builtin_offsetof(struct kanchor_gcm_avx10, padding) == 768,
	       "avx10 padding offset");
_Static_assert(__builtin_offsetof(struct kanchor_gcm_aesni, h_powers) == 496,
	       "aesni h_powers offset");
_Static_assert(__builtin_offsetof(struct kanchor_gcm_aesni, h_powers_xored) ==
	       624, "aesni h_powers_xored offset");
_Static_assert(__builtin_offsetof(struct kanchor_gcm_aesni, h_times_x64) ==
	       688, "aesni h_times_x64 offset");

struct kanchor_key {
	union {
		struct kanchor_gcm_avx10 avx10;
		struct kanchor_gcm_aesni aesni;
		u32 chacha[8];
	} __aligned(64);
	enum tlsx_aead_alg alg;
	enum kanchor_path path;
};

/*
 * A record's data: one buffer, handed over in @seg-byte pieces (0: at
 * once), or segment lists walked as the kernel walks a scatterlist
 * (@sin non-NULL).
 */
struct kanchor_data {
	const u8 *in;
	u8 *out;
	size_t seg;
	const struct tlsx_aead_seg *sin, *sout;
	unsigned int nin, nout;
	size_t len;
};

static const char *const path_names[KANCHOR_PATH_COUNT] = {
	[KANCHOR_GCM_AVX10_512] = "avx10_512",
	[KANCHOR_GCM_AVX10_256] = "avx10_256",
	[KANCHOR_GCM_AESNI_AVX] = "aesni_avx",
	[KANCHOR_GCM_AESNI] = "aesni",
	[KANCHOR_CHACHA_AVX512] = "avx512vl",
	[KANCHOR_CHACHA_AVX2] = "avx2",
};

const char *kanchor_path_name(enum kanchor_path p)
{
	return p > KANCHOR_NONE && p < KANCHOR_PATH_COUNT ? path_names[p] : "-";
}

enum kanchor_path kanchor_path_parse(const char *name)
{
	int p;

	for (p = 0; p < KANCHOR_PATH_COUNT; p++)
		if (!strcmp(name, path_names[p]))
			return p;
	return KANCHOR_NONE;
}

static bool is_gcm(enum tlsx_aead_alg alg)
{
	return alg == TLSX_AEAD_AES_128_GCM || alg == TLSX_AEAD_AES_256_GCM;
}

/*
 * The feature tests of aesni_init() and chacha/poly1305_simd_mod_init();
 * the X86_FEATURE_PREFER_YMM demotion concerns Intel parts only.
 */
bool kanchor_path_usable(enum tlsx_aead_alg alg, enum kanchor_path p)
{
	bool vaes = __builtin_cpu_supports("vaes") &&
		    __builtin_cpu_supports("vpclmulqdq") &&
		    __builtin_cpu_supports("bmi2");

	switch (p) {
	case KANCHOR_GCM_AVX10_512:
	case KANCHOR_GCM_AVX10_256:
		return is_gcm(alg) && vaes &&
		       __builtin_cpu_supports("avx512vl") &&
		       __builtin_cpu_supports("avx512bw");
	case KANCHOR_GCM_AESNI_AVX:
		return is_gcm(alg) && __builtin_cpu_supports("aes") &&
		       __builtin_cpu_supports("pclmul") &&
		       __builtin_cpu_supports("avx");
	case KANCHOR_GCM_AESNI:
		return is_gcm(alg) && __builtin_cpu_supports("aes") &&
		       __builtin_cpu_supports("pclmul");
	case KANCHOR_CHACHA_AVX512:
		return alg == TLSX_AEAD_CHACHA20_POLY1305 &&
		       __builtin_cpu_supports("avx512vl") &&
		       __builtin_cpu_supports("avx512bw") &&
		       __builtin_cpu_supports("avx512f");
	case KANCHOR_CHACHA_AVX2:
		return alg == TLSX_AEAD_CHACHA20_POLY1305 &&
		       __builtin_cpu_supports("avx2");
	default:
		return false;
	}
}

enum kanchor_path kanchor_best_path(enum tlsx_aead_alg alg)
{
	int p;

	for (p = 0; p < KANCHOR_PATH_COUNT; p++)
		if (kanchor_path_usable(alg, p))
			return p;
	return KANCHOR_NONE;
}

/* One step of the AES key schedule: @t is aeskeygenassist's output. */
static inline __m128i __attribute__((target("sse2")))
kanchor_expand_step(__m128i k, __m128i t)
{
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	k = _mm_xor_si128(k, _mm_slli_si128(k, 4));
	return _mm_xor_si128(k, t);
}

#define KANCHOR_RCON_STEP(prev, other, rcon, sel)			\
	kanchor_expand_step(prev, _mm_shuffle_epi32(			\
		_mm_aeskeygenassist_si128(other, rcon), sel))

/* FIPS 197 section 5.2 with AES-NI: the encryption round keys only. */
static void __attribute__((target("aes,sse2")))
kanchor_aes_expand(struct kanchor_aes_ctx *ctx, const u8 *key, size_t len)
{
	__m128i *rk = (__m128i *)ctx->key_enc;
	__m128i a = _mm_loadu_si128((const __m128i *)key), b;

	memset(ctx, 0, sizeof(*ctx));
	ctx->key_length = (u32)len;
	_mm_storeu_si128(rk, a);
	if (len == 16) {
		a = KANCHOR_RCON_STEP(a, a, 0x01, 0xff);
		_mm_storeu_si128(rk + 1, a);
		a = KANCHOR_RCON_STEP(a, a, 0x02, 0xff);
		_mm_storeu_si128(rk + 2, a);
		a = KANCHOR_RCON_STEP(a, a, 0x04, 0xff);
		_mm_storeu_si128(rk + 3, a);
		a = KANCHOR_RCON_STEP(a, a, 0x08, 0xff);
		_mm_storeu_si128(rk + 4, a);
		a = KANCHOR_RCON_STEP(a, a, 0x10, 0xff);
		_mm_storeu_si128(rk + 5, a);
		a = KANCHOR_RCON_STEP(a, a, 0x20, 0xff);
		_mm_storeu_si128(rk + 6, a);
		a = KANCHOR_RCON_STEP(a, a, 0x40, 0xff);
		_mm_storeu_si128(rk + 7, a);
		a = KANCHOR_RCON_STEP(a, a, 0x80, 0xff);
		_mm_storeu_si128(rk + 8, a);
		a = KANCHOR_RCON_STEP(a, a, 0x1b, 0xff);
		_mm_storeu_si128(rk + 9, a);
		a = KANCHOR_RCON_STEP(a, a, 0x36, 0xff);
		_mm_storeu_si128(rk + 10, a);
		return;
	}
	/* AES-256: even words from RotWord+SubWord+Rcon, odd from SubWord. */
	b = _mm_loadu_si128((const __m128i *)(key + 16));
	_mm_storeu_si128(rk + 1, b);
#define KANCHOR_256_PAIR(i, rcon)					\
	do {								\
		a = KANCHOR_RCON_STEP(a, b, rcon, 0xff);		\
		_mm_storeu_si128(rk + (i), a);				\
		if ((i) + 1 < 15) {					\
			b = KANCHOR_RCON_STEP(b, a, 0x00, 0xaa);	\
			_mm_storeu_si128(rk + (i) + 1, b);		\
		}							\
	} while (0)
	KANCHOR_256_PAIR(2, 0x01);
	KANCHOR_256_PAIR(4, 0x02);
	KANCHOR_256_PAIR(6, 0x04);
	KANCHOR_256_PAIR(8, 0x08);
	KANCHOR_256_PAIR(10, 0x10);
	KANCHOR_256_PAIR(12, 0x20);
	KANCHOR_256_PAIR(14, 0x40);
#undef KANCHOR_256_PAIR
}

static u32 get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static u32 get_be32(const u8 *p)
{
	return (u32)p[3] | (u32)p[2] << 8 | (u32)p[1] << 16 | (u32)p[0] << 24;
}

struct kanchor_key *kanchor_key_new(enum tlsx_aead_alg alg,
				    enum kanchor_path p, const u8 *key)
{
	struct kanchor_key *k;
	int i;

	if (!kanchor_path_usable(alg, p))
		return NULL;
	k = aligned_alloc(64, sizeof(*k));
	if (!k)
		return NULL;
	memset(k, 0, sizeof(*k));
	k->alg = alg;
	k->path = p;
	if (alg == TLSX_AEAD_CHACHA20_POLY1305) {
		for (i = 0; i < 8; i++)
			k->chacha[i] = get_le32(key + 4 * i);
		return k;
	}
	/* gcm_setkey(): aesni_set_key(), then the powers of H. */
	kanchor_aes_expand(&k->avx10.aes, key,
			   alg == TLSX_AEAD_AES_128_GCM ? 16 : 32);
	switch (p) {
	case KANCHOR_GCM_AVX10_512:
		aes_gcm_precompute_vaes_avx10_512(&k->avx10);
		break;
	case KANCHOR_GCM_AVX10_256:
		aes_gcm_precompute_vaes_avx10_256(&k->avx10);
		break;
	case KANCHOR_GCM_AESNI_AVX:
		aes_gcm_precompute_aesni_avx(&k->aesni);
		break;
	default:
		aes_gcm_precompute_aesni(&k->aesni);
		break;
	}
	return k;
}

void kanchor_key_free(struct kanchor_key *k)
{
	if (!k)
		return;
	OPENSSL_cleanse(k, sizeof(*k));
	free(k);
}

enum kanchor_path kanchor_key_path(const struct kanchor_key *k)
{
	return k->path;
}

/* --- AES-GCM as gcm_crypt() --------------------------------------------- */

static void gcm_aad(const struct kanchor_key *k, u8 acc[16], const u8 *ad,
		    size_t ad_len)
{
	memset(acc, 0, 16);
	if (k->path <= KANCHOR_GCM_AVX10_256)
		aes_gcm_aad_update_vaes_avx10(k, acc, ad, (int)ad_len);
	else if (k->path == KANCHOR_GCM_AESNI_AVX)
		aes_gcm_aad_update_aesni_avx(k, acc, ad, (int)ad_len);
	else
		aes_gcm_aad_update_aesni(k, acc, ad, (int)ad_len);
}

static void gcm_update(const struct kanchor_key *k, bool enc,
		       const u32 ctr[4], u8 acc[16], const u8 *src, u8 *dst,
		       size_t n)
{
	static void (*const fn[2][4])(const void *, const u32 *, u8 *,
				      const u8 *, u8 *, int) = {
		{ aes_gcm_dec_update_vaes_avx10_512,
		  aes_gcm_dec_update_vaes_avx10_256,
		  aes_gcm_dec_update_aesni_avx, aes_gcm_dec_update_aesni },
		{ aes_gcm_enc_update_vaes_avx10_512,
		  aes_gcm_enc_update_vaes_avx10_256,
		  aes_gcm_enc_update_aesni_avx, aes_gcm_enc_update_aesni },
	};

	/*
	 * gcm_crypt() calls through a flags switch the compiler folds; an
	 * indirect call here costs a few cycles more per piece at most.
	 */
	fn[enc][k->path](k, ctr, acc, src, dst, (int)n);
}

/* The data in pieces of @seg bytes (0: one piece), as the walk gives it. */
static void gcm_data(const struct kanchor_key *k, bool enc, u32 ctr[4],
		     u8 acc[16], const struct kanchor_data *d)
{
	const u8 *in = d->in;
	u8 *out = d->out;
	size_t len = d->len, seg = d->seg;

	while (seg && len > seg) {
		gcm_update(k, enc, ctr, acc, in, out, seg);
		ctr[0] += (u32)(seg / 16);
		in += seg;
		out += seg;
		len -= seg;
	}
	gcm_update(k, enc, ctr, acc, in, out, len);
}

/*
 * gcm_crypt()'s loop over the skcipher_walk: a non-last step rounded down
 * to whole blocks, what it leaves starting the next step.
 */
static void gcm_data_sg(const struct kanchor_key *k, bool enc, u32 ctr[4],
			u8 acc[16], const struct kanchor_data *d)
{
	struct kwalk w;
	size_t n;

	kwalk_start(&w, d->sin, d->nin, d->sout, d->nout, d->len, 16);
	while ((n = w.nbytes) < w.total) {
		n &= ~(size_t)15;
		gcm_update(k, enc, ctr, acc, w.src, w.dst, n);
		ctr[0] += (u32)(n / 16);
		kwalk_done(&w, w.nbytes - n);
	}
	gcm_update(k, enc, ctr, acc, w.src, w.dst, n);
	if (n)
		kwalk_done(&w, 0);
}

static void gcm_ctr_init(u32 ctr[4], const u8 *nonce)
{
	ctr[0] = 2;
	ctr[1] = get_be32(nonce + 8);
	ctr[2] = get_be32(nonce + 4);
	ctr[3] = get_be32(nonce);
}

static void gcm_seal(const struct kanchor_key *k, const u8 *nonce,
		     const u8 *ad, size_t ad_len, const struct kanchor_data *d,
		     u8 *tag)
{
	u8 acc[16] __aligned(16);
	u32 ctr[4];

	gcm_ctr_init(ctr, nonce);
	gcm_aad(k, acc, ad, ad_len);
	if (d->sin)
		gcm_data_sg(k, true, ctr, acc, d);
	else
		gcm_data(k, true, ctr, acc, d);
	if (k->path <= KANCHOR_GCM_AVX10_256)
		aes_gcm_enc_final_vaes_avx10(k, ctr, acc, ad_len, d->len);
	else if (k->path == KANCHOR_GCM_AESNI_AVX)
		aes_gcm_enc_final_aesni_avx(k, ctr, acc, ad_len, d->len);
	else
		aes_gcm_enc_final_aesni(k, ctr, acc, ad_len, d->len);
	memcpy(tag, acc, 16);
}

static int gcm_open(const struct kanchor_key *k, const u8 *nonce,
		    const u8 *ad, size_t ad_len, const struct kanchor_data *d,
		    const u8 *tag)
{
	u8 acc[16] __aligned(16);
	size_t len = d->len;
	u32 ctr[4];
	bool ok;

	gcm_ctr_init(ctr, nonce);
	gcm_aad(k, acc, ad, ad_len);
	if (d->sin)
		gcm_data_sg(k, false, ctr, acc, d);
	else
		gcm_data(k, false, ctr, acc, d);
	if (k->path <= KANCHOR_GCM_AVX10_256)
		ok = aes_gcm_dec_final_vaes_avx10(k, ctr, acc, ad_len, len,
						  tag, 16);
	else if (k->path == KANCHOR_GCM_AESNI_AVX)
		ok = aes_gcm_dec_final_aesni_avx(k, ctr, acc, ad_len, len,
						 tag, 16);
	else
		ok = aes_gcm_dec_final_aesni(k, ctr, acc, ad_len, len, tag, 16);
	return ok ? 0 : -1;
}

/* --- ChaCha20-Poly1305 as rfc7539(chacha20-simd,poly1305-simd) ---------- */

#define CHACHA_BLOCK	64

/* chacha_advance(): blocks consumed by a call that saw @len bytes. */
static u32 chacha_blocks_used(size_t len, size_t max_blocks)
{
	if (len > max_blocks * CHACHA_BLOCK)
		len = max_blocks * CHACHA_BLOCK;
	return (u32)((len + CHACHA_BLOCK - 1) / CHACHA_BLOCK);
}

/* chacha_dosimd(): the widest function first, the tail by size. */
static void chacha_simd(bool avx512, u32 *st, u8 *dst, const u8 *src,
			unsigned int n)
{
	if (avx512) {
		for (; n >= 8 * CHACHA_BLOCK; n -= 8 * CHACHA_BLOCK) {
			chacha_8block_xor_avx512vl(st, dst, src, n,
						   20);
			src += 8 * CHACHA_BLOCK;
			dst += 8 * CHACHA_BLOCK;
			st[12] += 8;
		}
		if (n > 4 * CHACHA_BLOCK)
			chacha_8block_xor_avx512vl(st, dst, src, n,
						   20);
		else if (n > 2 * CHACHA_BLOCK)
			chacha_4block_xor_avx512vl(st, dst, src, n,
						   20);
		else if (n)
			chacha_2block_xor_avx512vl(st, dst, src, n,
						   20);
		st[12] += chacha_blocks_used(n, 8);
		return;
	}
	for (; n >= 8 * CHACHA_BLOCK; n -= 8 * CHACHA_BLOCK) {
		chacha_8block_xor_avx2(st, dst, src, n, 20);
		src += 8 * CHACHA_BLOCK;
		dst += 8 * CHACHA_BLOCK;
		st[12] += 8;
	}
	if (n > 4 * CHACHA_BLOCK)
		chacha_8block_xor_avx2(st, dst, src, n, 20);
	else if (n > 2 * CHACHA_BLOCK)
		chacha_4block_xor_avx2(st, dst, src, n, 20);
	else if (n > CHACHA_BLOCK)
		chacha_2block_xor_avx2(st, dst, src, n, 20);
	else if (n)
		chacha_block_xor_ssse3(st, dst, src, n, 20);
	st[12] += chacha_blocks_used(n, 8);
}

/* chacha_init_generic(): RFC 8439 section 2.3's state. */
static void chacha_state(const struct kanchor_key *k, u32 counter,
			 const u8 *nonce, u32 st[16])
{
	static const u32 sigma[4] = {
		0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	};
	int i;

	memcpy(st, sigma, sizeof(sigma));
	for (i = 0; i < 8; i++)
		st[4 + i] = k->chacha[i];
	st[12] = counter;
	st[13] = get_le32(nonce);
	st[14] = get_le32(nonce + 4);
	st[15] = get_le32(nonce + 8);
}

/* chacha_simd_stream_xor() over one buffer in @seg-byte pieces. */
static void chacha_stream(const struct kanchor_key *k, u32 counter,
			  const u8 *nonce, u8 *dst, const u8 *src, size_t len,
			  size_t seg)
{
	u32 st[16] __aligned(8);
	bool avx512 = k->path == KANCHOR_CHACHA_AVX512;

	chacha_state(k, counter, nonce, st);
	while (seg && len > seg) {
		chacha_simd(avx512, st, dst, src, (unsigned int)seg);
		src += seg;
		dst += seg;
		len -= seg;
	}
	chacha_simd(avx512, st, dst, src, (unsigned int)len);
}

/* chacha_simd_stream_xor() over the walk: non-last steps whole blocks. */
static void chacha_stream_sg(const struct kanchor_key *k, const u8 *nonce,
			     const struct kanchor_data *d)
{
	u32 st[16] __aligned(8);
	bool avx512 = k->path == KANCHOR_CHACHA_AVX512;
	struct kwalk w;

	chacha_state(k, 1, nonce, st);
	kwalk_start(&w, d->sin, d->nin, d->sout, d->nout, d->len,
		    CHACHA_BLOCK);
	while (w.nbytes) {
		size_t n = w.nbytes;

		if (n < w.total)
			n &= ~(size_t)(CHACHA_BLOCK - 1);
		chacha_simd(avx512, st, w.dst, w.src, (unsigned int)n);
		kwalk_done(&w, w.nbytes - n);
	}
}

/* struct poly1305_desc_ctx with room for the assembly's state. */
struct kanchor_poly {
	u64 state[32] __aligned(64);	/* h, r, r^n table */
	u8 buf[16];
	unsigned int buflen;
	bool rset, sset;
	u32 s[4];
	bool avx512;
};

/*
 * poly1305_simd_blocks(): scalar below 18 blocks unless the state is
 * already in base 2^26, else the vector code a page at a time.  (The
 * glue's conversion back to base 2^64 serves contexts without the FPU,
 * which userspace never is.)
 */
static void poly_blocks(struct kanchor_poly *p, const u8 *in, size_t len,
			u32 padbit)
{
	u32 base2_26 = ((u32 *)p->state)[5];

	if (len < 16 * 18 && !base2_26) {
		poly1305_blocks_x86_64(p->state, in, len, padbit);
		return;
	}
	do {
		size_t n = len < 4096 ? len : 4096;

		if (p->avx512)
			poly1305_blocks_avx512(p->state, in, n, padbit);
		else
			poly1305_blocks_avx2(p->state, in, n, padbit);
		len -= n;
		in += n;
	} while (len);
}

/* crypto_poly1305_setdctxkey(): r, then s, from the first 32 bytes. */
static size_t poly_take_key(struct kanchor_poly *p, const u8 *in, size_t len)
{
	size_t used = 0;

	if (p->sset)
		return 0;
	if (!p->rset && len >= 16) {
		poly1305_init_x86_64(p->state, in);
		in += 16;
		len -= 16;
		used += 16;
		p->rset = true;
	}
	if (len >= 16) {
		p->s[0] = get_le32(in);
		p->s[1] = get_le32(in + 4);
		p->s[2] = get_le32(in + 8);
		p->s[3] = get_le32(in + 12);
		used += 16;
		p->sset = true;
	}
	return used;
}

/* poly1305_update_arch(): whole blocks straight, the rest buffered. */
static void poly_update(struct kanchor_poly *p, const u8 *in, size_t len)
{
	size_t n, used;

	if (p->buflen) {
		n = 16 - p->buflen < len ? 16 - p->buflen : len;
		memcpy(p->buf + p->buflen, in, n);
		in += n;
		len -= n;
		p->buflen += (unsigned int)n;
		if (p->buflen == 16) {
			if (!poly_take_key(p, p->buf, 16))
				poly_blocks(p, p->buf, 16, 1);
			p->buflen = 0;
		}
	}
	if (len >= 16) {
		n = len & ~(size_t)15;
		used = poly_take_key(p, in, n);
		if (n - used)
			poly_blocks(p, in + used, n - used, 1);
		in += n;
		len -= n;
	}
	if (len) {
		memcpy(p->buf, in, len);
		p->buflen = (unsigned int)len;
	}
}

static void poly_final(struct kanchor_poly *p, u8 mac[16])
{
	if (p->buflen) {
		p->buf[p->buflen++] = 1;
		memset(p->buf + p->buflen, 0, 16 - p->buflen);
		poly_blocks(p, p->buf, 16, 0);
	}
	poly1305_emit_avx(p->state, mac, p->s);
	OPENSSL_cleanse(p, sizeof(*p));
}

/* The template's poly_setkey .. poly_ad: the one-time key, the AD, a pad. */
static void poly_begin(struct kanchor_poly *p, const struct kanchor_key *k,
		       const u8 *nonce, const u8 *ad, size_t ad_len)
{
	static const u8 zero[16];
	u8 otk[32] = { 0 };

	/* poly_genkey: 32 zero bytes encrypted with counter 0. */
	chacha_stream(k, 0, nonce, otk, otk, sizeof(otk), 0);
	memset(p, 0, sizeof(*p));
	p->avx512 = k->path == KANCHOR_CHACHA_AVX512;
	poly_update(p, otk, sizeof(otk));
	poly_update(p, ad, ad_len);
	poly_update(p, zero, -ad_len & 15);
	OPENSSL_cleanse(otk, sizeof(otk));
}

/* poly_cipherpad .. poly_tail, after the ciphertext. */
static void poly_end(struct kanchor_poly *p, size_t ad_len, size_t len,
		     u8 tag[16])
{
	static const u8 zero[16];
	u8 tail[16];
	int i;

	poly_update(p, zero, -len & 15);
	for (i = 0; i < 8; i++) {
		tail[i] = (u8)((u64)ad_len >> (8 * i));
		tail[8 + i] = (u8)((u64)len >> (8 * i));
	}
	poly_update(p, tail, sizeof(tail));
	poly_final(p, tag);
}

/*
 * The tag over the ciphertext @ct: the buffer in @d->seg-byte pieces, or
 * (@ct NULL) the list @d->sout when sealing, @d->sin when opening, page
 * by page as crypto_hash_walk gives it to poly1305_simd_update().
 */
static void chachapoly_tag(const struct kanchor_key *k, const u8 *nonce,
			   const u8 *ad, size_t ad_len, const u8 *ct,
			   const struct kanchor_data *d, bool seal, u8 tag[16])
{
	struct kanchor_poly p;
	size_t len = d->len, seg = d->seg;

	poly_begin(&p, k, nonce, ad, ad_len);
	if (!ct) {
		struct kwalk_pos pos = {
			.seg = seal ? d->sout : d->sin,
			.nseg = seal ? d->nout : d->nin,
		};
		const u8 *piece;
		size_t n;

		while ((n = khash_next(&pos, &len, &piece)))
			poly_update(&p, piece, n);
	} else {
		while (seg && len > seg) {
			poly_update(&p, ct, seg);
			ct += seg;
			len -= seg;
		}
		poly_update(&p, ct, len);
	}
	poly_end(&p, ad_len, d->len, tag);
}

/* The text: one buffer in @d->seg-byte pieces, or the walk over lists. */
static void chachapoly_text(const struct kanchor_key *k, const u8 *nonce,
			    const struct kanchor_data *d)
{
	if (d->sin)
		chacha_stream_sg(k, nonce, d);
	else
		chacha_stream(k, 1, nonce, d->out, d->in, d->len, d->seg);
}

static void chachapoly_seal(const struct kanchor_key *k, const u8 *nonce,
			    const u8 *ad, size_t ad_len,
			    const struct kanchor_data *d, u8 *tag)
{
	chachapoly_text(k, nonce, d);
	chachapoly_tag(k, nonce, ad, ad_len, d->sin ? NULL : d->out, d, true,
		       tag);
}

/* The template hashes first and decrypts only after the tags compare. */
static int chachapoly_open(const struct kanchor_key *k, const u8 *nonce,
			   const u8 *ad, size_t ad_len,
			   const struct kanchor_data *d, const u8 *tag)
{
	u8 want[16];

	chachapoly_tag(k, nonce, ad, ad_len, d->sin ? NULL : d->in, d, false,
		       want);
	if (CRYPTO_memcmp(want, tag, 16))
		return -1;
	chachapoly_text(k, nonce, d);
	return 0;
}

static void data_seal(const struct kanchor_key *k, const u8 *nonce,
		      const u8 *ad, size_t ad_len,
		      const struct kanchor_data *d, u8 *tag)
{
	if (is_gcm(k->alg))
		gcm_seal(k, nonce, ad, ad_len, d, tag);
	else
		chachapoly_seal(k, nonce, ad, ad_len, d, tag);
}

static int data_open(const struct kanchor_key *k, const u8 *nonce,
		     const u8 *ad, size_t ad_len,
		     const struct kanchor_data *d, const u8 *tag)
{
	if (is_gcm(k->alg))
		return gcm_open(k, nonce, ad, ad_len, d, tag);
	return chachapoly_open(k, nonce, ad, ad_len, d, tag);
}

void kanchor_seal(const struct kanchor_key *k, const u8 *nonce, const u8 *ad,
		  size_t ad_len, const u8 *in, u8 *out, size_t len, u8 *tag,
		  size_t seg)
{
	struct kanchor_data d = { .in = in, .out = out, .seg = seg,
				  .len = len };

	data_seal(k, nonce, ad, ad_len, &d, tag);
}

int kanchor_open(const struct kanchor_key *k, const u8 *nonce, const u8 *ad,
		 size_t ad_len, const u8 *in, u8 *out, size_t len,
		 const u8 *tag, size_t seg)
{
	struct kanchor_data d = { .in = in, .out = out, .seg = seg,
				  .len = len };

	return data_open(k, nonce, ad, ad_len, &d, tag);
}

/* Whether a list holds @len bytes: the walks read no further. */
static bool segs_hold(const struct tlsx_aead_seg *s, unsigned int n,
		      size_t len)
{
	size_t have = 0;

	while (n--)
		have += s++->len;
	return have >= len;
}

int kanchor_seal_sg(const struct kanchor_key *k, const u8 *nonce,
		    const u8 *ad, size_t ad_len,
		    const struct tlsx_aead_seg *in, unsigned int nin,
		    const struct tlsx_aead_seg *out, unsigned int nout,
		    size_t len, u8 *tag)
{
	struct kanchor_data d = { .sin = in, .nin = nin, .sout = out,
				  .nout = nout, .len = len };

	if (!in || !out || !segs_hold(in, nin, len) ||
	    !segs_hold(out, nout, len))
		return -EINVAL;
	data_seal(k, nonce, ad, ad_len, &d, tag);
	return 0;
}

int kanchor_open_sg(const struct kanchor_key *k, const u8 *nonce,
		    const u8 *ad, size_t ad_len,
		    const struct tlsx_aead_seg *in, unsigned int nin,
		    const struct tlsx_aead_seg *out, unsigned int nout,
		    size_t len, const u8 *tag)
{
	struct kanchor_data d = { .sin = in, .nin = nin, .sout = out,
				  .nout = nout, .len = len };

	if (!in || !out || !segs_hold(in, nin, len) ||
	    !segs_hold(out, nout, len))
		return -EINVAL;
	return data_open(k, nonce, ad, ad_len, &d, tag) ? -EBADMSG : 0;
}

/* --- the check against OpenSSL ------------------------------------------ */

#define CHECK_MAX	(16384 + 4096)

/*
 * Segment lists the check walks: a head, then pieces, each at an offset
 * in a page of its own (0 size: one segment).  A head and page-cache
 * pages into one buffer; TCP segments of one MSS; cuts of both lists
 * everywhere, most of them inside a block.
 */
static const struct check_layout {
	size_t head, size, off;		/* the input */
	size_t out_size, out_off;	/* the output */
} check_layouts[] = {
	{ 300, 4096, 0, 0, 0 },
	{ 0, 1448, 66, 0, 0 },
	{ 7, 33, 4080, 100, 4000 },
};

#define CHECK_SEGS	1024
#define CHECK_POOL	(CHECK_SEGS * 8192)

struct check_bufs {
	u8 *pt, *ct_ref, *ct, *back;	/* CHECK_MAX bytes each */
	u8 *pool_in, *pool_out;		/* CHECK_POOL, page-aligned */
	struct tlsx_aead_seg in[CHECK_SEGS], out[CHECK_SEGS];
};

/* @len bytes of @data (NULL: zeros) as a head and pieces in @pool. */
static unsigned int layout_build(struct tlsx_aead_seg *seg, u8 *pool,
				 const u8 *data, size_t len, size_t head,
				 size_t size, size_t off)
{
	size_t stride, done = 0;
	unsigned int i;

	if (!size) {
		head = len;
		size = 1;
	}
	stride = (off + (head > size ? head : size) + 4095) & ~(size_t)4095;
	for (i = 0; done < len && i < CHECK_SEGS; i++) {
		size_t c = i == 0 && head ? head : size;

		if (c > len - done)
			c = len - done;
		if ((size_t)(i + 1) * stride > CHECK_POOL)
			break;
		seg[i].data = pool + i * stride + off;
		seg[i].len = c;
		if (data)
			memcpy(seg[i].data, data + done, c);
		else
			memset(seg[i].data, 0, c);
		done += c;
	}
	return done == len ? i : 0;
}

static void layout_gather(u8 *dst, const struct tlsx_aead_seg *seg,
			  unsigned int n)
{
	while (n--) {
		memcpy(dst, seg->data, seg->len);
		dst += seg++->len;
	}
}

/* The record of check_one() in segment lists: seal, open, a forgery. */
static int check_sg(struct kanchor_key *k, struct check_bufs *b,
		    const struct check_layout *l, const u8 *nonce,
		    const u8 *ad, size_t ad_len, size_t len,
		    const u8 *tag_ref)
{
	unsigned int nin, nout;
	u8 tag[16];

	nin = layout_build(b->in, b->pool_in, b->pt, len, l->head, l->size,
			   l->off);
	nout = layout_build(b->out, b->pool_out, NULL, len, 0, l->out_size,
			    l->out_off);
	if (len && (!nin || !nout))
		return -1;
	if (kanchor_seal_sg(k, nonce, ad, ad_len, b->in, nin, b->out, nout,
			    len, tag))
		return -1;
	layout_gather(b->ct, b->out, nout);
	if (memcmp(b->ct, b->ct_ref, len) || memcmp(tag, tag_ref, 16))
		return -1;
	nin = layout_build(b->in, b->pool_in, b->ct_ref, len, l->head,
			   l->size, l->off);
	nout = layout_build(b->out, b->pool_out, NULL, len, 0, l->out_size,
			    l->out_off);
	if (kanchor_open_sg(k, nonce, ad, ad_len, b->in, nin, b->out, nout,
			    len, tag))
		return -1;
	layout_gather(b->back, b->out, nout);
	if (memcmp(b->back, b->pt, len))
		return -1;
	tag[(len + ad_len) % 16] ^= 0x20;	/* a forgery */
	return kanchor_open_sg(k, nonce, ad, ad_len, b->in, nin, b->out, nout,
			       len, tag) == -EBADMSG ? 0 : -1;
}

/* One record of @len bytes and @ad_len bytes of AD, whole and in pieces. */
static int check_one(struct kanchor_key *k, EVP_CIPHER_CTX *enc,
		     EVP_CIPHER_CTX *dec, size_t len, size_t ad_len,
		     struct check_bufs *b, unsigned long *cases)
{
	static const size_t segs[] = { 0, 64, 4096 };
	u8 *pt = b->pt, *ct_ref = b->ct_ref, *ct = b->ct, *back = b->back;
	u8 ad[64], nonce[12], tag_ref[16], tag[16];
	size_t i, s;

	for (i = 0; i < sizeof(ad); i++)
		ad[i] = (u8)(len * 3 + i * 29 + ad_len);
	for (i = 0; i < sizeof(nonce); i++)
		nonce[i] = (u8)(len + i * 101 + 7);
	for (i = 0; i < len; i++)
		pt[i] = (u8)(i * 197 + len);
	if (!aead_evp_seal(enc, k->alg, nonce, ad, ad_len, pt, len, ct_ref,
			   tag_ref))
		return -1;
	for (s = 0; s < sizeof(segs) / sizeof(*segs); s++) {
		memset(ct, 0, len);
		kanchor_seal(k, nonce, ad, ad_len, pt, ct, len, tag, segs[s]);
		if (memcmp(ct, ct_ref, len) || memcmp(tag, tag_ref, 16))
			goto bad;
		memset(back, 0, len);
		if (kanchor_open(k, nonce, ad, ad_len, ct, back, len, tag,
				 segs[s]) || memcmp(back, pt, len))
			goto bad;
		tag[(len + ad_len) % 16] ^= 0x20;	/* a forgery */
		if (!kanchor_open(k, nonce, ad, ad_len, ct, back, len, tag,
				  segs[s]))
			goto bad;
		(*cases)++;
	}
	for (s = 0; s < sizeof(check_layouts) / sizeof(*check_layouts); s++) {
		if (check_sg(k, b, &check_layouts[s], nonce, ad, ad_len, len,
			     tag_ref)) {
			fprintf(stderr,
				"kernel anchor: %s %s disagrees with OpenSSL: %zu B, AD %zu B, in lists %zu,%zu,%zu / %zu,%zu\n",
				tlsx_aead_alg_name(k->alg),
				kanchor_path_name(k->path), len, ad_len,
				check_layouts[s].head, check_layouts[s].size,
				check_layouts[s].off, check_layouts[s].out_size,
				check_layouts[s].out_off);
			return -1;
		}
		(*cases)++;
	}
	/* And OpenSSL opens what the kernel's code sealed. */
	if (!aead_evp_open(dec, k->alg, nonce, ad, ad_len, ct_ref, len, back,
			   tag_ref) || memcmp(back, pt, len))
		return -1;
	return 0;
bad:
	fprintf(stderr,
		"kernel anchor: %s %s disagrees with OpenSSL: %zu B, AD %zu B, pieces %zu\n",
		tlsx_aead_alg_name(k->alg), kanchor_path_name(k->path), len,
		ad_len, segs[s]);
	return -1;
}

int kanchor_check(unsigned long *cases)
{
	static const enum tlsx_aead_alg algs[] = {
		TLSX_AEAD_AES_128_GCM, TLSX_AEAD_AES_256_GCM,
		TLSX_AEAD_CHACHA20_POLY1305,
	};
	static const size_t big[] = { 511, 512, 513, 1023, 1024, 1025, 4095,
				      4096, 4097, 8191, 12288, 16383, 16384,
				      16385, 16384 + 4096 };
	static const size_t ads[] = { 0, 5, 13, 16, 17, 64 };
	EVP_CIPHER_CTX *enc = EVP_CIPHER_CTX_new(), *dec = EVP_CIPHER_CTX_new();
	struct check_bufs *b = calloc(1, sizeof(*b));
	u8 *buf = malloc(4 * CHECK_MAX);
	u8 key[32];
	size_t a, i, len, ad;
	int p, ret = -1;

	*cases = 0;
	if (!enc || !dec || !buf || !b)
		goto out;
	b->pt = buf;
	b->ct_ref = buf + CHECK_MAX;
	b->ct = buf + 2 * CHECK_MAX;
	b->back = buf + 3 * CHECK_MAX;
	b->pool_in = aligned_alloc(4096, CHECK_POOL);
	b->pool_out = aligned_alloc(4096, CHECK_POOL);
	if (!b->pool_in || !b->pool_out)
		goto out;
	for (a = 0; a < sizeof(algs) / sizeof(*algs); a++) {
		for (p = 0; p < KANCHOR_PATH_COUNT; p++) {
			struct kanchor_key *k;

			if (!kanchor_path_usable(algs[a], p))
				continue;
			for (i = 0; i < sizeof(key); i++)
				key[i] = (u8)(i * 37 + a * 11 + p + 1);
			k = kanchor_key_new(algs[a], p, key);
			if (!k || !aead_evp_setkey(enc, algs[a], key, true) ||
			    !aead_evp_setkey(dec, algs[a], key, false)) {
				kanchor_key_free(k);
				goto out;
			}
			for (ad = 0; ad < sizeof(ads) / sizeof(*ads); ad++) {
				for (len = 0; len <= 300; len++)
					if (check_one(k, enc, dec, len, ads[ad],
						      b, cases))
						goto fail;
				for (i = 0; i < sizeof(big) / sizeof(*big); i++)
					if (check_one(k, enc, dec, big[i],
						      ads[ad], b, cases))
						goto fail;
			}
			kanchor_key_free(k);
			continue;
fail:
			kanchor_key_free(k);
			goto out;
		}
	}
	ret = 0;
out:
	EVP_CIPHER_CTX_free(enc);
	EVP_CIPHER_CTX_free(dec);
	if (b) {
		free(b->pool_in);
		free(b->pool_out);
	}
	free(b);
	free(buf);
	return ret;
}
