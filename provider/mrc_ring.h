// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Accessors for the rings the provider shares with mrc.ko (kernel/uapi/
// mrc-abi.h): a control block with free-running 32-bit prod and cons
// counters, followed by power-of-two many fixed-size slots.
//
// Each side only stores its own counter: the provider is the producer of
// SQ, RQ and SRQ rings and the consumer of CQ rings. Slot contents are
// published by a release store of prod and read after an acquire load of it;
// slots are handed back by a release store of cons, which the producer reads
// with an acquire load before it overwrites them. Callers serialise the
// users of one ring side with their own lock; nothing here blocks.
//
// Header-only and free of libibverbs calls, so it runs over ordinary memory
// in the unit tests exactly as over the kernel's mapping.
#ifndef MRC_RING_H
#define MRC_RING_H

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "mrc-abi.h"

// The uAPI layout, pinned as the kernel pins it (mrc_cq.c): fixed-width
// fields and explicit padding give 32- and 64-bit programs these sizes.
static_assert(sizeof(mrc_ring_ctrl) == MRC_RING_SLOTS_OFFSET);
static_assert(offsetof(mrc_ring_ctrl, cons) == 64);
static_assert(sizeof(mrc_ring_info) == 24);
static_assert(sizeof(mrc_sge) == 16);
static_assert(sizeof(mrc_send_wqe) == 64);
static_assert(sizeof(mrc_recv_wqe) == 16);
static_assert(sizeof(mrc_cqe) == 48);
static_assert(sizeof(mrc_create_cq_resp) == 24);
static_assert(sizeof(mrc_create_qp_resp) == 48);
static_assert(sizeof(mrc_create_srq_resp) == 24);
static_assert(sizeof(mrc_qp_profile_cmd) == 24);
static_assert(sizeof(mrc_resize_cq_cmd) == 8);

namespace mrc {

// One slot of a ring: where it starts and how many bytes it holds.
struct Slot {
    std::byte* data;
    std::size_t size;
};

// Checks a ring description from a create response before anything is
// mapped: 0, or EPROTO when the kernel's answer cannot be a valid ring for
// slots of at least min_slot_size bytes.
inline int check_ring_info(const mrc_ring_info& info, std::size_t min_slot_size) noexcept {
    bool pow2 = info.num_slots != 0 && (info.num_slots & (info.num_slots - 1)) == 0;
    if (!pow2 || info.slot_size < min_slot_size || info.slot_size % 64 != 0) {
        return EPROTO;
    }
    // num_slots <= 2^31 and slot_size < 2^32: the product fits in 64 bits.
    uint64_t needed = MRC_RING_SLOTS_OFFSET + uint64_t{info.num_slots} * info.slot_size;
    return info.mmap_size >= needed ? 0 : EPROTO;
}

// A view of one ring in memory laid out as mrc-abi.h describes. Does not
// own the memory; an empty view (the default) has no slots.
class Ring {
public:
    Ring() noexcept = default;
    // base must be 8-byte aligned and span MRC_RING_SLOTS_OFFSET plus
    // num_slots * slot_size bytes; num_slots a power of two.
    Ring(void* base, uint32_t num_slots, uint32_t slot_size) noexcept
        : base_(static_cast<std::byte*>(base)),
          num_slots_(num_slots),
          slot_size_(slot_size),
          depth_(num_slots) {}

    bool empty() const noexcept { return base_ == nullptr; }
    uint32_t num_slots() const noexcept { return num_slots_; }
    uint32_t slot_size() const noexcept { return slot_size_; }
    // Most slots a producer may fill before the consumer frees one: the
    // queue depth the kernel granted (max_wr), which can be below num_slots.
    uint32_t depth() const noexcept { return depth_; }
    void limit_depth(uint32_t depth) noexcept { depth_ = depth < num_slots_ ? depth : num_slots_; }

    // The slot a free-running index designates.
    Slot slot(uint32_t index) const noexcept {
        std::size_t pos = index & (num_slots_ - 1);
        return {base_ + MRC_RING_SLOTS_OFFSET + pos * slot_size_, slot_size_};
    }

    // The other side's counter: acquire, so its slot accesses happen-before
    // ours.
    uint32_t acquire_prod() const noexcept {
        return __atomic_load_n(&ctrl()->prod, __ATOMIC_ACQUIRE);
    }
    uint32_t acquire_cons() const noexcept {
        return __atomic_load_n(&ctrl()->cons, __ATOMIC_ACQUIRE);
    }
    // The kernel's MRC_RING_F_* word: acquire, so that everything it
    // produced before setting a flag is visible once the flag is.
    uint32_t acquire_flags() const noexcept {
        return __atomic_load_n(&ctrl()->flags, __ATOMIC_ACQUIRE);
    }
    // Our own counter: only this side stores it, under the caller's lock.
    uint32_t own_prod() const noexcept { return __atomic_load_n(&ctrl()->prod, __ATOMIC_RELAXED); }
    uint32_t own_cons() const noexcept { return __atomic_load_n(&ctrl()->cons, __ATOMIC_RELAXED); }
    // Publish: every slot access before the store is visible with it.
    void release_prod(uint32_t v) const noexcept {
        __atomic_store_n(&ctrl()->prod, v, __ATOMIC_RELEASE);
    }
    void release_cons(uint32_t v) const noexcept {
        __atomic_store_n(&ctrl()->cons, v, __ATOMIC_RELEASE);
    }

private:
    mrc_ring_ctrl* ctrl() const noexcept { return reinterpret_cast<mrc_ring_ctrl*>(base_); }

    std::byte* base_ = nullptr;
    uint32_t num_slots_ = 0;
    uint32_t slot_size_ = 0;
    uint32_t depth_ = 0;
};

// Producer side of one post call: fill slots after prod, then publish them
// all with a single store. A batch that is never published leaves the ring
// as it was (the consumer never looks past prod).
class ProduceBatch {
public:
    explicit ProduceBatch(const Ring& ring) noexcept
        : ring_(&ring), prod_(ring.own_prod()), space_(free_slots()) {}

    // True when another slot can join the batch; rereads cons once the slots
    // known to be free are used up.
    bool reserve() noexcept {
        if (count_ == space_) {
            space_ = free_slots();
        }
        return count_ < space_;
    }
    // The slot reserve() made room for; it joins the batch on commit().
    Slot next() const noexcept { return ring_->slot(prod_ + count_); }
    void commit() noexcept { ++count_; }
    uint32_t count() const noexcept { return count_; }

    void publish() noexcept {
        if (count_ != 0) {
            ring_->release_prod(prod_ + count_);
        }
    }

private:
    // Wraps correctly: prod - cons is the fill level modulo 2^32. A level
    // above the depth means a corrupt cons; then nothing is free.
    uint32_t free_slots() const noexcept {
        uint32_t used = prod_ - ring_->acquire_cons();
        return used > ring_->depth() ? 0 : ring_->depth() - used;
    }

    const Ring* ring_;  // a pointer, so that holders stay standard-layout
    uint32_t prod_;
    uint32_t space_;
    uint32_t count_ = 0;
};

// Consumer side of one poll call: read up to ready() slots after cons, then
// hand them back with a single store.
class ConsumeBatch {
public:
    explicit ConsumeBatch(const Ring& ring) noexcept
        : ring_(&ring), cons_(ring.own_cons()), ready_(ring.acquire_prod() - cons_) {}

    // The producer claims more entries than the ring holds: its index is
    // corrupt and no slot can be trusted.
    bool overrun() const noexcept { return ready_ > ring_->num_slots(); }
    uint32_t ready() const noexcept { return overrun() ? 0 : ready_; }
    // The i-th ready slot, i < ready().
    Slot slot(uint32_t i) const noexcept { return ring_->slot(cons_ + i); }
    // The first count slots may be reused by the producer.
    void release(uint32_t count) noexcept {
        if (count != 0) {
            ring_->release_cons(cons_ + count);
        }
    }

private:
    const Ring* ring_;
    uint32_t cons_;
    uint32_t ready_;
};

}  // namespace mrc

#endif  // MRC_RING_H
