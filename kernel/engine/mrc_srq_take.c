// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder's side of a shared receive queue: take the next receive
 * WQE, and fail one that was malformed. Creating and posting to an SRQ is
 * verbs/mrc_srq.c.
 */
#include "engine/mrc_obj.h"

/**
 * mrc_srq_take() - take the next receive WQE for an incoming SEND
 * @srq: the SRQ
 * @wqe: header copied out of the (untrusted) ring
 * @sge: room for @srq->max_sge entries, copied out
 *
 * A WQE with more SGEs than the SRQ's max_sge or a non-zero reserved field
 * is consumed all the same, so that it cannot block the SRQ: the caller
 * completes it in error (mrc_srq_fail()) with @wqe->wr_id.
 *
 * Return: 0, -EAGAIN when the SRQ is empty (receiver not ready), -EINVAL
 * when the producer wrote an impossible index, or -EBADMSG for a malformed
 * WQE, consumed.
 */
int mrc_srq_take(struct mrc_srq *srq, struct mrc_recv_wqe *wqe,
		 struct mrc_sge *sge)
{
	struct ib_event ev = {
		.device = srq->ibsrq.device,
		.element.srq = &srq->ibsrq,
		.event = IB_EVENT_SRQ_LIMIT_REACHED,
	};
	bool limit_hit = false;
	unsigned long flags;
	int avail, err = 0;
	const void *slot;

	spin_lock_irqsave(&srq->lock, flags);
	avail = mrc_ring_avail(&srq->ring);
	if (avail <= 0) {
		err = avail < 0 ? avail : -EAGAIN;
		goto out;
	}
	slot = mrc_ring_slot(&srq->ring, srq->ring.own);
	memcpy(wqe, slot, sizeof(*wqe));
	if (wqe->num_sge > srq->max_sge || wqe->reserved) {
		wqe->num_sge = 0;
		err = -EBADMSG;
	} else {
		memcpy(sge, slot + sizeof(*wqe), wqe->num_sge * sizeof(*sge));
	}
	mrc_ring_consume(&srq->ring);
	if (srq->limit && avail - 1 < srq->limit) {
		srq->limit = 0;
		limit_hit = true;
	}
out:
	spin_unlock_irqrestore(&srq->lock, flags);
	if (limit_hit && srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	return err;
}

/**
 * mrc_srq_fail() - complete a malformed SRQ WQE on the QP that took it
 * @ibqp: the QP, with its lock held; the caller moves it to the error state
 * @wr_id: the WQE's wr_id, from mrc_srq_take()
 */
void mrc_srq_fail(struct ib_qp *ibqp, u64 wr_id)
{
	struct mrc_cqe cqe = {
		.wr_id = wr_id,
		.status = IB_WC_LOC_QP_OP_ERR,
		.opcode = IB_WC_RECV,
		.qp_num = ibqp->qp_num,
	};

	mrc_cq_post(to_mrc_cq(ibqp->recv_cq), &cqe, ibqp, false);
}
