// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Generic netlink family "mrc": its commands, their policies and
 * permissions, and how a request names a device (always in the caller's
 * namespace: a device belongs to its netdev's).
 */
#include <net/genetlink.h>
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_dev.h"
#include "engine/mrc_obj.h"
#include "uapi/mrc-genl.h"

static const struct nla_policy mrc_genl_policy[MRC_ATTR_MAX + 1] = {
	[MRC_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,
				.len = IB_DEVICE_NAME_MAX - 1 },
	[MRC_ATTR_DEV_INDEX] = { .type = NLA_U32 },
};

/* Every command names a device the same way; each adds its own. */
#define MRC_GENL_DEV_POLICY						\
	[MRC_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING,			\
				.len = IB_DEVICE_NAME_MAX - 1 },	\
	[MRC_ATTR_DEV_INDEX] = { .type = NLA_U32 }

/* Who may create QPs on a profile: EV and CC profiles, not formats. */
#define MRC_GENL_ACCESS_POLICY						\
	[MRC_ATTR_PROF_ACCESS] = NLA_POLICY_MAX(NLA_U8,			\
						MRC_PROF_ACCESS_GROUP),	\
	[MRC_ATTR_PROF_ACCESS_GID] = { .type = NLA_U32 }

static const struct nla_policy mrc_genl_dev_set_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_DEV_DEFAULT_EVPROF] = { .type = NLA_U64 },
	[MRC_ATTR_DEV_DEFAULT_CCPROF] = { .type = NLA_U64 },
	[MRC_ATTR_PORT_ADMIN] = NLA_POLICY_MAX(NLA_U8, MRC_PORT_ADMIN_ENABLED),
};

static const struct nla_policy mrc_genl_evfmt_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_PROF_ID] = { .type = NLA_U64 },
	[MRC_ATTR_PROF_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_PROF_ONLINE),
	[MRC_ATTR_EVFMT] = NLA_POLICY_NESTED(mrc_evfmt_policy),
};

static const struct nla_policy mrc_genl_evprof_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_PROF_ID] = { .type = NLA_U64 },
	[MRC_ATTR_PROF_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_PROF_ONLINE),
	[MRC_ATTR_EVPROF] = NLA_POLICY_NESTED(mrc_evprof_policy),
	[MRC_ATTR_EVS] = NLA_POLICY_NESTED_ARRAY(mrc_ev_entry_policy),
	MRC_GENL_ACCESS_POLICY,
};

static const struct nla_policy mrc_genl_ev_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_PROF_ID] = { .type = NLA_U64 },
	[MRC_ATTR_EV_OP] = NLA_POLICY_MAX(NLA_U8, MRC_EV_OP_SET_STATE),
	[MRC_ATTR_EVS] = NLA_POLICY_NESTED_ARRAY(mrc_ev_entry_policy),
	[MRC_ATTR_WANT_STATS] = { .type = NLA_FLAG },
};

static const struct nla_policy mrc_genl_ccprof_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_PROF_ID] = { .type = NLA_U64 },
	[MRC_ATTR_PROF_STATE] = NLA_POLICY_MAX(NLA_U8, MRC_PROF_ONLINE),
	[MRC_ATTR_CCPROF] = NLA_POLICY_NESTED(mrc_ccprof_policy),
	MRC_GENL_ACCESS_POLICY,
};

static const struct nla_policy mrc_genl_stats_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_PROF_ID] = { .type = NLA_U64 },
};

/*
 * Not const: 6.1's NLA_POLICY_FULL_RANGE() takes a plain pointer. QPNs
 * are 24 bits: 1 is the GSI QP, the others come from MRC_MIN_QPN up, and
 * 0xffffff is the endpoint's (probes), never a QP's.
 */
static struct netlink_range_validation mrc_genl_qpn_range = {
	.min = 1,
	.max = MRC_QPN_LIMIT,
};

static const struct nla_policy mrc_genl_qp_ev_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_QPN] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_genl_qpn_range),
};

static const struct nla_policy mrc_genl_qp_bind_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_QPN] = NLA_POLICY_FULL_RANGE(NLA_U32, &mrc_genl_qpn_range),
	[MRC_ATTR_QP_EVPROF] = { .type = NLA_U64 },
	[MRC_ATTR_QP_CCPROF] = { .type = NLA_U64 },
	[MRC_ATTR_QP_MPR] = NLA_POLICY_RANGE(NLA_U8, 1, MRC_QP_MPR_MAX),
	[MRC_ATTR_QP_MPR_DEST] = NLA_POLICY_RANGE(NLA_U8, 1, MRC_QP_MPR_MAX),
};

static struct netlink_range_validation mrc_genl_probe_timeout = {
	.min = 1000ULL,			/* 1 us */
	.max = 10000000000ULL,		/* 10 s */
};

static const struct nla_policy mrc_genl_probe_policy[MRC_ATTR_MAX + 1] = {
	MRC_GENL_DEV_POLICY,
	[MRC_ATTR_PROBE_TIMEOUT_NS] =
		NLA_POLICY_FULL_RANGE(NLA_U64, &mrc_genl_probe_timeout),
	[MRC_ATTR_PROBE_TCLASS] = { .type = NLA_U8 },
	[MRC_ATTR_PROBES] = NLA_POLICY_NESTED_ARRAY(mrc_probe_entry_policy),
};

#define MRC_GENL_OP(c, pol, doit_fn, dump_fn, perm)			\
	{								\
		.cmd = (c),						\
		.policy = (pol),					\
		.maxattr = MRC_ATTR_MAX,				\
		.doit = (doit_fn),					\
		.dumpit = (dump_fn),					\
		.flags = (perm),					\
	}

/* EVPROF_EV_GET with MRC_ATTR_WANT_STATS is STATS_GET's dump. */
static int mrc_genl_ev_or_stats_dumpit(struct sk_buff *skb,
				       struct netlink_callback *cb)
{
	if (genl_dumpit_info(cb)->attrs[MRC_ATTR_WANT_STATS])
		return mrc_genl_stats_dumpit(skb, cb);
	return mrc_genl_ev_get_dumpit(skb, cb);
}

/*
 * Every change needs CAP_NET_ADMIN, but QP_BIND, which a QP's owner may
 * send too (mrc_genl_qp.c checks). Reads are open to everyone, but what
 * they say of single QPs (QP_EV_GET, a profile's list of users) only to
 * the QP's owner and the administrator (struct mrc_genl_reader). Each
 * command accepts only its own attributes, strictly validated (every
 * command after DEV_GET is at or above resv_start_op).
 */
static const struct genl_ops mrc_genl_ops[] = {
	{
		.cmd = MRC_CMD_DEV_GET,
		.doit = mrc_genl_dev_get_doit,
		.dumpit = mrc_genl_dev_get_dumpit,
	},
	MRC_GENL_OP(MRC_CMD_DEV_SET, mrc_genl_dev_set_policy,
		    mrc_genl_dev_set_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_EVFMT_GET, mrc_genl_evfmt_policy,
		    mrc_genl_prof_get_doit, mrc_genl_prof_get_dumpit, 0),
	MRC_GENL_OP(MRC_CMD_EVFMT_NEW, mrc_genl_evfmt_policy,
		    mrc_genl_prof_new_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_EVFMT_DEL, mrc_genl_evfmt_policy,
		    mrc_genl_prof_del_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_EVFMT_SET, mrc_genl_evfmt_policy,
		    mrc_genl_prof_set_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_EVPROF_GET, mrc_genl_evprof_policy,
		    mrc_genl_prof_get_doit, mrc_genl_prof_get_dumpit, 0),
	MRC_GENL_OP(MRC_CMD_EVPROF_NEW, mrc_genl_evprof_policy,
		    mrc_genl_prof_new_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_EVPROF_DEL, mrc_genl_evprof_policy,
		    mrc_genl_prof_del_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_EVPROF_SET, mrc_genl_evprof_policy,
		    mrc_genl_prof_set_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_EVPROF_EV_GET, mrc_genl_ev_policy,
		    NULL, mrc_genl_ev_or_stats_dumpit, 0),
	MRC_GENL_OP(MRC_CMD_EVPROF_EV_SET, mrc_genl_ev_policy,
		    mrc_genl_ev_set_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_CCPROF_GET, mrc_genl_ccprof_policy,
		    mrc_genl_prof_get_doit, mrc_genl_prof_get_dumpit, 0),
	MRC_GENL_OP(MRC_CMD_CCPROF_NEW, mrc_genl_ccprof_policy,
		    mrc_genl_prof_new_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_CCPROF_DEL, mrc_genl_ccprof_policy,
		    mrc_genl_prof_del_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_CCPROF_SET, mrc_genl_ccprof_policy,
		    mrc_genl_prof_set_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_QP_EV_GET, mrc_genl_qp_ev_policy,
		    NULL, mrc_genl_qp_ev_dumpit, 0),
	MRC_GENL_OP(MRC_CMD_STATS_GET, mrc_genl_stats_policy,
		    NULL, mrc_genl_stats_dumpit, 0),
	MRC_GENL_OP(MRC_CMD_PROBE, mrc_genl_probe_policy,
		    mrc_genl_probe_doit, NULL, GENL_ADMIN_PERM),
	MRC_GENL_OP(MRC_CMD_QP_BIND, mrc_genl_qp_bind_policy,
		    mrc_genl_qp_bind_doit, NULL, 0),
};

/*
 * Group 0. Every event names a QP and when its path changed, which is
 * QP-level data: joining needs CAP_NET_ADMIN over the namespace the
 * events are sent in (the device's; genl_bind() checks the joiner).
 */
static const struct genl_multicast_group mrc_genl_mcgrps[] = {
	{ .name = MRC_GENL_MCGRP_EVENTS, .flags = GENL_MCAST_CAP_NET_ADMIN },
};

/*
 * parallel_ops: requests do not take genl_mutex. Every command takes the
 * locks it needs (the device list's, ctl->lock, RTNL), and PROBE sleeps
 * up to 10 s waiting for answers, which under genl_mutex would stall
 * every other family.
 */
static struct genl_family mrc_genl_family __ro_after_init = {
	.name = MRC_GENL_NAME,
	.version = MRC_GENL_VERSION,
	.maxattr = MRC_ATTR_MAX,
	.policy = mrc_genl_policy,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = mrc_genl_ops,
	.n_ops = ARRAY_SIZE(mrc_genl_ops),
	.mcgrps = mrc_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(mrc_genl_mcgrps),
	.resv_start_op = MRC_CMD_DEV_GET + 1,
};

/**
 * mrc_genl_init() - register the "mrc" generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_init(void)
{
	int err;

	mrc_genl_req_init(&mrc_genl_family);
	err = genl_register_family(&mrc_genl_family);
	if (!err)
		mrc_ev_events_init();
	return err;
}

/**
 * mrc_genl_exit() - unregister the family
 */
void mrc_genl_exit(void)
{
	mrc_ev_events_exit();
	genl_unregister_family(&mrc_genl_family);
}
