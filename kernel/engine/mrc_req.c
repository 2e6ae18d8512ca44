// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requester: fetch send WQEs from the SQ ring, validate them, segment them
 * into packets by path MTU and transmit within the send window; retransmit
 * what acknowledgments or the timer show lost.
 */
#include <linux/ktime.h>

#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"

/*
 * READ response PSNs requested at once. Responses travel on their
 * request's EV, so smaller chunks spread a READ over more paths.
 */
#define MRC_READ_CHUNK	16

static bool mrc_op_consumes_rwqe(u32 opcode)
{
	return opcode == IB_WR_SEND || opcode == IB_WR_SEND_WITH_IMM ||
	       opcode == IB_WR_RDMA_WRITE_WITH_IMM;
}

/* A READ or ATOMIC that was sent and still waits for its response. */
static bool mrc_swqe_awaits_response(const struct mrc_swqe *w)
{
	return w->state != MRC_SWQE_DONE && mrc_op_is_read_atomic(w->wqe.opcode);
}

/* Copy and check one SQ slot; returns an IB_WC_* status. */
static int mrc_req_fetch_one(struct mrc_qp *qp, u32 idx)
{
	struct mrc_swqe *w = &qp->swqe[idx & qp->sq.mask];
	const struct mrc_send_wqe *slot = mrc_ring_slot(&qp->sq, idx);
	u8 *data = qp->swqe_data + (size_t)(idx & qp->sq.mask) * qp->swqe_data_size;
	u64 total = 0;
	u32 i;

	memset(w, 0, sizeof(*w));
	memcpy(&w->wqe, slot, sizeof(w->wqe));
	switch (w->wqe.opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		break;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
	/* Unknown bits and reserved fields stay free for a later meaning. */
	if ((w->wqe.send_flags & ~MRC_SEND_FLAGS_KNOWN) || w->wqe.reserved0 ||
	    w->wqe.reserved1)
		return IB_WC_LOC_QP_OP_ERR;

	if (w->wqe.send_flags & IB_SEND_INLINE) {
		if (w->wqe.inline_len > qp->sq_max_inline || w->wqe.num_sge ||
		    mrc_op_is_read_atomic(w->wqe.opcode))
			return IB_WC_LOC_LEN_ERR;
		memcpy(data, slot + 1, w->wqe.inline_len);
		w->inline_data = data;
		total = w->wqe.inline_len;
	} else {
		if (w->wqe.num_sge > qp->sq_max_sge || w->wqe.inline_len)
			return IB_WC_LOC_LEN_ERR;
		memcpy(data, slot + 1, w->wqe.num_sge * sizeof(struct mrc_sge));
		w->sge = (struct mrc_sge *)data;
		for (i = 0; i < w->wqe.num_sge; i++)
			total += w->sge[i].length;
	}
	if (total > MRC_MAX_MSG_LEN)
		return IB_WC_LOC_LEN_ERR;
	w->length = total;

	if (w->wqe.opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
	    w->wqe.opcode == IB_WR_ATOMIC_FETCH_AND_ADD) {
		if (w->wqe.num_sge != 1 || total != 8 || (w->wqe.remote_addr & 7))
			return IB_WC_LOC_LEN_ERR;
		w->npkts = 1;
	} else {
		w->npkts = max_t(u32, 1, DIV_ROUND_UP(total, qp->mtu));
	}
	w->rsn = qp->next_rsn;
	if (mrc_op_consumes_rwqe(w->wqe.opcode))
		qp->next_rsn++;
	w->status = IB_WC_SUCCESS;
	return IB_WC_SUCCESS;
}

/**
 * mrc_req_wqe_of() - the send WQE a PSN of ours belongs to
 * @qp: the QP, with @qp->lock held
 * @psn: a PSN the requester assigned
 *
 * Return: the WQE, or NULL when no WQE still in the SQ owns @psn (it
 * completed, or @psn was never assigned).
 */
struct mrc_swqe *mrc_req_wqe_of(struct mrc_qp *qp, u32 psn)
{
	u32 idx = qp->psn_wqe[psn & (MRC_QP_WINDOW - 1)];
	struct mrc_swqe *w;

	if (idx - qp->sq.own >= qp->sq_send - qp->sq.own + 1 ||
	    idx - qp->sq.own >= mrc_ring_num_slots(&qp->sq))
		return NULL;
	w = &qp->swqe[idx & qp->sq.mask];
	if (!w->sent || psn - w->first_psn >= w->sent)
		return NULL;
	return w;
}

static u8 mrc_wire_opcode(u32 wr_opcode)
{
	switch (wr_opcode) {
	case IB_WR_SEND:
		return MRC_OP_SEND;
	case IB_WR_SEND_WITH_IMM:
		return MRC_OP_SEND_IMM;
	case IB_WR_RDMA_WRITE:
		return MRC_OP_WRITE;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return MRC_OP_WRITE_IMM;
	case IB_WR_RDMA_READ:
		return MRC_OP_READ_REQ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return MRC_OP_CMP_SWP;
	default:
		return MRC_OP_FETCH_ADD;
	}
}

/* PSNs that may still be assigned now. */
static u32 mrc_req_psn_room(struct mrc_qp *qp)
{
	u32 nxt = mrc_txwin_next_psn(&qp->txwin);
	u32 room = qp->txwin.size - mrc_txwin_outstanding(&qp->txwin);

	if (qp->rd_pin_valid)
		room = min(room, MRC_QP_WINDOW - (nxt - qp->rd_pin));
	/*
	 * READ responses in flight load the path as much as requests. Their
	 * PSNs stay outstanding until placed, which is also when rd_pending
	 * drops: adding the two counted every READ twice and halved a READ
	 * stream's window. rd_pending exceeds the outstanding PSNs only when
	 * an ACK overtook responses still to come.
	 */
	room = min(room, mrc_cwnd_room(&qp->cc,
				       max(mrc_txwin_outstanding(&qp->txwin),
					   qp->rd_pending)));
	return room ? min(room, mrc_tx_acct_room(qp->tx_acct)) : 0;
}

/* A packet that asked for an ACK is still unacknowledged. */
static bool mrc_req_ar_outstanding(struct mrc_qp *qp)
{
	u32 una = mrc_txwin_oldest_unacked(&qp->txwin);
	u32 nxt = mrc_txwin_next_psn(&qp->txwin);

	return qp->ar_valid && qp->ar_psn - una < nxt - una;
}

/*
 * Another SEND or WRITE is queued right behind the WQE being sent and
 * nothing holds it back, so its packets follow at once: the ACK the
 * responder sends every MRC_ACK_EVERY packets, or the one asked for at
 * the end of the last message queued, covers this message too. Asking at
 * every message's end made ib_send_bw's responder acknowledge every
 * fourth packet. A full window asks anyway (mrc_req_ask_ack()).
 */
static bool mrc_req_more_behind(struct mrc_qp *qp)
{
	const struct mrc_swqe *next;

	if (qp->sq_fetch - qp->sq_send < 2)
		return false;
	next = &qp->swqe[(qp->sq_send + 1) & qp->sq.mask];
	return next->status == IB_WC_SUCCESS &&
	       !mrc_op_is_read_atomic(next->wqe.opcode) &&
	       !(next->wqe.send_flags & IB_SEND_FENCE);
}

/* Headers of packet @k (0-based) of a SEND/WRITE WQE, all but its EV. */
static void mrc_req_data_pkt(struct mrc_qp *qp, const struct mrc_swqe *w,
			     u32 k, bool retx, struct mrc_pkt *pkt)
{
	u32 offset = k * qp->mtu;

	memset(pkt, 0, sizeof(*pkt));
	pkt->opcode = mrc_wire_opcode(w->wqe.opcode);
	pkt->psn = w->first_psn + k;
	pkt->timestamp = mrc_now_ts();
	pkt->payload_len = min(qp->mtu, w->length - min(offset, w->length));
	pkt->dph.msn = w->rsn;
	pkt->dph.offset = offset;
	pkt->dph.msg_len = w->length;
	if (k == 0)
		pkt->flags |= MRC_FLAG_FIRST;
	if (k == w->npkts - 1) {
		pkt->flags |= MRC_FLAG_LAST;
		if (retx || !mrc_req_more_behind(qp))
			pkt->flags |= MRC_FLAG_AR;
		if (w->wqe.send_flags & IB_SEND_SOLICITED)
			pkt->flags |= MRC_FLAG_SE;
	}
	if (retx)
		pkt->flags |= MRC_FLAG_RETX | MRC_FLAG_AR;
	if (pkt->opcode == MRC_OP_SEND_IMM || pkt->opcode == MRC_OP_WRITE_IMM) {
		pkt->flags |= MRC_FLAG_IMM;
		pkt->dph.imm = w->wqe.imm_data;
	}
	if (pkt->opcode == MRC_OP_WRITE || pkt->opcode == MRC_OP_WRITE_IMM) {
		pkt->reth.va = w->wqe.remote_addr;
		pkt->reth.rkey = w->wqe.rkey;
		pkt->reth.len = w->length;
	}
}

/*
 * The window is full after @pkt: nothing more leaves until an
 * acknowledgment comes, and the responder, which coalesces ACKs over
 * MRC_ACK_EVERY packets, must not wait for packets that cannot come.
 * One such request at a time: its answer opens the window, and asking on
 * every packet that refilled it made the responder acknowledge every
 * other packet.
 */
static void mrc_req_ask_ack(struct mrc_qp *qp, struct mrc_pkt *pkt)
{
	if (!mrc_req_psn_room(qp) && !mrc_req_ar_outstanding(qp))
		pkt->flags |= MRC_FLAG_AR;
	if (pkt->flags & MRC_FLAG_AR) {
		qp->ar_psn = pkt->psn;
		qp->ar_valid = true;
	}
}

/* Build and queue packet @k (0-based) of a SEND/WRITE WQE. */
static int mrc_req_send_data(struct mrc_qp *qp, struct mrc_swqe *w, u32 k,
			     bool retx)
{
	struct mrc_pkt pkt;
	struct sk_buff *skb;
	void *payload;
	int status;

	mrc_req_data_pkt(qp, w, k, retx, &pkt);
	mrc_req_ask_ack(qp, &pkt);
	mrc_mp_pick_ev(qp, &pkt);
	mrc_dack_attach(qp, &pkt);
	skb = mrc_tx_alloc(qp, &pkt, &payload);
	if (!skb)
		return -ENOMEM;
	status = mrc_swqe_copy(qp, w, pkt.dph.offset, payload, pkt.payload_len,
			       false);
	if (status != IB_WC_SUCCESS) {
		kfree_skb(skb);
		w->status = status;
		return -EFAULT;
	}
	mrc_mp_queue(qp, skb, &pkt);
	return 0;
}

/**
 * mrc_req_send_read() - queue a READ request for some response PSNs
 * @qp: the QP
 * @w: the READ WQE
 * @psn: first response PSN asked for
 * @npkts: response PSNs asked for
 * @retx: a repeated request
 *
 * Return: 0 or -ENOMEM.
 */
int mrc_req_send_read(struct mrc_qp *qp, struct mrc_swqe *w, u32 psn,
		      u32 npkts, bool retx)
{
	u32 offset = (psn - w->first_psn) * qp->mtu;
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	void *payload;
	u32 i;

	pkt.opcode = MRC_OP_READ_REQ;
	pkt.psn = psn;
	pkt.flags = MRC_FLAG_AR | (retx ? MRC_FLAG_RETX : 0);
	pkt.timestamp = mrc_now_ts();
	pkt.reth.va = w->wqe.remote_addr + offset;
	pkt.reth.rkey = w->wqe.rkey;
	pkt.reth.len = min(w->length - min(offset, w->length), npkts * qp->mtu);
	mrc_mp_pick_ev(qp, &pkt);
	mrc_dack_attach(qp, &pkt);
	skb = mrc_tx_alloc(qp, &pkt, &payload);
	if (!skb)
		return -ENOMEM;
	/* Every response PSN it asks for comes back on its EV. */
	for (i = 1; i < npkts; i++)
		mrc_txwin_set_ev(&qp->txwin, psn + i, pkt.ev, pkt.ev_seq);
	/* Responses to a repeated request time nothing (Karn). */
	for (i = 0; retx && i < npkts; i++)
		mrc_txwin_on_retransmit(&qp->txwin, psn + i, pkt.ev,
					pkt.timestamp);
	mrc_mp_queue(qp, skb, &pkt);
	return 0;
}

static int mrc_req_send_atomic(struct mrc_qp *qp, struct mrc_swqe *w, bool retx)
{
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	void *payload;

	pkt.opcode = mrc_wire_opcode(w->wqe.opcode);
	pkt.psn = w->first_psn;
	pkt.flags = MRC_FLAG_AR | (retx ? MRC_FLAG_RETX : 0);
	pkt.timestamp = mrc_now_ts();
	pkt.atomic.va = w->wqe.remote_addr;
	pkt.atomic.rkey = w->wqe.rkey;
	pkt.atomic.swap_add = pkt.opcode == MRC_OP_CMP_SWP ? w->wqe.swap :
							     w->wqe.compare_add;
	if (pkt.opcode == MRC_OP_CMP_SWP)
		pkt.atomic.compare = w->wqe.compare_add;
	mrc_mp_pick_ev(qp, &pkt);
	mrc_dack_attach(qp, &pkt);
	skb = mrc_tx_alloc(qp, &pkt, &payload);
	if (!skb)
		return -ENOMEM;
	mrc_mp_queue(qp, skb, &pkt);
	return 0;
}

/*
 * A READ or ATOMIC still waiting for responses owns the psn_wqe and rd_got
 * slots of its PSNs even after the responder acknowledged the request:
 * find the lowest such PSN, which new PSNs must not wrap onto.
 */
static void mrc_req_compute_pin(struct mrc_qp *qp)
{
	u32 idx;

	qp->rd_pin_valid = false;
	for (idx = qp->sq.own; idx != qp->sq_fetch; idx++) {
		struct mrc_swqe *w = &qp->swqe[idx & qp->sq.mask];

		if (!w->sent)
			break;
		if (!mrc_swqe_awaits_response(w))
			continue;
		qp->rd_pin = w->wqe.opcode == IB_WR_RDMA_READ ? w->rd_low :
							       w->first_psn;
		qp->rd_pin_valid = true;
		return;
	}
}

/* PSNs a WQE occupies, assigned at first transmission. */
static int mrc_req_assign_psns(struct mrc_qp *qp, struct mrc_swqe *w, u32 n,
			       u32 idx)
{
	u32 ts = mrc_now_ts();
	u32 psn, i;

	if (mrc_req_psn_room(qp) < n)
		return -ENOSPC;
	for (i = 0; i < n; i++) {
		mrc_txwin_push(&qp->txwin, 0, ts, &psn);
		if (w->sent == 0 && i == 0) {
			w->first_psn = psn;
			w->rd_scan = psn;
			w->rd_low = psn;
		}
		qp->psn_wqe[psn & (MRC_QP_WINDOW - 1)] = idx;
		clear_bit(psn & (MRC_QP_WINDOW - 1), qp->rd_got);
	}
	return 0;
}

/*
 * Assign PSNs to the next @n (at least 2) packets of the WQE at @idx and
 * send them as one GSO skb. Return: 0, -ENOSPC (nothing assigned),
 * -ENOMEM (assigned but not sent: recovered as lost) or -EFAULT.
 */
static int mrc_req_send_gso(struct mrc_qp *qp, struct mrc_swqe *w, u32 idx,
			    u32 n)
{
	u32 k = w->sent, pkt_len, len, i;
	struct mrc_pkt pkt;
	struct sk_buff *skb;
	void *payload;
	int err = 0;
	u16 ev = 0;

	mrc_req_data_pkt(qp, w, k, false, &pkt);
	pkt_len = mrc_wire_hdr_len(&pkt) + qp->mtu;
	n = min(n, (u32)MRC_GSO_MAX_BYTES / pkt_len);
	if (mrc_req_assign_psns(qp, w, n, idx))
		return -ENOSPC;
	/* Only the message's last packet can be short. */
	len = (n - 1) * pkt_len + mrc_wire_hdr_len(&pkt) +
	      min(qp->mtu, w->length - min((k + n - 1) * qp->mtu, w->length));
	skb = mrc_tx_alloc_gso(qp, pkt_len, len, n);
	if (!skb) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		int status;

		mrc_req_data_pkt(qp, w, k + i, false, &pkt);
		/* Only the last can fill the window or end the message. */
		if (i == n - 1)
			mrc_req_ask_ack(qp, &pkt);
		if (i == 0) {
			mrc_mp_pick_ev_run(qp, &pkt);
			ev = pkt.ev;
		} else {
			mrc_mp_same_ev(qp, &pkt, ev);
		}
		payload = mrc_tx_put_gso(qp, skb, i * pkt_len, &pkt);
		if (!payload) {
			err = -ENOMEM;
			break;
		}
		status = mrc_swqe_copy(qp, w, pkt.dph.offset, payload,
				       pkt.payload_len, false);
		if (status != IB_WC_SUCCESS) {
			w->status = status;
			err = -EFAULT;
			break;
		}
		mrc_txwin_set_ev(&qp->txwin, pkt.psn, ev, pkt.ev_seq);
	}
	if (err)
		kfree_skb(skb);
	else
		mrc_tx_queue_sport(qp, skb, mrc_ev_sport(&qp->evs, ev));
out:
	w->sent += n;
	return err;
}

/*
 * Packets in one GSO run: at most a sixteenth of the congestion window,
 * so that a window still spreads over 16 EVs or more. A run crosses its
 * path as one burst; on slow paths, whose windows are small, runs shrink
 * to single packets. (Runs of 16 on the bench's 10 Mbit/s paths queued
 * 13 ms each, against a 16.8 ms RTO: timeouts and window cuts halved
 * the multipath goodput.)
 */
#define MRC_GSO_RUNS_PER_WINDOW	16

static u32 mrc_req_run_max(struct mrc_qp *qp)
{
	return clamp_t(u32, qp->cc.cwnd / MRC_GSO_RUNS_PER_WINDOW, 1,
		       MRC_GSO_MAX_PKTS);
}

/* Transmit what the window allows of the WQE at @idx. */
static int mrc_req_transmit(struct mrc_qp *qp, u32 idx)
{
	struct mrc_swqe *w = &qp->swqe[idx & qp->sq.mask];
	u32 op = w->wqe.opcode;
	int err;

	if (mrc_op_is_read_atomic(op)) {
		/*
		 * Wait for room for a whole chunk (a quarter window at most):
		 * each response frees one PSN, and asking at once for what it
		 * freed sent a request per one or two responses (make bench
		 * read_bw: 50158 requests for 103369 responses).
		 */
		u32 want = min3(w->npkts - w->sent, (u32)MRC_READ_CHUNK,
				max(qp->cc.cwnd / 4, 1U));
		u32 n = min(want, mrc_req_psn_room(qp));

		if (!n || n < want)
			return -ENOSPC;
		if (w->sent == 0 && qp->rd_atomic_out >= max_t(u8, qp->max_rd_atomic, 1))
			return -EBUSY;
		err = mrc_req_assign_psns(qp, w, n, idx);
		if (err)
			return err;
		if (w->sent == 0)
			qp->rd_atomic_out++;
		if (op == IB_WR_RDMA_READ)
			qp->rd_pending += n;
		if (op == IB_WR_RDMA_READ)
			err = mrc_req_send_read(qp, w, w->first_psn + w->sent, n,
						false);
		else
			err = mrc_req_send_atomic(qp, w, false);
		w->sent += n;
		return err;
	}

	while (w->sent < w->npkts) {
		u32 n = min3(w->npkts - w->sent, mrc_req_run_max(qp),
			     mrc_req_psn_room(qp));

		if (n > 1) {
			err = mrc_req_send_gso(qp, w, idx, n);
			if (err == -ENOSPC)
				return err;
		} else {
			err = mrc_req_assign_psns(qp, w, 1, idx);
			if (err)
				return err;
			err = mrc_req_send_data(qp, w, w->sent, false);
			w->sent++;
		}
		if (err == -EFAULT)
			return err;
	}
	return 0;
}

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
	u32 una = mrc_txwin_oldest_unacked(&qp->txwin);

	while (qp->sq.own != qp->sq_send) {
		struct mrc_swqe *w = &qp->swqe[qp->sq.own & qp->sq.mask];
		bool rd = mrc_op_is_read_atomic(w->wqe.opcode);

		if (w->status == IB_WC_SUCCESS) {
			if (rd && w->state != MRC_SWQE_DONE)
				break;
			if (!rd && mrc_psn_after(w->first_psn + w->npkts, una))
				break;
		}
		if (rd && w->sent)
			qp->rd_atomic_out--;
		if (w->wqe.opcode == IB_WR_RDMA_READ)
			qp->rd_pending -= min(qp->rd_pending, w->sent - w->got);
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

/* In the error state: every outstanding WQE completes as flushed. */
static void mrc_req_flush_locked(struct mrc_qp *qp)
{
	struct mrc_send_wqe wqe;
	u32 prod, n;

	/* Pairs with the provider publishing WQEs before prod. */
	prod = smp_load_acquire(&qp->sq.ctrl->prod);
	n = prod - qp->sq.own;
	if (n > mrc_ring_num_slots(&qp->sq))
		n = qp->sq_fetch - qp->sq.own;
	/* Never more than the ring holds, whatever the indices say. */
	if (WARN_ON_ONCE(n > mrc_ring_num_slots(&qp->sq)))
		n = 0;
	while (n--) {
		u32 idx = qp->sq.own;

		if (idx - qp->sq.own < qp->sq_fetch - qp->sq.own)
			wqe = qp->swqe[idx & qp->sq.mask].wqe;
		else
			memcpy(&wqe, mrc_ring_slot(&qp->sq, idx), sizeof(wqe));
		mrc_ring_consume(&qp->sq);
		mrc_req_post_cqe(qp, &wqe, 0, IB_WC_WR_FLUSH_ERR);
		if (qp->sq_fetch == idx)
			qp->sq_fetch++;
	}
	qp->sq_fetch = qp->sq.own;
	qp->sq_send = qp->sq.own;
	qp->rd_atomic_out = 0;
	qp->rd_pending = 0;
	timer_delete(&qp->rto_timer);
	qp->rto_armed = false;
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

/* Something sent is not yet accounted for: the timer must run. */
static bool mrc_req_busy(struct mrc_qp *qp)
{
	return qp->sq.own != qp->sq_send || qp->rd_pending ||
	       mrc_txwin_outstanding(&qp->txwin);
}

/**
 * mrc_req_arm_rto() - start, restart or stop the retransmission timer
 * @qp: the QP, with @qp->lock held
 * @restart: an acknowledgment made progress: count the timeout from now
 *
 * The timer is a timer-wheel timer, as TCP's is, not an hrtimer: it is
 * started and stopped for nearly every message, and an hrtimer that is
 * the CPU's earliest reprograms the clock event device each time (in the
 * bench VMs an experiment with no timer at all measured ib_write_lat at
 * 0.91x rxe's, against 1.34x with the hrtimer).
 * The wheel needs no device access. The expiry is rounded up to whole
 * ticks, as TCP's RTO is kept in jiffies: a timeout fires at most one
 * tick early or late. Two ticks at least, so a full tick passes before
 * it fires, and one more while the peer may hold our ACKs back for a
 * tick (mrc_dack.h).
 */
void mrc_req_arm_rto(struct mrc_qp *qp, bool restart)
{
	u64 ticks;

	/* No timeout while an RNR wait holds transmission back. */
	if (!mrc_req_busy(qp) || qp->rnr.waiting) {
		if (qp->rto_armed)
			timer_delete(&qp->rto_timer);
		qp->rto_armed = false;
		return;
	}
	if (qp->rto_armed && !restart)
		return;
	ticks = max_t(u64, DIV_ROUND_UP_ULL(mrc_rto_timeout_ns(&qp->rto),
					    TICK_NSEC), 2) +
		mrc_dack_rto_slack(qp);
	mod_timer(&qp->rto_timer, jiffies + (unsigned long)ticks);
	qp->rto_armed = true;
}

/* Build and queue PSN @psn of @w again. */
static void mrc_req_resend(struct mrc_qp *qp, struct mrc_swqe *w, u32 psn)
{
	switch (w->wqe.opcode) {
	case IB_WR_RDMA_READ:
		if (mrc_req_rd_owns(w, psn) &&
		    !test_bit(psn & (MRC_QP_WINDOW - 1), qp->rd_got))
			mrc_req_send_read(qp, w, psn, 1, true);
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		if (w->state != MRC_SWQE_DONE)
			mrc_req_send_atomic(qp, w, true);
		break;
	default:
		mrc_req_send_data(qp, w, psn - w->first_psn, true);
		break;
	}
}

/*
 * Copies of the oldest PSN after a timeout that found no EV proven to
 * deliver: each goes on another EV of the round robin, so one dead path
 * (or several) cannot swallow every retry; the responder drops the
 * duplicates and its acknowledgments credit the EVs that work.
 */
#define MRC_RTO_SPREAD	4

/* Send again every PSN the window marks lost. */
static void mrc_req_retransmit(struct mrc_qp *qp)
{
	u32 psn = mrc_txwin_oldest_unacked(&qp->txwin);
	u32 in_flight = mrc_txwin_in_flight(&qp->txwin);
	u32 una = psn, copies;
	/*
	 * Retransmissions obey the congestion window like new data: a
	 * timeout marks everything lost, and resending it all at once is
	 * the burst the bottleneck just dropped. Acknowledgments clock out
	 * the rest. One always goes when nothing is in flight.
	 */
	u32 budget = max_t(u32, mrc_cwnd_room(&qp->cc, in_flight), !in_flight);

	while (budget && mrc_tx_acct_room(qp->tx_acct) &&
	       mrc_txwin_next_retransmit(&qp->txwin, &psn)) {
		struct mrc_swqe *w = mrc_req_wqe_of(qp, psn);

		budget--;
		copies = 1;
		if (psn == una && qp->rto_spread)
			copies = min_t(u32, MRC_RTO_SPREAD, qp->evs.count);
		qp->rto_spread = false;
		/* A PSN whose WQE completed has nothing left to resend. */
		while (w && copies--)
			mrc_req_resend(qp, w, psn);
		/* The builder recorded the EV it picked; keep it. */
		mrc_txwin_on_retransmit(&qp->txwin, psn,
					mrc_txwin_entry(&qp->txwin, psn)->ev,
					mrc_now_ts());
		psn++;
	}
}

/*
 * Responses the responder acknowledged executing but that never arrived:
 * ask again for each READ packet and atomic still missing.
 */
static void mrc_req_rerequest(struct mrc_qp *qp)
{
	u32 una = mrc_txwin_oldest_unacked(&qp->txwin);
	u32 idx, psn;

	for (idx = qp->sq.own; idx != qp->sq_fetch; idx++) {
		struct mrc_swqe *w = &qp->swqe[idx & qp->sq.mask];

		if (!w->sent)
			break;
		if (!mrc_swqe_awaits_response(w))
			continue;
		if (w->wqe.opcode != IB_WR_RDMA_READ) {
			if (mrc_psn_before(w->first_psn, una))
				mrc_req_send_atomic(qp, w, true);
			continue;
		}
		/*
		 * Below rd_low every response is placed and its rd_got bit
		 * may belong to a PSN a window later: asking again for those
		 * PSNs let an old response mark the newer PSN received.
		 */
		for (psn = w->rd_low; mrc_req_rd_owns(w, psn) &&
		     mrc_psn_before(psn, una); psn++)
			if (!test_bit(psn & (MRC_QP_WINDOW - 1), qp->rd_got))
				mrc_req_send_read(qp, w, psn, 1, true);
	}
}

/* The timer expired on the oldest PSN: its EV did not deliver. */
static void mrc_req_blame_oldest(struct mrc_qp *qp)
{
	const struct mrc_tx_entry *e;

	e = mrc_txwin_entry(&qp->txwin, mrc_txwin_oldest_unacked(&qp->txwin));
	if (e && !(e->flags & MRC_TXE_SACKED))
		mrc_mp_blame(qp, e->ev);
}

/**
 * mrc_rto_fire() - the retransmission timer expired
 * @timer: the QP's rto_timer (timer softirq, qp->lock not held)
 *
 * The requester re-arms it.
 */
void mrc_rto_fire(struct timer_list *timer)
{
	struct mrc_qp *qp = from_timer(qp, timer, rto_timer);

	spin_lock(&qp->lock);
	/* Restarted after it expired but before this ran: no timeout. */
	if (timer_pending(&qp->rto_timer)) {
		spin_unlock(&qp->lock);
		return;
	}
	qp->rto_armed = false;
	if ((qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD) ||
	    !mrc_req_busy(qp) || qp->rnr.waiting)
		goto out;
	pr_debug("mrc: qp %u rto: una %u nxt %u own %u send %u fetch %u rd_pending %u cwnd %u rd_out %u\n",
		 qp->ibqp.qp_num, mrc_txwin_oldest_unacked(&qp->txwin),
		 mrc_txwin_next_psn(&qp->txwin), qp->sq.own, qp->sq_send,
		 qp->sq_fetch, qp->rd_pending, qp->cc.cwnd, qp->rd_atomic_out);
	if (mrc_rto_on_timeout(&qp->rto)) {
		struct mrc_swqe *w = &qp->swqe[qp->sq.own & qp->sq.mask];

		/*
		 * No WQE fetched: nothing posted waits for the PSNs that
		 * timed out, and the SQ slot at own holds no WQE to fail
		 * (failing it moved sq_send past sq_fetch, and the flush
		 * then looped 2^32 times). The QP still goes to error.
		 */
		if (qp->sq.own == qp->sq_fetch) {
			mrc_qp_error_locked(qp);
			goto out;
		}
		w->status = IB_WC_RETRY_EXC_ERR;
		if (qp->sq.own == qp->sq_send)
			qp->sq_send++;
		mrc_req_complete(qp);
		goto out;
	}
	mrc_cwnd_on_timeout(&qp->cc, mrc_txwin_next_psn(&qp->txwin));
	qp->rto_fired++;
	qp->rto_ts = mrc_now_ts();
	qp->rto_undo = true;
	mrc_req_blame_oldest(qp);
	qp->rto_spread = !mrc_ev_has_proven(&qp->evs);
	mrc_txwin_mark_all_lost(&qp->txwin);
	mrc_req_rerequest(qp);
out:
	spin_unlock(&qp->lock);
	mrc_req_kick(qp);
}

/* Fetch new WQEs and transmit what the window allows. */
static void mrc_req_progress(struct mrc_qp *qp)
{
	int avail = mrc_ring_avail(&qp->sq);
	u32 fetched = qp->sq_fetch;

	if (avail < 0) {
		qp->sq_err = true;
		mrc_qp_error_locked(qp);
		return;
	}
	while (!qp->sq_err && qp->sq_fetch - qp->sq.own < (u32)avail) {
		int status = mrc_req_fetch_one(qp, qp->sq_fetch);

		if (status != IB_WC_SUCCESS) {
			qp->swqe[qp->sq_fetch & qp->sq.mask].status = status;
			qp->sq_err = true;
		}
		qp->sq_fetch++;
	}
	if (qp->sq_fetch != fetched)
		mrc_dack_on_post(qp);

	mrc_req_compute_pin(qp);
	while (qp->sq_send != qp->sq_fetch) {
		struct mrc_swqe *w = &qp->swqe[qp->sq_send & qp->sq.mask];

		if (w->status != IB_WC_SUCCESS) {
			qp->sq_send++;
			break;
		}
		if ((w->wqe.send_flags & IB_SEND_FENCE) && w->sent == 0 &&
		    qp->rd_atomic_out)
			break;
		if (mrc_req_transmit(qp, qp->sq_send) == -EFAULT) {
			qp->sq_err = true;
			qp->sq_send++;
			break;
		}
		if (w->sent < w->npkts)
			break;
		w->state = mrc_op_is_read_atomic(w->wqe.opcode) ?
			   MRC_SWQE_SENT : MRC_SWQE_DONE;
		qp->sq_send++;
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
	} else if (qp->type != IB_QPT_RC) {
		if (qp->state == IB_QPS_RTS)
			mrc_ud_send(qp);
	} else if ((qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD) &&
		   !qp->rnr.waiting) {
		mrc_req_retransmit(qp);
		if (qp->state == IB_QPS_RTS)
			mrc_req_progress(qp);
		mrc_req_complete(qp);
		mrc_req_arm_rto(qp, false);
		/* Packets leave now that no held ACK could ride on. */
		if (!skb_queue_empty(&qp->txq))
			mrc_dack_send(qp);
	}
	spin_unlock_bh(&qp->lock);
	mrc_tx_flush_now(qp);
}

/**
 * mrc_req_work() - run the requester from the workqueue
 * @work: the QP's req_work
 */
void mrc_req_work(struct work_struct *work)
{
	mrc_req_run(container_of(work, struct mrc_qp, req_work));
}
