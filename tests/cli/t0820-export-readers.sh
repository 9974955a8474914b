#!/bin/sh
# jaxprof export's Parquet read by three engines of their own (pyarrow,
# DuckDB, Spark) and its NDJSON by Python's json: every table, row for
# row what `jaxprof sql` reads from the same index, the columns and types
# jaxprof-export(1) gives, nulls, int64 at both ends, UTF-8 names and
# partition values, a table with no rows.  A reader that is not installed
# is skipped, saying so.
. "$(dirname "$0")/lib.sh"

python_has sqlite3 json ||
    skip "'$PYTHON' cannot import sqlite3 and json"

gen_xplane --hosts=2 --devices=2 --steps=4 --ops=6 --memory=ok "$tmp/gen" ||
    fail "gen-xplane failed"
# A run and a host whose names a path or a reader could misread.
odd="$tmp/odd/plugins/profile/2026 a=b%c#d"
mkdir -p "$odd"
cp "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb" \
    "$odd/hôst:1.xplane.pb"
set -- "$TESTDATA/jax-mlp" "$TESTDATA/multihost-straggler" "$tmp/gen" "$tmp/odd"
if [ -d "$CORPUS/h200" ]; then
	set -- "$@" "$CORPUS/h200"
else
	note_skip "the H200 corpus (no '$CORPUS/h200')"
fi
db=$tmp/export.sqlite

test_case 'the index, then values at the edges put into it'
expect_code 0 jaxprof index --events --memory --db="$db" "$@"
"$PYTHON" - "$db" <<'PY' || fail "could not edit the index"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE ops SET name = 'ünï ✓ 名前', "
           "count = -9223372036854775808, total_ps = 9223372036854775807, "
           "flops = NULL, framework_op = '', "
           "source = CAST(X'41C328' AS TEXT) "
           "WHERE rowid = (SELECT min(rowid) FROM ops)")
db.execute("UPDATE planes SET peak_gflops = -1.5e300, peak_gbps = NULL "
           "WHERE id = (SELECT min(id) FROM planes)")
db.execute("UPDATE steps SET step = -1 "
           "WHERE rowid = (SELECT min(rowid) FROM steps)")
db.execute("DELETE FROM gaps")
db.commit()
PY

test_case 'export to Parquet and NDJSON from that index'
expect_code 0 jaxprof export --db="$db" -o "$tmp/pq" "$@"
expect_stderr_empty
expect_code 0 jaxprof export --db="$db" --to=ndjson -o "$tmp/nd" "$@"
expect_stderr_empty
# The export read the edited rows: the files had not changed.
expect_code 0 jaxprof sql --db="$db" --format=csv "SELECT count(*) AS n \
    FROM ops WHERE count = -9223372036854775808 AND name = 'ünï ✓ 名前'" "$@"
[ "$(sed -n 2p "$out")" = 1 ] || fail "the edited op is not in the index"
[ -d "$tmp/pq/ops/run=2026 a%3Db%25c%23d/host=hôst%3A1" ] ||
    fail "no partition for the odd run and host: $(ls "$tmp/pq/ops")"

for reader in pyarrow duckdb spark ndjson; do
	test_case "$reader reads every table as jaxprof sql does"
	dir=$tmp/pq
	[ "$reader" != ndjson ] || dir=$tmp/nd
	module=$reader
	[ "$reader" != spark ] || module=pyspark
	rc=0
	# Java lists a path's non-ASCII names only in a UTF-8 locale.
	LC_ALL=C.UTF-8 "$PYTHON" "$CLI_DIR/export_readers.py" "$reader" \
	    "$SRCDIR/man/jaxprof-export.1" "$dir" "$JAXPROF" "$db" "$@" \
	    >"$out" 2>"$err" || rc=$?
	case $rc in
	0)	grep "^$reader: files [1-9].* ops [1-9].* step_collectives [1-9].* gaps 0\$" "$out" \
		    >/dev/null || fail "not every table read: $(cat "$out")" ;;
	77)	note_skip "$reader: $(install_hint "$module")" ;;
	*)	fail "$reader disagrees (exit $rc): $(cat "$out")" ;;
	esac
done

test_done
