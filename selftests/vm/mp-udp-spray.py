#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Spray UDP datagrams over many source ports, and count them at the far end.

  mp-udp-spray.py send DST DPORT --src ADDR --sports FIRST:COUNT
                  [--count K] [--size BYTES] [--pps RATE]
  mp-udp-spray.py recv PORT [--expect N] [--idle S] [--timeout S]
                  [--ready FILE] [--per-port]

send opens one connected socket per source port (bound to ADDR:port, so
the route lookup, and with it the ECMP hash, sees both ports) and sends
K datagrams from each, round robin over the ports, at most RATE a second
if given. Each datagram carries a global sequence number. It prints sent,
errors, secs and rate_bps (payload bits per second). Send errors (an ICMP unreachable from a path
that is down comes back on a connected socket) are counted, not fatal.

recv listens on PORT (IPv4 and IPv6) until it has N datagrams, or nothing
came for S seconds after the first, or the timeout. It prints

  total N          datagrams received (duplicates included)
  reordered N      datagrams with a sequence number below one seen before
  bytes N          payload bytes
  secs X           first to last datagram, as the kernel timed their arrival
  rate_bps N       payload bits per second over that time
  sport P N        (with --per-port) datagrams from each source port
"""

import argparse
import resource
import select
import socket
import struct
import sys
import time

MAGIC = b"MPSP"
HDR = struct.Struct("!4sI")
# Linux values, where this Python does not name them.
SO_RCVBUFFORCE = getattr(socket, "SO_RCVBUFFORCE", 33)
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
TIMESPEC = struct.Struct("@qq")


def arrival(ancdata):
    """The kernel's receive time of a datagram, or now if it gave none."""
    for level, kind, data in ancdata:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and \
                len(data) >= TIMESPEC.size:
            sec, nsec = TIMESPEC.unpack_from(data)
            return sec + nsec / 1e9
    return time.time()


def port_range(text):
    first, _, count = text.partition(":")
    first, count = int(first), int(count or 1)
    if not (1 <= first and count >= 1 and first + count - 1 <= 65535):
        raise argparse.ArgumentTypeError(f"bad port range {text!r}")
    return range(first, first + count)


def family_of(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def raise_fd_limit(need):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        want = need if hard == resource.RLIM_INFINITY else min(need, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def send(args):
    fam = family_of(args.dst)
    raise_fd_limit(len(args.sports) + 64)
    socks = []
    for port in args.sports:
        s = socket.socket(fam, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((args.src, port))
        s.connect((args.dst, args.dport))
        socks.append(s)
    pad = b"\0" * max(0, args.size - HDR.size)
    seq = sent = errors = 0
    start = time.monotonic()
    for _ in range(args.count):
        for s in socks:
            if args.pps:
                ahead = start + seq / args.pps - time.monotonic()
                if ahead > 0.001:
                    time.sleep(ahead)
            try:
                s.send(HDR.pack(MAGIC, seq) + pad)
                sent += 1
            except OSError:
                errors += 1
            seq += 1
    secs = time.monotonic() - start
    for s in socks:
        s.close()
    print(f"sent {sent}")
    print(f"errors {errors}")
    print(f"secs {secs:.6f}")
    print(f"rate_bps {int(sent * args.size * 8 / secs) if secs > 0 else 0}")
    return 0


def recv(args):
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
    try:  # past net.core.rmem_max: as root (the tests) it can
        s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
    except OSError:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    # Arrival times from the kernel: a receiver that falls behind and
    # then drains its buffer must not make the path look faster.
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.bind(("::", args.port))
    if args.ready:
        with open(args.ready, "w", encoding="ascii") as f:
            f.write("ready\n")
    total = reordered = nbytes = nbytes_after = 0
    highest = -1
    per_port = {}
    first = last = first_ts = last_ts = None
    deadline = time.monotonic() + args.timeout
    while args.expect == 0 or total < args.expect:
        now = time.monotonic()
        wait = deadline - now
        if last is not None:
            wait = min(wait, last + args.idle - now)
        if wait <= 0 or not select.select([s], [], [], wait)[0]:
            break
        data, anc, _, addr = s.recvmsg(65536, socket.CMSG_SPACE(TIMESPEC.size))
        if len(data) < HDR.size:
            continue
        magic, seq = HDR.unpack_from(data)
        if magic != MAGIC:
            continue
        last = time.monotonic()
        last_ts = arrival(anc)
        if first is None:
            first, first_ts = last, last_ts
        else:  # bytes that arrived after the first datagram
            nbytes_after += len(data)
        total += 1
        nbytes += len(data)
        if seq < highest:
            reordered += 1
        highest = max(highest, seq)
        per_port[addr[1]] = per_port.get(addr[1], 0) + 1
    secs = (last_ts - first_ts) if first is not None else 0.0
    print(f"total {total}")
    print(f"reordered {reordered}")
    print(f"bytes {nbytes}")
    print(f"secs {secs:.6f}")
    print(f"rate_bps {int(nbytes_after * 8 / secs) if secs > 0 else 0}")
    if args.per_port:
        for port in sorted(per_port):
            print(f"sport {port} {per_port[port]}")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    ps = sub.add_parser("send")
    ps.add_argument("dst")
    ps.add_argument("dport", type=int)
    ps.add_argument("--src", required=True)
    ps.add_argument("--sports", type=port_range, required=True)
    ps.add_argument("--count", type=int, default=1)
    ps.add_argument("--size", type=int, default=64)
    ps.add_argument("--pps", type=float, default=0)
    pr = sub.add_parser("recv")
    pr.add_argument("port", type=int)
    pr.add_argument("--expect", type=int, default=0)
    pr.add_argument("--idle", type=float, default=1.0)
    pr.add_argument("--timeout", type=float, default=60.0)
    pr.add_argument("--ready")
    pr.add_argument("--per-port", action="store_true")
    args = p.parse_args()
    if args.cmd == "send":
        if args.count < 1 or not HDR.size <= args.size <= 65000:
            p.error(f"bad --count {args.count} or --size {args.size}")
        return send(args)
    return recv(args)


if __name__ == "__main__":
    sys.exit(main())
