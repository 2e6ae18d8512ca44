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
#include "mrc_ring.h"

namespace mrc {
namespace {

struct Cq {
    verbs_cq vcq;  // what libibverbs sees; filled by ibv_cmd_create_cq(_ex)
    SpinLock lock;
    MappedRing ring;    // empty only if an older kernel's resize failed to map
    bool resizing;      // under lock: the kernel may be moving completions
    PollCursor cursor;  // ibv_start_poll .. ibv_end_poll, under lock
};

Cq* to_cq(ibv_cq* cq) noexcept {
    verbs_cq* vcq = container_of<verbs_cq>(cq, offsetof(verbs_cq, cq));
    return container_of<Cq>(vcq, offsetof(Cq, vcq));
}

Cq* to_cq(ibv_cq_ex* cq) noexcept {
    verbs_cq* vcq = container_of<verbs_cq>(cq, offsetof(verbs_cq, cq_ex));
    return container_of<Cq>(vcq, offsetof(Cq, vcq));
}

// The ring of a created CQ must hold the depth reported (cqe) with a slot
// to spare; then it is mapped. 0 or an errno.
int map_cq_ring(int fd, int cqe, const mrc_ring_info& info, Cq& cq) noexcept {
    if (cqe < 1 || static_cast<uint32_t>(cqe) >= info.num_slots) {
        return EPROTO;
    }
    return map_ring(fd, info, sizeof(mrc_cqe), cq.ring);
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
    int ret = ibv_cmd_create_cq(context, cqe, channel, comp_vector, &cq->vcq.cq, &cmd, sizeof(cmd),
                                resp.core(), resp.size());
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    ret = map_cq_ring(context->cmd_fd, cq->vcq.cq.cqe, resp.driver().ring, *cq);
    if (ret != 0) {
        ibv_cmd_destroy_cq(&cq->vcq.cq);
        errno = ret;
        return nullptr;
    }
    return &cq.release()->vcq.cq;
}

namespace {

// The extended poll (ibv_start_poll and friends). The CQ's lock is held
// from a successful start_poll to end_poll, as in rxe.
int cq_start_poll(ibv_cq_ex* ibcq, ibv_poll_cq_attr* attr) noexcept {
    if (attr != nullptr && attr->comp_mask != 0) {
        return EINVAL;
    }
    Cq* cq = to_cq(ibcq);
    cq->lock.lock();
    int ret = ENOENT;  // while resizing, what is queued moves to the new ring
    if (!cq->resizing) {
        ret = cq->ring.ring.empty() ? EIO : cq->cursor.start(cq->ring.ring);
    }
    if (ret != 0) {
        cq->lock.unlock();
        return ret;
    }
    ibcq->status = static_cast<ibv_wc_status>(cq->cursor.current().status);
    ibcq->wr_id = cq->cursor.current().wr_id;
    return 0;
}

int cq_next_poll(ibv_cq_ex* ibcq) noexcept {
    Cq* cq = to_cq(ibcq);
    int ret = cq->cursor.next();
    if (ret == 0) {
        ibcq->status = static_cast<ibv_wc_status>(cq->cursor.current().status);
        ibcq->wr_id = cq->cursor.current().wr_id;
    }
    return ret;
}

void cq_end_poll(ibv_cq_ex* ibcq) noexcept {
    Cq* cq = to_cq(ibcq);
    cq->cursor.end();
    cq->lock.unlock();
}

const mrc_cqe& current(ibv_cq_ex* ibcq) noexcept {
    return to_cq(ibcq)->cursor.current();
}

ibv_wc_opcode cq_read_opcode(ibv_cq_ex* cq) noexcept {
    return static_cast<ibv_wc_opcode>(current(cq).opcode);
}
uint32_t cq_read_vendor_err(ibv_cq_ex* cq) noexcept {
    return current(cq).vendor_err;
}
uint32_t cq_read_byte_len(ibv_cq_ex* cq) noexcept {
    return current(cq).byte_len;
}
__be32 cq_read_imm_data(ibv_cq_ex* cq) noexcept {
    return current(cq).imm_data;  // network order, or the invalidated key
}
uint32_t cq_read_qp_num(ibv_cq_ex* cq) noexcept {
    return current(cq).qp_num;
}
uint32_t cq_read_src_qp(ibv_cq_ex* cq) noexcept {
    return current(cq).src_qp;
}
unsigned int cq_read_wc_flags(ibv_cq_ex* cq) noexcept {
    return current(cq).wc_flags;
}
uint32_t cq_read_slid(ibv_cq_ex* cq) noexcept {
    return current(cq).slid;
}
uint8_t cq_read_sl(ibv_cq_ex* cq) noexcept {
    return current(cq).sl;
}
uint8_t cq_read_dlid_path_bits(ibv_cq_ex* cq) noexcept {
    return current(cq).dlid_path_bits;
}

// The getters the program asked for in wc_flags, and the ones every
// extended CQ has; the others stay NULL, as libibverbs expects.
void set_poll_ops(ibv_cq_ex& cq, uint64_t wc_flags) noexcept {
    cq.start_poll = cq_start_poll;
    cq.next_poll = cq_next_poll;
    cq.end_poll = cq_end_poll;
    cq.read_opcode = cq_read_opcode;
    cq.read_vendor_err = cq_read_vendor_err;
    cq.read_wc_flags = cq_read_wc_flags;
    if ((wc_flags & IBV_WC_EX_WITH_BYTE_LEN) != 0) {
        cq.read_byte_len = cq_read_byte_len;
    }
    if ((wc_flags & IBV_WC_EX_WITH_IMM) != 0) {
        cq.read_imm_data = cq_read_imm_data;
    }
    if ((wc_flags & IBV_WC_EX_WITH_QP_NUM) != 0) {
        cq.read_qp_num = cq_read_qp_num;
    }
    if ((wc_flags & IBV_WC_EX_WITH_SRC_QP) != 0) {
        cq.read_src_qp = cq_read_src_qp;
    }
    if ((wc_flags & IBV_WC_EX_WITH_SLID) != 0) {
        cq.read_slid = cq_read_slid;
    }
    if ((wc_flags & IBV_WC_EX_WITH_SL) != 0) {
        cq.read_sl = cq_read_sl;
    }
    if ((wc_flags & IBV_WC_EX_WITH_DLID_PATH_BITS) != 0) {
        cq.read_dlid_path_bits = cq_read_dlid_path_bits;
    }
}

using CqExResp = DriverResp<ib_uverbs_ex_create_cq_resp, mrc_create_cq_resp>;

}  // namespace

ibv_cq_ex* create_cq_ex(ibv_context* context, ibv_cq_init_attr_ex* attr) noexcept {
    int ret = check_cq_wc_flags(attr->wc_flags);
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    ObjPtr<Cq> cq = make_object<Cq>();
    if (!cq) {
        errno = ENOMEM;
        return nullptr;
    }

    struct ibv_create_cq_ex cmd {};  // "struct": ibv_create_cq_ex is also a function
    CqExResp resp;
    ret = ibv_cmd_create_cq_ex(context, attr, &cq->vcq, &cmd, sizeof(cmd), resp.core(), resp.size(),
                               0);
    if (ret != 0) {
        errno = ret;
        return nullptr;
    }
    ret = map_cq_ring(context->cmd_fd, cq->vcq.cq.cqe, resp.driver().ring, *cq);
    if (ret != 0) {
        ibv_cmd_destroy_cq(&cq->vcq.cq);
        errno = ret;
        return nullptr;
    }
    set_poll_ops(cq->vcq.cq_ex, attr->wc_flags);
    return &cq.release()->vcq.cq_ex;
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
