/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * SRv6 EVs: each EV of an SRV6-format profile is an IPv6 source route,
 * one address (the outer destination: a uSID container or the first
 * segment, no SRH) or two (the outer destination and the next segment,
 * carried in an SRH). The table of a profile's routes is shared, read
 * only, by the profile and the QPs bound to it (refcounted), so a QP
 * costs one pointer and its EVs none. Pure logic, tested by KUnit.
 */
#ifndef MRC_SRV6_H
#define MRC_SRV6_H

#include <linux/in6.h>
#include <linux/refcount.h>
#include <linux/types.h>

#define MRC_SRV6_SEGS_MAX	2
#define MRC_SRV6_OUTER_LEN	40	/* the outer IPv6 header */
#define MRC_SRV6_SRH_LEN(n)	(8 + 16 * (n))	/* SRH listing n segments */

/**
 * struct mrc_srv6_route - the source route of one EV
 * @seg: @nsegs addresses: [0] the outer destination, [1] the next
 *	segment (the last, carried in the SRH)
 * @nsegs: 1 (reduced encapsulation, no SRH) or 2 (SRH)
 */
struct mrc_srv6_route {
	struct in6_addr seg[MRC_SRV6_SEGS_MAX];
	u8 nsegs;
};

/**
 * struct mrc_srv6_routes - the routes of a profile's EVs
 * @ref: the profile (and its copies) and each bound QP hold one
 * @n: entries in @r, the profile's EV count
 * @r: by EV index
 */
struct mrc_srv6_routes {
	refcount_t ref;
	u32 n;
	struct mrc_srv6_route r[];
};

/* Why an address cannot be a segment (mrc_srv6_addr_check()). */
enum mrc_srv6_bad {
	MRC_SRV6_OK,
	MRC_SRV6_UNSPECIFIED,
	MRC_SRV6_LOOPBACK,
	MRC_SRV6_MULTICAST,
	MRC_SRV6_V4MAPPED,
	MRC_SRV6_LINKLOCAL,
};

enum mrc_srv6_bad mrc_srv6_addr_check(const struct in6_addr *a);
int mrc_srv6_route_parse(struct mrc_srv6_route *r, const void *data,
			 unsigned int len, enum mrc_srv6_bad *why);
struct mrc_srv6_routes *mrc_srv6_routes_alloc(u32 n);
void mrc_srv6_routes_put(struct mrc_srv6_routes *rs);

/* Take another reference on @rs (may be NULL). */
static inline struct mrc_srv6_routes *
mrc_srv6_routes_get(struct mrc_srv6_routes *rs)
{
	if (rs)
		refcount_inc(&rs->ref);
	return rs;
}

/**
 * mrc_srv6_encap_len() - bytes an SRv6 EV puts before the inner packet
 * @nsegs: the route's segments, 1 or 2
 *
 * Return: the outer IPv6 header, and with two segments an SRH listing
 * both (encapsulation, not reduced: the SRH always holds the first).
 */
static inline unsigned int mrc_srv6_encap_len(unsigned int nsegs)
{
	return MRC_SRV6_OUTER_LEN + (nsegs > 1 ? MRC_SRV6_SRH_LEN(nsegs) : 0);
}

unsigned int mrc_srv6_payload_mtu(unsigned int netdev_mtu,
				  unsigned int nsegs);
unsigned int mrc_srv6_link_seg(unsigned int netdev_mtu, unsigned int nsegs);

#endif /* MRC_SRV6_H */
