// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory windows: allocation and deallocation. A window starts unbound;
 * binding, invalidation and remote access are the engine's
 * (engine/mrc_window.c).
 */
#include <linux/random.h>
#include <linux/slab.h>

#include "verbs/mrc_verbs.h"
#include "engine/mrc_obj.h"

/*
 * Window keys have MRC_KEY_MW_BIT set: their index is bits 8-30 of the
 * key with bit 31, so the index range is its upper half.
 */
#define MRC_MW_INDEX_MIN	(MRC_KEY_MW_BIT >> MRC_KEY_INDEX_SHIFT)
#define MRC_MW_INDEX_MAX	(U32_MAX >> MRC_KEY_INDEX_SHIFT)

/**
 * mrc_alloc_mw() - ib_device_ops.alloc_mw
 * @ibmw: the core's object; its type and PD are set
 * @udata: the program's request (no driver data)
 *
 * Return: 0, -EINVAL for a type the device does not offer, -ENOMEM.
 */
int mrc_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibmw->device);
	struct mrc_mw *mw = container_of(ibmw, struct mrc_mw, ibmw);
	struct mrc_window *win;
	unsigned long flags;
	u32 index;
	int err;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2) {
		pr_debug("mrc: alloc_mw: type %d is not 1 or 2\n", ibmw->type);
		return -EINVAL;
	}
	err = mrc_res_get(mdev, MRC_RES_MW);
	if (err)
		return err;
	win = kzalloc(sizeof(*win), GFP_KERNEL_ACCOUNT);
	if (!win) {
		err = -ENOMEM;
		goto out_res;
	}
	win->pd = ibmw->pd;
	win->type = ibmw->type;
	err = mrc_xa_insert_random(&mdev->mw_xa, win, MRC_MW_INDEX_MIN,
				   MRC_MW_INDEX_MAX, &index);
	if (err)
		goto out_free;
	/* Found from here on, but unbound: nothing uses it before its key. */
	spin_lock_irqsave(&mdev->mw_lock, flags);
	win->key = (index << MRC_KEY_INDEX_SHIFT) | (get_random_u32() & 0xff);
	spin_unlock_irqrestore(&mdev->mw_lock, flags);
	ibmw->rkey = win->key;
	mw->win = win;
	return 0;

out_free:
	kfree(win);
out_res:
	mrc_res_put(mdev, MRC_RES_MW);
	return err;
}

/**
 * mrc_dealloc_mw() - ib_device_ops.dealloc_mw
 * @ibmw: the window; bound or not
 *
 * Unbinds it (its MR may then be deregistered) and makes it unreachable;
 * a request that found it before keeps its MR until its copy is done.
 *
 * Return: 0.
 */
int mrc_dealloc_mw(struct ib_mw *ibmw)
{
	struct mrc_dev *mdev = to_mrc_dev(ibmw->device);
	struct mrc_window *win = container_of(ibmw, struct mrc_mw, ibmw)->win;

	mrc_mw_remove(mdev, win);
	mrc_res_put(mdev, MRC_RES_MW);
	kfree_rcu(win, rcu);
	return 0;
}
