// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Transmit: build MRC packets into skbs, queue them on the QP with the
 * path each takes, and hand the queue to net/ once the QP lock is dropped.
 */
#include <linux/udp.h>

#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"
#include "net/mrc_net.h"
#include "core/mrc_srv6.h"

/* Room for the link, IP and UDP headers and an SRv6 encapsulation. */
#define MRC_TX_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
			 sizeof(struct udphdr) + 64 + \
			 mrc_srv6_encap_len(MRC_SRV6_SEGS_MAX))

/*
 * GSO runs of SEND/WRITE packets from user MRs leave without a copy of
 * their payload (mrc_tx_alloc_zc()). Off, they are copied as a kernel
 * MR's are: for comparing the two in one boot, or as a way out.
 */
static bool mrc_tx_zerocopy = true;
module_param_named(tx_zerocopy, mrc_tx_zerocopy, bool, 0644);
MODULE_PARM_DESC(tx_zerocopy,
		 "Send runs of SEND/WRITE packets from user memory regions without copying their payload (default Y)");

/* An skb of @len bytes, its @npkts packets counted until it is freed. */
static struct sk_buff *mrc_tx_skb(struct mrc_qp *qp, unsigned int len,
				  u16 npkts)
{
	struct sk_buff *skb;

	skb = alloc_skb(MRC_TX_HEADROOM + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	mrc_tx_acct_charge(qp->tx_acct, skb, npkts);
	skb_reserve(skb, MRC_TX_HEADROOM);
	skb_put(skb, len);
	return skb;
}

/* Write @pkt's headers at @buf; false (reported once) if it breaks a rule. */
static bool mrc_tx_encode(struct mrc_qp *qp, struct mrc_pkt *pkt, u8 *buf)
{
	unsigned int hdr_len = mrc_wire_hdr_len(pkt);
	enum mrc_wire_err err;

	/* UD datagrams name their destination QP per work request. */
	if (pkt->opcode != MRC_OP_UD_SEND && pkt->opcode != MRC_OP_UD_SEND_IMM)
		pkt->dqpn = qp->dest_qpn;
	err = mrc_wire_encode(pkt, qp->seg, buf, hdr_len, &hdr_len);
	if (err) {
		WARN_ONCE(1, "mrc: building %s: %s\n",
			  mrc_wire_opcode_name(pkt->opcode),
			  mrc_wire_err_name(err));
		return false;
	}
	return true;
}

/**
 * mrc_tx_alloc() - allocate a packet and write its MRC headers
 * @qp: the sending QP (fills the destination QPN)
 * @pkt: headers; payload_len says how much payload room to reserve
 * @payload: set to where the payload goes
 *
 * Return: the skb, or NULL when memory is short or @pkt breaks a wire
 * rule (a driver bug, reported once).
 */
struct sk_buff *mrc_tx_alloc(struct mrc_qp *qp, struct mrc_pkt *pkt,
			     void **payload)
{
	unsigned int hdr_len = mrc_wire_hdr_len(pkt);
	struct sk_buff *skb;

	skb = mrc_tx_skb(qp, hdr_len + pkt->payload_len, 1);
	if (!skb)
		return NULL;
	if (!mrc_tx_encode(qp, pkt, skb->data)) {
		kfree_skb(skb);
		return NULL;
	}
	*payload = skb->data + hdr_len;
	return skb;
}

/* @skb carries @npkts MRC packets, one every @pkt_len bytes of payload. */
static void mrc_tx_set_gso(struct sk_buff *skb, u32 pkt_len, u16 npkts)
{
	skb_shinfo(skb)->gso_size = pkt_len;
	skb_shinfo(skb)->gso_segs = npkts;
	skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4;
}

/**
 * mrc_tx_alloc_gso() - allocate one skb for several packets
 * @qp: the sending QP, with @qp->lock held (its page fragment)
 * @pkt_len: bytes of each packet (headers and payload) but the last
 * @len: bytes of all of them
 * @npkts: how many (at least 2)
 *
 * The packets leave as one UDP GSO skb: one route lookup and one trip
 * through IP and the qdisc, and the device or the stack cuts it every
 * @pkt_len bytes, giving each piece a UDP header of its own. Write each
 * packet with mrc_tx_put_gso().
 *
 * Return: the skb, or NULL when memory is short.
 */
struct sk_buff *mrc_tx_alloc_gso(struct mrc_qp *qp, u32 pkt_len, u32 len,
				 u16 npkts)
{
	struct page_frag *pf = &qp->tx_frag;
	struct sk_buff *skb;
	bool in_frag;

	/*
	 * The packets go in a page fragment, as TCP's do: once the stack
	 * has freed the runs before, the page is reused as it is, where a
	 * fresh linear buffer of this size is an order-3 allocation that
	 * init_on_alloc zeroes every time. A run larger than the page
	 * (jumbo MTUs), or no page to be had, goes linear.
	 */
	in_frag = skb_page_frag_refill(len, pf, GFP_ATOMIC) &&
		  pf->offset + len <= pf->size;
	skb = mrc_tx_skb(qp, in_frag ? 0 : len, npkts);
	if (!skb)
		return NULL;
	if (in_frag) {
		get_page(pf->page);
		skb_fill_page_desc(skb, 0, pf->page, pf->offset, len);
		skb_len_add(skb, len);
		pf->offset += ALIGN(len, SMP_CACHE_BYTES);
	}
	mrc_tx_set_gso(skb, pkt_len, npkts);
	return skb;
}

/**
 * mrc_tx_put_gso() - write the headers of one packet of a GSO skb
 * @qp: the sending QP
 * @skb: from mrc_tx_alloc_gso()
 * @offset: where the packet starts (a multiple of its packet length)
 * @pkt: its headers; payload_len bytes must fit before the next packet
 *
 * Return: where its payload goes, or NULL if @pkt breaks a wire rule.
 */
void *mrc_tx_put_gso(struct mrc_qp *qp, struct sk_buff *skb, u32 offset,
		     struct mrc_pkt *pkt)
{
	u8 *buf = skb->data;

	/* Lowmem pages from skb_page_frag_refill(): always mapped. */
	if (skb_shinfo(skb)->nr_frags)
		buf = skb_frag_address(&skb_shinfo(skb)->frags[0]);
	buf += offset;
	if (!mrc_tx_encode(qp, pkt, buf))
		return NULL;
	return buf + mrc_wire_hdr_len(pkt);
}

/**
 * mrc_tx_zerocopy_on() - whether GSO runs may reference user MR pages
 *
 * Return: the tx_zerocopy module parameter.
 */
bool mrc_tx_zerocopy_on(void)
{
	return READ_ONCE(mrc_tx_zerocopy);
}

/**
 * mrc_tx_alloc_zc() - allocate an skb for a GSO run that copies no payload
 * @qp: the sending QP, with @qp->lock held (its page fragment)
 * @hdr_len: bytes of each packet's MRC headers
 * @npkts: the most packets the run may hold
 *
 * Each packet of the run is a fragment holding its headers, written in
 * one chunk of the QP's page fragment (mrc_tx_zc_add_hdr()), followed by
 * fragments of the MR's pages (mrc_swqe_frags()). The skb is charged to
 * the QP once the run is whole (mrc_tx_zc_seal()); until then freeing it
 * only drops its page references.
 *
 * Return: the skb, without data, or NULL when memory is short.
 */
struct sk_buff *mrc_tx_alloc_zc(struct mrc_qp *qp, u32 hdr_len, u16 npkts)
{
	struct page_frag *pf = &qp->tx_frag;
	u32 len = hdr_len * npkts;
	struct sk_buff *skb;

	if (!skb_page_frag_refill(len, pf, GFP_ATOMIC) ||
	    pf->offset + len > pf->size)
		return NULL;
	skb = alloc_skb(MRC_TX_HEADROOM, GFP_ATOMIC);
	if (skb)
		skb_reserve(skb, MRC_TX_HEADROOM);
	return skb;
}

/**
 * mrc_tx_zc_add_hdr() - give packet @i of a zero-copy run its header slot
 * @qp: the QP, as for mrc_tx_alloc_zc()
 * @skb: from mrc_tx_alloc_zc()
 * @i: the packet's index in the run
 * @hdr_len: as given to mrc_tx_alloc_zc()
 *
 * Return: the fragment that holds the headers, or -ENOSPC when no slot
 * is left for them and a fragment of payload.
 */
int mrc_tx_zc_add_hdr(struct mrc_qp *qp, struct sk_buff *skb, u16 i,
		      u32 hdr_len)
{
	struct page_frag *pf = &qp->tx_frag;
	unsigned int slot = skb_shinfo(skb)->nr_frags;

	if (slot + 2 > MAX_SKB_FRAGS)
		return -ENOSPC;
	get_page(pf->page);
	skb_fill_page_desc(skb, slot, pf->page, pf->offset + i * hdr_len,
			   hdr_len);
	return slot;
}

/**
 * mrc_tx_zc_drop_last() - take a packet's header slot back out of its run
 * @skb: the run
 *
 * For a packet whose payload found no room (mrc_swqe_frags() added none).
 */
void mrc_tx_zc_drop_last(struct sk_buff *skb)
{
	struct skb_shared_info *sh = skb_shinfo(skb);

	put_page(skb_frag_page(&sh->frags[--sh->nr_frags]));
}

/**
 * mrc_tx_zc_put_hdr() - write the headers of a packet of a zero-copy run
 * @qp: the sending QP
 * @skb: the run
 * @slot: from mrc_tx_zc_add_hdr()
 * @pkt: the headers, as long as the slot
 *
 * Return: false if @pkt breaks a wire rule (reported once).
 */
bool mrc_tx_zc_put_hdr(struct mrc_qp *qp, struct sk_buff *skb, int slot,
		       struct mrc_pkt *pkt)
{
	skb_frag_t *f = &skb_shinfo(skb)->frags[slot];

	if (WARN_ON_ONCE(mrc_wire_hdr_len(pkt) != skb_frag_size(f)))
		return false;
	/* Lowmem pages from skb_page_frag_refill(): always mapped. */
	return mrc_tx_encode(qp, pkt, skb_frag_address(f));
}

/**
 * mrc_tx_zc_seal() - make a zero-copy run of @npkts packets ready to send
 * @qp: the QP, as for mrc_tx_alloc_zc()
 * @skb: the run, every packet's fragments in place
 * @pkt_len: bytes of each packet but the last
 * @npkts: packets in the run (at least 2)
 * @hdr_len: as given to mrc_tx_alloc_zc()
 *
 * The payload fragments are the application's pages: SKBFL_SHARED_FRAG
 * keeps the stack from writing into them.
 */
void mrc_tx_zc_seal(struct mrc_qp *qp, struct sk_buff *skb, u32 pkt_len,
		    u16 npkts, u32 hdr_len)
{
	struct skb_shared_info *sh = skb_shinfo(skb);
	unsigned int i, len = 0;

	for (i = 0; i < sh->nr_frags; i++)
		len += skb_frag_size(&sh->frags[i]);
	skb_len_add(skb, len);
	qp->tx_frag.offset += ALIGN(npkts * hdr_len, SMP_CACHE_BYTES);
	sh->flags |= SKBFL_SHARED_FRAG;
	mrc_tx_set_gso(skb, pkt_len, npkts);
	mrc_tx_acct_charge(qp->tx_acct, skb, npkts);
}

/* The path a queued packet takes rides in its control block until sent. */
static struct mrc_path *mrc_skb_path(struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct mrc_path) > sizeof(skb->cb));
	return (struct mrc_path *)skb->cb;
}

/**
 * mrc_tx_queue_to() - queue a built packet for a given path
 * @qp: the QP
 * @skb: from mrc_tx_alloc()
 * @path: where it goes (an AH's path for UD)
 */
void mrc_tx_queue_to(struct mrc_qp *qp, struct sk_buff *skb,
		     const struct mrc_path *path)
{
	*mrc_skb_path(skb) = *path;
	skb_queue_tail(&qp->txq, skb);
}

/**
 * mrc_tx_ev_srv6_route() - the source route a packet on an EV takes
 * @qp: the QP
 * @idx: the EV, below @qp->mp.evs.count
 *
 * Return: the EV's SRv6 route, or NULL when it has none (not an SRv6
 * profile, or an IPv4 peer) and the packet takes the plain route.
 */
const struct mrc_srv6_route *mrc_tx_ev_srv6_route(const struct mrc_qp *qp,
						  u16 idx)
{
	if (!qp->mp.srv6 || idx >= qp->mp.srv6->n || qp->path.v4)
		return NULL;
	return &qp->mp.srv6->r[idx];
}

/**
 * mrc_tx_answer_srv6_route() - the source route an answer takes
 * @qp: the QP
 * @idx: the EV index of the request answered (the peer's, untrusted)
 *
 * Return: our EV @idx's SRv6 route unless that EV is DENIED, else NULL.
 */
const struct mrc_srv6_route *mrc_tx_answer_srv6_route(const struct mrc_qp *qp,
						      u16 idx)
{
	if (idx >= qp->mp.evs.count || qp->mp.evs.ev[idx].state == MRC_EV_DENIED)
		return NULL;
	return mrc_tx_ev_srv6_route(qp, idx);
}

/**
 * mrc_tx_queue_answer() - queue an answer to a request of the peer's
 * @qp: the QP
 * @skb: from mrc_tx_alloc(): an ACK, NACK, READ or atomic response, or a
 *	probe reply
 * @req: the request it answers (its EV index and UDP source port)
 * @ect: ECN-capable (mrc_net.h): all answers but probe replies
 *
 * The answer goes back on the request's UDP source port. When our own EV
 * of the request's index is an SRv6 route, not DENIED, it takes that
 * route too: with the same spines configured in both directions, an EV's
 * answers then cross the spine its requests crossed, so a failed spine
 * costs exactly its EVs. Otherwise the plain route.
 */
void mrc_tx_queue_answer(struct mrc_qp *qp, struct sk_buff *skb,
			 const struct mrc_pkt *req, bool ect)
{
	struct mrc_path *path = mrc_skb_path(skb);
	u16 idx = req->ev;
	u32 label;

	*path = qp->path;
	path->ect = ect;
	path->sport = htons(req->rx_sport);
	path->srv6 = mrc_tx_answer_srv6_route(qp, idx);
	if (path->srv6) {
		label = mrc_ev_flow_label(&qp->mp.evs, idx);
		if (label)
			path->flow_label = label;
	}
	skb_queue_tail(&qp->txq, skb);
}

/**
 * mrc_tx_queue_ev() - queue a built packet to the QP's peer on one of our EVs
 * @qp: the QP
 * @skb: from mrc_tx_alloc()
 * @idx: the EV, below @qp->mp.evs.count
 * @data: a request or its data, ECN-capable (mrc_net.h); not a probe
 *
 * The EV is its UDP source port and, over IPv6, its flow label (an STEV
 * EV's other half); an EV without a flow label (UDP, or 0) leaves the
 * QP's own. An SRv6 EV also has its source route, which the QP holds
 * until it goes.
 */
void mrc_tx_queue_ev(struct mrc_qp *qp, struct sk_buff *skb, u16 idx,
		     bool data)
{
	struct mrc_path *path = mrc_skb_path(skb);
	u32 label = mrc_ev_flow_label(&qp->mp.evs, idx);

	*path = qp->path;
	path->ect = data;
	path->sport = htons(mrc_ev_sport(&qp->mp.evs, idx));
	if (label && !path->v4)
		path->flow_label = label;
	path->srv6 = mrc_tx_ev_srv6_route(qp, idx);
	skb_queue_tail(&qp->txq, skb);
}

/**
 * mrc_tx_queue() - queue a built packet to the QP's peer
 * @qp: the QP
 * @skb: from mrc_tx_alloc()
 */
void mrc_tx_queue(struct mrc_qp *qp, struct sk_buff *skb)
{
	mrc_tx_queue_to(qp, skb, &qp->path);
}

/* Hand one skb to net/ and count it: 0 or no route. */
static void mrc_tx_xmit(struct mrc_dev *mdev, struct mrc_path *path,
			struct sk_buff *skb)
{
	/* A GSO skb counts as the packets it holds. */
	u32 npkts = mrc_tx_skb_npkts(skb);

	if (mrc_net_xmit(mdev->net, mdev->ndev, htons(mdev->udp_port), path,
			 skb))
		mrc_stats_inc(&mdev->stats, MRC_STAT_TX_NO_ROUTE);
	else
		mrc_stats_add(&mdev->stats, MRC_STAT_SENT_PKTS, npkts);
}

/*
 * Send a GSO run on an SRv6 EV as the packets it holds: no device cuts
 * UDP inside an SRv6 encapsulation, so net/ takes them one at a time.
 * Each is copied into an skb of its own that the local queue counts
 * (mrc_tx_skb()) before the run, which counted them all, is freed: the
 * count never falls below what the stack holds. A copy that cannot be
 * made is a packet lost on the way.
 */
static void mrc_tx_xmit_srv6_run(struct mrc_qp *qp, struct mrc_path *path,
				 struct sk_buff *run)
{
	u32 step = skb_shinfo(run)->gso_size, off, len;
	struct sk_buff *skb;

	for (off = 0; off < run->len; off += step) {
		len = min(step, run->len - off);
		skb = mrc_tx_skb(qp, len, 1);
		if (!skb)
			continue;
		if (skb_copy_bits(run, off, skb->data, len)) {
			kfree_skb(skb);
			continue;
		}
		mrc_tx_xmit(qp->mdev, path, skb);
	}
	consume_skb(run);
}

/**
 * mrc_tx_flush_now() - send every queued packet of a QP
 * @qp: the QP; must not be called with @qp->lock held
 */
void mrc_tx_flush_now(struct mrc_qp *qp)
{
	struct mrc_dev *mdev = qp->mdev;
	struct sk_buff *skb;

	local_bh_disable();
	while ((skb = skb_dequeue(&qp->txq))) {
		struct mrc_path path = *mrc_skb_path(skb);

		memset(skb->cb, 0, sizeof(skb->cb));
		/* A disabled port is a pulled cable: timers and retries go on. */
		if (unlikely(READ_ONCE(mdev->port_disabled))) {
			mrc_stats_add(&mdev->stats, MRC_STAT_TX_PORT_DISABLED,
				      mrc_tx_skb_npkts(skb));
			kfree_skb(skb);
		} else if (path.srv6 && !path.v4 && skb_is_gso(skb)) {
			mrc_tx_xmit_srv6_run(qp, &path, skb);
		} else {
			mrc_tx_xmit(mdev, &path, skb);
		}
	}
	local_bh_enable();
}
