// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-path accounting. Every packet a QP sends or receives is counted on
 * the EV it travels by, in IP bytes (the headers net/ adds included), so
 * that the counters of one path can be compared with a router's. All
 * writes happen under qp->lock, which the callers already hold: plain
 * adds on the EV's counter block, no atomics.
 *
 * A received packet names the EV in its headers (a request its own
 * index, an acknowledgment the index of the request it answers). That
 * index is the peer's: it means "the same path" only when both ends use
 * the same EV profile, and it is untrusted, so indexes past the table
 * are not counted.
 */
#include <linux/rcupdate.h>
#include <linux/ktime.h>

#include "core/mrc_srv6.h"
#include "engine/mrc_ev_acct.h"
#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"

/* Set by the control plane at module load; NULL when nobody listens. */
static mrc_ev_event_fn __rcu *mrc_ev_event_hook;

/*
 * Count @skb on EV @idx; @route is the SRv6 route it takes (NULL for the
 * plain route), whose outer header and SRH net/ puts before it.
 */
static void mrc_ev_acct_route(struct mrc_qp *qp, u16 idx,
			      const struct mrc_srv6_route *route,
			      const struct sk_buff *skb,
			      enum mrc_ev_tx_kind kind, u32 data_bytes)
{
	u32 npkts = mrc_tx_skb_npkts(skb);
	u32 encap = route ? mrc_srv6_encap_len(route->nsegs) : 0;
	u64 *c, bytes;

	lockdep_assert_held(&qp->lock);
	if (idx >= qp->mp.evs.count)
		return;
	bytes = skb->len + (u64)npkts * (mrc_net_hdr_len(&qp->path) + encap);
	c = qp->mp.evs.st[idx].c;
	c[MRC_EVS_TX_PKTS] += npkts;
	c[MRC_EVS_TX_BYTES] += bytes;
	switch (kind) {
	case MRC_EV_TX_DATA:
		c[MRC_EVS_TX_DATA_BYTES] += data_bytes;
		break;
	case MRC_EV_TX_RETX:
		c[MRC_EVS_RETX_PKTS] += npkts;
		c[MRC_EVS_RETX_BYTES] += bytes;
		break;
	case MRC_EV_TX_ACK:
		c[MRC_EVS_TX_ACKS] += npkts;
		break;
	case MRC_EV_TX_PROBE:
		c[MRC_EVS_TX_PROBES] += npkts;
		break;
	case MRC_EV_TX_OTHER:
		break;
	}
}

/**
 * mrc_ev_acct_tx() - count a request or probe (or a GSO run) queued on an EV
 * @qp: the QP, @qp->lock held
 * @idx: our EV it goes by
 * @skb: the packet, without the IP and UDP headers yet
 * @kind: what it is
 * @data_bytes: payload of first transmissions (goodput), else 0
 */
void mrc_ev_acct_tx(struct mrc_qp *qp, u16 idx, const struct sk_buff *skb,
		    enum mrc_ev_tx_kind kind, u32 data_bytes)
{
	mrc_ev_acct_route(qp, idx, mrc_tx_ev_srv6_route(qp, idx), skb, kind,
			  data_bytes);
}

/**
 * mrc_ev_acct_answer() - count an answer (or a GSO run of READ responses)
 * @qp: the QP, @qp->lock held
 * @idx: the EV index of the request it answers (the peer's)
 * @skb: the packet, without the IP and UDP headers yet
 * @kind: what it is
 * @data_bytes: READ response payload, else 0
 *
 * It goes by mrc_tx_queue_answer()'s route.
 */
void mrc_ev_acct_answer(struct mrc_qp *qp, u16 idx, const struct sk_buff *skb,
			enum mrc_ev_tx_kind kind, u32 data_bytes)
{
	mrc_ev_acct_route(qp, idx, mrc_tx_answer_srv6_route(qp, idx), skb,
			  kind, data_bytes);
}

/**
 * mrc_ev_acct_rx() - count a received packet on the EV it names
 * @qp: the QP, @qp->lock held
 * @pkt: the decoded packet
 */
void mrc_ev_acct_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt)
{
	u16 idx = pkt->ev;
	u64 *c;

	lockdep_assert_held(&qp->lock);
	switch (pkt->opcode) {
	case MRC_OP_ACK:
	case MRC_OP_SACK:
	case MRC_OP_NACK:
	case MRC_OP_ATOMIC_RESP:
		idx = pkt->aeth.ev;
		break;
	}
	if (idx >= qp->mp.evs.count)
		return;
	c = qp->mp.evs.st[idx].c;
	c[MRC_EVS_RX_PKTS]++;
	c[MRC_EVS_RX_BYTES] += pkt->hdr_len + pkt->payload_len +
			       mrc_net_hdr_len(&qp->path);
}

/**
 * mrc_ev_acct_changed() - struct mrc_ev_table's @changed for QPs
 * @t: the QP's table (qp->lock held)
 * @idx: the EV that changed
 * @old_state: its state before
 * @why: the reason
 *
 * Stamps the change and passes it to the control plane's hook.
 */
void mrc_ev_acct_changed(struct mrc_ev_table *t, u16 idx, u8 old_state,
			 enum mrc_ev_why why)
{
	struct mrc_qp *qp = container_of(t, struct mrc_qp, mp.evs);
	mrc_ev_event_fn *fn;

	t->st[idx].state_ns = ktime_get_real_ns();
	rcu_read_lock();
	fn = rcu_dereference(mrc_ev_event_hook);
	if (fn)
		fn(qp, idx, old_state, why);
	rcu_read_unlock();
}

/**
 * mrc_ev_acct_set_event_fn() - (un)register the control plane's hook
 * @fn: the hook, or NULL; after NULL no call is under way on return
 */
void mrc_ev_acct_set_event_fn(mrc_ev_event_fn *fn)
{
	rcu_assign_pointer(mrc_ev_event_hook, fn);
	if (!fn)
		synchronize_rcu();
}
