#!/bin/sh
# The roofline's peaks on real profiles: the MI300X's, H200's and TPU
# v6e's from their published specifications (the title says so), not what
# ROCm reports (2.66 TB/s, under which MI300X elementwise ops measure above
# the roof); --peak-flops and --peak-bandwidth over them; an op above its
# roof flagged (above_roof, "!" and the note); zero-FLOP ops that move
# bytes memory-bound (jaxprof-top(1), PEAKS).
. "$(dirname "$0")/lib.sh"

M=$CORPUS/tracelens/tests/traces/mi300/jax08_elementwise/tw003.xplane.pb
H=$CORPUS/h200/no-cmdbuf-warm
T=$CORPUS/xprof/xprof/convert/test_xplanes/tpu_inference_2.xplane.pb
[ -f "$M" ] && [ -d "$H" ] && [ -f "$T" ] ||
    skip "no MI300X, H200 and TPU profiles under '$CORPUS'"
"$PYTHON" -c 'import csv' 2>/dev/null || skip "no Python at '$PYTHON'"

# check_roof CSV GFLOPS GBPS FLAGGED [PEAKS]: every row's bound and roof%
# as the peaks given make them, from its own FLOPs, bytes and time;
# above_roof where roof% is over 100; FLAGGED: how many must be (or
# "some").  PEAKS ("tf32=494700,fp32=67000"): the GFLOP/s of the rows of
# those precisions (a precision column), GFLOPS the others'.
check_roof() {
	"$PYTHON" - "$@" >"$tmp/off" <<'PY' || fail "$(head -n 5 "$tmp/off")"
import csv, sys
path, gflops, gbps, flagged = sys.argv[1], float(sys.argv[2]), \
    float(sys.argv[3]), sys.argv[4]
peaks = dict((k, float(v)) for k, v in (p.split("=") for p in
             sys.argv[5].split(","))) if len(sys.argv) > 5 else {}
bad = n = above = 0
for r in csv.DictReader(open(path)):
    if not r["flops"] or not r["bytes_accessed"] or not r["bound"]:
        continue
    f, b = int(r["flops"]), int(r["bytes_accessed"])
    ps = float(r["total_us"]) * 1e6
    if b == 0:
        continue
    peak = peaks.get(r.get("precision"), gflops)
    bound = "compute" if f / b >= peak / gbps else "memory"
    pct = 100 * (f / ps * 1e3 / peak if bound == "compute" else
                 b / ps * 1e3 / gbps)
    n += 1
    if r["bound"] != bound or abs(float(r["roofline_pct"]) - pct) > 0.011 \
            or r["above_roof"] != ("true" if pct > 100 else "false"):
        print(r["name"], r["module"], r["bound"], r["roofline_pct"],
              r["above_roof"], "want", bound, pct)
        bad = 1
    above += pct > 100
if n == 0 or (flagged == "some" and above == 0) or \
        (flagged != "some" and above != int(flagged)):
    print(n, "rows,", above, "above the roof, want", flagged)
    bad = 1
sys.exit(bad)
PY
}

test_case "MI300X: its published peaks, none above the roof"
expect_code 0 jaxprof top -n 3 "$M"
expect_stderr_empty
expect_stdout_match "^Roofline peaks from MI300X's published specifications: 1307\.4 TFLOP/s \(bf16/fp16\), 5\.30 TB/s\.$"
expect_code 0 jaxprof top -n 0 --format=csv "$M"
check_roof "$out" 1307400 5300 0

test_case "MI300X: --peak-bandwidth at ROCm's 2.66 TB/s puts ops above the roof"
expect_code 0 jaxprof top -n 0 --format=csv --peak-bandwidth=2.6624T "$M"
check_roof "$out" 1307400 2662.4 some
expect_code 0 jaxprof top -n 0 --format=json --peak-bandwidth=2662.4G "$M"
grep -q '"above_roof": true' "$out" || fail "no above_roof true in json"
expect_code 0 jaxprof top -n 0 --peak-bandwidth=2.6624e12 "$M"
expect_stdout_match "^Roofline peaks from MI300X's published specifications, --peak-bandwidth: 1307\.4 TFLOP/s .*, 2\.66 TB/s\.$"
expect_stdout_match '^ 1  loop_convert_fusion .* memory  129\.6[0-9]%  !$'
expect_stdout_match '^! above the roof: [0-9]+ rows measure faster than the device.s peak allows'

test_case "MI300X: --peak-flops and --peak-bandwidth both: the user's"
expect_code 0 jaxprof top -n 0 --format=csv --peak-flops=100T \
    --peak-bandwidth=10T "$M"
check_roof "$out" 100000 10000 some
expect_code 0 jaxprof top -n 1 --peak-flops=100T --peak-bandwidth=10T "$M"
expect_stdout_match '^Roofline peaks from --peak-flops and --peak-bandwidth: 100\.0 TFLOP/s, 10\.00 TB/s\.$'

for bad in 0 -5 abc 10X 1e999 ''; do
	test_case "--peak-flops='$bad': exit 2"
	expect_code 2 jaxprof top --peak-flops="$bad" "$M"
	expect_stderr_line "^jaxprof: top: invalid --peak-flops '$bad' \(a rate per second above 0"
done

test_case "H200: its published peaks; zero-FLOP ops that move bytes memory-bound"
expect_code 0 jaxprof top -n 1 "$H"
expect_stdout_match "^Roofline peaks from H200 SXM's published specifications: 989\.4 TFLOP/s \(bf16/fp16\), 4\.80 TB/s\.$"
expect_code 0 jaxprof top -n 0 --format=csv \
    --fields=name,module,total_us,flops,bytes_accessed,bound,roofline_pct,above_roof,precision \
    "$H"
check_roof "$out" 989400 4800 some tf32=494700,fp32=67000
"$PYTHON" - "$out" >"$tmp/off" <<'PY' || fail "$(head -n 5 "$tmp/off")"
import csv, sys
zero = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["flops"] == "0" and int(r["bytes_accessed"] or 0) > 0 and
        r["roofline_pct"]]
bad = [r["name"] for r in zero if r["bound"] != "memory"]
print(len(zero), "zero-FLOP ops,", bad, "not memory-bound")
sys.exit(1 if bad or len(zero) < 29 else 0)
PY

test_case "TPU v6e: its published peaks; its copies memory-bound"
expect_code 0 jaxprof top -n 1 "$T"
expect_stdout_match "^Roofline peaks from TPU v6e's published specifications: 918\.0 TFLOP/s \(bf16/fp16\), 1\.64 TB/s\.$"
expect_code 0 jaxprof top -n 0 --format=csv "$T"
check_roof "$out" 918000 1640 0

test_case "a device not in the table: the profile's own figures"
G=$tmp/gen
expect_code 0 gen_xplane --seed=3 --hosts=1 --devices=1 --steps=2 --ops=4 "$G"
expect_code 0 jaxprof top -n 1 "$G"
expect_stdout_match "^Roofline peaks from the profile's own figures \(a device not in jaxprof's table\): "
expect_code 0 jaxprof top -n 1 --peak-flops=1P "$G"
expect_stdout_match "^Roofline peaks from the profile's own figures \(a device not in jaxprof's table\), --peak-flops: 1000\.0 TFLOP/s, "

test_done
