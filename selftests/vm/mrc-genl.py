#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Send one raw request to the "mrc" generic netlink family, print the
replies as JSON lines and the kernel's error with its extack message.

The tests use it where mrc-ip cannot go: requests that are malformed on
purpose (wrong types, unknown attributes, oversized lists), and checks of
the family independent of the tool. Names and reply types come from the
family's YNL spec (Documentation/netlink/specs/mrc.yaml, or the file
MRC_GENL_SPEC names), which genl-spec-check.py holds to the uapi header,
so a renamed attribute breaks the test rather than hiding. Netlink
itself is pyroute2's (Debian's /usr/bin/python3).

  mrc-genl.py [--dump] [--rcvbuf BYTES] CMD [ATTR=TYPE:VALUE | ATTR={ ... } ]...
  mrc-genl.py --serve REPLY-FILE

--rcvbuf reads every reply with a buffer of BYTES (default 1 MiB), as a
program with a small buffer would; the kernel sizes a dump's messages
after the reads it has seen; a reply cut short (MSG_TRUNC) is an error.

--serve reads requests from stdin, one per line: an id and the words,
separated by 0x1f; it writes each one's output lines (error lines
prefixed by 0x02) to REPLY-FILE, then answers on stdout with one line:
the id, 0x1f, 0x04 and the exit status. lib.sh's mrc_genl uses it as a
coprocess, because starting Python once per request is slow under
emulation; the reply goes through a file because bash reads a pipe one
byte per read(), a regular file in blocks (a dump of 4096 EVs took
seconds through the pipe).

CMD is MRC_CMD_X or X. ATTR is the C name of an attribute (MRC_EV_INDEX),
X for MRC_ATTR_X, or a name ending in _N for attribute number N. TYPE is
u8, u16, u32, u64, str, bin (hex), flag or raw (hex, sent with whatever
length it has): the request is encoded as the command line says, not as
the spec says, so that a test can send what the kernel must refuse. A
nest is ATTR={ ... }, with the braces as separate words. Exit: 0, or the
positive errno.
Output: one JSON object per reply message, attributes by their C names
(an unknown one as ENUM_N); on error, a line "error ERRNO NAME: EXTACK"
on stderr.
"""
import contextlib
import errno
import importlib.util
import io
import json
import os
import signal
import struct
import sys
import types

import yaml


def _netlink_only():
    """Import pyroute2's netlink modules without the package's __init__,
    which loads all of pyroute2 (IPRoute, NDB, asyncio): 0.4 s of the
    0.55 s a call took, many seconds under emulation, where ctl_probe
    gives a backgrounded call 10 s to send its probes."""
    spec = importlib.util.find_spec("pyroute2")
    pkg = types.ModuleType("pyroute2")
    pkg.__path__, pkg.__spec__ = list(spec.submodule_search_locations), spec
    sys.modules.setdefault("pyroute2", pkg)


_netlink_only()
from pyroute2.netlink import (  # noqa: E402
    NLA_F_NESTED, NLM_F_ACK, NLM_F_DUMP, NLM_F_DUMP_INTR, NLM_F_REQUEST, NLMSG_DONE,
    NLMSG_ERROR, genlmsg, nla, nlmsgerr)
from pyroute2.netlink.exceptions import NetlinkError  # noqa: E402
from pyroute2.netlink.generic import GenericNetlinkSocket  # noqa: E402
from pyroute2.netlink.nlsocket import NetlinkSocket  # noqa: E402

SPEC = os.environ.get("MRC_GENL_SPEC") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "../../Documentation/netlink/specs/mrc.yaml")
SOL_NETLINK, NETLINK_CAP_ACK = 270, 10
# Command line types -> pyroute2 nla classes.
REQ_TYPES = {"u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
             "str": "asciiz", "bin": "cdata", "raw": "cdata", "flag": "flag"}
# Spec types -> pyroute2 nla classes, for replies.
SPEC_TYPES = {"u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
              "string": "asciiz", "binary": "cdata", "flag": "flag", "pad": "cdata",
              "unused": "cdata"}
# Extended ACK TLVs (uapi linux/netlink.h).
EXTACK_MAP = ((1, "NLMSGERR_ATTR_MSG", "asciiz"), (2, "NLMSGERR_ATTR_OFFS", "uint32"),
              (3, "NLMSGERR_ATTR_COOKIE", "cdata"), (4, "NLMSGERR_ATTR_POLICY", "cdata"),
              (5, "NLMSGERR_ATTR_MISS_TYPE", "uint32"), (6, "NLMSGERR_ATTR_MISS_NEST", "uint32"))


def c_name(prefix, name):
    return (prefix + name).upper().replace("-", "_")


class Spec:
    """The family's names, numbers and types, from its YNL spec."""

    def __init__(self, path):
        try:
            y = yaml.load(open(path), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except OSError as e:
            sys.exit("mrc-genl.py: cannot read the spec: %s" % e)
        self.sets = {s["name"]: s for s in y["attribute-sets"]}
        self.enums = {}   # every C name -> value, as the header's enumerators
        self.space = {}   # set name -> {value: (C name, attribute)}
        for s in y["attribute-sets"]:
            if "subset-of" in s:
                continue
            nxt, members = 1, {}
            for a in s["attributes"]:
                nxt = a.get("value", nxt)
                members[nxt] = (c_name(s["name-prefix"], a["name"]), a)
                self.enums.setdefault(members[nxt][0], nxt)
                nxt += 1
            self.space[s["name"]] = members
        ops = y["operations"]
        self.cmd_enum = ops["enum-name"]
        self.cmds, nxt = {}, 1
        for op in ops["list"]:
            nxt = op.get("value", nxt)
            self.cmds[nxt] = c_name(ops["name-prefix"], op["name"])
            self.enums[self.cmds[nxt]] = nxt
            nxt += 1
        for d in y.get("definitions", []):
            if d["type"] == "enum":
                nxt = d.get("value-start", 0)
                for e in d["entries"]:
                    e = e if isinstance(e, dict) else {"name": e}
                    nxt = e.get("value", nxt)
                    self.enums.setdefault(c_name(d["name-prefix"], e["name"]), nxt)
                    nxt += 1
        self.classes = {}

    def base(self, name):
        return self.sets[name].get("subset-of", name)

    def unknown(self, set_name, value):
        return "%s_%d" % (self.sets[set_name]["enum-name"], value)

    def nla_class(self, set_name, top=False):
        """A pyroute2 class decoding the members of a set. Subsets decode
        with their whole set; an array-nest's members are attributes of
        the set holding it (MRC_ATTR_EVS holds MRC_ATTR_EV_ENTRY nests)."""
        set_name = self.base(set_name)
        key = (set_name, top)
        if key in self.classes:
            return self.classes[key]
        ns = {"__slots__": (), "mrc_set": set_name}
        nla_map = []
        cls = type("mrc_" + set_name.replace("-", "_"), (genlmsg if top else nla,), ns)
        self.classes[key] = cls
        for value, (name, a) in sorted(self.space[set_name].items()):
            if a["type"] in ("nest", "array-nest"):
                inner = set_name if a["type"] == "array-nest" else a["nested-attributes"]
                if self.base(inner) == set_name and not top:
                    nla_map.append((value, name, "recursive"))
                else:
                    attr = "c_" + self.base(inner).replace("-", "_")
                    setattr(cls, attr, self.nla_class(inner))
                    nla_map.append((value, name, attr))
            else:
                nla_map.append((value, name, SPEC_TYPES[a["type"]]))
        cls.nla_map = tuple(nla_map)
        return cls


def request_tree(words, spec):
    """Words up to a closing '}' -> ([(name, number, type, value)], words left)."""
    out = []
    while words:
        word = words.pop(0)
        if word == "}":
            return out, words
        name, _, rest = word.partition("=")
        if not name.startswith("MRC_"):
            name = "MRC_ATTR_" + name
        atype = spec.enums[name] if name in spec.enums else int(name.split("_")[-1])
        if rest == "{":
            inner, words = request_tree(words, spec)
            out.append((name, atype, "nest", inner))
            continue
        kind, _, value = rest.partition(":")
        if kind not in REQ_TYPES:
            sys.exit("mrc-genl.py: unknown type %s" % kind)
        if kind.startswith("u"):
            value = int(value, 0)
        elif kind in ("bin", "raw"):
            value = bytes.fromhex(value)
        elif kind == "flag":
            value = True
        out.append((name, atype, kind, value))
    return out, words


def request_class(tree, base=genlmsg):
    """A pyroute2 class for exactly this request: each attribute under
    its own key, with the type the command line gave it."""
    ns, nla_map, attrs = {"__slots__": ()}, [], []
    for i, (name, atype, kind, value) in enumerate(tree):
        key = "%s#%d" % (name, i)
        if kind == "nest":
            ns["n%d" % i], inner = request_class(value, nla)
            nla_map.append((atype, key, "n%d" % i, NLA_F_NESTED))
            attrs.append([key, {"attrs": inner}])
        else:
            nla_map.append((atype, key, REQ_TYPES[kind]))
            attrs.append([key, value])
    ns["nla_map"] = tuple(nla_map) or ((0, "NONE", "none"),)
    return type("mrc_request", (base,), ns), attrs


class Ack(nlmsgerr):
    """NLMSG_ERROR: pyroute2 0.7's nlmsgerr reads the TLVs where the
    echoed request header is and the cookie as one byte; with
    NETLINK_CAP_ACK the header is all that is echoed."""
    __slots__ = ()
    fields = (("error", "i"), ("len", "I"), ("type", "H"), ("flags", "H"),
              ("seq", "I"), ("pid", "I"))
    nla_map = EXTACK_MAP


class Done(nlmsgerr):
    """NLMSG_DONE: a dump's end, its error and extack."""
    __slots__ = ()
    fields = (("error", "i"),)
    nla_map = EXTACK_MAP


def decode(msg, spec, set_name):
    """A decoded pyroute2 message or nest -> dict by C name; repeated
    members become a list. Values print as they always have: integers,
    strings, binary as hex, a flag as ""."""
    out = {}
    for slot in msg["attrs"]:
        name = slot[0]
        cell = slot.cell[1]
        raw = bytes(cell.data[cell.offset:cell.offset + cell.length])
        fields = getattr(cell, "fields", None)
        if name == "UNKNOWN" or (fields and fields[0][1] in "BHIQ" and
                                 struct.calcsize(fields[0][1]) != len(raw) - 4):
            # Not in the spec, or not the size it says: as its length says.
            if name == "UNKNOWN":
                name = spec.unknown(set_name, struct.unpack_from("H", raw, 2)[0] & 0x3FFF)
            payload = raw[4:]
            value = (int.from_bytes(payload, "little") if len(payload) in (1, 2, 4, 8)
                     else payload.hex())
        else:
            value = slot.get_value()
            if isinstance(value, nla):
                value = decode(value, spec, value.mrc_set)
            elif isinstance(value, (bytes, bytearray)):
                value = bytes(value).hex()
            elif value is True and not cell.length - 4:  # a flag
                value = ""
            elif isinstance(value, str):
                value = value.rstrip("\0")
        if name in out:  # repeated members of a list nest
            if not isinstance(out[name], list):
                out[name] = [out[name]]
            out[name].append(value)
        else:
            out[name] = value
    return out


def resolve(spec, name):
    """The family's id, on a socket of its own: reading the controller's
    answer with a large buffer would change how the kernel sizes the
    dump the request socket reads (--rcvbuf)."""
    sock = GenericNetlinkSocket()
    sock.module_err_level = "debug"  # the error below says it once
    try:
        sock.bind(name, spec.nla_class("attr", top=True))
        return sock.prid
    except NetlinkError as e:
        sys.exit("mrc-genl.py: family %s not found (%s)" % (name, os.strerror(e.code)))
    finally:
        sock.close()


def request(prid, cmd, tree, flags, rcvbuf, spec):
    """Send; return (errno, extack, replies)."""
    req_cls, attrs = request_class(tree)
    reply_cls = spec.nla_class("attr", top=True)
    sock = GenericNetlinkSocket(ext_ack=True)
    try:
        sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        NetlinkSocket.bind(sock)
        msg = req_cls()
        msg["cmd"], msg["version"], msg["attrs"] = cmd, 2, attrs
        seq = 2
        sock.put(msg, prid, flags | NLM_F_REQUEST | NLM_F_ACK, msg_seq=seq)
        replies = []
        while True:
            data = sock.recv(rcvbuf)
            offset = 0
            while offset < len(data):
                length, mtype = struct.unpack_from("IH", data, offset)
                if offset + length > len(data):
                    sys.exit("mrc-genl.py: a reply did not fit in %d bytes" % rcvbuf)
                cls = {NLMSG_ERROR: Ack, NLMSG_DONE: Done}.get(mtype, reply_cls)
                m = cls(data, offset=offset)
                m.decode()
                offset += (length + 3) & ~3
                if m["header"]["sequence_number"] != seq:
                    continue
                if mtype in (NLMSG_ERROR, NLMSG_DONE):  # a dump's end carries its error
                    return -m["error"], extack(m, spec), replies
                replies.append(m)
    finally:
        sock.close()


def extack(m, spec):
    out = {}
    for slot in m["attrs"]:
        v = slot.get_value()
        if slot[0] == "NLMSGERR_ATTR_MSG":
            out["msg"] = v.rstrip("\0")
        elif slot[0] == "NLMSGERR_ATTR_OFFS":
            out["offset"] = v
        elif slot[0] == "NLMSGERR_ATTR_COOKIE":
            out["cookie"] = int.from_bytes(v, "little")
        elif slot[0] == "NLMSGERR_ATTR_MISS_TYPE":
            out["missing"] = spec.space["attr"].get(v, (spec.unknown("attr", v),))[0]
    return out


def errname(err):
    return "EOPNOTSUPP" if err == errno.EOPNOTSUPP else errno.errorcode.get(err, "?")


def serve(reply_path):
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        for line in sys.stdin:
            rid, *words = line.rstrip("\n").split("\x1f")
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out):
                    rc = main(words, err_prefix="\x02")
            except SystemExit as e:
                rc = 1
                out.write("\x02%s\n" % e)
            with open(reply_path, "w") as reply:
                reply.write(out.getvalue())
            sys.stdout.write("%s\x1f\x04%d\n" % (rid, rc))
            sys.stdout.flush()
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(reply_path)
    return 0


SPEC_CACHE = []


def main(argv, err_prefix=None):
    if not SPEC_CACHE:
        SPEC_CACHE.append(Spec(SPEC))
    spec = SPEC_CACHE[0]
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
    tree, rest = request_tree(list(argv[1:]), spec)
    if rest:
        sys.exit("mrc-genl.py: unbalanced braces")
    err, ack, replies = request(resolve(spec, "mrc"), spec.enums[cmd], tree, flags, rcvbuf,
                                spec)
    for msg in replies:
        obj = decode(msg, spec, "attr")
        obj["cmd"] = spec.cmds.get(msg["cmd"], "%s_%d" % (spec.cmd_enum, msg["cmd"]))
        if msg["header"]["flags"] & NLM_F_DUMP_INTR:
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
    if sys.argv[1:2] == ["--serve"]:
        if len(sys.argv) != 3:
            sys.exit("usage: mrc-genl.py --serve REPLY-FILE")
        sys.exit(serve(sys.argv[2]))
    sys.exit(main(sys.argv[1:]))
