// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completer: acknowledgments, SACKs, NACKs and READ/ATOMIC responses
 * arriving at the requester.
 */
#include "engine/mrc_qp.h"

/*
 * The network's round trip: the responder's time between the request
 * and its ACK (a held ACK's wait, a busy CPU) is taken out. A trimmed
 * packet's NACK gives none: its header overtook the queue the data waits
 * in, and timed the timer (and NSCC's delay) below that queue, so that
 * the timeout fired on data still queued.
 *
 * Return: the RTT sample in 1.024 us units, 0 when there is none.
 */
static u32 mrc_comp_sample_rtt(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	u32 elapsed;

	if (!pkt->aeth.timestamp || pkt->aeth.svc_time >= MRC_SVC_TIME_OVER ||
	    mrc_pkt_is_trim_nack(pkt))
		return 0;
	elapsed = mrc_now_ts() - pkt->aeth.timestamp;
	if (elapsed >= (1U << 24))
		return 0;
	elapsed -= min_t(u32, pkt->aeth.svc_time, elapsed);
	mrc_rto_sample(&qp->req.rto, mrc_ts_to_ns(elapsed));
	return max(elapsed, 1U);
}

static void mrc_comp_nack(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	struct mrc_swqe *w;
	int status;

	switch (pkt->aeth.syndrome) {
	case MRC_SYN_TRIMMED:
		/*
		 * Congestion on the EV's path, not a failure of it: resent at
		 * once on another EV, the EV penalised as for a CE mark
		 * (mrc_mp_on_ack()), never blamed.
		 */
		if (pkt->aeth.ev < qp->mp.evs.count)
			qp->mp.evs.st[pkt->aeth.ev].c[MRC_EVS_TRIMS]++;
		/* No more room is held than the window has. */
		if (mrc_txwin_mark_trimmed(&qp->req.txwin, pkt->psn, pkt->aeth.ev,
					   pkt->aeth.ev_seq) &&
		    !mrc_cc_on_trim(qp) && qp->req.trim_held < mrc_cc_cwnd(qp))
			qp->req.trim_held++;
		return;
	case MRC_SYN_PSN_SEQ_ERR:
		/* One hole, inside the window: never the whole window. */
		if (mrc_txwin_nack_acceptable(&qp->req.txwin, pkt->aeth.cum_psn))
			mrc_txwin_mark_lost(&qp->req.txwin, pkt->aeth.cum_psn);
		return;
	case MRC_SYN_RNR:
		/* The receiver has no WQE yet: wait and resend, or give up. */
		if (!mrc_req_rnr_nack(qp, pkt))
			return;
		status = IB_WC_RNR_RETRY_EXC_ERR;
		break;
	case MRC_SYN_REMOTE_ACCESS:
		status = IB_WC_REM_ACCESS_ERR;
		break;
	case MRC_SYN_INVALID_REQ:
		status = IB_WC_REM_INV_REQ_ERR;
		break;
	default:
		status = IB_WC_REM_OP_ERR;
		break;
	}
	w = mrc_req_wqe_of(qp, pkt->psn);
	if (w && w->status == IB_WC_SUCCESS) {
		w->status = status;
		w->state = MRC_SWQE_DONE;
	}
}

/*
 * The first acknowledgment after a timeout that advances the PSNs tells
 * whether the timeout was needed: echoing a first transmission's time
 * from before it, the packet was only slow, so the window comes back, what
 * the timeout marked lost is not resent and the EVs it blamed are GOOD
 * again (Eifel, RFC 3522). Echoing none, it answers a retransmission: the
 * timeout was needed (mrc_loss_undo_rto_verdict()).
 */
static void mrc_comp_check_spurious_rto(struct mrc_qp *qp,
					const struct mrc_pkt *pkt)
{
	if (!qp->req.rto_undo)
		return;
	qp->req.rto_undo = false;
	mrc_mp_rto_verdict(qp, pkt->aeth.timestamp);
	if (!pkt->aeth.timestamp ||
	    !mrc_psn_before(pkt->aeth.timestamp, qp->req.rto_ts))
		return;
	mrc_cc_undo(qp);
	mrc_txwin_clear_lost(&qp->req.txwin);
	qp->req.spurious_rto++;
	pr_debug("mrc: qp %u rto spurious: echo %u before the timeout at %u\n",
		 qp->ibqp.qp_num, pkt->aeth.timestamp, qp->req.rto_ts);
}

/*
 * The window advanced: a round trip of the timer's estimator ends once
 * everything sent when it began is acknowledged (mrc_rto.h).
 */
static void mrc_comp_on_progress(struct mrc_qp *qp)
{
	mrc_rto_on_progress(&qp->req.rto);
	if (mrc_psn_before(mrc_txwin_oldest_unacked(&qp->req.txwin),
			   qp->req.rto_round_psn))
		return;
	mrc_rto_end_round(&qp->req.rto);
	qp->req.rto_round_psn = mrc_txwin_next_psn(&qp->req.txwin);
}

/* Whether @pkt passes the acceptable-ACK rule (mrc_txwin.h). */
static bool mrc_comp_ack_news(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	bool sack = pkt->opcode == MRC_OP_SACK;

	return mrc_txwin_ack_acceptable(&qp->req.txwin, pkt->aeth.cum_psn,
					sack ? pkt->sack.base_psn : 0,
					sack ? pkt->sack.nwords : 0,
					pkt->sack.bitmap);
}

/*
 * The responder acknowledges a READ request's PSNs as it sends their
 * responses, which may come later or be lost: the window keeps them from
 * the oldest unfinished READ's first response not received on
 * (mrc_txwin_hold()), so that the READ hole check, the tail loss probe
 * and the timer still know which EV and time each went with. Called
 * before the window takes an acknowledgment, and after a READ's response
 * or an atomic's result changed what is held.
 */
static void mrc_comp_hold_reads(struct mrc_qp *qp)
{
	struct mrc_swqe *w;
	u32 idx;

	for (idx = qp->sq.own; qp->req.rd_atomic_out && idx != qp->req.sq_fetch;
	     idx++) {
		w = &qp->req.swqe[idx & qp->sq.mask];
		if (!w->sent)
			break;
		if (w->wqe.opcode == IB_WR_RDMA_READ &&
		    w->state != MRC_SWQE_DONE) {
			mrc_txwin_hold(&qp->req.txwin, true, w->rd_low);
			return;
		}
	}
	mrc_txwin_hold(&qp->req.txwin, false, 0);
}

/*
 * Retire the oldest PSNs reported received, up to the hold. Every change
 * of the hold needs it: responses spread over many EVs may all arrive for
 * the next READ before the last one of the READ held, and nothing else
 * would retire that READ's PSNs once the hold moves past them.
 *
 * Return: the number of PSNs retired.
 */
static u32 mrc_comp_retire(struct mrc_qp *qp)
{
	mrc_comp_hold_reads(qp);
	return mrc_txwin_ack_sacked_prefix(&qp->req.txwin);
}

/*
 * Apply a SACK, but for the PSNs of READs: their responses report them
 * received (mrc_comp_read_resp()), not the responder's SACK of the
 * request, which comes before the responses and says nothing of their
 * fate. The loss rules then judge a missing response as they judge data.
 */
static void mrc_comp_sack(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	u32 nwords = min_t(u32, pkt->sack.nwords, MRC_SACK_MAX_WORDS);
	u64 bitmap[MRC_SACK_MAX_WORDS], word;
	const struct mrc_swqe *w;
	unsigned int i, b;
	u32 psn;

	/* No READ sent and not completed: no PSN to leave out. */
	if (!qp->req.rd_atomic_out) {
		mrc_txwin_on_sack(&qp->req.txwin, pkt->sack.base_psn, nwords,
				  pkt->sack.bitmap);
		return;
	}
	for (i = 0; i < nwords; i++) {
		bitmap[i] = pkt->sack.bitmap[i];
		for (word = bitmap[i]; word; word &= word - 1) {
			b = __ffs64(word);
			psn = pkt->sack.base_psn + 64 * i + b;
			w = mrc_req_wqe_of(qp, psn);
			if (w && w->wqe.opcode == IB_WR_RDMA_READ)
				bitmap[i] &= ~BIT_ULL(b);
		}
	}
	mrc_txwin_on_sack(&qp->req.txwin, pkt->sack.base_psn, nwords, bitmap);
}

/*
 * Apply an ACK, SACK, NACK or atomic response. The window takes any
 * acknowledgment (it ignores PSNs outside [una, nxt)), but only one that
 * passes the acceptable-ACK rule may take an RTT sample, credit or
 * penalise an EV or cut the window for its CE count: a stale or spoofed
 * ACK must not steer congestion control or path choice.
 */
static bool mrc_comp_ack(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	bool news = mrc_comp_ack_news(qp, pkt);
	u32 delivered = mrc_txwin_delivered(&qp->req.txwin);
	u32 acked, nlost, rtt = 0;
	bool lost;

	if (news) {
		rtt = mrc_comp_sample_rtt(qp, pkt);
		mrc_txwin_note_echo(&qp->req.txwin, pkt->psn, pkt->aeth.ev,
				    pkt->aeth.ev_seq);
		mrc_loss_on_echo(qp, pkt);
	}
	mrc_mp_check_undo(qp, pkt->psn, pkt->aeth.ev, pkt->aeth.ev_seq);
	mrc_comp_hold_reads(qp);
	acked = mrc_txwin_on_ack(&qp->req.txwin, pkt->aeth.cum_psn);
	if (acked)
		mrc_comp_check_spurious_rto(qp, pkt);
	if (pkt->opcode == MRC_OP_SACK)
		mrc_comp_sack(qp, pkt);
	if (pkt->opcode == MRC_OP_NACK)
		mrc_comp_nack(qp, pkt);
	acked += mrc_comp_retire(qp);
	nlost = mrc_txwin_lost(&qp->req.txwin);
	if (news) {
		mrc_mp_on_ack(qp, pkt, rtt);
		mrc_loss_on_ack(qp);
	}
	nlost = mrc_txwin_lost(&qp->req.txwin) - nlost;
	lost = nlost > 0;
	/* Each PSN the queue delivered frees the room of one trim held. */
	qp->req.trim_held -= min(qp->req.trim_held,
			     mrc_txwin_delivered(&qp->req.txwin) - delivered);
	if (acked) {
		mrc_comp_on_progress(qp);
		mrc_loss_on_progress(qp);
	}
	if (acked || news)
		mrc_cc_on_ack(qp, acked, news ? pkt->aeth.ce_count : 0,
			      mrc_ts_to_ns(rtt));
	if (lost)
		mrc_cc_on_loss(qp, nlost);
	return acked || lost || mrc_txwin_lost(&qp->req.txwin);
}

/*
 * Ask again at once, each PSN once, for responses before @pkt's PSN that
 * mrc_loss_read_hole_lost() finds lost; the scan stops at the first hole
 * it cannot judge yet (later responses will), and the timer covers a
 * lost re-request.
 *
 * Return: how many were found lost.
 */
static u32 mrc_comp_read_holes(struct mrc_qp *qp, struct mrc_swqe *w,
			       const struct mrc_pkt *pkt)
{
	u32 bit, n = 0;

	/* Below rd_low every response is placed, and its bit reused. */
	if (mrc_psn_before(w->rd_scan, w->rd_low))
		w->rd_scan = w->rd_low;
	while (mrc_psn_before(w->rd_scan, pkt->psn)) {
		bit = w->rd_scan & (MRC_QP_WINDOW - 1);
		if (!test_bit(bit, qp->req.rd_got)) {
			if (!mrc_loss_read_hole_lost(qp, w->rd_scan, pkt))
				break;
			mrc_mp_inferred_loss(qp, w->rd_scan,
					     MRC_EV_WHY_LOSS_READ);
			mrc_req_send_read(qp, w, w->rd_scan, 1, true);
			n++;
		}
		w->rd_scan++;
	}
	return n;
}

/*
 * READ responses echo no timestamp: time one from its request's
 * transmission, unless that was repeated (Karn). The sample includes the
 * responses sent before it in its chunk, which the timeout must cover.
 *
 * Return: the sample in ns, 0 for none.
 */
static u64 mrc_comp_read_rtt(struct mrc_qp *qp, u32 psn)
{
	const struct mrc_tx_entry *e = mrc_txwin_entry(&qp->req.txwin, psn);
	u32 elapsed;

	if (!e || e->tx_count != 1)
		return 0;
	elapsed = mrc_now_ts() - e->ts;
	if (elapsed >= (1U << 24))
		return 0;
	mrc_rto_sample(&qp->req.rto, mrc_ts_to_ns(elapsed));
	return max_t(u64, mrc_ts_to_ns(elapsed), 1);
}

/*
 * A READ response a switch trimmed: the path of its request's EV is
 * congested, not failed. The PSN is asked for again at once, on another
 * EV (mrc_txwin_mark_trimmed()), and the EV is penalised as for a CE mark.
 *
 * Return: true when the requester has a PSN to ask for again.
 */
static bool mrc_comp_read_trimmed(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	if (pkt->ev < qp->mp.evs.count)
		qp->mp.evs.st[pkt->ev].c[MRC_EVS_TRIMS]++;
	mrc_ev_on_delivered(&qp->mp.evs, pkt->ev, true, 0);
	if (!mrc_txwin_mark_trimmed(&qp->req.txwin, pkt->psn, pkt->ev, pkt->ev_seq))
		return false;
	mrc_cc_on_trim(qp);
	return true;
}

/*
 * A READ response: place it by its PSN and count it. READ data flows
 * towards the requester, whose window paces it: a CE mark on a response
 * is a mark on its data, as the CE count of an ACK is for WRITEs, and
 * counts against the window and the EV it came back on.
 *
 * Return: true when a response was placed, or the WQE ended (progress:
 * the caller restarts the retransmission timer, or a READ-only stream
 * would time out every RTO however fast its responses arrive).
 */
static bool mrc_comp_read_resp(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			       const struct mrc_payload *payload, bool ce)
{
	struct mrc_swqe *w = mrc_req_wqe_of(qp, pkt->psn);
	u32 bit = pkt->psn & (MRC_QP_WINDOW - 1);
	u32 offset, plen, acked, lost = 0, nlost;
	u64 one = 1, rtt_ns;
	bool done;
	int status;

	/*
	 * rd_got is indexed by PSN modulo the window: the bit of a PSN
	 * below rd_low, whose response was placed, may now belong to a PSN
	 * 1024 later. Only [rd_low, first_psn + sent) own their bits.
	 */
	if (!w || w->wqe.opcode != IB_WR_RDMA_READ ||
	    w->state == MRC_SWQE_DONE || !mrc_req_rd_owns(w, pkt->psn) ||
	    test_bit(bit, qp->req.rd_got)) {
		pr_debug("mrc: qp %u read resp psn %u dropped (w %d own %u send %u)\n",
			 qp->ibqp.qp_num, pkt->psn, !!w, qp->sq.own, qp->req.sq_send);
		return false;
	}
	if (pkt->flags & MRC_FLAG_TRIM)
		return mrc_comp_read_trimmed(qp, pkt);
	offset = (pkt->psn - w->first_psn) * qp->mtu;
	plen = min(qp->mtu, w->length - min(offset, w->length));
	if (pkt->payload_len != plen)
		return false;

	status = mrc_swqe_place(qp, w, offset, payload, plen);
	if (status != IB_WC_SUCCESS) {
		w->status = status;
		w->state = MRC_SWQE_DONE;
		return true;
	}
	set_bit(bit, qp->req.rd_got);
	rtt_ns = mrc_comp_read_rtt(qp, pkt->psn);
	mrc_ev_on_delivered(&qp->mp.evs, pkt->ev, ce, 0);
	if (ce && pkt->ev < qp->mp.evs.count)
		qp->mp.evs.st[pkt->ev].c[MRC_EVS_ECN_MARKS]++;
	while (mrc_psn_before(w->rd_low, w->first_psn + w->sent) &&
	       test_bit(w->rd_low & (MRC_QP_WINDOW - 1), qp->req.rd_got))
		w->rd_low++;
	if (qp->req.rd_pending)
		qp->req.rd_pending--;
	mrc_txwin_note_echo(&qp->req.txwin, pkt->psn, pkt->ev, pkt->ev_seq);
	mrc_txwin_on_sack(&qp->req.txwin, pkt->psn, 1, &one);
	done = ++w->got == w->npkts;
	if (done)
		w->state = MRC_SWQE_DONE;
	acked = mrc_comp_retire(qp);
	/*
	 * Responses clock a READ stream as ACKs clock writes: each new one
	 * is progress for the timer, also while the window holds an older
	 * one missing (the responder is alive; the hole checks and the
	 * probe look for that one).
	 */
	if (acked) {
		mrc_comp_on_progress(qp);
		mrc_loss_on_progress(qp);
	} else {
		mrc_rto_on_progress(&qp->req.rto);
	}
	mrc_cc_on_ack(qp, acked, ce, rtt_ns);
	if (!done)
		lost = mrc_comp_read_holes(qp, w, pkt);
	nlost = mrc_txwin_lost(&qp->req.txwin);
	mrc_loss_on_read_resp(qp);
	lost += mrc_txwin_lost(&qp->req.txwin) - nlost;
	/* A lost response is congestion on its path, as lost data is. */
	if (lost)
		mrc_cc_on_loss(qp, lost);
	return true;
}

static void mrc_comp_atomic_resp(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	struct mrc_swqe *w = mrc_req_wqe_of(qp, pkt->psn);
	u64 orig = pkt->atomic_orig;
	u64 one = 1;
	int status;

	if (!w || !mrc_op_is_read_atomic(w->wqe.opcode) ||
	    w->wqe.opcode == IB_WR_RDMA_READ || w->state == MRC_SWQE_DONE)
		return;
	status = mrc_swqe_copy(qp, w, 0, &orig, sizeof(orig), true);
	w->status = status;
	w->state = MRC_SWQE_DONE;
	/*
	 * The response proves the atomic executed: its PSN must not stay
	 * outstanding after the WQE completes, waiting for a cumulative ACK
	 * that may be lost, stale or never come: the timer would retry a
	 * PSN no WQE owns, and at last fail a WQE never posted.
	 */
	mrc_txwin_on_sack(&qp->req.txwin, pkt->psn, 1, &one);
	if (mrc_comp_retire(qp))
		mrc_comp_on_progress(qp);
}

/**
 * mrc_comp_rx() - a response or acknowledgment for one of our requests
 * @qp: the QP
 * @pkt: validated headers
 * @payload: where the payload lies (READ responses)
 * @ce: it arrived marked CE (READ responses: the data's own mark; an
 *	acknowledgment's mark is no signal: acknowledgments are few, and the
 *	data they answer carries its own marks, as RFC 8311 leaves it)
 *
 * Return: true when the requester has work now (window space opened for
 * WQEs not fully sent, or PSNs to retransmit): the caller kicks it.
 */
bool mrc_comp_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
		 const struct mrc_payload *payload, bool ce)
{
	bool kick = false, run = false;

	spin_lock(&qp->lock);
	if (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD)
		goto out;
	/* An ACK a request carried was counted with the request. */
	if (pkt->hdr_len)
		mrc_ev_acct_rx(qp, pkt);

	switch (pkt->opcode) {
	case MRC_OP_READ_RESP:
		/* Even a response already had by its re-request shows this. */
		mrc_mp_check_undo(qp, pkt->psn, pkt->ev, pkt->ev_seq);
		kick = mrc_comp_read_resp(qp, pkt, payload, ce);
		break;
	case MRC_OP_ATOMIC_RESP:
		kick = mrc_comp_ack(qp, pkt);
		mrc_comp_atomic_resp(qp, pkt);
		break;
	case MRC_OP_ACK:
		/* The flag marks an ACK that came on a request. */
		if (pkt->flags & MRC_FLAG_ACK)
			mrc_dack_peer_carried(qp);
		fallthrough;
	case MRC_OP_SACK:
	case MRC_OP_NACK:
		kick = mrc_comp_ack(qp, pkt);
		break;
	case MRC_OP_PROBE_REPLY:
		mrc_mp_probe_reply_rx(qp, pkt);
		goto out;
	default:
		goto out;
	}
	mrc_req_complete(qp);
	mrc_req_arm_rto(qp, kick);
	mrc_loss_arm_tlp(qp);
	run = mrc_txwin_lost(&qp->req.txwin) || qp->req.sq_send != qp->req.sq_fetch;
out:
	spin_unlock(&qp->lock);
	return run;
}

/**
 * mrc_comp_rx_carried() - the ACK a request from the peer carries
 * @qp: the QP
 * @req: a validated request with MRC_FLAG_ACK
 *
 * Return: as mrc_comp_rx().
 */
bool mrc_comp_rx_carried(struct mrc_qp *qp, const struct mrc_pkt *req)
{
	struct mrc_pkt ack = {
		.opcode = MRC_OP_ACK,
		.flags = MRC_FLAG_ACK,
		.psn = req->psn,
		.aeth = req->aeth,
		.rx_sport = req->rx_sport,
	};

	return mrc_comp_rx(qp, &ack, NULL, false);
}
