// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream: completion accounting (see stream_stats.h).

#include "stream_stats.h"

#include <algorithm>

namespace mrc_stream {

StreamStats::StreamStats(uint64_t bin_ns) : bin_ns_(bin_ns ? bin_ns : 1) {}

void StreamStats::add(uint64_t t_ns, uint64_t bytes) {
    uint64_t gap = 0;

    if (messages_ == 0) {
        first_ns_ = t_ns;
    } else {
        t_ns = std::max(t_ns, last_ns_);
        gap = t_ns - last_ns_;
        if (gap > max_gap_ns_) {
            max_gap_ns_ = gap;
            max_gap_end_ns_ = t_ns;
        }
    }
    last_ns_ = t_ns;
    messages_++;
    bytes_ += bytes;
    size_t bin = static_cast<size_t>(t_ns / bin_ns_);
    if (bin >= bins_.size()) {
        bins_.resize(bin + 1, 0);
        bin_gaps_.resize(bin + 1, 0);
    }
    bins_[bin] += bytes;
    bin_gaps_[bin] = std::max(bin_gaps_[bin], gap);
}

double rate_bps(uint64_t bytes, uint64_t ns) {
    if (ns == 0)
        return 0;
    return static_cast<double>(bytes) * 8e9 / static_cast<double>(ns);
}

}  // namespace mrc_stream
