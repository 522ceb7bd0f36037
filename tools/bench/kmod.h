/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmod.h - what the parts of "tlsx-bench kmod" share: one measured
 * transfer over a loopback TCP pair with a TLS ULP, and per-socket
 * memory.  kmod.c runs the rounds and prints; kmod_xfer.c moves the
 * bytes; kmod_mem.c counts the memory; kmod_class.c tells which AEAD
 * code each ULP runs and forces tlsx's.
 */
#ifndef TLSX_BENCH_KMOD_H
#define TLSX_BENCH_KMOD_H

#include <stdbool.h>
#include <stddef.h>

/* What one transfer measures. */
enum kmod_mode {
	KMOD_SEND,	/* send() of a chunk: TX records, raw TCP reader */
	KMOD_SENDFILE,	/* sendfile() of a file: TX from the page cache */
	KMOD_RECV,	/* recv() of records a raw TCP writer sends: RX */
	KMOD_MODES
};

struct kmod_cipher {
	const char *name;
	unsigned short version;	/* TLS_1_x_VERSION */
	unsigned short type;	/* TLS_CIPHER_* */
	int rx_no_pad;		/* the receiver sets TLS_RX_EXPECT_NO_PAD */
	size_t tx_limit;	/* TLS_TX_MAX_PAYLOAD_LEN on the sender; 0: none */
};

/*
 * TLS_TX_MAX_PAYLOAD_LEN: the largest plaintext of a TX record, what makes
 * sendfile() (which fills 16 KiB records otherwise) sweep record sizes.
 * kmod_have_tx_limit() is true when the headers define it (tlsx.ko's
 * uapi once the option lands, or a new enough linux/tls.h);
 * kmod_set_tx_limit() sets it on a socket with keys, or -EOPNOTSUPP.
 */
bool kmod_have_tx_limit(void);
int kmod_set_tx_limit(int fd, size_t limit);

/*
 * Ready-made input of a KMOD_RECV run: @len bytes of valid records of
 * @cipher under the keys kmod_set_keys() gives the receiver, carrying
 * @plain bytes of data.
 */
struct kmod_records {
	unsigned char *wire;
	size_t len;
	size_t plain;
};

/* Seal @plain bytes into records of @chunk bytes for KMOD_RECV. */
int kmod_records_build(const struct kmod_cipher *c, size_t plain,
		       size_t chunk, struct kmod_records *r);
void kmod_records_free(struct kmod_records *r);

/*
 * kmod_xfer() - one transfer of @bytes (KMOD_RECV: r->plain) with @ulp on
 * the TLS end, KMOD_SEND in send() calls of @chunk bytes.  @file: an fd
 * of at least @bytes for KMOD_SENDFILE.
 * Return: MB/s (10^6 bytes of plaintext per second), or -errno.
 */
double kmod_xfer(const char *ulp, const struct kmod_cipher *c,
		 enum kmod_mode mode, size_t bytes, size_t chunk, int file,
		 const struct kmod_records *r);

/* Attach @ulp to @fd and set its TX and/or RX keys for @c. */
int kmod_set_keys(int fd, const char *ulp, const struct kmod_cipher *c,
		  int tx, int rx);

/* Per-socket memory of @ulp with TX and RX keys set, over plain TCP. */
struct kmod_mem {
	double slab;		/* bytes of slab per socket */
	double total;		/* bytes of MemFree per socket */
	char top[256];		/* the slab caches that grew most */
};

int kmod_mem_measure(const char *ulp, const struct kmod_cipher *c,
		     int pairs, struct kmod_mem *m);

/* TcpExt counters moved by each of two ULPs' transfers (--tcpstat). */
#define KMOD_TCPSTAT_MAX	160
#define KMOD_TCPSTAT_NAME	40

struct kmod_tcpstat {
	int n;
	char names[KMOD_TCPSTAT_MAX][KMOD_TCPSTAT_NAME];
	unsigned long long start[KMOD_TCPSTAT_MAX];
	unsigned long long delta[2][KMOD_TCPSTAT_MAX];
};

/* Before a transfer: read the counters (-errno if there are none). */
int kmod_tcpstat_begin(struct kmod_tcpstat *t);
/* After it: add what moved since to ULP @ulp's column (0 or 1). */
void kmod_tcpstat_end(struct kmod_tcpstat *t, int ulp);
void kmod_tcpstat_print(const struct kmod_tcpstat *t,
			const char *const *ulps);

/*
 * kmod_class.c.  kmod_class_alg(): the crypto API's name of a
 * TLS_CIPHER_*'s algorithm; kmod_class_driver(): the driver of @alg with
 * the highest priority in /proc/crypto (what kTLS got), -ENOENT if none
 * is listed; kmod_class_of(): tlsx's aead_impl of the same instruction
 * class as a driver, or NULL; the aead_impl module parameter read and
 * written; the guest CPU's relevant flags printed.
 */
const char *kmod_class_alg(unsigned short type);
int kmod_class_driver(const char *alg, char *driver, size_t len, int *prio);
const char *kmod_class_of(const char *driver);
int kmod_class_impl_get(char *buf, size_t len);
int kmod_class_impl_set(const char *impl);
void kmod_class_print_cpu(void);

#endif /* TLSX_BENCH_KMOD_H */
