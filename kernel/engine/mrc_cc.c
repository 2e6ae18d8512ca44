// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The requester's congestion control, by the algorithm of the QP's CC
 * profile (mrc_cc.h). The completer reports acknowledgments, losses,
 * trims and timeouts; the requester asks for room. Both algorithms take
 * the same events; each reacts to those its design uses (NSCC reads CE
 * and delay inside each acknowledgment, the window cuts on a mark).
 */
#include <linux/ktime.h>
#include <linux/string.h>

#include "engine/mrc_qp.h"

/* PSNs loading the path: READ responses in flight count as requests. */
static u32 mrc_cc_inflight(const struct mrc_qp *qp)
{
	return max(mrc_txwin_outstanding(&qp->req.txwin), qp->req.rd_pending);
}

static u32 mrc_cc_bytes(const struct mrc_qp *qp, u32 psns)
{
	return (u32)min_t(u64, (u64)psns * qp->seg, U32_MAX);
}

/* The window's cut for a loss: once per window of data. */
static void mrc_cc_win_congestion(struct mrc_qp *qp)
{
	mrc_cwnd_on_congestion(&qp->req.cc.win, mrc_txwin_oldest_unacked(&qp->req.txwin),
			       mrc_txwin_next_psn(&qp->req.txwin));
}

/**
 * mrc_cc_use_window() - run the AIMD window with @p
 * @qp: the QP, not yet sending
 * @p: parameters, valid by mrc_cwnd_check_params()
 */
void mrc_cc_use_window(struct mrc_qp *qp, const struct mrc_cwnd_params *p)
{
	qp->req.cc.alg = MRC_QP_CC_WINDOW;
	qp->req.cc.win_params = *p;
	mrc_cc_restart(qp, mrc_txwin_next_psn(&qp->req.txwin));
}

/**
 * mrc_cc_use_nscc() - run NSCC with @p
 * @qp: the QP, not yet sending
 * @p: parameters, valid by mrc_nscc_check_params()
 */
void mrc_cc_use_nscc(struct mrc_qp *qp, const struct mrc_nscc_params *p)
{
	qp->req.cc.alg = MRC_QP_CC_NSCC;
	qp->req.cc.nscc_params = *p;
	mrc_cc_restart(qp, mrc_txwin_next_psn(&qp->req.txwin));
}

/**
 * mrc_cc_restart() - start the algorithm again, as for a new connection
 * @qp: the QP
 * @next_psn: PSN the sender will use next
 *
 * The QP's segment may have changed since: NSCC's smallest window is one.
 */
void mrc_cc_restart(struct mrc_qp *qp, u32 next_psn)
{
	if (qp->req.cc.alg == MRC_QP_CC_NSCC)
		mrc_nscc_init(&qp->req.cc.nscc, &qp->req.cc.nscc_params, qp->seg,
			      ktime_get_ns());
	else
		mrc_cwnd_init_with(&qp->req.cc.win, &qp->req.cc.win_params,
				   MRC_QP_WINDOW, next_psn);
}

/**
 * mrc_cc_cwnd() - the congestion window in PSNs, at least 1
 * @qp: the QP
 *
 * Return: the window.
 */
u32 mrc_cc_cwnd(const struct mrc_qp *qp)
{
	if (qp->req.cc.alg == MRC_QP_CC_NSCC)
		return max(qp->req.cc.nscc.cwnd / max(qp->seg, 1U), 1U);
	return qp->req.cc.win.cwnd;
}

/**
 * mrc_cc_room() - PSNs that may be sent now
 * @qp: the QP
 * @outstanding: PSNs in flight
 *
 * Return: the room; NSCC's counts packets that fit whole.
 */
u32 mrc_cc_room(const struct mrc_qp *qp, u32 outstanding)
{
	if (qp->req.cc.alg == MRC_QP_CC_NSCC)
		return mrc_nscc_room(&qp->req.cc.nscc,
				     mrc_cc_bytes(qp, outstanding)) /
		       max(qp->seg, 1U);
	return mrc_cwnd_room(&qp->req.cc.win, outstanding);
}

/**
 * mrc_cc_on_ack() - an acknowledgment that passed the acceptable-ACK rule
 * @qp: the QP
 * @acked: PSNs it acknowledged for the first time
 * @marked: packets it reported as arrived CE-marked
 * @rtt_ns: its RTT sample less the responder's service time, 0 for none
 */
void mrc_cc_on_ack(struct mrc_qp *qp, u32 acked, u32 marked, u64 rtt_ns)
{
	struct mrc_nscc_ack a;

	if (qp->req.cc.alg == MRC_QP_CC_NSCC) {
		a.bytes = mrc_cc_bytes(qp, acked);
		a.ce = marked != 0;
		a.rtt_ns = rtt_ns ? (u32)clamp_t(u64, rtt_ns, 1, U32_MAX) : 0;
		a.inflight = mrc_cc_bytes(qp, mrc_cc_inflight(qp));
		a.now_ns = ktime_get_ns();
		mrc_nscc_on_ack(&qp->req.cc.nscc, &a);
		return;
	}
	if (acked)
		mrc_cwnd_on_ack(&qp->req.cc.win, acked);
	mrc_cwnd_on_marks(&qp->req.cc.win, acked, marked,
			  mrc_txwin_oldest_unacked(&qp->req.txwin),
			  mrc_txwin_next_psn(&qp->req.txwin));
}

/**
 * mrc_cc_on_delay() - a queueing-delay sample on its EV's path
 * @qp: the QP
 * @qdelay_ts: delay over the EV's base RTT, 1.024 us units
 *
 * NSCC takes delay from each acknowledgment's RTT instead.
 *
 * Return: true when the window was cut for it.
 */
bool mrc_cc_on_delay(struct mrc_qp *qp, u32 qdelay_ts)
{
	if (qp->req.cc.alg == MRC_QP_CC_NSCC)
		return false;
	return mrc_cwnd_on_delay(&qp->req.cc.win, qdelay_ts,
				 mrc_txwin_oldest_unacked(&qp->req.txwin),
				 mrc_txwin_next_psn(&qp->req.txwin));
}

/**
 * mrc_cc_on_loss() - PSNs were found lost
 * @qp: the QP
 * @lost: how many
 */
void mrc_cc_on_loss(struct mrc_qp *qp, u32 lost)
{
	if (qp->req.cc.alg == MRC_QP_CC_NSCC) {
		mrc_nscc_on_loss(&qp->req.cc.nscc, mrc_cc_bytes(qp, lost));
		return;
	}
	mrc_cc_win_congestion(qp);
}

/**
 * mrc_cc_on_trim() - a switch trimmed one of our packets
 * @qp: the QP
 *
 * A trim is a queue at the switch that cut it: NSCC's trim rule, and for
 * the window mrc_cwnd_on_trim(). The packet itself is resent, not
 * counted lost.
 *
 * Return: true when the window (in whole packets) shrank for it.
 */
bool mrc_cc_on_trim(struct mrc_qp *qp)
{
	u32 before = mrc_cc_cwnd(qp);

	if (qp->req.cc.alg == MRC_QP_CC_NSCC)
		mrc_nscc_on_trim(&qp->req.cc.nscc, qp->seg,
				 mrc_cc_bytes(qp, mrc_cc_inflight(qp)),
				 ktime_get_ns());
	else
		mrc_cwnd_on_trim(&qp->req.cc.win,
				 mrc_txwin_oldest_unacked(&qp->req.txwin),
				 mrc_txwin_next_psn(&qp->req.txwin));
	return mrc_cc_cwnd(qp) < before;
}

/**
 * mrc_cc_on_timeout() - the retransmission timer fired
 * @qp: the QP, before its PSNs are marked lost
 *
 * For NSCC each PSN in flight is an inferred loss of its size.
 */
void mrc_cc_on_timeout(struct mrc_qp *qp)
{
	if (qp->req.cc.alg == MRC_QP_CC_NSCC) {
		mrc_nscc_on_loss(&qp->req.cc.nscc,
				 mrc_cc_bytes(qp, mrc_txwin_in_flight(&qp->req.txwin)));
		return;
	}
	mrc_cwnd_on_timeout(&qp->req.cc.win, mrc_txwin_next_psn(&qp->req.txwin));
}

/**
 * mrc_cc_undo() - the last timeout was spurious
 * @qp: the QP
 *
 * NSCC has no undo: QuickAdapt restores a window the path can carry
 * within one period.
 */
void mrc_cc_undo(struct mrc_qp *qp)
{
	if (qp->req.cc.alg == MRC_QP_CC_WINDOW)
		mrc_cwnd_undo(&qp->req.cc.win);
}

/**
 * mrc_cc_report() - what the control plane reports of a QP's CC
 * @qp: the QP, with @qp->lock held
 * @r: filled in
 */
void mrc_cc_report(const struct mrc_qp *qp, struct mrc_cc_report *r)
{
	const struct mrc_nscc *n = &qp->req.cc.nscc;

	memset(r, 0, sizeof(*r));
	r->cwnd_pkts = mrc_cc_cwnd(qp);
	r->cwnd_bytes = mrc_cc_bytes(qp, r->cwnd_pkts);
	r->srtt_ns = mrc_rto_srtt_ns(&qp->req.rto);
	if (qp->req.cc.alg != MRC_QP_CC_NSCC)
		return;
	r->nscc = true;
	r->cwnd_bytes = n->cwnd;
	r->base_rtt_ns = n->base_rtt_ns;
	r->delay_ns = n->last_delay_ns;
	r->avg_delay_ns = n->avg_delay_ns;
	r->acked_bytes = n->acked_bytes;
	r->ecn_bytes = n->marked_bytes;
	r->qa_cuts = n->qa_cuts;
	r->md_cuts = n->md_cuts;
}
