/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aead.h - the record AEADs of tlsx: AES-128-GCM, AES-256-GCM,
 * ChaCha20-Poly1305 and AES-128-CCM (12-byte nonce, 16-byte tag).
 *
 * One header for tlsx.ko and for userspace.  The contract:
 *
 *  - A key is prepared once with tlsx_aead_setkey() (round keys, powers of
 *    H, ...) into caller-owned memory and wiped with tlsx_aead_wipe().
 *  - Nothing here allocates; there is no global state beyond the one-time
 *    choice of implementation.
 *  - Seal and open take a nonce, associated data, an input and an output
 *    of the same length (the same buffer is allowed: in place) and a
 *    separate 16-byte tag.
 *  - The _sg variants take lists of segments of any lengths (the pages of
 *    a record) and process them where they lie: only a block that
 *    straddles two segments is gathered into a small stack buffer.
 *  - Open compares the tag in constant time.  On mismatch it returns
 *    -EBADMSG and wipes the whole output, so no unauthenticated plaintext
 *    is released.
 *  - Secret-dependent data never selects a branch or a memory index.
 *  - In the kernel every SIMD section lies between kernel_fpu_begin() and
 *    kernel_fpu_end(), with preemption off, so its length is bounded: an
 *    operation of at most one record (TLSX_AEAD_SIMD_RECORD bytes of text)
 *    runs in one section, each contiguous run in one engine call, when its
 *    engine takes some 10 us or less for a whole record (aead.c,
 *    tlsx_run_section_max()); the section closes and reopens between two
 *    segments when the scheduler asks.  Longer operations, and slower
 *    engines, are cut into sections of at most TLSX_AEAD_SIMD_CHUNK bytes.
 *    Where the FPU is not usable in the calling context the portable code
 *    gives the same result.
 */
#ifndef TLSX_CRYPTO_AEAD_H
#define TLSX_CRYPTO_AEAD_H

#include "aead/platform.h"
#include "aead/gcm.h"
#include "aead/chachapoly.h"
#include "aead/ccm.h"

#define TLSX_AEAD_NONCE_LEN	12
#define TLSX_AEAD_TAG_LEN	16
/* Most bytes processed between two kernel_fpu_begin()/end() pairs ... */
#define TLSX_AEAD_SIMD_CHUNK	4096
/*
 * ... unless the operation is one record: at most 2^14 + 256 bytes, the
 * largest TLSCiphertext (RFC 8446 5.2), which bounds every record's text.
 */
#define TLSX_AEAD_SIMD_RECORD	(16384 + 256)

enum tlsx_aead_alg {
	TLSX_AEAD_AES_128_GCM = 1,
	TLSX_AEAD_AES_256_GCM,
	TLSX_AEAD_CHACHA20_POLY1305,
	TLSX_AEAD_AES_128_CCM,
};

/*
 * Implementations, by vector width.  For AES-GCM: portable C, AES-NI +
 * PCLMULQDQ (128-bit), VAES + VPCLMULQDQ on 256-bit vectors, and AVX-512.
 * For ChaCha20-Poly1305: portable C, SSSE3, AVX2, AVX-512 (with the best
 * Poly1305 the CPU has).  For AES-CCM: portable C and AES-NI (SSE) only;
 * the CBC-MAC chain, not the vector width, bounds it.  TLSX_IMPL_AUTO picks the fastest available one,
 * unless a forced choice was made (tlsx_aead_force_impl()).
 */
enum tlsx_aead_impl {
	TLSX_IMPL_AUTO = 0,
	TLSX_IMPL_GENERIC,
	TLSX_IMPL_SSE,
	TLSX_IMPL_AVX2,
	TLSX_IMPL_AVX512,
	TLSX_IMPL_COUNT
};

struct tlsx_aead_ops;

struct tlsx_aead_key {
	u32 alg;	/* enum tlsx_aead_alg */
	u32 impl;	/* enum tlsx_aead_impl actually used, never AUTO */
	/*
	 * The engine of @impl, looked up once by tlsx_aead_setkey() (in the
	 * padding before the 64-byte aligned union: it costs no space).
	 */
	const struct tlsx_aead_ops *ops;
	union {
		struct tlsx_gcm_key gcm;
		struct tlsx_chachapoly_key chachapoly;
		struct tlsx_ccm_key ccm;
	} u;
};

/* One piece of a scattered buffer. */
struct tlsx_aead_seg {
	u8 *data;
	size_t len;
};

/* "generic", "sse", "avx2", "avx512" ("auto" for TLSX_IMPL_AUTO). */
const char *tlsx_aead_impl_name(enum tlsx_aead_impl impl);
/* The impl named @name, or -EINVAL. */
int tlsx_aead_impl_parse(const char *name);
/* "aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-ccm". */
const char *tlsx_aead_alg_name(enum tlsx_aead_alg alg);
/* Key length in bytes for @alg, or 0 if @alg is unknown. */
size_t tlsx_aead_key_len(enum tlsx_aead_alg alg);

/* Can this CPU run @impl for @alg?  AUTO and GENERIC always can. */
bool tlsx_aead_impl_available(enum tlsx_aead_alg alg,
			      enum tlsx_aead_impl impl);

/*
 * tlsx_aead_force_impl() - make AUTO mean @impl from now on (for tests and
 * benchmarks); TLSX_IMPL_AUTO restores the automatic choice.  Userspace
 * programs also honour the TLSX_AEAD_IMPL environment variable; the module
 * has the aead_impl parameter.  An algorithm that lacks the forced impl on
 * this CPU falls back to its automatic choice.
 */
void tlsx_aead_force_impl(enum tlsx_aead_impl impl);

/*
 * tlsx_aead_setkey() - prepare @k for @alg with @key of @key_len bytes,
 * using @impl (AUTO: the best this CPU has).
 * Return: 0; -EINVAL for an unknown alg or a wrong key length;
 * -EOPNOTSUPP if this CPU cannot run @impl.  @k holds key material until
 * tlsx_aead_wipe().
 */
int tlsx_aead_setkey(struct tlsx_aead_key *k, enum tlsx_aead_alg alg,
		     enum tlsx_aead_impl impl, const u8 *key, size_t key_len);

/* tlsx_aead_wipe() - erase every byte of @k. */
void tlsx_aead_wipe(struct tlsx_aead_key *k);

/*
 * tlsx_aead_record_nonce() - a record's 12-byte nonce: the 64-bit
 * sequence number, big-endian, XORed into the last 8 bytes of the IV
 * (RFC 8446 section 5.3; RFC 7905 for ChaCha20-Poly1305 in TLS 1.2).  For
 * the module and the engine alike.  Two stores computed from the IV, not
 * a copy then a read-modify-write: the AEAD reads the nonce back at once,
 * and a load is forwarded from a store without waiting for the cache only
 * when it lies inside that one store (TLSX_GCM_J0()).
 */
static inline void tlsx_aead_record_nonce(u8 *nonce, const u8 *iv, u64 seq)
{
	memcpy(nonce, iv, 4);
	put_unaligned_be64(get_unaligned_be64(iv + 4) ^ seq, nonce + 4);
}

/*
 * tlsx_aead_seal() - encrypt @len bytes of @src into @dst (may equal @src)
 * and write the tag.  Return: 0, or -EINVAL if @k is not set up or @len
 * is more than the algorithm allows (AES-CCM: 2^24 - 1 bytes, its 3-byte
 * length field with a 12-byte nonce).
 */
int tlsx_aead_seal(const struct tlsx_aead_key *k, const u8 *nonce,
		   const u8 *ad, size_t ad_len, const u8 *src, u8 *dst,
		   size_t len, u8 *tag);

/*
 * tlsx_aead_open() - check @tag and decrypt @len bytes of @src into @dst
 * (may equal @src).  Return: 0; -EBADMSG when the tag does not match, with
 * @dst wiped; -EINVAL if @k is not set up.
 */
int tlsx_aead_open(const struct tlsx_aead_key *k, const u8 *nonce,
		   const u8 *ad, size_t ad_len, const u8 *src, u8 *dst,
		   size_t len, const u8 *tag);

/*
 * tlsx_aead_seal_sg() / tlsx_aead_open_sg() - the same over scattered
 * buffers.  @src and @dst each hold at least @len bytes in total; segments
 * may have any length, including zero.  In place is allowed when byte i of
 * the source and of the destination are at the same address.  Open wipes
 * the first @len bytes of @dst on failure.
 * Return: as for tlsx_aead_seal()/tlsx_aead_open(); -EINVAL also when the
 * segments hold fewer than @len bytes.
 */
int tlsx_aead_seal_sg(const struct tlsx_aead_key *k, const u8 *nonce,
		      const u8 *ad, size_t ad_len,
		      const struct tlsx_aead_seg *src, unsigned int nsrc,
		      const struct tlsx_aead_seg *dst, unsigned int ndst,
		      size_t len, u8 *tag);
int tlsx_aead_open_sg(const struct tlsx_aead_key *k, const u8 *nonce,
		      const u8 *ad, size_t ad_len,
		      const struct tlsx_aead_seg *src, unsigned int nsrc,
		      const struct tlsx_aead_seg *dst, unsigned int ndst,
		      size_t len, const u8 *tag);

/*
 * tlsx_aead_selftest() - known-answer tests of every implementation this
 * CPU has, in the calling context.  Return: 0 or -EIO (the module refuses
 * to load on -EIO).
 */
int tlsx_aead_selftest(void);

#endif /* TLSX_CRYPTO_AEAD_H */
