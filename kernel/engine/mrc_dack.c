// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Acknowledgments: what an ACK, SACK or NACK says, sending one, and
 * holding ACKs back for ping-pong traffic (see mrc_dack.h). The responder
 * and the requester call it; it calls only the transmit path.
 */
#include <linux/jiffies.h>

#include "engine/mrc_qp.h"
#include "core/mrc_link_params.h"

/**
 * mrc_dack_reset() - forget any held ACK and the ping-pong history
 * @qp: the QP, with @qp->lock held
 */
void mrc_dack_reset(struct mrc_qp *qp)
{
	qp->resp.dack.pending = false;
	qp->resp.dack.answered = false;
	qp->resp.dack.pingpong = false;
	qp->resp.dack.ar_seen = false;
	qp->resp.dack.carried_seen = false;
}

/* Requests whose ACK may wait: READ and ATOMIC are answered anyway. */
static bool mrc_dack_op_may_wait(u8 opcode)
{
	return opcode == MRC_OP_SEND || opcode == MRC_OP_SEND_IMM ||
	       opcode == MRC_OP_SEND_INV || opcode == MRC_OP_WRITE ||
	       opcode == MRC_OP_WRITE_IMM;
}

/**
 * mrc_dack_hold() - hold back the ACK a new request asked for
 * @qp: the QP, with @qp->lock held
 * @req: the request, executed; no PSN is held out of order
 *
 * Return: true if the ACK is held (the caller sends nothing), false if
 * the caller must send it now.
 */
bool mrc_dack_hold(struct mrc_qp *qp, const struct mrc_pkt *req)
{
	struct mrc_dack *d = &qp->resp.dack;

	/* A resent request means the peer is recovering: answer at once. */
	if (req->flags & MRC_FLAG_RETX)
		return false;
	d->ar_jiffies = jiffies;
	d->ar_seen = true;
	if (!d->pingpong || qp->state != IB_QPS_RTS ||
	    !mrc_dack_op_may_wait(req->opcode))
		return false;
	/*
	 * Only a message's end waits: an ACK asked for mid-message means
	 * the peer's window is full. And only while our own requester is
	 * idle: one held back by its window could not carry the ACK soon,
	 * and two peers each waiting for the other would stall for a tick.
	 */
	if (!(req->flags & MRC_FLAG_LAST) || qp->req.sq_send != qp->req.sq_fetch)
		return false;
	/* A newer request replaces a held one: the cumulative ACK covers both. */
	d->pending = true;
	d->answered = true;
	d->ev = req->ev;
	d->sport = req->rx_sport;
	d->psn = req->psn;
	d->ev_seq = req->ev_seq;
	d->timestamp = req->timestamp;
	d->rx_ts = mrc_now_ts();
	if (!timer_pending(&d->timer))
		mod_timer(&d->timer, jiffies + 1);
	return true;
}

/**
 * mrc_dack_on_post() - the program posted new send work
 * @qp: the QP, with @qp->lock held
 *
 * Posting within a tick of a request that asked for an ACK is answering
 * it: ping-pong mode. Posting later is not.
 */
void mrc_dack_on_post(struct mrc_qp *qp)
{
	struct mrc_dack *d = &qp->resp.dack;

	d->pingpong = d->ar_seen && time_before_eq(jiffies, d->ar_jiffies + 1);
}

/* The held ACK's request: its service time will include the hold. */
static void mrc_dack_req(const struct mrc_dack *d, struct mrc_pkt *req)
{
	memset(req, 0, sizeof(*req));
	req->psn = d->psn;
	req->ev = d->ev;
	req->ev_seq = d->ev_seq;
	req->rx_sport = d->sport;
	req->timestamp = d->timestamp;
	req->rx_ts = d->rx_ts;
}

/**
 * mrc_dack_attach() - let a request being built carry the held ACK
 * @qp: the QP, with @qp->lock held
 * @pkt: the request's headers, before encoding (payload_len set)
 *
 * Only a plain ACK rides: while PSNs are held out of order the SACK goes
 * on its own. The request must stay within the header room the segment
 * was chosen with (MRC_TRANSPORT_HDR_MAX), so a full-size WRITE packet
 * carries none.
 */
void mrc_dack_attach(struct mrc_qp *qp, struct mrc_pkt *pkt)
{
	struct mrc_pkt req;

	if (!qp->resp.dack.pending || mrc_rxwin_held(&qp->resp.rxwin) ||
	    !mrc_qp_receives(qp))
		return;
	if (mrc_wire_hdr_len(pkt) + MRC_AETH_LEN + pkt->payload_len >
	    MRC_TRANSPORT_HDR_MAX + qp->seg)
		return;
	mrc_dack_req(&qp->resp.dack, &req);
	mrc_ack_fill_aeth(qp, &req, MRC_SYN_ACK, pkt);
	pkt->flags |= MRC_FLAG_ACK;
	mrc_stats_inc(&qp->mdev->stats, MRC_STAT_SENT_ACKS_CARRIED);
}

/**
 * mrc_dack_send() - queue the held ACK, if any, as a packet of its own
 * @qp: the QP, with @qp->lock held; the caller flushes its queue
 */
void mrc_dack_send(struct mrc_qp *qp)
{
	struct mrc_pkt req;

	if (!qp->resp.dack.pending)
		return;
	qp->resp.dack.pending = false;
	if (!mrc_qp_receives(qp))
		return;
	mrc_dack_req(&qp->resp.dack, &req);
	mrc_ack_send(qp, &req, MRC_SYN_ACK);
}

/**
 * mrc_dack_note_answered() - remember the request an ACK or NACK answers
 * @qp: the QP, with @qp->lock held
 * @req: the request answered
 *
 * The final ACK (mrc_dack_send_final()) goes back on its EV.
 */
void mrc_dack_note_answered(struct mrc_qp *qp, const struct mrc_pkt *req)
{
	struct mrc_dack *d = &qp->resp.dack;

	d->answered = true;
	d->ev = req->ev;
	d->sport = req->rx_sport;
	d->psn = req->psn;
	d->ev_seq = req->ev_seq;
}

/**
 * mrc_dack_send_final() - acknowledge once more before receiving stops
 * @qp: the QP, with @qp->lock held; the caller flushes its queue
 *
 * Sends the held ACK, if any, then one more cumulative ACK (see
 * mrc_dack.h), as long as the QP still receives and has acknowledged
 * something.
 */
void mrc_dack_send_final(struct mrc_qp *qp)
{
	struct mrc_pkt req;

	mrc_dack_send(qp);
	if (!qp->resp.dack.answered || !mrc_qp_receives(qp))
		return;
	mrc_dack_req(&qp->resp.dack, &req);
	/* An old request's echo would be no RTT sample. */
	req.timestamp = 0;
	mrc_ack_send(qp, &req, MRC_SYN_ACK);
}

/**
 * mrc_dack_fire() - the tick ran out: send a held ACK nothing carried
 * @timer: the QP's dack.timer
 */
void mrc_dack_fire(struct timer_list *timer)
{
	struct mrc_qp *qp = from_timer(qp, timer, resp.dack.timer);

	spin_lock(&qp->lock);
	if (qp->resp.dack.pending) {
		/* A held ACK may be young: only an old one ends ping-pong. */
		if (mrc_now_ts() - qp->resp.dack.rx_ts >= MRC_DACK_PATIENCE_TS)
			qp->resp.dack.pingpong = false;
		mrc_dack_send(qp);
	}
	spin_unlock(&qp->lock);
	mrc_tx_flush_now(qp);
}

/**
 * mrc_dack_peer_carried() - the peer carried an ACK to us on a request
 * @qp: the QP, with @qp->lock held
 */
void mrc_dack_peer_carried(struct mrc_qp *qp)
{
	qp->resp.dack.carried_jiffies = jiffies;
	qp->resp.dack.carried_seen = true;
}

/**
 * mrc_dack_rto_slack() - extra ticks the retransmission timer waits
 * @qp: the QP, with @qp->lock held
 *
 * Return: 1 while the peer may be holding our ACKs back (see mrc_dack.h),
 * else 0.
 */
unsigned long mrc_dack_rto_slack(struct mrc_qp *qp)
{
	const struct mrc_dack *d = &qp->resp.dack;

	if (d->pingpong)
		return 1;
	return d->carried_seen && time_before(jiffies, d->carried_jiffies + HZ);
}

/*
 * The time since @req arrived, held ACKs' wait included: the peer takes
 * it out of its RTT sample, which then measures the network, not our
 * program (OCP's responder service time).
 */
static u16 mrc_ack_svc_time(const struct mrc_pkt *req)
{
	if (!req->rx_ts)
		return 0;
	return min_t(u32, mrc_now_ts() - req->rx_ts, MRC_SVC_TIME_OVER);
}

/**
 * mrc_ack_fill_aeth() - acknowledge, in @pkt's AETH, what has arrived
 * @qp: the QP, with @qp->lock held
 * @req: the request answered: its EV, sequence and timestamp are echoed
 * @syndrome: MRC_SYN_ACK or a NACK code
 * @pkt: the ACK, NACK or request (MRC_FLAG_ACK) that will carry it
 *
 * The caller sends @pkt: the count of packets and CE marks since the last
 * ACK starts again, and a held ACK (mrc_dack.h) is no longer needed.
 */
void mrc_ack_fill_aeth(struct mrc_qp *qp, const struct mrc_pkt *req,
		       u8 syndrome, struct mrc_pkt *pkt)
{
	pkt->aeth.cum_psn = mrc_rxwin_cum_psn(&qp->resp.rxwin);
	pkt->aeth.ev = req->ev;
	pkt->aeth.syndrome = syndrome;
	/* An RNR NACK carries our RNR timer where the MSN would be. */
	if (syndrome == MRC_SYN_RNR)
		pkt->aeth.rnr_timer = qp->min_rnr_timer;
	else
		pkt->aeth.msn = qp->resp.rsn_complete;
	pkt->aeth.ce_count = min_t(u32, qp->resp.ce_count, 255);
	pkt->aeth.ev_seq = req->ev_seq;
	/*
	 * Every transmission carries its own time, retransmissions too: the
	 * echo times the very copy answered, with no ambiguity for Karn's
	 * rule to avoid (RFC 7323 section 4). Without samples from them, a
	 * QP whose every packet was resent (after a timeout in an incast)
	 * kept its initial RTO and timed out again and again.
	 */
	pkt->aeth.timestamp = req->timestamp;
	pkt->aeth.svc_time = mrc_ack_svc_time(req);
	pkt->aeth.window = min_t(u32, mrc_rxwin_size(&qp->resp.rxwin) -
				 mrc_rxwin_held(&qp->resp.rxwin), U16_MAX);
	qp->resp.unacked = 0;
	qp->resp.acked_cum = pkt->aeth.cum_psn;
	qp->resp.edge_ts = 0;
	qp->resp.ce_count = 0;
	qp->resp.dack.pending = false;
}

/*
 * Queue an ACK, SACK or NACK answering @req; @echo_ts, when not 0, is
 * the time it echoes instead of @req's, with no service time to sample.
 */
static void mrc_ack_queue(struct mrc_qp *qp, const struct mrc_pkt *req,
			  u8 syndrome, u32 echo_ts)
{
	struct mrc_pkt pkt = {};
	struct sk_buff *skb;
	void *payload;

	pkt.opcode = syndrome ? MRC_OP_NACK : MRC_OP_ACK;
	pkt.psn = req->psn;
	pkt.timestamp = mrc_now_ts();
	mrc_ack_fill_aeth(qp, req, syndrome, &pkt);
	if (echo_ts) {
		pkt.aeth.timestamp = echo_ts;
		pkt.aeth.svc_time = MRC_SVC_TIME_OVER;
	}
	if (!syndrome && mrc_rxwin_held(&qp->resp.rxwin)) {
		pkt.opcode = MRC_OP_SACK;
		pkt.sack.nwords = mrc_rxwin_fill_sack(&qp->resp.rxwin,
						      &pkt.sack.base_psn,
						      MRC_SACK_MAX_WORDS,
						      pkt.sack.bitmap);
	}
	mrc_dack_note_answered(qp, req);
	skb = mrc_tx_alloc(qp, &pkt, &payload);
	if (!skb)
		return;
	/* Answers go back on the EV the request came by (see multipath.rst). */
	mrc_ev_acct_answer(qp, req->ev, skb, MRC_EV_TX_ACK, 0);
	mrc_tx_queue_answer(qp, skb, req, true);
}

/**
 * mrc_ack_send() - queue an ACK, SACK or NACK
 * @qp: the QP, with @qp->lock held; the caller flushes its queue
 * @req: the request answered
 * @syndrome: MRC_SYN_ACK (a SACK while PSNs are held) or a NACK code
 */
void mrc_ack_send(struct mrc_qp *qp, const struct mrc_pkt *req, u8 syndrome)
{
	mrc_ack_queue(qp, req, syndrome, 0);
}

/**
 * mrc_ack_send_echo() - queue an ACK or SACK that echoes an older time
 * @qp: the QP, with @qp->lock held; the caller flushes its queue
 * @req: the request answered: a duplicate
 * @echo_ts: the time to echo instead of @req's: that of the first copy
 *	of the PSN the previous ACK expected next (mrc_resp.c)
 *
 * The peer takes no RTT sample from it: the echoed copy's wait here is
 * not known.
 */
void mrc_ack_send_echo(struct mrc_qp *qp, const struct mrc_pkt *req,
		       u32 echo_ts)
{
	mrc_ack_queue(qp, req, MRC_SYN_ACK, echo_ts);
}
