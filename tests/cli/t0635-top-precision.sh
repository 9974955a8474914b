#!/bin/sh
# Each op against the peak of its precision (issue 44.2) on real profiles:
# the H200's f32 gemms run as TF32 (cuBLAS names its sm90_xmma_gemm_
# f32f32_tf32f32 kernels so, CUTLASS its s1688gemm) and are judged against 494.7 TFLOP/s, not the
# 989.4 of bf16/fp16, its f32 fusions against the fp32 rate; the same with
# CUDA graphs; the MI300X's Tensile BBS gemm is bf16; the TPU v6e's f32
# fusions have no fp32 rate of their own and fall back, saying so.  Every
# row's roof% is worked out here from its FLOPs, bytes, time and the
# datasheet's rate for its precision (jaxprof-top(1), PEAKS).
. "$(dirname "$0")/lib.sh"

H=$CORPUS/h200/no-cmdbuf-warm
HG=$CORPUS/h200/cmdbuf-warm
M=$CORPUS/tracelens/tests/traces/mi300/jax08_gemm/tw003.xplane.pb
T=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb
[ -d "$H" ] && [ -d "$HG" ] && [ -f "$M" ] && [ -f "$T" ] ||
    skip "no H200, MI300X and TPU profiles under '$CORPUS'"
"$PYTHON" -c 'import csv' 2>/dev/null || skip "no Python at '$PYTHON'"

F=name,module,category,total_us,flops,bytes_accessed,bound,roofline_pct,precision

# check_roof CSV GBPS PEAKS FALLBACK: each computing row's bound and roof%
# from its FLOPs, bytes and time against PEAKS ("tf32=494700,fp32=67000",
# GFLOP/s) for its precision, FALLBACK GFLOP/s for any other.
check_roof() {
	"$PYTHON" - "$@" >"$tmp/off" <<'PY' || fail "$(head -n 5 "$tmp/off")"
import csv, sys
path, gbps, peaks, fallback = sys.argv[1], float(sys.argv[2]), \
    dict((k, float(v)) for k, v in
         (p.split("=") for p in sys.argv[3].split(","))), float(sys.argv[4])
bad = n = 0
for r in csv.DictReader(open(path)):
    if not r["flops"] or not r["bytes_accessed"] or not r["bound"]:
        continue
    f, b = int(r["flops"]), int(r["bytes_accessed"])
    if b == 0:
        continue
    peak = peaks.get(r["precision"], fallback)
    ps = float(r["total_us"]) * 1e6
    bound = "compute" if f / b >= peak / gbps else "memory"
    pct = 100 * (f / ps * 1e3 / peak if bound == "compute" else
                 b / ps * 1e3 / gbps)
    n += 1
    if r["bound"] != bound or abs(float(r["roofline_pct"]) - pct) > 0.011:
        print(r["name"], r["precision"], r["bound"], r["roofline_pct"],
              "want", bound, pct)
        bad = 1
if n == 0:
    print("no rows to check")
    bad = 1
sys.exit(bad)
PY
}

# precisions CSV CATEGORY=PREC...: every row of each category has that
# precision.
precisions() {
	"$PYTHON" - "$@" >"$tmp/off" <<'PY' || fail "$(head -n 5 "$tmp/off")"
import csv, sys
want = dict(a.split("=") for a in sys.argv[2:])
seen = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["category"] in want:
        seen.setdefault(r["category"], set()).add(r["precision"])
bad = [(c, seen.get(c), p) for c, p in want.items() if seen.get(c) != {p}]
print(bad)
sys.exit(1 if bad else 0)
PY
}

test_case "H200: the cuBLAS gemms' kernels name TF32"
expect_code 0 jaxprof top -n 0 --group=kernel --format=csv \
    --fields=name,op "$H"
"$PYTHON" - "$out" >"$tmp/off" <<'PY' || fail "$(head -n 5 "$tmp/off")"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["op"].startswith("custom-call") and "gemm" in r["name"]]
# cuBLAS names TF32; CUTLASS's s1688gemm is TF32's 16x8x8 MMA on f32.
bad = [r["name"] for r in rows if "_tf32f32_" not in r["name"] and
       "_s1688gemm_" not in r["name"]]
print(len(rows), "gemm kernels,", bad[:3], "not TF32")
sys.exit(1 if bad or len(rows) < 15 else 0)
PY

test_case "H200: gemms tf32, f32 fusions fp32, each against its rate"
expect_code 0 jaxprof top -n 0 --format=csv --fields=$F "$H"
precisions "$out" gemm=tf32 "gemm fusion=tf32" "loop fusion=fp32" \
    "input fusion=fp32"
check_roof "$out" 4800 tf32=494700,fp32=67000 989400
expect_code 0 jaxprof top -n 1 --fields=name,bound,roofline_pct,precision \
    "$H"
expect_stdout_match "^Roofline peaks from H200 SXM's published specifications: 989\.4 TFLOP/s \(bf16/fp16\), 4\.80 TB/s\.$"
expect_stdout_match "^Each op against its precision's peak: tf32 494\.7, fp32 67\.0 TFLOP/s\.$"
# 265,288 GFLOP/s: 26.81% of the 16-bit rate, 53.63% of TF32's.
expect_stdout_match '^custom-call\.22  compute  53\.63%  tf32$'

test_case "H200 with CUDA graphs: the same precisions"
expect_code 0 jaxprof top -n 0 --format=csv --fields=$F "$HG"
precisions "$out" gemm=tf32 "gemm fusion=tf32" "loop fusion=fp32"
check_roof "$out" 4800 tf32=494700,fp32=67000 989400

test_case "H200: categories keep their members' precision"
expect_code 0 jaxprof top -n 0 --group=category --format=csv --fields=$F "$H"
expect_stdout_match '^gemm,,gemm,[0-9.]+,[0-9]+,[0-9]+,compute,[0-9.]+,tf32$'
check_roof "$out" 4800 tf32=494700,fp32=67000 989400

test_case "--peak-flops: every op against it, no precision's"
expect_code 0 jaxprof top -n 0 --format=csv --fields=$F --peak-flops=100T "$H"
check_roof "$out" 4800 bf16=100000 100000
expect_code 0 jaxprof top -n 1 --peak-flops=100T "$H"
! grep -q "precision.s peak" "$out" || fail "--peak-flops, yet a precision.s peak named"

test_case "MI300X: the Tensile BBS gemm in bf16"
expect_code 0 jaxprof top -n 0 --format=csv --fields=$F "$M"
precisions "$out" gemm=bf16
check_roof "$out" 5300 bf16=1307400,fp32=163400 1307400
expect_code 0 jaxprof top -n 1 "$M"
expect_stdout_match "^Each op against its precision's peak: bf16 1307\.4 TFLOP/s\.$"

test_case "TPU v6e: f32 fusions have no fp32 rate: the 16-bit one, said"
expect_code 0 jaxprof top -n 0 --format=csv --fields=$F "$T"
precisions "$out" "loop fusion=fp32"
check_roof "$out" 1640 bf16=918000 918000
expect_code 0 jaxprof top -n 1 "$T"
expect_stdout_match "^Every op against the 918\.0 TFLOP/s above: none that computes has a precision with a published rate of its own\.$"

test_case "the index keeps each op's precision"
expect_code 0 jaxprof sql --db="$tmp/h200.sqlite" "SELECT precision, count(*) FROM ops WHERE category = 'gemm' GROUP BY 1" "$H"
expect_stdout_match '^tf32 +63$'

test_done
