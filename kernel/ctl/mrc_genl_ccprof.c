// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The netlink side of CC profiles: their policies (the parameters'
 * ranges, which OCP leaves to us for NSCC: control-plane.rst), a request's
 * MRC_ATTR_CCPROF applied through mrc_ccprof.c's functions with extack on
 * the attribute at fault, and a profile or the known algorithms put into
 * replies.
 */
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"

#define MRC_CC_ALG_NAME_MAX	32

static struct netlink_range_validation mrc_cc_u32_any = {
	.min = 1, .max = U32_MAX,
};

static struct netlink_range_validation mrc_cc_bytes = {
	.min = 1, .max = 1U << 31,
};

static struct netlink_range_validation mrc_cc_cwnd_bytes = {
	.min = 4096, .max = 1U << 31,
};

static struct netlink_range_validation mrc_cc_q16_positive = {
	.min = 1, .max = (1U << 31) - 1,
};

static struct netlink_range_validation mrc_cc_q16_unit = {
	.min = 1, .max = 1U << 16,
};

static struct netlink_range_validation mrc_cc_win_pkts = {
	.min = 1, .max = 65536,
};

static struct netlink_range_validation mrc_cc_win_qdelay = {
	.min = 1000, .max = 1000000000,
};

static const struct nla_policy mrc_cc_param_policy[MRC_CC_MAX + 1] = {
	[MRC_CC_NSCC_DISABLE_QA] = NLA_POLICY_MAX(NLA_U8, 1),
	[MRC_CC_NSCC_ADJUST_BYTES] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &mrc_cc_bytes),
	[MRC_CC_NSCC_ADJUST_PERIOD_NS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							       &mrc_cc_u32_any),
	[MRC_CC_NSCC_BASE_RTT_NS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &mrc_cc_u32_any),
	[MRC_CC_NSCC_ETA_Q16] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &mrc_cc_q16_positive),
	[MRC_CC_NSCC_FI_Q16] = NLA_POLICY_FULL_RANGE(NLA_U32,
						     &mrc_cc_q16_positive),
	[MRC_CC_NSCC_FI_SCALE_Q16] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &mrc_cc_q16_positive),
	[MRC_CC_NSCC_GAMMA_Q16] = NLA_POLICY_FULL_RANGE(NLA_U32,
							&mrc_cc_q16_unit),
	[MRC_CC_NSCC_MAX_MD_JUMP_Q16] = NLA_POLICY_FULL_RANGE(NLA_U32,
							      &mrc_cc_q16_unit),
	[MRC_CC_NSCC_MAX_CWND] = NLA_POLICY_FULL_RANGE(NLA_U32,
						       &mrc_cc_cwnd_bytes),
	[MRC_CC_NSCC_QA_GATE] = NLA_POLICY_MAX(NLA_U8, 31),
	[MRC_CC_NSCC_QA_THRESHOLD_NS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							      &mrc_cc_u32_any),
	[MRC_CC_NSCC_TARGET_DELAY_NS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							      &mrc_cc_u32_any),
	[MRC_CC_WIN_INIT_PKTS] = NLA_POLICY_FULL_RANGE(NLA_U32,
						       &mrc_cc_win_pkts),
	[MRC_CC_WIN_MIN_PKTS] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &mrc_cc_win_pkts),
	[MRC_CC_WIN_QDELAY_TARGET_NS] = NLA_POLICY_FULL_RANGE(NLA_U32,
							      &mrc_cc_win_qdelay),
};

const struct nla_policy mrc_ccprof_policy[MRC_CCPROF_MAX + 1] = {
	[MRC_CCPROF_ALG] = { .type = NLA_NUL_STRING,
			     .len = MRC_CC_ALG_NAME_MAX - 1 },
	[MRC_CCPROF_PARAMS] = NLA_POLICY_NESTED(mrc_cc_param_policy),
};

static int mrc_genl_ccprof_params(struct mrc_ccprof *cc,
				  const struct nlattr *params,
				  struct netlink_ext_ack *extack)
{
	const struct nlattr *attr;
	const char *why = NULL;
	int err, rem;

	err = mrc_ccprof_may_set_params(cc, &why);
	if (err)
		goto refused;
	/* The policy already checked types and ranges. */
	nla_for_each_nested(attr, params, rem) {
		int type = nla_type(attr);
		u32 val = mrc_ccprof_param_is_u8(type) ? nla_get_u8(attr) :
							 nla_get_u32(attr);

		err = mrc_ccprof_set_param(cc, type, val, &why);
		if (err) {
			mrc_genl_set_why(extack, attr, why);
			return err;
		}
	}
	err = mrc_ccprof_check_params(cc, &why);
refused:
	if (err)
		mrc_genl_set_why(extack, params, why);
	return err;
}

/**
 * mrc_genl_ccprof_parse() - apply a request's MRC_ATTR_CCPROF
 * @ctl: the device's control state, locked
 * @prof: a private copy of the CC profile
 * @attrs: the request's top-level attributes
 * @extack: names the attribute at fault
 *
 * Return: 0 or a negative errno.
 */
int mrc_genl_ccprof_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			  struct nlattr **attrs, struct netlink_ext_ack *extack)
{
	struct mrc_ccprof *cc = container_of(prof, struct mrc_ccprof, p);
	struct nlattr *tb[MRC_CCPROF_MAX + 1];
	struct nlattr *nest = attrs[MRC_ATTR_CCPROF];
	const char *why = NULL;
	int err;

	if (!nest)
		return 0;
	/* Validated by the op's policy (NLA_POLICY_NESTED). */
	err = nla_parse_nested(tb, MRC_CCPROF_MAX, nest, mrc_ccprof_policy,
			       extack);
	if (err)
		return err;
	if (tb[MRC_CCPROF_ALG]) {
		err = mrc_ccprof_choose_alg(cc, nla_data(tb[MRC_CCPROF_ALG]),
					    &why);
		if (err) {
			mrc_genl_set_why(extack, tb[MRC_CCPROF_ALG], why);
			return err;
		}
	}
	if (tb[MRC_CCPROF_PARAMS])
		err = mrc_genl_ccprof_params(cc, tb[MRC_CCPROF_PARAMS], extack);
	return err;
}

/**
 * mrc_genl_ccprof_fill() - put a CC profile's MRC_ATTR_CCPROF nest
 * @skb: the reply
 * @ctl: the device's control state, locked
 * @prof: the profile
 *
 * Return: 0 or -EMSGSIZE. A profile in INIT has no nest.
 */
int mrc_genl_ccprof_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
			 const struct mrc_prof *prof)
{
	const struct mrc_ccprof *cc = container_of(prof, struct mrc_ccprof, p);
	struct nlattr *nest, *params;
	int i, err = 0;

	if (prof->state == MRC_PROF_INIT)
		return 0;
	nest = nla_nest_start(skb, MRC_ATTR_CCPROF);
	if (!nest || nla_put_string(skb, MRC_CCPROF_ALG,
				    mrc_ccprof_alg_name(cc->alg)))
		return -EMSGSIZE;
	params = nla_nest_start(skb, MRC_CCPROF_PARAMS);
	if (!params)
		return -EMSGSIZE;
	for (i = 1; i < __MRC_CC_MAX && !err; i++) {
		if (!mrc_ccprof_has_param(cc->alg, i))
			continue;
		err = mrc_ccprof_param_is_u8(i) ?
		      nla_put_u8(skb, i, cc->param[i]) :
		      nla_put_u32(skb, i, cc->param[i]);
	}
	if (err)
		return -EMSGSIZE;
	nla_nest_end(skb, params);
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * mrc_genl_ccprof_put_algs() - MRC_ATTR_DEV_CC_ALGS: the algorithms a CC
 * profile may name, each flagged MRC_ATTR_CC_ALG_RUNNABLE if QPs run it
 * @skb: the DEV_GET reply
 *
 * Each MRC_ATTR_CC_ALG_ENTRY carries the name as a CC profile does, in
 * an MRC_ATTR_CCPROF nest (MRC_CCPROF_ALG).
 *
 * Return: 0 or -EMSGSIZE.
 */
int mrc_genl_ccprof_put_algs(struct sk_buff *skb)
{
	struct nlattr *list, *entry, *name;
	u8 alg;

	list = nla_nest_start(skb, MRC_ATTR_DEV_CC_ALGS);
	if (!list)
		return -EMSGSIZE;
	for (alg = 0; alg < MRC_CC_ALG_COUNT; alg++) {
		entry = nla_nest_start(skb, MRC_ATTR_CC_ALG_ENTRY);
		if (!entry)
			return -EMSGSIZE;
		name = nla_nest_start(skb, MRC_ATTR_CCPROF);
		if (!name ||
		    nla_put_string(skb, MRC_CCPROF_ALG, mrc_ccprof_alg_name(alg)))
			return -EMSGSIZE;
		nla_nest_end(skb, name);
		if (mrc_ccprof_alg_runnable(alg) &&
		    nla_put_flag(skb, MRC_ATTR_CC_ALG_RUNNABLE))
			return -EMSGSIZE;
		nla_nest_end(skb, entry);
	}
	nla_nest_end(skb, list);
	return 0;
}
