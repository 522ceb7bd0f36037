// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx-bench uarch - latency and throughput of the instructions that bound
 * AES-GCM on this CPU: VAES (vaesenc) and VPCLMULQDQ on zmm, ymm and xmm,
 * both mixed, and a one-cycle reference (a chain of scalar adds) that
 * turns TSC cycles into core cycles.  The figures of the bound in
 * docs/perf-crypto.md come from here.
 *
 * Each case is a loop of inline assembly: a latency case is one chain of
 * dependent instructions, a throughput case twelve independent chains
 * (more than latency x units on any x86 core), 120 instructions per loop
 * iteration.  Timed by rdtsc; the minimum over the rounds is the figure
 * (a microbenchmark's time only grows with interference), the median is
 * printed beside it to show the noise.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define UARCH_ITERS	2000		/* loop iterations per sample */
#define UARCH_PER_ITER	120		/* instructions per iteration */
#define UARCH_MAX_ROUNDS 10000

#define UARCH_TARGET __attribute__((target("avx512f,vaes,vpclmulqdq")))

/* INSN on chain register R ("0".."11"), with the key in register 15. */
#define ON(insn, w, r)	"\t" insn " %%" w "15, %%" w r ", %%" w r "\n"
/* Twelve independent chains, instruction Ii on register i. */
#define CHAINS(w, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11)	\
	ON(i0, w, "0") ON(i1, w, "1") ON(i2, w, "2") ON(i3, w, "3")	\
	ON(i4, w, "4") ON(i5, w, "5") ON(i6, w, "6") ON(i7, w, "7")	\
	ON(i8, w, "8") ON(i9, w, "9") ON(i10, w, "10") ON(i11, w, "11")

#define AES	"vaesenc"
#define CLMUL	"vpclmulqdq $0x11,"
#define XOR	"vpxord"

/* Twelve chains of INSN. */
#define CHAINS12(insn, w)						\
	CHAINS(w, insn, insn, insn, insn, insn, insn, insn, insn, insn,	\
	       insn, insn, insn)
/* Six VAES and six VPCLMULQDQ chains, interleaved. */
#define MIXED12(w)							\
	CHAINS(w, AES, CLMUL, AES, CLMUL, AES, CLMUL, AES, CLMUL, AES,	\
	       CLMUL, AES, CLMUL)
/* Nine VAES and three VPCLMULQDQ chains (AES-128's mix, about 10:3). */
#define MIXED93(w)							\
	CHAINS(w, AES, AES, AES, CLMUL, AES, AES, AES, CLMUL, AES, AES,	\
	       AES, CLMUL)
/* Six VAES and six VPXORD chains: do plain vector ops take the AES pipes? */
#define MIX_AES_XOR(w)							\
	CHAINS(w, AES, XOR, AES, XOR, AES, XOR, AES, XOR, AES, XOR, AES,	\
	       XOR)
/* Five VAES, two VPCLMULQDQ, five VPXORD: near an AES-128-GCM batch's mix */
#define MIX_GCM(w)							\
	CHAINS(w, AES, XOR, AES, CLMUL, AES, XOR, AES, XOR, CLMUL, AES,	\
	       XOR, XOR)

#define CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
	"xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm15", "cc"

/* Zero the chains' registers (a VEX xmm write clears the whole zmm). */
#define UARCH_PROLOGUE							\
	"vpxor %%xmm0, %%xmm0, %%xmm0\n\t"				\
	"vpxor %%xmm1, %%xmm1, %%xmm1\n\t"				\
	"vmovdqa %%xmm0, %%xmm2\n\tvmovdqa %%xmm0, %%xmm3\n\t"		\
	"vmovdqa %%xmm0, %%xmm4\n\tvmovdqa %%xmm0, %%xmm5\n\t"		\
	"vmovdqa %%xmm0, %%xmm6\n\tvmovdqa %%xmm0, %%xmm7\n\t"		\
	"vmovdqa %%xmm0, %%xmm8\n\tvmovdqa %%xmm0, %%xmm9\n\t"		\
	"vmovdqa %%xmm0, %%xmm10\n\tvmovdqa %%xmm0, %%xmm11\n\t"	\
	"vpcmpeqd %%xmm15, %%xmm15, %%xmm15\n\t"

/* Ten of twelve independent chains: 120 instructions. */
#define THRU(insn, w)	".rept 10\n\t" CHAINS12(insn, w) ".endr\n\t"
/* One chain of 120. */
#define LAT(insn, w)	".rept 120\n\t" insn " %%" w "15, %%" w "0, %%" \
			w "0\n\t.endr\n\t"

/* A loop of @body (UARCH_PER_ITER instructions) @n times. */
#define UARCH_FN(name, body)						\
static UARCH_TARGET void name(unsigned long n)				\
{									\
	__asm__ volatile(UARCH_PROLOGUE "1:\n\t" body			\
			 "dec %0\n\tjnz 1b\n\tvzeroupper\n\t"		\
			 : "+r"(n) : : CLOBBERS);			\
}

UARCH_FN(vaes_zmm_lat, LAT("vaesenc", "zmm"))
UARCH_FN(vaes_zmm_thr, THRU("vaesenc", "zmm"))
UARCH_FN(vaes_ymm_lat, LAT("vaesenc", "ymm"))
UARCH_FN(vaes_ymm_thr, THRU("vaesenc", "ymm"))
UARCH_FN(aes_xmm_lat, LAT("vaesenc", "xmm"))
UARCH_FN(aes_xmm_thr, THRU("vaesenc", "xmm"))
UARCH_FN(clmul_zmm_lat, LAT("vpclmulqdq $0x11,", "zmm"))
UARCH_FN(clmul_zmm_thr, THRU("vpclmulqdq $0x11,", "zmm"))
UARCH_FN(clmul_ymm_lat, LAT("vpclmulqdq $0x11,", "ymm"))
UARCH_FN(clmul_ymm_thr, THRU("vpclmulqdq $0x11,", "ymm"))
UARCH_FN(clmul_xmm_lat, LAT("vpclmulqdq $0x11,", "xmm"))
UARCH_FN(clmul_xmm_thr, THRU("vpclmulqdq $0x11,", "xmm"))
UARCH_FN(mixed_zmm_thr, ".rept 10\n\t" MIXED12("zmm") ".endr\n\t")
UARCH_FN(mixed93_zmm_thr, ".rept 10\n\t" MIXED93("zmm") ".endr\n\t")
UARCH_FN(mix_aes_xor_thr, ".rept 10\n\t" MIX_AES_XOR("zmm") ".endr\n\t")
UARCH_FN(mix_gcm_thr, ".rept 10\n\t" MIX_GCM("zmm") ".endr\n\t")
UARCH_FN(xor_zmm_thr, THRU("vpxord", "zmm"))
UARCH_FN(xor3_zmm_thr, THRU("vpternlogq $0x96,", "zmm"))
UARCH_FN(shuf_zmm_thr, THRU("vpshufb", "zmm"))

/* The reference: 120 dependent one-cycle adds per iteration. */
static void add_lat(unsigned long n)
{
	unsigned long x = 0;

	__asm__ volatile("1:\n\t"
			 ".rept 120\n\tadd $1, %1\n\t.endr\n\t"
			 "dec %0\n\t"
			 "jnz 1b\n\t"
			 : "+r"(n), "+r"(x) : : "cc");
}

struct uarch_case {
	const char *name;
	const char *what;
	void (*fn)(unsigned long n);
};

static const struct uarch_case uarch_cases[] = {
	{ "add", "latency (reference, 1 core cycle)", add_lat },
	{ "vaesenc zmm", "latency", vaes_zmm_lat },
	{ "vaesenc zmm", "throughput, 12 chains", vaes_zmm_thr },
	{ "vaesenc ymm", "latency", vaes_ymm_lat },
	{ "vaesenc ymm", "throughput, 12 chains", vaes_ymm_thr },
	{ "vaesenc xmm", "latency", aes_xmm_lat },
	{ "vaesenc xmm", "throughput, 12 chains", aes_xmm_thr },
	{ "vpclmulqdq zmm", "latency", clmul_zmm_lat },
	{ "vpclmulqdq zmm", "throughput, 12 chains", clmul_zmm_thr },
	{ "vpclmulqdq ymm", "latency", clmul_ymm_lat },
	{ "vpclmulqdq ymm", "throughput, 12 chains", clmul_ymm_thr },
	{ "vpclmulqdq xmm", "latency", clmul_xmm_lat },
	{ "vpclmulqdq xmm", "throughput, 12 chains", clmul_xmm_thr },
	{ "vaesenc+vpclmulqdq zmm", "throughput, 6+6 chains", mixed_zmm_thr },
	{ "vaesenc+vpclmulqdq zmm", "throughput, 9+3 chains", mixed93_zmm_thr },
	{ "vaesenc+vpxord zmm", "throughput, 6+6 chains", mix_aes_xor_thr },
	{ "vaesenc+vpclmulqdq+vpxord", "throughput, 5+2+5 chains", mix_gcm_thr },
	{ "vpxord zmm", "throughput, 12 chains", xor_zmm_thr },
	{ "vpternlogq zmm", "throughput, 12 chains", xor3_zmm_thr },
	{ "vpshufb zmm", "throughput, 12 chains", shuf_zmm_thr },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define N_CASES ARRAY_SIZE(uarch_cases)

void bench_uarch_usage(void)
{
	fprintf(stderr,
		"Usage: tlsx-bench uarch [--rounds N] [--cpu N]\n"
		"  VAES and VPCLMULQDQ latency and throughput (zmm, ymm, xmm)\n"
		"  in TSC cycles per instruction and in core cycles (against\n"
		"  a chain of one-cycle adds); minimum and median of N rounds\n"
		"  --rounds N   samples per case, cases alternating (201)\n"
		"  --cpu N      pin to CPU N\n");
}

static bool uarch_cpu_ok(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("vaes") &&
	       __builtin_cpu_supports("vpclmulqdq");
}

int bench_uarch(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "cpu", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	double *samples, per, ref = 0, tsc_ns;
	int c, rounds = 201, r;
	struct bench_stats st;
	size_t i;

	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (bench_opt_int(optarg, 1, UARCH_MAX_ROUNDS, &rounds))
				goto bad;
			break;
		case 'p':
			r = bench_opt_pin_cpu(optarg);
			if (r == -1)
				goto bad;
			if (r)
				return 1;
			break;
		default:
			return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "tlsx-bench uarch: unexpected argument '%s'\n",
			argv[optind]);
		return 2;
	}
	if (!uarch_cpu_ok()) {
		fprintf(stderr, "tlsx-bench uarch: needs AVX-512F, VAES and VPCLMULQDQ\n");
		return 1;
	}
	samples = calloc((size_t)rounds * N_CASES, sizeof(*samples));
	if (!samples) {
		perror("calloc");
		return 1;
	}
	tsc_ns = bench_tsc_per_ns();
	/* Every case once per round, so load hits all of them alike. */
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < N_CASES; i++) {
			uint64_t t0 = bench_rdtsc();

			uarch_cases[i].fn(UARCH_ITERS);
			samples[i * rounds + r] = (double)(bench_rdtsc() - t0) /
				(UARCH_ITERS * UARCH_PER_ITER);
		}
	}
	printf("# tlsx-bench uarch: TSC %.3f GHz, %d rounds of %d instructions per case\n",
	       tsc_ns, rounds, UARCH_ITERS * UARCH_PER_ITER);
	printf("# TSC cycles per instruction, min [median]; core cycles = TSC / (add's TSC)\n");
	printf("%-24s %-36s %14s %8s\n", "instruction", "what", "TSC min [med]",
	       "core");
	for (i = 0; i < N_CASES; i++) {
		st = bench_summarize(samples + i * rounds, (size_t)rounds);
		per = st.min;
		if (i == 0)
			ref = per;
		printf("%-24s %-36s %6.3f [%5.3f] %8.2f\n", uarch_cases[i].name,
		       uarch_cases[i].what, per, st.median, per / ref);
	}
	printf("# core clock about %.2f GHz while the adds ran\n", tsc_ns / ref);
	free(samples);
	return 0;
bad:
	bench_opt_bad("uarch", lopts, c, optarg);
	return 2;
}
