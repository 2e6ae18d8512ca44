#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Figures from one mrc-stream result (its JSON object), for the
multipath benchmarks. Imported by summarize.py; the client guest runs it
as a command for the line it prints as each sample completes:

    mp_figures.py after EVENT_S < stream.json   goodput after an event
"""
import json
import math
import sys

# Goodput "after" an event leaves out this much of the recovery.
SETTLE_S = 1.0


def after_event(stream, event_s, settle_s=SETTLE_S):
    """Mean goodput (Mbit/s) of the whole bins from event_s + settle_s to
    the end of posting (duration_s), both in s from the stream's start;
    None when no whole bin lies in between."""
    bin_s = stream["bin_ms"] / 1000.0
    bins = stream["bins_mbit"]
    first = math.ceil((event_s + settle_s) / bin_s - 1e-9)
    last = min(int(stream["duration_s"] / bin_s + 1e-9), len(bins))
    if first >= last:
        return None
    return sum(bins[first:last]) / (last - first)


def gap_after(stream, event_s):
    """The longest gap (ms) between completions that ended at or after
    the bin holding event_s (s from the stream's start): the stall an
    event caused, not one of the start-up; None if the stream has no
    per-bin gaps."""
    gaps = stream.get("bin_max_gap_ms")
    if gaps is None:
        return None
    first = max(int(event_s * 1000.0 / stream["bin_ms"]), 0)
    return max(gaps[first:], default=0.0)


def event_offset(stream, event_realtime):
    """Seconds from the stream's start to an event at event_realtime (s
    since the epoch, taken on the same machine)."""
    return event_realtime - stream["start_realtime"]


def shares(counts):
    """Each path's share of the packets, from per-path packet counts."""
    total = sum(counts)
    return [round(c / total, 3) for c in counts] if total else None


def main(argv):
    if len(argv) != 3 or argv[1] != "after":
        print(__doc__, file=sys.stderr)
        return 2
    stream = json.load(sys.stdin)
    v = after_event(stream, float(argv[2]))
    print("null" if v is None else f"{v:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
