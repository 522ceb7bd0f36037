/* SPDX-License-Identifier: GPL-2.0 */
/*
 * handshake.h - "tlsx-bench handshake": whole TLS 1.3 handshakes in
 * memory, tlsx's engine beside OpenSSL's libssl.  What the parts share:
 *
 *	handshake.c		the subcommand: rows, rounds, report, CSV
 *	handshake_certs.c	keys and certificates, made once (libcrypto)
 *	handshake_ossl.c	one handshake with libssl and memory BIOs
 *	handshake_tlsx.c	one handshake with tlsx_hs_new/step/free
 *	handshake_heap.c	malloc interposition: peak live heap bytes
 *
 * Each side (struct hsb_impl) sets up its client and server
 * configuration once per row and then runs one complete handshake per
 * call, client and server driven in one loop over two memory BIOs, and
 * adds the TSC ticks spent in each party's calls to struct hsb_times.
 */
#ifndef TLSX_BENCH_HANDSHAKE_H
#define TLSX_BENCH_HANDSHAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/* The name the server's certificate carries and the client asks for. */
#define HSB_HOST	"bench.tlsx.test"

/*
 * X25519MLKEM768: tlsx's side runs the hybrid; OpenSSL 3.0 has no
 * ML-KEM, so its side of such a row is its classical X25519 handshake
 * (handshake_ossl.c), the anchor issue 30 names.
 */
enum hsb_group { HSB_X25519, HSB_SECP256R1, HSB_X25519MLKEM768 };
enum hsb_key { HSB_KEY_ECDSA_P256, HSB_KEY_ED25519, HSB_KEY_RSA2048,
	       HSB_KEY_N };
enum hsb_mode {
	HSB_FULL,	/* certificate handshake, no ticket issued */
	HSB_PSK_DHE,	/* resumption with psk_dhe_ke (RFC 8446 4.2.9) */
	HSB_PSK_KE,	/* resumption with psk_ke: no (EC)DHE */
};

struct hsb_row {
	const char *name;
	enum hsb_group group;
	enum hsb_key key;
	enum hsb_mode mode;
	double target;		/* the bound on tlsx/OpenSSL rate */
};

struct x509_st;
struct evp_pkey_st;

/*
 * One key type's credentials: a CA and a leaf for HSB_HOST signed by it,
 * the same key type for both, as PEM (for tlsx) and as libcrypto objects
 * (for libssl).  The client trusts the CA; the server sends the leaf.
 */
struct hsb_creds {
	char *ca_pem, *leaf_pem, *key_pem;
	size_t ca_len, leaf_len, key_len;
	struct x509_st *ca, *leaf;
	struct evp_pkey_st *leaf_key;
};

/* Makes (once) and returns the credentials of @key; NULL on failure. */
const struct hsb_creds *hsb_creds_get(enum hsb_key key);
void hsb_creds_free_all(void);

/* TSC ticks spent inside each party's calls, summed over handshakes. */
struct hsb_times {
	uint64_t client;
	uint64_t server;
};

/*
 * The party whose calls run now (HSB_NONE between them): the heap
 * counter charges allocations to it.  Set by the sides around each call.
 */
enum hsb_party { HSB_NONE, HSB_CLIENT, HSB_SERVER };
extern enum hsb_party hsb_party;

static inline uint64_t hsb_enter(enum hsb_party p)
{
	hsb_party = p;
	return bench_rdtsc();
}

static inline void hsb_leave(uint64_t *acc, uint64_t t0)
{
	*acc += bench_rdtsc() - t0;
	hsb_party = HSB_NONE;
}

#define HSB_ERR_LEN	256

/*
 * A library under test.  setup() builds both parties' configurations
 * for @row and checks one handshake end to end (the negotiated suite,
 * group, signature scheme and resumption are what the row says); NULL
 * with @err filled on failure.  run() is one whole handshake from
 * nothing to both parties done and freed: 0, or -1 with the reason in
 * error().  note() says what setup() saw negotiated.
 */
struct hsb_impl {
	const char *name;
	void *(*setup)(const struct hsb_row *row, const struct hsb_creds *c,
		       char err[HSB_ERR_LEN]);
	int (*run)(void *st, struct hsb_times *t);
	const char *(*error)(void *st);
	const char *(*note)(void *st);	/* what setup() saw negotiated */
	void (*teardown)(void *st);
};

extern const struct hsb_impl hsb_openssl;
extern const struct hsb_impl hsb_tlsx;

/*
 * Heap accounting (handshake_heap.c).  Between hsb_heap_start() and
 * hsb_heap_stop() every allocation and free in the process moves a live
 * byte count (malloc_usable_size() of each block: what the allocator
 * really hands out), kept in total and per party; the result is the
 * peak of each above its value at start.  Outside that window the
 * wrappers only pass through.  Single-threaded, as the benchmark is.
 * In the static build (-DHSB_NO_MALLOC_WRAP: glibc's static malloc
 * cannot be wrapped this way) nothing is counted and hsb_heap_counts is
 * false.
 */
struct hsb_heap {
	long peak;		/* both parties together */
	long peak_client;
	long peak_server;
	long done;		/* live at hsb_heap_mark(): both done */
	long end;		/* live at stop, relative to start */
	unsigned long allocs;	/* allocation calls in the window */
};

extern const bool hsb_heap_counts;
void hsb_heap_start(void);
/* The sides call this once both parties are done, before freeing. */
void hsb_heap_mark(void);
void hsb_heap_stop(struct hsb_heap *h);

/* glibc's own allocator entry points: exported, declared nowhere. */
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void __libc_free(void *p);
void *__libc_memalign(size_t align, size_t size);

#endif /* TLSX_BENCH_HANDSHAKE_H */
