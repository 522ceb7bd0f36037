/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs_bench.h - the handshake primitives' benchmark: one table of
 * operations per primitive (a file hs_<primitive>.c each), timed by
 * primitives.c against OpenSSL in the same run, alternating.
 */
#ifndef TLSX_HS_BENCH_H
#define TLSX_HS_BENCH_H

#include <stddef.h>

/*
 * One operation.  setup() makes the state both sides use (keys, inputs)
 * and checks that they agree (e.g. tlsx's signature verifies with
 * OpenSSL), returning NULL on failure; tlsx() and openssl() do the
 * operation once and return 0 on success; bytes is the input size for
 * rows given per byte (hashes), 0 otherwise; target is the bound
 * on the ratio tlsx/OpenSSL (0: none); max_cycles a bound on tlsx's
 * TSC cycles per operation, printed with them (0: none).
 */
struct hs_bench_op {
	const char *name;
	size_t bytes;
	double target;
	void *(*setup)(void);
	int (*tlsx)(void *state);
	int (*openssl)(void *state);
	void (*teardown)(void *state);
	double max_cycles;
};

/*
 * The tables, each ended by an entry with a NULL name.  Weak, so that the
 * benchmark links while a primitive is missing; primitives.c skips a NULL
 * table.
 */
#ifndef __weak
#define __weak __attribute__((__weak__))
#endif
extern const struct hs_bench_op hs_bench_sha2[] __weak;
extern const struct hs_bench_op hs_bench_hkdf[] __weak;
extern const struct hs_bench_op hs_bench_x25519[] __weak;
extern const struct hs_bench_op hs_bench_p256[] __weak;
extern const struct hs_bench_op hs_bench_ed25519[] __weak;
extern const struct hs_bench_op hs_bench_rsa[] __weak;
/* ML-KEM-768: OpenSSL 3.0 has none; X25519 is the anchor (hs_mlkem.c). */
extern const struct hs_bench_op hs_bench_mlkem[] __weak;

#endif /* TLSX_HS_BENCH_H */
