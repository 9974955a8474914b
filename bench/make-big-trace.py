#!/usr/bin/env python3
"""Make a big Chrome trace JSON by tiling a small one in time.

    make-big-trace.py [--mb=N] SOURCE OUT

SOURCE is a trace JSON (plain or gzip), e.g. a perfetto_trace.json.gz that
JAX wrote.  OUT gets its metadata events ("ph": "M") once, then its other
events N times, each copy shifted by the span of the source, until OUT is at
least --mb MB (default 100); OUT is gzip when its name ends in .gz.  Times
are shifted in integer nanoseconds and written with 3 decimals, as JAX
writes them, so no float rounding creeps in.  Standard library only.
"""

import argparse
import gzip
import json
import sys
from decimal import Decimal

TS = '"@@ts@@"'


def ns(v):
    # repr() of a float is the shortest text that reads back as it: the
    # source's own digits.
    return int(Decimal(repr(v)) * 1000)


def us_text(t):
    return "%s%d.%03d" % ("-" if t < 0 else "", abs(t) // 1000, abs(t) % 1000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("source")
    ap.add_argument("out")
    a = ap.parse_args()

    with open(a.source, "rb") as f:
        raw = f.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    trace = json.loads(raw)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    meta = [e for e in events if e.get("ph") == "M"]
    timed = [e for e in events if e.get("ph") != "M" and "ts" in e]
    if not timed:
        sys.exit("make-big-trace: %s has no timed events" % a.source)
    end = max(ns(e["ts"]) + ns(e.get("dur", 0)) for e in timed)
    span = (end // 1000 + 1) * 1000

    # Each timed event as text once, its ts a placeholder filled per copy.
    texts = []
    for e in timed:
        e = dict(e)
        t = ns(e["ts"])
        e["ts"] = TS[1:-1]
        texts.append((t, json.dumps(e, ensure_ascii=False)))

    target = int(a.mb * 1024 * 1024)
    opener = gzip.open if a.out.endswith(".gz") else open
    with opener(a.out, "wt", encoding="utf-8") as out:
        size = 0

        def write(text):
            nonlocal size
            out.write(text)
            size += len(text.encode())

        write('{"displayTimeUnit": "ns", "traceEvents": [')
        for e in meta:
            write(json.dumps(e, ensure_ascii=False) + ", ")
        copies = 0
        while size < target:
            shift = copies * span
            write(", ".join(s.replace(TS, us_text(t + shift))
                            for t, s in texts) + ", ")
            copies += 1
        write("{}]}")
    print("make-big-trace: %d copies, %d events, %.1f MB uncompressed"
          % (copies, copies * len(texts) + len(meta), size / 1048576),
          file=sys.stderr)

if __name__ == "__main__":
    main()
