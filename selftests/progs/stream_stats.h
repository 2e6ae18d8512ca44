// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
//
// mrc-stream's accounting of completions, kept apart from the verbs so it
// can be tested on its own: totals, the longest gap between consecutive
// completions (and where it fell), and per time bin the bytes completed
// and the longest gap that ended in it.

#ifndef MRC_SELFTESTS_STREAM_STATS_H
#define MRC_SELFTESTS_STREAM_STATS_H

#include <cstdint>
#include <vector>

namespace mrc_stream {

class StreamStats {
public:
    // bin_ns: width of a goodput bin (0 is taken as 1 ns).
    explicit StreamStats(uint64_t bin_ns);

    // A completion of `bytes` at t_ns after the stream started. Times are
    // expected in order; an earlier one counts as if at the latest seen.
    void add(uint64_t t_ns, uint64_t bytes);

    uint64_t messages() const { return messages_; }
    uint64_t bytes() const { return bytes_; }
    uint64_t bin_ns() const { return bin_ns_; }
    // Time of the first and of the last completion; 0 before any.
    uint64_t first_ns() const { return first_ns_; }
    uint64_t last_ns() const { return last_ns_; }
    // The longest gap between two consecutive completions and the time of
    // the completion that ended it; both 0 with fewer than two completions.
    uint64_t max_gap_ns() const { return max_gap_ns_; }
    uint64_t max_gap_end_ns() const { return max_gap_end_ns_; }
    // Bytes completed in [i * bin_ns, (i + 1) * bin_ns), up to the bin of
    // the last completion.
    const std::vector<uint64_t>& bins() const { return bins_; }
    // The longest gap ending in each bin (ns), as many as bins(): the
    // longest gap after an event is the largest from the event's bin on.
    const std::vector<uint64_t>& bin_max_gaps() const { return bin_gaps_; }

private:
    uint64_t bin_ns_;
    uint64_t messages_ = 0;
    uint64_t bytes_ = 0;
    uint64_t first_ns_ = 0;
    uint64_t last_ns_ = 0;
    uint64_t max_gap_ns_ = 0;
    uint64_t max_gap_end_ns_ = 0;
    std::vector<uint64_t> bins_;
    std::vector<uint64_t> bin_gaps_;
};

// Bits per second of `bytes` over `ns`; 0 when ns is 0.
double rate_bps(uint64_t bytes, uint64_t ns);

}  // namespace mrc_stream

#endif  // MRC_SELFTESTS_STREAM_STATS_H
