// SPDX-License-Identifier: GPL-2.0
/*
 * cpu.c - CPU feature detection for the crypto dispatchers.
 *
 * In the kernel the answers come from the boot CPU's feature flags, which
 * already account for what the kernel saves in XSAVE.  In userspace we ask
 * CPUID and check XCR0 ourselves: an instruction set is only usable when
 * the OS preserves the registers it writes.
 */
#include "aead/platform.h"

#ifdef __KERNEL__

#include <asm/fpu/xstate.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/processor.h>

/*
 * Skylake-SP class parts lose clock speed on sustained 512-bit work.
 * Later kernels flag them X86_FEATURE_PREFER_YMM; 6.12 does not, so ask
 * the model directly there.
 */
static bool tlsx_zmm_penalty(void)
{
#ifdef X86_FEATURE_PREFER_YMM
	return boot_cpu_has(X86_FEATURE_PREFER_YMM);
#else
	return tlsx_cpu_is_skylake_x();
#endif
}

static struct tlsx_cpu tlsx_cpu_cache;
static bool tlsx_cpu_done;

const struct tlsx_cpu *tlsx_cpu_features(void)
{
	struct tlsx_cpu *c = &tlsx_cpu_cache;
	bool ymm, zmm;

	if (READ_ONCE(tlsx_cpu_done))
		return c;

	ymm = cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
	zmm = cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
				XFEATURE_MASK_AVX512, NULL);

	c->ssse3 = boot_cpu_has(X86_FEATURE_SSSE3);
	c->aesni = boot_cpu_has(X86_FEATURE_AES);
	c->pclmul = boot_cpu_has(X86_FEATURE_PCLMULQDQ);
	c->avx = ymm && boot_cpu_has(X86_FEATURE_AVX);
	c->avx2 = c->avx && boot_cpu_has(X86_FEATURE_AVX2);
	c->bmi2 = boot_cpu_has(X86_FEATURE_BMI2);
	c->adx = boot_cpu_has(X86_FEATURE_ADX);
	c->sha_ni = boot_cpu_has(X86_FEATURE_SHA_NI);
	c->vaes = c->avx && boot_cpu_has(X86_FEATURE_VAES);
	c->vpclmulqdq = c->avx && boot_cpu_has(X86_FEATURE_VPCLMULQDQ);
	c->avx512f = zmm && boot_cpu_has(X86_FEATURE_AVX512F);
	c->avx512bw = c->avx512f && boot_cpu_has(X86_FEATURE_AVX512BW);
	c->avx512vl = c->avx512f && boot_cpu_has(X86_FEATURE_AVX512VL);
	c->avx512ifma = c->avx512f && boot_cpu_has(X86_FEATURE_AVX512IFMA);
	c->zmm_ok = c->avx512f && !tlsx_zmm_penalty();
	c->zmm_split = c->avx512f &&
		       boot_cpu_data.x86_vendor == X86_VENDOR_AMD &&
		       boot_cpu_data.x86 == 0x19;
	WRITE_ONCE(tlsx_cpu_done, true);
	return c;
}

#else /* userspace */

#include <cpuid.h>

static u64 tlsx_xgetbv0(void)
{
	u32 lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((u64)hi << 32) | lo;
}

/*
 * Skylake-SP/Cascade Lake/Cooper Lake (family 6, models 0x55) lose clock
 * speed on sustained 512-bit work; everything later with AVX-512 (Ice
 * Lake, Sapphire Rapids, AMD Zen 4/5) does not, or barely.
 */
static bool tlsx_zmm_penalty(u32 vendor_ebx, u32 family, u32 model)
{
	const u32 genu = 0x756e6547;	/* "Genu" of GenuineIntel */

	return vendor_ebx == genu && family == 6 && model == 0x55;
}

static void tlsx_cpu_detect(struct tlsx_cpu *c)
{
	u32 a = 0, b, cx, d, max, vendor, family, model;
	u32 ecx1 = 0, ebx7 = 0, ecx7 = 0;
	bool osxsave, ymm = false, zmm = false;

	memset(c, 0, sizeof(*c));
	if (!__get_cpuid(0, &max, &vendor, &cx, &d))
		return;
	__get_cpuid(1, &a, &b, &ecx1, &d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 6 || family == 15)
		model |= ((a >> 16) & 0xf) << 4;
	if (family == 15)
		family += (a >> 20) & 0xff;
	if (max >= 7)
		__cpuid_count(7, 0, a, ebx7, ecx7, d);

	osxsave = ecx1 & (1u << 27);
	if (osxsave) {
		u64 xcr0 = tlsx_xgetbv0();

		ymm = (xcr0 & 0x6) == 0x6;
		zmm = ymm && (xcr0 & 0xe0) == 0xe0;
	}

	c->ssse3 = ecx1 & (1u << 9);
	c->aesni = ecx1 & (1u << 25);
	c->pclmul = ecx1 & (1u << 1);
	c->avx = ymm && (ecx1 & (1u << 28));
	c->avx2 = c->avx && (ebx7 & (1u << 5));
	c->bmi2 = ebx7 & (1u << 8);
	c->adx = ebx7 & (1u << 19);
	c->sha_ni = ebx7 & (1u << 29);
	c->vaes = c->avx && (ecx7 & (1u << 9));
	c->vpclmulqdq = c->avx && (ecx7 & (1u << 10));
	c->avx512f = zmm && (ebx7 & (1u << 16));
	c->avx512bw = c->avx512f && (ebx7 & (1u << 30));
	c->avx512vl = c->avx512f && (ebx7 & (1u << 31));
	c->avx512ifma = c->avx512f && (ebx7 & (1u << 21));
	c->zmm_ok = c->avx512f && !tlsx_zmm_penalty(vendor, family, model);
	/* "Auth" of AuthenticAMD; family 0x19 with AVX-512 is Zen 4. */
	c->zmm_split = c->avx512f && vendor == 0x68747541 && family == 0x19;
}

/* Declared here rather than through <stdlib.h>: see platform.h. */
extern char *getenv(const char *name);

#define TLSX_CPU_FLAG(f)	{ #f, offsetof(struct tlsx_cpu, f) }

static const struct {
	const char *name;
	size_t off;
} tlsx_cpu_flags[] = {
	TLSX_CPU_FLAG(ssse3), TLSX_CPU_FLAG(aesni), TLSX_CPU_FLAG(pclmul),
	TLSX_CPU_FLAG(avx), TLSX_CPU_FLAG(avx2), TLSX_CPU_FLAG(bmi2),
	TLSX_CPU_FLAG(adx), TLSX_CPU_FLAG(sha_ni), TLSX_CPU_FLAG(vaes),
	TLSX_CPU_FLAG(vpclmulqdq), TLSX_CPU_FLAG(avx512f),
	TLSX_CPU_FLAG(avx512bw), TLSX_CPU_FLAG(avx512vl),
	TLSX_CPU_FLAG(avx512ifma),
};

/* Clear the feature named by the @len bytes at @name, if there is one. */
static void tlsx_cpu_hide(struct tlsx_cpu *c, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tlsx_cpu_flags); i++) {
		const char *f = tlsx_cpu_flags[i].name;

		if (!strncmp(f, name, len) && !f[len])
			*(bool *)((u8 *)c + tlsx_cpu_flags[i].off) = false;
	}
}

/*
 * TLSX_CPU_MASK: features to treat as absent, comma-separated (names as
 * in struct tlsx_cpu, e.g. "avx" or "avx512f,vaes"), like OpenSSL's
 * OPENSSL_ia32cap.  It lets the code paths of older CPUs run, and be
 * tested, on a newer one.  What depends on a hidden feature goes with it.
 */
static void tlsx_cpu_mask(struct tlsx_cpu *c, const char *mask)
{
	size_t n;

	for (; mask && *mask; mask += n + (mask[n] == ',')) {
		for (n = 0; mask[n] && mask[n] != ','; n++)
			;
		tlsx_cpu_hide(c, mask, n);
	}
	c->avx2 &= c->avx;
	c->vaes &= c->avx;
	c->vpclmulqdq &= c->avx;
	c->avx512f &= c->avx;
	c->avx512bw &= c->avx512f;
	c->avx512vl &= c->avx512f;
	c->avx512ifma &= c->avx512f;
	c->zmm_ok &= c->avx512f;
	c->zmm_split &= c->avx512f;
}

const struct tlsx_cpu *tlsx_cpu_features(void)
{
	static struct tlsx_cpu cache;
	static int done;

	if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		struct tlsx_cpu c;

		tlsx_cpu_detect(&c);
		tlsx_cpu_mask(&c, getenv("TLSX_CPU_MASK"));
		cache = c;
		__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	}
	return &cache;
}

#endif /* __KERNEL__ */
