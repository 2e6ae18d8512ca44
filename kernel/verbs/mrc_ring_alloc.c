// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared-memory rings and their mmap entries.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "verbs/mrc_verbs.h"
#include "engine/mrc_ring.h"

/**
 * mrc_ring_init() - allocate a ring and, for userspace, its mmap entry
 * @ring: ring to set up
 * @min_slots: requested capacity; rounded up to a power of two
 * @slot_size: bytes per slot; rounded up to 64
 * @uctx: user context to map the ring into, or NULL for a kernel ring
 * @info: filled with what userspace needs to map it (may be NULL)
 *
 * Return: 0 or a negative errno (-EINVAL for a capacity above
 * MRC_RING_MAX_SLOTS).
 */
int mrc_ring_init(struct mrc_ring *ring, u32 min_slots, u32 slot_size,
		  struct ib_ucontext *uctx, struct mrc_ring_info *info)
{
	struct mrc_mmap_entry *entry;
	u32 num;
	void *mem;
	int err;

	if (!min_slots || min_slots > MRC_RING_MAX_SLOTS || !slot_size)
		return -EINVAL;
	num = roundup_pow_of_two(min_slots);
	slot_size = ALIGN(slot_size, 64);

	memset(ring, 0, sizeof(*ring));
	ring->mask = num - 1;
	ring->slot_size = slot_size;
	ring->size = PAGE_ALIGN(MRC_RING_SLOTS_OFFSET + (size_t)num * slot_size);

	/*
	 * Zeroed, and charged to the creator's memory cgroup: rings are
	 * sized by unprivileged callers. (vmalloc_user() would not charge;
	 * mrc_mmap() maps the pages one by one instead.)
	 */
	mem = __vmalloc(ring->size, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!mem)
		return -ENOMEM;
	ring->ctrl = mem;
	ring->slots = (u8 *)mem + MRC_RING_SLOTS_OFFSET;

	if (!uctx) {
		ring->vaddr = mem;
		goto out_info;
	}

	entry = kzalloc(sizeof(*entry), GFP_KERNEL_ACCOUNT);
	if (!entry) {
		vfree(mem);
		return -ENOMEM;
	}
	entry->vaddr = mem;
	err = rdma_user_mmap_entry_insert(uctx, &entry->rdma_entry, ring->size);
	if (err) {
		kfree(entry);
		vfree(mem);
		return err;
	}
	ring->entry = entry;

out_info:
	if (info) {
		memset(info, 0, sizeof(*info));
		if (ring->entry)
			info->mmap_offset =
				rdma_user_mmap_get_offset(&entry->rdma_entry);
		info->mmap_size = ring->size;
		info->num_slots = num;
		info->slot_size = slot_size;
	}
	return 0;
}

/**
 * mrc_ring_destroy() - release a ring
 * @ring: the ring
 *
 * A user ring's memory lives until its last mapping is gone: removing the
 * entry drops our reference and mrc_mmap_free() frees it.
 */
void mrc_ring_destroy(struct mrc_ring *ring)
{
	if (ring->entry)
		rdma_user_mmap_entry_remove(&ring->entry->rdma_entry);
	else
		vfree(ring->vaddr);
	memset(ring, 0, sizeof(*ring));
}

/**
 * mrc_mmap() - map a ring into a process (ib_device_ops.mmap)
 * @uctx: the process's user context
 * @vma: the mapping; its page offset names the entry
 *
 * Return: 0 or a negative errno.
 */
int mrc_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma_entry;
	struct mrc_mmap_entry *entry;
	unsigned long off;
	int err = 0;

	rdma_entry = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = container_of(rdma_entry, struct mrc_mmap_entry, rdma_entry);

	/*
	 * The ring neither grows by mremap() nor goes into core dumps, as
	 * with remap_vmalloc_range(); the core checked the length.
	 */
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	for (off = 0; off < vma->vm_end - vma->vm_start; off += PAGE_SIZE) {
		err = vm_insert_page(vma, vma->vm_start + off,
				     vmalloc_to_page(entry->vaddr + off));
		if (err)
			break;
	}
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

/**
 * mrc_mmap_free() - free a ring's memory once nothing maps it
 * @rdma_entry: the entry (ib_device_ops.mmap_free)
 */
void mrc_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	struct mrc_mmap_entry *entry =
		container_of(rdma_entry, struct mrc_mmap_entry, rdma_entry);

	vfree(entry->vaddr);
	kfree(entry);
}
