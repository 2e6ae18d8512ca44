#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Flame graphs of the benchmarks' profiles, in two halves.

"fold" runs in the guest: it reads `perf script` (call graphs, leaf
frame first) and prints one line per distinct stack, "COUNT a;b;c"
with the root first, the process name as the root frame and offsets
dropped. Stacks under --min of all samples are merged into their
process's "[rest]", so the guest's console carries hundreds of lines,
not the whole profile.

"svg" runs on the host: it reads folded lines and draws the flame graph
(frame width = share of samples, callers below callees), one SVG with
each frame's name and share in its tooltip. "logs" draws one for each
profile in benchmark logs, whose guests printed the folded lines as
"@fold NAME COUNT STACK" (guest.sh's perf_stop).
"""

import argparse
import collections
import html
import os
import re
import sys
import zlib

FRAME = re.compile(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")


def frame_name(sym, dso):
    """A frame's name: the symbol without its offset, else its object;
    a kernel frame (the kernel's or a module's) ends in "_[k]"."""
    sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
    if not sym or sym == "[unknown]":
        sym = dso if dso.startswith("[") else "[" + dso.rsplit("/", 1)[-1] + "]"
    kernel = (dso.startswith("[") and dso != "[unknown]") or dso.endswith(".ko")
    return sym.replace(";", ":") + ("_[k]" if kernel else "")


def read_stacks(lines):
    """(process, [frames root first]) of each sample of `perf script`."""
    comm, frames = None, []
    for line in lines:
        if not line.strip():
            if comm is not None:
                yield comm, frames[::-1]
            comm, frames = None, []
        elif line[0] not in " \t":
            comm, frames = line.split()[0].replace(";", ":"), []
        else:
            m = FRAME.match(line)
            if m and comm is not None:
                frames.append(frame_name(m.group(1), m.group(2)))
    if comm is not None:
        yield comm, frames[::-1]


def fold(args):
    counts = collections.Counter()
    for comm, frames in read_stacks(sys.stdin):
        counts[";".join([comm] + frames)] += 1
    total = sum(counts.values())
    kept = collections.Counter()
    for stack, n in counts.items():
        if n >= args.min * total:
            kept[stack] += n
        else:
            kept[stack.split(";", 1)[0] + ";[rest]"] += n
    for stack, n in sorted(kept.items()):
        print(n, stack)
    return 0


class Node:
    def __init__(self):
        self.count = 0
        self.kids = {}


def read_folded(lines):
    """The tree of folded lines "COUNT a;b;c"; others are passed over."""
    root = Node()
    for line in lines:
        count, _, stack = line.strip().partition(" ")
        if not count.isdigit() or not stack:
            continue
        node = root
        node.count += int(count)
        for name in stack.split(";"):
            node = node.kids.setdefault(name, Node())
            node.count += int(count)
    return root


def colour(name):
    """A warm colour that is the same for the same name in every graph:
    orange for kernel frames, red to yellow for the rest."""
    h = zlib.crc32(name.encode())
    if name.endswith("_[k]"):
        return f"rgb({220 + h % 35},{120 + (h >> 8) % 50},{(h >> 16) % 40})"
    return f"rgb({205 + h % 50},{(h >> 8) % 190},{(h >> 16) % 55})"


def draw(args):
    root = read_folded(sys.stdin)
    if not root.count:
        print("flamegraph: no folded stack in the input", file=sys.stderr)
        return 1
    print(svg(root, args.title))
    return 0


def svg(root, title):
    """The flame graph of the tree ROOT, as SVG text."""
    width, row, pad = 1200, 16, 10
    rects = []

    def walk(node, name, x, depth):
        w = (width - 2 * pad) * node.count / root.count
        if depth >= 0 and w >= 0.3:
            rects.append((x, depth, w, name, node.count))
        for kid_name, kid in sorted(node.kids.items()):
            walk(kid, kid_name, x, depth + 1)
            x += (width - 2 * pad) * kid.count / root.count

    walk(root, "all", pad, -1)
    depth = max(d for _, d, _, _, _ in rects) + 1
    height = (depth + 3) * row
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
        f'height="{height}" font-family="monospace" font-size="11">',
        f'<text x="{width / 2}" y="{row}" text-anchor="middle" '
        f'font-size="14">{html.escape(title)} '
        f"({root.count} samples)</text>",
    ]
    for x, d, w, name, n in rects:
        y = height - (d + 1) * row - pad
        share = 100.0 * n / root.count
        label = name if len(name) * 7 <= w - 4 else name[: int((w - 4) / 7) - 2] + ".."
        out.append(
            f'<g><title>{html.escape(name)} ({n} samples, {share:.2f}%)</title>'
            f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row - 1}" '
            f'fill="{colour(name)}"/>'
            + (f'<text x="{x + 2:.1f}" y="{y + row - 4}">{html.escape(label)}</text>'
               if w >= 25 else "")
            + "</g>"
        )
    out.append("</svg>")
    return "\n".join(out)


def logs(args):
    """One SVG per "@fold NAME" profile of the logs, named LOG-NAME.svg."""
    made = 0
    for path in args.log:
        if not os.path.exists(path):
            continue
        folded = collections.defaultdict(list)
        with open(path, encoding="utf-8", errors="replace") as log:
            for line in log:
                if line.startswith("@fold "):
                    name, _, rest = line[len("@fold "):].partition(" ")
                    folded[name].append(rest)
        base = os.path.splitext(os.path.basename(path))[0]
        for name, lines in sorted(folded.items()):
            root = read_folded(lines)
            if not root.count:
                continue
            os.makedirs(args.outdir, exist_ok=True)
            out = os.path.join(args.outdir, f"{base}-{name}.svg")
            with open(out, "w", encoding="utf-8") as f:
                f.write(svg(root, f"{base}: {name}") + "\n")
            made += 1
    print(f"bench: {made} flame graphs in {args.outdir}" if made else
          "bench: no profile in the logs, no flame graph")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fold", help="perf script on stdin, folded stacks out")
    f.add_argument("--min", type=float, default=0.0005,
                   help="share of samples below which a stack joins [rest]")
    s = sub.add_parser("svg", help="folded stacks on stdin, SVG out")
    s.add_argument("--title", default="profile")
    g = sub.add_parser("logs", help="an SVG per profile in benchmark logs")
    g.add_argument("outdir")
    g.add_argument("log", nargs="+")
    args = p.parse_args()
    if args.cmd == "fold" and not 0 <= args.min < 1:
        p.error(f"--min must lie in [0, 1), not {args.min}")
    return {"fold": fold, "svg": draw, "logs": logs}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
