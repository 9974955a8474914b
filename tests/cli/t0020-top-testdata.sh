#!/bin/sh
# top on the committed CPU JAX profiles: the op table, its groupings, sort
# keys and formats, and the facts testdata/README.md states about the ops.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp

# column N of a csv without quoted fields, header dropped
col() {
	awk -F, -v c="$1" 'NR > 1 { print $c }' "$out"
}

test_case "csv, -n 10, --run='*00'"
expect_code 0 jaxprof top -n 10 --format=csv --run='*00' "$T"
compare_golden csv
expect_stderr_empty
[ "$(grep -c . "$out")" -eq 11 ] || fail "expected a header and 10 rows"

test_case "table, -n 10, --run='*00': says it is a CPU-only profile"
expect_code 0 jaxprof top -n 10 --run='*00' "$T"
compare_golden table
expect_stderr_empty
expect_stdout_match '^Top ops by device time$'
expect_stdout_match "^CPU-only profile: op events on the host's compute threads stand in for device ops\.$"
expect_stdout_match '^1 plane; times summed over hosts and devices\.$'
expect_stdout_match '^18 more rows; -n 0 shows all\.$'

test_case 'markdown, -n 10'
expect_code 0 jaxprof top -n 10 --format=markdown --run='*00' "$T"
compare_golden markdown
expect_stderr_empty

test_case 'json, -n 3'
expect_code 0 jaxprof top -n 3 --format=json --run='*00' "$T"
compare_golden json
expect_stderr_empty
if python_has json; then
	"$PYTHON" -c '
import json, sys
rows = json.load(sys.stdin)
assert [r["rank"] for r in rows] == [1, 2, 3], rows
assert rows[0]["name"] == "dot.2" and rows[0]["gbps"] is None, rows[0]
' <"$out" || fail "top --format=json is not the JSON expected"
fi

test_case "run 1: 171 op events, 150 of jit_train_step and 21 of jit_normalize"
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' "$T"
expect_stderr_empty
save run00-all
[ "$(col 5 | awk '{ n += $1 } END { print n }')" = 171 ] ||
    fail "the op counts do not add up to 171"
[ "$(awk -F, '$3 == "jit_train_step" { n += $5 } END { print n }' "$out")" = 150 ] ||
    fail "jit_train_step does not have 150 op events"
[ "$(awk -F, '$3 == "jit_normalize" { n += $5 } END { print n }' "$out")" = 21 ] ||
    fail "jit_normalize does not have 21 op events"
[ "$(col 3 | sort -u | tr '\n' ' ')" = "jit_normalize jit_train_step " ] ||
    fail "modules other than jit_train_step and jit_normalize"
[ "$(col 12 | tail -n 1)" = 100.00 ] || fail "cum_percent does not end at 100"
col 6 | sort -g -c -r || fail "rows are not by total_us, descending"
col 1 | awk '$1 != NR { exit 1 }' || fail "ranks are not 1, 2, ..."

test_case "run 2: 18 op events of jit_predict (--run='*01')"
expect_code 0 jaxprof top -n 0 --format=csv --run='*01' "$T"
expect_stderr_empty
save run01-all
[ "$(col 5 | awk '{ n += $1 } END { print n }')" = 18 ] ||
    fail "the op counts do not add up to 18"
[ "$(col 3 | sort -u)" = jit_predict ] || fail "modules other than jit_predict"

test_case '--latest is run 2'
expect_code 0 jaxprof top -n 0 --format=csv --latest "$T"
expect_stderr_empty
expect_stdout_file "$tmp/run01-all"

test_case 'both runs: the ops of both'
expect_code 0 jaxprof top -n 0 --format=csv "$T"
expect_stderr_empty
[ "$(col 5 | awk '{ n += $1 } END { print n }')" = 189 ] ||
    fail "the op counts of both runs do not add up to 171 + 18"

test_case '-n 0 and -n 1000 show every row; -n 1 one'
expect_code 0 jaxprof top -n 1000 --format=csv --run='*00' "$T"
expect_stdout_file "$tmp/run00-all"
expect_stderr_empty
expect_code 0 jaxprof top --limit=1 --format=csv --run='*00' "$T"
head -n 2 "$tmp/run00-all" >"$tmp/want"
expect_stdout_file "$tmp/want"
expect_stderr_empty

test_case 'csv and json give every row by default'
expect_code 0 jaxprof top --format=csv --run='*00' "$T"
expect_stdout_file "$tmp/run00-all"
expect_stderr_empty
expect_code 0 jaxprof top --format=json --run='*00' "$T"
expect_stderr_empty
[ "$(grep -c '"rank":' "$out")" -eq "$(($(grep -c . "$tmp/run00-all") - 1))" ] ||
    fail "top --format=json does not give every row"

test_case 'the default limit of the table is 20'
expect_code 0 jaxprof top --run='*00' "$T"
expect_stderr_empty
expect_stdout_match '^20  '
! grep -q '^21 ' "$out" || fail "the table shows a 21st row"
expect_stdout_match '^8 more rows; -n 0 shows all\.$'

test_case '--group=category'
expect_code 0 jaxprof top --group=category --run='*00' "$T"
compare_golden group-category
expect_stderr_empty
expect_stdout_match '^Top op categories by device time$'

test_case '--group=category adds up the op rows'
expect_code 0 jaxprof top -n 0 --group=category --format=csv --run='*00' "$T"
expect_stderr_empty
col 2 >"$tmp/got"
awk -F, 'NR > 1 { n[$4] += $5 } END { for (c in n) print c, n[c] }' \
    "$tmp/run00-all" | sort >"$tmp/want"
awk -F, 'NR > 1 { print $2, $5 }' "$out" | sort >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "category counts differ from the op rows"

test_case '--group=module: counts and averages per launch'
expect_code 0 jaxprof top --group=module --run='*00' "$T"
compare_golden group-module
expect_stderr_empty
expect_stdout_match '^Top modules by device time$'
# A module runs once per launch: its executions, as compile counts them.
expect_code 0 jaxprof compile --format=csv --run='*00' "$T"
awk -F, 'NR > 1 { print $2 "," $5 }' "$out" | sort >"$tmp/want"
expect_code 0 jaxprof top --group=module --format=csv --run='*00' "$T"
awk -F, 'NR > 1 { print $2 "," $5 }' "$out" | sort >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "module counts are not their executions"
awk -F, 'NR > 1 && ($8 - $6 / $5 > 0.001 || $6 / $5 - $8 > 0.001) { exit 1 }' \
    "$out" || fail "a module's average is not its total per launch"

test_case '--group=kernel: a CPU profile has no kernels'
expect_code 0 jaxprof top --group=kernel --format=csv --run='*00' "$T"
# The header of the op table and the kernel columns after it.
{ head -n 1 "$tmp/run00-all" | tr -d '\n'
  echo ',op,framework_op,registers_per_thread,shared_mem_bytes,block,grid,occupancy_pct,tensor_core'
} >"$tmp/want"
expect_stdout_file "$tmp/want"
expect_stderr_is 'jaxprof: top: no ops in the selection'

test_case '--by=count'
expect_code 0 jaxprof top --by=count -n 10 --run='*00' "$T"
compare_golden by-count
expect_stderr_empty
expect_stdout_match '^Top ops by count$'

test_case '--by=count sorts by count, then name'
expect_code 0 jaxprof top --by=count -n 0 --format=csv --run='*00' "$T"
expect_stderr_empty
awk -F, 'NR > 1 { print $5 "," $2 }' "$out" >"$tmp/got"
sort -t, -k1,1nr -k2,2 "$tmp/got" >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/got" "--by=count order"

test_case '--by=avg sorts by the average'
expect_code 0 jaxprof top --by=avg -n 0 --format=csv "$T"
compare_golden by-avg
expect_stderr_empty
col 8 | sort -g -c -r || fail "rows are not by avg_us, descending"

test_case '--by=avg --group=category'
expect_code 0 jaxprof top --by=avg --group=category --format=csv "$T"
expect_stderr_empty
col 8 | sort -g -c -r || fail "categories are not by avg_us, descending"

test_case '--by=self-time'
expect_code 0 jaxprof top --by=self-time -n 0 --format=csv --run='*00' "$T"
expect_stderr_empty
col 7 | sort -g -c -r || fail "rows are not by self_us, descending"

test_case '--device=CPU and --device=/host:CPU select the CPU plane'
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' --device=CPU "$T"
expect_stdout_file "$tmp/run00-all"
expect_stderr_empty
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' --device='/host:CPU' "$T"
expect_stdout_file "$tmp/run00-all"
expect_stderr_empty

test_case '--device=GPU:0 selects nothing in a CPU profile: exit 2, the devices listed'
expect_code 2 jaxprof top --device=GPU:0 "$T"
expect_stdout_empty
expect_stderr_is "jaxprof: top: --device='GPU:0' matches no device; devices found: '/host:CPU'"

test_case '--host=testhost (the file name prefix) is everything'
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' --host=testhost "$T"
expect_stdout_file "$tmp/run00-all"
expect_stderr_empty

test_case '--host=nohost matches nothing: exit 2, the hosts listed'
expect_code 2 jaxprof top -n 0 --format=csv --run='*00' --host=nohost "$T"
expect_stdout_empty
expect_stderr_is "jaxprof: top: --host='nohost' matches no host; hosts found: 'testhost'"

test_done
