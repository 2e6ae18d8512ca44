// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Spurious loss detection: the ring of recent inferred losses
 * (mrc_loss_undo.h).
 */
#include <linux/string.h>

#include "mrc_loss_undo.h"

/**
 * mrc_loss_undo_init() - no loss remembered
 * @u: the state
 */
void mrc_loss_undo_init(struct mrc_loss_undo *u)
{
	memset(u, 0, sizeof(*u));
}

/**
 * mrc_loss_undo_record() - remember a loss just inferred
 * @u: the state
 * @psn: the PSN marked lost
 * @ev: the EV it was last sent on
 * @ev_seq: its per-EV sequence on that transmission
 * @blamed: the loss made @ev ASSUMED_BAD
 * @bad_ts: @ev's bad_ts then (meaningful when @blamed)
 */
void mrc_loss_undo_record(struct mrc_loss_undo *u, u32 psn, u16 ev,
			  u32 ev_seq, bool blamed, u32 bad_ts)
{
	struct mrc_loss_rec *r = &u->rec[u->next];

	u->next = (u->next + 1) % MRC_LOSS_UNDO_RING;
	if (!r->valid)
		u->live++;
	r->psn = psn;
	r->ev = ev;
	r->ev_seq = ev_seq;
	r->blamed = blamed;
	r->bad_ts = bad_ts;
	r->valid = 1;
}

/**
 * mrc_loss_undo_match() - whether an answer's echo undoes a recorded loss
 * @u: the state
 * @psn: the PSN it answers (an ACK's BTH PSN, a READ response's own)
 * @ev: the EV it echoes
 * @ev_seq: the per-EV sequence it echoes
 * @out: on a match, the record (which is then forgotten)
 *
 * A match means the transmission inferred lost arrived: the loss was
 * spurious.
 *
 * Return: true on a match.
 */
bool mrc_loss_undo_match(struct mrc_loss_undo *u, u32 psn, u16 ev,
			 u32 ev_seq, struct mrc_loss_rec *out)
{
	struct mrc_loss_rec *r;
	unsigned int i;

	for (i = 0; u->live && i < MRC_LOSS_UNDO_RING; i++) {
		r = &u->rec[i];
		if (!r->valid || r->psn != psn || r->ev != ev ||
		    r->ev_seq != ev_seq)
			continue;
		*out = *r;
		r->valid = 0;
		u->live--;
		u->undone++;
		return true;
	}
	return false;
}
