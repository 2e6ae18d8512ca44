/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A QP's requester: the send WQEs in flight, the send window, congestion
 * control, the retransmission timer and loss recovery (mrc_req*.c,
 * mrc_sq_fetch.c, mrc_comp.c, mrc_loss.c). struct mrc_qp holds its state
 * as @req.
 */
#ifndef MRC_REQ_H
#define MRC_REQ_H

#include <linux/hrtimer.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#include "engine/mrc_cc.h"
#include "engine/mrc_obj.h"
#include "core/mrc_loss_undo.h"
#include "core/mrc_rnr.h"
#include "core/mrc_rto.h"
#include "core/mrc_txwin.h"
#include "core/mrc_wire.h"

struct mrc_qp;

/*
 * SACKed PSNs after a hole that let the time rule judge it (mrc_loss.c):
 * one, as in RACK; the reordering window, not a count, tells a hole from
 * reordering.
 */
#define MRC_DUPTHRESH		1

/* Progress of a send WQE. */
enum mrc_swqe_state {
	MRC_SWQE_QUEUED,	/* fetched, not fully transmitted */
	MRC_SWQE_SENT,		/* every packet transmitted once */
	MRC_SWQE_DONE,		/* acknowledged / responded; ready to complete */
};

/**
 * struct mrc_swqe - kernel copy of a send WQE and its progress
 * @wqe: the header as fetched (validated) from the SQ ring
 * @sge: the validated scatter list (or NULL for inline)
 * @inline_data: inline payload (or NULL)
 * @length: total payload bytes (read length for READ)
 * @first_psn: PSN of the first packet
 * @npkts: PSNs the WQE uses (READ: one per response packet)
 * @sent: packets transmitted so far (first transmission)
 * @got: READ response packets placed
 * @rd_scan: READ: first PSN not yet examined for a missing response
 * @rd_low: READ: lowest PSN whose response has not been placed
 * @state: enum mrc_swqe_state
 * @status: completion status (IB_WC_SUCCESS unless an error)
 * @copy_only: its runs copy the payload: a buffer (inline, a kernel MR)
 *	that cannot be referenced page by page (mrc_req_send_zc())
 * @rsn: receive sequence number carried in the DPH
 * @atomic_orig: value returned by an atomic
 */
struct mrc_swqe {
	struct mrc_send_wqe wqe;
	struct mrc_sge *sge;
	u8 *inline_data;
	u32 length;
	u32 first_psn;
	u32 npkts;
	u32 sent;
	u32 got;
	u32 rd_scan;
	u32 rd_low;
	u8 state;
	u8 status;
	bool copy_only;
	u32 rsn;
	u64 atomic_orig;
};

/**
 * mrc_req_rd_owns() - does a READ's response PSN still own its rd_got bit
 * @w: the READ WQE
 * @psn: one of its response PSNs
 *
 * rd_got and psn_wqe are indexed by PSN modulo %MRC_QP_WINDOW, and a READ
 * may span many windows: the bits of PSNs below @w->rd_low (all placed)
 * are reused by later PSNs. Only [rd_low, first_psn + sent) own theirs.
 *
 * Return: true when @psn lies in that range.
 */
static inline bool mrc_req_rd_owns(const struct mrc_swqe *w, u32 psn)
{
	return psn - w->rd_low < w->first_psn + w->sent - w->rd_low;
}

/* A READ or an atomic: a request its response completes. */
static inline bool mrc_op_is_read_atomic(u32 opcode)
{
	return opcode == IB_WR_RDMA_READ || opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
	       opcode == IB_WR_ATOMIC_FETCH_AND_ADD;
}

/*
 * A work request the requester executes itself, sending nothing: it
 * completes once every WQE before it has.
 */
static inline bool mrc_op_is_local(u32 opcode)
{
	return opcode == IB_WR_LOCAL_INV || opcode == IB_WR_REG_MR ||
	       opcode == IB_WR_BIND_MW;
}

/* A READ or ATOMIC that was sent and still waits for its response. */
static inline bool mrc_swqe_awaits_response(const struct mrc_swqe *w)
{
	return w->state != MRC_SWQE_DONE && mrc_op_is_read_atomic(w->wqe.opcode);
}

/**
 * struct mrc_req_info - a QP's requester and completer
 * @swqe: the requester's state per SQ slot
 * @swqe_data: SGEs or inline data copied per SQ slot
 * @swqe_data_size: bytes of @swqe_data per slot
 * @sq_fetch: next SQ index to fetch
 * @sq_send: the WQE being transmitted
 * @sq_err: a WQE failed: transmit no more
 * @next_rsn: receive sequence number of the next message that consumes a
 *	receive WQE at the peer
 * @psn_wqe: SQ index by PSN modulo the window
 * @txwin: the send window
 * @cc: congestion control, by the QP's CC profile (mrc_cc.h)
 * @ar_psn: last data PSN that asked for an ACK
 * @ar_valid: @ar_psn holds a value
 * @trim_held: trims the congestion window could not cut (at its least):
 *	their room waits for the next delivery (mrc_req_retransmit())
 * @work: runs the requester from the workqueue, on the QP's home CPU
 * @rd_got: READ response PSNs placed, by PSN modulo the window
 * @rd_atomic_out: READs and atomics outstanding
 * @rd_pending: READ responses asked for and not yet placed
 * @rd_pin: lowest PSN a response may still use
 * @rd_pin_valid: @rd_pin holds a value
 * @rto: retransmission timer arithmetic
 * @rto_timer: the retransmission timer, a timer-wheel timer
 *	(mrc_req_arm_rto())
 * @rto_armed: @rto_timer is pending
 * @rto_armed_at: jiffies when @rto_timer was last started
 * @rto_round_psn: @rto's round trip ends when this PSN is acknowledged
 * @rto_ts: when the last timeout fired
 * @rto_undo: that timeout may still prove spurious
 * @rto_spread: resend the oldest PSN on several EVs
 * @loss_timer: runs the time rule when the oldest hole falls due
 * @loss_due: when @loss_timer runs out, 1.024 us units
 * @loss_armed: @loss_timer is pending
 * @tlp_psn: the last packet that asked for an answer: a data packet
 *	with AR, or a READ request (its first response PSN)
 * @tlp_end: the PSN whose arrival answers @tlp_psn: itself, or the READ
 *	request's last response
 * @tlp_valid: @tlp_psn and @tlp_end hold values
 * @tlp_out: a tail loss probe left since the cumulative point last moved
 * @undo: recent inferred losses, to find the spurious ones, and the
 *	reordering window's multiplier they raise
 * @rnr: RNR NACK retries
 * @rnr_timer: the RNR wait
 * @rto_fired: retransmission timeouts
 * @spurious_rto: timeouts taken back
 * @delay_cuts: congestion window cuts for queueing delay
 * @lost_ev_gap: losses found by per-EV gaps
 * @lost_sack: losses inferred from SACKs by the time rule
 * @lost_probe: losses a tail loss probe's answer found
 * @tlp_sent: tail loss probes sent
 *
 * All of it is under the QP's lock.
 */
struct mrc_req_info {
	/* send WQEs and the window */
	struct mrc_swqe *swqe;
	u8 *swqe_data;
	u32 swqe_data_size;
	u32 sq_fetch;
	u32 sq_send;
	bool sq_err;
	u32 next_rsn;
	u32 *psn_wqe;
	struct mrc_txwin txwin;
	struct mrc_qp_cc cc;
	u32 ar_psn;
	bool ar_valid;
	u32 trim_held;
	struct work_struct work;

	/* READs and atomics */
	unsigned long *rd_got;
	u32 rd_atomic_out;
	u32 rd_pending;
	u32 rd_pin;
	bool rd_pin_valid;

	/* retransmission timer */
	struct mrc_rto rto;
	struct timer_list rto_timer;
	bool rto_armed;
	unsigned long rto_armed_at;
	u32 rto_round_psn;
	u32 rto_ts;
	bool rto_undo;
	bool rto_spread;

	/* loss inference and tail loss probes (mrc_loss.c) */
	struct hrtimer loss_timer;
	u32 loss_due;
	bool loss_armed;
	u32 tlp_psn;
	u32 tlp_end;
	bool tlp_valid;
	bool tlp_out;
	struct mrc_loss_undo undo;

	/* receiver-not-ready waits (mrc_req_rnr.c) */
	struct mrc_rnr rnr;
	struct hrtimer rnr_timer;

	/* counters */
	u64 rto_fired;
	u64 spurious_rto;
	u64 delay_cuts;
	u64 lost_ev_gap;
	u64 lost_sack;
	u64 lost_probe;
	u64 tlp_sent;
};

/* mrc_req.c: requester */
void mrc_req_work(struct work_struct *work);
void mrc_req_run(struct mrc_qp *qp);
void mrc_req_doorbell(struct mrc_qp *qp, bool inline_ok);

/* mrc_sq_fetch.c */
int mrc_sq_fetch(struct mrc_qp *qp, u32 idx);

/* mrc_req_send.c */
struct mrc_swqe *mrc_req_wqe_of(struct mrc_qp *qp, u32 psn);
int mrc_req_send_data(struct mrc_qp *qp, struct mrc_swqe *w, u32 k, bool retx);
int mrc_req_send_read(struct mrc_qp *qp, struct mrc_swqe *w, u32 psn,
		      u32 npkts, bool retx);
void mrc_req_probe_read(struct mrc_qp *qp, struct mrc_swqe *w, u32 psn,
			u16 ev);
int mrc_req_send_atomic(struct mrc_qp *qp, struct mrc_swqe *w, bool retx);
void mrc_req_resend(struct mrc_qp *qp, struct mrc_swqe *w, u32 psn);
void mrc_req_compute_pin(struct mrc_qp *qp);
int mrc_req_transmit(struct mrc_qp *qp, u32 idx);

/* mrc_req_retx.c */
void mrc_req_arm_rto(struct mrc_qp *qp, bool restart);
void mrc_req_retransmit(struct mrc_qp *qp);
void mrc_rto_fire(struct timer_list *timer);

/* mrc_req_complete.c */
void mrc_req_complete(struct mrc_qp *qp);
void mrc_req_flush_locked(struct mrc_qp *qp);
void mrc_req_flush(struct mrc_qp *qp);

/* mrc_loss.c: loss inference */
bool mrc_loss_read_hole_lost(struct mrc_qp *qp, u32 hole,
			     const struct mrc_pkt *resp);
void mrc_loss_on_ack(struct mrc_qp *qp);
void mrc_loss_on_read_resp(struct mrc_qp *qp);
void mrc_loss_arm_tlp(struct mrc_qp *qp);
bool mrc_loss_probe_before_rto(struct mrc_qp *qp);
void mrc_loss_on_progress(struct mrc_qp *qp);
void mrc_loss_on_echo(struct mrc_qp *qp, const struct mrc_pkt *ack);
enum hrtimer_restart mrc_loss_fire(struct hrtimer *timer);

/*
 * Least reordering the loss inference tolerates, in 1.024 us units: a
 * flow's packets leave from several CPUs, whose backlogs drain on their
 * own.
 */
#define MRC_REO_MIN_TS		1000

/**
 * mrc_loss_reo_ts() - the reordering window, in 1.024 us units
 * @req: the QP's requester
 *
 * A quarter of the smoothed RTT, at least MRC_REO_MIN_TS, times the
 * multiplier spurious losses raise (mrc_loss_undo.h).
 *
 * Return: the window.
 */
static inline u32 mrc_loss_reo_ts(const struct mrc_req_info *req)
{
	u32 base = max_t(u32, (mrc_rto_srtt_ns(&req->rto) >> 10) / 4,
			 MRC_REO_MIN_TS);

	return base * mrc_loss_undo_reo_mult(&req->undo);
}

/* mrc_req_rnr.c: receiver-not-ready waits */
bool mrc_req_rnr_nack(struct mrc_qp *qp, const struct mrc_pkt *pkt);
enum hrtimer_restart mrc_req_rnr_fire(struct hrtimer *timer);
void mrc_req_rnr_reset(struct mrc_qp *qp);

/* mrc_comp.c: completer */
bool mrc_comp_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
		 const struct mrc_payload *payload, bool ce);
bool mrc_comp_rx_carried(struct mrc_qp *qp, const struct mrc_pkt *req);

#endif /* MRC_REQ_H */
