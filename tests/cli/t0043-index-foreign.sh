#!/bin/sh
# What --db accepts (issue 37.1, 37.6; 36.8): a jaxprof index, by the
# application id in its header and the meta row only jaxprof writes.
# Another program's SQLite file, even with a `meta` table, is refused and
# left byte-identical; what is not a regular file is refused before it is
# opened.  The default index is a cache: a damaged one is set aside and
# built again.  jaxprof(1), THE INDEX, is the specification.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
cd "$tmp"
python_has sqlite3 || skip "no sqlite3 module in $PYTHON"

sql() {		# sql FILE STATEMENTS: run them with Python's sqlite3
	"$PYTHON" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(sys.argv[2])
db.commit()
db.close()' "$1" "$2"
}

# Left as it is: the same bytes, nothing written beside it.
untouched() {	# untouched FILE COPY
	cmp -s "$1" "$2" || fail "'$1' was changed"
	for side in -journal -wal -shm; do
		[ ! -e "$1$side" ] || fail "'$1$side' was written"
	done
}

# Chromium's History database: meta(key, value) and urls.
sql History "CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY,
    value LONGVARCHAR);
INSERT INTO meta VALUES ('mmap_status', '-1'), ('version', '63'),
    ('last_compatible_version', '16');
CREATE TABLE urls(id INTEGER PRIMARY KEY AUTOINCREMENT,
    url LONGVARCHAR, title LONGVARCHAR, visit_count INTEGER DEFAULT 0);
INSERT INTO urls(url, title) VALUES ('https://example.com/', 'Example');"
# Another tool's, whose meta even has a schema_version, as jaxprof's has.
sql other.db "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema_version', '12');
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT);
INSERT INTO files VALUES (1, '/data/a');"
cp History History.orig
cp other.db other.db.orig

for db in History other.db; do
	test_case "--db $db of another program: refused, left byte-identical"
	expect_code 2 jaxprof top --db "$db" "$T"
	expect_stdout_empty
	expect_stderr_line "^jaxprof: top: index '$db': an SQLite database with application id 0x00000000, not jaxprof's 0x4a415850; an index of a jaxprof before schema version 12 has none \(not a jaxprof index\); left as it is$"
	untouched "$db" "$db.orig"
	# Every command that opens the index.
	expect_code 2 jaxprof index --db "$db" "$T"
	expect_code 2 jaxprof sql --db "$db" "$T" 'SELECT 1'
	untouched "$db" "$db.orig"
done

test_case 'JAXPROF_DB naming another program'"'"'s database: refused too'
JAXPROF_DB=History expect_code 2 jaxprof list "$T"
expect_stderr_match "index 'History': .*\(not a jaxprof index\); left as it is$"
untouched History History.orig

test_case '--db of random bytes: refused, left as it is'
head -c 65536 /dev/urandom >random.db
cp random.db random.db.orig
expect_code 2 jaxprof top --db random.db "$T"
expect_stderr_line "^jaxprof: top: index 'random\.db': not an SQLite database \(not a jaxprof index\); left as it is$"
untouched random.db random.db.orig

test_case '--db /dev/null: not a regular file, nothing written beside it'
had_journal=0
[ ! -e /dev/null-journal ] || had_journal=1
expect_code 2 jaxprof top --db /dev/null "$T"
expect_stderr_line "^jaxprof: top: index '/dev/null': not a regular file$"
[ "$had_journal" = 1 ] || [ ! -e /dev/null-journal ] ||
    fail "/dev/null-journal was written"

test_case '--db a FIFO: refused at once, not opened'
mkfifo fifo
expect_code 2 timeout 20 "$JAXPROF" top --db fifo "$T"
expect_stderr_line "^jaxprof: top: index 'fifo': not a regular file$"
[ ! -e fifo-journal ] || fail "fifo-journal was written"

test_case '--db a folder: not a regular file'
mkdir dir.db
expect_code 2 jaxprof top --db dir.db "$T"
expect_stderr_line "^jaxprof: top: index 'dir\.db': not a regular file$"

test_case 'an SQLite database without a table becomes the index'
sql empty.db "PRAGMA user_version = 7"
[ -s empty.db ] || fail "python made no file"
expect_code 0 jaxprof top --format=csv --db empty.db "$T"
expect_stderr_empty

test_case 'a jaxprof index of another schema version is rebuilt in place'
expect_code 0 jaxprof top --format=csv --db ours.db "$T"
save want
sql ours.db "UPDATE meta SET value = '999' WHERE key = 'schema_version';
CREATE TABLE old_stuff(x);"
expect_code 0 jaxprof top --format=csv --db ours.db "$T"
expect_stderr_empty
expect_files_equal "$tmp/want" "$out"
"$PYTHON" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
v = db.execute("SELECT value FROM meta WHERE key = \"schema_version\"").fetchone()[0]
old = db.execute("SELECT count(*) FROM sqlite_master WHERE name = \"old_stuff\"").fetchone()[0]
sys.exit(0 if v != "999" and old == 0 else 1)' ours.db ||
    fail "the index of another version was not rebuilt"

# The default index, a cache (36.8): set aside and built again.
unset JAXPROF_DB
test_case 'the default index, random bytes over it: set aside, rebuilt'
expect_code 0 jaxprof top --format=csv "$T"
expect_stderr_empty
save first
ix=$(ls "$XDG_CACHE_HOME"/jaxprof/*.sqlite)
[ -f "$ix" ] || fail "no default index in $XDG_CACHE_HOME/jaxprof"
head -c 65536 /dev/urandom >"$ix"
cp "$ix" bad.orig
expect_code 0 jaxprof top --format=csv "$T"
expect_stderr_line "^jaxprof: top: index '$ix': not an SQLite database \(not a jaxprof index\); set aside as '$ix\.damaged', building the index again$"
expect_files_equal "$tmp/first" "$out"
cmp -s bad.orig "$ix.damaged" || fail "the damaged index was not kept beside"
expect_code 0 jaxprof top --format=csv "$T"
expect_stderr_empty

test_case 'the default index, every page but the first overwritten: set aside'
size=$(wc -c <"$ix")
{ head -c 16384 "$ix"; head -c $((size - 16384)) /dev/zero | tr '\0' '\377'; } >bad.new
mv bad.new "$ix"
rm -f "$ix-wal" "$ix-shm"
expect_code 0 jaxprof top --format=csv "$T"
expect_stderr_line "^jaxprof: top: index '$ix': database disk image is malformed .*; set aside as '$ix\.damaged', building the index again$"
expect_files_equal "$tmp/first" "$out"

test_case 'the default index, another program'"'"'s database in its place: set aside'
cp History "$ix"
expect_code 0 jaxprof top --format=csv "$T"
expect_stderr_match "set aside as '$ix\.damaged', building the index again$"
untouched "$ix.damaged" History.orig

# A full disk (37.6): said so, and the index stays one that works.  A tmpfs
# of 900 KiB, mounted in a namespace of our own where that is allowed.
test_case 'an index on a full disk: the message says the disk is full'
if unshare -rm sh -c 'mount -t tmpfs -o size=900k tmpfs "$1"' sh "$tmp" 2>/dev/null; then
	mkdir small
	expect_code 2 unshare -rm sh -c 'mount -t tmpfs -o size=900k tmpfs "$1" &&
	    "$2" top --db "$1/ix.sqlite" "$3"' sh "$tmp/small" "$JAXPROF" "$T"
	expect_stderr_match "index '.*/ix\.sqlite': (database or disk is full|a write failed and was rolled back: the disk is full)$"
	if grep -q 'no transaction is active' "$err"; then
		fail "a full disk said 'no transaction is active'"
	fi
	# With room, the same index builds and answers as a fresh one.
	expect_code 0 unshare -rm sh -c 'mount -t tmpfs -o size=900k tmpfs "$1" &&
	    "$2" top --db "$1/ix.sqlite" "$3" 2>/dev/null;
	    mount -o remount,size=8m "$1" && "$2" top --format=csv --db "$1/ix.sqlite" "$3"' \
	    sh "$tmp/small" "$JAXPROF" "$T"
	expect_files_equal "$tmp/first" "$out"
else
	note_skip "the full disk: no tmpfs can be mounted here (unshare -rm)"
fi

test_done
