#!/bin/sh
# sql: queries on the index, typed by their first row, in every format; and
# the facts testdata/README.md states about steps and compiles.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
MIXED="SELECT 1 AS i, 1.5 AS r, 'a\"b,c' AS s, NULL AS z, 'line
two' AS nl, -7 AS neg UNION ALL SELECT 'x', NULL, 3, 4.25, 'caf'||char(233), 0"

test_case 'count(*) of ops, csv'
expect_code 0 jaxprof sql --format=csv 'SELECT count(*) AS n FROM ops' "$T"
expect_stderr_empty
printf 'n\n37\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'count(*) of ops, table: a number is right-aligned'
expect_code 0 jaxprof sql 'SELECT count(*) AS n FROM ops' "$T"
expect_stderr_empty
printf ' n\n37\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'the op rows add up to the 189 op events of both runs'
expect_code 0 jaxprof sql --format=csv 'SELECT sum(count) AS n, count(DISTINCT module) AS modules FROM ops' "$T"
expect_stderr_empty
printf 'n,modules\n189,3\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'mixed types, csv: quoting as RFC 4180, NULL empty'
expect_code 0 jaxprof sql --format=csv "$MIXED" "$T"
compare_golden mixed-csv
expect_stderr_empty

test_case 'mixed types, json'
expect_code 0 jaxprof sql --format=json "$MIXED" "$T"
compare_golden mixed-json
expect_stderr_empty
if python_has json; then
	"$PYTHON" -c '
import json, sys
rows = json.load(sys.stdin)
assert rows == [
    {"i": 1, "r": 1.5, "s": "a\"b,c", "z": None, "nl": "line\ntwo", "neg": -7},
    {"i": "x", "r": None, "s": 3, "z": 4.25, "nl": "caf\u00e9", "neg": 0},
], rows
' <"$out" || fail "the JSON does not hold the values queried"
else
	note_skip "the JSON parse check: '$PYTHON' does not run"
fi

test_case 'mixed types, table and markdown'
expect_code 0 jaxprof sql "$MIXED" "$T"
compare_golden mixed-table
expect_stderr_empty
expect_code 0 jaxprof sql --format=markdown "$MIXED" "$T"
compare_golden mixed-markdown
expect_stderr_empty

test_case 'no rows: the header only; json []'
expect_code 0 jaxprof sql --format=csv 'SELECT name AS a, 1 AS b FROM ops WHERE 0' "$T"
expect_stderr_empty
printf 'a,b\n' >"$tmp/want"
expect_stdout_file "$tmp/want"
expect_code 0 jaxprof sql --format=json 'SELECT name AS a FROM ops WHERE 0' "$T"
expect_stderr_empty
printf '[]\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'invalid SQL'
expect_code 2 jaxprof sql 'SELEC 1' "$T"
expect_stdout_empty
expect_stderr_is 'jaxprof: sql: invalid query: near "SELEC": syntax error'

test_case 'an unknown table'
expect_code 2 jaxprof sql 'SELECT * FROM nosuch' "$T"
expect_stdout_empty
expect_stderr_is 'jaxprof: sql: invalid query: no such table: nosuch'

test_case 'a query that fails while it runs'
expect_code 2 jaxprof sql --format=csv 'SELECT abs(-9223372036854775807 - 1) AS x' "$T"
expect_stderr_is 'jaxprof: sql: query failed: integer overflow'

test_case 'two statements are refused'
expect_code 2 jaxprof sql 'SELECT 1; SELECT 2' "$T"
expect_stdout_empty
expect_stderr_is 'jaxprof: sql: invalid query: give exactly one SQL statement'

test_case 'one statement with a trailing semicolon is fine'
expect_code 0 jaxprof sql --format=csv 'SELECT 1 AS one;  ' "$T"
expect_stderr_empty
printf 'one\n1\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'an empty query is refused'
expect_code 2 jaxprof sql '' "$T"
expect_stdout_empty
expect_stderr_is 'jaxprof: sql: invalid query: give exactly one SQL statement'

test_case 'the query cannot change the index'
expect_code 2 jaxprof sql 'DELETE FROM files' "$T"
expect_stderr_is 'jaxprof: sql: query failed: attempt to write a readonly database'
expect_code 2 jaxprof sql 'CREATE TABLE mine(x)' "$T"
expect_stderr_is 'jaxprof: sql: query failed: attempt to write a readonly database'
expect_code 0 jaxprof sql --format=csv "SELECT count(*) AS n FROM files" "$T"
expect_stderr_empty
printf 'n\n6\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'host steps of run 1: 6 named train, step_num 0..5'
expect_code 0 jaxprof sql --format=csv "SELECT s.name, s.step, s.source FROM steps s JOIN files f ON f.id = s.file_id WHERE f.run = '2026_01_01_00_00_00' ORDER BY s.step" "$T"
expect_stderr_empty
printf 'name,step,source\n' >"$tmp/want"
for i in 0 1 2 3 4 5; do echo "train,$i,host"; done >>"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'host steps of run 2: 3 named infer'
expect_code 0 jaxprof sql --format=csv "SELECT s.name, s.step FROM steps s JOIN files f ON f.id = s.file_id WHERE f.run = '2026_01_01_00_00_01' ORDER BY s.step" "$T"
expect_stderr_empty
printf 'name,step\ninfer,0\ninfer,1\ninfer,2\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'step 0 is the slow one in each run'
expect_code 0 jaxprof sql --format=csv "SELECT f.run, s.step FROM steps s JOIN files f ON f.id = s.file_id WHERE s.dur_ps = (SELECT max(dur_ps) FROM steps t WHERE t.file_id = s.file_id) ORDER BY f.run" "$T"
expect_stderr_empty
printf 'run,step\n2026_01_01_00_00_00,0\n2026_01_01_00_00_01,0\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'compiles: 3 in run 1 (train_step, normalize twice), 1 in run 2'
expect_code 0 jaxprof sql --format=csv "SELECT f.run, c.name, c.function FROM compiles c JOIN files f ON f.id = c.file_id ORDER BY f.run, c.start_ps" "$T"
expect_stderr_empty
cat >"$tmp/want" <<'EOF'
run,name,function
2026_01_01_00_00_00,backend_compile_and_load,normalize
2026_01_01_00_00_00,backend_compile_and_load,train_step
2026_01_01_00_00_00,backend_compile_and_load,normalize
2026_01_01_00_00_01,backend_compile_and_load,predict
EOF
expect_stdout_file "$tmp/want"

test_case 'the selected table holds the files under PATH only'
expect_code 0 jaxprof sql --format=csv 'SELECT count(*) AS selected, (SELECT count(*) FROM files) AS indexed FROM selected' \
    "$T/plugins/profile/2026_01_01_00_00_01"
expect_stderr_empty
printf 'selected,indexed\n3,6\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'sql --latest selects the newest run'
expect_code 0 jaxprof sql --latest --format=csv 'SELECT DISTINCT f.run FROM files f JOIN selected s ON s.file_id = f.id' "$T"
expect_stderr_empty
printf 'run\n2026_01_01_00_00_01\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case '.tables lists the tables, as the sqlite3 shell does'
expect_code 0 jaxprof sql --format=csv .tables "$T"
expect_stderr_empty
"$PYTHON" -c '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
names = [r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type IN ('"'"'table'"'"', '"'"'view'"'"') AND name NOT LIKE '"'"'sqlite_%'"'"'")]
print("\n".join(["name"] + sorted(names + ["selected"])))
' "$JAXPROF_DB" >"$tmp/want" || fail "cannot list the tables with Python"
expect_stdout_file "$tmp/want"

test_case ".schema files: the statement that made the table"
expect_code 0 jaxprof sql --format=csv '.schema files' "$T"
expect_stderr_empty
expect_stdout_match '^"?CREATE TABLE files\(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, '
[ "$(grep -c 'CREATE TABLE' "$out")" -eq 1 ] || fail "not the files table alone"

test_case 'another dot command: exit 2, saying what there is'
expect_code 2 jaxprof sql .dump "$T"
expect_stderr_is "jaxprof: sql: unknown dot command '.dump' (jaxprof sql has .tables and .schema [table]; other queries are SQL)"

test_case 'the table shows long text whole'
expect_code 0 jaxprof sql "SELECT printf('%.100c', 'x') || 'end' AS long" "$T"
expect_stderr_empty
expect_stdout_match '^x{100}end$'

test_done
