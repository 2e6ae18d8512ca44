#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Turn the benchmark client's sample lines into a table and a JSON file.

Reads lines "[K/N] METRIC IMPL rep R: VALUE UNIT" (VALUE "null" for a
failed sample) from the client log, takes per-implementation medians of
the samples that succeeded, and prints MRC/rxe and MRC/TCP ratios of
those medians, against TCP alone and against TCP beside a spinning
process ("tcp busy": perftest polls its CQ on the CPU it sends from,
iperf3 sleeps). The multipath steps' "@mp {JSON}" lines become a second
table (mp_summary.py). Exits 1 when no sample at all was measured.
"""
import argparse
import datetime
import json
import re
import statistics
import sys

import mp_summary

METRICS = [  # key, label, unit, better
    ("write_bw", "ib_write_bw 64K", "MiB/s", "higher"),
    ("send_bw", "ib_send_bw 4K", "MiB/s", "higher"),
    ("read_bw", "ib_read_bw 64K", "MiB/s", "higher"),
    ("write_lat", "ib_write_lat 8B", "usec", "lower"),
]
SAMPLE = re.compile(r"^\[(\d+)/(\d+)\] (\w+) (\w+) rep (\d+): (\S+)(?: \((.*)\))?")


def median(values):
    ok = [v for v in values if v is not None]
    return statistics.median(ok) if ok else None


def sample_stats(values):
    """The samples of one figure, their median and how many failed."""
    return {"samples": values, "median": median(values),
            "failed": sum(x is None for x in values)}


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def fmt(v, unit, samples=None):
    if v is None:
        return "-"
    digits = 0 if v >= 1000 else 1 if v >= 10 else 2
    text = f"{v:.{digits}f} {unit}".strip()
    if samples and None in samples:
        ok = sum(x is not None for x in samples)
        text += f" ({ok}/{len(samples)})"
    return text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("json")
    for opt in ("reps", "vcpus", "bw-secs", "lat-iters", "tcp-secs",
                "elapsed", "mp-paths", "mp-timeout", "mp-size", "mp-depth",
                "mp-secs"):
        ap.add_argument("--" + opt, type=int)
    ap.add_argument("--mp-loss", type=float)
    for opt in ("kernel", "commit", "qemu", "load", "others", "mp-rate"):
        ap.add_argument("--" + opt, default="")
    args = ap.parse_args()

    samples = {}  # (metric, impl) -> [value or None, ...] in run order
    order = []
    mp_records = []
    planned = 0
    with open(args.log, errors="replace") as f:
        for line in f:
            if line.startswith("@mp "):
                try:
                    mp_records.append(json.loads(line[4:]))
                except ValueError:
                    pass  # a line cut short: its sample line says null
                continue
            m = SAMPLE.match(line.strip())
            if not m:
                continue
            step, planned, metric, impl, rep, val, why = m.groups()
            planned = int(planned)
            try:
                v = float(val)
            except ValueError:
                v = None
            samples.setdefault((metric, impl), []).append(v)
            order.append({"step": int(step), "metric": metric, "impl": impl,
                          "rep": int(rep), "value": v})
            if v is None:
                order[-1]["error"] = why or "no figure"

    tcp = samples.get(("tcp", "tcp"), [])
    tcp_med = median(tcp)
    busy = samples.get(("tcp_busy", "tcp"), [])
    busy_med = median(busy)
    result = {
        "timestamp": datetime.datetime.now(datetime.timezone.utc)
        .isoformat(timespec="seconds"),
        "kernel": args.kernel,
        "git_commit": args.commit,
        "reps": args.reps,
        "setup": {
            "topology": "two qemu TCG VMs, virtio-net joined by a qemu "
                        "stream (unix) socket; mrc0 and rxe0 on eth0 in init_net of "
                        "each guest; 10.9.0.1 server, 10.9.0.2 client",
            "vcpus_per_vm": args.vcpus,
            "bw_seconds": args.bw_secs,
            "lat_iters": args.lat_iters,
            "tcp_seconds": args.tcp_secs,
            "qemu": args.qemu,
            "units": "MiB/s (2^20 bytes/s, perftest's MB/sec) and usec",
            "ratios": "of the medians; mrc and rxe alternated within "
                      "each repetition, the first one changing every time",
        },
        "tcp": {"metric": "iperf3 TCP, one stream", "unit": "MiB/s",
                **sample_stats(tcp)},
        "tcp_busy": {"metric": "iperf3 TCP, one stream, beside a process "
                               "spinning on the client's CPU as perftest "
                               "polls", "unit": "MiB/s",
                     **sample_stats(busy)},
        "metrics": {},
        "samples_in_order": order,
        "samples_planned": planned,
        "samples_measured": sum(o["value"] is not None for o in order),
        "elapsed_s": args.elapsed,
        "host_loadavg_start_end": [float(x) for x in args.load.split()],
        "other_vms_start_end": [int(x) for x in args.others.split()],
    }

    rows = []
    for key, label, unit, better in METRICS:
        mrc = samples.get((key, "mrc"), [])
        rxe = samples.get((key, "rxe"), [])
        mm, rm = median(mrc), median(rxe)
        bw = unit == "MiB/s"
        entry = {
            "label": label, "unit": unit, "better": better,
            "mrc": sample_stats(mrc),
            "rxe": sample_stats(rxe),
            "tcp_median": tcp_med if bw else None,
            "tcp_busy_median": busy_med if bw else None,
            "ratio_mrc_rxe": ratio(mm, rm),
            "ratio_mrc_tcp": ratio(mm, tcp_med) if bw else None,
            "ratio_mrc_tcp_busy": ratio(mm, busy_med) if bw else None,
        }
        result["metrics"][key] = entry
        rows.append((label, fmt(mm, unit, mrc), fmt(rm, unit, rxe),
                     fmt(tcp_med, unit, tcp) if bw else "-",
                     fmt(busy_med, unit, busy) if bw else "-",
                     fmt(entry["ratio_mrc_rxe"], ""),
                     fmt(entry["ratio_mrc_tcp"], ""),
                     fmt(entry["ratio_mrc_tcp_busy"], "")))

    mp_lines = []
    if mp_records:
        result["multipath"], mp_lines = mp_summary.summarize(mp_records, {
            "paths": args.mp_paths, "rate": args.mp_rate,
            "timeout": args.mp_timeout, "loss": args.mp_loss,
            "size": args.mp_size, "depth": args.mp_depth,
            "seconds": args.mp_secs})

    with open(args.json, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")

    if any(k[0] in dict((m[0], 1) for m in METRICS) or k[1] == "tcp"
           for k in samples):
        head = ("metric", "mrc", "rxe", "tcp", "tcp busy", "mrc/rxe",
                "mrc/tcp", "mrc/tcp busy")
        widths = [max(len(r[i].strip()) for r in rows + [head]) + 2
                  for i in range(len(head))]
        print()
        for r in [head] + rows:
            print("".join(c.strip().ljust(w)
                          for c, w in zip(r, widths)).rstrip())
        print(f"\nmedians of {args.reps} alternated repetitions (n/N: only "
              "n measured); latency: lower is better; tcp: iperf3, one "
              "stream; tcp busy: the same beside a process spinning on the "
              "client's CPU, as perftest's CQ polling does")
    for line in mp_lines:
        print(line)
    print(f"{result['samples_measured']} of {planned} samples measured "
          f"in {args.elapsed} s; results: {args.json}")
    others = result["other_vms_start_end"]
    if any(others):
        print(f"note: other VMs were running on this host ({others[0]} at "
              f"the start, {others[-1]} at the end): absolute figures are "
              "lower and ratios noisier than on an idle host")
    return 0 if result["samples_measured"] else 1


if __name__ == "__main__":
    sys.exit(main())
