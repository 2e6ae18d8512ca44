// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * mrc: soft RDMA driver for MRC, the OCP Multipath Reliable Connection
 * transport. Module entry points and the `rdma link` type.
 */
#include <linux/module.h>
#include <net/genetlink.h>
#include <rdma/rdma_netlink.h>

#include "ctl/mrc_ctl.h"
#include "verbs/mrc_verbs.h"
#include "engine/mrc_dev.h"
#include "core/mrc_ev.h"
#include "net/mrc_net.h"
#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"
#include "uapi/mrc-genl.h"

unsigned short mrc_udp_port = MRC_DEFAULT_UDP_PORT;

/* A ushort module parameter within [@min, @max]; the log names a bad value. */
static int mrc_param_set_range(const char *val, const struct kernel_param *kp,
			       u16 min, u16 max)
{
	u16 n;

	if (kstrtou16(val, 0, &n) || n < min || n > max) {
		pr_warn("%s: invalid %s '%s' (want %u-%u)\n", MRC_DRV_NAME,
			kp->name, val, min, max);
		return -EINVAL;
	}
	return param_set_ushort(val, kp);
}

static int mrc_set_udp_port(const char *val, const struct kernel_param *kp)
{
	return mrc_param_set_range(val, kp, 1, U16_MAX);
}

static const struct kernel_param_ops mrc_udp_port_ops = {
	.set = mrc_set_udp_port,
	.get = param_get_ushort,
};

module_param_cb(udp_port, &mrc_udp_port_ops, &mrc_udp_port, 0444);
MODULE_PARM_DESC(udp_port, "UDP port for MRC traffic (default 4792; rxe uses 4791)");

unsigned short mrc_ev_count = MRC_EV_COUNT_DEFAULT;
unsigned short mrc_ev_min_active = MRC_EV_MIN_ACTIVE_DEFAULT;

static int mrc_set_ev_count(const char *val, const struct kernel_param *kp)
{
	return mrc_param_set_range(val, kp, 1, MRC_EV_COUNT_MAX);
}

static const struct kernel_param_ops mrc_ev_count_ops = {
	.set = mrc_set_ev_count,
	.get = param_get_ushort,
};

static int mrc_set_ev_min_active(const char *val,
				 const struct kernel_param *kp)
{
	return mrc_param_set_range(val, kp, 0, MRC_EV_COUNT_MAX);
}

static const struct kernel_param_ops mrc_ev_min_active_ops = {
	.set = mrc_set_ev_min_active,
	.get = param_get_ushort,
};

/* Read when a QP is created: a change applies to QPs created later. */
module_param_cb(ev_count, &mrc_ev_count_ops, &mrc_ev_count, 0644);
MODULE_PARM_DESC(ev_count, "Entropy values (paths) per QP, 1-4096 (default 64)");
module_param_cb(ev_min_active, &mrc_ev_min_active_ops, &mrc_ev_min_active, 0644);
MODULE_PARM_DESC(ev_min_active, "GOOD EVs a QP keeps while any is ASSUMED_BAD (default 8)");

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

	rdma_link_register(&mrc_link_ops);
	pr_info("%s: loaded, UDP port %u\n", MRC_DRV_NAME, mrc_udp_port);
	return 0;

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
