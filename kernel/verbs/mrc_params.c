// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Module parameters, each checked against its range when set: a bad value
 * is refused with a log line that names it.
 */
#include <linux/moduleparam.h>

#include "ctl/mrc_ctl.h"
#include "verbs/mrc_verbs.h"

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

/* ev_count, ev_min_active and qp_ev_limit are ctl/'s (mrc_ctl_qp.c). */
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

static int mrc_set_qp_ev_limit(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (kstrtouint(val, 0, &n) || !n) {
		pr_warn("%s: invalid %s '%s' (want 1-%u)\n", MRC_DRV_NAME,
			kp->name, val, UINT_MAX);
		return -EINVAL;
	}
	return param_set_uint(val, kp);
}

static const struct kernel_param_ops mrc_qp_ev_limit_ops = {
	.set = mrc_set_qp_ev_limit,
	.get = param_get_uint,
};

/*
 * Read when a QP is bound (created, or QP_BIND): a change applies to QPs
 * bound later.
 */
module_param_cb(ev_count, &mrc_ev_count_ops, &mrc_ev_count, 0644);
MODULE_PARM_DESC(ev_count, "Entropy values (paths) per QP, 1-4096 (default 64)");
module_param_cb(ev_min_active, &mrc_ev_min_active_ops, &mrc_ev_min_active, 0644);
MODULE_PARM_DESC(ev_min_active, "GOOD EVs a QP keeps while any is ASSUMED_BAD (default 8)");
module_param_cb(qp_ev_limit, &mrc_qp_ev_limit_ops, &mrc_qp_ev_limit, 0644);
MODULE_PARM_DESC(qp_ev_limit, "EVs the user QPs of one device may hold together (default 4194304)");
