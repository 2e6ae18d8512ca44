// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions: registration, key lookup with access and bounds checks,
 * and byte-granular copies in and out of registered memory.
 */
#include <linux/highmem.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "verbs/mrc_verbs.h"
#include "engine/mrc_obj.h"

static const int mrc_mr_access_known = IB_ACCESS_LOCAL_WRITE |
	IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
	IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_RELAXED_ORDERING;

/*
 * Keys are an index (bits 8-31) and a random byte: all 32 bits are
 * unpredictable, so an off-path host cannot guess an R_Key, and a stale
 * key is unlikely to match a reused index.
 */
static int mrc_mr_alloc_key(struct mrc_dev *mdev, struct mrc_mr *mr)
{
	u32 index;
	u32 key;
	int err;

	err = mrc_res_get(mdev, MRC_RES_MR);
	if (err)
		return err;
	err = mrc_xa_insert_random(&mdev->mr_xa, mr, 1,
				   U32_MAX >> MRC_KEY_INDEX_SHIFT, &index);
	if (err) {
		mrc_res_put(mdev, MRC_RES_MR);
		return err;
	}
	key = (index << MRC_KEY_INDEX_SHIFT) | (get_random_u32() & 0xff);
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->done);
	return 0;
}

static int mrc_mr_map_pages(struct mrc_mr *mr)
{
	struct sg_page_iter iter;
	unsigned long i = 0;

	mr->npages = ib_umem_num_pages(mr->umem);
	mr->pages = kvmalloc_array(mr->npages, sizeof(*mr->pages),
				   GFP_KERNEL_ACCOUNT);
	if (!mr->pages)
		return -ENOMEM;
	for_each_sgtable_page(&mr->umem->sgt_append.sgt, &iter, 0) {
		if (i == mr->npages)
			break;
		mr->pages[i++] = sg_page_iter_page(&iter);
	}
	return i == mr->npages ? 0 : -EFAULT;
}

/**
 * mrc_get_dma_mr() - ib_device_ops.get_dma_mr: all of kernel memory
 * @ibpd: protection domain
 * @access: IB_ACCESS_* flags
 *
 * Return: the MR or an ERR_PTR.
 */
struct ib_mr *mrc_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct mrc_mr *mr;
	int err;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->access = access;
	mr->length = U64_MAX;
	err = mrc_mr_alloc_key(to_mrc_dev(ibpd->device), mr);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

/**
 * mrc_reg_user_mr() - ib_device_ops.reg_user_mr
 * @ibpd: protection domain
 * @start: user address of the buffer
 * @length: bytes
 * @iova: address the peers use for the buffer's first byte
 * @access: IB_ACCESS_* flags
 * @udata: user data (none defined)
 *
 * Return: the MR or an ERR_PTR.
 */
struct ib_mr *mrc_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibpd->device);
	struct mrc_mr *mr;
	int err;

	if (access & ~mrc_mr_access_known)
		return ERR_PTR(-EOPNOTSUPP);
	if (!length || length > MRC_MAX_MR_SIZE || iova + length < iova)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->umem = ib_umem_get(ibpd->device, start, length, access);
	if (IS_ERR(mr->umem)) {
		err = PTR_ERR(mr->umem);
		goto err_free;
	}
	err = mrc_mr_map_pages(mr);
	if (err)
		goto err_release;
	mr->iova = iova;
	mr->length = length;
	mr->access = access;
	mr->ibmr.iova = iova;
	mr->ibmr.length = length;
	err = mrc_mr_alloc_key(mdev, mr);
	if (err)
		goto err_release;
	return &mr->ibmr;

err_release:
	kvfree(mr->pages);
	ib_umem_release(mr->umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * mrc_dereg_mr() - ib_device_ops.dereg_mr
 * @ibmr: the MR
 * @udata: unused
 *
 * Waits until no packet being processed still uses the region, so its
 * pages are never touched after they are unpinned.
 *
 * Return: 0.
 */
int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibmr->device);
	struct mrc_mr *mr = to_mrc_mr(ibmr);

	xa_erase(&mdev->mr_xa, ibmr->lkey >> MRC_KEY_INDEX_SHIFT);
	mrc_mr_put(mr);
	wait_for_completion(&mr->done);
	if (mr->umem) {
		kvfree(mr->pages);
		ib_umem_release(mr->umem);
	}
	mrc_res_put(mdev, MRC_RES_MR);
	/* A lookup under RCU may still be reading its key and access. */
	kfree_rcu(mr, rcu);
	return 0;
}
