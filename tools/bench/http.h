/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http.h - what the parts of "tlsx-bench http" share: the options, the
 * two servers under test (http_srv.c: the generated directory, starting,
 * stopping, their CPU time) and the load generators (http_load.c: h2load
 * or wrk run, their summary parsed, their CPU time).
 */
#ifndef TLSX_BENCH_HTTP_H
#define TLSX_BENCH_HTTP_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define HB_WHY_LEN	256
#define HB_XARGS_MAX	16
/* Requests per keep-alive connection, both servers (http_srv.c). */
#define HB_KEEPALIVE_REQS	1000000
#define HB_KEEPALIVE_REQS_STR	"1000000"

struct hb_opts {
	int rounds;
	unsigned int workers;		/* both servers */
	double duration;		/* seconds per timed run */
	unsigned int clients;		/* keep-alive connections */
	unsigned int pipeline;		/* keep-alive: h2load -m (1: none) */
	unsigned int conn_batch;	/* clients per new-connection run */
	unsigned int bulk_requests;	/* 64 MiB requests per bulk run */
	unsigned int idle_conns;	/* memory row; 0: skipped */
	int port;			/* tlsxd's; nginx's is port + 1 */
	const char *dir;		/* generated files, logs */
	const char *tlsxd;
	const char *nginx;
	const char *h2load;
	const char *wrk;
	const char *only;
	const char *csv;
	const char *record_layer;	/* tlsxd --record-layer, or NULL */
	const char *tlsxd_xargs[HB_XARGS_MAX];
	unsigned int ntlsxd_xargs;
	bool nginx_only;
	bool ktls;			/* nginx: ssl_conf_command Options KTLS */
	bool access_log;		/* both servers log, or neither */
	bool ka_wrk;			/* keep-alive rows: wrk, not h2load */
	/* --pin: the servers on pin_srv, the load generator on pin_load. */
	bool pin;
	cpu_set_t pin_srv;
	cpu_set_t pin_load;
	/* --server-cpu: each server capped at this many CPUs; 0: not. */
	double server_cpu;
	unsigned int load_threads;	/* the generator's: h2load/wrk -t */
	/* http_tlsx_load.c's threads, a connection at a time each. */
	unsigned int tlsx_load_conns;
	bool h2;			/* h2load in HTTP/2 (no --h1): a row's */
};

/* Formats a message into @why (HB_WHY_LEN bytes); returns -1. */
int hb_why(char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The files served, in the generated root. */
struct hb_file {
	const char *name;
	size_t size;
};

extern const struct hb_file hb_files[];
extern const size_t hb_nfiles;

/* The certificates: both servers run with one of them at a time. */
enum hb_cert { HB_CERT_P256, HB_CERT_RSA2048, HB_NCERTS };

extern const char *const hb_cert_names[HB_NCERTS];

enum hb_kind { HB_TLSXD, HB_NGINX };

struct hb_server {
	enum hb_kind kind;
	const char *name;
	int port;
	enum hb_cert cert;	/* set before hb_server_start() */
	pid_t pid;		/* tlsxd, or nginx's master */
	bool ok;
	char why[HB_WHY_LEN];
};

/*
 * Makes @o->dir: an EC P-256 and an RSA-2048 certificate and key (made
 * once, kept) and the root with hb_files[] (rewritten when a size
 * differs).  -1 with a message in @why.
 */
int hb_prepare(const struct hb_opts *o, char *why);

/*
 * Starts @s with certificate @s->cert (nginx: nginx.conf rewritten) on
 * @o->pin_srv with --pin, and waits until its port accepts a connection
 * (10 s at most); its stdout and stderr go to DIR/NAME.out.  -1 with
 * @s->why.
 */
int hb_server_start(struct hb_server *s, const struct hb_opts *o);

/* Still running?  Else @s->ok is cleared and @s->why says how it died. */
bool hb_server_alive(struct hb_server *s);

/* SIGTERM, then SIGKILL after 5 s. */
void hb_server_stop(struct hb_server *s);

/*
 * The server's CPU time so far in seconds, utime + stime of its process
 * (all threads) and its children (nginx's workers, alive for the whole
 * run); -1 if /proc could not be read.
 */
double hb_server_cpu(const struct hb_server *s);

/* The bytes resident (RSS) in the same processes; -1 on error. */
long hb_server_rss(const struct hb_server *s);

/*
 * --server-cpu (http_cap.c): a cgroup per server kind capped at
 * @o->server_cpu CPUs; nothing when it is 0.  -1 with @why (no cgroup
 * CPU controller, not root).
 */
int hb_cap_setup(const struct hb_opts *o, char *why);

/* Which interface the cap uses, for the report. */
const char *hb_cap_kind(void);

/* In a server's child before exec: joins its kind's cgroup (0 if none). */
int hb_cap_join(enum hb_kind kind);

/* The cgroup's CFS periods so far and how many were throttled. */
int hb_cap_stat(enum hb_kind kind, unsigned long long *periods,
		unsigned long long *throttled);

/* Removes the cgroups (after the servers stopped). */
void hb_cap_remove(void);

/* A load generator's summary of one run. */
struct hb_load {
	double secs;			/* "finished in" */
	unsigned long done, ok, failed, errored, timeout;
	unsigned long status2xx, status3xx, status4xx, status5xx;
	unsigned long non2xx;		/* the sum of the last three */
	unsigned long long data;	/* body bytes received (wrk: and heads) */
	double cpu;			/* the generator's utime + stime, s */
};

/*
 * Runs @o->h2load --h1 (HTTP/2 with @o->h2) -t T -c @clients with @args (NULL-terminated,
 * after those), T being --load-threads but at most @clients, and parses
 * its summary.  -1 with @why when it could not run, timed out
 * (@limit_s), or printed no summary.  The caller checks the counts.
 */
int hb_h2load(const struct hb_opts *o, unsigned int clients,
	      const char *const *args, double limit_s, struct hb_load *out,
	      char *why);

/* The same with @o->wrk and its summary (no status classes). */
int hb_wrk(const struct hb_opts *o, unsigned int clients,
	   const char *const *args, double limit_s, struct hb_load *out,
	   char *why);

/* Latency of a run's connections, connect to last byte (us). */
struct hb_lat {
	unsigned int n;
	double p50_us, p99_us, max_us;
};

/*
 * http_tlsx_load.c: @conns connections to 127.0.0.1:@port over
 * --tlsx-load-conns threads, each a full handshake offering @groups (libtlsx
 * names, ':'-separated; the first must be the one negotiated), a GET of
 * /@path (@size bytes) read whole, then close.  -1 with @why when one
 * failed (the counts say how many).
 */
int hb_tlsx_newconn(const struct hb_opts *o, int port, const char *path,
		    size_t size, const char *groups, unsigned int conns,
		    struct hb_load *out, struct hb_lat *lat, char *why);

/* Idle keep-alive connections (http_idle.c), OpenSSL's. */
struct ssl_ctx_st;
struct ssl_st;

struct hb_idle {
	struct ssl_ctx_st *ctx;
	struct ssl_st **ssl;
	int *fd;
	unsigned int n;		/* open */
};

/*
 * Opens @n connections to 127.0.0.1:@port, each a full handshake and
 * one GET of /@path (@size bytes) read to its end, then left idle.  -1
 * with @why at the first that fails (those opened stay open: close them
 * with hb_idle_close()).
 */
int hb_idle_open(struct hb_idle *id, int port, const char *path,
		 size_t size, unsigned int n, char *why);

/* Closes them all (no close_notify) and frees @id's arrays. */
void hb_idle_close(struct hb_idle *id);

/*
 * Runs @argv to completion with stdout and stderr to @log (appended;
 * NULL: /dev/null); its exit status, or -1 with @why.
 */
int hb_run(char *const *argv, const char *log, char *why);

#endif /* TLSX_BENCH_HTTP_H */
