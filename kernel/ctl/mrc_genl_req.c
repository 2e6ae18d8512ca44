// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What every command of the family does the same way: name a device in
 * the caller's namespace, put the device into a reply, count changes so
 * that dumps can tell they were interrupted, and check an EV list.
 */
#include <linux/capability.h>
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_genl.h"
#include "engine/mrc_qp.h"
#include "core/mrc_ev.h"
#include "uapi/mrc-genl.h"

/* Set once by mrc_genl_init(), so that replies need no call up to it. */
static const struct genl_family *mrc_genl_fam;

/**
 * mrc_genl_req_init() - remember the registered family for replies
 * @family: the "mrc" family
 */
void mrc_genl_req_init(const struct genl_family *family)
{
	mrc_genl_fam = family;
}

/**
 * mrc_genlmsg_put() - start a message of the "mrc" family
 * @skb: the message buffer
 * @portid: destination port
 * @seq: sequence number of the request it answers
 * @flags: NLM_F_*
 * @cmd: the command the message carries
 *
 * Return: the user header, or NULL when @skb is full.
 */
void *mrc_genlmsg_put(struct sk_buff *skb, u32 portid, u32 seq, int flags,
		      u8 cmd)
{
	return genlmsg_put(skb, portid, seq, mrc_genl_fam, flags, cmd);
}

/**
 * mrc_genl_has_listeners() - whether anyone in @net joined "events"
 * @net: the device's namespace
 *
 * Return: true if so.
 */
bool mrc_genl_has_listeners(struct net *net)
{
	return genl_has_listeners(mrc_genl_fam, net, 0);
}

/**
 * mrc_genl_multicast() - send an event to the "events" group
 * @net: the device's namespace
 * @skb: the message (consumed)
 */
void mrc_genl_multicast(struct net *net, struct sk_buff *skb)
{
	genlmsg_multicast_netns(mrc_genl_fam, net, skb, 0, 0, GFP_KERNEL);
}

static atomic_t mrc_genl_generation = ATOMIC_INIT(1);

/**
 * mrc_genl_gen() - the control plane's change count, for dump consistency
 *
 * Return: a number that changes whenever any profile or default changes.
 */
u32 mrc_genl_gen(void)
{
	return atomic_read(&mrc_genl_generation);
}

/**
 * mrc_genl_gen_bump() - note a change, so a dump running across it is
 * flagged NLM_F_DUMP_INTR
 */
void mrc_genl_gen_bump(void)
{
	atomic_inc(&mrc_genl_generation);
}

/**
 * mrc_genl_dev_get() - the device a request names, in the caller's namespace
 * @attrs: the request's attributes (MRC_ATTR_DEV_NAME or MRC_ATTR_DEV_INDEX)
 * @net: the caller's namespace
 * @extack: says which attribute was wrong
 *
 * Return: the device with a reference held (ib_device_put() it), or an
 * ERR_PTR: -EINVAL when neither attribute is given, -ENODEV when no MRC
 * device of that name or index is in @net.
 */
struct mrc_dev *mrc_genl_dev_get(struct nlattr **attrs, struct net *net,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *name = attrs[MRC_ATTR_DEV_NAME];
	struct nlattr *index = attrs[MRC_ATTR_DEV_INDEX];
	struct nlattr *bad = name ? name : index;
	struct mrc_dev *mdev;

	if (!name && !index) {
		NL_SET_ERR_MSG(extack, "an MRC device is required (name or index)");
		return ERR_PTR(-EINVAL);
	}
	mdev = name ? mrc_dev_get_by_name(nla_data(name)) :
		      mrc_dev_get_by_index(nla_get_u32(index));
	if (mdev && index && mdev->ib_dev.index != nla_get_u32(index)) {
		ib_device_put(&mdev->ib_dev);
		NL_SET_ERR_MSG_ATTR(extack, index,
				    "device name and index name different devices");
		return ERR_PTR(-EINVAL);
	}
	if (mdev && !net_eq(dev_net(mdev->ndev), net)) {
		ib_device_put(&mdev->ib_dev);
		mdev = NULL;
	}
	if (!mdev) {
		NL_SET_ERR_MSG_ATTR(extack, bad,
				    "no MRC device with this name or index in this namespace");
		return ERR_PTR(-ENODEV);
	}
	return mdev;
}

/**
 * mrc_genl_reader_init() - who sent a request, for mrc_genl_reader_sees()
 * @rd: filled in
 * @skb: the request (a dump's cb->skb)
 * @mdev: the device it names
 *
 * The capability is CAP_NET_ADMIN over the user namespace of the
 * device's network namespace (netlink_ns_capable(): the socket's opener
 * and the caller both hold it), which is the caller's own namespace
 * since a request names only devices there. The admin of that namespace
 * can capture the device's traffic, QPNs included, so nothing it reads
 * here is more than it could see anyway. The uid comes from the
 * request's netlink credentials, which the kernel fills from the sender
 * and lets it set only to a uid it holds (real, effective or saved).
 */
void mrc_genl_reader_init(struct mrc_genl_reader *rd,
			  const struct sk_buff *skb, struct mrc_dev *mdev)
{
	rd->admin = netlink_ns_capable(skb, dev_net(mdev->ndev)->user_ns,
				       CAP_NET_ADMIN);
	rd->uid = NETLINK_CB(skb).creds.uid;
}

/**
 * mrc_genl_reader_sees() - whether a reply may name @qp or show its data
 * @rd: the sender, from mrc_genl_reader_init()
 * @qp: the QP
 *
 * Return: true for the administrator, and for the owner of a user QP
 * (whoever created it, by effective uid); a kernel QP has no owner.
 */
bool mrc_genl_reader_sees(const struct mrc_genl_reader *rd,
			  const struct mrc_qp *qp)
{
	return rd->admin || (uid_valid(qp->owner) && uid_eq(qp->owner, rd->uid));
}

/**
 * mrc_genl_put_dev() - the device's name and index, which every reply carries
 * @skb: the message
 * @mdev: the device
 *
 * Return: 0 or -EMSGSIZE.
 */
int mrc_genl_put_dev(struct sk_buff *skb, struct mrc_dev *mdev)
{
	if (nla_put_string(skb, MRC_ATTR_DEV_NAME, dev_name(&mdev->ib_dev.dev)) ||
	    nla_put_u32(skb, MRC_ATTR_DEV_INDEX, mdev->ib_dev.index))
		return -EMSGSIZE;
	return 0;
}

/**
 * mrc_ev_list_count() - check the members of a request's MRC_ATTR_EVS
 * @list: the attribute, validated by its policy (NLA_NESTED_ARRAY with
 *	mrc_ev_entry_policy: every member's content, not its type)
 * @extack: names the first member that is not an MRC_ATTR_EV_ENTRY nest,
 *	or the one past 4096
 *
 * Run before any entry applies, so that a malformed list changes nothing.
 *
 * Return: the number of members, or -EINVAL or -E2BIG.
 */
int mrc_ev_list_count(const struct nlattr *list,
		      struct netlink_ext_ack *extack)
{
	const struct nlattr *attr;
	int rem, n = 0;

	nla_for_each_nested(attr, list, rem) {
		if (nla_type(attr) != MRC_ATTR_EV_ENTRY ||
		    !(attr->nla_type & NLA_F_NESTED)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "an EV list holds MRC_ATTR_EV_ENTRY nests only");
			return -EINVAL;
		}
		if (n++ == MRC_EV_COUNT_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "more than 4096 EVs");
			return -E2BIG;
		}
	}
	return n;
}
