// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One EV profile's EVs: EVPROF_EV_GET dumps them (value, port, the
 * source port and flow label they are sent with, state over the user
 * QPs as STATS_GET reports it, without the counters), as many as fit in
 * each message; EVPROF_EV_SET applies a batch of operations entry
 * by entry and, as OCP specifies, stops at the first failure, telling
 * how many entries were applied.
 */
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_qp.h"
#include "core/mrc_ev.h"
#include "core/mrc_srv6.h"

/*
 * EVs whose state one message reads from the user QPs at most. How many
 * fit depends on the EVs: one with an SRv6 segment list takes up to 88
 * bytes, and a dump's skb may be a 4 KiB page.
 */
#define MRC_GENL_EV_CHUNK	64

/*
 * Which of EVs @first.. (MRC_GENL_EV_CHUNK at most) a QP bound to @evp
 * has (@used) and holds ASSUMED_BAD (@bad): the state without the cost of
 * the counters. ctl->lock held: the list of users cannot change.
 */
static void mrc_genl_ev_health(struct mrc_ctl_dev *ctl,
			       const struct mrc_evprof *evp, u32 first,
			       unsigned long *used, unsigned long *bad)
{
	struct mrc_qp *qp;
	u32 i;

	list_for_each_entry(qp, &ctl->qps, ctl_node) {
		if (qp->ev_profile_id != evp->p.id)
			continue;
		spin_lock_bh(&qp->lock);
		for (i = 0; i < MRC_GENL_EV_CHUNK && first + i < qp->mp.evs.count;
		     i++) {
			__set_bit(i, used);
			if (qp->mp.evs.ev[first + i].state == MRC_EV_ASSUMED_BAD)
				__set_bit(i, bad);
		}
		spin_unlock_bh(&qp->lock);
		cond_resched();
	}
}

static int mrc_genl_put_ev(struct sk_buff *skb, struct net_device *ndev,
			   const struct mrc_evprof *evp, u32 i, u8 state)
{
	const struct mrc_evprof_ev *ev = &evp->ev[i];
	struct nlattr *entry = nla_nest_start(skb, MRC_ATTR_EV_ENTRY);

	if (!entry || nla_put_u32(skb, MRC_EV_INDEX, i) ||
	    mrc_genl_evprof_put_value(skb, evp, i) ||
	    nla_put_u8(skb, MRC_EV_PORT, ev->port) ||
	    nla_put_u8(skb, MRC_EV_STATE, state) ||
	    nla_put_u16(skb, MRC_EV_WIRE_SPORT, ev->sport) ||
	    nla_put_u32(skb, MRC_EV_WIRE_FLOW_LABEL, ev->flow_label) ||
	    mrc_genl_evprof_put_uplink(skb, ndev, mrc_evprof_route(evp, i))) {
		if (entry)
			nla_nest_cancel(skb, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, entry);
	return 0;
}

/*
 * One message of EVs from @first: as many of the next MRC_GENL_EV_CHUNK
 * as fit. Returns the index of the first EV left out, or -EMSGSIZE when
 * not even EV @first fit.
 */
static int mrc_genl_fill_evs(struct sk_buff *skb, struct netlink_callback *cb,
			     struct mrc_dev *mdev, const struct mrc_evprof *evp,
			     u32 first)
{
	u32 i, end = min_t(u32, evp->nev, first + MRC_GENL_EV_CHUNK);
	DECLARE_BITMAP(used, MRC_GENL_EV_CHUNK) = {};
	DECLARE_BITMAP(bad, MRC_GENL_EV_CHUNK) = {};
	struct nlattr *list;
	void *hdr;
	u8 state;

	hdr = mrc_genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			      cb->nlh->nlmsg_seq, NLM_F_MULTI,
			      MRC_CMD_EVPROF_EV_GET);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (mrc_genl_put_dev(skb, mdev) ||
	    nla_put_u64_64bit(skb, MRC_ATTR_PROF_ID, evp->p.id, MRC_ATTR_PAD) ||
	    nla_put_u32(skb, MRC_ATTR_EV_FIRST, first))
		goto cancel;
	list = nla_nest_start(skb, MRC_ATTR_EVS);
	if (!list)
		goto cancel;
	mrc_genl_ev_health(mdev->ctl, evp, first, used, bad);
	for (i = first; i < end; i++) {
		state = mrc_genl_prof_ev_state(evp->ev[i].denied,
					       test_bit(i - first, used),
					       test_bit(i - first, bad));
		if (mrc_genl_put_ev(skb, mdev->ndev, evp, i, state))
			break;
	}
	if (i == first)
		goto cancel;
	nla_nest_end(skb, list);
	genlmsg_end(skb, hdr);
	return i;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * mrc_genl_evprof_dump() - the part every dump of one EV profile shares
 * @skb: the message being filled
 * @cb: the dump; its request names a device and MRC_ATTR_PROF_ID;
 *	args[1] is set when done
 * @round: fills @skb from where the dump stands, under the device's
 *	ctl->lock (the profile and its users cannot change)
 *
 * Return: what @round returns, 0 when done, or a negative errno (extack
 * naming what is missing or unknown).
 */
int mrc_genl_evprof_dump(struct sk_buff *skb, struct netlink_callback *cb,
			 mrc_genl_evprof_round_fn round)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct mrc_prof *prof;
	struct mrc_dev *mdev;
	int ret;

	if (cb->args[1])
		return 0;
	if (!attrs[MRC_ATTR_PROF_ID]) {
		NL_SET_ERR_MSG(cb->extack, "an EV profile id is required");
		return -EINVAL;
	}
	mdev = mrc_genl_dev_get(attrs, sock_net(skb->sk), cb->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	mutex_lock(&mdev->ctl->lock);
	cb->seq = mrc_genl_gen();
	prof = mrc_prof_find(&mrc_evprof_kind, mdev->ctl,
			     nla_get_u64(attrs[MRC_ATTR_PROF_ID]));
	if (prof) {
		ret = round(skb, cb, mdev, container_of(prof, struct mrc_evprof, p));
	} else {
		NL_SET_ERR_MSG_ATTR(cb->extack, attrs[MRC_ATTR_PROF_ID],
				    "no EV profile with this id");
		ret = -ENOENT;
	}
	mutex_unlock(&mdev->ctl->lock);
	ib_device_put(&mdev->ib_dev);
	return ret;
}

/* EVPROF_EV_GET's messages from EV cb->args[0] on. */
static int mrc_genl_ev_round(struct sk_buff *skb, struct netlink_callback *cb,
			     struct mrc_dev *mdev, struct mrc_evprof *evp)
{
	int next;

	for (next = cb->args[0]; next < evp->nev; ) {
		next = mrc_genl_fill_evs(skb, cb, mdev, evp, next);
		if (next < 0)
			break;
		cb->args[0] = next;
	}
	if (next >= 0)
		cb->args[1] = 1;
	if (next == -EMSGSIZE && skb->len)
		return skb->len;
	return next < 0 ? next : skb->len;
}

/**
 * mrc_genl_ev_get_dumpit() - EVPROF_EV_GET without statistics: one
 *	profile's EVs
 * @skb: the message being filled
 * @cb: args[0] is the next EV index, args[1] set when done
 *
 * Each message carries the device, the profile id and MRC_ATTR_EV_FIRST,
 * so it stands alone.
 *
 * Return: the length filled, 0 when done, or a negative errno.
 */
int mrc_genl_ev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_genl_evprof_dump(skb, cb, mrc_genl_ev_round);
}

/* Whether EV @i, within the entry's index range, is one @tb names. */
static bool mrc_genl_ev_named(const struct mrc_evprof *evp, struct nlattr **tb,
			      u32 i)
{
	return !tb[MRC_EV_VALUE] ||
	       mrc_genl_evprof_value_is(evp, i, tb[MRC_EV_VALUE]);
}

/*
 * Apply one SET_STATE entry, all of it or nothing; returns how many EVs
 * it named, or errno. @allowed counts the profile's EVs not denied: a
 * profile keeps one (mrc_evprof_nallowed()).
 */
static int mrc_genl_ev_set_state(struct mrc_evprof *evp, struct nlattr **tb,
				 const struct nlattr *entry, u32 *allowed,
				 struct netlink_ext_ack *extack)
{
	u32 i, first = 0, last = evp->nev, hits = 0, change = 0;
	bool deny;
	u8 state;

	if (!tb[MRC_EV_STATE] || !!tb[MRC_EV_INDEX] == !!tb[MRC_EV_VALUE]) {
		NL_SET_ERR_MSG_ATTR(extack, entry,
				    "an entry needs a state and either an index or a value");
		return -EINVAL;
	}
	state = nla_get_u8(tb[MRC_EV_STATE]);
	if (state != MRC_GENL_EV_DENIED && state != MRC_GENL_EV_GOOD) {
		NL_SET_ERR_MSG_ATTR(extack, tb[MRC_EV_STATE],
				    "only denied, or good to lift a denial, can be set");
		return -EINVAL;
	}
	deny = state == MRC_GENL_EV_DENIED;
	if (tb[MRC_EV_INDEX]) {
		first = nla_get_u32(tb[MRC_EV_INDEX]);
		last = first < evp->nev ? first + 1 : first;
	}
	for (i = first; i < last; i++) {
		if (!mrc_genl_ev_named(evp, tb, i))
			continue;
		hits++;
		change += deny != !!evp->ev[i].denied;
	}
	if (!hits) {
		NL_SET_ERR_MSG_ATTR(extack, entry, "no such EV in the profile");
		return -ENOENT;
	}
	if (deny && change >= *allowed) {
		NL_SET_ERR_MSG_ATTR(extack, entry,
				    "would deny every EV of the profile: one must stay allowed");
		return -EBUSY;
	}
	for (i = first; i < last; i++)
		if (mrc_genl_ev_named(evp, tb, i))
			evp->ev[i].denied = deny;
	*allowed = deny ? *allowed - change : *allowed + change;
	return hits;
}

static int mrc_genl_ev_set_locked(struct mrc_ctl_dev *ctl,
				  struct genl_info *info)
{
	struct nlattr *tb[MRC_EV_MAX + 1];
	const struct nlattr *entry;
	struct mrc_evprof *evp;
	struct mrc_prof *prof;
	int err = 0, rem;
	u64 applied = 0;
	u32 allowed;

	prof = mrc_prof_find(&mrc_evprof_kind, ctl,
			     nla_get_u64(info->attrs[MRC_ATTR_PROF_ID]));
	if (!prof) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_ATTR_PROF_ID],
				    "no EV profile with this id");
		return -ENOENT;
	}
	evp = container_of(prof, struct mrc_evprof, p);
	allowed = mrc_evprof_nallowed(evp);
	nla_for_each_nested(entry, info->attrs[MRC_ATTR_EVS], rem) {
		if (applied == MRC_EV_COUNT_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, entry,
					    "more than 4096 entries in one request");
			err = -E2BIG;
			break;
		}
		err = nla_parse_nested(tb, MRC_EV_MAX, entry,
				       mrc_ev_entry_policy, info->extack);
		if (!err)
			err = mrc_genl_ev_set_state(evp, tb, entry, &allowed,
						    info->extack);
		if (err < 0)
			break;
		applied++;
		err = 0;
	}
	if (applied) {
		mrc_ctl_push_denied(ctl, evp);
		mrc_genl_gen_bump();
	}
	/* OCP: on failure the caller learns how many entries took effect. */
	nl_set_extack_cookie_u64(info->extack, applied);
	return err;
}

/**
 * mrc_genl_ev_set_doit() - EVPROF_EV_SET: deny or un-deny EVs, in the
 * profile and in every QP bound to it
 * @skb: the request
 * @info: a device, a profile id, MRC_ATTR_EV_OP and MRC_ATTR_EVS
 *
 * Return: 0 or a negative errno; the extack cookie holds the number of
 * entries applied either way. A malformed list is refused before any
 * entry applies, by the policy or mrc_ev_list_count(), with no cookie.
 */
int mrc_genl_ev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_dev *mdev;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, MRC_ATTR_PROF_ID) ||
	    GENL_REQ_ATTR_CHECK(info, MRC_ATTR_EV_OP) ||
	    GENL_REQ_ATTR_CHECK(info, MRC_ATTR_EVS))
		return -EINVAL;
	if (nla_get_u8(info->attrs[MRC_ATTR_EV_OP]) != MRC_EV_OP_SET_STATE) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[MRC_ATTR_EV_OP],
				    "REPLACE is not implemented: give the profile's whole EV list with EVPROF_SET");
		return -EOPNOTSUPP;
	}
	err = mrc_ev_list_count(info->attrs[MRC_ATTR_EVS], info->extack);
	if (err < 0)
		return err;
	mdev = mrc_genl_dev_get(info->attrs, genl_info_net(info), info->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	mutex_lock(&mdev->ctl->lock);
	err = mrc_genl_ev_set_locked(mdev->ctl, info);
	mutex_unlock(&mdev->ctl->lock);
	ib_device_put(&mdev->ib_dev);
	return err;
}
