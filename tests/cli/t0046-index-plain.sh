#!/bin/sh
# The index is plain SQLite: after one cold top, Python's sqlite3 module
# (no jaxprof) reads every table and view with the rows `jaxprof sql`
# reads; the event-level tables (host_events, executions, transfers,
# hlo_instructions) are absent until a command that reads them (idle,
# compile, transfers, sql naming them, index --events) makes them, then
# complete: as in an index built with them from the start.  So are the
# memory tables (memory_allocators, memory_samples, memory_allocations,
# program_memory, memory_buffers), made by memory, summary, diff, check,
# baseline, sql naming them or index --memory.
. "$(dirname "$0")/lib.sh"

python_has sqlite3 ||
    skip "'$PYTHON' cannot import sqlite3 to read the index unaided"

gen_xplane --hosts=2 --devices=2 --steps=4 --ops=6 --memory=ok "$tmp/gen" ||
    fail "gen-xplane failed"
T=$TESTDATA/jax-mlp
G=$tmp/gen

# pyread DB SQL: the rows of SQL read by Python, one per line.
pyread() {
	"$PYTHON" -c 'import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
for row in db.execute(sys.argv[2]):
    print("|".join(str(v) for v in row))' "$1" "$2"
}

# rows_sql DB NAME [SKIP]: a query giving each row of table or view NAME
# as one hex string of its quoted values (but columns named in the SQL
# list SKIP), in a fixed order: the same text from any client, whatever
# its number formatting and CSV quoting.
rows_sql() {
	cols=$(pyread "$1" "SELECT group_concat('quote(\"' || name || '\")', \
	    '||''|''||') FROM pragma_table_info('$2') \
	    WHERE name NOT IN (${3:-''})")
	[ -n "$cols" ] || fail "no columns in $2"
	echo "SELECT hex($cols) AS r FROM \"$2\" ORDER BY 1"
}

# tables DB: the tables and views of DB, as Python sees them.
tables() {
	pyread "$1" "SELECT name FROM sqlite_master WHERE type IN \
	    ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name"
}

# same_as_sql DB PATH: every table and view of DB reads the same in
# Python as in `jaxprof sql` on PATH.
same_as_sql() {
	tables "$1" >"$tmp/tables"
	[ -s "$tmp/tables" ] || fail "Python sees no tables in $1"
	while read -r t; do
		q=$(rows_sql "$1" "$t")
		pyread "$1" "$q" >"$tmp/py.rows"
		expect_code 0 jaxprof sql --format=csv --db="$1" "$q" "$2"
		expect_stderr_empty
		tail -n +2 "$out" >"$tmp/sql.rows"
		expect_files_equal "$tmp/py.rows" "$tmp/sql.rows" \
		    "table $t: Python and jaxprof sql differ"
	done <"$tmp/tables"
}

# count DB TABLE: its rows, read by Python.
count() {
	pyread "$1" "SELECT count(*) FROM $2"
}

for p in "$T" "$G"; do
	name=$(basename "$p")
	DB=$tmp/$name.sqlite

	test_case "$name: after one cold top, Python reads every table as jaxprof sql does"
	expect_code 0 jaxprof top --db="$DB" "$p"
	for t in ops steps transfer_totals modules planes files; do
		[ "$(count "$DB" $t)" -gt 0 ] || fail "$t is empty after top"
	done
	# Python's list of tables, checked before jaxprof sql runs again.
	tables "$DB" >"$tmp/after-top"
	same_as_sql "$DB" "$p"

	test_case "$name: the event-level tables are absent after top, not empty"
	if grep -qx 'host_events\|hlo_instructions\|executions\|v_executions\|transfers\|v_transfers' \
	    "$tmp/after-top"; then
		fail "top made an event-level table"
	fi
	[ "$(pyread "$DB" 'SELECT count(*) FROM files WHERE event_rows')" -eq 0 ] ||
	    fail "files stored without event rows say they have them"

	test_case "$name: the memory tables are absent after top, not empty"
	if grep -qx 'memory_allocators\|memory_samples\|memory_allocations\|program_memory\|memory_buffers' "$tmp/after-top"; then
		fail "top made a memory table"
	fi
	[ "$(pyread "$DB" 'SELECT count(*) FROM files WHERE memory_rows')" -eq 0 ] ||
	    fail "files stored without memory rows say they have them"

	test_case "$name: idle makes them, with the rows of an index built with them"
	expect_code 0 jaxprof idle --db="$DB" "$p"
	WHOLE=$tmp/$name-whole.sqlite
	expect_code 0 jaxprof index --events --db="$WHOLE" "$p"
	# idle read the files again (new file and plane ids): the rest of
	# each row is as in the other index.
	ids="'file_id', 'plane'"
	for t in host_events hlo_instructions steps ops executions transfers; do
		pyread "$DB" "$(rows_sql "$DB" $t "$ids")" >"$tmp/a.rows"
		pyread "$WHOLE" "$(rows_sql "$WHOLE" $t "$ids")" >"$tmp/b.rows"
		expect_files_equal "$tmp/a.rows" "$tmp/b.rows" \
		    "$t after idle differs from index --events"
	done
	[ "$(count "$DB" host_events)" -gt 0 ] || fail "no host events after idle"
	[ "$(count "$DB" executions)" -gt 0 ] || fail "no executions after idle"
	[ "$(count "$DB" transfers)" -gt 0 ] || fail "no transfers after idle"
	same_as_sql "$DB" "$p"

	test_case "$name: memory makes the memory tables, with the rows of an index built with them"
	tables "$DB" | grep -qx memory_allocators &&
	    fail "idle made the memory tables"
	expect_code 0 jaxprof memory --db="$DB" "$p"
	MWHOLE=$tmp/$name-memory.sqlite
	expect_code 0 jaxprof index --memory --db="$MWHOLE" "$p"
	for t in memory_allocators memory_samples memory_allocations \
	    program_memory memory_buffers; do
		pyread "$DB" "$(rows_sql "$DB" $t "'id', 'file_id', 'plane', 'allocator'")" >"$tmp/a.rows"
		pyread "$MWHOLE" "$(rows_sql "$MWHOLE" $t "'id', 'file_id', 'plane', 'allocator'")" >"$tmp/b.rows"
		expect_files_equal "$tmp/a.rows" "$tmp/b.rows" \
		    "$t after memory differs from index --memory"
	done
	[ "$(pyread "$DB" 'SELECT count(*) FROM files WHERE NOT memory_rows AND planes IS NOT NULL')" -eq 0 ] ||
	    fail "a file read after memory has no memory rows"
	same_as_sql "$DB" "$p"
done

test_case 'after memory: the allocators of gen, the programs of jax-mlp'
# gen-xplane --memory=ok writes allocator events, and jax-mlp's HLO has
# buffer assignments: complete, so not empty.
[ "$(count "$tmp/gen.sqlite" memory_allocators)" -gt 0 ] ||
    fail "no allocators after memory"
[ "$(count "$tmp/gen.sqlite" memory_samples)" -gt 0 ] ||
    fail "no timeline after memory"
[ "$(count "$tmp/jax-mlp.sqlite" program_memory)" -gt 0 ] ||
    fail "no program peaks after memory"

test_case 'sql naming host_events makes it; other queries do not'
DB=$tmp/sql.sqlite
expect_code 0 jaxprof sql --format=csv 'SELECT count(*) AS n FROM ops' --db="$DB" "$T"
tables "$DB" | grep -qx host_events && fail "a query of ops made host_events"
expect_code 0 jaxprof sql --format=csv 'SELECT count(*) AS n FROM HOST_EVENTS' --db="$DB" "$T"
expect_stdout_match "^$(count "$tmp/jax-mlp-whole.sqlite" host_events)\$"
expect_code 0 jaxprof sql --format=csv 'SELECT count(*) AS n FROM files WHERE memory_rows' --db="$DB" "$T"
tables "$DB" | grep -qx memory_allocators &&
    fail "a query of files.memory_rows made the memory tables"
expect_code 0 jaxprof sql --format=csv 'SELECT count(*) AS n FROM Program_Memory' --db="$DB" "$T"
expect_stdout_match "^$(count "$tmp/jax-mlp-memory.sqlite" program_memory)\$"

test_case 'the views: ops with their run, host and device, times in microseconds'
expect_code 0 jaxprof sql --format=csv "SELECT count(*) AS n, \
    count(DISTINCT device) AS devices, count(DISTINCT host) AS hosts, \
    abs(sum(total_us) * 1e6 - (SELECT sum(total_ps) FROM ops)) < 1 AS same \
    FROM v_ops v JOIN planes p ON p.name = v.device AND p.id = v.plane" \
    --db="$tmp/gen.sqlite" "$G"
expect_stdout_match "^$(count "$tmp/gen.sqlite" ops),2,2,1\$"

test_done
