#!/bin/sh
# compile: compile time versus execution per jitted function, and the
# recompilation note and warning, on the committed CPU JAX profiles
# (testdata/README.md: normalize is compiled twice in run 1) and on a
# generated 2-host profile, where each host compiling once is no
# recompilation.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
WARN='jaxprof: compile: warning: 1 function was compiled more than once (recompilation)'

# column N of the csv in $out, header dropped, for the row named $2
cell() {
	awk -F, -v c="$1" -v n="$2" 'NR > 1 && $1 == n { print $c }' "$out"
}

test_case 'csv of the testdata'
expect_code 0 jaxprof compile --format=csv "$T"
compare_golden csv
expect_stderr_is "$WARN"
[ "$(head -n 1 "$out")" = \
    name,module,compiles,compile_us,executions,execute_us,compile_execute_ratio,programs,execute_span_us,autotune_us ] ||
    fail "compile --format=csv has not the header expected"
[ "$(awk -F, 'NR > 1 { printf "%s ", $1 }' "$out")" = \
    "train_step normalize predict " ] ||
    fail "the functions are not train_step, normalize, predict (by compile time)"

test_case 'compiles: train_step 1, normalize 2, predict 1 (README)'
[ "$(cell 3 train_step)" = 1 ] || fail "train_step is not compiled once"
[ "$(cell 3 normalize)" = 2 ] || fail "normalize is not compiled twice"
[ "$(cell 3 predict)" = 1 ] || fail "predict is not compiled once"
[ "$(cell 8 normalize)" = 2 ] || fail "normalize has not 2 programs"
[ "$(cell 8 train_step)" = 1 ] || fail "train_step has not 1 program"

test_case 'executions: jit_train_step 6, jit_normalize 7, jit_predict 3 (README)'
[ "$(cell 2 train_step),$(cell 5 train_step)" = jit_train_step,6 ] ||
    fail "jit_train_step does not run 6 times"
[ "$(cell 2 normalize),$(cell 5 normalize)" = jit_normalize,7 ] ||
    fail "jit_normalize does not run 7 times"
[ "$(cell 2 predict),$(cell 5 predict)" = jit_predict,3 ] ||
    fail "jit_predict does not run 3 times"

test_case 'compile_us: the 4 backend_compile_and_load events in all'
save csv
awk -F, 'NR > 1 { n += $3; t += $4 } END { printf "%d,%.3f\n", n, t }' \
    "$tmp/csv" >"$tmp/got"
expect_code 0 jaxprof sql --format=csv "SELECT count(*), sum(h.dur_ps) \
FROM host_events h JOIN selected s ON s.file_id = h.file_id \
WHERE h.name = 'backend_compile_and_load'" "$T"
expect_stderr_empty
awk -F, 'NR > 1 { printf "%d,%.3f\n", $1, $2 / 1e6 }' "$out" >"$tmp/want"
[ "$(cut -d, -f1 "$tmp/want")" = 4 ] ||
    fail "the index has not 4 backend_compile_and_load events (README)"
expect_files_equal "$tmp/want" "$tmp/got" "compile_us does not add up to the backend_compile_and_load events"

test_case 'table: the Recompiled note and the warning'
expect_code 0 jaxprof compile "$T"
compare_golden table
expect_stderr_is "$WARN"
expect_stdout_match '^Recompiled: normalize, 2 times on one host \(programs jit_normalize\(0\), jit_normalize\(4\)\)\.$'
[ "$(grep -c '^Recompiled:' "$out")" -eq 1 ] || fail "not exactly one Recompiled note"
expect_stdout_match '^Total: compile [0-9.]+ m?s \(4 compilations\), execute [0-9.]+ m?s \(16 executions\); compile/execute [0-9.]+\.$'

test_case 'run 2 alone: predict only, no recompilation'
expect_code 0 jaxprof compile --format=csv --run='*01' "$T"
expect_stderr_empty
[ "$(awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $5 }' "$out")" = \
    predict,jit_predict,1,3 ] || fail "run 2 is not predict, compiled once, run 3 times"

test_case '--phases: exit 0, the compiler thread'"'"'s PjRtCpuClient::Compile'
expect_code 0 jaxprof compile --phases --format=csv "$T"
expect_stderr_empty
[ "$(head -n 1 "$out")" = name,phase,line,depth,count,total_us,percent ] ||
    fail "compile --phases has not the header expected"
expect_stdout_match '^train_step,PjRtCpuClient::Compile,tf_PjRtCompilerThreadPool/[-0-9]+,0,1,'
expect_stdout_match '^normalize,PjRtCpuClient::Compile,tf_PjRtCompilerThreadPool/[-0-9]+,0,2,'
expect_stdout_match '^predict,PjRtCpuClient::Compile,tf_PjRtCompilerThreadPool/[-0-9]+,0,1,'
awk -F, 'NR > 1 && ($7 < 0 || $7 > 100.005) { exit 1 }' "$out" ||
    fail "a phase is not 0..100% of its compile"

test_case 'a generated 2-host profile: train_step once per host is no recompilation'
expect_code 0 gen_xplane --seed=5 --hosts=2 --devices=2 --steps=3 "$tmp/gen"
expect_code 0 jaxprof compile "$tmp/gen"
expect_stderr_empty
if grep -q 'Recompiled' "$out"; then
	fail "each host compiling once is called a recompilation"
fi
expect_code 0 jaxprof compile --format=csv "$tmp/gen"
expect_stderr_empty
# 2 hosts x 2 devices x 3 steps, one jit_train_step execution each.
[ "$(awk -F, 'NR > 1 { print $1 "," $2 "," $3 "," $5 "," $8 }' "$out")" = \
    train_step,jit_train_step,2,12,0 ] ||
    fail "not train_step compiled twice (once per host) and run 12 times"

test_done
