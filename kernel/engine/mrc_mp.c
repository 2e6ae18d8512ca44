// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Multipath glue: every requester packet takes the EV the table picks,
 * acknowledgments credit the EV they echo, losses blame the EV the lost
 * PSN last travelled on, and ASSUMED_BAD EVs are probed back to GOOD.
 * The EV table itself (mrc_ev.c) knows nothing of packets or locks.
 *
 * Called with qp->lock held unless noted.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <rdma/rdma_netlink.h>
#include <rdma/restrack.h>
#include <uapi/rdma/rdma_netlink.h>

#include "engine/mrc_qp.h"

#define MRC_PROBE_MIN_TS	1000	/* ~1 ms between probes of an EV */
#define MRC_PROBE_MAX_TS	1000000	/* ~1 s */
#define MRC_PROBE_BURST		4	/* probes per timer run */
#define MRC_PROBE_RATE		16	/* most probes per probe interval */
#define MRC_EV_QDELAY_PENALTY_TS 1500	/* ~1.5 ms queued: skip the EV */

/**
 * mrc_mp_pick_ev() - choose the EV of a requester packet
 * @qp: the QP
 * @pkt: headers being built (flags set); ev and ev_seq are set
 */
void mrc_mp_pick_ev(struct mrc_qp *qp, struct mrc_pkt *pkt)
{
	const struct mrc_tx_entry *e;
	u16 idx;

	if (!(pkt->flags & MRC_FLAG_RETX)) {
		idx = mrc_ev_choose(&qp->mp.evs);
	} else {
		e = mrc_txwin_entry(&qp->req.txwin, pkt->psn);
		idx = e && (e->flags & MRC_TXE_TRIMMED) ?
		      mrc_ev_choose_other(&qp->mp.evs, e->ev) :
		      mrc_ev_choose_retx(&qp->mp.evs);
	}
	mrc_mp_same_ev(qp, pkt, idx);
}

/**
 * mrc_mp_pick_ev_run() - choose the EV of the first packet of a run
 * @qp: the QP
 * @pkt: headers being built; ev and ev_seq are set
 *
 * The packets after it in the run take the same EV (mrc_mp_same_ev()).
 */
void mrc_mp_pick_ev_run(struct mrc_qp *qp, struct mrc_pkt *pkt)
{
	mrc_mp_same_ev(qp, pkt, mrc_ev_choose_spread(&qp->mp.evs));
}

/**
 * mrc_mp_same_ev() - send a packet on a given EV
 * @qp: the QP
 * @pkt: headers being built; ev_seq is set
 * @ev: the EV, from mrc_mp_pick_ev_run() for the run's first packet
 */
void mrc_mp_same_ev(struct mrc_qp *qp, struct mrc_pkt *pkt, u16 ev)
{
	pkt->ev = ev;
	pkt->ev_seq = mrc_ev_on_send(&qp->mp.evs, ev);
}

/**
 * mrc_mp_queue() - queue a requester packet on its EV
 * @qp: the QP
 * @skb: the built packet
 * @pkt: its headers, from mrc_mp_pick_ev()
 *
 * The PSNs it carries remember the EV, so a loss can blame it.
 */
void mrc_mp_queue(struct mrc_qp *qp, struct sk_buff *skb,
		  const struct mrc_pkt *pkt)
{
	bool retx = pkt->flags & MRC_FLAG_RETX;

	mrc_txwin_set_ev(&qp->req.txwin, pkt->psn, pkt->ev, pkt->ev_seq);
	mrc_ev_acct_tx(qp, pkt->ev, skb, retx ? MRC_EV_TX_RETX : MRC_EV_TX_DATA,
		       retx ? 0 : pkt->payload_len);
	mrc_tx_queue_ev(qp, skb, pkt->ev, true);
}

/*
 * Time between two probes of one EV: the RTO, and never less than two
 * smoothed RTTs, so that a reply can come back before the next probe
 * (an unanswered probe restarts the count).
 */
static u32 mrc_mp_probe_interval_ts(struct mrc_qp *qp)
{
	u64 ns = max(mrc_rto_timeout_ns(&qp->req.rto),
		     2 * mrc_rto_srtt_ns(&qp->req.rto));

	return clamp_t(u64, ns >> 10, MRC_PROBE_MIN_TS, MRC_PROBE_MAX_TS);
}

/*
 * Timer period: MRC_PROBE_BURST probes a run and at most MRC_PROBE_RATE
 * an interval, so that when a whole path's EVs are bad their probes do
 * not crowd out the data (each is then probed less often than every
 * interval).
 */
static u64 mrc_mp_probe_period_ns(struct mrc_qp *qp, u32 interval)
{
	u32 bad = clamp_t(u32, mrc_ev_nbad(&qp->mp.evs), MRC_PROBE_BURST,
			  MRC_PROBE_RATE);

	return ((u64)interval << 10) * MRC_PROBE_BURST / bad;
}

static void mrc_mp_arm_probe(struct mrc_qp *qp)
{
	u64 period;

	if (qp->mp.probe_armed || qp->timers_off)
		return;
	period = mrc_mp_probe_period_ns(qp, mrc_mp_probe_interval_ts(qp));
	hrtimer_start(&qp->mp.probe_timer, ns_to_ktime(period),
		      HRTIMER_MODE_REL_SOFT);
	qp->mp.probe_armed = true;
}

/**
 * mrc_mp_blame() - a PSN last sent on @ev was lost
 * @qp: the QP
 * @ev: EV index of its last transmission
 * @why: how the loss was found (MRC_EV_WHY_LOSS_*)
 *
 * A GOOD EV becomes ASSUMED_BAD at once. What else is in flight on it is
 * resent on other EVs rather than waited for, unless the loss was a gap:
 * a later packet on the same EV arrived, so its path delivers, and the
 * rest most likely arrives too (resending it cost up to a window's share
 * of duplicates for every reordering mistaken for a loss); or a tail loss
 * probe's verdict, which judges one packet, and a copy on another path
 * overtakes one held in a flow-fair queue: the other rules judge the
 * rest.
 *
 * Return: true when the loss made @ev ASSUMED_BAD.
 */
bool mrc_mp_blame(struct mrc_qp *qp, u16 ev, enum mrc_ev_why why)
{
	if (!mrc_ev_on_loss(&qp->mp.evs, ev, mrc_now_ts(), why))
		return false;
	/* Readmitted at once (min_active, or the only EV): it stays in use. */
	if (qp->mp.evs.ev[ev].state != MRC_EV_ASSUMED_BAD)
		return false;
	if (why != MRC_EV_WHY_LOSS_GAP && why != MRC_EV_WHY_LOSS_PROBE)
		qp->mp.ev_retx += mrc_txwin_mark_ev_lost(&qp->req.txwin, ev);
	pr_debug("mrc: qp %u EV %u (port %u) assumed bad, %u good left\n",
		 qp->ibqp.qp_num, ev, mrc_ev_sport(&qp->mp.evs, ev), qp->mp.evs.ngood);
	mrc_mp_arm_probe(qp);
	return true;
}

/**
 * mrc_mp_inferred_loss() - a PSN's last transmission is taken for lost
 * @qp: the QP
 * @psn: an outstanding PSN, still carrying that transmission's EV and
 *	sequence
 * @why: how the loss was inferred (gap, SACK or READ hole)
 *
 * Blame the EV, and remember both in case an answer later shows that
 * transmission arrived (mrc_mp_check_undo()).
 */
void mrc_mp_inferred_loss(struct mrc_qp *qp, u32 psn, enum mrc_ev_why why)
{
	const struct mrc_tx_entry *e = mrc_txwin_entry(&qp->req.txwin, psn);

	mrc_mp_lost_copy(qp, psn, e->ev, e->ev_seq, why);
}

/**
 * mrc_mp_lost_copy() - a given transmission of a PSN is taken for lost
 * @qp: the QP
 * @psn: the PSN
 * @ev: EV index of that transmission
 * @ev_seq: its per-EV sequence
 * @why: how the loss was inferred
 *
 * As mrc_mp_inferred_loss(), for a transmission the window no longer
 * holds: a tail loss probe's copy replaced it there.
 */
void mrc_mp_lost_copy(struct mrc_qp *qp, u32 psn, u16 ev, u32 ev_seq,
		      enum mrc_ev_why why)
{
	bool blamed = mrc_mp_blame(qp, ev, why);

	mrc_loss_undo_record(&qp->req.undo, psn, ev, ev_seq, blamed,
			     blamed ? qp->mp.evs.ev[ev].bad_ts : 0);
}

/**
 * mrc_mp_check_undo() - whether an answer shows a loss spurious
 * @qp: the QP
 * @psn: the PSN it answers (an ACK's BTH PSN, a READ response's own)
 * @ev: the EV index it echoes (untrusted)
 * @ev_seq: the per-EV sequence it echoes (untrusted)
 *
 * ACKs and READ responses echo the EV and sequence of the request they
 * answer: when that is the transmission of a PSN we inferred lost, the
 * packet arrived after all, and the EV that loss made ASSUMED_BAD is GOOD
 * again (mrc_loss_undo.h).
 */
void mrc_mp_check_undo(struct mrc_qp *qp, u32 psn, u16 ev, u32 ev_seq)
{
	struct mrc_loss_rec r;

	if (!mrc_loss_undo_match(&qp->req.undo, psn, ev, ev_seq, &r))
		return;
	mrc_loss_undo_widen(&qp->req.undo, mrc_now_ts(),
			    mrc_rto_srtt_ns(&qp->req.rto) >> 10);
	if (r.blamed && mrc_ev_undo_loss(&qp->mp.evs, r.ev, r.bad_ts))
		pr_debug("mrc: qp %u EV %u: loss of psn %u was spurious, good again\n",
			 qp->ibqp.qp_num, r.ev, r.psn);
}

/**
 * mrc_mp_rto_verdict() - the first acknowledgment after timeouts
 * @qp: the QP
 * @echo_ts: the send time it echoes (untrusted; only compared)
 *
 * Each timeout that fired after that send was spurious: the EV it blamed
 * is GOOD again at once, unless a loss found since made it bad anew.
 */
void mrc_mp_rto_verdict(struct mrc_qp *qp, u32 echo_ts)
{
	struct mrc_rto_blame b[MRC_LOSS_UNDO_RTO];
	unsigned int i, n;

	n = mrc_loss_undo_rto_verdict(&qp->req.undo, echo_ts, b);
	for (i = 0; i < n; i++)
		if (mrc_ev_undo_loss(&qp->mp.evs, b[i].ev, b[i].bad_ts))
			pr_debug("mrc: qp %u EV %u: the timeout that blamed it was spurious, good again\n",
				 qp->ibqp.qp_num, b[i].ev);
}

/**
 * mrc_mp_on_ack() - credit or penalise the EV an acknowledgment echoes
 * @qp: the QP
 * @pkt: an ACK, SACK, NACK or ATOMIC_RESP, already applied to the window
 * @rtt_ts: its RTT sample in 1.024 us units, 0 for none
 */
void mrc_mp_on_ack(struct mrc_qp *qp, const struct mrc_pkt *pkt, u32 rtt_ts)
{
	u16 idx = pkt->aeth.ev;
	u32 qdelay = 0;

	if (rtt_ts) {
		qdelay = mrc_ev_queue_delay(&qp->mp.evs, pkt->aeth.ev, rtt_ts,
					    mrc_now_ts());
		if (mrc_cc_on_delay(qp, qdelay))
			qp->req.delay_cuts++;
	}
	/*
	 * A queue on this EV's path (a delay, or a trim) penalises it like
	 * an ECN mark: the paths that hash fewer EVs, or are faster, take
	 * more of the load.
	 */
	mrc_ev_on_delivered(&qp->mp.evs, idx,
			    pkt->aeth.ce_count || qdelay > MRC_EV_QDELAY_PENALTY_TS ||
			    mrc_pkt_is_trim_nack(pkt), rtt_ts);
	if (idx < qp->mp.evs.count) {
		qp->mp.evs.st[idx].c[MRC_EVS_ECN_MARKS] += pkt->aeth.ce_count;
		qp->mp.evs.st[idx].c[MRC_EVS_QDELAY_PENALTIES] +=
			qdelay > MRC_EV_QDELAY_PENALTY_TS;
	}
}

static void mrc_mp_send_probe(struct mrc_qp *qp, u16 idx, u32 id)
{
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	void *payload;

	pkt.opcode = MRC_OP_PROBE;
	pkt.ev = idx;
	pkt.ev_seq = mrc_ev_on_send(&qp->mp.evs, idx);
	pkt.timestamp = mrc_now_ts();
	pkt.probe_id = id;
	skb = mrc_tx_alloc(qp, &pkt, &payload);
	if (!skb)
		return;
	mrc_ev_acct_tx(qp, idx, skb, MRC_EV_TX_PROBE, 0);
	mrc_tx_queue_ev(qp, skb, idx, false);
	qp->mp.probes_sent++;
}

/**
 * mrc_mp_probe_fire() - probe the ASSUMED_BAD EVs that are due
 * @timer: the QP's probe_timer (softirq context, qp->lock not held)
 *
 * Return: HRTIMER_RESTART while some EV is still ASSUMED_BAD.
 */
enum hrtimer_restart mrc_mp_probe_fire(struct hrtimer *timer)
{
	struct mrc_qp *qp = container_of(timer, struct mrc_qp, mp.probe_timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	u32 now, interval, id, sent = 0;
	u16 idx;

	spin_lock(&qp->lock);
	qp->mp.probe_armed = false;
	if (qp->state != IB_QPS_RTS && qp->state != IB_QPS_SQD)
		goto out;
	now = mrc_now_ts();
	interval = mrc_mp_probe_interval_ts(qp);
	/* A few at a time: probes must not crowd out the data they wait for. */
	while (sent < MRC_PROBE_BURST &&
	       mrc_ev_next_probe(&qp->mp.evs, now, interval, &idx, &id)) {
		mrc_mp_send_probe(qp, idx, id);
		sent++;
	}
	if (mrc_ev_nbad(&qp->mp.evs)) {
		hrtimer_forward_now(timer,
				    ns_to_ktime(mrc_mp_probe_period_ns(qp, interval)));
		qp->mp.probe_armed = true;
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock(&qp->lock);
	mrc_tx_flush_now(qp);
	return ret;
}

/**
 * mrc_mp_probe_rx() - answer a PROBE on the EV it came by
 * @qp: the QP the probe names (qp->lock not held)
 * @req: the probe
 */
void mrc_mp_probe_rx(struct mrc_qp *qp, const struct mrc_pkt *req)
{
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	void *payload;

	pkt.opcode = MRC_OP_PROBE_REPLY;
	pkt.ev = req->ev;
	pkt.ev_seq = req->ev_seq;
	pkt.timestamp = req->timestamp;
	pkt.probe_id = req->probe_id;
	spin_lock(&qp->lock);
	if (mrc_qp_receives(qp)) {
		mrc_ev_acct_rx(qp, req);
		skb = mrc_tx_alloc(qp, &pkt, &payload);
		if (skb) {
			mrc_ev_acct_answer(qp, req->ev, skb, MRC_EV_TX_OTHER, 0);
			mrc_tx_queue_answer(qp, skb, req, false);
		}
	}
	spin_unlock(&qp->lock);
}

/**
 * mrc_mp_probe_reply_rx() - a probe of ours came back
 * @qp: the QP
 * @pkt: the PROBE_REPLY (EV index and id are untrusted)
 */
void mrc_mp_probe_reply_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	qp->mp.probe_replies++;
	if (pkt->ev < qp->mp.evs.count)
		qp->mp.evs.st[pkt->ev].c[MRC_EVS_PROBE_REPLIES]++;
	if (mrc_ev_on_probe_reply(&qp->mp.evs, pkt->ev, pkt->probe_id))
		pr_debug("mrc: qp %u EV %u good again\n", qp->ibqp.qp_num,
			 pkt->ev);
}

/* Each attribute's name beside its value; with qp->lock held. */
static int mrc_mp_put_attrs(struct sk_buff *msg, struct mrc_qp *qp)
{
	const struct {
		const char *name;
		u64 val;
		bool wide;	/* u64 on the wire, else u32 */
	} a[] = {
		{ "ev_count", qp->mp.evs.count },
		{ "ev_good", qp->mp.evs.ngood },
		{ "ev_assumed_bad", mrc_ev_nbad(&qp->mp.evs) },
		{ "ev_marked_bad", qp->mp.evs.marked_bad, true },
		{ "ev_recovered", qp->mp.evs.recovered, true },
		{ "ev_readmitted", qp->mp.evs.readmitted, true },
		{ "probes_sent", qp->mp.probes_sent, true },
		{ "probe_replies", qp->mp.probe_replies, true },
		{ "ev_retransmits", qp->mp.ev_retx, true },
		{ "cwnd", mrc_cc_cwnd(qp) },
		{ "srtt_us", div_u64(mrc_rto_srtt_ns(&qp->req.rto), NSEC_PER_USEC) },
		{ "rto_us", div_u64(mrc_rto_timeout_ns(&qp->req.rto), NSEC_PER_USEC) },
		{ "rto_fired", qp->req.rto_fired, true },
		{ "spurious_rto", qp->req.spurious_rto, true },
		{ "cwnd_delay_cuts", qp->req.delay_cuts, true },
		{ "lost_ev_gap", qp->req.lost_ev_gap, true },
		{ "lost_sack", qp->req.lost_sack, true },
		{ "lost_probe", qp->req.lost_probe, true },
		{ "tlp_sent", qp->req.tlp_sent, true },
		{ "reo_us", div_u64(mrc_ts_to_ns(mrc_loss_reo_ts(&qp->req)),
				    NSEC_PER_USEC) },
		{ "losses_undone", qp->req.undo.undone, true },
		{ "ev_profile", qp->ev_profile_id, true },
		{ "cc_profile", qp->cc_profile_id, true },
		{ "home_cpu", mrc_home_cpu(&qp->home) },
		{ "seg", qp->seg },
		{ "mpr_psns", qp->req.txwin.size },
		{ "mpr_dest_psns", mrc_rxwin_size(&qp->resp.rxwin) },
	};
	unsigned int i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(a) && !err; i++)
		err = a[i].wide ? rdma_nl_put_driver_u64(msg, a[i].name, a[i].val) :
				  rdma_nl_put_driver_u32(msg, a[i].name, a[i].val);
	return err;
}

/*
 * Whether the caller may see @qp's per-path data: its creator (by
 * effective uid) and CAP_NET_ADMIN over the device's network namespace,
 * as in MRC's netlink family (Documentation/security.rst). The RDMA core
 * gives the hook no request, so the caller is current: the sender of a
 * doit, the reader of a dump. The capability is only asked, never
 * required, hence not audited.
 */
static bool mrc_mp_res_visible(const struct mrc_qp *qp)
{
	return (uid_valid(qp->owner) && uid_eq(qp->owner, current_euid())) ||
	       ns_capable_noaudit(dev_net(qp->mdev->ndev)->user_ns,
				  CAP_NET_ADMIN);
}

/**
 * mrc_mp_fill_res_qp() - ib_device_ops.fill_res_qp_entry: EV health for
 * `rdma -dd res show qp`
 * @msg: netlink message
 * @ibqp: the QP (qp->lock not held)
 *
 * The RDMA core lists every QP to every user (6.1); MRC's attributes go
 * only to those mrc_mp_res_visible() lets see them.
 *
 * Return: 0 or -EMSGSIZE.
 */
int mrc_mp_fill_res_qp(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	struct nlattr *table;
	int err;

	if (!mrc_mp_res_visible(qp))
		return 0;
	/* Driver attributes live in their own nest, which `rdma -dd` prints. */
	table = nla_nest_start_noflag(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	/* One consistent snapshot; putting attributes never sleeps. */
	spin_lock_bh(&qp->lock);
	err = mrc_mp_put_attrs(msg, qp);
	spin_unlock_bh(&qp->lock);
	if (err) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}
