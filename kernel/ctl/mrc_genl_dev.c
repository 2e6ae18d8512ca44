// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * DEV_GET and DEV_SET: a device as the control plane sees it (its netdev,
 * limits, capabilities, default profiles, port state) and the changes
 * an administrator makes to it. Devices are reported in the namespace of
 * their netdev, so `ip netns exec nsA mrc-ip dev show` lists nsA's only.
 */
#include <linux/rtnetlink.h>
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "core/mrc_ev.h"

/* OCP's optional features this implementation has. */
#define MRC_CTL_CAPS	(MRC_CAP_EV_EVENT | MRC_CAP_EV_EVENT_PRECISE_DROP_CNT | \
			 MRC_CAP_EP_OP_EV_PROBE)

static int mrc_genl_put_limits(struct sk_buff *skb)
{
	struct nlattr *nest = nla_nest_start(skb, MRC_ATTR_DEV_LIMITS);

	if (!nest ||
	    nla_put_u32(skb, MRC_LIMIT_FMT_PROFILES, MRC_FMT_PROFILES_MAX) ||
	    nla_put_u32(skb, MRC_LIMIT_EV_PROFILES, MRC_EV_PROFILES_MAX) ||
	    nla_put_u32(skb, MRC_LIMIT_EV_PER_PROFILE, MRC_EV_COUNT_MAX) ||
	    nla_put_u32(skb, MRC_LIMIT_EV_COUNT_ALIGN, 1) ||
	    nla_put_u32(skb, MRC_LIMIT_EV_WIDTH, 32) ||
	    nla_put_u32(skb, MRC_LIMIT_EV_OP_ENTRIES, MRC_EV_COUNT_MAX) ||
	    nla_put_u32(skb, MRC_LIMIT_CC_PROFILES, MRC_CC_PROFILES_MAX) ||
	    nla_put_u32(skb, MRC_LIMIT_PORT_MASK, BIT(0)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* Device attributes that need the control state; ctl->lock is held. */
static int mrc_genl_put_ctl(struct sk_buff *skb, struct mrc_ctl_dev *ctl)
{
	if (nla_put_u32(skb, MRC_ATTR_CTL_API_VERSION, MRC_CTL_API_VERSION) ||
	    mrc_genl_put_limits(skb) ||
	    nla_put_u32(skb, MRC_ATTR_DEV_CAPS, MRC_CTL_CAPS) ||
	    nla_put_u32(skb, MRC_ATTR_DEV_FMT_MODES, BIT(MRC_FMT_STEV) |
			BIT(MRC_FMT_SRV6) | BIT(MRC_FMT_UDP)) ||
	    nla_put_u32(skb, MRC_ATTR_DEV_EV_MODES, BIT(MRC_EV_MODE_AUTO) |
			BIT(MRC_EV_MODE_EXPLICIT) | BIT(MRC_EV_MODE_GENERATED)) ||
	    mrc_genl_ccprof_put_algs(skb) ||
	    nla_put_u64_64bit(skb, MRC_ATTR_DEV_DEFAULT_EVPROF,
			      ctl->default_evp, MRC_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, MRC_ATTR_DEV_DEFAULT_CCPROF,
			      ctl->default_ccp, MRC_ATTR_PAD) ||
	    nla_put_u8(skb, MRC_ATTR_PORT_ADMIN, ctl->port_admin))
		return -EMSGSIZE;
	return 0;
}

static int mrc_genl_fill_dev(struct sk_buff *skb, struct mrc_dev *mdev,
			     u32 portid, u32 seq, int flags)
{
	struct net_device *ndev = mdev->ndev;
	void *hdr;
	u8 state;
	int err;

	hdr = mrc_genlmsg_put(skb, portid, seq, flags, MRC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;

	state = mrc_port_is_up(mdev) ? MRC_PORT_STATE_ACTIVE :
				       MRC_PORT_STATE_DOWN;
	mutex_lock(&mdev->ctl->lock);
	err = mrc_genl_put_ctl(skb, mdev->ctl);
	mutex_unlock(&mdev->ctl->lock);
	if (err || mrc_genl_put_dev(skb, mdev) ||
	    nla_put_string(skb, MRC_ATTR_NETDEV_NAME, netdev_name(ndev)) ||
	    nla_put_u32(skb, MRC_ATTR_NETDEV_IFINDEX, ndev->ifindex) ||
	    nla_put_u16(skb, MRC_ATTR_UDP_PORT, mdev->udp_port) ||
	    nla_put_u8(skb, MRC_ATTR_PORT_STATE, state) ||
	    nla_put_u32(skb, MRC_ATTR_ACTIVE_MTU, mrc_port_active_mtu(mdev))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * mrc_genl_dev_get_doit() - DEV_GET of one device
 * @skb: the request
 * @info: names the device
 *
 * Return: 0 (the reply is sent) or a negative errno.
 */
int mrc_genl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	int err;

	mdev = mrc_genl_dev_get(info->attrs, genl_info_net(info), info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		err = -ENOMEM;
		goto out_put;
	}
	err = mrc_genl_fill_dev(msg, mdev, info->snd_portid, info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		goto out_put;
	}
	err = genlmsg_reply(msg, info);
out_put:
	ib_device_put(&mdev->ib_dev);
	return err;
}

struct mrc_genl_dump_ctx {
	struct sk_buff *skb;
	struct netlink_callback *cb;
};

static int mrc_genl_dump_one(struct mrc_dev *mdev, void *arg)
{
	struct mrc_genl_dump_ctx *ctx = arg;

	return mrc_genl_fill_dev(ctx->skb, mdev,
				 NETLINK_CB(ctx->cb->skb).portid,
				 ctx->cb->nlh->nlmsg_seq, NLM_F_MULTI);
}

/**
 * mrc_genl_dev_get_dumpit() - DEV_GET of every device in the namespace
 * @skb: the message being filled
 * @cb: args[0] is the position in the device list
 *
 * Return: the length filled, 0 when done, or a negative errno.
 */
int mrc_genl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct mrc_genl_dump_ctx ctx = { .skb = skb, .cb = cb };
	long pos = cb->args[0];
	int err;

	err = mrc_dev_for_each(sock_net(skb->sk), &pos, mrc_genl_dump_one,
			       &ctx);
	cb->args[0] = pos;
	/* A full skb ends this round; the next one resumes at @pos. */
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ? err : skb->len;
}

static int mrc_genl_check_default(const struct mrc_prof_kind *kind,
				  struct mrc_ctl_dev *ctl, struct nlattr *attr,
				  struct netlink_ext_ack *extack)
{
	struct mrc_prof *prof;

	if (!attr)
		return 0;
	prof = mrc_prof_find(kind, ctl, nla_get_u64(attr));
	if (!prof) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "no profile with this id");
		return -ENOENT;
	}
	if (prof->state != MRC_PROF_ONLINE) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "a default profile must be ONLINE");
		return -EINVAL;
	}
	return 0;
}

/**
 * mrc_genl_dev_set_doit() - DEV_SET: default profiles, port admin state
 * @skb: the request
 * @info: names the device and what changes; all of it or nothing
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *evp = info->attrs[MRC_ATTR_DEV_DEFAULT_EVPROF];
	struct nlattr *ccp = info->attrs[MRC_ATTR_DEV_DEFAULT_CCPROF];
	struct nlattr *admin = info->attrs[MRC_ATTR_PORT_ADMIN];
	struct mrc_ctl_dev *ctl;
	struct mrc_dev *mdev;
	int err = 0;

	if (!evp && !ccp && !admin) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to change: give a default EV or CC profile or a port state");
		return -EINVAL;
	}
	mdev = mrc_genl_dev_get(info->attrs, genl_info_net(info), info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	ctl = mdev->ctl;
	/* The port's state changes under RTNL, as the netdev notifier's. */
	if (admin)
		rtnl_lock();
	mutex_lock(&ctl->lock);
	err = mrc_genl_check_default(&mrc_evprof_kind, ctl, evp, info->extack);
	if (!err)
		err = mrc_genl_check_default(&mrc_ccprof_kind, ctl, ccp,
					     info->extack);
	if (!err) {
		if (evp)
			ctl->default_evp = nla_get_u64(evp);
		if (ccp)
			ctl->default_ccp = nla_get_u64(ccp);
		if (admin) {
			ctl->port_admin = nla_get_u8(admin);
			WRITE_ONCE(mdev->port_disabled, ctl->port_admin ==
				   MRC_PORT_ADMIN_DISABLED);
			mrc_port_update(mdev);
		}
		mrc_genl_gen_bump();
	}
	mutex_unlock(&ctl->lock);
	if (admin)
		rtnl_unlock();
	ib_device_put(&mdev->ib_dev);
	return err;
}
