#!/bin/sh
# Op totals per run (run_totals): top over whole runs reads them, and they
# follow the run's files as hosts are added, removed and changed, against
# the generator's own answers (OUTDIR/expected/*.csv).
. "$(dirname "$0")/lib.sh"

[ -n "${GEN_XPLANE:-}" ] && [ -x "$GEN_XPLANE" ] ||
    fail "GEN_XPLANE is not set to the generator"

G=$tmp/gen
IX=$tmp/idx.sqlite
RUN=$G/plugins/profile/2026_01_01_00_00_00
SPARE=$tmp/spare

sql() {
	"$JAXPROF" sql --db="$IX" --format=csv "$1" "$G" | tail -n 1
}

# top_is WANT_CSV_ROWS: `top -n 0` over the whole logdir gives them.
top_is() {
	expect_code 0 jaxprof top -n 0 --format=csv --db="$IX" "$G"
	expect_stderr_empty
	project_top >"$tmp/got"
	expect_files_equal "$1" "$tmp/got" "$2"
}

test_case 'generate 3 hosts x 2 devices'
expect_code 0 gen_xplane --seed=3 --hosts=3 --devices=2 --steps=3 --ops=10 "$G"
tail -n +2 "$G/expected/top.csv" | ps_to_us >"$tmp/all3"
sum_by_device '$1 != "host2"' "$G/expected/top-by-device.csv" |
    ps_to_us >"$tmp/two"
[ "$(grep -c . "$tmp/two")" -ge 10 ] || fail "too few expected rows"

test_case 'indexing totals the run: top equals expected/top.csv'
top_is "$tmp/all3" "top over 3 hosts differs from expected/top.csv"
[ "$(sql 'SELECT count(*) FROM stale_runs')" -eq 0 ] ||
    fail "a run is still stale after indexing"
[ "$(sql 'SELECT count(*) FROM run_totals WHERE kernels = 0')" -ge 10 ] ||
    fail "no op totals were stored for the run"

test_case 'a removed host leaves the totals'
mkdir "$SPARE"
mv "$RUN/host2.xplane.pb" "$SPARE/"
top_is "$tmp/two" "top after removing host2 differs from hosts 0 and 1"

test_case 'an added host joins them'
cp "$SPARE/host2.xplane.pb" "$RUN/"
top_is "$tmp/all3" "top after adding host2 back differs from expected"

test_case 'a changed host replaces its part'
cp "$RUN/host0.xplane.pb" "$SPARE/host0.xplane.pb"
cp "$RUN/host1.xplane.pb" "$RUN/host0.xplane.pb"
touch -d '2026-01-02 00:00' "$RUN/host0.xplane.pb"
sum_by_device '$1 != "host0"' "$G/expected/top-by-device.csv" >"$tmp/h12"
awk -F, '$1 == "host1"' "$G/expected/top-by-device.csv" >"$tmp/h1"
# host0 now holds host1's ops: hosts 1 and 2, with host1 counted twice.
{ head -n 1 "$G/expected/top-by-device.csv"; cat "$tmp/h1" "$tmp/h1"
    awk -F, '$1 == "host2"' "$G/expected/top-by-device.csv"; } >"$tmp/by-dev"
sum_by_device '1' "$tmp/by-dev" | ps_to_us >"$tmp/changed"
top_is "$tmp/changed" "top after host0 changed differs from hosts 1, 1 and 2"
cp "$SPARE/host0.xplane.pb" "$RUN/host0.xplane.pb"
top_is "$tmp/all3" "top after host0 came back differs from expected"

test_case 'part of a run reads the stored rows, not the run totals'
expect_code 0 jaxprof top -n 0 --format=csv --db="$IX" "$RUN/host0.xplane.pb" \
    "$RUN/host1.xplane.pb"
expect_stderr_empty
project_top >"$tmp/got"
expect_files_equal "$tmp/two" "$tmp/got" "top of hosts 0 and 1 differs"

test_case 'a run of one file has no totals: top adds its rows to a whole run'
ONE=$G/plugins/profile/2026_01_02_00_00_00
mkdir "$ONE"
cp "$SPARE/host0.xplane.pb" "$ONE/host0.xplane.pb"
{ head -n 1 "$G/expected/top-by-device.csv"
    tail -n +2 "$G/expected/top-by-device.csv"
    awk -F, '$1 == "host0"' "$G/expected/top-by-device.csv"; } >"$tmp/by-dev4"
sum_by_device '1' "$tmp/by-dev4" | ps_to_us >"$tmp/all3plus1"
top_is "$tmp/all3plus1" "top over a run of 3 files and one of 1 differs"
[ "$(sql "SELECT count(*) FROM run_totals WHERE run = '2026_01_02_00_00_00'")" \
    -eq 0 ] || fail "a run of one file got totals"
[ "$(sql "SELECT count(*) FROM run_totals WHERE run = '2026_01_01_00_00_00'")" \
    -ge 10 ] || fail "the run of three files lost its totals"
[ "$(sql 'SELECT count(*) FROM stale_runs')" -eq 0 ] ||
    fail "a run is still stale after indexing"
sum_by_device '$1 == "host0"' "$G/expected/top-by-device.csv" |
    ps_to_us >"$tmp/one"
expect_code 0 jaxprof top -n 0 --format=csv --db="$IX" "$ONE"
expect_stderr_empty
project_top >"$tmp/got"
expect_files_equal "$tmp/one" "$tmp/got" "top of the run of one file differs"

test_case 'an XPlane beside a trace of no ops has no totals either'
TWO=$G/plugins/profile/2026_01_03_00_00_00
mkdir "$TWO"
cp "$SPARE/host0.xplane.pb" "$TWO/host0.xplane.pb"
cp "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00/perfetto_trace.json.gz" \
    "$TWO/"
expect_code 0 jaxprof top -n 0 --format=csv --db="$IX" "$TWO"
expect_stderr_empty
project_top >"$tmp/got"
expect_files_equal "$tmp/one" "$tmp/got" "top of an XPlane and a trace differs"
[ "$(sql "SELECT count(*) FROM files WHERE run = '2026_01_03_00_00_00'")" \
    -eq 2 ] || fail "the trace is not a file of the run"
[ "$(sql "SELECT count(*) FROM run_totals WHERE run = '2026_01_03_00_00_00'")" \
    -eq 0 ] || fail "a run of one file of rows got totals"
rm -r "$TWO"

# Planting needs a writer (jaxprof sql only reads).
command -v python3 >/dev/null 2>&1 || skip "no python3 to plant totals"
plant() {
	python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for stmt in sys.argv[2:]:
    db.execute(stmt)
db.commit()' "$IX" "$@" || fail "cannot plant totals"
}

test_case 'totals of a run of one file (an older index) are not read'
plant "INSERT INTO run_totals SELECT '2026_01_02_00_00_00', device, kernels, \
    compile_work, name, module, category, count * 1000, total_ps, self_ps, \
    min_ps, max_ps, flops, bytes_accessed, framework_op, source, \
    source_function, details, hlo_op, precision FROM run_totals \
    WHERE run = '2026_01_01_00_00_00'"
top_is "$tmp/all3plus1" "top read the totals of a run of one file"
rm -r "$ONE"
top_is "$tmp/all3" "top after the run of one file went differs from expected"

test_case 'the totals are what top reads, per device too'
plant "UPDATE run_totals SET count = CASE device WHEN '/device:GPU:1' \
    THEN 7 ELSE 1000000 END"
expect_code 0 jaxprof top -n 1 --format=csv --db="$IX" "$G"
expect_stdout_match ',1000007,'
expect_code 0 jaxprof top -n 1 --format=csv --device=GPU:1 --db="$IX" "$G"
expect_stdout_match ',7,'

test_case 'a stale run (an interrupted index) is rebuilt on the next refresh'
plant "INSERT INTO stale_runs VALUES ('2026_01_01_00_00_00')"
top_is "$tmp/all3" "top over a stale run differs from expected"
[ "$(sql 'SELECT count(*) FROM stale_runs')" -eq 0 ] ||
    fail "the stale run was not rebuilt"

test_done
