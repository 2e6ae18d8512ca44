/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Accounting of a QP's packets while the local stack holds them.
 */
#ifndef MRC_TX_ACCT_H
#define MRC_TX_ACCT_H

#include <linux/skbuff.h>

struct mrc_qp_handle;
struct mrc_tx_acct;

/* Packets an skb holds: a GSO one keeps gso_segs when it is segmented. */
static inline u16 mrc_tx_skb_npkts(const struct sk_buff *skb)
{
	return skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
}

struct mrc_tx_acct *mrc_tx_acct_create(struct mrc_qp_handle *qp);
void mrc_tx_acct_detach(struct mrc_tx_acct *acct);
void mrc_tx_acct_put(struct mrc_tx_acct *acct);
void mrc_tx_acct_charge(struct mrc_tx_acct *acct, struct sk_buff *skb,
			u16 npkts);
u32 mrc_tx_acct_room(struct mrc_tx_acct *acct);
void mrc_tx_acct_wait_idle(void);

#endif /* MRC_TX_ACCT_H */
