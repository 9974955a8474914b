#!/bin/sh
# One rule for compile work (the autotuner's candidates, and the kernels
# without hlo_op that check them: RedzoneAllocatorKernelImpl,
# xla_fp_comparison) in every report, on an H200 run that compiles inside
# the trace ($CORPUS/h200/cmdbuf-train): top and top --group=kernel leave
# it out unless --include-compile-work, which then shows the ops and all
# of the autotuner's kernels (summed here from the profile with the
# protobuf package), and steps do not count it as the first step's busy
# time.
. "$(dirname "$0")/lib.sh"

T=$CORPUS/h200/cmdbuf-train
[ -d "$T" ] || skip "no H200 profile under '$T'"
need_protobuf

sum_self() {
	"$PYTHON" -c 'import csv, sys
print("%.3f" % sum(float(r["self_us"]) for r in csv.DictReader(sys.stdin)))' \
	    <"$out"
}

test_case 'the profile: the device kernel time, by the protobuf package'
"$PYTHON" - "$SRCDIR" "$T" >"$tmp/kernels" <<'PY' || fail "cannot read the profile"
import os, sys
sys.path.insert(0, os.path.join(sys.argv[1], "tests", "cli"))
from device_events import device_events
total = 0
for plane, line, name, dur, stats, autotune in device_events(*sys.argv[1:]):
    if name.startswith("Memcpy"):
        continue        # copies are transfers
    # A kernel of no op is the autotuner's when its context is.
    if "hlo_op" in stats or "kernel_details" in stats and autotune:
        total += dur
print("%.3f" % (total / 1e6))
PY
cat "$tmp/kernels"

test_case '--include-compile-work shows all of the compile work'
expect_code 0 jaxprof top -n 0 --include-compile-work --format=csv "$T"
expect_stderr_empty
[ "$(sum_self)" = "$(cat "$tmp/kernels")" ] ||
	fail "the ops add up to $(sum_self) us, the kernels to $(cat "$tmp/kernels") us"
grep -q ',"stream_executor::gpu::RedzoneAllocatorKernelImpl' "$out" ||
	fail "no RedzoneAllocatorKernelImpl op with --include-compile-work"

test_case 'top leaves compile work out, ops and kernels alike'
expect_code 0 jaxprof top -n 0 --format=csv "$T"
# The user's one program: the autotuner's modules are gemm_fusion_dot.N.
"$PYTHON" -c 'import csv, sys
sys.exit(any(r["module"] != "jit_train_step" for r in csv.DictReader(sys.stdin)))' \
    <"$out" || fail "an op of compile work in top"
for args in "" --include-compile-work; do
	expect_code 0 jaxprof top --group=kernel -n 0 --format=csv $args "$T"
	expect_stderr_empty
	if grep -q 'RedzoneAllocatorKernelImpl' "$out"; then
		[ -n "$args" ] || fail "top --group=kernel shows the autotuner"
	else
		[ -z "$args" ] ||
			fail "top --group=kernel $args hides the autotuner"
	fi
done

test_case 'steps: compile work is not the first step busy time'
expect_code 0 jaxprof steps --format=csv "$T"
expect_stderr_empty
"$PYTHON" - "$out" >"$tmp/cmp" <<'PY' || fail "$(cat "$tmp/cmp")"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
first, rest = rows[0], rows[1:]
med = statistics.median(float(r["compute_us"]) for r in rest)
c0, t0 = float(first["compute_us"]), float(first["transfer_us"])
print("step 0: compute %.3f us (median of the others %.3f), transfer %.3f us"
      % (c0, med, t0))
sys.exit(0 if c0 < 1.5 * med and t0 < 1000 else 1)
PY
cat "$tmp/cmp"

test_done
