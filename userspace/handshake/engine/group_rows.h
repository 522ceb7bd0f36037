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
 *   names:	the name printed, then any other names parsed (all
 *		case-insensitive)
 */
/*             id         code    cshare sshare priv secret ops     default names */
TLSX_GROUP_ROW(X25519,    0x001d, 32,    32,    32,  32,    x25519, true,   "x25519")
TLSX_GROUP_ROW(SECP256R1, 0x0017, 65,    65,    32,  32,    p256,   true,   "secp256r1", "P-256", "prime256v1")
