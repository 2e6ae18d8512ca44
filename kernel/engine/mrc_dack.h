/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Delayed acknowledgments for ping-pong traffic.
 *
 * When the program answers each incoming message with one of its own,
 * as ib_write_lat, ibv_rc_pingpong and RPCs do, the ACK a message asks
 * for can ride on the answer (MRC_FLAG_ACK, Documentation/wire-format.rst)
 * instead of travelling alone. A round trip then takes two packets, not
 * four, and the receive softirq no longer builds and sends an ACK before
 * the program can see the message.
 *
 * As TCP's delayed ACKs do, a QP holds ACKs back only in ping-pong mode:
 * it enters it when the program posts a send within a tick of a request
 * that asked for an ACK, and leaves it when the timer below finds a held
 * ACK a millisecond old or more. A held ACK leaves on the next request the QP
 * sends, on its own when the requester sends something it cannot ride
 * on, when the QP is modified or destroyed, or at the latest on the next
 * tick (a timer).
 *
 * The peer's retransmission timer waits two ticks at least (mrc_rto.h),
 * but its ticks and ours are not in step, so a held ACK that waits for
 * our next tick can still arrive after it fires. While the peer may be
 * holding our ACKs (our QP is in ping-pong mode, or an ACK came carried
 * within the last second), the requester therefore waits a tick longer
 * (mrc_dack_rto_slack()), as TCP's minimum RTO leaves room for a delayed
 * ACK.
 *
 * The peer's last message completes only when an ACK for it arrives, and
 * once this QP is destroyed a retransmission finds nobody to answer it.
 * A QP that stops receiving (destroyed, or moved to ERR or RESET)
 * therefore acknowledges once more (mrc_dack_send_final()): the peer's
 * last message then fails only if both ACKs are lost.
 */
#ifndef MRC_DACK_H
#define MRC_DACK_H

#include <linux/timer.h>
#include <linux/types.h>

/* A held ACK this old (1.024 us units) says the program is not answering. */
#define MRC_DACK_PATIENCE_TS	1000

/**
 * struct mrc_dack - an acknowledgment held back for an answer to carry
 * @timer: sends a held ACK that nothing carried by the next tick
 * @ar_jiffies: when the last new request that asked for an ACK came
 * @ar_seen: @ar_jiffies is set
 * @carried_jiffies: when the peer last carried an ACK to us on a request
 * @carried_seen: @carried_jiffies is set
 * @pingpong: the program answers requests promptly: hold ACKs back
 * @answered: the fields below name the last request acknowledged or held
 * @pending: an ACK is held for the request the fields below name
 * @ev: EV index of the request
 * @sport: UDP source port it came with
 * @psn: its PSN
 * @ev_seq: its per-EV sequence
 * @timestamp: its timestamp, to echo
 * @rx_ts: when the hold began (mrc_now_ts()): the echo leaves it out
 */
struct mrc_dack {
	struct timer_list timer;
	unsigned long ar_jiffies;
	unsigned long carried_jiffies;
	bool ar_seen;
	bool carried_seen;
	bool pingpong;
	bool answered;
	bool pending;
	u16 ev;
	u16 sport;
	u32 psn;
	u32 ev_seq;
	u32 timestamp;
	u32 rx_ts;
};

struct mrc_qp;
struct mrc_pkt;

void mrc_ack_fill_aeth(struct mrc_qp *qp, const struct mrc_pkt *req,
		       u8 syndrome, struct mrc_pkt *pkt);
void mrc_ack_send(struct mrc_qp *qp, const struct mrc_pkt *req, u8 syndrome);
void mrc_ack_send_echo(struct mrc_qp *qp, const struct mrc_pkt *req,
		       u32 echo_ts);
void mrc_dack_reset(struct mrc_qp *qp);
bool mrc_dack_hold(struct mrc_qp *qp, const struct mrc_pkt *req);
void mrc_dack_on_post(struct mrc_qp *qp);
void mrc_dack_attach(struct mrc_qp *qp, struct mrc_pkt *pkt);
void mrc_dack_send(struct mrc_qp *qp);
void mrc_dack_note_answered(struct mrc_qp *qp, const struct mrc_pkt *req);
void mrc_dack_send_final(struct mrc_qp *qp);
void mrc_dack_fire(struct timer_list *timer);
void mrc_dack_peer_carried(struct mrc_qp *qp);
unsigned long mrc_dack_rto_slack(struct mrc_qp *qp);

#endif /* MRC_DACK_H */
