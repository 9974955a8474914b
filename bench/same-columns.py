#!/usr/bin/env python3
"""Compare two CSV reports on the columns both have.

    same-columns.py BEFORE.csv AFTER.csv

For two versions of jaxprof whose reports gained columns on purpose (a
new issue's columns), byte for byte says only "differ".  This says what:
the columns only one side has, and for the columns both have, the rows
that differ, where a cell empty before and filled after (a value the
older version did not know) counts apart from a changed one.  A file
that is not CSV with a header on both sides is compared byte for byte.
Rows are paired in order.

Prints one line per finding; exit status 0 when the columns both have
agree everywhere (cells filled where before had none included), 1 when
some differ or the rows do not pair, 2 on usage.
"""

import csv
import sys


def read(path):
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        return list(csv.reader(f))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "rb") as f:
        raw_b = f.read()
    with open(argv[2], "rb") as f:
        raw_a = f.read()
    if raw_b == raw_a:
        return 0
    before, after = read(argv[1]), read(argv[2])
    if not before or not after or len(before[0]) < 2 or len(after[0]) < 2:
        print("differ (not CSV)")
        return 1
    hb, ha = before[0], after[0]
    only_b = [c for c in hb if c not in ha]
    only_a = [c for c in ha if c not in hb]
    common = [c for c in hb if c in ha]
    if only_b:
        print("columns only before: " + ",".join(only_b))
    if only_a:
        print("columns only after: " + ",".join(only_a))
    ib = [hb.index(c) for c in common]
    ia = [ha.index(c) for c in common]
    rows_b, rows_a = before[1:], after[1:]
    bad = 0
    if len(rows_b) != len(rows_a):
        print("rows: %d before, %d after" % (len(rows_b), len(rows_a)))
        bad = 1
    filled = {}
    changed = {}
    first = {}
    for n, (rb, ra) in enumerate(zip(rows_b, rows_a), start=2):
        for c, i, j in zip(common, ib, ia):
            vb = rb[i] if i < len(rb) else None
            va = ra[j] if j < len(ra) else None
            if vb == va:
                continue
            if vb == "" and va not in (None, ""):
                filled[c] = filled.get(c, 0) + 1
            else:
                changed[c] = changed.get(c, 0) + 1
                first.setdefault(c, (n, vb, va))
    for c in common:
        if c in filled:
            print("filled after, empty before: %s (%d rows)" % (c, filled[c]))
    for c in common:
        if c in changed:
            n, vb, va = first[c]
            print("CHANGED %s: %d rows (line %d: %r -> %r)"
                  % (c, changed[c], n, vb, va))
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
