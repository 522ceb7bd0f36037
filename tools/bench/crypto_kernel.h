/* SPDX-License-Identifier: GPL-2.0 */
/*
 * crypto_kernel.h - the kernel anchor of "tlsx-bench crypto": Linux
 * 6.12's own x86 AEAD assembly (build/ksrc/arch/x86/crypto, assembled at
 * build time, never part of tlsx.ko or libtlsx), driven as the kernel's
 * glue drives it for kTLS: "gcm(aes)" as gcm_crypt() calls the AES-GCM
 * functions, "rfc7539(chacha20,poly1305)" as the template composes the
 * chacha20-simd skcipher and the poly1305-simd hash.
 */
#ifndef TLSX_BENCH_CRYPTO_KERNEL_H
#define TLSX_BENCH_CRYPTO_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aead/aead.h"

/* The kernel's code paths, as its glue picks them by CPU feature. */
enum kanchor_path {
	KANCHOR_NONE = -1,
	KANCHOR_GCM_AVX10_512,	/* generic-gcm-vaes-avx10_512, prio 800 */
	KANCHOR_GCM_AVX10_256,	/* generic-gcm-vaes-avx10_256, prio 700 */
	KANCHOR_GCM_AESNI_AVX,	/* generic-gcm-aesni-avx, prio 500 */
	KANCHOR_GCM_AESNI,	/* generic-gcm-aesni, prio 400 */
	KANCHOR_CHACHA_AVX512,	/* chacha avx512vl, poly1305 avx512 */
	KANCHOR_CHACHA_AVX2,	/* chacha avx2, poly1305 avx2 */
	KANCHOR_PATH_COUNT,
};

struct kanchor_key;

const char *kanchor_path_name(enum kanchor_path p);
enum kanchor_path kanchor_path_parse(const char *name);
/* Whether @p is for @alg and this CPU runs it. */
bool kanchor_path_usable(enum tlsx_aead_alg alg, enum kanchor_path p);
/* The path 6.12 registers at the highest priority on this CPU. */
enum kanchor_path kanchor_best_path(enum tlsx_aead_alg alg);

struct kanchor_key *kanchor_key_new(enum tlsx_aead_alg alg,
				    enum kanchor_path p, const uint8_t *key);
void kanchor_key_free(struct kanchor_key *k);
enum kanchor_path kanchor_key_path(const struct kanchor_key *k);

/*
 * One record, out of place, 12-byte nonce, 16-byte tag.  @seg is the
 * length of the pieces the data comes in (0: one piece; else a multiple
 * of 64, e.g. 4096 for a record from the page cache): the kernel's walk
 * hands its code one piece at a time.  Open returns 0 or -1 (bad tag).
 */
void kanchor_seal(const struct kanchor_key *k, const uint8_t *nonce,
		  const uint8_t *ad, size_t ad_len, const uint8_t *in,
		  uint8_t *out, size_t len, uint8_t *tag, size_t seg);
int kanchor_open(const struct kanchor_key *k, const uint8_t *nonce,
		 const uint8_t *ad, size_t ad_len, const uint8_t *in,
		 uint8_t *out, size_t len, const uint8_t *tag, size_t seg);

/*
 * The same with the data in segment lists (as tlsx_aead_seal_sg() takes
 * them), walked as 6.12 walks a scatterlist (crypto_kernel_walk.h): cut
 * at every segment end and 4 KiB page boundary of either list.  0,
 * -EINVAL (a list shorter than @len) or, opening, -EBADMSG.
 */
int kanchor_seal_sg(const struct kanchor_key *k, const uint8_t *nonce,
		    const uint8_t *ad, size_t ad_len,
		    const struct tlsx_aead_seg *in, unsigned int nin,
		    const struct tlsx_aead_seg *out, unsigned int nout,
		    size_t len, uint8_t *tag);
int kanchor_open_sg(const struct kanchor_key *k, const uint8_t *nonce,
		    const uint8_t *ad, size_t ad_len,
		    const struct tlsx_aead_seg *in, unsigned int nin,
		    const struct tlsx_aead_seg *out, unsigned int nout,
		    size_t len, const uint8_t *tag);

/*
 * Every path this CPU runs against OpenSSL's EVP on many lengths of data
 * and AD, whole and in pieces, and a forged tag: 0, or -1 with the first
 * mismatch on stderr.  @cases counts the records compared.
 */
int kanchor_check(unsigned long *cases);

#endif
