#!/bin/sh
# The tables few reports read (host events: idle, compile; HLO
# instructions: sql; scopes: top --group=scope; transfers: transfers;
# steps: steps, idle, transfers, diff, check, baseline; executions:
# transfers) stay packed (compressed, in table packed_rows) after the other reports; the
# first command that reads one stores it as rows: the rows, and in the
# order, of an index built whole by `jaxprof index`.
. "$(dirname "$0")/lib.sh"

python_has sqlite3 ||
    skip "'$PYTHON' cannot import sqlite3 to look into the index unaided"

# query DB SQL: the rows of SQL, one per line, read without jaxprof
# (which would unpack first).
query() {
	"$PYTHON" -c 'import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
for row in db.execute(sys.argv[2]):
    print("|".join(str(v) for v in row))' "$1" "$2"
}

# same_table A B TABLE: both indexes hold the same rows, rowids included.
same_table() {
	query "$1" "SELECT rowid, * FROM $3 ORDER BY rowid" >"$tmp/a.rows"
	query "$2" "SELECT rowid, * FROM $3 ORDER BY rowid" >"$tmp/b.rows"
	[ -s "$tmp/a.rows" ] || fail "$3 of $1 is empty"
	expect_files_equal "$tmp/a.rows" "$tmp/b.rows" "$3 differs"
}

# packed DB TABLE: how many rows of TABLE wait packed.
packed() {
	query "$1" "SELECT coalesce(sum(rows), 0) FROM packed_rows WHERE tbl = '$2'"
}

check_profile() {
	P=$1
	LAZY=$tmp/lazy-$2.sqlite
	WHOLE=$tmp/whole-$2.sqlite

	test_case "$2: top leaves the six tables packed"
	expect_code 0 jaxprof top -n 3 --db="$LAZY" "$P"
	expect_stderr_empty
	for t in $tables; do
		[ "$(packed "$LAZY" "$t")" -gt 0 ] || fail "no row of $t packed"
		[ "$(query "$LAZY" "SELECT count(*) FROM $t")" = 0 ] ||
		    fail "$t stored as rows by top"
	done

	test_case "$2: index stores them whole, as rows"
	expect_code 0 jaxprof index --db="$WHOLE" "$P"
	[ "$(query "$WHOLE" 'SELECT count(*) FROM packed_rows')" = 0 ] ||
	    fail "jaxprof index left rows packed"
	for t in $tables; do
		[ "$(packed "$LAZY" "$t")" = \
		    "$(query "$WHOLE" "SELECT count(*) FROM $t")" ] ||
		    fail "top packed $(packed "$LAZY" "$t") rows of $t, index stored $(query "$WHOLE" "SELECT count(*) FROM $t")"
	done

	test_case "$2: the reports that read them answer as from the whole index"
	for cmd in "steps" "idle" "compile --phases" \
	    "top --group=scope --tree" "transfers"; do
		# shellcheck disable=SC2086
		expect_code 0 jaxprof $cmd --db="$WHOLE" "$P"
		save whole-out
		# shellcheck disable=SC2086
		expect_code 0 jaxprof $cmd --db="$LAZY" "$P"
		expect_stdout_file "$tmp/whole-out"
	done
	for t in host_events scopes transfers steps executions; do
		[ "$(packed "$LAZY" "$t")" = 0 ] ||
		    fail "$t still packed after the reports that read it"
		same_table "$WHOLE" "$LAZY" "$t"
	done
	[ "$(packed "$LAZY" hlo_instructions)" -gt 0 ] ||
	    fail "reports unpacked the HLO instructions none reads"

	test_case "$2: diff and baseline, which read steps, unpack them first"
	for cmd in "diff --summary" "baseline save"; do
		SUM=$tmp/summary-$2.sqlite
		rm -f "$SUM"
		expect_code 0 jaxprof top --db="$SUM" "$P"
		[ "$(packed "$SUM" steps)" -gt 0 ] || fail "top left no steps packed"
		paths=$P
		[ "$cmd" = "diff --summary" ] && paths="$P $P"
		# shellcheck disable=SC2086
		expect_code 0 jaxprof $cmd --db="$WHOLE" $paths
		save whole-out
		# shellcheck disable=SC2086
		expect_code 0 jaxprof $cmd --db="$SUM" $paths
		expect_stdout_file "$tmp/whole-out"
		[ "$(packed "$SUM" steps)" = 0 ] || fail "$cmd left steps packed"
		same_table "$WHOLE" "$SUM" steps
	done

	test_case "$2: sql unpacks the rest: the same rows, rowids and all"
	expect_code 0 jaxprof sql --db="$LAZY" --format=csv \
	    'SELECT count(*) AS n FROM packed_rows' "$P"
	printf 'n\n0\n' >"$tmp/want"
	expect_stdout_file "$tmp/want"
	for t in $tables; do
		same_table "$WHOLE" "$LAZY" "$t"
	done
}

tables="host_events hlo_instructions scopes transfers steps executions"

check_profile "$TESTDATA/jax-mlp" jax-mlp
if [ -d "$CORPUS/h200/cmdbuf-warm" ]; then
	check_profile "$CORPUS/h200/cmdbuf-warm" cmdbuf-warm
else
	note_skip "cmdbuf-warm: no corpus at '$CORPUS'"
fi

test_case 'a file read again leaves no packed rows of its old self'
cp -r "$TESTDATA/jax-mlp" "$tmp/copy"
IX=$tmp/again.sqlite
expect_code 0 jaxprof top --db="$IX" "$tmp/copy"
query "$IX" 'SELECT tbl, sum(rows) FROM packed_rows GROUP BY tbl' >"$tmp/before"
f=$(find "$tmp/copy" -name '*.xplane.pb' | head -n 1)
touch -d '2001-01-01' "$f"
expect_code 0 jaxprof top --db="$IX" "$tmp/copy"
query "$IX" 'SELECT tbl, sum(rows) FROM packed_rows GROUP BY tbl' >"$tmp/after"
expect_files_equal "$tmp/before" "$tmp/after" "packed rows after a re-read"
[ "$(query "$IX" 'SELECT count(*) FROM packed_rows WHERE file_id NOT IN (SELECT id FROM files)')" = 0 ] ||
    fail "packed rows of a forgotten file are left"

test_case 'damaged packed rows: exit 2, and the message says what to do'
"$PYTHON" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE packed_rows SET data = x\x27280000\x27 WHERE tbl = \x27host_events\x27")
db.commit()' "$IX"
expect_code 2 jaxprof idle --db="$IX" "$tmp/copy"
expect_stdout_empty
expect_stderr_match "^jaxprof: idle: index '$IX': the packed rows of host_events are damaged \(a damaged index: delete it, and jaxprof builds it again from the profiles\)$"

test_done
