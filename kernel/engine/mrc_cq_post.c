// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Completion delivery: the engine writes a completion into its CQ's ring
 * and raises the armed event; a full CQ puts the CQ and the QP in the
 * error state. Creating, resizing and polling CQs is verbs/mrc_cq.c.
 */
#include "engine/mrc_obj.h"
#include "engine/mrc_qp.h"

/*
 * The ring has one slot more than the CQ's depth (ibcq.cqe) but holds at
 * most ibcq.cqe completions, so that the depth userspace was given is the
 * exact point of overflow.
 */
static bool mrc_cq_full(struct mrc_cq *cq)
{
	return mrc_cq_pending(cq) >= cq->ibcq.cqe;
}

/*
 * A completion found the CQ full, or already in the error state. Nothing is
 * written, so the completions queued stay intact and in order. The first
 * overflow puts the CQ in the error state for good, raises IB_EVENT_CQ_ERR
 * and flags the ring (MRC_RING_F_CQ_OVERFLOW) so that a user poller, once
 * it has drained what is queued, gets an error rather than an empty CQ
 * forever. Each QP that then has a completion for it goes to the error
 * state (IB_EVENT_QP_FATAL, IB's local work queue catastrophic error): its
 * work requests can no longer be accounted for.
 */
static void mrc_cq_overflow(struct mrc_cq *cq, struct ib_qp *qp, bool first,
			    u32 pending)
{
	struct ib_event ev = {
		.device = cq->ibcq.device,
		.element.cq = &cq->ibcq,
		.event = IB_EVENT_CQ_ERR,
	};

	if (first) {
		ibdev_warn_ratelimited(cq->ibcq.device,
				       "cq %u overflowed (depth %d, %u unpolled, qp %u): completions to it are dropped\n",
				       cq->ibcq.res.id, cq->ibcq.cqe, pending,
				       qp->qp_num);
		if (cq->ibcq.event_handler)
			cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
	}
	mrc_qp_error_locked(to_mrc_qp(qp));
}

/**
 * mrc_cq_post() - add a completion and raise the armed event
 * @cq: the CQ
 * @cqe: the completion
 * @qp: the QP it belongs to, with its lock held
 * @solicited: the completion answers a solicited request
 *
 * Return: 0, or -ENOSPC when the CQ overflowed or had overflowed before:
 * the completion is lost and @qp is in the error state.
 */
int mrc_cq_post(struct mrc_cq *cq, const struct mrc_cqe *cqe,
		struct ib_qp *qp, bool solicited)
{
	unsigned long flags;
	bool notify = false;
	struct mrc_kcqe *slot;
	bool first;
	u32 pending;

	lockdep_assert_held(&to_mrc_qp(qp)->lock);
	spin_lock_irqsave(&cq->lock, flags);
	if (cq->overflowed || mrc_cq_full(cq)) {
		first = !cq->overflowed;
		cq->overflowed = true;
		/* Ordered after every completion produced before it. */
		smp_store_release(&cq->ring.ctrl->flags, MRC_RING_F_CQ_OVERFLOW);
		pending = mrc_cq_pending(cq);
		spin_unlock_irqrestore(&cq->lock, flags);
		mrc_cq_overflow(cq, qp, first, pending);
		return -ENOSPC;
	}
	slot = mrc_ring_slot(&cq->ring, cq->ring.own);
	memcpy(&slot->cqe, cqe, sizeof(*cqe));
	if (!cq->is_user)
		slot->qp = qp;
	mrc_ring_produce(&cq->ring);

	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED && solicited)) {
		cq->notify = 0;
		notify = true;
	}
	spin_unlock_irqrestore(&cq->lock, flags);

	if (notify && cq->ibcq.comp_handler)
		cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	return 0;
}
