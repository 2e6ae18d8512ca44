// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream's result: one JSON object on one line.

#ifndef MRC_SELFTESTS_STREAM_REPORT_H
#define MRC_SELFTESTS_STREAM_REPORT_H

#include "stream_stats.h"

#include <cstdint>
#include <string>

namespace mrc_stream {

struct RunInfo {
    std::string device;
    uint64_t size = 0;
    uint32_t outstanding = 0;
    uint8_t timeout = 0;
    uint8_t retry_cnt = 0;
    double duration_s = 0;      // how long WRITEs were posted
    double start_realtime = 0;  // wall clock at the start, s since the epoch
};

// {"device":..., "bytes":..., "seconds":..., "goodput_mbit":...,
//  "max_gap_ms":..., "max_gap_end_s":..., "bin_ms":..., "bins_mbit":[...]}
// seconds runs from the start to the last completion; bins_mbit holds the
// goodput of each bin in Mbit/s (10^6 bit/s).
std::string report_json(const RunInfo& run, const StreamStats& stats);

// s as a JSON string literal.
std::string json_quote(const std::string& s);

}  // namespace mrc_stream

#endif  // MRC_SELFTESTS_STREAM_REPORT_H
