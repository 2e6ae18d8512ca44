// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Memory regions: registration, key lookup with access and bounds checks,
 * and byte-granular copies in and out of registered memory.
 */
#include <linux/highmem.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "engine/mrc_obj.h"

#define MRC_KEY_INDEX_SHIFT	8

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

/**
 * mrc_mr_get() - look up a key and check it allows an access
 * @mdev: the device
 * @key: L_Key or R_Key, untrusted
 * @pd: the PD the accessing QP belongs to
 * @access: IB_ACCESS_* bits the access needs (0 for a local read)
 * @iova: first byte accessed, untrusted
 * @len: bytes accessed, untrusted
 * @status: set to IB_WC_LOC_PROT_ERR or IB_WC_REM_ACCESS_ERR on failure
 *          according to whether @access is remote
 *
 * Return: the MR with a reference held (mrc_mr_put() it), or NULL.
 */
struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, u32 key, struct ib_pd *pd,
			  int access, u64 iova, u64 len, int *status)
{
	const int remote = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			   IB_ACCESS_REMOTE_ATOMIC;
	struct mrc_mr *mr;

	*status = (access & remote) ? IB_WC_REM_ACCESS_ERR : IB_WC_LOC_PROT_ERR;

	rcu_read_lock();
	mr = xa_load(&mdev->mr_xa, key >> MRC_KEY_INDEX_SHIFT);
	if (!mr || mr->ibmr.lkey != key || mr->ibmr.pd != pd ||
	    (mr->access & access) != access ||
	    !refcount_inc_not_zero(&mr->ref))
		mr = NULL;
	rcu_read_unlock();
	if (!mr)
		return NULL;

	if (mr->umem && (iova < mr->iova || len > mr->length ||
			 iova - mr->iova > mr->length - len)) {
		mrc_mr_put(mr);
		return NULL;
	}
	return mr;
}

/**
 * mrc_mr_put() - drop a reference from mrc_mr_get()
 * @mr: the MR
 */
void mrc_mr_put(struct mrc_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		complete(&mr->done);
}

/**
 * mrc_mr_copy() - copy between a kernel buffer and registered memory
 * @mr: the MR, checked by mrc_mr_get() for this range
 * @iova: first byte in the MR
 * @buf: kernel buffer
 * @len: bytes
 * @to_mr: direction; true copies @buf into the MR
 *
 * Return: 0, or -EFAULT if the range is not inside the MR.
 */
int mrc_mr_copy(struct mrc_mr *mr, u64 iova, void *buf, u32 len, bool to_mr)
{
	u64 pos;

	if (!mr->umem) {
		void *kva = (void *)(uintptr_t)iova;

		if (to_mr)
			memcpy(kva, buf, len);
		else
			memcpy(buf, kva, len);
		return 0;
	}

	pos = iova - mr->iova + ib_umem_offset(mr->umem);
	while (len) {
		unsigned long idx = pos >> PAGE_SHIFT;
		u32 off = offset_in_page(pos);
		u32 n = min_t(u32, len, PAGE_SIZE - off);
		void *kaddr;

		if (idx >= mr->npages)
			return -EFAULT;
		kaddr = kmap_local_page(mr->pages[idx]);
		if (to_mr)
			memcpy(kaddr + off, buf, n);
		else
			memcpy(buf, kaddr + off, n);
		kunmap_local(kaddr);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * mrc_mr_atomic() - perform a remote atomic on registered memory
 * @mr: the MR, checked for 8 bytes at @iova
 * @iova: 8-byte aligned address
 * @cmp_swp: compare-and-swap, else fetch-and-add
 * @compare: value compared for compare-and-swap
 * @swap_add: value swapped in or added
 * @orig: value found at @iova before the operation
 *
 * Return: 0 or -EINVAL for a misaligned address.
 */
int mrc_mr_atomic(struct mrc_mr *mr, u64 iova, bool cmp_swp, u64 compare,
		  u64 swap_add, u64 *orig)
{
	struct mrc_dev *mdev = to_mrc_dev(mr->ibmr.device);
	u64 val;
	int err;

	if (iova & 7)
		return -EINVAL;
	spin_lock_bh(&mdev->atomic_lock);
	err = mrc_mr_copy(mr, iova, &val, sizeof(val), false);
	if (!err) {
		*orig = val;
		if (cmp_swp)
			val = val == compare ? swap_add : val;
		else
			val += swap_add;
		err = mrc_mr_copy(mr, iova, &val, sizeof(val), true);
	}
	spin_unlock_bh(&mdev->atomic_lock);
	return err;
}
