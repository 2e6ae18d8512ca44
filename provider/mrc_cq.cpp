// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Completion queues: the kernel produces completions into a ring mapped from
// the uverbs fd; poll_cq consumes them without a system call. A CQ that
// overflows is in error for good: the kernel stops writing to the ring,
// raises IBV_EVENT_CQ_ERR and flags the ring; poll_cq returns what is
// queued, then -EOVERFLOW (poll_ring()).
#include <cerrno>
#include <mutex>
#include <utility>

#include "mrc-abi.h"
#include "mrc_cqe.h"
#include "mrc_lock.h"
#include "mrc_mapping.h"
#include "mrc_provider.h"

namespace mrc {
namespace {

struct Cq {
    ibv_cq cq;  // what libibverbs sees; filled by ibv_cmd_create_cq
    SpinLock lock;
    MappedRing ring;  // empty only if an older kernel's resize failed to map
    bool resizing;    // under lock: the kernel may be moving completions
};

Cq* to_cq(ibv_cq* cq) noexcept {
    return container_of<Cq>(cq, offsetof(Cq, cq));
}

using CqResp = DriverResp<ib_uverbs_create_cq_resp, mrc_create_cq_resp>;
using ResizeCqResp = DriverResp<ib_uverbs_resize_cq_resp, mrc_create_cq_resp>;

}  // namespace

ibv_cq* create_cq(ibv_context* context, int cqe, ibv_comp_channel* channel,
                  int comp_vector) noexcept {
    ObjPtr<Cq> cq = make_object<Cq>();
    if (!cq) {
        errno = ENOMEM;
        return nullptr;
    }

    struct ibv_create_cq cmd {};  // "struct": ibv_create_cq is also a function
    CqResp resp;
    int ret = ibv_cmd_create_cq(context, cqe, channel, comp_vector, &cq->cq, &cmd, sizeof(cmd),
                                resp.core(), resp.size());
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }

    // The ring must hold the depth reported (cq.cqe) with a slot to spare.
    mrc_ring_info info = resp.driver().ring;
    ret = cq->cq.cqe < 1 || static_cast<uint32_t>(cq->cq.cqe) >= info.num_slots ? EPROTO : 0;
    if (ret == 0) {
        ret = map_ring(context->cmd_fd, info, sizeof(mrc_cqe), cq->ring);
    }
    if (ret != 0) {
        ibv_cmd_destroy_cq(&cq->cq);
        errno = ret;
        return nullptr;
    }
    return &cq.release()->cq;
}

int poll_cq(ibv_cq* ibcq, int num_entries, ibv_wc* wc) noexcept {
    Cq* cq = to_cq(ibcq);
    std::lock_guard<SpinLock> guard(cq->lock);
    if (cq->resizing) {
        return 0;  // what is queued moves to the new ring; poll it there
    }
    if (cq->ring.ring.empty()) {
        return -EIO;
    }
    return poll_ring(cq->ring.ring, num_entries, wc);
}

namespace {

// Marks cq as resizing for the life of the guard, so that pollers never
// consume from a ring whose completions the kernel is moving (they would be
// returned twice), without holding the spinlock across system calls.
class ResizeGuard {
public:
    explicit ResizeGuard(Cq& cq) noexcept : cq_(cq) {
        std::lock_guard<SpinLock> guard(cq_.lock);
        owner_ = !cq_.resizing;
        cq_.resizing = true;
    }
    ResizeGuard(const ResizeGuard&) = delete;
    ResizeGuard& operator=(const ResizeGuard&) = delete;
    ~ResizeGuard() {
        if (owner_) {
            std::lock_guard<SpinLock> guard(cq_.lock);
            cq_.resizing = false;
        }
    }
    // False when another thread is resizing the same CQ.
    bool owner() const noexcept { return owner_; }
    // Puts fresh in place of the current ring; returns the old one so that
    // the caller unmaps it after the lock is dropped.
    MappedRing swap(MappedRing&& fresh) noexcept {
        std::lock_guard<SpinLock> guard(cq_.lock);
        MappedRing old = std::move(cq_.ring);
        cq_.ring = std::move(fresh);
        return old;
    }

private:
    Cq& cq_;
    bool owner_;
};

}  // namespace

namespace {

// ibv_resize_cq followed by the driver's command, as ibv_cmd_resize_cq
// sends it (the kernel sees the tail as udata).
struct ResizeCqCmd {
    struct ibv_resize_cq core;  // "struct": ibv_resize_cq is also a function
    mrc_resize_cq_cmd driver;
};
static_assert(offsetof(ResizeCqCmd, driver) == sizeof(struct ibv_resize_cq));

// One resize command with MRC_RESIZE_CQ_* flags; info is the ring it names.
int resize_command(ibv_cq* ibcq, int cqe, uint32_t flags, mrc_ring_info& info) noexcept {
    ResizeCqCmd cmd{};
    cmd.driver.flags = flags;
    ResizeCqResp resp;
    int ret = ibv_cmd_resize_cq(ibcq, cqe, &cmd.core, sizeof(cmd), resp.core(), resp.size());
    if (ret == 0) {
        info = resp.driver().ring;
    }
    return ret;
}

}  // namespace

// In two steps (mrc-abi.h, struct mrc_resize_cq_cmd): the kernel prepares
// the new ring, we map it, and only then does the kernel move to it. Any
// failure before the commit leaves the CQ on its old ring, still polled.
int resize_cq(ibv_cq* ibcq, int cqe) noexcept {
    Cq* cq = to_cq(ibcq);
    ResizeGuard resize(*cq);
    if (!resize.owner()) {
        return EBUSY;
    }
    const int fd = ibcq->context->cmd_fd;

    mrc_ring_info info{};
    int ret = resize_command(ibcq, cqe, MRC_RESIZE_CQ_PREPARE, info);
    if (ret != 0) {
        return ret;  // the old ring stays in use
    }
    MappedRing fresh;
    ret = map_ring(fd, info, sizeof(mrc_cqe), fresh);
    if ((info.flags & MRC_RING_INFO_F_PREPARED) == 0) {
        // A kernel without the two steps switched at once: the new ring is
        // the only one, or the CQ is lost if it failed to map (poll_cq
        // then reports -EIO).
        resize.swap(std::move(fresh));  // the old ring is unmapped on return
        return ret;
    }
    if (ret != 0) {
        return ret;  // not committed: the CQ keeps its old ring
    }

    mrc_ring_info committed{};
    ret = resize_command(ibcq, cqe, MRC_RESIZE_CQ_COMMIT, committed);
    if (ret != 0) {
        return ret;  // e.g. more completions queued than cqe: nothing moved
    }
    if (committed.mmap_offset != info.mmap_offset) {
        // Not the ring prepared: the kernel switched to one we must map.
        ret = map_ring(fd, committed, sizeof(mrc_cqe), fresh);
        if (ret != 0) {
            fresh = MappedRing{};
        }
    }
    resize.swap(std::move(fresh));  // the old ring is unmapped on return
    return ret;
}

int destroy_cq(ibv_cq* ibcq) noexcept {
    int ret = ibv_cmd_destroy_cq(ibcq);
    if (ret != 0) {
        return ret;  // the kernel still holds the CQ and its ring
    }
    ObjPtr<Cq> cq(to_cq(ibcq));  // unmaps the ring, frees the object
    return 0;
}

}  // namespace mrc
