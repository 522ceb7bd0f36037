/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha3.h - Keccak-f[1600] and the FIPS 202 functions ML-KEM needs:
 * SHA3-256, SHA3-512, SHAKE128 and SHAKE256 (incremental absorb, then
 * squeeze any number of times).
 *
 * Userspace only (ML-KEM, the handshake).  No secret-dependent branch or
 * index: hashing a seed or a key is constant-time.  _final() and
 * tlsx_shake_wipe() erase the state.
 */
#ifndef TLSX_SHA3_H
#define TLSX_SHA3_H

#include "aead/platform.h"

#define SHA3_256_DIGEST_SIZE	32
#define SHA3_512_DIGEST_SIZE	64
#define SHA3_256_RATE		136
#define SHA3_512_RATE		72
#define SHAKE128_RATE		168
#define SHAKE256_RATE		136

/*
 * One sponge: @pos is the next byte of the rate to absorb into or
 * squeeze from; @squeezing once padded.
 */
struct tlsx_keccak {
	u64 s[25];
	unsigned int rate;
	unsigned int pos;
	u8 dsbyte;		/* 0x06 SHA3, 0x1f SHAKE (FIPS 202 B.2) */
	bool squeezing;
};

/* Iota's round constants (FIPS 202 3.2.5), shared by every Keccak engine. */
extern const u64 tlsx_keccak_rc[24];

/* The permutation, 24 rounds (FIPS 202 3.3). */
void tlsx_keccak_f1600(u64 s[25]);

void tlsx_sha3_256(const void *data, size_t len, u8 out[SHA3_256_DIGEST_SIZE]);
void tlsx_sha3_512(const void *data, size_t len, u8 out[SHA3_512_DIGEST_SIZE]);

void tlsx_shake128_init(struct tlsx_keccak *k);
void tlsx_shake256_init(struct tlsx_keccak *k);
void tlsx_sha3_256_init(struct tlsx_keccak *k);
void tlsx_sha3_512_init(struct tlsx_keccak *k);
/* Absorb: only before the first squeeze / final. */
void tlsx_keccak_absorb(struct tlsx_keccak *k, const void *data, size_t len);
/* SHAKE: the next @len bytes of output (pads on the first call). */
void tlsx_shake_squeeze(struct tlsx_keccak *k, u8 *out, size_t len);
/* SHAKE: whole rate-sized blocks, the fast path for rejection sampling. */
void tlsx_shake_squeeze_blocks(struct tlsx_keccak *k, u8 *out,
			       size_t nblocks);
/* SHA3: the digest (rate-dependent length) and wipe. */
void tlsx_sha3_final(struct tlsx_keccak *k, u8 *out, size_t len);
void tlsx_keccak_wipe(struct tlsx_keccak *k);

/*
 * Four independent sponges on AVX2 (sha3_x4_avx2.c), for callers with
 * four inputs of one length: s[i][j] is lane i of sponge j.  Only when
 * tlsx_keccak_x4_usable() (the CPU has AVX2).
 */
struct tlsx_keccak_x4 {
	u64 s[25][4];
	unsigned int rate;
};

bool tlsx_keccak_x4_usable(void);
void tlsx_keccak_f1600_x4(u64 s[25][4]);
/*
 * SHAKE128 (@rate 168) or SHAKE256 (136) of in[j][0..@len), @len below
 * the rate: absorbed and padded; then whole blocks into out[j].
 */
void tlsx_shake_x4_absorb(struct tlsx_keccak_x4 *k, unsigned int rate,
			  const u8 *const in[4], size_t len);
void tlsx_shake_x4_squeeze_blocks(struct tlsx_keccak_x4 *k, u8 *const out[4],
				  size_t nblocks);

/* One-shot SHAKE. */
void tlsx_shake128(const void *data, size_t len, u8 *out, size_t outlen);
void tlsx_shake256(const void *data, size_t len, u8 *out, size_t outlen);

#endif /* TLSX_SHA3_H */
