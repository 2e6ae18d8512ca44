// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The responder's side of a shared receive queue: take the next receive
 * WQE, and fail one that was malformed. Creating and posting to an SRQ is
 * verbs/mrc_srq.c.
 */
#include "engine/mrc_obj.h"

/* Bytes the scatter list @sge of @n entries holds. */
static u64 mrc_srq_room(const struct mrc_sge *sge, u32 n)
{
	u64 room = 0;
	u32 i;

	for (i = 0; i < n; i++)
		room += sge[i].length;
	return room;
}

/**
 * mrc_srq_take() - take the next receive WQE for an incoming message
 * @srq: the SRQ
 * @wqe: header copied out of the (untrusted) ring
 * @sge: room for @srq->max_sge entries, copied out
 * @need: bytes the WQE must hold, or 0 to take it whatever it holds
 *
 * A WQE with more SGEs than the SRQ's max_sge or a non-zero reserved field
 * is consumed all the same, so that it cannot block the SRQ: the caller
 * completes it in error (mrc_srq_fail()) with @wqe->wr_id. One too small
 * for @need stays posted: a datagram too long for it is dropped, as on
 * the QP's own RQ, and the receive waits for one that fits.
 *
 * Return: 0, -EAGAIN when the SRQ is empty (receiver not ready), -EINVAL
 * when the producer wrote an impossible index, -EBADMSG for a malformed
 * WQE, consumed, or -EMSGSIZE for one smaller than @need, left posted.
 */
int mrc_srq_take(struct mrc_srq *srq, struct mrc_recv_wqe *wqe,
		 struct mrc_sge *sge, u64 need)
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
		if (need && mrc_srq_room(sge, wqe->num_sge) < need) {
			err = -EMSGSIZE;
			goto out;
		}
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
