// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion queues: a ring of struct mrc_cqe that the engine fills and a
 * process (through the provider) or an in-kernel consumer drains.
 */
#include <linux/slab.h>

#include "verbs/mrc_verbs.h"
#include "engine/mrc_obj.h"
#include "engine/mrc_qp.h"

/*
 * The uAPI layout, pinned: mrc-abi.h uses only fixed-width, explicitly
 * padded fields, so 32- and 64-bit programs see these same sizes.
 */
static_assert(sizeof(struct mrc_ring_ctrl) == MRC_RING_SLOTS_OFFSET);
static_assert(offsetof(struct mrc_ring_ctrl, cons) == 64);
static_assert(sizeof(struct mrc_ring_info) == 24);
static_assert(sizeof(struct mrc_sge) == 16);
static_assert(sizeof(struct mrc_send_wqe) == 64);
static_assert(sizeof(struct mrc_recv_wqe) == 16);
static_assert(sizeof(struct mrc_cqe) == 48);
static_assert(sizeof(struct mrc_create_cq_resp) == 24);
static_assert(sizeof(struct mrc_create_qp_resp) == 48);
static_assert(sizeof(struct mrc_create_srq_resp) == 24);
static_assert(sizeof(struct mrc_resize_cq_cmd) == 8);
static_assert(sizeof(struct mrc_qp_profile_cmd) == 24);

static u32 mrc_cq_slot_size(bool is_user)
{
	return is_user ? sizeof(struct mrc_cqe) : sizeof(struct mrc_kcqe);
}

static int mrc_cq_copy_resp(struct ib_udata *udata,
			    const struct mrc_ring_info *info)
{
	struct mrc_create_cq_resp resp = { .ring = *info };

	if (udata->outlen < sizeof(resp))
		return -EINVAL;
	return ib_copy_to_udata(udata, &resp, sizeof(resp));
}

/**
 * mrc_create_cq() - ib_device_ops.create_cq
 * @ibcq: core-allocated CQ
 * @attr: requested size, vector, flags
 * @udata: user data; NULL for kernel consumers
 *
 * Return: 0 or a negative errno.
 */
int mrc_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	struct ib_ucontext *uctx = mrc_udata_ucontext(udata);
	struct mrc_ring_info info;
	int err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > MRC_MAX_CQE)
		return -EINVAL;
	if (attr->comp_vector >= ibcq->device->num_comp_vectors)
		return -EINVAL;
	/* No driver input is defined yet: only zeros, so it can get one. */
	if (udata && udata->inlen &&
	    !ib_is_udata_cleared(udata, 0, udata->inlen))
		return -EINVAL;

	spin_lock_init(&cq->lock);
	cq->is_user = !!udata;
	err = mrc_ring_init(&cq->ring, attr->cqe + 1, mrc_cq_slot_size(cq->is_user),
			    uctx, &info);
	if (err)
		return err;

	if (udata) {
		err = mrc_cq_copy_resp(udata, &info);
		if (err) {
			mrc_ring_destroy(&cq->ring);
			return err;
		}
	}
	ibcq->cqe = mrc_ring_num_slots(&cq->ring) - 1;
	return 0;
}

/**
 * mrc_destroy_cq() - ib_device_ops.destroy_cq
 * @ibcq: the CQ; no QP uses it any more
 * @udata: unused
 *
 * Return: 0.
 */
int mrc_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);

	/*
	 * A program whose device went away still polls the ring it maps
	 * (its pages outlive the destroy): tell it nothing more comes.
	 */
	if (cq->is_user) {
		u32 flags = READ_ONCE(cq->ring.ctrl->flags);

		/* Ordered after the last completion produced. */
		smp_store_release(&cq->ring.ctrl->flags,
				  flags | MRC_RING_F_CQ_GONE);
	}
	if (cq->next.ctrl)
		mrc_ring_destroy(&cq->next);
	mrc_ring_destroy(&cq->ring);
	return 0;
}

/*
 * Move the queued completions, in order, to the front of @new_ring and make
 * it the CQ's ring; the old ring is destroyed. On failure @new_ring is.
 */
static int mrc_cq_switch(struct mrc_cq *cq, struct mrc_ring *new_ring,
			 int cqe)
{
	struct mrc_ring old_ring;
	u32 pending, cons, i;

	spin_lock_irq(&cq->lock);
	pending = mrc_cq_pending(cq);
	if (pending > (u32)cqe) {
		spin_unlock_irq(&cq->lock);
		ibdev_dbg(cq->ibcq.device, "cq %u: cannot resize to %d, %u completions queued\n",
			  cq->ibcq.res.id, cqe, pending);
		mrc_ring_destroy(new_ring);
		return -EINVAL;
	}
	cons = cq->ring.own - pending;
	for (i = 0; i < pending; i++) {
		memcpy(mrc_ring_slot(new_ring, i),
		       mrc_ring_slot(&cq->ring, cons + i), cq->ring.slot_size);
		mrc_ring_produce(new_ring);
	}
	/* An overflowed CQ stays in error; ordered after the moved CQEs. */
	smp_store_release(&new_ring->ctrl->flags,
			  cq->overflowed ? MRC_RING_F_CQ_OVERFLOW : 0);
	old_ring = cq->ring;
	cq->ring = *new_ring;
	cq->ibcq.cqe = mrc_ring_num_slots(&cq->ring) - 1;
	spin_unlock_irq(&cq->lock);

	mrc_ring_destroy(&old_ring);
	return 0;
}

/* The MRC_RESIZE_CQ_* flags of a resize command; 0 without driver input. */
static int mrc_cq_resize_flags(struct ib_udata *udata, u32 *flags)
{
	struct mrc_resize_cq_cmd cmd = {};
	size_t len;

	*flags = 0;
	if (!udata || !udata->inlen)
		return 0;
	len = min_t(size_t, udata->inlen, sizeof(cmd));
	if (ib_copy_from_udata(&cmd, udata, len))
		return -EFAULT;
	if (udata->inlen > sizeof(cmd) &&
	    !ib_is_udata_cleared(udata, sizeof(cmd), udata->inlen - sizeof(cmd)))
		return -EINVAL;
	if (cmd.reserved || (cmd.flags & ~MRC_RESIZE_CQ_FLAGS) ||
	    cmd.flags == MRC_RESIZE_CQ_FLAGS)
		return -EINVAL;
	*flags = cmd.flags;
	return 0;
}

/* Keep @ring as the CQ's prepared ring, dropping an older one. */
static void mrc_cq_keep_prepared(struct mrc_cq *cq, struct mrc_ring *ring,
				 const struct mrc_ring_info *info, int cqe)
{
	struct mrc_ring old;

	spin_lock_irq(&cq->lock);
	old = cq->next;
	cq->next = *ring;
	cq->next_info = *info;
	cq->next_cqe = cqe;
	spin_unlock_irq(&cq->lock);
	if (old.ctrl)
		mrc_ring_destroy(&old);
}

/* Second step: switch to the ring the first step prepared for @cqe. */
static int mrc_cq_commit(struct mrc_cq *cq, int cqe, struct ib_udata *udata)
{
	struct mrc_ring_info info;
	struct mrc_ring ring;
	int err;

	spin_lock_irq(&cq->lock);
	if (!cq->next.ctrl || cq->next_cqe != cqe) {
		spin_unlock_irq(&cq->lock);
		return -EINVAL;
	}
	ring = cq->next;
	info = cq->next_info;
	memset(&cq->next, 0, sizeof(cq->next));
	spin_unlock_irq(&cq->lock);

	err = mrc_cq_copy_resp(udata, &info);
	if (err) {
		mrc_ring_destroy(&ring);
		return err;
	}
	return mrc_cq_switch(cq, &ring, cqe);
}

/**
 * mrc_resize_cq() - ib_device_ops.resize_cq
 * @ibcq: the CQ
 * @cqe: new minimum capacity
 * @udata: user data; the response names the new ring to map
 *
 * Pending completions move, in order, to the front of a new ring; the
 * caller unmaps the old one. An overflowed CQ stays in the error state.
 * A provider may split this in two (struct mrc_resize_cq_cmd): prepare
 * the new ring, map it, then commit, so that a failed mmap leaves the CQ
 * on its old ring.
 *
 * Return: 0 or a negative errno: -EINVAL when @cqe is out of range or
 * below the number of completions queued, with the CQ left as it was.
 */
int mrc_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	struct ib_ucontext *uctx = mrc_udata_ucontext(udata);
	struct mrc_ring_info info;
	struct mrc_ring new_ring;
	u32 flags;
	int err;

	if (cqe < 1 || cqe > MRC_MAX_CQE)
		return -EINVAL;
	err = mrc_cq_resize_flags(udata, &flags);
	if (err)
		return err;
	if (flags & MRC_RESIZE_CQ_COMMIT)
		return mrc_cq_commit(cq, cqe, udata);

	err = mrc_ring_init(&new_ring, cqe + 1, cq->ring.slot_size, uctx, &info);
	if (err)
		return err;
	if (flags & MRC_RESIZE_CQ_PREPARE)
		info.flags = MRC_RING_INFO_F_PREPARED;
	if (udata) {
		err = mrc_cq_copy_resp(udata, &info);
		if (err) {
			mrc_ring_destroy(&new_ring);
			return err;
		}
	}
	if (flags & MRC_RESIZE_CQ_PREPARE) {
		mrc_cq_keep_prepared(cq, &new_ring, &info, cqe);
		return 0;
	}
	return mrc_cq_switch(cq, &new_ring, cqe);
}

static void mrc_cqe_to_wc(const struct mrc_kcqe *k, struct ib_wc *wc)
{
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = k->cqe.wr_id;
	wc->status = k->cqe.status;
	wc->opcode = k->cqe.opcode;
	wc->vendor_err = k->cqe.vendor_err;
	wc->byte_len = k->cqe.byte_len;
	wc->ex.imm_data = (__force __be32)k->cqe.imm_data;
	wc->qp = k->qp;
	wc->src_qp = k->cqe.src_qp;
	/* Shared bits: GRH and immediate; the invalidation bit differs. */
	wc->wc_flags = k->cqe.wc_flags & (IB_WC_GRH | IB_WC_WITH_IMM);
	if (k->cqe.wc_flags & MRC_WC_WITH_INV) {
		wc->wc_flags |= IB_WC_WITH_INVALIDATE;
		wc->ex.invalidate_rkey = k->cqe.imm_data;
	}
	if (k->cqe.wc_flags & IB_WC_GRH) {
		wc->network_hdr_type = k->cqe.network_hdr_type;
		wc->wc_flags |= IB_WC_WITH_NETWORK_HDR_TYPE;
	}
	wc->port_num = MRC_PORT_NUM;
}

/**
 * mrc_poll_cq() - ib_device_ops.poll_cq, for in-kernel consumers
 * @ibcq: the CQ
 * @num_entries: room at @wc
 * @wc: completions out
 *
 * Return: completions returned.
 */
int mrc_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	unsigned long flags;
	int n = 0;
	u32 cons;

	if (cq->is_user)
		return 0;
	spin_lock_irqsave(&cq->lock, flags);
	cons = cq->ring.ctrl->cons;
	while (n < num_entries && cons != cq->ring.own) {
		mrc_cqe_to_wc(mrc_ring_slot(&cq->ring, cons), &wc[n]);
		cons++;
		n++;
	}
	/* Slots read above may be reused once cons moves. */
	smp_store_release(&cq->ring.ctrl->cons, cons);
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/**
 * mrc_req_notify_cq() - ib_device_ops.req_notify_cq
 * @ibcq: the CQ
 * @flags: IB_CQ_SOLICITED or IB_CQ_NEXT_COMP, maybe IB_CQ_REPORT_MISSED_EVENTS
 *
 * Return: 1 when missed events were asked for and completions are
 * pending, else 0.
 */
int mrc_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct mrc_cq *cq = to_mrc_cq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* NEXT_COMP includes solicited completions: never downgrade it. */
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && mrc_cq_pending(cq))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}
