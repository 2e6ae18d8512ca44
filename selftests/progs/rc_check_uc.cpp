// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenario of UC QPs, checked byte for byte: SENDs of sizes
// around the packet boundaries and WRITEs with immediate land whole; a
// WRITE beyond the target MR completes at the sender (UC reports nothing
// back) while the receiver drops it, writes nothing and keeps its receive
// WQE for the next message; an opcode UC lacks (READ) fails the send.

#include "rc_check_scenarios.h"

#include <arpa/inet.h>

namespace rc_check {

namespace {

constexpr int kLocal = IBV_ACCESS_LOCAL_WRITE;
constexpr size_t KiB = 1024;

}  // namespace

Err scenario_uc(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.type = IBV_QPT_UC;
    caps.access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    const size_t big = 200 * KiB;
    const size_t guard = 256;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(big + 64, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(big + 2 * guard, caps.access, &dst))
        return err;

    // SENDs: one packet, around the 1024 and 1408-byte segments, many.
    const size_t sizes[] = {0, 1, 1024, 1025, 1408, 1409, 3 * 1408 + 7, 64 * KiB, big};
    uint64_t id = 1;
    for (size_t n : sizes) {
        src->reset(rng.next());
        dst->reset(rng.next());
        if (auto err = post_recv(p.b, id, {dst->sge(guard, big)}))
            return err;
        if (auto err = post_msg(p.a, id, {src->sge(3, n)}))
            return err;
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {id, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return in(label("UC SEND of %zu bytes", n), err);
        ibv_wc wc{};
        if (auto err = expect_wc(p.b, Queue::kRecv, wait, {id, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
            return in(label("UC SEND of %zu bytes", n), err);
        if (wc.byte_len != n)
            return fail("UC SEND of %zu bytes: byte_len %u", n, wc.byte_len);
        dst->expect(guard, src->data() + 3, n);
        if (auto err = dst->verify(label("B memory after a UC SEND of %zu bytes", n).c_str()))
            return err;
        id++;
    }

    // A WRITE with immediate, then one that runs past the end of an MR
    // of B's: B drops it (what it placed before the end is undefined, as
    // in IB; nothing past the end is written) and keeps the receive it
    // would have used for the third.
    Region* edge = nullptr;
    if (auto err = p.b.add_region(4 * KiB, caps.access, &edge, 4 * KiB))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());
    edge->reset(rng.next());
    const uint32_t imm = static_cast<uint32_t>(rng.next());
    if (auto err = post_recv(p.b, 100, {}))
        return err;
    if (auto err = post_recv(p.b, 101, {}))
        return err;
    if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 100, {src->sge(0, 50 * KiB)},
                             dst->addr(guard), dst->rkey(), IBV_SEND_SIGNALED, imm))
        return err;
    if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 101, {src->sge(0, 8 * KiB)},
                             edge->addr(0), edge->rkey(), IBV_SEND_SIGNALED, imm))
        return err;
    if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 102, {src->sge(60 * KiB, 4 * KiB)},
                             dst->addr(guard + 60 * KiB), dst->rkey(), IBV_SEND_SIGNALED, imm + 1))
        return err;
    for (uint64_t w = 100; w <= 102; w++)
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {w, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE}))
            return in("UC WRITE_WITH_IMM (the sender learns nothing of a drop)", err);
    for (uint64_t w = 100; w <= 101; w++) {
        ibv_wc wc{};
        if (auto err = expect_wc(p.b, Queue::kRecv, wait,
                                 {w, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM}, &wc))
            return in("UC WRITE_WITH_IMM, the one past the MR dropped", err);
        const uint32_t want = w == 100 ? imm : imm + 1;
        if (!(wc.wc_flags & IBV_WC_WITH_IMM) || wc.imm_data != htonl(want))
            return fail("B recv %llu: imm 0x%08x (flags 0x%x), want 0x%08x",
                        static_cast<unsigned long long>(w), ntohl(wc.imm_data), wc.wc_flags, want);
    }
    dst->expect(guard, src->data(), 50 * KiB);
    dst->expect(guard + 60 * KiB, src->data() + 60 * KiB, 4 * KiB);
    if (auto err = dst->verify("B memory after two UC WRITEs"))
        return err;
    edge->expect(0, edge->data(), 4 * KiB);
    if (auto err = edge->verify("B memory past the MR the dropped WRITE ran over"))
        return err;

    // READ is not a UC operation: the send fails, the QP goes to error.
    if (auto err =
            post_rdma(p.a, IBV_WR_RDMA_READ, 200, {src->sge(0, 64)}, dst->addr(guard), dst->rkey()))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {200, IBV_WC_LOC_QP_OP_ERR}))
        return in("READ on a UC QP", err);
    return std::nullopt;
}

}  // namespace rc_check
