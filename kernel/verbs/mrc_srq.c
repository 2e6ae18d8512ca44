// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared receive queues: a ring of receive WQEs several QPs consume.
 */
#include "verbs/mrc_verbs.h"
#include "engine/mrc_obj.h"
#include "engine/mrc_qp.h"

static u32 mrc_recv_slot_size(u32 max_sge)
{
	return sizeof(struct mrc_recv_wqe) + max_sge * sizeof(struct mrc_sge);
}

/**
 * mrc_create_srq() - ib_device_ops.create_srq
 * @ibsrq: core-allocated SRQ
 * @init: requested attributes
 * @udata: user data; NULL for kernel consumers
 *
 * Return: 0 or a negative errno.
 */
int mrc_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);
	struct ib_ucontext *uctx = mrc_udata_ucontext(udata);
	struct mrc_create_srq_resp resp = {};
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!init->attr.max_wr || init->attr.max_wr > MRC_MAX_QP_WR ||
	    !init->attr.max_sge || init->attr.max_sge > MRC_MAX_SGE)
		return -EINVAL;
	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	/* No driver input is defined yet: only zeros, so it can get one. */
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;

	spin_lock_init(&srq->lock);
	srq->max_sge = init->attr.max_sge;
	srq->limit = init->attr.srq_limit;
	err = mrc_ring_init(&srq->ring, init->attr.max_wr + 1,
			    mrc_recv_slot_size(srq->max_sge), uctx, &resp.ring);
	if (err)
		return err;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err) {
			mrc_ring_destroy(&srq->ring);
			return err;
		}
	}
	init->attr.max_wr = mrc_ring_num_slots(&srq->ring) - 1;
	return 0;
}

/**
 * mrc_modify_srq() - ib_device_ops.modify_srq: arm the limit event
 * @ibsrq: the SRQ
 * @attr: new attributes
 * @mask: IB_SRQ_LIMIT is supported; resizing is not
 * @udata: unused
 *
 * Return: 0 or a negative errno.
 */
int mrc_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);

	if (mask & IB_SRQ_MAX_WR)
		return -EOPNOTSUPP;
	if (mask & IB_SRQ_LIMIT) {
		if (attr->srq_limit >= mrc_ring_num_slots(&srq->ring))
			return -EINVAL;
		spin_lock_bh(&srq->lock);
		srq->limit = attr->srq_limit;
		spin_unlock_bh(&srq->lock);
	}
	return 0;
}

/**
 * mrc_query_srq() - ib_device_ops.query_srq
 * @ibsrq: the SRQ
 * @attr: filled in
 *
 * Return: 0.
 */
int mrc_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);

	attr->max_wr = mrc_ring_num_slots(&srq->ring) - 1;
	attr->max_sge = srq->max_sge;
	attr->srq_limit = srq->limit;
	return 0;
}

/**
 * mrc_destroy_srq() - ib_device_ops.destroy_srq
 * @ibsrq: the SRQ; no QP uses it any more
 * @udata: unused
 *
 * Return: 0.
 */
int mrc_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	mrc_ring_destroy(&to_mrc_srq(ibsrq)->ring);
	return 0;
}

/**
 * mrc_post_srq_recv() - ib_device_ops.post_srq_recv, for kernel users
 * @ibsrq: the SRQ
 * @wr: receive requests
 * @bad_wr: set to the first request not posted
 *
 * Return: 0 or a negative errno.
 */
int mrc_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct mrc_srq *srq = to_mrc_srq(ibsrq);
	struct mrc_ring_ctrl *ctrl = srq->ring.ctrl;
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		u32 prod = ctrl->prod;
		struct mrc_recv_wqe *wqe;

		if (wr->num_sge > srq->max_sge) {
			err = -EINVAL;
			break;
		}
		if (prod - READ_ONCE(ctrl->cons) >= mrc_ring_num_slots(&srq->ring)) {
			err = -ENOMEM;
			break;
		}
		wqe = mrc_ring_slot(&srq->ring, prod);
		wqe->wr_id = wr->wr_id;
		wqe->num_sge = wr->num_sge;
		wqe->reserved = 0;
		mrc_sges_from_ib((struct mrc_sge *)(wqe + 1), wr->sg_list,
				 wr->num_sge);
		/* Publish the WQE written above. */
		smp_store_release(&ctrl->prod, prod + 1);
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	if (err)
		*bad_wr = wr;
	return err;
}
