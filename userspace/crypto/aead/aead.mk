# SPDX-License-Identifier: GPL-2.0
#
# The AEAD sources, compiled both into tlsx.ko (by Kbuild) and into
# build/lib/libtlsx_crypto.a (by the Makefile).  Paths are relative to
# userspace/crypto/aead/, which holds these files and nothing else the
# module does not build: a listed file that is missing, or a .c file in
# aead/ that is not listed, is a build error.
#
# TLSX_AEAD_SRCS: plain C.  In the kernel they are built with the kernel's
# usual flags (no SSE/AVX registers), so anything that runs outside a SIMD
# section belongs here.
#
# TLSX_AEAD_SIMD_SRCS: files with SSE/AVX intrinsics.  In the kernel they
# are built with the vector ISA enabled, so the compiler may use vector
# registers anywhere in them: every function in these files must run only
# inside tlsx_simd_begin()/tlsx_simd_end().
TLSX_AEAD_SRCS := \
	cpu.c \
	aead.c \
	aead_selftest.c \
	gcm.c \
	gcm_generic.c \
	chachapoly.c \
	ccm.c \
	ccm_generic.c \
	chacha_generic.c \
	poly1305_generic.c \
	stack_wipe.c

TLSX_AEAD_SIMD_SRCS := \
	gcm_aesni.c \
	gcm_aesni_avx.c \
	gcm_vaes_avx2.c \
	gcm_avx512.c \
	chacha_ssse3.c \
	chacha_avx2.c \
	chacha_avx512.c \
	chachapoly_avx512.c \
	poly1305_avx2.c \
	poly1305_avx512.c \
	ccm_aesni.c \
	aes_keyexp_aesni.c
