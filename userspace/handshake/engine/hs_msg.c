// SPDX-License-Identifier: GPL-2.0
/*
 * hs_msg.c - the messages and extensions both roles write or check:
 * Finished (4.4.4), Certificate (4.4.2) and the peer's chain verified,
 * CertificateVerify (4.4.3) and its scheme, signature_algorithms,
 * ALPN and record_size_limit.  The peer's Certificate and
 * CertificateVerify are read here for either role, what differs between
 * them coming in a struct hs_peer_auth (client_auth.c, server_auth.c).
 */
#include "x509/x509.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"

/* --- messages both roles send or check ---------------------------------- */

int hs_send_finished(struct tlsx_hs *hs, struct hs_out *o, const u8 *base_key)
{
	u8 th[TLSX_KS_MAX_SECRET], vd[TLSX_KS_MAX_SECRET];
	struct tlsx_wr w;
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = tlsx_finished_mac(hs->hash, base_key, th, vd);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_FINISHED, &w);
	tlsx_wr_bytes(&w, vd, hs->hash_len);
	memzero_explicit(vd, sizeof(vd));
	return hs_msg_end(hs, o, &w);
}

int hs_check_finished(struct tlsx_hs *hs, const u8 *msg, size_t len,
		      const u8 *base_key)
{
	u8 th[TLSX_KS_MAX_SECRET];
	int ret = tlsx_transcript_hash(&hs->ts, th);

	if (ret)
		return ret;
	/* 4.4.4: "verify_data" is Hash.length bytes, checked in constant
	 * time; a wrong one is decrypt_error.
	 */
	return tlsx_finished_check(hs->hash, base_key, th,
				   msg + TLSX_HS_MSG_HDR,
				   len - TLSX_HS_MSG_HDR);
}

int hs_send_certificate(struct tlsx_hs *hs, struct hs_out *o,
			const struct tlsx_cert_chain *chain, const u8 *ctx,
			size_t ctx_len)
{
	struct tlsx_wr w;
	size_t i;

	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE, &w);
	tlsx_wr_vec(&w, 1, ctx, ctx_len);
	tlsx_wr_open(&w, 3);
	for (i = 0; chain && i < chain->n; i++) {
		tlsx_wr_vec(&w, 3, chain->der + chain->off[i], chain->len[i]);
		tlsx_wr_u16(&w, 0);	/* no CertificateEntry extensions */
	}
	tlsx_wr_close(&w);
	return hs_msg_end(hs, o, &w);
}

/*
 * A Certificate message's body read into @certs/@lens (DER, leaf first,
 * spans into @msg), at most TLSX_CERT_MAX_CHAIN; @ctx/@ctx_len is the
 * certificate_request_context.  0 or an alert (decode_error;
 * bad_certificate for a chain too long).
 */
static int hs_parse_certificate(const u8 *msg, size_t len, u32 requested,
				const u8 **ctx, size_t *ctx_len,
				const u8 **certs, size_t *lens, size_t *n)
{
	struct tlsx_rd r, list, exts;
	struct tlsx_exts found;
	int ret;

	*n = 0;
	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	/* 4.4.2: opaque certificate_request_context<0..2^8-1>;
	 * CertificateEntry certificate_list<0..2^24-1>.
	 */
	ret = tlsx_rd_vec(&r, 1, 0, 255, ctx, ctx_len);
	if (!ret)
		ret = tlsx_rd_open(&r, 3, 0, (1u << 24) - 1, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		if (*n == TLSX_CERT_MAX_CHAIN)
			return TLSX_ALERT_BAD_CERTIFICATE;
		/* opaque cert_data<1..2^24-1>; Extension extensions<0..2^16-1> */
		ret = tlsx_rd_vec(&list, 3, 1, (1u << 24) - 1, &certs[*n],
				  &lens[*n]);
		if (!ret)
			ret = tlsx_rd_open(&list, 2, 0, 65535, &exts);
		if (!ret)
			ret = tlsx_ext_parse(TLSX_CTX_CT, &exts, requested,
					     &found);
		if (!ret)
			(*n)++;
	}
	return ret;
}

/*
 * The peer's chain (DER, leaf first, as it came in Certificate) checked
 * for @purpose against cfg->trust (cert.h's tlsx_cert_verify_peer(),
 * host = hs->server_name for a client), or only parsed for its key under
 * cfg->insecure; sets hs->peer_pub and hs->peer_cert, and with
 * cfg->keep_peer_chain copies the chain (hs_keep_peer_chain()).  0, the
 * alert, or -ENOMEM.
 */
static int hs_verify_peer_chain(struct tlsx_hs *hs, const u8 *const *certs,
				const size_t *lens, size_t n,
				unsigned int purpose)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_x509 leaf;
	int ret;

	if (hs->test && hs->test->peer_cert) {
		ret = hs->test->peer_cert(hs, certs, lens, n);
		return ret ? ret : hs_keep_peer_chain(hs, certs, lens, n);
	}
	if (!n)
		return TLSX_ALERT_BAD_CERTIFICATE;
	if (cfg->insecure && !cfg->trust) {
		/* No verification asked for: the leaf's key only, which
		 * CertificateVerify is still checked against.
		 */
		ret = tlsx_x509_parse(&leaf, certs[0], lens[0]);
		if (ret == -EOPNOTSUPP)
			return TLSX_ALERT_UNSUPPORTED_CERTIFICATE;
		if (ret)
			return TLSX_ALERT_BAD_CERTIFICATE;
		hs->peer_pub = leaf.pub;
		hs->peer_cert = false;	/* not verified */
		return hs_keep_peer_chain(hs, certs, lens, n);
	}
	if (!cfg->trust)
		return TLSX_ALERT_INTERNAL_ERROR;
	ret = tlsx_cert_verify_peer(cfg->trust, certs, lens, n, hs_now(hs),
				    purpose,
				    hs->server || !hs->server_name[0] ?
				    NULL : hs->server_name,
				    &hs->peer_pub, NULL);
	if (ret)
		return ret;
	hs->peer_cert = true;
	return hs_keep_peer_chain(hs, certs, lens, n);
}

int hs_peer_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len,
			u32 requested, const struct hs_peer_auth *auth)
{
	const u8 *certs[TLSX_CERT_MAX_CHAIN], *ctx;
	size_t lens[TLSX_CERT_MAX_CHAIN], ctx_len, n;
	int ret;

	ret = hs_parse_certificate(msg, len, requested, &ctx, &ctx_len, certs,
				   lens, &n);
	if (ret)
		return ret;
	/*
	 * 4.4.2: the context echoes the CertificateRequest's, which 4.3.2
	 * makes empty outside post-handshake authentication (not offered),
	 * and for server authentication it "SHALL be zero length".
	 */
	if (ctx_len)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.4.2.4: what an empty Certificate means is the role's call. */
	ret = n ? hs_verify_peer_chain(hs, certs, lens, n, auth->purpose) :
		  auth->empty_chain(hs);
	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = n ? auth->expect_cert_verify : auth->expect_finished;
	return 0;
}

/* Whether @scheme fits the leaf's key as 4.2.3 defines the RSA schemes. */
static bool hs_scheme_fits_leaf(const struct tlsx_public_key *pub, u16 scheme)
{
	bool pss_pss = scheme >= TLSX_SIG_RSA_PSS_PSS_SHA256 &&
		       scheme <= TLSX_SIG_RSA_PSS_PSS_SHA512;
	bool rsae = scheme >= TLSX_SIG_RSA_PSS_RSAE_SHA256 &&
		    scheme <= TLSX_SIG_RSA_PSS_RSAE_SHA512;

	if (pub->type != TLSX_KEY_RSA)
		return true;
	return pub->rsa_pss_only ? pss_pss : rsae;
}

u16 hs_pick_sig_scheme(const struct tlsx_hs *hs,
		       const struct tlsx_cert_chain *chain, const u16 *peer,
		       unsigned int n_peer)
{
	unsigned int i;

	for (i = 0; i < hs->n_sig_schemes; i++) {
		u16 s = hs->sig_schemes[i];

		if (hs_list_has(peer, n_peer, s) &&
		    tlsx_cv_key_can(&chain->key, s) &&
		    hs_scheme_fits_leaf(&chain->leaf.pub, s))
			return s;
	}
	return 0;
}

int hs_send_cert_verify(struct tlsx_hs *hs, struct hs_out *o,
			const struct tlsx_cert_chain *chain, u16 scheme)
{
	u8 th[TLSX_KS_MAX_SECRET], sig[RSA_MAX_BYTES];
	struct tlsx_wr w;
	size_t sig_len;
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, th);
	if (ret)
		return ret;
	/* RFC 8448's RSA-1024 keys sign through the test seam. */
	if (hs->test && hs->test->cert_sign)
		ret = hs->test->cert_sign(hs, scheme, th, hs->hash_len, sig,
					  sizeof(sig), &sig_len);
	else
		ret = tlsx_cv_sign(&chain->key, scheme, hs->server, th,
				   hs->hash_len, hs_rand_cb, hs, sig,
				   sizeof(sig), &sig_len);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE_VERIFY, &w);
	tlsx_wr_u16(&w, scheme);
	tlsx_wr_vec(&w, 2, sig, sig_len);
	hs->own_sig_scheme = scheme;
	return hs_msg_end(hs, o, &w);
}

/*
 * The peer's CertificateVerify @msg checked against hs->peer_pub and the
 * transcript so far; sets hs->peer_sig_scheme.
 */
static int hs_check_cert_verify(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	u8 th[TLSX_KS_MAX_SECRET];
	const u8 *sig;
	size_t sig_len;
	struct tlsx_rd r;
	u16 scheme;
	int ret;

	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	/* 4.4.3: SignatureScheme algorithm; opaque signature<0..2^16-1>. */
	ret = tlsx_rd_u16(&r, &scheme);
	if (!ret)
		ret = tlsx_rd_vec(&r, 2, 0, 65535, &sig, &sig_len);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	/*
	 * 4.4.3: the algorithm "MUST be one of those present in the
	 * supported_signature_algorithms field of the
	 * "signature_algorithms" extension" we sent.
	 */
	if (!hs_list_has(hs->sig_schemes, hs->n_sig_schemes, scheme))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	ret = tlsx_transcript_hash(&hs->ts, th);
	if (ret)
		return ret;
	if (hs->test && hs->test->cert_verify)
		ret = hs->test->cert_verify(hs, scheme, th, hs->hash_len, sig,
					    sig_len);
	else
		ret = tlsx_cv_verify(&hs->peer_pub, scheme, !hs->server, th,
				     hs->hash_len, sig, sig_len);
	if (ret)
		return ret;
	hs->peer_sig_scheme = scheme;
	return 0;
}

int hs_peer_cert_verify(struct tlsx_hs *hs, const u8 *msg, size_t len,
			const struct hs_peer_auth *auth)
{
	int ret = hs_check_cert_verify(hs, msg, len);

	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = auth->expect_finished;
	return 0;
}

int hs_parse_sig_schemes(const u8 *data, size_t len, u16 *out,
			 unsigned int *n)
{
	struct tlsx_rd r, list;
	u16 v;
	int ret;

	*n = 0;
	tlsx_rd_init(&r, data, len);
	/* 4.2.3: SignatureScheme supported_signature_algorithms<2..2^16-2> */
	ret = tlsx_rd_open(&r, 2, 2, 65534, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u16(&list, &v);
		if (!ret && *n < TLSX_HS_MAX_LIST && hs_scheme_ok(v) &&
		    !hs_list_has(out, *n, v))
			out[(*n)++] = v;
	}
	return ret;
}

int hs_write_alpn(struct tlsx_wr *w, const u8 *alpn, size_t len)
{
	/* RFC 7301 3.1: ProtocolName protocol_name_list<2..2^16-1>. */
	return tlsx_wr_vec(w, 2, alpn, len);
}

int hs_write_record_size_limit(struct tlsx_wr *w, u16 limit)
{
	return tlsx_wr_u16(w, limit);
}

int hs_parse_record_size_limit(const u8 *data, size_t len, u16 *limit)
{
	struct tlsx_rd r;
	int ret;

	tlsx_rd_init(&r, data, len);
	ret = tlsx_rd_u16(&r, limit);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	/* RFC 8449 4: "a value less than 64 MUST be treated as a fatal
	 * error ... "illegal_parameter" alert".
	 */
	if (*limit < 64)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}
