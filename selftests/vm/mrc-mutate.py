#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Capture live MRC packets, then replay mutated copies of them.

  mrc-mutate.py capture DEV --out FILE [--max N] [--seconds S] [--wait W]
                        [--port P]
  mrc-mutate.py replay FILE --src ADDR --count N [--seed S] [--log FILE]

capture reads MRC packets (UDP to port P, 4792 by default) in both
directions on DEV with a packet socket: over IPv4, or over IPv6 inside an
SRv6 outer IPv6 header (with or without an SRH), whose headers it keeps.
It keeps at most 48 of each (inner source address, opcode), until N
packets or S seconds after the first (which it waits W seconds for). It
writes them
to FILE (one JSON object a line) and prints "captured N" and the count
per direction and opcode.

replay takes the captured packets that ADDR sent and sends N copies of
them, each mutated, to their destination from a raw socket, so the source
address is ADDR's own (run it in ADDR's namespace) and the UDP source
port, the EV, is the captured one. The UDP checksum and length are
always right, so every copy reaches the MRC receive path. The mutations
follow a generator seeded with S (the same seed gives the same packets):

  replay     the packet unmodified
  bitflip    1 to 4 bits flipped in the MRC headers, or anywhere
  truncate   cut to a random length (0 .. its length - 1)
  extend     random or zero bytes appended
  field      one header field (BTH, RETH, DPH, AETH, SACKH, AtomicETH,
             DETH, AtomicAckETH, ProbeH per opcode; see
             Documentation/wire-format.rst) set to an extreme value: 0,
             all ones, the top bit, 1 GiB +/- 1, or a PSN just ahead
  hdrlen     the BTH header length set to another value

A packet captured inside an SRv6 outer header goes out in the same outer
header (from an IPv6 raw socket, the outer source the captured one) with
the inner UDP checksum right; instead of its MRC headers, one in four has
its outer headers mutated:

  srh        an SRH added or replaced, random in Segments Left, Last
             Entry, segment count, TLV bytes, routing type and Hdr Ext Len
             (well formed or not; see mrc-craft.py srv6-spoof --srh)
  outerflip  1 to 4 bits flipped in the outer headers, not in the
             version or the destination address

It prints "sent N", then the count per mutation and per opcode. --log
writes one line per packet sent (index, mutation, opcode, PSN, QPN).
"""

import argparse
import ipaddress
import json
import random
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800
ETH_P_IPV6 = 0x86DD
IPPROTO_IPV6 = 41
IPPROTO_ROUTING = 43
PACKET_OUTGOING = 4
MAX_UDP_PAYLOAD = 1500 - 20 - 8

from mrc_pkt import (BTH_FIELDS, BTH_LEN, EXT, FLAG_ACK, OPCODES, ipv6_udp,
                     udp4)

GIB = 1 << 30


def op_name(pkt):
    if len(pkt) < 2:
        return "short"
    return OPCODES.get(pkt[1], ("op%#x" % pkt[1], []))[0]


def header_fields(pkt):
    """(header.field, offset, size) of every header field of PKT."""
    out = [("BTH." + n, o, s) for n, o, s in BTH_FIELDS]
    if len(pkt) < BTH_LEN:
        return out
    exts = list(OPCODES.get(pkt[1], ("", []))[1])
    flags = struct.unpack_from("!H", pkt, 2)[0]
    if flags & FLAG_ACK and pkt[1] <= 0x07:
        exts.append("AETH")
    off = BTH_LEN
    for e in exts:
        length, fields = EXT[e]
        out += [(e + "." + n, off + o, s) for n, o, s in fields]
        off += length
    if "SACKH" in exts:
        # the bitmap words after the SACKH's fixed part
        while off + 8 <= len(pkt):
            out.append(("SACKH.bitmap", off, 8))
            off += 8
    return out


def extreme(rng, size, old):
    top = (1 << (8 * size)) - 1
    vals = [0, 1, top, top - 1, 1 << (8 * size - 1), (old + 1) & top,
            (old - 1) & top, old ^ top]
    if size >= 4:
        vals += [GIB, GIB + 1, GIB - 1, (old + rng.randint(2, 4096)) & top]
    return rng.choice(vals)


def mutate(rng, pkt):
    """(mutation name, detail, mutated copy of PKT)."""
    kind = rng.choices(["replay", "bitflip", "truncate", "extend", "field",
                        "hdrlen"], [10, 25, 12, 10, 38, 5])[0]
    b = bytearray(pkt)
    if kind == "replay":
        return kind, "", bytes(b)
    if kind == "bitflip":
        hdr = min(len(b), 4 * struct.unpack_from("!H", b, 14)[0]) \
            if len(b) >= BTH_LEN else len(b)
        span = hdr if hdr > 0 and rng.random() < 0.8 else len(b)
        bits = []
        for _ in range(rng.randint(1, 4)):
            bit = rng.randrange(8 * span)
            b[bit // 8] ^= 0x80 >> (bit % 8)
            bits.append(str(bit))
        return kind, ",".join(bits), bytes(b)
    if kind == "truncate":
        n = rng.randrange(len(b))
        return kind, str(n), bytes(b[:n])
    if kind == "extend":
        room = MAX_UDP_PAYLOAD - len(b)
        n = rng.randint(1, max(1, min(room, 256)))
        if rng.random() < 0.5:
            extra = bytes(n)
        else:
            extra = bytes(rng.getrandbits(8) for _ in range(n))
        return kind, str(n), bytes(b + extra)[:MAX_UDP_PAYLOAD]
    if kind == "hdrlen":
        v = rng.choice([0, 1, 5, 6, 7, 10, 14, 20, 0xFFFF,
                        len(b) // 4, len(b) // 4 + 1])
        struct.pack_into("!H", b, 14, v)
        return kind, str(v), bytes(b)
    fields = [f for f in header_fields(b) if f[1] + f[2] <= len(b)]
    name, off, size = rng.choice(fields)
    old = int.from_bytes(b[off:off + size], "big")
    v = extreme(rng, size, old)
    b[off:off + size] = v.to_bytes(size, "big")
    return kind, "%s=%#x" % (name, v), bytes(b)


def random_srh(rng, nh):
    """An SRH, well formed or not, in front of next header NH."""
    nseg = rng.randint(0, 3)
    body = bytes(rng.getrandbits(8) for _ in range(16 * nseg))
    if rng.random() < 0.3:
        body += rng.choice([b"\x00" * 8, b"\x04\x06" + bytes(6),
                            b"\x04\x07" + bytes(6), b"\x01\x00"])
    body += bytes(-len(body) % 8)
    hdrlen = len(body) // 8
    if rng.random() < 0.2:
        hdrlen = rng.choice([0, 1, 2, 255, hdrlen + 2])
    sl = rng.choice([0, 0, 0, 1, 2, 5, 255])
    le = rng.choice([max(nseg - 1, 0), max(nseg - 1, 0), 0, nseg, 200])
    rtype = rng.choice([4, 4, 4, 0, 3])
    return struct.pack("!BBBBBBH", nh, hdrlen, rtype, sl, le, 0, 0) + body


def mutate_encap(rng, encap):
    """(mutation, detail, mutated outer headers) for outer headers ENCAP:
    an IPv6 header, and an SRH when its next header says so."""
    b = bytearray(encap)
    if rng.random() < 0.7:
        new = random_srh(rng, IPPROTO_IPV6)
        b = b[:40] + new
        b[6] = IPPROTO_ROUTING
        return "srh", new[:8].hex(), bytes(b)
    bits = []
    for _ in range(rng.randint(1, 4)):
        # Not the destination: the copy must still leave this host.
        bit = rng.randrange(4, 8 * len(b) - 128)
        bit += 128 if bit >= 192 else 0
        b[bit // 8] ^= 0x80 >> (bit % 8)
        bits.append(str(bit))
    return "outerflip", ",".join(bits), bytes(b)


def split_srv6(ip):
    """(outer headers, inner IPv6 packet) of an SRv6 packet IP, or None."""
    if len(ip) < 40 or ip[0] >> 4 != 6:
        return None
    nh, off = ip[6], 40
    if nh == IPPROTO_ROUTING and len(ip) >= off + 8:
        nh, off = ip[off], off + 8 * (ip[off + 1] + 1)
    if nh != IPPROTO_IPV6 or len(ip) < off + 48 or ip[off] >> 4 != 6:
        return None
    return ip[:off], ip[off:]


def cmd_capture(a):
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                         socket.htons(ETH_P_ALL))
    sock.bind((a.dev, 0))
    sock.settimeout(0.5)
    kept, per = [], {}
    # S seconds from the first packet, which may take a while to come.
    end = time.monotonic() + a.wait
    while len(kept) < a.max and time.monotonic() < end:
        try:
            frame, addr = sock.recvfrom(65535)
        except socket.timeout:
            continue
        encap = None
        if addr[1] == ETH_P_IPV6:
            both = split_srv6(frame[14:])
            if not both:
                continue
            encap, ip = both
            if ip[6] != socket.IPPROTO_UDP:
                continue
            ihl, tot = 40, 40 + struct.unpack_from("!H", ip, 4)[0]
            src = str(ipaddress.IPv6Address(bytes(ip[8:24])))
            dst = str(ipaddress.IPv6Address(bytes(ip[24:40])))
        elif addr[1] == ETH_P_IP and len(frame) >= 14 + 20 + 8:
            ip = frame[14:]
            ihl = 4 * (ip[0] & 0xF)
            if ip[9] != socket.IPPROTO_UDP:
                continue
            tot = struct.unpack_from("!H", ip, 2)[0]
            src = socket.inet_ntoa(ip[12:16])
            dst = socket.inet_ntoa(ip[16:20])
        else:
            continue
        sport, dport, ulen = struct.unpack_from("!HHH", ip, ihl)
        if dport != a.port or ulen < 8:
            continue
        payload = bytes(ip[ihl + 8:min(tot, ihl + ulen)])
        key = (src, op_name(payload))
        if per.get(key, 0) >= 48:
            continue
        if not kept:
            end = time.monotonic() + a.seconds
        per[key] = per.get(key, 0) + 1
        kept.append({"src": src, "dst": dst, "sport": sport, "dport": dport,
                     "out": addr[2] == PACKET_OUTGOING,
                     "data": payload.hex()})
        if encap:
            kept[-1]["encap"] = bytes(encap).hex()
    with open(a.out, "w") as f:
        for k in kept:
            f.write(json.dumps(k) + "\n")
    print("captured", len(kept))
    for (src, op), n in sorted(per.items()):
        print("  from %s %s %d" % (src, op, n))
    return 0


def cmd_replay(a):
    with open(a.file) as f:
        pkts = [json.loads(line) for line in f if line.strip()]
    pkts = [p for p in pkts if p["src"] == a.src]
    if not pkts:
        print("no captured packet from", a.src)
        return 1
    rng = random.Random(a.seed)
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_UDP)
    sock6 = socket.socket(socket.AF_INET6, socket.SOCK_RAW,
                          socket.IPPROTO_RAW)
    log = open(a.log, "w") if a.log else None
    kinds, ops, sent, errors = {}, {}, 0, 0
    for i in range(a.count):
        p = rng.choice(pkts)
        orig = bytes.fromhex(p["data"])
        encap = bytes.fromhex(p.get("encap", ""))
        if encap and rng.random() < 0.25:
            data = orig
            kind, detail, encap = mutate_encap(rng, encap)
        else:
            kind, detail, data = mutate(rng, orig)
        try:
            if encap:
                # A packet the uplink's MTU (1500) fits.
                data = data[:1500 - len(encap) - 48]
                inner = ipv6_udp(a.src, p["dst"], p["sport"], p["dport"],
                                 data)
                if kind != "outerflip":
                    encap = encap[:4] + struct.pack(
                        "!H", len(encap) - 40 + len(inner)) + encap[6:]
                dst = str(ipaddress.IPv6Address(encap[24:40]))
                sock6.sendto(encap + inner, (dst, 0))
            else:
                sock.sendto(udp4(a.src, p["dst"], p["sport"], p["dport"],
                                 data), (p["dst"], 0))
            sent += 1
        except OSError:
            errors += 1
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        op = op_name(orig)
        ops[op] = ops.get(op, 0) + 1
        if log:
            psn = struct.unpack_from("!I", orig, 8)[0] if len(orig) >= 12 else 0
            qpn = struct.unpack_from("!I", orig, 4)[0] if len(orig) >= 8 else 0
            log.write("%d %.3f %s %s psn=%#x dqpn=%#x ev=%d %s\n" %
                      (i, time.monotonic(), op, kind, psn, qpn, p["sport"],
                       detail))
        # A veth delivers into a backlog of 1000 packets: stay below it.
        if i % 64 == 63:
            time.sleep(0.002)
    if log:
        log.close()
    print("sent", sent)
    print("send errors", errors)
    print("mutations", " ".join("%s=%d" % kv for kv in sorted(kinds.items())))
    print("opcodes", " ".join("%s=%d" % kv for kv in sorted(ops.items())))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture")
    c.add_argument("dev")
    c.add_argument("--out", required=True)
    c.add_argument("--max", type=int, default=400)
    c.add_argument("--seconds", type=float, default=3)
    c.add_argument("--wait", type=float, default=30)
    c.add_argument("--port", type=int, default=4792)
    r = sub.add_parser("replay")
    r.add_argument("file")
    r.add_argument("--src", required=True)
    r.add_argument("--count", type=int, required=True)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--log")
    a = p.parse_args()
    return {"capture": cmd_capture, "replay": cmd_replay}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
