// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unreliable connected QPs: SEND (with immediate or Invalidate) and WRITE
 * (with immediate) to one peer, with PSNs but no acknowledgment and no
 * retransmission. A send completes
 * when its packets are handed to the network. The receiver takes packets
 * in PSN order; one missing drops the message it belongs to, and the
 * next message that begins is received whole.
 */
#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"

/**
 * struct mrc_uc - what a UC QP keeps between packets
 * @tx_psn: PSN of the next packet sent
 * @epsn: PSN the receiver expects next
 * @active: a message is being received; its packets must follow in order
 * @opcode: its MRC_OP_*
 * @msg_len: its length
 * @got: its bytes placed so far
 * @wr_id: SEND: the receive WQE it fills, which stays posted until the
 *	message ends, so a message dropped halfway uses none
 * @num_sge: that WQE's SGEs
 * @sge: its scatter list, copied at the message's first packet
 * @srq_held: the WQE came from the QP's SRQ: it left the SRQ, and the QP
 *	holds it for the next message until one completes with it (or the
 *	QP's flush returns it)
 */
struct mrc_uc {
	u32 tx_psn;
	u32 epsn;
	bool active;
	bool srq_held;
	u8 opcode;
	u32 msg_len;
	u32 got;
	u64 wr_id;
	u32 num_sge;
	struct mrc_sge sge[MRC_MAX_SGE];
};

/**
 * mrc_uc_alloc() - give a UC QP its state
 * @qp: the QP being created, of type IB_QPT_UC
 *
 * Return: 0 or -ENOMEM.
 */
int mrc_uc_alloc(struct mrc_qp *qp)
{
	qp->uc = kzalloc(sizeof(*qp->uc), GFP_KERNEL_ACCOUNT);
	return qp->uc ? 0 : -ENOMEM;
}

/**
 * mrc_uc_set_psn() - the sq_psn or rq_psn attribute changed
 * @qp: a UC QP, with @qp->lock held
 */
void mrc_uc_set_psn(struct mrc_qp *qp)
{
	qp->uc->tx_psn = qp->sq_psn;
	qp->uc->epsn = qp->rq_psn;
	qp->uc->active = false;
}

static u8 mrc_uc_wire_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_SEND:
		return MRC_OP_SEND;
	case IB_WR_SEND_WITH_IMM:
		return MRC_OP_SEND_IMM;
	case IB_WR_SEND_WITH_INV:
		return MRC_OP_SEND_INV;
	case IB_WR_RDMA_WRITE:
		return MRC_OP_WRITE;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return MRC_OP_WRITE_IMM;
	default:
		return 0xff;
	}
}

/*
 * Packet @k of WQE @w: an IB_WC_* status. A packet that cannot be built
 * for want of memory is a packet lost, which UC allows.
 */
static int mrc_uc_send_pkt(struct mrc_qp *qp, struct mrc_swqe *w, u32 k)
{
	u32 offset = k * qp->seg;
	struct mrc_pkt pkt = {
		.opcode = mrc_uc_wire_opcode(w->wqe.opcode),
		.psn = qp->uc->tx_psn++,
		.payload_len = min(qp->seg, w->length - min(offset, w->length)),
		.dph = { .msn = w->rsn, .offset = offset,
			 .msg_len = w->length },
	};
	struct sk_buff *skb;
	void *payload;
	int status;

	if (k == 0)
		pkt.flags |= MRC_FLAG_FIRST;
	if (k == w->npkts - 1) {
		pkt.flags |= MRC_FLAG_LAST;
		if (w->wqe.send_flags & IB_SEND_SOLICITED)
			pkt.flags |= MRC_FLAG_SE;
	}
	/* SEND_INV's immediate is the R_Key to invalidate, as on RC. */
	if (pkt.opcode == MRC_OP_SEND_IMM || pkt.opcode == MRC_OP_WRITE_IMM ||
	    pkt.opcode == MRC_OP_SEND_INV) {
		pkt.flags |= MRC_FLAG_IMM;
		pkt.dph.imm = w->wqe.imm_data;
	}
	if (pkt.opcode == MRC_OP_WRITE || pkt.opcode == MRC_OP_WRITE_IMM) {
		pkt.reth.va = w->wqe.remote_addr;
		pkt.reth.rkey = w->wqe.rkey;
		pkt.reth.len = w->length;
	}
	skb = mrc_tx_alloc(qp, &pkt, &payload);
	if (!skb)
		return IB_WC_SUCCESS;
	status = mrc_swqe_copy(qp, w, offset, payload, pkt.payload_len, false);
	if (status != IB_WC_SUCCESS) {
		kfree_skb(skb);
		return status;
	}
	/* One EV: packets that overtook each other would drop messages. */
	mrc_tx_queue_ev(qp, skb, 0, true);
	return IB_WC_SUCCESS;
}

static void mrc_uc_send_cqe(struct mrc_qp *qp, const struct mrc_swqe *w)
{
	struct mrc_cqe cqe = {
		.wr_id = w->wqe.wr_id,
		.status = w->status,
		.opcode = w->wqe.opcode == IB_WR_RDMA_WRITE ||
			  w->wqe.opcode == IB_WR_RDMA_WRITE_WITH_IMM ?
			  IB_WC_RDMA_WRITE : IB_WC_SEND,
		.byte_len = w->length,
		.qp_num = qp->ibqp.qp_num,
	};

	mrc_cq_post(to_mrc_cq(qp->ibqp.send_cq), &cqe, &qp->ibqp, false);
}

/**
 * mrc_uc_send() - send what is posted on a UC QP
 * @qp: the QP, with @qp->lock held, in RTS
 *
 * Stops when the local queues are full (the requester is kicked when
 * they drain) and resumes with the packet after the last one sent. A
 * work request that fails (an opcode UC lacks, a bad L_Key) completes in
 * error and puts the QP in the error state.
 */
void mrc_uc_send(struct mrc_qp *qp)
{
	while (mrc_ring_avail(&qp->sq) > 0) {
		u32 idx = qp->sq.own;
		struct mrc_swqe *w = &qp->req.swqe[idx & qp->sq.mask];

		if (qp->req.sq_fetch == idx) {
			w->status = mrc_sq_fetch(qp, idx);
			if (w->status == IB_WC_SUCCESS &&
			    mrc_uc_wire_opcode(w->wqe.opcode) == 0xff)
				w->status = IB_WC_LOC_QP_OP_ERR;
			qp->req.sq_fetch++;
		}
		while (w->status == IB_WC_SUCCESS && w->sent < w->npkts) {
			if (!mrc_tx_acct_room(qp->tx_acct))
				return;
			w->status = mrc_uc_send_pkt(qp, w, w->sent);
			w->sent++;
		}
		/* Free the slot before the completion is visible. */
		mrc_ring_consume(&qp->sq);
		qp->req.sq_send = qp->sq.own;
		if (w->status != IB_WC_SUCCESS || qp->sig_all ||
		    (w->wqe.send_flags & IB_SEND_SIGNALED))
			mrc_uc_send_cqe(qp, w);
		if (w->status != IB_WC_SUCCESS) {
			mrc_qp_error_locked(qp);
			return;
		}
	}
}

/*
 * A receive WQE from the SRQ, held by the QP until a message completes
 * with it: a shared queue cannot keep it posted for this QP alone. A
 * malformed one is completed in error and fails the QP, as on RC.
 */
static bool mrc_uc_take_srq(struct mrc_qp *qp, struct mrc_uc *uc)
{
	struct mrc_recv_wqe wqe;
	int err;

	if (uc->srq_held)
		return true;
	err = mrc_srq_take(qp->srq, &wqe, uc->sge, 0);
	if (err == -EBADMSG) {
		mrc_srq_fail(&qp->ibqp, wqe.wr_id);
		mrc_qp_error_locked(qp);
	}
	if (err)
		return false;
	uc->num_sge = wqe.num_sge;
	uc->wr_id = wqe.wr_id;
	uc->srq_held = true;
	return true;
}

/**
 * mrc_uc_flush_held() - return the SRQ WQE a UC QP holds, flushed
 * @qp: a QP in the error state, with @qp->lock held
 */
void mrc_uc_flush_held(struct mrc_qp *qp)
{
	struct mrc_cqe cqe = {
		.opcode = IB_WC_RECV,
		.status = IB_WC_WR_FLUSH_ERR,
		.qp_num = qp->ibqp.qp_num,
	};

	if (!qp->uc || !qp->uc->srq_held)
		return;
	cqe.wr_id = qp->uc->wr_id;
	qp->uc->srq_held = false;
	mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &cqe, &qp->ibqp, false);
}

/*
 * The receive WQE at the head of the RQ (or held from the SRQ), copied;
 * false if none is usable.
 */
static bool mrc_uc_take_rwqe(struct mrc_qp *qp, struct mrc_uc *uc)
{
	struct mrc_recv_wqe wqe;
	const void *slot;

	if (qp->srq)
		return mrc_uc_take_srq(qp, uc);
	if (mrc_ring_avail(&qp->rq) <= 0)
		return false;
	slot = mrc_ring_slot(&qp->rq, qp->rq.own);
	memcpy(&wqe, slot, sizeof(wqe));
	if (wqe.num_sge > qp->rq_max_sge || wqe.reserved)
		return false;
	memcpy(uc->sge, slot + sizeof(wqe), wqe.num_sge * sizeof(*uc->sge));
	uc->num_sge = wqe.num_sge;
	uc->wr_id = wqe.wr_id;
	return true;
}

static bool mrc_uc_fits(const struct mrc_uc *uc, u32 len)
{
	u64 room = 0;
	u32 i;

	for (i = 0; i < uc->num_sge; i++)
		room += uc->sge[i].length;
	return len <= room;
}

/* Place @pkt's payload: false drops the message. */
static bool mrc_uc_place(struct mrc_qp *qp, struct mrc_uc *uc,
			 const struct mrc_pkt *pkt,
			 const struct mrc_payload *payload)
{
	struct mrc_swqe tmp = { .sge = uc->sge };

	if (!pkt->payload_len)
		return true;
	if (pkt->opcode != MRC_OP_WRITE && pkt->opcode != MRC_OP_WRITE_IMM) {
		tmp.wqe.num_sge = uc->num_sge;
		return mrc_swqe_place(qp, &tmp, pkt->dph.offset, payload,
				      pkt->payload_len) == IB_WC_SUCCESS;
	}
	return !mrc_mr_write_remote(qp, pkt, payload);
}

/*
 * The message ended with @last: a SEND or WRITE_IMM uses its receive WQE.
 * A SEND with Invalidate invalidates its key once the data is in place; a
 * key naming no valid fast-registration MR of the QP's PD fails the
 * receive and the QP, IB's class J error, as on RC.
 */
static void mrc_uc_complete(struct mrc_qp *qp, struct mrc_uc *uc,
			    const struct mrc_pkt *last)
{
	struct mrc_cqe cqe = {
		.wr_id = uc->wr_id,
		.opcode = uc->opcode == MRC_OP_WRITE_IMM ?
			  IB_WC_RECV_RDMA_WITH_IMM : IB_WC_RECV,
		.byte_len = uc->msg_len,
		.qp_num = qp->ibqp.qp_num,
		.src_qp = qp->dest_qpn,
	};

	if (uc->opcode == MRC_OP_WRITE)
		return;
	if (uc->opcode == MRC_OP_SEND_INV) {
		if (mrc_mr_invalidate(qp->mdev, qp->ibqp.pd, last->dph.imm,
				      qp->ibqp.qp_num)) {
			cqe.status = IB_WC_REM_INV_REQ_ERR;
		} else {
			cqe.imm_data = last->dph.imm;
			cqe.wc_flags = MRC_WC_WITH_INV;
			mrc_stats_inc(&qp->mdev->stats, MRC_STAT_MR_REMOTE_INV);
		}
	} else if (last->flags & MRC_FLAG_IMM) {
		cqe.imm_data = last->dph.imm;
		cqe.wc_flags = IB_WC_WITH_IMM;
	}
	if (qp->srq)
		uc->srq_held = false;
	else
		mrc_ring_consume(&qp->rq);
	mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &cqe, &qp->ibqp,
		    last->flags & MRC_FLAG_SE);
	if (cqe.status != IB_WC_SUCCESS)
		mrc_qp_error_locked(qp);
}

static void mrc_uc_drop(struct mrc_qp *qp, struct mrc_uc *uc)
{
	if (uc->active)
		mrc_stats_inc(&qp->mdev->stats, MRC_STAT_RCVD_UC_DROPPED);
	uc->active = false;
}

/* A first packet: begin its message, or drop it. */
static bool mrc_uc_begin(struct mrc_qp *qp, struct mrc_uc *uc,
			 const struct mrc_pkt *pkt)
{
	bool rwqe = pkt->opcode != MRC_OP_WRITE;

	uc->opcode = pkt->opcode;
	uc->msg_len = pkt->dph.msg_len;
	uc->got = 0;
	uc->active = true;
	if (rwqe && !mrc_uc_take_rwqe(qp, uc))
		return false;
	if (rwqe && pkt->opcode != MRC_OP_WRITE_IMM &&
	    !mrc_uc_fits(uc, uc->msg_len))
		return false;
	return true;
}

/**
 * mrc_uc_rx() - a SEND or WRITE packet for a UC QP
 * @qp: the QP
 * @pkt: validated headers, from the QP's peer
 * @payload: its payload
 *
 * A packet after a gap in the PSNs ends the message under way, which is
 * dropped, and begins a new one if it is a first packet; packets before
 * the expected PSN are late and dropped. A message that finds no receive
 * WQE, one too small, an R_Key that does not allow the WRITE, or a
 * packet a switch trimmed is dropped too, with the QP left as it was:
 * UC has no NACK to report it.
 */
void mrc_uc_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
	       const struct mrc_payload *payload)
{
	struct mrc_uc *uc = qp->uc;

	spin_lock(&qp->lock);
	if (!mrc_qp_receives(qp) || mrc_psn_before(pkt->psn, uc->epsn))
		goto out;
	if (pkt->psn != uc->epsn)
		mrc_uc_drop(qp, uc);
	uc->epsn = pkt->psn + 1;
	if (pkt->flags & MRC_FLAG_FIRST) {
		if (uc->active)
			mrc_uc_drop(qp, uc);
		if (!mrc_uc_begin(qp, uc, pkt)) {
			mrc_uc_drop(qp, uc);
			goto out;
		}
	} else if (!uc->active || pkt->opcode != uc->opcode ||
		   pkt->dph.msg_len != uc->msg_len ||
		   pkt->dph.offset != uc->got) {
		mrc_uc_drop(qp, uc);
		goto out;
	}
	/* A switch cut its payload: the message lacks bytes for good. */
	if ((pkt->flags & MRC_FLAG_TRIM) ||
	    !mrc_uc_place(qp, uc, pkt, payload)) {
		mrc_uc_drop(qp, uc);
		goto out;
	}
	uc->got += pkt->payload_len;
	if ((pkt->flags & MRC_FLAG_LAST) && uc->got == uc->msg_len) {
		uc->active = false;
		mrc_uc_complete(qp, uc, pkt);
	}
out:
	spin_unlock(&qp->lock);
}
