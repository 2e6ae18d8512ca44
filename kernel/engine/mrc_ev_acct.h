/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-path accounting: what each EV of a QP carried, and its state
 * changes, which go up to the control plane as events.
 */
#ifndef MRC_EV_ACCT_H
#define MRC_EV_ACCT_H

#include <linux/skbuff.h>

#include "core/mrc_ev.h"

struct mrc_qp;
struct mrc_pkt;

/* What a sent packet is, for its EV's counters. */
enum mrc_ev_tx_kind {
	MRC_EV_TX_DATA,		/* first transmission (or a READ response) */
	MRC_EV_TX_RETX,		/* retransmission */
	MRC_EV_TX_ACK,		/* ACK, SACK, NACK, ATOMIC response */
	MRC_EV_TX_PROBE,
	MRC_EV_TX_OTHER,	/* probe replies */
};

/**
 * typedef mrc_ev_event_fn - the control plane hears of a state change
 * @qp: the QP, with qp->lock held (softirq, timer or process context)
 * @idx: the EV
 * @old_state: enum mrc_ev_state before
 * @why: enum mrc_ev_why
 *
 * Must not sleep or take qp->lock.
 */
typedef void mrc_ev_event_fn(struct mrc_qp *qp, u16 idx, u8 old_state,
			     enum mrc_ev_why why);

void mrc_ev_acct_tx(struct mrc_qp *qp, u16 idx, const struct sk_buff *skb,
		    enum mrc_ev_tx_kind kind, u32 data_bytes);
void mrc_ev_acct_answer(struct mrc_qp *qp, u16 idx, const struct sk_buff *skb,
			enum mrc_ev_tx_kind kind, u32 data_bytes);
void mrc_ev_acct_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt);
void mrc_ev_acct_changed(struct mrc_ev_table *t, u16 idx, u8 old_state,
			 enum mrc_ev_why why);
void mrc_ev_acct_set_event_fn(mrc_ev_event_fn *fn);

#endif /* MRC_EV_ACCT_H */
