// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Network glue: one UDP socket per network namespace, shared by the MRC
 * devices whose netdevs live there; route lookup and transmission of
 * built packets; netdev event handling.
 */
#include <linux/if_arp.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/wait.h>
#include <net/ip6_route.h>
#include <net/ipv6_stubs.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/udp.h>
#include <net/udp_tunnel.h>

#include "net/mrc_net.h"
#include "core/mrc_link_params.h"

/**
 * struct mrc_net - per-namespace MRC state
 * @lock: serialises socket creation and teardown
 * @sock: the UDP socket, NULL while no device uses this namespace
 * @port: UDP port @sock is bound to
 * @users: MRC devices holding a reference on @sock
 * @putting: mrc_net_put() calls under way. The namespace's exit waits for
 *	them too, since a put still runs after it dropped the last user; its
 *	final access is the decrement (wake_up_var() uses only the address).
 */
struct mrc_net {
	struct mutex lock; /* guards sock, port and users */
	struct socket *sock;
	u16 port;
	unsigned int users;
	atomic_t putting;
};

static unsigned int mrc_net_id __read_mostly;
static const struct mrc_net_handlers *mrc_net_up;

/* Receive queue room for a few trains from each CPU. */
#define MRC_NET_RCVBUF	(8 << 20)

/*
 * Hand one datagram or train the socket queued to the layers above, as
 * an encap_rcv would get it: checksum verified, data at the UDP header,
 * and skb->dev, which the queue used as scratch space, set again.
 */
static void mrc_net_rx_queued(struct sock *sk, struct sk_buff *skb)
{
	bool v4 = skb->protocol == htons(ETH_P_IP);

	if (!udp_skb_csum_unnecessary(skb) && __udp_lib_checksum_complete(skb)) {
		if (v4)
			__UDP_INC_STATS(sock_net(sk), UDP_MIB_CSUMERRORS, 0);
		else
			__UDP6_INC_STATS(sock_net(sk), UDP_MIB_CSUMERRORS, 0);
		atomic_inc(&sk->sk_drops);
		kfree_skb(skb);
		return;
	}
	skb->dev = dev_get_by_index_rcu(sock_net(sk), skb->skb_iif);
	if (!skb->dev) {
		kfree_skb(skb);
		return;
	}
	__skb_push(skb, sizeof(struct udphdr));
	mrc_net_up->rx(sk, skb, false);
}

/*
 * The socket's sk_data_ready: drain the queue in the softirq that filled
 * it. Datagrams come through the queue rather than an encap_rcv because
 * the UDP layer cuts a GSO skb bound for an encap_rcv socket into single
 * datagrams (upstream 3d010c8031e3, in 6.1.y), while this socket, with
 * UDP_GRO on, takes it whole: a train of packets that crossed the stack
 * once, as a veth delivers a local sender's GSO skb and as GRO merges
 * what a NIC received.
 */
static void mrc_net_data_ready(struct sock *sk)
{
	bool retried = false;
	struct sk_buff *skb;
	int err;

	rcu_read_lock();
	for (;;) {
		skb = skb_recv_udp(sk, MSG_DONTWAIT, &err);
		if (skb) {
			mrc_net_rx_queued(sk, skb);
			continue;
		}
		/* An ICMP error the socket noted is cleared as it is read. */
		if (err == -EAGAIN || retried)
			break;
		retried = true;
	}
	rcu_read_unlock();
}

static struct socket *mrc_udp_sock_create(struct net *net, u16 port)
{
	struct udp_port_cfg cfg = {
		.family = AF_INET6,
		.local_ip6 = IN6ADDR_ANY_INIT,
		.local_udp_port = htons(port),
		.ipv6_v6only = 0,
	};
	struct socket *sock;
	struct sock *sk;
	int err, on = 1;

	err = udp_sock_create(net, &cfg, &sock);
	if (err == -EAFNOSUPPORT) {
		/* IPv6 disabled on this host: serve IPv4 only. */
		memset(&cfg, 0, sizeof(cfg));
		cfg.family = AF_INET;
		cfg.local_udp_port = htons(port);
		err = udp_sock_create(net, &cfg, &sock);
	}
	if (err)
		return ERR_PTR(err);

	sk = sock->sk;
	err = sk->sk_prot->setsockopt(sk, SOL_UDP, UDP_GRO,
				      KERNEL_SOCKPTR(&on), sizeof(on));
	if (err) {
		udp_tunnel_sock_release(sock);
		return ERR_PTR(err);
	}
	lock_sock(sk);
	sk->sk_rcvbuf = MRC_NET_RCVBUF;
	sk->sk_userlocks |= SOCK_RCVBUF_LOCK;
	sk->sk_data_ready = mrc_net_data_ready;
	release_sock(sk);
	return sock;
}

struct mrc_net *mrc_net_get(struct net *net, u16 port)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);
	struct socket *sock;

	mutex_lock(&mn->lock);
	if (!mn->sock) {
		sock = mrc_udp_sock_create(net, port);
		if (IS_ERR(sock)) {
			mutex_unlock(&mn->lock);
			return ERR_CAST(sock);
		}
		mn->sock = sock;
		mn->port = port;
	} else if (mn->port != port) {
		/* One socket per namespace: all devices share its port. */
		mutex_unlock(&mn->lock);
		return ERR_PTR(-EADDRINUSE);
	}
	mn->users++;
	mutex_unlock(&mn->lock);
	return mn;
}

void mrc_net_put(struct mrc_net *mn)
{
	struct socket *sock = NULL;

	atomic_inc(&mn->putting);
	/*
	 * Counted before the last user goes, so a namespace exit that sees
	 * no user also sees this put (pairs with smp_rmb() in mrc_net_idle).
	 */
	smp_mb__after_atomic();
	mutex_lock(&mn->lock);
	if (!WARN_ON(mn->users == 0) && --mn->users == 0) {
		sock = mn->sock;
		mn->sock = NULL;
	}
	mutex_unlock(&mn->lock);

	if (sock) {
		udp_tunnel_sock_release(sock);
		/* Trains a softirq already took from it, queued or not. */
		synchronize_net();
		mrc_net_steer_flush();
	}
	if (atomic_dec_and_test(&mn->putting))
		wake_up_var(&mn->putting);
}

/*
 * As mrc_route4(): IPv6 also hashes multipath routes only without oif.
 * When no route leaves through @ndev (a GID on a dummy device, reached
 * through the uplinks), the unbound route is the only one.
 */
static struct dst_entry *mrc_route6(struct net_device *ndev, struct sock *sk,
				    struct flowi6 *fl6)
{
	struct flowi6 unbound = *fl6;
	struct dst_entry *dst, *bound;

	dst = ipv6_stub->ipv6_dst_lookup_flow(dev_net(ndev), sk, &unbound, NULL);
	if (!IS_ERR(dst) && dst->dev == ndev)
		return dst;
	fl6->flowi6_oif = ndev->ifindex;
	bound = ipv6_stub->ipv6_dst_lookup_flow(dev_net(ndev), sk, fl6, NULL);
	if (IS_ERR(bound) && !IS_ERR(dst))
		return dst;	/* a GID on a device no route leaves by */
	if (!IS_ERR(dst))
		dst_release(dst);
	return bound;
}

static int mrc_xmit6(struct net_device *ndev, struct sock *sk, __be16 dport,
		     struct mrc_path *path, struct sk_buff *skb)
{
	struct flowi6 fl6 = {
		.flowi6_proto = IPPROTO_UDP,
		.daddr = path->daddr,
		.saddr = path->saddr,
		/* The ports make ECMP's L4 hash pick the EV's path. */
		.fl6_sport = path->sport,
		.fl6_dport = dport,
	};
	struct dst_entry *dst;

	dst = mrc_route6(ndev, sk, &fl6);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return PTR_ERR(dst);
	}
	udp_tunnel6_xmit_skb(dst, sk, skb, dst->dev, &path->saddr,
			     &path->daddr, mrc_net_dsfield(path), path->hop_limit,
			     cpu_to_be32(path->flow_label), path->sport, dport,
			     false);
	return 0;
}

/*
 * The FIB hashes a multipath route (the L4 hash: our source port is the
 * EV) only for lookups without an output interface, so look up without
 * one first and keep the result if it leaves through our netdev;
 * otherwise bind the lookup to the netdev, as RoCE does.
 */
static struct rtable *mrc_route4(struct net_device *ndev, struct flowi4 *fl4)
{
	struct flowi4 unbound = *fl4;
	struct rtable *rt;

	rt = ip_route_output_key(dev_net(ndev), &unbound);
	if (!IS_ERR(rt)) {
		if (rt->dst.dev == ndev)
			return rt;
		ip_rt_put(rt);
	}
	fl4->flowi4_oif = ndev->ifindex;
	return ip_route_output_key(dev_net(ndev), fl4);
}

static int mrc_xmit4(struct net_device *ndev, struct sock *sk, __be16 dport,
		     const struct mrc_path *path, struct sk_buff *skb)
{
	__be32 saddr = path->saddr.s6_addr32[3];
	__be32 daddr = path->daddr.s6_addr32[3];
	struct flowi4 fl4 = {
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_tos = path->tclass & ~INET_ECN_MASK,
		.daddr = daddr,
		.saddr = saddr,
		.fl4_sport = path->sport,
		.fl4_dport = dport,
	};
	struct rtable *rt;

	rt = mrc_route4(ndev, &fl4);
	if (IS_ERR(rt)) {
		kfree_skb(skb);
		return PTR_ERR(rt);
	}
	udp_tunnel_xmit_skb(rt, sk, skb, saddr, daddr, mrc_net_dsfield(path),
			    path->hop_limit, htons(IP_DF), path->sport, dport,
			    false, false);
	return 0;
}

/**
 * mrc_net_route_mtu() - the MTU of the route a UDP-format packet takes
 * @mn: the namespace's state; the caller holds a reference
 * @ndev: the MRC device's netdev
 * @path: the QP's addresses and source port
 *
 * The kernel gives a route that encapsulates (an SRv6 path pinned with
 * "encap seg6", MPLS) an MTU that leaves room for what it adds
 * (lwtunnel headroom). Routes of a multipath nexthop may differ; the one
 * @path hashes to stands for them.
 *
 * Context: process.
 * Return: the MTU, or 0 when there is no route.
 */
unsigned int mrc_net_route_mtu(struct mrc_net *mn, struct net_device *ndev,
			       const struct mrc_path *path)
{
	struct dst_entry *dst;
	unsigned int mtu;

	if (path->v4) {
		struct flowi4 fl4 = {
			.flowi4_proto = IPPROTO_UDP,
			.daddr = path->daddr.s6_addr32[3],
			.saddr = path->saddr.s6_addr32[3],
			.fl4_sport = path->sport,
		};
		struct rtable *rt = mrc_route4(ndev, &fl4);

		if (IS_ERR(rt))
			return 0;
		dst = &rt->dst;
	} else {
		struct flowi6 fl6 = {
			.flowi6_proto = IPPROTO_UDP,
			.daddr = path->daddr,
			.saddr = path->saddr,
			.fl6_sport = path->sport,
		};

		dst = mrc_route6(ndev, mn->sock->sk, &fl6);
		if (IS_ERR(dst))
			return 0;
	}
	mtu = dst_mtu(dst);
	dst_release(dst);
	return mtu;
}

/**
 * mrc_net_xmit() - send one built MRC packet (or GSO run) over UDP
 * @mn: the namespace's state; the caller holds a reference
 * @ndev: the MRC device's netdev: routes that leave elsewhere are retried
 *	bound to it
 * @dport: the peers' UDP port
 * @path: addresses, source port (the EV) and IP header fields
 * @skb: the packet, its data starting at the MRC header; always consumed.
 *	A GSO run only without @path->srv6 (mrc_net_xmit_srv6())
 *
 * Called with bottom halves disabled.
 *
 * Return: 0 once handed to the IP stack, or a negative errno when there
 * is no route (the packet is dropped).
 */
int mrc_net_xmit(struct mrc_net *mn, struct net_device *ndev, __be16 dport,
		 struct mrc_path *path, struct sk_buff *skb)
{
	struct sock *sk = mn->sock->sk;

	if (path->srv6 && !path->v4)
		return mrc_net_xmit_srv6(ndev, sk, dport, path, skb);
	if (skb_is_gso(skb)) {
		/*
		 * Segmentation wants the checksum to start at the UDP header,
		 * which the tunnel is about to push; udp_set_csum() then
		 * seeds it for every piece.
		 */
		skb->ip_summed = CHECKSUM_PARTIAL;
		skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
		skb->csum_offset = offsetof(struct udphdr, check);
	}
	skb->protocol = path->v4 ? htons(ETH_P_IP) : htons(ETH_P_IPV6);
	if (path->v4)
		return mrc_xmit4(ndev, sk, dport, path, skb);
	return mrc_xmit6(ndev, sk, dport, path, skb);
}

static int __net_init mrc_net_ns_init(struct net *net)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);

	mutex_init(&mn->lock);
	atomic_set(&mn->putting, 0);
	return 0;
}

/* No user left and no put still touching @mn. */
static bool mrc_net_idle(struct mrc_net *mn)
{
	if (READ_ONCE(mn->users))
		return false;
	/* Pairs with the increment that came before the users decrement. */
	smp_rmb();
	return !atomic_read(&mn->putting);
}

static void __net_exit mrc_net_ns_exit(struct net *net)
{
	struct mrc_net *mn = net_generic(net, mrc_net_id);

	/*
	 * Devices on this namespace's netdevs were queued for unregistration
	 * when those netdevs went away; wait until the last one has dropped
	 * its socket reference so nothing outlives the namespace.
	 */
	wait_var_event(&mn->putting, mrc_net_idle(mn));
	mutex_destroy(&mn->lock);
}

static struct pernet_operations mrc_net_ops = {
	.init = mrc_net_ns_init,
	.exit = mrc_net_ns_exit,
	.id = &mrc_net_id,
	.size = sizeof(struct mrc_net),
};

static int mrc_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	mrc_net_up->netdev_event(netdev_notifier_info_to_dev(ptr), event);
	return NOTIFY_DONE;
}

static struct notifier_block mrc_netdev_notifier = {
	.notifier_call = mrc_netdev_event,
};

/**
 * mrc_net_init() - register the pernet state and the netdev notifier
 * @handlers: the upper layers' handlers; must outlive mrc_net_exit()
 *
 * Return: 0 or a negative errno.
 */
int mrc_net_init(const struct mrc_net_handlers *handlers)
{
	int err;

	mrc_net_up = handlers;
	err = mrc_net_steer_init(handlers);
	if (err)
		return err;

	err = register_pernet_subsys(&mrc_net_ops);
	if (err)
		goto err_steer;

	err = register_netdevice_notifier(&mrc_netdev_notifier);
	if (err)
		goto err_pernet;
	return 0;

err_pernet:
	unregister_pernet_subsys(&mrc_net_ops);
err_steer:
	mrc_net_steer_exit();
	return err;
}

/**
 * mrc_net_exit() - undo mrc_net_init(); all devices must be gone
 */
void mrc_net_exit(void)
{
	unregister_netdevice_notifier(&mrc_netdev_notifier);
	unregister_pernet_subsys(&mrc_net_ops);
	mrc_net_steer_exit();
}

/**
 * mrc_net_rx_dev() - the netdev a received packet is addressed to
 * @skb: a packet that reached the MRC socket, under RCU
 *
 * A packet decapsulated from SRv6 comes in on the uplink while its
 * destination, the GID, may sit on another device (a dummy reached
 * through every plane's uplink). A packet between two MRC devices of
 * one host comes in on the loopback device.
 *
 * Return: the netdev owning the destination address, or NULL. Valid
 * under the caller's RCU read lock.
 */
struct net_device *mrc_net_rx_dev(struct sk_buff *skb)
{
	if (!skb->dev)
		return NULL;
	if (ip_hdr(skb)->version == 4)
		return __ip_dev_find(dev_net(skb->dev), ip_hdr(skb)->daddr,
				     false);
	return ipv6_stub->ipv6_dev_find(dev_net(skb->dev),
					&ipv6_hdr(skb)->daddr, NULL);
}

/*
 * Off for fabrics where a router encapsulates: the outer source is then
 * the router's. Read for every decapsulated packet.
 */
static bool mrc_net_encap_src_check = true;
module_param_named(encap_src_check, mrc_net_encap_src_check, bool, 0644);
MODULE_PARM_DESC(encap_src_check,
		 "Drop a decapsulated packet whose outer source is not its inner source (default Y)");

/*
 * The length of the link-layer header at the MAC header of a packet
 * that came in on @dev, by how each kind of link receives: Ethernet
 * (loopback too) keeps its 14-byte header, VLAN tags already taken out;
 * tun, WireGuard, ip6tnl, ip6gre, sit and GRE without header_ops reset
 * the MAC header at the IP packet they deliver. (xfrm's tunnels of the
 * same types, vti6 and xfrm interfaces, copy the outer Ethernet header
 * in front of it instead: too short for an outer IPv6 header, which
 * mrc_encap_check() takes for none.) -1: a link not known here.
 */
static int mrc_net_link_hlen(const struct net_device *dev)
{
	switch (dev->type) {
	case ARPHRD_ETHER:
	case ARPHRD_LOOPBACK:
		return ETH_HLEN;
	case ARPHRD_NONE:
	case ARPHRD_TUNNEL6:
	case ARPHRD_IP6GRE:
	case ARPHRD_SIT:
		return 0;
	case ARPHRD_IPGRE:
		/* With header_ops, the MAC header is the outer IPv4 one. */
		return dev->header_ops ? -1 : 0;
	default:
		return -1;
	}
}

/**
 * mrc_net_rx_encap() - judge a received packet's stripped outer headers
 * @skb: a packet at the MRC socket, linear up to its UDP header, its
 *	network header the inner one
 * @tclass: set to the outermost header's traffic class when the verdict
 *	is MRC_ENCAP_OK (mrc_encap_tclass()); left alone otherwise
 *
 * SRv6 decapsulation (End.DT6, or an SRH whose last segment is this
 * host) pulls the outer headers but leaves them in the linear head,
 * between the link-layer header and the inner network header, whatever
 * the link. Where the link header ends is known for the links of
 * mrc_net_link_hlen(). On another link it is skb->mac_len, which the
 * receive path measured when the outer packet came in, while it is
 * shorter than the distance to the inner header: an SRH at this host's
 * address sends the inner packet through the receive path again, which
 * measures the outer headers in too.
 *
 * Every outer source must be the inner one (mrc_encap_check()) unless
 * the encap_src_check module parameter is off.
 *
 * Return: the verdict of mrc_encap_check(); MRC_ENCAP_NONE when no outer
 * header is there.
 */
enum mrc_encap_verdict mrc_net_rx_encap(const struct sk_buff *skb, int *tclass)
{
	const u8 *mac, *outer, *inner, *src = NULL;
	enum mrc_encap_verdict v;
	int hlen;

	if (!skb->dev || !skb_mac_header_was_set(skb))
		return MRC_ENCAP_NONE;
	mac = skb_mac_header(skb);
	inner = skb_network_header(skb);
	hlen = mrc_net_link_hlen(skb->dev);
	if (hlen < 0)
		hlen = skb->mac_len;
	outer = mac + hlen;
	if (inner <= outer)
		return MRC_ENCAP_NONE;
	if (READ_ONCE(mrc_net_encap_src_check))
		src = ip_hdr(skb)->version == 4 ?
		      (const u8 *)&ip_hdr(skb)->saddr :
		      ipv6_hdr(skb)->saddr.s6_addr;
	v = mrc_encap_check(outer, inner - outer, ip_hdr(skb)->version, src);
	if (v == MRC_ENCAP_OK)
		*tclass = mrc_encap_tclass(outer, inner - outer);
	return v;
}

/* The link state that makes an MRC port ACTIVE (core/mrc_link_params.c). */
bool mrc_net_port_active(const struct net_device *ndev)
{
	return mrc_port_state_from_netdev(netif_running(ndev),
					  netif_oper_up(ndev)) ==
	       MRC_PORT_ACTIVE;
}
