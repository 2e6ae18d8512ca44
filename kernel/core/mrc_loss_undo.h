/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Spurious loss detection. A PSN inferred lost (a per-EV gap, SACK holes
 * past the reordering window, a READ response hole) may only have been
 * late. An ACK (or READ response) that echoes the EV and per-EV sequence
 * of that PSN's transmission proves it: the responder echoes only a
 * packet it received, and a retransmission carries another sequence.
 * The EV the loss made ASSUMED_BAD is then GOOD again at once instead of
 * after probes (the idea of DSACK, RFC 3708, with no field added to the
 * wire). The retransmission itself stays: a packet late by more than the
 * reordering window most likely sat behind a stalled CPU, and its copy
 * on another path completes the message sooner.
 *
 * A timeout blames the EV of the oldest PSN too. When the acknowledgment
 * after it echoes a send time from before the timeout (Eifel, RFC 3522),
 * every timeout since that send was spurious, and so were their blames:
 * the EVs they made ASSUMED_BAD are GOOD again. Without this, one stall
 * of the VM or of the ACKs' path took an EV out of use for three probe
 * round trips.
 *
 * Spurious losses also widen the reordering window the loss inference
 * waits out (RACK's adaptive window, RFC 8985 section 6.2): its base is
 * multiplied by reo_mult, raised by one (at most once per round trip, up
 * to MRC_REO_MULT_MAX) for each inferred loss found spurious, and lowered
 * by one after every MRC_REO_PERSIST inferred losses with none found
 * spurious. A path or a CPU that reorders by more than the base costs a
 * few duplicates, then none.
 *
 * A tail loss probe resends the newest PSN on another EV (mrc_loss.c).
 * When the answer echoes the probe's copy and no answer echoed the
 * transmission it stood in for, that one was lost (RACK-TLP's verdict,
 * RFC 8985 section 7.4, with the echo in place of DSACK): its EV is
 * blamed as for any inferred loss, and recorded, so that a late answer
 * echoing it still undoes the blame. Without the verdict a QP that sends
 * one small message at a time recovered every loss by a probe, blamed
 * no EV, and kept sending on a dead path's EVs. Pure logic, tested by
 * KUnit.
 */
#ifndef MRC_LOSS_UNDO_H
#define MRC_LOSS_UNDO_H

#include <linux/types.h>

#define MRC_LOSS_UNDO_RING	32	/* recent inferred losses remembered */
#define MRC_LOSS_UNDO_RTO	4	/* blames of one run of timeouts */
#define MRC_REO_MULT_MAX	8	/* most times the base reordering window */
#define MRC_REO_PERSIST		16	/* true losses before it narrows again */

/**
 * struct mrc_loss_rec - one inferred loss
 * @psn: the PSN
 * @ev_seq: per-EV sequence of its transmission then
 * @bad_ts: when the loss made @ev ASSUMED_BAD (its bad_ts), if it did
 * @ev: EV of that transmission
 * @blamed: the loss made @ev ASSUMED_BAD
 * @valid: the record is live
 */
struct mrc_loss_rec {
	u32 psn;
	u32 ev_seq;
	u32 bad_ts;
	u16 ev;
	u8 blamed;
	u8 valid;
};

/**
 * struct mrc_rto_blame - an EV a timeout made ASSUMED_BAD
 * @rto_ts: when the timeout fired, 1.024 us units
 * @bad_ts: the EV's bad_ts then
 * @ev: the EV
 */
struct mrc_rto_blame {
	u32 rto_ts;
	u32 bad_ts;
	u16 ev;
};

/**
 * struct mrc_loss_probe - a tail loss probe awaiting its answer
 * @psn: the PSN probed
 * @lost_seq: per-EV sequence of the transmission the probe stood in for
 * @probe_seq: the probe's own
 * @lost_ev: EV of that transmission
 * @probe_ev: the probe's EV, another
 * @valid: the probe is awaited
 */
struct mrc_loss_probe {
	u32 psn;
	u32 lost_seq;
	u32 probe_seq;
	u16 lost_ev;
	u16 probe_ev;
	u8 valid;
};

/**
 * struct mrc_loss_undo - a QP's recent inferred losses
 * @rec: the ring, oldest overwritten first
 * @rto: blames of the timeouts since the last acknowledgment that could
 *	tell whether they were spurious, first ones kept
 * @probe: the last tail loss probe, until an answer tells its verdict
 * @next: the slot the next record takes
 * @live: records still valid: none, and an answer needs no scan
 * @nrto: entries of @rto in use
 * @reo_mult: the reordering window's multiplier, 1..MRC_REO_MULT_MAX
 * @reo_quiet: inferred losses since @reo_mult last changed
 * @reo_widen_ts: when @reo_mult was last raised
 * @undone: losses found spurious
 */
struct mrc_loss_undo {
	struct mrc_loss_rec rec[MRC_LOSS_UNDO_RING];
	struct mrc_rto_blame rto[MRC_LOSS_UNDO_RTO];
	struct mrc_loss_probe probe;
	u8 next;
	u8 live;
	u8 nrto;
	u8 reo_mult;
	u8 reo_quiet;
	u32 reo_widen_ts;
	u64 undone;
};

void mrc_loss_undo_init(struct mrc_loss_undo *u);
void mrc_loss_undo_record(struct mrc_loss_undo *u, u32 psn, u16 ev,
			  u32 ev_seq, bool blamed, u32 bad_ts);
bool mrc_loss_undo_match(struct mrc_loss_undo *u, u32 psn, u16 ev,
			 u32 ev_seq, struct mrc_loss_rec *out);
void mrc_loss_undo_rto_record(struct mrc_loss_undo *u, u16 ev, u32 bad_ts,
			      u32 rto_ts);
unsigned int mrc_loss_undo_rto_verdict(struct mrc_loss_undo *u, u32 echo_ts,
				       struct mrc_rto_blame *out);
void mrc_loss_undo_widen(struct mrc_loss_undo *u, u32 now, u32 rtt_ts);
void mrc_loss_undo_probe_sent(struct mrc_loss_undo *u, u32 psn, u16 lost_ev,
			      u32 lost_seq, u16 probe_ev, u32 probe_seq,
			      bool sole);
bool mrc_loss_undo_probe_echo(struct mrc_loss_undo *u, u32 psn, u16 ev,
			      u32 ev_seq, bool earlier_arrived, u16 *lost_ev,
			      u32 *lost_seq);

/**
 * mrc_loss_undo_reo_mult() - the reordering window's multiplier
 * @u: the state
 *
 * Return: 1..MRC_REO_MULT_MAX.
 */
static inline u32 mrc_loss_undo_reo_mult(const struct mrc_loss_undo *u)
{
	return u->reo_mult;
}

#endif /* MRC_LOSS_UNDO_H */
