// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The payload MTU of the port and of a QP. UDP EVs leave by the GID's
 * netdev; SRv6 EVs leave by their outer destinations' routes, whose
 * uplinks may have other MTUs than the netdev that holds the GID (a
 * dummy, in the two-plane fabric). The port reports what its default
 * EV profile carries, so that two hosts set up alike read the same
 * active MTU and give their QPs the same path MTU.
 */
#include "ctl/mrc_ctl.h"
#include "ctl/mrc_prof.h"
#include "core/mrc_link_params.h"
#include "net/mrc_net.h"

/**
 * mrc_port_payload_mtu() - the payload MTU of a QP sending on @rs
 * @mdev: the device
 * @rs: the SRv6 routes of the QP's EV profile, or NULL (UDP format)
 * @path: the QP's addresses, for the route its UDP EVs take; NULL: none
 * @seg: set to the SEND/WRITE payload that fills the same EVs
 *       (mrc_link_seg(); never below the return value)
 *
 * The path MTU is the power of two that both peers of a QP set up alike
 * compute, as READ responses need; the segment is what this end's links
 * carry. Without a routed SRv6 EV, the GID's netdev less the largest
 * SRv6 encapsulation stands in. UDP EVs take the MTU of the route to the
 * peer, which leaves room for what that route adds (an SRv6 path pinned
 * in the kernel's routes), or the netdev's without one.
 *
 * Context: process; may sleep.
 * Return: 256..4096.
 */
unsigned int mrc_port_payload_mtu(struct mrc_dev *mdev,
				  const struct mrc_srv6_routes *rs,
				  const struct mrc_path *path, unsigned int *seg)
{
	unsigned int ndev_mtu = READ_ONCE(mdev->ndev->mtu), mtu = 0, s = 0;
	unsigned int route_mtu = 0;

	if (rs)
		mtu = mrc_net_srv6_payload_mtu(mdev->ndev, rs, &s);
	if (!mtu && rs) {
		mtu = mrc_srv6_payload_mtu(ndev_mtu, MRC_SRV6_SEGS_MAX);
		s = mrc_srv6_link_seg(ndev_mtu, MRC_SRV6_SEGS_MAX);
	} else if (!mtu) {
		mtu = mrc_payload_mtu(ndev_mtu);
		if (path)
			route_mtu = mrc_net_route_mtu(mdev->net, mdev->ndev,
						      path);
		s = mrc_link_seg(route_mtu ? route_mtu : ndev_mtu,
				 MRC_UDP_HDR_LEN + (path && path->v4 ?
						    MRC_IPV4_HDR_LEN :
						    MRC_IPV6_HDR_LEN));
	}
	mtu = max_t(unsigned int, mtu, MRC_MIN_PAYLOAD_MTU);
	*seg = max(s, mtu);
	return mtu;
}

/**
 * mrc_port_active_mtu() - the payload MTU of a QP of the default profile
 * @mdev: the device
 *
 * Context: process; may sleep.
 * Return: 256..4096.
 */
unsigned int mrc_port_active_mtu(struct mrc_dev *mdev)
{
	struct mrc_ctl_dev *ctl = mdev->ctl;
	struct mrc_srv6_routes *rs = NULL;
	struct mrc_prof *prof;
	unsigned int mtu, seg;

	mutex_lock(&ctl->lock);
	prof = mrc_prof_find(&mrc_evprof_kind, ctl, ctl->default_evp);
	if (prof && prof->state == MRC_PROF_ONLINE)
		rs = mrc_srv6_routes_get(container_of(prof, struct mrc_evprof,
						      p)->srv6);
	mutex_unlock(&ctl->lock);
	mtu = mrc_port_payload_mtu(mdev, rs, NULL, &seg);
	mrc_srv6_routes_put(rs);
	return mtu;
}
