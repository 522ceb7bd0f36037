// SPDX-License-Identifier: GPL-2.0
/*
 * proc.c - /proc/net/tlsx_stat: kTLS's counters, per network namespace.
 *
 * The kernel keeps kTLS's counters in struct net itself (net->mib); a
 * module cannot, so each namespace gets per-cpu counters through
 * net_generic().  The names are those of /proc/net/tls_stat (including
 * the rekey counters of later kernels), plus TlsxRxBadRecord, and the
 * format is the same, so tools that parse one parse the other.
 */
#include <linux/percpu.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "tlsx_context.h"

struct tlsx_mib {
	unsigned long v[TLSX_STAT_COUNT];
};

struct tlsx_net {
	struct tlsx_mib __percpu *mib;
};

static unsigned int tlsx_net_id __read_mostly;

static const char *const tlsx_stat_names[TLSX_STAT_COUNT] = {
	[TLSX_STAT_CURR_TX_SW]		= "TlsCurrTxSw",
	[TLSX_STAT_CURR_RX_SW]		= "TlsCurrRxSw",
	[TLSX_STAT_TX_SW]		= "TlsTxSw",
	[TLSX_STAT_RX_SW]		= "TlsRxSw",
	[TLSX_STAT_DECRYPT_ERROR]	= "TlsDecryptError",
	[TLSX_STAT_RX_NO_PAD_VIOLATION]	= "TlsRxNoPadViolation",
	[TLSX_STAT_TX_REKEY_OK]		= "TlsTxRekeyOk",
	[TLSX_STAT_TX_REKEY_ERROR]	= "TlsTxRekeyError",
	[TLSX_STAT_RX_REKEY_OK]		= "TlsRxRekeyOk",
	[TLSX_STAT_RX_REKEY_ERROR]	= "TlsRxRekeyError",
	[TLSX_STAT_RX_REKEY_RECEIVED]	= "TlsRxRekeyReceived",
	[TLSX_STAT_RX_BAD_RECORD]	= "TlsxRxBadRecord",
};

static struct tlsx_mib __percpu *tlsx_mib(const struct sock *sk)
{
	struct tlsx_net *tn = net_generic(sock_net(sk), tlsx_net_id);

	return tn->mib;
}

void tlsx_stat_inc(const struct sock *sk, enum tlsx_stat s)
{
	this_cpu_inc(tlsx_mib(sk)->v[s]);
}

/* The current-socket counters go down on another CPU: the sum is right. */
void tlsx_stat_dec(const struct sock *sk, enum tlsx_stat s)
{
	this_cpu_dec(tlsx_mib(sk)->v[s]);
}

static int tlsx_stat_show(struct seq_file *seq, void *v)
{
	struct net *net = seq->private;
	struct tlsx_net *tn = net_generic(net, tlsx_net_id);
	unsigned long sum[TLSX_STAT_COUNT] = {};
	int cpu, i;

	for_each_possible_cpu(cpu) {
		const struct tlsx_mib *m = per_cpu_ptr(tn->mib, cpu);

		for (i = 0; i < TLSX_STAT_COUNT; i++)
			sum[i] += READ_ONCE(m->v[i]);
	}
	for (i = 0; i < TLSX_STAT_COUNT; i++)
		seq_printf(seq, "%-32s\t%lu\n", tlsx_stat_names[i], sum[i]);
	return 0;
}

static int __net_init tlsx_net_init(struct net *net)
{
	struct tlsx_net *tn = net_generic(net, tlsx_net_id);

	tn->mib = alloc_percpu(struct tlsx_mib);
	if (!tn->mib)
		return -ENOMEM;
	if (!proc_create_net_single("tlsx_stat", 0444, net->proc_net,
				    tlsx_stat_show, NULL)) {
		free_percpu(tn->mib);
		return -ENOMEM;
	}
	return 0;
}

static void __net_exit tlsx_net_exit(struct net *net)
{
	struct tlsx_net *tn = net_generic(net, tlsx_net_id);

	remove_proc_entry("tlsx_stat", net->proc_net);
	free_percpu(tn->mib);
}

static struct pernet_operations tlsx_net_ops = {
	.init = tlsx_net_init,
	.exit = tlsx_net_exit,
	.id = &tlsx_net_id,
	.size = sizeof(struct tlsx_net),
};

int tlsx_proc_init(void)
{
	return register_pernet_subsys(&tlsx_net_ops);
}

void tlsx_proc_exit(void)
{
	unregister_pernet_subsys(&tlsx_net_ops);
}
