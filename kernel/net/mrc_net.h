/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-network-namespace UDP tunnel socket and netdev events. The layers
 * above register their handlers once, at module load, rather than net/
 * calling up into them: received packets go to the engine, netdev events
 * to the device code.
 */
#ifndef MRC_NET_H
#define MRC_NET_H

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/udp.h>
#include <net/inet_ecn.h>
#include <net/net_namespace.h>

#include "core/mrc_encap_check.h"
#include "core/mrc_srv6.h"

struct mrc_net;

/**
 * struct mrc_path - where a packet goes: addresses, ports, IP fields
 * @srv6: the EV's source route (IPv6 only), or NULL: sent directly
 * @saddr: our address (from the source GID)
 * @daddr: the peer's address (from the destination GID)
 * @flow_label: IPv6 flow label (also the outer header's with @srv6)
 * @v4: the peer is reached over IPv4 (RoCE v2 IPv4-mapped GID)
 * @ect: the IP header says ECT(0), so that a congested queue marks it CE
 *	rather than drop it (both headers of an SRv6 EV): data and every
 *	answer to it, not probes
 * @sport: UDP source port (per-QP entropy)
 * @tclass: traffic class / TOS; its ECN bits are not used
 * @hop_limit: hop limit / TTL
 *
 * A queued packet carries its path in the skb's control block: 48 bytes.
 */
struct mrc_path {
	const struct mrc_srv6_route *srv6;
	struct in6_addr saddr;
	struct in6_addr daddr;
	u32 flow_label:20;
	u32 v4:1;
	u32 ect:1;
	__be16 sport;
	u8 tclass;
	u8 hop_limit;
};

/* The TOS / traffic class byte the outermost IP header carries. */
static inline u8 mrc_net_dsfield(const struct mrc_path *path)
{
	return (path->tclass & ~INET_ECN_MASK) |
	       (path->ect ? INET_ECN_ECT_0 : INET_ECN_NOT_ECT);
}

/* Bytes of the IP and UDP headers mrc_net_xmit() puts before a packet. */
static inline u32 mrc_net_hdr_len(const struct mrc_path *path)
{
	return (path->v4 ? sizeof(struct iphdr) : sizeof(struct ipv6hdr)) +
	       sizeof(struct udphdr) +
	       (path->srv6 ? mrc_srv6_encap_len(path->srv6->nsegs) : 0);
}

/**
 * struct mrc_net_handlers - what net/ calls in the layers above
 * @rx: a UDP datagram, or a GSO train of them, arrived on an MRC socket:
 *	checksum verified, data at the UDP header, skb->dev the netdev it
 *	came in on, under RCU with softirqs off; the handler consumes it.
 *	It may hand the train to another CPU (mrc_net_steer()) unless
 *	@steered: the train was handed here already
 * @netdev_event: a netdev notifier event, under RTNL; the handler finds
 *	out whether an MRC device runs on @ndev
 */
struct mrc_net_handlers {
	int (*rx)(struct sock *sk, struct sk_buff *skb, bool steered);
	void (*netdev_event)(struct net_device *ndev, unsigned long event);
};

int mrc_net_init(const struct mrc_net_handlers *handlers);
void mrc_net_exit(void);

/* Receive steering to a QP's home CPU (mrc_net_steer.c). */
enum mrc_steer_verdict {
	MRC_STEER_HERE,		/* handle it now, on this CPU */
	MRC_STEER_QUEUED,	/* queued for the CPU asked for */
	MRC_STEER_DROPPED,	/* that CPU's backlog was full: freed */
};

enum mrc_steer_verdict mrc_net_steer(struct sock *sk, struct sk_buff *skb,
				     int cpu);
void mrc_net_steer_flush(void);
int mrc_net_steer_init(const struct mrc_net_handlers *handlers);
void mrc_net_steer_exit(void);

/**
 * mrc_net_port_active() - whether a netdev can carry MRC traffic
 * @ndev: the netdev
 *
 * Return: true when an MRC port on @ndev should be reported ACTIVE.
 */
bool mrc_net_port_active(const struct net_device *ndev);

/**
 * mrc_net_get() - take a user reference on @net's MRC UDP socket
 * @net: namespace of the netdev an MRC device is created on
 * @port: UDP port the socket must listen on
 *
 * Creates the socket on first use. The socket lives while at least one
 * device in @net holds a reference, so an idle namespace owns no port.
 *
 * Return: the per-netns state, or an ERR_PTR (-EADDRINUSE when the port
 * is taken in @net).
 */
struct mrc_net *mrc_net_get(struct net *net, u16 port);

/**
 * mrc_net_put() - drop a reference taken by mrc_net_get()
 * @mn: per-netns state; the socket is closed with the last reference
 */
void mrc_net_put(struct mrc_net *mn);

struct net_device *mrc_net_rx_dev(struct sk_buff *skb);
enum mrc_encap_verdict mrc_net_rx_encap(const struct sk_buff *skb,
					int *tclass);
int mrc_net_srv6_uplink(struct net_device *ndev,
			const struct mrc_srv6_route *r);
unsigned int mrc_net_srv6_payload_mtu(struct net_device *ndev,
				      const struct mrc_srv6_routes *rs,
				      unsigned int *seg);
int mrc_net_xmit_srv6(struct net_device *ndev, struct sock *sk, __be16 dport,
		      const struct mrc_path *path, struct sk_buff *skb);
unsigned int mrc_net_route_mtu(struct mrc_net *mn, struct net_device *ndev,
			       const struct mrc_path *path);
int mrc_net_xmit(struct mrc_net *mn, struct net_device *ndev, __be16 dport,
		 struct mrc_path *path, struct sk_buff *skb);

#endif /* MRC_NET_H */
