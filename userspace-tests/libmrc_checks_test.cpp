// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// libmrc's rules on their own (libmrc/src/mrc_checks.h): version
// negotiation, the opcodes an MRC QP may post, which MRC attributes each
// transition takes and in what range, and the verbs transition the library
// makes of an MRC one.
#include <gtest/gtest.h>

#include <cerrno>

#include "mrc_checks.h"

namespace {

using mrc::lib::check_modify;
using mrc::lib::DeviceLimits;
using mrc::lib::negotiate_version;

constexpr DeviceLimits kLimits{256, 128};

TEST(LibmrcVersion, ZeroAndLatestMeanCurrent) {
    uint32_t used = 7;
    EXPECT_EQ(negotiate_version(0, MRC_API_CURRENT_VERSION, 0, used), 0);
    EXPECT_EQ(used, MRC_API_VER(1, 0, 1));
    used = 7;
    EXPECT_EQ(negotiate_version(MRC_API_VER_LATEST, MRC_API_CURRENT_VERSION, 0, used), 0);
    EXPECT_EQ(used, MRC_API_VER(1, 0, 1));
}

TEST(LibmrcVersion, OlderVersionsAreServedAsAsked) {
    uint32_t used = 0;
    EXPECT_EQ(negotiate_version(MRC_API_VER(1, 0, 0), MRC_API_CURRENT_VERSION, 0, used), 0);
    EXPECT_EQ(used, MRC_API_VER(1, 0, 0));
    EXPECT_EQ(negotiate_version(MRC_API_VER(1, 0, 1), MRC_API_CURRENT_VERSION, 0, used), 0);
    EXPECT_EQ(used, MRC_API_VER(1, 0, 1));
}

TEST(LibmrcVersion, NewerOrTooOldVersionsAreRefused) {
    uint32_t used = 5;
    EXPECT_EQ(negotiate_version(MRC_API_VER(1, 0, 2), MRC_API_CURRENT_VERSION, 0, used), ENOTSUP);
    EXPECT_EQ(negotiate_version(MRC_API_VER(1, 1, 0), MRC_API_CURRENT_VERSION, 0, used), ENOTSUP);
    EXPECT_EQ(negotiate_version(MRC_API_VER(2, 0, 0), MRC_API_CURRENT_VERSION, 0, used), ENOTSUP);
    EXPECT_EQ(negotiate_version(MRC_API_VER(0, 9, 0), MRC_API_CURRENT_VERSION, MRC_API_VER(1, 0, 0),
                                used),
              ENOTSUP);
    EXPECT_EQ(used, 5u) << "a refused negotiation leaves used alone";
}

TEST(LibmrcDevice, OnlyMrcNamesAreOurs) {
    EXPECT_TRUE(mrc::lib::is_mrc_device_name("mrc0"));
    EXPECT_TRUE(mrc::lib::is_mrc_device_name("mrc_plane7"));
    EXPECT_FALSE(mrc::lib::is_mrc_device_name("rxe0"));
    EXPECT_FALSE(mrc::lib::is_mrc_device_name("mr"));
    EXPECT_FALSE(mrc::lib::is_mrc_device_name(""));
    EXPECT_FALSE(mrc::lib::is_mrc_device_name(nullptr));
}

TEST(LibmrcDevice, AttributesFollowTheVerbsLimits) {
    mrc_device_attr a = mrc::lib::device_attr(4096);
    EXPECT_EQ(a.mrc_protocol_version, static_cast<uint32_t>(MRC_PROTOCOL_VERSION_1));
    EXPECT_EQ(a.wimm_attr.max_wimm, 4096);
    EXPECT_EQ(a.wimm_attr.max_wimm_dest, 4096);
    EXPECT_EQ(a.mpr_attr.max_mpr, 8) << "the driver's 1024-PSN windows in units of 128";
    EXPECT_EQ(a.mpr_attr.mpr_resolution, 1);
    EXPECT_EQ(a.qp_attr.max_qp_hint, mrc::lib::kMaxQpHints);
    EXPECT_EQ(a.cap, static_cast<uint32_t>(MRC_DEVICE_CAP_TRIM_NACK | MRC_DEVICE_CAP_SVC_TIME))
        << "trim NACKs and service time, not dynamic MPR";
    EXPECT_EQ(mrc::lib::device_attr(1 << 20).wimm_attr.max_wimm, 0xffff) << "clamped to 16 bits";
    EXPECT_EQ(mrc::lib::device_attr(-1).wimm_attr.max_wimm, 0);
}

ibv_send_wr write_wr(ibv_wr_opcode op, ibv_sge* sge) {
    ibv_send_wr wr{};
    wr.opcode = op;
    wr.sg_list = sge;
    wr.num_sge = 1;
    wr.send_flags = IBV_SEND_SIGNALED;
    return wr;
}

TEST(LibmrcPostSend, OnlyWriteAndWriteImm) {
    ibv_sge sge{};
    for (int op = IBV_WR_RDMA_WRITE; op <= IBV_WR_DRIVER1; op++) {
        ibv_send_wr wr = write_wr(static_cast<ibv_wr_opcode>(op), &sge);
        ibv_send_wr* bad = nullptr;
        bool allowed = op == IBV_WR_RDMA_WRITE || op == IBV_WR_RDMA_WRITE_WITH_IMM;
        EXPECT_EQ(mrc::lib::check_send_chain(&wr, &bad), allowed ? 0 : EINVAL) << "opcode " << op;
        EXPECT_EQ(bad, allowed ? nullptr : &wr) << "opcode " << op;
    }
}

TEST(LibmrcPostSend, TheFirstBadRequestOfAChainIsReported) {
    ibv_sge sge{};
    ibv_send_wr a = write_wr(IBV_WR_RDMA_WRITE, &sge);
    ibv_send_wr b = write_wr(IBV_WR_RDMA_WRITE_WITH_IMM, &sge);
    ibv_send_wr c = write_wr(IBV_WR_SEND, &sge);
    ibv_send_wr d = write_wr(IBV_WR_RDMA_READ, &sge);
    a.next = &b;
    b.next = &c;
    c.next = &d;
    ibv_send_wr* bad = nullptr;
    EXPECT_EQ(mrc::lib::check_send_chain(&a, &bad), EINVAL);
    EXPECT_EQ(bad, &c);
    b.next = nullptr;
    bad = nullptr;
    EXPECT_EQ(mrc::lib::check_send_chain(&a, &bad), 0);
    EXPECT_EQ(bad, nullptr);
}

TEST(LibmrcPostSend, FlagsAndScatterListsAreChecked) {
    ibv_sge sge{};
    ibv_send_wr* bad = nullptr;
    ibv_send_wr wr = write_wr(IBV_WR_RDMA_WRITE, &sge);
    wr.send_flags = IBV_SEND_FENCE | IBV_SEND_SIGNALED | IBV_SEND_SOLICITED | IBV_SEND_INLINE;
    EXPECT_EQ(mrc::lib::check_send_chain(&wr, &bad), 0);
    wr.send_flags = IBV_SEND_IP_CSUM;
    EXPECT_EQ(mrc::lib::check_send_chain(&wr, &bad), EINVAL);
    wr = write_wr(IBV_WR_RDMA_WRITE, nullptr);
    EXPECT_EQ(mrc::lib::check_send_chain(&wr, &bad), EINVAL) << "num_sge 1, no list";
    wr.num_sge = 0;
    EXPECT_EQ(mrc::lib::check_send_chain(&wr, &bad), 0) << "a zero-length WRITE";
    wr.num_sge = -1;
    EXPECT_EQ(mrc::lib::check_send_chain(&wr, &bad), EINVAL);
}

TEST(LibmrcHint, NegativeCountsAndUnknownBitsAreRefused) {
    mrc_qp_hint_attr a{};
    a.num_qps_per_peer = 2;
    EXPECT_EQ(mrc::lib::check_hint_attr(a, MRC_QP_HINT_NUM_QPS_PER_PEER), 0);
    a.num_send_peers = -1;
    EXPECT_EQ(mrc::lib::check_hint_attr(a, MRC_QP_HINT_NUM_QPS_PER_PEER), 0) << "not selected";
    EXPECT_EQ(mrc::lib::check_hint_attr(a, MRC_QP_HINT_NUM_SEND_PEERS), EINVAL);
    a.num_send_peers = 0;
    a.num_remote_recv_peers = -3;
    EXPECT_EQ(mrc::lib::check_hint_attr(a, MRC_QP_HINT_NUM_REMOTE_RECV_PEERS), EINVAL);
    EXPECT_EQ(mrc::lib::check_hint_attr(mrc_qp_hint_attr{}, 1 << 3), EINVAL);
    EXPECT_EQ(mrc::lib::check_hint_attr(mrc_qp_hint_attr{}, MRC_QP_HINT_VENDOR_CFG), 0);
}

ibv_qp_attr to_state(ibv_qp_state s) {
    ibv_qp_attr a{};
    a.qp_state = s;
    return a;
}

TEST(LibmrcModify, EachTransitionTakesItsOwnAttributes) {
    mrc_qp_attr m{};
    m.mpr.mpr = 1;
    m.mpr.mpr_dest = 1;
    ibv_qp_attr init = to_state(IBV_QPS_INIT), rtr = to_state(IBV_QPS_RTR),
                rts = to_state(IBV_QPS_RTS);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, &m, MRC_QP_HINT, kLimits), 0);
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m,
                           MRC_QP_MAX_WIMM_DEST | MRC_QP_MPR_DEST | MRC_QP_CAP, kLimits),
              0);
    EXPECT_EQ(
        check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m,
                     MRC_QP_MAX_WIMM | MRC_QP_MPR | MRC_QP_RETRY_CNT | MRC_QP_TIMEOUT, kLimits),
        0);
    // Each group, one transition too early or too late.
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, &m, MRC_QP_MPR_DEST, kLimits),
              EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_TIMEOUT, kLimits), EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_HINT, kLimits), EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RTS, nullptr, 0, &m, MRC_QP_MPR, kLimits), EINVAL)
        << "RTS to RTS changes nothing MRC";
    EXPECT_EQ(check_modify(IBV_QPS_RTS, nullptr, 0, &m, MRC_QP_VENDOR_CFG, kLimits), 0);
    EXPECT_EQ(check_modify(IBV_QPS_INIT, nullptr, 0, &m, MRC_QP_HINT, kLimits), 0)
        << "INIT to INIT may change the hint";
}

TEST(LibmrcModify, MasksAndPointersAreChecked) {
    mrc_qp_attr m{};
    ibv_qp_attr init = to_state(IBV_QPS_INIT);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, nullptr, IBV_QP_STATE, nullptr, 0, kLimits), EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, nullptr, MRC_QP_HINT, kLimits),
              EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, &m, 1 << 10, kLimits), EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE | IBV_QP_ALT_PATH, &m, 0, kLimits),
              EINVAL);
    EXPECT_EQ(
        check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE | IBV_QP_PATH_MIG_STATE, &m, 0, kLimits),
        EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE | IBV_QP_QKEY, &m, 0, kLimits),
              EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, nullptr, 0, nullptr, 0, kLimits), 0);
}

TEST(LibmrcModify, StatesAndPortsAreChecked) {
    ibv_qp_attr a = to_state(static_cast<ibv_qp_state>(IBV_QPS_UNKNOWN));
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &a, IBV_QP_STATE, nullptr, 0, kLimits), EINVAL);
    a = to_state(IBV_QPS_INIT);
    a.cur_qp_state = IBV_QPS_RTS;
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &a, IBV_QP_STATE | IBV_QP_CUR_STATE, nullptr, 0, kLimits),
              EINVAL)
        << "the asserted current state is wrong";
    a.cur_qp_state = IBV_QPS_RESET;
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &a, IBV_QP_STATE | IBV_QP_CUR_STATE, nullptr, 0, kLimits),
              0);
    a.port_num = 2;
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &a, IBV_QP_STATE | IBV_QP_PORT, nullptr, 0, kLimits),
              EINVAL);
    a.port_num = 1;
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &a, IBV_QP_STATE | IBV_QP_PORT, nullptr, 0, kLimits), 0)
        << "the published example passes port 1";
    a = to_state(IBV_QPS_RTR);
    a.ah_attr.port_num = 3;
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &a, IBV_QP_STATE | IBV_QP_AV, nullptr, 0, kLimits),
              EINVAL);
}

TEST(LibmrcModify, RangesAreChecked) {
    ibv_qp_attr rts = to_state(IBV_QPS_RTS), rtr = to_state(IBV_QPS_RTR);
    mrc_qp_attr m{};
    m.timeout = 24;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_TIMEOUT, kLimits), 0);
    m.timeout = 25;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_TIMEOUT, kLimits), EINVAL);
    m.retry.linear_cnt = 7;
    m.retry.exp_cnt = 25;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_RETRY_CNT, kLimits), 0);
    m.retry.linear_cnt = 8;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_RETRY_CNT, kLimits), EINVAL);
    m.retry.linear_cnt = 0;
    m.retry.exp_cnt = 26;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_RETRY_CNT, kLimits), EINVAL);
    m.mpr.mpr = 8;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_MPR, kLimits), 0);
    m.mpr.mpr = 1;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_MPR, kLimits), 0);
    m.mpr.mpr = 9;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_MPR, kLimits), EINVAL);
    m.mpr.mpr = 0;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_MPR, kLimits), EINVAL)
        << "a range of no PSN would send nothing";
    m.mpr.mpr_dest = 1;
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_MPR_DEST, kLimits), 0);
    m.mpr.mpr_dest = 9;
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_MPR_DEST, kLimits), EINVAL);
    m.mpr.mpr_dest = 0;
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_MPR_DEST, kLimits), EINVAL);
    m.wimm.max_wimm = kLimits.max_wimm;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_MAX_WIMM, kLimits), 0);
    m.wimm.max_wimm++;
    EXPECT_EQ(check_modify(IBV_QPS_RTR, &rts, IBV_QP_STATE, &m, MRC_QP_MAX_WIMM, kLimits), EINVAL);
    m.wimm.max_wimm_dest = kLimits.max_wimm_dest + 1;
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_MAX_WIMM_DEST, kLimits),
              EINVAL);
}

TEST(LibmrcModify, CapabilitiesAndProfiles) {
    ibv_qp_attr rtr = to_state(IBV_QPS_RTR), init = to_state(IBV_QPS_INIT);
    mrc_qp_attr m{};
    m.cap = MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED | MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_CAP, kLimits), 0);
    m.cap = MRC_QP_CAP_DYNAMIC_MPR;
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_CAP, kLimits), EINVAL)
        << "dynamic MPR is not advertised";
    m.cap = 1 << 5;
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_CAP, kLimits), EINVAL);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID, kLimits),
              0);
    EXPECT_EQ(check_modify(IBV_QPS_RESET, &init, IBV_QP_STATE, &m, MRC_QP_CC_PROFILE_ID, kLimits),
              0);
    EXPECT_EQ(check_modify(IBV_QPS_INIT, &rtr, IBV_QP_STATE, &m, MRC_QP_EV_PROFILE_ID, kLimits),
              EINVAL)
        << "profile ids only on the way to INIT";
}

TEST(LibmrcModify, ResetToInitGetsPortPkeyAndWriteAccess) {
    ibv_qp_attr in = to_state(IBV_QPS_INIT), out{};
    int mask = 0;
    mrc::lib::to_verbs_modify(IBV_QPS_RESET, &in, IBV_QP_STATE, mrc_qp_attr{}, out, mask);
    EXPECT_EQ(mask, IBV_QP_STATE | IBV_QP_PORT | IBV_QP_PKEY_INDEX | IBV_QP_ACCESS_FLAGS);
    EXPECT_EQ(out.port_num, 1);
    EXPECT_EQ(out.pkey_index, 0);
    EXPECT_EQ(out.qp_access_flags, static_cast<unsigned>(IBV_ACCESS_REMOTE_WRITE));

    in.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                         IBV_ACCESS_REMOTE_ATOMIC;
    in.pkey_index = 3;
    mrc::lib::to_verbs_modify(IBV_QPS_RESET, &in,
                              IBV_QP_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX, mrc_qp_attr{},
                              out, mask);
    EXPECT_EQ(out.qp_access_flags, static_cast<unsigned>(IBV_ACCESS_REMOTE_WRITE))
        << "no remote READ or atomics on an MRC QP";
    EXPECT_EQ(out.pkey_index, 3);
}

TEST(LibmrcModify, InitToRtrGetsNoReadsAndAnRnrTimer) {
    ibv_qp_attr in = to_state(IBV_QPS_RTR), out{};
    in.ah_attr.port_num = 0;
    in.dest_qp_num = 99;
    in.max_dest_rd_atomic = 16;
    int vmask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_PATH_MTU |
                IBV_QP_MAX_DEST_RD_ATOMIC;
    int mask = 0;
    mrc::lib::to_verbs_modify(IBV_QPS_INIT, &in, vmask, mrc_qp_attr{}, out, mask);
    EXPECT_EQ(mask, vmask | IBV_QP_MIN_RNR_TIMER);
    EXPECT_EQ(out.max_dest_rd_atomic, 0) << "overridden";
    EXPECT_EQ(out.ah_attr.port_num, 1);
    EXPECT_EQ(out.dest_qp_num, 99u);
    EXPECT_EQ(out.min_rnr_timer, mrc::lib::kIbMinRnrTimer);
}

TEST(LibmrcModify, RtrToRtsTakesTimeoutAndRetriesFromMrc) {
    ibv_qp_attr in = to_state(IBV_QPS_RTS), out{};
    in.timeout = 31;  // the published example sets these; they are ignored
    in.retry_cnt = 1;
    in.rnr_retry = 0;
    mrc_qp_attr m{};
    m.timeout = 20;
    m.retry.linear_cnt = 3;
    m.retry.exp_cnt = 2;
    int mask = 0;
    mrc::lib::to_verbs_modify(
        IBV_QPS_RTR, &in,
        IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY, m, out,
        mask);
    EXPECT_EQ(mask, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                        IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
    EXPECT_EQ(out.timeout, 18) << "1.024 us * 2^20 = 4.096 us * 2^18";
    EXPECT_EQ(out.retry_cnt, 5);
    EXPECT_EQ(out.rnr_retry, mrc::lib::kIbRnrRetryForever);
    EXPECT_EQ(out.max_rd_atomic, 0);
    m.retry.exp_cnt = 25;
    mrc::lib::to_verbs_modify(IBV_QPS_RTR, &in, IBV_QP_STATE, m, out, mask);
    EXPECT_EQ(out.retry_cnt, 7) << "verbs counts at most 7";
}

TEST(LibmrcModify, OtherTransitionsPassVerbsThrough) {
    ibv_qp_attr in = to_state(IBV_QPS_ERR), out{};
    int mask = 0;
    mrc::lib::to_verbs_modify(IBV_QPS_RTS, &in, IBV_QP_STATE | IBV_QP_TIMEOUT, mrc_qp_attr{}, out,
                              mask);
    EXPECT_EQ(mask, IBV_QP_STATE) << "overridden attributes are dropped";
    EXPECT_EQ(out.qp_state, IBV_QPS_ERR);
    mrc::lib::to_verbs_modify(IBV_QPS_RTS, nullptr, 0, mrc_qp_attr{}, out, mask);
    EXPECT_EQ(mask, 0);
}

TEST(LibmrcModify, TimeoutConversionNeverDisablesTheTimer) {
    EXPECT_EQ(mrc::lib::ib_timeout(0), 1);
    EXPECT_EQ(mrc::lib::ib_timeout(2), 1);
    EXPECT_EQ(mrc::lib::ib_timeout(3), 1);
    EXPECT_EQ(mrc::lib::ib_timeout(16), 14);
    EXPECT_EQ(mrc::lib::ib_timeout(24), 22);
}

TEST(LibmrcModify, MergeCopiesOnlyTheMaskedFields) {
    mrc_qp_attr dst{}, src{};
    src.timeout = 9;
    src.mpr.mpr = 4;
    src.mpr.mpr_dest = 5;
    src.vendor_cfg[7] = 0xab;
    mrc::lib::merge_qp_attr(dst, src, MRC_QP_TIMEOUT | MRC_QP_MPR_DEST | MRC_QP_VENDOR_CFG);
    EXPECT_EQ(dst.timeout, 9);
    EXPECT_EQ(dst.mpr.mpr, 0);
    EXPECT_EQ(dst.mpr.mpr_dest, 5);
    EXPECT_EQ(dst.vendor_cfg[7], 0xab);
}

}  // namespace
