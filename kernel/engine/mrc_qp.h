/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Queue pairs: the state the transport engine runs on, and the engine's
 * functions that serve every role (tx, rx, memory, UD and UC). Each role's
 * state and functions are in its own header: the requester and completer
 * (mrc_req.h), multipath (mrc_mp.h) and the responder (mrc_resp.h).
 * verbs/ creates, modifies and destroys QPs (mrc_qp_create.c,
 * mrc_qp_attr.c).
 */
#ifndef MRC_QP_H
#define MRC_QP_H

#include <linux/hrtimer.h>
#include <linux/timer.h>
#include <linux/uidgid.h>
#include <linux/skbuff.h>

#include "engine/mrc_ev_acct.h"
#include "engine/mrc_mp.h"
#include "engine/mrc_obj.h"
#include "engine/mrc_req.h"
#include "engine/mrc_resp.h"
#include "net/mrc_net.h"
#include "core/mrc_clock.h"
#include "core/mrc_ev.h"
#include "core/mrc_home.h"
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
 * struct mrc_qp_handle - what a QP is found by without a reference
 * @ref: references from receive-path lookups (mrc_qp_get()) and packet
 *	destructors, and one for the QP's existence
 * @qp: the QP, which stays while @ref is not zero
 * @rcu: frees the handle a grace period after the QP
 *
 * The RDMA core frees a QP as soon as destroy returns, and a lookup under
 * RCU may still hold the pointer it found before destroy began: what it
 * then touches is this handle, which outlives the QP by a grace period,
 * so that destroy need not wait for one (a grace period per QP made
 * tearing down thousands of QPs take minutes).
 */
struct mrc_qp_handle {
	refcount_t ref;
	struct mrc_qp *qp;
	struct rcu_head rcu;
};

/**
 * struct mrc_qp - a queue pair: RC, UD or GSI
 * @ibqp: core object
 * @mdev: the device
 * @handle: what the QP table and the packets in local queues point at,
 *	with the QP's references
 * @done: completed when @handle's references reach zero, so destroy can
 *	wait for them
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
 * @req: the requester and completer (mrc_req.h)
 * @mp: the EVs and their probes (mrc_mp.h)
 * @resp: the responder (mrc_resp.h)
 * @home: the CPU that runs the QP's work: its requester and the trains
 *	it receives (core/mrc_home.h)
 * @ev_profile_id: the EV profile @mp.evs came from (ctl/ binds it)
 * @cc_profile_id: the CC profile the QP uses (ctl/ binds it)
 * @ctl_node: in ctl/'s list of the device's bound QPs, under its lock
 * @ctl_walk_gen: the last of ctl/'s walks over that list that counted
 *	this QP's EVs (struct mrc_ctl_dev.walk_gen), under the same lock
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
	struct mrc_qp_handle *handle;
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

	/* the engine, by role */
	struct mrc_home home;
	struct mrc_req_info req;
	struct mrc_mp_info mp;
	struct mrc_resp_info resp;

	/* ctl/'s binding */
	u64 ev_profile_id;
	u64 cc_profile_id;
	struct list_head ctl_node;
	u32 ctl_walk_gen;

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
void mrc_mr_train_done(struct mrc_qp *qp);
int mrc_swqe_place(struct mrc_qp *qp, struct mrc_swqe *w, u32 offset,
		   const struct mrc_payload *src, u32 len);

/* mrc_engine.c */
int mrc_engine_init(void);
void mrc_engine_exit(void);
int mrc_qp_handle_alloc(struct mrc_qp *qp);
void mrc_qp_handle_free(struct mrc_qp *qp);
struct mrc_qp *mrc_qp_handle_get(struct mrc_qp_handle *h);
struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn);
void mrc_qp_put(struct mrc_qp *qp);
void mrc_qp_error_locked(struct mrc_qp *qp);
void mrc_req_kick(struct mrc_qp *qp);

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
