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
times window_s. MB are 10^6 bytes (perftest's MiB/s converted). A
latency record (the dp_lat_* metrics) holds perftest's figures in usec
instead: lat_typical_us (its t_typical, the median) and lat_99_us (its
99% percentile), which get a table of their own.
"""
import statistics
import sys

import bench_records

METRICS = {
    "dp_tcp": "TCP (iperf3, 1 stream)",
    "dp_tcp4": "TCP (iperf3, 4 streams)",
    "dp_write": "MRC WRITE (1 QP, 64 KiB)",
    "dp_write4": "MRC WRITE (4 QPs, 64 KiB)",
    "dp_write_copy": "MRC WRITE (1 QP, payload copied)",
    "dp_write_e": "MRC WRITE (mrc-stream, CQ events)",
    "dp_rxe": "rxe WRITE (1 QP, 64 KiB)",
}
# (numerator, denominator) of each ratio row.
RATIOS = (("dp_write", "dp_tcp"), ("dp_write4", "dp_tcp"),
          ("dp_write4", "dp_write"), ("dp_write", "dp_rxe"),
          ("dp_write_e", "dp_write"), ("dp_write", "dp_write_copy"),
          ("dp_tcp4", "dp_tcp"))
LAT_METRICS = {
    "dp_lat_write": "MRC ib_write_lat, 2 B",
    "dp_lat_send": "MRC ib_send_lat, 2 B",
    "dp_lat_write_rxe": "rxe ib_write_lat, 2 B",
}
LAT_RATIOS = (("dp_lat_write", "dp_lat_write_rxe"),)
LAT_KEYS = ("lat_typical_us", "lat_99_us")
BW_KEYS = ("goodput_mbps", "kernel_ns_per_b", "busy_ns_per_b")


def is_lat(rec):
    """Whether REC is a latency sample."""
    return rec.get("metric") in LAT_METRICS


def lat_figures(rec):
    """One latency sample's figures; {} when it gave none."""
    if not rec.get("lat_typical_us"):
        return {}
    return {k: rec.get(k) for k in LAT_KEYS}


def figures(rec):
    """One sample's figures; {} when it gave none."""
    if is_lat(rec):
        return lat_figures(rec)
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
    if is_lat(rec):
        text = f"typical {f['lat_typical_us']:g} usec"
        if f["lat_99_us"] is not None:
            text += f", 99% {f['lat_99_us']:g} usec"
        text += f" ({rec.get('iters')} exchanges of {rec.get('size')} B)"
        return text + counted(rec)
    text = (f"{f['goodput_mbps']:.1f} MB/s, kernel {f['kernel_ns_per_b']:.3g} ns/B,"
            f" busy {f['busy_ns_per_b']:.3g} ns/B (CPU over the {f['window']}"
            f" {f['window_s']:g} s, {100 * f.get('busy_share', 0):.0f}% busy")
    each = [x for x in rec.get("busy_share_each") or [] if x is not None]
    if each:
        text += " (vCPUs " + ", ".join(f"{100 * x:.0f}%" for x in each) + ")"
    if f.get("unaccounted", 0) >= 0.02:
        text += f", {100 * f['unaccounted']:.0f}% unaccounted"
    text += ")"
    return text + counted(rec)


def counted(rec):
    """Retransmissions and losses, which say why an MRC figure is low."""
    c = rec.get("counters") or {}
    retx = sum(d.get("path_retx_pkts", 0) for d in c.values())
    lost = sum(v for d in c.values() for k, v in d.items()
               if k.startswith("path_loss_"))
    if retx or lost:
        return f"; retransmitted {retx} packets, {lost} losses detected"
    return ""


def _median(xs):
    return statistics.median(xs) if xs else None


def _ratios(med, pairs, keys):
    """The ratios of the medians of each (numerator, denominator) pair."""
    ratios = {}
    for a, b in pairs:
        if a not in med or b not in med:
            continue
        ratios[f"{a}/{b}"] = {
            k: (round(med[a][k] / med[b][k], 3)
                if med[a][k] is not None and med[b][k] else None)
            for k in keys}
    return ratios


def _table(rows):
    """ROWS as lines of left-aligned columns."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
            for row in rows]


def _fmt(v, digits=1):
    return "-" if v is None else f"{v:.{digits}f}"


def summarize(records):
    """Medians per metric and the ratios between them."""
    by = {}
    for r in records:
        by.setdefault(r["metric"], []).append(figures(r))
    med = {}
    for m, fs in by.items():
        ok = [f for f in fs if f]
        keys = LAT_KEYS if m in LAT_METRICS else BW_KEYS
        med[m] = {k: _median([f[k] for f in ok if f.get(k) is not None])
                  for k in keys}
        med[m].update(samples=len(ok), of=len(fs))
        if m not in LAT_METRICS:
            un = [f["unaccounted"] for f in ok if "unaccounted" in f]
            med[m]["unaccounted"] = _median(un)
            med[m]["windows"] = sorted({f["window"] for f in ok})
    ratios = _ratios(med, RATIOS, BW_KEYS)
    lat_ratios = _ratios(med, LAT_RATIOS, LAT_KEYS)

    lines = []
    bw = [m for m in METRICS if m in med]
    if bw:
        table = [("data path (one VM, veth)", "MB/s", "kernel ns/B",
                  "busy ns/B", "samples")]
        for m in bw:
            x = med[m]
            n = f"{x['samples']}/{x['of']}"
            if x["windows"] and x["windows"] != ["middle"]:
                n += " (CPU over " + ",".join(x["windows"]) + ")"
            table.append((f"{m}: {METRICS[m]}", _fmt(x["goodput_mbps"]),
                          _fmt(x["kernel_ns_per_b"], 2),
                          _fmt(x["busy_ns_per_b"], 2), n))
        for name, r in ratios.items():
            table.append((f"ratio {name}", _fmt(r["goodput_mbps"], 3),
                          _fmt(r["kernel_ns_per_b"], 3),
                          _fmt(r["busy_ns_per_b"], 3), ""))
        lines += _table(table)
        lines.append("(medians; goodput as the tool reports it, MB = 10^6 B; CPU"
                     " time of the whole VM\n per byte moved, read over the"
                     " middle of each transfer unless noted)")
        for m in bw:
            if (med[m]["unaccounted"] or 0) >= 0.02:
                lines.append(f"{m}: /proc/stat did not account for"
                             f" {100 * med[m]['unaccounted']:.0f}% of the"
                             " window's CPU time (likely ticks a busy vCPU"
                             " missed under TCG);\n the ns/B count only what"
                             " it accounted")
    lat = [m for m in LAT_METRICS if m in med]
    if lat:
        if lines:
            lines.append("")
        table = [("latency (one VM, veth)", "usec typical", "usec 99%",
                  "samples")]
        for m in lat:
            x = med[m]
            table.append((f"{m}: {LAT_METRICS[m]}",
                          _fmt(x["lat_typical_us"], 2),
                          _fmt(x["lat_99_us"], 2), f"{x['samples']}/{x['of']}"))
        for name, r in lat_ratios.items():
            table.append((f"ratio {name}", _fmt(r["lat_typical_us"], 3),
                          _fmt(r["lat_99_us"], 3), ""))
        lines += _table(table)
        lines.append("(medians of perftest's t_typical, its median exchange,"
                     " and of its 99% percentile;\n half a round trip, as"
                     " perftest reports it)")
    ratios.update(lat_ratios)
    return {"medians": med, "ratios": ratios}, lines


def main(argv):
    if len(argv) == 2 and argv[1] == "--line":
        return bench_records.print_line(line)
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    records = bench_records.read(argv[1], "dp")
    if not records:
        print("dp: no samples recorded", file=sys.stderr)
        return 1
    section, lines = summarize(records)
    section["records"] = records
    if len(argv) == 4:
        section["host"] = argv[3]
        lines.append(f"host: {argv[3]}")
    bench_records.store(argv[2], "dp", section)
    print("\n".join(lines))
    return 0 if any(figures(r) for r in records) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
