// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requester side of receiver-not-ready: an RNR NACK stops transmission
 * for the responder's RNR time, then everything outstanding is sent
 * again. The waits run on a timer of their own: they neither spend the
 * retransmission timer's retries nor back it off (an RNR NACK is an
 * answer and resets both), and leave the congestion window alone. Rules
 * in mrc_rnr.h.
 */
#include "engine/mrc_qp.h"

/**
 * mrc_req_rnr_nack() - an RNR NACK arrived for one of our PSNs
 * @qp: the QP, with @qp->lock held
 * @pkt: the NACK
 *
 * Return: true when RNR retries are exhausted: the caller fails the WQE
 * of @pkt->psn with IB_WC_RNR_RETRY_EXC_ERR.
 */
bool mrc_req_rnr_nack(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	const struct mrc_tx_entry *e = mrc_txwin_entry(&qp->req.txwin, pkt->psn);
	u64 wait_ns;

	BUILD_BUG_ON(MRC_RNR_TIMER_MAX != MRC_AETH_RNR_TIMER_MAX);
	/* A late NACK for a PSN since received says nothing new. */
	if (!e || (e->flags & MRC_TXE_SACKED))
		return false;
	switch (mrc_rnr_on_nack(&qp->req.rnr, pkt->psn, pkt->aeth.timestamp,
				qp->rnr_retry)) {
	case MRC_RNR_EXCEEDED:
		return true;
	case MRC_RNR_IGNORE:
		return false;
	case MRC_RNR_WAIT:
		break;
	}
	wait_ns = mrc_rnr_timer_ns(pkt->aeth.rnr_timer);
	pr_debug("mrc: qp %u rnr psn %u retry %u wait %llu ns\n",
		 qp->ibqp.qp_num, pkt->psn, qp->req.rnr.retries, wait_ns);
	/*
	 * The wait is not a timeout: the RTO stays off until it ends. The
	 * peer answered, so timeouts before this one were no dead path.
	 */
	mrc_rto_on_progress(&qp->req.rto);
	timer_delete(&qp->req.rto_timer);
	qp->req.rto_armed = false;
	if (!qp->timers_off)
		hrtimer_start(&qp->req.rnr_timer, ns_to_ktime(wait_ns),
			      HRTIMER_MODE_REL_SOFT);
	return false;
}

/**
 * mrc_req_rnr_fire() - an RNR wait ended
 * @timer: the QP's rnr_timer
 *
 * Marks every outstanding, un-SACKED PSN lost (the NACKed one and those
 * after it, which the responder dropped) and lets the requester send them.
 *
 * Return: HRTIMER_NORESTART.
 */
enum hrtimer_restart mrc_req_rnr_fire(struct hrtimer *timer)
{
	struct mrc_qp *qp = container_of(timer, struct mrc_qp, req.rnr_timer);

	spin_lock(&qp->lock);
	if (mrc_rnr_resume(&qp->req.rnr, mrc_now_ts()) &&
	    (qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD))
		mrc_txwin_mark_all_lost(&qp->req.txwin);
	spin_unlock(&qp->lock);
	mrc_req_kick(qp);
	return HRTIMER_NORESTART;
}

/**
 * mrc_req_rnr_reset() - forget RNR retries and end any wait
 * @qp: the QP, with @qp->lock held
 *
 * A callback already running finds nothing to resume.
 */
void mrc_req_rnr_reset(struct mrc_qp *qp)
{
	hrtimer_try_to_cancel(&qp->req.rnr_timer);
	mrc_rnr_reset(&qp->req.rnr);
}
