// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// Work request → ring slot translation; see mrc_wqe.h.
#include "mrc_wqe.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <utility>

namespace mrc {
namespace {

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

uint32_t slot_sge_room(Slot slot, uint32_t cap) noexcept {
    return std::min(cap, send_slot_max_sge(slot.size));
}

uint32_t slot_inline_room(Slot slot, uint32_t cap) noexcept {
    return std::min(cap, send_slot_max_inline(slot.size));
}

void write_sges(std::byte* dst, const ibv_sge* sg_list, std::size_t num_sge) noexcept {
    for (std::size_t i = 0; i < num_sge; ++i) {
        mrc_sge sge{};
        sge.addr = sg_list[i].addr;
        sge.length = sg_list[i].length;
        sge.lkey = sg_list[i].lkey;
        std::memcpy(dst + i * sizeof(sge), &sge, sizeof(sge));
    }
}

// Inline data from num pieces, piece(i) giving {address, length}: the total
// is checked against limit before a byte is copied.
template <typename Piece>
int place_pieces(Slot slot, mrc_send_wqe& wqe, std::size_t num, uint32_t max_inline,
                 Piece piece) noexcept {
    const uint64_t limit = slot_inline_room(slot, max_inline);
    uint64_t total = 0;
    for (std::size_t i = 0; i < num; ++i) {
        total += piece(i).second;
        if (total > limit) {
            return ENOSPC;
        }
    }
    std::byte* dst = slot.data + sizeof(mrc_send_wqe);
    for (std::size_t i = 0; i < num; ++i) {
        auto [addr, len] = piece(i);
        if (len != 0) {
            std::memcpy(dst, addr, len);
            dst += len;
        }
    }
    wqe.num_sge = 0;
    wqe.inline_len = static_cast<uint32_t>(total);
    wqe.send_flags |= IBV_SEND_INLINE;
    return 0;
}

bool sge_list_ok(const ibv_sge* sg_list, int num_sge, uint32_t max_sge) noexcept {
    if (num_sge < 0 || static_cast<uint32_t>(num_sge) > max_sge) {
        return false;
    }
    return num_sge == 0 || sg_list != nullptr;
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

int check_send_op(ibv_wr_opcode op, uint32_t send_flags) noexcept {
    switch (op) {
        case IBV_WR_SEND:
        case IBV_WR_SEND_WITH_IMM:
        case IBV_WR_SEND_WITH_INV:
        case IBV_WR_RDMA_WRITE:
        case IBV_WR_RDMA_WRITE_WITH_IMM:
        case IBV_WR_RDMA_READ:
        case IBV_WR_ATOMIC_CMP_AND_SWP:
        case IBV_WR_ATOMIC_FETCH_AND_ADD:
        case IBV_WR_LOCAL_INV:
        case IBV_WR_BIND_MW:
            break;
        default:
            return EINVAL;
    }
    return (send_flags & ~kSendFlagsKnown) != 0 ? EINVAL : 0;
}

mrc_send_wqe send_op_header(uint64_t wr_id, ibv_wr_opcode op, uint32_t send_flags,
                            const SendOperands& operands) noexcept {
    mrc_send_wqe wqe{};
    wqe.wr_id = wr_id;
    wqe.opcode = op;
    wqe.send_flags = is_local_op(op) ? send_flags & ~IBV_SEND_INLINE : send_flags;
    if (has_imm(op) || op == IBV_WR_SEND_WITH_INV || op == IBV_WR_LOCAL_INV) {
        wqe.imm_data = operands.imm;  // immediate: network order; key: host order
    }
    if (is_atomic(op) || op == IBV_WR_BIND_MW) {
        wqe.remote_addr = operands.remote_addr;
        wqe.rkey = operands.rkey;
        wqe.compare_add = operands.compare_add;
        wqe.swap = op != IBV_WR_ATOMIC_FETCH_AND_ADD ? operands.swap : 0;
        if (op == IBV_WR_BIND_MW) {
            wqe.imm_data = operands.imm;
        }
    } else if (!is_send(op) && !is_local_op(op)) {
        wqe.remote_addr = operands.remote_addr;
        wqe.rkey = operands.rkey;
    }
    return wqe;
}

int place_sges(Slot slot, mrc_send_wqe& wqe, const ibv_sge* sg_list, std::size_t num_sge,
               uint32_t max_sge) noexcept {
    if (num_sge > slot_sge_room(slot, max_sge)) {
        return ENOSPC;
    }
    if (num_sge != 0 && sg_list == nullptr) {
        return EINVAL;
    }
    write_sges(slot.data + sizeof(mrc_send_wqe), sg_list, num_sge);
    wqe.num_sge = static_cast<uint32_t>(num_sge);
    wqe.inline_len = 0;
    wqe.send_flags &= ~IBV_SEND_INLINE;
    return 0;
}

int place_inline(Slot slot, mrc_send_wqe& wqe, const ibv_sge* sg_list, std::size_t num_sge,
                 uint32_t max_inline) noexcept {
    if (num_sge != 0 && sg_list == nullptr) {
        return EINVAL;
    }
    return place_pieces(slot, wqe, num_sge, max_inline, [sg_list](std::size_t i) {
        return std::pair<const void*, std::size_t>(
            reinterpret_cast<const void*>(static_cast<uintptr_t>(sg_list[i].addr)),
            sg_list[i].length);
    });
}

int place_inline(Slot slot, mrc_send_wqe& wqe, const ibv_data_buf* bufs, std::size_t num_buf,
                 uint32_t max_inline) noexcept {
    if (num_buf != 0 && bufs == nullptr) {
        return EINVAL;
    }
    return place_pieces(slot, wqe, num_buf, max_inline, [bufs](std::size_t i) {
        return std::pair<const void*, std::size_t>(bufs[i].addr, bufs[i].length);
    });
}

int check_payload(ibv_wr_opcode op, bool is_inline, uint32_t num_sge,
                  uint32_t first_sge_length) noexcept {
    if (is_inline && !inline_allowed(op)) {
        return EINVAL;
    }
    if (is_atomic(op) && (is_inline || num_sge != 1 || first_sge_length != sizeof(uint64_t))) {
        return EINVAL;
    }
    return 0;
}

void set_ud_dest(mrc_send_wqe& wqe, const mrc_ud_dest& dest) noexcept {
    static_assert(offsetof(mrc_send_wqe, remote_addr) + sizeof(mrc_ud_dest) ==
                      offsetof(mrc_send_wqe, compare_add),
                  "the UD destination fills remote_addr, rkey and reserved1");
    std::memcpy(reinterpret_cast<std::byte*>(&wqe) + offsetof(mrc_send_wqe, remote_addr), &dest,
                sizeof(dest));
}

void commit_header(Slot slot, const mrc_send_wqe& wqe) noexcept {
    std::memcpy(slot.data, &wqe, sizeof(wqe));
}

SendOperands bind_mw_operands(const ibv_mw& mw, uint32_t rkey,
                              const ibv_mw_bind_info& info) noexcept {
    SendOperands o;
    o.imm = mw.rkey;
    o.rkey = rkey;
    o.remote_addr = info.addr;
    o.compare_add = info.length;
    o.swap = (static_cast<uint64_t>(info.mr != nullptr ? info.mr->lkey : 0) << 32) |
             static_cast<uint32_t>(info.mw_access_flags);
    return o;
}

SendOperands send_wr_operands(const ibv_send_wr& wr) noexcept {
    if (wr.opcode == IBV_WR_BIND_MW) {
        return bind_mw_operands(*wr.bind_mw.mw, wr.bind_mw.rkey, wr.bind_mw.bind_info);
    }
    SendOperands o;
    if (wr.opcode == IBV_WR_SEND_WITH_INV || wr.opcode == IBV_WR_LOCAL_INV) {
        o.imm = wr.invalidate_rkey;  // host order (mrc-abi.h)
    } else if (has_imm(wr.opcode)) {
        o.imm = wr.imm_data;  // stays in network byte order
    }
    if (is_atomic(wr.opcode)) {
        o.remote_addr = wr.wr.atomic.remote_addr;
        o.rkey = wr.wr.atomic.rkey;
        o.compare_add = wr.wr.atomic.compare_add;
        o.swap = wr.wr.atomic.swap;
    } else if (!is_send(wr.opcode)) {
        o.remote_addr = wr.wr.rdma.remote_addr;
        o.rkey = wr.wr.rdma.rkey;
    }
    return o;
}

namespace {

// ibv_post_send's request through the steps of mrc_wqe.h; dest non-null on UD.
int build_posted(const ibv_send_wr& wr, const SendCaps& caps, const mrc_ud_dest* dest,
                 Slot slot) noexcept {
    if (check_send_op(wr.opcode, wr.send_flags) != 0 || slot.size < sizeof(mrc_send_wqe) ||
        wr.num_sge < 0) {
        return EINVAL;
    }
    // A bind names its window, and an MR unless it unbinds (length 0).
    if (wr.opcode == IBV_WR_BIND_MW &&
        (wr.bind_mw.mw == nullptr ||
         (wr.bind_mw.bind_info.mr == nullptr && wr.bind_mw.bind_info.length != 0))) {
        return EINVAL;
    }
    const bool local = is_local_op(wr.opcode);
    const bool inl = !local && (wr.send_flags & IBV_SEND_INLINE) != 0;
    const auto num_sge = local ? 0U : static_cast<uint32_t>(wr.num_sge);
    const uint32_t first_len = num_sge != 0 && wr.sg_list != nullptr ? wr.sg_list[0].length : 0;
    // Checked before anything is written: a refused request leaves the slot as it was.
    if (check_payload(wr.opcode, inl, num_sge, first_len) != 0) {
        return EINVAL;
    }
    mrc_send_wqe wqe = send_op_header(wr.wr_id, wr.opcode, wr.send_flags, send_wr_operands(wr));
    int ret = inl ? place_inline(slot, wqe, wr.sg_list, num_sge, caps.max_inline)
                  : place_sges(slot, wqe, wr.sg_list, num_sge, caps.max_sge);
    if (ret != 0) {
        return EINVAL;  // ENOSPC too: ibv_post_send says EINVAL, as rxe does
    }
    if (dest != nullptr) {
        set_ud_dest(wqe, *dest);
    }
    commit_header(slot, wqe);
    return 0;
}

}  // namespace

int build_send_wqe(const ibv_send_wr& wr, const SendCaps& caps, Slot slot) noexcept {
    return build_posted(wr, caps, nullptr, slot);
}

int build_ud_send_wqe(const ibv_send_wr& wr, const SendCaps& caps, uint32_t ah_num,
                      Slot slot) noexcept {
    if ((wr.opcode != IBV_WR_SEND && wr.opcode != IBV_WR_SEND_WITH_IMM) || ah_num == 0) {
        return EINVAL;
    }
    mrc_ud_dest dest{};
    dest.ah_num = ah_num;
    dest.remote_qpn = wr.wr.ud.remote_qpn;
    dest.remote_qkey = wr.wr.ud.remote_qkey;
    return build_posted(wr, caps, &dest, slot);
}

int build_recv_wqe(const ibv_recv_wr& wr, uint32_t max_sge, Slot slot) noexcept {
    if (slot.size < sizeof(mrc_recv_wqe) ||
        !sge_list_ok(wr.sg_list, wr.num_sge, std::min(max_sge, recv_slot_max_sge(slot.size)))) {
        return EINVAL;
    }
    mrc_recv_wqe wqe{};
    wqe.wr_id = wr.wr_id;
    wqe.num_sge = static_cast<uint32_t>(wr.num_sge);
    write_sges(slot.data + sizeof(wqe), wr.sg_list, static_cast<std::size_t>(wr.num_sge));
    std::memcpy(slot.data, &wqe, sizeof(wqe));
    return 0;
}

}  // namespace mrc
