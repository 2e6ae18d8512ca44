# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""MRC packet layout for the test tools (mrc-craft.py, mrc-mutate.py).

The headers follow Documentation/wire-format.rst; the KUnit suite
mrc_wire_layout_test pins the same layout on the kernel's side.
"""

import ipaddress
import socket
import struct

MRC_VER = 1
BTH_LEN = 24
MRC_PORT = 4792

OP_SEND = 0x00
OP_WRITE = 0x02
OP_UD_SEND = 0x09
OP_ACK = 0x10

FLAG_FIRST = 0x0004
FLAG_LAST = 0x0008
FLAG_RETX = 0x0010
FLAG_TRIM = 0x0040
FLAG_ACK = 0x0080

# name -> (length, [(field, offset, size in bytes)])
EXT = {
    "DPH": (16, [("msn", 0, 4), ("offset", 4, 4), ("msglen", 8, 4),
                 ("imm", 12, 4)]),
    "RETH": (16, [("va_hi", 0, 4), ("va_lo", 4, 4), ("rkey", 8, 4),
                  ("dmalen", 12, 4)]),
    "AtomicETH": (32, [("va", 0, 8), ("rkey", 8, 4), ("rsvd", 12, 4),
                       ("swap_add", 16, 8), ("compare", 24, 8)]),
    "AETH": (24, [("cum_psn", 0, 4), ("msn_rnr", 4, 4), ("ev", 8, 2),
                  ("syndrome", 10, 1), ("ce", 11, 1), ("echo_seq", 12, 4),
                  ("echo_ts", 16, 4), ("svc_time", 20, 2),
                  ("rwnd", 22, 2)]),
    "AtomicAckETH": (8, [("orig", 0, 8)]),
    "SACKH": (8, [("base", 0, 4), ("nwords", 4, 1), ("rsvd", 5, 3)]),
    "DETH": (8, [("qkey", 0, 4), ("sqpn", 4, 4)]),
    "ProbeH": (8, [("id", 0, 4), ("rsvd", 4, 4)]),
}
BTH_FIELDS = [("ver", 0, 1), ("opcode", 1, 1), ("flags", 2, 2),
              ("dqpn", 4, 4), ("psn", 8, 4), ("ev", 12, 2),
              ("hdrlen", 14, 2), ("ev_seq", 16, 4), ("ts", 20, 4)]
# opcode -> (name, extension headers in order)
OPCODES = {
    0x00: ("SEND", ["DPH"]), 0x01: ("SEND_IMM", ["DPH"]),
    0x02: ("WRITE", ["RETH", "DPH"]), 0x03: ("WRITE_IMM", ["RETH", "DPH"]),
    0x04: ("READ_REQ", ["RETH"]), 0x05: ("READ_RESP", ["DPH"]),
    0x06: ("CMP_SWP", ["AtomicETH"]), 0x07: ("FETCH_ADD", ["AtomicETH"]),
    0x08: ("ATOMIC_RESP", ["AETH", "AtomicAckETH"]),
    0x09: ("UD_SEND", ["DETH"]), 0x10: ("ACK", ["AETH"]),
    0x11: ("SACK", ["AETH", "SACKH"]), 0x12: ("NACK", ["AETH"]),
    0x20: ("PROBE", ["ProbeH"]), 0x21: ("PROBE_REPLY", ["ProbeH"]),
}


def bth(opcode, flags, dqpn, psn, hdr_len, ts=0):
    """Base transport header; HDR_LEN is all MRC headers' length in bytes,
    TS the sender's timestamp (1.024 us units)."""
    return struct.pack("!BBHIIHHII", MRC_VER << 4, opcode, flags,
                       dqpn & 0xFFFFFF, psn & 0xFFFFFFFF, 0, hdr_len // 4,
                       0, ts & 0xFFFFFFFF)


def dph(msn, offset, msg_len, imm=0):
    """Data placement header."""
    return struct.pack("!IIII", msn, offset, msg_len, imm)


def csum(data):
    """Internet checksum of DATA."""
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def udp_hdr(pseudo, sport, dport, payload):
    """UDP header and PAYLOAD, checksummed over the PSEUDO header."""
    ulen = 8 + len(payload)
    c = csum(pseudo + struct.pack("!HHHH", sport, dport, ulen, 0) +
             payload) or 0xFFFF
    return struct.pack("!HHHH", sport, dport, ulen, c) + payload


def udp4(src, dst, sport, dport, payload):
    """UDP datagram (header and payload) between IPv4 SRC and DST."""
    pseudo = socket.inet_aton(src) + socket.inet_aton(dst) + \
        struct.pack("!xBH", socket.IPPROTO_UDP, 8 + len(payload))
    return udp_hdr(pseudo, sport, dport, payload)


def ipv6_udp(src, dst, sport, dport, payload):
    """IPv6 packet carrying a UDP datagram from SRC to DST."""
    s = ipaddress.IPv6Address(src).packed
    d = ipaddress.IPv6Address(dst).packed
    ulen = 8 + len(payload)
    pseudo = s + d + struct.pack("!IxxxB", ulen, socket.IPPROTO_UDP)
    ip6 = struct.pack("!IHBB", 6 << 28, ulen, socket.IPPROTO_UDP, 64) + s + d
    return ip6 + udp_hdr(pseudo, sport, dport, payload)
