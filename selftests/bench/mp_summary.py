# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The multipath part of the benchmark summary: the client's "@mp {JSON}"
records (one per mp_* step, see mp.sh) turned into figures, ratios against
their targets, a table and the "multipath" section of results.json.

The targets are benchmarks' goals, not tests: they are printed with a
"met" column and never change the exit status.
"""
import re
import statistics

import mp_figures

TARGETS = {
    "bw_of_paths": 0.85,    # mp_bw: MRC / (N * R), at least
    "gap_rtos": 3.0,        # mp_blackhole: longest gap / RTO, at most
    "after_of_paths": 0.85,  # mp_blackhole: goodput after / ((N-1) * R)
    "loss_vs_rxe": 2.0,     # mp_loss: MRC / rxe, at least
    "wire_payload": 0.90,   # mp_bw: MRC's payload / bytes on the wire
}
ETH_HDR = 14  # what a router counts per packet beyond MRC's IP bytes
# A PROBE on the wire over IPv4 (Documentation/wire-format.rst): Ethernet,
# IPv4 and UDP headers, the 24-byte BTH and the 8-byte ProbeH, no payload.
PROBE_WIRE = ETH_HDR + 20 + 8 + 24 + 8
# Counters of MRC's QP worth a line (rdma -dd res show qp, near each
# run's end); the rest go to the JSON only.
QP_KEYS = ("cwnd", "ev_count", "ev_good", "ev_assumed_bad", "ev_marked_bad",
           "ev_retransmits", "ev_recovered", "ev_readmitted")


def rate_mbit(text):
    """A tc rate ("10mbit", "500kbit", "1gbit", "2mibit") in 10^6 bit/s."""
    m = re.fullmatch(r"([0-9.]+)\s*(bit|kbit|mbit|gbit|kibit|mibit|gibit)?",
                     text.strip().lower())
    if not m:
        return None
    scale = {None: 1, "bit": 1, "kbit": 1e3, "mbit": 1e6, "gbit": 1e9,
             "kibit": 1024, "mibit": 1024 ** 2, "gibit": 1024 ** 3}
    return float(m.group(1)) * scale[m.group(2)] / 1e6


def mrc_rto_ms(t):
    """MRC's RTO floor for the QP timeout attribute t (kernel/core/mrc_rto.h):
    1.024 us * 2^t, t = 0 read as 14, t capped at 24, at least 131 us."""
    t = 14 if t == 0 else min(t, 24)
    return max(1.024e-3 * 2 ** t, 1.024e-3 * 2 ** 7)


def rxe_rto_ms(t):
    """IB's (and rxe's) local ACK timeout: 4.096 us * 2^t."""
    return 4.096e-3 * 2 ** t


def _median(values):
    ok = [v for v in values if v is not None]
    return statistics.median(ok) if ok else None


def _ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def wire_shares(w):
    """Where the bytes the routers forwarded towards the receiver came
    from, as shares of them, by the sender's per-path counters: payload
    of first transmissions, their headers, probes, retransmissions (each
    with ETH_HDR a packet), and what the counters do not explain; the
    bytes back towards the sender (acknowledgments and probe replies, all
    that flows that way in a WRITE stream) as a share too. None without
    MRC traffic."""
    if not w or not w.get("to_b") or not w.get("pkts"):
        return None
    to_b = w["to_b"]
    sent = w["sent"] + ETH_HDR * w["pkts"]
    retx = w["retx"] + ETH_HDR * w["retx_pkts"]
    probes = PROBE_WIRE * w["probes"]
    return {k: round(v / to_b, 4) for k, v in (
        ("payload", w["payload"]),
        ("headers", sent - w["payload"] - retx - probes),
        ("probes", probes), ("retransmitted", retx),
        ("unexplained", to_b - sent), ("acks_back", w["to_a"]),
        ("counted_vs_routers", sent))} | {"routers_bytes": to_b}


def _sample(rec, setup):
    """The figures of one record."""
    s = rec.get("stream")
    out = {"step": rec["step"], "rep": rec["rep"], "error": rec.get("error"),
           "path": rec.get("path"),
           "path_packets": rec.get("path_packets"),
           "path_shares": mp_figures.shares(rec.get("path_packets") or []),
           "drops": rec.get("drops"), "rto_events": rec.get("rto_events"),
           "qp": rec.get("qp"), "wire": wire_shares(rec.get("wire"))}
    if not s:
        return out
    out.update(goodput_mbit=s["goodput_mbit"], max_gap_ms=s["max_gap_ms"],
               max_gap_end_s=s["max_gap_end_s"], seconds=s["seconds"])
    if rec.get("event_realtime") is not None:
        at = mp_figures.event_offset(s, rec["event_realtime"])
        out["event_s"] = round(at, 3)
        out["gap_end_after_event_s"] = round(s["max_gap_end_s"] - at, 3)
        out["gap_after_event_ms"] = mp_figures.gap_after(s, at)
        after = mp_figures.after_event(s, at)
        # From 1 s into the run up to the failure.
        before = mp_figures.after_event(dict(s, duration_s=at), 0.0)
        out["goodput_after_mbit"] = None if after is None else round(after, 3)
        out["goodput_before_mbit"] = (None if before is None
                                      else round(before, 3))
    return out


def summarize(records, setup):
    """(results dict, printable lines) for the mp records of a run."""
    n, r = setup["paths"], rate_mbit(setup["rate"])
    t = setup["timeout"]
    rto = mrc_rto_ms(t)
    by = {}
    for rec in records:
        by.setdefault((rec["metric"], rec["impl"]), []).append(
            _sample(rec, setup))

    def med(metric, impl, key):
        return _median([x.get(key) for x in by.get((metric, impl), [])])

    def failed(metric, impl):
        return sum(x.get("goodput_mbit") is None
                   for x in by.get((metric, impl), []))

    f = {}
    f["cpu_mrc"], f["cpu_rxe"] = med("mp_cpu", "mrc", "goodput_mbit"), \
        med("mp_cpu", "rxe", "goodput_mbit")
    f["bw_mrc"], f["bw_rxe"] = med("mp_bw", "mrc", "goodput_mbit"), \
        med("mp_bw", "rxe", "goodput_mbit")
    f["bw_mrc_gap_ms"] = med("mp_bw", "mrc", "max_gap_ms")
    f["bw_of_paths"] = _ratio(f["bw_mrc"], n * r if r else None)
    f["bw_vs_rxe"] = _ratio(f["bw_mrc"], f["bw_rxe"])
    # The stall the failure caused; the run's longest gap where an older
    # mrc-stream kept no per-bin gaps.
    f["bh_gap_ms"] = med("mp_blackhole", "mrc", "gap_after_event_ms") or \
        med("mp_blackhole", "mrc", "max_gap_ms")
    f["gap_rtos"] = _ratio(f["bh_gap_ms"], rto)
    f["bh_after_mbit"] = med("mp_blackhole", "mrc", "goodput_after_mbit")
    f["bh_before_mbit"] = med("mp_blackhole", "mrc", "goodput_before_mbit")
    f["after_of_paths"] = _ratio(f["bh_after_mbit"],
                                 (n - 1) * r if r and n > 1 else None)
    f["loss_mrc"], f["loss_rxe"] = med("mp_loss", "mrc", "goodput_mbit"), \
        med("mp_loss", "rxe", "goodput_mbit")
    f["loss_vs_rxe"] = _ratio(f["loss_mrc"], f["loss_rxe"])
    wires = [x["wire"] for x in by.get(("mp_bw", "mrc"), []) if x.get("wire")]
    for k in ("payload", "headers", "probes", "retransmitted", "unexplained",
              "acks_back", "counted_vs_routers"):
        f["wire_" + k] = _median([w[k] for w in wires])

    f = {k: round(v, 3) if isinstance(v, float) else v for k, v in f.items()}
    met = {}
    for key, goal in TARGETS.items():
        v = f.get(key)
        if v is None:
            met[key] = None
        elif key == "gap_rtos":
            met[key] = v <= goal
        else:
            met[key] = v >= goal

    result = {
        "setup": dict(setup, rate_mbit=r,
                      rto_ms={"mrc": round(rto, 3),
                              "rxe": round(rxe_rto_ms(t), 3)},
                      rto_encoding="MRC: 1.024 us * 2^t (t = 0: 14, t <= 24; "
                      "the floor of the RTT estimate, itself at least 4 ms); "
                      "rxe/IB: 4.096 us * 2^t",
                      after_window="whole 100 ms bins from the failure + "
                      f"{mp_figures.SETTLE_S:g} s to the end of posting",
                      goodput="RDMA WRITE payload completed, 10^6 bit/s; "
                      "medians of the repetitions"),
        "figures": f,
        "targets": TARGETS,
        "met": met,
        "samples": {f"{m}/{i}": v for (m, i), v in sorted(by.items())},
    }
    return result, _lines(result, by, failed)


def _fmt(v, unit=""):
    if v is None:
        return "-"
    digits = 0 if abs(v) >= 1000 else 1 if abs(v) >= 10 else 2
    return f"{v:.{digits}f}{unit}"


def _met(v):
    return "-" if v is None else "yes" if v else "NO"


def _path(by, metric):
    """The path a metric acted on (the same in every repetition)."""
    for x in by.get((metric, "mrc"), []) + by.get((metric, "rxe"), []):
        if x.get("path") is not None:
            return x["path"]
    return "?"


def _lines(res, by, failed):
    s, f, met = res["setup"], res["figures"], res["met"]
    n, r = s["paths"], s["rate_mbit"]
    rto = s["rto_ms"]["mrc"]

    def cell(metric, impl, key, unit):
        v = f[key]
        text = _fmt(v, unit)
        bad = failed(metric, impl)
        if bad and (metric, impl) in by:
            text += f" ({len(by[(metric, impl)]) - bad}/{len(by[(metric, impl)])})"
        return text

    ran = {m for m, _ in by}
    rows = [("multipath", "mrc", "rxe", "figure", "value", "target", "met")]
    if "mp_cpu" in ran:
        rows.append(("unshaped paths",
                     cell("mp_cpu", "mrc", "cpu_mrc", " Mbit/s"),
                     cell("mp_cpu", "rxe", "cpu_rxe", " Mbit/s"),
                     "", "", "", ""))
    if "mp_bw" in ran:
        rows += [
            ("all paths", cell("mp_bw", "mrc", "bw_mrc", " Mbit/s"),
             cell("mp_bw", "rxe", "bw_rxe", " Mbit/s"), "mrc/(N*R)",
             _fmt(f["bw_of_paths"]), f">= {TARGETS['bw_of_paths']}",
             _met(met["bw_of_paths"])),
            ("", "", "", "mrc/rxe", _fmt(f["bw_vs_rxe"]), "", ""),
            ("  wire bytes", "", "", "payload/wire", _fmt(f["wire_payload"]),
             f">= {TARGETS['wire_payload']}", _met(met["wire_payload"]))]
    if "mp_blackhole" in ran:
        rows += [
            (f"path {_path(by, 'mp_blackhole')} down: gap",
             cell("mp_blackhole", "mrc", "bh_gap_ms", " ms"), "-",
             "gap/RTO", _fmt(f["gap_rtos"]), f"<= {TARGETS['gap_rtos']:g}",
             _met(met["gap_rtos"])),
            ("  goodput after", _fmt(f["bh_after_mbit"], " Mbit/s"), "-",
             "after/((N-1)*R)", _fmt(f["after_of_paths"]),
             f">= {TARGETS['after_of_paths']}", _met(met["after_of_paths"]))]
    if "mp_loss" in ran:
        rows.append(
            (f"{s['loss']:g}% loss on path {_path(by, 'mp_loss')}",
             cell("mp_loss", "mrc", "loss_mrc", " Mbit/s"),
             cell("mp_loss", "rxe", "loss_rxe", " Mbit/s"), "mrc/rxe",
             _fmt(f["loss_vs_rxe"]), f">= {TARGETS['loss_vs_rxe']:g}",
             _met(met["loss_vs_rxe"])))
    widths = [max(len(row[i]) for row in rows) + 2 for i in range(len(rows[0]))]
    out = [""]
    out += ["".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
            for row in rows]
    out.append(
        f"\nN = {n} paths of R = {s['rate']} ({_fmt(r)} Mbit/s) each, tbf "
        f"shaped both ways; N*R = {_fmt(n * r if r else None)} Mbit/s; one RC "
        f"QP streaming {s['size']}-byte RDMA WRITEs, {s['depth']} outstanding; "
        "goodput = payload completed, medians of the repetitions.")
    out.append(
        f"RTO: QP timeout t = {s['timeout']}; MRC reads it as 1.024 us * 2^t "
        f"= {rto:g} ms (the floor of its RTT estimate), rxe as "
        f"4.096 us * 2^t = {s['rto_ms']['rxe']:g} ms. The gap "
        "target is 3 x the MRC figure.")
    if f["bw_mrc_gap_ms"] is not None:
        out.append(f"longest gap with all paths up (mp_bw, mrc): "
                   f"{_fmt(f['bw_mrc_gap_ms'])} ms; goodput before the "
                   f"failure in mp_blackhole: {_fmt(f['bh_before_mbit'])} "
                   "Mbit/s")
    ends = [x["gap_end_after_event_s"] for x in by.get(("mp_blackhole", "mrc"), [])
            if x.get("gap_end_after_event_s") is not None]
    if ends:
        out.append("mp_blackhole: the longest gap ended "
                   + ", ".join(f"{e:+.2f} s" for e in ends)
                   + " from the failure")
    for key, label in ((("mp_bw", "mrc"), "mrc, all paths"),
                       (("mp_bw", "rxe"), "rxe, all paths"),
                       (("mp_blackhole", "mrc"), "mrc, one path down"),
                       (("mp_loss", "rxe"), "rxe, lossy path")):
        sh = [x["path_shares"] for x in by.get(key, []) if x["path_shares"]]
        if sh:
            out.append(f"packets per router ({label}, rep 1): "
                       + " ".join(f"r{i + 1} {v:.0%}"
                                  for i, v in enumerate(sh[0])))
    if f.get("wire_payload") is not None:
        out.append(
            "wire bytes towards the receiver (mp_bw, mrc, medians; routers' "
            "bytes = 1): payload "
            f"{f['wire_payload']:.3f}, headers {f['wire_headers']:.3f}, "
            f"probes {f['wire_probes']:.4f}, retransmitted "
            f"{f['wire_retransmitted']:.3f}, not in MRC's counters "
            f"{f['wire_unexplained']:+.3f}; acknowledgments back "
            f"{f['wire_acks_back']:.3f}. MRC's count / routers' "
            f"{f['wire_counted_vs_routers']:.3f}")
    for metric in ("mp_cpu", "mp_bw", "mp_blackhole", "mp_loss"):
        for impl in ("mrc", "rxe"):
            xs = [x for x in by.get((metric, impl), []) if x.get("drops")]
            if not xs:
                continue
            d = {k: sum(x["drops"][k] for x in xs) for k in xs[0]["drops"]}
            text = (f"{metric} {impl}, {len(xs)} run(s): dropped: tbf "
                    f"{d['tbf_to_b']} towards hostB, {d['tbf_to_a']} towards "
                    f"hostA (netem's {d['netem']} included), softnet "
                    f"{d['softnet']}, links {d['links']}")
            rtos = [x["rto_events"] for x in xs
                    if x.get("rto_events") is not None]
            if rtos:
                text += f"; MRC RTOs {'/'.join(map(str, rtos))}"
            out.append(text)
            qps = [x["qp"] for x in xs if x.get("qp")]
            if qps:
                out.append("  QP near the end (rep 1): " + ", ".join(
                    f"{k} {qps[0][k]}" for k in QP_KEYS if k in qps[0]))
    for (metric, impl), xs in sorted(by.items()):
        for x in xs:
            if x.get("goodput_mbit") is None:
                out.append(f"failed: {metric} {impl} rep {x['rep']}: "
                           f"{x.get('error') or 'no result'}")
    out.append("targets are goals of the benchmark, not tests: a NO does not "
               "fail the run")
    return out
