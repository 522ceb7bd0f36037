// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_read_sock.c - /sys/kernel/debug/tlsx/read_sock: call
 * sock->ops->read_sock on a socket of the calling process, as nvme-tcp
 * does (socket locked around the call), or as strparser does in softirq,
 * with an actor that copies what it is offered (see
 * debugfs_read_sock_abi.h).
 *
 * It exists for the selftests (selftests/read_sock.c), which run it on
 * tlsx's sockets and on the kernel's tls alike.  The actor keeps a
 * reference to each skb it is offered and copies it again once
 * read_sock has returned and the socket is unlocked: an actor may keep
 * an skb, so its pages must outlive the record.  It calls only tlsx's
 * and kTLS's read_sock (a write for any other socket fails with
 * EOPNOTSUPP).  Only root can reach debugfs; the length is bounded.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/net.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <net/inet_connection_sock.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "debugfs_file.h"
#include "debugfs_read_sock_abi.h"
#include "tlsx_context.h"

#define TLSX_DBG_RS_KEEP	64	/* skbs kept for the second copy */

struct tlsx_dbg_rs_actor {
	const struct tlsx_dbg_rs_req *req;
	struct tlsx_dbg_rs_resp *resp;
	u8 *buf;		/* req->max bytes */
	struct {
		struct sk_buff *skb;
		unsigned int offset, len, at;
	} kept[TLSX_DBG_RS_KEEP];
	unsigned int nkept;
	int err;		/* the actor found a malformed skb */
};

static int tlsx_dbg_rs_actor(read_descriptor_t *desc, struct sk_buff *skb,
			     unsigned int offset, size_t len)
{
	struct tlsx_dbg_rs_actor *a = desc->arg.data;
	struct tlsx_dbg_rs_resp *resp = a->resp;
	size_t n = min_t(size_t, len, desc->count);

	resp->calls++;
	if (!len)
		resp->zero_len_calls++;
	if (a->req->fail_call == resp->calls)
		return -EIO;
	if (a->req->per_call)
		n = min_t(size_t, n, a->req->per_call);
	if (offset + len > skb->len ||
	    skb_copy_bits(skb, offset, a->buf + resp->len, n)) {
		a->err = -EFAULT;
		return -EFAULT;
	}
	if (n && a->nkept < TLSX_DBG_RS_KEEP) {
		a->kept[a->nkept].skb = skb_get(skb);
		a->kept[a->nkept].offset = offset;
		a->kept[a->nkept].len = n;
		a->kept[a->nkept].at = resp->len;
		a->nkept++;
	}
	resp->len += n;
	desc->count -= n;
	if (n < len && (a->req->flags & TLSX_DBG_RS_STOP_ON_PARTIAL))
		desc->count = 0;
	return n;
}

/* The kept skbs must still hold what the actor copied from them. */
static int tlsx_dbg_rs_recheck(struct tlsx_dbg_rs_actor *a)
{
	unsigned int i, n;
	int err = 0;
	u8 tmp[64];

	for (i = 0; i < a->nkept; i++) {
		unsigned int off = a->kept[i].offset, done;

		for (done = 0; done < a->kept[i].len && !err; done += n) {
			n = min_t(unsigned int, sizeof(tmp),
				  a->kept[i].len - done);
			if (skb_copy_bits(a->kept[i].skb, off + done, tmp, n) ||
			    memcmp(tmp, a->buf + a->kept[i].at + done, n))
				err = -EIO;
		}
		kfree_skb(a->kept[i].skb);
	}
	return err;
}

/*
 * The read_sock the hook may call: tlsx's, and kTLS's (the selftests'
 * tls variants).  Not TCP's, which a plain socket and either ULP without
 * TLS_RX have: tcp_read_sock() frees each skb it consumed whatever its
 * users count (tcp_eat_recv_skb()), and the actor keeps the skbs it is
 * offered, to read and free them again after the call.  Socket locked.
 */
static bool tlsx_dbg_rs_allowed(struct socket *sock)
{
	struct sock *sk = sock->sk;
	const struct tcp_ulp_ops *ulp;

	if (sock->ops->read_sock == tlsx_read_sock)
		return true;
	if (sk->sk_type != SOCK_STREAM || sk->sk_protocol != IPPROTO_TCP ||
	    (sk->sk_family != AF_INET && sk->sk_family != AF_INET6))
		return false;
	ulp = inet_csk(sk)->icsk_ulp_ops;
	return ulp && !strcmp(ulp->name, "tls") && sock->ops->read_sock &&
	       sock->ops->read_sock != tcp_read_sock;
}

static int tlsx_dbg_rs_run(const struct tlsx_dbg_rs_req *req,
			   struct tlsx_dbg_rs_resp *resp, u8 *buf)
{
	struct tlsx_dbg_rs_actor *a;
	read_descriptor_t desc = {};
	struct socket *sock;
	struct sock *sk;
	int err;

	sock = sockfd_lookup(req->fd, &err);
	if (!sock)
		return err;
	err = 0;
	sk = sock->sk;
	if (!sk) {
		err = -EOPNOTSUPP;
		goto out;
	}
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a) {
		err = -ENOMEM;
		goto out;
	}
	a->req = req;
	a->resp = resp;
	a->buf = buf;
	desc.arg.data = a;
	desc.count = req->max;

	if (req->flags & TLSX_DBG_RS_ATOMIC) {
		local_bh_disable();
		bh_lock_sock(sk);
		if (!tlsx_dbg_rs_allowed(sock))
			err = -EOPNOTSUPP;
		else if (sock_owned_by_user(sk))
			resp->ret = -EBUSY;
		else
			resp->ret = sock->ops->read_sock(sk, &desc,
							 tlsx_dbg_rs_actor);
		bh_unlock_sock(sk);
		local_bh_enable();
	} else {
		lock_sock(sk);
		if (!tlsx_dbg_rs_allowed(sock))
			err = -EOPNOTSUPP;
		else
			resp->ret = sock->ops->read_sock(sk, &desc,
							 tlsx_dbg_rs_actor);
		release_sock(sk);
	}

	if (!err)
		err = tlsx_dbg_rs_recheck(a);
	if (a->err)
		err = a->err;
	kfree(a);
out:
	sockfd_put(sock);
	return err;
}

static ssize_t tlsx_dbg_rs_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	struct tlsx_dbg_rs_resp *resp;
	struct tlsx_dbg_rs_req req;
	size_t resp_len;
	int err;

	if (count != sizeof(req))
		return -EINVAL;
	if (copy_from_user(&req, ubuf, sizeof(req)))
		return -EFAULT;
	if (req.max > TLSX_DBG_RS_MAX_LEN ||
	    (req.flags & ~(TLSX_DBG_RS_STOP_ON_PARTIAL | TLSX_DBG_RS_ATOMIC)))
		return -EINVAL;

	resp_len = sizeof(*resp) + req.max;
	resp = kvzalloc(resp_len, GFP_KERNEL | __GFP_NOWARN);
	if (!resp)
		return -ENOMEM;
	err = tlsx_dbg_rs_run(&req, resp, (u8 *)(resp + 1));
	if (err) {
		kvfree(resp);
		return err;
	}

	tlsx_dbg_file_answer(file, resp, sizeof(*resp) + resp->len);
	return count;
}

static const struct file_operations tlsx_dbg_rs_fops = {
	.owner = THIS_MODULE,
	.open = tlsx_dbg_file_open,
	.release = tlsx_dbg_file_release,
	.write = tlsx_dbg_rs_write,
	.read = tlsx_dbg_file_read,
};

void tlsx_read_sock_debugfs(struct dentry *dir)
{
	debugfs_create_file("read_sock", 0600, dir, NULL, &tlsx_dbg_rs_fops);
}
