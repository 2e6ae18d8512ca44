// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * QPs and profiles. A QP binds to an EV profile and a CC profile when it
 * is created (the ones it names, else the device defaults), may be bound
 * again to others while still in RESET or INIT (QP_BIND, the OCP API's
 * profile ids at the move to INIT), and unbinds when it goes; a profile
 * with bound QPs cannot go OFFLINE or away. The
 * EVs are copied into the QP at bind, so the data path never reads a
 * profile; what an administrator changes later on a bound profile (DENY)
 * is pushed into each QP under its lock.
 */
#include <linux/cred.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_qp.h"
#include "core/mrc_ev.h"

/* The EV and CC limits of binding, the module parameters (verbs/). */
unsigned short mrc_ev_count = MRC_EV_COUNT_DEFAULT;
unsigned short mrc_ev_min_active = MRC_EV_MIN_ACTIVE_DEFAULT;
/* The default lets every QP the device allows have ev_count's default. */
unsigned int mrc_qp_ev_limit = MRC_MAX_QP * MRC_EV_COUNT_DEFAULT;

/* The profile @id of @kind if it is ONLINE, else NULL. */
static struct mrc_prof *mrc_ctl_online(const struct mrc_prof_kind *kind,
				       struct mrc_ctl_dev *ctl, u64 id)
{
	struct mrc_prof *prof = mrc_prof_find(kind, ctl, id);

	return prof && prof->state == MRC_PROF_ONLINE ? prof : NULL;
}

/*
 * Keep what a departing QP counted, so that totals never go back: in
 * the device's totals, and per EV in its profile (not for AUTO, whose
 * EVs are each QP's own). Losing them to a failed allocation is allowed.
 * A walk of the device's totals that has not reached the QP yet finds
 * them in ctl->walk_missed (mrc_hw_stats.c).
 */
static void mrc_ctl_qp_retire(struct mrc_ctl_dev *ctl, struct mrc_qp *qp,
			      struct mrc_evprof *evp)
{
	u32 i, k, n = min_t(u32, evp->nev, qp->mp.evs.count);
	/* A walk of mrc_hw_stats.c is under way and has not counted it yet. */
	bool missed = ctl->walking && qp->ctl_walk_gen != ctl->walk_gen;

	if (n && !evp->retired)
		evp->retired = kvcalloc(evp->nev, sizeof(*evp->retired),
					GFP_KERNEL);
	spin_lock_bh(&qp->lock);
	for (i = 0; i < qp->mp.evs.count; i++) {
		const struct mrc_ev_stats *st = &qp->mp.evs.st[i];

		for (k = 0; k < MRC_EVS_NR; k++) {
			ctl->retired[k] += st->c[k];
			if (missed)
				ctl->walk_missed[k] += st->c[k];
			if (i < n && evp->retired)
				evp->retired[i].c[k] += st->c[k];
		}
		if (i < n && evp->retired)
			evp->retired[i].state_ns = max(evp->retired[i].state_ns,
						       st->state_ns);
	}
	qp->mp.evs.changed = NULL;
	spin_unlock_bh(&qp->lock);
}

static struct mrc_evprof *mrc_ctl_evp_of(struct mrc_prof *prof)
{
	return container_of(prof, struct mrc_evprof, p);
}

static struct mrc_evprof *mrc_ctl_b_evp(const struct mrc_ctl_binding *b)
{
	return mrc_ctl_evp_of(b->evp);
}

/* Why a binding is refused: @msg for the requester, about @kind's id. */
static int mrc_ctl_refuse(struct mrc_ctl_bind_why *why, u8 kind,
			  const char *msg, int err)
{
	why->kind = kind;
	why->msg = msg;
	return err;
}

/* Build @b's EV table from its EV profile, not yet any QP's. */
static int mrc_ctl_build_evs(struct mrc_ctl_binding *b)
{
	const struct mrc_evprof *evp = mrc_ctl_b_evp(b);
	struct mrc_ev_wire *wire;
	u32 i;
	int err;

	if (evp->mode == MRC_EV_MODE_AUTO)
		return mrc_ev_init_auto(&b->evs, b->auto_count,
					b->auto_min_active,
					get_random_u32() & MRC_EV_SPORT_MASK);
	wire = kvcalloc(evp->nev, sizeof(*wire), GFP_KERNEL_ACCOUNT);
	if (!wire)
		return -ENOMEM;
	for (i = 0; i < evp->nev; i++) {
		wire[i].sport = evp->ev[i].sport;
		wire[i].flow_label = evp->ev[i].flow_label;
		wire[i].value = evp->ev[i].compact;
	}
	err = mrc_ev_init(&b->evs, evp->nev, evp->min_active, wire);
	kvfree(wire);
	if (err) {
		mrc_ev_destroy(&b->evs);
		return err;
	}
	for (i = 0; i < evp->nev; i++)
		if (evp->ev[i].denied)
			mrc_ev_set_denied(&b->evs, i, true);
	/* SRv6 routes are shared, not copied: they never change. */
	b->srv6 = mrc_srv6_routes_get(evp->srv6);
	return 0;
}

/*
 * The algorithm and parameters @cc runs a QP with. Validation at
 * CCPROF_SET and ONLINE keeps them in range (control-plane.rst); checked
 * again here because a QP must never run a window that does not make
 * sense.
 */
static int mrc_ctl_check_cc(struct mrc_ctl_binding *b)
{
	const struct mrc_ccprof *cc = container_of(b->ccp, struct mrc_ccprof, p);
	const char *why;

	b->cc_alg = cc->alg;
	if (cc->alg == MRC_CC_ALG_NSCC) {
		mrc_ccprof_nscc_params(cc, &b->nscc);
		return mrc_nscc_check_params(&b->nscc, &why);
	}
	if (cc->alg != MRC_CC_ALG_WINDOW)
		return -EINVAL;
	b->win.init = cc->param[MRC_CC_WIN_INIT_PKTS];
	b->win.min = cc->param[MRC_CC_WIN_MIN_PKTS];
	b->win.qdelay_ts = DIV_ROUND_UP(cc->param[MRC_CC_WIN_QDELAY_TARGET_NS],
					1024);
	return mrc_cwnd_check_params(&b->win);
}

/*
 * Whether the current task may give user QP @qp @prof (@kind's profile
 * @id, the device default when @dflt): the profile's access rule, with
 * CAP_NET_ADMIN over the device's network namespace (mrc_prof_may_bind()).
 * At create the task is the QP's creator, at QP_BIND the requester.
 * Kernel QPs are not checked: their creator is the kernel.
 */
static int mrc_ctl_qp_access(struct mrc_dev *mdev, const struct mrc_qp *qp,
			     const struct mrc_prof_kind *kind,
			     const struct mrc_prof *prof, u64 dflt)
{
	struct user_namespace *ns = dev_net(mdev->ndev)->user_ns;
	u32 uid = from_kuid_munged(&init_user_ns, current_euid());

	if (!qp->is_user || mrc_prof_may_bind(prof, prof->id == dflt, ns))
		return 0;
	if (prof->access.rule == MRC_PROF_ACCESS_GROUP)
		ibdev_dbg(&mdev->ib_dev,
			  "%s %llu refused to a QP of uid %u: access group %u\n",
			  kind->name, prof->id, uid,
			  from_kgid_munged(&init_user_ns, prof->access.gid));
	else
		ibdev_dbg(&mdev->ib_dev,
			  "%s %llu refused to a QP of uid %u: access %s\n",
			  kind->name, prof->id, uid,
			  mrc_prof_access_name(prof->access.rule));
	return -EPERM;
}

/*
 * Whether @qp may take the EVs of @b's EV profile (auto_count for AUTO)
 * with the device's QPs holding ctl->qp_evs already, of which @qp's own
 * go back: a user QP may not take the total over @b->ev_limit. The limit
 * bounds what the QPs of all users together hold (each EV about 210
 * bytes, charged to its QP's creator) and so how long the walks over
 * every QP's EVs take.
 */
static int mrc_ctl_qp_ev_room(struct mrc_dev *mdev, const struct mrc_qp *qp,
			      const struct mrc_ctl_binding *b, u32 own)
{
	const struct mrc_evprof *evp = mrc_ctl_b_evp(b);
	u32 held = mdev->ctl->qp_evs;
	u32 nev = evp->mode == MRC_EV_MODE_AUTO ? b->auto_count : evp->nev;

	if (!qp->is_user || mrc_ev_limit_room(held, own, nev, b->ev_limit))
		return 0;
	ibdev_dbg(&mdev->ib_dev,
		  "a QP of EV profile %llu needs %u EVs: %u of qp_ev_limit %u are held\n",
		  evp->p.id, nev, held - min(own, held), b->ev_limit);
	return -ENOSPC;
}

/**
 * mrc_ctl_qp_prepare() - check a QP's profiles and build what it gets
 * @mdev: the device; the caller holds mdev->ctl->lock
 * @qp: the QP: new (@own 0), or bound and giving its binding back
 * @ids: the profiles asked for (flags say which), or NULL: for a new QP
 *	the device defaults stand for what it does not name
 * @own: EVs @qp holds now and gives back
 * @b: filled in; on success mrc_ctl_qp_commit() or mrc_ctl_binding_release()
 *	ends it, under the same hold of ctl->lock
 * @why: on failure, a message for the requester and the profile at fault
 *
 * The checks of every binding, in this order: both profiles exist and
 * are ONLINE, the access rule of each lets the current task (user QPs),
 * a user QP's EVs fit under the device's EV limit, the CC profile's
 * parameters can run a QP.
 *
 * Return: 0, -EINVAL when a profile does not exist or is not ONLINE (or
 * cannot run a QP), -EPERM when an access rule refuses the task, -ENOSPC
 * when a user QP's EVs do not fit, or -ENOMEM.
 */
int mrc_ctl_qp_prepare(struct mrc_dev *mdev, const struct mrc_qp *qp,
		       const struct mrc_qp_profile_cmd *ids, u32 own,
		       struct mrc_ctl_binding *b, struct mrc_ctl_bind_why *why)
{
	struct mrc_ctl_dev *ctl = mdev->ctl;
	int err;

	lockdep_assert_held(&ctl->lock);
	memset(b, 0, sizeof(*b));
	b->auto_count = READ_ONCE(mrc_ev_count);
	b->auto_min_active = READ_ONCE(mrc_ev_min_active);
	b->ev_limit = READ_ONCE(mrc_qp_ev_limit);
	b->evp_id = ids && (ids->flags & MRC_QP_F_EV_PROFILE) ?
		    ids->ev_profile_id : ctl->default_evp;
	b->ccp_id = ids && (ids->flags & MRC_QP_F_CC_PROFILE) ?
		    ids->cc_profile_id : ctl->default_ccp;
	b->evp = mrc_ctl_online(&mrc_evprof_kind, ctl, b->evp_id);
	if (!b->evp)
		return mrc_ctl_refuse(why, MRC_PROF_QP_EV,
				      "no ONLINE EV profile with this id",
				      -EINVAL);
	b->ccp = mrc_ctl_online(&mrc_ccprof_kind, ctl, b->ccp_id);
	if (!b->ccp)
		return mrc_ctl_refuse(why, MRC_PROF_QP_CC,
				      "no ONLINE CC profile with this id",
				      -EINVAL);
	if (mrc_ctl_qp_access(mdev, qp, &mrc_evprof_kind, b->evp,
			      ctl->default_evp))
		return mrc_ctl_refuse(why, MRC_PROF_QP_EV,
				      "the EV profile's access rule refuses the caller",
				      -EPERM);
	if (mrc_ctl_qp_access(mdev, qp, &mrc_ccprof_kind, b->ccp,
			      ctl->default_ccp))
		return mrc_ctl_refuse(why, MRC_PROF_QP_CC,
				      "the CC profile's access rule refuses the caller",
				      -EPERM);
	if (mrc_ctl_qp_ev_room(mdev, qp, b, own))
		return mrc_ctl_refuse(why, MRC_PROF_QP_EV,
				      "the EV profile's EVs do not fit under the device's qp_ev_limit",
				      -ENOSPC);
	if (mrc_ctl_check_cc(b)) {
		ibdev_dbg(&mdev->ib_dev, "CC profile %llu cannot run a QP\n",
			  b->ccp_id);
		return mrc_ctl_refuse(why, MRC_PROF_QP_CC,
				      "the CC profile's parameters cannot run a QP",
				      -EINVAL);
	}
	err = mrc_ctl_build_evs(b);
	if (err)
		return mrc_ctl_refuse(why, MRC_PROF_QP_NONE, NULL, err);
	return 0;
}

/**
 * mrc_ctl_binding_release() - drop a prepared binding that no QP took
 * @b: from mrc_ctl_qp_prepare(), or what mrc_ctl_qp_commit() handed back
 */
void mrc_ctl_binding_release(struct mrc_ctl_binding *b)
{
	mrc_ev_destroy(&b->evs);
	mrc_srv6_routes_put(b->srv6);
	b->srv6 = NULL;
}

/**
 * mrc_ctl_qp_commit() - give @qp the binding @b
 * @ctl: the device's control state, locked since mrc_ctl_qp_prepare()
 * @qp: the QP @b was prepared for: not yet in ctl->qps, or in it and not
 *	sending (RESET or INIT, qp->modify_lock held)
 * @b: the prepared binding; on return it holds what @qp held before
 *	(nothing for a new QP), for mrc_ctl_binding_release() once no packet
 *	can point at it
 *
 * The profiles count @qp as a user, its old ones (if any) lose it; the
 * EV table, source routes, CC and ids change under qp->lock, all at once
 * for the data path and for netlink's readers.
 */
void mrc_ctl_qp_commit(struct mrc_ctl_dev *ctl, struct mrc_qp *qp,
		       struct mrc_ctl_binding *b)
{
	bool bound = !list_empty(&qp->ctl_node);
	struct mrc_prof *old_evp = NULL, *old_ccp = NULL;
	struct mrc_srv6_routes *rs;
	struct mrc_ev_table evs;

	lockdep_assert_held(&ctl->lock);
	if (bound) {
		old_evp = mrc_prof_find(&mrc_evprof_kind, ctl, qp->ev_profile_id);
		old_ccp = mrc_prof_find(&mrc_ccprof_kind, ctl, qp->cc_profile_id);
		/* What the old EVs counted stays in the totals. */
		if (!WARN_ON_ONCE(!old_evp))
			mrc_ctl_qp_retire(ctl, qp, mrc_ctl_evp_of(old_evp));
		ctl->qp_evs -= min_t(u32, ctl->qp_evs, qp->mp.evs.count);
	}
	b->evs.changed = mrc_ev_acct_changed;
	spin_lock_bh(&qp->lock);
	evs = qp->mp.evs;
	qp->mp.evs = b->evs;
	b->evs = evs;
	rs = qp->mp.srv6;
	qp->mp.srv6 = b->srv6;
	b->srv6 = rs;
	/* From here on, state changes are stamped and may raise events. */
	qp->mp.ev_event_mask = mrc_ctl_b_evp(b)->event_mask;
	qp->ev_profile_id = b->evp_id;
	qp->cc_profile_id = b->ccp_id;
	if (b->cc_alg == MRC_CC_ALG_NSCC)
		mrc_cc_use_nscc(qp, &b->nscc);
	else
		mrc_cc_use_window(qp, &b->win);
	spin_unlock_bh(&qp->lock);
	b->evs.changed = NULL;
	if (old_evp)
		old_evp->nusers--;
	if (old_ccp)
		old_ccp->nusers--;
	b->evp->nusers++;
	b->ccp->nusers++;
	ctl->qp_evs += qp->mp.evs.count;
	if (!bound)
		list_add_tail(&qp->ctl_node, &ctl->qps);
}

/**
 * mrc_ctl_qp_bind() - give a new QP its profiles and EVs
 * @mdev: the device
 * @qp: the QP, not yet visible to the network or to netlink
 * @cmd: the profiles the creator named (flags say which), or NULL
 *
 * mrc_ctl_qp_prepare() says what is checked; the module parameters
 * ev_count, ev_min_active and qp_ev_limit give an AUTO profile's EVs and
 * the device's EV limit, which a user QP may not take the total over (a
 * kernel QP, QP1, only counts).
 *
 * Return: 0, -EINVAL when a profile does not exist or is not ONLINE,
 * -ENOSPC when a user QP's EVs do not fit under qp_ev_limit,
 * -EPERM when a profile's access rule refuses the creating task
 * (user QPs only), or -ENOMEM. On success mrc_ctl_qp_unbind() undoes it.
 */
int mrc_ctl_qp_bind(struct mrc_dev *mdev, struct mrc_qp *qp,
		    const struct mrc_qp_profile_cmd *cmd)
{
	struct mrc_ctl_dev *ctl = mdev->ctl;
	struct mrc_ctl_bind_why why = {};
	struct mrc_ctl_binding b;
	int err;

	mutex_lock(&ctl->lock);
	err = mrc_ctl_qp_prepare(mdev, qp, cmd, 0, &b, &why);
	if (!err)
		mrc_ctl_qp_commit(ctl, qp, &b);
	else if (why.msg)
		ibdev_dbg(&mdev->ib_dev, "a new QP: %s %llu: %s\n",
			  why.kind == MRC_PROF_QP_CC ? "CC profile" : "EV profile",
			  why.kind == MRC_PROF_QP_CC ? b.ccp_id : b.evp_id,
			  why.msg);
	mutex_unlock(&ctl->lock);
	/* A new QP held nothing before; a failed prepare built nothing. */
	mrc_ctl_binding_release(&b);
	return err;
}

/* Why a QP in @state cannot be rebound; NULL if it can. */
static const char *mrc_ctl_qp_busy(enum ib_qp_state state)
{
	switch (state) {
	case IB_QPS_RESET:
	case IB_QPS_INIT:
		return NULL;
	case IB_QPS_RTR:
		return "the QP is in RTR: only a QP in RESET or INIT can be rebound";
	case IB_QPS_RTS:
		return "the QP is in RTS: only a QP in RESET or INIT can be rebound";
	case IB_QPS_SQD:
		return "the QP is in SQD: only a QP in RESET or INIT can be rebound";
	case IB_QPS_SQE:
		return "the QP is in SQE: only a QP in RESET or INIT can be rebound";
	case IB_QPS_ERR:
		return "the QP is in ERR: only a QP in RESET or INIT can be rebound";
	}
	return "only a QP in RESET or INIT can be rebound";
}

/* Whether @qp is in a state it may be rebound in; @why says if not. */
static bool mrc_ctl_qp_idle(struct mrc_qp *qp, struct mrc_ctl_bind_why *why)
{
	const char *busy;

	spin_lock_bh(&qp->lock);
	busy = mrc_ctl_qp_busy(qp->state);
	spin_unlock_bh(&qp->lock);
	mrc_ctl_refuse(why, MRC_PROF_QP_NONE, busy, 0);
	return !busy;
}

/**
 * mrc_ctl_qp_rebind() - bind a user QP still in RESET or INIT to other
 *	profiles
 * @mdev: the device
 * @qp: the QP, a reference held; the caller has checked that the
 *	requester may change it
 * @ids: the profiles (flags say which; the QP keeps the other one)
 * @prev: set to both ids the QP had before, flags MRC_QP_F_ALL
 * @why: on failure, why (a message for the requester, and which id)
 *
 * The checks of create (mrc_ctl_qp_prepare()), against the current task;
 * the QP's own EVs do not count against the device's limit, as it gives
 * them back. The QP's modify_lock keeps it from moving on meanwhile (the
 * engine, under qp->lock, may still fail it to ERR: checked again at the
 * swap). Nothing changes on failure. Rebinding to the profiles the QP
 * has builds its EV table anew (fresh state, counters kept in the totals).
 *
 * Return: 0, -EBUSY when the QP is past INIT, -EINVAL when it is a
 * kernel QP, or what mrc_ctl_qp_prepare() refuses with.
 */
int mrc_ctl_qp_rebind(struct mrc_dev *mdev, struct mrc_qp *qp,
		      const struct mrc_qp_profile_cmd *ids,
		      struct mrc_qp_profile_cmd *prev,
		      struct mrc_ctl_bind_why *why)
{
	struct mrc_qp_profile_cmd want = *ids;
	struct mrc_ctl_dev *ctl = mdev->ctl;
	struct mrc_ctl_binding b = {};
	bool srv6 = false;
	int err;

	if (!qp->is_user)
		return mrc_ctl_refuse(why, MRC_PROF_QP_NONE,
				      "a kernel QP keeps the profiles its creator chose",
				      -EINVAL);
	mutex_lock(&qp->modify_lock);
	if (!mrc_ctl_qp_idle(qp, why)) {
		err = -EBUSY;
		goto out;
	}
	mutex_lock(&ctl->lock);
	if (WARN_ON_ONCE(list_empty(&qp->ctl_node))) {
		err = mrc_ctl_refuse(why, MRC_PROF_QP_NONE, NULL, -ENOENT);
		goto unlock;
	}
	prev->flags = MRC_QP_F_ALL;
	prev->ev_profile_id = qp->ev_profile_id;
	prev->cc_profile_id = qp->cc_profile_id;
	/* The one it does not name stays: it is not the device default's. */
	if (!(want.flags & MRC_QP_F_EV_PROFILE))
		want.ev_profile_id = qp->ev_profile_id;
	if (!(want.flags & MRC_QP_F_CC_PROFILE))
		want.cc_profile_id = qp->cc_profile_id;
	want.flags = MRC_QP_F_ALL;
	err = mrc_ctl_qp_prepare(mdev, qp, &want, qp->mp.evs.count, &b, why);
	if (err)
		goto unlock;
	/* The engine may have failed an INIT QP since. */
	if (!mrc_ctl_qp_idle(qp, why)) {
		err = -EBUSY;
		goto unlock;
	}
	mrc_ctl_qp_commit(ctl, qp, &b);
	srv6 = !!b.srv6;
unlock:
	mutex_unlock(&ctl->lock);
	/*
	 * A QP that was sending before a reset may still have a packet on
	 * its way out with one of its old source routes: queued (dropped
	 * here: a QP in RESET or INIT has nothing to send), or being sent,
	 * which happens with bottom halves off and so within an RCU grace
	 * period.
	 */
	if (srv6)
		skb_queue_purge(&qp->txq);
out:
	mutex_unlock(&qp->modify_lock);
	if (srv6)
		synchronize_rcu();
	mrc_ctl_binding_release(&b);
	return err;
}

/**
 * mrc_ctl_qp_next() - the QP after @qp in the device's list of bound QPs
 * @ctl: the device's control state, locked
 * @qp: a QP in the list
 *
 * Return: the next QP, or NULL when @qp is the last.
 */
struct mrc_qp *mrc_ctl_qp_next(struct mrc_ctl_dev *ctl, struct mrc_qp *qp)
{
	lockdep_assert_held(&ctl->lock);
	return list_is_last(&qp->ctl_node, &ctl->qps) ? NULL :
	       list_next_entry(qp, ctl_node);
}

/**
 * mrc_ctl_qp_unbind() - a QP goes: its profiles lose a user
 * @mdev: the device
 * @qp: the QP; safe if never bound (its ctl_node initialised empty)
 */
void mrc_ctl_qp_unbind(struct mrc_dev *mdev, struct mrc_qp *qp)
{
	struct mrc_ctl_dev *ctl = mdev->ctl;
	struct mrc_prof *prof;

	mutex_lock(&ctl->lock);
	if (!list_empty(&qp->ctl_node)) {
		prof = mrc_prof_find(&mrc_evprof_kind, ctl, qp->ev_profile_id);
		if (!WARN_ON_ONCE(!prof)) {
			prof->nusers--;
			mrc_ctl_qp_retire(ctl, qp, container_of(prof,
								struct mrc_evprof, p));
		}
		prof = mrc_prof_find(&mrc_ccprof_kind, ctl, qp->cc_profile_id);
		if (!WARN_ON_ONCE(!prof))
			prof->nusers--;
		ctl->qp_evs -= qp->mp.evs.count;
		if (ctl->walk_next == qp)
			ctl->walk_next = mrc_ctl_qp_next(ctl, qp);
		list_del_init(&qp->ctl_node);
	}
	mutex_unlock(&ctl->lock);
}
