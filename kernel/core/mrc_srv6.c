// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SRv6 EVs: checking the addresses a controller gives, the routes'
 * shared table, and what encapsulation costs the path MTU.
 */
#include <linux/slab.h>
#include <linux/string.h>

#include "core/mrc_link_params.h"
#include "core/mrc_srv6.h"

/**
 * mrc_srv6_addr_check() - whether an address may be a segment
 * @a: the address
 *
 * A segment is a unicast address another node owns: not unspecified,
 * loopback, multicast, IPv4-mapped or link-local (an outer header that
 * leaves the link must not carry one).
 *
 * Return: MRC_SRV6_OK or why not.
 */
enum mrc_srv6_bad mrc_srv6_addr_check(const struct in6_addr *a)
{
	static const u8 v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	const u8 *b = a->s6_addr;
	u8 zero[16] = {};

	if (!memcmp(b, zero, 16))
		return MRC_SRV6_UNSPECIFIED;
	if (!memcmp(b, zero, 15) && b[15] == 1)
		return MRC_SRV6_LOOPBACK;
	if (b[0] == 0xff)
		return MRC_SRV6_MULTICAST;
	if (!memcmp(b, v4mapped, sizeof(v4mapped)))
		return MRC_SRV6_V4MAPPED;
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return MRC_SRV6_LINKLOCAL;
	return MRC_SRV6_OK;
}

/**
 * mrc_srv6_route_parse() - an EV's route from its netlink value
 * @r: filled on success
 * @data: @len bytes: one or two IPv6 addresses, network order
 * @len: 16 or 32
 * @why: on -EINVAL for a bad address, why (else MRC_SRV6_OK)
 *
 * Return: 0, or -EINVAL (wrong length or a bad address).
 */
int mrc_srv6_route_parse(struct mrc_srv6_route *r, const void *data,
			 unsigned int len, enum mrc_srv6_bad *why)
{
	unsigned int i;

	*why = MRC_SRV6_OK;
	if (len != 16 && len != 32)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->nsegs = len / 16;
	memcpy(r->seg, data, len);
	for (i = 0; i < r->nsegs; i++) {
		*why = mrc_srv6_addr_check(&r->seg[i]);
		if (*why != MRC_SRV6_OK)
			return -EINVAL;
	}
	return 0;
}

/**
 * mrc_srv6_routes_alloc() - a zeroed table for @n EVs, one reference
 * @n: EVs
 *
 * Return: the table or NULL.
 */
struct mrc_srv6_routes *mrc_srv6_routes_alloc(u32 n)
{
	struct mrc_srv6_routes *rs;

	rs = kvzalloc(struct_size(rs, r, n), GFP_KERNEL);
	if (!rs)
		return NULL;
	refcount_set(&rs->ref, 1);
	rs->n = n;
	return rs;
}

/**
 * mrc_srv6_routes_put() - drop a reference; the last frees the table
 * @rs: the table, or NULL
 */
void mrc_srv6_routes_put(struct mrc_srv6_routes *rs)
{
	if (rs && refcount_dec_and_test(&rs->ref))
		kvfree(rs);
}

/**
 * mrc_srv6_payload_mtu() - payload MTU of a route over a netdev MTU
 * @netdev_mtu: L3 MTU of the uplink
 * @nsegs: the route's segments (0: not SRv6)
 *
 * mrc_payload_mtu() already reserves a one-segment SRH; the outer
 * header, and an SRH larger than that, come off the netdev's MTU.
 *
 * Return: 256..4096, or 0 when no payload fits.
 */
unsigned int mrc_srv6_payload_mtu(unsigned int netdev_mtu, unsigned int nsegs)
{
	unsigned int extra = 0;

	if (nsegs) {
		extra = mrc_srv6_encap_len(nsegs);
		extra = extra > MRC_SRH_RESERVE ? extra - MRC_SRH_RESERVE : 0;
	}
	if (netdev_mtu <= extra)
		return 0;
	return mrc_payload_mtu(netdev_mtu - extra);
}

/**
 * mrc_srv6_link_seg() - SEND/WRITE payload that fills a route
 * @netdev_mtu: L3 MTU of the uplink
 * @nsegs: the route's segments (1 or 2)
 *
 * Return: see mrc_link_seg(); the inner packet is IPv6.
 */
unsigned int mrc_srv6_link_seg(unsigned int netdev_mtu, unsigned int nsegs)
{
	return mrc_link_seg(netdev_mtu, mrc_srv6_encap_len(nsegs) +
			    MRC_IPV6_HDR_LEN + MRC_UDP_HDR_LEN);
}
