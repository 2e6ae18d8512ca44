// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Registered memory on the data path: key lookup with access and bounds
 * checks, byte-granular copies in and out of an MR, remote atomics, and
 * gathering a send WQE's scatter list, by copy or as page references.
 * Registration is verbs/mrc_mr.c.
 */
#include <linux/highmem.h>
#include <linux/skbuff.h>

#include "engine/mrc_obj.h"
#include "engine/mrc_qp.h"

/* @mr holds [@iova, @iova + @len) (untrusted); a DMA MR holds anything. */
static bool mrc_mr_covers(const struct mrc_mr *mr, u64 iova, u64 len)
{
	return mr->kind == MRC_MR_DMA ||
	       (iova >= mr->iova && len <= mr->length &&
		iova - mr->iova <= mr->length - len);
}

/**
 * mrc_mr_get() - look up a key and check it allows an access
 * @mdev: the device
 * @key: L_Key or R_Key, untrusted
 * @pd: the PD the accessing QP belongs to
 * @qpn: the accessing QP's number (a type 2 memory window serves one QP)
 * @access: IB_ACCESS_* bits the access needs (0 for a local read)
 * @iova: first byte accessed, untrusted
 * @len: bytes accessed, untrusted
 * @status: set to IB_WC_LOC_PROT_ERR or IB_WC_REM_ACCESS_ERR on failure
 *          according to whether @access is remote
 *
 * Return: the MR with a reference held (mrc_mr_put() it), or NULL.
 */
struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, u32 key, struct ib_pd *pd,
			  u32 qpn, int access, u64 iova, u64 len, int *status)
{
	const int remote = IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
			   IB_ACCESS_REMOTE_ATOMIC;
	struct mrc_mr *mr;

	*status = (access & remote) ? IB_WC_REM_ACCESS_ERR : IB_WC_LOC_PROT_ERR;
	if (key & MRC_KEY_MW_BIT)
		return mrc_mw_get(mdev, key, pd, qpn, access, iova, len);

	rcu_read_lock();
	mr = xa_load(&mdev->mr_xa, key >> MRC_KEY_INDEX_SHIFT);
	/* Pairs with the release of a fast registration (mrc_mr_fast.c). */
	if (!mr || !smp_load_acquire(&mr->valid) || mr->key != key ||
	    mr->ibmr.pd != pd || (mr->access & access) != access ||
	    !refcount_inc_not_zero(&mr->ref))
		mr = NULL;
	rcu_read_unlock();
	if (!mr)
		return NULL;

	if (!mrc_mr_covers(mr, iova, len)) {
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

/*
 * The page of user or fast-registration MR @mr that holds byte @pos
 * (counted from the MR's first page); @off is set to the byte's offset
 * in it and @n to the bytes of @len that lie in it from there. Return:
 * NULL past the MR's pages.
 */
static struct page *mrc_mr_page(const struct mrc_mr *mr, u64 pos, u32 len,
				u32 *off, u32 *n)
{
	unsigned long idx = pos >> PAGE_SHIFT;

	if (idx >= mr->npages)
		return NULL;
	*off = offset_in_page(pos);
	*n = min_t(u32, len, PAGE_SIZE - *off);
	return mr->pages[idx];
}

/* mrc_mr_page(), mapped: the byte's address (kunmap_local() it). */
static void *mrc_mr_map(struct mrc_mr *mr, u64 pos, u32 len, u32 *n)
{
	u32 off;
	struct page *page = mrc_mr_page(mr, pos, len, &off, n);

	return page ? kmap_local_page(page) + off : NULL;
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

	if (mr->kind == MRC_MR_DMA) {
		void *kva = (void *)(uintptr_t)iova;

		if (to_mr)
			memcpy(kva, buf, len);
		else
			memcpy(buf, kva, len);
		return 0;
	}

	pos = iova - mr->iova + mr->page_off;
	while (len) {
		u32 n;
		void *kaddr = mrc_mr_map(mr, pos, len, &n);

		if (!kaddr)
			return -EFAULT;
		if (to_mr)
			memcpy(kaddr, buf, n);
		else
			memcpy(buf, kaddr, n);
		kunmap_local(kaddr);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * mrc_mr_place() - copy received payload into registered memory
 * @mr: the MR, checked by mrc_mr_get() for this range
 * @iova: first byte in the MR
 * @src: the payload, in its skb
 * @at: offset in the payload of the first byte copied
 * @len: bytes
 *
 * The bytes go from the skb's head, page fragments or frag list straight
 * to the MR's pages: the one copy a received byte gets.
 */
void mrc_mr_place(struct mrc_mr *mr, u64 iova, const struct mrc_payload *src,
		  u32 at, u32 len)
{
	unsigned int off = src->off + at;
	u64 pos;

	if (mr->kind == MRC_MR_DMA) {
		/* Checked against the skb's length before the MR's. */
		WARN_ON_ONCE(skb_copy_bits(src->skb, off,
					   (void *)(uintptr_t)iova, len));
		return;
	}
	pos = iova - mr->iova + mr->page_off;
	while (len) {
		u32 n;
		void *kaddr = mrc_mr_map(mr, pos, len, &n);

		if (WARN_ON_ONCE(!kaddr))
			return;
		WARN_ON_ONCE(skb_copy_bits(src->skb, off, kaddr, n));
		kunmap_local(kaddr);
		off += n;
		pos += n;
		len -= n;
	}
}

/**
 * mrc_mr_write_remote() - place a WRITE packet's payload where it names
 * @qp: the receiving QP
 * @pkt: a WRITE or WRITE_IMM packet: R_Key, address, offset, untrusted
 * @payload: its payload
 *
 * Return: 0, or -EACCES if the QP or the R_Key does not allow the write
 * (nothing is written then).
 */
int mrc_mr_write_remote(struct mrc_qp *qp, const struct mrc_pkt *pkt,
			const struct mrc_payload *payload)
{
	u32 key = pkt->reth.rkey, len = pkt->payload_len;
	struct mrc_mr *mr = qp->resp.train_mr;
	int status;
	u64 va;

	if (!(qp->access & IB_ACCESS_REMOTE_WRITE))
		return -EACCES;
	if (!len)
		return 0;
	va = pkt->reth.va + pkt->dph.offset;
	/*
	 * The MR this train wrote to before, if the key still names it:
	 * the checks of mrc_mr_get() but the lookup (its PD was checked
	 * then, and an MR keeps its PD). Pairs with the release of a fast
	 * registration.
	 */
	if (mr && smp_load_acquire(&mr->valid) && mr->key == key &&
	    (mr->access & IB_ACCESS_REMOTE_WRITE) &&
	    mrc_mr_covers(mr, va, len)) {
		mrc_mr_place(mr, va, payload, 0, len);
		return 0;
	}
	mr = mrc_mr_get(qp->mdev, key, qp->ibqp.pd, qp->ibqp.qp_num,
			IB_ACCESS_REMOTE_WRITE, va, len, &status);
	if (!mr)
		return -EACCES;
	mrc_mr_place(mr, va, payload, 0, len);
	/* A window's checks are its own: only an MR's key is kept. */
	if (key & MRC_KEY_MW_BIT) {
		mrc_mr_put(mr);
		return 0;
	}
	if (qp->resp.train_mr)
		mrc_mr_put(qp->resp.train_mr);
	qp->resp.train_mr = mr;
	return 0;
}

/**
 * mrc_mr_train_done() - let go of the MR a received train wrote to
 * @qp: the QP, whose lock is not held; the train is done with it
 *
 * A train's packets mostly write one MR: mrc_mr_write_remote() keeps the
 * reference of the first until then, and the rest check the key against
 * it without a lookup. Held no longer than a train, the reference keeps
 * no deregistration waiting.
 */
void mrc_mr_train_done(struct mrc_qp *qp)
{
	struct mrc_mr *mr;

	/*
	 * A train sees what it set itself; what a train on another CPU set
	 * meanwhile, that train lets go.
	 */
	if (!READ_ONCE(qp->resp.train_mr))
		return;
	spin_lock(&qp->lock);
	mr = qp->resp.train_mr;
	qp->resp.train_mr = NULL;
	spin_unlock(&qp->lock);
	if (mr)
		mrc_mr_put(mr);
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

/*
 * Copy @len bytes between @offset of the WQE's local buffer and flat
 * memory @buf or, when @buf is NULL, from received payload @src.
 */
static int mrc_swqe_xfer(struct mrc_qp *qp, struct mrc_swqe *w, u32 offset,
			 void *buf, const struct mrc_payload *src, u32 len,
			 bool to_sge)
{
	int access = to_sge ? IB_ACCESS_LOCAL_WRITE : 0;
	u32 i, done = 0;

	if (w->inline_data) {
		memcpy(buf, w->inline_data + offset, len);
		return IB_WC_SUCCESS;
	}
	for (i = 0; i < w->wqe.num_sge && len; i++) {
		const struct mrc_sge *sge = &w->sge[i];
		struct mrc_mr *mr;
		u32 n;
		int status;

		if (offset >= sge->length) {
			offset -= sge->length;
			continue;
		}
		n = min(len, sge->length - offset);
		mr = mrc_mr_get(qp->mdev, sge->lkey, qp->ibqp.pd,
				qp->ibqp.qp_num, access,
				sge->addr + offset, n, &status);
		if (!mr)
			return status;
		if (buf)
			mrc_mr_copy(mr, sge->addr + offset, buf + done, n,
				    to_sge);
		else
			mrc_mr_place(mr, sge->addr + offset, src, done, n);
		mrc_mr_put(mr);
		done += n;
		len -= n;
		offset = 0;
	}
	return len ? IB_WC_LOC_LEN_ERR : IB_WC_SUCCESS;
}

/*
 * Gather @len bytes at @offset of the WQE's local buffer into @buf, or
 * scatter @buf there (ATOMIC responses, a UD receive's GRH). Every SGE is
 * checked against its MR for the bytes touched.
 */
int mrc_swqe_copy(struct mrc_qp *qp, struct mrc_swqe *w, u32 offset,
		  void *buf, u32 len, bool to_sge)
{
	return mrc_swqe_xfer(qp, w, offset, buf, NULL, len, to_sge);
}

/*
 * Append @len bytes of user MR @mr from @iova to @skb's fragments, each
 * page referenced (get_page()) so that it outlives the MR. The first
 * fragment never extends one appended before the call: the caller's
 * unwinding counts on that. Return: 0, -EOPNOTSUPP for a kernel MR or
 * -ENOSPC when the fragment slots run out.
 */
static int mrc_mr_frags(struct mrc_mr *mr, u64 iova, u32 len,
			struct sk_buff *skb, unsigned int first)
{
	struct skb_shared_info *sh = skb_shinfo(skb);
	u64 pos;

	if (mr->kind != MRC_MR_USER)
		return -EOPNOTSUPP;
	pos = iova - mr->iova + mr->page_off;
	while (len) {
		u32 off, n;
		struct page *page = mrc_mr_page(mr, pos, len, &off, &n);

		if (!page)
			return -EFAULT;
		if (sh->nr_frags > first &&
		    skb_can_coalesce(skb, sh->nr_frags, page, off)) {
			skb_frag_size_add(&sh->frags[sh->nr_frags - 1], n);
		} else {
			if (sh->nr_frags >= MAX_SKB_FRAGS)
				return -ENOSPC;
			get_page(page);
			skb_fill_page_desc_noacc(skb, sh->nr_frags, page, off,
						 n);
		}
		pos += n;
		len -= n;
	}
	return 0;
}

/**
 * mrc_swqe_frags() - reference part of a WQE's local buffer from an skb
 * @qp: the QP
 * @w: the send WQE
 * @offset: first byte, from the start of the WQE's buffer
 * @len: bytes
 * @skb: gets them as page fragments after its last one
 *
 * The zero-copy twin of mrc_swqe_copy(): the same checks, but the skb
 * points at the MR's pages instead of holding a copy. Nothing is added
 * unless all of it is, and skb->len is the caller's to update.
 *
 * Return: 0; -ENOSPC when the skb has too few fragment slots left;
 * -EOPNOTSUPP for inline data or a kernel MR; -EFAULT when a check
 * fails (mrc_swqe_copy() then finds the status to complete with).
 */
int mrc_swqe_frags(struct mrc_qp *qp, const struct mrc_swqe *w, u32 offset,
		   u32 len, struct sk_buff *skb)
{
	struct skb_shared_info *sh = skb_shinfo(skb);
	unsigned int first = sh->nr_frags, i;
	int err = 0;

	if (w->inline_data)
		return -EOPNOTSUPP;
	for (i = 0; i < w->wqe.num_sge && len && !err; i++) {
		const struct mrc_sge *sge = &w->sge[i];
		struct mrc_mr *mr;
		int status;
		u32 n;

		if (offset >= sge->length) {
			offset -= sge->length;
			continue;
		}
		n = min(len, sge->length - offset);
		mr = mrc_mr_get(qp->mdev, sge->lkey, qp->ibqp.pd,
				qp->ibqp.qp_num, 0,
				sge->addr + offset, n, &status);
		if (!mr) {
			err = -EFAULT;
			break;
		}
		err = mrc_mr_frags(mr, sge->addr + offset, n, skb, first);
		mrc_mr_put(mr);
		len -= n;
		offset = 0;
	}
	if (!err && len)
		err = -EFAULT;
	if (err) {
		for (i = first; i < sh->nr_frags; i++)
			put_page(skb_frag_page(&sh->frags[i]));
		sh->nr_frags = first;
	}
	return err;
}

/*
 * Scatter @len bytes of received payload @src to @offset of the WQE's
 * local buffer (READ responses, UD receives), checked as mrc_swqe_copy().
 * An inline WQE has no local buffer to receive into.
 */
int mrc_swqe_place(struct mrc_qp *qp, struct mrc_swqe *w, u32 offset,
		   const struct mrc_payload *src, u32 len)
{
	if (WARN_ON_ONCE(w->inline_data))
		return IB_WC_LOC_PROT_ERR;
	return mrc_swqe_xfer(qp, w, offset, NULL, src, len, true);
}
