// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check harness: devices, endpoints, connection, posting, polling.

#include "rc_check_harness.h"

#include <arpa/inet.h>
#include <endian.h>
#include <poll.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <thread>

namespace rc_check {

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point deadline_in(int ms) {
    return Clock::now() + std::chrono::milliseconds(ms);
}

const char* queue_str(Queue q) {
    return q == Queue::kSend ? "send" : "recv";
}

}  // namespace

Err fail(const char* fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return std::string(buf);
}

uint64_t Rng::next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t mix(uint64_t a, uint64_t b) {
    Rng r(a ^ (b * 0x9e3779b97f4a7c15ULL));
    return r.next();
}

void fill_pattern(uint8_t* p, size_t n, uint64_t seed) {
    Rng r(seed);
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = r.next();
        std::memcpy(p + i, &v, std::min<size_t>(8, n - i));
    }
}

size_t pattern_mismatch(const uint8_t* p, size_t n, uint64_t seed) {
    Rng r(seed);
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = r.next();
        size_t chunk = std::min<size_t>(8, n - i);
        if (std::memcmp(p + i, &v, chunk) == 0)
            continue;
        const uint8_t* w = reinterpret_cast<const uint8_t*>(&v);
        for (size_t j = 0; j < chunk; j++)
            if (p[i + j] != w[j])
                return i + j;
    }
    return n;
}

Err compare(const char* what, const uint8_t* got, const uint8_t* want, size_t n) {
    if (std::memcmp(got, want, n) == 0)
        return std::nullopt;
    size_t first = n, last = 0, count = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i] == want[i])
            continue;
        first = std::min(first, i);
        last = i;
        count++;
    }
    return fail("%s: %zu of %zu bytes differ in [%zu, %zu]; at %zu got 0x%02x want 0x%02x", what,
                count, n, first, last, first, got[first], want[first]);
}

std::string label(const char* fmt, size_t n) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), fmt, n);
    return buf;
}

std::string gid_str(const ibv_gid& gid) {
    char buf[INET6_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET6, gid.raw, buf, sizeof(buf));
    return buf;
}

Err open_device(const std::string& name, int gid_index, Device* out) {
    int num = 0;
    ibv_device** list = ibv_get_device_list(&num);
    if (!list)
        return fail("ibv_get_device_list: %s", std::strerror(errno));
    ibv_device* dev = nullptr;
    for (int i = 0; i < num; i++)
        if (name == ibv_get_device_name(list[i]))
            dev = list[i];
    if (dev)
        out->ctx.reset(ibv_open_device(dev));
    int open_errno = errno;
    ibv_free_device_list(list);
    if (!dev)
        return fail("device \"%s\" not found", name.c_str());
    if (!out->ctx)
        return fail("%s: ibv_open_device: %s", name.c_str(), std::strerror(open_errno));

    out->name = name;
    out->gid_index = gid_index;
    if (int err = ibv_query_device(out->ctx.get(), &out->attr))
        return fail("%s: ibv_query_device: %s", name.c_str(), std::strerror(err));
    if (int err = ibv_query_port(out->ctx.get(), kPort, &out->port))
        return fail("%s: ibv_query_port: %s", name.c_str(), std::strerror(err));
    if (int err = ibv_query_gid(out->ctx.get(), kPort, gid_index, &out->gid))
        return fail("%s: ibv_query_gid(%d): %s", name.c_str(), gid_index, std::strerror(err));
    static const ibv_gid zero{};
    if (std::memcmp(&out->gid, &zero, sizeof(zero)) == 0)
        return fail("%s: GID index %d is empty", name.c_str(), gid_index);
    return std::nullopt;
}

ibv_sge Region::sge(size_t off, size_t n) const {
    ibv_sge s{};
    s.addr = addr(off);
    s.length = static_cast<uint32_t>(n);
    s.lkey = lkey();
    return s;
}

void Region::reset(uint64_t seed) {
    fill_pattern(buf.get(), alloc, seed);
    want.assign(buf.get(), buf.get() + alloc);
}

void Region::expect(size_t off, const uint8_t* src, size_t n) {
    if (n)
        std::memcpy(want.data() + off, src, n);
}

void Region::store(size_t off, const void* src, size_t n) {
    std::memcpy(buf.get() + off, src, n);
    std::memcpy(want.data() + off, src, n);
}

Err Region::verify(const char* what) const {
    return compare(what, buf.get(), want.data(), alloc);
}

Err Endpoint::add_region(size_t len, int access, Region** out, size_t slack) {
    auto r = std::make_unique<Region>();
    r->len = len;
    r->alloc = len + slack;
    size_t rounded = (r->alloc + 4095) & ~size_t{4095};
    r->buf.reset(static_cast<uint8_t*>(std::aligned_alloc(4096, rounded)));
    if (!r->buf)
        return fail("%s: cannot allocate %zu bytes", tag, rounded);
    std::memset(r->buf.get(), 0, rounded);
    r->want.assign(r->alloc, 0);
    r->mr.reset(ibv_reg_mr(pd.get(), r->buf.get(), len, access));
    if (!r->mr)
        return fail("%s: ibv_reg_mr(%zu bytes, access 0x%x): %s", tag, len, access,
                    std::strerror(errno));
    *out = r.get();
    regions.push_back(std::move(r));
    return std::nullopt;
}

namespace {

Err make_endpoint(const char* tag, Device& dev, const QpCaps& caps, Endpoint* ep) {
    ep->tag = tag;
    ep->dev = &dev;
    ibv_context* ctx = dev.ctx.get();
    ep->pd.reset(ibv_alloc_pd(ctx));
    if (!ep->pd)
        return fail("%s: ibv_alloc_pd: %s", tag, std::strerror(errno));
    int scq_depth = caps.scq_depth ? caps.scq_depth : static_cast<int>(caps.send_wr + 16);
    int rcq_depth = caps.rcq_depth ? caps.rcq_depth : static_cast<int>(caps.recv_wr + 16);
    ep->scq.reset(ibv_create_cq(ctx, scq_depth, nullptr, nullptr, 0));
    if (!ep->scq)
        return fail("%s: ibv_create_cq(send, %d): %s", tag, scq_depth, std::strerror(errno));
    ep->rcq.reset(ibv_create_cq(ctx, rcq_depth, nullptr, nullptr, 0));
    if (!ep->rcq)
        return fail("%s: ibv_create_cq(recv, %d): %s", tag, rcq_depth, std::strerror(errno));

    if (caps.srq_wr) {
        ibv_srq_init_attr sa{};
        sa.attr.max_wr = caps.srq_wr;
        sa.attr.max_sge = caps.recv_sge;
        ep->srq.reset(ibv_create_srq(ep->pd.get(), &sa));
        if (!ep->srq)
            return fail("%s: ibv_create_srq(max_wr %u): %s", tag, caps.srq_wr,
                        std::strerror(errno));
    }
    ibv_qp_init_attr ia{};
    ia.send_cq = ep->scq.get();
    ia.recv_cq = ep->rcq.get();
    ia.srq = ep->srq.get();
    ia.qp_type = caps.type;
    ia.sq_sig_all = 0;
    ia.cap.max_send_wr = caps.send_wr;
    ia.cap.max_recv_wr = caps.recv_wr;
    ia.cap.max_send_sge = caps.send_sge;
    ia.cap.max_recv_sge = caps.recv_sge;
    ia.cap.max_inline_data = caps.inline_data;
    ep->qp.reset(ibv_create_qp(ep->pd.get(), &ia));
    if (!ep->qp)
        return fail("%s: ibv_create_qp(%s, send_wr %u recv_wr %u inline %u): %s", tag,
                    caps.type == IBV_QPT_UD ? "UD" : "RC", caps.send_wr, caps.recv_wr,
                    caps.inline_data, std::strerror(errno));
    ep->cap = ia.cap;
    // A QP on an SRQ has no receive queue of its own.
    const bool own_rq = !caps.srq_wr;
    if (ia.cap.max_send_wr < caps.send_wr || (own_rq && ia.cap.max_recv_wr < caps.recv_wr) ||
        ia.cap.max_send_sge < caps.send_sge || (own_rq && ia.cap.max_recv_sge < caps.recv_sge) ||
        ia.cap.max_inline_data < caps.inline_data)
        return fail("%s: ibv_create_qp returned smaller caps than asked for", tag);
    return std::nullopt;
}

Err modify(Endpoint& ep, ibv_qp_attr* attr, int mask, const char* step) {
    if (int err = ibv_modify_qp(ep.qp.get(), attr, mask))
        return fail("%s: %s: ibv_modify_qp: %s", ep.tag, step, std::strerror(err));
    return std::nullopt;
}

Err to_init(Endpoint& ep, int access) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_INIT;
    attr.pkey_index = 0;
    attr.port_num = kPort;
    attr.qp_access_flags = static_cast<unsigned>(access);
    return modify(ep, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
                  "RESET->INIT");
}

Err to_rtr(Endpoint& ep, const Endpoint& peer, ibv_mtu mtu, const QpCaps& caps) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RTR;
    attr.path_mtu = mtu;
    attr.dest_qp_num = peer.qp->qp_num;
    attr.rq_psn = peer.sq_psn;
    attr.max_dest_rd_atomic = 16;
    attr.min_rnr_timer = caps.min_rnr_timer;
    attr.ah_attr.is_global = 1;
    attr.ah_attr.grh.dgid = peer.dev->gid;
    attr.ah_attr.grh.sgid_index = static_cast<uint8_t>(ep.dev->gid_index);
    attr.ah_attr.grh.hop_limit = 64;
    attr.ah_attr.dlid = 0;
    attr.ah_attr.sl = 0;
    attr.ah_attr.src_path_bits = 0;
    attr.ah_attr.port_num = kPort;
    // UC has no responder resources and no RNR NAK: the verbs refuse them.
    const int rc_only =
        caps.type == IBV_QPT_RC ? IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER : 0;
    return modify(ep, &attr,
                  IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                      rc_only,
                  "INIT->RTR");
}

Err to_rts(Endpoint& ep, const Options& opt, const QpCaps& caps) {
    ibv_qp_attr attr{};
    attr.qp_state = IBV_QPS_RTS;
    attr.timeout = caps.timeout.value_or(opt.timeout);
    attr.retry_cnt = opt.retry_cnt;
    attr.rnr_retry = caps.rnr_retry;
    attr.sq_psn = ep.sq_psn;
    attr.max_rd_atomic = 16;
    const int rc_only = caps.type == IBV_QPT_RC ? IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                                                      IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC
                                                : 0;
    if (auto err = modify(ep, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN | rc_only, "RTR->RTS"))
        return err;

    ibv_qp_attr got{};
    ibv_qp_init_attr init{};
    if (int err = ibv_query_qp(ep.qp.get(), &got, IBV_QP_STATE, &init))
        return fail("%s: ibv_query_qp: %s", ep.tag, std::strerror(err));
    if (got.qp_state != IBV_QPS_RTS)
        return fail("%s: QP state %d after RTR->RTS", ep.tag, got.qp_state);
    return std::nullopt;
}

}  // namespace

Err make_pair(Env& env, Rng& rng, const QpCaps& caps, Pair* out, const QpCaps* caps_b) {
    if (auto err = make_endpoint("A", env.a, caps, &out->a))
        return err;
    if (auto err = make_endpoint("B", env.b, caps_b ? *caps_b : caps, &out->b))
        return err;
    Endpoint& a = out->a;
    Endpoint& b = out->b;
    a.sq_psn = caps.psn ? *caps.psn : static_cast<uint32_t>(rng.next() & 0xffffff);
    b.sq_psn = caps.psn ? *caps.psn : static_cast<uint32_t>(rng.next() & 0xffffff);
    ibv_mtu mtu = std::min(env.a.port.active_mtu, env.b.port.active_mtu);

    if (auto err = to_init(a, caps.access))
        return err;
    if (auto err = to_init(b, caps.access))
        return err;
    if (auto err = to_rtr(a, b, mtu, caps))
        return err;
    if (auto err = to_rtr(b, a, mtu, caps))
        return err;
    if (auto err = to_rts(a, env.opt, caps))
        return err;
    if (auto err = to_rts(b, env.opt, caps))
        return err;
    // The driver lowers a path MTU its EVs cannot carry: both QPs must
    // end up with the same one, or READ responses and middle packets
    // would not match.
    ibv_mtu qp_mtu[2];
    for (int i = 0; i < 2; i++) {
        ibv_qp_attr attr{};
        ibv_qp_init_attr init{};
        ibv_qp* qp = (i ? b : a).qp.get();
        if (int err = ibv_query_qp(qp, &attr, IBV_QP_PATH_MTU, &init))
            return fail("ibv_query_qp(%s): %s", i ? "B" : "A", std::strerror(err));
        qp_mtu[i] = attr.path_mtu;
    }
    if (env.opt.verbose)
        std::printf("# A %s qpn 0x%06x psn 0x%06x <-> B %s qpn 0x%06x psn 0x%06x, "
                    "mtu %d, QPs' path MTU %d %d\n",
                    gid_str(env.a.gid).c_str(), a.qp->qp_num, a.sq_psn, gid_str(env.b.gid).c_str(),
                    b.qp->qp_num, b.sq_psn, 128 << mtu, 128 << qp_mtu[0], 128 << qp_mtu[1]);
    if (qp_mtu[0] != qp_mtu[1])
        return fail("the QPs' path MTUs differ: A %d, B %d (asked for %d)", 128 << qp_mtu[0],
                    128 << qp_mtu[1], 128 << mtu);
    return std::nullopt;
}

Err make_ud_pair(Env& env, Rng& rng, QpCaps caps, Pair* out) {
    caps.type = IBV_QPT_UD;
    if (auto err = make_endpoint("A", env.a, caps, &out->a))
        return err;
    if (auto err = make_endpoint("B", env.b, caps, &out->b))
        return err;
    for (Endpoint* ep : {&out->a, &out->b}) {
        ep->sq_psn = static_cast<uint32_t>(rng.next() & 0xffffff);
        ibv_qp_attr attr{};
        attr.qp_state = IBV_QPS_INIT;
        attr.pkey_index = 0;
        attr.port_num = kPort;
        attr.qkey = caps.qkey;
        if (auto err =
                modify(*ep, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY,
                       "RESET->INIT"))
            return err;
        attr = {};
        attr.qp_state = IBV_QPS_RTR;
        if (auto err = modify(*ep, &attr, IBV_QP_STATE, "INIT->RTR"))
            return err;
        attr = {};
        attr.qp_state = IBV_QPS_RTS;
        attr.sq_psn = ep->sq_psn;
        if (auto err = modify(*ep, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN, "RTR->RTS"))
            return err;
    }
    return std::nullopt;
}

Err post_send_wr(Endpoint& ep, ibv_send_wr* wr) {
    ibv_send_wr* bad = nullptr;
    if (int err = ibv_post_send(ep.qp.get(), wr, &bad))
        return fail("%s: ibv_post_send(wr_id %llu): %s", ep.tag,
                    static_cast<unsigned long long>(bad ? bad->wr_id : wr->wr_id),
                    std::strerror(err));
    return std::nullopt;
}

Err post_rdma(Endpoint& ep, ibv_wr_opcode op, uint64_t wr_id, std::vector<ibv_sge> sge,
              uint64_t raddr, uint32_t rkey, unsigned flags, uint32_t imm) {
    ibv_send_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = sge.empty() ? nullptr : sge.data();
    wr.num_sge = static_cast<int>(sge.size());
    wr.opcode = op;
    wr.send_flags = flags;
    wr.imm_data = htobe32(imm);
    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    return post_send_wr(ep, &wr);
}

Err post_msg(Endpoint& ep, uint64_t wr_id, std::vector<ibv_sge> sge, unsigned flags,
             std::optional<uint32_t> imm) {
    ibv_send_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = sge.empty() ? nullptr : sge.data();
    wr.num_sge = static_cast<int>(sge.size());
    wr.opcode = imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
    wr.send_flags = flags;
    wr.imm_data = htobe32(imm.value_or(0));
    return post_send_wr(ep, &wr);
}

Err post_atomic(Endpoint& ep, ibv_wr_opcode op, uint64_t wr_id, ibv_sge sge, uint64_t raddr,
                uint32_t rkey, uint64_t compare_add, uint64_t swap) {
    ibv_send_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = op;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.atomic.remote_addr = raddr;
    wr.wr.atomic.rkey = rkey;
    wr.wr.atomic.compare_add = compare_add;
    wr.wr.atomic.swap = swap;
    return post_send_wr(ep, &wr);
}

Err post_recv(Endpoint& ep, uint64_t wr_id, std::vector<ibv_sge> sge) {
    ibv_recv_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = sge.empty() ? nullptr : sge.data();
    wr.num_sge = static_cast<int>(sge.size());
    ibv_recv_wr* bad = nullptr;
    if (int err = ibv_post_recv(ep.qp.get(), &wr, &bad))
        return fail("%s: ibv_post_recv(wr_id %llu): %s", ep.tag,
                    static_cast<unsigned long long>(wr_id), std::strerror(err));
    return std::nullopt;
}

const char* opcode_str(int opcode) {
    switch (opcode) {
        case IBV_WC_SEND:
            return "SEND";
        case IBV_WC_RDMA_WRITE:
            return "RDMA_WRITE";
        case IBV_WC_RDMA_READ:
            return "RDMA_READ";
        case IBV_WC_COMP_SWAP:
            return "COMP_SWAP";
        case IBV_WC_FETCH_ADD:
            return "FETCH_ADD";
        case IBV_WC_RECV:
            return "RECV";
        case IBV_WC_RECV_RDMA_WITH_IMM:
            return "RECV_RDMA_WITH_IMM";
        default:
            return "other";
    }
}

Err poll_wc(Endpoint& ep, Queue q, int wait_ms, ibv_wc* wc) {
    ibv_cq* cq = q == Queue::kSend ? ep.scq.get() : ep.rcq.get();
    auto deadline = deadline_in(wait_ms);
    for (unsigned spins = 0;; spins++) {
        int n = ibv_poll_cq(cq, 1, wc);
        if (n < 0)
            return fail("%s %s CQ: ibv_poll_cq: %d", ep.tag, queue_str(q), n);
        if (n == 1)
            return std::nullopt;
        if (Clock::now() > deadline)
            return fail("%s %s CQ: no completion within %d ms", ep.tag, queue_str(q), wait_ms);
        if (spins < 1000)
            sched_yield();
        else
            std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

Err expect_wc(Endpoint& ep, Queue q, int wait_ms, const Want& want, ibv_wc* out) {
    ibv_wc wc{};
    if (auto err = poll_wc(ep, q, wait_ms, &wc))
        return fail("%s (waiting for wr_id %llu, %s)", err->c_str(),
                    static_cast<unsigned long long>(want.wr_id), ibv_wc_status_str(want.status));
    if (out)
        *out = wc;
    auto id = static_cast<unsigned long long>(wc.wr_id);
    if (wc.status != want.status)
        return fail("%s %s CQ: wr_id %llu: status %s (vendor_err 0x%x), want %s", ep.tag,
                    queue_str(q), id, ibv_wc_status_str(wc.status), wc.vendor_err,
                    ibv_wc_status_str(want.status));
    if (wc.wr_id != want.wr_id)
        return fail("%s %s CQ: wr_id %llu (%s), want wr_id %llu", ep.tag, queue_str(q), id,
                    ibv_wc_status_str(wc.status), static_cast<unsigned long long>(want.wr_id));
    if (wc.qp_num != ep.qp->qp_num)
        return fail("%s %s CQ: wr_id %llu: qp_num 0x%x, want 0x%x", ep.tag, queue_str(q), id,
                    wc.qp_num, ep.qp->qp_num);
    if (want.status == IBV_WC_SUCCESS && want.opcode >= 0 && wc.opcode != want.opcode)
        return fail("%s %s CQ: wr_id %llu: opcode %s (%d), want %s", ep.tag, queue_str(q), id,
                    opcode_str(wc.opcode), wc.opcode, opcode_str(want.opcode));
    return std::nullopt;
}

Err note_send_cq(Endpoint& ep, Err err) {
    if (!err)
        return err;
    ibv_wc wc{};
    if (ibv_poll_cq(ep.scq.get(), 1, &wc) > 0)
        return fail("%s; %s send CQ holds wr_id %llu status %s", err->c_str(), ep.tag,
                    static_cast<unsigned long long>(wc.wr_id), ibv_wc_status_str(wc.status));
    return fail("%s; %s send CQ is empty", err->c_str(), ep.tag);
}

Err expect_quiet(Pair& p) {
    Endpoint* eps[] = {&p.a, &p.b};
    for (Endpoint* ep : eps) {
        for (Queue q : {Queue::kSend, Queue::kRecv}) {
            ibv_cq* cq = q == Queue::kSend ? ep->scq.get() : ep->rcq.get();
            ibv_wc wc{};
            if (ibv_poll_cq(cq, 1, &wc) > 0)
                return fail("%s %s CQ: unexpected completion wr_id %llu status %s opcode %s",
                            ep->tag, queue_str(q), static_cast<unsigned long long>(wc.wr_id),
                            ibv_wc_status_str(wc.status), opcode_str(wc.opcode));
        }
    }
    return std::nullopt;
}

Err wait_go(const Options& opt) {
    auto deadline = deadline_in(opt.go_ms);
    if (!opt.wait_file.empty()) {
        while (access(opt.wait_file.c_str(), F_OK) != 0) {
            if (Clock::now() > deadline)
                return fail("%s did not appear within %d ms", opt.wait_file.c_str(), opt.go_ms);
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return std::nullopt;
    }
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0)
            return fail("no line on stdin within %d ms", opt.go_ms);
        pollfd pfd{STDIN_FILENO, POLLIN, 0};
        int n = poll(&pfd, 1, static_cast<int>(left.count()));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return fail("poll(stdin): %s", std::strerror(errno));
        if (n == 0)
            continue;
        char c;
        ssize_t r = read(STDIN_FILENO, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return fail("read(stdin): %s", std::strerror(errno));
        if (r == 0)
            return fail("stdin closed before the go line");
        if (c == '\n')
            return std::nullopt;
    }
}

}  // namespace rc_check
