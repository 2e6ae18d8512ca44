// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// The harness behind mrc-rc-check: RAII owners of libibverbs objects, an
// Endpoint (PD, CQs, QP and memory regions on one device), a connected Pair
// of endpoints on two devices, completion polling with a deadline, and
// seeded byte patterns with shadow copies to verify memory byte for byte.

#ifndef MRC_SELFTESTS_RC_CHECK_HARNESS_H
#define MRC_SELFTESTS_RC_CHECK_HARNESS_H

#include <infiniband/verbs.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rc_check {

// A failure reason; std::nullopt means success. Used as
// `if (auto err = step()) return err;`.
using Err = std::optional<std::string>;

Err fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Prefixes a failure with what was being done.
inline Err in(const std::string& what, Err err) {
    if (err)
        return what + ": " + *err;
    return err;
}

struct ContextDeleter {
    void operator()(ibv_context* ctx) const { ibv_close_device(ctx); }
};
struct PdDeleter {
    void operator()(ibv_pd* pd) const { ibv_dealloc_pd(pd); }
};
struct CqDeleter {
    void operator()(ibv_cq* cq) const { ibv_destroy_cq(cq); }
};
struct SrqDeleter {
    void operator()(ibv_srq* srq) const { ibv_destroy_srq(srq); }
};
struct QpDeleter {
    void operator()(ibv_qp* qp) const { ibv_destroy_qp(qp); }
};
struct MrDeleter {
    void operator()(ibv_mr* mr) const { ibv_dereg_mr(mr); }
};
struct FreeDeleter {
    void operator()(uint8_t* p) const { std::free(p); }
};

using Context = std::unique_ptr<ibv_context, ContextDeleter>;
using Pd = std::unique_ptr<ibv_pd, PdDeleter>;
using Cq = std::unique_ptr<ibv_cq, CqDeleter>;
using Srq = std::unique_ptr<ibv_srq, SrqDeleter>;
using Qp = std::unique_ptr<ibv_qp, QpDeleter>;
using Mr = std::unique_ptr<ibv_mr, MrDeleter>;
using Buf = std::unique_ptr<uint8_t, FreeDeleter>;

constexpr uint8_t kPort = 1;
constexpr int kDefaultAccess = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                               IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;

struct Options {
    std::string dev_a;
    std::string dev_b;
    int gid_a = 1;
    int gid_b = 1;
    uint8_t timeout = 14;
    uint8_t retry_cnt = 7;
    int wait_ms = 20000;  // deadline for each expected completion
    int go_ms = 300000;   // retry-exceeded: how long to wait for the go signal
    uint64_t seed = 0;
    std::string wait_file;  // retry-exceeded: go when this file exists
    bool verbose = false;
};

// splitmix64: small, seedable, good enough for payloads and PSNs.
struct Rng {
    uint64_t state;
    explicit Rng(uint64_t seed) : state(seed) {}
    uint64_t next();
};

uint64_t mix(uint64_t a, uint64_t b);
void fill_pattern(uint8_t* p, size_t n, uint64_t seed);
// Offset of the first byte that differs from the pattern, or n.
size_t pattern_mismatch(const uint8_t* p, size_t n, uint64_t seed);
Err compare(const char* what, const uint8_t* got, const uint8_t* want, size_t n);

struct Device {
    std::string name;
    Context ctx;
    int gid_index = 0;
    ibv_gid gid{};
    ibv_device_attr attr{};
    ibv_port_attr port{};
};

Err open_device(const std::string& name, int gid_index, Device* out);
std::string gid_str(const ibv_gid& gid);
// fmt with one %zu filled in: a step's name ("WRITE of %zu bytes").
std::string label(const char* fmt, size_t n);

// A buffer of len + slack bytes of which the first len are registered.
// `want` shadows the expected content of the whole buffer.
struct Region {
    Buf buf;
    size_t len = 0;
    size_t alloc = 0;
    std::vector<uint8_t> want;
    Mr mr;  // declared after buf: deregistered before the buffer is freed

    uint8_t* data() const { return buf.get(); }
    uint64_t addr(size_t off = 0) const { return reinterpret_cast<uintptr_t>(buf.get()) + off; }
    uint32_t lkey() const { return mr->lkey; }
    uint32_t rkey() const { return mr->rkey; }
    ibv_sge sge(size_t off, size_t n) const;

    // Fills the buffer and its shadow with a fresh pattern.
    void reset(uint64_t seed);
    // Records that [off, off + n) should now hold src.
    void expect(size_t off, const uint8_t* src, size_t n);
    // Writes directly to the buffer and the shadow.
    void store(size_t off, const void* src, size_t n);
    Err verify(const char* what) const;
};

struct QpCaps {
    ibv_qp_type type = IBV_QPT_RC;  // or IBV_QPT_UC; IBV_QPT_UD: make_ud_pair
    uint32_t qkey = 0;              // UD: the QPs' Q_Key
    uint32_t send_wr = 256;
    uint32_t recv_wr = 256;
    uint32_t send_sge = 4;
    uint32_t recv_sge = 4;
    uint32_t inline_data = 0;
    // Non-zero: each QP receives from an SRQ of this depth (recv_sge SGEs).
    uint32_t srq_wr = 0;
    int access = kDefaultAccess;  // qp_access_flags
    // Depths asked of ibv_create_cq; 0: the queue's depth + 16.
    int scq_depth = 0;
    int rcq_depth = 0;
    // Initial PSN of both send queues; random when unset.
    std::optional<uint32_t> psn;
    // Local ACK timeout of both QPs; Options::timeout when unset.
    std::optional<uint8_t> timeout;
    // IB RNR timer code each responder sends (0..31) and the RNR retries
    // each requester makes (7: without limit).
    uint8_t min_rnr_timer = 12;
    uint8_t rnr_retry = 7;
};

struct Endpoint {
    const char* tag = "";
    Device* dev = nullptr;
    Pd pd;
    Cq scq;
    Cq rcq;
    std::vector<std::unique_ptr<Region>> regions;
    Srq srq;  // QpCaps::srq_wr
    Qp qp;    // declared last: destroyed first
    ibv_qp_cap cap{};
    uint32_t sq_psn = 0;

    Err add_region(size_t len, int access, Region** out, size_t slack = 0);
};

struct Env {
    Options opt;
    Device a;
    Device b;
};

struct Pair {
    Endpoint a;
    Endpoint b;
};

// Fresh PD, CQs and QP on both devices, connected A <-> B up to RTS; B's
// queues as caps_b asks when given (the connection's settings are caps').
Err make_pair(Env& env, Rng& rng, const QpCaps& caps, Pair* out, const QpCaps* caps_b = nullptr);
// Fresh PD, CQs and UD QP (caps.type is ignored) on both devices, each in
// RTS with caps.qkey: they address each other through AHs.
Err make_ud_pair(Env& env, Rng& rng, QpCaps caps, Pair* out);

// Posting. Flags default to IBV_SEND_SIGNALED.
Err post_send_wr(Endpoint& ep, ibv_send_wr* wr);
Err post_rdma(Endpoint& ep, ibv_wr_opcode op, uint64_t wr_id, std::vector<ibv_sge> sge,
              uint64_t raddr, uint32_t rkey, unsigned flags = IBV_SEND_SIGNALED, uint32_t imm = 0);
Err post_msg(Endpoint& ep, uint64_t wr_id, std::vector<ibv_sge> sge,
             unsigned flags = IBV_SEND_SIGNALED, std::optional<uint32_t> imm = std::nullopt);
Err post_atomic(Endpoint& ep, ibv_wr_opcode op, uint64_t wr_id, ibv_sge sge, uint64_t raddr,
                uint32_t rkey, uint64_t compare_add, uint64_t swap);
Err post_recv(Endpoint& ep, uint64_t wr_id, std::vector<ibv_sge> sge);

// Completions.
enum class Queue { kSend, kRecv };

struct Want {
    uint64_t wr_id = 0;
    ibv_wc_status status = IBV_WC_SUCCESS;
    int opcode = -1;  // an ibv_wc_opcode, checked on success only; -1: any
};

const char* opcode_str(int opcode);
// Polls for one completion for up to wait_ms.
Err poll_wc(Endpoint& ep, Queue q, int wait_ms, ibv_wc* wc);
// Polls for one completion and checks it against want (and the QP number).
Err expect_wc(Endpoint& ep, Queue q, int wait_ms, const Want& want, ibv_wc* out = nullptr);
// On failure, appends what the send CQ of ep holds (an error completion of an
// unsignaled WR often explains why a peer saw nothing).
Err note_send_cq(Endpoint& ep, Err err);
// Fails if any CQ of the pair holds a completion nobody asked for.
Err expect_quiet(Pair& p);

// retry-exceeded: blocks until a line on stdin or opt.wait_file exists.
Err wait_go(const Options& opt);

}  // namespace rc_check

#endif  // MRC_SELFTESTS_RC_CHECK_HARNESS_H
