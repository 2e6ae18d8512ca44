#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The SRv6 benchmarks' figures (srv6.sh's "@srv6 {JSON}" records).

    srv6_summary.py --line < RECORD        the figures of one step, a line
    srv6_summary.py LOG RESULTS.json       the table; adds the "srv6"
                                           section to RESULTS.json

The targets are benchmarks' goals, not tests: they are printed with a
"met" column and never change the exit status.
"""
import json
import statistics
import sys

import bench_records
import mp_figures
import mp_summary

TARGETS = {
    "bw_of_capacity": 0.85,     # srv6_bw: goodput / (spines * RATE), at least
    "after_of_remaining": 0.85,  # srv6_fail: 1 s after / ((spines-1) RATE)
    "gap_rtos": 3.0,            # srv6_fail: longest gap after / RTO, at most
}


def figures(rec):
    """The figures of one step as a dict; {} when it gave no result."""
    s = rec.get("stream")
    if not s:
        return {}
    rate = mp_summary.rate_mbit(rec["rate"])
    srtt_us = (rec.get("qp") or {}).get("srtt_us")
    f = {"goodput_mbit": s["goodput_mbit"], "max_gap_ms": s["max_gap_ms"],
         "cpu_busy": _ratio(rec["cpu_busy_s"], rec["cpu_total_s"])}
    if srtt_us:
        f["srtt_ms"] = round(srtt_us / 1000, 3)
    if s["bytes"]:
        f["cpu_ns_per_byte"] = round(rec["cpu_busy_s"] * 1e9 / s["bytes"], 3)
    if rec["metric"] == "srv6_bw" and rate:
        f["of_capacity"] = _ratio(s["goodput_mbit"], rec["spines"] * rate)
    if rec["metric"] == "srv6_fail" and rec.get("event_realtime"):
        at = mp_figures.event_offset(s, rec["event_realtime"])
        after = mp_figures.after_event(s, at)
        f["event_s"] = round(at, 3)
        f["after_mbit"] = None if after is None else round(after, 3)
        if rate:
            f["after_of_remaining"] = _ratio(after, (rec["spines"] - 1) * rate)
        f["gap_ms"] = mp_figures.gap_after(s, at)
        f["gap_rtos"] = _ratio(f["gap_ms"],
                               mp_summary.mrc_rto_ms(s["timeout"]))
        if srtt_us:
            f["gap_srtts"] = _ratio(f["gap_ms"], f["srtt_ms"])
    return f


def _ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def line(rec):
    """One step's line, as it completes."""
    f = figures(rec)
    if not f:
        return f"null ({rec.get('error') or 'exit status %s' % rec.get('rc')})"
    out = [f"{f['goodput_mbit']:.2f} Mbit/s"]
    if "of_capacity" in f:
        out[0] += f" = {f['of_capacity']} of the shaped capacity"
    if "after_of_remaining" in f:
        out.append(f"1 s after spine 0:2 went down (at {f['event_s']} s): "
                   f"{f['after_mbit']} Mbit/s = {f['after_of_remaining']} of "
                   f"the remaining capacity")
    if f.get("gap_ms") is not None:
        out.append(f"longest gap from the failure on {f['gap_ms']:.1f} ms = "
                   f"{f['gap_rtos']} RTOs = {f.get('gap_srtts')} smoothed RTTs")
    out.append(f"longest gap of the run {f['max_gap_ms']:.1f} ms; smoothed "
               f"RTT {f.get('srtt_ms')} ms")
    cpu = f"CPUs {100 * (f['cpu_busy'] or 0):.0f}% busy"
    if "cpu_ns_per_byte" in f:
        cpu += f", {f['cpu_ns_per_byte']} ns CPU per payload byte"
    out.append(cpu)
    qp = rec.get("qp") or {}
    out.append(f"{rec.get('rto_events')} RTOs, {qp.get('ev_marked_bad', '?')} "
               f"EVs marked bad, {qp.get('losses_undone', '?')} undone")
    return "; ".join(out)


def _median(values):
    ok = [v for v in values if v is not None]
    return statistics.median(ok) if ok else None


def summarize(records):
    """Medians by (metric, variant), ratios and the table's lines."""
    by = {}
    for rec in records:
        by.setdefault((rec["metric"], rec["variant"]), []).append(figures(rec))

    def med(metric, variant, key):
        return _median([f.get(key) for f in by.get((metric, variant), [])])

    f = {
        "bw_mbit": med("srv6_bw", "srv6", "goodput_mbit"),
        "bw_of_capacity": med("srv6_bw", "srv6", "of_capacity"),
        "bw_cpu_busy": med("srv6_bw", "srv6", "cpu_busy"),
        "after_mbit": med("srv6_fail", "srv6", "after_mbit"),
        "after_of_remaining": med("srv6_fail", "srv6", "after_of_remaining"),
        "gap_ms": med("srv6_fail", "srv6", "gap_ms"),
        "gap_rtos": med("srv6_fail", "srv6", "gap_rtos"),
        "gap_srtts": med("srv6_fail", "srv6", "gap_srtts"),
        "fail_srtt_ms": med("srv6_fail", "srv6", "srtt_ms"),
        "cpu_srv6_ns_per_byte": med("srv6_cpu", "srv6", "cpu_ns_per_byte"),
        "cpu_udp_ns_per_byte": med("srv6_cpu", "udp", "cpu_ns_per_byte"),
        "cpu_srv6_mbit": med("srv6_cpu", "srv6", "goodput_mbit"),
        "cpu_udp_mbit": med("srv6_cpu", "udp", "goodput_mbit"),
    }
    f["cpu_srv6_vs_udp"] = _ratio(f["cpu_srv6_ns_per_byte"],
                                  f["cpu_udp_ns_per_byte"])
    met = {k: None if f.get(k) is None else
           (f[k] <= v if k == "gap_rtos" else f[k] >= v)
           for k, v in TARGETS.items()}

    def fmt(v, unit=""):
        return "-" if v is None else f"{v:g}{unit}"

    def yes(k):
        return "-" if met[k] is None else ("yes" if met[k] else "no")

    rows = [
        ("all spines up: goodput", fmt(f["bw_mbit"], " Mbit/s"),
         "of capacity", fmt(f["bw_of_capacity"]),
         f">= {TARGETS['bw_of_capacity']:g}", yes("bw_of_capacity")),
        ("  CPUs busy meanwhile", fmt(f["bw_cpu_busy"]), "", "", "", ""),
        ("spine 0:2 down: goodput 1 s on", fmt(f["after_mbit"], " Mbit/s"),
         "of remaining", fmt(f["after_of_remaining"]),
         f">= {TARGETS['after_of_remaining']:g}", yes("after_of_remaining")),
        ("  longest gap from it on", fmt(f["gap_ms"], " ms"), "gap/RTO",
         fmt(f["gap_rtos"]), f"<= {TARGETS['gap_rtos']:g}", yes("gap_rtos")),
        ("  the QP's smoothed RTT", fmt(f["fail_srtt_ms"], " ms"), "gap/SRTT",
         fmt(f["gap_srtts"]), "", ""),
        ("unshaped: CPU per byte, SRv6", fmt(f["cpu_srv6_ns_per_byte"], " ns"),
         "SRv6/UDP", fmt(f["cpu_srv6_vs_udp"]), "", ""),
        ("  UDP format, same routers", fmt(f["cpu_udp_ns_per_byte"], " ns"),
         "", "", "", ""),
        ("  goodput SRv6 / UDP", fmt(f["cpu_srv6_mbit"], " Mbit/s"), "",
         fmt(f["cpu_udp_mbit"], " Mbit/s"), "", ""),
    ]
    head = ("SRv6 (one VM)", "median", "ratio", "value", "target", "met")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(6)]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
             for r in [head] + rows]
    return {"figures": f, "targets": TARGETS, "met": met,
            "samples": {f"{m} {v}": xs for (m, v), xs in by.items()}}, lines


def main(argv):
    if len(argv) == 2 and argv[1] == "--line":
        print(line(json.load(sys.stdin)))
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    records = bench_records.read(argv[1], "srv6")
    if not records:
        print("srv6: no steps recorded", file=sys.stderr)
        return 1
    section, lines = summarize(records)
    section["records"] = records
    bench_records.store(argv[2], "srv6", section)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
