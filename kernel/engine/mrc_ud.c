// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unreliable datagrams for UD and GSI QPs (QP1 carries the connection
 * manager's MADs): one UD_SEND packet per work request (two on QP1), no
 * PSN tracking, and receives delivered behind a RoCE v2 style 40-byte
 * header area.
 */
#include <linux/random.h>
#include <rdma/ib_mad.h>

#include "engine/mrc_qp.h"

#define MRC_GRH_LEN	40

/*
 * Each QP1 datagram leaves this many times. The connection manager
 * retransmits its requests, but not a DREQ whose sender destroys its ID
 * at once, as rdma_destroy_id() after rdma_disconnect() does: the peer
 * then stays connected, and waits forever if it has nothing to send.
 * MRC runs on lossy Ethernet, where that loss is one packet in a
 * hundred; two copies make it the loss of both.
 *
 * The CM must not see both: it answers a repeated REQ or REP with an MRA
 * (rdma_cm arms one on each), which stretches the peer's retransmission
 * timer to ~68 s, so one lost RTU would hold a connection that long. So
 * both copies carry the same number in the BTH's PSN (0: unnumbered),
 * and the receiving QP1 delivers a number from a source address once.
 * The CM's own retransmissions are new sends, with new numbers.
 */
#define MRC_GSI_COPIES	2
/* Numbers remembered per QP1; copies arrive back to back, so few do. */
#define MRC_GSI_SEEN	32
#define MRC_GSI_SEEN_TTL	HZ

/**
 * struct mrc_gsi - the datagram numbers of a GSI QP (QP1)
 * @next_psn: number of the next datagram sent (never 0)
 * @seen_next: the @seen slot to overwrite next
 * @seen: numbers delivered lately, with their source and time
 */
struct mrc_gsi {
	u32 next_psn;
	u32 seen_next;
	struct {
		struct in6_addr saddr;
		u32 psn;
		unsigned long stamp;
	} seen[MRC_GSI_SEEN];
};

/**
 * mrc_ud_gsi_alloc() - give a GSI QP its datagram numbering
 * @qp: the QP being created, of type IB_QPT_GSI
 *
 * Return: 0 or -ENOMEM.
 */
int mrc_ud_gsi_alloc(struct mrc_qp *qp)
{
	qp->gsi = kzalloc(sizeof(*qp->gsi), GFP_KERNEL_ACCOUNT);
	if (!qp->gsi)
		return -ENOMEM;
	/* A random start: a restarted peer does not reuse recent numbers. */
	qp->gsi->next_psn = get_random_u32();
	return 0;
}

static u32 mrc_gsi_next_psn(struct mrc_gsi *gsi)
{
	if (!gsi->next_psn)
		gsi->next_psn++;
	return gsi->next_psn++;
}

/* Was datagram @psn from @saddr delivered within MRC_GSI_SEEN_TTL? */
static bool mrc_gsi_seen(const struct mrc_gsi *gsi,
			 const struct in6_addr *saddr, u32 psn)
{
	unsigned int i;

	if (!psn)
		return false;
	for (i = 0; i < MRC_GSI_SEEN; i++)
		if (gsi->seen[i].psn == psn &&
		    time_before(jiffies, gsi->seen[i].stamp + MRC_GSI_SEEN_TTL) &&
		    ipv6_addr_equal(&gsi->seen[i].saddr, saddr))
			return true;
	return false;
}

static void mrc_gsi_remember(struct mrc_gsi *gsi,
			     const struct in6_addr *saddr, u32 psn)
{
	unsigned int i = gsi->seen_next++ % MRC_GSI_SEEN;

	if (!psn)
		return;
	gsi->seen[i].saddr = *saddr;
	gsi->seen[i].psn = psn;
	gsi->seen[i].stamp = jiffies;
}

static void mrc_ud_send_cqe(struct mrc_qp *qp, const struct mrc_send_wqe *wqe,
			    u32 len, int status)
{
	struct mrc_cqe cqe = {
		.wr_id = wqe->wr_id,
		.status = status,
		.opcode = IB_WC_SEND,
		.byte_len = len,
		.qp_num = qp->ibqp.qp_num,
	};

	mrc_cq_post(to_mrc_cq(qp->ibqp.send_cq), &cqe, &qp->ibqp, false);
}

/*
 * Where the datagram of WQE @w (the slot at @idx) goes: a kernel QP's
 * post_send kept its AH beside the ring; a program's slot names a number
 * (struct mrc_ud_dest), looked up here and held to the QP's PD, its path
 * copied under the lock that destroy_ah takes to forget it. Return:
 * false for no AH, or one the QP may not use.
 */
static bool mrc_ud_dest_of(struct mrc_qp *qp, u32 idx,
			   const struct mrc_swqe *w, struct mrc_path *path,
			   u32 *qpn, u32 *qkey)
{
	const struct mrc_ud_dest *d = (const void *)&w->wqe.remote_addr;
	struct xarray *xa = &qp->mdev->ah_xa;
	const struct mrc_ah *ah;
	bool found;

	BUILD_BUG_ON(sizeof(*d) > sizeof(w->wqe.remote_addr) +
		     sizeof(w->wqe.rkey) + sizeof(w->wqe.reserved1));
	if (!qp->is_user) {
		const struct mrc_ud_ext *ext = &qp->ud_ext[idx & qp->sq.mask];

		if (!ext->ah)
			return false;
		*path = to_mrc_ah(ext->ah)->path;
		*qpn = ext->remote_qpn;
		*qkey = ext->remote_qkey;
		return true;
	}
	if (d->reserved || w->wqe.compare_add || w->wqe.swap)
		return false;
	xa_lock_bh(xa);
	ah = xa_load(xa, d->ah_num);
	found = ah && ah->ibah.pd == qp->ibqp.pd;
	if (found)
		*path = ah->path;
	xa_unlock_bh(xa);
	*qpn = d->remote_qpn & MRC_QPN_MASK;
	*qkey = d->remote_qkey;
	return found;
}

/* Build one datagram from the SQ slot at @idx; returns an IB_WC_* status. */
static int mrc_ud_send_one(struct mrc_qp *qp, u32 idx, struct mrc_swqe *w)
{
	struct mrc_pkt pkt = {};
	struct mrc_path path;
	struct sk_buff *skb;
	u32 i, copies, qkey;
	void *payload;
	int status;

	status = mrc_sq_fetch(qp, idx);
	if (status != IB_WC_SUCCESS)
		return status;
	if ((w->wqe.opcode != IB_WR_SEND &&
	     w->wqe.opcode != IB_WR_SEND_WITH_IMM) ||
	    !mrc_ud_dest_of(qp, idx, w, &path, &pkt.dqpn, &qkey))
		return IB_WC_LOC_QP_OP_ERR;
	if (w->length > qp->mtu)
		return IB_WC_LOC_LEN_ERR;

	pkt.opcode = MRC_OP_UD_SEND;
	pkt.flags = MRC_FLAG_FIRST | MRC_FLAG_LAST;
	pkt.payload_len = w->length;
	if (w->wqe.opcode == IB_WR_SEND_WITH_IMM) {
		pkt.opcode = MRC_OP_UD_SEND_IMM;
		pkt.flags |= MRC_FLAG_IMM;
		pkt.dph.msg_len = w->length;
		pkt.dph.imm = w->wqe.imm_data;
	}
	/* A Q_Key with the high bit set means "use the QP's own". */
	pkt.deth.qkey = (qkey & 0x80000000) ? qp->qkey : qkey;
	pkt.deth.src_qpn = qp->ibqp.qp_num;
	copies = 1;
	if (qp->gsi) {
		copies = MRC_GSI_COPIES;
		pkt.psn = mrc_gsi_next_psn(qp->gsi);
	}
	for (i = 0; i < copies; i++) {
		skb = mrc_tx_alloc(qp, &pkt, &payload);
		if (!skb)	/* a copy that did leave is a send */
			return i ? IB_WC_SUCCESS : IB_WC_LOC_QP_OP_ERR;
		status = mrc_swqe_copy(qp, w, 0, payload, w->length, false);
		if (status != IB_WC_SUCCESS) {
			kfree_skb(skb);
			return status;
		}
		mrc_tx_queue_to(qp, skb, &path);
	}
	return IB_WC_SUCCESS;
}

/**
 * mrc_ud_send() - send every posted datagram of a UD or GSI QP
 * @qp: the QP, with @qp->lock held, in RTS
 *
 * Datagrams complete as soon as they are handed to the network.
 */
void mrc_ud_send(struct mrc_qp *qp)
{
	int avail = mrc_ring_avail(&qp->sq);

	while (avail-- > 0) {
		u32 idx = qp->sq.own;
		struct mrc_swqe *w = &qp->req.swqe[idx & qp->sq.mask];
		int status = mrc_ud_send_one(qp, idx, w);

		mrc_ring_consume(&qp->sq);
		if (status != IB_WC_SUCCESS || qp->sig_all ||
		    (w->wqe.send_flags & IB_SEND_SIGNALED))
			mrc_ud_send_cqe(qp, &w->wqe, w->length, status);
	}
	qp->req.sq_fetch = qp->sq.own;
	qp->req.sq_send = qp->sq.own;
}

/*
 * The receive WQE for a datagram of @need bytes (the GRH area included),
 * from the QP's SRQ or its own RQ, consumed only if it fits.
 *
 * Return: 0, -EAGAIN when none is posted (or the ring is corrupt),
 * -EMSGSIZE when the next one is too small (left posted), -EBADMSG for a
 * malformed one (an SRQ's is consumed and completed in error, and the QP
 * fails, as an RC QP does; one in the QP's own RQ stays, as before).
 */
static int mrc_ud_take(struct mrc_qp *qp, u64 need, struct mrc_recv_wqe *wqe,
		       struct mrc_sge *sge)
{
	const void *slot;
	u64 room = 0;
	int avail, err;
	u32 i;

	if (qp->srq) {
		err = mrc_srq_take(qp->srq, wqe, sge, need);
		if (err == -EBADMSG) {
			mrc_srq_fail(&qp->ibqp, wqe->wr_id);
			mrc_qp_error_locked(qp);
		}
		return err == -EINVAL ? -EAGAIN : err;
	}
	avail = mrc_ring_avail(&qp->rq);
	if (avail <= 0)
		return -EAGAIN;
	slot = mrc_ring_slot(&qp->rq, qp->rq.own);
	memcpy(wqe, slot, sizeof(*wqe));
	if (wqe->num_sge > qp->rq_max_sge)
		return -EBADMSG;
	memcpy(sge, slot + sizeof(*wqe), wqe->num_sge * sizeof(*sge));
	for (i = 0; i < wqe->num_sge; i++)
		room += sge[i].length;
	if (room < need)
		return -EMSGSIZE;
	mrc_ring_consume(&qp->rq);
	return 0;
}

/**
 * mrc_ud_rx() - a datagram for a UD or GSI QP
 * @qp: the QP
 * @pkt: validated headers
 * @payload: the datagram
 * @grh: the 40-byte header area to deliver in front of it
 * @net_type: RDMA_NETWORK_IPV4 or RDMA_NETWORK_IPV6
 * @saddr: its source address (IPv4-mapped for IPv4)
 *
 * Datagrams without a posted receive, with the wrong Q_Key, or longer
 * than the next receive buffer (of the QP's RQ or its SRQ) are dropped,
 * as on any UD transport. The buffer stays posted: a sender must not be able to use up the receives
 * of QP1, whose consumer (the MAD layer) never reposts one completed in
 * error. QP1 also drops the copy of a datagram it delivered.
 */
void mrc_ud_rx(struct mrc_qp *qp, const struct mrc_pkt *pkt,
	       const struct mrc_payload *payload, const u8 *grh, u8 net_type,
	       const struct in6_addr *saddr)
{
	struct mrc_sge sge[MRC_MAX_SGE];
	struct mrc_recv_wqe wqe;
	struct mrc_swqe tmp = { .sge = sge };
	int err, status;
	struct mrc_cqe cqe = {
		.opcode = IB_WC_RECV,
		.byte_len = MRC_GRH_LEN + pkt->payload_len,
		.src_qp = pkt->deth.src_qpn,
		.wc_flags = IB_WC_GRH,
		.network_hdr_type = net_type,
	};

	spin_lock(&qp->lock);
	if (!mrc_qp_receives(qp) || pkt->deth.qkey != qp->qkey)
		goto out;
	if (qp->gsi && mrc_gsi_seen(qp->gsi, saddr, pkt->psn)) {
		mrc_stats_inc(&qp->mdev->stats, MRC_STAT_RCVD_GSI_COPY);
		goto out;
	}
	err = mrc_ud_take(qp, cqe.byte_len, &wqe, sge);
	if (err == -EAGAIN)
		mrc_stats_inc(&qp->mdev->stats, MRC_STAT_RCVD_UD_NO_RECV);
	else if (err == -EMSGSIZE)
		mrc_stats_inc(&qp->mdev->stats, MRC_STAT_RCVD_UD_TOO_LONG);
	if (err)
		goto out;
	tmp.wqe.num_sge = wqe.num_sge;
	cqe.wr_id = wqe.wr_id;
	cqe.qp_num = qp->ibqp.qp_num;
	if (pkt->opcode == MRC_OP_UD_SEND_IMM) {
		cqe.imm_data = pkt->dph.imm;
		cqe.wc_flags |= IB_WC_WITH_IMM;
	}
	status = mrc_swqe_copy(qp, &tmp, 0, (void *)grh, MRC_GRH_LEN, true);
	if (status == IB_WC_SUCCESS)
		status = mrc_swqe_place(qp, &tmp, MRC_GRH_LEN, payload,
					pkt->payload_len);
	cqe.status = status;
	mrc_cq_post(to_mrc_cq(qp->ibqp.recv_cq), &cqe, &qp->ibqp, false);
	if (qp->gsi && status == IB_WC_SUCCESS)
		mrc_gsi_remember(qp->gsi, saddr, pkt->psn);
out:
	spin_unlock(&qp->lock);
}
