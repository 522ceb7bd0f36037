// SPDX-License-Identifier: GPL-2.0
/*
 * server_auth.c - the server's authentication messages: its
 * CertificateVerify, the CertificateRequest (4.3.2), and the client's
 * Certificate and CertificateVerify (4.4.2, 4.4.3) read.
 */
#include "x509/x509.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/server_impl.h"

/* certificate_authorities in CertificateRequest: at most this many bytes. */
#define SV_MAX_CA_LIST		4096

/*
 * certificate_authorities (4.2.4): the subjects of the anchors client
 * chains must reach, when they fit in SV_MAX_CA_LIST bytes (a system
 * bundle does not, and the extension is a hint only: it is left out).
 */
static void server_write_authorities(struct tlsx_hs *hs, struct tlsx_wr *w)
{
	const struct tlsx_trust *t = hs->cfg->trust;
	size_t i, total = 0;

	if (!t || !t->n)
		return;
	for (i = 0; i < t->n; i++)
		total += 2 + t->certs[i].subject.len;
	if (total > SV_MAX_CA_LIST)
		return;
	server_ext_begin(w, TLSX_EXT_CERTIFICATE_AUTHORITIES);
	/* DistinguishedName authorities<3..2^16-1>; opaque <1..2^16-1> */
	tlsx_wr_open(w, 2);
	for (i = 0; i < t->n; i++)
		tlsx_wr_vec(w, 2, t->certs[i].subject.p,
			    t->certs[i].subject.len);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
}

/*
 * CertificateRequest (4.3.2): an empty certificate_request_context, our
 * signature_algorithms (the one extension it MUST carry) and the
 * anchors' names.
 */
int server_send_cert_request(struct tlsx_hs *hs, struct hs_out *o)
{
	struct tlsx_wr w;
	unsigned int i;

	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE_REQUEST, &w);
	/* 4.3.2: "SHALL be zero length" outside post-handshake auth. */
	tlsx_wr_vec(&w, 1, NULL, 0);
	tlsx_wr_open(&w, 2);
	server_ext_begin(&w, TLSX_EXT_SIGNATURE_ALGORITHMS);
	tlsx_wr_open(&w, 2);
	for (i = 0; i < hs->n_sig_schemes; i++)
		tlsx_wr_u16(&w, hs->sig_schemes[i]);
	tlsx_wr_close(&w);
	tlsx_wr_close(&w);
	server_write_authorities(hs, &w);
	if (hs->test && hs->test->cr_exts)
		tlsx_wr_bytes(&w, hs->test->cr_exts, hs->test->cr_exts_len);
	tlsx_wr_close(&w);
	return hs_msg_end(hs, o, &w);
}

/* Our CertificateVerify: the chain and scheme the ClientHello chose. */
int server_send_cert_verify(struct tlsx_hs *hs, struct hs_out *o)
{
	return hs_send_cert_verify(hs, o, hs->srv.chain, hs->own_sig_scheme);
}

/*
 * 4.4.2.4: "If the client does not send any certificates (i.e., it sends
 * an empty Certificate message), the server MAY at its discretion either
 * continue the handshake without client authentication or abort the
 * handshake with a "certificate_required" alert": the configuration's
 * choice (require_peer_cert).
 */
static int server_empty_client_chain(struct tlsx_hs *hs)
{
	if (hs->cfg->require_peer_cert)
		return hs_refuse(hs, TLSX_ALERT_CERTIFICATE_REQUIRED,
				 "the client sent no certificate");
	return 0;
}

/* The client's Certificate and CertificateVerify, as hs_msg.c reads them. */
static const struct hs_peer_auth server_client_auth = {
	.purpose		= X509_EKU_CLIENT_AUTH,
	.empty_chain		= server_empty_client_chain,
	.expect_cert_verify	= SERVER_EXPECT_CERTIFICATE_VERIFY,
	.expect_finished	= SERVER_EXPECT_FINISHED,
};

/* The client's Certificate (4.4.2, 4.4.2.4). */
int server_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	/* CertificateEntry extensions answer our CertificateRequest: none. */
	return hs_peer_certificate(hs, msg, len, 0, &server_client_auth);
}

/* The client's CertificateVerify (4.4.3), over ..Certificate. */
int server_certificate_verify(struct tlsx_hs *hs, const u8 *msg,
			      size_t len)
{
	return hs_peer_cert_verify(hs, msg, len, &server_client_auth);
}
