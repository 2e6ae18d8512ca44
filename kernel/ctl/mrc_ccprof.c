// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CC profiles: a congestion control algorithm by name and its parameters.
 * "mrc-window" is the algorithm QPs run today; its parameters default to
 * core/mrc_cwnd.h's constants. "uet-1.0-nscc" (OCP's one common name) is
 * UEC's NSCC, its defaults those of core/mrc_nscc.c. OCP gives NSCC's
 * parameters types and units but no ranges; ours are mrc_genl_ccprof.c's
 * policy (control-plane.rst). This file is the model; its netlink is
 * there.
 */
#include <linux/string.h>

#include "ctl/mrc_prof.h"
#include "core/mrc_cwnd.h"
#include "core/mrc_nscc.h"

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

/**
 * mrc_ccprof_param_is_u8() - whether a parameter is a u8 (else a u32)
 * @type: enum mrc_genl_cc_param
 *
 * Return: true for the two NSCC flags.
 */
bool mrc_ccprof_param_is_u8(int type)
{
	return type == MRC_CC_NSCC_DISABLE_QA || type == MRC_CC_NSCC_QA_GATE;
}

/* Q16 fixed point of a byte count, and back, rounded. */
static u32 mrc_ccprof_q16(u32 bytes)
{
	return (u32)min_t(u64, (u64)bytes << 16, (1U << 31) - 1);
}

static u32 mrc_ccprof_from_q16(u32 q16)
{
	return (q16 + (1U << 15)) >> 16;
}

/* NSCC's defaults, in the profile's units. */
static void mrc_ccprof_nscc_defaults(struct mrc_ccprof *cc)
{
	struct mrc_nscc_params p;

	mrc_nscc_default_params(&p);
	cc->param[MRC_CC_NSCC_DISABLE_QA] = p.disable_qa;
	cc->param[MRC_CC_NSCC_ADJUST_BYTES] = p.adjust_bytes;
	cc->param[MRC_CC_NSCC_ADJUST_PERIOD_NS] = p.adjust_period_ns;
	cc->param[MRC_CC_NSCC_BASE_RTT_NS] = p.base_rtt_ns;
	cc->param[MRC_CC_NSCC_ETA_Q16] = mrc_ccprof_q16(p.eta);
	cc->param[MRC_CC_NSCC_FI_Q16] = mrc_ccprof_q16(p.fi);
	cc->param[MRC_CC_NSCC_FI_SCALE_Q16] = p.fi_scale_q16;
	cc->param[MRC_CC_NSCC_GAMMA_Q16] = p.gamma_q16;
	cc->param[MRC_CC_NSCC_MAX_MD_JUMP_Q16] = p.max_md_jump_q16;
	cc->param[MRC_CC_NSCC_MAX_CWND] = p.max_cwnd;
	cc->param[MRC_CC_NSCC_QA_GATE] = p.qa_gate;
	cc->param[MRC_CC_NSCC_QA_THRESHOLD_NS] = p.qa_threshold_ns;
	cc->param[MRC_CC_NSCC_TARGET_DELAY_NS] = p.target_ns;
}

/**
 * mrc_ccprof_nscc_params() - an NSCC profile's parameters for a QP
 * @cc: a profile of uet-1.0-nscc
 * @p: filled in; fi and eta, bytes in the profile's Q16, rounded
 */
void mrc_ccprof_nscc_params(const struct mrc_ccprof *cc,
			    struct mrc_nscc_params *p)
{
	p->disable_qa = cc->param[MRC_CC_NSCC_DISABLE_QA];
	p->adjust_bytes = cc->param[MRC_CC_NSCC_ADJUST_BYTES];
	p->adjust_period_ns = cc->param[MRC_CC_NSCC_ADJUST_PERIOD_NS];
	p->base_rtt_ns = cc->param[MRC_CC_NSCC_BASE_RTT_NS];
	p->eta = mrc_ccprof_from_q16(cc->param[MRC_CC_NSCC_ETA_Q16]);
	p->fi = mrc_ccprof_from_q16(cc->param[MRC_CC_NSCC_FI_Q16]);
	p->fi_scale_q16 = cc->param[MRC_CC_NSCC_FI_SCALE_Q16];
	p->gamma_q16 = cc->param[MRC_CC_NSCC_GAMMA_Q16];
	p->max_md_jump_q16 = cc->param[MRC_CC_NSCC_MAX_MD_JUMP_Q16];
	p->max_cwnd = cc->param[MRC_CC_NSCC_MAX_CWND];
	p->qa_gate = cc->param[MRC_CC_NSCC_QA_GATE];
	p->qa_threshold_ns = cc->param[MRC_CC_NSCC_QA_THRESHOLD_NS];
	p->target_ns = cc->param[MRC_CC_NSCC_TARGET_DELAY_NS];
}

static void mrc_ccprof_set_alg(struct mrc_ccprof *cc, u8 alg)
{
	int i;

	cc->alg = alg;
	for (i = 0; i < __MRC_CC_MAX; i++)
		cc->param[i] = mrc_cc_params[i].alg == alg ?
			       mrc_cc_params[i].def : 0;
	if (alg == MRC_CC_ALG_NSCC)
		mrc_ccprof_nscc_defaults(cc);
}

/**
 * mrc_ccprof_has_param() - whether a parameter belongs to an algorithm
 * @alg: enum mrc_cc_alg
 * @type: enum mrc_genl_cc_param
 *
 * Return: true when a profile of @alg has @type, to set and to report.
 */
bool mrc_ccprof_has_param(u8 alg, int type)
{
	return mrc_cc_params[type].alg == alg &&
	       (mrc_cc_params[type].def || alg != MRC_CC_ALG_WINDOW);
}

/**
 * mrc_ccprof_alg_name() - an algorithm's name, as requests give it
 * @alg: below MRC_CC_ALG_COUNT
 *
 * Return: the name.
 */
const char *mrc_ccprof_alg_name(u8 alg)
{
	return mrc_cc_alg_names[alg];
}

/**
 * mrc_ccprof_choose_alg() - give a CC profile its algorithm, by name
 * @cc: a private copy of the profile
 * @name: the name a request gave
 * @why: set to why it is refused
 *
 * A new algorithm, or the first, starts from its defaults; giving one
 * is what leaves INIT.
 *
 * Return: 0, -EBUSY when @cc is ONLINE, -EINVAL for an unknown name.
 */
int mrc_ccprof_choose_alg(struct mrc_ccprof *cc, const char *name,
			  const char **why)
{
	int alg;

	if (cc->p.state == MRC_PROF_ONLINE) {
		*why = "profile is ONLINE: take it offline to change it";
		return -EBUSY;
	}
	alg = match_string(mrc_cc_alg_names, MRC_CC_ALG_COUNT, name);
	if (alg < 0) {
		*why = "unknown congestion control algorithm (known: mrc-window, uet-1.0-nscc)";
		return -EINVAL;
	}
	if (cc->p.state == MRC_PROF_INIT || alg != cc->alg)
		mrc_ccprof_set_alg(cc, alg);
	if (cc->p.state == MRC_PROF_INIT)
		cc->p.state = MRC_PROF_OFFLINE;
	return 0;
}

/**
 * mrc_ccprof_may_set_params() - whether a CC profile's parameters may change
 * @cc: the profile
 * @why: set to why not
 *
 * Return: 0, -EBUSY when @cc is ONLINE, -EINVAL when it has no algorithm.
 */
int mrc_ccprof_may_set_params(const struct mrc_ccprof *cc, const char **why)
{
	if (cc->p.state == MRC_PROF_ONLINE) {
		*why = "profile is ONLINE: take it offline to change it";
		return -EBUSY;
	}
	if (cc->p.state == MRC_PROF_INIT) {
		*why = "parameters need an algorithm: set alg first";
		return -EINVAL;
	}
	return 0;
}

/**
 * mrc_ccprof_set_param() - set one parameter of a CC profile
 * @cc: a private copy of the profile, past mrc_ccprof_may_set_params()
 * @type: enum mrc_genl_cc_param, its range already checked
 * @val: the value
 * @why: set to why it is refused
 *
 * Return: 0, or -EINVAL when @type is not one of @cc's algorithm.
 */
int mrc_ccprof_set_param(struct mrc_ccprof *cc, int type, u32 val,
			 const char **why)
{
	if (!mrc_ccprof_has_param(cc->alg, type)) {
		*why = "parameter belongs to another algorithm";
		return -EINVAL;
	}
	cc->param[type] = val;
	return 0;
}

/**
 * mrc_ccprof_check_params() - whether a CC profile's parameters agree
 * @cc: the profile, after mrc_ccprof_set_param()
 * @why: set to why not
 *
 * Return: 0, or -EINVAL (mrc-window: a minimum above the initial window;
 * NSCC: mrc_nscc_check_params()).
 */
int mrc_ccprof_check_params(const struct mrc_ccprof *cc, const char **why)
{
	struct mrc_nscc_params p;

	if (cc->alg == MRC_CC_ALG_WINDOW &&
	    cc->param[MRC_CC_WIN_MIN_PKTS] > cc->param[MRC_CC_WIN_INIT_PKTS]) {
		*why = "minimum window is larger than the initial window";
		return -EINVAL;
	}
	if (cc->alg != MRC_CC_ALG_NSCC)
		return 0;
	mrc_ccprof_nscc_params(cc, &p);
	return mrc_nscc_check_params(&p, why);
}

/**
 * mrc_ccprof_alg_runnable() - whether QPs can run an algorithm
 * @alg: enum mrc_cc_alg
 *
 * Return: true when a profile of @alg may go ONLINE: both can.
 */
bool mrc_ccprof_alg_runnable(u8 alg)
{
	return alg < MRC_CC_ALG_COUNT;
}

static int mrc_ccprof_can_online(const struct mrc_prof *prof,
				 const char **why)
{
	const struct mrc_ccprof *cc = container_of(prof, struct mrc_ccprof, p);

	return mrc_ccprof_check_params(cc, why);
}

static void mrc_ccprof_reset(struct mrc_prof *prof)
{
	struct mrc_ccprof *cc = container_of(prof, struct mrc_ccprof, p);

	cc->alg = 0;
	memset(cc->param, 0, sizeof(cc->param));
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
