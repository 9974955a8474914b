#!/usr/bin/env python3
"""Writes the hand-made hostile inputs of fuzz/crashers/ (issue 12).

Each one stands for a class of finding; make check replays them through
the fuzz targets (t0600, under ASan/UBSan in .ci/run) and t0610 checks what
jaxprof says about them.  Only the Python standard library is used:

    python3 fuzz/make-hostile.py fuzz/crashers
"""
import gzip
import io
import json
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
    """An xla.HloProto; comps are (id, fused, [(opcode, [called ids])]),
    or (opcode, [called ids], more fields) per instruction; instruction
    ids count from 1 in that order."""
    module = flen(1, "jit_hostile")
    iid = 1
    for cid, fused, instrs in comps:
        comp = flen(1, "comp.%d" % cid)
        for opcode, calls, *more in instrs:
            instr = flen(1, "%s.%d" % (opcode, iid)) + flen(2, opcode)
            instr += b"".join(more)
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


def hlo_space(hlo, ops):
    """A /host:metadata plane with hlo as program 1's "Hlo Proto", and a
    GPU plane whose "XLA Ops" events run ops (names) of that program."""
    meta = fint(1, 1) + flen(2, "jit_hostile(1)") + flen(5, fint(1, 1) +
                                                        flen(6, hlo))
    host = fint(1, 2) + flen(2, "/host:metadata") + flen(
        4, fint(1, 1) + flen(2, meta)) + flen(
        5, fint(1, 1) + flen(2, fint(1, 1) + flen(2, "Hlo Proto")))
    line = fint(1, 1) + flen(2, "XLA Ops")
    gpu = fint(1, 1) + flen(2, "/device:GPU:0")
    for k, op in enumerate(ops, 1):
        line += flen(4, fint(1, k) + fint(2, 10000000 * k) +
                     fint(3, 5000000) +
                     flen(4, fint(1, 1) + flen(5, "jit_hostile")) +
                     flen(4, fint(1, 2) + fint(4, 1)))
        gpu += flen(4, fint(1, k) + flen(2, fint(1, k) + flen(2, op)))
    for md, name in ((1, "hlo_module"), (2, "program_id")):
        gpu += flen(5, fint(1, md) + flen(2, fint(1, md) + flen(2, name)))
    return flen(1, host) + flen(1, gpu + flen(3, line))


def shared_calls(depth, leaf):
    """Computations 1..depth, each calling the next twice; the last: leaf."""
    comps = [(k, False, [("call", [k + 1]), ("call", [k + 1])])
             for k in range(1, depth)]
    return comps + [(depth, False, leaf)]


def shape(dims, etype=11):
    """An instruction's shape field: f32 by default, each dimension a
    field of its own."""
    return flen(3, fint(2, etype) + b"".join(fint(3, d) for d in dims))


def operands(*ids):
    return b"".join(fint(36, i) for i in ids)


def conv_window(dims):
    """A convolution's window and b01f dimension numbers; dims are
    (size, stride, padding) per spatial dimension."""
    window = b"".join(flen(1, fint(1, size) + fint(2, stride) +
                           fint(3, pad) + fint(4, pad))
                      for size, stride, pad in dims)
    spatial = list(range(1, len(dims) + 1))
    numbers = (fint(3, len(dims)) + fint(4, len(dims) + 1) +
               b"".join(fint(6, d - 1) for d in spatial) + fint(7, 0) +
               fint(8, len(dims) + 1) + fint(9, 0) +
               fint(10, len(dims) + 1) +
               b"".join(fint(11, d) for d in spatial) +
               b"".join(fint(12, d) for d in spatial))
    return flen(15, window) + flen(16, numbers)


def conv_module(out, dims):
    """An entry of one convolution of f32[1,out...,1] by a kernel, with
    the output as large as the input."""
    spatial = [out] * len(dims)
    kernel = [size for size, _, _ in dims] + [1, 1]
    return hlo_module([(1, False, [
        ("parameter", [], shape([1] + spatial + [1])),
        ("parameter", [], shape(kernel)),
        ("convolution", [], shape([1] + spatial + [1]) + operands(1, 2) +
         conv_window(dims))])], 1)


LIMIT = 1 << 61
INT64_MAX = (1 << 63) - 1


def baseline(op_fields):
    """A baseline of one op, op_fields replacing its figures."""
    op = {"name": "fusion.1", "module": "jit_f", "category": "loop fusion",
          "framework_op": "f", "source": "f.py:1", "source_function": "f",
          "count": 1, "total_ps": 10, "self_ps": 10, "min_ps": 10,
          "max_ps": 10, "flops": 100, "bytes_accessed": 40}
    op.update(op_fields)
    return {"format": "jaxprof-baseline", "version": 2,
            "jaxprof_version": "0", "created": "2027-01-01T00:00:00Z",
            "sources": ["p"], "hosts": ["h"], "runs": ["r"], "ops": [op],
            "kernels": [], "steps": {"source": "module", "series": []},
            "compiles": {"functions": []}, "transfers": []}


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
    # Issue 41.2: cost rules that walked calls path by path, loops by
    # iteration, and grew a shape's dimensions one copy per field.  A
    # reducer whose 40 reduces apply itself (40^8 paths to depth 8):
    reducer = hlo_module([
        (2, False, [("parameter", [], shape([]))] * 2 +
         [("reduce", [2], shape([]) + operands(1, 2))] * 40),
        (1, False, [("parameter", [], shape([8, 16])),
                    ("constant", [], shape([])),
                    ("reduce", [2], shape([8]) + operands(43, 44))])], 1)
    write(f"{h}/timeout-self-calling-reducer.hlo.pb", reducer)
    # A fused computation of a chain of ten fusions of itself (10^9
    # walks).
    write(f"{h}/timeout-self-calling-fusion.hlo.pb", hlo_module([
        (2, True, [("parameter", [], shape([8]))] +
         [("fusion", [2], shape([8]) + operands(i)) for i in range(1, 11)]),
        (1, False, [("parameter", [], shape([8])),
                    ("fusion", [2], shape([8]) + operands(12))])], 1))
    # A chain of eight fusions whose fused computation is the entry that
    # holds them.
    entry = hlo_module([
        (1, False, [("parameter", [], shape([8]))] +
         [("fusion", [1], shape([8]) + operands(i)) for i in range(1, 9)])],
        1)
    write(f"{h}/timeout-fusion-calls-entry.hlo.pb", entry)
    # A padded 3x3 convolution of 2^31 x 2^31 outputs: 2^31 x 3 steps a
    # dimension when each output's taps were walked.
    conv = conv_module(1 << 31, [(3, 1, 1), (3, 1, 1)])
    write(f"{h}/timeout-conv-2e31-windows.hlo.pb", conv)
    # A stride of 2^62: output 2 x stride past int64.
    write(f"{h}/conv-stride-overflow.hlo.pb",
          conv_module(4, [(3, 1 << 62, 1)]))
    # One shape of 60,000 dimensions, each a field of its own (120 KB).
    write(f"{h}/timeout-shape-60000-dims.hlo.pb", hlo_module([
        (1, False, [("parameter", [], shape([1] * 60000)),
                    ("negate", [], shape([1] * 60000) + operands(1))])],
        1))
    # The same in profiles, whose events name the op that hangs.
    write(f"{x}/timeout-hlo-self-calling-reducer.xplane.pb",
          hlo_space(reducer, ["reduce.45"]))
    write(f"{x}/timeout-hlo-fusion-calls-entry.xplane.pb",
          hlo_space(entry, ["fusion.%d" % i for i in range(2, 10)]))
    write(f"{x}/timeout-hlo-conv-2e31-windows.xplane.pb",
          hlo_space(conv, ["convolution.3"]))
    # Class 2: an archive entry dated 1e13 s after the epoch.
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT) as t:
        data = space([(0, 10, ())])
        info = tarfile.TarInfo("plugins/profile/r/host0.xplane.pb")
        info.size = len(data)
        info.mtime = 1e13
        t.addfile(info, io.BytesIO(data))
    write(f"{a}/mtime-1e13.tar.gz", buf.getvalue())
    # Issue 41.9: inputs that parse but are wrong.  Rules numbers that are
    # not plain decimals, a share above 100%.
    r = os.path.join(out, "rules")
    write(f"{r}/hex-number.rules", b"min-op-share = 0x10\n")
    write(f"{r}/leading-zero.rules", b"max-compiles = 010\n")
    write(f"{r}/exponent.rules", b"skip = 1e9999\n")
    write(f"{r}/share-over-100.rules", b"min-op-share = 200%\n")
    # Negative counts, times and FLOPs in a baseline, and one of nothing.
    b = os.path.join(out, "baseline")
    for field in ("total_ps", "count", "flops"):
        write(f"{b}/negative-{field.replace('_', '-')}.json",
              json.dumps(baseline({field: -1})).encode())
    write(f"{b}/empty-array.json", b"[]")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fuzz/crashers")
