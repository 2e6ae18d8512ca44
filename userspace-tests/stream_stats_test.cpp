// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream's completion accounting and JSON report.

#include "stream_report.h"
#include "stream_stats.h"

#include <gtest/gtest.h>

namespace mrc_stream {
namespace {

constexpr uint64_t kMs = 1000000;

TEST(StreamStats, EmptyHasNothing) {
    StreamStats s(100 * kMs);
    EXPECT_EQ(s.messages(), 0u);
    EXPECT_EQ(s.bytes(), 0u);
    EXPECT_EQ(s.max_gap_ns(), 0u);
    EXPECT_TRUE(s.bins().empty());
}

TEST(StreamStats, OneCompletionHasNoGap) {
    StreamStats s(100 * kMs);
    s.add(250 * kMs, 4096);
    EXPECT_EQ(s.first_ns(), 250 * kMs);
    EXPECT_EQ(s.last_ns(), 250 * kMs);
    EXPECT_EQ(s.max_gap_ns(), 0u);
    ASSERT_EQ(s.bins().size(), 3u);
    EXPECT_EQ(s.bins()[2], 4096u);
}

TEST(StreamStats, LongestGapAndWhereItEnded) {
    StreamStats s(100 * kMs);
    s.add(10 * kMs, 1);   // the wait for the first one is no gap
    s.add(20 * kMs, 1);
    s.add(95 * kMs, 1);   // 75 ms
    s.add(100 * kMs, 1);
    s.add(170 * kMs, 1);  // 70 ms: shorter, not taken
    EXPECT_EQ(s.max_gap_ns(), 75 * kMs);
    EXPECT_EQ(s.max_gap_end_ns(), 95 * kMs);
    EXPECT_EQ(s.messages(), 5u);
    EXPECT_EQ(s.bytes(), 5u);
}

TEST(StreamStats, EachBinKeepsTheLongestGapEndingInIt) {
    StreamStats s(100 * kMs);
    s.add(10 * kMs, 1);
    s.add(40 * kMs, 1);   // 30 ms, bin 0
    s.add(60 * kMs, 1);   // 20 ms, bin 0: shorter
    s.add(310 * kMs, 1);  // 250 ms, ends in bin 3: bins 1 and 2 have none
    s.add(320 * kMs, 1);  // 10 ms, bin 3: shorter
    ASSERT_EQ(s.bin_max_gaps().size(), s.bins().size());
    ASSERT_EQ(s.bin_max_gaps().size(), 4u);
    EXPECT_EQ(s.bin_max_gaps()[0], 30 * kMs);
    EXPECT_EQ(s.bin_max_gaps()[1], 0u);
    EXPECT_EQ(s.bin_max_gaps()[2], 0u);
    EXPECT_EQ(s.bin_max_gaps()[3], 250 * kMs);
}

TEST(StreamStats, BatchedCompletionsAtOneInstant) {
    StreamStats s(10 * kMs);
    for (int i = 0; i < 4; i++)
        s.add(5 * kMs, 100);
    EXPECT_EQ(s.max_gap_ns(), 0u);
    ASSERT_EQ(s.bins().size(), 1u);
    EXPECT_EQ(s.bins()[0], 400u);
}

TEST(StreamStats, TimeGoingBackwardsCountsAtTheLatest) {
    StreamStats s(10 * kMs);
    s.add(30 * kMs, 1);
    s.add(5 * kMs, 1);
    EXPECT_EQ(s.last_ns(), 30 * kMs);
    EXPECT_EQ(s.max_gap_ns(), 0u);
    ASSERT_EQ(s.bins().size(), 4u);
    EXPECT_EQ(s.bins()[3], 2u);
}

TEST(StreamStats, BinsSplitAtTheirBoundaries) {
    StreamStats s(100 * kMs);
    s.add(99 * kMs, 10);
    s.add(100 * kMs, 20);  // the first instant of bin 1
    s.add(450 * kMs, 30);  // bins 2 and 3 stay empty
    ASSERT_EQ(s.bins().size(), 5u);
    EXPECT_EQ(s.bins()[0], 10u);
    EXPECT_EQ(s.bins()[1], 20u);
    EXPECT_EQ(s.bins()[2], 0u);
    EXPECT_EQ(s.bins()[3], 0u);
    EXPECT_EQ(s.bins()[4], 30u);
}

TEST(StreamStats, RateIsBitsPerSecond) {
    EXPECT_DOUBLE_EQ(rate_bps(1250000, 1000 * kMs), 10e6);
    EXPECT_DOUBLE_EQ(rate_bps(100, 0), 0);
}

TEST(StreamReport, JsonCarriesTheFigures) {
    StreamStats s(100 * kMs);
    s.add(100 * kMs, 125000);
    s.add(1000 * kMs, 1125000);  // 1.25 MB in 1 s: 10 Mbit/s
    RunInfo run;
    run.device = "mrc0";
    run.size = 125000;
    run.outstanding = 4;
    run.timeout = 14;
    run.retry_cnt = 7;
    run.duration_s = 1;
    run.start_realtime = 1700000000.5;
    std::string j = report_json(run, s);
    EXPECT_EQ(j.front(), '{');
    EXPECT_EQ(j.back(), '}');
    EXPECT_NE(j.find("\"device\":\"mrc0\""), std::string::npos) << j;
    EXPECT_NE(j.find("\"bytes\":1250000"), std::string::npos) << j;
    EXPECT_NE(j.find("\"seconds\":1.000000"), std::string::npos) << j;
    EXPECT_NE(j.find("\"goodput_mbit\":10.000"), std::string::npos) << j;
    EXPECT_NE(j.find("\"max_gap_ms\":900.000"), std::string::npos) << j;
    EXPECT_NE(j.find("\"max_gap_end_s\":1.000000"), std::string::npos) << j;
    EXPECT_NE(j.find("\"start_realtime\":1700000000.500000"), std::string::npos) << j;
    // 125000 B in bin 1 = 10 Mbit/s; 1125000 B in bin 10 = 90 Mbit/s.
    EXPECT_NE(j.find("\"bins_mbit\":[0.000,10.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,"
                     "0.000,90.000]"),
              std::string::npos)
        << j;
    EXPECT_NE(j.find("\"bin_max_gap_ms\":[0.000,0.000,0.000,0.000,0.000,0.000,0.000,0.000,"
                     "0.000,0.000,900.000]"),
              std::string::npos)
        << j;
}

TEST(StreamReport, QuotesStrings) {
    EXPECT_EQ(json_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
}

}  // namespace
}  // namespace mrc_stream
