// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-path statistics: STATS_GET (and EVPROF_EV_GET with WANT_STATS)
 * reports each EV of a profile summed over the QPs that use it and those
 * that used it and went; QP_EV_GET reports one QP's table, to its owner
 * and the administrator only (mrc_genl_reader_sees()). Health stays
 * each QP's own: a profile's EV reads DENIED if the administrator denied
 * it, else ASSUMED_BAD if any user holds it so (with how many), else
 * GOOD, or UNKNOWN with no user.
 *
 * Sums are made a chunk of EVs at a time, under ctl->lock (the list of
 * users cannot change) and each QP's lock in turn (one consistent table
 * per QP, never all QPs at once). A message takes what fits; the next
 * round starts at the first EV left out.
 */
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_genl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_qp.h"
#include "core/mrc_ev.h"

/* EVs summed per round; what does not fit in the message is redone. */
#define MRC_GENL_STATS_CHUNK	16

static_assert(MRC_STAT_A_MAX - MRC_STAT_A_TX_PKTS + 1 == MRC_EVS_NR);

/* One EV's report, summed over QPs or taken from one. */
struct mrc_ev_report {
	struct mrc_ev_stats st;
	u32 index;
	u8 state;		/* enum mrc_genl_ev_state */
	bool has_value;
	u32 value;		/* compact EV, when @has_value and no @route */
	const struct mrc_srv6_route *route;	/* SRV6: the value instead */
	u16 sport;
	u32 flow_label;
	u32 users;		/* QPs with this EV */
	u32 bad_qps;
	u64 srtt_sum_ns;	/* over @srtt_n QPs with a sample */
	u32 srtt_n;
	u64 min_rtt_ns;		/* 0: no sample */
};

/* The engine keeps RTTs in 1.024 us units (srtt scaled by 8). */
static void mrc_ev_report_add(struct mrc_ev_report *r, const struct mrc_qp *qp,
			      u16 i)
{
	const struct mrc_ev_stats *st = &qp->mp.evs.st[i];
	const struct mrc_ev *ev = &qp->mp.evs.ev[i];
	u64 min_rtt = (u64)ev->min_rtt << 10;
	u32 k;

	for (k = 0; k < MRC_EVS_NR; k++)
		r->st.c[k] += st->c[k];
	r->st.state_ns = max(r->st.state_ns, st->state_ns);
	r->users++;
	r->bad_qps += ev->state == MRC_EV_ASSUMED_BAD;
	if (ev->srtt) {
		r->srtt_sum_ns += ((u64)ev->srtt << 10) >> 3;
		r->srtt_n++;
	}
	if (min_rtt && (!r->min_rtt_ns || min_rtt < r->min_rtt_ns))
		r->min_rtt_ns = min_rtt;
}

static int mrc_genl_put_stats(struct sk_buff *skb, const struct mrc_ev_stats *st)
{
	struct nlattr *nest = nla_nest_start(skb, MRC_ATTR_STATS);
	u32 k;

	if (!nest)
		return -EMSGSIZE;
	for (k = 0; k < MRC_EVS_NR; k++) {
		if (nla_put_u64_64bit(skb, MRC_STAT_A_TX_PKTS + k, st->c[k],
				      MRC_STAT_A_PAD))
			return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int mrc_genl_put_report_value(struct sk_buff *skb,
				     const struct mrc_ev_report *r)
{
	if (r->route)
		return mrc_genl_evprof_put_route(skb, r->route);
	return nla_put_be32(skb, MRC_EV_VALUE, cpu_to_be32(r->value));
}

static int mrc_genl_put_report(struct sk_buff *skb, struct net_device *ndev,
			       const struct mrc_ev_report *r, bool profile)
{
	struct nlattr *entry = nla_nest_start(skb, MRC_ATTR_EV_ENTRY);

	if (!entry || nla_put_u32(skb, MRC_EV_INDEX, r->index) ||
	    (r->has_value &&
	     (mrc_genl_put_report_value(skb, r) ||
	      nla_put_u8(skb, MRC_EV_PORT, 1) ||
	      mrc_genl_evprof_put_uplink(skb, ndev, r->route))) ||
	    nla_put_u8(skb, MRC_EV_STATE, r->state) ||
	    (r->sport && nla_put_u16(skb, MRC_EV_WIRE_SPORT, r->sport)) ||
	    (r->sport && nla_put_u32(skb, MRC_EV_WIRE_FLOW_LABEL, r->flow_label)) ||
	    (profile && nla_put_u32(skb, MRC_EV_BAD_QPS, r->bad_qps)) ||
	    (r->st.state_ns &&
	     nla_put_u64_64bit(skb, MRC_EV_STATE_TIME, r->st.state_ns,
			       MRC_EV_UNSPEC)) ||
	    (r->srtt_n &&
	     nla_put_u64_64bit(skb, MRC_EV_SRTT_NS,
			       div_u64(r->srtt_sum_ns, r->srtt_n), MRC_EV_UNSPEC)) ||
	    (r->min_rtt_ns &&
	     nla_put_u64_64bit(skb, MRC_EV_MIN_RTT_NS, r->min_rtt_ns,
			       MRC_EV_UNSPEC)) ||
	    mrc_genl_put_stats(skb, &r->st)) {
		if (entry)
			nla_nest_cancel(skb, entry);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, entry);
	return 0;
}

/*
 * One message of @n reports: as many as fit. Returns how many went in,
 * or -EMSGSIZE when not even the first did.
 */
static int mrc_genl_put_reports(struct sk_buff *skb,
				struct netlink_callback *cb,
				struct mrc_dev *mdev, u64 prof_id, u32 qpn,
				const struct mrc_ev_report *r, u32 n)
{
	bool profile = !qpn;
	struct nlattr *list;
	void *hdr;
	u32 i;

	hdr = mrc_genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			      cb->nlh->nlmsg_seq, NLM_F_MULTI,
			      genl_dumpit_info(cb)->op.cmd);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (mrc_genl_put_dev(skb, mdev) ||
	    nla_put_u64_64bit(skb, MRC_ATTR_PROF_ID, prof_id, MRC_ATTR_PAD) ||
	    (qpn && nla_put_u32(skb, MRC_ATTR_QPN, qpn)) ||
	    nla_put_u32(skb, MRC_ATTR_EV_FIRST, r[0].index))
		goto cancel;
	list = nla_nest_start(skb, MRC_ATTR_EVS);
	if (!list)
		goto cancel;
	for (i = 0; i < n; i++)
		if (mrc_genl_put_report(skb, mdev->ndev, &r[i], profile))
			break;
	if (!i)
		goto cancel;
	nla_nest_end(skb, list);
	genlmsg_end(skb, hdr);
	return i;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* EVs of a profile: its own, or for AUTO the most any user QP has. */
static u32 mrc_genl_prof_nev(struct mrc_ctl_dev *ctl,
			     const struct mrc_evprof *evp)
{
	struct mrc_qp *qp;
	u32 n = 0;

	if (evp->mode != MRC_EV_MODE_AUTO)
		return evp->nev;
	list_for_each_entry(qp, &ctl->qps, ctl_node)
		if (qp->ev_profile_id == evp->p.id)
			n = max_t(u32, n, READ_ONCE(qp->mp.evs.count));
	return n;
}

/* Reports for EVs @first.. of @evp, @n at most; ctl->lock held. */
static void mrc_genl_sum_profile(struct mrc_ctl_dev *ctl,
				 const struct mrc_evprof *evp, u32 first,
				 struct mrc_ev_report *r, u32 n)
{
	struct mrc_qp *qp;
	u32 i, k;

	for (i = 0; i < n; i++) {
		u32 idx = first + i;

		r[i].index = idx;
		if (idx < evp->nev) {
			const struct mrc_evprof_ev *ev = &evp->ev[idx];

			r[i].has_value = true;
			r[i].value = ev->compact;
			r[i].route = mrc_evprof_route(evp, idx);
			r[i].sport = ev->sport;
			r[i].flow_label = ev->flow_label;
		}
		if (evp->retired && idx < evp->nev) {
			for (k = 0; k < MRC_EVS_NR; k++)
				r[i].st.c[k] = evp->retired[idx].c[k];
			r[i].st.state_ns = evp->retired[idx].state_ns;
		}
	}
	list_for_each_entry(qp, &ctl->qps, ctl_node) {
		if (qp->ev_profile_id != evp->p.id)
			continue;
		spin_lock_bh(&qp->lock);
		for (i = 0; i < n && first + i < qp->mp.evs.count; i++)
			mrc_ev_report_add(&r[i], qp, first + i);
		spin_unlock_bh(&qp->lock);
		cond_resched();
	}
	for (i = 0; i < n; i++)
		r[i].state = mrc_genl_prof_ev_state(r[i].has_value &&
						    evp->ev[r[i].index].denied,
						    r[i].users, r[i].bad_qps);
}

static int mrc_genl_stats_chunks(struct sk_buff *skb,
				 struct netlink_callback *cb,
				 struct mrc_dev *mdev, struct mrc_evprof *evp,
				 struct mrc_ev_report *r)
{
	u32 nev = mrc_genl_prof_nev(mdev->ctl, evp);
	int n;

	while (cb->args[0] < nev) {
		u32 first = cb->args[0];
		u32 cnt = min_t(u32, nev - first, MRC_GENL_STATS_CHUNK);

		memset(r, 0, cnt * sizeof(*r));
		mrc_genl_sum_profile(mdev->ctl, evp, first, r, cnt);
		n = mrc_genl_put_reports(skb, cb, mdev, evp->p.id, 0, r, cnt);
		if (n < 0)
			return skb->len ? skb->len : n;
		cb->args[0] += n;
	}
	cb->args[1] = 1;
	return skb->len;
}

/* STATS_GET's messages from EV cb->args[0] on; ctl->lock held. */
static int mrc_genl_stats_round(struct sk_buff *skb, struct netlink_callback *cb,
				struct mrc_dev *mdev, struct mrc_evprof *evp)
{
	struct mrc_ev_report *r;
	int ret;

	r = kcalloc(MRC_GENL_STATS_CHUNK, sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	ret = mrc_genl_stats_chunks(skb, cb, mdev, evp, r);
	kfree(r);
	return ret;
}

/**
 * mrc_genl_stats_dumpit() - STATS_GET: one EV profile's per-EV counters
 * @skb: the message being filled
 * @cb: args[0] is the next EV index, args[1] set when done
 *
 * Also answers EVPROF_EV_GET when it asks for statistics.
 *
 * Return: the length filled, 0 when done, or a negative errno.
 */
int mrc_genl_stats_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return mrc_genl_evprof_dump(skb, cb, mrc_genl_stats_round);
}

/* Reports for EVs @first.. of one QP, @n at most; qp->lock held. */
static u32 mrc_genl_qp_reports(const struct mrc_qp *qp, u32 first,
			       struct mrc_ev_report *r, u32 n)
{
	static const u8 state[] = {
		[MRC_EV_GOOD] = MRC_GENL_EV_GOOD,
		[MRC_EV_ASSUMED_BAD] = MRC_GENL_EV_ASSUMED_BAD,
		[MRC_EV_DENIED] = MRC_GENL_EV_DENIED,
	};
	u32 i;

	for (i = 0; i < n && first + i < qp->mp.evs.count; i++) {
		const struct mrc_ev *ev = &qp->mp.evs.ev[first + i];

		r[i].index = first + i;
		mrc_ev_report_add(&r[i], qp, first + i);
		r[i].state = ev->state < ARRAY_SIZE(state) ? state[ev->state] :
							     MRC_GENL_EV_UNKNOWN;
		r[i].sport = ev->sport;
		r[i].flow_label = ev->flow_label;
	}
	return i;
}

static int mrc_genl_qp_ev_round(struct sk_buff *skb, struct netlink_callback *cb,
				struct mrc_dev *mdev, struct mrc_qp *qp,
				struct mrc_ev_report *r)
{
	u32 cnt;
	u64 id;
	int n;

	for (;;) {
		memset(r, 0, MRC_GENL_STATS_CHUNK * sizeof(*r));
		spin_lock_bh(&qp->lock);
		cnt = mrc_genl_qp_reports(qp, cb->args[0], r,
					  MRC_GENL_STATS_CHUNK);
		id = qp->ev_profile_id;
		spin_unlock_bh(&qp->lock);
		if (!cnt)
			break;
		n = mrc_genl_put_reports(skb, cb, mdev, id, qp->ibqp.qp_num,
					 r, cnt);
		if (n < 0)
			return skb->len ? skb->len : n;
		cb->args[0] += n;
	}
	cb->args[1] = 1;
	return skb->len;
}

/*
 * The QP a QP_EV_GET names, if its sender may read it (its owner, or
 * CAP_NET_ADMIN). A QP the sender may not read is answered as one that
 * does not exist, so that nobody can use the command to find live QPNs.
 */
static struct mrc_qp *mrc_genl_qp_readable(struct netlink_callback *cb,
					   struct mrc_dev *mdev,
					   struct nlattr *qpn)
{
	struct mrc_genl_reader rd;
	struct mrc_qp *qp;

	mrc_genl_reader_init(&rd, cb->skb, mdev);
	qp = mrc_qp_get(mdev, nla_get_u32(qpn));
	if (qp && !mrc_genl_reader_sees(&rd, qp)) {
		mrc_qp_put(qp);
		qp = NULL;
	}
	if (!qp)
		NL_SET_ERR_MSG_ATTR(cb->extack, qpn,
				    "no QP with this number on the device, or not the caller's (CAP_NET_ADMIN reads all)");
	return qp;
}

static int mrc_genl_put_cc_report(struct sk_buff *skb,
				  const struct mrc_cc_report *r, u64 prof_id)
{
	const char *alg = mrc_ccprof_alg_name(r->nscc ? MRC_CC_ALG_NSCC :
							MRC_CC_ALG_WINDOW);
	struct nlattr *cc = nla_nest_start(skb, MRC_ATTR_QP_CC);

	if (!cc || nla_put_string(skb, MRC_QP_CC_ALG, alg) ||
	    nla_put_u64_64bit(skb, MRC_QP_CC_PROFILE, prof_id, MRC_QP_CC_PAD) ||
	    nla_put_u32(skb, MRC_QP_CC_CWND_PKTS, r->cwnd_pkts) ||
	    nla_put_u32(skb, MRC_QP_CC_CWND_BYTES, r->cwnd_bytes) ||
	    nla_put_u64_64bit(skb, MRC_QP_CC_SRTT_NS, r->srtt_ns, MRC_QP_CC_PAD))
		return -EMSGSIZE;
	if (r->nscc &&
	    (nla_put_u32(skb, MRC_QP_CC_BASE_RTT_NS, r->base_rtt_ns) ||
	     nla_put_u32(skb, MRC_QP_CC_DELAY_NS, r->delay_ns) ||
	     nla_put_u32(skb, MRC_QP_CC_AVG_DELAY_NS, r->avg_delay_ns) ||
	     nla_put_u64_64bit(skb, MRC_QP_CC_ACKED_BYTES, r->acked_bytes,
			       MRC_QP_CC_PAD) ||
	     nla_put_u64_64bit(skb, MRC_QP_CC_ECN_BYTES, r->ecn_bytes,
			       MRC_QP_CC_PAD) ||
	     nla_put_u32(skb, MRC_QP_CC_QA_CUTS, r->qa_cuts) ||
	     nla_put_u32(skb, MRC_QP_CC_MD_CUTS, r->md_cuts)))
		return -EMSGSIZE;
	nla_nest_end(skb, cc);
	return 0;
}

/* QP_EV_GET's first message: the QP's congestion control. */
static int mrc_genl_qp_cc_msg(struct sk_buff *skb, struct netlink_callback *cb,
			      struct mrc_dev *mdev, struct mrc_qp *qp)
{
	struct mrc_cc_report r;
	u64 prof_id;
	void *hdr;

	spin_lock_bh(&qp->lock);
	mrc_cc_report(qp, &r);
	prof_id = qp->cc_profile_id;
	spin_unlock_bh(&qp->lock);
	hdr = mrc_genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
			      cb->nlh->nlmsg_seq, NLM_F_MULTI,
			      genl_dumpit_info(cb)->op.cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (mrc_genl_put_dev(skb, mdev) ||
	    nla_put_u32(skb, MRC_ATTR_QPN, qp->ibqp.qp_num) ||
	    mrc_genl_put_cc_report(skb, &r, prof_id)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * mrc_genl_qp_ev_dumpit() - QP_EV_GET: one QP's EVs and their counters
 * @skb: the message being filled
 * @cb: args[0] is the next EV index, args[1] set when done, args[2] set
 *	once the first message, the QP's congestion control, is out
 *
 * Only the QP's owner and CAP_NET_ADMIN may read it.
 *
 * Return: the length filled, 0 when done, or a negative errno.
 */
int mrc_genl_qp_ev_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct mrc_ev_report *r;
	struct mrc_dev *mdev;
	struct mrc_qp *qp;
	int ret;

	if (cb->args[1])
		return 0;
	if (!attrs[MRC_ATTR_QPN]) {
		NL_SET_ERR_MSG(cb->extack, "a QP number is required");
		return -EINVAL;
	}
	mdev = mrc_genl_dev_get(attrs, sock_net(skb->sk), cb->extack);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	qp = mrc_genl_qp_readable(cb, mdev, attrs[MRC_ATTR_QPN]);
	if (!qp) {
		ret = -ENOENT;
		goto put;
	}
	if (!cb->args[2]) {
		ret = mrc_genl_qp_cc_msg(skb, cb, mdev, qp);
		if (ret)
			goto put_qp;
		cb->args[2] = 1;
	}
	r = kcalloc(MRC_GENL_STATS_CHUNK, sizeof(*r), GFP_KERNEL);
	ret = r ? mrc_genl_qp_ev_round(skb, cb, mdev, qp, r) : -ENOMEM;
	kfree(r);
put_qp:
	mrc_qp_put(qp);
put:
	ib_device_put(&mdev->ib_dev);
	return ret;
}
