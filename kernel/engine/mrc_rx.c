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

static bool mrc_rx_is_request(u8 opcode)
{
	switch (opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
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

/* The 40-byte header area a UD receive gets: RoCE v2 layout. */
static u8 mrc_rx_grh(struct sk_buff *skb, u8 *grh)
{
	memset(grh, 0, 40);
	if (ip_hdr(skb)->version == 4) {
		memcpy(grh + 20, ip_hdr(skb), sizeof(struct iphdr));
		return RDMA_NETWORK_IPV4;
	}
	memcpy(grh, ipv6_hdr(skb), sizeof(struct ipv6hdr));
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
 * mrc_rx_skb() - encap_rcv of the MRC UDP socket
 * @sk: the socket
 * @skb: a UDP datagram whose checksum the UDP layer verified, linear up
 *	to its UDP header; the rest may sit in page fragments
 *
 * The MRC headers are read from a copy when they are not in the linear
 * head, and the payload is copied once, from wherever it lies, into
 * registered memory: no skb_linearize(), which cost an allocation and a
 * copy of every packet that came in page fragments (virtio-net's receive
 * buffers, or the segments of a GSO skb through a veth).
 *
 * Return: 0: the packet is always consumed.
 */
int mrc_rx_skb(struct sock *sk, struct sk_buff *skb)
{
	u8 hdr[MRC_WIRE_DECODE_MAX];
	struct mrc_payload payload;
	struct mrc_dev *mdev;
	struct in6_addr saddr;
	struct mrc_qp *qp;
	struct mrc_pkt pkt;
	unsigned int len;
	int outer = -1;
	const u8 *data;
	u8 tclass;
	bool ce;

	mdev = mrc_dev_get_by_netdev(skb->dev);
	if (!mdev) {
		/* Decapsulated SRv6: in on an uplink, to the GID's device. */
		struct net_device *to = mrc_net_rx_dev(skb);

		if (to && to != skb->dev)
			mdev = mrc_dev_get_by_netdev(to);
	}
	if (!mdev)
		goto drop;
	mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_PKTS);
	switch (mrc_net_rx_encap(skb, &outer)) {
	case MRC_ENCAP_BAD:
		mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_BAD_ENCAP);
		goto put_dev;
	case MRC_ENCAP_WRONG_SRC:
		mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_ENCAP_SRC);
		goto put_dev;
	default:
		break;
	}
	len = ntohs(udp_hdr(skb)->len);
	if (len < sizeof(struct udphdr) || skb_transport_offset(skb) < 0 ||
	    skb_transport_offset(skb) + len > skb->len)
		goto malformed;
	len -= sizeof(struct udphdr);
	payload.skb = skb;
	payload.off = skb_transport_offset(skb) + sizeof(struct udphdr);
	/* Decode reads no further than MRC_WIRE_DECODE_MAX. */
	data = skb_header_pointer(skb, payload.off,
				  min_t(unsigned int, len, sizeof(hdr)), hdr);
	if (!data)
		goto malformed;
	/*
	 * Routers mark the header they forward by: an SRv6 EV's CE and trim
	 * DSCP are on the outer header the kernel stripped.
	 */
	tclass = mrc_rx_tclass(skb);
	ce = INET_ECN_is_ce(tclass) || (outer >= 0 && INET_ECN_is_ce(outer));
	if (outer >= 0)
		tclass = outer;
	if (mrc_rx_trimmed(tclass) ?
	    mrc_wire_decode_trimmed(data, len, MRC_MAX_PAYLOAD_MTU, &pkt) :
	    mrc_wire_decode(data, len, MRC_MAX_PAYLOAD_MTU, &pkt))
		goto malformed;
	payload.off += pkt.hdr_len;

	/* QPN 0xffffff is the endpoint itself: probes, without a QP. */
	if (pkt.dqpn == MRC_QPN_ENDPOINT) {
		if (mrc_rx_saddr(skb, &saddr))
			mrc_ep_probe_rx(mdev, skb, &pkt, &saddr);
		else
			mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_WRONG_PEER);
		goto put_dev;
	}
	qp = mrc_qp_get(mdev, pkt.dqpn);
	if (!qp) {
		mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_UNKNOWN_QP);
		goto put_dev;
	}

	pkt.rx_sport = ntohs(udp_hdr(skb)->source);
	pkt.rx_ts = mrc_now_ts();
	if (!mrc_rx_saddr(skb, &saddr)) {
		mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_WRONG_PEER);
		goto put_qp;
	}
	if (pkt.opcode == MRC_OP_UD_SEND) {
		u8 grh[40];
		u8 net_type = mrc_rx_grh(skb, grh);

		if (qp->type != IB_QPT_RC && pkt.payload_len <= qp->mtu)
			mrc_ud_rx(qp, &pkt, &payload, grh, net_type, &saddr);
		else
			mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_WRONG_PEER);
		goto put_qp;
	}
	if (qp->type != IB_QPT_RC || !ipv6_addr_equal(&saddr, &qp->path.daddr) ||
	    pkt.payload_len > qp->mtu) {
		mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_WRONG_PEER);
		goto put_qp;
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
		mrc_rx_request(qp, &pkt, &payload, ce);
	else if (mrc_comp_rx(qp, &pkt, &payload, ce))
		mrc_req_kick(qp);
	mrc_tx_flush_now(qp);

put_qp:
	mrc_qp_put(qp);
	goto put_dev;
malformed:
	mrc_stats_inc(&mdev->stats, MRC_STAT_RCVD_MALFORMED);
put_dev:
	ib_device_put(&mdev->ib_dev);
drop:
	consume_skb(skb);
	return 0;
}
