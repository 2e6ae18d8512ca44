// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requester: fetch send WQEs from the SQ ring (mrc_sq_fetch.c checks each
 * one), then, in one pass under the QP lock, resend what was lost
 * (mrc_req_retx.c), send what the windows allow (mrc_req_send.c) and
 * complete what is done (mrc_req_complete.c).
 */
#include "engine/mrc_qp.h"

/*
 * Execute a local operation where the requester reaches it in the SQ, so
 * that every later request sees its effect. It sends nothing and
 * completes, in order, once every packet before it is acknowledged: its
 * PSN range is empty, at the next PSN.
 */
static void mrc_req_local_op(struct mrc_qp *qp, struct mrc_swqe *w)
{
	enum mrc_stat stat = MRC_STAT_MR_LOCAL_INV;
	struct ib_pd *pd = qp->ibqp.pd;

	w->first_psn = mrc_txwin_next_psn(&qp->req.txwin);
	if (w->wqe.opcode == IB_WR_REG_MR) {
		w->status = mrc_mr_fast_reg(qp->mdev, pd, w->wqe.rkey,
					    (int)w->wqe.compare_add);
		stat = MRC_STAT_MR_FAST_REG;
	} else if (w->wqe.opcode == IB_WR_BIND_MW) {
		w->status = mrc_mw_bind(qp->mdev, pd, qp->ibqp.qp_num, &w->wqe);
		stat = MRC_STAT_MW_BIND;
	} else if (mrc_mr_invalidate(qp->mdev, pd, w->wqe.imm_data, 0)) {
		/* As a failed REG_MR, and as rxe completes both. */
		w->status = IB_WC_LOC_QP_OP_ERR;
	}
	if (w->status == IB_WC_SUCCESS)
		mrc_stats_inc(&qp->mdev->stats, stat);
	w->state = MRC_SWQE_DONE;
}

/* Fetch new WQEs and transmit what the window allows. */
static void mrc_req_progress(struct mrc_qp *qp)
{
	int avail = mrc_ring_avail(&qp->sq);
	u32 fetched = qp->req.sq_fetch;

	if (avail < 0) {
		qp->req.sq_err = true;
		mrc_qp_error_locked(qp);
		return;
	}
	while (!qp->req.sq_err && qp->req.sq_fetch - qp->sq.own < (u32)avail) {
		int status = mrc_sq_fetch(qp, qp->req.sq_fetch);

		if (status != IB_WC_SUCCESS) {
			qp->req.swqe[qp->req.sq_fetch & qp->sq.mask].status = status;
			qp->req.sq_err = true;
		}
		qp->req.sq_fetch++;
	}
	if (qp->req.sq_fetch != fetched)
		mrc_dack_on_post(qp);

	mrc_req_compute_pin(qp);
	while (qp->req.sq_send != qp->req.sq_fetch) {
		struct mrc_swqe *w = &qp->req.swqe[qp->req.sq_send & qp->sq.mask];

		if (w->status != IB_WC_SUCCESS) {
			qp->req.sq_send++;
			break;
		}
		if ((w->wqe.send_flags & IB_SEND_FENCE) && w->sent == 0 &&
		    qp->req.rd_atomic_out)
			break;
		if (mrc_op_is_local(w->wqe.opcode)) {
			mrc_req_local_op(qp, w);
			qp->req.sq_send++;
			if (w->status != IB_WC_SUCCESS)
				break;
			continue;
		}
		if (mrc_req_transmit(qp, qp->req.sq_send) == -EFAULT) {
			qp->req.sq_err = true;
			qp->req.sq_send++;
			break;
		}
		if (w->sent < w->npkts)
			break;
		w->state = mrc_op_is_read_atomic(w->wqe.opcode) ?
			   MRC_SWQE_SENT : MRC_SWQE_DONE;
		qp->req.sq_send++;
	}
}

/**
 * mrc_req_run() - the requester: retransmit, fetch, transmit, complete
 * @qp: the QP; called from its work item or a doorbell, never with
 *      @qp->lock held
 */
void mrc_req_run(struct mrc_qp *qp)
{
	spin_lock_bh(&qp->lock);
	if (qp->state == IB_QPS_ERR) {
		mrc_req_flush_locked(qp);
	} else if (qp->type == IB_QPT_UC) {
		if (qp->state == IB_QPS_RTS)
			mrc_uc_send(qp);
	} else if (qp->type != IB_QPT_RC) {
		if (qp->state == IB_QPS_RTS)
			mrc_ud_send(qp);
	} else if ((qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD) &&
		   !qp->req.rnr.waiting) {
		mrc_req_retransmit(qp);
		if (qp->state == IB_QPS_RTS)
			mrc_req_progress(qp);
		mrc_req_complete(qp);
		mrc_req_arm_rto(qp, false);
		mrc_loss_arm_tlp(qp);
		/* Packets leave now that no held ACK could ride on. */
		if (!skb_queue_empty(&qp->txq))
			mrc_dack_send(qp);
	}
	spin_unlock_bh(&qp->lock);
	mrc_tx_flush_now(qp);
}

/**
 * mrc_req_doorbell() - a poster rang the QP's doorbell
 * @qp: the QP
 * @inline_ok: the caller's context may run the requester
 *
 * The requester runs right here when this CPU is the QP's home (which
 * follows a poster that stays on another CPU), saving a context switch
 * per small message; elsewhere its home runs it.
 */
void mrc_req_doorbell(struct mrc_qp *qp, bool inline_ok)
{
	if (mrc_home_doorbell(&qp->home, raw_smp_processor_id()) && inline_ok)
		mrc_req_run(qp);
	else
		mrc_req_kick(qp);
}

/**
 * mrc_req_work() - run the requester from the workqueue
 * @work: the QP's req.work
 */
void mrc_req_work(struct work_struct *work)
{
	mrc_req_run(container_of(work, struct mrc_qp, req.work));
}
