/* SPDX-License-Identifier: GPL-2.0 */
/*
 * group.h - everything tlsx knows about a key exchange group, from one
 * table (group_rows.h): its code and names, the lengths of the two key
 * shares, of the private state and of the shared secret, its
 * operations (kx.h's struct tlsx_kx_ops), and whether it is on by
 * default.  The buffers that hold shares and secrets are sized here, as
 * the largest of any row.
 */
#ifndef TLSX_HS_GROUP_H
#define TLSX_HS_GROUP_H

#include "aead/platform.h"

/* The wire codes (RFC 8446 4.2.7): TLSX_GROUP_X25519, ... */
enum tlsx_group_code {
#define TLSX_GROUP_ROW(id, code, ...)	TLSX_GROUP_##id = (code),
#include "handshake/engine/group_rows.h"
#undef TLSX_GROUP_ROW
};

/* Room for the longest of each column over the rows. */
union tlsx_group_share_room {
#define TLSX_GROUP_ROW(id, code, cshare, sshare, ...)	\
	u8 id##_c[cshare]; u8 id##_s[sshare];
#include "handshake/engine/group_rows.h"
#undef TLSX_GROUP_ROW
};

union tlsx_group_priv_room {
#define TLSX_GROUP_ROW(id, code, cshare, sshare, priv, ...)	u8 id[priv];
#include "handshake/engine/group_rows.h"
#undef TLSX_GROUP_ROW
};

union tlsx_group_secret_room {
#define TLSX_GROUP_ROW(id, code, cshare, sshare, priv, secret, ...) \
	u8 id[secret];
#include "handshake/engine/group_rows.h"
#undef TLSX_GROUP_ROW
};

#define TLSX_GROUP_MAX_SHARE	sizeof(union tlsx_group_share_room)
#define TLSX_GROUP_MAX_PRIV	sizeof(union tlsx_group_priv_room)
#define TLSX_GROUP_MAX_SECRET	sizeof(union tlsx_group_secret_room)
#define TLSX_GROUP_MAX_NAMES	4

/*
 * A group's key exchange.  Every function returns 0, a negative errno
 * (keygen: @rand's), or TLSX_ALERT_ILLEGAL_PARAMETER for what the peer
 * got wrong.  Shares have the row's lengths, checked by the caller
 * (kx.c).
 *
 * A Diffie-Hellman group has keygen, validate and shared on both sides.
 * A KEM (the ML-KEM hybrids) also has encaps: the server's share and
 * the secret in one step from the client's share, which validate
 * checks first; its shared is the client's decapsulation and checks the
 * server's share itself.
 */
struct tlsx_kx_ops {
	/* A fresh private key from @rand into @priv, our share into @pub. */
	int (*keygen)(u8 *priv, u8 *pub,
		      int (*rand)(void *ctx, void *buf, size_t len),
		      void *rand_ctx);
	/* Whether @peer is a (client's, for a KEM) share of the group. */
	int (*validate)(const u8 *peer, size_t len);
	/*
	 * The shared secret of @priv and the validated @peer into @out;
	 * @pub is our own share (a KEM's decapsulation key holds its
	 * encapsulation key, kept once, in the share).
	 */
	int (*shared)(u8 *out, const u8 *priv, const u8 *pub, const u8 *peer,
		      size_t len);
	/* KEMs: our (server's) share into @pub, the secret into @out. */
	int (*encaps)(u8 *out, u8 *pub, const u8 *peer, size_t len,
		      int (*rand)(void *ctx, void *buf, size_t len),
		      void *rand_ctx);
};

/* The operations each row names (kx*.c). */
#define TLSX_GROUP_ROW(id, code, cshare, sshare, priv, secret, ops, ...) \
	extern const struct tlsx_kx_ops tlsx_kx_##ops;
#include "handshake/engine/group_rows.h"
#undef TLSX_GROUP_ROW

struct tlsx_group {
	u16 code;
	u16 client_share;		/* bytes of key_exchange */
	u16 server_share;
	u16 priv_len;
	u16 secret_len;
	bool by_default;
	bool pq;			/* a post-quantum hybrid */
	const struct tlsx_kx_ops *ops;
	/* names[0] is printed; all are parsed.  NULL-terminated. */
	const char *names[TLSX_GROUP_MAX_NAMES + 1];
};

/* The rows, in default preference order. */
extern const struct tlsx_group tlsx_groups[];
extern const unsigned int tlsx_n_groups;

/* The row of @code, or NULL. */
const struct tlsx_group *tlsx_group_find(u16 code);
/* The row one of whose names is @name[0..@len), case-insensitive. */
const struct tlsx_group *tlsx_group_by_name(const char *name, size_t len);
/* The default groups' codes, in order, into @codes: how many. */
unsigned int tlsx_group_defaults(u16 *codes, unsigned int cap);
/* Whether @code is a post-quantum hybrid group of ours. */
bool tlsx_group_is_pq(u16 code);
/* "x25519", "secp256r1", ...; "unknown" for another code. */
const char *tlsx_group_name(u16 code);

#endif /* TLSX_HS_GROUP_H */
