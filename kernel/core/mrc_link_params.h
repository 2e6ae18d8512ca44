/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Link parameters derived from the Ethernet netdev an MRC device sits on.
 * Pure arithmetic with no ib_core dependency, so KUnit can test it on UML.
 */
#ifndef MRC_LINK_PARAMS_H
#define MRC_LINK_PARAMS_H

#include <linux/types.h>

/* Outer headers MRC puts in front of every payload byte, worst case. */
#define MRC_IPV6_HDR_LEN	40
#define MRC_UDP_HDR_LEN		8
/* Room reserved for the MRC transport headers (see wire-format docs). */
#define MRC_TRANSPORT_HDR_MAX	64
/* One-segment SRH (8 + 16 bytes) that SRv6 path pinning may add. */
#define MRC_SRH_RESERVE		24
#define MRC_PATH_OVERHEAD	(MRC_IPV6_HDR_LEN + MRC_UDP_HDR_LEN + \
				 MRC_TRANSPORT_HDR_MAX + MRC_SRH_RESERVE)

#define MRC_MIN_PAYLOAD_MTU	256
#define MRC_MAX_PAYLOAD_MTU	4096
#define MRC_IPV4_HDR_LEN	20
/*
 * A SEND or WRITE packet's payload (its segment) fills the link, in
 * multiples of 64 bytes so that each packet's copy starts on a cache
 * line when the message does, up to a 9216-byte jumbo frame's room.
 */
#define MRC_SEG_ALIGN		64
#define MRC_SEG_MAX		9216

/**
 * mrc_payload_mtu() - largest IB-style payload MTU a netdev MTU can carry
 * @netdev_mtu: L3 MTU of the underlying netdev, in bytes
 *
 * Return: one of 256, 512, 1024, 2048 or 4096, or 0 when @netdev_mtu is
 * too small to carry even a 256-byte payload with MRC's headers.
 */
unsigned int mrc_payload_mtu(unsigned int netdev_mtu);

/**
 * mrc_link_seg() - payload of a SEND or WRITE packet that fills a link
 * @l3_mtu: the route's or netdev's L3 MTU, in bytes
 * @front: bytes in front of the MRC headers: IP header(s), any SRv6
 *         encapsulation and UDP
 *
 * Unlike mrc_payload_mtu(), not a power of two: only the path MTU of
 * READ responses must be one both peers know (wire-format.rst).
 *
 * Return: @l3_mtu less @front and MRC_TRANSPORT_HDR_MAX, aligned down to
 * MRC_SEG_ALIGN, at most MRC_SEG_MAX; 0 when that is under
 * MRC_MIN_PAYLOAD_MTU.
 */
unsigned int mrc_link_seg(unsigned int l3_mtu, unsigned int front);

/**
 * mrc_guid_from_mac() - EUI-64 GUID from a 48-bit MAC address
 * @mac: six bytes of Ethernet address
 *
 * Flips the universal/local bit and inserts ff:fe in the middle, as
 * IPv6 modified EUI-64 does, so GUIDs match the link-local GID.
 *
 * Return: the GUID in network byte order.
 */
__be64 mrc_guid_from_mac(const u8 *mac);

/* Port state as IB reports it, derived from the netdev's flags. */
enum mrc_port_state {
	MRC_PORT_DOWN,
	MRC_PORT_ACTIVE,
};

/**
 * mrc_port_state_from_netdev() - map netdev state to an IB port state
 * @admin_up: the netdev is administratively up (IFF_UP)
 * @oper_up: the netdev's operational state is up (carrier, not dormant)
 *
 * Return: MRC_PORT_ACTIVE only when the netdev can carry traffic.
 */
enum mrc_port_state mrc_port_state_from_netdev(bool admin_up, bool oper_up);

#endif /* MRC_LINK_PARAMS_H */
