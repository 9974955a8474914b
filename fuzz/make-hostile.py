#!/usr/bin/env python3
"""Writes the hand-made hostile inputs of fuzz/crashers/ (issue 12).

Each one stands for a class of finding; make check replays them through
the fuzz targets (t0600, under ASan/UBSan in .ci/run) and t0610 checks what
jaxprof says about them.  Only the Python standard library is used:

    python3 fuzz/make-hostile.py fuzz/crashers
"""
import gzip
import io
import os
import sys
import tarfile
import zlib


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def fint(field, v):
    return varint(field << 3) + varint(v)


def flen(field, b):
    if isinstance(b, str):
        b = b.encode()
    return varint(field << 3 | 2) + varint(len(b)) + b


def int_stat(md, v):
    return fint(1, md) + fint(4, v)


def space(events, line_ts=0, name=b"fusion.1", steps_ts=None, stat_names=()):
    """One GPU plane, one "XLA Ops" line; events are (offset, dur, stats).
    With steps_ts, a "Steps" line stamped so, with one event, first.
    Stat metadata 1-3 are device_offset_ps, device_duration_ps, hlo_op;
    stat_names adds more from 4 on."""
    line = fint(1, 1) + flen(2, "XLA Ops") + fint(3, line_ts)
    for off, dur, evstats in events:
        ev = fint(1, 1) + fint(2, off) + fint(3, dur)
        for st in evstats:
            ev += flen(4, st)
        line += flen(4, ev)
    plane = fint(1, 1) + flen(2, "/device:GPU:0")
    if steps_ts is not None:
        steps = fint(1, 2) + flen(2, "Steps") + fint(3, steps_ts)
        plane += flen(3, steps + flen(4, fint(1, 1) + fint(3, 10)))
    plane += flen(3, line)
    meta = fint(1, 1) + flen(2, name)
    plane += flen(4, fint(1, 1) + flen(2, meta))
    names = ["device_offset_ps", "device_duration_ps", "hlo_op"]
    for md, name in enumerate(names + list(stat_names), 1):
        plane += flen(5, fint(1, md) + flen(2, fint(1, md) + flen(2, name)))
    return flen(1, plane) + flen(4, "host0")


def hlo_module(comps, entry_id):
    """An xla.HloProto; comps are (id, fused, [(opcode, [called ids])])."""
    module = flen(1, "jit_hostile")
    iid = 1
    for cid, fused, instrs in comps:
        comp = flen(1, "comp.%d" % cid)
        for opcode, calls in instrs:
            instr = flen(1, "%s.%d" % (opcode, iid)) + flen(2, opcode)
            if opcode == "fusion":
                instr += flen(11, "kLoop")
            instr += fint(35, iid)
            for called in calls:
                instr += fint(38, called)
            comp += flen(2, instr)
            iid += 1
        comp += fint(5, cid) + (fint(7, 1) if fused else b"")
        module += flen(3, comp)
    module += fint(5, 1) + fint(6, entry_id)
    return flen(1, module)


def shared_calls(depth, leaf):
    """Computations 1..depth, each calling the next twice; the last: leaf."""
    comps = [(k, False, [("call", [k + 1]), ("call", [k + 1])])
             for k in range(1, depth)]
    return comps + [(depth, False, leaf)]


LIMIT = 1 << 61
INT64_MAX = (1 << 63) - 1


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main(out):
    x = os.path.join(out, "xspace")
    j = os.path.join(out, "json")
    a = os.path.join(out, "archive")
    # Class 2: the largest valid durations, back to back: sums past int64.
    write(f"{x}/huge-durations.xplane.pb",
          space([(0, LIMIT, ())] * 6))
    # Class 2: device_offset_ps/device_duration_ps stats at INT64_MAX.
    write(f"{x}/device-span-int64-max.xplane.pb",
          space([(0, 10, (int_stat(1, INT64_MAX), int_stat(2, INT64_MAX)))]))
    # Costs from the file: a negative count is none, and sums of the
    # largest stop at int64's end instead of wrapping.
    write(f"{x}/negative-flops.xplane.pb",
          space([(0, 10, (int_stat(4, -20), int_stat(5, -1)))],
                stat_names=("flops", "bytes_accessed")))
    write(f"{x}/huge-flops.xplane.pb",
          space([(0, 10, (int_stat(4, INT64_MAX), int_stat(5, INT64_MAX))),
                 (20, 10, (int_stat(4, INT64_MAX), int_stat(5, INT64_MAX)))],
                stat_names=("flops", "bytes_accessed")))
    # Class 3: impossible times.
    write(f"{x}/negative-duration.xplane.pb", space([(5, -1, ())]))
    write(f"{x}/negative-offset.xplane.pb", space([(-5, 10, ())]))
    write(f"{x}/int64-min-duration.xplane.pb",
          space([(0, -(1 << 63), ())]))
    # Lines stamped with the epoch are rebased to the earliest: these two
    # lie 2^62 ns apart, past what a time holds.
    write(f"{x}/huge-line-timestamp.xplane.pb",
          space([(0, 10, ())], line_ts=(1 << 62) + 1, steps_ts=1))
    # Class 5: a name that is not UTF-8, for --format=json.
    write(f"{x}/invalid-utf8-name.xplane.pb",
          space([(0, 10, ())], name=b"fusion\xff\xc0\xaf.1"))
    # Class 2 and 3 in trace JSON.
    ev = '{"ph":"X","pid":1,"tid":1,"name":"fusion.1","ts":%s,"dur":%s}'
    meta = ('{"ph":"M","pid":1,"name":"process_name",'
            '"args":{"name":"/device:GPU:0"}},'
            '{"ph":"M","pid":1,"tid":1,"name":"thread_name",'
            '"args":{"name":"XLA Ops"}},')
    write(f"{j}/huge-durations.trace.json", ('{"traceEvents":[%s%s]}' % (
        meta, ",".join([ev % (0, 2305843009213)] * 6))).encode())
    write(f"{j}/negative-duration.trace.json",
          ('{"traceEvents":[%s]}' % (ev % (5, -1))).encode())
    write(f"{j}/negative-ts.trace.json",
          ('{"traceEvents":[%s]}' % (ev % (-5, 1))).encode())
    # A ts past the limit is one since the epoch, rebased to the earliest
    # (jaxprof(1)); 1 us and 9223372036854 us are too far apart for that.
    write(f"{j}/huge-ts.trace.json",
          ('{"traceEvents":[%s,%s]}' % (ev % (1, 1),
                                        ev % ("9223372036854", 1))).encode())
    write(f"{j}/end-before-begin.trace.json", (
        '{"traceEvents":[{"ph":"B","pid":1,"tid":1,"name":"a","ts":10},'
        '{"ph":"E","pid":1,"tid":1,"ts":5}]}').encode())
    # A hang (timeout-fusion-calls.hlo.pb, found by fuzz-hlo): call graphs
    # that share computations, 2^47 paths deep: a
    # fusion's category looked for a dot down every path, and the launch
    # order spliced every path in.
    h = os.path.join(out, "hlo")
    write(f"{h}/fusion-of-shared-calls.hlo.pb", hlo_module(
        shared_calls(48, [("add", [])]) +
        [(100, False, [("fusion", [1])])], 100))
    write(f"{h}/calls-of-shared-calls.hlo.pb", hlo_module(
        shared_calls(48, [("fusion", [101])]) +
        [(101, True, [("add", [])]), (100, False, [("call", [1])])], 100))
    # Class 2: an archive entry dated 1e13 s after the epoch.
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT) as t:
        data = space([(0, 10, ())])
        info = tarfile.TarInfo("plugins/profile/r/host0.xplane.pb")
        info.size = len(data)
        info.mtime = 1e13
        t.addfile(info, io.BytesIO(data))
    write(f"{a}/mtime-1e13.tar.gz", buf.getvalue())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fuzz/crashers")
