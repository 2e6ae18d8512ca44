#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Hold the "mrc" family's hand-written C to its YNL spec.

  genl-spec-check.py [--root DIR]

Reads Documentation/netlink/specs/mrc.yaml, kernel/uapi/mrc-genl.h and the
nla_policy arrays and genl_ops of kernel/ctl/*.c under DIR (default: the
tree this script is in), and prints TAP:

- every enum of the header against the spec's attribute sets, commands
  and enum/flags definitions, names and values, both ways; the #defines
  (family name, version, multicast group, constants, flag bits) too;
- every genl op: handlers against do/dump, flags against admin-perm /
  uns-admin-perm, its policy's entries against the request attributes;
- every policy reached from the ops through NLA_POLICY_NESTED(_ARRAY),
  entry by entry: type and checks (min, max, max-len, exact-len,
  flags-mask) against the spec; a subset's policy must list exactly the
  subset, a full set's may leave out reply-only attributes;
- that no nla_policy array of kernel/ctl is left unchecked.

Policies are found by name across kernel/ctl/*.c, not by file. The C is
read with regexes: policies written as designated initializers with the
NLA_POLICY_* macros, range structs and simple #define macros.
"""
import glob
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Kernel constants the driver's headers do not define.
KERNEL_CONSTS = {"IB_DEVICE_NAME_MAX": 64, "U8_MAX": 0xff, "U16_MAX": 0xffff,
                 "U32_MAX": 0xffffffff, "U64_MAX": (1 << 64) - 1, "S16_MAX": 0x7fff}
LIMITS = {"%s%d-%s" % (s, b, m): v for s in "us" for b in (8, 16, 32, 64)
          for m, v in (("min", 0 if s == "u" else -(1 << (b - 1))),
                       ("max", (1 << b) - 1 if s == "u" else (1 << (b - 1)) - 1))}
NLA_TYPES = {"NLA_U8": "u8", "NLA_U16": "u16", "NLA_U32": "u32", "NLA_U64": "u64",
             "NLA_S8": "s8", "NLA_S16": "s16", "NLA_S32": "s32", "NLA_S64": "s64",
             "NLA_NUL_STRING": "string", "NLA_STRING": "string-unterminated",
             "NLA_BINARY": "binary", "NLA_FLAG": "flag", "NLA_NESTED": "nest",
             "NLA_NESTED_ARRAY": "array-nest", "NLA_REJECT": "reject"}


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def check(self, desc, problems):
        self.n += 1
        if problems:
            self.failed += 1
            print("not ok %d - %s" % (self.n, desc))
            for p in problems:
                print("# " + p)
        else:
            print("ok %d - %s" % (self.n, desc))


def c_name(*parts):
    return "".join(parts).upper().replace("-", "_")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def split_top(text, sep=","):
    """Split at separators outside (), [] and {}."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class CEval:
    """Integer expressions of the C: enumerators, #defines, BIT(), sizeof."""

    def __init__(self):
        self.values = dict(KERNEL_CONSTS)
        self.defines = {}

    def __call__(self, expr):
        expr = expr.strip()
        for _ in range(20):
            new = re.sub(r"\bsizeof\(__(?:be|le|u)(\d+)\)",
                         lambda m: str(int(m.group(1)) // 8), expr)
            new = re.sub(r"\b(\d+|0x[0-9a-fA-F]+)(?:ULL|UL|LL|U|L)\b", r"\1", new)
            new = re.sub(r"\bBIT\(", "(1 << ", new)  # BIT(x) -> (1 << x)

            def ident(m):
                name = m.group(0)
                if name in self.values:
                    return str(self.values[name])
                if name in self.defines:
                    return "(" + self.defines[name] + ")"
                return name
            new = re.sub(r"\b[A-Za-z_]\w*\b", ident, new)
            if new == expr:
                break
            expr = new
        if not re.fullmatch(r"[0-9a-fA-Fx()<>+\-*/|&~ ]*", expr):
            raise ValueError("cannot evaluate %r" % expr)
        return int(eval(expr.replace("/", "//"), {"__builtins__": {}}))


def parse_header(text, ev):
    """Enums (name -> [(member, value)]) and #defines (name -> text)."""
    text = strip_comments(text)
    enums = {}
    for ename, body in re.findall(r"enum\s+(\w+)\s*\{(.*?)\}\s*;", text, flags=re.S):
        members, nxt = [], 0
        for item in split_top(body):
            name, _, expr = item.partition("=")
            name = name.strip()
            if expr.strip():
                nxt = ev(expr)
            ev.values[name] = nxt
            members.append((name, nxt))
            nxt += 1
        enums[ename] = members
    defines = {}
    for name, val in re.findall(r"^\s*#\s*define\s+(\w+)[ \t]+(.+?)\s*$", text, flags=re.M):
        defines[name] = val
    return enums, defines


def expand_macros(text):
    """Expand object-like and function-like #defines used in initializers."""
    obj, fn = {}, {}
    def_re = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(([^)]*)\))?[ \t]*((?:[^\n]*\\\n)*[^\n]*)$",
                        re.M)
    for m in def_re.finditer(text):
        body = m.group(4).replace("\\\n", " ")
        if m.group(2):
            fn[m.group(1)] = ([a.strip() for a in m.group(3).split(",")], body)
        elif "[" in body and "=" in body:  # policy fragments only
            obj[m.group(1)] = body
    text = def_re.sub("", text)
    for name, body in obj.items():
        text = re.sub(r"\b%s\b" % name, lambda _m: body, text)
    for name, (params, body) in fn.items():
        while True:
            m = re.search(r"\b%s\s*\(" % name, text)
            if not m:
                break
            depth, i = 1, m.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            args = split_top(text[m.end():i - 1])
            out = body
            for p, a in zip(params, args):
                out = re.sub(r"\b%s\b" % re.escape(p), lambda _m, a=a: a, out)
            text = text[:m.start()] + out + text[i:]
    return text


def designated(body):
    """'.a = x, .b = y' -> {a: x, b: y}."""
    out = {}
    for item in split_top(body.strip().strip("{}")):
        m = re.match(r"\.(\w+)\s*=\s*(.*)$", item, flags=re.S)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


class Kernel:
    def __init__(self, root, ev):
        self.policies, self.ranges, self.ops, self.family, self.mcgrps = {}, {}, [], {}, []
        self.dups = []
        self.files = {}
        ctl = sorted(glob.glob(os.path.join(root, "kernel/ctl/*.c")))
        for path in sorted(glob.glob(os.path.join(root, "kernel/**/*.h"), recursive=True)) + ctl:
            if path.endswith("uapi/mrc-genl.h"):
                continue
            for name, val in re.findall(r"^\s*#\s*define\s+(\w+)[ \t]+([^\\\n]+?)\s*$",
                                        strip_comments(open(path).read()), flags=re.M):
                ev.defines.setdefault(name, val)
        for path in ctl:
            text = expand_macros(strip_comments(open(path).read()))
            base = os.path.basename(path)
            for name, body in re.findall(
                    r"struct\s+netlink_range_validation\s+(\w+)\s*=\s*(\{.*?\})\s*;", text, flags=re.S):
                self.ranges[name] = designated(body)
            for name, body in re.findall(
                    r"struct\s+nla_policy\s+(\w+)\s*\[[^\]]*\]\s*=\s*\{(.*?)\}\s*;\s*(?=\n|$)",
                    text, flags=re.S):
                if name in self.policies:
                    self.dups.append(name)
                entries = {}
                for item in split_top(body):
                    m = re.match(r"\[\s*(\w+)\s*\]\s*=\s*(.*)$", item, flags=re.S)
                    if m:
                        entries[m.group(1)] = " ".join(m.group(2).split())
                self.policies[name] = entries
                self.files[name] = base
            for body in re.findall(r"struct\s+genl_ops\s+\w+\s*\[\s*\]\s*=\s*\{(.*?)\}\s*;",
                                   text + "\n", flags=re.S):
                self.ops += [designated(op) for op in split_top(body)]
            m = re.search(r"struct\s+genl_family\s+\w+[^=]*=\s*(\{.*?\})\s*;", text, flags=re.S)
            if m:
                self.family = designated(m.group(1))
            for body in re.findall(r"struct\s+genl_multicast_group\s+\w+\s*\[\s*\]\s*=\s*\{(.*?)\}\s*;",
                                   text, flags=re.S):
                self.mcgrps += [designated(g) for g in split_top(body)]


def parse_policy(text, kern, ev):
    """One policy entry -> (type, checks, nested policy name)."""
    text = text.strip()
    m = re.fullmatch(r"\{(.*)\}", text)
    if m:
        d = designated(m.group(1))
        typ = NLA_TYPES.get(d.get("type", ""), d.get("type"))
        checks = {}
        if "len" in d:
            checks["max-len"] = ev(d["len"])
        return typ, checks, None
    m = re.fullmatch(r"(NLA_POLICY_\w+)\((.*)\)", text, flags=re.S)
    if not m:
        raise ValueError("unknown policy %r" % text)
    macro, args = m.group(1), split_top(m.group(2))
    if macro in ("NLA_POLICY_NESTED", "NLA_POLICY_NESTED_ARRAY"):
        return ("nest" if macro == "NLA_POLICY_NESTED" else "array-nest"), {}, args[0]
    if macro == "NLA_POLICY_EXACT_LEN":
        return "binary", {"exact-len": ev(args[0])}, None
    if macro == "NLA_POLICY_MAX_LEN":
        return "binary", {"max-len": ev(args[0])}, None
    if macro == "NLA_POLICY_MIN_LEN":
        return "binary", {"min-len": ev(args[0])}, None
    typ = NLA_TYPES.get(args[0], args[0])
    if macro == "NLA_POLICY_MAX":
        return typ, {"max": ev(args[1])}, None
    if macro == "NLA_POLICY_MIN":
        return typ, {"min": ev(args[1])}, None
    if macro == "NLA_POLICY_RANGE":
        return typ, {"min": ev(args[1]), "max": ev(args[2])}, None
    if macro == "NLA_POLICY_MASK":
        return typ, {"mask": ev(args[1])}, None
    if macro == "NLA_POLICY_FULL_RANGE":
        r = kern.ranges[args[1].lstrip("&").strip()]
        checks = {}
        if "min" in r:
            checks["min"] = ev(r["min"])
        if "max" in r:
            checks["max"] = ev(r["max"])
        return typ, checks, None
    raise ValueError("unknown policy macro %s" % macro)


class Spec:
    def __init__(self, path):
        self.y = yaml.safe_load(open(path))
        self.defs = {d["name"]: d for d in self.y.get("definitions", [])}
        self.sets = {s["name"]: s for s in self.y["attribute-sets"]}

    def base_set(self, name):
        s = self.sets[name]
        return self.sets[s["subset-of"]] if "subset-of" in s else s

    def attrs(self, set_name):
        """[(C name, value, definition)] of a set; a subset's with the
        parent's definitions, overridden by the subset's keys."""
        s = self.sets[set_name]
        base = self.base_set(set_name)
        out, nxt = [], 1
        full = {}
        for a in base["attributes"]:
            nxt = a.get("value", nxt)
            full[a["name"]] = (c_name(base["name-prefix"], a["name"]), nxt, a)
            nxt += 1
        if s is base:
            return list(full.values())
        for a in s["attributes"]:
            cname, val, d = full[a["name"]]
            out.append((cname, val, dict(d, **a)))
        return out

    def enum_entries(self, d):
        out, nxt = [], d.get("value-start", 0)
        for i, e in enumerate(d["entries"]):
            e = e if isinstance(e, dict) else {"name": e}
            nxt = e.get("value", nxt)
            out.append((c_name(d.get("name-prefix", self.y["name"] + "-" + d["name"] + "-"),
                               e["name"]), nxt))
            nxt += 1
        return out

    def flag_value(self, flags_name):
        return sum(1 << v for _, v in self.enum_entries(self.defs[flags_name]))

    def expected_policy(self, a):
        """(type, checks) the kernel should have for spec attribute a."""
        typ = a["type"]
        ch = a.get("checks", {})
        checks = {}
        for k in ("min", "max"):
            if k in ch:
                checks[k] = LIMITS[ch[k]] if isinstance(ch[k], str) else ch[k]
        if "max-len" in ch:
            checks["max-len"] = ch["max-len"]
        if "min-len" in ch:
            checks["min-len"] = ch["min-len"]
        if "exact-len" in ch:
            checks["exact-len"] = ch["exact-len"]
        if "flags-mask" in ch:
            checks["mask"] = self.flag_value(ch["flags-mask"])
        if typ == "string" and ch.get("unterminated-ok"):
            typ = "string-unterminated"
        return typ, checks


def check_header(tap, spec, enums, defines):
    y = spec.y
    seen_enums, seen_defs = set(), set()

    def compare(desc, ename, want):
        seen_enums.add(ename)
        have = enums.get(ename)
        if have is None:
            tap.check(desc, ["enum %s is not in the header" % ename])
            return
        probs = []
        hd, wd = dict(have), dict(want)
        for n, v in want:
            if n not in hd:
                probs.append("%s missing from the header (spec: %d)" % (n, v))
            elif hd[n] != v:
                probs.append("%s is %d in the header, %d in the spec" % (n, hd[n], v))
        for n, v in have:
            if n not in wd:
                probs.append("%s = %d is in the header, not in the spec" % (n, v))
        tap.check(desc, probs)

    def counted(members, prefix, cnt=None, maxn=None):
        last = members[-1][1]
        return members + [(cnt or c_name("__", prefix, "max"), last + 1),
                          (maxn or c_name(prefix, "max"), last)]

    ops = y["operations"]
    want, nxt = [], 1
    for op in ops["list"]:
        nxt = op.get("value", nxt)
        want.append((c_name(ops["name-prefix"], op["name"]), nxt))
        nxt += 1
    if want[0][1] == 1:
        want.insert(0, (c_name(ops["name-prefix"], "unspec"), 0))
    compare("commands: enum %s" % ops["enum-name"], ops["enum-name"],
            counted(want, ops["name-prefix"]))
    for s in y["attribute-sets"]:
        if "subset-of" in s:
            continue
        members = [(n, v) for n, v, _ in spec.attrs(s["name"])]
        cnt = s.get("attr-cnt-name") and c_name(s["attr-cnt-name"])
        mx = s.get("attr-max-name") and c_name(s["attr-max-name"])
        compare("attribute set %s: enum %s" % (s["name"], s["enum-name"]), s["enum-name"],
                counted(members, s["name-prefix"], cnt, mx))
    all_members = {n: v for ms in enums.values() for n, v in ms}
    for d in y.get("definitions", []):
        if d.get("header"):
            continue
        if d["type"] == "enum":
            want = spec.enum_entries(d)
            if d.get("render-max"):
                want = counted(want, d["name-prefix"])
            compare("enum %s: enum %s" % (d["name"], d["enum-name"]), d["enum-name"], want)
        elif d["type"] == "flags":
            probs = []
            for n, bit in spec.enum_entries(d):
                if n in all_members:  # BIT() of another enum's values
                    if all_members[n] != bit:
                        probs.append("%s is %d in the header, bit %d in the spec"
                                     % (n, all_members[n], bit))
                    continue
                seen_defs.add(n)
                if n not in defines:
                    probs.append("#define %s missing (spec: 0x%x)" % (n, 1 << bit))
                elif eval_int(defines[n]) != 1 << bit:
                    probs.append("%s is %s in the header, 0x%x in the spec"
                                 % (n, defines[n], 1 << bit))
            prefix = c_name(d["name-prefix"])
            for n in defines:
                if n.startswith(prefix) and n not in seen_defs:
                    probs.append("#define %s is in the header, not in flags %s" % (n, d["name"]))
                    seen_defs.add(n)
            tap.check("flags %s: #defines %s*" % (d["name"], prefix), probs)
        elif d["type"] == "const":
            n = c_name(y["name"], "-", d["name"])
            seen_defs.add(n)
            probs = []
            if n not in defines:
                probs.append("#define %s missing" % n)
            elif eval_int(defines[n]) != d["value"]:
                probs.append("%s is %s, spec %s" % (n, defines[n], d["value"]))
            tap.check("const %s: #define %s" % (d["name"], n), probs)
    probs = []
    strings = {c_name(y["c-family-name"]): '"%s"' % y["name"],
               c_name(y["c-version-name"]): str(y.get("version", 1))}
    for g in y.get("mcast-groups", {}).get("list", []):
        strings[c_name(g.get("c-define-name", "%s-mcgrp-%s" % (y["name"], g["name"])))] = \
            '"%s"' % g["name"]
    for n, v in strings.items():
        seen_defs.add(n)
        if defines.get(n) != v:
            probs.append("#define %s is %s, spec %s" % (n, defines.get(n), v))
    tap.check("family name, version and multicast groups", probs)
    extra = ["enum %s is in the header, not in the spec" % e for e in enums if e not in seen_enums]
    extra += ["#define %s is in the header, not in the spec" % d for d in defines
              if d not in seen_defs and not d.endswith("_USER_H")]
    tap.check("nothing in the header the spec does not describe", extra)


def eval_int(text):
    return int(re.sub(r"(?<=[0-9a-fA-F])[UL]+$", "", text.strip()), 0)


def check_policy(tap, spec, kern, ev, pol, set_name, allowed, exact, queue, where):
    probs = []
    entries = kern.policies.get(pol)
    if entries is None:
        tap.check("%s: policy %s" % (where, pol), ["no nla_policy %s in kernel/ctl/*.c" % pol])
        return
    defs = {n: d for n, _, d in spec.attrs(set_name)}
    for cname, text in entries.items():
        if cname not in defs:
            probs.append("%s: not in attribute set %s" % (cname, set_name))
            continue
        if allowed is not None and cname not in allowed:
            probs.append("%s: in the policy, not in the spec's request" % cname)
        try:
            typ, checks, nested = parse_policy(text, kern, ev)
        except (ValueError, KeyError) as e:
            probs.append("%s: %s" % (cname, e))
            continue
        d = defs[cname]
        if typ == "reject":  # reply-only attribute the kernel refuses in requests
            if allowed is not None:
                probs.append("%s: NLA_REJECT in an op's policy" % cname)
            continue
        if typ == "binary" and checks.get("min-len") is not None and \
                checks.get("min-len") == checks.get("max-len"):
            checks = {"exact-len": checks["min-len"]}
        want = spec.expected_policy(d)
        if (typ, checks) != want:
            probs.append("%s: kernel %s %s, spec %s %s" % (cname, typ, checks, want[0], want[1]))
        if nested:
            queue.append((nested, d.get("nested-attributes"), "%s in %s" % (cname, pol)))
    if exact is not None:
        for n in sorted(set(exact) - set(entries)):
            probs.append("%s: in the spec's %s, not in the policy" % (n, where))
    tap.check("%s: policy %s (%s) matches attribute set %s"
              % (where, pol, kern.files.get(pol, "?"), set_name), probs)


def main(argv):
    root = ROOT
    if argv[:1] == ["--root"] and len(argv) > 1:
        root = argv[1]
    spec = Spec(os.path.join(root, "Documentation/netlink/specs/mrc.yaml"))
    ev = CEval()
    enums, defines = parse_header(open(os.path.join(root, "kernel/uapi/mrc-genl.h")).read(), ev)
    ev.defines.update(defines)
    kern = Kernel(root, ev)
    tap = Tap()
    check_header(tap, spec, enums, defines)

    y = spec.y
    ops_by_cmd = {op.get("cmd"): op for op in kern.ops}
    queue, done = [], set()
    perm = {"GENL_ADMIN_PERM": "admin-perm", "GENL_UNS_ADMIN_PERM": "uns-admin-perm"}
    for op in y["operations"]["list"]:
        cname = c_name(y["operations"]["name-prefix"], op["name"])
        k = ops_by_cmd.get(cname) or ops_by_cmd.get("(%s)" % cname)
        if "event" in op:
            tap.check("op %s: events only, no genl_ops entry" % op["name"],
                      ["%s has a genl_ops entry" % cname] if k else [])
            continue
        if k is None:
            tap.check("op %s" % op["name"], ["no genl_ops entry for %s" % cname])
            continue
        probs = []
        for h, sub in (("doit", "do"), ("dumpit", "dump")):
            has = k.get(h, "NULL").strip("() ") not in ("NULL", "0")
            if has != (sub in op):
                probs.append(".%s is %s, spec %s '%s'" % (h, k.get(h, "unset"),
                             "has" if sub in op else "has no", sub))
        flags = set()
        for f in re.split(r"\s*\|\s*", k.get("flags", "0").strip("() ")):
            if f in perm:
                flags.add(perm[f])
            elif f not in ("0", ""):
                probs.append("flag %s not in the spec's vocabulary" % f)
        if flags != set(op.get("flags", [])):
            probs.append("flags %s, spec %s" % (sorted(flags), sorted(op.get("flags", []))))
        tap.check("op %s: handlers and flags" % op["name"], probs)
        pol = k.get("policy", "").strip("() ") or kern.family.get("policy", "").strip("() ")
        req = set()
        for sub in ("do", "dump"):
            for a in op.get(sub, {}).get("request", {}).get("attributes", []):
                req.add(c_name(spec.sets[op["attribute-set"]]["name-prefix"], a))
        done.add(pol)
        check_policy(tap, spec, kern, ev, pol, op["attribute-set"], req, req, queue,
                     "op %s" % op["name"])
    probs = [".flags of group %s is %s" % (g.get("name"), g.get("flags"))
             for g in kern.mcgrps
             if set(perm.get(f.replace("MCAST_CAP_NET_ADMIN", "UNS_ADMIN_PERM"), f)
                    for f in re.split(r"\s*\|\s*", g.get("flags", "0")) if f != "0")
             != set(y["mcast-groups"]["list"][0].get("flags", []))]
    if len(kern.mcgrps) != len(y["mcast-groups"]["list"]):
        probs.append("%d groups in the kernel, %d in the spec"
                     % (len(kern.mcgrps), len(y["mcast-groups"]["list"])))
    tap.check("multicast group flags (GENL_MCAST_CAP_NET_ADMIN is uns-admin-perm)", probs)
    while queue:
        pol, set_name, where = queue.pop(0)
        if set_name is None:
            tap.check(where, ["the spec has no nested-attributes for it"])
            continue
        if (pol, set_name) in done:
            continue
        done.add((pol, set_name))
        done.add(pol)
        sub = spec.sets[set_name]
        exact = [n for n, _, _ in spec.attrs(set_name)] if "subset-of" in sub else None
        check_policy(tap, spec, kern, ev, pol, set_name, None, exact, queue, where)
    tap.check("every nla_policy of kernel/ctl/*.c is checked",
              ["%s (%s) is reached from no op" % (p, kern.files[p])
               for p in kern.policies if p not in done]
              + ["%s is defined twice" % p for p in kern.dups])
    print("1..%d" % tap.n)
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
