#!/bin/sh
# Framework ops and source lines on real profiles (MI300X from TraceLens,
# H200 without command buffers, TPU v6e) against xprof's own answer: golden files
# made by tests/xprof/op-attribution.sh, so no xprof is needed here.  Each
# op's framework op comes from its own event or HLO instruction, else its
# HLO name (xprof's fallback); each program keeps its own source lines,
# even where programs share a module name (jit_add for two shapes).
# Command-buffer runs are left out: xprof sees one op per graph there
# (t0620 compares those with the run without command buffers).
. "$(dirname "$0")/lib.sh"

"$PYTHON" -c 'import csv' 2>/dev/null || skip "no Python at '$PYTHON'"
M=$CORPUS/tracelens/tests/traces/mi300
found=0
for dir in "$M/jax08_elementwise" "$M/jax08_gemm" "$M/jax_conv_minimal" \
    "$CORPUS/h200/no-cmdbuf-warm" "$CORPUS/xprof/xprof/convert/test_xplanes"; do
	[ -d "$dir" ] || continue
	found=1
	run=$(basename "$dir")
	for group in framework-op source; do
		test_case "$run: --group=$group agrees with xprof within 1%"
		expect_code 0 jaxprof top --group=$group -n 0 --format=csv \
		    "$dir"
		expect_stderr_empty
		"$PYTHON" - "$out" "$EXPECT_DIR/$TEST_NAME-$run-xprof.out" \
		    "${group%-op}" >"$tmp/cmp" <<'PY' || fail "$(cat "$tmp/cmp")"
import csv, sys
kind = {"framework": "framework_op", "source": "source"}[sys.argv[3]]
ours = {}
for r in csv.DictReader(open(sys.argv[1])):
    key = r["source"] if kind == "source" else r["name"]
    ours[key] = ours.get(key, 0.0) + float(r["self_us"])
ref = {}
for line in open(sys.argv[2]):
    k, rest = line.rstrip("\n").split(",", 1)
    name, us = rest.rsplit(",", 1)
    if k == kind:
        ref[name] = float(us)
total = sum(ref.values())
same = sum(min(v, ours.get(k, 0.0)) for k, v in ref.items())
worst = sorted(ref, key=lambda k: ours.get(k, 0.0) - ref[k])[:3]
print("%.2f%% of xprof's %.1f us agree; most apart: %s" % (
    100 * same / total, total,
    ", ".join("%s %.1f/%.1f" % (k, ours.get(k, 0.0), ref[k])
              for k in worst)))
sys.exit(0 if same >= 0.99 * total else 1)
PY
		cat "$tmp/cmp"
	done
done
[ $found = 1 ] || skip "no MI300X, H200 or TPU profiles under '$CORPUS'"

test_done
