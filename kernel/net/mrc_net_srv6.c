// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Sending on an SRv6 EV: the normal IPv6/UDP/MRC packet, unchanged,
 * inside an outer IPv6 header whose destination is the EV's first
 * segment (a uSID container or an SID), with an SRH when the EV names a
 * second segment. The outer destination's route picks the uplink (the
 * plane); the receiver's kernel decapsulates (End.DT6, or an SRH with
 * no segment left at its own address) and the inner packet reaches our
 * socket as any other.
 *
 * One segment: the reduced encapsulation (no SRH), which the kernel's
 * seg6 helpers cannot push, so it is built here. Two: the kernel's
 * seg6_do_srh_encap(), then the outer source and flow label are set to
 * the QP's GID and the EV's label. No GSO: the engine cuts a run into
 * packets, each counted in its local queue, before it comes here.
 */
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/ip6_checksum.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/seg6.h>

#include "core/mrc_link_params.h"
#include "net/mrc_net.h"

/*
 * The inner UDP and IPv6 headers; the UDP checksum is final. Data says
 * ECT(0) in the inner header as in the outer (mrc_net_dsfield()): routers
 * mark the outer one; a decapsulator that follows RFC 6040 (ip6tnl)
 * copies CE inwards and drops a CE packet whose inner header is not ECT;
 * seg6 copies nothing, so the receiver reads the outer header itself
 * (mrc_encap_tclass()).
 */
static void mrc_srv6_push_inner(const struct mrc_path *path, __be16 dport,
				struct sk_buff *skb)
{
	unsigned int len = skb->len + sizeof(struct udphdr);
	struct ipv6hdr *ip6h;
	struct udphdr *uh;
	__wsum csum;

	uh = skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh->source = path->sport;
	uh->dest = dport;
	uh->len = htons(len);
	uh->check = 0;
	/* Computed here: no device offload looks inside the outer header. */
	csum = skb_checksum(skb, 0, len, 0);
	uh->check = csum_ipv6_magic(&path->saddr, &path->daddr, len,
				    IPPROTO_UDP, csum);
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
	skb->ip_summed = CHECKSUM_NONE;

	ip6h = skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6_flow_hdr(ip6h, mrc_net_dsfield(path), cpu_to_be32(path->flow_label));
	ip6h->payload_len = htons(len);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = path->hop_limit ? path->hop_limit : 64;
	ip6h->saddr = path->saddr;
	ip6h->daddr = path->daddr;
}

/* The outer header of the reduced encapsulation: no SRH. */
static void mrc_srv6_push_outer(const struct mrc_path *path,
				struct dst_entry *dst, struct sk_buff *skb)
{
	struct ipv6hdr *hdr = skb_push(skb, sizeof(*hdr));

	skb_reset_network_header(skb);
	ip6_flow_hdr(hdr, mrc_net_dsfield(path), cpu_to_be32(path->flow_label));
	hdr->payload_len = htons(skb->len - sizeof(*hdr));
	hdr->nexthdr = IPPROTO_IPV6;
	hdr->hop_limit = ip6_dst_hoplimit(dst);
	hdr->saddr = path->saddr;
	hdr->daddr = path->srv6->seg[0];
}

/*
 * Outer header and an SRH listing both segments, last first, through
 * the kernel's helper (it wants the route in skb_dst()).
 */
static int mrc_srv6_push_srh(const struct mrc_path *path, struct sk_buff *skb)
{
	const struct mrc_srv6_route *r = path->srv6;
	u8 buf[MRC_SRV6_SRH_LEN(MRC_SRV6_SEGS_MAX)] __aligned(8) = {};
	struct ipv6_sr_hdr *srh = (struct ipv6_sr_hdr *)buf;
	struct ipv6hdr *hdr;
	int err;

	srh->hdrlen = (sizeof(buf) >> 3) - 1;
	srh->type = IPV6_SRCRT_TYPE_4;
	srh->segments_left = 1;
	srh->first_segment = 1;
	srh->segments[0] = r->seg[1];
	srh->segments[1] = r->seg[0];
	err = seg6_do_srh_encap(skb, srh, IPPROTO_IPV6);
	if (err)
		return err;
	hdr = ipv6_hdr(skb);
	ip6_flow_hdr(hdr, mrc_net_dsfield(path), cpu_to_be32(path->flow_label));
	hdr->saddr = path->saddr;
	return 0;
}

/* Send one packet on its route; consumes @skb. */
static int mrc_srv6_xmit_one(struct net_device *ndev, struct sock *sk,
			     __be16 dport, const struct mrc_path *path,
			     struct sk_buff *skb)
{
	struct flowi6 fl6 = {
		.flowi6_proto = IPPROTO_IPV6,
		.daddr = path->srv6->seg[0],
		.saddr = path->saddr,
		.flowlabel = cpu_to_be32(path->flow_label),
	};
	struct net *net = dev_net(ndev);
	struct dst_entry *dst;
	int err;

	/* No binding to @ndev: the outer destination's route is the plane. */
	dst = ipv6_stub->ipv6_dst_lookup_flow(net, sk, &fl6, NULL);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return PTR_ERR(dst);
	}
	err = skb_cow_head(skb, LL_RESERVED_SPACE(dst->dev) +
			   sizeof(struct udphdr) + sizeof(struct ipv6hdr) +
			   mrc_srv6_encap_len(path->srv6->nsegs));
	if (err)
		goto drop;
	mrc_srv6_push_inner(path, dport, skb);
	skb->protocol = htons(ETH_P_IPV6);
	skb_dst_set(skb, dst);
	dst = NULL;
	if (path->srv6->nsegs > 1) {
		err = mrc_srv6_push_srh(path, skb);
		if (err)
			goto drop;
	} else {
		mrc_srv6_push_outer(path, skb_dst(skb), skb);
	}
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
	skb->dev = skb_dst(skb)->dev;
	ip6_local_out(net, sk, skb);
	return 0;

drop:
	dst_release(dst);
	kfree_skb(skb);
	return err;
}

/* The route of @r's outer destination, as sending looks it up. */
static struct dst_entry *mrc_srv6_route_dst(struct net_device *ndev,
					    const struct mrc_srv6_route *r)
{
	struct flowi6 fl6 = {
		.flowi6_proto = IPPROTO_IPV6,
		.daddr = r->seg[0],
	};

	return ipv6_stub->ipv6_dst_lookup_flow(dev_net(ndev), NULL, &fl6, NULL);
}

/**
 * mrc_net_srv6_uplink() - the interface an SRv6 EV's packets leave by
 * @ndev: the MRC device's netdev: its namespace's routes are asked
 * @r: the EV's route
 *
 * The same lookup as sending (the outer destination, not bound to
 * @ndev), so the answer is the plane the EV takes now. For reports.
 *
 * Return: the interface's ifindex, or 0 when no route leaves.
 */
int mrc_net_srv6_uplink(struct net_device *ndev,
			const struct mrc_srv6_route *r)
{
	struct dst_entry *dst = mrc_srv6_route_dst(ndev, r);
	int ifindex;

	if (IS_ERR(dst))
		return 0;
	ifindex = dst->dev ? dst->dev->ifindex : 0;
	dst_release(dst);
	return ifindex;
}

/**
 * mrc_net_srv6_payload_mtu() - the payload MTU a profile's EVs carry now
 * @ndev: the MRC device's netdev: its namespace's routes are asked
 * @rs: the routes of the profile's EVs
 * @seg: set to the smallest SEND/WRITE payload over the same EVs
 *       (mrc_srv6_link_seg()), when one is routed
 *
 * An EV's packets leave by its outer destination's route, not by
 * @ndev: what it carries is that route's MTU (the uplink's, or a path
 * MTU the kernel learnt) less the EV's own encapsulation. An EV with no
 * route carries nothing now and does not count.
 *
 * Context: process; may sleep (a profile has up to 4096 EVs).
 * Return: the smallest payload MTU over the routed EVs (256..4096; 256
 * also when a route is too small for any), or 0 when none is routed.
 */
unsigned int mrc_net_srv6_payload_mtu(struct net_device *ndev,
				      const struct mrc_srv6_routes *rs,
				      unsigned int *seg)
{
	unsigned int best = 0, mtu, s;
	struct dst_entry *dst;
	u32 i;

	for (i = 0; i < rs->n; i++) {
		dst = mrc_srv6_route_dst(ndev, &rs->r[i]);
		if (IS_ERR(dst))
			continue;
		mtu = mrc_srv6_payload_mtu(dst_mtu(dst), rs->r[i].nsegs);
		s = mrc_srv6_link_seg(dst_mtu(dst), rs->r[i].nsegs);
		dst_release(dst);
		mtu = max_t(unsigned int, mtu, MRC_MIN_PAYLOAD_MTU);
		s = max_t(unsigned int, s, MRC_MIN_PAYLOAD_MTU);
		*seg = best ? min(*seg, s) : s;
		best = best ? min(best, mtu) : mtu;
		cond_resched();
	}
	return best;
}

/**
 * mrc_net_xmit_srv6() - send a built MRC packet on an SRv6 EV
 * @ndev: the MRC device's netdev (its namespace)
 * @sk: the namespace's MRC socket
 * @dport: the peers' UDP port
 * @path: with @path->srv6 set
 * @skb: the packet, data at the MRC header; always consumed
 *
 * One packet, not a GSO run: no device segments UDP inside an SRv6
 * encapsulation, and the caller, which counts its packets in local
 * queues, cuts a run into skbs it counts (engine/mrc_tx.c).
 *
 * Return: 0, or a negative errno (-EINVAL for a GSO skb).
 */
int mrc_net_xmit_srv6(struct net_device *ndev, struct sock *sk, __be16 dport,
		      const struct mrc_path *path, struct sk_buff *skb)
{
	if (WARN_ON_ONCE(skb_is_gso(skb))) {
		kfree_skb(skb);
		return -EINVAL;
	}
	return mrc_srv6_xmit_one(ndev, sk, dport, path, skb);
}
