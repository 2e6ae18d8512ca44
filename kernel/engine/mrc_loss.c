// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Requester, loss inference: which outstanding PSNs were lost, told from
 * the SACKs, the per-EV sequences acknowledgments echo and the clock,
 * before the retransmission timer would tell (Documentation/multipath.rst,
 * "Loss recovery, fastest first"). Two rules:
 *
 * - Per-EV gap: one EV's path delivers in order, so a packet sent on it
 *   well before one that arrived was lost.
 * - Time (RACK, RFC 8985): a packet sent before one that arrived is lost
 *   once it has been missing for longer than its EV's round trip plus the
 *   reordering window. When the oldest hole is not overdue yet, a timer
 *   runs the rule again the moment it will be: a small window sends too
 *   few packets after a hole for a later SACK to come, and waiting for one
 *   left every loss to the retransmission timeout.
 *
 * A loss at the tail of a flight leaves no later packet to reveal it. The
 * requester asks for an answer on a message's last packet and when its
 * window fills (AR, mrc_req_ask_ack()); when that packet is still
 * unanswered two round trips after it left, the same timer sends a tail
 * loss probe (RFC 8985 section 7): the newest PSN not yet SACKed, again.
 * Its answer, at once (a retransmission asks for one), completes the
 * flight or SACKs past its holes for the time rule. The retransmission
 * timeout, which cuts the window to its least and blames the EV, stays
 * the last resort. A probe's copy goes on another EV; when it was the
 * only PSN outstanding, its answer echoes that copy and nothing echoed
 * the one it stood in for, that one was lost, and its EV is blamed
 * (mrc_loss_undo.h): a QP that sends one message at a time leaves no
 * later packet to reveal its losses, and must still stop using a dead
 * path. The probe's two round trips count from the packet that asked,
 * not from the last progress: the responder acknowledges only every 64
 * packets or when asked, and a probe timed from progress fired on every
 * quiet stretch of a healthy stream.
 *
 * A READ request is answered by its chunk's last response. When that is
 * missing two round trips after the request left, the probe asks again
 * for the newest response missing, on the EV the chunk went on: the
 * answer comes after whatever that EV still carries, so the responses
 * missing when it arrives were lost (the READ hole check), and a probe
 * that was not needed costs one response, not a verdict. Once answered,
 * the probe waits on the newest response still missing: a re-request's
 * answer has no later response on its EV to reveal its loss.
 *
 * Losses found here blame the EV that carried the PSN (mrc_mp.c).
 *
 * Called with qp->lock held unless noted.
 */
#include "engine/mrc_qp.h"

/*
 * Least wait for an answer before a tail loss probe, in 1.024 us units:
 * under the retransmission timeout's floor (4 ms), over the reordering
 * window's (1 ms).
 */
#define MRC_TLP_MIN_TS		2000

/*
 * How long a packet sent on @ev may be missing after a later one arrived:
 * the slower of the QP's and the EV's smoothed RTT (an EV's own samples
 * are fewer and may be stale; a slow path's are longer than the QP's
 * mix), plus the reordering window.
 */
static u32 mrc_loss_wait_ts(void *ctx, u16 ev)
{
	struct mrc_qp *qp = ctx;
	u32 rtt = mrc_rto_srtt_ns(&qp->req.rto) >> 10;

	if (ev < qp->mp.evs.count)
		rtt = max(rtt, qp->mp.evs.ev[ev].srtt >> 3);
	return rtt + mrc_loss_reo_ts(&qp->req);
}

/**
 * mrc_loss_read_hole_lost() - whether a missing READ response was lost
 * @qp: the QP
 * @hole: a response PSN not received
 * @resp: a later response that arrived
 *
 * Return: true when @hole is lost (mrc_txwin_read_hole_lost()).
 */
bool mrc_loss_read_hole_lost(struct mrc_qp *qp, u32 hole,
			     const struct mrc_pkt *resp)
{
	return mrc_txwin_read_hole_lost(&qp->req.txwin, hole, resp->psn, resp->ev,
					resp->ev_seq, mrc_loss_reo_ts(&qp->req));
}

/*
 * One EV delivers in order: a PSN sent on it well before one that
 * arrived (more than the reordering window), and not itself reported
 * received, was lost. Only a copy known to have arrived counts
 * (mrc_txwin_last_copy_arrived()): the SACK of a PSN sent again may
 * report its first copy, and the last one may still be on its way.
 * Cheap unless the peer reports holes, the only time such a PSN can
 * exist.
 */
static void mrc_loss_ev_gaps(struct mrc_qp *qp)
{
	struct mrc_txwin *win = &qp->req.txwin;
	u32 una = mrc_txwin_oldest_unacked(win);
	u32 nxt = mrc_txwin_next_psn(win);
	u32 reo = mrc_loss_reo_ts(&qp->req);
	const struct mrc_tx_entry *e;
	struct mrc_ev *ev;
	u32 psn;

	for (psn = una; psn != nxt; psn++) {
		e = mrc_txwin_entry(win, psn);
		ev = &qp->mp.evs.ev[e->ev];
		if (mrc_txwin_last_copy_arrived(e) &&
		    (!ev->delivered || mrc_psn_after(e->ev_seq + 1, ev->del_seq))) {
			ev->del_seq = e->ev_seq + 1;
			ev->del_ts = e->ts;
			ev->delivered = true;
		}
	}
	for (psn = una; psn != nxt; psn++) {
		e = mrc_txwin_entry(win, psn);
		ev = &qp->mp.evs.ev[e->ev];
		if (e->flags & (MRC_TXE_SACKED | MRC_TXE_LOST) || !ev->delivered ||
		    !mrc_psn_before(e->ev_seq + 1, ev->del_seq) ||
		    !mrc_psn_before(e->ts + reo, ev->del_ts))
			continue;
		if (mrc_txwin_mark_lost(win, psn)) {
			qp->req.lost_ev_gap++;
			mrc_mp_inferred_loss(qp, psn, MRC_EV_WHY_LOSS_GAP);
		}
	}
}

static void mrc_loss_blame_cb(void *ctx, u32 psn)
{
	struct mrc_qp *qp = ctx;

	qp->req.lost_sack++;
	mrc_mp_inferred_loss(qp, psn, MRC_EV_WHY_LOSS_SACK);
}

/*
 * Start the loss timer for @due (at once when that has passed), unless it
 * runs out no later already.
 */
static void mrc_loss_arm(struct mrc_qp *qp, u32 now, u32 due)
{
	if (qp->timers_off)
		return;
	if (!mrc_psn_after(due, now))
		due = now;
	if (qp->req.loss_armed && !mrc_psn_after(qp->req.loss_due, due))
		return;
	qp->req.loss_due = due;
	qp->req.loss_armed = true;
	hrtimer_start(&qp->req.loss_timer, ns_to_ktime(mrc_ts_to_ns(due - now)),
		      HRTIMER_MODE_REL_SOFT);
}

/* The time rule over the holes SACKs revealed; arms the timer for the next. */
static void mrc_loss_time_rule(struct mrc_qp *qp)
{
	struct mrc_loss_clock clk = {
		.now = mrc_now_ts(),
		.wait = mrc_loss_wait_ts,
	};

	if (!mrc_txwin_sacked(&qp->req.txwin))
		return;
	mrc_txwin_detect_losses(&qp->req.txwin, MRC_DUPTHRESH, &clk,
				mrc_loss_blame_cb, qp);
	if (clk.pending && (qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD))
		mrc_loss_arm(qp, clk.now, clk.due);
}

/**
 * mrc_loss_on_ack() - look for losses after an acknowledgment
 * @qp: the QP, after the ACK, SACK or NACK was applied to the window
 *
 * Losses found are marked in the window.
 */
void mrc_loss_on_ack(struct mrc_qp *qp)
{
	if (!mrc_txwin_sacked(&qp->req.txwin))
		return;
	mrc_loss_ev_gaps(qp);
	mrc_loss_time_rule(qp);
}

/* The newest outstanding PSN not reported received, if any: the tail. */
static bool mrc_loss_newest_unsacked(struct mrc_qp *qp, u32 *psn)
{
	struct mrc_txwin *win = &qp->req.txwin;
	u32 una = mrc_txwin_oldest_unacked(win);
	u32 p = mrc_txwin_next_psn(win);

	while (p != una) {
		if (!(mrc_txwin_entry(win, --p)->flags & MRC_TXE_SACKED)) {
			*psn = p;
			return true;
		}
	}
	return false;
}

/*
 * Once the READ request the tail loss probe waits on is answered, wait on
 * the newest READ response still missing. A re-request sent before it
 * may be the one unanswered, and no later response on its EV would ever
 * reveal its loss; without a probe only the timeout would.
 */
static void mrc_loss_retarget_tlp(struct mrc_qp *qp)
{
	const struct mrc_tx_entry *e;
	const struct mrc_swqe *w;
	u32 psn;

	if (qp->req.tlp_valid) {
		e = mrc_txwin_entry(&qp->req.txwin, qp->req.tlp_end);
		if (e && !(e->flags & MRC_TXE_SACKED))
			return;
	}
	if (!mrc_loss_newest_unsacked(qp, &psn))
		return;
	w = mrc_req_wqe_of(qp, psn);
	if (w && w->wqe.opcode == IB_WR_RDMA_READ) {
		qp->req.tlp_psn = psn;
		qp->req.tlp_end = psn;
		qp->req.tlp_valid = true;
		/*
		 * The probe before, if any, was answered: one for the new
		 * target may go. A chunk's lost last response holds the
		 * window, and with the window full nothing else would move
		 * the cumulative point before the timeout.
		 */
		qp->req.tlp_out = false;
	}
}

/**
 * mrc_loss_on_read_resp() - look for READ PSNs lost with their request
 * @qp: the QP, after a READ response marked its PSN SACKED
 *
 * A request lost with its path, or all its responses, leaves no hole
 * among the responses on its EV: nothing on that EV comes back. Only
 * responses report a READ's PSNs received (mrc_comp.c), so responses to
 * later requests reveal it by both rules, as SACKs reveal lost data, and
 * the timer need not wait.
 */
void mrc_loss_on_read_resp(struct mrc_qp *qp)
{
	mrc_loss_on_ack(qp);
	mrc_loss_retarget_tlp(qp);
}

/*
 * When the tail loss probe is due: two round trips (at least
 * MRC_TLP_MIN_TS, and a tick more while the peer may hold its ACKs for a
 * tick) after the last packet that asked for an answer left, if it is
 * still unanswered and nothing is known lost.
 *
 * Return: true and *@due when a probe is to be kept in reserve.
 */
static bool mrc_loss_tlp_due(struct mrc_qp *qp, u32 *due)
{
	const struct mrc_tx_entry *e;
	u32 srtt = mrc_rto_srtt_ns(&qp->req.rto) >> 10;

	if (!qp->req.tlp_valid || qp->req.tlp_out || !srtt || qp->req.rnr.waiting ||
	    mrc_txwin_lost(&qp->req.txwin))
		return false;
	e = mrc_txwin_entry(&qp->req.txwin, qp->req.tlp_end);
	if (!e || (e->flags & MRC_TXE_SACKED))
		return false;
	e = mrc_txwin_entry(&qp->req.txwin, qp->req.tlp_psn);
	if (!e)
		return false;
	*due = e->ts + max_t(u32, 2 * srtt, MRC_TLP_MIN_TS) +
	       (u32)((mrc_dack_rto_slack(qp) * TICK_NSEC) >> 10);
	return true;
}

/**
 * mrc_loss_arm_tlp() - keep a tail loss probe in reserve
 * @qp: the QP, after the requester sent or an acknowledgment was applied
 *
 * The timer is never moved later: when it runs out early (it was armed
 * for an earlier packet that asked), it waits for the rest.
 */
void mrc_loss_arm_tlp(struct mrc_qp *qp)
{
	u32 due;

	if (qp->req.loss_armed || !mrc_loss_tlp_due(qp, &due))
		return;
	mrc_loss_arm(qp, mrc_now_ts(), due);
}

/*
 * Send the newest PSN not SACKed again (ask again for it, on its EV, if
 * it is a READ response); true when one went. One attempt per advance of
 * the cumulative point, whether a packet could go or not. A resent
 * packet's answer is awaited (mrc_loss_on_echo()); a READ probe's needs
 * no verdict: it shares the EV, and the READ hole check judges.
 */
static bool mrc_loss_send_tlp(struct mrc_qp *qp)
{
	struct mrc_txwin *win = &qp->req.txwin;
	const struct mrc_tx_entry *e;
	struct mrc_swqe *w;
	u32 psn, seq;
	u16 ev;

	qp->req.tlp_out = true;
	if (!mrc_loss_newest_unsacked(qp, &psn))
		return false;
	w = mrc_req_wqe_of(qp, psn);
	if (!w)
		return false;
	e = mrc_txwin_entry(win, psn);
	ev = e->ev;
	seq = e->ev_seq;
	if (w->wqe.opcode == IB_WR_RDMA_READ) {
		mrc_req_probe_read(qp, w, psn, ev);
	} else {
		mrc_req_resend(qp, w, psn);
		mrc_loss_undo_probe_sent(&qp->req.undo, psn, ev, seq, e->ev,
					 e->ev_seq,
					 mrc_txwin_outstanding(win) == 1);
	}
	mrc_txwin_on_retransmit(win, psn, e->ev, mrc_now_ts());
	qp->req.tlp_sent++;
	return true;
}

/* The probe's part of the timer: send it if due, else wait for it. */
static bool mrc_loss_tlp_fire(struct mrc_qp *qp)
{
	u32 now = mrc_now_ts(), due;

	if (qp->req.loss_armed || !mrc_loss_tlp_due(qp, &due))
		return false;
	if (mrc_psn_before(now, due)) {
		mrc_loss_arm(qp, now, due);
		return false;
	}
	return mrc_loss_send_tlp(qp);
}

/**
 * mrc_loss_probe_before_rto() - send the tail loss probe now, if one is kept
 * @qp: the QP, whose retransmission timer expired
 *
 * The probe waits two round trips from the packet that asked; the timeout
 * follows the round trip closely when the delay is steady (a queue's), and
 * may come first. The probe still goes first, as TCP's does when its RTO
 * is the nearer (RFC 8985 section 7.2): a timeout cuts the window to its
 * least and blames the EV for what one probe usually recovers.
 *
 * Return: true when the probe went: the timeout is put off, once.
 */
bool mrc_loss_probe_before_rto(struct mrc_qp *qp)
{
	u32 due;

	return mrc_loss_tlp_due(qp, &due) && mrc_loss_send_tlp(qp);
}

/**
 * mrc_loss_on_echo() - an acceptable answer echoed a transmission
 * @qp: the QP, before the window takes the answer
 * @ack: the answer (its echoed EV and sequence are untrusted; only
 *	compared)
 *
 * When it echoes the copy a tail loss probe of a whole flight sent and
 * nothing echoed the transmission the probe stood in for, that one was
 * lost with its path: blame its EV, with an undo record. Not when the
 * answer carries an older time than its own and no service time: the
 * responder had the first copy, unacknowledged, when the probe came
 * (mrc_resp_ack_duplicate()). The window is not cut: one packet at the
 * tail, and the path, not the rate, was at fault.
 */
void mrc_loss_on_echo(struct mrc_qp *qp, const struct mrc_pkt *ack)
{
	bool earlier = ack->aeth.svc_time == MRC_SVC_TIME_OVER;
	u32 lost_seq;
	u16 lost_ev;

	if (!mrc_loss_undo_probe_echo(&qp->req.undo, ack->psn, ack->aeth.ev,
				      ack->aeth.ev_seq, earlier, &lost_ev,
				      &lost_seq))
		return;
	qp->req.lost_probe++;
	mrc_mp_lost_copy(qp, ack->psn, lost_ev, lost_seq,
			 MRC_EV_WHY_LOSS_PROBE);
}

/**
 * mrc_loss_on_progress() - the cumulative point advanced
 * @qp: the QP
 *
 * The next tail of the flight may be probed again.
 */
void mrc_loss_on_progress(struct mrc_qp *qp)
{
	qp->req.tlp_out = false;
}

/**
 * mrc_loss_fire() - a hole the time rule waited for, or a tail loss
 *	probe, is due
 * @timer: the QP's loss_timer (softirq context, qp->lock not held)
 *
 * Return: HRTIMER_NORESTART; the time rule or the probe arms the timer
 * again for what comes next.
 */
enum hrtimer_restart mrc_loss_fire(struct hrtimer *timer)
{
	struct mrc_qp *qp = container_of(timer, struct mrc_qp, req.loss_timer);
	bool probed = false;
	u32 nlost = 0;

	spin_lock(&qp->lock);
	qp->req.loss_armed = false;
	if (qp->state == IB_QPS_RTS || qp->state == IB_QPS_SQD) {
		nlost = mrc_txwin_lost(&qp->req.txwin);
		mrc_loss_time_rule(qp);
		nlost = mrc_txwin_lost(&qp->req.txwin) - nlost;
		if (nlost)
			mrc_cc_on_loss(qp, nlost);
		else
			probed = mrc_loss_tlp_fire(qp);
	}
	spin_unlock(&qp->lock);
	if (nlost)
		mrc_req_kick(qp);
	else if (probed)
		mrc_tx_flush_now(qp);
	return HRTIMER_NORESTART;
}
