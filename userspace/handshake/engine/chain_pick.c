// SPDX-License-Identifier: GPL-2.0
/*
 * chain_pick.c - which of our certificate chains answers the peer, for
 * both roles: the server's Certificate after a ClientHello (4.4.2.2,
 * server_pick_certificate()) and the client's after a CertificateRequest
 * (4.3.2, 4.4.2.2, client_certificate_request()).  The rules are the
 * same -- the leaf's key must sign a scheme of the peer's
 * signature_algorithms, every certificate must be signed as its
 * signature_algorithms_cert (else signature_algorithms) allows -- and
 * only what happens when no chain satisfies the second differs: the
 * server sends one all the same (4.4.2.2 "SHOULD continue the handshake
 * by sending the client a certificate chain of its choice"), the client
 * sends none (4.4.2.2 "MUST be signed using an acceptable signature
 * algorithm", and 4.4.2.4 lets the server decide on an empty
 * Certificate).  So one walk returns both the best chain and the first
 * usable one and the caller decides.
 */
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"

void hs_pick_chain(const struct tlsx_hs *hs,
		   const struct tlsx_cert_chain *const *chains, unsigned int n,
		   u32 candidates, const u16 *peer, unsigned int n_peer,
		   unsigned int cert_algs, struct hs_chain_choice *out)
{
	const struct tlsx_cert_chain *c;
	unsigned int i;
	u16 scheme;

	_Static_assert(TLSX_HS_MAX_CHAINS <= 32, "a u32 of chains");
	memset(out, 0, sizeof(*out));
	if (n > TLSX_HS_MAX_CHAINS)
		n = TLSX_HS_MAX_CHAINS;
	for (i = 0; i < n; i++) {
		c = chains[i];
		if (!c || !(candidates & (1u << i)))
			continue;
		scheme = hs_pick_sig_scheme(hs, c, peer, n_peer);
		if (!scheme)
			continue;
		if (!(c->sig_algs & ~cert_algs)) {
			out->chain = c;
			out->scheme = scheme;
			out->sigs_fit = true;
			return;
		}
		if (!out->chain) {
			out->chain = c;
			out->scheme = scheme;
		}
	}
}

/*
 * 4.2.3: "If no "signature_algorithms_cert" extension is present, then
 * the "signature_algorithms" extension also applies to signatures
 * appearing in certificates."  Codes tlsx does not sign with count
 * (ecdsa_secp384r1_sha384 may sign a certificate).
 */
int hs_read_cert_sigs(const struct tlsx_exts *ext, unsigned int *algs)
{
	enum tlsx_ext_id id = TLSX_EXT_SIGNATURE_ALGORITHMS_CERT;
	struct tlsx_rd r, list;
	u16 v;
	int ret;

	*algs = 0;
	if (!(ext->present & TLSX_EXT_BIT(id)))
		id = TLSX_EXT_SIGNATURE_ALGORITHMS;
	if (!(ext->present & TLSX_EXT_BIT(id)))
		return 0;
	tlsx_rd_init(&r, ext->ext[id].data, ext->ext[id].len);
	/* SignatureScheme supported_signature_algorithms<2..2^16-2> */
	ret = tlsx_rd_open(&r, 2, 2, 65534, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u16(&list, &v);
		if (!ret)
			*algs |= tlsx_sig_scheme_cert_algs(v);
	}
	return ret;
}

/*
 * 4.2.4: "DistinguishedName authorities<3..2^16-1>;" of
 * "opaque DistinguishedName<1..2^16-1>;" -- the list opened into @list,
 * its framing checked: 0 or decode_error.
 */
int hs_open_authorities(const u8 *data, size_t len, struct tlsx_rd *list)
{
	struct tlsx_rd r, walk;
	const u8 *dn;
	size_t dn_len;
	int ret;

	tlsx_rd_init(&r, data, len);
	ret = tlsx_rd_open(&r, 2, 3, 65535, list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	walk = *list;
	while (!ret && tlsx_rd_left(&walk))
		ret = tlsx_rd_vec(&walk, 2, 1, 65535, &dn, &dn_len);
	return ret;
}

/*
 * 4.2.4 and 4.4.2.2: "at least one of the certificates in the
 * certificate chain SHOULD be issued by one of the listed CAs".  The
 * names are compared as DER, byte for byte (the Name encodings a
 * CertificateRequest carries are the certificates' own, as tlsx's and
 * OpenSSL's servers send them).  @list is what hs_open_authorities()
 * opened.
 */
bool hs_chain_issued_by(const struct tlsx_cert_chain *c, struct tlsx_rd list)
{
	const u8 *dn;
	size_t dn_len, i;

	while (tlsx_rd_left(&list)) {
		if (tlsx_rd_vec(&list, 2, 1, 65535, &dn, &dn_len))
			return false;
		for (i = 0; i < c->n; i++)
			if (c->issuer_len[i] == dn_len &&
			    !memcmp(c->der + c->issuer_off[i], dn, dn_len))
				return true;
	}
	return false;
}
