// SPDX-License-Identifier: GPL-2.0
/*
 * client_auth.c - authentication on the client's side: the server's
 * CertificateRequest, Certificate and CertificateVerify (4.3.2, 4.4.2,
 * 4.4.3), and the client's second flight ([CCS], its certificate and
 * CertificateVerify when asked, Finished).
 */
#include "x509/x509.h"
#include "handshake/cert.h"
#include "handshake/client_impl.h"

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
	if (ret)
		return ret;
	hs->cert_requested = true;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = EXPECT_CERTIFICATE;
	return 0;
}

int client_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	const u8 *certs[TLSX_CERT_MAX_CHAIN], *ctx;
	size_t lens[TLSX_CERT_MAX_CHAIN], n, ctx_len;
	int ret;

	ret = hs_parse_certificate(msg, len, hs->sent_exts, &ctx, &ctx_len,
				   certs, lens, &n);
	if (ret)
		return ret;
	/* 4.4.2: for server authentication the context "SHALL be zero
	 * length".
	 */
	if (ctx_len)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.4.2.4: "If the server supplies an empty Certificate message,
	 * the client MUST abort the handshake with a "decode_error" alert."
	 */
	if (!n)
		return TLSX_ALERT_DECODE_ERROR;
	ret = hs_verify_peer_chain(hs, certs, lens, n, X509_EKU_SERVER_AUTH);
	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = EXPECT_CERTIFICATE_VERIFY;
	return 0;
}

int client_certificate_verify(struct tlsx_hs *hs, const u8 *msg,
			      size_t len)
{
	int ret = hs_check_cert_verify(hs, msg, len);

	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = EXPECT_FINISHED;
	return 0;
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

static int test_send_cert_verify(struct tlsx_hs *hs, struct hs_out *o,
				 u16 scheme)
{
	u8 th[TLSX_KS_MAX_SECRET], sig[512];
	struct tlsx_wr w;
	size_t sig_len;
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = hs->test->cert_sign(hs, scheme, th, hs->hash_len, sig,
					  sizeof(sig), &sig_len);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE_VERIFY, &w);
	tlsx_wr_u16(&w, scheme);
	tlsx_wr_vec(&w, 2, sig, sig_len);
	hs->own_sig_scheme = scheme;
	return hs_msg_end(hs, o, &w);
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
		if (cfg->n_chains && cfg->chains[0]) {
			chain = cfg->chains[0];
			scheme = test_sign ? test_pick_scheme(hs) :
				 hs_pick_sig_scheme(hs, chain,
						    hs->peer_sig_schemes,
						    hs->n_peer_sig_schemes);
		}
		/*
		 * 4.4.2: "If the client does not send any certificates
		 * (i.e., it sends an empty Certificate message)": also when
		 * no scheme of ours fits the server's list.
		 */
		/* 4.4.2: the request's context, which 4.3.2 made empty. */
		ret = hs_send_certificate(hs, o, scheme ? chain : NULL, NULL,
					  0);
		if (!ret && scheme)
			ret = test_sign ? test_send_cert_verify(hs, o, scheme) :
			      hs_send_cert_verify(hs, o, chain, scheme);
		if (ret)
			return ret;
	}
	ret = hs_send_finished(hs, o, hs->c_hs);
	if (!ret)
		ret = hs_derive_resumption(hs);
	return ret;
}
