#!/usr/bin/env python3
"""Make a big XSpace by tiling a real one in time.

    tile-xspace.py [--times=N] SOURCE OUT

SOURCE is an .xplane.pb that a profiler wrote (a GPU profile from
../shared/corpus, say).  OUT gets every plane of it, with each line's
events N times (default 8), copy k shifted by k times the span of the
whole profile, so that host and device lines stay in step.  Metadata,
stats and the /host:metadata plane (the programs' HLO) are kept once.
The events are the profiler's own; only their repetition is made up, so
steps and correlation ids repeat.  Needs the 'protobuf' package and
protoc (as bench/top_reference.py does).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import top_reference  # noqa: E402  (its xplane_pb2 loader)


def span_ps(space):
    """First and last picosecond of any event of the profile."""
    first, last = None, None
    for plane in space.planes:
        for line in plane.lines:
            base = line.timestamp_ns * 1000
            for ev in line.events:
                if ev.WhichOneof("data") != "offset_ps":
                    continue  # an aggregate: no time of its own
                start = base + ev.offset_ps
                first = start if first is None else min(first, start)
                last = max(last or 0, start + ev.duration_ps)
    return first, last


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--times", type=int, default=8)
    ap.add_argument("source")
    ap.add_argument("out")
    a = ap.parse_args()
    if a.times < 1:
        sys.exit("tile-xspace: --times must be 1 or more")

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    pb2 = top_reference.load_xplane_pb2(os.path.join(root, "proto",
                                                     "xplane.proto"))
    space = pb2.XSpace()
    with open(a.source, "rb") as f:
        space.ParseFromString(f.read())
    first, last = span_ps(space)
    if first is None:
        sys.exit("tile-xspace: %s has no events" % a.source)
    span = last - first
    for plane in space.planes:
        for line in plane.lines:
            events = [ev for ev in line.events
                      if ev.WhichOneof("data") == "offset_ps"]
            for k in range(1, a.times):
                for ev in events:
                    copy = line.events.add()
                    copy.CopyFrom(ev)
                    copy.offset_ps = ev.offset_ps + k * span
            if line.duration_ps:
                line.duration_ps += (a.times - 1) * span
    with open(a.out, "wb") as f:
        f.write(space.SerializeToString())


if __name__ == "__main__":
    main()
