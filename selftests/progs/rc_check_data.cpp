// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenarios whose operations must succeed: WRITE, WRITE_IMM,
// SEND (plain, with IMM, inline, gathered), READ, atomics, ordering, and a
// long run of SENDs that wraps every ring.

#include "rc_check_scenarios.h"

#include <endian.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace rc_check {

namespace {

constexpr int kLocal = IBV_ACCESS_LOCAL_WRITE;
constexpr size_t KiB = 1024;
constexpr size_t MiB = 1024 * KiB;

// Starts the send PSNs just below 2^24 so that long scenarios wrap them.
constexpr uint32_t kPsnNearWrap = 0xffffff - 1500;

std::vector<ibv_sge> sges_of(const Region* r, size_t off, size_t n) {
    if (!n)
        return {};
    return {r->sge(off, n)};
}

}  // namespace

Err scenario_write(Env& env, Rng& rng) {
    // Packet boundaries at path MTU 1024 and at the 1408-byte segment
    // of a 1500-byte IPv4 link (wire-format.rst, "Payload length").
    const size_t sizes[] = {0,    1,    1023,     1024,     1025, 1407,
                            1408, 1409, 3 * 1408, 64 * KiB, MiB,  8 * MiB};
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.psn = kPsnNearWrap;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(8 * MiB + 64, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(8 * MiB + 8 * KiB, kDefaultAccess, &dst))
        return err;

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const size_t n = sizes[i];
        const size_t soff = 5 + i;
        const size_t doff = 4 * KiB + 17 * i;  // unaligned, guard bytes on both sides
        const std::string what = label("WRITE of %zu bytes", n);
        src->reset(rng.next());
        dst->reset(rng.next());
        if (auto err = in(what, post_rdma(p.a, IBV_WR_RDMA_WRITE, i, sges_of(src, soff, n),
                                          dst->addr(doff), dst->rkey())))
            return err;
        if (auto err = in(
                what, expect_wc(p.a, Queue::kSend, wait, {i, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE})))
            return err;
        dst->expect(doff, src->data() + soff, n);
        if (auto err = in(what, dst->verify("B memory")))
            return err;
        if (auto err = in(what, src->verify("A source")))
            return err;
    }
    return expect_quiet(p);
}

Err scenario_write_imm(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    const size_t n = 4 * KiB;
    const size_t doff = 4 * KiB + 3;
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(n + 64, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(n + 8 * KiB, kDefaultAccess, &dst))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());
    const uint32_t imm = static_cast<uint32_t>(rng.next());

    // WRITE_WITH_IMM consumes a receive WR; it needs no scatter list.
    if (auto err = post_recv(p.b, 7, {}))
        return err;
    if (auto err = post_rdma(p.a, IBV_WR_RDMA_WRITE_WITH_IMM, 1, {src->sge(9, n)}, dst->addr(doff),
                             dst->rkey(), IBV_SEND_SIGNALED, imm))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {1, IBV_WC_SUCCESS, IBV_WC_RDMA_WRITE}))
        return err;
    ibv_wc wc{};
    if (auto err =
            expect_wc(p.b, Queue::kRecv, wait, {7, IBV_WC_SUCCESS, IBV_WC_RECV_RDMA_WITH_IMM}, &wc))
        return err;
    if (!(wc.wc_flags & IBV_WC_WITH_IMM))
        return fail("B recv: wc_flags 0x%x lacks IBV_WC_WITH_IMM", wc.wc_flags);
    if (wc.imm_data != htobe32(imm))
        return fail("B recv: imm_data 0x%08x, want 0x%08x", be32toh(wc.imm_data), imm);
    if (wc.byte_len != n)
        return fail("B recv: byte_len %u, want %zu", wc.byte_len, n);
    dst->expect(doff, src->data() + 9, n);
    if (auto err = dst->verify("B memory"))
        return err;
    return expect_quiet(p);
}

namespace {

enum class SendKind { kPlain, kImm, kInline };

// B's receive buffer for `send`: three SGEs in three MRs, each with guards.
struct Scatter {
    static constexpr size_t kGuard = 128;
    static constexpr size_t kLen[3] = {3000, 70001, MiB - 1000};
    Region* r[3] = {};
};

Err send_one(Env& env, Rng& rng, Pair& p, Region* src, Scatter& sc, size_t n, SendKind kind,
             uint64_t wr_id) {
    const int wait = env.opt.wait_ms;
    const size_t soff = 3;
    src->reset(rng.next());
    std::vector<ibv_sge> rsge;
    for (int k = 0; k < 3; k++) {
        sc.r[k]->reset(rng.next());
        rsge.push_back(sc.r[k]->sge(Scatter::kGuard, Scatter::kLen[k]));
    }
    if (auto err = post_recv(p.b, wr_id, rsge))
        return err;

    const uint32_t imm = static_cast<uint32_t>(rng.next());
    std::vector<uint8_t> sent(src->data() + soff, src->data() + soff + n);
    if (kind == SendKind::kInline) {
        // Inline data is copied at post time: no lkey, and the buffer may be
        // reused as soon as ibv_post_send returns.
        std::vector<uint8_t> tmp(sent);
        ibv_sge sge{reinterpret_cast<uintptr_t>(tmp.data()), static_cast<uint32_t>(n), 0};
        if (auto err = post_msg(p.a, wr_id, {sge}, IBV_SEND_SIGNALED | IBV_SEND_INLINE))
            return err;
        std::fill(tmp.begin(), tmp.end(), 0xa5);
    } else {
        std::optional<uint32_t> with_imm;
        if (kind == SendKind::kImm)
            with_imm = imm;
        if (auto err = post_msg(p.a, wr_id, sges_of(src, soff, n), IBV_SEND_SIGNALED, with_imm))
            return err;
    }

    if (auto err = expect_wc(p.a, Queue::kSend, wait, {wr_id, IBV_WC_SUCCESS, IBV_WC_SEND}))
        return err;
    ibv_wc wc{};
    if (auto err = expect_wc(p.b, Queue::kRecv, wait, {wr_id, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
        return err;
    if (wc.byte_len != n)
        return fail("B recv: byte_len %u, want %zu", wc.byte_len, n);
    bool has_imm = wc.wc_flags & IBV_WC_WITH_IMM;
    if (has_imm != (kind == SendKind::kImm))
        return fail("B recv: wc_flags 0x%x, IBV_WC_WITH_IMM %s", wc.wc_flags,
                    has_imm ? "unexpected" : "missing");
    if (has_imm && wc.imm_data != htobe32(imm))
        return fail("B recv: imm_data 0x%08x, want 0x%08x", be32toh(wc.imm_data), imm);

    size_t off = 0;
    for (int k = 0; k < 3; k++) {
        size_t take = std::min(Scatter::kLen[k], n - off);
        sc.r[k]->expect(Scatter::kGuard, sent.data() + off, take);
        off += take;
        if (auto err = sc.r[k]->verify(label("B receive SGE %zu", k).c_str()))
            return err;
    }
    return src->verify("A source");
}

}  // namespace

Err scenario_send(Env& env, Rng& rng) {
    QpCaps caps;
    caps.inline_data = 64;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    Region* src = nullptr;
    if (auto err = p.a.add_region(MiB + 64, kLocal, &src))
        return err;
    Scatter sc;
    for (int k = 0; k < 3; k++)
        if (auto err = p.b.add_region(Scatter::kLen[k] + 2 * Scatter::kGuard, kLocal, &sc.r[k]))
            return err;

    const size_t sizes[] = {0, 1, 1408, 1409, 4 * KiB, 64 * KiB, MiB};
    uint64_t wr_id = 0;
    for (size_t n : sizes)
        if (auto err = in(label("SEND of %zu bytes", n),
                          send_one(env, rng, p, src, sc, n, SendKind::kPlain, wr_id++)))
            return err;
    if (auto err = in("SEND_WITH_IMM of 4096 bytes",
                      send_one(env, rng, p, src, sc, 4 * KiB, SendKind::kImm, wr_id++)))
        return err;
    if (auto err = in("inline SEND of 64 bytes",
                      send_one(env, rng, p, src, sc, 64, SendKind::kInline, wr_id++)))
        return err;
    return expect_quiet(p);
}

Err scenario_send_multi_sge(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    Region* m1 = nullptr;
    Region* m2 = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(16 * KiB, kLocal, &m1))
        return err;
    if (auto err = p.a.add_region(32 * KiB, kLocal, &m2))
        return err;
    struct Piece {
        Region* r;
        size_t off, len;
    };
    const Piece pieces[] = {{m1, 0, 1000}, {m2, 100, 3000}, {m1, 5000, 1}, {m2, 8192, 20000}};
    size_t total = 0;
    for (const Piece& pc : pieces)
        total += pc.len;
    const size_t doff = 256;
    if (auto err = p.b.add_region(total + 2 * doff, kLocal, &dst))
        return err;
    m1->reset(rng.next());
    m2->reset(rng.next());
    dst->reset(rng.next());

    if (auto err = post_recv(p.b, 1, {dst->sge(doff, total + 100)}))
        return err;
    std::vector<ibv_sge> sge;
    for (const Piece& pc : pieces)
        sge.push_back(pc.r->sge(pc.off, pc.len));
    if (auto err = post_msg(p.a, 2, sge))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {2, IBV_WC_SUCCESS, IBV_WC_SEND}))
        return err;
    ibv_wc wc{};
    if (auto err = expect_wc(p.b, Queue::kRecv, wait, {1, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
        return err;
    if (wc.byte_len != total)
        return fail("B recv: byte_len %u, want %zu", wc.byte_len, total);
    size_t at = doff;
    for (const Piece& pc : pieces) {
        dst->expect(at, pc.r->data() + pc.off, pc.len);
        at += pc.len;
    }
    if (auto err = dst->verify("B memory"))
        return err;
    return expect_quiet(p);
}

// A QP may use every SGE its create reported, whatever it asked for: the
// granted cap can exceed the request (the slot is rounded up), and a SEND
// using all of it must arrive whole. For 1..16 SGEs asked.
Err scenario_reported_max_sge(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    for (uint32_t asked = 1; asked <= 16; asked++) {
        QpCaps caps;
        caps.send_wr = 1;
        caps.send_sge = asked;
        Pair p;
        if (auto err = make_pair(env, rng, caps, &p))
            return err;
        const uint32_t n = p.a.cap.max_send_sge;
        if (n < asked)
            return fail("asked %u SGEs, granted %u", asked, n);
        const size_t piece = 97;
        const size_t total = piece * n;
        const size_t doff = 64;
        Region* src = nullptr;
        Region* dst = nullptr;
        if (auto err = p.a.add_region(2 * total, kLocal, &src))
            return err;
        if (auto err = p.b.add_region(total + 2 * doff, kLocal, &dst))
            return err;
        src->reset(rng.next());
        dst->reset(rng.next());
        if (auto err = post_recv(p.b, 1, {dst->sge(doff, total)}))
            return err;
        // Every other piece of src, so the SGEs cannot be merged.
        std::vector<ibv_sge> sge;
        for (uint32_t i = 0; i < n; i++)
            sge.push_back(src->sge(2 * i * piece, piece));
        if (auto err = in("asked " + std::to_string(asked) + ", posting " + std::to_string(n),
                          post_msg(p.a, 2, sge)))
            return err;
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {2, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return err;
        ibv_wc wc{};
        if (auto err = expect_wc(p.b, Queue::kRecv, wait, {1, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
            return err;
        if (wc.byte_len != total)
            return fail("B recv: byte_len %u, want %zu", wc.byte_len, total);
        for (uint32_t i = 0; i < n; i++)
            dst->expect(doff + i * piece, src->data() + 2 * i * piece, piece);
        if (auto err = dst->verify("B memory"))
            return err;
        if (auto err = expect_quiet(p))
            return err;
    }
    return std::nullopt;
}

Err scenario_read(Env& env, Rng& rng) {
    const size_t sizes[] = {1, 4 * KiB, 64 * KiB, MiB};
    const int wait = env.opt.wait_ms;
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.b.add_region(MiB + 8 * KiB, kDefaultAccess, &src))
        return err;
    if (auto err = p.a.add_region(MiB + 8 * KiB, kLocal, &dst))
        return err;
    src->reset(rng.next());

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const size_t n = sizes[i];
        const size_t soff = 4 * KiB + 7 * i;
        const size_t doff = 4 * KiB - 3 + 11 * i;
        const std::string what = label("READ of %zu bytes", n);
        dst->reset(rng.next());
        if (auto err = in(what, post_rdma(p.a, IBV_WR_RDMA_READ, i, {dst->sge(doff, n)},
                                          src->addr(soff), src->rkey())))
            return err;
        if (auto err =
                in(what, expect_wc(p.a, Queue::kSend, wait, {i, IBV_WC_SUCCESS, IBV_WC_RDMA_READ})))
            return err;
        dst->expect(doff, src->data() + soff, n);
        if (auto err = in(what, dst->verify("A memory")))
            return err;
        if (auto err = in(what, src->verify("B source")))
            return err;
    }
    return expect_quiet(p);
}

// READs of more packets than the requester's 1024-PSN window, so their
// response PSNs wrap the per-PSN state more than once: every byte must
// land, under loss too (the rc_read_lossy VM test runs this over netem).
Err scenario_read_large(Env& env, Rng& rng) {
    const size_t sizes[] = {4 * MiB + 1000, 8 * MiB, 5 * MiB - 17};
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.psn = kPsnNearWrap;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.b.add_region(8 * MiB + 8 * KiB, kDefaultAccess, &src))
        return err;
    if (auto err = p.a.add_region(8 * MiB + 8 * KiB, kLocal, &dst))
        return err;
    src->reset(rng.next());

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        const size_t n = sizes[i];
        const size_t soff = 3 + 5 * i;
        const size_t doff = 4 * KiB - 7 + 13 * i;
        const std::string what = label("READ of %zu bytes", n);
        dst->reset(rng.next());
        if (auto err = in(what, post_rdma(p.a, IBV_WR_RDMA_READ, i, {dst->sge(doff, n)},
                                          src->addr(soff), src->rkey())))
            return err;
        if (auto err =
                in(what, expect_wc(p.a, Queue::kSend, wait, {i, IBV_WC_SUCCESS, IBV_WC_RDMA_READ})))
            return err;
        dst->expect(doff, src->data() + soff, n);
        if (auto err = in(what, dst->verify("A memory")))
            return err;
        if (auto err = in(what, src->verify("B source")))
            return err;
    }
    return expect_quiet(p);
}

namespace {

struct AtomicStep {
    const char* what;
    ibv_wr_opcode op;
    uint64_t compare_add;
    uint64_t swap;
    uint64_t want_orig;   // value returned to A
    uint64_t want_final;  // value left in B
};

Err atomic_step(Env& env, Pair& p, Region* res, Region* word, size_t woff, uint64_t wr_id,
                const AtomicStep& s) {
    const int wc_op = s.op == IBV_WR_ATOMIC_FETCH_AND_ADD ? IBV_WC_FETCH_ADD : IBV_WC_COMP_SWAP;
    if (auto err = post_atomic(p.a, s.op, wr_id, res->sge(8, 8), word->addr(woff), word->rkey(),
                               s.compare_add, s.swap))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, env.opt.wait_ms, {wr_id, IBV_WC_SUCCESS, wc_op}))
        return err;
    uint64_t got = 0;
    std::memcpy(&got, res->data() + 8, 8);
    if (got != s.want_orig)
        return fail("returned 0x%016llx, want original 0x%016llx",
                    static_cast<unsigned long long>(got),
                    static_cast<unsigned long long>(s.want_orig));
    res->expect(8, reinterpret_cast<const uint8_t*>(&s.want_orig), 8);
    word->expect(woff, reinterpret_cast<const uint8_t*>(&s.want_final), 8);
    if (auto err = word->verify("B memory"))
        return err;
    return res->verify("A result buffer");
}

}  // namespace

Err scenario_atomic(Env& env, Rng& rng) {
    if (env.a.attr.atomic_cap == IBV_ATOMIC_NONE || env.b.attr.atomic_cap == IBV_ATOMIC_NONE)
        return fail("a device reports atomic_cap IBV_ATOMIC_NONE");
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    Region* word = nullptr;
    Region* res = nullptr;
    if (auto err = p.b.add_region(4 * KiB, kDefaultAccess, &word))
        return err;
    if (auto err = p.a.add_region(64, kLocal, &res))
        return err;
    word->reset(rng.next());
    res->reset(rng.next());

    // The target word is in host byte order, as for rdma_rxe.
    const size_t woff = 1024 + 8 * (rng.next() % 64);
    const uint64_t v0 = rng.next();
    const uint64_t add = rng.next();
    const uint64_t swap1 = rng.next();
    const uint64_t swap2 = rng.next();
    word->store(woff, &v0, 8);
    const AtomicStep steps[] = {
        {"FETCH_ADD", IBV_WR_ATOMIC_FETCH_AND_ADD, add, 0, v0, v0 + add},
        {"CMP_SWP (match)", IBV_WR_ATOMIC_CMP_AND_SWP, v0 + add, swap1, v0 + add, swap1},
        {"CMP_SWP (no match)", IBV_WR_ATOMIC_CMP_AND_SWP, swap1 ^ 1, swap2, swap1, swap1},
    };
    uint64_t wr_id = 1;
    for (const AtomicStep& s : steps)
        if (auto err = in(s.what, atomic_step(env, p, res, word, woff, wr_id++, s)))
            return err;
    return expect_quiet(p);
}

Err scenario_order(Env& env, Rng& rng) {
    constexpr int kWrites = 64;
    constexpr size_t kChunk = 16 * KiB;
    const int wait = env.opt.wait_ms;
    Pair p;
    if (auto err = make_pair(env, rng, QpCaps{}, &p))
        return err;
    Region* src = nullptr;
    Region* amsg = nullptr;
    Region* dst = nullptr;
    Region* bmsg = nullptr;
    if (auto err = p.a.add_region(kWrites * kChunk, kLocal, &src))
        return err;
    if (auto err = p.a.add_region(64, kLocal, &amsg))
        return err;
    if (auto err = p.b.add_region(kWrites * kChunk + 8 * KiB, kDefaultAccess, &dst))
        return err;
    if (auto err = p.b.add_region(128, kLocal, &bmsg))
        return err;
    src->reset(rng.next());
    amsg->reset(rng.next());
    dst->reset(rng.next());
    bmsg->reset(rng.next());

    if (auto err = post_recv(p.b, 100, {bmsg->sge(0, 64)}))
        return err;
    // One chain: 64 unsignaled WRITEs, then a signaled SEND.
    std::vector<ibv_sge> sge(kWrites + 1);
    std::vector<ibv_send_wr> wr(kWrites + 1);
    for (int i = 0; i <= kWrites; i++) {
        wr[i].wr_id = static_cast<uint64_t>(i);
        wr[i].sg_list = &sge[i];
        wr[i].num_sge = 1;
        wr[i].next = i < kWrites ? &wr[i + 1] : nullptr;
        if (i < kWrites) {
            sge[i] = src->sge(i * kChunk, kChunk);
            wr[i].opcode = IBV_WR_RDMA_WRITE;
            wr[i].wr.rdma.remote_addr = dst->addr(4 * KiB + i * kChunk);
            wr[i].wr.rdma.rkey = dst->rkey();
        } else {
            sge[i] = amsg->sge(0, 8);
            wr[i].opcode = IBV_WR_SEND;
            wr[i].send_flags = IBV_SEND_SIGNALED;
        }
    }
    if (auto err = post_send_wr(p.a, wr.data()))
        return err;

    ibv_wc wc{};
    if (auto err = note_send_cq(
            p.a, expect_wc(p.b, Queue::kRecv, wait, {100, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc)))
        return err;
    // Checked before A's completion is even polled: the SEND completing at B
    // means every earlier WRITE is already in B's memory.
    dst->expect(4 * KiB, src->data(), kWrites * kChunk);
    if (auto err = in("when B saw the SEND", dst->verify("B memory")))
        return err;
    if (wc.byte_len != 8)
        return fail("B recv: byte_len %u, want 8", wc.byte_len);
    bmsg->expect(0, amsg->data(), 8);
    if (auto err = bmsg->verify("B message"))
        return err;
    if (auto err = expect_wc(p.a, Queue::kSend, wait, {kWrites, IBV_WC_SUCCESS, IBV_WC_SEND}))
        return err;
    return expect_quiet(p);
}

Err scenario_many(Env& env, Rng& rng) {
    constexpr uint64_t kMsgs = 2000;
    constexpr uint64_t kRecvs = 128;    // receives kept posted at B
    constexpr uint64_t kSlots = 256;    // A's send buffers, reused round robin
    constexpr uint64_t kMaxInSq = 192;  // WRs on A's SQ not known complete
    constexpr uint64_t kSignalEvery = 16;
    constexpr size_t kLen = 4 * KiB;
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.psn = kPsnNearWrap;
    Pair p;
    if (auto err = make_pair(env, rng, caps, &p))
        return err;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(kSlots * kLen, kLocal, &src))
        return err;
    if (auto err = p.b.add_region(kRecvs * kLen, kLocal, &dst))
        return err;
    const uint64_t base = rng.next();
    for (uint64_t s = 0; s < kRecvs; s++)
        if (auto err = post_recv(p.b, s, {dst->sge(s * kLen, kLen)}))
            return err;

    uint64_t posted = 0, sdone = 0, received = 0;
    auto where = [&]() {
        char buf[96];
        std::snprintf(buf, sizeof(buf), "posted %llu, send-completed %llu, received %llu",
                      static_cast<unsigned long long>(posted),
                      static_cast<unsigned long long>(sdone),
                      static_cast<unsigned long long>(received));
        return std::string(buf);
    };
    auto last_progress = std::chrono::steady_clock::now();
    while (received < kMsgs || sdone < kMsgs) {
        bool progress = false;
        while (posted < kMsgs && posted - received < kRecvs && posted - sdone < kMaxInSq) {
            const uint64_t slot = posted % kSlots;
            fill_pattern(src->data() + slot * kLen, kLen, mix(base, posted));
            const bool signaled = posted % kSignalEvery == kSignalEvery - 1 || posted == kMsgs - 1;
            if (auto err = in(where(), post_msg(p.a, posted, {src->sge(slot * kLen, kLen)},
                                                signaled ? IBV_SEND_SIGNALED : 0)))
                return err;
            posted++;
            progress = true;
        }
        ibv_wc wcs[32];
        int n = ibv_poll_cq(p.a.scq.get(), 32, wcs);
        for (int i = 0; i < n; i++) {
            const uint64_t want = std::min(sdone + kSignalEvery - 1, kMsgs - 1);
            const ibv_wc& wc = wcs[i];
            if (wc.status != IBV_WC_SUCCESS || wc.wr_id != want || wc.opcode != IBV_WC_SEND)
                return fail("%s: A send CQ: wr_id %llu status %s opcode %s, want wr_id %llu",
                            where().c_str(), static_cast<unsigned long long>(wc.wr_id),
                            ibv_wc_status_str(wc.status), opcode_str(wc.opcode),
                            static_cast<unsigned long long>(want));
            sdone = want + 1;
            progress = true;
        }
        n = ibv_poll_cq(p.b.rcq.get(), 32, wcs);
        for (int i = 0; i < n; i++) {
            const ibv_wc& wc = wcs[i];
            const uint64_t slot = received % kRecvs;
            if (wc.status != IBV_WC_SUCCESS || wc.wr_id != slot || wc.opcode != IBV_WC_RECV ||
                wc.byte_len != kLen)
                return fail(
                    "%s: B recv CQ: wr_id %llu status %s opcode %s byte_len %u, "
                    "want wr_id %llu RECV of %zu",
                    where().c_str(), static_cast<unsigned long long>(wc.wr_id),
                    ibv_wc_status_str(wc.status), opcode_str(wc.opcode), wc.byte_len,
                    static_cast<unsigned long long>(slot), kLen);
            const uint8_t* got = dst->data() + slot * kLen;
            size_t bad = pattern_mismatch(got, kLen, mix(base, received));
            if (bad != kLen)
                return fail("%s: message %llu differs at byte %zu", where().c_str(),
                            static_cast<unsigned long long>(received), bad);
            if (auto err = in(where(), post_recv(p.b, slot, {dst->sge(slot * kLen, kLen)})))
                return err;
            received++;
            progress = true;
        }
        auto now = std::chrono::steady_clock::now();
        if (progress)
            last_progress = now;
        else if (now - last_progress > std::chrono::milliseconds(wait))
            return fail("%s: no progress for %d ms", where().c_str(), wait);
        else if (n == 0)
            sched_yield();
    }
    // B still holds kRecvs posted receives; they stay unconsumed.
    return expect_quiet(p);
}

}  // namespace rc_check
