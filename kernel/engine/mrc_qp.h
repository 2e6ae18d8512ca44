/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Queue pairs: the state the transport engine runs on (requester,
 * responder, completer, tx, rx), and the engine's functions. verbs/
 * creates, modifies and destroys QPs (mrc_qp_create.c, mrc_qp_attr.c).
 */
#ifndef MRC_QP_H
#define MRC_QP_H

#include <linux/hrtimer.h>
#include <linux/timer.h>
#include <linux/uidgid.h>
#include <linux/skbuff.h>

#include "engine/mrc_cc.h"
#include "engine/mrc_dack.h"
#include "engine/mrc_ev_acct.h"
#include "engine/mrc_obj.h"
#include "net/mrc_net.h"
#include "core/mrc_atomic_cache.h"
#include "core/mrc_clock.h"
#include "core/mrc_ev.h"
#include "core/mrc_home.h"
#include "core/mrc_loss_undo.h"
#include "core/mrc_rnr.h"
#include "core/mrc_rto.h"
#include "core/mrc_rxwin.h"
#include "core/mrc_txwin.h"
#include "core/mrc_wire.h"

#define MRC_QP_WINDOW		1024	/* PSNs in flight per direction */
#define MRC_ACK_EVERY		64	/* coalesce: ACK at least this often */
/*
 * While PSNs are held out of order the cumulative point stands still, and
 * only SACKs open the sender's window (RFC 6675's pipe): they come more
 * often than ACKs, yet not for every packet (mrc_resp_ack_due()).
 */
#define MRC_SACK_EVERY		16
/*
 * Packets that leave together as one GSO skb on one EV
 * (mrc_tx_alloc_gso()): at most this many, and this many bytes, which
 * keeps the skb within an IPv4 datagram's 64 KiB.
 */
#define MRC_GSO_MAX_PKTS	16
#define MRC_GSO_MAX_BYTES	60000
/*
 * Packets of a QP in local queues before the requester waits, and the
 * count at which it resumes (mrc_tx_acct.c). The stack frees sent skbs
 * late and in batches (virtio-net on its next transmit or TX interrupt),
 * so the bound must span several batches or the requester idles between
 * them: at 64, ib_write_bw ran about a third slower.
 */
#define MRC_TX_LOCAL_MAX	256
#define MRC_TX_LOCAL_LOW	128
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

/**
 * struct mrc_rmsg - responder state of one incoming receive-consuming
 * message (SEND, SEND_IMM, WRITE_IMM), indexed by its RSN
 * @valid: slot in use for @rsn
 * @last_seen: the LAST packet arrived; @last_psn is known
 * @rsn: receive sequence number
 * @last_psn: PSN of the message's last packet
 * @len: message length
 * @got: payload bytes its packets brought, each PSN counted once
 * @opcode: wire opcode of the message
 * @imm: immediate data (network order as sent)
 * @solicited: SE flag of the last packet
 * @has_srq_wqe: for SRQ QPs, a receive WQE was taken for this message
 * @num_sge: the SGEs of that WQE (in the QP's rmsg_sge)
 * @srq_wr_id: the wr_id of that WQE
 * @status: IB_WC_SUCCESS or the error that ends the QP
 */
struct mrc_rmsg {
	bool valid;
	bool last_seen;
	u32 rsn;
	u32 last_psn;
	u32 len;
	u32 got;
	u8 opcode;
	u32 imm;
	bool solicited;
	bool has_srq_wqe;
	u32 num_sge;
	u64 srq_wr_id;
	u8 status;
};

/* Destination of a UD send, kept beside its SQ slot (kernel QPs only). */
struct mrc_ud_ext {
	struct ib_ah *ah;
	u32 remote_qpn;
	u32 remote_qkey;
};

/**
 * struct mrc_ah - address handle: where UD datagrams go
 * @ibah: core object
 * @path: addresses and UDP source port
 * @num: a user AH's number in the device's ah_xa (0: a kernel AH)
 */
struct mrc_ah {
	struct ib_ah ibah;
	struct mrc_path path;
	u32 num;
};

/**
 * struct mrc_qp - a queue pair: RC, UD or GSI
 * @ibqp: core object
 * @mdev: the device
 * @ref: references from receive-path lookups (mrc_qp_get()) and one for
 *	the QP's existence
 * @done: completed when @ref reaches zero, so destroy can wait for it
 * @lock: protects everything the engine touches
 * @modify_lock: serialises modify, query and destroy; taken before @lock
 * @post_lock: serialises kernel consumers' posts, from any context
 * @state: IB QP state
 * @timers_off: the QP is being freed: its hrtimers are not started again
 *	(a running timer or requester run may still try), set under @lock
 * @type: IB_QPT_RC, IB_QPT_UD or IB_QPT_GSI
 * @is_user: the rings are mapped into a process
 * @owner: a user QP's creator (its effective uid at create), whom ctl/
 *	shows the QP's own data; INVALID_UID for a kernel QP
 * @sig_all: every send WQE completes, signalled or not
 * @dest_qpn: the peer QP
 * @mtu: payload bytes per READ response (and UD packet), from @path_mtu
 * @seg: payload bytes per SEND/WRITE packet: what the QP's EVs carry
 *	when @path_mtu is as large as they allow, else @mtu
 * @path_mtu: the path MTU attribute
 * @access: remote access flags the QP allows (IB_ACCESS_REMOTE_*)
 * @timeout: the timeout attribute (mrc_rto.h)
 * @retry_cnt: timeout attributes more, after the first, that the QP
 *	keeps trying for before IBV_WC_RETRY_EXC_ERR (mrc_rto.h)
 * @rnr_retry: RNR NACKs before IBV_WC_RNR_RETRY_EXC_ERR (7: no limit)
 * @min_rnr_timer: RNR timer code our RNR NACKs carry
 * @max_rd_atomic: READs and atomics this QP may have outstanding
 * @max_dest_rd_atomic: READs and atomics the peer may have outstanding here
 * @pkey_index: the P_Key index attribute
 * @qkey: UD Q_Key
 * @sq_psn: first PSN the requester sends
 * @rq_psn: first PSN the responder expects
 * @ah_attr: the peer's address attribute, as given
 * @path: where packets to the peer go (addresses, ports, IP fields)
 * @sq: send queue ring
 * @rq: receive queue ring (unused with @srq)
 * @srq: the shared receive queue, or NULL
 * @sq_max_sge: SGEs a send WQE may carry
 * @sq_max_inline: inline bytes a send WQE may carry
 * @rq_max_sge: SGEs a receive WQE may carry
 * @ud_ext: UD/GSI: destination per SQ slot
 * @gsi: GSI: datagram numbers
 * @uc: UC: PSNs and the message being received (mrc_uc.c)
 * @swqe: the requester's state per SQ slot
 * @swqe_data: SGEs or inline data copied per SQ slot
 * @swqe_data_size: bytes of @swqe_data per slot
 * @sq_fetch: next SQ index to fetch
 * @sq_send: the WQE being transmitted
 * @next_rsn: receive sequence number of the next message that consumes a
 *	receive WQE at the peer
 * @psn_wqe: SQ index by PSN modulo the window
 * @rd_got: READ response PSNs placed, by PSN modulo the window
 * @txwin: the send window
 * @rto: retransmission timer arithmetic
 * @rto_timer: the retransmission timer, a timer-wheel timer
 *	(mrc_req_arm_rto())
 * @rto_armed: @rto_timer is pending
 * @rto_armed_at: jiffies when @rto_timer was last started
 * @rto_round_psn: @rto's round trip ends when this PSN is acknowledged
 * @rd_atomic_out: READs and atomics outstanding
 * @sq_err: a WQE failed: transmit no more
 * @rd_pending: READ responses asked for and not yet placed
 * @rd_pin: lowest PSN a response may still use
 * @rd_pin_valid: @rd_pin holds a value
 * @cc: congestion control, by the QP's CC profile (mrc_cc.h)
 * @rto_ts: when the last timeout fired
 * @rto_undo: that timeout may still prove spurious
 * @rto_spread: resend the oldest PSN on several EVs
 * @ar_psn: last data PSN that asked for an ACK
 * @ar_valid: @ar_psn holds a value
 * @trim_held: trims the congestion window could not cut (at its least):
 *	their room waits for the next delivery (mrc_req_retransmit())
 * @spurious_rto: timeouts taken back
 * @rto_fired: retransmission timeouts
 * @delay_cuts: congestion window cuts for queueing delay
 * @rnr: RNR NACK retries
 * @rnr_timer: the RNR wait
 * @req_work: runs the requester from the workqueue, on @home's CPU
 * @home: the CPU that runs the QP's work: its requester and the trains
 *	it receives (core/mrc_home.h)
 * @evs: the EVs this QP sprays over
 * @srv6: their source routes when its EV profile is SRV6 (a reference on
 *	the profile's table, dropped when the QP is freed), else NULL
 * @ev_profile_id: the EV profile @evs came from (ctl/ binds it)
 * @ev_event_mask: BIT(enum mrc_ev_state) of new states that raise events
 * @cc_profile_id: the CC profile the QP uses (ctl/ binds it)
 * @ctl_node: in ctl/'s list of the device's bound QPs, under its lock
 * @ctl_walk_gen: the last of ctl/'s walks over that list that counted
 *	this QP's EVs (struct mrc_ctl_dev.walk_gen), under the same lock
 * @probe_timer: probes EVs that are ASSUMED_BAD
 * @probe_armed: @probe_timer is pending
 * @probes_sent: path probes sent
 * @probe_replies: path probes answered
 * @ev_retx: PSNs resent because their EV failed
 * @lost_ev_gap: losses found by per-EV gaps
 * @lost_sack: losses inferred from SACKs by the time rule
 * @loss_timer: runs the time rule when the oldest hole falls due
 * @loss_due: when @loss_timer runs out, 1.024 us units
 * @loss_armed: @loss_timer is pending
 * @tlp_psn: the last packet that asked for an answer: a data packet
 *	with AR, or a READ request (its first response PSN)
 * @tlp_end: the PSN whose arrival answers @tlp_psn: itself, or the READ
 *	request's last response
 * @tlp_valid: @tlp_psn and @tlp_end hold values
 * @tlp_out: a tail loss probe left since the cumulative point last moved
 * @tlp_sent: tail loss probes sent
 * @undo: recent inferred losses, to find the spurious ones, and the
 *	reordering window's multiplier they raise
 * @rxwin: the receive window
 * @rmsg: incoming messages, MRC_QP_WINDOW entries by RSN
 * @rmsg_sge: SRQ QPs: the SGEs of each @rmsg entry
 * @rsn_complete: next RSN to complete
 * @unacked: packets received since the last ACK
 * @acked_cum: the cumulative point the last ACK carried
 * @edge_ts: the timestamp of the copy of @acked_cum that arrived, if
 *	any: the request that first moved the cumulative point since the
 *	last ACK (0: none did)
 * @trim_psn: the PSN last NACKed as trimmed
 * @trim_missing: @trim_psn has not arrived since: acknowledge every request
 * @ce_count: CE-marked packets received since the last ACK
 * @atomic_cache: results of executed atomics, for repeated requests
 * @dup_read_tokens: READ responses duplicate requests may still re-serve
 * @dup_read_ts: when @dup_read_tokens was last refilled
 * @rnr_gate: drops new PSNs after an RNR NACK until it executes
 * @dack: an ACK held for an answer to carry
 * @txq: packets built under @lock, sent after it
 * @tx_frag: buffers of GSO runs, recycled
 * @tx_acct: the count of this QP's packets in local queues
 *
 * The verbs entry points take @modify_lock around attribute changes and
 * then @lock.
 */
struct mrc_qp {
	struct ib_qp ibqp;
	struct mrc_dev *mdev;
	refcount_t ref;
	struct completion done;
	spinlock_t lock; /* engine state below */
	struct mutex modify_lock; /* serialises modify, query and destroy */
	spinlock_t post_lock; /* kernel consumers' posts, any context */
	enum ib_qp_state state;
	bool timers_off;
	enum ib_qp_type type;
	bool is_user;
	kuid_t owner;
	bool sig_all;

	/* attributes */
	u32 dest_qpn;
	u32 mtu;
	u32 seg;
	enum ib_mtu path_mtu;
	int access;
	u8 timeout;
	u8 retry_cnt;
	u8 rnr_retry;
	u8 min_rnr_timer;
	u8 max_rd_atomic;
	u8 max_dest_rd_atomic;
	u16 pkey_index;
	u32 qkey;
	u32 sq_psn;
	u32 rq_psn;
	struct rdma_ah_attr ah_attr;
	struct mrc_path path;

	/* queues */
	struct mrc_ring sq;
	struct mrc_ring rq;
	struct mrc_srq *srq;
	u32 sq_max_sge;
	u32 sq_max_inline;
	u32 rq_max_sge;
	struct mrc_ud_ext *ud_ext;
	struct mrc_gsi *gsi;
	struct mrc_uc *uc;

	/* requester and completer */
	struct mrc_swqe *swqe;
	u8 *swqe_data;
	u32 swqe_data_size;
	u32 sq_fetch;
	u32 sq_send;
	u32 next_rsn;
	u32 *psn_wqe;
	unsigned long *rd_got;
	struct mrc_txwin txwin;
	struct mrc_rto rto;
	struct timer_list rto_timer;
	bool rto_armed;
	unsigned long rto_armed_at;
	u32 rto_round_psn;
	u32 rd_atomic_out;
	bool sq_err;
	u32 rd_pending;
	u32 rd_pin;
	bool rd_pin_valid;
	struct mrc_qp_cc cc;
	u32 rto_ts;
	bool rto_undo;
	bool rto_spread;
	u32 ar_psn;
	bool ar_valid;
	u32 trim_held;
	u64 spurious_rto;
	u64 rto_fired;
	u64 delay_cuts;
	struct mrc_rnr rnr;
	struct hrtimer rnr_timer;
	struct work_struct req_work;
	struct mrc_home home;

	/* multipath */
	struct mrc_ev_table evs;
	struct mrc_srv6_routes *srv6;
	u64 ev_profile_id;
	u32 ev_event_mask;
	u64 cc_profile_id;
	struct list_head ctl_node;
	u32 ctl_walk_gen;
	struct hrtimer probe_timer;
	bool probe_armed;
	u64 probes_sent;
	u64 probe_replies;
	u64 ev_retx;
	u64 lost_ev_gap;
	u64 lost_sack;
	struct hrtimer loss_timer;
	u32 loss_due;
	bool loss_armed;
	u32 tlp_psn;
	u32 tlp_end;
	bool tlp_valid;
	bool tlp_out;
	u64 tlp_sent;
	struct mrc_loss_undo undo;

	/* responder */
	struct mrc_rxwin rxwin;
	struct mrc_rmsg *rmsg;
	struct mrc_sge *rmsg_sge;
	u32 rsn_complete;
	u32 unacked;
	u32 acked_cum;
	u32 edge_ts;
	u32 trim_psn;
	bool trim_missing;
	u32 ce_count;
	struct mrc_atomic_cache atomic_cache;
	u32 dup_read_tokens;
	u32 dup_read_ts;
	struct mrc_rnr_gate rnr_gate;
	struct mrc_dack dack;

	/* transmit backlog */
	struct sk_buff_head txq;
	struct page_frag tx_frag;
	struct mrc_tx_acct *tx_acct;
};

/* States in which the QP accepts incoming requests (IB: RTR and later). */
static inline bool mrc_qp_receives(const struct mrc_qp *qp)
{
	return qp->state == IB_QPS_RTR || qp->state == IB_QPS_RTS ||
	       qp->state == IB_QPS_SQD;
}

static inline struct mrc_qp *to_mrc_qp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mrc_qp, ibqp);
}

static inline struct mrc_ah *to_mrc_ah(struct ib_ah *ibah)
{
	return container_of(ibah, struct mrc_ah, ibah);
}

/* mrc_ud.c */
void mrc_ud_send(struct mrc_qp *qp);
void mrc_ud_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
	       const struct mrc_payload *payload, const u8 *grh, u8 net_type,
	       const struct in6_addr *saddr);
int mrc_ud_gsi_alloc(struct mrc_qp *qp);

/* mrc_uc.c */
int mrc_uc_alloc(struct mrc_qp *qp);
void mrc_uc_set_psn(struct mrc_qp *qp);
void mrc_uc_flush_held(struct mrc_qp *qp);
void mrc_uc_send(struct mrc_qp *qp);
void mrc_uc_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
	       const struct mrc_payload *payload);

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

/*
 * Payload bytes per PSN of @w: a READ's responses come at the path MTU,
 * which both peers know; SEND and WRITE packets fill the sender's links.
 */
static inline u32 mrc_swqe_seg(const struct mrc_qp *qp,
			       const struct mrc_swqe *w)
{
	return w->wqe.opcode == IB_WR_RDMA_READ ? qp->mtu : qp->seg;
}

/* mrc_mem.c */
int mrc_swqe_frags(struct mrc_qp *qp, const struct mrc_swqe *w, u32 offset,
		   u32 len, struct sk_buff *skb);
int mrc_swqe_copy(struct mrc_qp *qp, struct mrc_swqe *w, u32 offset,
		  void *buf, u32 len, bool to_sge);
int mrc_mr_write_remote(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			const struct mrc_payload *payload);
int mrc_swqe_place(struct mrc_qp *qp, struct mrc_swqe *w, u32 offset,
		   const struct mrc_payload *src, u32 len);

/* mrc_engine.c */
int mrc_engine_init(void);
void mrc_engine_exit(void);
struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn);
void mrc_qp_put(struct mrc_qp *qp);
void mrc_qp_error_locked(struct mrc_qp *qp);
void mrc_req_kick(struct mrc_qp *qp);

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

/* mrc_mp.c: multipath glue between the EV table and the engine */
void mrc_mp_pick_ev(struct mrc_qp *qp, struct mrc_pkt *pkt);
void mrc_mp_pick_ev_run(struct mrc_qp *qp, struct mrc_pkt *pkt);
void mrc_mp_same_ev(struct mrc_qp *qp, struct mrc_pkt *pkt, u16 ev);
void mrc_mp_queue(struct mrc_qp *qp, struct sk_buff *skb,
		  const struct mrc_pkt *pkt);
bool mrc_mp_blame(struct mrc_qp *qp, u16 ev, enum mrc_ev_why why);
void mrc_mp_inferred_loss(struct mrc_qp *qp, u32 psn, enum mrc_ev_why why);
void mrc_mp_check_undo(struct mrc_qp *qp, u32 psn, u16 ev, u32 ev_seq);
void mrc_mp_rto_verdict(struct mrc_qp *qp, u32 echo_ts);
void mrc_mp_on_ack(struct mrc_qp *qp, const struct mrc_pkt *pkt, u32 rtt_ts);
void mrc_mp_probe_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt);
void mrc_mp_probe_reply_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt);
enum hrtimer_restart mrc_mp_probe_fire(struct hrtimer *timer);
int mrc_mp_fill_res_qp(struct sk_buff *msg, struct ib_qp *ibqp);

/* mrc_loss.c: loss inference */
bool mrc_loss_read_hole_lost(struct mrc_qp *qp, u32 hole,
			     const struct mrc_pkt *resp);
void mrc_loss_on_ack(struct mrc_qp *qp);
void mrc_loss_on_read_resp(struct mrc_qp *qp);
void mrc_loss_arm_tlp(struct mrc_qp *qp);
bool mrc_loss_probe_before_rto(struct mrc_qp *qp);
void mrc_loss_on_progress(struct mrc_qp *qp);
enum hrtimer_restart mrc_loss_fire(struct hrtimer *timer);

/*
 * Least reordering the loss inference tolerates, in 1.024 us units: a
 * flow's packets leave from several CPUs, whose backlogs drain on their
 * own.
 */
#define MRC_REO_MIN_TS		1000

/**
 * mrc_loss_reo_ts() - the reordering window, in 1.024 us units
 * @qp: the QP
 *
 * A quarter of the smoothed RTT, at least MRC_REO_MIN_TS, times the
 * multiplier spurious losses raise (mrc_loss_undo.h).
 *
 * Return: the window.
 */
static inline u32 mrc_loss_reo_ts(struct mrc_qp *qp)
{
	u32 base = max_t(u32, (mrc_rto_srtt_ns(&qp->rto) >> 10) / 4,
			 MRC_REO_MIN_TS);

	return base * mrc_loss_undo_reo_mult(&qp->undo);
}

/* mrc_req_rnr.c: receiver-not-ready waits */
bool mrc_req_rnr_nack(struct mrc_qp *qp, const struct mrc_pkt *pkt);
enum hrtimer_restart mrc_req_rnr_fire(struct hrtimer *timer);
void mrc_req_rnr_reset(struct mrc_qp *qp);

/* mrc_comp.c: completer */
bool mrc_comp_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
		 const struct mrc_payload *payload, bool ce);
bool mrc_comp_rx_carried(struct mrc_qp *qp, const struct mrc_pkt *req);

/* mrc_resp.c: responder */
void mrc_resp_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
		 const struct mrc_payload *payload, bool ce);
void mrc_resp_flush(struct mrc_qp *qp);

/* mrc_tx.c */
struct sk_buff *mrc_tx_alloc(struct mrc_qp *qp, struct mrc_pkt *pkt,
			     void **payload);
struct sk_buff *mrc_tx_alloc_gso(struct mrc_qp *qp, u32 pkt_len, u32 len,
				 u16 npkts);
void *mrc_tx_put_gso(struct mrc_qp *qp, struct sk_buff *skb, u32 offset,
		     struct mrc_pkt *pkt);
bool mrc_tx_zerocopy_on(void);
struct sk_buff *mrc_tx_alloc_zc(struct mrc_qp *qp, u32 hdr_len, u16 npkts);
int mrc_tx_zc_add_hdr(struct mrc_qp *qp, struct sk_buff *skb, u16 i,
		      u32 hdr_len);
void mrc_tx_zc_drop_last(struct sk_buff *skb);
bool mrc_tx_zc_put_hdr(struct mrc_qp *qp, struct sk_buff *skb, int slot,
		       struct mrc_pkt *pkt);
void mrc_tx_zc_seal(struct mrc_qp *qp, struct sk_buff *skb, u32 pkt_len,
		    u16 npkts, u32 hdr_len);
void mrc_tx_queue(struct mrc_qp *qp, struct sk_buff *skb);
void mrc_tx_queue_answer(struct mrc_qp *qp, struct sk_buff *skb,
			 const struct mrc_pkt *req, bool ect);
void mrc_tx_queue_ev(struct mrc_qp *qp, struct sk_buff *skb, u16 idx,
		     bool data);
const struct mrc_srv6_route *mrc_tx_answer_srv6_route(const struct mrc_qp *qp,
						      u16 idx);
const struct mrc_srv6_route *mrc_tx_ev_srv6_route(const struct mrc_qp *qp,
						  u16 idx);
void mrc_tx_queue_to(struct mrc_qp *qp, struct sk_buff *skb,
		     const struct mrc_path *path);
void mrc_tx_flush_now(struct mrc_qp *qp);

/* mrc_rx.c */
int mrc_rx_skb(struct sock *sk, struct sk_buff *skb, bool steered);

#endif /* MRC_QP_H */
