#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Send one raw request to the "mrc" generic netlink family, print the
replies as JSON lines and the kernel's error with its extack message.

The tests use it where mrc-ip cannot go: requests that are malformed on
purpose (wrong types, unknown attributes, oversized lists), and checks of
the family independent of the tool. Names come from the installed uapi
header, so a renamed attribute breaks the test rather than hiding.

  mrc-genl.py [--dump] [--rcvbuf BYTES] CMD [ATTR=TYPE:VALUE | ATTR={ ... } ]...
  mrc-genl.py --serve

--rcvbuf reads every reply with a buffer of BYTES (default 1 MiB), as a
program with a small buffer would; the kernel sizes a dump's messages
after the reads it has seen; a reply cut short (MSG_TRUNC) is an error.

--serve reads requests from stdin, one per line: an id and the words,
separated by 0x1f; it answers each with its output lines (error lines
prefixed by 0x02) and a line 0x04 EXIT, each line prefixed by the id and
0x1f; lib.sh's mrc_genl uses it as a coprocess,
because starting Python once per request is slow under emulation.

CMD is MRC_CMD_X or X. TYPE is u8, u16, u32, u64, str, bin (hex), flag or
raw (hex, sent with whatever length it has). A nest is ATTR={ ... }, with
the braces as separate words. Exit: 0, or the positive errno.
Output: one JSON object per reply message; on error, a line
"error ERRNO NAME: EXTACK" on stderr.
"""
import contextlib
import errno
import io
import json
import os
import re
import socket
import struct
import sys

HEADER_PATHS = [os.environ.get("MRC_GENL_HEADER", ""), "/usr/include/rdma/mrc-genl.h", "/usr/local/include/rdma/mrc-genl.h"]
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 1, 4, 0x300
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
NETLINK_EXT_ACK, NETLINK_CAP_ACK = 11, 10
NLMSGERR_ATTR_MSG, NLMSGERR_ATTR_OFFS, NLMSGERR_ATTR_COOKIE = 1, 2, 3
NLMSGERR_ATTR_MISS_TYPE = 5

# Replies: attributes that are nests, strings, or binary, by name; other
# attributes decode as unsigned integers of their length.
NESTS = {"MRC_ATTR_DEV_LIMITS", "MRC_ATTR_EVFMT", "MRC_EVFMT_FIELDS", "MRC_ATTR_CCPROF",
         "MRC_CCPROF_PARAMS", "MRC_ATTR_EVPROF", "MRC_EVPROF_FIELDS", "MRC_EVPROF_FIELD",
         "MRC_ATTR_EVS", "MRC_ATTR_EV_ENTRY", "MRC_ATTR_STATS", "MRC_ATTR_PROF_USERS",
         "MRC_ATTR_DEV_CC_ALGS", "MRC_ATTR_CC_ALG_ENTRY", "MRC_ATTR_PROBES",
         "MRC_ATTR_PROBE_ENTRY"}
STRINGS = {"MRC_ATTR_DEV_NAME", "MRC_ATTR_NETDEV_NAME", "MRC_CCPROF_ALG"}
# Binary attributes, shown as hex of their bytes in order.
BINARY = {"MRC_EV_VALUE", "MRC_EV_NEW_VALUE", "MRC_PROBE_DGID", "MRC_PROBE_EV_VALUE"}
# Which enum a nest's members belong to: the prefix of their names.
NEST_SPACE = {"MRC_ATTR_DEV_LIMITS": "mrc_genl_limit_attr",
              "MRC_ATTR_EVFMT": "mrc_genl_evfmt_attr", "MRC_EVFMT_FIELDS": "mrc_genl_evfmt_attr",
              "MRC_ATTR_CCPROF": "mrc_genl_ccprof_attr", "MRC_CCPROF_PARAMS": "mrc_genl_cc_param",
              "MRC_ATTR_EVPROF": "mrc_genl_evprof_attr",
              "MRC_EVPROF_FIELDS": "mrc_genl_evprof_attr",
              "MRC_EVPROF_FIELD": "mrc_genl_evfield_attr", "MRC_ATTR_EV_ENTRY": "mrc_genl_ev_attr",
              "MRC_ATTR_STATS": "mrc_genl_stat", "MRC_ATTR_PROBE_ENTRY": "mrc_genl_probe_attr"}


def load_enums():
    """Every enumerator of the uapi header, by name; and each enum's
    members by value (SPACES)."""
    path = next((p for p in HEADER_PATHS if os.path.exists(p)), None)
    if path is None:
        sys.exit("mrc-genl.py: mrc-genl.h is not installed")
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    values = {}
    for ename, body in re.findall(r"enum\s+(\w+)\s*\{(.*?)\}", text, flags=re.S):
        SPACES[ename] = {}
        nxt = 0
        for item in body.split(","):
            item = item.strip()
            if not item:
                continue
            name, _, expr = item.partition("=")
            name = name.strip()
            if expr.strip():
                nxt = eval(expr.strip(), {}, dict(values))  # header constants only
            values[name] = nxt
            if not name.startswith("__"):
                SPACES[ename].setdefault(nxt, name)
            nxt += 1
    return values


SPACES = {}
ENUMS = load_enums()


def attr_name(space, value):
    return SPACES[space].get(value, "%s_%d" % (space, value))


def nla(atype, payload, nested=False):
    atype |= 0x8000 if nested else 0
    hdr = struct.pack("HH", 4 + len(payload), atype)
    return hdr + payload + b"\0" * ((4 - len(payload) % 4) % 4)


def encode_value(kind, value):
    if kind == "u8":
        return struct.pack("B", int(value, 0))
    if kind == "u16":
        return struct.pack("H", int(value, 0))
    if kind == "u32":
        return struct.pack("I", int(value, 0))
    if kind == "u64":
        return struct.pack("Q", int(value, 0))
    if kind == "str":
        return value.encode() + b"\0"
    if kind in ("bin", "raw"):
        return bytes.fromhex(value)
    if kind == "flag":
        return b""
    sys.exit("mrc-genl.py: unknown type %s" % kind)


def encode_attrs(words):
    """Encode words up to a closing '}'; return (bytes, words left)."""
    out = b""
    while words:
        word = words.pop(0)
        if word == "}":
            return out, words
        name, _, rest = word.partition("=")
        if not name.startswith("MRC_"):
            name = "MRC_ATTR_" + name
        atype = ENUMS[name] if name in ENUMS else int(name.split("_")[-1])
        if rest == "{":
            inner, words = encode_attrs(words)
            out += nla(atype, inner, nested=True)
        else:
            kind, _, value = rest.partition(":")
            out += nla(atype, encode_value(kind, value))
    return out, words


def decode_attrs(data, space):
    out = {}
    while len(data) >= 4:
        alen, atype = struct.unpack_from("HH", data)
        payload = data[4:alen]
        name = attr_name(space, atype & 0x3FFF)
        if name in NESTS:
            value = decode_attrs(payload, NEST_SPACE.get(name, "mrc_genl_attr"))
        elif name in BINARY:
            value = payload.hex()
        elif name in STRINGS:
            value = payload.rstrip(b"\0").decode()
        elif len(payload) in (1, 2, 4, 8):
            value = int.from_bytes(payload, "little")
        else:
            value = payload.hex()
        if name in out:  # repeated members of a list nest
            if not isinstance(out[name], list):
                out[name] = [out[name]]
            out[name].append(value)
        else:
            out[name] = value
        data = data[(alen + 3) & ~3:]
    return out


class Genl:
    def __init__(self, rcvbuf=1 << 20):
        self.rcvbuf = rcvbuf
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)
        self.sock.setsockopt(270, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(270, NETLINK_CAP_ACK, 1)
        self.sock.bind((0, 0))
        self.seq = 1

    def request(self, family, cmd, attrs, flags):
        self.seq += 1
        body = struct.pack("BBH", cmd, 2, 0) + attrs
        msg = struct.pack("IHHII", 16 + len(body), family, flags | NLM_F_REQUEST | NLM_F_ACK,
                          self.seq, 0) + body
        self.sock.send(msg)
        replies = []
        while True:
            data, _, mflags, _ = self.sock.recvmsg(self.rcvbuf)
            if mflags & socket.MSG_TRUNC:
                sys.exit("mrc-genl.py: a reply did not fit in %d bytes" % self.rcvbuf)
            while data:
                mlen, mtype, mflags, _, _ = struct.unpack_from("IHHII", data)
                msg, data = data[16:mlen], data[(mlen + 3) & ~3:]
                if mtype == NLMSG_ERROR:
                    err = -struct.unpack_from("i", msg)[0]
                    tlvs = decode_ext_ack(msg[20:])
                    return err, tlvs, replies
                if mtype == NLMSG_DONE:  # a dump's end carries its error
                    err = -struct.unpack_from("i", msg)[0] if len(msg) >= 4 else 0
                    return err, decode_ext_ack(msg[4:]), replies
                replies.append((mflags, msg))

    def resolve(self, name):
        attrs = nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0")
        err, _, replies = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, attrs, 0)
        if err or not replies:
            sys.exit("mrc-genl.py: family %s not found (%s)" % (name, os.strerror(err)))
        data = replies[0][1][4:]
        while data:
            alen, atype = struct.unpack_from("HH", data)
            if atype == CTRL_ATTR_FAMILY_ID:
                return struct.unpack_from("H", data, 4)[0]
            data = data[(alen + 3) & ~3:]
        sys.exit("mrc-genl.py: no family id")


def decode_ext_ack(data):
    out = {}
    while len(data) >= 4:
        alen, atype = struct.unpack_from("HH", data)
        payload = data[4:alen]
        if atype == NLMSGERR_ATTR_MSG:
            out["msg"] = payload.rstrip(b"\0").decode()
        elif atype == NLMSGERR_ATTR_OFFS:
            out["offset"] = struct.unpack("I", payload)[0]
        elif atype == NLMSGERR_ATTR_COOKIE:
            out["cookie"] = int.from_bytes(payload, "little")
        elif atype == NLMSGERR_ATTR_MISS_TYPE:
            out["missing"] = attr_name("mrc_genl_attr", struct.unpack("I", payload)[0])
        data = data[(alen + 3) & ~3:]
    return out


def errname(err):
    return "EOPNOTSUPP" if err == errno.EOPNOTSUPP else errno.errorcode.get(err, "?")


def serve():
    for line in sys.stdin:
        rid, *words = line.rstrip("\n").split("\x1f")
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                rc = main(words, err_prefix="\x02")
        except SystemExit as e:
            rc = 1
            out.write("\x02%s\n" % e)
        for reply in out.getvalue().splitlines():
            sys.stdout.write("%s\x1f%s\n" % (rid, reply))
        sys.stdout.write("%s\x1f\x04%d\n" % (rid, rc))
        sys.stdout.flush()
    return 0


def main(argv, err_prefix=None):
    flags, rcvbuf = 0, 1 << 20
    while argv and argv[0] in ("--dump", "--rcvbuf"):
        if argv[0] == "--dump":
            flags, argv = NLM_F_DUMP, argv[1:]
        elif len(argv) > 1:
            rcvbuf, argv = int(argv[1]), argv[2:]
        else:
            sys.exit(__doc__)
    if not argv:
        sys.exit(__doc__)
    cmd = argv[0] if argv[0].startswith("MRC_CMD_") else "MRC_CMD_" + argv[0]
    attrs, rest = encode_attrs(list(argv[1:]))
    if rest:
        sys.exit("mrc-genl.py: unbalanced braces")
    genl = Genl(rcvbuf)
    err, ack, replies = genl.request(genl.resolve("mrc"), ENUMS[cmd], attrs, flags)
    for mflags, msg in replies:
        obj = decode_attrs(msg[4:], "mrc_genl_attr")
        obj["cmd"] = attr_name("mrc_genl_cmd", msg[0])
        if mflags & 0x10:  # NLM_F_DUMP_INTR
            obj["dump_intr"] = True
        print(json.dumps(obj, sort_keys=True))
    if err:
        text = ack.get("msg", "")
        if "missing" in ack:
            text += " (missing %s)" % ack["missing"]
        if "cookie" in ack:
            text += " (cookie %d)" % ack["cookie"]
        line = "error %d %s: %s" % (err, errname(err), text)
        if err_prefix is None:
            print(line, file=sys.stderr)
        else:
            print(err_prefix + line)
    return err


if __name__ == "__main__":
    sys.exit(serve() if sys.argv[1:] == ["--serve"] else main(sys.argv[1:]))
