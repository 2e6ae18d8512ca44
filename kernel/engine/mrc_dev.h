/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * MRC soft RDMA device: objects shared by the verbs and net glue.
 */
#ifndef MRC_H
#define MRC_H

#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>
#include <rdma/uverbs_ioctl.h>

#include "engine/mrc_ep_probe.h"
#include "engine/mrc_stats.h"
#include "uapi/mrc-abi.h"

#define MRC_DRV_NAME		"mrc"
#define MRC_PORT_NUM		1
#define MRC_GID_TABLE_LEN	128
#define MRC_MAX_PD		0x10000

struct mrc_net;
struct mrc_ctl_dev;

/* Objects a device counts against the limits ib_query_device reports. */
enum mrc_res {
	MRC_RES_PD,
	MRC_RES_CQ,
	MRC_RES_QP,
	MRC_RES_SRQ,
	MRC_RES_MR,
	MRC_RES_MW,
	MRC_RES_COUNT
};

/**
 * struct mrc_dev - one MRC RDMA device bound to one Ethernet netdev
 * @ib_dev: the core device; must stay first for ib_alloc_device()
 * @ndev: the netdev carrying our traffic, held by @ndev_tracker
 * @ndev_tracker: reference tracker for @ndev
 * @net: per-netns state holding our UDP socket; NULL until acquired
 * @udp_port: UDP destination port of @net's socket
 * @port_active: last port state reported to the core, for event dedup
 * @port_disabled: an administrator disabled the port (ctl/ sets it): the
 *	engine sends nothing
 * @nres: objects of each &enum mrc_res currently allocated
 * @list: entry in the driver's device list, for netlink dumps
 * @mr_xa: memory regions by key index (key >> 8)
 * @mw_xa: memory windows (&struct mrc_window) by key index
 * @mw_lock: serialises binding, invalidating and looking up windows, and
 *	the MRs' window counts
 * @qp_xa: queue pairs by QPN
 * @ah_xa: user address handles by the number their UD sends name them by
 * @atomic_lock: makes remote atomics atomic with respect to each other
 * @stats: the device's counters (mrc_stats.h), reported by ctl/
 * @ctl: profiles and admin state, owned by ctl/; the engine never reads it
 * @ep: endpoint probes this device waits for, and its answer rate limit
 */
struct mrc_dev {
	struct ib_device ib_dev;
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	struct mrc_net *net;
	u16 udp_port;
	bool port_active;
	bool port_disabled;
	atomic_t nres[MRC_RES_COUNT];
	struct list_head list;
	struct xarray mr_xa;
	struct xarray mw_xa;
	spinlock_t mw_lock; /* windows' state, MRs' window counts */
	struct xarray qp_xa;
	struct xarray ah_xa;
	spinlock_t atomic_lock; /* serialises remote atomic operations */
	struct mrc_stats stats;
	struct mrc_ctl_dev *ctl;
	struct mrc_ep_table ep;
};

struct mrc_pd {
	struct ib_pd ibpd;
};

struct mrc_ucontext {
	struct ib_ucontext ibuc;
};

static inline struct mrc_dev *to_mrc_dev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mrc_dev, ib_dev);
}

/* The user context a verb's udata belongs to, NULL for kernel callers. */
static inline struct ib_ucontext *mrc_udata_ucontext(struct ib_udata *udata)
{
	if (!udata)
		return NULL;
	return &rdma_udata_to_drv_context(udata, struct mrc_ucontext, ibuc)->ibuc;
}

/* The device bound to a netdev, with a reference (ib_device_put() it). */
static inline struct mrc_dev *mrc_dev_get_by_netdev(struct net_device *ndev)
{
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(ndev, (enum rdma_driver_id)MRC_DRIVER_ID);
	return ibdev ? to_mrc_dev(ibdev) : NULL;
}

#endif /* MRC_H */
