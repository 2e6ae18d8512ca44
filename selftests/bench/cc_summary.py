#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The congestion control benchmarks' figures (cc.sh's "@cc {JSON}").

    cc_summary.py --line < RECORD        the figures of one step, a line
    cc_summary.py LOG RESULTS.json       the table, mrc-window beside NSCC;
                                         adds the "cc" section to RESULTS.json

Targets (issue 35) are benchmarks' goals, not tests: printed with a "met"
column, they never change the exit status.
"""
import statistics
import sys

import bench_records
import mp_summary

TARGETS = {
    "loss1_of_clean": (">=", 0.8),   # goodput at 1% loss / without loss
    "loss2_of_clean": (">=", 0.8),
    "jain": (">=", 0.95),            # fairness of 2 and 4 streams
    "tcp_share_min": (">=", 0.3),    # the smaller of MRC's and TCP's shares
    "incast_slowest": ("<=", 1.5),   # slowest completion / the ideal
    "incast_busy": (">=", 0.9),      # bottleneck use under 8 streams
    # Through trimming queues no loss waits for the timer: a timeout
    # that fired for a packet the ACK then showed delivered (Eifel) is
    # not needed (multipath.rst, "Timeouts a trimming fabric needs").
    "incast_needed_rtos": ("<=", 0),
}
# The share with TCP is judged where datacenters run TCP beside an ECN
# transport: DCTCP on one marking FIFO (multipath.rst, "Sharing with
# TCP"); the other queues and cubic are reported, not judged.
TCP_SHARE_JUDGED = ("red", "dctcp")
# mrc-window, NSCC with its defaults, NSCC set for the link (cc.sh).
CCS = ("window", "nscc", "nscc-link")
NSCCS = {"nscc": "NSCC (defaults)", "nscc-link": "NSCC (set for the link)"}


def jain(xs):
    """Jain's index of @xs; None without a positive sum."""
    s = sum(xs)
    q = sum(x * x for x in xs)
    return s * s / (len(xs) * q) if xs and q > 0 else None


def windows(results, width_s=1.0, skip_s=1.0):
    """Each stream's goodput in common 1 s windows.

    mrc-stream bins its own completions from its own start: the bins are
    placed on the clock by start_realtime and summed into windows that
    start skip_s after the last stream started. Only windows all streams
    cover fully count.
    """
    starts = [r["start_realtime"] for r in results]
    t0 = max(starts) + skip_s
    per = []
    for r in results:
        bins = r.get("bins_mbit") or []
        if not bins:
            return []
        w = {}
        bin_s = 0.1
        for i, mbit in enumerate(bins):
            t = r["start_realtime"] + i * bin_s
            if t < t0:
                continue
            w.setdefault(int((t - t0) / width_s), []).append(mbit)
        per.append(w)
    full = int(width_s / 0.1 + 0.5)
    keys = set.intersection(*[{k for k, v in w.items() if len(v) == full}
                              for w in per]) if per else set()
    return [[statistics.mean(w[k]) for w in per] for k in sorted(keys)]


def _per_mb(rec, mb, f):
    """RTOs per MB in @f: all that fired, and those a loss needed."""
    f["rtos_per_mb"] = round(rec["rto_events"] / mb, 3)
    if rec.get("rto_spurious") is not None:
        needed = max(rec["rto_events"] - rec["rto_spurious"], 0)
        f["needed_rtos_per_mb"] = round(needed / mb, 3)


def figures(rec):
    """One step's figures; {} when it gave none."""
    m = rec["metric"]
    f = {"rtos": rec.get("rto_events"), "spurious": rec.get("rto_spurious")}
    rate = mp_summary.rate_mbit(rec["rate"])
    if m == "cc_loss":
        if rec.get("goodput_mbit") is None:
            return {}
        f.update(goodput_mbit=round(rec["goodput_mbit"], 3), loss=rec["loss"],
                 op=rec["op"])
        # ib_read_bw reports a rate, not bytes: its MB from the rate.
        mb = (rec["bytes"] / 1e6 if rec.get("bytes")
              else rec["goodput_mbit"] * rec["secs"] / 8)
        if mb:
            _per_mb(rec, mb, f)
    elif m == "cc_incast":
        _incast(rec, rate, f)
    elif m == "cc_fair":
        res = rec.get("results")
        if not res:
            return {}
        total = sum(r["goodput_mbit"] for r in res)
        f["total_mbit"] = round(total, 3)
        mb = sum(r["bytes"] for r in res) / 1e6
        if mb:
            _per_mb(rec, mb, f)
        js = [jain(w) for w in windows(res)]
        js = [j for j in js if j is not None]
        f["jain_min"] = round(min(js), 3) if js else None
        f["jain_median"] = round(statistics.median(js), 3) if js else None
    elif m == "cc_tcp":
        if rec.get("tcp_mbit") is None or rec.get("mrc_mbit") is None:
            return {}
        s = rec["tcp_mbit"] + rec["mrc_mbit"]
        f.update(mrc_share=round(rec["mrc_mbit"] / s, 3) if s else None,
                 tcp_share=round(rec["tcp_mbit"] / s, 3) if s else None)
    return f


def _incast(rec, rate, f):
    """The incast's figures in @f: each sender's one message, or TCP's
    flows (the anchor: how busy kernel TCP keeps the same bottleneck)."""
    if rec["cc"] == "tcp":
        wire = rec.get("wire_bps")
        f["busy"] = (round(wire / 1e6 / rate, 3)
                     if wire is not None and rate else None)
        return
    res = rec.get("results")
    if not res or not rate or "message_bytes" not in rec:
        return  # none, or from before messages (streams' goodputs)
    # From the first start to the last completion; the ideal is every
    # byte at the bottleneck's rate, headers not counted.
    t0 = min(r["start_realtime"] for r in res)
    ends = [r["start_realtime"] + r["seconds"] for r in res]
    total = sum(r["bytes"] for r in res)
    ideal = total * 8 / (rate * 1e6)
    span = max(ends) - t0
    _per_mb(rec, total / 1e6, f)
    f["slowest_vs_ideal"] = round(span / ideal, 3) if ideal else None
    f["fastest_vs_ideal"] = round((min(ends) - t0) / ideal, 3) if ideal else None
    # Busy: what the bottleneck sent (headers included) over that span,
    # against its rate.
    wire = rec.get("wire_bytes")
    f["busy"] = (round(wire * 8 / (rate * 1e6 * span), 3)
                 if wire is not None and span > 0 else None)


def line(rec):
    """One step's line."""
    f = figures(rec) if rec else {}
    if not f:
        return "null (no result)"
    text = ", ".join(f"{k} {v}" for k, v in f.items() if v is not None)
    # Which detector found the losses (both hosts' device counters).
    lost = rec.get("losses") or {}
    if any(lost.values()):
        text += "; losses " + " ".join(
            f"{k.removeprefix('path_loss_')} {v}" for k, v in lost.items())
    return text


def _median(xs):
    ok = [x for x in xs if x is not None]
    return round(statistics.median(ok), 3) if ok else None


def summarize(records):
    """Medians per (figure, CC), mrc-window beside NSCC."""
    by = {}
    for r in records:
        f = figures(r)
        if not f:
            continue
        key = r["metric"], r["cc"], r.get("queue", "-")
        if r["metric"] == "cc_loss":
            key = r["metric"], r["cc"], f["op"], f["loss"]
        elif r["metric"] == "cc_fair":
            key += (r["streams"],)
        elif r["metric"] == "cc_tcp":
            key += (r.get("tcp_cc", "cubic"),)
        by.setdefault(key, []).append(f)

    def med(key, name):
        return _median([f.get(name) for f in by.get(key, [])])

    present = {k[1] for k in by}
    ccs = tuple(cc for cc in CCS if cc in present)
    rows, fig = [], {}
    for cc in ccs + ("tcp",):
        for op in ("write", "read", "tcp"):
            clean = med(("cc_loss", cc, op, 0), "goodput_mbit")
            if clean is None:
                continue
            for loss in (1, 2):
                g = med(("cc_loss", cc, op, loss), "goodput_mbit")
                ratio = round(g / clean, 3) if g is not None and clean else None
                fig[f"loss{loss}_{op}_{cc}"] = ratio
                rows.append((f"{op} at {loss}% loss / none", cc, ratio,
                             f"loss{loss}_of_clean"))
            if cc != "tcp":
                rows.append((f"  {op} RTOs per MB at 2%", cc,
                             med(("cc_loss", cc, op, 2), "rtos_per_mb"), None))
    queues = sorted({k[2] for k in by if k[0] != "cc_loss"})
    for q in queues:
        for n in (2, 4):
            for cc in ccs:
                if ("cc_fair", cc, q, n) not in by:
                    continue
                v = med(("cc_fair", cc, q, n), "jain_min")
                fig[f"jain{n}_{q}_{cc}"] = v
                rows.append((f"{q}: Jain of {n} streams (min 1 s window)",
                             cc, v, "jain"))
        tcps = sorted({k[3] for k in by if k[0] == "cc_tcp" and k[2] == q})
        for tcp in tcps:
            for cc in ccs:
                v = _median([min(f["mrc_share"], f["tcp_share"])
                             for f in by.get(("cc_tcp", cc, q, tcp), [])
                             if f.get("mrc_share") is not None])
                fig[f"tcp_share_{q}_{tcp}_{cc}"] = v
                judged = (q, tcp) == TCP_SHARE_JUDGED
                rows.append((f"{q}: smaller share, MRC beside TCP {tcp}",
                             cc, v, "tcp_share_min" if judged else None))
        for cc in ccs + ("tcp",):
            key = ("cc_incast", cc, q)
            if key not in by:
                continue
            for name, target in (("slowest_vs_ideal", "incast_slowest"),
                                 ("fastest_vs_ideal", None),
                                 ("busy", "incast_busy"),
                                 ("rtos_per_mb", None),
                                 ("needed_rtos_per_mb",
                                  "incast_needed_rtos" if q == "trim"
                                  else None)):
                v = med(key, name)
                if v is None and cc == "tcp":
                    continue
                fig[f"incast_{name}_{q}_{cc}"] = v
                rows.append((f"{q}: 8:1 incast {name}", cc, v, target))
            # The emulated link's own ceiling: TCP's use beside MRC's.
            tcp = med(("cc_incast", "tcp", q), "busy")
            busy = fig.get(f"incast_busy_{q}_{cc}")
            if cc != "tcp" and tcp and busy is not None:
                v = round(busy / tcp, 3)
                fig[f"incast_busy_vs_tcp_{q}_{cc}"] = v
                rows.append((f"{q}: 8:1 incast busy / TCP's", cc, v, None))

    def met(v, t):
        if t is None or v is None:
            return "-"
        op, bound = TARGETS[t]
        return "yes" if (v >= bound if op == ">=" else v <= bound) else "no"

    head = ("congestion control (one VM)", "cc", "median", "target", "met")
    table = [head] + [(what, cc, "-" if v is None else f"{v:g}",
                       "" if t is None else " ".join(map(str, TARGETS[t])),
                       met(v, t)) for what, cc, v, t in rows]
    widths = [max(len(str(r[i])) for r in table) for i in range(5)]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()
             for r in table]
    behind = {}
    for nscc, name in NSCCS.items():
        if nscc not in ccs:
            continue
        behind[nscc] = sorted({what.strip() for what, cc, v, t in rows
                               if cc == nscc and _behind(fig, what, v, rows)})
        lines.append(f"{name} behind mrc-window on: "
                     + (", ".join(behind[nscc]) or "nothing"))
    return {"figures": fig, "targets": TARGETS, "nscc_behind": behind,
            "samples": {" ".join(map(str, k)): v for k, v in by.items()}}, lines


def _behind(fig, what, v, rows):
    """Whether NSCC's @v is worse than mrc-window's on the row @what."""
    w = next((x[2] for x in rows if x[0] == what and x[1] == "window"), None)
    if v is None or w is None or "fastest" in what:
        return False  # an early first completion is neither better nor worse
    lower_better = "slowest" in what or "RTOs" in what or "rtos" in what
    return v > w if lower_better else v < w


def main(argv):
    if len(argv) == 2 and argv[1] == "--line":
        return bench_records.print_line(line)
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    records = bench_records.read(argv[1], "cc")
    if not records:
        print("cc: no steps recorded", file=sys.stderr)
        return 1
    section, lines = summarize(records)
    section["records"] = records
    bench_records.store(argv[2], "cc", section)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
