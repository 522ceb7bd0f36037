// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_urec.c - libFuzzer target: libtlsx after the handshake, on the
 * userspace record layer, against a fake peer.  A connection is made
 * from fixed traffic secrets on one end of a socketpair; the input is
 * what the peer sends on the other end:
 *
 *   byte 0     bit 0: libtlsx is the server; bits 1-2: the suite;
 *              bit 3: a record_size_limit of 64 was negotiated;
 *              bit 4: non-blocking, with a 4 KiB send buffer that the
 *              peer drains only when libtlsx says TLSX_WANT_WRITE (a
 *              KeyUpdate reply owed), so that tlsx_read()'s per-call
 *              bound and the owed reply (issue 26) are reached
 *   then items kind(1) len(2, big endian) bytes(len), up to 128 KiB:
 *              kind bit 7 set: the bytes go raw into the socket (bad
 *              headers, plaintext records, cut records);
 *              else a record sealed under the peer's current key with
 *              inner content type kind & 0x1f; a handshake record that
 *              is exactly a KeyUpdate moves the peer to its next key
 *              after it, so the states after a key change are reached.
 *
 * Then the peer's side is shut and libtlsx reads until it returns 0 or
 * an error.  It must not read or write out of bounds or leak, an error
 * must be sticky, and a connection must end (no endless loop, also
 * when non-blocking calls return TLSX_WANT_READ at their bound), and a
 * tlsx_read() returns TLSX_WANT_WRITE only with a write owed
 * (tlsx_conn_want_write()).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "handshake/engine/keysched.h"
#include "handshake/engine/record_protect.h"
#include "handshake/libtlsx/tlsx_int.h"

static const u16 suites[4] = {
	TLSX_SUITE_AES_128_GCM_SHA256, TLSX_SUITE_AES_256_GCM_SHA384,
	TLSX_SUITE_CHACHA20_POLY1305_SHA256, TLSX_SUITE_AES_128_CCM_SHA256,
};

#define WIRE_MAX	(128 * 1024)

static u8 rec[TLSX_REC_MAX];
static u8 wire[WIRE_MAX];

/* The peer reads (and drops) what libtlsx sent. */
static void drain(int fd)
{
	while (read(fd, rec, sizeof(rec)) > 0)
		;
}

/*
 * A non-blocking call's "not now": TLSX_WANT_READ after the per-call
 * bound (the socket holds the peer's EOF at least: a read is never
 * EAGAIN here), TLSX_WANT_WRITE, from tlsx_read() (@read) only with a
 * write owed, then the peer drains.  false for another result.
 */
static bool not_now(struct tlsx_conn *c, int peer_fd, ssize_t n, bool read)
{
	if (n == TLSX_WANT_READ)
		return true;
	if (n == TLSX_WANT_WRITE) {
		if (read && !tlsx_conn_want_write(c))
			abort();
		drain(peer_fd);
		return true;
	}
	return false;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tlsx_hs_secrets sec = { 0 };
	struct tlsx_rec_dir peer = { 0 };
	struct tlsx_conn *c;
	bool server;
	u8 *peer_secret;
	size_t pos = 1, wire_len = 0, i;
	int fds[2], rounds;
	ssize_t n, w, again;
	bool nonblock;

	if (size < 1 || size > 65536)
		return 0;
	server = data[0] & 1;
	sec.suite = suites[(data[0] >> 1) & 3];
	sec.hash = sec.suite == TLSX_SUITE_AES_256_GCM_SHA384 ?
		   TLSX_HASH_SHA384 : TLSX_HASH_SHA256;
	sec.secret_len = tlsx_hash_digest_size(sec.hash);
	for (i = 0; i < sec.secret_len; i++) {
		sec.client[i] = (u8)(i + 1);
		sec.server[i] = (u8)(0x80 + i);
		sec.res_master[i] = (u8)(0x40 + i);
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
		return 0;
	nonblock = data[0] & 16;
	if (nonblock) {
		int small = 4096;

		setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &small,
			   sizeof(small));
	}
	if (tlsx__conn_from_secrets(fds[0], server, &sec, TLSX_RL_USER, 4,
				    data[0] & 8 ? 64 : 0, &c))
		abort();
	peer_secret = server ? sec.client : sec.server;
	if (tlsx_rec_set_secret(&peer, sec.suite, peer_secret, sec.secret_len))
		abort();
	while (pos + 3 <= size) {
		u8 kind = data[pos];
		size_t len = get_unaligned_be16(data + pos + 1), out;

		pos += 3;
		if (len > size - pos)
			len = size - pos;
		if (kind & 0x80) {
			if (wire_len + len > WIRE_MAX)
				break;
			memcpy(wire + wire_len, data + pos, len);
			wire_len += len;
		} else if (len <= TLSX_REC_MAX_PLAIN &&
			   wire_len + len + 22 <= WIRE_MAX &&
			   !tlsx_rec_seal(&peer, kind & 0x1f, data + pos, len,
					  0, wire + wire_len, WIRE_MAX - wire_len,
					  &out)) {
			wire_len += out;
			if ((kind & 0x1f) == TLSX_CT_HANDSHAKE && len == 5 &&
			    data[pos] == TLSX_HS_KEY_UPDATE &&
			    !data[pos + 1] && !data[pos + 2] &&
			    data[pos + 3] == 1 &&
			    (tlsx_next_traffic_secret(sec.hash, peer_secret) ||
			     tlsx_rec_set_secret(&peer, sec.suite, peer_secret,
						 sec.secret_len)))
				abort();
		}
		pos += len;
	}
	/*
	 * One write: the socket's buffer is charged per write, and nobody
	 * reads before the whole is in.  WIRE_MAX stays below the default
	 * buffer of an AF_UNIX stream (net.core.wmem_default, 208 KiB).
	 */
	if (wire_len && write(fds[1], wire, wire_len) != (ssize_t)wire_len)
		abort();
	shutdown(fds[1], SHUT_WR);
	if (nonblock) {
		fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
		fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
	}
	/*
	 * Each read takes a record at least, or pays what is owed: the
	 * input bounds the rounds.
	 */
	for (rounds = 0; rounds < 70000; rounds++) {
		n = tlsx_read(c, rec, 1 + rounds % 700);
		if (nonblock && not_now(c, fds[1], n, true))
			continue;
		if (n <= 0)
			break;
		/* Writing works until an error or our close (our rekey at 4). */
		if (rounds % 3 == 0) {
			w = tlsx_write(c, rec, n);
			if (w < 0 && !(nonblock && not_now(c, fds[1], w, false)))
				break;
		}
	}
	if (rounds == 70000)
		abort();
	if (n < 0) {
		again = tlsx_read(c, rec, 16);
		/* Sticky, but for TLSX_E_REKEY, reads only (not on user). */
		if (again != n)
			abort();
	}
	tlsx_rec_wipe(&peer);
	tlsx_conn_free(c);
	close(fds[0]);
	close(fds[1]);
	return 0;
}
