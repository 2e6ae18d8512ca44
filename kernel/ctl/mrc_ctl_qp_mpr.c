// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A QP's PSN ranges, OCP's MPR: how far beyond its oldest unacknowledged
 * PSN the requester may send (the send window's limit), and how far
 * beyond its cumulative point the responder accepts (the receive window).
 * Verbs has no attribute for them; libmrc sets them through QP_BIND on
 * the transitions the OCP API names, before any PSN is sent or accepted.
 */
#include <rdma/ib_verbs.h>

#include "ctl/mrc_ctl.h"
#include "engine/mrc_qp.h"
#include "uapi/mrc-genl.h"

static_assert(MRC_QP_MPR_MAX * MRC_QP_MPR_UNIT == MRC_QP_WINDOW);
static_assert(MRC_RXWIN_UNIT == MRC_QP_MPR_UNIT);

/*
 * Why @want may not be applied to @qp now (qp->lock held), with the errno;
 * NULL if it may: a range changes only before the QP uses it.
 */
static const char *mrc_ctl_mpr_refused(const struct mrc_qp *qp,
				       const struct mrc_qp_mpr *want, int *err,
				       bool *dest)
{
	bool before_rtr = qp->state == IB_QPS_RESET || qp->state == IB_QPS_INIT;

	*err = -EINVAL;
	*dest = false;
	if (!qp->is_user)
		return "a kernel QP keeps the PSN ranges of its window";
	*err = -EBUSY;
	*dest = want->dest && !before_rtr;
	if (*dest)
		return "the responder's PSN range (MPR_DEST) is set in RESET or INIT only";
	if (want->req && !before_rtr && qp->state != IB_QPS_RTR)
		return "the requester's PSN range (MPR) is set in RESET, INIT or RTR only";
	*err = 0;
	return NULL;
}

/**
 * mrc_ctl_qp_set_mpr() - set a user QP's PSN ranges
 * @qp: the QP, a reference held; the caller checked the sender may
 * @want: the ranges in PSNs, each 0 to leave it
 * @now: set to both ranges after the call, also on failure
 * @why: on failure, a message for the sender (a string literal)
 * @dest: on failure, whether @want->dest is at fault rather than @want->req
 *
 * Both change or neither does.
 *
 * Return: 0, -EINVAL for a kernel QP or a range that is not a multiple of
 * %MRC_QP_MPR_UNIT up to the window, -EBUSY in a state that uses it.
 */
int mrc_ctl_qp_set_mpr(struct mrc_qp *qp, const struct mrc_qp_mpr *want,
		       struct mrc_qp_mpr *now, const char **why, bool *dest)
{
	u32 old_req;
	int err;

	mutex_lock(&qp->modify_lock);
	spin_lock_bh(&qp->lock);
	old_req = qp->req.txwin.size;
	*why = mrc_ctl_mpr_refused(qp, want, &err, dest);
	if (!err && want->req)
		err = mrc_txwin_set_size(&qp->req.txwin, want->req);
	if (!err && want->dest) {
		err = mrc_rxwin_set_size(&qp->resp.rxwin, want->dest);
		*dest = !!err;
		if (err)
			mrc_txwin_set_size(&qp->req.txwin, old_req);
	}
	if (err && !*why)
		*why = "a PSN range beyond the window, or PSNs already outstanding";
	now->req = qp->req.txwin.size;
	now->dest = mrc_rxwin_size(&qp->resp.rxwin);
	spin_unlock_bh(&qp->lock);
	mutex_unlock(&qp->modify_lock);
	return err;
}
