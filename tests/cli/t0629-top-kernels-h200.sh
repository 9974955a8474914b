#!/bin/sh
# Kernel stats on a real H200 profile ($CORPUS/h200): top --group=kernel's
# launch configuration, occupancy, tensor-core use, counts and times of the
# 20 longest kernels against xprof's kernel stats (a golden file made by
# tests/xprof/roofline.sh kernels, so no xprof is needed here).
. "$(dirname "$0")/lib.sh"

H=$CORPUS/h200
[ -d "$H/no-cmdbuf-warm" ] || skip "no H200 profiles under '$H'"
"$PYTHON" -c 'import csv' 2>/dev/null || skip "no Python at '$PYTHON'"

test_case 'no-cmdbuf-warm: the 20 longest kernels are those of xprof'
expect_code 0 jaxprof top --group=kernel -n 0 --format=csv "$H/no-cmdbuf-warm"
expect_stderr_empty
save kernels
"$PYTHON" - "$tmp/kernels" "$EXPECT_DIR/$TEST_NAME-xprof-kernels.out" \
    >"$tmp/got" <<'PY'
import csv, sys
ours = {}
for r in csv.DictReader(open(sys.argv[1])):
    key = (r["name"], r["registers_per_thread"], r["shared_mem_bytes"],
           r["block"], r["grid"], r["framework_op"])
    ours[key] = r
w = csv.writer(sys.stdout, lineterminator="\n")
for want in csv.reader(open(sys.argv[2])):
    r = ours.get(tuple(want[:5]) + (want[7],))
    if r is None:
        w.writerow(["missing"] + want)
        continue
    w.writerow([r["name"], r["registers_per_thread"], r["shared_mem_bytes"],
                r["block"], r["grid"], "%.2f" % float(r["occupancy_pct"]),
                r["tensor_core"], r["framework_op"], r["count"],
                "%.3f" % float(r["total_us"])])
PY
expect_files_equal "$EXPECT_DIR/$TEST_NAME-xprof-kernels.out" "$tmp/got"

test_case 'the kernels of a gemm: module, category and source from the HLO'
grep -q '^1,sm90_xmma_gemm_[^,]*,jit_train_step,gemm,' "$tmp/kernels" ||
    fail "the longest kernel has not module jit_train_step, category gemm"
grep -q ',/home/research/gpu/make_gpu_profiles.py:52,' "$tmp/kernels" ||
    fail "no kernel has its op's source line"

test_done
