// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream: the JSON result (see stream_report.h).

#include "stream_report.h"

#include <cstdio>

namespace mrc_stream {

namespace {

void add(std::string* out, const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), fmt, v);
    *out += buf;
}

}  // namespace

std::string json_quote(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::string report_json(const RunInfo& run, const StreamStats& stats) {
    const double mbit = 1e6;
    std::string j = "{\"device\":" + json_quote(run.device);
    j += ",\"size\":" + std::to_string(run.size);
    j += ",\"outstanding\":" + std::to_string(run.outstanding);
    j += ",\"timeout\":" + std::to_string(run.timeout);
    j += ",\"retry_cnt\":" + std::to_string(run.retry_cnt);
    add(&j, ",\"duration_s\":%.3f", run.duration_s);
    add(&j, ",\"start_realtime\":%.6f", run.start_realtime);
    j += ",\"messages\":" + std::to_string(stats.messages());
    j += ",\"bytes\":" + std::to_string(stats.bytes());
    add(&j, ",\"seconds\":%.6f", stats.last_ns() / 1e9);
    add(&j, ",\"goodput_mbit\":%.3f", rate_bps(stats.bytes(), stats.last_ns()) / mbit);
    add(&j, ",\"first_completion_s\":%.6f", stats.first_ns() / 1e9);
    add(&j, ",\"max_gap_ms\":%.3f", stats.max_gap_ns() / 1e6);
    add(&j, ",\"max_gap_end_s\":%.6f", stats.max_gap_end_ns() / 1e9);
    add(&j, ",\"bin_ms\":%.3f", stats.bin_ns() / 1e6);
    j += ",\"bins_mbit\":[";
    const auto& bins = stats.bins();
    for (size_t i = 0; i < bins.size(); i++) {
        if (i)
            j += ',';
        add(&j, "%.3f", rate_bps(bins[i], stats.bin_ns()) / mbit);
    }
    j += "],\"bin_max_gap_ms\":[";
    const auto& gaps = stats.bin_max_gaps();
    for (size_t i = 0; i < gaps.size(); i++) {
        if (i)
            j += ',';
        add(&j, "%.3f", gaps[i] / 1e6);
    }
    return j + "]}";
}

}  // namespace mrc_stream
