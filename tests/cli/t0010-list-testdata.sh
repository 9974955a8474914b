#!/bin/sh
# list on the committed JAX CPU profiles (testdata/jax-mlp, two runs): every
# column is fixed by the files (sizes, event counts, span, profile start).
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
[ -d "$T" ] || fail "no $T"

test_case 'csv'
expect_code 0 jaxprof list --format=csv "$T"
compare_golden csv
expect_stderr_empty
save csv

test_case 'the csv agrees with testdata/README.md'
# name,size of the xplane files, as the README lists them.
awk -F, '$4 == "xplane" { print $1 "/" $3, $5, $6, $8 }' "$tmp/csv" \
    >"$tmp/got"
cat >"$tmp/want" <<'EOF'
2026_01_01_00_00_00/testhost.xplane.pb 128003 3 CPU
2026_01_01_00_00_01/testhost.xplane.pb 67133 3 CPU
EOF
expect_files_equal "$tmp/want" "$tmp/got" "xplane rows differ from the README"
for f in "$T"/plugins/profile/*/*; do
	size=$(wc -c <"$f" | tr -d ' ')
	run=$(basename "$(dirname "$f")")
	grep -q "^$run,[^,]*,$(basename "$f"),[^,]*,$size," "$tmp/csv" ||
	    fail "no row for $run/$(basename "$f") with size $size"
done
[ "$(grep -c . "$tmp/csv")" -eq 7 ] || fail "expected a header and 6 rows"

test_case 'table (the default)'
expect_code 0 jaxprof list "$T"
compare_golden table
expect_stderr_empty
save table

test_case '--format=table is the default'
expect_code 0 jaxprof list --format=table "$T"
expect_stdout_file "$tmp/table"
expect_stderr_empty

test_case 'json'
expect_code 0 jaxprof list --format=json "$T"
compare_golden json
expect_stderr_empty
if python_has json; then
	"$PYTHON" -c '
import json, sys
rows = json.load(sys.stdin)
assert isinstance(rows, list) and len(rows) == 6, rows
keys = ["run", "host", "file", "kind", "size_bytes", "planes", "events",
        "devices", "span_us", "start_utc"]
for r in rows:
    assert list(r) == keys, r
    assert isinstance(r["size_bytes"], int), r
x = [r for r in rows if r["kind"] == "xplane"]
assert [r["events"] for r in x] == [3377, 517], x
assert [r["size_bytes"] for r in x] == [128003, 67133], x
' <"$out" || fail "list --format=json is not the JSON expected"
else
	note_skip "the JSON parse check: '$PYTHON' does not run"
fi

test_case 'markdown'
expect_code 0 jaxprof list --format=markdown "$T"
compare_golden markdown
expect_stderr_empty

test_case '--latest: only run 2026_01_01_00_00_01'
expect_code 0 jaxprof list --latest --format=csv "$T"
compare_golden latest
expect_stderr_empty
[ "$(cut -d, -f1 "$out" | sort -u | tr '\n' ' ')" = \
    "2026_01_01_00_00_01 run " ] || fail "--latest showed other runs"

test_case "--run='*00': only run 2026_01_01_00_00_00"
expect_code 0 jaxprof list --run='*00' --format=csv "$T"
compare_golden run00
expect_stderr_empty
[ "$(cut -d, -f1 "$out" | sort -u | tr '\n' ' ')" = \
    "2026_01_01_00_00_00 run " ] || fail "--run='*00' showed other runs"

test_case '--run and --host that match nothing: exit 2, the filter named, what exists listed'
expect_code 2 jaxprof list --run='none*' --format=csv "$T"
expect_stdout_empty
expect_stderr_is "jaxprof: list: --run='none*' matches no run; runs found: '2026_01_01_00_00_00', '2026_01_01_00_00_01'"
expect_code 2 jaxprof list --host=nohost --format=csv "$T"
expect_stdout_empty
expect_stderr_is "jaxprof: list: --host='nohost' matches no host; hosts found: 'testhost'"

test_case "--host=testhost: no perfetto_trace rows (their host is empty)"
expect_code 0 jaxprof list --host=testhost --format=csv "$T"
expect_stderr_empty
grep -v perfetto_trace "$tmp/csv" >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'one file named on the command line'
expect_code 0 jaxprof list --format=csv \
    "$T/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb"
expect_stderr_empty
{ head -n 1 "$tmp/csv"; grep '_01,testhost,testhost.xplane.pb' "$tmp/csv"; } \
    >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'the same path twice lists it once'
expect_code 0 jaxprof list --format=csv "$T" "$T/plugins/../plugins"
expect_stdout_file "$tmp/csv"
expect_stderr_empty

test_case 'a second list answers from the index, the same'
expect_code 0 jaxprof list --format=csv "$T"
expect_stdout_file "$tmp/csv"
expect_stderr_empty

test_done
