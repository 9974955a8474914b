#!/bin/sh
# Numbers taken from a profile, a baseline or an option never wrap (issue
# 41.1): byte counts past 8 PiB are damage, sums of the largest valid
# values saturate, a negative cost is no cost, and a time limit past what
# any profile holds is bad usage.  Under .ci/run's ASan/UBSan build the old
# code stopped here on signed overflow; in a plain build it printed
# negative peaks, FLOPs and compile times.
. "$(dirname "$0")/lib.sh"

crashers=$SRCDIR/fuzz/crashers

test_case 'memory events whose bytes add up past int64 are refused'
gen_xplane --memory=huge --steps=3 "$tmp/huge" || fail "gen-xplane failed"
expect_code 2 jaxprof memory "$tmp/huge"
expect_stderr_line "^jaxprof: memory: damaged memory event in '.*host0\.xplane\.pb': bytes_allocated is not a byte count$"

test_case 'a negative FLOP or byte count on an op is no count'
expect_code 0 jaxprof top --format=csv --fields=name,count,flops,bytes_accessed \
    "$crashers/xspace/negative-flops.xplane.pb"
printf '%s\n' name,count,flops,bytes_accessed fusion.1,1,, >"$tmp/want"
expect_files_equal "$tmp/want" "$out"

test_case 'costs of the largest size add up to int64'"'"'s end, not below 0'
expect_code 0 jaxprof top --format=csv --fields=name,count,flops,bytes_accessed \
    "$crashers/xspace/huge-flops.xplane.pb"
printf '%s\n' name,count,flops,bytes_accessed \
    fusion.1,2,9223372036854775807,9223372036854775807 >"$tmp/want"
expect_files_equal "$tmp/want" "$out"

test_case 'compile times of a baseline add up without wrapping'
# Five functions at the longest time a profile holds (2^61 ps) each.
python3 - "$TESTDATA/baselines/jax-mlp.json" "$tmp/base.json" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
d["compiles"] = {"count": 5, "total_ps": 1 << 61, "functions": [
    {"function": "f%d" % i, "count": 1, "total_ps": 1 << 61}
    for i in range(5)]}
json.dump(d, open(sys.argv[2], "w"))
PY
    fail "could not write the baseline"
expect_code 0 jaxprof diff "$tmp/base.json" "$TESTDATA/baselines/jax-mlp.json"
expect_stdout_match '^Compiles: 5 -> 3, 9223372\.037 s -> 2\.468 s \(-100\.00%\)'
expect_code 0 jaxprof diff --format=json "$tmp/base.json" \
    "$TESTDATA/baselines/jax-mlp.json"
expect_stdout_match '"metric": "compile_time_us", "base": 9223372036854\.78,'

test_case 'a step-time limit longer than any profile is bad usage'
expect_code 2 jaxprof check --max-step-time=10000000s "$TESTDATA/jax-mlp"
expect_stderr_match "invalid --max-step-time '10000000s'"
printf 'max-step-time = 10000000s\n' >"$tmp/long.rules"
expect_code 2 jaxprof check --rules="$tmp/long.rules" "$TESTDATA/jax-mlp"
# The longest a profile holds, 2^61 ps, is still a limit.
expect_code 0 jaxprof check --max-step-time=2305843s \
    --baseline="$TESTDATA/baselines/jax-mlp.json" --max-op-regression=off \
    --max-step-regression=off --max-new-op-share=off "$TESTDATA/jax-mlp"

test_done
