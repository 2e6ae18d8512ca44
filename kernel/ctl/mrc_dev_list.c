// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The MRC devices the control plane can name: a device joins when it is
 * registered and leaves before it is freed (verbs/ calls both), and
 * generic netlink finds devices here rather than calling up into verbs/.
 */
#include <linux/mutex.h>

#include "ctl/mrc_ctl.h"

/*
 * Registered devices, for netlink dumps. A device leaves the list in
 * dealloc_driver, so holding the lock keeps every listed device alive.
 */
static DEFINE_MUTEX(mrc_dev_list_lock);
static LIST_HEAD(mrc_dev_list);

/**
 * mrc_dev_list_add() - make a newly enabled device visible to dumps
 * @mdev: the device
 */
void mrc_dev_list_add(struct mrc_dev *mdev)
{
	mutex_lock(&mrc_dev_list_lock);
	list_add_tail(&mdev->list, &mrc_dev_list);
	mutex_unlock(&mrc_dev_list_lock);
}

/**
 * mrc_dev_list_del() - hide a device from dumps; safe if never added
 * @mdev: the device
 */
void mrc_dev_list_del(struct mrc_dev *mdev)
{
	mutex_lock(&mrc_dev_list_lock);
	list_del_init(&mdev->list);
	mutex_unlock(&mrc_dev_list_lock);
}

/**
 * mrc_dev_for_each() - call @fn for each device whose netdev is in @net
 * @net: namespace filter
 * @pos: in: how many matching devices to skip; out: how many were visited
 * @fn: callback; a non-zero return stops the walk and is returned
 * @arg: passed to @fn
 *
 * Return: 0 after a full walk, else what @fn returned.
 */
int mrc_dev_for_each(struct net *net, long *pos,
		     int (*fn)(struct mrc_dev *mdev, void *arg), void *arg)
{
	struct mrc_dev *mdev;
	long idx = 0;
	int ret = 0;

	mutex_lock(&mrc_dev_list_lock);
	list_for_each_entry(mdev, &mrc_dev_list, list) {
		if (!net_eq(dev_net(mdev->ndev), net))
			continue;
		if (idx++ < *pos)
			continue;
		ret = fn(mdev, arg);
		if (ret) {
			idx--;
			break;
		}
	}
	mutex_unlock(&mrc_dev_list_lock);
	*pos = idx;
	return ret;
}

/**
 * mrc_dev_get_by_name() - find an MRC device by its RDMA device name
 * @name: the name
 *
 * Return: the device with a reference held (drop it with ib_device_put()),
 * or NULL when no MRC device has that name.
 */
struct mrc_dev *mrc_dev_get_by_name(const char *name)
{
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_name(name, (enum rdma_driver_id)MRC_DRIVER_ID);
	return ibdev ? to_mrc_dev(ibdev) : NULL;
}

/**
 * mrc_dev_get_by_index() - find an MRC device by its RDMA device index
 * @index: the index (`rdma dev` shows it)
 *
 * Return: the device with a reference held (drop it with ib_device_put()),
 * or NULL.
 */
struct mrc_dev *mrc_dev_get_by_index(u32 index)
{
	struct mrc_dev *mdev, *found = NULL;

	mutex_lock(&mrc_dev_list_lock);
	list_for_each_entry(mdev, &mrc_dev_list, list) {
		if (mdev->ib_dev.index == index &&
		    ib_device_try_get(&mdev->ib_dev)) {
			found = mdev;
			break;
		}
	}
	mutex_unlock(&mrc_dev_list_lock);
	return found;
}
