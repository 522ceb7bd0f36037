/* SPDX-License-Identifier: GPL-2.0 */
/*
 * random.h - cryptographic randomness for the handshake: the kernel's
 * CSPRNG through getrandom(2).  Userspace only.
 */
#ifndef TLSX_RANDOM_H
#define TLSX_RANDOM_H

#include "aead/platform.h"

/*
 * Fills @buf with @len random bytes; 0, or a negative errno when the
 * kernel cannot give them (the buffer is then wiped, never half-filled
 * with something a caller might use as a key).
 */
int tlsx_random_bytes(void *buf, size_t len);

#endif /* TLSX_RANDOM_H */
