/* SPDX-License-Identifier: GPL-2.0 */
/*
 * alert.h - the TLS 1.3 alert descriptions (RFC 8446 section 6) and the
 * engine's convention for returning them.
 *
 * Functions of the engine that check what the peer sent return an int:
 * 0 on success, a positive enum tlsx_alert (the fatal alert to send) when
 * the input is refused, or a negative errno for a local failure (no room
 * in a caller's buffer, a stage used out of order), which the top level
 * sends as internal_error.  close_notify (0) is never returned as an
 * error: it is not a fatal alert.
 */
#ifndef TLSX_HS_ALERT_H
#define TLSX_HS_ALERT_H

enum tlsx_alert {
	TLSX_ALERT_CLOSE_NOTIFY = 0,
	TLSX_ALERT_UNEXPECTED_MESSAGE = 10,
	TLSX_ALERT_BAD_RECORD_MAC = 20,
	TLSX_ALERT_RECORD_OVERFLOW = 22,
	TLSX_ALERT_HANDSHAKE_FAILURE = 40,
	TLSX_ALERT_BAD_CERTIFICATE = 42,
	TLSX_ALERT_UNSUPPORTED_CERTIFICATE = 43,
	TLSX_ALERT_CERTIFICATE_REVOKED = 44,
	TLSX_ALERT_CERTIFICATE_EXPIRED = 45,
	TLSX_ALERT_CERTIFICATE_UNKNOWN = 46,
	TLSX_ALERT_ILLEGAL_PARAMETER = 47,
	TLSX_ALERT_UNKNOWN_CA = 48,
	TLSX_ALERT_ACCESS_DENIED = 49,
	TLSX_ALERT_DECODE_ERROR = 50,
	TLSX_ALERT_DECRYPT_ERROR = 51,
	TLSX_ALERT_PROTOCOL_VERSION = 70,
	TLSX_ALERT_INSUFFICIENT_SECURITY = 71,
	TLSX_ALERT_INTERNAL_ERROR = 80,
	TLSX_ALERT_INAPPROPRIATE_FALLBACK = 86,
	TLSX_ALERT_USER_CANCELED = 90,
	TLSX_ALERT_MISSING_EXTENSION = 109,
	TLSX_ALERT_UNSUPPORTED_EXTENSION = 110,
	TLSX_ALERT_UNRECOGNIZED_NAME = 112,
	TLSX_ALERT_BAD_CERTIFICATE_STATUS_RESPONSE = 113,
	TLSX_ALERT_UNKNOWN_PSK_IDENTITY = 115,
	TLSX_ALERT_CERTIFICATE_REQUIRED = 116,
	TLSX_ALERT_NO_APPLICATION_PROTOCOL = 120,
};

/*
 * The RFC's name of @alert ("decode_error"), or NULL for a value RFC 8446
 * does not define.
 */
const char *tlsx_alert_name(int alert);

/*
 * The alert a return code of the engine sends: the code itself when
 * positive, internal_error for a negative errno, close_notify for 0.
 */
static inline enum tlsx_alert tlsx_alert_of(int ret)
{
	if (ret > 0)
		return (enum tlsx_alert)ret;
	return ret ? TLSX_ALERT_INTERNAL_ERROR : TLSX_ALERT_CLOSE_NOTIFY;
}

#endif /* TLSX_HS_ALERT_H */
