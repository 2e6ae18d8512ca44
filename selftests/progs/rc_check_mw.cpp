// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenarios of memory windows: B binds a window over part of
// a registered buffer and A's WRITEs and READs reach exactly that part
// through the window's key, byte for byte; the key stops working when the
// window is invalidated (LOCAL_INV, or A's SEND with Invalidate) or bound
// again, the MR cannot be deregistered while a window is bound to it, and
// a bind past the MR's end fails with IBV_WC_MW_BIND_ERR.

#include "rc_check_scenarios.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace rc_check {

namespace {

constexpr size_t kLen = 8192;
constexpr size_t kWinOff = 1024;  // the window: [kWinOff, kWinOff + kWinLen) of B's buffer
constexpr size_t kWinLen = 4096;
constexpr int kWinAccess = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;

struct MwDeleter {
    void operator()(ibv_mw* mw) const { ibv_dealloc_mw(mw); }
};
using Mw = std::unique_ptr<ibv_mw, MwDeleter>;

struct MwPair {
    Pair p;
    Region* a = nullptr;  // A's buffer: WRITE source, READ destination
    Region* b = nullptr;  // B's buffer, registered with IBV_ACCESS_MW_BIND
    Mw mw;                // declared last: deallocated before the MR goes
};

Err make_mw_pair(Env& env, Rng& rng, ibv_mw_type type, MwPair* out) {
    if (auto err = make_pair(env, rng, QpCaps{}, &out->p))
        return err;
    if (auto err = out->p.a.add_region(kLen, IBV_ACCESS_LOCAL_WRITE, &out->a))
        return err;
    if (auto err = out->p.b.add_region(kLen, kDefaultAccess | IBV_ACCESS_MW_BIND, &out->b))
        return err;
    out->a->reset(rng.next());
    out->b->reset(rng.next());
    out->mw.reset(ibv_alloc_mw(out->p.b.pd.get(), type));
    if (!out->mw)
        return fail("B: ibv_alloc_mw(type %d): %s", type, std::strerror(errno));
    return std::nullopt;
}

// B binds its type 2 window over [off, off + len) of its buffer, through
// its own QP, and waits for the bind's completion (status want).
Err bind_type2(Env& env, MwPair& m, size_t off, size_t len, ibv_wc_status want) {
    ibv_send_wr wr{};
    wr.wr_id = 50;
    wr.opcode = IBV_WR_BIND_MW;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.bind_mw.mw = m.mw.get();
    wr.bind_mw.rkey = ibv_inc_rkey(m.mw->rkey);
    wr.bind_mw.bind_info.mr = m.b->mr.get();
    wr.bind_mw.bind_info.addr = m.b->addr(off);
    wr.bind_mw.bind_info.length = len;
    wr.bind_mw.bind_info.mw_access_flags = kWinAccess;
    if (auto err = post_send_wr(m.p.b, &wr))
        return err;
    if (auto err = in("B's BIND_MW",
                      expect_wc(m.p.b, Queue::kSend, env.opt.wait_ms, {50, want, IBV_WC_BIND_MW})))
        return err;
    if (want == IBV_WC_SUCCESS)
        m.mw->rkey = wr.bind_mw.rkey;
    return std::nullopt;
}

// A WRITEs n bytes of its buffer at off into B's window at off; on
// success B's buffer must hold them there, and only there.
Err write_through(Env& env, MwPair& m, uint32_t rkey, size_t off, size_t n, ibv_wc_status want,
                  uint64_t wr_id) {
    if (auto err =
            post_rdma(m.p.a, IBV_WR_RDMA_WRITE, wr_id, {m.a->sge(off, n)}, m.b->addr(off), rkey))
        return err;
    if (auto err = expect_wc(m.p.a, Queue::kSend, env.opt.wait_ms, {wr_id, want}))
        return err;
    if (want == IBV_WC_SUCCESS)
        m.b->expect(off, m.a->data() + off, n);
    return m.b->verify(want == IBV_WC_SUCCESS ? "B memory after the WRITE through the window"
                                              : "B memory after the refused WRITE");
}

}  // namespace

// Type 2: bound by B's QP, written and read by A through its key, then
// invalidated by B: the key no longer works.
Err scenario_mw_type2(Env& env, Rng& rng) {
    MwPair m;
    if (auto err = make_mw_pair(env, rng, IBV_MW_TYPE_2, &m))
        return err;
    const uint32_t mr_rkey = m.b->rkey();
    if (auto err = bind_type2(env, m, kWinOff, kWinLen, IBV_WC_SUCCESS))
        return err;
    if (m.mw->rkey == mr_rkey)
        return fail("the window's key 0x%x is the MR's", m.mw->rkey);
    if (auto err = write_through(env, m, m.mw->rkey, kWinOff, kWinLen, IBV_WC_SUCCESS, 1))
        return err;
    // READ the window back into A's buffer after a fresh pattern there.
    m.a->reset(rng.next());
    if (auto err = post_rdma(m.p.a, IBV_WR_RDMA_READ, 2, {m.a->sge(0, kWinLen)}, m.b->addr(kWinOff),
                             m.mw->rkey))
        return err;
    if (auto err = expect_wc(m.p.a, Queue::kSend, env.opt.wait_ms, {2, IBV_WC_SUCCESS}))
        return err;
    m.a->expect(0, m.b->want.data() + kWinOff, kWinLen);
    if (auto err = m.a->verify("A memory after the READ through the window"))
        return err;
    // IB: an MR with a window bound cannot be deregistered.
    int ret = ibv_dereg_mr(m.b->mr.get());
    if (ret != EINVAL)
        return fail("ibv_dereg_mr of B's MR with a window bound returned %d (%s), want EINVAL", ret,
                    std::strerror(ret));
    ibv_send_wr inv{};
    inv.wr_id = 51;
    inv.opcode = IBV_WR_LOCAL_INV;
    inv.send_flags = IBV_SEND_SIGNALED;
    inv.invalidate_rkey = m.mw->rkey;
    if (auto err = post_send_wr(m.p.b, &inv))
        return err;
    if (auto err =
            in("B's LOCAL_INV of the window", expect_wc(m.p.b, Queue::kSend, env.opt.wait_ms,
                                                        {51, IBV_WC_SUCCESS, IBV_WC_LOCAL_INV})))
        return err;
    // The next bytes of A's buffer differ from B's: a write would show.
    if (auto err = write_through(env, m, m.mw->rkey, kWinOff, 64, IBV_WC_REM_ACCESS_ERR, 3))
        return err;
    return expect_quiet(m.p);
}

// Type 1: bound with ibv_bind_mw, which gives the window its next key;
// bound again over another range, the old key fails.
Err scenario_mw_type1(Env& env, Rng& rng) {
    MwPair m;
    if (auto err = make_mw_pair(env, rng, IBV_MW_TYPE_1, &m))
        return err;
    ibv_mw_bind bind{};
    bind.wr_id = 60;
    bind.send_flags = IBV_SEND_SIGNALED;
    bind.bind_info.mr = m.b->mr.get();
    bind.bind_info.addr = m.b->addr(kWinOff);
    bind.bind_info.length = kWinLen;
    bind.bind_info.mw_access_flags = kWinAccess;
    const uint32_t key0 = m.mw->rkey;
    if (int ret = ibv_bind_mw(m.p.b.qp.get(), m.mw.get(), &bind))
        return fail("B: ibv_bind_mw: %s", std::strerror(ret));
    if (auto err = in("B's ibv_bind_mw", expect_wc(m.p.b, Queue::kSend, env.opt.wait_ms,
                                                   {60, IBV_WC_SUCCESS, IBV_WC_BIND_MW})))
        return err;
    const uint32_t key1 = m.mw->rkey;
    if (key1 == key0)
        return fail("ibv_bind_mw left the window's key at 0x%x", key0);
    if (auto err = write_through(env, m, key1, kWinOff, 1000, IBV_WC_SUCCESS, 1))
        return err;
    // Bound again, to the first kWinOff bytes only.
    bind.wr_id = 61;
    bind.bind_info.addr = m.b->addr(0);
    bind.bind_info.length = kWinOff;
    if (int ret = ibv_bind_mw(m.p.b.qp.get(), m.mw.get(), &bind))
        return fail("B: ibv_bind_mw again: %s", std::strerror(ret));
    if (auto err = in("B's second ibv_bind_mw", expect_wc(m.p.b, Queue::kSend, env.opt.wait_ms,
                                                          {61, IBV_WC_SUCCESS, IBV_WC_BIND_MW})))
        return err;
    const uint32_t key2 = m.mw->rkey;
    if (auto err = write_through(env, m, key2, 0, kWinOff, IBV_WC_SUCCESS, 2))
        return err;
    // The old key fails (and A's QP with it).
    m.a->reset(rng.next());
    return write_through(env, m, key1, 0, 100, IBV_WC_REM_ACCESS_ERR, 3);
}

// A's SEND with Invalidate names B's type 2 window: B's receive says so,
// and A's WRITE through the key then fails.
Err scenario_mw_send_inv(Env& env, Rng& rng) {
    MwPair m;
    if (auto err = make_mw_pair(env, rng, IBV_MW_TYPE_2, &m))
        return err;
    if (auto err = bind_type2(env, m, kWinOff, kWinLen, IBV_WC_SUCCESS))
        return err;
    if (auto err = write_through(env, m, m.mw->rkey, kWinOff, 512, IBV_WC_SUCCESS, 1))
        return err;
    // B receives into the part of its buffer outside the window.
    if (auto err = post_recv(m.p.b, 9, {m.b->sge(0, 64)}))
        return err;
    ibv_sge sge = m.a->sge(0, 64);
    ibv_send_wr wr{};
    wr.wr_id = 2;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_SEND_WITH_INV;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.invalidate_rkey = m.mw->rkey;
    if (auto err = post_send_wr(m.p.a, &wr))
        return err;
    if (auto err = expect_wc(m.p.a, Queue::kSend, env.opt.wait_ms, {2, IBV_WC_SUCCESS}))
        return err;
    ibv_wc wc{};
    if (auto err = in("B's receive of the SEND with Invalidate",
                      expect_wc(m.p.b, Queue::kRecv, env.opt.wait_ms, {9, IBV_WC_SUCCESS}, &wc)))
        return err;
    if (!(wc.wc_flags & IBV_WC_WITH_INV) || wc.invalidated_rkey != m.mw->rkey)
        return fail("B's receive: wc_flags 0x%x invalidated_rkey 0x%x, want IBV_WC_WITH_INV 0x%x",
                    wc.wc_flags, wc.invalidated_rkey, m.mw->rkey);
    m.b->expect(0, m.a->data(), 64);
    if (auto err = write_through(env, m, m.mw->rkey, kWinOff + 512, 64, IBV_WC_REM_ACCESS_ERR, 3))
        return err;
    return expect_quiet(m.p);
}

// A bind one byte past the MR's end completes with IBV_WC_MW_BIND_ERR
// (and B's QP goes to the error state, flushing what follows).
Err scenario_mw_bind_err(Env& env, Rng& rng) {
    MwPair m;
    if (auto err = make_mw_pair(env, rng, IBV_MW_TYPE_2, &m))
        return err;
    if (auto err = bind_type2(env, m, kLen - 100, 101, IBV_WC_MW_BIND_ERR))
        return err;
    if (auto err = post_msg(m.p.b, 52, {m.b->sge(0, 8)}))
        return err;
    return in("B's SEND after the failed bind",
              expect_wc(m.p.b, Queue::kSend, env.opt.wait_ms, {52, IBV_WC_WR_FLUSH_ERR}));
}

}  // namespace rc_check
