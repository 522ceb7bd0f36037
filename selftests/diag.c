// SPDX-License-Identifier: GPL-2.0
/*
 * diag.c - what inet_diag (ss -i) reports about a socket with the ULP:
 * INET_DIAG_ULP_INFO with the ULP's name and kTLS's INET_ULP_INFO_TLS
 * attributes (version, cipher, TX and RX configuration, RX no-pad), the
 * same for tlsx as for the kernel's tls.
 */
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/tls.h>
#include <stdlib.h>

#include "tlsx_test.h"
#include "kselftest_harness.h"

/* The attributes found for one socket; -1 where absent. */
struct tls_diag {
	char ulp[16];
	int version, cipher, txconf, rxconf, no_pad;
};

static void parse_tls(struct nlattr *nest, struct tls_diag *d)
{
	int rem = nest->nla_len - NLA_HDRLEN;
	struct nlattr *a = (void *)((char *)nest + NLA_HDRLEN);

	for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len),
	     a = (void *)((char *)a + NLA_ALIGN(a->nla_len))) {
		unsigned short v = *(unsigned short *)((char *)a + NLA_HDRLEN);

		switch (a->nla_type & NLA_TYPE_MASK) {
		case TLS_INFO_VERSION:
			d->version = v;
			break;
		case TLS_INFO_CIPHER:
			d->cipher = v;
			break;
		case TLS_INFO_TXCONF:
			d->txconf = v;
			break;
		case TLS_INFO_RXCONF:
			d->rxconf = v;
			break;
		case TLS_INFO_RX_NO_PAD:
			d->no_pad = 1;
			break;
		}
	}
}

static void parse_ulp(struct nlattr *nest, struct tls_diag *d)
{
	int rem = nest->nla_len - NLA_HDRLEN;
	struct nlattr *a = (void *)((char *)nest + NLA_HDRLEN);

	for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem;
	     rem -= NLA_ALIGN(a->nla_len),
	     a = (void *)((char *)a + NLA_ALIGN(a->nla_len))) {
		if ((a->nla_type & NLA_TYPE_MASK) == INET_ULP_INFO_NAME)
			snprintf(d->ulp, sizeof(d->ulp), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 (char *)a + NLA_HDRLEN);
		else if ((a->nla_type & NLA_TYPE_MASK) == INET_ULP_INFO_TLS)
			parse_tls(a, d);
	}
}

/*
 * Ask inet_diag about the TCP socket bound to local port @port.
 * Return: 0, -ENOENT if it is not listed, -EOPNOTSUPP if TCP sockets
 * cannot be dumped (no tcp_diag module).
 */
static int diag_query(unsigned short port, struct tls_diag *d)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} q = {
		.nlh = {
			.nlmsg_len = sizeof(q),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.req = {
			.sdiag_family = AF_INET,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_states = 1 << 1,	/* TCP_ESTABLISHED */
			/* The ULP's attributes come with INET_DIAG_INFO. */
			.idiag_ext = 1 << (INET_DIAG_INFO - 1),
		},
	};
	static char buf[65536];
	int fd, n, found = -ENOENT;

	memset(d, 0, sizeof(*d));
	d->version = d->cipher = d->txconf = d->rxconf = -1;
	fd = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	if (send(fd, &q, sizeof(q), 0) != sizeof(q)) {
		close(fd);
		return -errno;
	}
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		struct nlmsghdr *h = (void *)buf;

		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			struct inet_diag_msg *m = NLMSG_DATA(h);
			struct nlattr *a;
			int rem;

			if (h->nlmsg_type == NLMSG_ERROR) {
				found = -EOPNOTSUPP;
				goto out;
			}
			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (ntohs(m->id.idiag_sport) != port)
				continue;
			found = 0;
			a = (void *)(m + 1);
			rem = h->nlmsg_len - NLMSG_LENGTH(sizeof(*m));
			for (; rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
			       a->nla_len <= rem;
			     rem -= NLA_ALIGN(a->nla_len),
			     a = (void *)((char *)a + NLA_ALIGN(a->nla_len)))
				if ((a->nla_type & NLA_TYPE_MASK) ==
				    INET_DIAG_ULP_INFO)
					parse_ulp(a, d);
		}
	}
out:
	close(fd);
	return found;
}

static unsigned short local_port(int fd)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	if (getsockname(fd, (struct sockaddr *)&sa, &len))
		return 0;
	return ntohs(sa.sin_port);
}

FIXTURE(diag)
{
	int cfd, sfd;
	struct tls12_crypto_info_chacha20_poly1305 ci;
};

FIXTURE_VARIANT(diag)
{
	const char *ulp;
};

FIXTURE_VARIANT_ADD(diag, tlsx)
{
	.ulp = "tlsx",
};

FIXTURE_VARIANT_ADD(diag, tls)
{
	.ulp = "tls",
};

FIXTURE_SETUP(diag)
{
	ASSERT_TRUE(ulp_available(variant->ulp)) {
		TH_LOG("ULP %s is not registered", variant->ulp);
	}
	ASSERT_EQ(0, tcp_pair(&self->cfd, &self->sfd));
	ASSERT_EQ(0, setsockopt(self->cfd, IPPROTO_TCP, TCP_ULP, variant->ulp,
				strlen(variant->ulp)));
	{
		struct tls_diag d;

		if (diag_query(0, &d) == -EOPNOTSUPP)
			SKIP(return, "no tcp_diag in this kernel (module not loaded)");
	}
	memset(&self->ci, 0x21, sizeof(self->ci));
	self->ci.info.version = TLS_1_3_VERSION;
	self->ci.info.cipher_type = TLS_CIPHER_CHACHA20_POLY1305;
}

FIXTURE_TEARDOWN(diag)
{
	close(self->cfd);
	close(self->sfd);
}

TEST_F(diag, attributes_follow_setsockopt)
{
	unsigned short port = local_port(self->cfd);
	struct tls_diag d;
	int one = 1;

	/* Attached, no keys: name and both directions "base". */
	ASSERT_EQ(0, diag_query(port, &d));
	EXPECT_STREQ(variant->ulp, d.ulp);
	EXPECT_EQ(-1, d.version);
	EXPECT_EQ(-1, d.cipher);
	EXPECT_EQ(TLS_CONF_BASE, d.txconf);
	EXPECT_EQ(TLS_CONF_BASE, d.rxconf);
	EXPECT_EQ(0, d.no_pad);

	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_TX, &self->ci,
				sizeof(self->ci)));
	ASSERT_EQ(0, diag_query(port, &d));
	EXPECT_EQ(TLS_1_3_VERSION, d.version);
	EXPECT_EQ(TLS_CIPHER_CHACHA20_POLY1305, d.cipher);
	EXPECT_EQ(TLS_CONF_SW, d.txconf);
	EXPECT_EQ(TLS_CONF_BASE, d.rxconf);

	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_RX, &self->ci,
				sizeof(self->ci)));
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_RX_EXPECT_NO_PAD,
				&one, sizeof(one)));
	ASSERT_EQ(0, diag_query(port, &d));
	EXPECT_EQ(TLS_CONF_SW, d.txconf);
	EXPECT_EQ(TLS_CONF_SW, d.rxconf);
	EXPECT_EQ(1, d.no_pad);
}

/* A socket without the ULP has no ULP attributes. */
TEST_F(diag, plain_socket_has_none)
{
	struct tls_diag d;

	ASSERT_EQ(0, diag_query(local_port(self->sfd), &d));
	EXPECT_STREQ("", d.ulp);
	EXPECT_EQ(-1, d.txconf);
}

TEST_HARNESS_MAIN
