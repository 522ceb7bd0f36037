// SPDX-License-Identifier: GPL-2.0
/*
 * client_auth.c - authentication on the client's side: the server's
 * CertificateRequest, Certificate and CertificateVerify (4.3.2, 4.4.2,
 * 4.4.3), and the client's second flight ([CCS], its certificate and
 * CertificateVerify when asked, Finished).
 */
#include "x509/x509.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/client_impl.h"

/*
 * The chain that answers a CertificateRequest (4.3.2, 4.4.2.2), chosen
 * while the request's extensions are at hand.  The candidates are our
 * chains, or, when certificate_authorities came, those with a
 * certificate issued by a name it lists (4.2.4: "at least one of the
 * certificates in the certificate chain SHOULD be issued by one of the
 * listed CAs"; a chain under none of them is not sent).  Among them, in
 * configuration order, the first whose key signs a scheme of the
 * request's signature_algorithms and whose certificates are signed as
 * the request allows (chain_pick.c, the server's walk).
 *
 * When the request carries signature_algorithms_cert, that is strict
 * (4.4.2.2: "The certificates MUST be signed using an acceptable
 * signature algorithm"): no chain signed otherwise goes, and none
 * acceptable is an empty Certificate, 4.4.2.4 leaving the rest to the
 * server.  Without it, 4.2.3 makes signature_algorithms apply to the
 * certificates too, but that list names CertificateVerify schemes, and a
 * request that lists only rsa_pss_rsae_* (tlsx's own server, by default)
 * would then refuse every PKCS#1-signed RSA chain, which is nearly every
 * RSA chain: there a chain that fits is preferred and, failing one, the
 * first whose key fits goes, as the server does and as OpenSSL 3.0's
 * client does (test_client_ossl.c's client_choice compares).
 *
 * oid_filters (4.2.5, oid_filter.c) narrows the candidates to the chains
 * whose leaf has every keyUsage bit and extendedKeyUsage purpose it asks
 * for (other OIDs are skipped, as 4.2.5 requires).  A chain that misses
 * them is not sent, as with certificate_authorities: 4.2.5 puts it as a
 * MUST ("the client certificate included in the response MUST contain
 * all of the specified extension OIDs that the client recognizes"), its
 * one allowance being for OIDs the client does not recognise; and a
 * chain the server has said it does not want is likely to draw an alert
 * (tlsx's server: certificate_unknown for a leaf without clientAuth),
 * where an empty Certificate leaves the server its choice (4.4.2.4).
 * Sets
 * hs->own_chain and hs->own_sig_scheme; 0, or decode_error
 * (illegal_parameter for oid_filters naming one OID twice or
 * anyExtendedKeyUsage) for a malformed list.
 */
static int client_pick_chain(struct tlsx_hs *hs, const struct tlsx_exts *exts)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	enum tlsx_ext_id ca = TLSX_EXT_CERTIFICATE_AUTHORITIES;
	const u8 *oidf = exts->ext[TLSX_EXT_OID_FILTERS].data;
	size_t oidf_len = exts->ext[TLSX_EXT_OID_FILTERS].len;
	bool filters = exts->present & TLSX_EXT_BIT(TLSX_EXT_OID_FILTERS);
	unsigned int i, cert_algs, n = cfg->n_chains < TLSX_HS_MAX_CHAINS ?
				       cfg->n_chains : TLSX_HS_MAX_CHAINS;
	struct hs_chain_choice pick;
	struct tlsx_rd cas;
	u32 candidates = ~0u;
	bool strict;
	int ret;

	hs->own_chain = NULL;
	hs->own_sig_scheme = 0;
	/* Read for their framing even with no chain to choose (6.2). */
	ret = hs_read_cert_sigs(exts, &cert_algs);
	if (!ret && (exts->present & TLSX_EXT_BIT(ca)))
		ret = hs_open_authorities(exts->ext[ca].data, exts->ext[ca].len,
					  &cas);
	if (!ret && filters)
		ret = hs_oid_filters_check(oidf, oidf_len);
	if (ret || !n)
		return ret;
	if (exts->present & TLSX_EXT_BIT(ca)) {
		candidates = 0;
		for (i = 0; i < n; i++)
			if (cfg->chains[i] &&
			    hs_chain_issued_by(cfg->chains[i], cas))
				candidates |= 1u << i;
	}
	for (i = 0; filters && i < n; i++)
		if (!cfg->chains[i] ||
		    !hs_oid_filters_match(oidf, oidf_len,
					  &cfg->chains[i]->leaf))
			candidates &= ~(1u << i);
	hs_pick_chain(hs, cfg->chains, n, candidates, hs->peer_sig_schemes,
		      hs->n_peer_sig_schemes, cert_algs, &pick);
	strict = exts->present &
		 TLSX_EXT_BIT(TLSX_EXT_SIGNATURE_ALGORITHMS_CERT);
	if (pick.chain && (pick.sigs_fit || !strict)) {
		hs->own_chain = pick.chain;
		hs->own_sig_scheme = pick.scheme;
	}
	return 0;
}

int client_certificate_request(struct tlsx_hs *hs, const u8 *msg,
			       size_t len)
{
	struct tlsx_exts exts;
	struct tlsx_rd r, blk;
	const u8 *ctx;
	size_t ctx_len;
	int ret;

	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	/* 4.3.2: opaque certificate_request_context<0..2^8-1>;
	 * Extension extensions<2..2^16-1>.
	 */
	ret = tlsx_rd_vec(&r, 1, 0, 255, &ctx, &ctx_len);
	if (!ret)
		ret = tlsx_rd_open(&r, 2, 2, 65535, &blk);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (!ret)
		ret = tlsx_ext_parse(TLSX_CTX_CR, &blk, 0, &exts);
	if (ret)
		return ret;
	/*
	 * 4.3.2: the context "SHALL be zero length unless used for the
	 * post-handshake authentication exchanges" (which we do not offer).
	 */
	if (ctx_len)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.3.2: "The "signature_algorithms" extension MUST be specified". */
	if (!(exts.present & TLSX_EXT_BIT(TLSX_EXT_SIGNATURE_ALGORITHMS)))
		return TLSX_ALERT_MISSING_EXTENSION;
	ret = hs_parse_sig_schemes(exts.ext[TLSX_EXT_SIGNATURE_ALGORITHMS].data,
				   exts.ext[TLSX_EXT_SIGNATURE_ALGORITHMS].len,
				   hs->peer_sig_schemes,
				   &hs->n_peer_sig_schemes);
	if (!ret)
		ret = client_pick_chain(hs, &exts);
	if (ret)
		return ret;
	hs->cert_requested = true;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = CLIENT_EXPECT_CERTIFICATE;
	return 0;
}

/*
 * 4.4.2.4: "If the server supplies an empty Certificate message, the
 * client MUST abort the handshake with a "decode_error" alert."
 */
static int client_empty_server_chain(struct tlsx_hs *hs)
{
	(void)hs;
	return TLSX_ALERT_DECODE_ERROR;
}

/* The server's Certificate and CertificateVerify, as hs_msg.c reads them. */
static const struct hs_peer_auth client_server_auth = {
	.purpose		= X509_EKU_SERVER_AUTH,
	.empty_chain		= client_empty_server_chain,
	.expect_cert_verify	= CLIENT_EXPECT_CERTIFICATE_VERIFY,
	.expect_finished	= CLIENT_EXPECT_FINISHED,
};

int client_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	/* CertificateEntry extensions answer our ClientHello's. */
	return hs_peer_certificate(hs, msg, len, hs->sent_exts,
				   &client_server_auth);
}

int client_certificate_verify(struct tlsx_hs *hs, const u8 *msg,
			      size_t len)
{
	return hs_peer_cert_verify(hs, msg, len, &client_server_auth);
}

/*
 * The test seam (RFC 8448 section 6, an RSA-1024 client key): the first
 * of our schemes the server listed, and its hook signs.
 */
static u16 test_pick_scheme(const struct tlsx_hs *hs)
{
	unsigned int i;

	for (i = 0; i < hs->n_sig_schemes; i++)
		if (hs_list_has(hs->peer_sig_schemes, hs->n_peer_sig_schemes,
				hs->sig_schemes[i]))
			return hs->sig_schemes[i];
	return 0;
}

/* The client's second flight: [CCS] [Certificate, CertificateVerify] Fin. */
int client_second_flight(struct tlsx_hs *hs, struct hs_out *o)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	const struct tlsx_cert_chain *chain = NULL;
	bool test_sign = hs->test && hs->test->cert_sign;
	u16 scheme = 0;
	int ret = 0;

	/* D.4: the dummy CCS before the first protected record. */
	if (hs->session_id_len)
		ret = hs_send_ccs(hs, o);
	if (!ret)
		ret = hs_set_write_secret(hs, hs->c_hs);
	if (ret)
		return ret;
	if (hs->cert_requested) {
		chain = hs->own_chain;
		scheme = hs->own_sig_scheme;
		/* RFC 8448 6's RSA-1024 key: its first chain, the hook signs. */
		if (test_sign && cfg->n_chains && cfg->chains[0]) {
			chain = cfg->chains[0];
			scheme = test_pick_scheme(hs);
		}
		/*
		 * 4.4.2: "If the client does not send any certificates
		 * (i.e., it sends an empty Certificate message)": when no
		 * chain of ours fits the request (client_pick_chain()).
		 */
		/* 4.4.2: the request's context, which 4.3.2 made empty. */
		ret = hs_send_certificate(hs, o, scheme ? chain : NULL, NULL,
					  0);
		if (!ret && scheme)
			ret = hs_send_cert_verify(hs, o, chain, scheme);
		if (ret)
			return ret;
	}
	ret = hs_send_finished(hs, o, hs->c_hs);
	if (!ret)
		ret = hs_derive_resumption(hs);
	return ret;
}
