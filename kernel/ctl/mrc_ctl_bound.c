// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the QPs bound to an EV profile hold: the profile's DENIED bits
 * pushed into each of them, and how many of its EVs some of them hold
 * ASSUMED_BAD. Apart from binding (mrc_ctl_qp.c) so that the profile
 * code can ask without the two calling each other.
 */
#include <linux/bitmap.h>
#include <linux/slab.h>

#include "ctl/mrc_ctl.h"
#include "ctl/mrc_prof.h"
#include "engine/mrc_qp.h"
#include "core/mrc_ev.h"

/**
 * mrc_ctl_push_denied() - give the QPs bound to @evp its DENIED bits
 * @ctl: the device's control state, locked
 * @evp: the EV profile, with at least one EV allowed
 *
 * The allowed EVs go first: a QP's table refuses to deny its last
 * allowed EV, and on the way from one allowed set to another the old
 * set must not have gone before the new one is there.
 */
void mrc_ctl_push_denied(struct mrc_ctl_dev *ctl, const struct mrc_evprof *evp)
{
	struct mrc_qp *qp;
	u32 i;

	lockdep_assert_held(&ctl->lock);
	list_for_each_entry(qp, &ctl->qps, ctl_node) {
		if (qp->ev_profile_id != evp->p.id)
			continue;
		spin_lock_bh(&qp->lock);
		for (i = 0; i < evp->nev && i < qp->mp.evs.count; i++)
			if (!evp->ev[i].denied)
				mrc_ev_set_denied(&qp->mp.evs, i, false);
		for (i = 0; i < evp->nev && i < qp->mp.evs.count; i++)
			if (evp->ev[i].denied)
				WARN_ON_ONCE(mrc_ev_set_denied(&qp->mp.evs, i, true));
		spin_unlock_bh(&qp->lock);
		cond_resched();
	}
}

/**
 * mrc_ctl_evprof_nbad() - how many of @evp's EVs some bound QP holds
 *	ASSUMED_BAD
 * @ctl: the device's control state, locked
 * @evp: the EV profile
 *
 * EVs are told apart by index, as STATS_GET sums them (for the built-in
 * AUTO profile, whose QPs pick their own ports, index i of each QP).
 * The walk reads one byte per EV of each bound QP, all under @ctl's lock:
 * the qp_ev_limit module parameter bounds it (4 Mi EVs by default), and
 * it yields the CPU after each QP.
 *
 * Return: the count, or -ENOMEM.
 */
int mrc_ctl_evprof_nbad(struct mrc_ctl_dev *ctl, const struct mrc_evprof *evp)
{
	unsigned long *bad;
	struct mrc_qp *qp;
	u32 i, n = 0;
	int nbad;

	lockdep_assert_held(&ctl->lock);
	list_for_each_entry(qp, &ctl->qps, ctl_node)
		if (qp->ev_profile_id == evp->p.id)
			n = max_t(u32, n, READ_ONCE(qp->mp.evs.count));
	if (!n)
		return 0;
	bad = bitmap_zalloc(n, GFP_KERNEL);
	if (!bad)
		return -ENOMEM;
	list_for_each_entry(qp, &ctl->qps, ctl_node) {
		if (qp->ev_profile_id != evp->p.id)
			continue;
		spin_lock_bh(&qp->lock);
		for (i = 0; i < n && i < qp->mp.evs.count; i++)
			if (qp->mp.evs.ev[i].state == MRC_EV_ASSUMED_BAD)
				__set_bit(i, bad);
		spin_unlock_bh(&qp->lock);
		cond_resched();
	}
	nbad = bitmap_weight(bad, n);
	bitmap_free(bad);
	return nbad;
}
