// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Receive: the UDP tunnel socket's encap_rcv. Decodes and validates the
 * MRC headers, finds the QP and hands the packet to the responder
 * (requests) or the completer (responses and acknowledgments); endpoint
 * probes (QPN 0xffffff) go to mrc_ep_probe.c before any QP lookup.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/inet_ecn.h>
#include <net/udp.h>
#include <rdma/ib_verbs.h>

#include "engine/mrc_ep_probe.h"
#include "engine/mrc_qp.h"
#include "core/mrc_link_params.h"

/*
 * The DSCP trimming switches give the packets they cut, -1 for none. A
 * packet that comes with it is read as trimmed (mrc_wire_decode_trimmed()):
 * it must be a DSCP that nothing else sends. A trimmed packet whose UDP
 * length still counts the payload never gets here: the UDP layer drops it.
 */
static int mrc_rx_trim_dscp = -1;

static int mrc_rx_trim_dscp_set(const char *val, const struct kernel_param *kp)
{
	int dscp, err;

	err = kstrtoint(val, 0, &dscp);
	if (err)
		return err;
	if (dscp < -1 || dscp > 63) {
		pr_err("mrc: trim_dscp %d is not a DSCP (0..63, or -1 for none)\n",
		       dscp);
		return -EINVAL;
	}
	WRITE_ONCE(mrc_rx_trim_dscp, dscp);
	return 0;
}

static const struct kernel_param_ops mrc_rx_trim_dscp_ops = {
	.set = mrc_rx_trim_dscp_set,
	.get = param_get_int,
};
module_param_cb(trim_dscp, &mrc_rx_trim_dscp_ops, &mrc_rx_trim_dscp, 0644);
MODULE_PARM_DESC(trim_dscp,
		 "DSCP of packets trimmed by switches, 0..63; -1: none (default)");

/* What a UC QP receives: SEND and WRITE, with or without immediate. */
static bool mrc_rx_is_uc(u8 opcode)
{
	return opcode == MRC_OP_SEND || opcode == MRC_OP_SEND_IMM ||
	       opcode == MRC_OP_SEND_INV || opcode == MRC_OP_WRITE ||
	       opcode == MRC_OP_WRITE_IMM;
}

static bool mrc_rx_is_request(u8 opcode)
{
	switch (opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
	case MRC_OP_READ_REQ:
	case MRC_OP_CMP_SWP:
	case MRC_OP_FETCH_ADD:
		return true;
	default:
		return false;
	}
}

/* A request, and the ACK for our own requests it may carry. */
static void mrc_rx_request(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			   const struct mrc_payload *payload, bool ce)
{
	if ((pkt->flags & MRC_FLAG_ACK) && mrc_comp_rx_carried(qp, pkt))
		mrc_req_kick(qp);
	mrc_resp_rx(qp, pkt, payload, ce);
}

/*
 * The 40-byte header area a UD receive gets: RoCE v2 layout, with the
 * lengths of the datagram itself (@len bytes of UDP payload) where it
 * came in a train, whose IP header counts them all.
 */
static u8 mrc_rx_grh(struct sk_buff *skb, unsigned int len, u8 *grh)
{
	memset(grh, 0, 40);
	if (ip_hdr(skb)->version == 4) {
		struct iphdr *iph = (struct iphdr *)(grh + 20);

		memcpy(iph, ip_hdr(skb), sizeof(*iph));
		if (skb_is_gso(skb) && iph->ihl == 5) {
			iph->tot_len = htons(sizeof(*iph) + sizeof(struct udphdr) +
					     len);
			iph->check = 0;
			iph->check = ip_fast_csum(iph, iph->ihl);
		}
		return RDMA_NETWORK_IPV4;
	}
	memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
	if (skb_is_gso(skb))
		((struct ipv6hdr *)grh)->payload_len =
			htons(sizeof(struct udphdr) + len);
	return RDMA_NETWORK_IPV6;
}

/*
 * The packet's source, as the IPv6 or IPv4-mapped address QPs store.
 * False for an IPv6 packet from an IPv4-mapped source: 6.1's UDPv6
 * delivers those, and passing one on would let an IPv6 sender pose as
 * the IPv4 peer of a QP.
 */
static bool mrc_rx_saddr(struct sk_buff *skb, struct in6_addr *saddr)
{
	if (ip_hdr(skb)->version == 4) {
		ipv6_addr_set_v4mapped(ip_hdr(skb)->saddr, saddr);
		return true;
	}
	*saddr = ipv6_hdr(skb)->saddr;
	return !ipv6_addr_v4mapped(saddr);
}

/* The traffic class (DSCP << 2 | ECN) of the packet's own IP header. */
static u8 mrc_rx_tclass(struct sk_buff *skb)
{
	return ip_hdr(skb)->version == 4 ? ip_hdr(skb)->tos :
					   ipv6_get_dsfield(ipv6_hdr(skb));
}

/* Whether traffic class @tclass says a switch trimmed the packet. */
static bool mrc_rx_trimmed(u8 tclass)
{
	int dscp = READ_ONCE(mrc_rx_trim_dscp);

	return dscp >= 0 && tclass >> 2 == dscp;
}

/**
 * struct mrc_rx_train - what the packets of one received skb share
 * @mdev: the device they are for, referenced
 * @skb: the skb: one datagram, or a GSO train of them that crossed the
 *	stack once, cut every gso_size bytes of UDP payload
 * @saddr: their source, as QPs store it (mrc_rx_saddr())
 * @saddr_ok: @saddr may be taken for a peer's
 * @sport: their UDP source port, the EV they came on
 * @ce: they arrived CE-marked; GRO merges only packets of one TOS
 * @trimmed: they came with the trim DSCP
 * @qp: the QP of the packet before, referenced: its successors in a
 *	train are mostly for it too. What they queue on it leaves when the
 *	train is done with it (mrc_rx_train_qp_done()).
 */
struct mrc_rx_train {
	struct mrc_dev *mdev;
	struct sk_buff *skb;
	struct in6_addr saddr;
	bool saddr_ok;
	u16 sport;
	bool ce;
	bool trimmed;
	struct mrc_qp *qp;
};

/* Send what the train's packets queued on its QP, and let the QP go. */
static void mrc_rx_train_qp_done(struct mrc_rx_train *t)
{
	mrc_mr_train_done(t->qp);
	mrc_tx_flush_now(t->qp);
	mrc_qp_put(t->qp);
	t->qp = NULL;
}

static struct mrc_qp *mrc_rx_train_qp(struct mrc_rx_train *t, u32 qpn)
{
	if (t->qp && t->qp->ibqp.qp_num == qpn)
		return t->qp;
	if (t->qp)
		mrc_rx_train_qp_done(t);
	t->qp = mrc_qp_get(t->mdev, qpn);
	return t->qp;
}

/* The packet of @len bytes at offset @off of the train's skb. */
static void mrc_rx_one(struct mrc_rx_train *t, unsigned int off,
		       unsigned int len)
{
	struct mrc_payload payload = { .skb = t->skb, .off = off };
	struct mrc_stats *stats = &t->mdev->stats;
	u8 hdr[MRC_WIRE_DECODE_MAX];
	struct mrc_qp *qp;
	struct mrc_pkt pkt;
	enum mrc_wire_err err = MRC_WIRE_E_SHORT;
	const u8 *data;

	/* Decode reads no further than MRC_WIRE_DECODE_MAX. */
	data = skb_header_pointer(t->skb, off,
				  min_t(unsigned int, len, sizeof(hdr)), hdr);
	if (data && t->trimmed)
		err = mrc_wire_decode_trimmed(data, len, MRC_SEG_MAX, &pkt);
	else if (data)
		err = mrc_wire_decode(data, len, MRC_SEG_MAX, &pkt);
	if (err) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_MALFORMED);
		return;
	}
	payload.off += pkt.hdr_len;

	/* QPN 0xffffff is the endpoint itself: probes, without a QP. */
	if (pkt.dqpn == MRC_QPN_ENDPOINT) {
		if (t->saddr_ok)
			mrc_ep_probe_rx(t->mdev, t->skb, &pkt, &t->saddr);
		else
			mrc_stats_inc(stats, MRC_STAT_RCVD_WRONG_PEER);
		return;
	}
	qp = mrc_rx_train_qp(t, pkt.dqpn);
	if (!qp) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_UNKNOWN_QP);
		return;
	}
	/*
	 * No arrival time: a packet answered in this softirq has no service
	 * time to report, and under emulation a clock read per packet took
	 * a sixth of a transfer's CPU. A held answer reads the clock when
	 * its wait begins (mrc_dack_hold()).
	 */
	pkt.rx_sport = t->sport;
	if (!t->saddr_ok) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_WRONG_PEER);
		return;
	}
	if (pkt.opcode == MRC_OP_UD_SEND || pkt.opcode == MRC_OP_UD_SEND_IMM) {
		u8 grh[40];
		u8 net_type = mrc_rx_grh(t->skb, len, grh);

		if (qp->type != IB_QPT_RC && pkt.payload_len <= qp->mtu)
			mrc_ud_rx(qp, &pkt, &payload, grh, net_type, &t->saddr);
		else
			mrc_stats_inc(stats, MRC_STAT_RCVD_WRONG_PEER);
		return;
	}
	if (qp->type == IB_QPT_UC) {
		if (ipv6_addr_equal(&t->saddr, &qp->path.daddr) &&
		    mrc_rx_is_uc(pkt.opcode))
			mrc_uc_rx(qp, &pkt, &payload);
		else
			mrc_stats_inc(stats, MRC_STAT_RCVD_WRONG_PEER);
		return;
	}
	/*
	 * READ responses come at the path MTU both ends set; SEND and WRITE
	 * packets at the peer's segment, which decoding bounded.
	 */
	if (qp->type != IB_QPT_RC ||
	    !ipv6_addr_equal(&t->saddr, &qp->path.daddr) ||
	    (pkt.opcode == MRC_OP_READ_RESP && pkt.payload_len > qp->mtu)) {
		mrc_stats_inc(stats, MRC_STAT_RCVD_WRONG_PEER);
		return;
	}

	/*
	 * When an acknowledgment opens the window, the high-priority worker
	 * sends, not this softirq: softirq work past its budget moves to
	 * ksoftirqd, which shares the CPU equally with a program busy-polling
	 * its CQ there; the worker (nice -20) does not.
	 */
	if (pkt.opcode == MRC_OP_PROBE)
		mrc_mp_probe_rx(qp, &pkt);
	else if (mrc_rx_is_request(pkt.opcode))
		mrc_rx_request(qp, &pkt, &payload, t->ce);
	else if (mrc_comp_rx(qp, &pkt, &payload, t->ce))
		mrc_req_kick(qp);
	/*
	 * What the packet queued leaves once per train (its ACK, mostly),
	 * or before a second skb waits behind the first: READ responses
	 * leave as they are built.
	 */
	if (skb_queue_len(&qp->txq) > 1)
		mrc_tx_flush_now(qp);
}

/* The device a received skb is for, referenced (ib_device_put() it). */
static struct mrc_dev *mrc_rx_dev_get(struct sk_buff *skb)
{
	struct mrc_dev *mdev = mrc_dev_get_by_netdev(skb->dev);

	if (!mdev) {
		/* Decapsulated SRv6: in on an uplink, to the GID's device. */
		struct net_device *to = mrc_net_rx_dev(skb);

		if (to && to != skb->dev)
			mdev = mrc_dev_get_by_netdev(to);
	}
	return mdev;
}

/*
 * Hand the train to the home CPU of its first packet's QP, which runs
 * the QP's work (core/mrc_home.h): a train is mostly for one QP. Only
 * the destination QPN is read here; the rest is checked where the train
 * is handled, where the QP found here serves its first packet.
 * Return: true if the train was handed over (or dropped).
 */
static bool mrc_rx_steer(struct mrc_rx_train *t, struct sock *sk)
{
	unsigned int off = skb_transport_offset(t->skb) +
			   sizeof(struct udphdr);
	enum mrc_steer_verdict v;
	__be32 buf, *dqpn;
	struct mrc_qp *qp;
	int cpu;

	dqpn = skb_header_pointer(t->skb, off + MRC_BTH_DQPN_OFF, sizeof(buf),
				  &buf);
	if (!dqpn)
		return false;
	qp = mrc_qp_get(t->mdev, be32_to_cpu(*dqpn) & MRC_QPN_MASK);
	if (!qp)
		return false;
	cpu = mrc_home_cpu(&qp->home);
	v = mrc_net_steer(sk, t->skb, cpu);
	if (v == MRC_STEER_QUEUED && cpu != raw_smp_processor_id())
		mrc_stats_inc(&t->mdev->stats, MRC_STAT_RCVD_STEERED);
	if (v != MRC_STEER_HERE) {
		mrc_qp_put(qp);
		return true;
	}
	t->qp = qp;
	return false;
}

/**
 * mrc_rx_skb() - a datagram or a train of them reached the MRC socket
 * @sk: the socket
 * @skb: checksum verified, data at the UDP header, linear up to it; the
 *	rest may sit in page fragments. A GSO skb is a train: one MRC
 *	packet every gso_size bytes of UDP payload, the last maybe shorter.
 * @steered: the train was handed to this CPU, its QP's home, already;
 *	else it goes there first unless this is its home
 *
 * The IP and UDP headers, the device and the encapsulation are checked
 * once per train, the MRC headers of each packet one by one. They are
 * read from a copy when they are not in the linear head, and the payload
 * is copied once, from wherever it lies, into registered memory: no
 * skb_linearize(), which cost an allocation and a copy of every packet
 * that came in page fragments.
 *
 * Return: 0: the skb is always consumed.
 */
int mrc_rx_skb(struct sock *sk, struct sk_buff *skb, bool steered)
{
	struct mrc_rx_train t = { .skb = skb };
	unsigned int len, seg, off, npkts;
	int outer = -1;
	u8 tclass;

	t.mdev = mrc_rx_dev_get(skb);
	if (!t.mdev)
		goto drop;
	if (!steered && mrc_rx_steer(&t, sk)) {
		ib_device_put(&t.mdev->ib_dev);
		return 0;
	}
	len = ntohs(udp_hdr(skb)->len);
	if (len < sizeof(struct udphdr) || skb_transport_offset(skb) < 0 ||
	    skb_transport_offset(skb) + len > skb->len) {
		mrc_stats_inc(&t.mdev->stats, MRC_STAT_RCVD_PKTS);
		mrc_stats_inc(&t.mdev->stats, MRC_STAT_RCVD_MALFORMED);
		goto put_dev;
	}
	len -= sizeof(struct udphdr);
	seg = skb_is_gso(skb) ? skb_shinfo(skb)->gso_size : len;
	npkts = seg ? max(DIV_ROUND_UP(len, seg), 1U) : 1;
	mrc_stats_add(&t.mdev->stats, MRC_STAT_RCVD_PKTS, npkts);
	mrc_stats_inc(&t.mdev->stats, MRC_STAT_RCVD_TRAINS);
	if (!seg) {
		mrc_stats_inc(&t.mdev->stats, MRC_STAT_RCVD_MALFORMED);
		goto put_dev;
	}
	switch (mrc_net_rx_encap(skb, &outer)) {
	case MRC_ENCAP_BAD:
		mrc_stats_add(&t.mdev->stats, MRC_STAT_RCVD_BAD_ENCAP, npkts);
		goto put_dev;
	case MRC_ENCAP_WRONG_SRC:
		mrc_stats_add(&t.mdev->stats, MRC_STAT_RCVD_ENCAP_SRC, npkts);
		goto put_dev;
	default:
		break;
	}
	/*
	 * Routers mark the header they forward by: an SRv6 EV's CE and trim
	 * DSCP are on the outer header the kernel stripped.
	 */
	tclass = mrc_rx_tclass(skb);
	t.ce = INET_ECN_is_ce(tclass) || (outer >= 0 && INET_ECN_is_ce(outer));
	t.trimmed = mrc_rx_trimmed(outer >= 0 ? outer : tclass);
	t.saddr_ok = mrc_rx_saddr(skb, &t.saddr);
	t.sport = ntohs(udp_hdr(skb)->source);

	off = skb_transport_offset(skb) + sizeof(struct udphdr);
	for (; len; off += seg, len -= min(len, seg))
		mrc_rx_one(&t, off, min(len, seg));
put_dev:
	if (t.qp)
		mrc_rx_train_qp_done(&t);
	ib_device_put(&t.mdev->ib_dev);
drop:
	consume_skb(skb);
	return 0;
}
