// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows on the data path: a bind executed where the requester
 * reaches it in the SQ, invalidation (LOCAL_INV, a peer's SEND_WITH_INV),
 * and remote requests that name a window's R_Key, which reach the MR the
 * window is bound to, within the window's range and access. Allocation
 * is verbs/mrc_mw.c.
 */
#include "engine/mrc_obj.h"

static const int mrc_mw_remote_access = IB_ACCESS_REMOTE_WRITE |
	IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC;

/* Unbind @win, with the device's mw_lock held. */
static void mrc_mw_unbind(struct mrc_window *win)
{
	if (win->mr)
		win->mr->windows--;
	win->mr = NULL;
	win->valid = false;
	win->length = 0;
	win->access = 0;
}

/**
 * mrc_mw_get() - the MR behind a window's R_Key, for a remote request
 * @mdev: the device
 * @key: the R_Key, untrusted, with MRC_KEY_MW_BIT set
 * @pd: the PD of the QP the request arrived on
 * @qpn: that QP's number (a type 2 window serves only its own QP)
 * @access: IB_ACCESS_REMOTE_* bits the request needs
 * @iova: first byte, untrusted
 * @len: bytes, untrusted
 *
 * The window's range lies in its MR's (mrc_mw_bind() checked it), and
 * its addresses are the MR's: the caller reads and writes the MR.
 *
 * Return: the MR with a reference held (mrc_mr_put() it), or NULL.
 */
struct mrc_mr *mrc_mw_get(struct mrc_dev *mdev, u32 key, struct ib_pd *pd,
			  u32 qpn, int access, u64 iova, u64 len)
{
	struct mrc_window *win;
	struct mrc_mr *mr = NULL;
	unsigned long flags;

	if (!access || (access & ~mrc_mw_remote_access))
		return NULL;	/* a window has no L_Key */
	rcu_read_lock();
	win = xa_load(&mdev->mw_xa, key >> MRC_KEY_INDEX_SHIFT);
	if (!win)
		goto out;
	spin_lock_irqsave(&mdev->mw_lock, flags);
	/* An MR with windows bound cannot be deregistered: ref is live. */
	if (win->valid && win->mr && win->key == key && win->pd == pd &&
	    (win->type == IB_MW_TYPE_1 || win->qpn == qpn) &&
	    (win->access & access) == access && iova >= win->iova &&
	    len <= win->length && iova - win->iova <= win->length - len &&
	    refcount_inc_not_zero(&win->mr->ref))
		mr = win->mr;
	spin_unlock_irqrestore(&mdev->mw_lock, flags);
out:
	rcu_read_unlock();
	return mr;
}

/*
 * The MR a bind names, checked for it: a program's MR of the QP's PD,
 * registered with IB_ACCESS_MW_BIND (and LOCAL_WRITE for a window that
 * grants remote writes or atomics, as IB requires), holding the whole
 * range. NULL otherwise. Called with mw_lock held: dereg takes an MR out
 * of mr_xa under it, so one found here lives until the lock is dropped.
 */
static struct mrc_mr *mrc_mw_bind_mr(struct mrc_dev *mdev, struct ib_pd *pd,
				     u32 lkey, u64 iova, u64 len, int access)
{
	int need = IB_ACCESS_MW_BIND;
	struct mrc_mr *mr;

	if (access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC))
		need |= IB_ACCESS_LOCAL_WRITE;
	mr = xa_load(&mdev->mr_xa, lkey >> MRC_KEY_INDEX_SHIFT);
	if (!mr || mr->kind != MRC_MR_USER || mr->key != lkey ||
	    mr->ibmr.pd != pd || (mr->access & need) != need ||
	    iova < mr->iova || len > mr->length ||
	    iova - mr->iova > mr->length - len)
		return NULL;
	return mr;
}

/**
 * mrc_mw_bind() - execute an IB_WR_BIND_MW
 * @mdev: the device
 * @pd: the PD of the QP that posted it
 * @qpn: that QP's number, which a type 2 window is bound to
 * @wqe: the slot (mrc-abi.h): imm_data the window's current R_Key, rkey
 *	its new one, remote_addr and compare_add the range, swap the MR's
 *	L_Key (high 32 bits) and the access (low 32 bits)
 *
 * A type 1 window may be bound again while bound (a zero length
 * unbinds it); a type 2 window only while free. The new key keeps the
 * window's index.
 *
 * Return: an IB_WC_* status.
 */
int mrc_mw_bind(struct mrc_dev *mdev, struct ib_pd *pd, u32 qpn,
		const struct mrc_send_wqe *wqe)
{
	u32 old_key = wqe->imm_data, new_key = wqe->rkey;
	int access = (int)lower_32_bits(wqe->swap);
	u64 iova = wqe->remote_addr, len = wqe->compare_add;
	int status = IB_WC_MW_BIND_ERR;
	struct mrc_window *win;
	struct mrc_mr *mr = NULL;
	unsigned long flags;

	/* Zero-based windows are not offered (no IB_DEVICE_..._ZERO_BASED). */
	if ((access & ~mrc_mw_remote_access) || !(old_key & MRC_KEY_MW_BIT) ||
	    (old_key ^ new_key) >> MRC_KEY_INDEX_SHIFT)
		return status;
	rcu_read_lock();
	spin_lock_irqsave(&mdev->mw_lock, flags);
	win = xa_load(&mdev->mw_xa, old_key >> MRC_KEY_INDEX_SHIFT);
	if (!win || win->key != old_key || win->pd != pd ||
	    (win->type == IB_MW_TYPE_2 && (win->valid || !len)))
		goto unlock;
	if (len) {
		mr = mrc_mw_bind_mr(mdev, pd, upper_32_bits(wqe->swap), iova,
				    len, access);
		if (!mr)
			goto unlock;
	}
	mrc_mw_unbind(win);
	if (mr)
		mr->windows++;
	win->mr = mr;
	win->key = new_key;
	win->qpn = qpn;
	win->iova = iova;
	win->length = len;
	win->access = access;
	win->valid = len != 0;
	status = IB_WC_SUCCESS;
unlock:
	spin_unlock_irqrestore(&mdev->mw_lock, flags);
	rcu_read_unlock();
	return status;
}

/**
 * mrc_mw_remove() - unbind a window and take it out of reach
 * @mdev: the device
 * @win: the window, which the caller frees after an RCU grace period
 */
void mrc_mw_remove(struct mrc_dev *mdev, struct mrc_window *win)
{
	unsigned long flags;

	spin_lock_irqsave(&mdev->mw_lock, flags);
	xa_erase(&mdev->mw_xa, win->key >> MRC_KEY_INDEX_SHIFT);
	mrc_mw_unbind(win);
	spin_unlock_irqrestore(&mdev->mw_lock, flags);
}

/**
 * mrc_mw_qp_gone() - a QP was destroyed: its type 2 windows serve nobody
 * @mdev: the device
 * @qpn: its number, which a later QP may be given
 *
 * The windows stay bound, as rxe's do (their MR cannot be deregistered
 * before they are invalidated or deallocated), but a QP that inherits the
 * number must not inherit them: QPN 0 is never an RC QP's.
 */
void mrc_mw_qp_gone(struct mrc_dev *mdev, u32 qpn)
{
	struct mrc_window *win;
	unsigned long index, flags;

	spin_lock_irqsave(&mdev->mw_lock, flags);
	xa_for_each(&mdev->mw_xa, index, win)
		if (win->type == IB_MW_TYPE_2 && win->qpn == qpn)
			win->qpn = 0;
	spin_unlock_irqrestore(&mdev->mw_lock, flags);
}

/**
 * mrc_mw_invalidate() - free a type 2 window
 * @mdev: the device
 * @pd: the PD of the QP asking
 * @key: the window's current R_Key, untrusted
 * @remote_qpn: for a peer's SEND_WITH_INV, the QP it arrived on, which
 *	must be the one the window is bound to; 0 for a LOCAL_INV
 *
 * A type 1 window is unbound only by binding it again.
 *
 * Return: 0, or -EINVAL if @key names no window these may invalidate.
 */
int mrc_mw_invalidate(struct mrc_dev *mdev, struct ib_pd *pd, u32 key,
		      u32 remote_qpn)
{
	struct mrc_window *win;
	unsigned long flags;
	int err = -EINVAL;

	rcu_read_lock();
	spin_lock_irqsave(&mdev->mw_lock, flags);
	win = xa_load(&mdev->mw_xa, key >> MRC_KEY_INDEX_SHIFT);
	if (win && win->valid && win->key == key && win->pd == pd &&
	    win->type == IB_MW_TYPE_2 &&
	    (!remote_qpn || win->qpn == remote_qpn)) {
		mrc_mw_unbind(win);
		err = 0;
	}
	spin_unlock_irqrestore(&mdev->mw_lock, flags);
	rcu_read_unlock();
	return err;
}
