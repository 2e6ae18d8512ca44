/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Verbs objects of the MRC device: CQ, MR, SRQ and QP as the transport
 * engine sees them.
 */
#ifndef MRC_OBJ_H
#define MRC_OBJ_H

#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/ipv6.h>
#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

#include "core/mrc_wire.h"
#include "engine/mrc_dev.h"
#include "engine/mrc_ring.h"

#define MRC_MAX_QP_WR		4096
#define MRC_MAX_SGE		16
#define MRC_MAX_INLINE		256
#define MRC_MAX_CQE		(MRC_RING_MAX_SLOTS - 1)
#define MRC_MAX_QP		0x10000
#define MRC_MAX_CQ		0x10000
#define MRC_MAX_MR		0x40000
#define MRC_MAX_MW		0x10000
#define MRC_MAX_MR_SIZE		BIT_ULL(40)
/* Pages one fast-registration MR maps: 2 MiB, what block ULPs ask for. */
#define MRC_MAX_FAST_REG_PAGES	512
#define MRC_MAX_SRQ		0x1000
#define MRC_MAX_RD_ATOMIC	16
#define MRC_MIN_QPN		16
#define MRC_MAX_QPN		MRC_QPN_LIMIT
/* Highest QPN a QP may have or name: 0xffffff is the endpoint's (wire). */
#define MRC_QPN_LIMIT		(MRC_QPN_ENDPOINT - 1)

/**
 * struct mrc_cq - completion queue
 * @ibcq: core object
 * @lock: serialises producers of @ring and the notify state
 * @ring: CQE ring; the kernel produces, userspace or ib_poll_cq consumes
 * @notify: armed events (IB_CQ_SOLICITED or IB_CQ_NEXT_COMP), 0 if none
 * @overflowed: the CQ is in the error state: a completion found it full, and
 *	nothing is written to it any more
 * @is_user: @ring is mapped into a process
 * @next: the ring a two-step resize prepared, until it commits
 * @next_info: what the provider maps @next by
 * @next_cqe: the depth @next was prepared for
 */
struct mrc_cq {
	struct ib_cq ibcq;
	spinlock_t lock; /* protects ring production and notify */
	struct mrc_ring ring;
	struct mrc_ring next;
	struct mrc_ring_info next_info;
	int next_cqe;
	u8 notify;
	bool overflowed;
	bool is_user;
};

/*
 * An MR key: an index into the device's mr_xa (bits 8-30), a random byte.
 * A memory window's R_Key has bit 31 set, its index is in mw_xa: one bit
 * tells the engine which table an untrusted R_Key names.
 */
#define MRC_KEY_INDEX_SHIFT	8
#define MRC_KEY_MW_BIT		BIT(31)

/* What backs an MR, which decides how its addresses are read. */
enum mrc_mr_kind {
	MRC_MR_DMA,	/* all of kernel memory: addresses are kernel addresses */
	MRC_MR_USER,	/* pinned user memory */
	MRC_MR_FAST,	/* kernel pages given by map_mr_sg, valid after REG_MR */
};

/**
 * struct mrc_mr - memory region
 * @ibmr: core object. A fast-registration MR's keys there are the
 *	consumer's (ib_update_fast_reg_key() changes them before REG_MR);
 *	@key is the one the engine accepts
 * @kind: what backs it
 * @valid: lookups may find it: always for DMA and user MRs; for a
 *	fast-registration MR, from REG_MR to its invalidation. Written with
 *	release after @key, @iova, @length and @access
 * @key: L_Key and R_Key the engine accepts
 * @umem: pinned user memory (MRC_MR_USER only)
 * @iova: first valid address (ignored for the DMA MR, which spans all)
 * @length: bytes
 * @access: IB_ACCESS_* flags
 * @pages: the MR's pages in order, for byte-granular access (user and
 *	fast-registration MRs)
 * @npages: entries of @pages in use
 * @max_pages: entries @pages has room for (fast registration)
 * @page_off: offset of @iova in @pages[0]
 * @ref: users (engine lookups) + 1 for the registration
 * @done: completed when @ref drops to zero, so dereg can wait
 * @windows: memory windows bound to it (under mrc_dev.mw_lock): dereg
 *	fails while there are any, as IB requires
 * @rcu: frees the MR after lookups that may have found it are over
 */
struct mrc_mr {
	struct ib_mr ibmr;
	enum mrc_mr_kind kind;
	bool valid;
	u32 key;
	struct ib_umem *umem;
	struct page **pages;
	unsigned long npages;
	unsigned long max_pages;
	u32 page_off;
	u64 iova;
	u64 length;
	int access;
	refcount_t ref;
	struct completion done;
	u32 windows;
	struct rcu_head rcu;
};

/**
 * struct mrc_window - a memory window as the engine finds it by R_Key
 * @pd: its PD
 * @type: IB_MW_TYPE_1 or IB_MW_TYPE_2
 * @key: the R_Key it answers to; each bind gives it a new low byte
 * @valid: bound: remote requests may use it (a type 2 window is free,
 *	and may be bound, only while this is false)
 * @mr: the MR its range lies in while bound with a length, else NULL
 * @qpn: type 2: the QP it was bound through, the only one it serves (0
 *	once that QP is destroyed: none)
 * @iova: first byte of its range
 * @length: bytes of its range
 * @access: IB_ACCESS_REMOTE_* it grants
 * @rcu: frees it after lookups that may have found it are over
 *
 * All but @rcu change under mrc_dev.mw_lock only. The core frees the
 * ib_mw as soon as dealloc_mw returns, so what packets look up lives
 * apart from it.
 */
struct mrc_window {
	struct ib_pd *pd;
	enum ib_mw_type type;
	u32 key;
	bool valid;
	struct mrc_mr *mr;
	u32 qpn;
	u64 iova;
	u64 length;
	int access;
	struct rcu_head rcu;
};

/**
 * struct mrc_mw - memory window (ib_mw)
 * @ibmw: core object
 * @win: its state, in mrc_dev.mw_xa
 */
struct mrc_mw {
	struct ib_mw ibmw;
	struct mrc_window *win;
};

/**
 * struct mrc_srq - shared receive queue
 * @ibsrq: core object
 * @lock: serialises consumers of @ring
 * @ring: receive WQE ring; the owner produces, the responder consumes
 * @max_sge: SGEs per receive WQE
 * @limit: srq_limit armed by ibv_modify_srq, 0 when not armed
 */
struct mrc_srq {
	struct ib_srq ibsrq;
	spinlock_t lock; /* protects ring consumption and limit */
	struct mrc_ring ring;
	u32 max_sge;
	u32 limit;
};

struct mrc_qp;

static inline struct mrc_cq *to_mrc_cq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mrc_cq, ibcq);
}

static inline struct mrc_mr *to_mrc_mr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mrc_mr, ibmr);
}

static inline struct mrc_srq *to_mrc_srq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct mrc_srq, ibsrq);
}

/* Copy a kernel consumer's scatter list into ring format. */
static inline void mrc_sges_from_ib(struct mrc_sge *dst,
				    const struct ib_sge *src, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		dst[i].addr = src[i].addr;
		dst[i].length = src[i].length;
		dst[i].lkey = src[i].lkey;
	}
}

/* Kernel rings carry the QP pointer ib_poll_cq() users expect. */
struct mrc_kcqe {
	struct mrc_cqe cqe;
	struct ib_qp *qp;
};

/* CQEs produced but not yet consumed; the consumer index is untrusted. */
static inline u32 mrc_cq_pending(struct mrc_cq *cq)
{
	return mrc_ring_num_slots(&cq->ring) - mrc_ring_space(&cq->ring);
}

/* mrc_cq_post.c */
int mrc_cq_post(struct mrc_cq *cq, const struct mrc_cqe *cqe,
		struct ib_qp *qp, bool solicited);

/**
 * struct mrc_payload - a received packet's payload, where it lies
 * @skb: the packet, whose payload may sit in page fragments: it is not
 *	linearized, and the bytes are copied once, into registered memory
 * @off: offset of the payload's first byte in @skb
 */
struct mrc_payload {
	const struct sk_buff *skb;
	unsigned int off;
};

/* mrc_mem.c */
struct mrc_mr *mrc_mr_get(struct mrc_dev *mdev, u32 key, struct ib_pd *pd,
			  u32 qpn, int access, u64 iova, u64 len, int *status);
void mrc_mr_put(struct mrc_mr *mr);
int mrc_mr_copy(struct mrc_mr *mr, u64 iova, void *buf, u32 len, bool to_mr);
void mrc_mr_place(struct mrc_mr *mr, u64 iova, const struct mrc_payload *src,
		  u32 at, u32 len);
int mrc_mr_atomic(struct mrc_mr *mr, u64 iova, bool cmp_swp, u64 compare,
		  u64 swap_add, u64 *orig);

/* mrc_mr_fast.c */
int mrc_mr_fast_reg(struct mrc_dev *mdev, struct ib_pd *pd, u32 key,
		    int access);
int mrc_mr_invalidate(struct mrc_dev *mdev, struct ib_pd *pd, u32 key,
		      u32 remote_qpn);

/* mrc_window.c */
struct mrc_mr *mrc_mw_get(struct mrc_dev *mdev, u32 key, struct ib_pd *pd,
			  u32 qpn, int access, u64 iova, u64 len);
int mrc_mw_bind(struct mrc_dev *mdev, struct ib_pd *pd, u32 qpn,
		const struct mrc_send_wqe *wqe);
int mrc_mw_invalidate(struct mrc_dev *mdev, struct ib_pd *pd, u32 key,
		      u32 remote_qpn);
void mrc_mw_qp_gone(struct mrc_dev *mdev, u32 qpn);
void mrc_mw_remove(struct mrc_dev *mdev, struct mrc_window *win);

/* mrc_srq_take.c */
int mrc_srq_take(struct mrc_srq *srq, struct mrc_recv_wqe *wqe,
		 struct mrc_sge *sge, u64 need);
void mrc_srq_fail(struct ib_qp *ibqp, u64 wr_id);

#endif /* MRC_OBJ_H */
