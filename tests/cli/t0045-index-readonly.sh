#!/bin/sh
# An index on read-only storage answers when it is up to date; when it
# needs refreshing the message says how to get a writable one (--db,
# $JAXPROF_DB, $XDG_CACHE_HOME), exit 2.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
mkdir "$tmp/ro"
IX=$tmp/ro/idx.sqlite

test_case 'index the testdata into a folder that becomes read-only'
expect_code 0 jaxprof index --db="$IX" "$T"
expect_code 0 jaxprof steps --summary --run='*' --db="$IX" "$T"
save writable

# An index only top has built (no event-level tables), one built with
# them, and idle's answer.
expect_code 0 jaxprof top --db="$tmp/ro/top.sqlite" "$T"
expect_code 0 jaxprof index --events --db="$tmp/ro/events.sqlite" "$T"
expect_code 0 jaxprof idle --db="$tmp/whole.sqlite" "$T"
save idle-whole

# A new index (built with a rollback journal) whose last write was cut
# off: pages of it reached the file, and its journal is left beside it.
PART=$tmp/ro/part.sqlite
if python_has sqlite3; then
	expect_code 0 jaxprof index --db="$PART" "$T"
	"$PYTHON" -c 'import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA cache_size = 1")
db.execute("BEGIN")
db.execute("DELETE FROM ops")
db.execute("INSERT INTO meta VALUES (\x27pad\x27, zeroblob(1000000))")
os._exit(0)' "$PART"
	[ -s "$PART-journal" ] || fail "the cut-off write left no journal"
	cp "$PART" "$PART-journal" "$tmp/"
fi

# run_ro CMD...: CMD with $RO a read-only view of $tmp/ro.
if [ "$(id -u)" -ne 0 ]; then
	chmod a-w "$IX" "$tmp/ro"
	trap 'chmod u+w "$tmp/ro" 2>/dev/null; rm -rf "$tmp"' EXIT
	RO=$tmp/ro
	run_ro() { "$@"; }
elif unshare -m true 2>/dev/null; then
	# root writes anywhere: a read-only bind mount, as a read-only disk.
	RO=$tmp/ro-view
	mkdir "$RO"
	run_ro() {
		unshare -m sh -c 'mount --bind "$1" "$2" &&
		    mount -o remount,bind,ro "$2" && shift 2 && exec "$@"' \
		    sh "$tmp/ro" "$RO" "$@"
	}
else
	skip "as root, and unshare -m cannot make a read-only mount here"
fi

test_case 'up to date: it answers from the read-only index, as from a writable one'
expect_code 0 run_ro "$JAXPROF" steps --summary --run='*' --db="$RO/idx.sqlite" "$T"
expect_stderr_empty
expect_stdout_file "$tmp/writable"

test_case 'up to date, named by $JAXPROF_DB: the same'
expect_code 0 run_ro env JAXPROF_DB="$RO/idx.sqlite" "$JAXPROF" top -n 3 "$T"
expect_stderr_empty

test_case 'needs refreshing: exit 2, and the message names --db, $JAXPROF_DB, $XDG_CACHE_HOME'
cp -r "$T" "$tmp/copy"
expect_code 2 run_ro "$JAXPROF" steps --db="$RO/idx.sqlite" "$tmp/copy"
expect_stdout_empty
expect_stderr_line "^jaxprof: steps: index '$RO/idx\.sqlite': the index is read-only and needs refreshing for '$tmp/copy/.*' \(new or changed\); give a writable index with --db=FILE or \\\$JAXPROF_DB, or set \\\$XDG_CACHE_HOME to a writable folder$"

test_case 'built by index --events: idle answers from it read-only, untouched'
cp "$tmp/ro/events.sqlite" "$tmp/events.orig"
expect_code 0 run_ro "$JAXPROF" idle --db="$RO/events.sqlite" "$T"
expect_stderr_empty
expect_stdout_file "$tmp/idle-whole"
expect_files_equal "$tmp/events.orig" "$tmp/ro/events.sqlite" "the read-only index changed"

test_case 'built by top alone: idle says the event tables are missing, exit 2'
expect_code 2 run_ro "$JAXPROF" idle --db="$RO/top.sqlite" "$T"
expect_stdout_empty
expect_stderr_line "^jaxprof: idle: index '$RO/top\.sqlite' is read-only and has no event-level tables \(made by the first command that reads them, or jaxprof index --events\); give a writable index with --db=FILE or \\\$JAXPROF_DB, or set \\\$XDG_CACHE_HOME to a writable folder$"

test_case 'left part-written, its journal beside it: exit 2, and the message says so'
if [ -e "$PART" ]; then
	expect_code 2 run_ro "$JAXPROF" steps --summary --db="$RO/part.sqlite" "$T"
	expect_stdout_empty
	expect_stderr_line "^jaxprof: steps: index '$RO/part\.sqlite' is read-only and was left part-written \(its -journal is beside it\); give a writable index with --db=FILE or \\\$JAXPROF_DB, or set \\\$XDG_CACHE_HOME to a writable folder$"
else
	note_skip "the part-written index: '$PYTHON' cannot import sqlite3"
fi

test_case 'left part-written but writable: the journal is played back, the answer is whole'
if [ -e "$tmp/part.sqlite" ]; then
	expect_code 0 jaxprof steps --summary --run='*' --db="$tmp/part.sqlite" "$T"
	expect_stderr_empty
	expect_stdout_file "$tmp/writable"
	[ ! -e "$tmp/part.sqlite-journal" ] || fail "the journal is still there"
else
	note_skip "the part-written index: '$PYTHON' cannot import sqlite3"
fi

test_done
