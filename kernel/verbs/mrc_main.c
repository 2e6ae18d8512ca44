// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc: soft RDMA driver for MRC, the OCP Multipath Reliable Connection
 * transport. Module entry points and the `rdma link` type; the layers are
 * brought up bottom first (engine, net, ctl) and taken down in reverse.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <rdma/rdma_netlink.h>

#include "verbs/mrc_verbs.h"
#include "ctl/mrc_ctl.h"
#include "engine/mrc_tx_acct.h"
#include "uapi/mrc-genl.h"

static struct rdma_link_ops mrc_link_ops = {
	.type = MRC_DRV_NAME,
	.newlink = mrc_newlink,
};

/* How net/ hands up received packets and netdev events. */
static const struct mrc_net_handlers mrc_net_handlers = {
	.rx = mrc_rx_skb,
	.netdev_event = mrc_dev_netdev_event,
};

static int __init mrc_init(void)
{
	int err;

	err = mrc_engine_init();
	if (err)
		return err;

	err = mrc_net_init(&mrc_net_handlers);
	if (err)
		goto err_engine;

	err = mrc_genl_init();
	if (err)
		goto err_net;

	err = mrc_client_register();
	if (err)
		goto err_genl;

	rdma_link_register(&mrc_link_ops);
	pr_info("%s: loaded, UDP port %u\n", MRC_DRV_NAME, mrc_udp_port);
	return 0;

err_genl:
	mrc_genl_exit();
err_net:
	mrc_net_exit();
err_engine:
	mrc_engine_exit();
	return err;
}

static void __exit mrc_exit(void)
{
	rdma_link_unregister(&mrc_link_ops);
	ib_unregister_driver((enum rdma_driver_id)MRC_DRIVER_ID);
	mrc_client_unregister();
	mrc_genl_exit();
	mrc_net_exit();
	mrc_tx_acct_wait_idle();
	mrc_engine_exit();
	pr_info("%s: unloaded\n", MRC_DRV_NAME);
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_AUTHOR("MRC for Linux developers");
MODULE_DESCRIPTION("Soft RDMA driver for the OCP Multipath Reliable Connection transport");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("mrc");
MODULE_ALIAS_GENL_FAMILY(MRC_GENL_NAME);
