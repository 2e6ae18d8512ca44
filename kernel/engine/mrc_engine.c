// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the layers above, and every part of the engine, use to reach a QP:
 * the requester's workqueue and kick, the receive path's QP lookup, and
 * the move to the error state. It calls nothing else in the engine, so
 * any engine file may use it without making a loop.
 */
#include "engine/mrc_qp.h"

/*
 * The requester's work items (doorbells rung away from home, timeouts,
 * acknowledgments, errors), each run on its QP's home CPU. High
 * priority: a user polling its CQ in a loop would otherwise share the
 * CPU evenly with the worker that feeds it.
 */
static struct workqueue_struct *mrc_wq;

/**
 * mrc_req_kick() - have the requester look at the QP soon, at home
 * @qp: the QP
 *
 * A home CPU gone offline gives way to this one until a doorbell moves
 * the home (a work item queued just before the CPU went still runs).
 */
void mrc_req_kick(struct mrc_qp *qp)
{
	int cpu = mrc_home_cpu(&qp->home);

	if (cpu_online(cpu))
		queue_work_on(cpu, mrc_wq, &qp->req.work);
	else
		queue_work(mrc_wq, &qp->req.work);
}

/**
 * mrc_qp_handle_alloc() - give a new QP its handle, with its own reference
 * @qp: the QP
 *
 * Return: 0 or -ENOMEM.
 */
int mrc_qp_handle_alloc(struct mrc_qp *qp)
{
	qp->handle = kzalloc(sizeof(*qp->handle), GFP_KERNEL_ACCOUNT);
	if (!qp->handle)
		return -ENOMEM;
	refcount_set(&qp->handle->ref, 1);
	qp->handle->qp = qp;
	return 0;
}

/**
 * mrc_qp_handle_free() - let a freed QP's handle go after a grace period
 * @qp: the QP, no longer in the QP table nor reachable from its packets
 */
void mrc_qp_handle_free(struct mrc_qp *qp)
{
	if (qp->handle)
		kfree_rcu(qp->handle, rcu);
}

/**
 * mrc_qp_handle_get() - the QP of a handle found under RCU
 * @h: the handle
 *
 * Return: the QP with a reference (mrc_qp_put() it), or NULL when it is
 * being destroyed.
 */
struct mrc_qp *mrc_qp_handle_get(struct mrc_qp_handle *h)
{
	return refcount_inc_not_zero(&h->ref) ? h->qp : NULL;
}

/**
 * mrc_qp_get() - look up a QP for the receive path
 * @mdev: the device
 * @qpn: destination QPN from a packet, untrusted
 *
 * Return: the QP with a reference (mrc_qp_put() it), or NULL.
 */
struct mrc_qp *mrc_qp_get(struct mrc_dev *mdev, u32 qpn)
{
	struct mrc_qp_handle *h;
	struct mrc_qp *qp = NULL;

	rcu_read_lock();
	h = xa_load(&mdev->qp_xa, qpn);
	if (h)
		qp = mrc_qp_handle_get(h);
	rcu_read_unlock();
	return qp;
}

/**
 * mrc_qp_put() - drop a reference from mrc_qp_get()
 * @qp: the QP
 */
void mrc_qp_put(struct mrc_qp *qp)
{
	if (refcount_dec_and_test(&qp->handle->ref))
		complete(&qp->done);
}

/**
 * mrc_qp_error_locked() - move the QP to the error state
 * @qp: the QP, with @qp->lock held
 *
 * The requester work flushes outstanding work requests.
 */
void mrc_qp_error_locked(struct mrc_qp *qp)
{
	struct ib_event ev = {
		.device = qp->ibqp.device,
		.element.qp = &qp->ibqp,
		.event = IB_EVENT_QP_FATAL,
	};

	if (qp->state == IB_QPS_ERR || qp->state == IB_QPS_RESET)
		return;
	qp->state = IB_QPS_ERR;
	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	mrc_req_kick(qp);
}

/**
 * mrc_engine_init() - create what the engine needs before any device
 *
 * Return: 0 or -ENOMEM.
 */
int mrc_engine_init(void)
{
	/* Storage protocols over MRC may be what memory reclaim waits on. */
	mrc_wq = alloc_workqueue("mrc", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	return mrc_wq ? 0 : -ENOMEM;
}

/**
 * mrc_engine_exit() - undo mrc_engine_init() once no QP is left
 */
void mrc_engine_exit(void)
{
	destroy_workqueue(mrc_wq);
}
