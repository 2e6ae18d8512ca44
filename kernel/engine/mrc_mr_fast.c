// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fast registration: the work requests that validate a kernel MR
 * (IB_WR_REG_MR) and invalidate it (IB_WR_LOCAL_INV, and a peer's
 * SEND_WITH_INV, both of which also free memory windows: mrc_window.c).
 * mrc_alloc_mr() and mrc_map_mr_sg() (verbs/) set its pages; these make
 * them reachable by key, and unreachable again.
 */
#include "engine/mrc_obj.h"

static const int mrc_mr_fast_access = IB_ACCESS_LOCAL_WRITE |
	IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
	IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_RELAXED_ORDERING;

/*
 * The fast-registration MR of @pd that key @key indexes, whatever the
 * key's low byte. Valid under the caller's RCU read lock: dereg frees
 * MRs after a grace period.
 */
static struct mrc_mr *mrc_mr_fast_find(struct mrc_dev *mdev,
				       struct ib_pd *pd, u32 key)
{
	struct mrc_mr *mr = xa_load(&mdev->mr_xa, key >> MRC_KEY_INDEX_SHIFT);

	if (!mr || mr->kind != MRC_MR_FAST || mr->ibmr.pd != pd)
		return NULL;
	return mr;
}

/**
 * mrc_mr_fast_reg() - execute an IB_WR_REG_MR
 * @mdev: the device
 * @pd: the PD of the kernel QP that posted it
 * @key: the key the MR answers to from now on; its index bits name it
 * @access: IB_ACCESS_* flags
 *
 * The MR must be invalid (IB's Free state) and mapped by map_mr_sg():
 * its iova and length are the ones the mapping set.
 *
 * Return: an IB_WC_* status.
 */
int mrc_mr_fast_reg(struct mrc_dev *mdev, struct ib_pd *pd, u32 key,
		    int access)
{
	int status = IB_WC_LOC_QP_OP_ERR;
	struct mrc_mr *mr;
	u64 room;

	if (access & ~mrc_mr_fast_access)
		return status;
	rcu_read_lock();
	mr = mrc_mr_fast_find(mdev, pd, key);
	if (!mr || READ_ONCE(mr->valid))
		goto out;
	room = (u64)mr->npages * PAGE_SIZE - mr->page_off;
	if (!mr->npages || mr->ibmr.length > room)
		goto out;
	mr->key = key;
	mr->iova = mr->ibmr.iova;
	mr->length = mr->ibmr.length;
	mr->access = access;
	/* Pairs with the acquire in mrc_mr_get(). */
	smp_store_release(&mr->valid, true);
	status = IB_WC_SUCCESS;
out:
	rcu_read_unlock();
	return status;
}

/**
 * mrc_mr_invalidate() - make a fast-registration MR unreachable
 * @mdev: the device
 * @pd: the PD of the QP asking (IB_WR_LOCAL_INV, or the one a
 *	SEND_WITH_INV arrived on)
 * @key: the MR's current key, untrusted
 * @remote_qpn: for a SEND_WITH_INV, the QP it arrived on; 0 for a
 *	LOCAL_INV (a type 2 memory window's key: mrc_mw_invalidate())
 *
 * A packet that found the MR before keeps it until its copy is done;
 * none can find it after.
 *
 * Return: 0, or -EINVAL if @key names no valid fast-registration MR of
 * @pd nor a window these may invalidate.
 */
int mrc_mr_invalidate(struct mrc_dev *mdev, struct ib_pd *pd, u32 key,
		      u32 remote_qpn)
{
	struct mrc_mr *mr;
	int err = -EINVAL;

	if (key & MRC_KEY_MW_BIT)
		return mrc_mw_invalidate(mdev, pd, key, remote_qpn);
	rcu_read_lock();
	mr = mrc_mr_fast_find(mdev, pd, key);
	if (mr && READ_ONCE(mr->valid) && mr->key == key) {
		WRITE_ONCE(mr->valid, false);
		err = 0;
	}
	rcu_read_unlock();
	return err;
}
