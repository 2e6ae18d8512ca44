// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * QPs and profiles. A QP binds to an EV profile and a CC profile when it
 * is created (the ones it names, else the device defaults) and unbinds
 * when it goes; a profile with bound QPs cannot go OFFLINE or away. The
 * EVs are copied into the QP at bind, so the data path never reads a
 * profile; what an administrator changes later on a bound profile (DENY)
 * is pushed into each QP under its lock.
 */
#include <linux/cred.h>
#include <linux/slab.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_qp.h"
#include "core/mrc_ev.h"

/* The profile @id of @kind if it is ONLINE, else NULL. */
static struct mrc_prof *mrc_ctl_online(const struct mrc_prof_kind *kind,
				       struct mrc_ctl_dev *ctl, u64 id)
{
	struct mrc_prof *prof = mrc_prof_find(kind, ctl, id);

	return prof && prof->state == MRC_PROF_ONLINE ? prof : NULL;
}

static int mrc_ctl_qp_init_evs(struct mrc_qp *qp, const struct mrc_evprof *evp,
			       u16 auto_count, u16 auto_min_active)
{
	struct mrc_ev_wire *wire;
	u32 i;
	int err;

	if (evp->mode == MRC_EV_MODE_AUTO)
		return mrc_ev_init_auto(&qp->evs, auto_count, auto_min_active,
					get_random_u32() & MRC_EV_SPORT_MASK);
	wire = kvcalloc(evp->nev, sizeof(*wire), GFP_KERNEL_ACCOUNT);
	if (!wire)
		return -ENOMEM;
	for (i = 0; i < evp->nev; i++) {
		wire[i].sport = evp->ev[i].sport;
		wire[i].flow_label = evp->ev[i].flow_label;
	}
	err = mrc_ev_init(&qp->evs, evp->nev, evp->min_active, wire);
	kvfree(wire);
	/* SRv6 routes are shared, not copied: they never change. */
	if (!err)
		qp->srv6 = mrc_srv6_routes_get(evp->srv6);
	for (i = 0; !err && i < evp->nev; i++)
		if (evp->ev[i].denied)
			mrc_ev_set_denied(&qp->evs, i, true);
	return err;
}

/*
 * @qp runs @cc's algorithm with its parameters. Validation at CCPROF_SET
 * and ONLINE keeps them in range (control-plane.rst); checked again here
 * because a QP must never run a window that does not make sense.
 */
static int mrc_ctl_qp_init_cc(struct mrc_qp *qp, const struct mrc_ccprof *cc)
{
	struct mrc_cwnd_params p = {
		.init = cc->param[MRC_CC_WIN_INIT_PKTS],
		.min = cc->param[MRC_CC_WIN_MIN_PKTS],
		.qdelay_ts = DIV_ROUND_UP(cc->param[MRC_CC_WIN_QDELAY_TARGET_NS],
					  1024),
	};
	struct mrc_nscc_params np;
	const char *why;
	int err;

	if (cc->alg == MRC_CC_ALG_NSCC) {
		mrc_ccprof_nscc_params(cc, &np);
		err = mrc_nscc_check_params(&np, &why);
		if (!err)
			mrc_cc_use_nscc(qp, &np);
		return err;
	}
	if (cc->alg != MRC_CC_ALG_WINDOW)
		return -EINVAL;
	err = mrc_cwnd_check_params(&p);
	if (err)
		return err;
	mrc_cc_use_window(qp, &p);
	return 0;
}

/*
 * Whether the task creating user QP @qp may use @prof (@kind's profile
 * @id, the device default when @dflt): the profile's access rule, with
 * CAP_NET_ADMIN over the device's network namespace (mrc_prof_may_bind()).
 * Kernel QPs are not checked: their creator is the kernel.
 */
static int mrc_ctl_qp_access(struct mrc_dev *mdev, struct mrc_qp *qp,
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
 * Whether @qp may take the EVs of @evp (@auto_count for AUTO) with the
 * device's QPs holding ctl->qp_evs already: a user QP may not take the
 * total over @ev_limit. The limit bounds what the QPs of all users
 * together hold (each EV about 210 bytes, charged to its QP's creator)
 * and so how long the walks over every QP's EVs take.
 */
static int mrc_ctl_qp_ev_room(struct mrc_dev *mdev, const struct mrc_qp *qp,
			      const struct mrc_evprof *evp, u16 auto_count,
			      u32 ev_limit)
{
	u32 held = mdev->ctl->qp_evs;
	u32 nev = evp->mode == MRC_EV_MODE_AUTO ? auto_count : evp->nev;

	if (!qp->is_user || (nev <= ev_limit && held <= ev_limit - nev))
		return 0;
	ibdev_dbg(&mdev->ib_dev,
		  "a QP of EV profile %llu needs %u EVs: %u of qp_ev_limit %u are held\n",
		  evp->p.id, nev, held, ev_limit);
	return -ENOSPC;
}

/**
 * mrc_ctl_qp_bind() - give a new QP its profiles and EVs
 * @mdev: the device
 * @qp: the QP, not yet visible to the network or to netlink
 * @cmd: the profiles the creator named (flags say which), or NULL
 * @auto_count: EVs of an AUTO profile (the ev_count module parameter)
 * @auto_min_active: min_active of an AUTO profile
 * @ev_limit: EVs the device's QPs may hold together (the qp_ev_limit
 *	module parameter); a user QP that would take the total over it is
 *	refused, a kernel QP (QP1) only counts
 *
 * Return: 0, -EINVAL when a profile does not exist or is not ONLINE,
 * -ENOSPC when a user QP's EVs do not fit under @ev_limit,
 * -EPERM when a profile's access rule refuses the creating task
 * (user QPs only), or -ENOMEM. On success mrc_ctl_qp_unbind() undoes it.
 */
int mrc_ctl_qp_bind(struct mrc_dev *mdev, struct mrc_qp *qp,
		    const struct mrc_qp_profile_cmd *cmd, u16 auto_count,
		    u16 auto_min_active, u32 ev_limit)
{
	struct mrc_ctl_dev *ctl = mdev->ctl;
	struct mrc_prof *evp, *ccp;
	u64 evp_id, ccp_id;
	int err;

	mutex_lock(&ctl->lock);
	evp_id = cmd && (cmd->flags & MRC_QP_F_EV_PROFILE) ?
		 cmd->ev_profile_id : ctl->default_evp;
	ccp_id = cmd && (cmd->flags & MRC_QP_F_CC_PROFILE) ?
		 cmd->cc_profile_id : ctl->default_ccp;
	evp = mrc_ctl_online(&mrc_evprof_kind, ctl, evp_id);
	ccp = mrc_ctl_online(&mrc_ccprof_kind, ctl, ccp_id);
	if (!evp || !ccp) {
		ibdev_dbg(&mdev->ib_dev, "no ONLINE %s profile %llu for a new QP\n",
			  evp ? "CC" : "EV", evp ? ccp_id : evp_id);
		err = -EINVAL;
		goto out;
	}
	err = mrc_ctl_qp_access(mdev, qp, &mrc_evprof_kind, evp,
				ctl->default_evp);
	if (!err)
		err = mrc_ctl_qp_access(mdev, qp, &mrc_ccprof_kind, ccp,
					ctl->default_ccp);
	if (err)
		goto out;
	err = mrc_ctl_qp_ev_room(mdev, qp, container_of(evp, struct mrc_evprof, p),
				 auto_count, ev_limit);
	if (err)
		goto out;
	err = mrc_ctl_qp_init_cc(qp, container_of(ccp, struct mrc_ccprof, p));
	if (err) {
		ibdev_dbg(&mdev->ib_dev, "CC profile %llu cannot run a QP\n",
			  ccp_id);
		goto out;
	}
	err = mrc_ctl_qp_init_evs(qp, container_of(evp, struct mrc_evprof, p),
				  auto_count, auto_min_active);
	if (err)
		goto out;
	/* From here on, state changes are stamped and may raise events. */
	qp->evs.changed = mrc_ev_acct_changed;
	qp->ev_event_mask = container_of(evp, struct mrc_evprof, p)->event_mask;
	qp->ev_profile_id = evp_id;
	qp->cc_profile_id = ccp_id;
	evp->nusers++;
	ccp->nusers++;
	ctl->qp_evs += qp->evs.count;
	list_add_tail(&qp->ctl_node, &ctl->qps);
out:
	mutex_unlock(&ctl->lock);
	return err;
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
	u32 i, k, n = min_t(u32, evp->nev, qp->evs.count);
	/* A walk of mrc_hw_stats.c is under way and has not counted it yet. */
	bool missed = ctl->walking && qp->ctl_walk_gen != ctl->walk_gen;

	if (n && !evp->retired)
		evp->retired = kvcalloc(evp->nev, sizeof(*evp->retired),
					GFP_KERNEL);
	spin_lock_bh(&qp->lock);
	for (i = 0; i < qp->evs.count; i++) {
		const struct mrc_ev_stats *st = &qp->evs.st[i];

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
	qp->evs.changed = NULL;
	spin_unlock_bh(&qp->lock);
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
		ctl->qp_evs -= qp->evs.count;
		if (ctl->walk_next == qp)
			ctl->walk_next = mrc_ctl_qp_next(ctl, qp);
		list_del_init(&qp->ctl_node);
	}
	mutex_unlock(&ctl->lock);
}
