/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the generic netlink files of ctl/ share: naming a device in a
 * request, and the handlers the family's table (mrc_genl.c) points to.
 * Replies start with mrc_genlmsg_put(), never with mrc_genl.c's family.
 */
#ifndef MRC_GENL_H
#define MRC_GENL_H

#include <linux/uidgid.h>
#include <net/genetlink.h>

#include "engine/mrc_dev.h"
#include "uapi/mrc-genl.h"

/* mrc_genl_req.c */
void mrc_genl_req_init(const struct genl_family *family);
void *mrc_genlmsg_put(struct sk_buff *skb, u32 portid, u32 seq, int flags,
		      u8 cmd);
struct mrc_dev *mrc_genl_dev_get(struct nlattr **attrs, struct net *net,
				 struct netlink_ext_ack *extack);
int mrc_genl_put_dev(struct sk_buff *skb, struct mrc_dev *mdev);
int mrc_ev_list_count(const struct nlattr *list,
		      struct netlink_ext_ack *extack);
u32 mrc_genl_gen(void);
bool mrc_genl_has_listeners(struct net *net);
void mrc_genl_multicast(struct net *net, struct sk_buff *skb);
void mrc_genl_gen_bump(void);

/**
 * mrc_genl_set_why() - tell the requester why, with a message made elsewhere
 * @extack: the request's, or NULL
 * @attr: the attribute the message is about, or NULL
 * @why: the message, a string literal; NULL leaves @extack as it is
 *
 * The profile code says why it refuses a change as a string, free of
 * netlink; NL_SET_ERR_MSG_ATTR() itself takes only a literal.
 */
static inline void mrc_genl_set_why(struct netlink_ext_ack *extack,
				    const struct nlattr *attr, const char *why)
{
	if (!why)
		return;
	do_trace_netlink_extack(why);
	if (!extack)
		return;
	extack->_msg = why;
	extack->bad_attr = attr;
	extack->policy = NULL;
}

/**
 * mrc_genl_nth_attr() - the attribute a refusal about member @i is about
 * @list: a nest of members, or NULL
 * @i: the member's position in @list
 * @fallback: what to name when @list has no member @i
 *
 * Return: member @i of @list, else @fallback.
 */
static inline const struct nlattr *
mrc_genl_nth_attr(const struct nlattr *list, int i,
		  const struct nlattr *fallback)
{
	const struct nlattr *attr;
	int rem;

	if (list)
		nla_for_each_nested(attr, list, rem)
			if (i-- == 0)
				return attr;
	return fallback;
}

/**
 * struct mrc_genl_reader - who sent a read, for what its reply may say of QPs
 * @admin: CAP_NET_ADMIN over the device's network namespace: every QP
 * @uid: the uid of the sender's netlink credentials: the QPs it created
 *
 * QP-level data (QPNs, one QP's EVs, counters and times) goes to the
 * administrator and to each QP's owner; sums over a profile's QPs go to
 * anyone (Documentation/security.rst, "Reading the control plane").
 */
struct mrc_genl_reader {
	bool admin;
	kuid_t uid;
};

struct mrc_qp;
void mrc_genl_reader_init(struct mrc_genl_reader *rd,
			  const struct sk_buff *skb, struct mrc_dev *mdev);
bool mrc_genl_reader_sees(const struct mrc_genl_reader *rd,
			  const struct mrc_qp *qp);

/**
 * mrc_genl_prof_ev_state() - a profile EV's state over its user QPs
 * @denied: the controller denied it
 * @used: some QP bound to the profile has it
 * @bad: some such QP holds it ASSUMED_BAD
 *
 * Return: enum mrc_genl_ev_state, as STATS_GET and EVPROF_EV_GET report.
 */
static inline u8 mrc_genl_prof_ev_state(bool denied, bool used, bool bad)
{
	if (denied)
		return MRC_GENL_EV_DENIED;
	if (!used)
		return MRC_GENL_EV_UNKNOWN;
	return bad ? MRC_GENL_EV_ASSUMED_BAD : MRC_GENL_EV_GOOD;
}

/* mrc_genl_dev.c: DEV_GET, DEV_SET */
int mrc_genl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_genl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_genl_dev_set_doit(struct sk_buff *skb, struct genl_info *info);

/* mrc_genl_prof.c: EVFMT_*, EVPROF_* and CCPROF_* */
int mrc_genl_prof_get_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_genl_prof_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_genl_prof_new_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_genl_prof_set_doit(struct sk_buff *skb, struct genl_info *info);
int mrc_genl_prof_del_doit(struct sk_buff *skb, struct genl_info *info);

struct mrc_ctl_dev;
struct mrc_prof;

/* mrc_genl_evfmt.c: EV formats' attributes, parsed and put */
extern const struct nla_policy mrc_evfmt_policy[MRC_EVFMT_MAX + 1];
int mrc_genl_evfmt_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			 struct nlattr **attrs, struct netlink_ext_ack *extack);
int mrc_genl_evfmt_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
			const struct mrc_prof *prof);

/* mrc_genl_evprof.c: EV profiles' attributes, parsed and put */
struct mrc_evprof;
struct mrc_srv6_route;
extern const struct nla_policy mrc_evprof_policy[MRC_EVPROF_MAX + 1];
extern const struct nla_policy mrc_ev_entry_policy[MRC_EV_MAX + 1];
int mrc_genl_evprof_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			  struct nlattr **attrs, struct netlink_ext_ack *extack);
int mrc_genl_evprof_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
			 const struct mrc_prof *prof);
int mrc_genl_evprof_put_route(struct sk_buff *skb,
			      const struct mrc_srv6_route *r);
int mrc_genl_evprof_put_uplink(struct sk_buff *skb, struct net_device *ndev,
			       const struct mrc_srv6_route *r);
int mrc_genl_evprof_put_value(struct sk_buff *skb,
			      const struct mrc_evprof *evp, u32 i);
bool mrc_genl_evprof_value_is(const struct mrc_evprof *evp, u32 i,
			      const struct nlattr *value);

/* mrc_genl_ccprof.c: CC profiles' attributes, parsed and put */
extern const struct nla_policy mrc_ccprof_policy[MRC_CCPROF_MAX + 1];
int mrc_genl_ccprof_parse(struct mrc_ctl_dev *ctl, struct mrc_prof *prof,
			  struct nlattr **attrs, struct netlink_ext_ack *extack);
int mrc_genl_ccprof_fill(struct sk_buff *skb, struct mrc_ctl_dev *ctl,
			 const struct mrc_prof *prof);
int mrc_genl_ccprof_put_algs(struct sk_buff *skb);

/* mrc_genl_ev.c: EVPROF_EV_GET, EVPROF_EV_SET, dumps of one EV profile */
typedef int (*mrc_genl_evprof_round_fn)(struct sk_buff *skb,
					struct netlink_callback *cb,
					struct mrc_dev *mdev,
					struct mrc_evprof *evp);
int mrc_genl_evprof_dump(struct sk_buff *skb, struct netlink_callback *cb,
			 mrc_genl_evprof_round_fn round);
int mrc_genl_ev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_genl_ev_set_doit(struct sk_buff *skb, struct genl_info *info);

/* mrc_genl_stats.c: STATS_GET, QP_EV_GET */
int mrc_genl_stats_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int mrc_genl_qp_ev_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
/* mrc_genl_qp.c: QP_BIND */
int mrc_genl_qp_bind_doit(struct sk_buff *skb, struct genl_info *info);

/* mrc_genl_probe.c: PROBE */
extern const struct nla_policy mrc_probe_entry_policy[MRC_PROBE_MAX + 1];
int mrc_genl_probe_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* MRC_GENL_H */
