// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - tlsxd's process: the configuration, the listeners, the
 * document root, the TLS configuration, the logs, privileges dropped,
 * then the workers; afterwards the main thread only waits for signals
 * (docs/tlsxd.md):
 *
 *   SIGTERM, SIGINT, SIGQUIT  drain (the workers finish what is in
 *                             flight, at most --timeout-drain) and exit 0;
 *                             a second one exits at once (but not the
 *                             first one delivered twice: same_stop())
 *   SIGHUP                    the command line and --config FILE read
 *                             again (runconf.c, as at start):
 *                             certificates, keys, ticket keys, limits,
 *                             timeouts, root, MIME types, added fields,
 *                             logs applied without dropping a connection (the
 *                             old configuration kept whole if anything
 *                             fails), the logs reopened
 *   SIGUSR1                   the counters to the error log
 *   (every second)            with --ticket-keys-watch, the ticket key
 *                             file's stamps: a change rebuilds the TLS
 *                             configuration with the new keys
 *
 * Exit codes: 0 after a drain, 1 when the server cannot start or a worker
 * fails, 2 for a bad command line or configuration.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <malloc.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#ifndef TLSXD_NO_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "metrics.h"
#include "runconf.h"
#include "server.h"

#define ERR_MAX		512
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* A worker gets this long past --timeout-drain before we stop waiting. */
#define DRAIN_GRACE_MS	5000

/*
 * A stop signal repeated this soon by the same sender is the same stop
 * (same_stop()); an operator's "exit now" comes later than that.
 */
#define STOP_REPEAT_MS	1000

/* How long a SIGHUP waits for every worker to pause between requests. */
#define PAUSE_MS	3000

static struct tlsxd_conf conf;
static struct server srv;
/* SIGHUP parses the command line again (and so reads --config again). */
static int g_argc;
static char **g_argv;
/* What the workers were sized for (the pool, the ring, the buffers). */
static struct runconf_sized sized;

static _Noreturn __attribute__((format(printf, 2, 3)))
void die(int code, const char *fmt, ...)
{
	char msg[ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "tlsxd: %s\n", msg);
	/* A start that fails under an error log file leaves its reason there. */
	if (conf.error_log && strcmp(conf.error_log, "-"))
		log_msg(LOG_ERR, "%s", msg);
	exit(code);
}

static void notify(const char *state)
{
#ifndef TLSXD_NO_SYSTEMD
	sd_notify(0, state);
#else
	(void)state;
#endif
}

/*
 * systemd socket activation (sd_listen_fds(3)): the sockets it passed,
 * shared by every worker.  The count taken, 0 when none.
 */
static int take_systemd_sockets(void)
{
#ifndef TLSXD_NO_SYSTEMD
	int n = sd_listen_fds(1), i;

	if (n < 0)
		die(1, "LISTEN_FDS: %s", strerror(-n));
	if (n == 0)
		return 0;
	srv.listen_fds = calloc((size_t)n, sizeof(int));
	if (!srv.listen_fds)
		die(1, "out of memory");
	for (i = 0; i < n; i++) {
		int fd = SD_LISTEN_FDS_START + i, fl;

		if (sd_is_socket_inet(fd, AF_UNSPEC, SOCK_STREAM, 1, 0) <= 0)
			die(1, "systemd's socket %d is not a listening TCP socket",
			    fd);
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) ||
		    fcntl(fd, F_SETFD, FD_CLOEXEC))
			die(1, "systemd's socket %d: %s", fd, strerror(errno));
		srv.listen_fds[i] = fd;
	}
	srv.nlisten = (unsigned int)n;
	srv.listen_shared = true;
	return n;
#else
	if (getenv("LISTEN_FDS"))
		log_msg(LOG_WARN, "LISTEN_FDS ignored: this build has no systemd support");
	return 0;
#endif
}

/*
 * Whether systemd passed sockets, asked before the command line is
 * checked (a --listen is then optional) without taking them:
 * take_systemd_sockets() does, after the check, and dies on a
 * malformed LISTEN_FDS (counted as passed here, so that its message is
 * the one given).
 */
static bool systemd_sockets_passed(void)
{
#ifndef TLSXD_NO_SYSTEMD
	return sd_listen_fds(0) != 0;
#else
	return false;
#endif
}

/* The CPUs we may run on (sched_getaffinity), as a worker count. */
static unsigned int cpu_count(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		n = CPU_COUNT(&set);
	else
		n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > 1024 ? 1024 : (unsigned int)n;
}

static void write_pid_file(const char *path)
{
	char buf[24];
	int fd, n;

	/* As root, maybe in a shared directory: never through a symlink. */
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	if (fd < 0)
		die(1, "--pid-file %s: %s", path, strerror(errno));
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (write(fd, buf, (size_t)n) != n)
		die(1, "--pid-file %s: %s", path, strerror(errno));
	close(fd);
}

/*
 * --user NAME (or a numeric UID[:GID], for builds without NSS): the
 * groups, the gid, then the uid; then a check that root cannot be had
 * back.
 */
static void drop_privileges(const char *user)
{
	unsigned long uid, gid;
	char *end;

	errno = 0;
	uid = strtoul(user, &end, 10);
	if (end != user && (*end == '\0' || *end == ':') && !errno) {
		gid = uid;
		if (*end == ':') {
			const char *g = end + 1;

			gid = strtoul(g, &end, 10);
			if (end == g || *end)
				die(2, "--user %s: bad UID:GID", user);
		}
		if (setgroups(1, &(gid_t){ (gid_t)gid }))
			die(1, "--user %s: setgroups: %s", user,
			    strerror(errno));
	} else {
#ifndef TLSXD_NO_SYSTEMD
		struct passwd *pw = getpwnam(user);

		if (!pw)
			die(1, "--user %s: no such user", user);
		uid = pw->pw_uid;
		gid = pw->pw_gid;
		if (initgroups(user, (gid_t)gid))
			die(1, "--user %s: initgroups: %s", user,
			    strerror(errno));
#else
		/*
		 * The static build (the VM's) has no NSS to ask: glibc's
		 * getpwnam() would need its shared libraries at run time.
		 */
		die(2, "--user %s: this static build knows no user names: give UID[:GID]",
		    user);
#endif
	}
	if (setgid((gid_t)gid))
		die(1, "--user %s: setgid: %s", user, strerror(errno));
	if (setuid((uid_t)uid))
		die(1, "--user %s: setuid: %s", user, strerror(errno));
	if (uid != 0 && (!setuid(0) || !seteuid(0)))
		die(1, "--user %s: root could be regained after setuid", user);
}

/*
 * Enough descriptors for every connection (its socket, the file being
 * sent, with --body splice a pipe's two ends) and the open-file cache
 * on every worker: the soft limit is usually 1024.  Raised to what is
 * needed, the hard limit too when we may (as root, before the drop); a
 * shortfall is logged, since accepts past it fail with EMFILE.
 */
static void raise_nofile(void)
{
	unsigned long need = (unsigned long)srv.nworkers *
			     (conf.max_conns *
			      (conf.body == CONF_BODY_SPLICE ? 4 : 2) +
			      conf.open_file_cache) + 256;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	if (rl.rlim_cur >= need)
		return;
	if (rl.rlim_max < need) {
		struct rlimit want = { need, need };

		if (!setrlimit(RLIMIT_NOFILE, &want))
			return;
	}
	rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
	setrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur < need)
		log_msg(LOG_WARN, "RLIMIT_NOFILE is %llu, under the %lu that --max-conns %u on %u workers may use: accepts past it fail",
			(unsigned long long)rl.rlim_cur, need, conf.max_conns,
			srv.nworkers);
}

/* "https://127.0.0.1:8443/, https://[::]:8443/" from the sockets. */
static void listen_urls(char *out, size_t cap)
{
	size_t n = 0;
	unsigned int i;

	out[0] = '\0';
	for (i = 0; i < srv.nlisten && n < cap; i++) {
		struct sockaddr_storage ss;
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
		socklen_t len = sizeof(ss);
		char a[INET6_ADDRSTRLEN] = "?";
		unsigned int port = 0;
		int r;

		if (!getsockname(srv.listen_fds[i], (struct sockaddr *)&ss,
				 &len)) {
			if (ss.ss_family == AF_INET) {
				inet_ntop(AF_INET, &sin->sin_addr, a, sizeof(a));
				port = ntohs(sin->sin_port);
			} else if (ss.ss_family == AF_INET6) {
				inet_ntop(AF_INET6, &sin6->sin6_addr, a,
					  sizeof(a));
				port = ntohs(sin6->sin6_port);
			}
		}
		r = snprintf(out + n, cap - n, "%shttps://%s%s%s:%u/",
			     i ? ", " : "", ss.ss_family == AF_INET6 ? "[" : "",
			     a, ss.ss_family == AF_INET6 ? "]" : "", port);
		if (r < 0)
			break;
		n += (size_t)r;
	}
}

static void log_stats(void)
{
	const struct stats *in[1024];
	struct stats sum;
	unsigned int i;
	char *text = NULL, *line, *nl;
	size_t len = 0;
	FILE *f;

	for (i = 0; i < srv.nworkers; i++)
		in[i] = &srv.workers[i].stats;
	stats_sum(in, srv.nworkers, &sum);
	f = open_memstream(&text, &len);
	if (!f)
		return;
	stats_print(f, &sum);
	if (srv.alog)
		fprintf(f, "alog_lost %llu\n",
			(unsigned long long)access_log_lines_lost(srv.alog));
	fclose(f);
	for (line = text; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		log_msg(LOG_INFO, "stats: %.*s", (int)(nl - line), line);
	}
	free(text);
}

/*
 * The logs reopened (logrotate).  After --user the files are opened as
 * that user: logrotate must create them writable by it
 * (docs/tlsxd-config.md).  On a failure the old file stays in use.
 */
static void reopen_logs(void)
{
	int r;

	r = log_reopen();
	if (r)
		log_msg(LOG_ERR, "SIGHUP: cannot reopen --error-log %s as uid %u: %s; still writing to the old file",
			conf.error_log, (unsigned int)geteuid(), strerror(-r));
	if (srv.alog) {
		r = access_log_reopen(srv.alog);
		if (r)
			log_msg(LOG_ERR, "SIGHUP: cannot reopen --access-log %s as uid %u: %s; still writing to the old file",
				conf.access_log, (unsigned int)geteuid(),
				strerror(-r));
	}
}

/*
 * The root again, with the privileges tlsxd has now: the same path may
 * name another directory by now (a new tree renamed over the old one),
 * as nginx, which opens by path, would see.  The new fd; -1 to keep the
 * old one (the same directory, or the same path that cannot be opened
 * now: warned); -2 with @msg for a new path that cannot be opened.
 */
static int reopen_root(const struct tlsxd_conf *nc, char *msg, size_t len)
{
	bool same_path = !strcmp(nc->root, conf.root);
	struct stat a, b;
	int fd;

	fd = server_root_open(nc->root, msg, len);
	if (fd < 0) {
		if (!same_path)
			return -2;
		log_msg(LOG_WARN, "SIGHUP: %s (uid %u); still serving the root opened before",
			msg, (unsigned int)geteuid());
		return -1;
	}
	if (same_path && !fstat(fd, &a) && !fstat(srv.site.root_fd, &b) &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A log file that would be switched to can be opened (and is created). */
static int can_open_log(const char *now, const char *next, const char *what,
			char *msg, size_t len)
{
	int fd;

	if (conf_same_str(now, next) || !next || !strcmp(next, "-"))
		return 0;
	fd = open(next, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0) {
		snprintf(msg, len, "--%s %s: %s (uid %u)", what, next,
			 strerror(errno), (unsigned int)geteuid());
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * The logs switched to the new paths (the workers are paused: no line
 * is being written).  A failure keeps the old file, logged.
 */
static void switch_logs(const struct tlsxd_conf *old)
{
	int r;

	if (!conf_same_str(old->error_log, conf.error_log)) {
		r = log_set_path(conf.error_log);
		if (r)
			log_msg(LOG_ERR, "SIGHUP: --error-log %s: %s; still writing to the old file",
				conf.error_log, strerror(-r));
	}
	if (srv.alog && !conf_same_str(old->access_log, conf.access_log)) {
		r = access_log_set_path(srv.alog, conf.access_log);
		if (r)
			log_msg(LOG_ERR, "SIGHUP: --access-log %s: %s; still writing to the old file",
				conf.access_log, strerror(-r));
	}
	if (srv.alog)
		access_log_set_format(srv.alog, conf.access_log_format);
	log_set_debug(conf.debug);
}

/*
 * SIGHUP (docs/tlsxd-config.md, "Signals"): the command line parsed
 * again, so --config FILE is read again, as nginx's reload does.  All
 * that can fail is built first (the TLS configuration with its chains
 * and ticket keys, the root, the MIME table, the new log files); any
 * failure keeps the old configuration entirely.  Then the workers are
 * paused between requests while *conf and srv.site are replaced (no
 * connection is dropped; the pause is logged), the new TLS configuration
 * is published for new handshakes, and the logs are reopened
 * (logrotate).
 */
static void reload(void)
{
	struct tlsxd_conf nc, old;
	struct tlsx_config *cfg = NULL;
	struct mime_table *mime = NULL, *old_mime;
	const char *warn = NULL;
	struct timespec ts, t0, t1;
	char msg[ERR_MAX], state[64];
	int r, root_fd = -1, old_root = -1;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(state, sizeof(state), "RELOADING=1\nMONOTONIC_USEC=%llu",
		 (unsigned long long)ts.tv_sec * 1000000ULL +
		 (unsigned long long)ts.tv_nsec / 1000);
	notify(state);
	/* --help and --version made tlsxd exit at start: r is 0 or -1. */
	r = runconf_build(&nc, g_argc, g_argv, conf.systemd, &conf, &sized,
			  msg, sizeof(msg));
	if (r)
		goto fail;
	cfg = server_tls_build(&nc, msg, sizeof(msg));
	if (!cfg)
		goto fail;
	root_fd = reopen_root(&nc, msg, sizeof(msg));
	if (root_fd == -2)
		goto fail;
	mime = mime_load(nc.mime_types, &warn);
	if (!mime) {
		snprintf(msg, sizeof(msg), "out of memory");
		goto fail;
	}
	if (can_open_log(conf.error_log, nc.error_log, "error-log", msg,
			 sizeof(msg)) ||
	    can_open_log(conf.access_log, nc.access_log, "access-log", msg,
			 sizeof(msg)))
		goto fail;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!server_pause(&srv, PAUSE_MS)) {
		snprintf(msg, sizeof(msg),
			 "the workers did not pause within %u ms", PAUSE_MS);
		goto fail;
	}

	/* The workers wait: nothing of theirs reads these now. */
	old = conf;
	conf = nc;
	old_mime = srv.mime;
	srv.mime = mime;
	srv.site.mime = mime;
	if (root_fd >= 0) {
		old_root = srv.site.root_fd;
		srv.site.root_fd = root_fd;
		srv.root_gen++;
	}
	runconf_site(&srv.site, &conf);
	switch_logs(&old);
	server_resume(&srv);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	server_tls_set(&srv, cfg);
	atomic_fetch_add(&srv.reload_gen, 1);
	mime_free(old_mime);
	if (old_root >= 0)
		close(old_root);
	conf_free(&old);
	if (warn)
		log_msg(LOG_WARN, "SIGHUP: %s", warn);
	/* From the pause asked to the workers let go: what requests waited. */
	log_msg(LOG_INFO, "SIGHUP: certificates and ticket keys reloaded, the configuration re-read%s%s (workers paused %lld us)",
		root_fd >= 0 ? ", root " : "", root_fd >= 0 ? conf.root : "",
		(long long)(t1.tv_sec - t0.tv_sec) * 1000000 +
		(t1.tv_nsec - t0.tv_nsec) / 1000);
	reopen_logs();
	notify("READY=1");
	return;
fail:
	log_msg(LOG_ERR, "SIGHUP: the new configuration failed, the old one stays: %s",
		msg);
	if (cfg)
		tlsx_config_free(cfg);
	mime_free(mime);
	if (root_fd >= 0)
		close(root_fd);
	conf_free(&nc);
	/* logrotate's SIGHUP still gets its new files. */
	reopen_logs();
	notify("READY=1");
}

static void start_workers(void)
{
	unsigned int i;
	int r;

	srv.workers = calloc(srv.nworkers, sizeof(*srv.workers));
	if (!srv.workers)
		die(1, "out of memory");
	for (i = 0; i < srv.nworkers; i++) {
		struct worker *w = &srv.workers[i];

		w->srv = &srv;
		w->id = i;
		w->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (w->wake_fd < 0)
			die(1, "eventfd: %s", strerror(errno));
	}
	/* The signal mask (all blocked, main()) is inherited by each. */
	for (i = 0; i < srv.nworkers; i++) {
		char name[16];

		r = pthread_create(&srv.workers[i].thread, NULL, worker_main,
				   &srv.workers[i]);
		if (r)
			die(1, "pthread_create: %s", strerror(r));
		/* "tlsxd-w3" in top -H, perf and /proc/PID/task/TID/comm. */
		snprintf(name, sizeof(name), "tlsxd-w%u", i % 10000);
		pthread_setname_np(srv.workers[i].thread, name);
	}
}

static bool stop_signal(int sig)
{
	return sig == SIGTERM || sig == SIGINT || sig == SIGQUIT;
}

static long long mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/*
 * The stop that began the drain, delivered again: the same signal from
 * the same sender within STOP_REPEAT_MS.  timeout(1) signals its child
 * and then its whole process group, so the child gets each signal twice,
 * microseconds apart (merged into one only when both are pending before
 * we take the first); so does a kill of a process group that also names
 * the pid.  Taken as a second stop, one request to drain would cut every
 * response in flight, depending on when this thread ran.
 */
static bool same_stop(const siginfo_t *first, long long first_ms,
		      const siginfo_t *again)
{
	return first && again->si_signo == first->si_signo &&
	       again->si_code == first->si_code &&
	       again->si_pid == first->si_pid &&
	       mono_ms() - first_ms < STOP_REPEAT_MS;
}

/*
 * Stops the workers: stopping set, each woken, then joined.  A second
 * SIGTERM/SIGINT/SIGQUIT (not @first, the stop taken, again: same_stop();
 * @first is NULL when a worker's failure stopped us), or a worker still
 * there DRAIN_GRACE_MS past the drain timeout, ends the wait.  The exit
 * code, or -1 when workers still run.
 */
static int stop_workers(const sigset_t *sigs, bool *joined,
			const siginfo_t *first)
{
	struct timespec tick = { 0, 100 * 1000 * 1000 };
	long long first_ms = mono_ms();
	long long end_ms = first_ms + conf.drain_timeout_ms + DRAIN_GRACE_MS;
	unsigned int i, left;
	int code = 0;

	atomic_store(&srv.stopping, true);
	notify("STOPPING=1");
	for (i = 0; i < srv.nworkers; i++)
		worker_wake(&srv.workers[i]);
	for (;;) {
		siginfo_t si;
		int sig;

		left = 0;
		for (i = 0; i < srv.nworkers; i++) {
			if (joined[i])
				continue;
			if (pthread_tryjoin_np(srv.workers[i].thread, NULL)) {
				left++;
				continue;
			}
			joined[i] = true;
			if (srv.workers[i].exit_code)
				code = 1;
		}
		if (!left)
			return code;
		sig = sigtimedwait(sigs, &si, &tick);
		if (stop_signal(sig) && same_stop(first, first_ms, &si)) {
			log_msg(LOG_INFO, "%s again from pid %d: the same stop, still draining",
				strsignal(sig), (int)si.si_pid);
		} else if (stop_signal(sig)) {
			log_msg(LOG_WARN, "second stop signal: exiting without waiting for %u workers",
				left);
			return -1;
		}
		if (mono_ms() >= end_ms) {
			log_msg(LOG_ERR, "%u workers still draining after %u ms: exiting",
				left, conf.drain_timeout_ms + DRAIN_GRACE_MS);
			return -1;
		}
	}
}

/* The ticket key file as last loaded: what a change is told by. */
static struct stat ticket_seen;

static bool ticket_stamp_changed(const struct stat *a, const struct stat *b)
{
	return a->st_dev != b->st_dev || a->st_ino != b->st_ino ||
	       a->st_size != b->st_size ||
	       a->st_mtim.tv_sec != b->st_mtim.tv_sec ||
	       a->st_mtim.tv_nsec != b->st_mtim.tv_nsec ||
	       a->st_ctim.tv_sec != b->st_ctim.tv_sec ||
	       a->st_ctim.tv_nsec != b->st_ctim.tv_nsec;
}

/*
 * --ticket-keys-watch: polled once a second from this thread (a stat(2);
 * inotify would miss a file replaced by rename in a directory it does
 * not watch, and a poll needs no descriptor kept across reloads).  A
 * change rebuilds the TLS configuration from the running settings, as
 * SIGHUP does for it, and publishes it with one pointer store
 * (server_tls_set()): workers are not paused, handshakes in progress
 * keep the old keys.  A file that does not load (half written: the
 * rotation tool renames a whole file into place instead) keeps the old
 * keys, logged once per change.
 */
static void ticket_keys_poll(void)
{
	struct tlsx_config *cfg;
	char msg[ERR_MAX];
	struct stat st;

	if (!conf.ticket_keys_watch || !conf.ticket_key_file ||
	    stat(conf.ticket_key_file, &st) ||
	    !ticket_stamp_changed(&st, &ticket_seen))
		return;
	ticket_seen = st;
	cfg = server_tls_build(&conf, msg, sizeof(msg));
	if (!cfg) {
		log_msg(LOG_ERR, "ticket-keys %s changed but does not load, the old keys stay: %s",
			conf.ticket_key_file, msg);
		return;
	}
	server_tls_set(&srv, cfg);
	log_msg(LOG_INFO, "ticket-keys %s changed: keys reloaded",
		conf.ticket_key_file);
}

static void ticket_keys_seen(void)
{
	if (!conf.ticket_key_file || stat(conf.ticket_key_file, &ticket_seen))
		memset(&ticket_seen, 0, sizeof(ticket_seen));
}

/* Waits for signals until a stop; the exit code, -1 as stop_workers(). */
static int signal_loop(const sigset_t *sigs)
{
	struct timespec tick = { 1, 0 };
	bool *joined = calloc(srv.nworkers, sizeof(bool));
	const siginfo_t *first = NULL;
	siginfo_t si;
	unsigned int i;
	int sig, r, code = 0;

	if (!joined)
		die(1, "out of memory");
	for (;;) {
		sig = sigtimedwait(sigs, &si, &tick);
		if (stop_signal(sig)) {
			log_msg(LOG_INFO, "%s: draining", strsignal(sig));
			first = &si;
			break;
		}
		if (sig == SIGHUP) {
			ticket_keys_seen();
			reload();
		} else if (sig == SIGUSR1) {
			log_stats();
		} else if (sig < 0 && errno == EAGAIN) {
			/* A worker that returned by itself failed: stop all. */
			for (i = 0; i < srv.nworkers; i++) {
				if (pthread_tryjoin_np(srv.workers[i].thread,
						       NULL))
					continue;
				joined[i] = true;
				log_msg(LOG_ERR, "worker %u stopped (%d): stopping",
					i, srv.workers[i].exit_code);
				code = 1;
			}
			if (code)
				break;
			ticket_keys_poll();
		}
	}
	r = stop_workers(sigs, joined, first);
	free(joined);
	return r < 0 ? r : r | code;
}

/*
 * Free memory each malloc arena (a worker's is its own) keeps at its top
 * rather than give back.  With glibc's default (128 KiB) a burst of
 * closing HTTP/2 connections (each some 80 KiB of state and buffers:
 * docs/http2.md, "Memory") gave the heap's top back, and the next
 * connections faulted it in again, zeroed: 8.6 page faults and about
 * 100 us of CPU a new h2 connection, 200 at once (docs/perf-http.md).
 * Bounded: at most this is kept per arena; the rest still goes back.
 */
#define TLSXD_MALLOC_TOP_PAD	(16 << 20)

int main(int argc, char **argv)
{
	static const int waited[] = { SIGTERM, SIGINT, SIGQUIT, SIGHUP,
				      SIGUSR1 };
	static const int sync_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL,
					 SIGTRAP, SIGABRT };
	enum tlsx_record_layer rl;
	struct tlsx_config *cfg;
	const char *warn = NULL;
	sigset_t all, sigs;
	char err[ERR_MAX], urls[1024];
	bool missing;
	unsigned int i;
	int r, code, metrics_fd = -1;

	/* Before the workers and their arenas. */
	mallopt(M_TOP_PAD, TLSXD_MALLOC_TOP_PAD);
	r = runconf_build(&conf, argc, argv, systemd_sockets_passed(), NULL,
			  NULL, err, sizeof(err));
	if (r > 0)
		return 0;
	if (r < 0)
		die(2, "%s", err);
	conf.systemd = take_systemd_sockets() > 0;
	g_argc = argc;
	g_argv = argv;
	sized.max_conns = conf.max_conns;
	sized.header_bytes_max = conf.http.header_bytes_max;
#ifdef TLSXD_NO_SYSTEMD
	if (conf.user && (conf.user[0] < '0' || conf.user[0] > '9'))
		die(2, "--user %s: this static build knows no user names: give UID[:GID]",
		    conf.user);
#endif
	r = log_open(conf.error_log, conf.debug);
	if (r)
		die(1, "--error-log %s: %s", conf.error_log, strerror(-r));

	/*
	 * Signals: SIGPIPE ignored (a peer's reset is an EPIPE, not our
	 * death); every other asynchronous signal blocked here, before any
	 * thread exists, so the workers inherit the mask and only
	 * sigtimedwait() in this thread takes them.
	 */
	signal(SIGPIPE, SIG_IGN);
	sigfillset(&all);
	for (i = 0; i < ARRAY_SIZE(sync_sigs); i++)
		sigdelset(&all, sync_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	sigemptyset(&sigs);
	for (i = 0; i < ARRAY_SIZE(waited); i++)
		sigaddset(&sigs, waited[i]);

	srv.conf = &conf;
	pthread_mutex_init(&srv.tls_lock, NULL);
	server_pause_init(&srv);
	srv.site.root_fd = server_root_open(conf.root, err, sizeof(err));
	if (srv.site.root_fd < 0)
		die(1, "%s", err);
	srv.mime = mime_load(conf.mime_types, &warn);
	if (!srv.mime)
		die(1, "out of memory");
	if (warn)
		log_msg(LOG_WARN, "%s", warn);
	srv.site.mime = srv.mime;
	srv.site.index = "index.html";
	srv.site.server = TLSXD_SERVER;
	runconf_site(&srv.site, &conf);

	ticket_keys_seen();
	cfg = server_tls_build(&conf, err, sizeof(err));
	if (!cfg)
		die(1, "%s", err);
	server_tls_set(&srv, cfg);

	srv.nworkers = conf.workers ? conf.workers : cpu_count();
	raise_nofile();
	if (conf.systemd) {
		if (conf.nlisten)
			log_msg(LOG_INFO, "--listen ignored: %u sockets from systemd",
				srv.nlisten);
	} else {
		r = server_listen(&srv, srv.nworkers, err, sizeof(err));
		if (r < 0)
			die(1, "%s", err);
		if (r > 0)
			log_msg(LOG_WARN, "%s", err);
	}
	if (conf.access_log) {
		srv.alog = access_log_open(conf.access_log, err, sizeof(err));
		if (!srv.alog)
			die(1, "--access-log %s", err);
		access_log_set_format(srv.alog, conf.access_log_format);
	}
	if (conf.metrics) {
		/* Bound before the drop, as the listeners. */
		metrics_fd = metrics_listen(conf.metrics, err, sizeof(err));
		if (metrics_fd < 0)
			die(1, "%s", err);
	}
	/* Before the drop: loading a ULP module needs CAP_NET_ADMIN. */
	rl = server_probe_record_layer(conf.record_layer, &missing);
	if (conf.pid_file)
		write_pid_file(conf.pid_file);

	if (conf.user)
		drop_privileges(conf.user);
	else if (geteuid() == 0)
		log_msg(LOG_WARN, "running as root: --user NAME drops privileges after binding");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		log_msg(LOG_WARN, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));

	start_workers();
	if (metrics_fd >= 0) {
		r = metrics_start(&srv, metrics_fd, tlsx_record_layer_name(rl));
		if (r)
			die(1, "--metrics: %s", strerror(-r));
		log_msg(LOG_INFO, "metrics on http://%s/metrics", conf.metrics);
	}
	listen_urls(urls, sizeof(urls));
	log_msg(LOG_INFO, "tlsxd %s: listening on %s, root %s, %u workers, record layer %s",
		TLSXD_VERSION, urls, conf.root, srv.nworkers,
		rl == TLSX_RL_USER && conf.record_layer == TLSX_RL_AUTO ?
		"user (no kernel TLS here)" : tlsx_record_layer_name(rl));
	if (missing)
		log_msg(LOG_WARN, "--record-layer %s: TCP_ULP \"%s\" is not available here: handshakes will fail",
			tlsx_record_layer_name(rl), tlsx_record_layer_name(rl));
	notify("READY=1\nSTATUS=serving");

	code = signal_loop(&sigs);
	log_stats();
	if (code < 0) {
		/* Workers still run: free nothing under them. */
		if (conf.pid_file)
			unlink(conf.pid_file);
		_exit(1);
	}
	metrics_stop();
	if (srv.alog)
		access_log_close(srv.alog);
	server_tls_set(&srv, NULL);
	server_listen_close(&srv);
	for (i = 0; i < srv.nworkers; i++)
		close(srv.workers[i].wake_fd);
	free(srv.workers);
	mime_free(srv.mime);
	close(srv.site.root_fd);
	if (conf.pid_file)
		unlink(conf.pid_file);	/* may fail after --user: harmless */
	log_msg(LOG_INFO, "exiting (%d)", code);
	conf_free(&conf);
	return code;
}
