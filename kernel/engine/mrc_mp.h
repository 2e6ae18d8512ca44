/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A QP's multipath state: the EVs it sprays over, their source routes
 * and the probes that bring failed ones back, and mrc_mp.c's glue
 * between the EV table and the engine. struct mrc_qp holds it as @mp.
 */
#ifndef MRC_MP_H
#define MRC_MP_H

#include <linux/hrtimer.h>
#include <linux/skbuff.h>

#include "core/mrc_ev.h"
#include "core/mrc_wire.h"

struct mrc_qp;
struct mrc_srv6_routes;
struct ib_qp;

/**
 * struct mrc_mp_info - a QP's multipath state
 * @evs: the EVs this QP sprays over
 * @srv6: their source routes when its EV profile is SRV6 (a reference on
 *	the profile's table, dropped when the QP is freed), else NULL
 * @ev_event_mask: BIT(enum mrc_ev_state) of new states that raise events
 * @probe_timer: probes EVs that are ASSUMED_BAD
 * @probe_armed: @probe_timer is pending
 * @probes_sent: path probes sent
 * @probe_replies: path probes answered
 * @ev_retx: PSNs resent because their EV failed
 *
 * All of it is under the QP's lock.
 */
struct mrc_mp_info {
	struct mrc_ev_table evs;
	struct mrc_srv6_routes *srv6;
	u32 ev_event_mask;
	struct hrtimer probe_timer;
	bool probe_armed;
	u64 probes_sent;
	u64 probe_replies;
	u64 ev_retx;
};

void mrc_mp_pick_ev(struct mrc_qp *qp, struct mrc_pkt *pkt);
void mrc_mp_pick_ev_run(struct mrc_qp *qp, struct mrc_pkt *pkt);
void mrc_mp_same_ev(struct mrc_qp *qp, struct mrc_pkt *pkt, u16 ev);
void mrc_mp_queue(struct mrc_qp *qp, struct sk_buff *skb,
		  const struct mrc_pkt *pkt);
bool mrc_mp_blame(struct mrc_qp *qp, u16 ev, enum mrc_ev_why why);
void mrc_mp_inferred_loss(struct mrc_qp *qp, u32 psn, enum mrc_ev_why why);
void mrc_mp_lost_copy(struct mrc_qp *qp, u32 psn, u16 ev, u32 ev_seq,
		      enum mrc_ev_why why);
void mrc_mp_check_undo(struct mrc_qp *qp, u32 psn, u16 ev, u32 ev_seq);
void mrc_mp_rto_verdict(struct mrc_qp *qp, u32 echo_ts);
void mrc_mp_on_ack(struct mrc_qp *qp, const struct mrc_pkt *pkt, u32 rtt_ts);
void mrc_mp_probe_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt);
void mrc_mp_probe_reply_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt);
enum hrtimer_restart mrc_mp_probe_fire(struct hrtimer *timer);
int mrc_mp_fill_res_qp(struct sk_buff *msg, struct ib_qp *ibqp);

#endif /* MRC_MP_H */
