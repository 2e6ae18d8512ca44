// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Endpoint probes: send a PROBE to a peer's QPN 0xffffff on one path and
 * time its reply; answer the peers' probes within a rate per source
 * address and one per device (mrc_ep_probe.h). Every field of a received
 * probe or reply is untrusted: a reply completes only a probe of ours
 * with its id, from the address probed. A probe's source address is not
 * authenticated either: its answer goes to whatever address it names,
 * so an answer is never larger than the probe (the same MRC headers, no
 * payload, and IP headers without options or encapsulation) and the
 * per-source rate bounds what a forged flood sends to any one victim.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/random.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <rdma/ib_cache.h>

#include "engine/mrc_ep_probe.h"
#include "engine/mrc_obj.h"
#include "core/mrc_clock.h"
#include "core/mrc_wire.h"
#include "net/mrc_net.h"

#define MRC_EP_HEADROOM	(LL_MAX_HEADER + sizeof(struct ipv6hdr) + \
			 sizeof(struct udphdr))
#define MRC_EP_HOP_LIMIT	64
#define MRC_EP_NS_PER_SRC_TOKEN	(NSEC_PER_SEC / MRC_EP_SRC_RATE)
#define MRC_EP_NS_PER_DEV_TOKEN	(NSEC_PER_SEC / MRC_EP_DEV_RATE)

/**
 * mrc_ep_probe_init() - give a new device an empty probe table
 * @mdev: the device, before it is registered
 */
void mrc_ep_probe_init(struct mrc_dev *mdev)
{
	struct mrc_ep_table *t = &mdev->ep;

	spin_lock_init(&t->lock);
	INIT_LIST_HEAD(&t->waiting);
	t->nwaiting = 0;
	mrc_tbucket_init(&t->answers, ktime_get_ns(), MRC_EP_DEV_BURST);
	mrc_src_limit_init(&t->sources, MRC_EP_NS_PER_SRC_TOKEN,
			   MRC_EP_SRC_BURST);
	get_random_bytes(&t->src_key, sizeof(t->src_key));
}

/* An address a packet may come from or be sent to: unicast, not zero. */
static bool mrc_ep_unicast(const struct in6_addr *a)
{
	if (ipv6_addr_v4mapped(a)) {
		__be32 v4 = a->s6_addr32[3];

		return !ipv4_is_multicast(v4) && !ipv4_is_lbcast(v4) &&
		       !ipv4_is_zeronet(v4);
	}
	return !ipv6_addr_any(a) && !ipv6_addr_is_multicast(a);
}

/**
 * mrc_ep_probe_dst() - the destination of a probe, from a GID
 * @dgid: 16 bytes: an IPv6 address, or an IPv4-mapped one (RoCE v2)
 * @path: its daddr and v4 are set
 *
 * Return: 0, or -EINVAL when the GID is not a unicast address.
 */
int mrc_ep_probe_dst(const u8 *dgid, struct mrc_path *path)
{
	memcpy(&path->daddr, dgid, sizeof(path->daddr));
	if (!mrc_ep_unicast(&path->daddr))
		return -EINVAL;
	path->v4 = ipv6_addr_v4mapped(&path->daddr);
	return 0;
}

/* Whether source GID @gid fits destination @path; @pick: scope too. */
static bool mrc_ep_src_fits(const struct ib_gid_attr *gid,
			    const struct mrc_path *path, bool pick)
{
	const struct in6_addr *a = (const struct in6_addr *)gid->gid.raw;

	if (gid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP ||
	    ipv6_addr_v4mapped(a) != path->v4)
		return false;
	return !pick || path->v4 ||
	       (ipv6_addr_type(a) & IPV6_ADDR_LINKLOCAL) ==
	       (ipv6_addr_type(&path->daddr) & IPV6_ADDR_LINKLOCAL);
}

/**
 * mrc_ep_probe_src() - the source address of a probe, from the GID table
 * @mdev: the device
 * @sgid_index: a GID index, or negative: the first RoCE v2 GID of the
 *	destination's family and, for IPv6, of its scope (link-local or not)
 * @path: its daddr and v4 are set (mrc_ep_probe_dst()); saddr, tclass 0
 *	and hop limit are set
 *
 * Return: 0; -ENOENT when @sgid_index names no RoCE v2 GID, or none fits;
 * -EAFNOSUPPORT when the GID @sgid_index names is of the other family.
 */
int mrc_ep_probe_src(struct mrc_dev *mdev, int sgid_index,
		     struct mrc_path *path)
{
	const struct ib_gid_attr *gid;
	int i = sgid_index < 0 ? 0 : sgid_index;
	int end = sgid_index < 0 ? MRC_GID_TABLE_LEN : sgid_index + 1;
	int err = -ENOENT;

	for (; i < end; i++) {
		gid = rdma_get_gid_attr(&mdev->ib_dev, MRC_PORT_NUM, i);
		if (IS_ERR(gid))
			continue;
		if (mrc_ep_src_fits(gid, path, sgid_index < 0)) {
			memcpy(&path->saddr, gid->gid.raw, sizeof(path->saddr));
			err = 0;
		} else if (gid->gid_type == IB_GID_TYPE_ROCE_UDP_ENCAP) {
			err = sgid_index < 0 ? -ENOENT : -EAFNOSUPPORT;
		}
		rdma_put_gid_attr(gid);
		if (!err)
			break;
	}
	path->tclass = 0;
	path->hop_limit = MRC_EP_HOP_LIMIT;
	return err;
}

/* Build a PROBE or PROBE_REPLY with no payload; NULL if memory is short. */
static struct sk_buff *mrc_ep_build(const struct mrc_pkt *pkt)
{
	unsigned int len = mrc_wire_hdr_len(pkt);
	struct sk_buff *skb;

	skb = alloc_skb(MRC_EP_HEADROOM + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, MRC_EP_HEADROOM);
	if (mrc_wire_encode(pkt, 0, skb_put(skb, len), len, &len)) {
		/* Built from fixed fields: cannot break a rule. */
		WARN_ONCE(1, "mrc: building an endpoint probe\n");
		kfree_skb(skb);
		return NULL;
	}
	return skb;
}

/* Send @skb on @path unless the port is disabled; 0 once handed to IP. */
static int mrc_ep_xmit(struct mrc_dev *mdev, struct sk_buff *skb,
		       const struct mrc_path *path)
{
	struct mrc_path p = *path;
	int err;

	local_bh_disable();
	if (READ_ONCE(mdev->port_disabled)) {
		kfree_skb(skb);
		mrc_stats_inc(&mdev->stats, MRC_STAT_TX_PORT_DISABLED);
		err = -ENETDOWN;
	} else {
		err = mrc_net_xmit(mdev->net, mdev->ndev,
				   htons(mdev->udp_port), &p, skb);
		mrc_stats_inc(&mdev->stats, err ? MRC_STAT_TX_NO_ROUTE :
				MRC_STAT_SENT_PKTS);
	}
	local_bh_enable();
	return err;
}

/* The waiting probe a reply answers; with the table's lock held. */
static struct mrc_ep_probe *mrc_ep_find(struct mrc_ep_table *t, u32 id,
					const struct in6_addr *from)
{
	struct mrc_ep_probe *p;

	list_for_each_entry(p, &t->waiting, node)
		if (p->id == id && ipv6_addr_equal(&p->daddr, from))
			return p;
	return NULL;
}

/**
 * mrc_ep_probe_send() - register a probe and send it
 * @mdev: the device; the caller holds a reference
 * @probe: the caller's, until mrc_ep_probe_cancel() returns
 * @path: from mrc_ep_probe_dst() and mrc_ep_probe_src(), with the EV's
 *	source port and flow label and the traffic class
 *
 * Whether or not the packet could leave (no route, say), the probe waits
 * for its reply: call mrc_ep_probe_cancel() in every case but an error.
 *
 * Return: 0; -EBUSY when the device waits for too many probes, -ENODEV
 * when it is being removed.
 */
int mrc_ep_probe_send(struct mrc_dev *mdev, struct mrc_ep_probe *probe,
		      const struct mrc_path *path)
{
	struct mrc_ep_table *t = &mdev->ep;
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;

	init_completion(&probe->done);
	probe->daddr = path->daddr;
	probe->answered = false;
	probe->rtt_ns = 0;
	probe->sent_ns = ktime_get_ns();
	spin_lock_bh(&t->lock);
	if (t->closed || t->nwaiting >= MRC_EP_PROBE_MAX_WAITING) {
		spin_unlock_bh(&t->lock);
		return t->closed ? -ENODEV : -EBUSY;
	}
	do {
		probe->id = get_random_u32();
	} while (mrc_ep_find(t, probe->id, &probe->daddr));
	list_add_tail(&probe->node, &t->waiting);
	t->nwaiting++;
	spin_unlock_bh(&t->lock);

	pkt.opcode = MRC_OP_PROBE;
	pkt.dqpn = MRC_QPN_ENDPOINT;
	pkt.timestamp = mrc_now_ts();
	pkt.probe_id = probe->id;
	skb = mrc_ep_build(&pkt);
	if (skb && !mrc_ep_xmit(mdev, skb, path))
		mrc_stats_inc(&mdev->stats, MRC_STAT_EP_PROBES_SENT);
	return 0;
}

/**
 * mrc_ep_probe_cancel() - stop waiting for a probe's reply
 * @mdev: the device
 * @probe: from mrc_ep_probe_send(); free to reuse once this returns, and
 *	its @answered and @rtt_ns are final
 */
void mrc_ep_probe_cancel(struct mrc_dev *mdev, struct mrc_ep_probe *probe)
{
	struct mrc_ep_table *t = &mdev->ep;

	spin_lock_bh(&t->lock);
	/* Answered or woken by mrc_ep_probe_close(): off the list already. */
	if (!probe->answered && !list_empty(&probe->node)) {
		list_del(&probe->node);
		t->nwaiting--;
	}
	spin_unlock_bh(&t->lock);
}

/**
 * mrc_ep_probe_open() - let a device send probes (again)
 * @mdev: the device, registered, or back after a move to another netns
 */
void mrc_ep_probe_open(struct mrc_dev *mdev)
{
	spin_lock_bh(&mdev->ep.lock);
	mdev->ep.closed = false;
	spin_unlock_bh(&mdev->ep.lock);
}

/**
 * mrc_ep_probe_close() - wake every caller waiting for a probe's reply
 * @mdev: the device, being removed
 *
 * A waiting caller holds a reference on the device, and removal waits for
 * every reference: woken now, unanswered, it lets go at once instead of
 * at its timeout (up to 10 s). Probes sent after this fail (-ENODEV).
 */
void mrc_ep_probe_close(struct mrc_dev *mdev)
{
	struct mrc_ep_table *t = &mdev->ep;
	struct mrc_ep_probe *p, *next;

	spin_lock_bh(&t->lock);
	t->closed = true;
	list_for_each_entry_safe(p, next, &t->waiting, node) {
		list_del_init(&p->node);
		t->nwaiting--;
		complete(&p->done);
	}
	spin_unlock_bh(&t->lock);
}

/**
 * mrc_ep_probe_closed() - whether the device is being removed
 * @mdev: the device
 *
 * Return: true after mrc_ep_probe_close(), until mrc_ep_probe_open().
 */
bool mrc_ep_probe_closed(struct mrc_dev *mdev)
{
	return READ_ONCE(mdev->ep.closed);
}

/* A reply to one of our probes: complete the probe it names, if any. */
static void mrc_ep_reply_rx(struct mrc_dev *mdev, const struct mrc_pkt *pkt,
			    const struct in6_addr *saddr)
{
	struct mrc_ep_table *t = &mdev->ep;
	u64 now = ktime_get_ns();
	struct mrc_ep_probe *p;

	spin_lock(&t->lock);
	p = mrc_ep_find(t, pkt->probe_id, saddr);
	if (p) {
		list_del(&p->node);
		t->nwaiting--;
		p->rtt_ns = now - p->sent_ns;
		p->answered = true;
		complete(&p->done);
	}
	spin_unlock(&t->lock);
	mrc_stats_inc(&mdev->stats, p ? MRC_STAT_EP_PROBES_ANSWERED :
			MRC_STAT_RCVD_EP_UNMATCHED);
}

/*
 * Whether one more answer to @to may go out now: a token of its own
 * bucket, then of the device's. A source that has used up its own
 * takes nothing from the device's, which stays for the other sources.
 */
static bool mrc_ep_take_token(struct mrc_ep_table *t,
			      const struct in6_addr *to)
{
	u32 hash = siphash(to, sizeof(*to), &t->src_key);
	u64 now = ktime_get_ns();
	bool ok;

	spin_lock(&t->lock);
	ok = mrc_src_limit_take(&t->sources, to, hash, now) &&
	     mrc_tbucket_take(&t->answers, now, MRC_EP_NS_PER_DEV_TOKEN,
			      MRC_EP_DEV_BURST);
	spin_unlock(&t->lock);
	return ok;
}

/* Answer a peer's probe: same addresses swapped, source port, flow label. */
static void mrc_ep_answer(struct mrc_dev *mdev, struct sk_buff *skb,
			  const struct mrc_pkt *req,
			  const struct in6_addr *saddr)
{
	struct mrc_path path = {};
	struct mrc_pkt pkt = {};
	struct sk_buff *reply;

	path.v4 = ip_hdr(skb)->version == 4;
	path.daddr = *saddr;
	if (path.v4) {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->daddr, &path.saddr);
		path.tclass = ip_hdr(skb)->tos & ~INET_ECN_MASK;
	} else {
		path.saddr = ipv6_hdr(skb)->daddr;
		path.tclass = ipv6_get_dsfield(ipv6_hdr(skb)) & ~INET_ECN_MASK;
		path.flow_label = be32_to_cpu(ip6_flowlabel(ipv6_hdr(skb)));
	}
	path.sport = udp_hdr(skb)->source;
	path.hop_limit = MRC_EP_HOP_LIMIT;
	/*
	 * No answer to a probe sent to a broadcast or multicast address, nor
	 * to a source that names no single host (zero, multicast, broadcast,
	 * port 0). Any other source may be forged: mrc_ep_take_token()
	 * bounds what one address gets.
	 */
	if (skb->pkt_type != PACKET_HOST || !mrc_ep_unicast(&path.daddr) ||
	    !mrc_ep_unicast(&path.saddr) || !path.sport) {
		mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_WRONG_PEER);
		return;
	}
	if (!mrc_ep_take_token(&mdev->ep, &path.daddr)) {
		mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_PROBE_LIMITED);
		return;
	}
	pkt.opcode = MRC_OP_PROBE_REPLY;
	pkt.dqpn = MRC_QPN_ENDPOINT;
	pkt.ev = req->ev;
	pkt.ev_seq = req->ev_seq;
	pkt.timestamp = req->timestamp;
	pkt.probe_id = req->probe_id;
	reply = mrc_ep_build(&pkt);
	if (reply)
		mrc_ep_xmit(mdev, reply, &path);
}

/**
 * mrc_ep_probe_rx() - a packet to QPN 0xffffff, decoded and validated
 * @mdev: the receiving device
 * @skb: the datagram (its IP and UDP headers)
 * @pkt: its MRC headers
 * @saddr: its source address (IPv4-mapped for IPv4)
 *
 * Softirq context. PROBEs are answered, PROBE_REPLYs complete our
 * probes; anything else names no QP.
 */
void mrc_ep_probe_rx(struct mrc_dev *mdev, struct sk_buff *skb,
		     const struct mrc_pkt *pkt, const struct in6_addr *saddr)
{
	if (pkt->opcode == MRC_OP_PROBE)
		mrc_ep_answer(mdev, skb, pkt, saddr);
	else if (pkt->opcode == MRC_OP_PROBE_REPLY)
		mrc_ep_reply_rx(mdev, pkt, saddr);
	else
		mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_UNKNOWN_QP);
}
