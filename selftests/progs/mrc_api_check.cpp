// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-api-check: a program written against the OCP MRC application API
// (libmrc's mrc.h), as an application would be, run between two hosts.
//
//   mrc-api-check server --dev DEV --gid N [--port P]
//   mrc-api-check client --dev DEV --gid N --host HOST [--port P]
//                        [--max-size BYTES] [--seed S] [--wait-ms MS]
//                        [--ev-profile ID] [--cc-profile ID] [--mpr N]
//                        [--writes-only 1]
//
// Only what the OCP API leaves to libibverbs goes through ibv_*: opening
// the device, its GID, the PD and the memory registrations. Contexts, CQs,
// QPs, their transitions, posting and polling are mrc_* calls. The two ends
// swap QPN, PSN, GID, rkey and address over TCP, as perftest does, and the
// client then drives, step by step over the same connection:
//
//  - RDMA WRITE and WRITE with immediate of every size from 1 B to
//    --max-size (powers of 2 and a few odd sizes, odd ones at an odd
//    remote offset). Before each, the server fills the target with the
//    complement of the pattern (so every byte must change) and guard
//    bytes around it; after it, the server compares every byte itself,
//    and the guards. Each immediate is one more than the last: the server
//    checks they arrive in posting order, and a chain of 32 WRITEs with
//    immediate posted in one call completes in that order too.
//  - SEND, RDMA READ and an atomic, alone and after a valid WRITE in one
//    chain: mrc_post_send() must refuse each with EINVAL, name it in
//    bad_wr and post nothing: no completion on either side, no receive
//    consumed, the server's memory and the client's buffer untouched.
//  - WIMM credits: beyond max_wimm WRITEs with immediate in flight,
//    mrc_post_send() refuses with ENOMEM until completions are polled.
//
// --ev-profile names the EV profile (made by a controller, e.g. of an
// SRV6 format) the client's QP takes at RESET->INIT, --cc-profile the CC
// profile. --mpr sets the PSN
// range (in 128 PSNs) of the client's QP as requester, of the server's as
// responder (and requester); --writes-only 1 runs the WRITE sweep alone.
//
// Output: "ok N - ..." / "not ok N - ..." lines, then "ok" or
// "FAIL: reason" (the server prints its own). Exit status 0 on success.

#include <arpa/inet.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mrc.h"
#include "rc_check_harness.h"
#include "stream_conn.h"

namespace {

using rc_check::Err;
using rc_check::fail;
using Clock = std::chrono::steady_clock;

constexpr size_t kGuard = 64;     // checked bytes after (and space before) a target
constexpr size_t kMaxOffset = 8;  // odd sizes land at an odd offset below this
constexpr int kRecvs = 64;        // receives the server keeps posted
constexpr int kChain = 32;        // WRITEs with immediate in one chain
constexpr size_t kChainSlot = 4096;
constexpr uint32_t kWimm = 2 * kChain;  // the client's max_wimm
constexpr size_t kLateSlot = 16;        // WRITEs with immediate of 8 B, in a row
constexpr uint32_t kInline = 64;        // inline data the QP asks for
constexpr uint8_t kGuardByte = 0xEE;

struct Options {
    bool server = false;
    std::string dev;
    int gid = 1;
    std::string host;
    uint16_t port = 18620;
    uint64_t max_size = 64ull << 20;
    uint64_t seed = 0x6d72632d617069ull;
    int wait_ms = 30000;
    uint64_t ev_profile = 0;  // 0: the device's default
    uint64_t cc_profile = 0;  // 0: the device's default
    uint8_t mpr = 0;          // 0: the server 8, the client the default
    bool writes_only = false;
};

// ---- RAII owners of the OCP API's objects ----

struct MrcCtxDeleter {
    void operator()(mrc_context* c) const { mrc_destroy_context(c); }
};
struct MrcChannelDeleter {
    void operator()(mrc_comp_channel* c) const { mrc_destroy_comp_channel(c); }
};
struct MrcCqDeleter {
    void operator()(mrc_cq* c) const { mrc_destroy_cq(c); }
};
struct MrcHintDeleter {
    void operator()(mrc_qp_hint* h) const { mrc_destroy_qp_hint(h); }
};
struct MrcQpDeleter {
    void operator()(mrc_qp* q) const { mrc_destroy_qp(q); }
};
using MrcCtx = std::unique_ptr<mrc_context, MrcCtxDeleter>;
using MrcChannel = std::unique_ptr<mrc_comp_channel, MrcChannelDeleter>;
using MrcCq = std::unique_ptr<mrc_cq, MrcCqDeleter>;
using MrcHint = std::unique_ptr<mrc_qp_hint, MrcHintDeleter>;
using MrcQp = std::unique_ptr<mrc_qp, MrcQpDeleter>;

// One end: device, MRC context, PD, CQs, QP and one registered buffer.
// Members are destroyed in reverse order: QP before CQs before the context.
struct End {
    rc_check::Device dev;
    MrcCtx ctx;
    MrcChannel channel;  // the receive CQ's: WRITE with immediate waits on events
    int channel_fd = -1;
    int rcq_tag = 0;      // the receive CQ's cq_context, handed back with its events
    unsigned events = 0;  // CQ events taken and not acknowledged yet
    unsigned total_events = 0;
    rc_check::Pd pd;
    rc_check::Buf buf;
    size_t len = 0;
    rc_check::Mr mr;
    MrcCq scq;
    MrcCq rcq;
    MrcHint hint;  // verbs-style end only
    MrcQp qp;
    // The server sets its QP up as the published example does, with the
    // verbs attributes a verbs program passes (libmrc overrides them) and
    // MRC attributes on each transition; the client passes the least.
    bool verbs_style = false;
    uint8_t mpr = 0;  // the PSN ranges connect_qp() sets, 0 for none
    uint32_t qpn = 0;
    uint32_t psn = 0;
};

Err open_end(const Options& o, size_t len, End* e) {
    if (auto err = rc_check::open_device(o.dev, o.gid, &e->dev))
        return err;
    ibv_context* v = e->dev.ctx.get();
    mrc_device_attr da{};
    int supported = 0;
    if (mrc_query_device(v, &da, &supported) != 0)
        return fail("mrc_query_device: %s", std::strerror(errno));
    if (!supported)
        return fail("mrc_query_device: %s is not an MRC device", o.dev.c_str());
    mrc_context_attr ca{};
    ca.mrc_api_version_used = MRC_API_VER_LATEST;
    e->ctx.reset(mrc_create_context(v, &ca));
    if (!e->ctx)
        return fail("mrc_create_context: %s", std::strerror(errno));
    e->pd.reset(ibv_alloc_pd(v));
    if (!e->pd)
        return fail("ibv_alloc_pd: %s", std::strerror(errno));
    e->len = len;
    size_t rounded = (len + 4095) & ~size_t{4095};
    e->buf.reset(static_cast<uint8_t*>(std::aligned_alloc(4096, rounded)));
    if (!e->buf)
        return fail("cannot allocate %zu bytes", rounded);
    std::memset(e->buf.get(), 0, rounded);
    e->mr.reset(ibv_reg_mr(e->pd.get(), e->buf.get(), len,
                           IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE));
    if (!e->mr)
        return fail("ibv_reg_mr(%zu): %s", len, std::strerror(errno));
    e->scq.reset(mrc_create_cq(e->ctx.get(), 2 * kRecvs, nullptr, nullptr, 0));
    mrc_comp_channel* ch = nullptr;
    if (int ret = mrc_create_comp_channel(e->ctx.get(), &ch))
        return fail("mrc_create_comp_channel: %s", std::strerror(ret));
    e->channel.reset(ch);
    if (mrc_get_comp_channel_fd(ch, &e->channel_fd) != 0)
        return fail("mrc_get_comp_channel_fd: %s", std::strerror(errno));
    e->rcq.reset(mrc_create_cq(e->ctx.get(), 2 * kRecvs, &e->rcq_tag, ch, 0));
    if (!e->scq || !e->rcq)
        return fail("mrc_create_cq: %s", std::strerror(errno));
    mrc_qp_init_attr qa{};
    qa.send_cq = e->scq.get();
    qa.recv_cq = e->rcq.get();
    // Room beyond max_wimm, so that the send queue never is what refuses.
    qa.cap.max_send_wr = 2 * kWimm;
    qa.cap.max_recv_wr = 2 * kRecvs;
    qa.cap.max_send_sge = 1;
    qa.cap.max_recv_sge = 1;
    qa.cap.max_inline_data = kInline;
    qa.pd = e->pd.get();
    qa.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
    e->qp.reset(mrc_create_qp(e->ctx.get(), &qa));
    if (!e->qp)
        return fail("mrc_create_qp: %s", std::strerror(errno));
    if (qa.cap.max_inline_data < kInline)
        return fail("mrc_create_qp: max_inline_data %u written back, %u asked for",
                    qa.cap.max_inline_data, kInline);
    if (mrc_get_qpn(e->qp.get(), &e->qpn) != 0)
        return fail("mrc_get_qpn: %s", std::strerror(errno));
    e->psn = static_cast<uint32_t>(rc_check::mix(o.seed, e->qpn) & 0xffffff);

    e->verbs_style = o.server;
    e->mpr = o.mpr ? o.mpr : (o.server ? 8 : 0);
    ibv_qp_attr va{};
    va.qp_state = IBV_QPS_INIT;
    va.qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
    int vmask = IBV_QP_STATE | IBV_QP_ACCESS_FLAGS;
    mrc_qp_attr ma{};
    int mmask = 0;
    if (e->verbs_style) {
        mrc_qp_hint_init_attr ha{};
        ha.attr.num_qps_per_peer = 1;
        ha.attr.num_send_peers = 1;
        ha.attr.num_remote_recv_peers = 1;
        e->hint.reset(mrc_create_qp_hint(e->ctx.get(), &ha));
        if (!e->hint)
            return fail("mrc_create_qp_hint: %s", std::strerror(errno));
        va.qp_access_flags |= IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ;
        va.pkey_index = 0;
        va.port_num = 1;
        vmask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT;
        ma.qp_hint = e->hint.get();
        mmask |= MRC_QP_HINT;
    }
    if (o.cc_profile) {
        ma.profile.cc_profile_id = o.cc_profile;
        mmask |= MRC_QP_CC_PROFILE_ID;
    }
    if (o.ev_profile) {
        ma.profile.ev_profile_id = o.ev_profile;
        mmask |= MRC_QP_EV_PROFILE_ID;
    }
    if (int ret = mrc_modify_qp(e->qp.get(), &va, vmask, &ma, mmask))
        return fail("mrc_modify_qp(INIT): %s", std::strerror(ret));
    return std::nullopt;
}

Err connect_qp(End* e, const mrc_stream::PeerInfo& peer) {
    ibv_qp_attr va{};
    va.qp_state = IBV_QPS_RTR;
    va.path_mtu =
        static_cast<ibv_mtu>(std::min(peer.mtu, static_cast<uint32_t>(e->dev.port.active_mtu)));
    va.dest_qp_num = peer.qpn;
    va.rq_psn = peer.psn;
    va.ah_attr.is_global = 1;
    std::memcpy(va.ah_attr.grh.dgid.raw, peer.gid, sizeof(peer.gid));
    va.ah_attr.grh.sgid_index = static_cast<uint8_t>(e->dev.gid_index);
    va.ah_attr.grh.hop_limit = 64;
    va.ah_attr.port_num = 1;
    mrc_qp_attr ma{};
    ma.wimm.max_wimm_dest = 2 * kRecvs;
    int mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN;
    int mmask = MRC_QP_MAX_WIMM_DEST;
    if (e->verbs_style) {
        va.max_dest_rd_atomic = 1;
        va.min_rnr_timer = 12;
        mask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
        ma.mpr.mpr_dest = e->mpr;
        ma.cap = MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED;
        mmask |= MRC_QP_MPR_DEST | MRC_QP_CAP;
    }
    if (int ret = mrc_modify_qp(e->qp.get(), &va, mask, &ma, mmask))
        return fail("mrc_modify_qp(RTR): %s", std::strerror(ret));
    va = ibv_qp_attr{};
    va.qp_state = IBV_QPS_RTS;
    va.sq_psn = e->psn;
    ma = mrc_qp_attr{};
    ma.timeout = 16;
    ma.retry.linear_cnt = 7;
    ma.wimm.max_wimm = kWimm;
    mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
    mmask = MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT | MRC_QP_MAX_WIMM;
    if (e->verbs_style) {
        va.timeout = 14;
        va.retry_cnt = 7;
        va.rnr_retry = 7;
        va.max_rd_atomic = 1;
        mask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC;
        ma.retry.linear_cnt = 3;
        ma.retry.exp_cnt = 4;
        ma.mpr.mpr = e->mpr;
        mmask |= MRC_QP_MPR;
    } else if (e->mpr) {
        ma.mpr.mpr = e->mpr;
        mmask |= MRC_QP_MPR;
    }
    if (int ret = mrc_modify_qp(e->qp.get(), &va, mask, &ma, mmask))
        return fail("mrc_modify_qp(RTS): %s", std::strerror(ret));
    return std::nullopt;
}

// Polls cq (mrc_poll_cq) until n completions arrive or wait_ms pass.
Err poll_n(mrc_cq* cq, int n, int wait_ms, std::vector<ibv_wc>* out) {
    out->clear();
    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    while (static_cast<int>(out->size()) < n) {
        ibv_wc wc[16];
        int got = mrc_poll_cq(cq, std::min(16, n - static_cast<int>(out->size())), wc);
        if (got < 0)
            return fail("mrc_poll_cq: %s", std::strerror(errno));
        out->insert(out->end(), wc, wc + got);
        if (got)
            continue;
        if (Clock::now() > deadline)
            return fail("%zu of %d completions within %d ms", out->size(), n, wait_ms);
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return std::nullopt;
}

// Polls the receive CQ until n completions arrive, sleeping on its
// completion channel in between: arm (mrc_req_notify_cq), poll once more
// (a completion may have come before the arming), then wait for the event
// (mrc_get_cq_event), which must name this CQ and its cq_context.
Err wait_events(End* e, int n, int wait_ms, std::vector<ibv_wc>* out) {
    out->clear();
    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    bool armed = false;
    while (static_cast<int>(out->size()) < n) {
        ibv_wc wc[16];
        int got = mrc_poll_cq(e->rcq.get(), std::min(16, n - static_cast<int>(out->size())), wc);
        if (got < 0)
            return fail("mrc_poll_cq: %s", std::strerror(errno));
        out->insert(out->end(), wc, wc + got);
        if (got)
            continue;
        if (!armed) {
            if (int ret = mrc_req_notify_cq(e->rcq.get(), 0))
                return fail("mrc_req_notify_cq: %s", std::strerror(ret));
            armed = true;
            continue;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0)
            return fail("%zu of %d receive completions within %d ms (waiting on CQ events)",
                        out->size(), n, wait_ms);
        pollfd pfd{e->channel_fd, POLLIN, 0};
        int r = poll(&pfd, 1, static_cast<int>(left.count()));
        if (r < 0 && errno != EINTR)
            return fail("poll on the completion channel: %s", std::strerror(errno));
        if (r <= 0)
            continue;
        mrc_cq* cq = nullptr;
        void* ctx = nullptr;
        if (mrc_get_cq_event(e->channel.get(), &cq, &ctx) != 0)
            return fail("mrc_get_cq_event: %s", std::strerror(errno));
        if (cq != e->rcq.get() || ctx != &e->rcq_tag)
            return fail("mrc_get_cq_event: CQ %p context %p, not the receive CQ %p context %p",
                        static_cast<void*>(cq), ctx, static_cast<void*>(e->rcq.get()),
                        static_cast<void*>(&e->rcq_tag));
        e->events++;
        e->total_events++;
        if (e->events >= 16) {  // acknowledged in batches, as programs do
            mrc_ack_cq_events(cq, e->events);
            e->events = 0;
        }
        armed = false;
    }
    return std::nullopt;
}

// Destroys what open_end() made, in order, checking each call: the
// context refuses (EBUSY) while its QP lives, then goes after it.
Err teardown(End* e) {
    if (mrc_destroy_context(e->ctx.get()) != -1 || errno != EBUSY)
        return fail("mrc_destroy_context with a QP left: not -1/EBUSY (errno %d)", errno);
    if (e->events)
        mrc_ack_cq_events(e->rcq.get(), e->events);
    e->events = 0;
    if (e->hint && (mrc_destroy_qp_hint(e->hint.get()) != -1 || errno != EBUSY))
        return fail("mrc_destroy_qp_hint with its QP left: not -1/EBUSY (errno %d)", errno);
    if (int ret = mrc_destroy_qp(e->qp.release()))
        return fail("mrc_destroy_qp: %s", std::strerror(ret));
    if (e->hint && mrc_destroy_qp_hint(e->hint.release()) != 0)
        return fail("mrc_destroy_qp_hint: %s", std::strerror(errno));
    if (int ret = mrc_destroy_cq(e->scq.release()))
        return fail("mrc_destroy_cq (send): %s", std::strerror(ret));
    if (int ret = mrc_destroy_cq(e->rcq.release()))
        return fail("mrc_destroy_cq (receive): %s", std::strerror(ret));
    if (int ret = mrc_destroy_comp_channel(e->channel.release()))
        return fail("mrc_destroy_comp_channel: %s", std::strerror(ret));
    if (mrc_destroy_context(e->ctx.release()) != 0)
        return fail("mrc_destroy_context: %s", std::strerror(errno));
    return std::nullopt;
}

// mrc_query_qp() after the connection: RTS, the MRC attributes as set,
// and the verbs ones libmrc chose (the driver's answer through verbs): an
// ACK timeout of 4.096 us * 2^14 for the MRC 1.024 us * 2^16, seven
// retries, no READ or atomic depth, remote write access only.
Err check_query(const Options& o, End* e) {
    ibv_qp_attr va{};
    mrc_qp_attr ma{};
    mrc_qp_init_attr ia{};
    int vmask = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_MAX_QP_RD_ATOMIC |
                IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_ACCESS_FLAGS;
    int mask = MRC_QP_TIMEOUT | MRC_QP_RETRY_CNT | MRC_QP_MAX_WIMM | MRC_QP_MAX_WIMM_DEST |
               MRC_QP_MPR | MRC_QP_MPR_DEST | MRC_QP_CAP | MRC_QP_HINT | MRC_QP_EV_PROFILE_ID |
               MRC_QP_CC_PROFILE_ID;
    if (int ret = mrc_query_qp(e->qp.get(), &va, vmask, &ma, mask, &ia))
        return fail("mrc_query_qp: %s", std::strerror(ret));
    if (va.qp_state != IBV_QPS_RTS)
        return fail("mrc_query_qp: state %d, not RTS", va.qp_state);
    if (va.timeout != 14 || va.retry_cnt != 7 || va.max_rd_atomic != 0 ||
        va.max_dest_rd_atomic != 0 || va.qp_access_flags != IBV_ACCESS_REMOTE_WRITE)
        return fail(
            "mrc_query_qp: verbs timeout %u retry_cnt %u max_rd_atomic %u "
            "max_dest_rd_atomic %u access 0x%x, not 14 7 0 0 0x%x",
            va.timeout, va.retry_cnt, va.max_rd_atomic, va.max_dest_rd_atomic, va.qp_access_flags,
            IBV_ACCESS_REMOTE_WRITE);
    unsigned lin = e->verbs_style ? 3 : 7, exp = e->verbs_style ? 4 : 0;
    if (ma.timeout != 16 || ma.retry.linear_cnt != lin || ma.retry.exp_cnt != exp ||
        ma.wimm.max_wimm != kWimm || ma.wimm.max_wimm_dest != 2 * kRecvs)
        return fail(
            "mrc_query_qp: timeout %u linear %u exp %u max_wimm %u max_wimm_dest %u, "
            "not 16 %u %u %u %d",
            ma.timeout, ma.retry.linear_cnt, ma.retry.exp_cnt, ma.wimm.max_wimm,
            ma.wimm.max_wimm_dest, lin, exp, kWimm, 2 * kRecvs);
    if (e->verbs_style &&
        (ma.mpr.mpr != e->mpr || ma.mpr.mpr_dest != e->mpr ||
         ma.cap != MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED || ma.qp_hint != e->hint.get()))
        return fail("mrc_query_qp: mpr %u mpr_dest %u cap 0x%x hint %p, not %u %u 0x%x %p",
                    ma.mpr.mpr, ma.mpr.mpr_dest, ma.cap, static_cast<void*>(ma.qp_hint), e->mpr,
                    e->mpr, MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED,
                    static_cast<void*>(e->hint.get()));
    if (!e->verbs_style && e->mpr && ma.mpr.mpr != e->mpr)
        return fail("mrc_query_qp: mpr %u, not %u", ma.mpr.mpr, e->mpr);
    if (ma.profile.ev_profile_id != o.ev_profile)
        return fail("mrc_query_qp: EV profile %" PRIu64 ", not %" PRIu64, ma.profile.ev_profile_id,
                    o.ev_profile);
    if (ma.profile.cc_profile_id != o.cc_profile)
        return fail("mrc_query_qp: CC profile %" PRIu64 ", not %" PRIu64, ma.profile.cc_profile_id,
                    o.cc_profile);
    if (ia.send_cq != e->scq.get() || ia.recv_cq != e->rcq.get() || ia.pd != e->pd.get())
        return fail("mrc_query_qp: init_attr names other CQs or PD");
    return std::nullopt;
}

// Whether cq holds a completion (it must not).
Err expect_empty(mrc_cq* cq, const char* what) {
    ibv_wc wc;
    int got = mrc_poll_cq(cq, 1, &wc);
    if (got < 0)
        return fail("mrc_poll_cq: %s", std::strerror(errno));
    if (got)
        return fail("%s: unexpected completion (wr_id %" PRIu64 ", opcode %d, status %s)", what,
                    wc.wr_id, wc.opcode, ibv_wc_status_str(wc.status));
    return std::nullopt;
}

uint64_t step_seed(uint64_t seed, uint64_t size, uint32_t imm) {
    return rc_check::mix(rc_check::mix(seed, size), imm);
}

// The complement of the pattern: every byte differs from what is expected.
void fill_complement(uint8_t* p, size_t n, uint64_t seed) {
    rc_check::fill_pattern(p, n, seed);
    for (size_t i = 0; i < n; i++)
        p[i] = static_cast<uint8_t>(~p[i]);
}

// ---- the side channel's steps ----

enum MsgType : uint32_t {
    kPrepare = 1,  // fill target [offset, offset + size) and guards
    kReady,
    kPosted,  // the client's request completed: check
    kResult,
    kSnapshot,  // negative checks: fill, remember
    kBye,
};

enum Op : uint32_t { kWrite = 1, kWriteImm, kChainImm, kNothing, kLateRecv, kCredits };

struct Msg {
    uint32_t type = 0;
    uint32_t op = 0;
    uint64_t size = 0;
    uint64_t offset = 0;
    uint64_t seed = 0;
    uint32_t imm = 0;     // the (first) immediate, host order
    uint32_t count = 0;   // requests in the step
    uint32_t status = 0;  // kResult: 0 ok
    char text[236] = {};
};
static_assert(sizeof(Msg) == 280, "fixed wire size");

Err send_msg(int fd, Msg m) {
    const auto* p = reinterpret_cast<const uint8_t*>(&m);
    size_t n = sizeof(m);
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return fail("side channel: write: %s", std::strerror(errno));
        p += w;
        n -= static_cast<size_t>(w);
    }
    return std::nullopt;
}

Err recv_msg(int fd, int wait_ms, Msg* m) {
    auto* p = reinterpret_cast<uint8_t*>(m);
    size_t n = sizeof(*m);
    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
    while (n) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0)
            return fail("side channel: nothing from the peer within %d ms", wait_ms);
        pollfd pfd{fd, POLLIN, 0};
        int r = poll(&pfd, 1, static_cast<int>(left.count()));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return fail("side channel: poll: %s", std::strerror(errno));
        if (r == 0)
            continue;
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return fail("side channel: read: %s", std::strerror(errno));
        if (got == 0)
            return fail("side channel: the peer closed the connection");
        p += got;
        n -= static_cast<size_t>(got);
    }
    return std::nullopt;
}

// ---- server ----

class Server {
public:
    Server(const Options& o, End* e, int fd) : o_(o), e_(e), fd_(fd) {}

    Err run() {
        if (auto err = post_recvs(kRecvs))
            return err;
        for (;;) {
            Msg m;
            if (auto err = recv_msg(fd_, 10 * o_.wait_ms, &m))
                return err;
            Msg r;
            switch (m.type) {
                case kPrepare:
                case kSnapshot:
                    prepare(m);
                    r.type = kReady;
                    break;
                case kPosted: {
                    r.type = kResult;
                    Err err = check(m);
                    if (err) {
                        r.status = 1;
                        std::snprintf(r.text, sizeof(r.text), "%s", err->c_str());
                    }
                    break;
                }
                case kBye:
                    return std::nullopt;
                default:
                    return fail("side channel: unknown message %u", m.type);
            }
            if (auto err = send_msg(fd_, r))
                return err;
        }
    }

private:
    Err post_recvs(int n) {
        for (int i = 0; i < n; i++) {
            // WRITE with immediate places its data by address: the receive
            // only carries the immediate, so it has no scatter list.
            ibv_recv_wr wr{};
            wr.wr_id = recv_id_++;
            ibv_recv_wr* bad = nullptr;
            if (mrc_post_recv(e_->qp.get(), &wr, &bad) != 0)
                return fail("mrc_post_recv: %s", std::strerror(errno));
        }
        return std::nullopt;
    }

    // The target gets the complement of what must arrive; guards around it.
    void prepare(const Msg& m) {
        uint8_t* b = e_->buf.get();
        if (m.type == kSnapshot || m.op == kNothing) {
            rc_check::fill_pattern(b, e_->len, m.seed);
            return;
        }
        if (m.op == kLateRecv || m.op == kCredits) {
            std::memset(b, kGuardByte, m.count * kLateSlot);
            for (uint32_t i = 0; i < m.count; i++)
                fill_complement(b + i * kLateSlot, 8, m.seed + i);
            return;
        }
        if (m.op == kChainImm) {
            for (uint32_t i = 0; i < m.count; i++) {
                size_t off = i * kChainSlot;
                std::memset(b + off, kGuardByte, kChainSlot);
                fill_complement(b + off, chain_size(i), m.seed + i);
            }
            return;
        }
        size_t lo = m.offset >= kGuard ? m.offset - kGuard : 0;
        size_t hi = std::min<size_t>(e_->len, m.offset + m.size + kGuard);
        std::memset(b + lo, kGuardByte, hi - lo);
        fill_complement(b + m.offset, m.size, m.seed);
    }

    Err check_guards(const Msg& m) const {
        const uint8_t* b = e_->buf.get();
        size_t lo = m.offset >= kGuard ? m.offset - kGuard : 0;
        size_t hi = std::min<size_t>(e_->len, m.offset + m.size + kGuard);
        for (size_t i = lo; i < hi; i++) {
            if (i >= m.offset && i < m.offset + m.size)
                continue;
            if (b[i] != kGuardByte)
                return fail("guard byte at %zd from the target's start changed to 0x%02x",
                            static_cast<ssize_t>(i) - static_cast<ssize_t>(m.offset), b[i]);
        }
        return std::nullopt;
    }

    Err check_bytes(const uint8_t* p, uint64_t size, uint64_t seed, const char* what) const {
        size_t bad = rc_check::pattern_mismatch(p, size, seed);
        if (bad != size)
            return fail("%s: byte %zu of %" PRIu64 " differs from the pattern", what, bad, size);
        return std::nullopt;
    }

    // One receive completion for a WRITE with immediate.
    Err check_imm(const ibv_wc& wc, uint32_t want_imm, uint64_t want_len) {
        if (wc.status != IBV_WC_SUCCESS)
            return fail("receive completion status %s", ibv_wc_status_str(wc.status));
        if (wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM || !(wc.wc_flags & IBV_WC_WITH_IMM))
            return fail("receive completion opcode %d flags 0x%x, not RECV_RDMA_WITH_IMM",
                        wc.opcode, wc.wc_flags);
        uint32_t imm = ntohl(wc.imm_data);
        if (imm != want_imm)
            return fail("immediate %u arrived where %u was next (posting order)", imm, want_imm);
        if (wc.byte_len != want_len)
            return fail("receive completion byte_len %u, the WRITE had %" PRIu64, wc.byte_len,
                        want_len);
        if (have_imm_ && imm != last_imm_ + 1)
            return fail("immediate %u after %u: not in posting order", imm, last_imm_);
        have_imm_ = true;
        last_imm_ = imm;
        return std::nullopt;
    }

    Err check(const Msg& m) {
        const uint8_t* b = e_->buf.get();
        std::vector<ibv_wc> wcs;
        switch (m.op) {
            case kWrite:
                if (auto err = expect_empty(e_->rcq.get(), "receive CQ after an RDMA WRITE"))
                    return err;
                if (auto err = check_bytes(b + m.offset, m.size, m.seed, "RDMA WRITE"))
                    return err;
                return check_guards(m);
            case kWriteImm:
                if (auto err = wait_events(e_, 1, o_.wait_ms, &wcs))
                    return err;
                if (auto err = post_recvs(1))
                    return err;
                if (auto err = check_imm(wcs[0], m.imm, m.size))
                    return err;
                if (auto err = check_bytes(b + m.offset, m.size, m.seed, "WRITE with immediate"))
                    return err;
                return check_guards(m);
            case kChainImm:
                if (auto err = wait_events(e_, static_cast<int>(m.count), o_.wait_ms, &wcs))
                    return err;
                if (auto err = post_recvs(static_cast<int>(m.count)))
                    return err;
                for (uint32_t i = 0; i < m.count; i++) {
                    if (auto err = rc_check::in("request " + std::to_string(i),
                                                check_imm(wcs[i], m.imm + i, chain_size(i))))
                        return err;
                    size_t off = i * kChainSlot;
                    if (auto err = check_bytes(b + off, chain_size(i), m.seed + i, "chained WRITE"))
                        return err;
                    for (size_t j = chain_size(i); j < kChainSlot; j++)
                        if (b[off + j] != kGuardByte)
                            return fail("request %u: guard byte %zu changed", i, j);
                }
                return std::nullopt;
            case kLateRecv:
                return late_recv(m);
            case kCredits:
                if (auto err = wait_events(e_, static_cast<int>(m.count), o_.wait_ms, &wcs))
                    return err;
                if (auto err = post_recvs(static_cast<int>(m.count)))
                    return err;
                for (uint32_t i = 0; i < m.count; i++)
                    if (auto err = rc_check::in("request " + std::to_string(i),
                                                check_imm(wcs[i], m.imm + i, 8)))
                        return err;
                return check_slots(m);
            case kNothing:
                if (auto err = expect_empty(e_->rcq.get(), "receive CQ after refused requests"))
                    return err;
                return check_bytes(b, e_->len, m.seed, "server memory after refused requests");
            default:
                return fail("unknown step %u", m.op);
        }
    }

    // Every posted receive is taken by the first kRecvs requests; the last
    // one finds none, and must wait (RNR) until the receives come 500 ms
    // later, not fail. This server promised max_wimm_dest 2 * kRecvs and
    // broke it: MRC has no RNR, so libmrc has the driver retry for ever
    // rather than fail a QP whose peer stayed within its credit.
    Err late_recv(const Msg& m) {
        std::vector<ibv_wc> wcs;
        uint32_t first = m.count - 1;
        if (auto err = wait_events(e_, static_cast<int>(first), o_.wait_ms, &wcs))
            return err;
        for (uint32_t i = 0; i < first; i++)
            if (auto err =
                    rc_check::in("request " + std::to_string(i), check_imm(wcs[i], m.imm + i, 8)))
                return err;
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        if (auto err = expect_empty(e_->rcq.get(), "receive CQ with no receive posted"))
            return err;
        if (auto err = post_recvs(kRecvs))
            return err;
        if (auto err = wait_events(e_, 1, o_.wait_ms, &wcs))
            return err;
        if (auto err = rc_check::in("the request that waited", check_imm(wcs[0], m.imm + first, 8)))
            return err;
        return check_slots(m);
    }

    // m.count WRITEs with immediate of 8 B, one per kLateSlot, guards after.
    Err check_slots(const Msg& m) const {
        const uint8_t* b = e_->buf.get();
        for (uint32_t i = 0; i < m.count; i++) {
            const uint8_t* slot = b + i * kLateSlot;
            if (auto err = check_bytes(slot, 8, m.seed + i, "WRITE with immediate"))
                return err;
            for (size_t j = 8; j < kLateSlot; j++)
                if (slot[j] != kGuardByte)
                    return fail("request %u: guard byte %zu changed", i, j);
        }
        return std::nullopt;
    }

public:
    static size_t chain_size(uint32_t i) { return 1 + i * 127; }

private:
    const Options& o_;
    End* e_;
    int fd_;
    uint64_t recv_id_ = 0;
    bool have_imm_ = false;
    uint32_t last_imm_ = 0;
};

// ---- client ----

class Client {
public:
    Client(const Options& o, End* e, int fd, const mrc_stream::PeerInfo& peer)
        : o_(o), e_(e), fd_(fd), peer_(peer) {}

    // Runs every step; prints the points. Returns the first failure.
    Err run() {
        std::vector<uint64_t> sizes = sweep_sizes(o_.max_size);
        Err first;
        auto note = [&](const std::string& desc, Err err) {
            point(desc, err);
            if (err && !first)
                first = desc + ": " + *err;
            return !err;
        };

        note("mrc_query_qp: RTS, the MRC attributes as set, the init attributes",
             check_query(o_, e_));
        bool ok = true;
        for (uint64_t s : sizes) {
            if (!(ok = note("RDMA WRITE " + std::to_string(s) + " B verified by the receiver",
                            step(kWrite, s))))
                break;
        }
        if (ok)
            note("WRITE sweep: " + std::to_string(sizes.size()) + " sizes, 1 B to " +
                     std::to_string(o_.max_size) + " B, verified by the receiver",
                 std::nullopt);
        if (o_.writes_only) {
            note("teardown: every mrc_destroy_* returns 0", teardown(e_));
            return first;
        }

        ok = true;
        for (uint64_t s : sizes) {
            if (s > kInline)
                break;
            if (!(ok = note("inline RDMA WRITE " + std::to_string(s) +
                                " B, source cleared after posting, verified by the receiver",
                            step(kWrite, s, true))))
                break;
        }
        if (ok)
            note("inline WRITE sweep: 1 B to " + std::to_string(kInline) +
                     " B copied at posting, verified by the receiver",
                 std::nullopt);

        negatives(note);

        ok = true;
        for (uint64_t s : sizes) {
            if (!(ok = note("WRITE with immediate " + std::to_string(s) +
                                " B verified by the receiver, immediate in order",
                            step(kWriteImm, s))))
                break;
        }
        if (ok)
            note("WRITE_WITH_IMM sweep: " + std::to_string(sizes.size()) + " sizes, 1 B to " +
                     std::to_string(o_.max_size) + " B, verified, immediates in posting order",
                 std::nullopt);
        note("WRITE_WITH_IMM chain of " + std::to_string(kChain) +
                 " in one mrc_post_send: verified, immediates and completions in posting order",
             chain());
        credits(note);
        note(
            "WRITE_WITH_IMM with no receive posted waits for one (RNR), then lands: "
            "verified, in posting order",
            late_recv());
        note(
            "a WRITE with a bad lkey fails the QP: an error completion, then IBV_EVENT_QP_FATAL "
            "from mrc_get_async_event naming the QP, acknowledged",
            async_event());
        note(
            "teardown: mrc_destroy_context EBUSY while the QP lives, then every "
            "mrc_destroy_* returns 0",
            teardown(e_));
        return first;
    }

private:
    static std::vector<uint64_t> sweep_sizes(uint64_t max) {
        std::vector<uint64_t> s;
        for (uint64_t v = 1; v <= max; v *= 2)
            s.push_back(v);
        for (uint64_t v : std::initializer_list<uint64_t>{3, 1000, 4095, 4097, 65537,
                                                          (uint64_t{1} << 20) + 7, max - 1})
            if (v >= 1 && v <= max)
                s.push_back(v);
        std::sort(s.begin(), s.end());
        s.erase(std::unique(s.begin(), s.end()), s.end());
        return s;
    }

    void point(const std::string& desc, const Err& err) {
        n_++;
        if (err)
            std::printf("not ok %d - %s\n# %s\n", n_, desc.c_str(), err->c_str());
        else
            std::printf("ok %d - %s\n", n_, desc.c_str());
        std::fflush(stdout);
    }

    Err exchange(const Msg& m, Msg* reply) {
        if (auto err = send_msg(fd_, m))
            return err;
        return recv_msg(fd_, 4 * o_.wait_ms, reply);
    }

    Err post(ibv_send_wr* wr) {
        ibv_send_wr* bad = nullptr;
        if (int ret = mrc_post_send(e_->qp.get(), wr, &bad))
            return fail("mrc_post_send: %s", std::strerror(ret));
        return std::nullopt;
    }

    Err wait_sends(int n, uint64_t first_id) {
        std::vector<ibv_wc> wcs;
        if (auto err = poll_n(e_->scq.get(), n, o_.wait_ms, &wcs))
            return err;
        for (int i = 0; i < n; i++) {
            const ibv_wc& wc = wcs[static_cast<size_t>(i)];
            if (wc.status != IBV_WC_SUCCESS)
                return fail("send completion %d: status %s (vendor error 0x%x)", i,
                            ibv_wc_status_str(wc.status), wc.vendor_err);
            if (wc.wr_id != first_id + static_cast<uint64_t>(i))
                return fail("send completion %d is request %" PRIu64 ", not %" PRIu64, i, wc.wr_id,
                            first_id + static_cast<uint64_t>(i));
        }
        return std::nullopt;
    }

    // Asks the server to report; turns its verdict into an Err.
    Err verdict(Msg posted) {
        posted.type = kPosted;
        if (auto err = send_msg(fd_, posted))
            return err;
        return result();
    }

    // The server's verdict on the step announced last.
    Err result() {
        Msg r;
        if (auto err = recv_msg(fd_, 4 * o_.wait_ms, &r))
            return err;
        if (r.type != kResult)
            return fail("side channel: reply %u, not a result", r.type);
        if (r.status)
            return fail("receiver: %s", r.text);
        return std::nullopt;
    }

    Err step(Op op, uint64_t size, bool inl = false) {
        Msg m;
        m.type = kPrepare;
        m.op = op;
        m.size = size;
        m.offset = kGuard + ((size & 1) ? 5 : 0);
        m.imm = op == kWriteImm ? imm_++ : 0;
        m.seed = step_seed(o_.seed, size, m.imm + 0x100000u * op);
        m.count = 1;
        Msg r;
        if (auto err = exchange(m, &r))
            return err;
        if (r.type != kReady)
            return fail("side channel: reply %u, not ready", r.type);

        rc_check::fill_pattern(e_->buf.get(), size, m.seed);
        ibv_sge sge{reinterpret_cast<uintptr_t>(e_->buf.get()), static_cast<uint32_t>(size),
                    e_->mr->lkey};
        ibv_send_wr wr{};
        wr.wr_id = wr_id_;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.opcode = op == kWriteImm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.imm_data = htonl(m.imm);
        wr.wr.rdma.remote_addr = peer_.addr + m.offset;
        wr.wr.rdma.rkey = peer_.rkey;
        if (op == kWriteImm)
            return announced(m, &wr, 1);
        if (inl)
            wr.send_flags |= IBV_SEND_INLINE;
        if (auto err = post(&wr))
            return err;
        // Inline data is copied when the request is posted: the source may
        // change at once, and what arrives must still be the pattern.
        if (inl)
            std::memset(e_->buf.get(), 0, size);
        // RC: the completion comes once the responder acknowledged, so the
        // data is in the server's memory when it looks.
        if (auto err = wait_sends(1, wr_id_++))
            return err;
        return verdict(m);
    }

    // WRITEs with immediate tell the receiver themselves that they arrived:
    // the server is told to wait before they are posted, and waits for
    // their receive completions on CQ events, as an application would.
    Err announced(Msg m, ibv_send_wr* wr, int n) {
        m.type = kPosted;
        if (auto err = send_msg(fd_, m))
            return err;
        Err err = post(wr);
        uint64_t first = wr_id_;
        wr_id_ += static_cast<uint64_t>(n);
        if (!err)
            err = wait_sends(n, first);
        Err verdict = result();  // read even after a failure: the server answers
        return err ? err : verdict;
    }

    // n WRITEs with immediate in one chain, request i of len_of(i) bytes
    // of pattern seed + i from slot i of our buffer to slot i of the
    // server's, signaled, wr_id wr_id_ + i, immediate imm_ + i.
    struct ImmChain {
        std::vector<ibv_sge> sges;
        std::vector<ibv_send_wr> wrs;
    };
    ImmChain imm_chain(uint32_t n, size_t slot, uint64_t seed, size_t (*len_of)(uint32_t)) {
        ImmChain c{std::vector<ibv_sge>(n), std::vector<ibv_send_wr>(n)};
        for (uint32_t i = 0; i < n; i++) {
            size_t len = len_of(i);
            uint8_t* src = e_->buf.get() + i * slot;
            rc_check::fill_pattern(src, len, seed + i);
            c.sges[i] =
                ibv_sge{reinterpret_cast<uintptr_t>(src), static_cast<uint32_t>(len), e_->mr->lkey};
            ibv_send_wr& wr = c.wrs[i];
            wr = ibv_send_wr{};
            wr.wr_id = wr_id_ + i;
            wr.next = i + 1 < n ? &c.wrs[i + 1] : nullptr;
            wr.sg_list = &c.sges[i];
            wr.num_sge = 1;
            wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
            wr.send_flags = IBV_SEND_SIGNALED;
            wr.imm_data = htonl(imm_ + i);
            wr.wr.rdma.remote_addr = peer_.addr + i * slot;
            wr.wr.rdma.rkey = peer_.rkey;
        }
        return c;
    }

    static size_t eight_bytes(uint32_t) { return 8; }

    Err chain() {
        Msg m;
        m.type = kPrepare;
        m.op = kChainImm;
        m.count = kChain;
        m.imm = imm_;
        m.seed = step_seed(o_.seed, kChain, imm_);
        Msg r;
        if (auto err = exchange(m, &r))
            return err;
        ImmChain c = imm_chain(kChain, kChainSlot, m.seed, Server::chain_size);
        imm_ += kChain;
        return announced(m, c.wrs.data(), kChain);
    }

    // WIMM credits: kWimm (max_wimm) WRITEs with immediate may be in
    // flight and no more. One beyond is refused at posting with ENOMEM
    // (never sent to meet an RNR) until the completions of earlier ones
    // are polled. The send queue has room for twice as many, so it is
    // not what refuses.
    template <typename Note>
    void credits(Note& note) {
        Msg m;
        m.type = kPrepare;
        m.op = kCredits;
        m.count = kWimm;
        m.imm = imm_;
        m.seed = step_seed(o_.seed, kWimm, imm_ + 0x900000u);
        Msg r;
        if (Err err = exchange(m, &r)) {
            note("WIMM credits: server ready", err);
            return;
        }
        ImmChain c = imm_chain(kWimm + 1, kLateSlot, m.seed, eight_bytes);
        std::vector<ibv_send_wr>& wrs = c.wrs;
        if (!note("mrc_post_send: a chain of max_wimm + 1 WRITEs with immediate refused whole "
                  "with ENOMEM, bad_wr the one beyond the credit",
                  refused(&wrs[0], &wrs[kWimm], ENOMEM)))
            return;

        // The first kWimm alone: accepted, and each lands (the refused
        // chain posted nothing, or the server would see its immediates).
        wrs[kWimm - 1].next = nullptr;
        m.type = kPosted;
        if (Err err = send_msg(fd_, m)) {
            note("WIMM credits: announce", err);
            return;
        }
        uint64_t first = wr_id_;
        wr_id_ += kWimm;
        Err err = post(&wrs[0]);
        Err landed = result();
        if (!note("max_wimm WRITEs with immediate in flight: accepted, each verified by the "
                  "receiver, immediates in posting order",
                  err ? err : landed))
            return;

        // They have landed, and their send slots are free, but the
        // program has not polled their completions: no credit yet.
        note(
            "one more WRITE with immediate before their completions are polled: refused with "
            "ENOMEM",
            refused(&wrs[kWimm], &wrs[kWimm], ENOMEM));
        Err polled = wait_sends(static_cast<int>(kWimm), first);
        imm_ += kWimm;
        if (!polled)
            polled = step(kWriteImm, 8);
        note(
            "completions polled give the credits back: the next WRITE with immediate is "
            "accepted and lands",
            polled);
    }

    // kRecvs WRITEs with immediate take every receive the server has
    // posted; one more must wait for the receives the server posts late.
    Err late_recv() {
        Msg m;
        m.type = kPrepare;
        m.op = kLateRecv;
        m.count = kRecvs + 1;
        m.imm = imm_;
        m.seed = step_seed(o_.seed, kRecvs, imm_ + 0x700000u);
        Msg r;
        if (auto err = exchange(m, &r))
            return err;
        ImmChain c = imm_chain(m.count, kLateSlot, m.seed, eight_bytes);
        std::vector<ibv_send_wr>& wrs = c.wrs;
        wrs[kRecvs - 1].next = nullptr;  // the last goes alone
        imm_ += m.count;
        m.type = kPosted;
        if (auto err = send_msg(fd_, m))
            return err;
        uint64_t first = wr_id_;
        wr_id_ += m.count;
        Err err = post(&wrs[0]);
        if (!err)
            err = wait_sends(kRecvs, first);
        if (!err)
            err = post(&wrs[kRecvs]);
        if (!err)
            err = wait_sends(1, first + kRecvs);
        Err verdict = result();
        return err ? err : verdict;
    }

    // Last, as it leaves the QP in the error state: a WRITE whose local key
    // is not ours fails before anything goes out; the QP's fatal error
    // comes back as an asynchronous event on the MRC QP, and once it is
    // acknowledged mrc_destroy_qp() (which waits for that) can go on.
    Err async_event() {
        ibv_context* v = e_->dev.ctx.get();
        ibv_sge sge{reinterpret_cast<uintptr_t>(e_->buf.get()), 64, e_->mr->lkey ^ 0x5a5a00u};
        ibv_send_wr wr{};
        wr.wr_id = wr_id_;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.opcode = IBV_WR_RDMA_WRITE;
        wr.send_flags = IBV_SEND_SIGNALED;
        wr.wr.rdma.remote_addr = peer_.addr;
        wr.wr.rdma.rkey = peer_.rkey;
        if (auto err = post(&wr))
            return err;
        std::vector<ibv_wc> wcs;
        if (auto err = poll_n(e_->scq.get(), 1, o_.wait_ms, &wcs))
            return err;
        if (wcs[0].status == IBV_WC_SUCCESS || wcs[0].wr_id != wr_id_)
            return fail("completion of request %" PRIu64
                        " with status %s, not an error of %" PRIu64,
                        wcs[0].wr_id, ibv_wc_status_str(wcs[0].status), wr_id_);
        wr_id_++;
        std::printf("# bad lkey: %s\n", ibv_wc_status_str(wcs[0].status));
        pollfd pfd{v->async_fd, POLLIN, 0};
        int r = poll(&pfd, 1, o_.wait_ms);
        if (r <= 0)
            return fail("no asynchronous event within %d ms", o_.wait_ms);
        mrc_async_event ev{};
        if (mrc_get_async_event(e_->ctx.get(), &ev) != 0)
            return fail("mrc_get_async_event: %s", std::strerror(errno));
        mrc_qp* qp = ev.element.qp;
        enum ibv_event_type type = ev.event_type;
        mrc_ack_async_event(&ev);
        if (type != IBV_EVENT_QP_FATAL || qp != e_->qp.get())
            return fail("asynchronous event %s on %p, not IBV_EVENT_QP_FATAL on the QP %p",
                        ibv_event_type_str(type), static_cast<void*>(qp),
                        static_cast<void*>(e_->qp.get()));
        return std::nullopt;
    }

    // One refused post: want (EINVAL unless said) returned and in errno,
    // bad_wr at want_bad.
    Err refused(ibv_send_wr* wr, ibv_send_wr* want_bad, int want = EINVAL) {
        ibv_send_wr* bad = nullptr;
        errno = 0;
        int ret = mrc_post_send(e_->qp.get(), wr, &bad);
        int saved = errno;
        if (ret == 0)
            return fail("mrc_post_send accepted it");
        if (ret != want || saved != want)
            return fail("mrc_post_send returned %d, errno %d (%s), not %s", ret, saved,
                        std::strerror(saved), std::strerror(want));
        if (bad != want_bad)
            return fail("bad_wr %p, not the refused request %p", static_cast<void*>(bad),
                        static_cast<void*>(want_bad));
        return std::nullopt;
    }

    template <typename Note>
    void negatives(Note& note) {
        // The server fills its whole buffer with a pattern it checks after.
        Msg m;
        m.type = kSnapshot;
        m.op = kNothing;
        m.seed = step_seed(o_.seed, 0, 0xdead);
        Msg r;
        if (Err err = exchange(m, &r)) {
            note("refused requests: server ready", err);
            return;
        }
        // The client's buffer holds a pattern a READ or atomic would change.
        uint64_t local_seed = step_seed(o_.seed, 1, 0xbeef);
        uint8_t* local = e_->buf.get();
        size_t local_len = 4096;
        rc_check::fill_pattern(local, local_len, local_seed);

        ibv_sge sge{reinterpret_cast<uintptr_t>(local), 64, e_->mr->lkey};
        ibv_send_wr wr{};
        wr.wr_id = 0xbad0;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        wr.send_flags = IBV_SEND_SIGNALED;

        wr.opcode = IBV_WR_SEND;
        note("mrc_post_send: SEND refused with EINVAL, bad_wr names it", refused(&wr, &wr));

        wr.opcode = IBV_WR_RDMA_READ;
        wr.wr.rdma.remote_addr = peer_.addr;
        wr.wr.rdma.rkey = peer_.rkey;
        note("mrc_post_send: RDMA READ refused with EINVAL, bad_wr names it", refused(&wr, &wr));

        ibv_sge asge{reinterpret_cast<uintptr_t>(local + 64), 8, e_->mr->lkey};
        ibv_send_wr atomic{};
        atomic.wr_id = 0xbad1;
        atomic.sg_list = &asge;
        atomic.num_sge = 1;
        atomic.send_flags = IBV_SEND_SIGNALED;
        atomic.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
        atomic.wr.atomic.remote_addr = peer_.addr;
        atomic.wr.atomic.rkey = peer_.rkey;
        atomic.wr.atomic.compare_add = 1;
        note("mrc_post_send: ATOMIC_FETCH_AND_ADD refused with EINVAL, bad_wr names it",
             refused(&atomic, &atomic));

        // A valid WRITE ahead of a refused request: the chain is checked
        // first, so the WRITE must not go out either.
        ibv_sge wsge{reinterpret_cast<uintptr_t>(local + 128), 256, e_->mr->lkey};
        ibv_send_wr write{};
        write.wr_id = 0xbad2;
        write.sg_list = &wsge;
        write.num_sge = 1;
        write.send_flags = IBV_SEND_SIGNALED;
        write.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
        write.imm_data = htonl(0xbadbad);
        write.wr.rdma.remote_addr = peer_.addr;
        write.wr.rdma.rkey = peer_.rkey;
        write.next = &wr;
        wr.opcode = IBV_WR_SEND;
        note("mrc_post_send: WRITE_WITH_IMM then SEND in one chain refused, bad_wr the SEND",
             refused(&write, &wr));
        write.next = &atomic;
        note("mrc_post_send: WRITE_WITH_IMM then atomic in one chain refused, bad_wr the atomic",
             refused(&write, &atomic));

        // Anything posted would have completed by now (a WRITE of 256 B
        // takes well under a millisecond even under emulation).
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        Err err = expect_empty(e_->scq.get(), "send CQ after refused requests");
        if (!err) {
            size_t bad = rc_check::pattern_mismatch(local, local_len, local_seed);
            if (bad != local_len)
                err = fail("the client's buffer changed at byte %zu (a READ or atomic ran)", bad);
        }
        if (!err)
            err = verdict(m);
        note(
            "refused requests posted nothing: no completion, no receive consumed, "
            "memory on both sides untouched",
            err);
    }

    const Options& o_;
    End* e_;
    int fd_;
    mrc_stream::PeerInfo peer_;
    int n_ = 0;
    uint32_t imm_ = 1;
    uint64_t wr_id_ = 1;
};

// ---- main ----

void usage() {
    std::fprintf(stderr,
                 "usage: mrc-api-check server --dev DEV --gid N [--port P]\n"
                 "       mrc-api-check client --dev DEV --gid N --host HOST [--port P]\n"
                 "                            [--max-size BYTES] [--seed S] [--wait-ms MS]\n"
                 "                            [--ev-profile ID] [--cc-profile ID] [--mpr N]\n"
                 "                            [--writes-only 1]\n");
}

bool parse(int argc, char** argv, Options* o) {
    if (argc < 2)
        return false;
    std::string mode = argv[1];
    if (mode != "server" && mode != "client")
        return false;
    o->server = mode == "server";
    for (int i = 2; i < argc; i++) {
        std::string a = argv[i];
        if (i + 1 >= argc)
            return false;
        const char* v = argv[++i];
        if (a == "--dev")
            o->dev = v;
        else if (a == "--gid")
            o->gid = std::atoi(v);
        else if (a == "--host")
            o->host = v;
        else if (a == "--port")
            o->port = static_cast<uint16_t>(std::atoi(v));
        else if (a == "--max-size")
            o->max_size = std::strtoull(v, nullptr, 0);
        else if (a == "--seed")
            o->seed = std::strtoull(v, nullptr, 0);
        else if (a == "--wait-ms")
            o->wait_ms = std::atoi(v);
        else if (a == "--ev-profile")
            o->ev_profile = std::strtoull(v, nullptr, 0);
        else if (a == "--cc-profile")
            o->cc_profile = std::strtoull(v, nullptr, 0);
        else if (a == "--mpr")
            o->mpr = static_cast<uint8_t>(std::atoi(v));
        else if (a == "--writes-only")
            o->writes_only = std::atoi(v) != 0;
        else
            return false;
    }
    if (o->dev.empty() || (!o->server && o->host.empty()))
        return false;
    return o->max_size >= 1 && o->max_size <= (1ull << 31);
}

Err run(const Options& o) {
    mrc_stream::Fd fd;
    if (o.server) {
        if (auto err = mrc_stream::accept_one(o.port, 60000, &fd))
            return err;
    } else {
        if (auto err = mrc_stream::connect_to(o.host, o.port, 60000, &fd))
            return err;
    }
    // Both ends size their buffer for the largest step; the server's
    // target sits behind kGuard bytes and an odd offset.
    size_t len = std::max<size_t>(o.max_size + kGuard + kMaxOffset + kGuard, kChain * kChainSlot);
    End e;
    if (auto err = open_end(o, len, &e))
        return err;

    mrc_stream::PeerInfo ours, theirs;
    ours.qpn = e.qpn;
    ours.psn = e.psn;
    std::memcpy(ours.gid, e.dev.gid.raw, sizeof(ours.gid));
    ours.addr = reinterpret_cast<uintptr_t>(e.buf.get());
    ours.rkey = e.mr->rkey;
    ours.len = static_cast<uint32_t>(len);
    ours.mtu = e.dev.port.active_mtu;
    if (auto err = mrc_stream::exchange(fd, ours, 60000, &theirs))
        return err;
    if (auto err = connect_qp(&e, theirs))
        return err;
    if (o.server) {
        if (auto err = check_query(o, &e))
            return err;
        std::printf("# verbs-style attributes accepted and overridden, MRC ones kept\n");
    }
    std::printf("# connected: qpn %u to %u\n", e.qpn, theirs.qpn);
    std::fflush(stdout);

    if (o.server) {
        if (auto err = Server(o, &e, fd.get()).run())
            return err;
        std::printf("# CQ events taken: %u\n", e.total_events);
        return rc_check::in("teardown", teardown(&e));
    }
    Err err = Client(o, &e, fd.get(), theirs).run();
    Msg bye;
    bye.type = kBye;
    send_msg(fd.get(), bye);
    return err;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, &o)) {
        usage();
        return 2;
    }
    if (Err err = run(o)) {
        std::printf("FAIL: %s\n", err->c_str());
        return 1;
    }
    std::printf("ok\n");
    return 0;
}
