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
	IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_MW_BIND |
	IB_ACCESS_RELAXED_ORDERING;

/*
 * Keys are an index (bits 8-30; a window's key has bit 31 set) and a
 * random byte: all 32 bits are unpredictable, so an off-path host cannot
 * guess an R_Key, and a stale key is unlikely to match a reused index.
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
				   (MRC_KEY_MW_BIT >> MRC_KEY_INDEX_SHIFT) - 1,
				   &index);
	if (err) {
		mrc_res_put(mdev, MRC_RES_MR);
		return err;
	}
	key = (index << MRC_KEY_INDEX_SHIFT) | (get_random_u32() & 0xff);
	mr->ibmr.lkey = key;
	mr->ibmr.rkey = key;
	mr->key = key;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->done);
	/* Lookups may find it from here on: publish the fields above. */
	smp_store_release(&mr->valid, mr->kind != MRC_MR_FAST);
	return 0;
}

static int mrc_mr_map_pages(struct mrc_mr *mr)
{
	struct sg_page_iter iter;
	unsigned long i = 0;

	mr->npages = ib_umem_num_pages(mr->umem);
	mr->page_off = ib_umem_offset(mr->umem);
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
	mr->kind = MRC_MR_DMA;
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
	mr->kind = MRC_MR_USER;
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
 * mrc_alloc_mr() - ib_device_ops.alloc_mr: an MR for fast registration
 * @ibpd: protection domain
 * @type: only IB_MR_TYPE_MEM_REG
 * @max_num_sg: pages the MR may map, at most MRC_MAX_FAST_REG_PAGES
 *
 * The MR is invalid (no key finds it) until an IB_WR_REG_MR validates
 * what mrc_map_mr_sg() mapped.
 *
 * Return: the MR or an ERR_PTR.
 */
struct ib_mr *mrc_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg)
{
	struct mrc_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG) {
		pr_debug("mrc: alloc_mr: type %d is not IB_MR_TYPE_MEM_REG\n",
			 type);
		return ERR_PTR(-EINVAL);
	}
	if (!max_num_sg || max_num_sg > MRC_MAX_FAST_REG_PAGES) {
		pr_debug("mrc: alloc_mr: %u pages, not 1..%u\n", max_num_sg,
			 MRC_MAX_FAST_REG_PAGES);
		return ERR_PTR(-EINVAL);
	}
	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->kind = MRC_MR_FAST;
	mr->max_pages = max_num_sg;
	mr->pages = kvcalloc(max_num_sg, sizeof(*mr->pages),
			     GFP_KERNEL_ACCOUNT);
	if (!mr->pages) {
		err = -ENOMEM;
		goto err_free;
	}
	err = mrc_mr_alloc_key(to_mrc_dev(ibpd->device), mr);
	if (err)
		goto err_pages;
	return &mr->ibmr;

err_pages:
	kvfree(mr->pages);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

/* ib_sg_to_pages() callback: @addr is a kernel address (virtual DMA). */
static int mrc_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct mrc_mr *mr = to_mrc_mr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = virt_to_page((void *)(uintptr_t)addr);
	return 0;
}

/**
 * mrc_map_mr_sg() - ib_device_ops.map_mr_sg: the pages REG_MR will map
 * @ibmr: an MR from mrc_alloc_mr()
 * @sg: scatterlist mapped by ib_dma_map_sg(), whose addresses are kernel
 *	addresses on a device without DMA (ib_uses_virt_dma())
 * @sg_nents: entries of @sg
 * @sg_offset: offset into the first entry, or NULL
 *
 * Sets the MR's iova and length. Only PAGE_SIZE pages are supported,
 * which is what page_size_cap advertises, and only while the MR is
 * invalid: remapping a registered MR would move a peer's writes.
 *
 * Return: the number of entries mapped, or a negative errno.
 */
int mrc_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct mrc_mr *mr = to_mrc_mr(ibmr);
	int n;

	if (mr->kind != MRC_MR_FAST || ibmr->page_size != PAGE_SIZE) {
		pr_debug("mrc: map_mr_sg: page size %u, only %lu\n",
			 ibmr->page_size, PAGE_SIZE);
		return -EINVAL;
	}
	/* Its pages may be in use until it is invalidated: IB forbids it. */
	if (READ_ONCE(mr->valid)) {
		pr_debug("mrc: map_mr_sg: MR 0x%x is still valid\n", mr->key);
		return -EBUSY;
	}
	mr->npages = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, mrc_mr_set_page);
	mr->page_off = offset_in_page(ibmr->iova);
	return n;
}

/**
 * mrc_dereg_mr() - ib_device_ops.dereg_mr
 * @ibmr: the MR
 * @udata: unused
 *
 * Waits until no packet being processed still uses the region, so its
 * pages are never touched after they are unpinned. Refused while memory
 * windows are bound to it, as IB requires (and as rxe does).
 *
 * Return: 0, or -EINVAL with windows bound.
 */
int mrc_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mrc_dev(ibmr->device);
	struct mrc_mr *mr = to_mrc_mr(ibmr);
	unsigned long flags;
	u32 windows;

	/* Under mw_lock: a bind checks the MR is still in mr_xa under it. */
	spin_lock_irqsave(&mdev->mw_lock, flags);
	windows = mr->windows;
	if (!windows)
		xa_erase(&mdev->mr_xa, ibmr->lkey >> MRC_KEY_INDEX_SHIFT);
	spin_unlock_irqrestore(&mdev->mw_lock, flags);
	if (windows) {
		pr_debug("mrc: dereg_mr: MR 0x%x has %u memory windows bound\n",
			 mr->key, windows);
		return -EINVAL;
	}
	mrc_mr_put(mr);
	wait_for_completion(&mr->done);
	kvfree(mr->pages);
	if (mr->umem)
		ib_umem_release(mr->umem);
	mrc_res_put(mdev, MRC_RES_MR);
	/* A lookup under RCU may still be reading its key and access. */
	kfree_rcu(mr, rcu);
	return 0;
}
