// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_class.c - which AEAD code each ULP of "tlsx-bench kmod" runs, and
 * tlsx.ko forced to the class of the kernel's.  The kernel's tls asks
 * the crypto API for its algorithm ("gcm(aes)", ...) and gets the driver
 * of the highest priority, listed in /proc/crypto once instantiated;
 * tlsx.ko picks its own engine (module parameter aead_impl, "auto" by
 * default).  Under TCG the guest has AES-NI, AVX2 and VAES but neither
 * AVX-512 nor VPCLMULQDQ, so tls gets its 128-bit AES-NI/AVX GCM while
 * tlsx runs its 256-bit VAES one: the ratio then mixes the record path
 * with the AEAD.  Forcing tlsx to the class of tls's driver (aead_impl
 * for new keys, each transfer keys fresh sockets) leaves the record
 * path alone in the ratio (docs/perf-kmod.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmod.h"

#define AEAD_IMPL_PARAM "/sys/module/tlsx/parameters/aead_impl"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The crypto API's name of the algorithm kTLS asks for with @type. */
const char *kmod_class_alg(unsigned short type)
{
	switch (type) {
	case 51:	/* TLS_CIPHER_AES_GCM_128 */
	case 52:	/* TLS_CIPHER_AES_GCM_256 */
		return "gcm(aes)";
	case 53:	/* TLS_CIPHER_AES_CCM_128 */
		return "ccm(aes)";
	case 54:	/* TLS_CIPHER_CHACHA20_POLY1305 */
		return "rfc7539(chacha20,poly1305)";
	}
	return NULL;
}

/* The value after "name : " on a /proc/crypto line, trimmed. */
static const char *field(char *line, const char *name)
{
	size_t n = strlen(name);
	char *v, *end;

	if (strncmp(line, name, n) || (line[n] != ' ' && line[n] != ':'))
		return NULL;
	v = strchr(line + n, ':');
	if (!v)
		return NULL;
	for (v++; *v == ' '; v++)
		;
	end = v + strlen(v);
	while (end > v && (end[-1] == '\n' || end[-1] == ' '))
		*--end = 0;
	return v;
}

int kmod_class_driver(const char *alg, char *driver, size_t len, int *prio)
{
	char line[256], name[128] = "", drv[128] = "";
	FILE *f = fopen("/proc/crypto", "r");
	int p = -1, best = -1;
	const char *v;

	if (!f)
		return -errno;
	/* Blocks of "key : value" lines, a blank line after each. */
	while (fgets(line, sizeof(line), f)) {
		v = field(line, "name");
		if (v) {
			snprintf(name, sizeof(name), "%s", v);
			continue;
		}
		v = field(line, "driver");
		if (v) {
			snprintf(drv, sizeof(drv), "%s", v);
			continue;
		}
		v = field(line, "priority");
		if (v) {
			p = atoi(v);
			continue;
		}
		if (line[0] == '\n') {
			if (!strcmp(name, alg) && p > best) {
				best = p;
				snprintf(driver, len, "%s", drv);
			}
			name[0] = drv[0] = 0;
			p = -1;
		}
	}
	if (!strcmp(name, alg) && p > best) {
		best = p;
		snprintf(driver, len, "%s", drv);
	}
	fclose(f);
	*prio = best;
	return best < 0 ? -ENOENT : 0;
}

/* Does /proc/cpuinfo's first "flags" line list @flag? */
static int cpu_has(const char *flag)
{
	char line[4096], *tok, *save;
	FILE *f = fopen("/proc/cpuinfo", "r");
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, flag))
				found = 1;
		break;
	}
	fclose(f);
	return found;
}

/*
 * tlsx's aead_impl of the same instruction class as the kernel's
 * @driver, or NULL when there is none to name.  GCM: the VAES drivers
 * of 512 and 256 bits (6.12's avx10_512, avx10_256 and vaes_avx2 names)
 * against tlsx's avx512 and avx2 engines, AES-NI of 128 bits (6.1's
 * generic-gcm-aesni, which picks AVX or AVX2 forms of 128-bit code
 * inside, and 6.12's aesni and aesni_avx) against tlsx's sse engine
 * (VEX-encoded where the CPU has AVX).  ChaCha20-Poly1305 and CCM: the
 * kernel's SIMD drivers pick their width from the CPU flags inside, as
 * tlsx does; the generic drivers are plain C on both sides.
 */
const char *kmod_class_of(const char *driver)
{
	if (strstr(driver, "avx10_512") || strstr(driver, "avx512"))
		return "avx512";
	if (strstr(driver, "avx10_256") || strstr(driver, "vaes"))
		return "avx2";
	if (strstr(driver, "gcm") && strstr(driver, "aesni"))
		return "sse";
	if (strstr(driver, "chacha20-simd")) {
		if (cpu_has("avx512vl"))
			return "avx512";
		return cpu_has("avx2") ? "avx2" : "sse";
	}
	if (strstr(driver, "aesni"))
		return "sse";
	if (strstr(driver, "generic"))
		return "generic";
	return NULL;
}

int kmod_class_impl_get(char *buf, size_t len)
{
	FILE *f = fopen(AEAD_IMPL_PARAM, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		err = -EIO;
	else
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
	return err;
}

int kmod_class_impl_set(const char *impl)
{
	FILE *f = fopen(AEAD_IMPL_PARAM, "w");
	int err;

	if (!f)
		return -errno;
	err = fprintf(f, "%s\n", impl) < 0;
	if (fclose(f) || err)
		return -EIO;
	return 0;
}

void kmod_class_print_cpu(void)
{
	static const char *const flags[] = {
		"aes", "pclmulqdq", "avx", "avx2", "vaes", "vpclmulqdq",
		"avx512f", "avx512vl",
	};
	size_t i;

	printf("guest CPU:");
	for (i = 0; i < ARRAY_SIZE(flags); i++)
		printf(" %s%s", cpu_has(flags[i]) ? "" : "no-", flags[i]);
	printf("\n");
}
