// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Work request → ring slot translation; see mrc_wqe.h.
#include "mrc_wqe.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>

namespace mrc {
namespace {

bool is_send_opcode(ibv_wr_opcode op) noexcept {
    switch (op) {
        case IBV_WR_SEND:
        case IBV_WR_SEND_WITH_IMM:
        case IBV_WR_SEND_WITH_INV:
        case IBV_WR_RDMA_WRITE:
        case IBV_WR_RDMA_WRITE_WITH_IMM:
        case IBV_WR_RDMA_READ:
        case IBV_WR_ATOMIC_CMP_AND_SWP:
        case IBV_WR_ATOMIC_FETCH_AND_ADD:
            return true;
        default:
            return false;
    }
}

bool has_imm(ibv_wr_opcode op) noexcept {
    return op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

bool is_atomic(ibv_wr_opcode op) noexcept {
    return op == IBV_WR_ATOMIC_CMP_AND_SWP || op == IBV_WR_ATOMIC_FETCH_AND_ADD;
}

bool is_send(ibv_wr_opcode op) noexcept {
    return op == IBV_WR_SEND || op == IBV_WR_SEND_WITH_IMM || op == IBV_WR_SEND_WITH_INV;
}

// Only data-carrying SEND and WRITE can take their payload inline.
bool inline_allowed(ibv_wr_opcode op) noexcept {
    return is_send(op) || op == IBV_WR_RDMA_WRITE || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

bool sge_list_ok(const ibv_sge* sg_list, int num_sge, uint32_t max_sge) noexcept {
    if (num_sge < 0 || static_cast<uint32_t>(num_sge) > max_sge) {
        return false;
    }
    return num_sge == 0 || sg_list != nullptr;
}

// Total inline bytes, or UINT64_MAX once it exceeds limit.
uint64_t inline_length(const ibv_sge* sg_list, int num_sge, uint32_t limit) noexcept {
    uint64_t total = 0;
    for (int i = 0; i < num_sge; ++i) {
        total += sg_list[i].length;
        if (total > limit) {
            return UINT64_MAX;
        }
    }
    return total;
}

void write_sges(std::byte* dst, const ibv_sge* sg_list, int num_sge) noexcept {
    for (int i = 0; i < num_sge; ++i) {
        mrc_sge sge{};
        sge.addr = sg_list[i].addr;
        sge.length = sg_list[i].length;
        sge.lkey = sg_list[i].lkey;
        std::memcpy(dst + i * sizeof(sge), &sge, sizeof(sge));
    }
}

// The send header for wr; the payload description is set by the caller.
mrc_send_wqe send_header(const ibv_send_wr& wr) noexcept {
    mrc_send_wqe wqe{};
    wqe.wr_id = wr.wr_id;
    wqe.opcode = wr.opcode;
    wqe.send_flags = wr.send_flags;
    if (has_imm(wr.opcode)) {
        wqe.imm_data = wr.imm_data;  // stays in network byte order
    } else if (wr.opcode == IBV_WR_SEND_WITH_INV) {
        wqe.imm_data = wr.invalidate_rkey;  // host order (mrc-abi.h)
    }
    if (is_atomic(wr.opcode)) {
        wqe.remote_addr = wr.wr.atomic.remote_addr;
        wqe.rkey = wr.wr.atomic.rkey;
        wqe.compare_add = wr.wr.atomic.compare_add;
        wqe.swap = wr.wr.atomic.swap;
    } else if (!is_send(wr.opcode)) {
        wqe.remote_addr = wr.wr.rdma.remote_addr;
        wqe.rkey = wr.wr.rdma.rkey;
    }
    return wqe;
}

}  // namespace

int check_send_queue(const mrc_ring_info& ring, uint32_t max_wr, const SendCaps& caps) noexcept {
    if (check_ring_info(ring, sizeof(mrc_send_wqe)) != 0 || max_wr == 0 ||
        max_wr > ring.num_slots || caps.max_sge > send_slot_max_sge(ring.slot_size) ||
        caps.max_inline > send_slot_max_inline(ring.slot_size)) {
        return EPROTO;
    }
    return 0;
}

int check_recv_queue(const mrc_ring_info& ring, uint32_t max_wr, uint32_t max_sge) noexcept {
    if (check_ring_info(ring, sizeof(mrc_recv_wqe)) != 0 || max_wr == 0 ||
        max_wr > ring.num_slots || max_sge > recv_slot_max_sge(ring.slot_size)) {
        return EPROTO;
    }
    return 0;
}

int build_send_wqe(const ibv_send_wr& wr, const SendCaps& caps, Slot slot) noexcept {
    if (!is_send_opcode(wr.opcode) || (wr.send_flags & ~kSendFlagsKnown) != 0) {
        return EINVAL;
    }
    bool inl = (wr.send_flags & IBV_SEND_INLINE) != 0;
    // Inline data is gathered from the SGEs, so they are not limited by the
    // SGE caps, only by the inline byte caps.
    uint32_t max_sge = inl ? INT32_MAX : std::min(caps.max_sge, send_slot_max_sge(slot.size));
    if (slot.size < sizeof(mrc_send_wqe) || !sge_list_ok(wr.sg_list, wr.num_sge, max_sge)) {
        return EINVAL;
    }
    if (is_atomic(wr.opcode) && (wr.num_sge != 1 || wr.sg_list[0].length != sizeof(uint64_t))) {
        return EINVAL;
    }

    mrc_send_wqe wqe = send_header(wr);
    std::byte* payload = slot.data + sizeof(wqe);
    if (inl) {
        if (!inline_allowed(wr.opcode)) {
            return EINVAL;
        }
        uint64_t len = inline_length(wr.sg_list, wr.num_sge,
                                     std::min(caps.max_inline, send_slot_max_inline(slot.size)));
        if (len == UINT64_MAX) {
            return EINVAL;
        }
        wqe.inline_len = static_cast<uint32_t>(len);
        for (int i = 0; i < wr.num_sge; ++i) {
            const ibv_sge& sge = wr.sg_list[i];
            if (sge.length != 0) {
                std::memcpy(payload,
                            reinterpret_cast<const void*>(static_cast<uintptr_t>(sge.addr)),
                            sge.length);
                payload += sge.length;
            }
        }
    } else {
        wqe.num_sge = static_cast<uint32_t>(wr.num_sge);
        write_sges(payload, wr.sg_list, wr.num_sge);
    }
    std::memcpy(slot.data, &wqe, sizeof(wqe));
    return 0;
}

int build_ud_send_wqe(const ibv_send_wr& wr, const SendCaps& caps, uint32_t ah_num,
                      Slot slot) noexcept {
    static_assert(offsetof(mrc_send_wqe, remote_addr) + sizeof(mrc_ud_dest) ==
                      offsetof(mrc_send_wqe, compare_add),
                  "the UD destination fills remote_addr, rkey and reserved1");
    if ((wr.opcode != IBV_WR_SEND && wr.opcode != IBV_WR_SEND_WITH_IMM) || ah_num == 0) {
        return EINVAL;
    }
    int ret = build_send_wqe(wr, caps, slot);
    if (ret != 0) {
        return ret;
    }
    mrc_ud_dest dest{};
    dest.ah_num = ah_num;
    dest.remote_qpn = wr.wr.ud.remote_qpn;
    dest.remote_qkey = wr.wr.ud.remote_qkey;
    std::memcpy(slot.data + offsetof(mrc_send_wqe, remote_addr), &dest, sizeof(dest));
    return 0;
}

int build_recv_wqe(const ibv_recv_wr& wr, uint32_t max_sge, Slot slot) noexcept {
    if (slot.size < sizeof(mrc_recv_wqe) ||
        !sge_list_ok(wr.sg_list, wr.num_sge, std::min(max_sge, recv_slot_max_sge(slot.size)))) {
        return EINVAL;
    }
    mrc_recv_wqe wqe{};
    wqe.wr_id = wr.wr_id;
    wqe.num_sge = static_cast<uint32_t>(wr.num_sge);
    write_sges(slot.data + sizeof(wqe), wr.sg_list, wr.num_sge);
    std::memcpy(slot.data, &wqe, sizeof(wqe));
    return 0;
}

}  // namespace mrc
