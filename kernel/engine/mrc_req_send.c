// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requester, sending: give a fetched WQE its PSNs, segment it into packets
 * by path MTU and transmit what the send window, the congestion window and
 * the local queue allow; build READ requests and atomics, first sent or
 * again.
 */
#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"

/*
 * READ response PSNs requested at once. Responses travel on their
 * request's EV, so smaller chunks spread a READ over more paths.
 */
#define MRC_READ_CHUNK	16

/*
 * Packets in one GSO run: at most a sixteenth of the congestion window,
 * so that a window still spreads over 16 EVs or more. A run crosses its
 * path as one burst; on slow paths, whose windows are small, runs shrink
 * to single packets (16 packets of 1 KiB take 13 ms to cross a 10 Mbit/s
 * path, most of the default timeout's 16.8 ms RTO ceiling).
 */
#define MRC_GSO_RUNS_PER_WINDOW	16

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
	u32 idx = qp->req.psn_wqe[psn & (MRC_QP_WINDOW - 1)];
	struct mrc_swqe *w;

	if (idx - qp->sq.own >= qp->req.sq_send - qp->sq.own + 1 ||
	    idx - qp->sq.own >= mrc_ring_num_slots(&qp->sq))
		return NULL;
	w = &qp->req.swqe[idx & qp->sq.mask];
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
	case IB_WR_SEND_WITH_INV:
		return MRC_OP_SEND_INV;
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

/* PSNs the send and congestion windows let the requester assign now. */
static u32 mrc_req_window_room(struct mrc_qp *qp)
{
	u32 nxt = mrc_txwin_next_psn(&qp->req.txwin);
	u32 room = qp->req.txwin.size - mrc_txwin_outstanding(&qp->req.txwin);

	if (qp->req.rd_pin_valid)
		room = min(room, MRC_QP_WINDOW - (nxt - qp->req.rd_pin));
	/*
	 * READ responses in flight load the path as much as requests. Their
	 * PSNs stay outstanding until placed (the window holds them against
	 * the responder's ACKs), which is also when rd_pending drops, so the
	 * window counts the larger of the two, not their sum (that would
	 * count every READ twice).
	 */
	return min(room, mrc_cc_room(qp, max(mrc_txwin_outstanding(&qp->req.txwin),
					     qp->req.rd_pending)));
}

/*
 * Packets of SEND or WRITE data that may leave now: each PSN is one
 * packet handed to the local stack. Only a room of 0 marks the QP
 * throttled, so only then does a packet leaving the local queues kick
 * the requester: whoever stops here must stop at 0.
 */
static u32 mrc_req_psn_room(struct mrc_qp *qp)
{
	u32 room = mrc_req_window_room(qp);

	return room ? min(room, mrc_tx_acct_room(qp->tx_acct)) : 0;
}

/* A packet that asked for an ACK is still unacknowledged. */
static bool mrc_req_ar_outstanding(struct mrc_qp *qp)
{
	u32 una = mrc_txwin_oldest_unacked(&qp->req.txwin);
	u32 nxt = mrc_txwin_next_psn(&qp->req.txwin);

	return qp->req.ar_valid && qp->req.ar_psn - una < nxt - una;
}

/*
 * Another SEND or WRITE is queued right behind the WQE being sent and
 * nothing holds it back, so its packets follow at once: the ACK the
 * responder sends every MRC_ACK_EVERY packets, or the one asked for at
 * the end of the last message queued, covers this message too, and a
 * stream of small messages is not acknowledged every few packets. A full
 * window asks anyway (mrc_req_ask_ack()).
 */
static bool mrc_req_more_behind(struct mrc_qp *qp)
{
	const struct mrc_swqe *next;

	if (qp->req.sq_fetch - qp->req.sq_send < 2)
		return false;
	next = &qp->req.swqe[(qp->req.sq_send + 1) & qp->sq.mask];
	return next->status == IB_WC_SUCCESS &&
	       !mrc_op_is_read_atomic(next->wqe.opcode) &&
	       !(next->wqe.send_flags & IB_SEND_FENCE);
}

/*
 * Headers of packet @k (0-based) of a SEND/WRITE WQE, all but its EV,
 * stamped @now (mrc_now_ts()).
 */
static void mrc_req_data_pkt(struct mrc_qp *qp, const struct mrc_swqe *w,
			     u32 k, bool retx, u32 now, struct mrc_pkt *pkt)
{
	u32 offset = k * qp->seg;

	memset(pkt, 0, sizeof(*pkt));
	pkt->opcode = mrc_wire_opcode(w->wqe.opcode);
	pkt->psn = w->first_psn + k;
	pkt->timestamp = now;
	pkt->payload_len = min(qp->seg, w->length - min(offset, w->length));
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
	/* SEND_INV's immediate is the R_Key to invalidate. */
	if (pkt->opcode == MRC_OP_SEND_IMM || pkt->opcode == MRC_OP_WRITE_IMM ||
	    pkt->opcode == MRC_OP_SEND_INV) {
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
 * One such request at a time: its answer opens the window, and asking
 * on every packet that refills it would have every other packet
 * acknowledged.
 */
static void mrc_req_ask_ack(struct mrc_qp *qp, struct mrc_pkt *pkt)
{
	if (!mrc_req_psn_room(qp) && !mrc_req_ar_outstanding(qp))
		pkt->flags |= MRC_FLAG_AR;
	if (pkt->flags & MRC_FLAG_AR) {
		qp->req.ar_psn = pkt->psn;
		qp->req.ar_valid = true;
		qp->req.tlp_psn = pkt->psn;
		qp->req.tlp_end = pkt->psn;
		qp->req.tlp_valid = true;
	}
}

/* How a single-packet request's EV is chosen (mrc_req_send_one()). */
enum mrc_req_ev_rule {
	MRC_REQ_EV_PICK,	/* the next GOOD EV (mrc_mp_pick_ev()) */
	MRC_REQ_EV_RUN,		/* as the first packet of a run */
	MRC_REQ_EV_SAME,	/* a given EV */
};

/*
 * Send the one packet @pkt of @w: on the EV @rule chooses (@ev for
 * MRC_REQ_EV_SAME), with the ACK the responder holds if it fits, and its
 * payload, if any, copied from @w. Return: 0, -ENOMEM, or -EFAULT (@w's
 * status says why).
 */
static int mrc_req_send_one(struct mrc_qp *qp, struct mrc_swqe *w,
			    struct mrc_pkt *pkt, enum mrc_req_ev_rule rule,
			    u16 ev)
{
	struct sk_buff *skb;
	void *payload;
	int status;

	if (rule == MRC_REQ_EV_SAME)
		mrc_mp_same_ev(qp, pkt, ev);
	else if (rule == MRC_REQ_EV_RUN)
		mrc_mp_pick_ev_run(qp, pkt);
	else
		mrc_mp_pick_ev(qp, pkt);
	mrc_dack_attach(qp, pkt);
	skb = mrc_tx_alloc(qp, pkt, &payload);
	if (!skb)
		return -ENOMEM;
	if (pkt->payload_len) {
		status = mrc_swqe_copy(qp, w, pkt->dph.offset, payload,
				       pkt->payload_len, false);
		if (status != IB_WC_SUCCESS) {
			kfree_skb(skb);
			w->status = status;
			return -EFAULT;
		}
	}
	mrc_mp_queue(qp, skb, pkt);
	return 0;
}

/**
 * mrc_req_send_data() - build and queue one packet of a SEND or WRITE
 * @qp: the QP, with @qp->lock held
 * @w: the WQE
 * @k: the packet's index in the WQE, from 0
 * @retx: a retransmission
 *
 * Return: 0, or a negative errno when no packet could be built.
 */
int mrc_req_send_data(struct mrc_qp *qp, struct mrc_swqe *w, u32 k, bool retx)
{
	struct mrc_pkt pkt;

	mrc_req_data_pkt(qp, w, k, retx, mrc_now_ts(), &pkt);
	mrc_req_ask_ack(qp, &pkt);
	return mrc_req_send_one(qp, w, &pkt, MRC_REQ_EV_PICK, 0);
}

/*
 * Build and queue a READ request for @npkts response PSNs from @psn, on
 * EV @ev, or on one chosen for it when @ev is negative.
 */
static int mrc_req_read_on(struct mrc_qp *qp, struct mrc_swqe *w, u32 psn,
			   u32 npkts, bool retx, int ev)
{
	u32 offset = (psn - w->first_psn) * qp->mtu;
	struct mrc_pkt pkt = {};
	enum mrc_req_ev_rule rule;
	u32 i;

	pkt.opcode = MRC_OP_READ_REQ;
	pkt.psn = psn;
	pkt.flags = MRC_FLAG_AR | (retx ? MRC_FLAG_RETX : 0);
	pkt.timestamp = mrc_now_ts();
	pkt.reth.va = w->wqe.remote_addr + offset;
	pkt.reth.rkey = w->wqe.rkey;
	pkt.reth.len = min(w->length - min(offset, w->length), npkts * qp->mtu);
	/*
	 * Each response echoes the request's EV, and recycling would hand
	 * it to the next request as each one arrives: every request would
	 * then take the EV of the responses streaming in, and one path
	 * would carry the QP's READs. A new request opens a run, as a run
	 * of WRITE packets does, and takes the spread.
	 */
	if (ev >= 0)
		rule = MRC_REQ_EV_SAME;
	else
		rule = retx ? MRC_REQ_EV_PICK : MRC_REQ_EV_RUN;
	if (mrc_req_send_one(qp, w, &pkt, rule, max(ev, 0)))
		return -ENOMEM;
	/* Every response PSN it asks for comes back on its EV, in turn. */
	for (i = 1; i < npkts; i++)
		mrc_txwin_set_cont(&qp->req.txwin, psn + i, pkt.ev, pkt.ev_seq);
	/* Responses to a repeated request time nothing (Karn). */
	for (i = 0; retx && i < npkts; i++)
		mrc_txwin_on_retransmit(&qp->req.txwin, psn + i, pkt.ev,
					pkt.timestamp);
	/* Answered by its last response (mrc_loss.c's tail probe). */
	qp->req.tlp_psn = psn;
	qp->req.tlp_end = psn + npkts - 1;
	qp->req.tlp_valid = true;
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
	return mrc_req_read_on(qp, w, psn, npkts, retx, -1);
}

/**
 * mrc_req_probe_read() - ask again for one READ response, on @ev
 * @qp: the QP, with @qp->lock held
 * @w: the READ WQE
 * @psn: a response PSN not received
 * @ev: the EV its first request went on
 *
 * A tail loss probe for a READ chunk (mrc_loss.c). The responder answers
 * on the request's EV, and one EV delivers in order: the answer comes
 * after whatever the chunk's stream still carries, and responses of the
 * chunk missing when it arrives were lost (mrc_loss_read_hole_lost()).
 * An EV no longer GOOD may carry nothing: the probe then takes the EV a
 * retransmission would.
 */
void mrc_req_probe_read(struct mrc_qp *qp, struct mrc_swqe *w, u32 psn,
			u16 ev)
{
	if (!mrc_req_rd_owns(w, psn) ||
	    test_bit(psn & (MRC_QP_WINDOW - 1), qp->req.rd_got))
		return;
	if (ev >= qp->mp.evs.count || qp->mp.evs.ev[ev].state != MRC_EV_GOOD)
		mrc_req_read_on(qp, w, psn, 1, true, -1);
	else
		mrc_req_read_on(qp, w, psn, 1, true, ev);
}

/**
 * mrc_req_send_atomic() - build and queue an atomic request
 * @qp: the QP, with @qp->lock held
 * @w: the WQE
 * @retx: asking again (the result never came)
 *
 * Return: 0, or -ENOMEM.
 */
int mrc_req_send_atomic(struct mrc_qp *qp, struct mrc_swqe *w, bool retx)
{
	struct mrc_pkt pkt = {};

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
	return mrc_req_send_one(qp, w, &pkt, MRC_REQ_EV_PICK, 0);
}

/**
 * mrc_req_resend() - build and queue a PSN again
 * @qp: the QP, with @qp->lock held
 * @w: the send WQE that owns @psn
 * @psn: the PSN
 *
 * Only the packet: the caller records the transmission in the window.
 */
void mrc_req_resend(struct mrc_qp *qp, struct mrc_swqe *w, u32 psn)
{
	switch (w->wqe.opcode) {
	case IB_WR_RDMA_READ:
		if (mrc_req_rd_owns(w, psn) &&
		    !test_bit(psn & (MRC_QP_WINDOW - 1), qp->req.rd_got))
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

/**
 * mrc_req_compute_pin() - the oldest PSN new PSNs must not wrap onto
 * @qp: the QP, with @qp->lock held
 *
 * A READ or ATOMIC still waiting for responses owns the psn_wqe and rd_got
 * slots of its PSNs even after the responder acknowledged the request.
 */
void mrc_req_compute_pin(struct mrc_qp *qp)
{
	u32 idx;

	qp->req.rd_pin_valid = false;
	for (idx = qp->sq.own; idx != qp->req.sq_fetch; idx++) {
		struct mrc_swqe *w = &qp->req.swqe[idx & qp->sq.mask];

		if (!w->sent)
			break;
		if (!mrc_swqe_awaits_response(w))
			continue;
		qp->req.rd_pin = w->wqe.opcode == IB_WR_RDMA_READ ? w->rd_low :
							       w->first_psn;
		qp->req.rd_pin_valid = true;
		return;
	}
}

/* PSNs a WQE occupies, assigned at first transmission at @ts. */
static int mrc_req_assign_psns(struct mrc_qp *qp, struct mrc_swqe *w, u32 n,
			       u32 idx, u32 ts)
{
	u32 psn, i;

	if (mrc_req_window_room(qp) < n)
		return -ENOSPC;
	for (i = 0; i < n; i++) {
		mrc_txwin_push(&qp->req.txwin, 0, ts, &psn);
		if (w->sent == 0 && i == 0) {
			w->first_psn = psn;
			w->rd_scan = psn;
			w->rd_low = psn;
		}
		qp->req.psn_wqe[psn & (MRC_QP_WINDOW - 1)] = idx;
		clear_bit(psn & (MRC_QP_WINDOW - 1), qp->req.rd_got);
	}
	return 0;
}

/*
 * Headers of packet @i of a run from packet @k of @w, on the run's EV:
 * the first picks it (a run takes the spread), the rest follow it. Only
 * the last can fill the window or end the message.
 */
static void mrc_req_run_pkt(struct mrc_qp *qp, struct mrc_swqe *w, u32 k,
			    u32 i, u32 n, u32 now, u16 *ev,
			    struct mrc_pkt *pkt)
{
	mrc_req_data_pkt(qp, w, k + i, false, now, pkt);
	if (i == n - 1)
		mrc_req_ask_ack(qp, pkt);
	if (i == 0) {
		mrc_mp_pick_ev_run(qp, pkt);
		*ev = pkt->ev;
	} else {
		mrc_mp_same_ev(qp, pkt, *ev);
	}
	mrc_txwin_set_ev(&qp->req.txwin, pkt->psn, *ev, pkt->ev_seq);
}

/*
 * Send the next @n (at least 2) packets of the WQE at @idx as one GSO
 * skb whose payload stays in the application's pages: each packet is a
 * fragment of headers and fragments of the MR. The fragment slots bound
 * the run (about seven packets of 1408 bytes); a run that would carry
 * fewer than two, or a buffer that is not user memory, is left to
 * mrc_req_send_copy(). Return: as mrc_req_send_copy(), or -EAGAIN when
 * nothing was assigned and the copy should be tried.
 */
static int mrc_req_send_zc(struct mrc_qp *qp, struct mrc_swqe *w, u32 idx,
			   u32 n, u32 hdr_len)
{
	u8 slot[MRC_GSO_MAX_PKTS];
	u32 k = w->sent, now = mrc_now_ts(), data = 0, i;
	struct mrc_pkt pkt;
	struct sk_buff *skb;
	int err = 0;
	u16 ev = 0;

	skb = mrc_tx_alloc_zc(qp, hdr_len, n);
	if (!skb)
		return -EAGAIN;
	for (i = 0; i < n; i++) {
		u32 off = (k + i) * qp->seg;
		u32 len = min(qp->seg, w->length - off);
		int s = mrc_tx_zc_add_hdr(qp, skb, i, hdr_len);

		if (s < 0)
			break;
		err = mrc_swqe_frags(qp, w, off, len, skb);
		if (err) {
			mrc_tx_zc_drop_last(skb);
			break;
		}
		slot[i] = s;
		data += len;
	}
	if (err == -EOPNOTSUPP)
		w->copy_only = true;
	if (i < 2 || mrc_req_assign_psns(qp, w, i, idx, now)) {
		kfree_skb(skb);
		return i < 2 ? -EAGAIN : -ENOSPC;
	}
	n = i;
	for (i = 0; i < n; i++) {
		mrc_req_run_pkt(qp, w, k, i, n, now, &ev, &pkt);
		if (!mrc_tx_zc_put_hdr(qp, skb, slot[i], &pkt)) {
			err = -ENOMEM;
			break;
		}
	}
	w->sent += n;
	if (i < n) {
		kfree_skb(skb);
		return err;
	}
	mrc_tx_zc_seal(qp, skb, hdr_len + qp->seg, n, hdr_len);
	mrc_stats_add(&qp->mdev->stats, MRC_STAT_SENT_ZEROCOPY, n);
	mrc_ev_acct_tx(qp, ev, skb, MRC_EV_TX_DATA, data);
	mrc_tx_queue_ev(qp, skb, ev, true);
	return 0;
}

/*
 * Assign PSNs to the next @n (at least 2) packets of the WQE at @idx and
 * send them as one GSO skb, their payload copied in. Its packets leave
 * together: one clock read stamps them all (under emulation a read costs
 * as much as building a packet). Return: 0, -ENOSPC (nothing assigned),
 * -ENOMEM (assigned but not sent: recovered as lost) or -EFAULT.
 */
static int mrc_req_send_copy(struct mrc_qp *qp, struct mrc_swqe *w, u32 idx,
			     u32 n, u32 hdr_len)
{
	u32 k = w->sent, now = mrc_now_ts(), pkt_len, len, data = 0, i;
	struct mrc_pkt pkt;
	struct sk_buff *skb;
	void *payload;
	int err = 0;
	u16 ev = 0;

	pkt_len = hdr_len + qp->seg;
	if (mrc_req_assign_psns(qp, w, n, idx, now))
		return -ENOSPC;
	/* Only the message's last packet can be short. */
	len = (n - 1) * pkt_len + hdr_len +
	      min(qp->seg, w->length - min((k + n - 1) * qp->seg, w->length));
	skb = mrc_tx_alloc_gso(qp, pkt_len, len, n);
	if (!skb) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		int status;

		mrc_req_run_pkt(qp, w, k, i, n, now, &ev, &pkt);
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
		data += pkt.payload_len;
	}
	if (err) {
		kfree_skb(skb);
	} else {
		mrc_ev_acct_tx(qp, ev, skb, MRC_EV_TX_DATA, data);
		mrc_tx_queue_ev(qp, skb, ev, true);
	}
out:
	w->sent += n;
	return err;
}

/*
 * Send the next @n (at least 2) packets of the WQE at @idx as one GSO
 * skb: without copying them where the buffer allows. Return: as
 * mrc_req_send_copy().
 */
static int mrc_req_send_gso(struct mrc_qp *qp, struct mrc_swqe *w, u32 idx,
			    u32 n)
{
	struct mrc_pkt pkt;
	u32 hdr_len;
	int err;

	mrc_req_data_pkt(qp, w, w->sent, false, 0, &pkt);
	hdr_len = mrc_wire_hdr_len(&pkt);
	n = min(n, (u32)MRC_GSO_MAX_BYTES / (hdr_len + qp->seg));
	if (!w->copy_only && mrc_tx_zerocopy_on()) {
		err = mrc_req_send_zc(qp, w, idx, n, hdr_len);
		if (err != -EAGAIN)
			return err;
	}
	return mrc_req_send_copy(qp, w, idx, n, hdr_len);
}

static u32 mrc_req_run_max(struct mrc_qp *qp)
{
	return clamp_t(u32, mrc_cc_cwnd(qp) / MRC_GSO_RUNS_PER_WINDOW, 1,
		       MRC_GSO_MAX_PKTS);
}

/**
 * mrc_req_transmit() - transmit what the windows allow of one WQE
 * @qp: the QP, with @qp->lock held
 * @idx: the WQE's SQ index
 *
 * Return: 0, or -EFAULT when the WQE's local buffers failed their checks.
 */
int mrc_req_transmit(struct mrc_qp *qp, u32 idx)
{
	struct mrc_swqe *w = &qp->req.swqe[idx & qp->sq.mask];
	u32 op = w->wqe.opcode;
	int err;

	if (mrc_op_is_read_atomic(op)) {
		/*
		 * Wait for window room for a whole chunk (a quarter window at
		 * most): each response frees one PSN, and asking at once for
		 * what it freed would cost a request per response or two. The
		 * request itself is one packet, so the local queue needs room
		 * for one: waiting there for a chunk's worth, with nothing in
		 * flight, no packet leaving would kick the requester again.
		 */
		u32 n = min3(w->npkts - w->sent, (u32)MRC_READ_CHUNK,
			     max(mrc_cc_cwnd(qp) / 4, 1U));

		if (mrc_req_window_room(qp) < n ||
		    !mrc_tx_acct_room(qp->tx_acct))
			return -ENOSPC;
		if (w->sent == 0 && qp->req.rd_atomic_out >= max_t(u8, qp->max_rd_atomic, 1))
			return -EBUSY;
		err = mrc_req_assign_psns(qp, w, n, idx, mrc_now_ts());
		if (err)
			return err;
		if (w->sent == 0)
			qp->req.rd_atomic_out++;
		if (op == IB_WR_RDMA_READ)
			qp->req.rd_pending += n;
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

		/*
		 * No room in the window or the local queue: stop here, at
		 * 0, where the ACK or the packet leaving will kick us.
		 */
		if (!n)
			return -ENOSPC;
		if (n > 1) {
			err = mrc_req_send_gso(qp, w, idx, n);
			if (err == -ENOSPC)
				return err;
		} else {
			err = mrc_req_assign_psns(qp, w, 1, idx, mrc_now_ts());
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
