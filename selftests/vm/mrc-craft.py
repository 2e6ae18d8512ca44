#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Send hand-made MRC packets, as a hostile or broken peer would.

  mrc-craft.py ud-flood DST --count N --len BYTES [--port P] [--qpn Q]
                        [--qkey K]
  mrc-craft.py spoof-v6 DEV --dmac MAC --src ADDR6 --dst ADDR6 --dqpn Q
                        [--count N] [--port P]
  mrc-craft.py srv6-spoof OUTER_DST --src ADDR6 --inner-src ADDR6
                          --dst ADDR6 --dqpn Q [--count N] [--port P]
                          [--srh KIND]
  mrc-craft.py trim-write DST --dqpn Q --psn P --len BYTES [--port P]
  mrc-craft.py write-train DST --dqpn Q --psn P --rkey K --va ADDR
                           --len BYTES --past BYTES [--port P]
  mrc-craft.py short-send DST --dqpn Q --psn P --len BYTES --claim BYTES
                          [--first-only] [--port P]
  mrc-craft.py dup-send DST --dqpn Q --psn P --dev DEV [--port P]

ud-flood sends N UD_SEND datagrams of BYTES payload from an ordinary UDP
socket to DST's MRC port, addressed to QP Q (default 1, the connection
manager's QP) with Q_Key K (default 0x80010000, QP1's), paced so that
no queue on the way drops them. It prints the number sent.

spoof-v6 writes N single-packet SEND requests straight onto DEV (a packet
socket: the source address is whatever --src says, e.g. ::ffff:10.0.0.1,
which no socket would send) to QP Q at --dst, each with a different PSN.

srv6-spoof sends N single-packet SEND requests to QP Q at --dst, each
inside an outer IPv6 header from --src to OUTER_DST (a uSID container
or SID that ends in --dst's decapsulating End.DT6), as an SRv6 EV
carries them, from a raw socket: the inner source is --inner-src, an
address that need not be the sender's or the QP's peer. --srh puts an
SRH between the two headers (none by default): "ok" lists the inner
destination at Segments Left 0, "ok-tlv" adds Pad1 and PadN TLVs, and the
others break one rule of RFC 8754: "sl-left" leaves a segment to visit,
"sl-beyond" has Segments Left past the list, "le-beyond" a Last Entry past
the header, "tlv-overrun" a TLV longer than the header, "type0" routing
type 0, "hdrlen-long" a Hdr Ext Len past the packet.

trim-write sends, from an ordinary UDP socket, what a trimming switch
leaves of the first packet of a BYTES-long WRITE with PSN P to QP Q: the
headers, the TRIM flag, no payload.

write-train sends, from an ordinary UDP socket, two one-packet WRITEs to
QP Q with R_Key K as one datagram of two UDP segments (UDP_SEGMENT), so
that they arrive as one train: PSN P writes BYTES bytes (i & 0xff) at
ADDR, PSN P+1 the same at ADDR + --past.

short-send sends, from an ordinary UDP socket, a SEND to QP Q of two
packets, PSN P (FIRST, at offset 0) and P+1 (LAST, ending at --claim),
each with half of BYTES of payload, both stating a message length of
--claim bytes: every PSN of the message, not all of its bytes. With
--first-only it sends the first packet only: a message begun, never ended.

dup-send sends, from an ordinary UDP socket, a one-packet SEND of 16
bytes (0..15) to QP Q with PSN P, timestamp 0x1000 and no AR, then the
same packet again as a retransmission (RETX) with timestamp 0x2000, as a
sender whose timer fired on it would. It watches DEV for the ACKs of PSN
P for a second and prints "ack echo 0xTS svc N" for each.

The headers follow Documentation/wire-format.rst.
"""

import argparse
import ipaddress
import socket
import struct
import sys
import time

from mrc_pkt import (BTH_LEN, FLAG_FIRST, FLAG_LAST, FLAG_RETX, FLAG_TRIM,
                     MRC_PORT, OP_ACK, OP_SEND, OP_UD_SEND, OP_WRITE, bth,
                     dph, ipv6_udp)

QP1_QKEY = 0x80010000
ETH_P_IPV6 = 0x86DD
IPPROTO_IPV6 = 41  # an IPv6 packet inside IPv6 (SRv6 encapsulation)
IPPROTO_ROUTING = 43  # the SRH
UDP_SEGMENT = 103  # <linux/udp.h>: send one datagram as segments of N bytes


def ud_send(dqpn, qkey, src_qpn, payload):
    deth = struct.pack("!II", qkey, src_qpn & 0xFFFFFF)
    return bth(OP_UD_SEND, 0, dqpn, 0, 24 + len(deth)) + deth + payload


def send_one_packet(dqpn, psn, payload):
    """A SEND that is a whole message in one packet (FIRST and LAST)."""
    d = dph(0, 0, len(payload))
    return bth(OP_SEND, FLAG_FIRST | FLAG_LAST, dqpn, psn, 24 + len(d)) + \
        d + payload


def trimmed_write(dqpn, psn, length):
    """The first packet of a WRITE of LENGTH bytes, its payload cut off."""
    reth = struct.pack("!IIII", 0, 0, 0, length)
    d = dph(0, 0, length)
    return bth(OP_WRITE, FLAG_FIRST | FLAG_TRIM, dqpn, psn,
               24 + len(reth) + len(d)) + reth + d


def write_packet(dqpn, psn, rkey, va, payload):
    """A WRITE that is a whole message in one packet, to VA under RKEY."""
    reth = struct.pack("!QII", va, rkey, len(payload))
    d = dph(0, 0, len(payload))
    return bth(OP_WRITE, FLAG_FIRST | FLAG_LAST, dqpn, psn,
               24 + len(reth) + len(d)) + reth + d + payload


def mac_bytes(text):
    return bytes(int(x, 16) for x in text.split(":"))


def cmd_ud_flood(a):
    fam = socket.AF_INET6 if ":" in a.dst else socket.AF_INET
    sock = socket.socket(fam, socket.SOCK_DGRAM)
    pkt = ud_send(a.qpn, a.qkey, 1, bytes(a.len))
    sent = 0
    for i in range(a.count):
        sock.sendto(pkt, (a.dst, a.port))
        sent += 1
        # A veth delivers into a backlog of 1000 packets: stay well below.
        if i % 50 == 49:
            time.sleep(0.01)
    print("sent", sent)


def cmd_spoof_v6(a):
    sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    sock.bind((a.dev, 0))
    smac = sock.getsockname()[4]
    eth = mac_bytes(a.dmac) + smac + struct.pack("!H", ETH_P_IPV6)
    sent = 0
    for i in range(a.count):
        req = send_one_packet(a.dqpn, 0x40000000 + i * 7919, b"spof")
        sock.send(eth + ipv6_udp(a.src, a.dst, 49152 + i, a.port, req))
        sent += 1
    print("sent", sent)


# SRHs for srv6-spoof --srh: (Segments Left, Last Entry, segments, TLV
# bytes, routing type, Hdr Ext Len or None for the true one). Segment 0 is
# the inner destination, segment 1 the outer one.
SRH_KINDS = {
    "ok": (0, 0, 1, b"", 4, None),
    "ok-tlv": (0, 0, 1, b"\x00\x00\x04\x04" + bytes(4), 4, None),
    "sl-left": (1, 1, 2, b"", 4, None),
    "sl-beyond": (5, 0, 1, b"", 4, None),
    "le-beyond": (0, 4, 1, b"", 4, None),
    "tlv-overrun": (0, 0, 1, b"\x04\x07" + bytes(6), 4, None),
    "type0": (0, 0, 1, b"", 0, None),
    "hdrlen-long": (0, 0, 1, b"", 4, 255),
}


def srh(kind, inner_dst, outer_dst):
    """The SRH of KIND (SRH_KINDS) in front of an inner IPv6 packet."""
    sl, le, nseg, tlv, rtype, hdrlen = SRH_KINDS[kind]
    segs = [inner_dst, outer_dst][:nseg]
    body = b"".join(ipaddress.IPv6Address(x).packed for x in segs) + tlv
    if hdrlen is None:
        hdrlen = (8 + len(body)) // 8 - 1
    return struct.pack("!BBBBBBH", IPPROTO_IPV6, hdrlen, rtype, sl, le, 0,
                       0) + body


def cmd_srv6_spoof(a):
    sock = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
    src = ipaddress.IPv6Address(a.src).packed
    outer_dst = ipaddress.IPv6Address(a.outer_dst).packed
    sent = 0
    for i in range(a.count):
        req = send_one_packet(a.dqpn, 0x40000000 + i * 7919, b"spof")
        inner = ipv6_udp(a.inner_src, a.dst, 49152 + i, a.port, req)
        nh = IPPROTO_IPV6
        if a.srh != "none":
            inner = srh(a.srh, a.dst, a.outer_dst) + inner
            nh = IPPROTO_ROUTING
        outer = struct.pack("!IHBB", 6 << 28, len(inner), nh, 64)
        sock.sendto(outer + src + outer_dst + inner, (a.outer_dst, 0))
        sent += 1
    print("sent", sent)


def cmd_trim_write(a):
    fam = socket.AF_INET6 if ":" in a.dst else socket.AF_INET
    sock = socket.socket(fam, socket.SOCK_DGRAM)
    sock.sendto(trimmed_write(a.dqpn, a.psn, a.len), (a.dst, a.port))
    print("sent 1")


def cmd_write_train(a):
    fam = socket.AF_INET6 if ":" in a.dst else socket.AF_INET
    sock = socket.socket(fam, socket.SOCK_DGRAM)
    data = bytes(i & 0xFF for i in range(a.len))
    first = write_packet(a.dqpn, a.psn, a.rkey, a.va, data)
    second = write_packet(a.dqpn, a.psn + 1, a.rkey, a.va + a.past, data)
    sock.setsockopt(socket.SOL_UDP, UDP_SEGMENT, len(first))
    sock.sendto(first + second, (a.dst, a.port))
    print("sent 2 in 1 datagram")


def send_packet(dqpn, psn, flags, offset, payload, msg_len):
    """One packet of a SEND of MSG_LEN bytes: PAYLOAD at OFFSET."""
    d = dph(0, offset, msg_len)
    return bth(OP_SEND, flags, dqpn, psn, 24 + len(d)) + d + payload


def cmd_short_send(a):
    if not 2 <= a.len < a.claim:
        sys.exit("short-send: want 2 <= --len < --claim")
    fam = socket.AF_INET6 if ":" in a.dst else socket.AF_INET
    sock = socket.socket(fam, socket.SOCK_DGRAM)
    half = a.len // 2
    data = bytes(i & 0xFF for i in range(half))
    sock.sendto(send_packet(a.dqpn, a.psn, FLAG_FIRST, 0, data, a.claim),
                (a.dst, a.port))
    if a.first_only:
        print("sent 1")
        return
    sock.sendto(send_packet(a.dqpn, a.psn + 1, FLAG_LAST, a.claim - half,
                            data, a.claim), (a.dst, a.port))
    print("sent 2")


ETH_P_ALL = 0x0003
ETH_P_IP = 0x0800


def acks_of(frame, psn):
    """(echoed timestamp, service time) of FRAME if it is an MRC ACK of PSN
    over IPv4, else None."""
    if len(frame) < 14 + 20 or struct.unpack("!H", frame[12:14])[0] != ETH_P_IP:
        return None
    ip = frame[14:]
    ihl = (ip[0] & 0xF) * 4
    if ip[9] != socket.IPPROTO_UDP:
        return None
    udp = ip[ihl:]
    if len(udp) < 8 + BTH_LEN + 24 or struct.unpack("!H", udp[2:4])[0] != MRC_PORT:
        return None
    mrc = udp[8:]
    if mrc[1] != OP_ACK or struct.unpack("!I", mrc[8:12])[0] != psn:
        return None
    echo, svc = struct.unpack("!IH", mrc[BTH_LEN + 16:BTH_LEN + 22])
    return echo, svc


def cmd_dup_send(a):
    cap = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                        socket.htons(ETH_P_ALL))
    cap.bind((a.dev, 0))
    cap.settimeout(0.1)
    fam = socket.AF_INET6 if ":" in a.dst else socket.AF_INET
    sock = socket.socket(fam, socket.SOCK_DGRAM)
    data = bytes(range(16))
    d = dph(0, 0, len(data))
    for flags, ts in ((FLAG_FIRST | FLAG_LAST, 0x1000),
                      (FLAG_FIRST | FLAG_LAST | FLAG_RETX, 0x2000)):
        sock.sendto(bth(OP_SEND, flags, a.dqpn, a.psn, BTH_LEN + len(d), ts) +
                    d + data, (a.dst, a.port))
        time.sleep(0.05)
    print("sent 2")
    end = time.monotonic() + 1
    while time.monotonic() < end:
        try:
            frame = cap.recv(65535)
        except socket.timeout:
            continue
        ack = acks_of(frame, a.psn)
        if ack:
            print("ack echo 0x%x svc %d" % ack)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("ud-flood")
    f.add_argument("dst")
    f.add_argument("--count", type=int, required=True)
    f.add_argument("--len", type=int, required=True)
    f.add_argument("--port", type=int, default=4792)
    f.add_argument("--qpn", type=int, default=1)
    f.add_argument("--qkey", type=lambda s: int(s, 0), default=QP1_QKEY)
    s = sub.add_parser("spoof-v6")
    s.add_argument("dev")
    s.add_argument("--dmac", required=True)
    s.add_argument("--src", required=True)
    s.add_argument("--dst", required=True)
    s.add_argument("--dqpn", type=int, required=True)
    s.add_argument("--count", type=int, default=10)
    s.add_argument("--port", type=int, default=4792)
    r = sub.add_parser("srv6-spoof")
    r.add_argument("outer_dst")
    r.add_argument("--src", required=True)
    r.add_argument("--inner-src", required=True)
    r.add_argument("--dst", required=True)
    r.add_argument("--dqpn", type=int, required=True)
    r.add_argument("--count", type=int, default=10)
    r.add_argument("--port", type=int, default=4792)
    r.add_argument("--srh", choices=["none"] + sorted(SRH_KINDS),
                   default="none")
    t = sub.add_parser("trim-write")
    t.add_argument("dst")
    t.add_argument("--dqpn", type=int, required=True)
    t.add_argument("--psn", type=int, required=True)
    t.add_argument("--len", type=int, required=True)
    t.add_argument("--port", type=int, default=4792)
    w = sub.add_parser("write-train")
    w.add_argument("dst")
    w.add_argument("--dqpn", type=int, required=True)
    w.add_argument("--psn", type=int, required=True)
    w.add_argument("--rkey", type=int, required=True)
    w.add_argument("--va", type=int, required=True)
    w.add_argument("--len", type=int, required=True)
    w.add_argument("--past", type=int, required=True)
    w.add_argument("--port", type=int, default=4792)
    h = sub.add_parser("short-send")
    h.add_argument("dst")
    h.add_argument("--dqpn", type=int, required=True)
    h.add_argument("--psn", type=int, required=True)
    h.add_argument("--len", type=int, required=True)
    h.add_argument("--claim", type=int, required=True)
    h.add_argument("--first-only", action="store_true")
    h.add_argument("--port", type=int, default=4792)
    u = sub.add_parser("dup-send")
    u.add_argument("dst")
    u.add_argument("--dqpn", type=int, required=True)
    u.add_argument("--psn", type=int, required=True)
    u.add_argument("--dev", required=True)
    u.add_argument("--port", type=int, default=4792)
    a = p.parse_args()
    {"ud-flood": cmd_ud_flood, "spoof-v6": cmd_spoof_v6,
     "srv6-spoof": cmd_srv6_spoof,
     "trim-write": cmd_trim_write, "write-train": cmd_write_train,
     "short-send": cmd_short_send,
     "dup-send": cmd_dup_send}[a.cmd](a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
