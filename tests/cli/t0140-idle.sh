#!/bin/sh
# idle: device idle gaps of a synthetic GPU profile against the gaps the
# generator worked out (OUTDIR/expected/gaps.csv: every gap of at least
# 100 us in the union of each device's busy intervals), the --min-gap and
# -n options, and a golden of the committed CPU JAX profiles.
. "$(dirname "$0")/lib.sh"

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"

G=$tmp/gen
T=$TESTDATA/jax-mlp
FLOOR='is below the 100us the index keeps$'

# `jaxprof idle --format=csv` columns: run,host,device,start_us,
# duration_us,step,host_activity,host_context,host_line.  Projected to
# host,device,start,duration, sorted by host, device, start.
project_gaps() {
	awk -F, 'NR > 1 { print $2 "," $3 "," $4 "," $5 }' "$out" |
	    sort -t, -k1,1 -k2,2 -k3,3n
}

# expected/gaps.csv rows of at least $1 ps, in us with 3 decimals.
want_gaps() {
	awk -F, -v min="$1" 'NR > 1 && $4 >= min {
		printf "%s,%s,%.3f,%.3f\n", $1, $2, $3 / 1e6, $4 / 1e6
	}' "$G/expected/gaps.csv" | sort -t, -k1,1 -k2,2 -k3,3n
}

test_case 'generate 2 hosts x 3 devices with gaps between steps'
expect_code 0 gen_xplane --seed=1 --hosts=2 --devices=3 --steps=6 --ops=12 "$G"
expect_stderr_empty
[ "$(head -n 1 "$G/expected/gaps.csv")" = host,device,start_ps,duration_ps ] ||
    fail "expected/gaps.csv has not the header expected"
n=$(($(grep -c . "$G/expected/gaps.csv") - 1))
# 6 steps: 5 spaces between them on each of the 6 devices, not all 100 us.
[ "$n" -ge 6 ] && [ "$n" -lt 30 ] ||
    fail "expected/gaps.csv has $n gaps, not some of the 30 between steps"
awk -F, 'NR > 1 && $4 >= 1000000000 { n++ } END { exit !(n > 0) }' \
    "$G/expected/gaps.csv" || fail "no expected gap of 1 ms or more"
awk -F, 'NR > 1 && $4 < 1000000000 { n++ } END { exit !(n > 0) }' \
    "$G/expected/gaps.csv" || fail "no expected gap under 1 ms"

test_case 'idle -n 0 --min-gap=100us --format=csv: expected/gaps.csv'
expect_code 0 jaxprof idle -n 0 --min-gap=100us --format=csv "$G"
expect_stderr_empty
[ "$(head -n 1 "$out")" = \
    run,host,device,start_us,duration_us,step,host_activity,host_context,host_line ] ||
    fail "idle --format=csv has not the header expected"
save all
project_gaps >"$tmp/got"
want_gaps 100000000 >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "gaps differ from expected/gaps.csv"
awk -F, 'NR > 2 && $5 > prev { exit 1 } { prev = $5 }' "$out" ||
    fail "gaps are not longest first"
# Every gap lies between two steps: in no step window.
awk -F, 'NR > 1 && $6 != "" { exit 1 }' "$out" ||
    fail "a gap between steps is given a step"

test_case '--min-gap=1ms: only the gaps of 1 ms or more'
expect_code 0 jaxprof idle -n 0 --min-gap=1ms --format=csv "$G"
expect_stderr_empty
project_gaps >"$tmp/got"
want_gaps 1000000000 >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--min-gap=1ms differs from expected/gaps.csv"

test_case '-n 3: the 3 longest, and the note counts them all'
expect_code 0 jaxprof idle -n 3 --min-gap=100us --format=csv "$G"
expect_stderr_empty
head -n 4 "$tmp/all" >"$tmp/want"
expect_stdout_file "$tmp/want"
expect_code 0 jaxprof idle -n 3 --min-gap=100us "$G"
expect_stderr_empty
total=$(awk -F, 'NR > 1 { t += $4 } END { printf "%.3f", t / 1e9 }' \
    "$G/expected/gaps.csv")
expect_stdout_match "^$n gaps, $(echo "$total" | sed 's/\./\\./') ms idle in all; -n 0 shows all\.$"

test_case '--device and --host select the planes'
expect_code 0 jaxprof idle -n 0 --min-gap=100us --format=csv --host=host1 \
    --device=GPU:2 "$G"
expect_stderr_empty
project_gaps >"$tmp/got"
want_gaps 100000000 | grep '^host1,/device:GPU:2,' >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "host1 GPU:2 gaps differ from expected/gaps.csv"

test_case '--min-gap=50us: below the floor, exit 2'
expect_code 2 jaxprof idle --min-gap=50us "$G"
expect_stdout_empty
expect_stderr_is "jaxprof: idle: --min-gap '50us' is below the 100us the index keeps"

test_case '--min-gap=99999ns and =0: below the floor'
expect_code 2 jaxprof idle --min-gap=99999ns "$G"
expect_stdout_empty
expect_stderr_line "$FLOOR"
expect_code 2 jaxprof idle --min-gap=0 "$G"
expect_stderr_line "$FLOOR"

test_case '--min-gap=0.1ms and =100000ns are the floor itself: accepted'
expect_code 0 jaxprof idle -n 0 --min-gap=0.1ms --format=csv "$G"
expect_stderr_empty
expect_stdout_file "$tmp/all"
expect_code 0 jaxprof idle -n 0 --min-gap=100000ns --format=csv "$G"
expect_stdout_file "$tmp/all"

test_case 'bad --min-gap values: exit 2, saying what a time is'
for v in abc '' 1.5.ms -1ms 10parsecs nan 1e400s 5h; do
	expect_code 2 jaxprof idle --min-gap="$v" "$G"
	expect_stdout_empty
	expect_stderr_line "^jaxprof: idle: invalid --min-gap '$v' \(a time such as 1ms, 500us or 2s\)$"
done

test_case 'bad -n: exit 2'
expect_code 2 jaxprof idle -n -1 "$G"
expect_stdout_empty
expect_code 2 jaxprof idle -n x "$G"
expect_stdout_empty

test_case 'testdata --min-gap=500us: table (golden)'
expect_code 0 jaxprof idle --min-gap=500us "$T"
compare_golden testdata-500us
expect_stderr_empty
expect_stdout_match '^Device idle gaps of 500\.000 us or more \(no op, kernel or copy running\), longest first\.$'
expect_stdout_match '^[0-9]+ gaps, [0-9.]+ m?s idle in all\.$'
save table

test_case 'testdata --min-gap=500us --format=csv: durations at least 500 us'
expect_code 0 jaxprof idle --min-gap=500us --format=csv "$T"
expect_stderr_empty
# As many rows as the table's "N gaps" line (N changes with regeneration).
n=$(sed -n 's/^\([0-9]*\) gaps, .*/\1/p' "$tmp/table" 2>/dev/null)
[ -z "$n" ] || [ "$(grep -c . "$out")" -eq $((n + 1)) ] ||
    fail "not the $n gaps of the table"
[ "$(grep -c . "$out")" -gt 1 ] || fail "no gaps"
awk -F, 'NR > 1 && $5 < 500 { exit 1 }' "$out" || fail "a gap under 500 us"

# A host loop sleeping in its data loading (issue 36): the device idles
# while the Python call "$time.py:1 sleep" runs, inside load_batch, inside
# the step's train.
mkdir -p "$tmp/ib/r"
cat >"$tmp/ib/r/h.trace.json" <<'EOF'
{"traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"/device:GPU:0"}},
{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"XLA Ops"}},
{"ph":"M","pid":2,"name":"process_name","args":{"name":"/host:CPU"}},
{"ph":"M","pid":2,"tid":7,"name":"thread_name","args":{"name":"python"}},
{"ph":"X","pid":1,"tid":1,"ts":0,"dur":5000,"name":"fusion.1","args":{"hlo_op":"fusion.1","hlo_module":"jit_step"}},
{"ph":"X","pid":1,"tid":1,"ts":95000,"dur":5000,"name":"fusion.1","args":{"hlo_op":"fusion.1","hlo_module":"jit_step"}},
{"ph":"X","pid":2,"tid":7,"ts":0,"dur":100000,"name":"train"},
{"ph":"X","pid":2,"tid":7,"ts":1000,"dur":98000,"name":"load_batch"},
{"ph":"X","pid":2,"tid":7,"ts":2000,"dur":96000,"name":"$time.py:1 sleep"}
]}
EOF

test_case "inside: the innermost scope around the host's activity, Python calls passed over"
expect_code 0 jaxprof idle --format=csv "$tmp/ib"
expect_stderr_empty
printf '%s\n' 'run,host,device,start_us,duration_us,step,host_activity,host_context,host_line' \
    'r,h,/device:GPU:0,5000.000,90000.000,,$time.py:1 sleep,load_batch,python' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_done
