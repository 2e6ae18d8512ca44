// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * RC queue pairs: creation, the IB state machine (modify/query), and
 * destruction. The data path lives in mrc_req.c and mrc_resp.c.
 */
#include <linux/cred.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>

#include "verbs/mrc_verbs.h"
#include "ctl/mrc_ctl.h"
#include "engine/mrc_qp.h"
#include "engine/mrc_tx_acct.h"
#include "core/mrc_link_params.h"

static u32 mrc_sq_data_size(u32 max_sge, u32 max_inline)
{
	return max_t(u32, max_sge * sizeof(struct mrc_sge), max_inline);
}

static int mrc_qp_check_cap(const struct ib_qp_init_attr *init)
{
	const struct ib_qp_cap *cap = &init->cap;

	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UC &&
	    init->qp_type != IB_QPT_UD && init->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	if (init->create_flags)
		return -EOPNOTSUPP;
	/* Any but QP1, whose receives are the MAD layer's, may use an SRQ. */
	if (init->srq && init->qp_type == IB_QPT_GSI)
		return -EOPNOTSUPP;
	if (!init->send_cq || !init->recv_cq)
		return -EINVAL;
	/* Zero depths are send-only or receive-only QPs: allowed. */
	if (cap->max_send_wr > MRC_MAX_QP_WR || cap->max_send_sge > MRC_MAX_SGE ||
	    cap->max_inline_data > MRC_MAX_INLINE)
		return -EINVAL;
	if (!init->srq && (cap->max_recv_wr > MRC_MAX_QP_WR ||
			   cap->max_recv_sge > MRC_MAX_SGE))
		return -EINVAL;
	return 0;
}

static int mrc_qp_alloc_queues(struct mrc_qp *qp, struct ib_qp_init_attr *init,
			       struct ib_ucontext *uctx,
			       struct mrc_create_qp_resp *resp)
{
	struct ib_qp_cap *cap = &init->cap;
	u32 slots;
	int err;

	qp->sq_max_inline = cap->max_inline_data;
	/*
	 * A queue asked for with depth 0 still gets a ring of one slot, and
	 * reports it: caps are rounded up, as a send-only or receive-only
	 * QP's consumer expects, and every QP keeps the same rings.
	 */
	err = mrc_ring_init(&qp->sq, max(cap->max_send_wr, 1U),
			    sizeof(struct mrc_send_wqe) +
			    mrc_sq_data_size(max_t(u32, cap->max_send_sge, 1),
					     qp->sq_max_inline),
			    uctx, &resp->sq);
	if (err)
		return err;
	slots = mrc_ring_num_slots(&qp->sq);
	cap->max_send_wr = slots;
	/*
	 * Grant the SGEs that fill the 64-byte-rounded slot, and size the
	 * kernel's copy of each slot for exactly what is granted: a WQE
	 * that uses the reported cap must fit there.
	 */
	cap->max_send_sge = (qp->sq.slot_size - sizeof(struct mrc_send_wqe)) /
			    sizeof(struct mrc_sge);
	cap->max_send_sge = min_t(u32, cap->max_send_sge, MRC_MAX_SGE);
	qp->sq_max_sge = cap->max_send_sge;
	qp->req.swqe_data_size = mrc_sq_data_size(qp->sq_max_sge, qp->sq_max_inline);

	qp->req.swqe = kvcalloc(slots, sizeof(*qp->req.swqe), GFP_KERNEL_ACCOUNT);
	qp->req.swqe_data = kvcalloc(slots, qp->req.swqe_data_size,
				     GFP_KERNEL_ACCOUNT);
	if (!qp->req.swqe || !qp->req.swqe_data)
		return -ENOMEM;

	if (init->srq) {
		qp->srq = to_mrc_srq(init->srq);
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
		return 0;
	}
	qp->rq_max_sge = max_t(u32, cap->max_recv_sge, 1);
	err = mrc_ring_init(&qp->rq, max(cap->max_recv_wr, 1U),
			    sizeof(struct mrc_recv_wqe) +
			    qp->rq_max_sge * sizeof(struct mrc_sge),
			    uctx, &resp->rq);
	if (err)
		return err;
	cap->max_recv_wr = mrc_ring_num_slots(&qp->rq);
	cap->max_recv_sge = qp->rq_max_sge;
	return 0;
}

static int mrc_qp_alloc_windows(struct mrc_qp *qp)
{
	u32 nmsg = MRC_QP_WINDOW;
	int err;

	/* Messages in progress: no more than WQEs posted (mrc_resp.h). */
	if (!qp->srq) {
		u32 slots = max_t(u32, mrc_ring_num_slots(&qp->rq), 1);

		nmsg = min_t(u32, nmsg, roundup_pow_of_two(slots));
	}
	qp->req.psn_wqe = kvcalloc(MRC_QP_WINDOW, sizeof(*qp->req.psn_wqe),
				   GFP_KERNEL_ACCOUNT);
	qp->resp.rmsg = kvcalloc(nmsg, sizeof(*qp->resp.rmsg),
				 GFP_KERNEL_ACCOUNT);
	qp->resp.rmsg_mask = nmsg - 1;
	qp->req.rd_got = bitmap_zalloc(MRC_QP_WINDOW, GFP_KERNEL_ACCOUNT);
	if (!qp->req.psn_wqe || !qp->resp.rmsg || !qp->req.rd_got)
		return -ENOMEM;
	if (qp->srq) {
		qp->resp.rmsg_sge = kvcalloc(MRC_QP_WINDOW * qp->srq->max_sge,
					     sizeof(*qp->resp.rmsg_sge),
					     GFP_KERNEL_ACCOUNT);
		if (!qp->resp.rmsg_sge)
			return -ENOMEM;
	}
	err = mrc_txwin_init(&qp->req.txwin, 0, MRC_QP_WINDOW);
	if (err)
		return err;
	mrc_loss_undo_init(&qp->req.undo);
	err = mrc_rxwin_init(&qp->resp.rxwin, 0, MRC_QP_WINDOW);
	if (err)
		return err;
	return mrc_rto_init(&qp->req.rto, 0, 7);
}

/* Undo create; safe on a partially built QP (zeroed by the core). */
static void mrc_qp_free(struct mrc_qp *qp)
{
	struct mrc_ev_table evs;

	/* First, so that no DENY is pushed into EVs about to go. */
	mrc_ctl_qp_unbind(qp->mdev, qp);
	/*
	 * Shut down, not deleted: the work below cannot re-arm them. The
	 * hrtimers have no shutdown: a loss timer running now blames an EV
	 * and may start the probe timer, and a requester run starts the
	 * loss timer; timers_off stops both before the cancels.
	 */
	spin_lock_bh(&qp->lock);
	qp->timers_off = true;
	spin_unlock_bh(&qp->lock);
	timer_shutdown_sync(&qp->req.rto_timer);
	timer_shutdown_sync(&qp->resp.dack.timer);
	hrtimer_cancel(&qp->mp.probe_timer);
	hrtimer_cancel(&qp->req.loss_timer);
	hrtimer_cancel(&qp->req.rnr_timer);
	cancel_work_sync(&qp->req.work);
	skb_queue_purge(&qp->txq);
	/* No queued packet points at a route any more. */
	mrc_srv6_routes_put(qp->mp.srv6);
	qp->mp.srv6 = NULL;
	mrc_tx_acct_put(qp->tx_acct);
	if (qp->tx_frag.page)
		put_page(qp->tx_frag.page);
	if (qp->resp.rxwin.map)
		mrc_rxwin_destroy(&qp->resp.rxwin);
	if (qp->req.txwin.ent)
		mrc_txwin_destroy(&qp->req.txwin);
	/* `rdma res show qp` reads the table under the lock until we go. */
	spin_lock_bh(&qp->lock);
	evs = qp->mp.evs;
	memset(&qp->mp.evs, 0, sizeof(qp->mp.evs));
	spin_unlock_bh(&qp->lock);
	mrc_ev_destroy(&evs);
	/* A received train lets its MR go before its QP. */
	if (WARN_ON_ONCE(qp->resp.train_mr))
		mrc_mr_put(qp->resp.train_mr);
	kfree(qp->gsi);
	kfree(qp->uc);
	kvfree(qp->ud_ext);
	kvfree(qp->resp.rmsg_sge);
	bitmap_free(qp->req.rd_got);
	kvfree(qp->resp.rmsg);
	kvfree(qp->req.psn_wqe);
	kvfree(qp->req.swqe_data);
	kvfree(qp->req.swqe);
	if (qp->rq.ctrl)
		mrc_ring_destroy(&qp->rq);
	if (qp->sq.ctrl)
		mrc_ring_destroy(&qp->sq);
	mrc_qp_handle_free(qp);
}

/* The create command's driver input: the profiles to use, or nothing. */
static int mrc_qp_profile_cmd_get(struct ib_udata *udata,
				  struct mrc_qp_profile_cmd *pcmd)
{
	size_t len = min(udata->inlen, sizeof(*pcmd));
	int err;

	if (!udata->inlen)
		return 0;
	err = ib_copy_from_udata(pcmd, udata, len);
	if (err)
		return err;
	/* Anything past what we know must be zero, so it can get a meaning. */
	if (udata->inlen > sizeof(*pcmd) &&
	    !ib_is_udata_cleared(udata, sizeof(*pcmd),
				 udata->inlen - sizeof(*pcmd)))
		return -EINVAL;
	if ((pcmd->flags & ~MRC_QP_F_ALL) || pcmd->reserved)
		return -EINVAL;
	return 0;
}

/**
 * mrc_create_qp() - ib_device_ops.create_qp
 * @ibqp: core-allocated QP
 * @init: requested attributes; capabilities are updated to what we give
 * @udata: user data; the response names the rings to map
 *
 * Return: 0 or a negative errno.
 */
int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibqp->device);
	struct mrc_qp *qp = to_mrc_qp(ibqp);
	struct ib_ucontext *uctx = NULL;
	struct mrc_create_qp_resp resp = {};
	struct mrc_qp_profile_cmd pcmd = {};
	u32 qpn;
	int err;

	INIT_LIST_HEAD(&qp->ctl_node);
	err = mrc_qp_check_cap(init);
	if (err)
		return err;
	/* A program's QP1 is the MAD layer's, never its own. */
	if (init->qp_type == IB_QPT_GSI && udata)
		return -EOPNOTSUPP;
	if (udata) {
		if (udata->outlen < sizeof(resp))
			return -EINVAL;
		err = mrc_qp_profile_cmd_get(udata, &pcmd);
		if (err)
			return err;
		uctx = mrc_udata_ucontext(udata);
	}
	err = mrc_res_get(mdev, MRC_RES_QP);
	if (err)
		return err;

	qp->mdev = mdev;
	qp->type = init->qp_type;
	qp->is_user = !!udata;
	/* Whoever creates a user QP may read its per-path data (ctl/). */
	qp->owner = udata ? current_euid() : INVALID_UID;
	qp->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->state = IB_QPS_RESET;
	init_completion(&qp->done);
	spin_lock_init(&qp->lock);
	spin_lock_init(&qp->post_lock);
	mutex_init(&qp->modify_lock);
	skb_queue_head_init(&qp->txq);
	INIT_WORK(&qp->req.work, mrc_req_work);
	/* Until a poster moves it: the creator likely posts from here. */
	mrc_home_init(&qp->home, raw_smp_processor_id());
	timer_setup(&qp->req.rto_timer, mrc_rto_fire, 0);
	timer_setup(&qp->resp.dack.timer, mrc_dack_fire, 0);
	hrtimer_init(&qp->mp.probe_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	qp->mp.probe_timer.function = mrc_mp_probe_fire;
	hrtimer_init(&qp->req.loss_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	qp->req.loss_timer.function = mrc_loss_fire;
	hrtimer_init(&qp->req.rnr_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	qp->req.rnr_timer.function = mrc_req_rnr_fire;
	mrc_cwnd_default_params(&qp->req.cc.win_params);
	mrc_cc_restart(qp, 0);
	qp->path_mtu = IB_MTU_1024;

	qp->mtu = mrc_payload_mtu(READ_ONCE(mdev->ndev->mtu));
	qp->seg = qp->mtu;
	err = mrc_qp_handle_alloc(qp);
	if (err)
		goto err_free;
	qp->tx_acct = mrc_tx_acct_create(qp->handle);
	if (!qp->tx_acct) {
		err = -ENOMEM;
		goto err_free;
	}
	err = mrc_qp_alloc_queues(qp, init, uctx, &resp);
	if (!err)
		err = mrc_qp_alloc_windows(qp);
	if (!err)
		err = mrc_ctl_qp_bind(mdev, qp, &pcmd);
	/* A program's UD slot names its AH itself (struct mrc_ud_dest). */
	if (!err && (qp->type == IB_QPT_UD || qp->type == IB_QPT_GSI) &&
	    !udata) {
		qp->ud_ext = kvcalloc(mrc_ring_num_slots(&qp->sq),
				      sizeof(*qp->ud_ext), GFP_KERNEL_ACCOUNT);
		if (!qp->ud_ext)
			err = -ENOMEM;
	}
	if (!err && qp->type == IB_QPT_GSI)
		err = mrc_ud_gsi_alloc(qp);
	if (!err && qp->type == IB_QPT_UC)
		err = mrc_uc_alloc(qp);
	if (err)
		goto err_free;

	if (qp->type == IB_QPT_GSI) {
		qpn = 1;
		err = xa_insert(&mdev->qp_xa, qpn, qp->handle,
				GFP_KERNEL_ACCOUNT);
	} else {
		err = mrc_xa_insert_random(&mdev->qp_xa, qp->handle, MRC_MIN_QPN,
					   MRC_QPN_LIMIT, &qpn);
	}
	if (err < 0)
		goto err_free;
	ibqp->qp_num = qpn;

	if (udata) {
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			goto err_erase;
	}
	return 0;

err_erase:
	xa_erase(&mdev->qp_xa, qpn);
	mrc_tx_acct_detach(qp->tx_acct);
	/* A receive path may have found the QP meanwhile: let it finish. */
	mrc_qp_put(qp);
	wait_for_completion(&qp->done);
err_free:
	mrc_qp_free(qp);
	mrc_res_put(mdev, MRC_RES_QP);
	return err;
}

/**
 * mrc_destroy_qp() - ib_device_ops.destroy_qp
 * @ibqp: the QP
 * @udata: unused
 *
 * Return: 0.
 */
int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mrc_qp(ibqp);

	xa_erase(&qp->mdev->qp_xa, ibqp->qp_num);
	if (ibqp->qp_type == IB_QPT_RC)
		mrc_mw_qp_gone(qp->mdev, ibqp->qp_num);
	/*
	 * Packets in local queues may outlive the QP: they stop kicking it.
	 * What found the QP before holds a reference, waited for below, and
	 * what may still be about to take one finds it gone (its handle).
	 */
	mrc_tx_acct_detach(qp->tx_acct);
	spin_lock_bh(&qp->lock);
	/* The peer's last message is acknowledged even if we go at once. */
	mrc_dack_send_final(qp);
	spin_unlock_bh(&qp->lock);
	mrc_tx_flush_now(qp);
	spin_lock_bh(&qp->lock);
	qp->state = IB_QPS_RESET;
	spin_unlock_bh(&qp->lock);
	skb_queue_purge(&qp->txq);
	mrc_qp_put(qp);
	wait_for_completion(&qp->done);
	mrc_qp_free(qp);
	mrc_res_put(qp->mdev, MRC_RES_QP);
	return 0;
}
