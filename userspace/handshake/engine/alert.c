// SPDX-License-Identifier: GPL-2.0
/*
 * alert.c - names of the TLS 1.3 alerts (RFC 8446 section 6).
 */
#include <stddef.h>

#include "handshake/engine/alert.h"

static const char *const alert_names[] = {
	[TLSX_ALERT_CLOSE_NOTIFY] = "close_notify",
	[TLSX_ALERT_UNEXPECTED_MESSAGE] = "unexpected_message",
	[TLSX_ALERT_BAD_RECORD_MAC] = "bad_record_mac",
	[TLSX_ALERT_RECORD_OVERFLOW] = "record_overflow",
	[TLSX_ALERT_HANDSHAKE_FAILURE] = "handshake_failure",
	[TLSX_ALERT_BAD_CERTIFICATE] = "bad_certificate",
	[TLSX_ALERT_UNSUPPORTED_CERTIFICATE] = "unsupported_certificate",
	[TLSX_ALERT_CERTIFICATE_REVOKED] = "certificate_revoked",
	[TLSX_ALERT_CERTIFICATE_EXPIRED] = "certificate_expired",
	[TLSX_ALERT_CERTIFICATE_UNKNOWN] = "certificate_unknown",
	[TLSX_ALERT_ILLEGAL_PARAMETER] = "illegal_parameter",
	[TLSX_ALERT_UNKNOWN_CA] = "unknown_ca",
	[TLSX_ALERT_ACCESS_DENIED] = "access_denied",
	[TLSX_ALERT_DECODE_ERROR] = "decode_error",
	[TLSX_ALERT_DECRYPT_ERROR] = "decrypt_error",
	[TLSX_ALERT_PROTOCOL_VERSION] = "protocol_version",
	[TLSX_ALERT_INSUFFICIENT_SECURITY] = "insufficient_security",
	[TLSX_ALERT_INTERNAL_ERROR] = "internal_error",
	[TLSX_ALERT_INAPPROPRIATE_FALLBACK] = "inappropriate_fallback",
	[TLSX_ALERT_USER_CANCELED] = "user_canceled",
	[TLSX_ALERT_MISSING_EXTENSION] = "missing_extension",
	[TLSX_ALERT_UNSUPPORTED_EXTENSION] = "unsupported_extension",
	[TLSX_ALERT_UNRECOGNIZED_NAME] = "unrecognized_name",
	[TLSX_ALERT_BAD_CERTIFICATE_STATUS_RESPONSE] =
		"bad_certificate_status_response",
	[TLSX_ALERT_UNKNOWN_PSK_IDENTITY] = "unknown_psk_identity",
	[TLSX_ALERT_CERTIFICATE_REQUIRED] = "certificate_required",
	[TLSX_ALERT_NO_APPLICATION_PROTOCOL] = "no_application_protocol",
};

const char *tlsx_alert_name(int alert)
{
	if (alert < 0 || (size_t)alert >= sizeof(alert_names) /
	    sizeof(alert_names[0]))
		return NULL;
	return alert_names[alert];
}
