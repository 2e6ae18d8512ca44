// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// ibv_wr_* sessions over a send ring; see mrc_wr.h.
#include "mrc_wr.h"

#include <cerrno>

namespace mrc {

uint64_t supported_send_ops(ibv_qp_type type) noexcept {
    switch (type) {
        case IBV_QPT_RC:
            return kRcSendOps;
        case IBV_QPT_UC:
            return kUcSendOps;
        case IBV_QPT_UD:
            return kUdSendOps;
        default:
            return 0;
    }
}

int check_qp_init_attr_ex(const ibv_qp_init_attr_ex& attr) noexcept {
    if ((attr.comp_mask & ~kQpInitAttrMask) != 0) {
        return EOPNOTSUPP;
    }
    if ((attr.comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS) != 0 && attr.create_flags != 0) {
        return EOPNOTSUPP;
    }
    if ((attr.comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) != 0) {
        uint64_t ops = supported_send_ops(attr.qp_type);
        if (ops == 0 || (attr.send_ops_flags & ~ops) != 0) {
            return EOPNOTSUPP;
        }
    }
    return 0;
}

void WrSession::start(const Ring& ring, const SendCaps& caps, bool ud) noexcept {
    ring_ = &ring;
    caps_ = caps;
    ud_ = ud;
    err_ = ring.empty() ? EINVAL : 0;
    published_ = 0;
    open_ = false;
    batch_.reset();
    if (err_ == 0) {
        batch_.emplace(ring);
    }
}

// Steps 4 to 6 of mrc_wqe.h for the open request, which then joins the batch.
void WrSession::close_open() noexcept {
    if (!open_) {
        return;
    }
    open_ = false;
    if (err_ != 0) {
        return;
    }
    const bool inl = (cur_.send_flags & IBV_SEND_INLINE) != 0;
    auto op = static_cast<ibv_wr_opcode>(cur_.opcode);
    int ret = check_payload(op, inl, cur_.num_sge, first_sge_length_);
    if (ret == 0 && ud_ && ud_dest_.ah_num == 0) {
        ret = EINVAL;  // a UD request without ibv_wr_set_ud_addr (or a null AH)
    }
    if (ret != 0) {
        fail(ret);
        return;
    }
    if (ud_) {
        set_ud_dest(cur_, ud_dest_);
    }
    commit_header(slot_, cur_);
    batch_->commit();
}

void WrSession::begin_bind_mw(uint64_t wr_id, uint32_t wr_flags, const ibv_mw* mw, uint32_t rkey,
                              const ibv_mw_bind_info* info) noexcept {
    if (mw == nullptr || info == nullptr || (info->mr == nullptr && info->length != 0)) {
        close_open();
        fail(EINVAL);
        return;
    }
    begin(wr_id, wr_flags, IBV_WR_BIND_MW, bind_mw_operands(*mw, rkey, *info));
}

void WrSession::begin(uint64_t wr_id, uint32_t wr_flags, ibv_wr_opcode op,
                      const SendOperands& operands) noexcept {
    close_open();
    if (err_ != 0) {
        return;
    }
    if (check_send_op(op, wr_flags) != 0 ||
        (ud_ && op != IBV_WR_SEND && op != IBV_WR_SEND_WITH_IMM)) {
        fail(EINVAL);
        return;
    }
    if (!batch_->reserve()) {
        fail(ENOSPC);
        return;
    }
    slot_ = batch_->next();
    if (slot_.size < sizeof(mrc_send_wqe)) {
        fail(EINVAL);
        return;
    }
    // Until a setter says otherwise the request has no payload: a
    // zero-length SEND or WRITE, as ibv_post_send with num_sge 0.
    cur_ = send_op_header(wr_id, op, wr_flags, operands);
    cur_.send_flags &= ~IBV_SEND_INLINE;
    first_sge_length_ = 0;
    ud_dest_ = mrc_ud_dest{};
    open_ = true;
}

void WrSession::set_ud_addr(uint32_t ah_num, uint32_t remote_qpn, uint32_t remote_qkey) noexcept {
    if (!open_) {
        fail(EINVAL);
    }
    if (!accepting()) {
        return;
    }
    ud_dest_.ah_num = ah_num;
    ud_dest_.remote_qpn = remote_qpn;
    ud_dest_.remote_qkey = remote_qkey;
}

void WrSession::set_sge(uint32_t lkey, uint64_t addr, uint32_t length) noexcept {
    ibv_sge sge{addr, length, lkey};
    set_sge_list(1, &sge);
}

void WrSession::set_sge_list(std::size_t num_sge, const ibv_sge* sg_list) noexcept {
    if (!open_) {
        fail(EINVAL);
    }
    if (!accepting() || payload_ignored()) {
        return;
    }
    int ret = place_sges(slot_, cur_, sg_list, num_sge, caps_.max_sge);
    if (ret != 0) {
        fail(ret);
        return;
    }
    first_sge_length_ = num_sge != 0 ? sg_list[0].length : 0;
}

void WrSession::set_inline_data(const void* addr, std::size_t length) noexcept {
    ibv_data_buf buf{const_cast<void*>(addr), length};
    set_inline_data_list(1, &buf);
}

void WrSession::set_inline_data_list(std::size_t num_buf, const ibv_data_buf* buf_list) noexcept {
    if (!open_) {
        fail(EINVAL);
    }
    if (!accepting() || payload_ignored()) {
        return;
    }
    int ret = place_inline(slot_, cur_, buf_list, num_buf, caps_.max_inline);
    if (ret != 0) {
        fail(ret);
        return;
    }
    first_sge_length_ = 0;
}

int WrSession::complete() noexcept {
    close_open();
    int err = err_;
    if (err == 0 && batch_) {
        batch_->publish();
        published_ = batch_->count();
    }
    batch_.reset();
    ring_ = nullptr;
    return err;
}

void WrSession::abort() noexcept {
    open_ = false;
    batch_.reset();  // never published: the ring is as it was
    ring_ = nullptr;
    published_ = 0;
}

}  // namespace mrc
