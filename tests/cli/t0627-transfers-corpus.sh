#!/bin/sh
# transfers on real profiles, against counts made here from each profile
# with the protobuf package: TPU host offload (copy-start on the "Async
# XLA Ops" line, or on "XLA Ops" on a plane whose async line has none, to
# the device when its operand is in memory space 5, from it when its
# destination is), ROCm's CopyDeviceToDevice as D2D, the
# autotuner's copies apart from the steps' (h200/cmdbuf-train), memsets
# not as device copies, and diff's D2H host calls split as transfers does.
. "$(dirname "$0")/lib.sh"

need_protobuf
TPU=$CORPUS/xprof/xprof/convert/test_xplanes
MI=$CORPUS/tracelens/tests/traces/mi300/jax_conv_minimal
H=$CORPUS/h200
[ -d "$TPU" ] || [ -d "$MI" ] || [ -d "$H/cmdbuf-train" ] ||
    skip "no TPU, MI300X or H200 profile under '$CORPUS'"

# Rows "device,direction,kind,count,bytes" of the device copies, counted
# from the profile at $1 (rules above), sorted.
from_profile() {
	"$PYTHON" - "$SRCDIR" "$1" <<'PY'
import collections, os, re, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests", "cli"))
from device_events import device_events
rows = collections.defaultdict(lambda: [0, 0])
events = list(device_events(*sys.argv[1:]))
async_copies = {e[0] for e in events if e[1] == "Async XLA Ops" and
                e[4].get("hlo_category") == "copy-start"}
for plane, line, name, dur, st, autotune in events:
    if line == "Async XLA Ops" or (line == "XLA Ops" and
                                   plane not in async_copies):
        if st.get("hlo_category") != "copy-start":
            continue
        head, _, operand = name.partition(" copy-start(")
        dest = head.split("(", 1)[1].split("}, ")[0]
        d = "H2D" if "S(5)" in operand else "D2H" if "S(5)" in dest else "D2D"
        key = (plane, d, "device copy")
        n = st["bytes_accessed"]
    elif "memcpy_details" in st or name.startswith("Memcpy"):
        d = {"MemcpyH2D": "H2D", "MemcpyD2H": "D2H", "MemcpyD2D": "D2D",
             "CopyDeviceToDevice": "D2D"}.get(name, "other")
        key = (plane, d, "autotuning" if autotune else "device copy")
        m = re.search(r"(?:^| )size:(\d+)", st.get("memcpy_details", ""))
        n = int(m.group(1)) if m else 0
    elif name.startswith("Memset") and "hlo_op" not in st:
        key = (plane, "memset", "autotuning" if autotune else "memset")
        n = int(re.search(r"num_bytes:(\d+)", st["Memset_details"]).group(1))
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
