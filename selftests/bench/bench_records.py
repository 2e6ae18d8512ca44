# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""What each VM benchmark's summary does with the guest's log: collect
its "@TAG {JSON}" records, and keep its section in the results file
beside the other benchmarks' sections (the file keeps one per TAG)."""

import json
import os
import sys


def read(path, tag):
    """The records of the lines starting "@TAG " in the log at PATH; a
    line cut short (the guest stopped mid-write) is passed over."""
    prefix = f"@{tag} "
    records = []
    with open(path, encoding="utf-8", errors="replace") as log:
        for text in log:
            if text.startswith(prefix):
                try:
                    records.append(json.loads(text[len(prefix):]))
                except ValueError:
                    pass
    return records


def store(path, tag, section):
    """SECTION as the results file's TAG, the other sections kept."""
    results = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            results = json.load(f)
    results[tag] = section
    with open(path, "w", encoding="utf-8") as f:
        json.dump(results, f, indent=1)


def print_line(line):
    """--line: the record on stdin (None when it is not JSON: the step
    gave no result) as LINE(record) writes it; the exit status, 0."""
    try:
        rec = json.load(sys.stdin)
    except ValueError:
        rec = None
    print(line(rec))
    return 0
