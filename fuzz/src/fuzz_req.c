// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the requester's use of the core: ACK, SACK, NACK, ATOMIC_RESP,
 * READ_RESP and PROBE_REPLY datagrams from the wire are decoded
 * (kernel/core/mrc_wire.c) and applied, in the order mrc_comp_ack() and
 * mrc_mp_on_ack() apply them, to the send window (mrc_txwin.c), the EV
 * table (mrc_ev.c), RNR accounting (mrc_rnr.c), the RTO estimator
 * (mrc_rto.c), the congestion window (mrc_cwnd.c) and the record of
 * inferred losses (mrc_loss_undo.c), interleaved with sends,
 * retransmissions, timeouts and probes. After every step the
 * window and the table are walked (check_core.h), every outstanding
 * PSN's EV is a valid index (the engine indexes the table with it
 * unchecked) and the timer and window stay within their bounds.
 *
 * Input: send window size (2 bytes), EV count (1), min_active (1), start
 * PSN (4), rnr_retry (1), timeout (1), retry_cnt (1), then records, each
 * an opcode byte, its arguments and the time that passes after it (2
 * bytes, 1.024 us units); a received datagram is a frame (2-byte length,
 * bytes).
 */
#include <errno.h>
#include <string.h>

#include <linux/kernel.h>

#include "check_core.h"
#include "mrc_cwnd.h"
#include "mrc_loss_undo.h"
#include "mrc_rnr.h"
#include "mrc_rto.h"
#include "mrc_wire.h"

#define FUZZ_MTU	4096	/* what mrc_rx.c decodes with */
#define DUPTHRESH	1	/* MRC_DUPTHRESH (mrc_req.h) */
#define REO_MIN_TS	1000	/* MRC_REO_MIN_TS (mrc_req.h) */
#define QDELAY_PENALTY	1500	/* MRC_EV_QDELAY_PENALTY_TS (mrc_mp.c) */

struct req {
	struct mrc_txwin win;
	struct mrc_ev_table evs;
	struct mrc_rnr rnr;
	struct mrc_rto rto;
	struct mrc_cwnd cc;
	struct mrc_loss_undo undo;
	u32 now;
	u32 rto_ts;
	bool rto_undo;
	u8 rnr_retry;
};

/* The QP goes to error and back to RTS: everything starts again. */
static void restart(struct req *q)
{
	mrc_txwin_reset(&q->win, q->win.nxt);
	mrc_loss_undo_init(&q->undo);
	mrc_ev_reset(&q->evs);
	mrc_rnr_reset(&q->rnr);
	mrc_rto_on_progress(&q->rto);
	mrc_cwnd_init(&q->cc, q->win.size, q->win.nxt);
}

static void send_on(struct req *q, u32 psn, u16 ev)
{
	mrc_txwin_set_ev(&q->win, psn, ev, mrc_ev_on_send(&q->evs, ev));
}

static void do_send(struct req *q, unsigned int n)
{
	u32 out = mrc_txwin_outstanding(&q->win), psn;
	bool bad;
	u16 ev;

	n = min(n, mrc_cwnd_room(&q->cc, out));
	while (n--) {
		bad = mrc_ev_nbad(&q->evs) != 0;
		ev = mrc_ev_choose(&q->evs);
		check_ev_choice(&q->evs, ev, bad);
		if (mrc_txwin_push(&q->win, 0, q->now, &psn))
			break;
		send_on(q, psn, ev);
	}
}

/* mrc_loss_wait_ts(): the slower of the QP's and the EV's RTT, plus reordering. */
static u32 wait_ts(void *arg, u16 ev)
{
	struct req *q = arg;
	u32 rtt = mrc_rto_srtt_ns(&q->rto) >> 10;
	u32 reo = max_t(u32, rtt / 4, REO_MIN_TS) *
		  mrc_loss_undo_reo_mult(&q->undo);

	if (ev < q->evs.count)
		rtt = max_t(u32, rtt, q->evs.ev[ev].srtt >> 3);
	return rtt + reo;
}

static void blame(void *ctx, u32 psn)
{
	struct req *q = ctx;
	const struct mrc_tx_entry *e = mrc_txwin_entry(&q->win, psn);
	u16 ev = e->ev;
	u32 ev_seq = e->ev_seq;
	bool bad;

	/* As mrc_mp_blame(): the rest sent on a dead EV goes elsewhere. */
	bad = mrc_ev_on_loss(&q->evs, ev, q->now, MRC_EV_WHY_LOSS_SACK) &&
	      q->evs.ev[ev].state == MRC_EV_ASSUMED_BAD;
	if (bad)
		mrc_txwin_mark_ev_lost(&q->win, ev);
	/* As mrc_mp_inferred_loss(): remembered, to undo if spurious. */
	mrc_loss_undo_record(&q->undo, psn, ev, ev_seq, bad,
			     bad ? q->evs.ev[ev].bad_ts : 0);
}

static u32 sample_rtt(struct req *q, const struct mrc_pkt *pkt)
{
	u32 elapsed;

	if (!pkt->aeth.timestamp)
		return 0;
	elapsed = q->now - pkt->aeth.timestamp;
	if (elapsed >= (1U << 24))
		return 0;
	mrc_rto_sample(&q->rto, mrc_ts_to_ns(elapsed));
	return max(elapsed, 1U);
}

/* Return: false when the QP goes to error. */
static bool nack(struct req *q, const struct mrc_pkt *pkt)
{
	const struct mrc_tx_entry *e;

	switch (pkt->aeth.syndrome) {
	case MRC_SYN_TRIMMED:
		mrc_txwin_mark_lost(&q->win, pkt->psn);
		return true;
	case MRC_SYN_PSN_SEQ_ERR:
		mrc_txwin_mark_all_lost(&q->win);
		return true;
	case MRC_SYN_RNR:
		e = mrc_txwin_entry(&q->win, pkt->psn);
		if (!e || (e->flags & MRC_TXE_SACKED))
			return true;
		FUZZ_CHECK(pkt->aeth.rnr_timer <= MRC_RNR_TIMER_MAX &&
			   mrc_rnr_timer_ns(pkt->aeth.rnr_timer) >= 10000,
			   "RNR timer %u", pkt->aeth.rnr_timer);
		switch (mrc_rnr_on_nack(&q->rnr, pkt->psn, pkt->aeth.timestamp,
					q->rnr_retry)) {
		case MRC_RNR_EXCEEDED:
			FUZZ_CHECK(q->rnr_retry < MRC_RNR_RETRY_INFINITE &&
				   q->rnr.retries == q->rnr_retry,
				   "RNR exceeded after %u of %u", q->rnr.retries,
				   q->rnr_retry);
			return false;
		case MRC_RNR_WAIT:
			FUZZ_CHECK(q->rnr.waiting, "RNR wait not waiting");
			mrc_rto_on_progress(&q->rto);
			return true;
		default:
			return true;
		}
	default:
		return false;
	}
}

/* mrc_comp_ack() and mrc_mp_on_ack(), core calls only. */
/* Outstanding PSNs still marked LOST by a timeout alone. */
static u32 rto_marks(const struct mrc_txwin *w)
{
	u32 psn, n = 0;

	for (psn = w->una; psn != w->nxt; psn++)
		n += !!(mrc_txwin_entry(w, psn)->flags & MRC_TXE_RTO);
	return n;
}

static void ack(struct req *q, const struct mrc_pkt *pkt)
{
	struct mrc_loss_clock clk = { .now = q->now, .wait = wait_ts };
	u32 rtt, acked, nlost, qdelay = 0;
	struct mrc_loss_rec r;
	bool lost;

	rtt = sample_rtt(q, pkt);
	/* mrc_mp_check_undo(): the echo of a transmission taken for lost. */
	if (mrc_loss_undo_match(&q->undo, pkt->psn, pkt->aeth.ev,
				pkt->aeth.ev_seq, &r) && r.blamed &&
	    mrc_ev_undo_loss(&q->evs, r.ev, r.bad_ts))
		FUZZ_CHECK(q->evs.ev[r.ev].state == MRC_EV_GOOD,
			   "EV %u undone but state %u", r.ev,
			   q->evs.ev[r.ev].state);
	acked = mrc_txwin_on_ack(&q->win, pkt->aeth.cum_psn);
	/* mrc_comp_check_spurious_rto(): an echo from before the timeout. */
	if (acked && q->rto_undo && pkt->aeth.timestamp) {
		q->rto_undo = false;
		if (mrc_psn_before(pkt->aeth.timestamp, q->rto_ts)) {
			mrc_cwnd_undo(&q->cc);
			mrc_txwin_clear_lost(&q->win);
			FUZZ_CHECK(!rto_marks(&q->win), "a timeout's mark after undo");
		}
	}
	if (pkt->opcode == MRC_OP_SACK)
		mrc_txwin_on_sack(&q->win, pkt->sack.base_psn, pkt->sack.nwords,
				  pkt->sack.bitmap);
	if (pkt->opcode == MRC_OP_NACK && !nack(q, pkt)) {
		restart(q);
		return;
	}
	nlost = mrc_txwin_lost(&q->win);
	if (rtt) {
		qdelay = mrc_ev_queue_delay(&q->evs, pkt->aeth.ev, rtt, q->now);
		mrc_cwnd_on_delay(&q->cc, qdelay, q->win.una, q->win.nxt);
	}
	mrc_ev_on_delivered(&q->evs, pkt->aeth.ev,
			    pkt->aeth.ce_count || qdelay > QDELAY_PENALTY, rtt);
	if (mrc_txwin_sacked(&q->win))
		mrc_txwin_detect_losses(&q->win, DUPTHRESH, &clk, blame, q);
	lost = mrc_txwin_lost(&q->win) > nlost;
	if (acked) {
		mrc_rto_on_progress(&q->rto);
		mrc_cwnd_on_ack(&q->cc, acked);
	}
	if (lost || pkt->aeth.ce_count)
		mrc_cwnd_on_congestion(&q->cc, q->win.una, q->win.nxt);
}

/* A READ response: its PSN arrived, as a SACK of one says. */
static void read_resp(struct req *q, const struct mrc_pkt *pkt)
{
	const struct mrc_tx_entry *e = mrc_txwin_entry(&q->win, pkt->psn);
	u32 n = 0, acked = 0;
	u64 one = 1;

	if (!e || (e->flags & MRC_TXE_SACKED))
		return;
	mrc_ev_on_delivered(&q->evs, pkt->ev, false, 0);
	FUZZ_CHECK(mrc_txwin_on_sack(&q->win, pkt->psn, 1, &one) == 1,
		   "READ response %u not SACKed", pkt->psn);
	while ((e = mrc_txwin_entry(&q->win, q->win.una + n)) &&
	       (e->flags & MRC_TXE_SACKED))
		n++;
	if (n)
		acked = mrc_txwin_on_ack(&q->win, q->win.una + n);
	FUZZ_CHECK(acked == n, "acked %u of a SACKed prefix of %u", acked, n);
	if (acked) {
		mrc_rto_on_progress(&q->rto);
		mrc_cwnd_on_ack(&q->cc, acked);
	}
}

static void receive(struct req *q, const u8 *buf, size_t len)
{
	struct mrc_pkt pkt;

	if (mrc_wire_decode(buf, len, FUZZ_MTU, &pkt) != MRC_WIRE_OK)
		return;
	switch (pkt.opcode) {
	case MRC_OP_ACK:
	case MRC_OP_SACK:
	case MRC_OP_NACK:
	case MRC_OP_ATOMIC_RESP:
		ack(q, &pkt);
		break;
	case MRC_OP_READ_RESP:
		read_resp(q, &pkt);
		break;
	case MRC_OP_PROBE_REPLY:
		mrc_ev_on_probe_reply(&q->evs, pkt.ev, pkt.probe_id);
		break;
	default:
		break;
	}
}

static void retransmit(struct req *q)
{
	u32 in_flight = mrc_txwin_in_flight(&q->win);
	u32 budget = max_t(u32, mrc_cwnd_room(&q->cc, in_flight), !in_flight);
	u32 psn = q->win.una;
	u16 ev;

	while (budget-- && mrc_txwin_next_retransmit(&q->win, &psn)) {
		ev = mrc_ev_choose_retx(&q->evs);
		FUZZ_CHECK(ev < q->evs.count, "retx EV %u", ev);
		FUZZ_CHECK(!mrc_txwin_on_retransmit(&q->win, psn, ev, q->now),
			   "retransmit %u refused", psn);
		send_on(q, psn, ev);
		psn++;
	}
}

/* The timer fired @late quarter-intervals late (a timer wheel's tick). */
static void timeout(struct req *q, u8 late)
{
	u64 waited = mrc_rto_timeout_ns(&q->rto);

	if (mrc_rto_on_timeout(&q->rto, waited + (waited >> 2) * late)) {
		restart(q);
		return;
	}
	mrc_cwnd_on_timeout(&q->cc, q->win.nxt);
	mrc_txwin_mark_all_lost(&q->win);
	q->rto_ts = q->now;
	q->rto_undo = true;
}

static void probe(struct req *q, u32 interval)
{
	u32 id;
	u16 ev;

	if (mrc_ev_next_probe(&q->evs, q->now, interval, &ev, &id)) {
		FUZZ_CHECK(ev < q->evs.count && id, "probe EV %u id %u", ev, id);
		mrc_ev_on_send(&q->evs, ev);
	}
}

static void modify(struct req *q, struct fin *in)
{
	u8 lin = fin_u8(in) % 9;
	u8 exp = fin_u8(in) % 27;
	int ret;

	mrc_rto_set_timeout(&q->rto, fin_u8(in));
	ret = mrc_rto_set_retry(&q->rto, lin, exp);
	FUZZ_CHECK(ret == (lin > MRC_RTO_MAX_RETRY_CNT ||
			   exp > MRC_RTO_EXP_INFINITE ? -EINVAL : 0),
		   "set_retry(%u, %u): %d", lin, exp, ret);
}

static void check_req(const struct req *q)
{
	u64 t = mrc_rto_timeout_ns(&q->rto);
	u32 psn;

	check_txwin(&q->win);
	check_ev(&q->evs);
	for (psn = q->win.una; psn != q->win.nxt; psn++)
		FUZZ_CHECK(mrc_txwin_entry(&q->win, psn)->ev < q->evs.count,
			   "psn %u on EV %u of %u", psn,
			   mrc_txwin_entry(&q->win, psn)->ev, q->evs.count);
	FUZZ_CHECK(q->cc.cwnd >= MRC_CWND_MIN && q->cc.cwnd <= q->cc.max &&
		   q->cc.ssthresh >= MRC_CWND_MIN,
		   "cwnd %u ssthresh %u max %u", q->cc.cwnd, q->cc.ssthresh,
		   q->cc.max);
	FUZZ_CHECK(t >= MRC_RTO_FLOOR_NS && t <= MRC_RTO_MAX_NS &&
		   q->rto.rto_ns >= MRC_RTO_FLOOR_NS &&
		   q->rto.rto_ns <= MRC_RTO_MAX_NS &&
		   q->rto.attr_ns >= MRC_RTO_FLOOR_NS &&
		   t <= max(q->rto.rto_ns, q->rto.attr_ns),
		   "RTO %llu (base %llu, attribute %llu)", (unsigned long long)t,
		   (unsigned long long)q->rto.rto_ns,
		   (unsigned long long)q->rto.attr_ns);
}

static void run_op(struct req *q, struct fin *in)
{
	const u8 *buf;
	size_t len;

	switch (fin_u8(in) % 8) {
	case 0:
		do_send(q, fin_u8(in) + 1);
		break;
	case 1:
	case 2:
		len = fin_frame(in, &buf);
		receive(q, buf, len);
		break;
	case 3:
		retransmit(q);
		break;
	case 4:
		timeout(q, fin_u8(in) & 7);
		break;
	case 5:
		if (mrc_rnr_resume(&q->rnr, q->now))
			mrc_txwin_mark_all_lost(&q->win);
		break;
	case 6:
		probe(q, fin_u16(in));
		break;
	default:
		modify(q, in);
		break;
	}
	/* Time passes: loss inference waits for reordering (~8 ms). */
	q->now += fin_u16(in);
	check_req(q);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fin in = { data, size };
	struct req q = {};
	u32 wsize = fin_u16(&in) % MRC_TXWIN_MAX + 1;
	u16 nev = fin_u8(&in) + 1, min_active = fin_u8(&in);
	u32 start = fin_u32(&in);
	u8 timeout;

	q.rnr_retry = fin_u8(&in) % 8;
	FUZZ_CHECK(!mrc_txwin_init(&q.win, start, wsize), "txwin %u", wsize);
	FUZZ_CHECK(!mrc_ev_init_auto(&q.evs, nev, min_active, (u16)start),
		   "evs");
	timeout = fin_u8(&in);
	FUZZ_CHECK(!mrc_rto_init(&q.rto, timeout, fin_u8(&in) % 8), "rto");
	mrc_cwnd_init(&q.cc, wsize, start);
	q.now = start;
	while (in.n)
		run_op(&q, &in);
	mrc_ev_destroy(&q.evs);
	mrc_txwin_destroy(&q.win);
	return 0;
}
