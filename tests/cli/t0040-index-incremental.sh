#!/bin/sh
# The index is refreshed file by file: an unchanged file is not read again,
# a touched or rewritten one is, a deleted one is forgotten.
. "$(dirname "$0")/lib.sh"

D=$tmp/logs
mkdir -p "$D/plugins/profile"
cp -R "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00" \
    "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01" "$D/plugins/profile/"
R0=$D/plugins/profile/2026_01_01_00_00_00
R1=$D/plugins/profile/2026_01_01_00_00_01
# Fixed mtimes, so the test does not depend on when the copy was made.
find "$D" -type f -exec touch -d '2026-01-02 03:04:05' {} +

FILES_Q='SELECT path, id, indexed_at, mtime_ns, size FROM files ORDER BY path'

# files_now NAME: the files table, paths relative to $D, into $tmp/NAME.
files_now() {
	expect_code 0 jaxprof sql --format=csv "$FILES_Q" "$D"
	expect_stderr_empty
	sed "s|$D/|D/|" "$out" >"$tmp/$1"
}

# row FILE PATH: the row of PATH (relative to $D) in a files_now file.
row() {
	grep "^D/$2," "$tmp/$1" || fail "no row for $2 in $1"
}

test_case 'index: counts the files, prints the index path'
expect_code 0 jaxprof index "$D"
expect_stderr_empty
printf '%s: 6 profile files, 0 other files\n' "$JAXPROF_DB" >"$tmp/want"
expect_stdout_file "$tmp/want"
[ -s "$JAXPROF_DB" ] || fail "no index at \$JAXPROF_DB"

test_case 'the files table after index'
files_now before
sed "s|$D/|D/|" "$out" | cut -d, -f1,4,5 >"$tmp/got"
cat >"$tmp/want" <<'EOF'
path,mtime_ns,size
D/plugins/profile/2026_01_01_00_00_00/perfetto_trace.json.gz,1767323045000000000,45654
D/plugins/profile/2026_01_01_00_00_00/testhost.trace.json.gz,1767323045000000000,53777
D/plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb,1767323045000000000,128003
D/plugins/profile/2026_01_01_00_00_01/perfetto_trace.json.gz,1767323045000000000,8900
D/plugins/profile/2026_01_01_00_00_01/testhost.trace.json.gz,1767323045000000000,10239
D/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb,1767323045000000000,67133
EOF
expect_files_equal "$tmp/want" "$tmp/got" "the files table"

test_case '--db=FILE overrides $JAXPROF_DB'
expect_code 0 jaxprof index --db="$tmp/other.sqlite" "$D"
expect_stderr_empty
printf '%s: 6 profile files, 0 other files\n' "$tmp/other.sqlite" >"$tmp/want"
expect_stdout_file "$tmp/want"
[ -s "$tmp/other.sqlite" ] || fail "--db did not make $tmp/other.sqlite"

test_case 'without $JAXPROF_DB and --db the index goes under $XDG_CACHE_HOME'
expect_code 0 env -u JAXPROF_DB "$JAXPROF" index "$D"
expect_stderr_empty
expect_stdout_match "^$XDG_CACHE_HOME/jaxprof/[0-9a-f]{16}\\.sqlite: 6 profile files, 0 other files\$"

test_case 'one index per profile folder, whichever of its runs or files are named'
R=$D/plugins/profile/2026_01_01_00_00_00
rm -rf "$XDG_CACHE_HOME/jaxprof"
for p in "$D" "$D/plugins" "$R" "$R/testhost.xplane.pb" \
    "$D/plugins/profile/2026_01_01_00_00_01 $R"; do
	# shellcheck disable=SC2086
	expect_code 0 env -u JAXPROF_DB "$JAXPROF" index $p
done
[ "$(find "$XDG_CACHE_HOME/jaxprof" -name '*.sqlite' | wc -l)" -eq 1 ] ||
    fail "not one index for the folder: $(ls "$XDG_CACHE_HOME/jaxprof")"
expect_code 0 env -u JAXPROF_DB "$JAXPROF" index "$TESTDATA/jax-mlp"
[ "$(find "$XDG_CACHE_HOME/jaxprof" -name '*.sqlite' | wc -l)" -eq 2 ] ||
    fail "another profile folder shares the index"

test_case 'a second index changes nothing'
sleep 1	# indexed_at has 1 s resolution: a re-read would show
expect_code 0 jaxprof index "$D"
expect_stderr_empty
files_now again
expect_files_equal "$tmp/before" "$tmp/again" "an unchanged file was re-indexed"

test_case 'top, saved for later'
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' "$D"
expect_stderr_empty
save top00-before
expect_code 0 jaxprof top -n 0 --format=csv --run='*01' "$D"
expect_stderr_empty
save top01

test_case 'touch one file: only that file is read again'
touch -d '2030-06-01 00:00:00' "$R0/testhost.xplane.pb"
expect_code 0 jaxprof index "$D"
expect_stderr_empty
files_now touched
old=$(row before plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb)
new=$(row touched plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb)
[ "$(echo "$old" | cut -d, -f2)" != "$(echo "$new" | cut -d, -f2)" ] ||
    fail "the touched file kept its id: it was not read again"
[ "$(echo "$new" | cut -d, -f4)" = 1906502400000000000 ] ||
    fail "the touched file's mtime_ns is not the new one: $new"
grep -v '_00_00_00/testhost\.xplane\.pb,' "$tmp/before" >"$tmp/want"
grep -v '_00_00_00/testhost\.xplane\.pb,' "$tmp/touched" >"$tmp/got"
expect_files_equal "$tmp/want" "$tmp/got" "files other than the touched one changed"

test_case 'the re-read file gives the same top'
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' "$D"
expect_stderr_empty
expect_stdout_file "$tmp/top00-before"

test_case 'no rows of the replaced file version are left'
expect_code 0 jaxprof sql --format=csv "SELECT (SELECT count(*) FROM planes) AS planes, (SELECT count(DISTINCT file_id) FROM ops) AS files_with_ops, (SELECT count(*) FROM ops WHERE file_id NOT IN (SELECT id FROM files)) AS orphans" "$D"
expect_stderr_empty
printf 'planes,files_with_ops,orphans\n6,2,0\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'delete a file: its rows are gone'
rm "$R1/testhost.trace.json.gz"
expect_code 0 jaxprof index "$D"
expect_stderr_empty
printf '%s: 5 profile files, 0 other files\n' "$JAXPROF_DB" >"$tmp/want"
expect_stdout_file "$tmp/want"
files_now deleted
grep -v '_00_00_01/testhost\.trace\.json\.gz,' "$tmp/touched" >"$tmp/want"
expect_files_equal "$tmp/want" "$tmp/deleted" "deleting a file"

test_case 'delete a run: its rows and its ops are gone'
rm -r "$R1"
expect_code 0 jaxprof list --format=csv "$D"
expect_stderr_empty
[ "$(cut -d, -f1 "$out" | sort -u | tr '\n' ' ')" = "2026_01_01_00_00_00 run " ] ||
    fail "list still shows the deleted run"
expect_code 0 jaxprof sql --format=csv "SELECT count(*) AS n FROM files WHERE run = '2026_01_01_00_00_01'" "$D"
printf 'n\n0\n' >"$tmp/want"
expect_stdout_file "$tmp/want"
expect_stderr_empty
expect_code 0 jaxprof sql --format=csv "SELECT count(*) AS n FROM ops WHERE module = 'jit_predict'" "$D"
expect_stdout_file "$tmp/want"
expect_stderr_empty

test_case "replace run 00's xplane by run 01's: top follows the content"
cp "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb" \
    "$R0/testhost.xplane.pb"
touch -d '2031-01-01 00:00:00' "$R0/testhost.xplane.pb"
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' "$D"
expect_stderr_empty
expect_stdout_file "$tmp/top01"

test_case 'new content with the same mtime but another size is read again'
cp "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_00/testhost.xplane.pb" \
    "$R0/testhost.xplane.pb"
touch -d '2031-01-01 00:00:00' "$R0/testhost.xplane.pb"
expect_code 0 jaxprof top -n 0 --format=csv --run='*00' "$D"
expect_stderr_empty
expect_stdout_file "$tmp/top00-before"

test_case 'a path given twice, or a file under a folder given, is indexed once'
expect_code 0 jaxprof index "$D" "$D/plugins" "$R0/testhost.xplane.pb"
expect_stderr_empty
printf '%s: 3 profile files, 0 other files\n' "$JAXPROF_DB" >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'index --latest indexes only the newest run'
rm -f "$JAXPROF_DB" "$JAXPROF_DB-journal" "$JAXPROF_DB-wal" "$JAXPROF_DB-shm"
mkdir "$R1"
cp "$TESTDATA/jax-mlp/plugins/profile/2026_01_01_00_00_01/testhost.xplane.pb" "$R1/"
expect_code 0 jaxprof index --latest "$D"
expect_stderr_empty
printf '%s: 1 profile files, 0 other files\n' "$JAXPROF_DB" >"$tmp/want"
expect_stdout_file "$tmp/want"

test_case 'a file that is not an index is refused, and left alone'
printf 'not a database\n' >"$tmp/notdb"
cp "$tmp/notdb" "$tmp/notdb.orig"
expect_code 2 jaxprof index --db="$tmp/notdb" "$D"
expect_stdout_empty
expect_stderr_match "^jaxprof: index: index '$tmp/notdb': "
expect_files_equal "$tmp/notdb.orig" "$tmp/notdb" "a foreign file was changed"

test_case 'a new index has 16 KiB pages'
expect_code 0 jaxprof sql --db="$tmp/damaged" --format=csv 'PRAGMA page_size' "$D"
printf 'page_size\n16384\n' >"$tmp/want"
expect_stdout_file "$tmp/want"

# Bytes 18 and 19 of an SQLite database: 1 1 with a rollback journal, 2 2
# in WAL mode.
journal_bytes() {
	od -An -tu1 -j18 -N2 "$1" | tr -s ' ' ' ' | sed 's/^ //; s/ $//'
}

test_case 'a new index is built with a rollback journal, and turned to WAL next'
expect_code 0 jaxprof index --db="$tmp/fresh" "$D"
expect_stderr_empty
[ "$(journal_bytes "$tmp/fresh")" = "1 1" ] ||
    fail "a new index is not in rollback mode: $(journal_bytes "$tmp/fresh")"
for f in "$tmp/fresh-journal" "$tmp/fresh-wal" "$tmp/fresh-shm"; do
	[ ! -e "$f" ] || fail "$f left beside the new index"
done
expect_code 0 jaxprof sql --db="$tmp/fresh" --format=csv 'PRAGMA journal_mode' "$D"
expect_stderr_empty
printf 'journal_mode\nwal\n' >"$tmp/want"
expect_stdout_file "$tmp/want"
[ "$(journal_bytes "$tmp/fresh")" = "2 2" ] ||
    fail "the index was not turned to WAL: $(journal_bytes "$tmp/fresh")"

# The index does not wait for the disk: after a power loss it may be
# damaged.  Every page but the first (the schema) overwritten stands in.
test_case 'a damaged index says so, and that deleting it mends it'
expect_code 0 jaxprof top --db="$tmp/damaged" "$D"
save top-intact
size=$(wc -c <"$tmp/damaged")
{ head -c 16384 "$tmp/damaged"; head -c $((size - 16384)) /dev/zero | tr '\0' '\377'; } >"$tmp/damaged.new"
mv "$tmp/damaged.new" "$tmp/damaged"
expect_code 2 jaxprof top --db="$tmp/damaged" "$D"
expect_stdout_empty
expect_stderr_match "^jaxprof: top: index '$tmp/damaged': database disk image is malformed \(a damaged index: delete it, and jaxprof builds it again from the profiles\)$"
rm "$tmp/damaged"
expect_code 0 jaxprof top --db="$tmp/damaged" "$D"
expect_stdout_file "$tmp/top-intact"

test_case 'an index made with 4 KiB pages keeps them, and answers the same'
if python_has sqlite3; then
	"$PYTHON" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA page_size = 4096")
db.execute("PRAGMA journal_mode = WAL")
db.close()' "$tmp/pages4"
	expect_code 0 jaxprof top --db="$tmp/pages4" "$D"
	expect_stdout_file "$tmp/top-intact"
	expect_code 0 jaxprof sql --db="$tmp/pages4" --format=csv \
	    'PRAGMA page_size' "$D"
	printf 'page_size\n4096\n' >"$tmp/want"
	expect_stdout_file "$tmp/want"
else
	note_skip "the 4 KiB index: '$PYTHON' cannot import sqlite3"
fi

test_done
