/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tool.h - what tlsx-client and tlsx-server share: the options both
 * take and the configuration made of them, the one-line errors, the
 * sockets, a connection's life from the handshake to its counters, the
 * negotiated facts, and the loops that move bytes between a libtlsx
 * connection and stdin/stdout.  Each main keeps what is its role's.
 * Everything goes through the public API (handshake/libtlsx/tlsx.h) only.
 */
#ifndef TLSX_TOOL_H
#define TLSX_TOOL_H

#include <getopt.h>
#include <netdb.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "handshake/libtlsx/tlsx.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* The kernel's name for it (include/linux/compiler_attributes.h). */
#define __printf(a, b)	__attribute__((format(printf,			\
					      a, b)))

/* Long options both programs take; their getopt values start here. */
enum tool_opt {
	OPT_CA = 256,
	OPT_ALPN,
	OPT_SUITES,
	OPT_GROUPS,
	OPT_SIGALGS,
	OPT_RECORD_LAYER,
	OPT_RECORD_SIZE_LIMIT,
	OPT_KEY_SHARES,
	OPT_KEY_UPDATE,
	OPT_INTERACTIVE,
	OPT_QUIET,
	OPT_TIMEOUT,
	OPT_PSK_KE,
	OPT_PREFER_PSK_KE,
	OPT_CERT,
	OPT_KEY,
	OPT_COMMON_END,
};


/* The help lines of the options above. */
extern const char tool_common_help[];

#define TOOL_MAX_CERTS	16

struct tool_opts {
	const char *ca;
	const char *alpn, *suites, *groups, *sigalgs;
	enum tlsx_record_layer record_layer;
	unsigned int record_size_limit;
	int key_shares;			/* 0: libtlsx's default */
	bool key_update;	/* a KeyUpdate (update_requested) at once */
	bool interactive;	/* stdin lines "k", "K", "Q" are commands */
	bool quiet;
	bool psk_ke;
	bool prefer_psk_ke;	/* server: psk_ke before psk_dhe_ke */
	unsigned int timeout;	/* seconds: handshake, then idle; 0 none */
	const char *cert[TOOL_MAX_CERTS], *key[TOOL_MAX_CERTS];
	unsigned int n_cert, n_key;
};

/* The program's name, for messages ("tlsx-client"). */
extern const char *tool_name;

/* "NAME: message\n" on stderr. */
void tool_err(const char *fmt, ...) __printf(1, 2);
/* Progress on stderr, unless --quiet. */
void tool_note(const struct tool_opts *o, const char *fmt, ...) __printf(2, 3);

/*
 * One of the options above: 1 if @opt was one (0 for another option),
 * -1 after printing why @arg is bad.
 */
int tool_common_opt(struct tool_opts *o, int opt, const char *arg);

/*
 * The command line, for both programs: getopt_long() over the options
 * above and a program's own @own (ending in a zeroed entry).  The
 * common ones go to tool_common_opt(), each of @own to
 * @own_opt(@ctx, opt, optarg), which returns 0, or -1 after printing
 * why with tool_err().  @help prints the program's help text.  0 to go
 * on (the operands start at optind), 1 after an error, 2 after --help
 * (printed to stdout).
 */
int tool_parse_args(struct tool_opts *o, int argc, char **argv,
		    const struct option *own,
		    int (*own_opt)(void *ctx, int opt, const char *arg),
		    void *ctx, void (*help)(FILE *f));

/*
 * The configuration of @role: the options above applied, then the
 * program's own by @own(@ctx, cfg) (0, or 1 after printing the error),
 * then frozen.  NULL after printing the error.
 */
struct tlsx_config *tool_config(enum tlsx_role role, const struct tool_opts *o,
				int (*own)(void *ctx, struct tlsx_config *cfg),
				void *ctx);

/*
 * A socket of the first address in @res that @use takes (connect(), or
 * bind() and listen(): 0, else -1 with errno set): the fd, and *@used
 * that address; -1 with the last failure's errno when none did.
 */
int tool_socket_first(const struct addrinfo *res,
		      int (*use)(int fd, const struct addrinfo *ai),
		      const struct addrinfo **used);

/* TCP_NODELAY: handshake flights are small, Nagle must not hold them. */
void tool_nodelay(int fd);

/*
 * What a program does with a connection around what tool_conn_run()
 * does for both, @ctx its own options.
 */
struct tool_conn_ops {
	/*
	 * Before the handshake (the client's server name and session):
	 * 0, or 1 after printing why.  May be NULL.
	 */
	int (*prepare)(void *ctx, struct tlsx_conn *c);
	/*
	 * After the handshake, its facts and --key-update: the exchange
	 * (relay, echo, a page); the exit status it gives.
	 */
	int (*exchange)(void *ctx, struct tlsx_conn *c);
	/*
	 * After the exchange and the counters, whatever @status the
	 * exchange gave (the client saves its session): the exit status.
	 * May be NULL.
	 */
	int (*finish)(void *ctx, struct tlsx_conn *c, int status);
};

/*
 * One connection on @fd: tlsx_conn_new(), @ops->prepare, the handshake
 * within --timeout, the negotiated facts, --key-update, @ops->exchange,
 * the KeyUpdate counters, @ops->finish, tlsx_conn_free().  0, 1 after
 * printing the error, or the status exchange and finish gave.
 */
int tool_conn_run(const struct tool_opts *o, struct tlsx_config *cfg, int fd,
		  const struct tool_conn_ops *ops, void *ctx);

/* Says why @rc ended @what ("handshake") on @c (may be NULL); returns 1. */
int tool_conn_fail(const struct tlsx_conn *c, const char *what, int rc);

/*
 * The negotiated facts, one "label: value" per line ending in @eol,
 * into @buf; the length written (truncated to @cap - 1).
 */
size_t tool_describe(const struct tlsx_conn *c, char *buf, size_t cap,
		     const char *eol);
/* tool_describe() to stderr, unless --quiet. */
void tool_print_facts(const struct tool_opts *o, const struct tlsx_conn *c);
/* "key updates: sent N, received M" to stderr, unless --quiet. */
void tool_print_counters(const struct tool_opts *o,
			 const struct tlsx_conn *c);

/* RFC 8446 4.2.3's name of a signature scheme; "none" for 0. */
const char *tool_sig_name(uint16_t scheme);

/* tool_handshake()'s and tool_read()'s result when --timeout ran out. */
#define TOOL_E_TIMEOUT	(-1000)

/*
 * tlsx_conn_step() until done, within --timeout: what it returned, or
 * TOOL_E_TIMEOUT.  The fd is blocking again after.
 */
int tool_handshake(const struct tool_opts *o, struct tlsx_conn *c);

/* Arms SIGALRM to end the program after @seconds (0: disarms). */
void tool_deadline(unsigned int seconds, const char *what);

/*
 * I/O after the handshake on a blocking fd.  tool_read() waits up to
 * the idle timeout; both return what tlsx_read()/tlsx_write() do, and
 * tool_write_all() 0 once all of @len is sent.
 */
ssize_t tool_read(const struct tool_opts *o, struct tlsx_conn *c, void *buf,
		  size_t len);
int tool_write_all(struct tlsx_conn *c, const void *buf, size_t len);

/*
 * The s_client-style loop: stdin to the connection, the connection to
 * stdout, until the peer's close_notify.  At EOF on stdin, close_notify
 * goes out and reading goes on until the peer's (with
 * TOOL_RELAY_IGN_EOF: then the connection stays open for reading and no
 * close_notify is sent until the peer's arrives).  After the peer's
 * close_notify, with TOOL_RELAY_OUTLIVE, stdin is still sent until its
 * EOF (RFC 8446 6.1 half-close), then close_notify; without, ours
 * answers the peer's at once.  0; TOOL_RELAY_TRUNCATED after warning
 * that the peer closed TCP without close_notify (what came before is
 * on stdout); or 1 after printing the error.
 */
#define TOOL_RELAY_IGN_EOF	0x1
#define TOOL_RELAY_OUTLIVE	0x2
#define TOOL_RELAY_TRUNCATED	3
int tool_relay(const struct tool_opts *o, struct tlsx_conn *c,
	       unsigned int flags);

/* Echoes what arrives until the peer's close_notify: 0, or 1. */
int tool_echo(const struct tool_opts *o, struct tlsx_conn *c);

/* Sends close_notify, then reads (discarding) until the peer's. */
int tool_shutdown(const struct tool_opts *o, struct tlsx_conn *c);

#endif /* TLSX_TOOL_H */
