// SPDX-License-Identifier: GPL-2.0
/*
 * http_idle.c - idle keep-alive connections for "tlsx-bench http"'s
 * memory row: each one a full TLS 1.3 handshake (OpenSSL's libssl, a
 * fresh SSL object, no session offered) and one GET answered in full,
 * then left open and silent, as a browser leaves a connection between
 * page loads.  h2load cannot hold connections idle, hence this client.
 *
 * The server's resident memory before and after opening them, over
 * their number, is what one idle connection costs it in userspace (the
 * kernel's socket buffers are not in RSS, for either server).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include "http.h"

static int tcp_connect(int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons((uint16_t)port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct timeval tv = { 10, 0 };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	if (fd < 0)
		return -1;
	/* A server that stops answering fails the row, not the run. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Reads one response to its end: the head, then Content-Length bytes.
 * Only what this benchmark's servers send is understood (a 200 with a
 * Content-Length); anything else fails.
 */
static int read_response(SSL *ssl, size_t size, char *why)
{
	char buf[16384 + 1], *end, *cl;
	size_t have = 0, body, want;
	int r;

	for (;;) {
		if (have == sizeof(buf) - 1)
			return hb_why(why, "response head over %zu bytes",
				       have);
		r = SSL_read(ssl, buf + have, (int)(sizeof(buf) - 1 - have));
		if (r <= 0)
			return hb_why(why, "reading the response: SSL error %d",
				       SSL_get_error(ssl, r));
		have += (size_t)r;
		buf[have] = '\0';
		end = strstr(buf, "\r\n\r\n");
		if (end)
			break;
	}
	if (strncmp(buf, "HTTP/1.1 200", 12))
		return hb_why(why, "response: %.40s", buf);
	cl = strcasestr(buf, "\r\ncontent-length:");
	if (!cl || cl > end || strtoull(cl + 17, NULL, 10) != size)
		return hb_why(why, "no Content-Length of %zu", size);
	body = have - (size_t)(end + 4 - buf);
	for (want = size; body < want; body += (size_t)r) {
		r = SSL_read(ssl, buf, (int)(sizeof(buf) - 1));
		if (r <= 0)
			return hb_why(why, "reading the body: SSL error %d",
				       SSL_get_error(ssl, r));
	}
	return body == want ? 0 : hb_why(why, "%zu body bytes, %zu expected",
					  body, want);
}

static int open_one(struct hb_idle *id, int port, const char *path,
		    size_t size, char *why)
{
	char req[256];
	SSL *ssl;
	int fd, n;

	fd = tcp_connect(port);
	if (fd < 0)
		return hb_why(why, "connect: %s", strerror(errno));
	ssl = SSL_new(id->ctx);
	if (!ssl || !SSL_set_fd(ssl, fd) ||
	    !SSL_set_tlsext_host_name(ssl, "localhost") ||
	    SSL_connect(ssl) != 1) {
		hb_why(why, "handshake failed: %s",
			ERR_reason_error_string(ERR_peek_last_error()) ?: "?");
		goto fail;
	}
	n = snprintf(req, sizeof(req),
		     "GET /%s HTTP/1.1\r\nHost: localhost\r\n\r\n", path);
	if (SSL_write(ssl, req, n) != n) {
		hb_why(why, "sending the request failed");
		goto fail;
	}
	if (read_response(ssl, size, why))
		goto fail;
	id->ssl[id->n] = ssl;
	id->fd[id->n] = fd;
	id->n++;
	return 0;
fail:
	ERR_clear_error();
	SSL_free(ssl);
	close(fd);
	return -1;
}

int hb_idle_open(struct hb_idle *id, int port, const char *path,
		 size_t size, unsigned int n, char *why)
{
	memset(id, 0, sizeof(*id));
	id->ssl = calloc(n, sizeof(*id->ssl));
	id->fd = calloc(n, sizeof(*id->fd));
	id->ctx = SSL_CTX_new(TLS_client_method());
	if (!id->ssl || !id->fd || !id->ctx) {
		hb_idle_close(id);
		return hb_why(why, "out of memory");
	}
	SSL_CTX_set_min_proto_version(id->ctx, TLS1_3_VERSION);
	/* The certificate is the benchmark's own, self-signed. */
	SSL_CTX_set_verify(id->ctx, SSL_VERIFY_NONE, NULL);
	/* No session cache: every connection a full handshake. */
	SSL_CTX_set_session_cache_mode(id->ctx, SSL_SESS_CACHE_OFF);
	while (id->n < n)
		if (open_one(id, port, path, size, why))
			return -1;
	return 0;
}

void hb_idle_close(struct hb_idle *id)
{
	unsigned int i;

	for (i = 0; i < id->n; i++) {
		SSL_free(id->ssl[i]);
		close(id->fd[i]);
	}
	free(id->ssl);
	free(id->fd);
	SSL_CTX_free(id->ctx);
	memset(id, 0, sizeof(*id));
}
