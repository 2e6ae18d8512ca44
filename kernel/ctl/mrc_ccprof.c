// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CC profiles: a congestion control algorithm by name and its parameters.
 * "mrc-window" is the algorithm QPs run today; its parameters default to
 * core/mrc_cwnd.h's constants. "uet-1.0-nscc" (OCP's one common name) is
 * stored and validated so controllers can be written against it, but
 * cannot go ONLINE until NSCC is implemented. OCP gives NSCC's parameters
 * types and units but no ranges; the ranges here are ours (control-plane.rst).
 */
#include <linux/string.h>

#include "ctl/mrc_prof.h"
#include "core/mrc_cwnd.h"

#define MRC_CC_ALG_NAME_MAX	32
/* The window's queueing-delay target in ns (the core counts 1.024 us). */
#define MRC_CC_WIN_QDELAY_DEFAULT_NS	(MRC_CWND_QDELAY_TARGET_TS * 1024U)

static const char * const mrc_cc_alg_names[MRC_CC_ALG_COUNT] = {
	[MRC_CC_ALG_WINDOW] = "mrc-window",
	[MRC_CC_ALG_NSCC] = "uet-1.0-nscc",
};

/* Which algorithm each parameter belongs to, and its default. */
struct mrc_cc_param_desc {
	u8 alg;
	u32 def;
};

static const struct mrc_cc_param_desc mrc_cc_params[__MRC_CC_MAX] = {
	[MRC_CC_NSCC_DISABLE_QA] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_ADJUST_BYTES] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_ADJUST_PERIOD_NS] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_BASE_RTT_NS] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_ETA_Q16] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_FI_Q16] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_FI_SCALE_Q16] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_GAMMA_Q16] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_MAX_MD_JUMP_Q16] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_MAX_CWND] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_QA_GATE] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_QA_THRESHOLD_NS] = { MRC_CC_ALG_NSCC },
	[MRC_CC_NSCC_TARGET_DELAY_NS] = { MRC_CC_ALG_NSCC },
	[MRC_CC_WIN_INIT_PKTS] = { MRC_CC_ALG_WINDOW, MRC_CWND_INIT },
	[MRC_CC_WIN_MIN_PKTS] = { MRC_CC_ALG_WINDOW, MRC_CWND_MIN },
	[MRC_CC_WIN_QDELAY_TARGET_NS] = { MRC_CC_ALG_WINDOW,
					  MRC_CC_WIN_QDELAY_DEFAULT_NS },
};

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
	[MRC_CC_NSCC_QA_GATE] = { .type = NLA_U8 },
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

static bool mrc_cc_param_is_u8(int type)
{
	return type == MRC_CC_NSCC_DISABLE_QA || type == MRC_CC_NSCC_QA_GATE;
}

static void mrc_ccprof_set_alg(struct mrc_ccprof *cc, u8 alg)
{
	int i;

	cc->alg = alg;
	for (i = 0; i < __MRC_CC_MAX; i++)
		cc->param[i] = mrc_cc_params[i].alg == alg ?
			       mrc_cc_params[i].def : 0;
}

static int mrc_ccprof_parse_alg(struct mrc_ccprof *cc,
				const struct nlattr *attr,
				struct netlink_ext_ack *extack)
{
	int alg = match_string(mrc_cc_alg_names, MRC_CC_ALG_COUNT,
			       nla_data(attr));

	if (alg < 0) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "unknown congestion control algorithm (known: mrc-window, uet-1.0-nscc)");
		return -EINVAL;
	}
	if (cc->p.state == MRC_PROF_INIT || alg != cc->alg)
		mrc_ccprof_set_alg(cc, alg);
	return 0;
}

static int mrc_ccprof_parse_params(struct mrc_ccprof *cc,
				   const struct nlattr *params,
				   struct netlink_ext_ack *extack)
{
	const struct nlattr *attr;
	int rem;

	if (cc->p.state == MRC_PROF_INIT) {
		NL_SET_ERR_MSG_ATTR(extack, params,
				    "parameters need an algorithm: set alg first");
		return -EINVAL;
	}
	/* The policy already checked types and ranges. */
	nla_for_each_nested(attr, params, rem) {
		int type = nla_type(attr);

		if (mrc_cc_params[type].alg != cc->alg ||
		    (!mrc_cc_params[type].def && cc->alg == MRC_CC_ALG_WINDOW)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "parameter belongs to another algorithm");
			return -EINVAL;
		}
		cc->param[type] = mrc_cc_param_is_u8(type) ? nla_get_u8(attr) :
							      nla_get_u32(attr);
	}
	if (cc->alg == MRC_CC_ALG_WINDOW &&
	    cc->param[MRC_CC_WIN_MIN_PKTS] > cc->param[MRC_CC_WIN_INIT_PKTS]) {
		NL_SET_ERR_MSG_ATTR(extack, params,
				    "minimum window is larger than the initial window");
		return -EINVAL;
	}
	return 0;
}

/**
 * mrc_ccprof_parse() - apply a request's MRC_ATTR_CCPROF to a CC profile
 * @ctl: the device's control state, locked
 * @prof: a private copy of the profile
 * @attrs: the request's top-level attributes
 * @extack: names the attribute at fault
 *
 * Return: 0 or a negative errno.
 */
int mrc_ccprof_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
		     struct nlattr **attrs, struct netlink_ext_ack *extack)
{
	struct mrc_ccprof *cc = container_of(prof, struct mrc_ccprof, p);
	struct nlattr *tb[MRC_CCPROF_MAX + 1];
	struct nlattr *nest = attrs[MRC_ATTR_CCPROF];
	int err;

	if (!nest)
		return 0;
	/* Validated by the op's policy (NLA_POLICY_NESTED). */
	err = nla_parse_nested(tb, MRC_CCPROF_MAX, nest, mrc_ccprof_policy,
			       extack);
	if (err)
		return err;
	if (tb[MRC_CCPROF_ALG]) {
		if (prof->state == MRC_PROF_ONLINE) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_CCPROF_ALG],
					    "profile is ONLINE: take it offline to change it");
			return -EBUSY;
		}
		err = mrc_ccprof_parse_alg(cc, tb[MRC_CCPROF_ALG], extack);
		if (err)
			return err;
		if (prof->state == MRC_PROF_INIT)
			prof->state = MRC_PROF_OFFLINE;
	}
	if (tb[MRC_CCPROF_PARAMS]) {
		if (prof->state == MRC_PROF_ONLINE) {
			NL_SET_ERR_MSG_ATTR(extack, tb[MRC_CCPROF_PARAMS],
					    "profile is ONLINE: take it offline to change it");
			return -EBUSY;
		}
		err = mrc_ccprof_parse_params(cc, tb[MRC_CCPROF_PARAMS],
					      extack);
	}
	return err;
}

/* Whether QPs can run @alg, so a profile of it may go ONLINE. */
static bool mrc_cc_alg_runnable(u8 alg)
{
	return alg != MRC_CC_ALG_NSCC;
}

static int mrc_ccprof_can_online(const struct mrc_prof *prof,
				 const char **why)
{
	const struct mrc_ccprof *cc = container_of(prof, struct mrc_ccprof, p);

	if (!mrc_cc_alg_runnable(cc->alg)) {
		*why = "uet-1.0-nscc is not implemented yet";
		return -EOPNOTSUPP;
	}
	return 0;
}

/**
 * mrc_ccprof_put_algs() - MRC_ATTR_DEV_CC_ALGS: the algorithms a CC
 * profile may name, each flagged MRC_ATTR_CC_ALG_RUNNABLE if QPs run it
 * @skb: the DEV_GET reply
 *
 * Each MRC_ATTR_CC_ALG_ENTRY carries the name as a CC profile does, in
 * an MRC_ATTR_CCPROF nest (MRC_CCPROF_ALG).
 *
 * Return: 0 or -EMSGSIZE.
 */
int mrc_ccprof_put_algs(struct sk_buff *skb)
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
		    nla_put_string(skb, MRC_CCPROF_ALG, mrc_cc_alg_names[alg]))
			return -EMSGSIZE;
		nla_nest_end(skb, name);
		if (mrc_cc_alg_runnable(alg) &&
		    nla_put_flag(skb, MRC_ATTR_CC_ALG_RUNNABLE))
			return -EMSGSIZE;
		nla_nest_end(skb, entry);
	}
	nla_nest_end(skb, list);
	return 0;
}

static void mrc_ccprof_reset(struct mrc_prof *prof)
{
	struct mrc_ccprof *cc = container_of(prof, struct mrc_ccprof, p);

	cc->alg = 0;
	memset(cc->param, 0, sizeof(cc->param));
}

/**
 * mrc_ccprof_fill() - put a CC profile's MRC_ATTR_CCPROF nest into a reply
 * @skb: the reply
 * @ctl: the device's control state, locked
 * @prof: the profile
 *
 * Return: 0 or -EMSGSIZE. A profile in INIT has no nest.
 */
int mrc_ccprof_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
		    const struct mrc_prof *prof)
{
	const struct mrc_ccprof *cc = container_of(prof, struct mrc_ccprof, p);
	struct nlattr *nest, *params;
	int i, err = 0;

	if (prof->state == MRC_PROF_INIT)
		return 0;
	nest = nla_nest_start(skb, MRC_ATTR_CCPROF);
	if (!nest || nla_put_string(skb, MRC_CCPROF_ALG,
				    mrc_cc_alg_names[cc->alg]))
		return -EMSGSIZE;
	params = nla_nest_start(skb, MRC_CCPROF_PARAMS);
	if (!params)
		return -EMSGSIZE;
	for (i = 1; i < __MRC_CC_MAX && !err; i++) {
		if (mrc_cc_params[i].alg != cc->alg ||
		    (!mrc_cc_params[i].def && cc->alg == MRC_CC_ALG_WINDOW))
			continue;
		err = mrc_cc_param_is_u8(i) ? nla_put_u8(skb, i, cc->param[i]) :
					      nla_put_u32(skb, i, cc->param[i]);
	}
	if (err)
		return -EMSGSIZE;
	nla_nest_end(skb, params);
	nla_nest_end(skb, nest);
	return 0;
}

static int mrc_ccprof_busy(struct mrc_ctl_dev *ctl,
			   const struct mrc_prof *prof, const char **why)
{
	if (ctl->default_ccp == prof->id) {
		*why = "CC profile is the device default: make another the default first";
		return -EBUSY;
	}
	if (prof->nusers) {
		*why = "CC profile is in use by QPs";
		return -EBUSY;
	}
	return 0;
}

static struct xarray *mrc_ccprof_xa(struct mrc_ctl_dev *ctl)
{
	return &ctl->ccp_xa;
}

const struct mrc_prof_kind mrc_ccprof_kind = {
	.name = "CC profile",
	.max = MRC_CC_PROFILES_MAX,
	.size = sizeof(struct mrc_ccprof),
	.xa = mrc_ccprof_xa,
	.can_online = mrc_ccprof_can_online,
	.reset = mrc_ccprof_reset,
	.qp_users = MRC_PROF_QP_CC,
	.busy = mrc_ccprof_busy,
};

/**
 * mrc_ccprof_builtin() - make profile 0: mrc-window with its defaults, ONLINE
 * @cc: a zeroed profile
 */
void mrc_ccprof_builtin(struct mrc_ccprof *cc)
{
	cc->p.id = 0;
	mrc_ccprof_set_alg(cc, MRC_CC_ALG_WINDOW);
	cc->p.state = MRC_PROF_ONLINE;
}
