// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_mlkem.c - libFuzzer target for what ML-KEM-768 takes from a peer
 * (X25519MLKEM768's shares):
 *
 *  - the input (zero-padded or cut to 1184 bytes) as an encapsulation
 *    key: tlsx_mlkem768_check_ek() accepts exactly the keys whose every
 *    12-bit value is below q (counted here the plain way), and Encaps
 *    refuses exactly what it refuses (a fuzzed ek has no dk: the round
 *    trip is the last point's);
 *  - the input (to 1088 bytes) as a ciphertext for a fixed key pair:
 *    Decaps on every NTT engine agrees, and equals FIPS 203's rule
 *    restated with a plain comparison: the re-encryption's key when the
 *    ciphertext re-encrypts to itself, else J(z || c);
 *  - Encaps to the fixed key with the input's first 32 bytes as m, then
 *    Decaps: the same key.
 */
#include <stdlib.h>
#include <string.h>

#include "hash/sha3.h"
#include "mlkem/mlkem.h"
#include "mlkem/mlkem_kpke.h"

static u8 fixed_ek[MLKEM768_EK_SIZE], fixed_dk[MLKEM768_DK_SIZE];

static void fixed_keys(void)
{
	static bool done;
	u8 d[32], z[32];

	if (done)
		return;
	memset(d, 0x30, sizeof(d));
	memset(z, 0x31, sizeof(z));
	tlsx_mlkem768_keygen_internal(fixed_ek, fixed_dk, d, z);
	done = true;
}

static void check_ek(const u8 *ek)
{
	u8 ct[MLKEM768_CT_SIZE], ss[32], m[32] = { 7 };
	bool reduced = true;
	int i, ret;

	for (i = 0; i < 3 * 256; i++) {
		const u8 *b = ek + 3 * (i / 2);
		unsigned int v = i % 2 ? (b[1] >> 4) | (b[2] << 4) :
				 b[0] | ((b[1] & 15) << 8);

		if (v >= 3329)
			reduced = false;
	}
	if ((tlsx_mlkem768_check_ek(ek) == 0) != reduced)
		abort();
	ret = tlsx_mlkem768_encaps_internal(ct, ss, ek, m);
	if ((ret == 0) != reduced)
		abort();
}

/* Decaps as FIPS 203 algorithm 18 says, with memcmp (public here). */
static void decaps_plain(u8 ss[32], const u8 *dk, const u8 *ct)
{
	u8 in[64], kr[64], ct2[MLKEM768_CT_SIZE];
	struct tlsx_keccak j;

	mlkem_kpke_decrypt(in, dk, ct);
	memcpy(in + 32, dk + MLKEM768_DK_SIZE - 64, 32);
	tlsx_sha3_512(in, sizeof(in), kr);
	mlkem_kpke_encrypt(ct2, dk + 1152, in, kr + 32);
	if (!memcmp(ct, ct2, sizeof(ct2))) {
		memcpy(ss, kr, 32);
		return;
	}
	tlsx_shake256_init(&j);
	tlsx_keccak_absorb(&j, dk + MLKEM768_DK_SIZE - 32, 32);
	tlsx_keccak_absorb(&j, ct, MLKEM768_CT_SIZE);
	tlsx_shake_squeeze(&j, ss, 32);
}

static void check_decaps(const u8 *ct)
{
	static const char *const engines[] = { "generic", "avx2" };
	u8 want[32], got[32];
	unsigned int e;

	decaps_plain(want, fixed_dk, ct);
	for (e = 0; e < 2; e++) {
		if (mlkem_engine_force(engines[e]))
			continue;
		tlsx_mlkem768_decaps(got, fixed_dk, ct);
		if (memcmp(got, want, 32))
			abort();
	}
}

static void check_round_trip(const u8 m[32])
{
	u8 ct[MLKEM768_CT_SIZE], ss[32], ss2[32];

	if (tlsx_mlkem768_encaps_internal(ct, ss, fixed_ek, m))
		abort();
	tlsx_mlkem768_decaps(ss2, fixed_dk, ct);
	if (memcmp(ss, ss2, 32))
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 buf[MLKEM768_EK_SIZE];
	size_t n = size < sizeof(buf) ? size : sizeof(buf);

	fixed_keys();
	memset(buf, 0, sizeof(buf));
	memcpy(buf, data, n);
	check_ek(buf);
	check_decaps(buf);
	check_round_trip(buf);
	return 0;
}
