// SPDX-License-Identifier: GPL-2.0
/*
 * group.c - the key exchange group table (group_rows.h) and its
 * lookups; the contract is in group.h.
 */
#include <strings.h>

#include "handshake/engine/group.h"

const struct tlsx_group tlsx_groups[] = {
#define TLSX_GROUP_ROW(id, c, cshare, sshare, priv, secret, ops_id, def, \
		       is_pq, ...)					\
	{								\
		.code = (c),						\
		.client_share = (cshare),				\
		.server_share = (sshare),				\
		.priv_len = (priv),					\
		.secret_len = (secret),					\
		.by_default = (def),					\
		.pq = (is_pq),						\
		.ops = &tlsx_kx_##ops_id,				\
		.names = { __VA_ARGS__ },				\
	},
#include "handshake/engine/group_rows.h"
#undef TLSX_GROUP_ROW
};

const unsigned int tlsx_n_groups = ARRAY_SIZE(tlsx_groups);

const struct tlsx_group *tlsx_group_find(u16 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tlsx_groups); i++)
		if (tlsx_groups[i].code == code)
			return &tlsx_groups[i];
	return NULL;
}

const struct tlsx_group *tlsx_group_by_name(const char *name, size_t len)
{
	const char *const *n;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tlsx_groups); i++)
		for (n = tlsx_groups[i].names; *n; n++)
			if (strlen(*n) == len && !strncasecmp(*n, name, len))
				return &tlsx_groups[i];
	return NULL;
}

unsigned int tlsx_group_defaults(u16 *codes, unsigned int cap)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(tlsx_groups) && n < cap; i++)
		if (tlsx_groups[i].by_default)
			codes[n++] = tlsx_groups[i].code;
	return n;
}

bool tlsx_group_is_pq(u16 code)
{
	const struct tlsx_group *g = tlsx_group_find(code);

	return g && g->pq;
}

const char *tlsx_group_name(u16 code)
{
	const struct tlsx_group *g = tlsx_group_find(code);

	return g ? g->names[0] : "unknown";
}
