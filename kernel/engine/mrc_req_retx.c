// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requester, loss recovery: the retransmission timer, resending what the
 * send window marks lost, and asking again for READ responses and atomic
 * results that never came.
 */
#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"

/*
 * Copies of the oldest PSN after a timeout that found no EV proven to
 * deliver: each goes on another EV of the round robin, so one dead path
 * (or several) cannot swallow every retry; the responder drops the
 * duplicates and its acknowledgments credit the EVs that work.
 */
#define MRC_RTO_SPREAD	4

/* Something sent is not yet accounted for: the timer must run. */
static bool mrc_req_busy(struct mrc_qp *qp)
{
	return qp->sq.own != qp->req.sq_send || qp->req.rd_pending ||
	       mrc_txwin_outstanding(&qp->req.txwin);
}

/**
 * mrc_req_arm_rto() - start, restart or stop the retransmission timer
 * @qp: the QP, with @qp->lock held
 * @restart: an acknowledgment made progress: count the timeout from now
 *
 * The timer is a timer-wheel timer, as TCP's is, not an hrtimer: it is
 * started and stopped for nearly every message, and an hrtimer that is
 * the CPU's earliest reprograms the clock event device each time, where
 * the wheel needs no device access. The expiry is rounded up to whole
 * ticks, as TCP's RTO is kept in jiffies: a timeout fires at most one
 * tick early or late. Two ticks at least, so a full tick passes before
 * it fires, and one more while the peer may hold our ACKs back for a
 * tick (mrc_dack.h).
 */
void mrc_req_arm_rto(struct mrc_qp *qp, bool restart)
{
	u64 ticks;

	/* No timeout while an RNR wait holds transmission back. */
	if (!mrc_req_busy(qp) || qp->req.rnr.waiting) {
		if (qp->req.rto_armed)
			timer_delete(&qp->req.rto_timer);
		qp->req.rto_armed = false;
		return;
	}
	if (qp->req.rto_armed && !restart)
		return;
	ticks = max_t(u64, DIV_ROUND_UP_ULL(mrc_rto_timeout_ns(&qp->req.rto),
					    TICK_NSEC), 2) +
		mrc_dack_rto_slack(qp);
	qp->req.rto_armed_at = jiffies;
	mod_timer(&qp->req.rto_timer, qp->req.rto_armed_at + (unsigned long)ticks);
	qp->req.rto_armed = true;
}

/**
 * mrc_req_retransmit() - send again every PSN the window marks lost
 * @qp: the QP, with @qp->lock held
 */
void mrc_req_retransmit(struct mrc_qp *qp)
{
	u32 psn = mrc_txwin_oldest_unacked(&qp->req.txwin);
	u32 in_flight = mrc_txwin_in_flight(&qp->req.txwin);
	u32 held = in_flight ? qp->req.trim_held : 0;
	u32 una = psn, copies;
	/*
	 * Retransmissions obey the congestion window like new data: a
	 * timeout marks everything lost, and resending it all at once is
	 * the burst the bottleneck just dropped. Acknowledgments clock out
	 * the rest. One always goes when nothing is in flight.
	 *
	 * A trim frees no room: the window shrinks by the trimmed packet
	 * or, when it cannot (at its least), the room stays held until the
	 * queue delivers a packet (@qp->req.trim_held; the responder
	 * acknowledges every request until the trimmed PSN arrives). The
	 * switch's queue is full, and a packet resent into it before it
	 * delivers one is trimmed again: resent outside the window, the
	 * packets a queue could not hold circulated as trims, ten per packet
	 * delivered in an 8:1 incast, their headers taking the bottleneck
	 * from the data.
	 *
	 * The oldest PSN goes anyway (RFC 6675's fast retransmit): it holds
	 * the cumulative point, and the window cut for its loss leaves no
	 * room until SACKs for half the flight come back, which a receiver
	 * sending one SACK per 16 packets may never send. Not when it was
	 * trimmed while room is held: resent at once into the full queue, it
	 * came back trimmed again (22 times for one PSN), and the responder
	 * acknowledges each request until it arrives, so a delivery comes.
	 */
	u32 budget = max_t(u32, mrc_cc_room(qp, in_flight + held), !in_flight);
	bool head = false;

	while (mrc_tx_acct_room(qp->tx_acct) &&
	       mrc_txwin_next_retransmit(&qp->req.txwin, &psn)) {
		struct mrc_swqe *w = mrc_req_wqe_of(qp, psn);
		bool trimmed = mrc_txwin_entry(&qp->req.txwin, psn)->flags &
			       MRC_TXE_TRIMMED;

		if (!budget && (psn != una || (trimmed && held)))
			break;
		if (budget)
			budget--;
		head |= psn == una;
		copies = 1;
		if (psn == una && qp->req.rto_spread)
			copies = min_t(u32, MRC_RTO_SPREAD, qp->mp.evs.count);
		qp->req.rto_spread = false;
		/* A PSN whose WQE completed has nothing left to resend. */
		while (w && copies--)
			mrc_req_resend(qp, w, psn);
		/* The builder recorded the EV it picked; keep it. */
		mrc_txwin_on_retransmit(&qp->req.txwin, psn,
					mrc_txwin_entry(&qp->req.txwin, psn)->ev,
					mrc_now_ts());
		psn++;
	}
	/*
	 * As TCP does, the resent head gets a full timeout to be answered;
	 * not a READ's: the timeout stays the last resort for responses lost
	 * at the end of a chunk when the tail loss probe (mrc_loss.c) was
	 * lost too, and is not held off.
	 */
	if (head && !qp->req.rd_pending)
		mrc_req_arm_rto(qp, true);
}

/*
 * Atomics the responder acknowledged executing but whose result never
 * arrived: their PSNs left the window, so ask again for each. A READ's
 * PSNs stay in the window until their responses arrive (mrc_comp.c): the
 * timeout marks the missing ones lost and they are resent with the rest.
 */
static void mrc_req_reask_atomics(struct mrc_qp *qp)
{
	u32 una = mrc_txwin_oldest_unacked(&qp->req.txwin);
	u32 idx;

	for (idx = qp->sq.own; idx != qp->req.sq_fetch; idx++) {
		struct mrc_swqe *w = &qp->req.swqe[idx & qp->sq.mask];

		if (!w->sent)
			break;
		if (mrc_swqe_awaits_response(w) &&
		    w->wqe.opcode != IB_WR_RDMA_READ &&
		    mrc_psn_before(w->first_psn, una))
			mrc_req_send_atomic(qp, w, true);
	}
}

/*
 * The timer expired on the oldest PSN: its EV did not deliver, unless the
 * next acknowledgment shows the timeout spurious (mrc_mp_rto_verdict()).
 */
static void mrc_req_blame_oldest(struct mrc_qp *qp)
{
	const struct mrc_tx_entry *e;

	e = mrc_txwin_entry(&qp->req.txwin, mrc_txwin_oldest_unacked(&qp->req.txwin));
	if (e && !(e->flags & MRC_TXE_SACKED) &&
	    mrc_mp_blame(qp, e->ev, MRC_EV_WHY_LOSS_TIMEOUT))
		mrc_loss_undo_rto_record(&qp->req.undo, e->ev,
					 qp->mp.evs.ev[e->ev].bad_ts, qp->req.rto_ts);
}

/*
 * A QP gives up: say so once, with what an operator needs to tell a dead
 * peer (every EV bad) from a stall of ours (EVs good, nothing answered).
 * Each EV as one letter: G good, B assumed bad, D denied.
 */
static void mrc_req_report_retry_exc(struct mrc_qp *qp)
{
	static const char letter[] = { [MRC_EV_GOOD] = 'G',
				       [MRC_EV_ASSUMED_BAD] = 'B',
				       [MRC_EV_DENIED] = 'D' };
	char evs[65];
	u32 i, n = min_t(u32, qp->mp.evs.count, sizeof(evs) - 1);

	for (i = 0; i < n; i++)
		evs[i] = qp->mp.evs.ev[i].state < ARRAY_SIZE(letter) ?
			 letter[qp->mp.evs.ev[i].state] : '?';
	evs[n] = '\0';
	ibdev_info_ratelimited(qp->ibqp.device,
			       "qp %u: retry count exceeded, %llu ms and %u timeouts without progress (una %u nxt %u rd_pending %u srtt %llu us rto %llu us, EVs %s)\n",
			       qp->ibqp.qp_num,
			       div_u64(qp->req.rto.waited_ns, NSEC_PER_MSEC),
			       mrc_rto_retries(&qp->req.rto),
			       mrc_txwin_oldest_unacked(&qp->req.txwin),
			       mrc_txwin_next_psn(&qp->req.txwin), qp->req.rd_pending,
			       div_u64(mrc_rto_srtt_ns(&qp->req.rto), NSEC_PER_USEC),
			       div_u64(mrc_rto_timeout_ns(&qp->req.rto),
				       NSEC_PER_USEC), evs);
}

/**
 * mrc_rto_fire() - the retransmission timer expired
 * @timer: the QP's rto_timer (timer softirq, qp->lock not held)
 *
 * The requester re-arms it.
 */
void mrc_rto_fire(struct timer_list *timer)
{
	struct mrc_qp *qp = from_timer(qp, timer, req.rto_timer);

	spin_lock(&qp->lock);
	/* Restarted after it expired but before this ran: no timeout. */
	if (timer_pending(&qp->req.rto_timer)) {
		spin_unlock(&qp->lock);
		return;
	}
	qp->req.rto_armed = false;
	if ((qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD) ||
	    !mrc_req_busy(qp) || qp->req.rnr.waiting)
		goto out;
	if (mrc_loss_probe_before_rto(qp)) {
		mrc_rto_on_probe(&qp->req.rto,
				 jiffies_to_nsecs(jiffies - qp->req.rto_armed_at));
		mrc_req_arm_rto(qp, true);
		goto out;
	}
	pr_debug("mrc: qp %u rto: una %u nxt %u own %u send %u fetch %u rd_pending %u cwnd %u rd_out %u\n",
		 qp->ibqp.qp_num, mrc_txwin_oldest_unacked(&qp->req.txwin),
		 mrc_txwin_next_psn(&qp->req.txwin), qp->sq.own, qp->req.sq_send,
		 qp->req.sq_fetch, qp->req.rd_pending, mrc_cc_cwnd(qp), qp->req.rd_atomic_out);
	if (mrc_rto_on_timeout(&qp->req.rto,
			       jiffies_to_nsecs(jiffies - qp->req.rto_armed_at))) {
		struct mrc_swqe *w = &qp->req.swqe[qp->sq.own & qp->sq.mask];

		mrc_req_report_retry_exc(qp);
		/*
		 * No WQE fetched: nothing posted waits for the PSNs that
		 * timed out, and the SQ slot at own holds no WQE to fail
		 * (failing it would move sq_send past sq_fetch, and the
		 * flush would loop 2^32 times). The QP still goes to error.
		 */
		if (qp->sq.own == qp->req.sq_fetch) {
			mrc_qp_error_locked(qp);
			goto out;
		}
		w->status = IB_WC_RETRY_EXC_ERR;
		if (qp->sq.own == qp->req.sq_send)
			qp->req.sq_send++;
		mrc_req_complete(qp);
		goto out;
	}
	mrc_cc_on_timeout(qp);
	qp->req.rto_fired++;
	qp->req.rto_ts = mrc_now_ts();
	qp->req.rto_undo = true;
	mrc_req_blame_oldest(qp);
	qp->req.rto_spread = !mrc_ev_has_proven(&qp->mp.evs);
	mrc_txwin_mark_all_lost(&qp->req.txwin);
	qp->req.trim_held = 0;
	mrc_req_reask_atomics(qp);
out:
	spin_unlock(&qp->lock);
	mrc_req_kick(qp);
}
