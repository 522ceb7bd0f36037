// SPDX-License-Identifier: GPL-2.0
/*
 * listen_check.c - the TCP listeners on our port that are not ours, by
 * one NETLINK_SOCK_DIAG dump per family (see listen_check.h for why).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "listen_check.h"

static const unsigned char v4mapped[12] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
};

void listen_span_of(const struct sockaddr *sa, bool v6only,
		    struct listen_span *sp)
{
	static const unsigned char any6[16];
	const struct sockaddr_in6 *sin6 = (const void *)sa;
	const struct sockaddr_in *sin = (const void *)sa;
	const unsigned char *a;

	memset(sp, 0, sizeof(*sp));
	if (sa->sa_family == AF_INET) {
		sp->port = ntohs(sin->sin_port);
		memcpy(sp->a4, &sin->sin_addr, 4);
		sp->v4 = sin->sin_addr.s_addr == htonl(INADDR_ANY) ?
			 LISTEN_ANY : LISTEN_ONE;
		return;
	}
	if (sa->sa_family != AF_INET6)
		return;
	sp->port = ntohs(sin6->sin6_port);
	a = sin6->sin6_addr.s6_addr;
	if (!memcmp(a, v4mapped, sizeof(v4mapped))) {
		/* Bound to ::ffff:a.b.c.d: IPv4's a.b.c.d only. */
		memcpy(sp->a4, a + 12, 4);
		sp->v4 = memcmp(sp->a4, any6, 4) ? LISTEN_ONE : LISTEN_ANY;
	} else if (!memcmp(a, any6, sizeof(any6))) {
		sp->v6 = LISTEN_ANY;
		sp->v4 = v6only ? LISTEN_NONE : LISTEN_ANY;
	} else {
		memcpy(sp->a6, a, 16);
		sp->v6 = LISTEN_ONE;
	}
}

static bool side_overlaps(enum listen_side x, const unsigned char *ax,
			  enum listen_side y, const unsigned char *ay,
			  size_t alen)
{
	if (x == LISTEN_NONE || y == LISTEN_NONE)
		return false;
	return x == LISTEN_ANY || y == LISTEN_ANY || !memcmp(ax, ay, alen);
}

bool listen_spans_overlap(const struct listen_span *a,
			  const struct listen_span *b)
{
	return a->port == b->port &&
	       (side_overlaps(a->v4, a->a4, b->v4, b->a4, 4) ||
		side_overlaps(a->v6, a->a6, b->v6, b->a6, 16));
}

int listen_check_open(void)
{
	/* A dump is answered at once; never wait on it for long. */
	struct timeval tv = { .tv_sec = 2 };
	int fd, e;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* IPV6_V6ONLY of a dumped AF_INET6 socket, from its attributes. */
static bool diag_v6only(const struct nlmsghdr *h, const struct inet_diag_msg *m)
{
	int len = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*m));
	const struct rtattr *rta = (const void *)(m + 1);

	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
		if (rta->rta_type == INET_DIAG_SKV6ONLY &&
		    RTA_PAYLOAD(rta) >= 1)
			return *(const unsigned char *)RTA_DATA(rta);
	return false;
}

static void diag_describe(const struct inet_diag_msg *m, char *out,
			  size_t outlen)
{
	char host[INET6_ADDRSTRLEN];

	inet_ntop(m->idiag_family, m->id.idiag_src, host, sizeof(host));
	snprintf(out, outlen, m->idiag_family == AF_INET6 ?
		 "[%s]:%u, uid %u, inode %u" : "%s:%u, uid %u, inode %u",
		 host, ntohs(m->id.idiag_sport), m->idiag_uid,
		 m->idiag_inode);
}

/* The spans a dump looks for, ours, and which span a foreign one hit. */
struct check {
	const struct listen_span *want;
	unsigned int nwant;
	const ino_t *ours;
	unsigned int nours;
	unsigned int *which;
	char *found;
	size_t foundlen;
};

/* One dumped listener: 1 when it is someone else's on one of our spans. */
static int diag_foreign(const struct nlmsghdr *h, const struct check *k)
{
	const struct inet_diag_msg *m = NLMSG_DATA(h);
	struct sockaddr_storage ss = { 0 };
	struct listen_span sp;
	unsigned int i;

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
		return 0;
	for (i = 0; i < k->nours; i++)
		if (k->ours[i] == (ino_t)m->idiag_inode)
			return 0;
	if (m->idiag_family == AF_INET) {
		struct sockaddr_in *sin = (void *)&ss;

		sin->sin_family = AF_INET;
		sin->sin_port = m->id.idiag_sport;
		memcpy(&sin->sin_addr, m->id.idiag_src, 4);
	} else if (m->idiag_family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (void *)&ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = m->id.idiag_sport;
		memcpy(&sin6->sin6_addr, m->id.idiag_src, 16);
	} else {
		return 0;
	}
	listen_span_of((struct sockaddr *)&ss,
		       m->idiag_family == AF_INET6 && diag_v6only(h, m), &sp);
	for (i = 0; i < k->nwant; i++) {
		if (listen_spans_overlap(&k->want[i], &sp)) {
			*k->which = i;
			diag_describe(m, k->found, k->foundlen);
			return 1;
		}
	}
	return 0;
}

/* Each dump's sequence number: replies to an abandoned one are skipped. */
static uint32_t dump_seq;

static int dump_family(int nl, int family, const struct check *k)
{
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} req = {
		.h = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = ++dump_seq,
		},
		.r = {
			.sdiag_family = (uint8_t)family,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_states = 1U << TCP_LISTEN,
		},
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	/* Aligned for nlmsghdr; the kernel fills a reply to ~32 KiB. */
	static uint32_t buf[65536 / 4];
	const struct nlmsghdr *h;
	size_t off, step;
	ssize_t n;

	if (sendto(nl, &req, sizeof(req), 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) != (ssize_t)sizeof(req)) {
		snprintf(k->found, k->foundlen, "sock_diag request: %s",
			 strerror(errno));
		return 1;
	}
	for (;;) {
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

		n = recvmsg(nl, &msg, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (msg.msg_flags & MSG_TRUNC)) {
			snprintf(k->found, k->foundlen, "sock_diag dump: %s",
				 n < 0 ? strerror(errno) :
				 n ? "truncated" : "no answer");
			return 1;
		}
		for (off = 0; off + sizeof(*h) <= (size_t)n; off += step) {
			h = (const void *)((const char *)buf + off);
			step = NLMSG_ALIGN(h->nlmsg_len);
			if (h->nlmsg_len < sizeof(*h) ||
			    h->nlmsg_len > (size_t)n - off)
				break;		/* malformed: the rest too */
			if (h->nlmsg_seq != req.h.nlmsg_seq)
				continue;	/* an earlier dump's tail */
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				int code = EPROTO;

				if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(*e)))
					code = -e->error;
				snprintf(k->found, k->foundlen,
					 "sock_diag dump: %s", strerror(code));
				return 1;
			}
			if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
			    diag_foreign(h, k))
				return -1;
		}
	}
}

int listen_check(int nl, const struct listen_span *want, unsigned int nwant,
		 const ino_t *ours, unsigned int nours, unsigned int *which,
		 char *found, size_t foundlen)
{
	const struct check k = { want, nwant, ours, nours, which, found,
				 foundlen };
	int r = dump_family(nl, AF_INET, &k);

	if (!r)
		r = dump_family(nl, AF_INET6, &k);
	return r;
}
