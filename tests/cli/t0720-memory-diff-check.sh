#!/bin/sh
# diff compares memory peaks per allocator, check has rules on them:
# generated profiles whose allocator peaks are known (gen-xplane --memory).
. "$(dirname "$0")/lib.sh"

gen_xplane --memory=ok --steps=4 "$tmp/a" || fail "gen-xplane failed"
gen_xplane --memory=ok --steps=8 "$tmp/b" || fail "gen-xplane failed"
pa=$(awk -F, 'NR == 2 { print $3 }' "$tmp/a/expected/memory.csv")
pb=$(awk -F, 'NR == 2 { print $3 }' "$tmp/b/expected/memory.csv")

test_case 'diff --summary has each allocator peak of both sides'
expect_code 0 jaxprof diff --summary --format=csv "$tmp/a" "$tmp/b"
expect_stdout_match "^memory_allocator_GPU_0_bfc_bytes,$pa,$pb,"
expect_code 0 jaxprof diff "$tmp/a" "$tmp/b"
expect_stdout_match '^Peak memory of allocator GPU_0_bfc: 68\.00 MiB -> 72\.00 MiB \(\+5\.88%\)$'

test_case 'check --max-memory-growth fails past its limit, exit 1'
expect_code 1 jaxprof check --baseline="$tmp/a" --max-memory-growth=5% "$tmp/b"
expect_stdout_match '^max-memory-growth +peak of allocator GPU_0_bfc +68\.00 MiB +72\.00 MiB +\+5\.88% +5\.00% +FAIL +option$'
expect_code 0 jaxprof check --baseline="$tmp/a" --max-memory-growth=6% "$tmp/b"
expect_stdout_match '^max-memory-growth .* PASS +option$'

test_case 'check --max-peak-memory'
expect_code 1 jaxprof check --baseline="$tmp/a" --max-peak-memory=70M "$tmp/b"
expect_stdout_match '^max-peak-memory +peak of allocator GPU_0_bfc .* FAIL +option$'
expect_code 0 jaxprof check --baseline="$tmp/a" --max-peak-memory=70M "$tmp/a"
expect_code 2 jaxprof check --baseline="$tmp/a" --max-peak-memory=lots "$tmp/a"
expect_stderr_match "invalid --max-peak-memory 'lots'"

test_case 'a baseline keeps the peaks, and a rules file sets the rule'
expect_code 0 jaxprof baseline save -o "$tmp/base.json" "$tmp/a"
grep -q '"memory"' "$tmp/base.json" || fail "no memory in the baseline"
printf 'max-memory-growth = 5%%\n' >"$tmp/rules"
expect_code 1 jaxprof check --baseline="$tmp/base.json" --rules="$tmp/rules" "$tmp/b"
expect_stdout_match '^max-memory-growth .* FAIL +rules file$'
test_done
