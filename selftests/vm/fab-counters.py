#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""What each spine of the SRv6 fabric (srv6_fabric.sh) sent toward each
host, from its interface counters: one line per spine,
"P S pktsA bytesA pktsB bytesB" (leafA's and leafB's transmit counters).

One process enters every spine's network namespace in turn (setns) and
reads /proc/thread-self/net/dev there: under emulation an `ip -n` per
spine costs more than half a second. With --serve it answers one request
per input line and ends each answer with a line ".", for a coprocess
(fab_counts_serve)."""

import ctypes
import os
import sys

STATE = "/run/srv6-fabric/size"
CLONE_NEWNET = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)


def enter(ns):
    fd = os.open(f"/run/netns/{ns}", os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"setns {ns}: {os.strerror(err)}")
    finally:
        os.close(fd)


def tx_counts(ns):
    """{device: (tx packets, tx bytes)} of namespace ns."""
    enter(ns)
    out = {}
    with open("/proc/thread-self/net/dev") as f:
        for line in f.readlines()[2:]:
            name, _, rest = line.partition(":")
            v = rest.split()
            out[name.strip()] = (int(v[9]), int(v[8]))
    return out


def counts():
    with open(STATE) as f:
        planes, spines = (int(x) for x in f.read().split())
    lines = []
    for p in range(planes):
        for s in range(spines):
            c = tx_counts(f"spine_{p}_{s}")
            a, b = c["leafA"], c["leafB"]
            lines.append(f"{p} {s} {a[0]} {a[1]} {b[0]} {b[1]}")
    return lines


def main():
    if sys.argv[1:] == ["--serve"]:
        for _ in sys.stdin:
            try:
                print("\n".join(counts()))
            except (OSError, KeyError, ValueError) as e:
                print(f"error {e}")
            print(".", flush=True)
        return 0
    try:
        print("\n".join(counts()))
    except (OSError, KeyError, ValueError) as e:
        print(f"fab-counters: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
