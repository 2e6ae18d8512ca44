#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Print who calls whom in mrc.ko, counted from the built objects, and
check that calls go one way between the layers of kernel/.

An object A calls an object B when one of A's undefined symbols (nm) is
defined by B. The layer of an object is its folder under kernel/. Rules:

  - core/ calls nothing outside itself;
  - a layer calls only layers below it (LAYERS lists them top down), so
    the layer graph has no cycle;
  - inside a layer, files that call each other in a loop (a strongly
    connected set) are allowed only as a pair listed in PAIRS: the two
    halves of one state machine;
  - and, from the sources, a file includes headers of its own layer and
    the layers below only (uapi/ from anywhere).

Output is TAP (one point per rule) after the graph itself, so make check
counts it like the other suites. Exit 1 when a rule fails.

  layer-graph.py [KERNEL_DIR]     default: kernel/ beside selftests/
"""
import os
import re
import subprocess
import sys

# Top down: each layer may call only those after it.
LAYERS = ["verbs", "ctl", "engine", "net", "core"]

# Loops that stay, each with the reason (kernel/engine/README says the
# same). A pair of object paths relative to kernel/.
PAIRS = {}

# Objects that are not part of the layered code: the module's link
# products.
SKIP = {"mrc.o", "mrc.mod.o"}


def objects(kdir):
    # The link list kbuild wrote for the module: exactly what is in mrc.ko,
    # without stale objects of removed files.
    mod = os.path.join(kdir, "mrc.mod")
    if os.path.exists(mod):
        return sorted(os.path.relpath(p, kdir)
                      for p in open(mod).read().split())
    out = []
    for root, _, files in os.walk(kdir):
        rel = os.path.relpath(root, kdir)
        if rel.split(os.sep)[0] in ("tests", "uapi"):
            continue
        for f in files:
            path = os.path.normpath(os.path.join(rel, f))
            if f.endswith(".o") and path not in SKIP:
                out.append(path)
    return sorted(out)


def symbols(kdir, obj):
    res = subprocess.run(["nm", os.path.join(kdir, obj)],
                         capture_output=True, text=True, check=True)
    defined, undefined = set(), set()
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRVWG":
            defined.add(parts[2])
    return defined, undefined


def layer_of(obj):
    head = obj.split(os.sep)[0]
    return head if head in LAYERS else "(top)"


def sccs(nodes, edges):
    """Tarjan's strongly connected components, each a sorted list."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    kdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..",
                                                               "kernel")
    objs = objects(kdir)
    if not objs:
        print("Bail out! no objects under %s: build the module first" % kdir)
        return 1

    owner, uses = {}, {}
    for o in objs:
        defined, undefined = symbols(kdir, o)
        uses[o] = undefined
        for s in defined:
            owner[s] = o
    edges, why = {}, {}
    for o in objs:
        for s in uses[o]:
            t = owner.get(s)
            if t and t != o:
                edges.setdefault(o, set()).add(t)
                why.setdefault((o, t), []).append(s)

    print("# Calls between files of mrc.ko (from nm of the built objects)")
    for o in objs:
        for t in sorted(edges.get(o, ())):
            syms = sorted(why[(o, t)])
            more = " +%d" % (len(syms) - 3) if len(syms) > 3 else ""
            print("#   %-24s -> %-24s %s%s" % (o, t, " ".join(syms[:3]),
                                               more))

    lay_edges = {}
    for (o, t) in why:
        a, b = layer_of(o), layer_of(t)
        if a != b:
            lay_edges.setdefault((a, b), []).append((o, t))
    print("# Calls between layers")
    for (a, b) in sorted(lay_edges):
        print("#   %-7s -> %-7s (%d file pairs)" % (a, b,
                                                   len(lay_edges[(a, b)])))

    failures = []

    # 1. Every object sits in a layer.
    stray = [o for o in objs if layer_of(o) == "(top)"]
    failures.append(("every object is in a layer folder",
                     ["%s is outside %s" % (o, "/".join(LAYERS))
                      for o in stray]))

    # 2. core/ calls nothing outside itself.
    bad = ["%s -> %s (%s)" % (o, t, " ".join(sorted(why[(o, t)])[:3]))
           for (a, b), pairs in lay_edges.items() if a == "core"
           for (o, t) in pairs]
    failures.append(("core/ calls nothing outside core/", sorted(bad)))

    # 3. Layers call only downwards (so the layer graph has no cycle).
    bad = []
    for (a, b), pairs in sorted(lay_edges.items()):
        if a in LAYERS and b in LAYERS and \
           LAYERS.index(a) > LAYERS.index(b):
            bad += ["%s -> %s (%s)" % (o, t, " ".join(sorted(why[(o, t)])[:3]))
                    for (o, t) in sorted(pairs)]
    failures.append(("calls between layers go down only (%s)" %
                     " > ".join(LAYERS), bad))

    # 4. Inside a layer, no loop but the listed pairs.
    bad = []
    print("# Loops of files (strongly connected sets)")
    for comp in sccs(objs, edges):
        if len(comp) < 2:
            continue
        print("#   " + " <-> ".join(comp))
        if len(comp) == 2 and tuple(comp) in PAIRS:
            print("#     allowed: " + PAIRS[tuple(comp)])
            continue
        bad.append(" <-> ".join(comp))
    failures.append(("no loop of files but the listed state-machine pairs",
                     bad))

    # 5. Includes go down too (read from the sources).
    bad = []
    for layer in LAYERS:
        ldir = os.path.join(kdir, layer)
        if not os.path.isdir(ldir):
            continue
        for f in sorted(os.listdir(ldir)):
            if not f.endswith((".c", ".h")) or f.endswith(".mod.c"):
                continue
            for n, line in enumerate(open(os.path.join(ldir, f)), 1):
                m = re.match(r'#include "([a-z]+)/', line)
                if not m or m.group(1) == "uapi":
                    continue
                inc = m.group(1)
                if inc not in LAYERS or LAYERS.index(inc) < LAYERS.index(layer):
                    bad.append("%s/%s:%d includes %s" % (layer, f, n,
                                                         line.split()[1]))
    failures.append(("headers are included from the same layer or below",
                     bad))

    print("1..%d" % len(failures))
    nfail = 0
    for i, (name, problems) in enumerate(failures, 1):
        if problems:
            nfail += 1
            print("not ok %d - %s" % (i, name))
            for p in problems:
                print("# " + p)
        else:
            print("ok %d - %s" % (i, name))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
