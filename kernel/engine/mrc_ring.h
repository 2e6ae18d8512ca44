/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel side of the shared-memory rings (SQ, RQ, SRQ, CQ) described in
 * uapi/mrc-abi.h. The kernel keeps its own copy of the index it owns and
 * never trusts the one userspace writes.
 */
#ifndef MRC_RING_H
#define MRC_RING_H

#include <rdma/ib_verbs.h>

#include "uapi/mrc-abi.h"

#define MRC_RING_MAX_SLOTS	BIT(16)

/**
 * struct mrc_mmap_entry - a ring's memory as a core-managed mmap entry
 * @rdma_entry: the core's entry; its refcount decides when memory is freed
 * @vaddr: vmalloc_user() memory holding struct mrc_ring_ctrl and the slots
 */
struct mrc_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	void *vaddr;
};

/**
 * struct mrc_ring - one ring
 * @ctrl: shared control block at the start of the memory
 * @slots: first slot
 * @mask: num_slots - 1
 * @slot_size: bytes per slot
 * @size: bytes of memory (page multiple)
 * @own: the index this side owns (prod for CQs, cons for work queues)
 * @entry: mmap entry for user rings, NULL for kernel rings
 * @vaddr: the memory, for kernel rings
 */
struct mrc_ring {
	struct mrc_ring_ctrl *ctrl;
	u8 *slots;
	u32 mask;
	u32 slot_size;
	size_t size;
	u32 own;
	struct mrc_mmap_entry *entry;
	void *vaddr;
};

static inline u32 mrc_ring_num_slots(const struct mrc_ring *ring)
{
	return ring->mask + 1;
}

static inline void *mrc_ring_slot(const struct mrc_ring *ring, u32 idx)
{
	return ring->slots + (size_t)(idx & ring->mask) * ring->slot_size;
}

/**
 * mrc_ring_avail() - slots the peer published that we have not consumed
 * @ring: a work queue ring (userspace or a kernel ULP produces)
 *
 * Return: the count, or a negative errno when the peer's index is
 * impossible (more than the ring holds), which the caller treats as a
 * fatal queue error.
 */
static inline int mrc_ring_avail(const struct mrc_ring *ring)
{
	/* Pairs with the producer publishing slots before prod. */
	u32 prod = smp_load_acquire(&ring->ctrl->prod);
	u32 n = prod - ring->own;

	return n > mrc_ring_num_slots(ring) ? -EOVERFLOW : (int)n;
}

/* Release the slot at our index back to the producer. */
static inline void mrc_ring_consume(struct mrc_ring *ring)
{
	ring->own++;
	/* Our reads of the slot complete before the producer reuses it. */
	smp_store_release(&ring->ctrl->cons, ring->own);
}

/**
 * mrc_ring_space() - free slots for the kernel as producer (CQ)
 * @ring: a completion ring
 *
 * Return: free slots; 0 also when the consumer's index is impossible.
 */
static inline u32 mrc_ring_space(const struct mrc_ring *ring)
{
	/* Pairs with the consumer releasing slots it has read. */
	u32 cons = smp_load_acquire(&ring->ctrl->cons);
	u32 used = ring->own - cons;

	if (used > mrc_ring_num_slots(ring))
		return 0;
	return mrc_ring_num_slots(ring) - used;
}

/* Publish the slot at our index to the consumer. */
static inline void mrc_ring_produce(struct mrc_ring *ring)
{
	ring->own++;
	/* The slot's contents are visible before the new prod. */
	smp_store_release(&ring->ctrl->prod, ring->own);
}

#endif /* MRC_RING_H */
