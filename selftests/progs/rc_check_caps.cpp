// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenarios on the uAPI. The caps ibv_create_qp and
// ibv_create_srq report: a work request that uses exactly the reported max_send_sge,
// max_inline_data or max_recv_sge (SRQ: max_sge) works and carries its data,
// and a queue asked for with depth 0 (send-only, receive-only QPs) works;
// one beyond them is refused by the post call with EINVAL and *bad_wr set,
// before anything reaches the queue, and the QP goes on working. The rings
// behind a QP are rounded up to 64-byte slots that often hold more than
// the caps, so these are the limits the provider must enforce itself.
// And the kernel's own check of what a program writes into its SQ ring
// directly, past the provider: a slot with a reserved field set or an
// unknown send_flags bit completes in error, never runs. Likewise the
// driver input of a modify_qp command written to the device by hand: none
// is defined, so a byte set in it is refused and changes nothing.

#include "rc_check_scenarios.h"

#include <rdma/ib_user_verbs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "mrc-abi.h"

namespace rc_check {

namespace {

constexpr int kLocal = IBV_ACCESS_LOCAL_WRITE;

// n pieces of len bytes, spaced 3 bytes apart in r from off.
std::vector<ibv_sge> pieces(const Region* r, size_t off, uint32_t n, size_t len) {
    std::vector<ibv_sge> sge;
    for (uint32_t i = 0; i < n; i++)
        sge.push_back(r->sge(off + i * (len + 3), len));
    return sge;
}

// The post must fail with EINVAL naming wr, as ibv_post_send(3) promises.
// Takes the post's result and *bad_wr after the call (not as arguments of
// one call: their evaluation order is unspecified).
template <typename Wr>
Err expect_refused(const char* what, int ret, const Wr* wr, const Wr* bad) {
    if (ret != EINVAL)
        return fail("%s: post returned %d (%s), want EINVAL", what, ret,
                    ret ? std::strerror(ret) : "success");
    if (bad != wr)
        return fail("%s: *bad_wr %p, want the request %p", what, static_cast<const void*>(bad),
                    static_cast<const void*>(wr));
    return std::nullopt;
}

// A signaled WRITE of sge to dst at doff; checks the completion and B's bytes.
Err write_ok(Pair& p, int wait, uint64_t wr_id, const std::vector<ibv_sge>& sge, Region* dst,
             size_t doff, unsigned flags) {
    if (auto err =
            post_rdma(p.a, IBV_WR_RDMA_WRITE, wr_id, sge, dst->addr(doff), dst->rkey(), flags))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {wr_id, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE}))
        return err;
    size_t at = doff;
    for (const ibv_sge& s : sge) {
        dst->expect(at, reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(s.addr)), s.length);
        at += s.length;
    }
    return dst->verify("B memory");
}

// A's SQ ring, found among the process's mappings of the uverbs device as
// the one whose slot 0 holds the WRITE wr_id kProbeId to raddr that A
// posted first. Its slot size follows from the mapping's length and the
// ring's num_slots (max_send_wr): the mapping is the page-rounded
// MRC_RING_SLOTS_OFFSET + num_slots * slot_size, slot_size a multiple of 64.
constexpr uint64_t kProbeId = 0x5eed5eed0001;

struct RawRing {
    uint8_t* base = nullptr;
    size_t slot_size = 0;
    mrc_ring_ctrl* ctrl() const { return reinterpret_cast<mrc_ring_ctrl*>(base); }
    uint8_t* slot(uint32_t i) const { return base + MRC_RING_SLOTS_OFFSET + i * slot_size; }
};

Err find_sq(const Endpoint& ep, uint64_t raddr, RawRing* out) {
    FILE* f = std::fopen("/proc/self/maps", "r");
    if (!f)
        return fail("/proc/self/maps: %s", std::strerror(errno));
    char line[512];
    const uint32_t n = ep.cap.max_send_wr;
    while (std::fgets(line, sizeof(line), f)) {
        uintptr_t lo = 0, hi = 0;
        if (!std::strstr(line, "/dev/infiniband/uverbs") ||
            std::sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) != 2 ||
            hi - lo < MRC_RING_SLOTS_OFFSET + sizeof(mrc_send_wqe))
            continue;
        auto* base = reinterpret_cast<uint8_t*>(lo);
        mrc_send_wqe w;
        std::memcpy(&w, base + MRC_RING_SLOTS_OFFSET, sizeof(w));
        if (w.wr_id != kProbeId || w.opcode != IBV_WR_RDMA_WRITE || w.remote_addr != raddr)
            continue;
        std::fclose(f);
        out->base = base;
        out->slot_size = ((hi - lo - MRC_RING_SLOTS_OFFSET) / n) & ~size_t{63};
        return std::nullopt;
    }
    std::fclose(f);
    return fail("A's SQ ring not found among the uverbs mappings");
}

// Posts a good WRITE through the provider, then writes a copy of it into
// the next SQ slot directly with `spoil` applied, then a good WRITE again
// through the provider (which rings the doorbell). The spoiled slot must
// complete with IBV_WC_LOC_QP_OP_ERR and the one after it be flushed.
Err raw_slot_refused(Env& env, Rng& rng, const char* what, void (*spoil)(mrc_send_wqe&)) {
    const int wait = env.opt.wait_ms;
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(4096, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(4096, kDefaultAccess, &dst))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());
    if (auto err = write_ok(p, wait, kProbeId, {src->sge(0, 100)}, dst, 0, IBV_SEND_SIGNALED))
        return err;
    RawRing sq;
    if (auto err = find_sq(p.a, dst->addr(0), &sq))
        return err;
    const uint32_t prod = sq.ctrl()->prod;
    if (prod != 1)
        return fail("A's SQ: prod %u after one post", prod);

    mrc_send_wqe w;
    std::memcpy(&w, sq.slot(0), sizeof(w));
    w.wr_id = 2;
    w.remote_addr = dst->addr(1024);
    spoil(w);
    std::memcpy(sq.slot(1), &w, sizeof(w));
    std::memcpy(sq.slot(1) + sizeof(w), sq.slot(0) + sizeof(w), sizeof(mrc_sge));
    __atomic_store_n(&sq.ctrl()->prod, 2u, __ATOMIC_RELEASE);
    if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE, 3, {src->sge(200, 100)}, dst->addr(2048),
                             dst->rkey()))
        return err;
    if (auto err = in(what, expect_wc(p.a, Queue::kSend, wait, {2, IBV_WC_LOC_QP_OP_ERR})))
        return err;
    if (auto err = in(what, expect_wc(p.a, Queue::kSend, wait, {3, IBV_WC_WR_FLUSH_ERR})))
        return err;
    // Neither WRITE reached B.
    return in(what, dst->verify("B memory"));
}

}  // namespace

Err scenario_raw_send_reserved(Env& env, Rng& rng) {
    if (auto err = raw_slot_refused(env, rng, "SQ slot with reserved0 set",
                                    [](mrc_send_wqe& w) { w.reserved0 = 1; }))
        return err;
    return raw_slot_refused(env, rng, "SQ slot with reserved1 set",
                            [](mrc_send_wqe& w) { w.reserved1 = 0x80000000; });
}

Err scenario_raw_send_flags(Env& env, Rng& rng) {
    return raw_slot_refused(env, rng, "SQ slot with send_flags bit 5",
                            [](mrc_send_wqe& w) { w.send_flags |= 1u << 5; });
}

Err scenario_caps_send(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.send_sge = 1;
    caps.inline_data = 20;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    const uint32_t max_sge = p.a.cap.max_send_sge;
    const uint32_t max_inline = p.a.cap.max_inline_data;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(64 * 1024, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(64 * 1024, kDefaultAccess, &dst))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());

    // Exactly the reported SGE count: every piece lands at B.
    if (auto err =
            in("WRITE with max_send_sge SGEs",
               write_ok(p, wait, 1, pieces(src, 7, max_sge, 100), dst, 64, IBV_SEND_SIGNALED)))
        return err;

    // One SGE more: refused at once.
    std::vector<ibv_sge> over = pieces(src, 7, max_sge + 1, 100);
    ibv_send_wr wr{};
    wr.wr_id = 2;
    wr.opcode = IBV_WR_RDMA_WRITE;
    wr.sg_list = over.data();
    wr.num_sge = static_cast<int>(over.size());
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.rdma.remote_addr = dst->addr(8192);
    wr.wr.rdma.rkey = dst->rkey();
    ibv_send_wr* bad = nullptr;
    int ret = ibv_post_send(p.a.qp.get(), &wr, &bad);
    if (auto err = expect_refused("WRITE with max_send_sge + 1 SGEs", ret, &wr, bad))
        return err;

    // Exactly max_inline_data bytes inline, then one byte more.
    if (auto err = in("inline WRITE of max_inline_data bytes",
                      write_ok(p, wait, 3, {src->sge(1000, max_inline)}, dst, 16384,
                               IBV_SEND_SIGNALED | IBV_SEND_INLINE)))
        return err;
    ibv_sge big = src->sge(2000, max_inline + 1);
    wr.wr_id = 4;
    wr.sg_list = &big;
    wr.num_sge = 1;
    wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
    bad = nullptr;
    ret = ibv_post_send(p.a.qp.get(), &wr, &bad);
    if (auto err = expect_refused("inline WRITE of max_inline_data + 1 bytes", ret, &wr, bad))
        return err;

    // Nothing of the refused requests ran, and the QP still works.
    if (auto err = in("after the refusals",
                      write_ok(p, wait, 5, {src->sge(3000, 4000)}, dst, 32768, IBV_SEND_SIGNALED)))
        return err;
    return expect_quiet(p);
}

Err scenario_caps_zero_depth(Env& env, Rng& rng) {
    // A send-only QP (no receive queue asked for) WRITEs to and READs
    // from a receive-only one (no send queue): the responder needs none.
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.recv_wr = 0;
    caps.recv_sge = 0;
    QpCaps caps_b;
    caps_b.send_wr = 0;
    caps_b.send_sge = 0;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p, &caps_b))
        return err;
    Region* src = nullptr;
    Region* dst = nullptr;
    Region* back = nullptr;
    if (auto err = p.a.add_region(64 * 1024, kLocal, &src))
        return err;
    if (auto err = p.a.add_region(64 * 1024, kLocal, &back))
        return err;
    if (auto err = p.b.add_region(64 * 1024, kDefaultAccess, &dst))
        return err;
    src->reset(rng.next());
    back->reset(rng.next());
    dst->reset(rng.next());
    if (auto err = in("WRITE from a send-only QP to a receive-only one",
                      write_ok(p, wait, 1, {src->sge(0, 60000)}, dst, 5, IBV_SEND_SIGNALED)))
        return err;
    if (auto err =
            post_rdma(p.a, IBV_WR_RDMA_READ, 2, {back->sge(1, 60000)}, dst->addr(5), dst->rkey()))
        return err;
    if (auto err = in("READ back",
                      expect_wc(p.a, Queue::kSend, wait, {2, IBV_WC_SUCCESS, IBV_WC_RDMA_READ})))
        return err;
    back->expect(1, src->data(), 60000);
    if (auto err = back->verify("A memory after the READ"))
        return err;
    return expect_quiet(p);
}

Err scenario_caps_recv(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.recv_sge = 1;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    const uint32_t max_sge = p.b.cap.max_recv_sge;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(16 * 1024, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(16 * 1024, kLocal, &dst))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());

    std::vector<ibv_sge> over = pieces(dst, 0, max_sge + 1, 64);
    ibv_recv_wr wr{};
    wr.wr_id = 1;
    wr.sg_list = over.data();
    wr.num_sge = static_cast<int>(over.size());
    ibv_recv_wr* bad = nullptr;
    int ret = ibv_post_recv(p.b.qp.get(), &wr, &bad);
    if (auto err = expect_refused("receive with max_recv_sge + 1 SGEs", ret, &wr, bad))
        return err;

    // Exactly max_recv_sge SGEs: a SEND scatters over all of them.
    std::vector<ibv_sge> exact = pieces(dst, 100, max_sge, 64);
    if (auto err = post_recv(p.b, 2, exact))
        return err;
    const size_t total = size_t{max_sge} * 64;
    if (auto err = post_msg(p.a, 3, {src->sge(11, total)}))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {3, IBV_WC_SUCCESS, IBV_WC_SEND}))
        return err;
    ibv_wc wc{};
    if (auto err = expect_wc(p.b, Queue::kRecv, wait, {2, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
        return err;
    if (wc.byte_len != total)
        return fail("B recv: byte_len %u, want %zu", wc.byte_len, total);
    size_t from = 11;
    for (const ibv_sge& s : exact) {
        dst->expect(s.addr - dst->addr(), src->data() + from, s.length);
        from += s.length;
    }
    if (auto err = dst->verify("B memory"))
        return err;
    return expect_quiet(p);
}

Err scenario_caps_srq(Env& env, Rng& /*rng*/) {
    Pd pd(ibv_alloc_pd(env.a.ctx.get()));
    if (!pd)
        return fail("ibv_alloc_pd: %s", std::strerror(errno));
    ibv_srq_init_attr init{};
    init.attr.max_wr = 8;
    init.attr.max_sge = 1;
    ibv_srq* srq = ibv_create_srq(pd.get(), &init);
    if (!srq)
        return fail("ibv_create_srq: %s", std::strerror(errno));
    std::vector<uint8_t> buf(4096);
    Mr mr(ibv_reg_mr(pd.get(), buf.data(), buf.size(), kLocal));
    Err result;
    if (!mr) {
        result = fail("ibv_reg_mr: %s", std::strerror(errno));
    } else {
        const uint32_t max_sge = init.attr.max_sge;
        std::vector<ibv_sge> sge;
        for (uint32_t i = 0; i <= max_sge; i++)
            sge.push_back({reinterpret_cast<uintptr_t>(buf.data()) + i * 64, 64, mr->lkey});
        ibv_recv_wr wr{};
        wr.wr_id = 1;
        wr.sg_list = sge.data();
        wr.num_sge = static_cast<int>(max_sge + 1);
        ibv_recv_wr* bad = nullptr;
        int ret = ibv_post_srq_recv(srq, &wr, &bad);
        result = expect_refused("SRQ receive with max_sge + 1 SGEs", ret, &wr, bad);
        wr.num_sge = static_cast<int>(max_sge);
        bad = nullptr;
        if (!result) {
            ret = ibv_post_srq_recv(srq, &wr, &bad);
            if (ret)
                result = fail("SRQ receive with max_sge SGEs: %s", std::strerror(ret));
        }
    }
    mr.reset();
    if (int ret = ibv_destroy_srq(srq))
        return result ? result : fail("ibv_destroy_srq: %s", std::strerror(ret));
    return result;
}

namespace {

// The RTR move of A's QP, with @dest_qpn as the peer: 0 or the errno.
int rtr_to(Env& env, Pair& p, uint32_t dest_qpn) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RTR;
    attr.path_mtu = std::min(env.a.port.active_mtu, env.b.port.active_mtu);
    attr.dest_qp_num = dest_qpn;
    attr.rq_psn = p.b.sq_psn;
    attr.max_dest_rd_atomic = 16;
    attr.min_rnr_timer = 12;
    attr.ah_attr.is_global = 1;
    attr.ah_attr.grh.dgid = env.b.gid;
    attr.ah_attr.grh.sgid_index = static_cast<uint8_t>(env.a.gid_index);
    attr.ah_attr.grh.hop_limit = 64;
    attr.ah_attr.port_num = kPort;
    return ibv_modify_qp(p.a.qp.get(), &attr,
                         IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                             IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
}

}  // namespace

// QPN 0xffffff is the endpoint probes' (wire-format.rst): no QP has it,
// and none may name it as its peer; the QP below it may be named.
Err scenario_reserved_qpn(Env& env, Rng& rng) {
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    if (p.a.qp->qp_num >= 0xffffff || p.b.qp->qp_num >= 0xffffff)
        return fail("QPN 0x%06x / 0x%06x: at or above the reserved 0xffffff", p.a.qp->qp_num,
                    p.b.qp->qp_num);
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RESET;
    if (int ret = ibv_modify_qp(p.a.qp.get(), &attr, IBV_QP_STATE))
        return fail("A: to RESET: %s", std::strerror(ret));
    attr.qp_state = IBV_QPS_INIT;
    attr.port_num = kPort;
    attr.qp_access_flags = kDefaultAccess;
    if (int ret =
            ibv_modify_qp(p.a.qp.get(), &attr,
                          IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
        return fail("A: to INIT: %s", std::strerror(ret));
    if (int ret = rtr_to(env, p, 0xffffff); ret != EINVAL)
        return fail("A: RTR with dest QPN 0xffffff returned %d (%s), want EINVAL", ret,
                    std::strerror(ret));
    if (int ret = rtr_to(env, p, 0xfffffe))
        return fail("A: RTR with dest QPN 0xfffffe: %s", std::strerror(ret));
    return std::nullopt;
}

namespace {

// The extended modify_qp command (what ibv_cmd_modify_qp_ex sends) written
// straight to qp's command file, taking a QP in RESET to INIT, with
// `driver` (a multiple of 8 bytes) as its driver input. 0 or the errno.
int raw_modify_to_init(ibv_qp* qp, const std::vector<uint8_t>& driver) {
    struct Cmd {
        ib_uverbs_cmd_hdr hdr;
        ib_uverbs_ex_cmd_hdr ex;
        ib_uverbs_ex_modify_qp body;
    };
    static_assert(sizeof(Cmd) == sizeof(ib_uverbs_cmd_hdr) + sizeof(ib_uverbs_ex_cmd_hdr) +
                                     sizeof(ib_uverbs_ex_modify_qp),
                  "no padding between the headers and the command");
    ib_uverbs_ex_modify_qp_resp resp{};
    Cmd cmd{};
    cmd.hdr.command = IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP;
    cmd.hdr.in_words = sizeof(cmd.body) / 8;
    cmd.hdr.out_words = sizeof(resp) / 8;
    cmd.ex.response = reinterpret_cast<uintptr_t>(&resp);
    cmd.ex.provider_in_words = static_cast<uint16_t>(driver.size() / 8);
    cmd.body.base.qp_handle = qp->handle;
    cmd.body.base.attr_mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    cmd.body.base.qp_state = IBV_QPS_INIT;
    cmd.body.base.port_num = kPort;
    cmd.body.base.qp_access_flags = kDefaultAccess;
    std::vector<uint8_t> buf(sizeof(cmd) + driver.size());
    std::memcpy(buf.data(), &cmd, sizeof(cmd));
    std::copy(driver.begin(), driver.end(), buf.begin() + sizeof(cmd));
    ssize_t n = write(qp->context->cmd_fd, buf.data(), buf.size());
    if (n < 0)
        return errno;
    return static_cast<size_t>(n) == buf.size() ? 0 : EIO;
}

Err expect_state(ibv_qp* qp, ibv_qp_state want, const char* when) {
    ibv_qp_attr attr{};
    ibv_qp_init_attr init{};
    if (int ret = ibv_query_qp(qp, &attr, IBV_QP_STATE, &init))
        return fail("%s: ibv_query_qp: %s", when, std::strerror(ret));
    if (attr.qp_state != want)
        return fail("%s: QP state %d, want %d", when, attr.qp_state, want);
    return std::nullopt;
}

}  // namespace

// modify_qp has no driver input: a command carrying some with a byte set
// asks for something the kernel does not know, EOPNOTSUPP, and the QP
// stays as it was; all zero is accepted (a longer command that asks for
// nothing, as a newer provider might send).
Err scenario_modify_driver_input(Env& env, Rng& rng) {
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    ibv_qp* qp = p.a.qp.get();
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RESET;
    if (int ret = ibv_modify_qp(qp, &attr, IBV_QP_STATE))
        return fail("A: to RESET: %s", std::strerror(ret));
    std::vector<uint8_t> driver(16, 0);
    driver[9] = 0x01;
    if (int ret = raw_modify_to_init(qp, driver); ret != EOPNOTSUPP)
        return fail("A: to INIT with driver input byte 9 set: %s, want EOPNOTSUPP",
                    ret ? std::strerror(ret) : "success");
    if (auto err = expect_state(qp, IBV_QPS_RESET, "A after the refused modify"))
        return err;
    driver[9] = 0;
    if (int ret = raw_modify_to_init(qp, driver))
        return fail("A: to INIT with 16 zero bytes of driver input: %s", std::strerror(ret));
    return expect_state(qp, IBV_QPS_INIT, "A after the accepted modify");
}

}  // namespace rc_check
