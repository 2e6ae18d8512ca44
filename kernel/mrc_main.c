// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc: soft RDMA driver for MRC, the OCP Multipath Reliable Connection
 * transport. Module entry points and the `rdma link` type.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <rdma/rdma_netlink.h>

#include "mrc.h"
#include "mrc_net.h"
#include "uapi/mrc-genl.h"

unsigned short mrc_udp_port = MRC_DEFAULT_UDP_PORT;

static int mrc_set_udp_port(const char *val, const struct kernel_param *kp)
{
	unsigned short port;
	int err;

	err = kstrtou16(val, 0, &port);
	if (err || port == 0) {
		pr_warn("%s: invalid udp_port '%s' (want 1-65535)\n",
			MRC_DRV_NAME, val);
		return -EINVAL;
	}
	return param_set_ushort(val, kp);
}

static const struct kernel_param_ops mrc_udp_port_ops = {
	.set = mrc_set_udp_port,
	.get = param_get_ushort,
};

module_param_cb(udp_port, &mrc_udp_port_ops, &mrc_udp_port, 0444);
MODULE_PARM_DESC(udp_port, "UDP port for MRC traffic (default 4792; rxe uses 4791)");

static struct rdma_link_ops mrc_link_ops = {
	.type = MRC_DRV_NAME,
	.newlink = mrc_newlink,
};

static int __init mrc_init(void)
{
	int err;

	err = mrc_net_init();
	if (err)
		return err;

	err = mrc_genl_init();
	if (err) {
		mrc_net_exit();
		return err;
	}

	rdma_link_register(&mrc_link_ops);
	pr_info("%s: loaded, UDP port %u\n", MRC_DRV_NAME, mrc_udp_port);
	return 0;
}

static void __exit mrc_exit(void)
{
	rdma_link_unregister(&mrc_link_ops);
	ib_unregister_driver((enum rdma_driver_id)MRC_DRIVER_ID);
	mrc_genl_exit();
	mrc_net_exit();
	pr_info("%s: unloaded\n", MRC_DRV_NAME);
}

module_init(mrc_init);
module_exit(mrc_exit);

MODULE_AUTHOR("MRC for Linux developers");
MODULE_DESCRIPTION("Soft RDMA driver for the OCP Multipath Reliable Connection transport");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_ALIAS_RDMA_LINK("mrc");
MODULE_ALIAS_GENL_FAMILY(MRC_GENL_NAME);
