// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RC queue pairs: the IB state machine (modify/query), addressing from the
 * AH attribute, and the post verbs for in-kernel consumers.
 */
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "verbs/mrc_verbs.h"
#include "ctl/mrc_ctl.h"
#include "engine/mrc_qp.h"

/*
 * The path an RC QP's attribute names. A reliable connection has one
 * peer: multicast and broadcast destinations are refused.
 */
static int mrc_qp_build_path(struct mrc_qp *qp, const struct ib_qp_attr *attr,
			     struct mrc_path *path)
{
	int err = mrc_path_from_ah(path, &attr->ah_attr);

	if (err)
		return err;
	if (ipv6_addr_is_multicast(&path->daddr))
		return -EINVAL;
	if (path->v4) {
		__be32 v4 = path->daddr.s6_addr32[3];

		if (ipv4_is_multicast(v4) || ipv4_is_lbcast(v4) ||
		    ipv4_is_zeronet(v4))
			return -EINVAL;
	}
	path->sport = cpu_to_be16(rdma_get_udp_sport(path->flow_label,
						     qp->ibqp.qp_num,
						     attr->dest_qp_num));
	return 0;
}

static int mrc_qp_check_attr(struct mrc_qp *qp, const struct ib_qp_attr *attr,
			     int mask)
{
	if ((mask & IB_QP_PORT) && attr->port_num != MRC_PORT_NUM)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index != 0)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) &&
	    attr->min_rnr_timer > MRC_AETH_RNR_TIMER_MAX)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && attr->dest_qp_num > MRC_QPN_LIMIT)
		return -EINVAL;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~(IB_ACCESS_REMOTE_WRITE |
				       IB_ACCESS_REMOTE_READ |
				       IB_ACCESS_REMOTE_ATOMIC |
				       IB_ACCESS_LOCAL_WRITE)))
		return -EINVAL;
	return 0;
}

static void mrc_qp_reset_locked(struct mrc_qp *qp)
{
	mrc_txwin_reset(&qp->req.txwin, qp->sq_psn);
	mrc_loss_undo_init(&qp->req.undo);
	mrc_rxwin_reset(&qp->resp.rxwin, qp->rq_psn);
	mrc_rnr_gate_reset(&qp->resp.rnr_gate);
	mrc_req_rnr_reset(qp);
	mrc_resp_clear_msgs(qp);
	mrc_atomic_cache_reset(&qp->resp.atomic_cache);
	mrc_ev_reset(&qp->mp.evs);
	qp->req.sq_fetch = qp->sq.own;
	qp->req.sq_send = qp->sq.own;
	qp->req.next_rsn = 0;
	qp->resp.rsn_complete = 0;
	qp->req.rd_atomic_out = 0;
	qp->req.sq_err = false;
	qp->req.rd_pending = 0;
	qp->resp.unacked = 0;
	qp->resp.acked_cum = qp->rq_psn;
	qp->resp.edge_ts = 0;
	qp->resp.trim_missing = false;
	qp->req.trim_held = 0;
	qp->req.rto_round_psn = qp->sq_psn;
	qp->req.rto_undo = false;
	qp->req.rto_spread = false;
	qp->req.ar_valid = false;
	qp->req.tlp_valid = false;
	mrc_dack_reset(qp);
	mrc_cc_restart(qp, qp->sq_psn);
	if (qp->uc)
		mrc_uc_set_psn(qp);
}

/*
 * @carry: the largest path MTU the QP's EVs carry now (IB_QP_PATH_MTU): a
 * larger path MTU is lowered to it, so that no packet leaves too large.
 * @seg: the SEND/WRITE payload that fills those EVs. A QP asking for
 * less than @carry keeps its packets at its path MTU.
 */
static void mrc_qp_apply(struct mrc_qp *qp, const struct ib_qp_attr *attr,
			 int mask, enum ib_mtu carry, u32 seg)
{
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->access = attr->qp_access_flags;
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_PATH_MTU) {
		qp->path_mtu = min(attr->path_mtu, carry);
		qp->mtu = ib_mtu_enum_to_int(qp->path_mtu);
		qp->seg = qp->path_mtu == carry ? max(seg, qp->mtu) : qp->mtu;
	}
	if (mask & IB_QP_DEST_QPN)
		qp->dest_qpn = attr->dest_qp_num;
	if (mask & IB_QP_TIMEOUT) {
		qp->timeout = attr->timeout;
		mrc_rto_set_timeout(&qp->req.rto, attr->timeout);
	}
	if (mask & IB_QP_RETRY_CNT) {
		qp->retry_cnt = attr->retry_cnt;
		mrc_rto_set_retry(&qp->req.rto, attr->retry_cnt, 0);
	}
	if (mask & IB_QP_RNR_RETRY)
		qp->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_SQ_PSN) {
		qp->sq_psn = attr->sq_psn;
		mrc_txwin_reset(&qp->req.txwin, qp->sq_psn);
		mrc_loss_undo_init(&qp->req.undo);
		mrc_cc_restart(qp, qp->sq_psn);
		mrc_req_rnr_reset(qp);
	}
	if (mask & IB_QP_RQ_PSN) {
		qp->rq_psn = attr->rq_psn;
		mrc_rxwin_reset(&qp->resp.rxwin, qp->rq_psn);
		mrc_rnr_gate_reset(&qp->resp.rnr_gate);
		qp->resp.acked_cum = qp->rq_psn;
		qp->resp.edge_ts = 0;
	}
	if (qp->uc && (mask & (IB_QP_SQ_PSN | IB_QP_RQ_PSN)))
		mrc_uc_set_psn(qp);
}

/**
 * mrc_modify_qp() - ib_device_ops.modify_qp
 * @ibqp: the QP
 * @attr: new attributes
 * @mask: IB_QP_* bits of @attr to apply
 * @udata: user data; no driver input is defined, so any must be zero
 *
 * Return: 0 or a negative errno; nothing changes on error. Driver input
 * with a byte set asks for something this driver does not know:
 * -EOPNOTSUPP, as for unknown attribute bits.
 */
int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	enum ib_mtu carry = IB_MTU_4096;
	enum ib_qp_state cur, next;
	struct mrc_path path;
	u32 seg = 0;
	int err;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen)) {
		ibdev_dbg(ibqp->device,
			  "modify_qp QP 0x%x: %zu bytes of driver input, not all zero: none is defined\n",
			  ibqp->qp_num, udata->inlen);
		return -EOPNOTSUPP;
	}

	mutex_lock(&qp->modify_lock);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	err = -EINVAL;
	if (cur != qp->state ||
	    !ib_modify_qp_is_ok(cur, next, qp->type, mask))
		goto out;
	err = mrc_qp_check_attr(qp, attr, mask);
	if (err)
		goto out;
	if (mask & IB_QP_AV) {
		err = mrc_qp_build_path(qp, attr, &path);
		if (err)
			goto out;
	}
	/* Route lookups, one per SRv6 EV: before the lock. */
	if (mask & IB_QP_PATH_MTU) {
		const struct mrc_path *p = (mask & IB_QP_AV) ? &path : &qp->path;

		carry = ib_mtu_int_to_enum(mrc_port_payload_mtu(qp->mdev,
								qp->mp.srv6, p,
								&seg));
	}

	spin_lock_bh(&qp->lock);
	/*
	 * The engine moves a QP to ERR under the lock, not the mutex: a
	 * transition checked against the state it replaced must not revive
	 * the QP.
	 */
	if (qp->state != cur) {
		spin_unlock_bh(&qp->lock);
		err = -EINVAL;
		goto out;
	}
	if (mask & IB_QP_AV) {
		qp->path = path;
		qp->ah_attr = attr->ah_attr;
		qp->ah_attr.grh.sgid_attr = NULL;
	}
	/* A held ACK goes before the attributes it was built under change. */
	if ((mask & IB_QP_STATE) &&
	    (next == IB_QPS_ERR || next == IB_QPS_RESET))
		mrc_dack_send_final(qp);
	else
		mrc_dack_send(qp);
	mrc_qp_apply(qp, attr, mask, carry, seg);
	if (mask & IB_QP_STATE) {
		if (next == IB_QPS_RESET)
			mrc_qp_reset_locked(qp);
		qp->state = next;
	}
	spin_unlock_bh(&qp->lock);
	mrc_tx_flush_now(qp);

	/* Errors flush, RTS may have work queued: let the engine look. */
	if (next == IB_QPS_ERR || next == IB_QPS_RTS)
		mrc_req_kick(qp);
	err = 0;
out:
	mutex_unlock(&qp->modify_lock);
	return err;
}

/**
 * mrc_query_qp() - ib_device_ops.query_qp
 * @ibqp: the QP
 * @attr: filled in
 * @mask: attributes asked for (all are returned)
 * @init: filled in with creation attributes
 *
 * Return: 0.
 */
int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	mutex_lock(&qp->modify_lock);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->path_mtu = qp->path_mtu;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->qp_access_flags = qp->access;
	attr->dest_qp_num = qp->dest_qpn;
	attr->sq_psn = qp->sq_psn;
	attr->rq_psn = qp->rq_psn;
	attr->timeout = qp->timeout;
	attr->retry_cnt = qp->retry_cnt;
	attr->rnr_retry = qp->rnr_retry;
	attr->min_rnr_timer = qp->min_rnr_timer;
	attr->max_rd_atomic = qp->max_rd_atomic;
	attr->max_dest_rd_atomic = qp->max_dest_rd_atomic;
	attr->port_num = MRC_PORT_NUM;
	attr->qkey = qp->qkey;
	attr->ah_attr = qp->ah_attr;
	attr->cap.max_send_wr = mrc_ring_num_slots(&qp->sq);
	attr->cap.max_send_sge = qp->sq_max_sge;
	attr->cap.max_inline_data = qp->sq_max_inline;
	if (!qp->srq) {
		attr->cap.max_recv_wr = mrc_ring_num_slots(&qp->rq);
		attr->cap.max_recv_sge = qp->rq_max_sge;
	}
	mutex_unlock(&qp->modify_lock);

	init->qp_type = qp->type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->srq = ibqp->srq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

/**
 * mrc_post_send() - ib_device_ops.post_send
 * @ibqp: the QP
 * @wr: work requests; ignored for user QPs, whose doorbell this is
 * @bad_wr: first request not posted
 *
 * Return: 0 or a negative errno.
 */
int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	struct mrc_ring_ctrl *ctrl = qp->sq.ctrl;
	unsigned long flags;
	int err = 0;

	if (qp->is_user) {
		mrc_req_doorbell(qp, true);
		return 0;
	}

	/*
	 * Only the producer side of the ring is ours: the requester reads
	 * it under qp->lock as it reads a user QP's, without our lock.
	 */
	spin_lock_irqsave(&qp->post_lock, flags);
	for (; wr; wr = wr->next) {
		u32 prod = ctrl->prod;
		struct mrc_send_wqe *w;

		if (wr->num_sge > qp->sq_max_sge ||
		    (wr->send_flags & ~MRC_SEND_FLAGS_KNOWN) ||
		    (wr->send_flags & IB_SEND_INLINE)) {
			err = -EINVAL;
			break;
		}
		if (prod - READ_ONCE(ctrl->cons) >= mrc_ring_num_slots(&qp->sq)) {
			err = -ENOMEM;
			break;
		}
		w = mrc_ring_slot(&qp->sq, prod);
		memset(w, 0, sizeof(*w));
		w->wr_id = wr->wr_id;
		w->opcode = wr->opcode;
		w->send_flags = wr->send_flags;
		w->imm_data = (__force u32)wr->ex.imm_data;
		w->num_sge = wr->num_sge;
		if (wr->opcode == IB_WR_RDMA_WRITE ||
		    wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM ||
		    wr->opcode == IB_WR_RDMA_READ) {
			w->remote_addr = rdma_wr(wr)->remote_addr;
			w->rkey = rdma_wr(wr)->rkey;
		} else if (qp->ud_ext) {
			struct mrc_ud_ext *ext = &qp->ud_ext[prod & qp->sq.mask];

			ext->ah = ud_wr(wr)->ah;
			ext->remote_qpn = ud_wr(wr)->remote_qpn;
			ext->remote_qkey = ud_wr(wr)->remote_qkey;
		} else if (wr->opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
			   wr->opcode == IB_WR_ATOMIC_FETCH_AND_ADD) {
			w->remote_addr = atomic_wr(wr)->remote_addr;
			w->rkey = atomic_wr(wr)->rkey;
			w->compare_add = atomic_wr(wr)->compare_add;
			w->swap = atomic_wr(wr)->swap;
		} else if (wr->opcode == IB_WR_REG_MR) {
			/* Kernel slots only: the new key and its access. */
			w->rkey = reg_wr(wr)->key;
			w->compare_add = reg_wr(wr)->access;
			w->num_sge = 0;
		}
		mrc_sges_from_ib((struct mrc_sge *)(w + 1), wr->sg_list,
				 wr->num_sge);
		/* Publish the WQE written above. */
		smp_store_release(&ctrl->prod, prod + 1);
	}
	spin_unlock_irqrestore(&qp->post_lock, flags);
	if (err)
		*bad_wr = wr;
	/* Kernel callers may post in any context, even with IRQs off. */
	mrc_req_doorbell(qp, false);
	return err;
}

/**
 * mrc_post_recv() - ib_device_ops.post_recv, for in-kernel consumers
 * @ibqp: the QP
 * @wr: receive requests
 * @bad_wr: first request not posted
 *
 * Return: 0 or a negative errno.
 */
int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	struct mrc_ring_ctrl *ctrl = qp->rq.ctrl;
	unsigned long flags;
	int err = 0;

	if (qp->srq || qp->is_user) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->post_lock, flags);
	for (; wr; wr = wr->next) {
		u32 prod = ctrl->prod;
		struct mrc_recv_wqe *w;

		if (wr->num_sge > qp->rq_max_sge) {
			err = -EINVAL;
			break;
		}
		if (prod - READ_ONCE(ctrl->cons) >= mrc_ring_num_slots(&qp->rq)) {
			err = -ENOMEM;
			break;
		}
		w = mrc_ring_slot(&qp->rq, prod);
		w->wr_id = wr->wr_id;
		w->num_sge = wr->num_sge;
		mrc_sges_from_ib((struct mrc_sge *)(w + 1), wr->sg_list,
				 wr->num_sge);
		/* Publish the WQE written above. */
		smp_store_release(&ctrl->prod, prod + 1);
	}
	spin_unlock_irqrestore(&qp->post_lock, flags);
	if (err)
		*bad_wr = wr;
	/*
	 * A QP in the error state flushes what is posted, and ib_drain_rq()
	 * waits for that: nothing else would run the flush.
	 */
	if (READ_ONCE(qp->state) == IB_QPS_ERR)
		mrc_req_kick(qp);
	return err;
}
