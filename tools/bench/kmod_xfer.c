// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_xfer.c - one timed bulk transfer over a loopback TCP pair with a
 * TLS ULP on one end and plain TCP on the other, so each run measures
 * one direction of the record layer: TX (send or sendfile into the ULP
 * socket, the raw end discards the records) or RX (the raw end writes
 * records sealed beforehand in userspace, the ULP socket decrypts them).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/sendfile.h>

#include "../../selftests/tlsx_test.h"
#include "../../selftests/tlsx_rec.h"
#include "../../kmod/tlsx_uapi.h"
#include "bench.h"
#include "kmod.h"

#define READ_LEN	(256 * 1024)

int kmod_set_keys(int fd, const char *ulp, const struct kmod_cipher *c,
		  int tx, int rx)
{
	struct rec_info ri;

	/* Both directions use the same keys: each run sets only one. */
	rec_info_init(&ri, c->version, c->type, 1);
	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, ulp, strlen(ulp)))
		return -errno;
	if (tx && setsockopt(fd, SOL_TLS, TLS_TX, &ri, ri.len))
		return -errno;
	if (rx && setsockopt(fd, SOL_TLS, TLS_RX, &ri, ri.len))
		return -errno;
	if (rx && c->rx_no_pad &&
	    setsockopt(fd, SOL_TLS, TLS_RX_EXPECT_NO_PAD, &(int){ 1 },
		       sizeof(int)))
		return -errno;
	return 0;
}

/*
 * kTLS's uAPI from 6.19 on (tlsx.ko has it on 6.1 and 6.12, defined in
 * kmod/tlsx_uapi.h; the kernel's tls there refuses it, and its sendfile
 * rows below 16 KiB say so).
 */

bool kmod_have_tx_limit(void)
{
#ifdef TLS_TX_MAX_PAYLOAD_LEN
	return true;
#else
	return false;
#endif
}

int kmod_set_tx_limit(int fd, size_t limit)
{
#ifdef TLS_TX_MAX_PAYLOAD_LEN
	/* The kernel's tls takes a u16: at most 2^14 (RFC 8449 4). */
	unsigned short v = (unsigned short)limit;

	if (setsockopt(fd, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &v, sizeof(v)))
		return -errno;
	return 0;
#else
	(void)fd;
	(void)limit;
	return -EOPNOTSUPP;
#endif
}

int kmod_records_build(const struct kmod_cipher *c, size_t plain,
		       size_t chunk, struct kmod_records *r)
{
	size_t nrec = (plain + chunk - 1) / chunk, off, n;
	unsigned char *text = malloc(chunk);
	struct rec_info ri;
	struct rec_key rk;
	int err;

	rec_info_init(&ri, c->version, c->type, 1);
	err = rec_key_init(&rk, &ri);
	if (err || !text) {
		free(text);
		return err ? err : -ENOMEM;
	}
	r->wire = malloc(nrec * rec_wire_len(&rk, chunk, 0));
	if (!r->wire) {
		free(text);
		return -ENOMEM;
	}
	memset(text, 0x5a, chunk);
	r->len = 0;
	for (off = 0; off < plain; off += n) {
		n = plain - off < chunk ? plain - off : chunk;
		r->len += rec_seal(&rk, REC_TYPE_DATA, text, n, 0,
				   r->wire + r->len);
	}
	r->plain = plain;
	free(text);
	tlsx_aead_wipe(&rk.aead);
	return 0;
}

void kmod_records_free(struct kmod_records *r)
{
	free(r->wire);
	r->wire = NULL;
}

/* The raw end of a TX run: read and discard until end of stream. */
static void *drain(void *arg)
{
	int fd = *(int *)arg;
	char *buf = malloc(READ_LEN);

	while (buf && read(fd, buf, READ_LEN) > 0)
		;
	free(buf);
	return NULL;
}

struct feed {
	int fd;
	const struct kmod_records *r;
};

/* The raw end of an RX run: write the sealed records, then FIN. */
static void *feed(void *arg)
{
	struct feed *f = arg;
	size_t off = 0;
	ssize_t n;

	while (off < f->r->len) {
		n = write(f->fd, f->r->wire + off, f->r->len - off);
		if (n <= 0)
			break;
		off += n;
	}
	shutdown(f->fd, SHUT_WR);
	return NULL;
}

static int send_all(int fd, const char *buf, size_t bytes, size_t chunk)
{
	size_t off = 0, n;
	ssize_t w;

	while (off < bytes) {
		n = bytes - off < chunk ? bytes - off : chunk;
		w = send(fd, buf, n, 0);
		if (w <= 0)
			return -errno;
		off += w;
	}
	return 0;
}

static int sendfile_all(int fd, int file, size_t bytes)
{
	off_t off = 0;
	ssize_t w;

	while ((size_t)off < bytes) {
		w = sendfile(fd, file, &off, bytes - off);
		if (w <= 0)
			return w ? -errno : -EIO;
	}
	return 0;
}

static ssize_t recv_all(int fd, size_t bytes)
{
	char *buf = malloc(READ_LEN);
	size_t got = 0;
	ssize_t n;

	while (buf && got < bytes) {
		n = recv(fd, buf, READ_LEN, 0);
		if (n <= 0) {
			free(buf);
			return n ? -errno : -EPIPE;
		}
		got += n;
	}
	free(buf);
	return buf ? (ssize_t)got : -ENOMEM;
}

double kmod_xfer(const char *ulp, const struct kmod_cipher *c,
		 enum kmod_mode mode, size_t bytes, size_t chunk, int file,
		 const struct kmod_records *r)
{
	char *buf = NULL;
	pthread_t th;
	uint64_t t0 = 0, t1 = 0;
	int cfd = -1, sfd = -1, err;
	struct feed f;

	err = tcp_pair(&cfd, &sfd);
	if (err)
		return err;
	if (mode == KMOD_RECV) {
		bytes = r->plain;
		err = kmod_set_keys(sfd, ulp, c, 0, 1);
	} else {
		err = kmod_set_keys(cfd, ulp, c, 1, 0);
		if (!err && c->tx_limit)
			err = kmod_set_tx_limit(cfd, c->tx_limit);
		buf = calloc(1, chunk);
		if (!buf)
			err = -ENOMEM;
	}
	if (err)
		goto out;

	t0 = bench_now_ns();
	if (mode == KMOD_RECV) {
		f.fd = cfd;
		f.r = r;
		err = pthread_create(&th, NULL, feed, &f);
		if (err) {
			err = -err;
			goto out;
		}
		if (recv_all(sfd, bytes) < 0)
			err = -EIO;
	} else {
		err = pthread_create(&th, NULL, drain, &sfd);
		if (err) {
			err = -err;
			goto out;
		}
		err = mode == KMOD_SEND ? send_all(cfd, buf, bytes, chunk) :
					  sendfile_all(cfd, file, bytes);
		/* Every record is out when the reader sees the FIN. */
		shutdown(cfd, SHUT_WR);
	}
	pthread_join(th, NULL);
	t1 = bench_now_ns();
out:
	free(buf);
	close(cfd);
	close(sfd);
	if (err)
		return err;
	return (double)bytes * 1e3 / (double)(t1 - t0);
}
