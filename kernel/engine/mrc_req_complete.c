// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requester, completion: complete send WQEs in order once every packet is
 * accounted for, and flush them all when the QP is in the error state.
 */
#include "engine/mrc_qp.h"

static u32 mrc_wc_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return IB_WC_RDMA_WRITE;
	case IB_WR_RDMA_READ:
		return IB_WC_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return IB_WC_COMP_SWAP;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return IB_WC_FETCH_ADD;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	case IB_WR_REG_MR:
		return IB_WC_REG_MR;
	case IB_WR_BIND_MW:
		return IB_WC_BIND_MW;
	default:
		return IB_WC_SEND;
	}
}

static void mrc_req_post_cqe(struct mrc_qp *qp, const struct mrc_send_wqe *wqe,
			     u32 length, int status)
{
	struct mrc_cqe cqe = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = mrc_wc_opcode(wqe->opcode),
		.byte_len = length,
		.qp_num = qp->ibqp.qp_num,
	};

	mrc_cq_post(to_mrc_cq(qp->ibqp.send_cq), &cqe, &qp->ibqp, false);
}

/* Complete, in order, the WQEs whose every packet is accounted for. */
void mrc_req_complete(struct mrc_qp *qp)
{
	u32 una = mrc_txwin_oldest_unacked(&qp->req.txwin);

	while (qp->sq.own != qp->req.sq_send) {
		struct mrc_swqe *w = &qp->req.swqe[qp->sq.own & qp->sq.mask];
		bool rd = mrc_op_is_read_atomic(w->wqe.opcode);

		if (w->status == IB_WC_SUCCESS) {
			if (rd && w->state != MRC_SWQE_DONE)
				break;
			if (!rd && mrc_psn_after(w->first_psn + w->npkts, una))
				break;
		}
		if (rd && w->sent)
			qp->req.rd_atomic_out--;
		if (w->wqe.opcode == IB_WR_RDMA_READ)
			qp->req.rd_pending -= min(qp->req.rd_pending, w->sent - w->got);
		/*
		 * Free the slot before the completion is visible: a consumer
		 * that sees the CQE may post into the slot at once.
		 */
		mrc_ring_consume(&qp->sq);
		if (w->status != IB_WC_SUCCESS || qp->sig_all ||
		    (w->wqe.send_flags & IB_SEND_SIGNALED))
			mrc_req_post_cqe(qp, &w->wqe, w->length, w->status);
		if (w->status != IB_WC_SUCCESS) {
			mrc_qp_error_locked(qp);
			break;
		}
	}
}

/**
 * mrc_req_flush_locked() - complete every outstanding WQE as flushed
 * @qp: the QP, in the error state, with @qp->lock held
 */
void mrc_req_flush_locked(struct mrc_qp *qp)
{
	struct mrc_send_wqe wqe;
	u32 prod, n;

	/* Pairs with the provider publishing WQEs before prod. */
	prod = smp_load_acquire(&qp->sq.ctrl->prod);
	n = prod - qp->sq.own;
	if (n > mrc_ring_num_slots(&qp->sq))
		n = qp->req.sq_fetch - qp->sq.own;
	/* Never more than the ring holds, whatever the indices say. */
	if (WARN_ON_ONCE(n > mrc_ring_num_slots(&qp->sq)))
		n = 0;
	while (n--) {
		u32 idx = qp->sq.own;

		if (idx - qp->sq.own < qp->req.sq_fetch - qp->sq.own)
			wqe = qp->req.swqe[idx & qp->sq.mask].wqe;
		else
			memcpy(&wqe, mrc_ring_slot(&qp->sq, idx), sizeof(wqe));
		mrc_ring_consume(&qp->sq);
		mrc_req_post_cqe(qp, &wqe, 0, IB_WC_WR_FLUSH_ERR);
		if (qp->req.sq_fetch == idx)
			qp->req.sq_fetch++;
	}
	qp->req.sq_fetch = qp->sq.own;
	qp->req.sq_send = qp->sq.own;
	qp->req.rd_atomic_out = 0;
	qp->req.rd_pending = 0;
	timer_delete(&qp->req.rto_timer);
	qp->req.rto_armed = false;
	mrc_resp_flush(qp);
}

/**
 * mrc_req_flush() - flush a QP in the error state
 * @qp: the QP
 */
void mrc_req_flush(struct mrc_qp *qp)
{
	spin_lock_bh(&qp->lock);
	if (qp->state == IB_QPS_ERR)
		mrc_req_flush_locked(qp);
	spin_unlock_bh(&qp->lock);
}
