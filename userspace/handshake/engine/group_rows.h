/* SPDX-License-Identifier: GPL-2.0 */
/*
 * group_rows.h - the key exchange groups tlsx implements, one row each,
 * in default preference order (group.h expands the rows; no include
 * guard, on purpose).  A new group is one row here and its operations
 * (struct tlsx_kx_ops tlsx_kx_<ops>, in a kx_*.c of its own);
 * test_suite.c checks every row against the RFCs and the primitives.
 *
 *   id:	TLSX_GROUP_<id> is the code
 *   code:	NamedGroup (RFC 8446 4.2.7)
 *   cshare:	the client's key_exchange, bytes (4.2.8.2)
 *   sshare:	the server's key_exchange, bytes
 *   priv:	our private state between the shares, bytes
 *   secret:	the shared secret, bytes (7.4)
 *   ops:	struct tlsx_kx_ops tlsx_kx_<ops> (kx.h)
 *   default:	offered when the configuration lists no groups
 *   pq:	a post-quantum hybrid: a server whose preference puts it
 *		first asks for it by HelloRetryRequest rather than take a
 *		classical share (server_read_groups())
 *   names:	the name printed, then any other names parsed (all
 *		case-insensitive)
 */
/*
 * The hybrids are draft-ietf-tls-ecdhe-mlkem's (kx_hybrid.c): shares
 * ML-KEM-768's ek (1184) / ciphertext (1088) with the ECDH share, the
 * secret the two 32-byte secrets; our private state ML-KEM's dk less
 * the ek our share holds (1216) and the ECDH scalar.  X25519MLKEM768
 * first: every browser offers it (and tlsx's client sends an x25519
 * share beside it, client_role.c).  SecP256r1MLKEM768 only when
 * configured: no browser offers it.
 */
/*             id                 code    cshare sshare priv  secret ops               default pq     names */
TLSX_GROUP_ROW(X25519MLKEM768,    0x11ec, 1216,  1120,  1248, 64,    x25519mlkem768,   true,   true,  "X25519MLKEM768")
TLSX_GROUP_ROW(X25519,            0x001d, 32,    32,    32,   32,    x25519,           true,   false, "x25519")
TLSX_GROUP_ROW(SECP256R1,         0x0017, 65,    65,    32,   32,    p256,             true,   false, "secp256r1", "P-256", "prime256v1")
TLSX_GROUP_ROW(SECP256R1MLKEM768, 0x11eb, 1249,  1153,  1248, 64,    secp256r1mlkem768, false, true,  "SecP256r1MLKEM768")
