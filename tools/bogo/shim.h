/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim.h - tlsx's shim for BoringSSL's BoGo runner (docs/testing.md,
 * "BoGo"): the runner starts it once per test with the test's flags;
 * it connects back, plays client or server on libtlsx, and says
 * whether the runner's expectations held.  What each file does:
 *   flags.c   the runner's flags, a table, into struct shim_opts
 *   setup.c   struct shim_opts into a tlsx configuration
 *   driver.c  one connection: connect, handshake, exchange, close
 *   expect.c  the -expect-* checks after a handshake
 *   main.c    the connections of one test (initial, resumptions)
 * The flags' meanings are BoringSSL's test_config.cc at the runner's
 * commit (read, not copied); a flag not in the table exits 89, the
 * runner's "unimplemented".
 */
#ifndef TLSX_BOGO_SHIM_H
#define TLSX_BOGO_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tlsx.h"

/* The runner's exit codes (PORTING.md). */
#define SHIM_EXIT_FAIL		1
#define SHIM_EXIT_UNIMPLEMENTED	89

#define SHIM_VEC_MAX		32

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

struct shim_intvec {
	int n;
	int v[SHIM_VEC_MAX];
};

/*
 * One connection's flags.  Unprefixed flags go to every connection,
 * -on-initial-/-on-resume-/-on-retry- ones to one (test_config.cc's
 * ParseConfig()).
 */
struct shim_opts {
	/* the connection */
	int port;
	bool ipv6;
	int shim_id;
	bool server;
	int resume_count;
	bool async;
	/* versions: TLS 1.3 only (RFC 8446) */
	int min_version, max_version, expect_version;
	bool no_tls13, no_tls12, no_tls11, no_tls1;
	/* what is negotiated */
	struct shim_intvec curves;
	struct shim_intvec signing_prefs, verify_prefs;
	char *cert_file, *key_file, *trust_cert;
	bool verify_peer, require_any_client_cert;
	char *host_name;
	char *advertise_alpn;	/* wire form: length-prefixed names */
	char *select_alpn;
	bool decline_alpn;
	bool no_ticket;
	bool key_update;
	int max_cert_list;
	/* the exchange */
	bool shim_writes_first, shim_shuts_down, check_close_notify;
	bool implicit_handshake;
	int read_size;
	/* expectations */
	int expect_curve_id, expect_cipher, expect_peer_sig_alg;
	char *expect_alpn, *expect_server_name, *expect_peer_cert_file;
	bool expect_session_miss, expect_no_session;
	bool expect_hrr, expect_no_hrr;
	/*
	 * -expect-verify-result: the chain verified when one was asked
	 * for; libtlsx ends a handshake whose chain fails, so a handshake
	 * that finished passes it.
	 */
	bool expect_verify_result;
	/* set by flags.c: the runner asked for what the shim cannot do */
	const char *unimplemented;
};

/*
 * 0, SHIM_EXIT_FAIL (a bad value), or SHIM_EXIT_UNIMPLEMENTED with the
 * flag (its -on-*- prefix stripped) the shim does not know in *@unknown.
 */
int shim_parse_flags(int argc, char **argv, struct shim_opts *initial,
		     struct shim_opts *resume, struct shim_opts *retry,
		     const char **unknown);

/*
 * A configuration for @o, or NULL with the reason in *@why; *@unimpl set
 * when the reason is a feature tlsx lacks (exit 89) rather than an error.
 */
struct tlsx_config *shim_config(const struct shim_opts *o,
				const char *ticket_keys, const char **why,
				bool *unimpl);

/* The checks of one finished handshake; 0 or -1 with a message printed. */
int shim_expect(const struct shim_opts *o, struct tlsx_conn *c,
		bool is_resume);

/*
 * Runs one connection.  @sess/@sess_len: the client's session in and
 * out (the newest ticket after the exchange).  0, or -1 after printing
 * the error on stderr.
 */
#define SHIM_SESSION_MAX	4096
int shim_connection(const struct shim_opts *o, struct tlsx_config *cfg,
		    bool is_resume, uint8_t *sess, size_t *sess_len);

/* "TLSX_E_ALERT_SENT alert=handshake_failure reason=..." on stderr. */
void shim_report(const char *step, struct tlsx_conn *c, int err);

#endif /* TLSX_BOGO_SHIM_H */
