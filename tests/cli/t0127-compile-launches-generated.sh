#!/bin/sh
# Executions are launches, on generated raw GPU profiles (gen-xplane
# --launches, issue 9): jit_train_step launched once per step, first back
# to back and then with idle between, as plain kernels and as CUDA graphs,
# after autotuner kernels inside the compile, and with the HLO, a
# TransformerEngine custom call of two kernels in two scopes (one run,
# category attention) and a fusion in a loop (two runs per launch).
# compile, top and steps must give the generator's expected/launches.csv
# and launch-ops.csv.
. "$(dirname "$0")/lib.sh"

ps_us() {
	awk -v p="$1" 'BEGIN { printf "%.3f", p / 1e6 }'
}

for mode in plain graph attention; do
	G=$tmp/$mode
	expect_code 0 gen_xplane --steps=8 --launches=$mode "$G"
	want=$(sed -n 2p "$G/expected/launches.csv")
	IFS=, read -r module execs exec_ps span_ps autotune_ps <<EOF2
$want
EOF2

	test_case "$mode: compile: $execs executions, device time, span, autotune"
	expect_code 0 jaxprof compile --format=csv "$G"
	expect_stderr_empty
	[ "$(awk -F, 'NR > 1' "$out" | wc -l)" -eq 1 ] ||
		fail "compile lists more than train_step (autotuner modules?)"
	row=$(sed -n 2p "$out")
	[ "$row" = "train_step,$module,1,50000.000,$execs,$(ps_us "$exec_ps"),$(awk -v c=50000 -v e="$exec_ps" 'BEGIN { printf "%.3f", c / (e / 1e6) }'),1,$(ps_us "$span_ps"),$(ps_us "$autotune_ps")" ] ||
		fail "compile row '$row' is not the expected one ($want)"

	test_case "$mode: top: each op ran once per launch, no autotuner op"
	expect_code 0 jaxprof top -n 0 --format=csv "$G"
	awk -F, 'NR > 1 { printf "%s,%s,%.3f,%.3f,%s\n", $2, $5, $6, $9, $4 }' \
	    "$out" | sort >"$tmp/got"
	awk -F, 'NR > 1 { printf "%s,%s,%.3f,%.3f,%s\n", $1, $2, $3 / 1e6,
	    $4 / 1e6, $5 }' "$G/expected/launch-ops.csv" | sort >"$tmp/want"
	expect_files_equal "$tmp/want" "$tmp/got" "top's ops are not launch-ops.csv"
	expect_code 0 jaxprof top -n 0 --include-compile-work --format=csv "$G"
	grep -q ',gemm_fusion_dot\.60,' "$out" ||
		fail "--include-compile-work does not show the autotuner"

	test_case "$mode: index: one execution per launch"
	expect_code 0 jaxprof sql --format=csv "SELECT count(*), sum(device_ps) \
FROM executions e JOIN selected s ON s.file_id = e.file_id \
WHERE compile_work = 0" "$G"
	[ "$(sed -n 2p "$out")" = "$execs,$exec_ps" ] ||
		fail "the executions table is not $execs launches of $exec_ps ps"
done

# gen-xplane's graph_calls(): each step makes its graph anew under a new
# id (7 us) and launches it (3 us); CUPTI's " (CudaGraph:<id>)" is not
# part of a scope's name, but a name only like it stays whole.
test_case "graph: scopes of the CUDA graph calls: one per call, not per graph"
expect_code 0 jaxprof top --group=scope -n 0 --format=csv "$tmp/graph"
expect_stderr_empty
awk -F, 'NR > 1 && $2 ~ /^train;cu/ { print $2 "," $5 "," $6 }' "$out" |
    sort >"$tmp/got"
cat >"$tmp/want" <<EOF2
train;cuGraphCreate (CudaGraph:first),1,5.000
train;cuGraphCreate,8,56.000
train;cuGraphLaunch,8,24.000
EOF2
expect_files_equal "$tmp/want" "$tmp/got" "the graph calls' scopes differ"

test_done
