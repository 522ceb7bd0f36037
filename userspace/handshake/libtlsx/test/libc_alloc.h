/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libc_alloc.h - glibc's allocator under the names it exports for
 * malloc interposers (no glibc header declares them): the heap-counting
 * tests call through to these.
 */
#ifndef TLSX_TEST_LIBC_ALLOC_H
#define TLSX_TEST_LIBC_ALLOC_H

#include <stddef.h>

void *__libc_malloc(size_t len);
void *__libc_calloc(size_t n, size_t len);
void *__libc_realloc(void *p, size_t len);
void __libc_free(void *p);

#endif /* TLSX_TEST_LIBC_ALLOC_H */
