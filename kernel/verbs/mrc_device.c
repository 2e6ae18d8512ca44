// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MRC device lifetime: creation from `rdma link add`, registration with
 * the RDMA core, port state tracking, and release.
 */
#include <linux/if_arp.h>
#include <linux/mutex.h>
#include <rdma/ib_cache.h>

#include "verbs/mrc_verbs.h"
#include "ctl/mrc_ctl.h"
#include "engine/mrc_dev.h"
#include "net/mrc_net.h"
#include "core/mrc_link_params.h"

/* Serialises newlink so the duplicate checks and registration are atomic. */
static DEFINE_MUTEX(mrc_link_mutex);

/**
 * mrc_dev_netdev_event() - net/'s netdev notifier, for MRC devices
 * @ndev: the netdev the event is about
 * @event: NETDEV_*
 *
 * Called under RTNL for every netdev; acts only on those carrying an MRC
 * device.
 */
void mrc_dev_netdev_event(struct net_device *ndev, unsigned long event)
{
	struct mrc_dev *mdev = mrc_dev_get_by_netdev(ndev);

	if (!mdev)
		return;

	switch (event) {
	case NETDEV_UNREGISTER:
		/* The core may take RTNL while unregistering: defer it. */
		ib_unregister_device_queued(&mdev->ib_dev);
		break;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
	case NETDEV_CHANGEMTU:
		mrc_port_update(mdev);
		break;
	default:
		break;
	}
	ib_device_put(&mdev->ib_dev);
}

static int mrc_check_netdev(struct net_device *ndev)
{
	struct mrc_dev *other;

	if (ndev->type != ARPHRD_ETHER || (ndev->flags & IFF_LOOPBACK)) {
		pr_warn("%s: netdev %s is not an Ethernet device (type %u)\n",
			MRC_DRV_NAME, netdev_name(ndev), ndev->type);
		return -EINVAL;
	}
	if (mrc_payload_mtu(ndev->mtu) == 0) {
		pr_warn("%s: netdev %s MTU %u is too small for MRC (min %u)\n",
			MRC_DRV_NAME, netdev_name(ndev), ndev->mtu,
			MRC_PATH_OVERHEAD + MRC_MIN_PAYLOAD_MTU);
		return -EINVAL;
	}
	other = mrc_dev_get_by_netdev(ndev);
	if (other) {
		pr_warn("%s: netdev %s already carries MRC device %s\n",
			MRC_DRV_NAME, netdev_name(ndev),
			dev_name(&other->ib_dev.dev));
		ib_device_put(&other->ib_dev);
		return -EEXIST;
	}
	return 0;
}

static int mrc_check_name(const char *ibdev_name)
{
	struct ib_device *other;

	other = ib_device_get_by_name(ibdev_name, RDMA_DRIVER_UNKNOWN);
	if (other) {
		ib_device_put(other);
		pr_warn("%s: RDMA device name %s is already in use\n",
			MRC_DRV_NAME, ibdev_name);
		return -EEXIST;
	}
	return 0;
}

static int mrc_register(struct mrc_dev *mdev, const char *ibdev_name)
{
	struct ib_device *ibdev = &mdev->ib_dev;
	__be64 guid;
	int err;

	strscpy(ibdev->node_desc, "mrc", sizeof(ibdev->node_desc));
	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	ibdev->local_dma_lkey = 0;
	guid = mrc_guid_from_mac(mdev->ndev->dev_addr);
	memcpy(&ibdev->node_guid, &guid, sizeof(guid));

	/* Doorbells and CQ arming go through these write() commands. */
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				  BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	err = ib_device_set_netdev(ibdev, mdev->ndev, MRC_PORT_NUM);
	if (err)
		return err;

	return ib_register_device(ibdev, ibdev_name, NULL);
}

/*
 * Removal of a device first removes the RDMA core's clients from it, then
 * waits for the device's last reference. A PROBE request holds one while
 * it waits for replies (up to 10 s): as a client of our own devices we
 * wake it there, so `rdma link delete`, a netdev's removal and a netns
 * exit do not wait for its timeout.
 */
static int mrc_client_add(struct ib_device *ibdev)
{
	if (ibdev->ops.driver_id != (enum rdma_driver_id)MRC_DRIVER_ID)
		return -EOPNOTSUPP;	/* not ours: no remove call either */
	mrc_ep_probe_open(to_mrc_dev(ibdev));
	return 0;
}

static void mrc_client_remove(struct ib_device *ibdev, void *client_data)
{
	mrc_ep_probe_close(to_mrc_dev(ibdev));
}

static struct ib_client mrc_client = {
	.name = MRC_DRV_NAME,
	.add = mrc_client_add,
	.remove = mrc_client_remove,
};

/**
 * mrc_client_register() - be told when a device of ours is being removed
 *
 * Return: 0 or a negative errno.
 */
int mrc_client_register(void)
{
	return ib_register_client(&mrc_client);
}

/**
 * mrc_client_unregister() - undo mrc_client_register()
 */
void mrc_client_unregister(void)
{
	ib_unregister_client(&mrc_client);
}

/**
 * mrc_newlink() - `rdma link add NAME type mrc netdev NDEV`
 * @ibdev_name: requested RDMA device name
 * @ndev: the Ethernet netdev to run on; the caller holds a reference
 *
 * Return: 0 or a negative errno; on error nothing is left registered.
 */
int mrc_newlink(const char *ibdev_name, struct net_device *ndev)
{
	struct mrc_net *mn;
	struct mrc_dev *mdev;
	int err;

	mutex_lock(&mrc_link_mutex);
	err = mrc_check_netdev(ndev);
	if (!err)
		err = mrc_check_name(ibdev_name);
	if (err)
		goto out_unlock;

	mdev = ib_alloc_device(mrc_dev, ib_dev);
	if (!mdev) {
		err = -ENOMEM;
		goto out_unlock;
	}
	/*
	 * The ops first: ib_dealloc_device() on any error below calls their
	 * dealloc_driver, which releases what was taken (without it a
	 * failure left the netdev held and the control state allocated).
	 */
	ib_set_device_ops(&mdev->ib_dev, &mrc_verbs_ops);
	INIT_LIST_HEAD(&mdev->list);
	xa_init_flags(&mdev->mr_xa, XA_FLAGS_ALLOC1);
	xa_init_flags(&mdev->mw_xa, XA_FLAGS_ALLOC);
	spin_lock_init(&mdev->mw_lock);
	xa_init_flags(&mdev->qp_xa, XA_FLAGS_ALLOC);
	xa_init_flags(&mdev->ah_xa, XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH);
	spin_lock_init(&mdev->atomic_lock);
	mrc_ep_probe_init(mdev);
	mdev->ndev = ndev;
	netdev_hold(ndev, &mdev->ndev_tracker, GFP_KERNEL);

	err = mrc_stats_alloc(&mdev->stats);
	if (err)
		goto out_dealloc;
	err = mrc_ctl_dev_alloc(mdev);
	if (err)
		goto out_dealloc;

	mn = mrc_net_get(dev_net(ndev), mrc_udp_port);
	if (IS_ERR(mn)) {
		err = PTR_ERR(mn);
		pr_warn("%s: cannot open UDP port %u for %s: %d\n",
			MRC_DRV_NAME, mrc_udp_port, netdev_name(ndev), err);
		goto out_dealloc;
	}
	mdev->net = mn;
	mdev->udp_port = mrc_udp_port;

	err = mrc_register(mdev, ibdev_name);
	if (err) {
		pr_warn("%s: registering %s on %s failed: %d\n", MRC_DRV_NAME,
			ibdev_name, netdev_name(ndev), err);
		goto out_dealloc;
	}
	mutex_unlock(&mrc_link_mutex);
	return 0;

out_dealloc:
	/* Calls mrc_dealloc_driver(), which releases what was taken. */
	ib_dealloc_device(&mdev->ib_dev);
out_unlock:
	mutex_unlock(&mrc_link_mutex);
	return err;
}
