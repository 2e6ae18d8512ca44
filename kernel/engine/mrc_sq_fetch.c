// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The kernel's copy of a send WQE: one SQ slot, the program's memory,
 * copied once and checked before anything acts on it.
 */
#include "engine/mrc_qp.h"

static bool mrc_op_consumes_rwqe(u32 opcode)
{
	return opcode == IB_WR_SEND || opcode == IB_WR_SEND_WITH_IMM ||
	       opcode == IB_WR_SEND_WITH_INV ||
	       opcode == IB_WR_RDMA_WRITE_WITH_IMM;
}

/*
 * A local operation: a slot with no SGE and no inline data. REG_MR only
 * from a kernel QP, since it names a kernel MR, which a program's slot
 * could otherwise reach by guessing its index; BIND_MW only from a
 * program's RC QP, as only programs allocate memory windows and RC is
 * the one type that runs local operations (mrc_req.c).
 */
static int mrc_sq_fetch_local(struct mrc_qp *qp, struct mrc_swqe *w)
{
	if (w->wqe.opcode == IB_WR_REG_MR && qp->is_user)
		return IB_WC_LOC_QP_OP_ERR;
	if (w->wqe.opcode == IB_WR_BIND_MW &&
	    (!qp->is_user || qp->ibqp.qp_type != IB_QPT_RC))
		return IB_WC_LOC_QP_OP_ERR;
	if (w->wqe.num_sge || w->wqe.inline_len ||
	    (w->wqe.send_flags & IB_SEND_INLINE))
		return IB_WC_LOC_QP_OP_ERR;
	w->npkts = 0;
	w->rsn = qp->req.next_rsn;
	w->status = IB_WC_SUCCESS;
	return IB_WC_SUCCESS;
}

/**
 * mrc_sq_fetch() - copy and check one SQ slot
 * @qp: the QP, with @qp->lock held
 * @idx: the slot's index
 *
 * Into @qp->req.swqe, its SGEs or inline data into @qp->req.swqe_data: nothing
 * is read from the ring after this. The requester fetches RC slots, and
 * mrc_ud.c datagram ones, which then carry only SENDs.
 *
 * Return: an IB_WC_* status.
 */
int mrc_sq_fetch(struct mrc_qp *qp, u32 idx)
{
	struct mrc_swqe *w = &qp->req.swqe[idx & qp->sq.mask];
	const struct mrc_send_wqe *slot = mrc_ring_slot(&qp->sq, idx);
	u8 *data = qp->req.swqe_data + (size_t)(idx & qp->sq.mask) * qp->req.swqe_data_size;
	u64 total = 0;
	u32 i;

	memset(w, 0, sizeof(*w));
	memcpy(&w->wqe, slot, sizeof(w->wqe));
	switch (w->wqe.opcode) {
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
	case IB_WR_SEND_WITH_INV:
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
	case IB_WR_LOCAL_INV:
	case IB_WR_REG_MR:
	case IB_WR_BIND_MW:
		break;
	default:
		return IB_WC_LOC_QP_OP_ERR;
	}
	/* Unknown bits and reserved fields stay free for a later meaning. */
	if ((w->wqe.send_flags & ~MRC_SEND_FLAGS_KNOWN) || w->wqe.reserved0 ||
	    w->wqe.reserved1)
		return IB_WC_LOC_QP_OP_ERR;
	if (mrc_op_is_local(w->wqe.opcode))
		return mrc_sq_fetch_local(qp, w);

	if (w->wqe.send_flags & IB_SEND_INLINE) {
		if (w->wqe.inline_len > qp->sq_max_inline || w->wqe.num_sge ||
		    mrc_op_is_read_atomic(w->wqe.opcode))
			return IB_WC_LOC_LEN_ERR;
		memcpy(data, slot + 1, w->wqe.inline_len);
		w->inline_data = data;
		total = w->wqe.inline_len;
	} else {
		if (w->wqe.num_sge > qp->sq_max_sge || w->wqe.inline_len)
			return IB_WC_LOC_LEN_ERR;
		memcpy(data, slot + 1, w->wqe.num_sge * sizeof(struct mrc_sge));
		w->sge = (struct mrc_sge *)data;
		for (i = 0; i < w->wqe.num_sge; i++)
			total += w->sge[i].length;
	}
	if (total > MRC_MAX_MSG_LEN)
		return IB_WC_LOC_LEN_ERR;
	w->length = total;

	if (w->wqe.opcode == IB_WR_ATOMIC_CMP_AND_SWP ||
	    w->wqe.opcode == IB_WR_ATOMIC_FETCH_AND_ADD) {
		if (w->wqe.num_sge != 1 || total != 8 || (w->wqe.remote_addr & 7))
			return IB_WC_LOC_LEN_ERR;
		w->npkts = 1;
	} else {
		w->npkts = max_t(u32, 1, DIV_ROUND_UP(total,
						      mrc_swqe_seg(qp, w)));
	}
	w->rsn = qp->req.next_rsn;
	if (mrc_op_consumes_rwqe(w->wqe.opcode))
		qp->req.next_rsn++;
	w->status = IB_WC_SUCCESS;
	return IB_WC_SUCCESS;
}
