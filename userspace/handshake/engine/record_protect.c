// SPDX-License-Identifier: GPL-2.0
/*
 * record_protect.c - TLS 1.3 record protection (RFC 8446 section 5) in
 * userspace; the contract is in record_protect.h.  The AEADs are aead/aead.h's,
 * the keys and IVs keysched.c's (7.3).
 */
#include "handshake/engine/alert.h"
#include "handshake/engine/hs.h"
#include "handshake/engine/record_protect.h"

void tlsx_rec_wipe(struct tlsx_rec_dir *d)
{
	tlsx_aead_wipe(&d->key);
	memzero_explicit(d->iv, sizeof(d->iv));
	d->seq = 0;
	d->set = false;
}

int tlsx_rec_set_secret(struct tlsx_rec_dir *d, u16 suite,
			const u8 *secret, size_t secret_len)
{
	enum tlsx_aead_alg aead;
	enum tlsx_hash_alg hash;
	u8 key[TLSX_SUITE_MAX_KEY];
	size_t key_len;
	int ret;

	tlsx_rec_wipe(d);
	ret = tlsx_suite_params(suite, &aead, &hash, &key_len);
	if (ret)
		return ret;
	if (secret_len != tlsx_hash_digest_size(hash))
		return -EINVAL;
	ret = tlsx_traffic_keys(hash, secret, key, key_len, d->iv);
	if (!ret)
		ret = tlsx_aead_setkey(&d->key, aead, TLSX_IMPL_AUTO, key,
				       key_len);
	memzero_explicit(key, sizeof(key));
	if (ret) {
		tlsx_rec_wipe(d);
		return ret;
	}
	d->set = true;
	return 0;
}

/*
 * RFC 8446 5.3: "If a TLS implementation would need to wrap a sequence
 * number, it MUST either rekey or terminate the connection."  The last
 * number, 2^64 - 1, is never used, so seq + 1 cannot wrap.
 */
static bool rec_seq_exhausted(const struct tlsx_rec_dir *d)
{
	return d->seq == UINT64_MAX;
}

int tlsx_rec_seal(struct tlsx_rec_dir *d, u8 type, const u8 *data,
		  size_t len, size_t pad, u8 *out, size_t cap, size_t *out_len)
{
	u8 nonce[TLSX_IV_SIZE];
	size_t inner, total;
	int ret;

	*out_len = 0;
	if (!d->set)
		return -EINVAL;
	/* 5.4: TLSInnerPlaintext's content is at most 2^14 bytes, and
	 * tlsx keeps the padding within the same bound.
	 */
	if (len > TLSX_REC_MAX_PLAIN || pad > TLSX_REC_MAX_PLAIN - len)
		return -EMSGSIZE;
	if (rec_seq_exhausted(d))
		return -EOVERFLOW;
	inner = len + 1 + pad;
	total = TLSX_REC_HDR + inner + TLSX_AEAD_TAG_LEN;
	if (cap < total)
		return -ENOSPC;

	/* 5.2: opaque_type application_data, legacy_record_version 0x0303. */
	out[0] = TLSX_CT_APPLICATION_DATA;
	out[1] = 0x03;
	out[2] = 0x03;
	put_unaligned_be16((u16)(inner + TLSX_AEAD_TAG_LEN), out + 3);
	if (len && data != out + TLSX_REC_HDR)
		memmove(out + TLSX_REC_HDR, data, len);
	out[TLSX_REC_HDR + len] = type;
	memset(out + TLSX_REC_HDR + len + 1, 0, pad);

	tlsx_aead_record_nonce(nonce, d->iv, d->seq);
	ret = tlsx_aead_seal(&d->key, nonce, out, TLSX_REC_HDR,
			     out + TLSX_REC_HDR, out + TLSX_REC_HDR, inner,
			     out + TLSX_REC_HDR + inner);
	memzero_explicit(nonce, sizeof(nonce));
	if (ret) {
		memzero_explicit(out, total);
		return ret;
	}
	d->seq++;
	*out_len = total;
	return 0;
}

void tlsx_rec_unseal(struct tlsx_rec_dir *d, u64 records)
{
	/* Only what was sealed can be taken back: never below 0. */
	d->seq = records > d->seq ? 0 : d->seq - records;
}

int tlsx_rec_header(const u8 hdr[TLSX_REC_HDR], size_t max_body,
		    size_t *body_len)
{
	size_t len = get_unaligned_be16(hdr + 3);

	switch (hdr[0]) {
	case TLSX_CT_CHANGE_CIPHER_SPEC:
	case TLSX_CT_ALERT:
	case TLSX_CT_HANDSHAKE:
	case TLSX_CT_APPLICATION_DATA:
		break;
	default:
		/* 5: "If a TLS implementation receives an unexpected record
		 * type, it MUST terminate the connection with an
		 * "unexpected_message" alert."
		 */
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	}
	/*
	 * 5.1: legacy_record_version "MUST be ignored for all purposes";
	 * only the major version 3 is required, so that a byte stream that
	 * is not TLS at all fails here rather than as a bad length.
	 */
	if (hdr[1] != 0x03)
		return TLSX_ALERT_DECODE_ERROR;
	/* 5.1 / 5.2: at most 2^14 (+ 256 when protected) bytes. */
	if (len > max_body)
		return TLSX_ALERT_RECORD_OVERFLOW;
	*body_len = len;
	return 0;
}

/* All ones when @b is nonzero, else 0, without a branch. */
static inline size_t rec_nz_mask(u8 b)
{
	return (size_t)0 - (((size_t)b + 0xff) >> 8);
}

void tlsx_rec_inner(const u8 *p, size_t len, u8 *type, size_t *content_len)
{
	size_t i, pos = 0, t = 0;

	/*
	 * Every byte is read and none selects a branch or an index: the
	 * last nonzero byte and its position are kept with masks.
	 */
	for (i = 0; i < len; i++) {
		size_t nz = rec_nz_mask(p[i]);

		pos = (i & nz) | (pos & ~nz);
		t = (p[i] & nz) | (t & ~nz);
	}
	*type = (u8)t;
	*content_len = pos;
}

int tlsx_rec_open(struct tlsx_rec_dir *d, u8 *rec, size_t rec_len,
		  size_t max_plain, u8 *type, u8 **data, size_t *len)
{
	u8 nonce[TLSX_IV_SIZE];
	u8 *body = rec + TLSX_REC_HDR;
	size_t clen, pos;
	u8 t;
	int ret;

	if (!d->set || rec_len < TLSX_REC_HDR ||
	    get_unaligned_be16(rec + 3) != rec_len - TLSX_REC_HDR)
		return -EINVAL;
	if (rec_seq_exhausted(d))
		return -EOVERFLOW;
	/* 5.2: a record too short for the tag and the type cannot open. */
	if (rec_len < TLSX_REC_HDR + TLSX_AEAD_TAG_LEN + 1)
		return TLSX_ALERT_BAD_RECORD_MAC;
	clen = rec_len - TLSX_REC_HDR - TLSX_AEAD_TAG_LEN;

	tlsx_aead_record_nonce(nonce, d->iv, d->seq);
	ret = tlsx_aead_open(&d->key, nonce, rec, TLSX_REC_HDR, body, body,
			     clen, body + clen);
	memzero_explicit(nonce, sizeof(nonce));
	if (ret == -EBADMSG)
		return TLSX_ALERT_BAD_RECORD_MAC;	/* 5.2 */
	if (ret)
		return ret;

	tlsx_rec_inner(body, clen, &t, &pos);
	/* 5.4: "If a receiving implementation does not find a non-zero
	 * octet in the cleartext, it MUST terminate the connection with an
	 * "unexpected_message" alert."
	 */
	if (!t)
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	/*
	 * 5.4: "the full encoded TLSInnerPlaintext MUST NOT exceed 2^14 + 1
	 * octets" (padding included); 5.2: nor the content 2^14, or the
	 * caller's bound (a record_size_limit).
	 */
	if (clen > TLSX_REC_MAX_PLAIN + 1 || pos > max_plain ||
	    pos > TLSX_REC_MAX_PLAIN)
		return TLSX_ALERT_RECORD_OVERFLOW;
	d->seq++;
	*type = t;
	*data = body;
	*len = pos;
	return 0;
}
