// SPDX-License-Identifier: GPL-2.0
/*
 * client_hello.c - the client's ClientHello (4.1.2): its extensions in
 * the order written, the PSK offer last (client_psk.c), or the test
 * seam's exact bytes (RFC 8448's traces).
 */
#include <arpa/inet.h>

#include "handshake/engine/client_impl.h"

/* Certificates may be signed with PKCS #1 v1.5 (4.2.3). */
static const u16 cert_only_schemes[] = {
	TLSX_SIG_RSA_PKCS1_SHA256,
	TLSX_SIG_RSA_PKCS1_SHA384,
	TLSX_SIG_RSA_PKCS1_SHA512,
};

/* RFC 6066 3: "Literal IPv4 and IPv6 addresses are not permitted". */
static bool name_is_ip(const char *name)
{
	u8 addr[16];

	return inet_pton(AF_INET, name, addr) == 1 ||
	       inet_pton(AF_INET6, name, addr) == 1;
}

/* Opens extension @id in @w and marks it sent. */
void client_ext_open(struct tlsx_hs *hs, struct tlsx_wr *w,
		     enum tlsx_ext_id id)
{
	tlsx_wr_u16(w, tlsx_ext_def(id)->type);
	tlsx_wr_open(w, 2);
	hs->sent_exts |= TLSX_EXT_BIT(id);
}

static void write_sig_algs(struct tlsx_hs *hs, struct tlsx_wr *w, bool cert)
{
	unsigned int i;

	client_ext_open(hs, w, cert ? TLSX_EXT_SIGNATURE_ALGORITHMS_CERT :
		 TLSX_EXT_SIGNATURE_ALGORITHMS);
	tlsx_wr_open(w, 2);
	for (i = 0; i < hs->n_sig_schemes; i++)
		tlsx_wr_u16(w, hs->sig_schemes[i]);
	for (i = 0; cert && i < ARRAY_SIZE(cert_only_schemes); i++)
		tlsx_wr_u16(w, cert_only_schemes[i]);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
}

static void write_extensions(struct tlsx_hs *hs, struct tlsx_wr *w)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	unsigned int i;

	hs->sent_exts = 0;
	tlsx_wr_open(w, 2);
	if (hs->server_name[0] && !name_is_ip(hs->server_name)) {
		/* RFC 6066 3: ServerNameList with one host_name (0). */
		client_ext_open(hs, w, TLSX_EXT_SERVER_NAME);
		tlsx_wr_open(w, 2);
		tlsx_wr_u8(w, 0);
		tlsx_wr_vec(w, 2, hs->server_name, strlen(hs->server_name));
		tlsx_wr_close(w);
		tlsx_wr_close(w);
	}
	/* 4.2.7: NamedGroup named_group_list<2..2^16-1>. */
	client_ext_open(hs, w, TLSX_EXT_SUPPORTED_GROUPS);
	tlsx_wr_open(w, 2);
	for (i = 0; i < hs->n_groups; i++)
		tlsx_wr_u16(w, hs->groups[i]);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	write_sig_algs(hs, w, false);
	write_sig_algs(hs, w, true);
	if (cfg->alpn_len) {
		client_ext_open(hs, w, TLSX_EXT_ALPN);
		hs_write_alpn(w, cfg->alpn, cfg->alpn_len);
		tlsx_wr_close(w);
	}
	/*
	 * RFC 8449 4: "a TLS 1.3 endpoint MUST NOT send a value larger
	 * than 2^14 + 1" (a larger one configured says no limit, as that).
	 */
	if (cfg->record_size_limit) {
		client_ext_open(hs, w, TLSX_EXT_RECORD_SIZE_LIMIT);
		hs_write_record_size_limit(w, cfg->record_size_limit >
					   TLSX_REC_MAX_PLAIN + 1 ?
					   TLSX_REC_MAX_PLAIN + 1 :
					   cfg->record_size_limit);
		tlsx_wr_close(w);
	}
	/* 4.2.1: ProtocolVersion versions<2..254>: TLS 1.3 only. */
	client_ext_open(hs, w, TLSX_EXT_SUPPORTED_VERSIONS);
	tlsx_wr_open(w, 1);
	tlsx_wr_u16(w, TLSX_HS_VERSION_13);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	/*
	 * 4.2.9: the modes a ticket from this server may be used with
	 * (psk_dhe_ke, and psk_ke when allowed); sent without a PSK too,
	 * so that the server issues tickets.
	 */
	client_ext_open(hs, w, TLSX_EXT_PSK_KEY_EXCHANGE_MODES);
	tlsx_wr_open(w, 1);
	tlsx_wr_u8(w, 1);
	if (cfg->allow_psk_ke)
		tlsx_wr_u8(w, 0);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	/* 4.2.8: KeyShareEntry client_shares<0..2^16-1>. */
	client_ext_open(hs, w, TLSX_EXT_KEY_SHARE);
	tlsx_wr_open(w, 2);
	for (i = 0; i < hs->n_shares; i++) {
		tlsx_wr_u16(w, hs->shares[i].group);
		tlsx_wr_vec(w, 2, hs->shares[i].pub,
			    tlsx_kx_pub_len(&hs->shares[i]));
	}
	tlsx_wr_close(w);
	tlsx_wr_close(w);
	/* 4.2.2: the HelloRetryRequest's cookie, echoed. */
	if (hs->cookie) {
		client_ext_open(hs, w, TLSX_EXT_COOKIE);
		tlsx_wr_vec(w, 2, hs->cookie, hs->cookie_len);
		tlsx_wr_close(w);
	}
	if (hs->psk_offered)
		client_write_pre_shared_key(hs, w);
	tlsx_wr_close(w);
}

/*
 * The test seam: the ClientHello @ch replaces the one built; the state
 * the rest of the handshake checks against (Random, session id, the
 * extensions sent) is taken from it.
 */
static int use_test_hello(struct tlsx_hs *hs, struct hs_out *o, u8 *msg,
			  size_t *len)
{
	const u8 *ch = hs->hrr ? hs->test->client_hello2 :
			   hs->test->client_hello, *sid;
	size_t n = hs->hrr ? hs->test->client_hello2_len :
		   hs->test->client_hello_len, sid_len;
	struct tlsx_rd r, blk;
	struct tlsx_exts exts;
	int ret;

	if ((size_t)(msg - o->buf) + n + TLSX_REC_HDR > o->cap ||
	    n < TLSX_HS_MSG_HDR)
		return -ENOSPC;
	memcpy(msg, ch, n);
	*len = n;
	tlsx_rd_init(&r, ch + TLSX_HS_MSG_HDR + 2, n - TLSX_HS_MSG_HDR - 2);
	ret = tlsx_rd_copy(&r, hs->random, TLSX_HS_RANDOM);
	if (!ret)
		ret = tlsx_rd_vec(&r, 1, 0, 32, &sid, &sid_len);
	if (!ret)
		ret = tlsx_rd_open(&r, 2, 2, 65534, &blk);
	if (!ret)
		ret = tlsx_rd_open(&r, 1, 1, 255, &blk);
	if (!ret)
		ret = tlsx_rd_open(&r, 2, 0, 65535, &blk);
	if (!ret)
		ret = tlsx_ext_parse(TLSX_CTX_CH, &blk, 0, &exts);
	if (ret)
		return -EINVAL;
	memcpy(hs->session_id, sid, sid_len);
	hs->session_id_len = (u8)sid_len;
	hs->sent_exts = exts.present;
	return 0;
}

int client_send_hello(struct tlsx_hs *hs, struct hs_out *o)
{
	struct tlsx_wr w;
	unsigned int i;
	size_t len;
	u8 *msg;
	int ret;

	hs_msg_begin(hs, o, TLSX_HT_CLIENT_HELLO, &w);
	/* 4.1.2: legacy_version 0x0303; TLS 1.3 is in supported_versions. */
	tlsx_wr_u16(&w, TLSX_HS_VERSION_12);
	tlsx_wr_bytes(&w, hs->random, TLSX_HS_RANDOM);
	tlsx_wr_vec(&w, 1, hs->session_id, hs->session_id_len);
	tlsx_wr_open(&w, 2);
	for (i = 0; i < hs->n_suites; i++)
		tlsx_wr_u16(&w, hs->suites[i]);
	tlsx_wr_close(&w);
	/* legacy_compression_methods: exactly one byte, null (0). */
	tlsx_wr_u8(&w, 1);
	tlsx_wr_u8(&w, 0);
	write_extensions(hs, &w);
	ret = hs_msg_end_raw(hs, o, &w, &msg, &len);
	if (!ret && hs->test &&
	    (hs->hrr ? hs->test->client_hello2 : hs->test->client_hello))
		ret = use_test_hello(hs, o, msg, &len);
	if (!ret && hs->psk_offered)
		ret = client_bind(hs, msg, len);
	if (ret)
		return ret;
	return hs_msg_commit(hs, o, msg, len);
}
