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
 * on another path completes the message sooner. Pure logic, tested by
 * KUnit.
 */
#ifndef MRC_LOSS_UNDO_H
#define MRC_LOSS_UNDO_H

#include <linux/types.h>

#define MRC_LOSS_UNDO_RING	32	/* recent inferred losses remembered */

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
 * struct mrc_loss_undo - a QP's recent inferred losses
 * @rec: the ring, oldest overwritten first
 * @next: the slot the next record takes
 * @live: records still valid: none, and an answer needs no scan
 * @undone: losses found spurious
 */
struct mrc_loss_undo {
	struct mrc_loss_rec rec[MRC_LOSS_UNDO_RING];
	u8 next;
	u8 live;
	u64 undone;
};

void mrc_loss_undo_init(struct mrc_loss_undo *u);
void mrc_loss_undo_record(struct mrc_loss_undo *u, u32 psn, u16 ev,
			  u32 ev_seq, bool blamed, u32 bad_ts);
bool mrc_loss_undo_match(struct mrc_loss_undo *u, u32 psn, u16 ev,
			 u32 ev_seq, struct mrc_loss_rec *out);

#endif /* MRC_LOSS_UNDO_H */
