// SPDX-License-Identifier: GPL-2.0
/*
 * tx_pages.c - the pages behind sealed records, recycled per CPU.
 *
 * A record lives in a page fragment (sk_page_frag(), 32 KiB pages) until
 * TCP and the peer are done with it.  The socket's page_frag lets go of a
 * page as soon as it moves on to the next one, so the page is freed by
 * whoever drops the last reference (an ACK, a reader on another CPU) and
 * a new one is allocated for the next records: an order-3 allocation and
 * free every two records.  Here a page the frag lets go of is kept, with
 * a reference, in a small per-CPU ring instead; when the frag needs a new
 * page it takes one from the ring that nobody else holds any more
 * (reference count 1) and only allocates when none is idle.
 *
 * The ring holds at most TLSX_TX_RING pages per CPU (256 KiB with 32 KiB
 * pages), idle or still in flight.  Memory reclaim empties the rings (a
 * shrinker: the pages are only a cache), and so does module unload.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/shrinker.h>
#include <linux/spinlock.h>
#include <net/sock.h>

#include "tlsx_context.h"

#define TLSX_TX_RING	8

struct tlsx_tx_ring {
	/* Taken by this CPU's senders and, rarely, by the shrinker. */
	spinlock_t lock;
	struct page *page[TLSX_TX_RING];
	unsigned int next;		/* the slot to evict next */
};

static DEFINE_PER_CPU(struct tlsx_tx_ring, tlsx_tx_rings);
static struct shrinker *tlsx_tx_shrinker;

/*
 * Take an idle page from this CPU's ring and give it @old (the frag's
 * previous page, whose reference moves to the ring; may be NULL).
 * Return: an idle page, its reference moved to the caller, or NULL.
 */
static struct page *tlsx_ring_swap(struct page *old)
{
	struct tlsx_tx_ring *ring = get_cpu_ptr(&tlsx_tx_rings);
	struct page *idle = NULL, *evict = NULL;
	unsigned int i, slot;

	spin_lock(&ring->lock);
	for (i = 0; i < TLSX_TX_RING; i++) {
		struct page *p = ring->page[i];

		if (p && page_ref_count(p) == 1) {
			idle = p;
			ring->page[i] = NULL;
			break;
		}
	}
	if (old) {
		if (idle) {
			slot = i;
		} else {
			slot = ring->next;
			ring->next = (ring->next + 1) % TLSX_TX_RING;
			evict = ring->page[slot];
		}
		ring->page[slot] = old;
	}
	spin_unlock(&ring->lock);
	put_cpu_ptr(&tlsx_tx_rings);
	if (evict)
		put_page(evict);
	return idle;
}

/*
 * sk_page_frag_refill() for record memory: make @pf hold at least 32
 * free bytes, from a recycled page when one is idle.
 * Return: false when no page could be had (memory pressure noted).
 */
bool tlsx_tx_frag_refill(struct sock *sk, struct page_frag *pf)
{
	struct page *page, *old = NULL;

	if (pf->page) {
		if (page_ref_count(pf->page) == 1) {
			pf->offset = 0;
			return true;
		}
		if (pf->offset + 32 <= pf->size)
			return true;
		old = pf->page;
	}
	page = tlsx_ring_swap(old);
	if (!page) {
		/* Allocate as TCP does, noting memory pressure on failure. */
		pf->page = NULL;
		return sk_page_frag_refill(sk, pf);
	}
	pf->page = page;
	pf->offset = 0;
	pf->size = page_size(page);
	return true;
}

unsigned long tlsx_tx_pages_held(void)
{
	unsigned long n = 0;
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct tlsx_tx_ring *ring = per_cpu_ptr(&tlsx_tx_rings, cpu);

		for (i = 0; i < TLSX_TX_RING; i++)
			n += !!READ_ONCE(ring->page[i]);
	}
	return n;
}

/*
 * Give back what the rings hold, at most @max pages: the idle ones are
 * freed here, the ones still in flight when their last user lets go.
 */
static unsigned long tlsx_tx_pages_drop(unsigned long max)
{
	struct page *drop[TLSX_TX_RING];
	unsigned long done = 0;
	unsigned int i, n;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct tlsx_tx_ring *ring = per_cpu_ptr(&tlsx_tx_rings, cpu);

		n = 0;
		spin_lock(&ring->lock);
		for (i = 0; i < TLSX_TX_RING && done + n < max; i++) {
			if (ring->page[i])
				drop[n++] = ring->page[i];
			ring->page[i] = NULL;
		}
		spin_unlock(&ring->lock);
		for (i = 0; i < n; i++)
			put_page(drop[i]);
		done += n;
		if (done >= max)
			break;
	}
	return done;
}

static unsigned long tlsx_tx_shrink_count(struct shrinker *s,
					  struct shrink_control *sc)
{
	return tlsx_tx_pages_held() ?: SHRINK_EMPTY;
}

static unsigned long tlsx_tx_shrink_scan(struct shrinker *s,
					 struct shrink_control *sc)
{
	return tlsx_tx_pages_drop(sc->nr_to_scan) ?: SHRINK_STOP;
}

int tlsx_tx_pages_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		spin_lock_init(&per_cpu_ptr(&tlsx_tx_rings, cpu)->lock);
	tlsx_tx_shrinker = tlsx_shrinker_create("tlsx-tx-pages",
						tlsx_tx_shrink_count,
						tlsx_tx_shrink_scan);
	return tlsx_tx_shrinker ? 0 : -ENOMEM;
}

/* Module unload, no socket left: every page the rings hold goes back. */
void tlsx_tx_pages_exit(void)
{
	tlsx_shrinker_destroy(tlsx_tx_shrinker);
	tlsx_tx_pages_drop(ULONG_MAX);
}
