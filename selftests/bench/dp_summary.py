#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The data-path benchmarks' figures (dp.sh's "@dp {JSON}").

    dp_summary.py --line < RECORD        the figures of one sample, a line
    dp_summary.py LOG RESULTS.json [HOST]
                                         the table of medians and ratios;
                                         adds the "dp" section to RESULTS.json
                                         (HOST: a note on the host's load)

A record holds the tool's goodput (bytes/s), the window the CPU was read
over (window_s seconds of transfer, "middle" or "whole") and the whole
VM's busy and kernel CPU seconds in it: the bytes moved are the goodput
times window_s. MB are 10^6 bytes (perftest's MiB/s converted).
"""
import json
import os
import statistics
import sys

METRICS = {
    "dp_tcp": "TCP (iperf3, 1 stream)",
    "dp_tcp4": "TCP (iperf3, 4 streams)",
    "dp_write": "MRC WRITE (1 QP, 64 KiB)",
    "dp_write4": "MRC WRITE (4 QPs, 64 KiB)",
    "dp_write_e": "MRC WRITE (mrc-stream, CQ events)",
    "dp_rxe": "rxe WRITE (1 QP, 64 KiB)",
}
# (numerator, denominator) of each ratio row.
RATIOS = (("dp_write", "dp_tcp"), ("dp_write4", "dp_tcp"),
          ("dp_write4", "dp_write"), ("dp_write", "dp_rxe"),
          ("dp_write_e", "dp_write"), ("dp_tcp4", "dp_tcp"))


def figures(rec):
    """One sample's figures; {} when it gave none."""
    bps = rec.get("goodput_Bps")
    secs = rec.get("window_s")
    if not bps or not secs:
        return {}
    moved = bps * secs
    f = {"goodput_mbps": round(bps / 1e6, 1),
         "kernel_ns_per_b": round(rec["kernel_s"] * 1e9 / moved, 2),
         "busy_ns_per_b": round(rec["busy_s"] * 1e9 / moved, 2),
         "window": rec["window"], "window_s": round(secs, 2)}
    # The VM's CPUs: how much of them the window kept busy.
    if rec.get("total_s"):
        f["busy_share"] = round(rec["busy_s"] / rec["total_s"], 3)
    # Under TCG /proc/stat can account for less time than the window
    # held (likely ticks a busy vCPU missed): the share missing. The
    # figures above count only what it accounted.
    if rec["window"] == "middle" and rec.get("cpus"):
        f["unaccounted"] = round(
            max(0.0, 1 - rec["total_s"] / (secs * rec["cpus"])), 3)
    return f


def line(rec):
    """One sample's line."""
    if not rec:
        return "failed (no record)"
    f = figures(rec)
    if not f:
        return f"failed ({rec.get('error') or 'no figure'})"
    text = (f"{f['goodput_mbps']:.1f} MB/s, kernel {f['kernel_ns_per_b']:.3g} ns/B,"
            f" busy {f['busy_ns_per_b']:.3g} ns/B (CPU over the {f['window']}"
            f" {f['window_s']:g} s, {100 * f.get('busy_share', 0):.0f}% busy")
    each = [x for x in rec.get("busy_share_each") or [] if x is not None]
    if each:
        text += " (vCPUs " + ", ".join(f"{100 * x:.0f}%" for x in each) + ")"
    if f.get("unaccounted", 0) >= 0.02:
        text += f", {100 * f['unaccounted']:.0f}% unaccounted"
    text += ")"
    # Retransmissions and losses say why an MRC figure is low.
    c = rec.get("counters") or {}
    retx = sum(d.get("path_retx_pkts", 0) for d in c.values())
    lost = sum(v for d in c.values() for k, v in d.items()
               if k.startswith("path_loss_"))
    if retx or lost:
        text += f"; retransmitted {retx} packets, {lost} losses detected"
    return text


def _median(xs):
    return statistics.median(xs) if xs else None


def summarize(records):
    """Medians per metric and the ratios between them."""
    by = {}
    for r in records:
        by.setdefault(r["metric"], []).append(figures(r))
    med = {}
    for m, fs in by.items():
        ok = [f for f in fs if f]
        med[m] = {k: _median([f[k] for f in ok])
                  for k in ("goodput_mbps", "kernel_ns_per_b", "busy_ns_per_b")}
        un = [f["unaccounted"] for f in ok if "unaccounted" in f]
        med[m]["unaccounted"] = _median(un)
        med[m].update(samples=len(ok), of=len(fs),
                      windows=sorted({f["window"] for f in ok}))
    ratios = {}
    for a, b in RATIOS:
        if a not in med or b not in med:
            continue
        ratios[f"{a}/{b}"] = {
            k: (round(med[a][k] / med[b][k], 3)
                if med[a][k] is not None and med[b][k] else None)
            for k in ("goodput_mbps", "kernel_ns_per_b", "busy_ns_per_b")}

    def fmt(v, digits=1):
        return "-" if v is None else f"{v:.{digits}f}"

    table = [("data path (one VM, veth)", "MB/s", "kernel ns/B", "busy ns/B",
              "samples")]
    for m in (m for m in METRICS if m in med):
        x = med[m]
        n = f"{x['samples']}/{x['of']}"
        if x["windows"] and x["windows"] != ["middle"]:
            n += " (CPU over " + ",".join(x["windows"]) + ")"
        table.append((f"{m}: {METRICS[m]}", fmt(x["goodput_mbps"]),
                      fmt(x["kernel_ns_per_b"], 2), fmt(x["busy_ns_per_b"], 2), n))
    for name, r in ratios.items():
        table.append((f"ratio {name}", fmt(r["goodput_mbps"], 3),
                      fmt(r["kernel_ns_per_b"], 3), fmt(r["busy_ns_per_b"], 3), ""))
    widths = [max(len(row[i]) for row in table) for i in range(5)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
             for row in table]
    lines.append("(medians; goodput as the tool reports it, MB = 10^6 B; CPU time"
                 " of the whole VM\n per byte moved, read over the middle of each"
                 " transfer unless noted)")
    for m in (m for m in METRICS if m in med):
        if (med[m]["unaccounted"] or 0) >= 0.02:
            lines.append(f"{m}: /proc/stat did not account for"
                         f" {100 * med[m]['unaccounted']:.0f}% of the window's"
                         " CPU time (likely ticks a busy vCPU missed under"
                         " TCG);\n the ns/B count only what it accounted")
    return {"medians": med, "ratios": ratios}, lines


def main(argv):
    if len(argv) == 2 and argv[1] == "--line":
        try:
            rec = json.load(sys.stdin)
        except ValueError:
            rec = None
        print(line(rec))
        return 0
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    records = []
    with open(argv[1], encoding="utf-8", errors="replace") as log:
        for text in log:
            if text.startswith("@dp "):
                try:
                    records.append(json.loads(text[4:]))
                except ValueError:
                    pass
    if not records:
        print("dp: no samples recorded", file=sys.stderr)
        return 1
    section, lines = summarize(records)
    section["records"] = records
    if len(argv) == 4:
        section["host"] = argv[3]
        lines.append(f"host: {argv[3]}")
    results = {}
    if os.path.exists(argv[2]):
        with open(argv[2], encoding="utf-8") as f:
            results = json.load(f)
    results["dp"] = section
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)
    print("\n".join(lines))
    return 0 if any(figures(r) for r in records) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
