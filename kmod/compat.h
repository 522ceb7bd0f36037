/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel API difference between the kernels tlsx builds
 * for (Debian 12's 6.1 and 6.12), in one place, as DKMS modules do it.
 *
 * The code is written against 6.12's API.  For an older kernel this file
 * either supplies the newer helper under its 6.12 name (callers are
 * unchanged) or, where the two kernels take data differently, a tlsx_*
 * function with one body per kernel.  There is one TX and one RX path.
 *
 * Decided at build time by LINUX_VERSION_CODE, except where Debian's 6.1
 * carries backports that the version number does not tell (splice_eof):
 * there Kbuild greps the headers (TLSX_HAVE_* in Kbuild).
 *
 * Adding a kernel: build it (make module KDIR=...), and give each
 * compile error a shim here with the kernel that changed the API.
 */
#ifndef TLSX_KMOD_COMPAT_H
#define TLSX_KMOD_COMPAT_H

#include <linux/version.h>

/* 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#include <asm/cpu_device_id.h>	/* VFM_MAKE() of intel-family.h */
#include <asm/intel-family.h>
#include <asm/processor.h>

/*
 * 6.10 named CPU models by vendor/family/model (x86_vfm, INTEL_*);
 * before, family 6 models were INTEL_FAM6_*.
 */
static inline bool tlsx_cpu_is_skylake_x(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	return boot_cpu_data.x86_vfm == INTEL_SKYLAKE_X;
#else
	return boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	       boot_cpu_data.x86 == 6 &&
	       boot_cpu_data.x86_model == INTEL_FAM6_SKYLAKE_X;
#endif
}

#endif /* TLSX_KMOD_COMPAT_H */

/*
 * The socket code's part, with its own guard: tlsx_context.h asks for it
 * (TLSX_COMPAT_NET); the crypto engines, which get the part above
 * through platform.h, do not need the network headers.
 */
#if defined(TLSX_COMPAT_NET) && !defined(TLSX_KMOD_COMPAT_NET_H)
#define TLSX_KMOD_COMPAT_NET_H

#include <linux/bvec.h>
#include <linux/shrinker.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <net/tcp.h>

/*
 * 6.12 (devmem TCP) added frags the CPU cannot read; before, every frag
 * can be.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
static inline bool skb_frags_readable(const struct sk_buff *skb)
{
	return true;
}
#endif

/*
 * 6.10 added disable_delayed_work_sync(), which also refuses later
 * queueing.  Before it, cancel_delayed_work_sync() is enough for tx.c:
 * TLSX_TX_CLOSING is set under the socket lock first and every queueing
 * (tlsx_tx_schedule()) checks it, so nothing queues the work after the
 * cancel.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
#define disable_delayed_work_sync(w) cancel_delayed_work_sync(w)
#endif

/*
 * 6.7 (shrinker_alloc()) made the core allocate shrinkers; 6.1 registers
 * a caller-owned struct with register_shrinker(s, name).
 */
static inline struct shrinker *
tlsx_shrinker_create(const char *name,
		     unsigned long (*count)(struct shrinker *,
					    struct shrink_control *),
		     unsigned long (*scan)(struct shrinker *,
					   struct shrink_control *))
{
	struct shrinker *s;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	s = shrinker_alloc(0, "%s", name);
	if (!s)
		return NULL;
#else
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
#endif
	s->count_objects = count;
	s->scan_objects = scan;
	s->seeks = DEFAULT_SEEKS;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	shrinker_register(s);
#else
	if (register_shrinker(s, "%s", name)) {
		kfree(s);
		return NULL;
	}
#endif
	return s;
}

static inline void tlsx_shrinker_destroy(struct shrinker *s)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	shrinker_free(s);
#else
	unregister_shrinker(s);
	kfree(s);
#endif
}

/*
 * One page of a spliced (not user-backed) iterator, without a reference
 * of ours: the iterator's owner holds the page for the call.  6.3 added
 * iov_iter_extract_pages(), which takes none for a bvec; 6.1's
 * iov_iter_get_pages2() takes one, dropped here.  On 6.1 the only
 * spliced iterator tlsx sees is its own one-page bvec of sendpage
 * (tlsx_sendpage() below).
 */
static inline ssize_t tlsx_extract_page(struct iov_iter *from,
					struct page **page, size_t maxsize,
					size_t *off)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	return iov_iter_extract_pages(from, &page, maxsize, 1, 0, off);
#else
	ssize_t n = iov_iter_get_pages2(from, page, maxsize, 1, off);

	if (n > 0)
		put_page(*page);
	return n;
#endif
}

/*
 * Hand @len bytes of pages to TCP by reference, from @skip bytes into
 * @bv (@nr entries).  Socket locked.  Return: the bytes TCP took, or its
 * error if none.
 *
 * 6.5 removed sendpage: TCP takes pages from a bvec iterator in
 * tcp_sendmsg_locked() with MSG_SPLICE_PAGES.  Before, it takes them one
 * at a time with do_tcp_sendpages(), MSG_SENDPAGE_NOTLAST saying more
 * follows (kTLS 6.1's tls_push_sg()); Debian's 6.1 declares
 * MSG_SPLICE_PAGES but its TCP would copy, so TLSX_HAVE_SENDPAGE
 * (Kbuild) decides, not the version.
 */
static inline int tlsx_tcp_sendpages(struct sock *sk, struct bio_vec *bv,
				     unsigned int nr, size_t skip, size_t len,
				     int flags)
{
#ifndef TLSX_HAVE_SENDPAGE
	struct msghdr msg = { .msg_flags = flags | MSG_SPLICE_PAGES };

	iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, bv, nr, skip + len);
	iov_iter_advance(&msg.msg_iter, skip);
	return tcp_sendmsg_locked(sk, &msg, len);
#else
	int f = flags & (MSG_MORE | MSG_DONTWAIT | MSG_NOSIGNAL);
	size_t done = 0;

	while (done < len) {
		size_t n;
		int ret;

		while (skip >= bv->bv_len) {
			skip -= bv->bv_len;
			bv++;
		}
		n = min_t(size_t, bv->bv_len - skip, len - done);
		ret = do_tcp_sendpages(sk, bv->bv_page, bv->bv_offset + skip,
				       n, done + n < len ?
				       f | MSG_SENDPAGE_NOTLAST : f);
		if (ret <= 0)
			return done ? done : ret;
		done += ret;
		skip += ret;
		if (ret < n)
			break;
	}
	return done;
#endif
}

#ifdef TLSX_HAVE_SENDPAGE
/*
 * Before 6.5, splice and sendfile reach a socket through
 * proto.sendpage, one page at a time, MSG_SENDPAGE_NOTLAST when more
 * follows.  The page goes into the one TX path as a MSG_SPLICE_PAGES
 * sendmsg of a one-page bvec, as 6.12's splice_to_socket() sends it:
 * referenced, never copied.  Debian's 6.1 declares MSG_SPLICE_PAGES
 * (unused by its TCP); a 6.1 without it gets a bit free on 6.1 for
 * tlsx's own use, never passed on (tlsx_tcp_sendpages() masks it).
 */
#ifndef MSG_SPLICE_PAGES
#define MSG_SPLICE_PAGES	0x8000000
#endif

int tlsx_sendmsg(struct sock *sk, struct msghdr *msg, size_t size);

static inline int tlsx_sendpage(struct sock *sk, struct page *page,
				int offset, size_t size, int flags)
{
	struct msghdr msg = { };
	struct bio_vec bv;

	/* kTLS 6.1's tls_sw_sendpage() refuses the same. */
	if (flags & ~(MSG_MORE | MSG_DONTWAIT | MSG_NOSIGNAL |
		      MSG_SENDPAGE_NOTLAST | MSG_SENDPAGE_NOPOLICY |
		      MSG_NO_SHARED_FRAGS))
		return -EOPNOTSUPP;
	if (flags & MSG_SENDPAGE_NOTLAST)
		flags |= MSG_MORE;
	msg.msg_flags = (flags & (MSG_MORE | MSG_DONTWAIT | MSG_NOSIGNAL |
				  MSG_SENDPAGE_NOPOLICY)) | MSG_SPLICE_PAGES;
	bvec_set_page(&bv, page, size, offset);
	iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, &bv, 1, size);
	return tlsx_sendmsg(sk, &msg, size);
}
#endif

void tlsx_splice_eof(struct socket *sock);

/*
 * The TX entry points besides sendmsg, on the TX tables of main.c.
 * 6.5 added splice_eof (Debian's 6.1 has it backported) and removed
 * sendpage and sendpage_locked.  The _locked ops are for in-kernel
 * callers holding the socket lock (sockmap, espintcp, which never hold
 * a ULP socket): TCP's would send plaintext past the records, so they
 * are cleared, and the kernel then refuses such sends (-EOPNOTSUPP).
 */
static inline void tlsx_compat_tx_proto(struct proto *prot)
{
#ifdef TLSX_HAVE_SPLICE_EOF
	prot->splice_eof = tlsx_splice_eof;
#endif
#ifdef TLSX_HAVE_SENDPAGE
	prot->sendpage = tlsx_sendpage;
#endif
}

static inline void tlsx_compat_tx_ops(struct proto_ops *ops)
{
#ifdef TLSX_HAVE_SPLICE_EOF
	ops->splice_eof = tlsx_splice_eof;
#endif
#ifdef TLSX_HAVE_SENDPAGE
	/* 6.5 removed it; see sendmsg_locked in main.c's tlsx_build_ops(). */
	ops->sendpage_locked = NULL;
#endif
}

/*
 * 6.19 added TLS_TX_MAX_PAYLOAD_LEN (RFC 8449's record_size_limit) to
 * the uAPI, and its inet_diag attribute right after TLS_INFO_RX_NO_PAD;
 * tlsx offers both on every kernel, with 6.19's numbers, defined once
 * for the module and userspace.
 */
#include "tlsx_uapi.h"

#endif /* TLSX_COMPAT_NET */
