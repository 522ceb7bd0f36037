// SPDX-License-Identifier: GPL-2.0
/*
 * aead_glue.c - the module's side of the AEAD engines: the aead_impl
 * parameter and the known-answer self-test at load time.
 *
 * Unlike the kernel's kTLS, tlsx does not go through the crypto API: the
 * record layer calls the engines of userspace/crypto/ directly on the
 * record's pages, synchronously, with no scatterlists and no async
 * completion.  The engines bracket their SIMD work in kernel_fpu_begin()
 * and kernel_fpu_end() themselves and fall back to portable code where
 * the FPU is not usable.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "aead/aead.h"
#include "tlsx_aead.h"

static int tlsx_param_set_impl(const char *val, const struct kernel_param *kp)
{
	char name[16];
	int impl;

	strscpy(name, val, sizeof(name));
	strim(name);
	impl = tlsx_aead_impl_parse(name);
	if (impl < 0)
		return -EINVAL;
	*(int *)kp->arg = impl;
	tlsx_aead_force_impl(impl);
	return 0;
}

static int tlsx_param_get_impl(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", tlsx_aead_impl_name(*(int *)kp->arg));
}

static const struct kernel_param_ops tlsx_impl_param_ops = {
	.set = tlsx_param_set_impl,
	.get = tlsx_param_get_impl,
};

static int tlsx_aead_impl_param = TLSX_IMPL_AUTO;
module_param_cb(aead_impl, &tlsx_impl_param_ops, &tlsx_aead_impl_param, 0644);
MODULE_PARM_DESC(aead_impl,
		 "AEAD implementation for new keys: auto (default), generic, sse, avx2, avx512");

int tlsx_aead_module_init(void)
{
	const struct tlsx_cpu *cpu = tlsx_cpu_features();
	int err;

	err = tlsx_aead_selftest();
	if (err) {
		pr_err("tlsx: AEAD self-test failed (%d): not loading\n", err);
		return err;
	}
	pr_info("tlsx: AEAD self-test passed (aes-ni %d, vaes %d, vpclmulqdq %d, avx2 %d, avx512 %d)\n",
		cpu->aesni, cpu->vaes, cpu->vpclmulqdq, cpu->avx2,
		cpu->avx512f && cpu->avx512bw && cpu->avx512vl);
	return 0;
}
