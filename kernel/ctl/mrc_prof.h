/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The control plane's per-device objects: EV format, EV and CC profiles
 * (OCP MRC controller API 1.0.1), the device defaults and the port's
 * administrative state. They belong to the device, not to the process
 * that made them, and live until deleted or until the device goes.
 * Internal to ctl/.
 */
#ifndef MRC_PROF_H
#define MRC_PROF_H

#include <linux/mutex.h>
#include <net/netlink.h>
#include <linux/xarray.h>

#include "uapi/mrc-genl.h"

#define MRC_FMT_PROFILES_MAX	64
#define MRC_EV_PROFILES_MAX	256
#define MRC_CC_PROFILES_MAX	64
#define MRC_CTL_FMT_FIELDS_MAX	16

/* What every profile has; the first member of each kind's struct. */
struct mrc_prof {
	u64 id;
	u8 state;		/* enum mrc_genl_prof_state */
	u32 nusers;		/* QPs (EV/CC profiles) or EV profiles (formats) */
};

/**
 * struct mrc_evfmt - an EV format profile
 * @p: id, state, users
 * @mode: enum mrc_genl_fmt_mode; meaningful from OFFLINE on
 * @nfields: number of fields, 0 in INIT
 * @width: the fields' widths in bits, most significant field first
 */
struct mrc_evfmt {
	struct mrc_prof p;
	u8 mode;
	u8 nfields;
	u8 width[MRC_CTL_FMT_FIELDS_MAX];
};

/**
 * struct mrc_ccprof - a congestion control profile
 * @p: id, state, users
 * @alg: MRC_CC_ALG_*; meaningful from OFFLINE on
 * @param: value of each enum mrc_genl_cc_param of @alg; others zero
 */
struct mrc_ccprof {
	struct mrc_prof p;
	u8 alg;
	u32 param[__MRC_CC_MAX];
};

enum mrc_cc_alg {
	MRC_CC_ALG_WINDOW,	/* "mrc-window": today's algorithm */
	MRC_CC_ALG_NSCC,	/* "uet-1.0-nscc": stored and validated only */
	MRC_CC_ALG_COUNT
};

/**
 * struct mrc_ctl_dev - a device's control-plane state
 * @lock: serialises every change, every dump and every QP bind
 * @fmt_xa: EV format profiles by id
 * @ccp_xa: CC profiles by id
 * @default_ccp: id of the CC profile QPs get when they name none
 * @port_admin: enum mrc_genl_port_admin
 */
struct mrc_ctl_dev {
	struct mutex lock; /* serialises changes, dumps and QP binds */
	struct xarray fmt_xa;
	struct xarray ccp_xa;
	u64 default_ccp;
	u8 port_admin;
};

/**
 * struct mrc_prof_kind - what differs between the kinds of profile
 * @name: for messages ("EV format", "CC profile")
 * @get_cmd: the GET command, which replies and dumps carry
 * @nest: top-level attribute carrying the configuration (MRC_ATTR_EVFMT...)
 * @max: profiles of this kind a device may hold
 * @size: size of the kind's struct
 * @xa: the device's table of this kind
 * @parse: apply the configuration nest @attr to @prof (a private copy)
 * @can_offline: whether @prof is configured enough to leave INIT
 * @can_online: whether @prof may go ONLINE (extack says why not)
 * @reset: forget the configuration (back to INIT)
 * @fill: put the kind's configuration nest into a reply
 * @busy: -EBUSY (extack says why) if @prof may not be deleted or taken
 *	offline, else 0
 */
struct mrc_prof_kind {
	const char *name;
	u8 get_cmd;
	int nest;
	u32 max;
	size_t size;
	struct xarray *(*xa)(struct mrc_ctl_dev *ctl);
	int (*parse)(struct mrc_prof *prof, const struct nlattr *attr,
		     struct netlink_ext_ack *extack);
	bool (*can_offline)(const struct mrc_prof *prof);
	int (*can_online)(const struct mrc_prof *prof,
			  struct netlink_ext_ack *extack);
	void (*reset)(struct mrc_prof *prof);
	int (*fill)(struct sk_buff *skb, const struct mrc_prof *prof);
	int (*busy)(struct mrc_ctl_dev *ctl, const struct mrc_prof *prof,
		    struct netlink_ext_ack *extack);
};

extern const struct mrc_prof_kind mrc_evfmt_kind;
extern const struct mrc_prof_kind mrc_ccprof_kind;
extern const struct nla_policy mrc_evfmt_policy[MRC_EVFMT_MAX + 1];
extern const struct nla_policy mrc_ccprof_policy[MRC_CCPROF_MAX + 1];

/* the built-in profiles 0 (mrc_evfmt.c, mrc_ccprof.c) */
void mrc_evfmt_builtin(struct mrc_evfmt *fmt);
void mrc_ccprof_builtin(struct mrc_ccprof *cc);

/* mrc_prof.c */
int mrc_prof_set_state(const struct mrc_prof_kind *kind,
		       struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
		       u8 state, struct netlink_ext_ack *extack);
struct mrc_prof *mrc_prof_find(const struct mrc_prof_kind *kind,
			       struct mrc_ctl_dev *ctl, u64 id);

#endif /* MRC_PROF_H */
