// SPDX-License-Identifier: GPL-2.0
/*
 * scratch.c - the thread's record buffers (struct tlsx_scratch,
 * tlsx_int.h): the handshake (tlsx_conn.c) and the userspace record
 * layer (urec.c) open and seal records in them, so that a connection
 * holds none between calls.  Below both: neither calls the other for it.
 */
#include <pthread.h>
#include <stdlib.h>

#include "handshake/libtlsx/tlsx_int.h"

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static int scratch_key_err;

/* At thread exit: the scratch held records opened and flights sent. */
static void scratch_free(void *p)
{
	memzero_explicit(p, sizeof(struct tlsx_scratch));
	free(p);
}

static void scratch_key_init(void)
{
	scratch_key_err = pthread_key_create(&scratch_key, scratch_free);
}

struct tlsx_scratch *tlsx__scratch(void)
{
	struct tlsx_scratch *s;

	if (pthread_once(&scratch_once, scratch_key_init) || scratch_key_err)
		return NULL;
	s = pthread_getspecific(scratch_key);
	if (s)
		return s;
	s = malloc(sizeof(*s));
	if (s && pthread_setspecific(scratch_key, s)) {
		free(s);
		s = NULL;
	}
	return s;
}
