/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_protect.h - TLS 1.3 record protection in userspace (RFC 8446 section
 * 5): the engine's handshake records and libtlsx's userspace record
 * layer, on the same AEAD engines as tlsx.ko (aead/aead.h).
 *
 * One struct tlsx_rec_dir is one direction under one traffic secret: the
 * AEAD key, the write IV and the 64-bit sequence number (5.3).  Setting
 * a new secret (the handshake -> application switch, a KeyUpdate)
 * restarts the sequence at 0 and wipes the old key.
 */
#ifndef TLSX_HS_RECORD_H
#define TLSX_HS_RECORD_H

#include "aead/platform.h"
#include "aead/aead.h"
#include "hash/sha2.h"
#include "handshake/engine/keysched.h"
#include "handshake/engine/suite.h"

#define TLSX_CT_CHANGE_CIPHER_SPEC	20
#define TLSX_CT_ALERT			21
#define TLSX_CT_HANDSHAKE		22
#define TLSX_CT_APPLICATION_DATA	23

#define TLSX_REC_HDR		5
#define TLSX_REC_MAX_PLAIN	16384		/* 2^14 (5.1) */
/* TLSInnerPlaintext's type byte and the tag; 5.2 allows up to 2^14 + 256. */
#define TLSX_REC_MAX_CIPHER	(TLSX_REC_MAX_PLAIN + 256)
#define TLSX_REC_MAX		(TLSX_REC_HDR + TLSX_REC_MAX_CIPHER)

struct tlsx_rec_dir {
	struct tlsx_aead_key key;
	u8 iv[TLSX_IV_SIZE];
	u64 seq;
	bool set;
};

/*
 * Keys @d from traffic secret @secret (7.3) for @suite, sequence 0.
 * The old key, if any, is wiped first.
 */
int tlsx_rec_set_secret(struct tlsx_rec_dir *d, u16 suite,
			const u8 *secret, size_t secret_len);
void tlsx_rec_wipe(struct tlsx_rec_dir *d);

/*
 * Seals @len (<= TLSX_REC_MAX_PLAIN) bytes of content type @type with
 * @pad zero bytes of padding (5.4) as one TLSCiphertext, header
 * included, at @out; *@out_len is its size (@len + @pad + 22).  -ENOSPC
 * when @cap is too small, -EMSGSIZE when @len + @pad is too large,
 * -EOVERFLOW when the sequence number is exhausted (the caller must
 * have rekeyed).  @data may not overlap @out except at @out + 5.
 */
int tlsx_rec_seal(struct tlsx_rec_dir *d, u8 type, const u8 *data,
		  size_t len, size_t pad, u8 *out, size_t cap, size_t *out_len);

/*
 * The last @records records sealed under @d were never written (urec.c:
 * the socket took none of their bytes, and they are wiped): their
 * sequence numbers are used again for what is sealed next.  A nonce
 * then seals other bytes only where the first ciphertext left no copy
 * anywhere, so nothing two ciphertexts under one nonce would tell is
 * seen (5.3's uniqueness is of the records on the wire).
 */
void tlsx_rec_unseal(struct tlsx_rec_dir *d, u64 records);

/*
 * Checks a record header: 0 and *@body_len, or the alert (5.1, 5.2):
 * decode_error for an unknown type or version, record_overflow for a
 * length over @max_body (TLSX_REC_MAX_CIPHER, or less under a
 * record_size_limit).
 */
int tlsx_rec_header(const u8 hdr[TLSX_REC_HDR], size_t max_body,
		    size_t *body_len);

/*
 * Opens the whole record @rec (header and body, as sized by
 * tlsx_rec_header()) in place: *@type is the inner content type and
 * [*@data, *@data + *@len) the content, inside @rec.  Returns 0 or the
 * alert: bad_record_mac (5.2), record_overflow for a plaintext over
 * @max_plain, unexpected_message for an inner plaintext of only zeros
 * (5.4).  The sequence number advances only on success.
 */
int tlsx_rec_open(struct tlsx_rec_dir *d, u8 *rec, size_t rec_len,
		  size_t max_plain, u8 *type, u8 **data, size_t *len);

/*
 * RFC 8446 5.4: splits a decrypted TLSInnerPlaintext @p[0..@len): the
 * content type is its last nonzero byte, the zeros after it padding.
 * *@type is 0 when every byte is zero (the caller's unexpected_message);
 * otherwise *@content_len is the content's length.  The time depends on
 * @len only, not on where the padding starts (ct_record.c checks).
 */
void tlsx_rec_inner(const u8 *p, size_t len, u8 *type, size_t *content_len);

#endif /* TLSX_HS_RECORD_H */
