// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The port's state: up when the netdev can carry traffic and no
 * administrator disabled it (OCP's port admin state, DEV_SET). A
 * disabled port reads IB_PORT_DOWN, raises IB_EVENT_PORT_ERR and sends
 * nothing, like a pulled cable; enabling it undoes all three.
 */
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "net/mrc_net.h"

/**
 * mrc_port_is_up() - whether the port is ACTIVE
 * @mdev: the device
 *
 * Return: true when the netdev is up with carrier and the port enabled.
 */
bool mrc_port_is_up(struct mrc_dev *mdev)
{
	return !READ_ONCE(mdev->port_disabled) &&
	       mrc_net_port_active(mdev->ndev);
}

/**
 * mrc_port_update() - report a change of the port's state as an IB event
 * @mdev: the device whose netdev or admin state changed
 *
 * Called under RTNL, from the netdev notifier and from DEV_SET (which
 * sets @mdev->port_disabled under it too); RTNL serialises updates of
 * @mdev->port_active.
 */
void mrc_port_update(struct mrc_dev *mdev)
{
	bool active = mrc_port_is_up(mdev);
	struct ib_event ev = {
		.device = &mdev->ib_dev,
		.element.port_num = MRC_PORT_NUM,
	};

	ASSERT_RTNL();
	if (active == mdev->port_active)
		return;
	mdev->port_active = active;
	ev.event = active ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
	ib_dispatch_event(&ev);
}
