// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Generic netlink family "mrc". Devices are reported in the namespace of
 * their netdev, so `ip netns exec nsA mrc-ip dev show` lists nsA's only.
 */
#include <net/genetlink.h>
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "engine/mrc_dev.h"
#include "net/mrc_net.h"
#include "core/mrc_link_params.h"
#include "uapi/mrc-genl.h"

static const struct nla_policy mrc_genl_policy[MRC_ATTR_MAX + 1] = {
	[MRC_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				.len = IB_DEVICE_NAME_MAX - 1 },
};

static struct genl_family mrc_genl_family;

static int mrc_genl_fill_dev(struct sk_buff *skb, struct mrc_dev *mdev,
			     u32 portid, u32 seq, int flags)
{
	struct net_device *ndev = mdev->ndev;
	void *hdr;
	u8 state;

	hdr = genlmsg_put(skb, portid, seq, &mrc_genl_family, flags,
			  MRC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;

	state = mrc_net_port_active(ndev) ? MRC_PORT_STATE_ACTIVE :
					    MRC_PORT_STATE_DOWN;
	if (nla_put_string(skb, MRC_ATTR_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(skb, MRC_ATTR_DEV_INDEX, mdev->ib_dev.index) ||
	    nla_put_string(skb, MRC_ATTR_NETDEV_NAME, netdev_name(ndev)) ||
	    nla_put_u32(skb, MRC_ATTR_NETDEV_IFINDEX, ndev->ifindex) ||
	    nla_put_u16(skb, MRC_ATTR_UDP_PORT, mdev->udp_port) ||
	    nla_put_u8(skb, MRC_ATTR_PORT_STATE, state) ||
	    nla_put_u32(skb, MRC_ATTR_ACTIVE_MTU,
			mrc_payload_mtu(READ_ONCE(ndev->mtu)))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int mrc_genl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[MRC_ATTR_DEV_NAME];
	struct mrc_dev *mdev;
	struct sk_buff *msg;
	int err;

	if (!name_attr) {
		NL_SET_ERR_MSG(info->extack, "MRC device name is required");
		return -EINVAL;
	}
	mdev = mrc_dev_get_by_name(nla_data(name_attr));
	if (!mdev || !net_eq(dev_net(mdev->ndev), genl_info_net(info))) {
		NL_SET_ERR_MSG_ATTR(info->extack, name_attr,
				    "no MRC device with this name in this namespace");
		err = -ENODEV;
		goto out_put;
	}

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
	ib_device_put(&mdev->ib_dev);
	return genlmsg_reply(msg, info);

out_put:
	if (mdev)
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

static int mrc_genl_dev_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
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

static const struct genl_small_ops mrc_genl_ops[] = {
	{
		.cmd = MRC_CMD_DEV_GET,
		.doit = mrc_genl_dev_get_doit,
		.dumpit = mrc_genl_dev_get_dumpit,
	},
};

static struct genl_family mrc_genl_family __ro_after_init = {
	.name = MRC_GENL_NAME,
	.version = MRC_GENL_VERSION,
	.maxattr = MRC_ATTR_MAX,
	.policy = mrc_genl_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.small_ops = mrc_genl_ops,
	.n_small_ops = ARRAY_SIZE(mrc_genl_ops),
	.resv_start_op = MRC_CMD_DEV_GET + 1,
};

/**
 * mrc_genl_init() - register the "mrc" generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_init(void)
{
	return genl_register_family(&mrc_genl_family);
}

/**
 * mrc_genl_exit() - unregister the family
 */
void mrc_genl_exit(void)
{
	genl_unregister_family(&mrc_genl_family);
}
