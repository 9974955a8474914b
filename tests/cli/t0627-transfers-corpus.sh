#!/bin/sh
# transfers on real profiles, against counts made here from each profile
# with the protobuf package: TPU host offload (copy-start on the "Async
# XLA Ops" line, to the device when its operand is in memory space 5,
# from it when its destination is), ROCm's CopyDeviceToDevice as D2D, the
# autotuner's copies apart from the steps' (h200/cmdbuf-train), memsets
# not as device copies, and diff's D2H host calls split as transfers does.
. "$(dirname "$0")/lib.sh"

python_has google.protobuf ||
    skip "'$PYTHON' cannot import google.protobuf; $(install_hint google.protobuf)"
command -v protoc >/dev/null 2>&1 || python_has grpc_tools.protoc ||
    skip "neither protoc nor grpc_tools.protoc is installed; $(install_hint protoc)"
TPU=$CORPUS/xprof/xprof/convert/test_xplanes
MI=$CORPUS/tracelens/tests/traces/mi300/jax_conv_minimal
H=$CORPUS/h200
[ -d "$TPU" ] || [ -d "$MI" ] || [ -d "$H/cmdbuf-train" ] ||
    skip "no TPU, MI300X or H200 profile under '$CORPUS'"

# Rows "device,direction,kind,count,bytes" of the device copies, counted
# from the profile at $1 (rules above), sorted.
from_profile() {
	"$PYTHON" - "$SRCDIR/bench" "$SRCDIR/proto/xplane.proto" "$1" <<'PY'
import collections, glob, os, re, sys
sys.path.insert(0, sys.argv[1])
import top_reference
pb2 = top_reference.load_xplane_pb2(sys.argv[2])
rows = collections.defaultdict(lambda: [0, 0])
for path in glob.glob(os.path.join(sys.argv[3], "**", "*.xplane.pb"),
                      recursive=True):
    space = top_reference.read_xspace(pb2, path)
    programs = {md.name.rsplit("(", 1)[0] for p in space.planes
                if p.name == "/host:metadata"
                for md in p.event_metadata.values()}
    for p in space.planes:
        if not p.name.startswith("/device:"):
            continue
        stat = {k: v.name for k, v in p.stat_metadata.items()}

        def text(st, key):
            v = st.get(key)
            if v is None:
                return ""
            return (stat.get(v.ref_value, "") if v.HasField("ref_value")
                    else v.str_value)
        for line in p.lines:
            context = None
            for ev in line.events:
                md = p.event_metadata[ev.metadata_id]
                st = {stat.get(s.metadata_id): s
                      for s in list(md.stats) + list(ev.stats)}
                if "hlo_op" in st and "hlo_module" in st:
                    context = text(st, "hlo_module")
                autotune = context is not None and context not in programs
                if line.name == "Async XLA Ops":
                    if text(st, "hlo_category") != "copy-start":
                        continue
                    head, _, operand = md.name.partition(" copy-start(")
                    dest = head.split("(", 1)[1].split("}, ")[0]
                    d = ("H2D" if "S(5)" in operand else
                         "D2H" if "S(5)" in dest else "D2D")
                    key = (p.name, d, "device copy")
                    n = st["bytes_accessed"].int64_value
                elif "memcpy_details" in st or md.name.startswith("Memcpy"):
                    name = md.name
                    d = {"MemcpyH2D": "H2D", "MemcpyD2H": "D2H",
                         "MemcpyD2D": "D2D", "CopyDeviceToDevice": "D2D",
                         }.get(name, "other")
                    key = (p.name, d, "autotuning" if autotune else
                           "device copy")
                    m = re.search(r"(?:^| )size:(\d+)",
                                  text(st, "memcpy_details"))
                    n = int(m.group(1)) if m else 0
                elif md.name.startswith("Memset") and "hlo_op" not in st:
                    key = (p.name, "memset", "autotuning" if autotune else
                           "memset")
                    m = re.search(r"num_bytes:(\d+)",
                                  text(st, "Memset_details"))
                    n = int(m.group(1))
                else:
                    continue
                rows[key][0] += 1
                rows[key][1] += n
for k, (count, n) in sorted(rows.items()):
    print("%s,%s,%s,%d,%d" % (k + (count, n)))
PY
}

for dir in "$TPU" "$MI" "$H/cmdbuf-train"; do
	[ -d "$dir" ] || continue
	test_case "${dir#"$CORPUS"/}: the device copies, by kind and direction"
	from_profile "$dir" >"$tmp/want" || fail "cannot read the profile"
	expect_code 0 jaxprof transfers --format=csv "$dir"
	expect_stderr_empty
	save transfers
	awk -F, 'NR > 1 && $5 != "host call" { print $3 "," $4 "," $5 "," $6 "," $7 }' \
	    "$out" | sort >"$tmp/got"
	expect_files_equal "$tmp/want" "$tmp/got"
	# A memset fills: no bandwidth of a copy.
	awk -F, '$4 == "memset" && $10 != "" { exit 1 }' "$out" ||
		fail "a memset has a GB/s"
done

if [ -d "$H/cmdbuf-train" ] && [ -d "$H/cmdbuf-warm" ]; then
	test_case 'diff: D2H host calls with their waiting, as transfers says'
	wait=$(awk -F, '$4 == "D2H" && $5 == "host call" { print $9 }' \
	    "$tmp/transfers")
	expect_code 0 jaxprof diff --summary --format=csv "$H/cmdbuf-warm" \
	    "$H/cmdbuf-train"
	expect_stderr_empty
	got=$(awk -F, '$1 == "transfers_D2H_host_calls_wait_us" { print $3 }' \
	    "$out")
	[ -n "$got" ] && awk -v a="$got" -v b="$wait" \
	    'BEGIN { exit !(a - b < 0.001 && b - a < 0.001) }' ||
		fail "diff's D2H waiting '$got' is not transfers' '$wait'"
fi

test_done
