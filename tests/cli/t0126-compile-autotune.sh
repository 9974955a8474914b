#!/bin/sh
# Compile work (issue 9): on the H200 run compiled inside the trace
# (cmdbuf-train), the autotuner's candidate modules, which XLA runs on
# the GPU inside backend_compile_and_load, are no jitted functions of
# the user: compile lists train_step only, with their device time as its
# autotune_us, and top shows no op of theirs unless given
# --include-compile-work.
. "$(dirname "$0")/lib.sh"

P=$CORPUS/h200/cmdbuf-train
[ -d "$P" ] || skip "no corpus profile at '$P'"

test_case 'compile: only train_step, with autotune_us'
expect_code 0 jaxprof compile --format=csv "$P"
[ "$(awk -F, 'NR > 1 { printf "%s/%s ", $1, $2 }' "$out")" = \
    "train_step/jit_train_step " ] ||
	fail "compile lists more than train_step: $(cut -d, -f1 "$out" | tr '\n' ' ')"
[ "$(awk -F, 'NR == 2 { print $5 }' "$out")" = 10 ] ||
	fail "train_step has not 10 executions"
awk -F, 'NR == 2 { exit !($10 > 100000) }' "$out" ||
	fail "train_step has no autotune_us over 100 ms"

test_case 'top: every op is of a jitted program of the user'
expect_code 0 jaxprof top -n 0 --format=csv "$P"
[ "$(awk -F, 'NR > 1 && $3 != "jit_train_step"' "$out" | wc -l)" -eq 0 ] ||
	fail "top has rows of other modules: $(awk -F, 'NR > 1 && $3 != "jit_train_step" { print $2 "/" $3 }' "$out" | head -3)"
[ "$(awk -F, 'NR > 1' "$out" | wc -l)" -gt 0 ] || fail "top has no rows"

test_case 'top --include-compile-work: the autotuner modules come back'
expect_code 0 jaxprof top -n 0 --include-compile-work --format=csv "$P"
grep -q ',gemm_fusion_dot\.67,' "$out" ||
	fail "gemm_fusion_dot.67 is not a module with --include-compile-work"

test_case 'check --skip=1 against itself: no autotuner op fails'
expect_code 0 jaxprof check --baseline="$P" --skip=1 "$P"
expect_stdout_match '^PASS: '

test_case 'steps: the compile step'"'"'s parts add up to the step'
# The autotuner's candidates overlap: busy time is a union, and the
# classes share it out, so compute + collective + transfer + idle is the
# step time (to the rounding of the microsecond columns).
expect_code 0 jaxprof steps --format=csv "$P"
awk -F, 'NR > 1 { d = $8 + $9 + $10 + $11 - $7; if (d < 0) d = -d
	if (d > 0.005) bad = 1 } END { exit bad }' "$out" ||
	fail "a step's compute, collective, transfer and idle do not add up"

test_done
