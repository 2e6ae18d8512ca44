#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The scale benchmarks' figures (scale.sh's "@scale {JSON}").

    scale_summary.py --line < RECORD       the figures of one step, a line
    scale_summary.py LOG RESULTS.json      the table (medians over the
                                           repetitions); adds the "scale"
                                           section to RESULTS.json

A record holds COUNT connections between two MRC devices in one VM, so
2 COUNT QPs: /proc/meminfo (kB) before the server started, while the
client held them all, and after the teardown; the growth of a memory
cgroup both programs ran in (bytes); mrc-qp-scale's JSON of each side;
and two idle windows, one before any QP existed and one with every QP
connected and quiet, each with the VM's busy and total jiffies, local
timer interrupts (LOC) and TIMER and HRTIMER softirqs of all CPUs.
kB are 1024 bytes, as /proc/meminfo counts them.
"""
import statistics
import sys

import bench_records

METRICS = {"scale_1k": "1k", "scale_10k": "10k"}
# (key, label, digits) of the table's rows.
ROWS = (
    ("kb_per_qp", "kernel kB per QP (SUnreclaim+VmallocUsed)", 1),
    ("sunreclaim_kb_per_qp", "  SUnreclaim kB per QP", 1),
    ("vmalloc_kb_per_qp", "  VmallocUsed kB per QP", 1),
    ("slab_kb_per_qp", "  Slab kB per QP (reclaimable too)", 1),
    ("cg_kb_per_qp", "cgroup memory.current kB per QP", 1),
    ("left_kb", "kernel kB not back after teardown", 0),
    ("per_s", "set-up, connections/s (rdma_cm)", 1),
    ("setup_s", "set-up, s", 2),
    ("teardown_s", "teardown, s", 2),
    ("busy_before", "idle, VM busy % before any QP", 2),
    ("busy_held", "idle, VM busy % all QPs connected", 2),
    ("loc_before", "timer ticks/s (LOC) before any QP", 1),
    ("loc_held", "timer ticks/s (LOC) all QPs connected", 1),
    ("timer_before", "TIMER softirqs/s before any QP", 1),
    ("timer_held", "TIMER softirqs/s all QPs connected", 1),
    ("hrtimer_before", "HRTIMER softirqs/s before any QP", 1),
    ("hrtimer_held", "HRTIMER softirqs/s all QPs connected", 1),
)


def _grow(before, after, *keys):
    """The growth of the sum of KEYS from BEFORE to AFTER (None if unknown)."""
    if not before or not after:
        return None
    try:
        return sum(after[k] for k in keys) - sum(before[k] for k in keys)
    except KeyError:
        return None


def _idle(win):
    """An idle window's busy share (%) and rates (per second)."""
    if not win or not win.get("s") or not win.get("total"):
        return {}
    return {"busy": 100 * win["busy"] / win["total"],
            "loc": win["loc"] / win["s"], "timer": win["timer"] / win["s"],
            "hrtimer": win["hrtimer"] / win["s"]}


def figures(rec):
    """One step's figures; those it could not measure are missing."""
    f = {}
    qps = 2 * rec["count"]
    mem = rec.get("meminfo_kB") or {}
    kb = _grow(mem.get("before"), mem.get("held"), "SUnreclaim", "VmallocUsed")
    if kb is not None and rec.get("held"):
        f["kb_per_qp"] = kb / qps
        f["sunreclaim_kb_per_qp"] = _grow(mem["before"], mem["held"],
                                          "SUnreclaim") / qps
        f["slab_kb_per_qp"] = _grow(mem["before"], mem["held"], "Slab") / qps
        f["vmalloc_kb_per_qp"] = _grow(mem["before"], mem["held"],
                                       "VmallocUsed") / qps
        pcpu = _grow(mem["before"], mem["held"], "Percpu")
        if pcpu is not None:
            f["percpu_kb_per_qp"] = pcpu / qps
    left = _grow(mem.get("before"), mem.get("after"), "SUnreclaim", "VmallocUsed")
    if left is not None and kb is not None:
        f["left_kb"] = left
    cg = rec.get("cgroup_B") or {}
    grow = _grow(cg.get("before"), cg.get("held"), "current")
    if grow is not None and rec.get("held"):
        f["cg_kb_per_qp"] = grow / 1024 / qps
        kern = _grow(cg["before"], cg["held"], "kernel")
        if kern is not None:
            f["cg_kernel_kb_per_qp"] = kern / 1024 / qps
    cli = rec.get("client") or {}
    for k in ("per_s", "setup_s", "teardown_s"):
        if cli.get(k) is not None:
            f[k] = cli[k]
    for when, win in (("before", rec.get("idle_before")),
                      ("held", rec.get("idle_held"))):
        for k, v in _idle(win).items():
            f[f"{k}_{when}"] = v
    return f


def reached(rec):
    """How many connections the client made."""
    cli = rec.get("client") or {}
    return cli.get("established")


def line(rec):
    """One step's line."""
    if not rec:
        return "failed (no record)"
    f = figures(rec)
    n = rec["count"]
    parts = []
    if "kb_per_qp" in f:
        text = (f"{f['kb_per_qp']:.1f} kB per QP of {2 * n} (SUnreclaim"
                f" {f['sunreclaim_kb_per_qp']:.1f}, VmallocUsed"
                f" {f['vmalloc_kb_per_qp']:.1f}, Slab {f['slab_kb_per_qp']:.1f}")
        if "cg_kb_per_qp" in f:
            text += f"; cgroup {f['cg_kb_per_qp']:.1f}"
        parts.append(text + ")")
    if "per_s" in f:
        parts.append(f"set-up {f['per_s']:.1f} conn/s ({f['setup_s']:.2f} s)")
    if "teardown_s" in f:
        parts.append(f"teardown {f['teardown_s']:.2f} s")
    if "busy_held" in f and "busy_before" in f:
        parts.append(f"idle: busy {f['busy_held']:.2f}% (before"
                     f" {f['busy_before']:.2f}%), LOC {f['loc_held']:.1f}/s"
                     f" (before {f['loc_before']:.1f}/s), TIMER softirq"
                     f" {f['timer_held']:.1f}/s (before {f['timer_before']:.1f}/s)")
    if "left_kb" in f:
        parts.append(f"{f['left_kb']:.0f} kB not back after teardown")
    text = "; ".join(parts)
    if rec.get("error"):
        got = reached(rec)
        fail = f"failed ({rec['error']})"
        if got is not None:
            fail += f", {got} of {n} connections established"
        text = fail + (f"; {text}" if text else "")
    return text or "no figure"


def _median(xs):
    return statistics.median(xs) if xs else None


def _fmt(v, digits):
    return "-" if v is None else f"{v:.{digits}f}"


def summarize(records):
    """Medians per (metric, EV count), and the table's lines."""
    by = {}
    for r in records:
        by.setdefault((r["metric"], r["evs"]), []).append(r)
    med = {}
    for (m, evs), rs in by.items():
        fs = [figures(r) for r in rs]
        x = {k: _median([f[k] for f in fs if f.get(k) is not None])
             for k, _, _ in ROWS}
        x.update(metric=m, evs=evs, count=rs[0]["count"],
                 ok=sum(not r.get("error") for r in rs), of=len(rs),
                 errors=[r["error"] for r in rs if r.get("error")],
                 reached=[reached(r) for r in rs if r.get("error")])
        med[f"{m}/ev{evs}"] = x
    keys = sorted(med, key=lambda k: (med[k]["count"], med[k]["evs"]))
    head = ["scale (one VM, 2 vCPUs)"] + [
        f"{METRICS.get(med[k]['metric'], med[k]['count'])} ev{med[k]['evs']}"
        for k in keys]
    table = [head]
    for key, label, digits in ROWS:
        table.append([label] + [_fmt(med[k][key], digits) for k in keys])
    table.append(["steps without an error"] +
                 [f"{med[k]['ok']}/{med[k]['of']}" for k in keys])
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
             for row in table]
    lines.append("(N connections = 2N QPs, both ends in one VM; memory per QP"
                 " is the growth from before\n the server started to the hold,"
                 " rdma_cm's and the CM's objects included; idle windows of"
                 "\n 5 s; ticks and softirqs of all vCPUs)")
    for k in keys:
        for err, got in zip(med[k]["errors"], med[k]["reached"]):
            lines.append(f"{k}: failed ({err})" +
                         (f", {got} of {med[k]['count']} connections"
                          " established" if got is not None else ""))
    return {"medians": med}, lines


def main(argv):
    if len(argv) == 2 and argv[1] == "--line":
        return bench_records.print_line(line)
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    records = bench_records.read(argv[1], "scale")
    if not records:
        print("scale: no steps recorded", file=sys.stderr)
        return 1
    section, lines = summarize(records)
    section["records"] = records
    bench_records.store(argv[2], "scale", section)
    print("\n".join(lines))
    return 0 if any(figures(r) for r in records) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
