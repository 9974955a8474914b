#!/bin/sh
# steps on the committed CPU JAX profiles (testdata/jax-mlp): the host
# StepTraceAnnotation steps of both runs, the compile-step note, and each
# step's duration against the train/infer events read independently with
# the official protobuf package.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
R0=2026_01_01_00_00_00
R1=2026_01_01_00_00_01

test_case 'csv: 6 train steps 0..5 in run 1, 3 infer steps 0..2 in run 2'
expect_code 0 jaxprof steps --run='*' --format=csv "$T"
expect_stderr_empty
save all
awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 "," $5 }' "$out" >"$tmp/got"
{
	for s in 0 1 2 3 4 5; do
		echo "$R0,testhost,/host:CPU,$s,train"
	done
	for s in 0 1 2; do
		echo "$R1,testhost,/host:CPU,$s,infer"
	done
} >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "the steps are not train 0..5 and infer 0..2"
# A CPU profile has no collectives or copies; compute + idle = duration.
awk -F, 'NR > 1 && ($9 != "0.000" || $10 != "0.000" ||
    ($8 + $11) - $7 > 0.0015 || $7 - ($8 + $11) > 0.0015 || $8 <= 0) {
	exit 1 }' "$out" ||
    fail "a step is not compute + idle, or has collective or transfer time"

test_case 'the table says where the steps come from'
expect_code 0 jaxprof steps --run='*' "$T"
expect_stderr_empty
expect_stdout_match '^Steps from host StepTraceAnnotation events \(train, infer\)\.$'

test_case '--summary: step 0 of each run is a compile step'
expect_code 0 jaxprof steps --run='*' --summary --format=csv "$T"
expect_stderr_empty
awk -F, 'NR > 1 { print $1 "," $4 "," $5 }' "$out" | grep -v '^#' >"$tmp/got"
printf '%s\n' "$R0,host,6" "$R1,host,3" >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--summary rows are not 6 train and 3 infer host steps"
expect_code 0 jaxprof steps --run='*' --summary "$T"
expect_stderr_empty
# Times change with each regeneration (testdata/README.md): the golden has them.
[ "$(grep -Ec '^testhost /host:CPU: step 0 \([0-9.]+ m?s\) looks like a compile step \(compilation ran [0-9.]+ m?s of it\); --skip=1 leaves it out\.$' "$out")" -eq 2 ] ||
    fail "not one compile-step note per run"
[ "$(grep -c 'looks like a compile step' "$out")" -eq 2 ] ||
    fail "not exactly two compile-step notes"

test_case '--summary --skip=1: no compile-step note, 5 and 2 steps'
expect_code 0 jaxprof steps --run='*' --summary --skip=1 "$T"
expect_stderr_empty
if grep -q 'compile step' "$out"; then
	fail "a compile-step note with --skip=1"
fi
expect_code 0 jaxprof steps --run='*' --summary --skip=1 --format=csv "$T"
[ "$(awk -F, 'NR > 1 { printf "%s ", $5 }' "$out")" = "5 2 " ] ||
    fail "--skip=1 does not leave 5 and 2 steps"

test_case '--run selects one run'
expect_code 0 jaxprof steps --format=csv --run='*01' "$T"
expect_stderr_empty
[ "$(awk -F, 'NR > 1 { printf "%s:%s ", $4, $5 }' "$out")" = \
    "0:infer 1:infer 2:infer " ] || fail "--run='*01' is not the 3 infer steps"

test_case '--skew on one host: an empty table and a note saying why'
expect_code 0 jaxprof steps --run='*' --skew "$T"
expect_stderr_is "jaxprof: steps: --skew compares the hosts of each step; the selection has one host ('testhost'): nothing to compare"

# The durations of the step events, read with the protobuf package: per
# run, "run,host,/host:CPU,step,name,duration_us" for each event of the
# python line with an int step_num stat and _r, in step order.
if ! python_has google.protobuf; then
	note_skip "the protobuf check: '$PYTHON' cannot import google.protobuf; $(install_hint google.protobuf)"
	test_done
fi
if ! command -v protoc >/dev/null 2>&1; then
	note_skip "the protobuf check: protoc is not installed; $(install_hint protoc)"
	test_done
fi

test_case 'duration_us of each step equals its event read with protobuf'
mkdir "$tmp/pb"
protoc -I"$SRCDIR/proto" --python_out="$tmp/pb" xplane.proto ||
    fail "protoc failed on proto/xplane.proto"
cat >"$tmp/steps.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import xplane_pb2

for run, path in zip(sys.argv[2::2], sys.argv[3::2]):
    space = xplane_pb2.XSpace()
    with open(path, "rb") as f:
        space.ParseFromString(f.read())
    rows = []
    for plane in space.planes:
        if plane.name != "/host:CPU":
            continue
        sname = {k: v.name for k, v in plane.stat_metadata.items()}
        for line in plane.lines:
            for ev in line.events:
                st = {sname.get(s.metadata_id): s for s in ev.stats}
                if "step_num" not in st or "_r" not in st:
                    continue
                step = st["step_num"].int64_value
                name = plane.event_metadata[ev.metadata_id].name
                rows.append((step, name, ev.duration_ps))
    for step, name, dur in sorted(rows):
        print("%s,testhost,/host:CPU,%d,%s,%.3f" % (run, step, name,
                                                   dur / 1e6))
EOF
expect_code 0 "$PYTHON" "$tmp/steps.py" "$tmp/pb" \
    $R0 "$T/plugins/profile/$R0/testhost.xplane.pb" \
    $R1 "$T/plugins/profile/$R1/testhost.xplane.pb"
expect_stderr_empty
save want
[ "$(grep -c . "$tmp/want")" -eq 9 ] || fail "protobuf found not 9 step events"
awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $4 "," $5 "," $7 }' \
    "$tmp/all" >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "step durations differ from the protobuf reading"

test_case '--summary over two PATHs: each row says the PATH it is from'
R=$TESTDATA/jax-mlp/plugins/profile
expect_code 0 jaxprof steps --summary --format=csv "$R/2026_01_01_00_00_00" \
    "$R/2026_01_01_00_00_01"
expect_stderr_empty
[ "$(head -n 1 "$out" | cut -d, -f1-2)" = path,run ] || fail "no path column first"
awk -F, -v r="$R" 'NR > 1 && $1 != r "/" $2 { print; bad = 1 } END { exit bad || NR != 3 }' \
    "$out" || fail "a row whose path is not the PATH of its run"
expect_code 0 jaxprof steps --summary "$R/2026_01_01_00_00_00" "$R/2026_01_01_00_00_01"
expect_stdout_match "^$R/2026_01_01_00_00_01: testhost /host:CPU: step 0 .* looks like a compile step"

test_case '--summary over one PATH: no path column'
expect_code 0 jaxprof steps --run='*' --summary --format=csv "$TESTDATA/jax-mlp"
[ "$(head -n 1 "$out" | cut -d, -f1)" = run ] || fail "a path column for one PATH"

test_done
