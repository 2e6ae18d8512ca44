// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-rc-check scenarios of UD QPs, checked byte for byte: datagrams of
// every size up to the port MTU land behind the 40-byte GRH area, which
// holds the sender's IP header, with the sender's QPN in the completion;
// inline sends and immediate data; and the datagrams a receiver must
// drop without using up its receive (a wrong Q_Key, one longer than the
// buffer); an AH to an unreachable GID refused; and the same receive
// rules for a UD QP on a shared receive queue.

#include "rc_check_scenarios.h"

#include <arpa/inet.h>
#include <netinet/ip.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace rc_check {

namespace {

constexpr size_t kGrh = 40;
constexpr uint32_t kQkey = 0x1234;

struct AhDeleter {
    void operator()(ibv_ah* ah) const { ibv_destroy_ah(ah); }
};
using Ah = std::unique_ptr<ibv_ah, AhDeleter>;

// An AH on `from` to a GID, as ibv_ud_pingpong makes one.
Err make_ah(Endpoint& from, const ibv_gid& dgid, Ah* out) {
    ibv_ah_attr attr{};
    attr.is_global = 1;
    attr.grh.dgid = dgid;
    attr.grh.sgid_index = static_cast<uint8_t>(from.dev->gid_index);
    attr.grh.hop_limit = 64;
    attr.port_num = kPort;
    out->reset(ibv_create_ah(from.pd.get(), &attr));
    if (!*out)
        return fail("%s: ibv_create_ah to %s: %s", from.tag, gid_str(dgid).c_str(),
                    std::strerror(errno));
    return std::nullopt;
}

Err post_ud(Endpoint& ep, uint64_t wr_id, ibv_ah* ah, uint32_t qpn, uint32_t qkey,
            std::vector<ibv_sge> sge, unsigned flags = IBV_SEND_SIGNALED,
            std::optional<uint32_t> imm = std::nullopt) {
    ibv_send_wr wr{};
    wr.wr_id = wr_id;
    wr.sg_list = sge.empty() ? nullptr : sge.data();
    wr.num_sge = static_cast<int>(sge.size());
    wr.opcode = imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND;
    wr.imm_data = htonl(imm.value_or(0));
    wr.send_flags = flags;
    wr.wr.ud.ah = ah;
    wr.wr.ud.remote_qpn = qpn;
    wr.wr.ud.remote_qkey = qkey;
    return post_send_wr(ep, &wr);
}

// The IPv4 source address the GRH area of an IPv4 datagram names (RoCE v2
// puts the IPv4 header in its last 20 bytes), from a GID ::ffff:a.b.c.d.
bool grh_names(const uint8_t* grh, const ibv_gid& src) {
    iphdr ip;
    std::memcpy(&ip, grh + kGrh - sizeof(ip), sizeof(ip));
    return ip.version == 4 && std::memcmp(&ip.saddr, src.raw + 12, 4) == 0;
}

}  // namespace

Err scenario_ud_send(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.qkey = kQkey;
    caps.inline_data = 64;
    Pair p;
    if (auto err = make_ud_pair(env, rng, caps, &p))
        return err;
    const size_t mtu = size_t{128} << std::min(env.a.port.active_mtu, env.b.port.active_mtu);
    Ah ah;
    if (auto err = make_ah(p.a, p.b.dev->gid, &ah))
        return err;

    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(mtu + 64, IBV_ACCESS_LOCAL_WRITE, &src))
        return err;
    if (auto err = p.b.add_region(kGrh + mtu + 64, IBV_ACCESS_LOCAL_WRITE, &dst))
        return err;
    const uint32_t bqpn = p.b.qp->qp_num;

    const size_t sizes[] = {0, 1, 63, 64, 1000, mtu};
    uint64_t id = 1;
    for (size_t n : sizes) {
        const bool inl = n > 0 && n <= caps.inline_data && n % 2;
        char what[64];
        std::snprintf(what, sizeof(what), "UD SEND of %zu bytes%s", n, inl ? " (inline)" : "");
        src->reset(rng.next());
        dst->reset(rng.next());
        if (auto err = in(what, post_recv(p.b, id, {dst->sge(0, kGrh + n)})))
            return err;
        if (auto err = in(what, post_ud(p.a, id, ah.get(), bqpn, kQkey, {src->sge(3, n)},
                                        IBV_SEND_SIGNALED | (inl ? IBV_SEND_INLINE : 0))))
            return err;
        if (auto err =
                in(what, expect_wc(p.a, Queue::kSend, wait, {id, IBV_WC_SUCCESS, IBV_WC_SEND})))
            return err;
        ibv_wc wc{};
        if (auto err = in(
                what, expect_wc(p.b, Queue::kRecv, wait, {id, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc)))
            return err;
        if (wc.byte_len != kGrh + n || !(wc.wc_flags & IBV_WC_GRH) || wc.src_qp != p.a.qp->qp_num)
            return fail("%s: byte_len %u wc_flags 0x%x src_qp 0x%x, want %zu, GRH, 0x%x", what,
                        wc.byte_len, wc.wc_flags, wc.src_qp, kGrh + n, p.a.qp->qp_num);
        if (!grh_names(dst->data(), env.a.gid))
            return fail("%s: the GRH area does not hold A's IPv4 header", what);
        // The GRH area is the transport's: compare only the datagram and
        // the bytes after it.
        dst->store(0, dst->data(), kGrh);
        dst->expect(kGrh, src->data() + 3, n);
        if (auto err = in(what, dst->verify("B memory")))
            return err;
        id++;
    }

    // With immediate data (udaddy sends its QPN so).
    {
        const uint32_t imm = static_cast<uint32_t>(rng.next());
        src->reset(rng.next());
        dst->reset(rng.next());
        if (auto err = post_recv(p.b, 50, {dst->sge(0, kGrh + 200)}))
            return err;
        if (auto err =
                post_ud(p.a, 50, ah.get(), bqpn, kQkey, {src->sge(0, 200)}, IBV_SEND_SIGNALED, imm))
            return err;
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {50, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return err;
        ibv_wc wc{};
        if (auto err = expect_wc(p.b, Queue::kRecv, wait, {50, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
            return in("UD SEND_WITH_IMM", err);
        if (!(wc.wc_flags & IBV_WC_WITH_IMM) || ntohl(wc.imm_data) != imm ||
            wc.byte_len != kGrh + 200)
            return fail(
                "UD SEND_WITH_IMM: wc_flags 0x%x imm 0x%08x byte_len %u, want "
                "WITH_IMM, 0x%08x, %zu",
                wc.wc_flags, ntohl(wc.imm_data), wc.byte_len, imm, kGrh + 200);
        dst->store(0, dst->data(), kGrh);
        dst->expect(kGrh, src->data(), 200);
        if (auto err = dst->verify("B memory after SEND_WITH_IMM"))
            return err;
    }

    // A wrong Q_Key, then a datagram longer than the receive: both are
    // dropped, and the one receive posted takes the next good datagram.
    const size_t n = 100;
    src->reset(rng.next());
    dst->reset(rng.next());
    if (auto err = post_recv(p.b, 100, {dst->sge(0, kGrh + n)}))
        return err;
    if (auto err = post_ud(p.a, 101, ah.get(), bqpn, kQkey + 1, {src->sge(0, n)}))
        return err;
    if (auto err = post_ud(p.a, 102, ah.get(), bqpn, kQkey, {src->sge(0, n + 1)}))
        return err;
    // The high bit of a Q_Key: send with the QP's own (kQkey).
    if (auto err = post_ud(p.a, 103, ah.get(), bqpn, 0x80000000u, {src->sge(7, n)}))
        return err;
    for (uint64_t w = 101; w <= 103; w++)
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {w, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return err;
    ibv_wc wc{};
    if (auto err = expect_wc(p.b, Queue::kRecv, wait, {100, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
        return in("the receive after a wrong Q_Key and a datagram too long", err);
    if (wc.byte_len != kGrh + n)
        return fail("the receive after the dropped datagrams: byte_len %u, want %zu (wr 103's)",
                    wc.byte_len, kGrh + n);
    dst->store(0, dst->data(), kGrh);
    dst->expect(kGrh, src->data() + 7, n);
    if (auto err = dst->verify("B memory after the dropped datagrams"))
        return err;

    // An AH to a GID no route leads to is refused when it is made, with
    // the routing error, as the core resolves a RoCE AH's next hop.
    {
        ibv_gid far{};
        far.raw[10] = 0xff;
        far.raw[11] = 0xff;
        const uint8_t ip[4] = {10, 99, 0, 1};  // no route in either host
        std::memcpy(far.raw + 12, ip, sizeof(ip));
        Ah bad;
        Err err = make_ah(p.a, far, &bad);
        if (!err)
            return fail("A: ibv_create_ah to %s succeeded, want a routing error",
                        gid_str(far).c_str());
        std::printf("# %s\n", err->c_str());
    }
    return expect_quiet(p);
}

// UD QPs on SRQs: datagrams land in the SRQ's receives, byte for byte,
// in posting order; one longer than the next receive is dropped and
// leaves it posted for the next datagram that fits, as on a QP's own RQ.
Err scenario_ud_srq(Env& env, Rng& rng) {
    const int wait = env.opt.wait_ms;
    QpCaps caps;
    caps.qkey = kQkey;
    caps.srq_wr = 16;
    Pair p;
    if (auto err = make_ud_pair(env, rng, caps, &p))
        return err;
    Ah ah;
    if (auto err = make_ah(p.a, p.b.dev->gid, &ah))
        return err;
    constexpr size_t kN = 300;
    Region* src = nullptr;
    Region* dst = nullptr;
    if (auto err = p.a.add_region(4 * kN, IBV_ACCESS_LOCAL_WRITE, &src))
        return err;
    if (auto err = p.b.add_region(4 * (kGrh + kN), IBV_ACCESS_LOCAL_WRITE, &dst))
        return err;
    src->reset(rng.next());
    dst->reset(rng.next());
    // Three receives of kGrh + kN bytes each.
    for (uint64_t i = 0; i < 3; i++) {
        ibv_sge sge = dst->sge(i * (kGrh + kN), kGrh + kN);
        ibv_recv_wr wr{};
        wr.wr_id = 10 + i;
        wr.sg_list = &sge;
        wr.num_sge = 1;
        ibv_recv_wr* bad = nullptr;
        if (int ret = ibv_post_srq_recv(p.b.srq.get(), &wr, &bad))
            return fail("B: ibv_post_srq_recv: %s", std::strerror(ret));
    }
    const uint32_t bqpn = p.b.qp->qp_num;
    // A datagram one byte too long for the receive at the head, dropped;
    // then three that fit, each a different slice of A's buffer.
    if (auto err = post_ud(p.a, 1, ah.get(), bqpn, kQkey, {src->sge(0, kN + 1)}))
        return err;
    for (uint64_t i = 0; i < 3; i++)
        if (auto err = post_ud(p.a, 2 + i, ah.get(), bqpn, kQkey, {src->sge(i * kN + 1, kN)}))
            return err;
    for (uint64_t w = 1; w <= 4; w++)
        if (auto err = expect_wc(p.a, Queue::kSend, wait, {w, IBV_WC_SUCCESS, IBV_WC_SEND}))
            return in("UD SEND to a QP on an SRQ", err);
    for (uint64_t i = 0; i < 3; i++) {
        ibv_wc wc{};
        if (auto err =
                expect_wc(p.b, Queue::kRecv, wait, {10 + i, IBV_WC_SUCCESS, IBV_WC_RECV}, &wc))
            return in("a datagram through the SRQ (the long one dropped before it)", err);
        if (wc.byte_len != kGrh + kN || wc.qp_num != bqpn || wc.src_qp != p.a.qp->qp_num)
            return fail("SRQ receive %llu: byte_len %u qp 0x%x src_qp 0x%x, want %zu 0x%x 0x%x",
                        static_cast<unsigned long long>(10 + i), wc.byte_len, wc.qp_num, wc.src_qp,
                        kGrh + kN, bqpn, p.a.qp->qp_num);
        const size_t at = i * (kGrh + kN);
        if (!grh_names(dst->data() + at, env.a.gid))
            return fail("SRQ receive %llu: the GRH area does not hold A's IPv4 header",
                        static_cast<unsigned long long>(10 + i));
        dst->store(at, dst->data() + at, kGrh);
        dst->expect(at + kGrh, src->data() + i * kN + 1, kN);
    }
    if (auto err = dst->verify("B memory after datagrams through the SRQ"))
        return err;
    return expect_quiet(p);
}

}  // namespace rc_check
