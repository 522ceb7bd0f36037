/* SPDX-License-Identifier: GPL-2.0 */
/*
 * platform.h - the few things crypto code needs from its environment.
 *
 * Every file in userspace/crypto/ that is also built into tlsx.ko includes
 * this header instead of libc or kernel headers directly, so one source
 * compiles in both places.  It provides:
 *
 *  - the kernel's integer types (u8 .. u64) and size_t;
 *  - unaligned little/big-endian loads and stores;
 *  - memzero_explicit(), which the compiler may not elide;
 *  - CPU feature detection (struct tlsx_cpu);
 *  - tlsx_simd_begin()/tlsx_simd_end() bracketing every SIMD section.
 *    In the kernel these are kernel_fpu_begin()/end(); begin returns
 *    false when the FPU is not usable in the calling context (then the
 *    caller must take its portable path).  In userspace they do nothing.
 *    tlsx_simd_should_yield() tells a long section that the scheduler
 *    wants the CPU (need_resched()): it closes and reopens there.
 */
#ifndef TLSX_CRYPTO_PLATFORM_H
#define TLSX_CRYPTO_PLATFORM_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/string.h>
#include <linux/errno.h>
/* kmod/compat.h (on the module's include path): unaligned, CPU model. */
#include "compat.h"
#include <linux/compiler.h>
#include <linux/sched.h>
#include <asm/fpu/api.h>
#include <asm/cpufeature.h>

static inline bool tlsx_simd_begin(void)
{
	if (!irq_fpu_usable())
		return false;
	kernel_fpu_begin();
	return true;
}

static inline void tlsx_simd_end(void)
{
	kernel_fpu_end();
}

static inline bool tlsx_simd_should_yield(void)
{
	return need_resched();
}

#else /* userspace */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#ifndef __aligned
#define __aligned(x) __attribute__((__aligned__(x)))
#endif
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif
#ifndef __always_unused
#define __always_unused __attribute__((__unused__))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif
#ifndef EBADMSG
#define EBADMSG 74
#endif

/* A wipe the optimiser cannot drop, like the kernel's. */
static inline void memzero_explicit(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

static inline u16 get_unaligned_be16(const void *p)
{
	u16 v;

	memcpy(&v, p, 2);
	return __builtin_bswap16(v);
}

static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return v;
}

static inline u32 get_unaligned_be32(const void *p)
{
	return __builtin_bswap32(get_unaligned_le32(p));
}

static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return v;
}

static inline u64 get_unaligned_be64(const void *p)
{
	return __builtin_bswap64(get_unaligned_le64(p));
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	v = __builtin_bswap16(v);
	memcpy(p, &v, 2);
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	memcpy(p, &v, 4);
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	put_unaligned_le32(__builtin_bswap32(v), p);
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	memcpy(p, &v, 8);
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	put_unaligned_le64(__builtin_bswap64(v), p);
}

static inline bool tlsx_simd_begin(void)
{
	return true;
}

static inline void tlsx_simd_end(void)
{
}

static inline bool tlsx_simd_should_yield(void)
{
	return false;
}

#endif /* __KERNEL__ */

/*
 * A local the code writes before it reads: exempt it from the kernel's
 * -ftrivial-auto-var-init=zero, which would zero it at every call (a
 * stack wipe's whole area; a batch buffer; arrays of vectors, which it
 * would also keep in memory rather than in registers).
 */
#if __has_attribute(__uninitialized__)
#define TLSX_NOINIT	__attribute__((__uninitialized__))
#else
#define TLSX_NOINIT
#endif

/*
 * CPU features the crypto code dispatches on.  Each flag is set only when
 * the instruction set is present *and* the OS saves the register state it
 * needs (XCR0), so a path may rely on its flags alone.
 */
struct tlsx_cpu {
	bool ssse3;
	bool aesni;
	bool pclmul;
	bool avx;
	bool avx2;
	bool bmi2;
	bool adx;
	bool sha_ni;
	bool vaes;		/* VAES on 256-bit vectors (needs avx) */
	bool vpclmulqdq;	/* VPCLMULQDQ on 256-bit vectors */
	bool avx512f;
	bool avx512bw;
	bool avx512vl;
	bool avx512ifma;
	/*
	 * The CPU runs 512-bit code without a frequency penalty worth
	 * avoiding (set for AMD Zen 4 and later and for Intel from Ice Lake
	 * on; clear for Skylake-X class parts).  In the kernel this is the
	 * negation of X86_FEATURE_PREFER_YMM.
	 */
	bool zmm_ok;
	/*
	 * 512-bit operations run as two 256-bit halves (AMD family 0x19,
	 * Zen 4): code bound by vector throughput may prefer ymm there.
	 */
	bool zmm_split;
};

/*
 * tlsx_cpu_features() - the features of this CPU, detected once.
 * Returns a pointer to a structure that lives for the program (or module).
 */
const struct tlsx_cpu *tlsx_cpu_features(void);

#endif /* TLSX_CRYPTO_PLATFORM_H */
