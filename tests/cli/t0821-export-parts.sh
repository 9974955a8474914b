#!/bin/sh
# jaxprof export's parts: one per table and file under hive partitions,
# the same bytes when a file is exported again or alone (so one process
# per host file can write into one folder), written beside their name and
# renamed (nothing left behind), a private index removed after; bad usage
# and an output folder that cannot be written.
. "$(dirname "$0")/lib.sh"

T=$TESTDATA/jax-mlp
R0=$T/plugins/profile/2026_01_01_00_00_00
unset JAXPROF_DB
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir
export TMPDIR

# parts DIR: each part's path under DIR and its checksum, sorted.
parts() {
	(cd "$1" && find . -type f | LC_ALL=C sort | xargs cksum)
}

test_case 'every table of every file, one part each, in its partition'
expect_code 0 jaxprof export -o "$tmp/all" "$T"
expect_stdout_empty
expect_stderr_empty
tables=$(ls "$tmp/all" | tr '\n' ' ')
[ "$tables" = "compiles devices files gaps kernels memory_peaks modules ops \
program_memory scopes step_annotations step_collectives steps transfer_totals \
transfers " ] ||
    fail "tables: $tables"
# 6 files: 2 runs of testhost.xplane.pb, testhost.trace.json.gz and
# perfetto_trace.json.gz (no host: Hive's NULL).
n=$(find "$tmp/all" -name 'part-*.parquet' | wc -l)
[ "$n" -eq $((15 * 6)) ] || fail "$n parts, not 15 tables x 6 files"
[ -d "$tmp/all/ops/run=2026_01_01_00_00_01/host=__HIVE_DEFAULT_PARTITION__" ] ||
    fail "no partition for the file without a host"
[ -z "$(find "$tmp/all" -name '.*')" ] || fail "temporary files left"
[ -z "$(ls "$tmp/tmpdir")" ] || fail "the private index was left: $(ls "$tmp/tmpdir")"

test_case 'exported again: the same parts, byte for byte'
parts "$tmp/all" >"$tmp/first"
expect_code 0 jaxprof export -o "$tmp/all" "$T"
parts "$tmp/all" >"$tmp/second"
cmp -s "$tmp/first" "$tmp/second" || fail "the parts changed: $(diff "$tmp/first" "$tmp/second" | head -5)"

test_case 'one file alone: its parts, as in the export of the whole folder'
expect_code 0 jaxprof export -o "$tmp/one" "$R0/testhost.xplane.pb"
n=$(find "$tmp/one" -type f | wc -l)
[ "$n" -eq 15 ] || fail "$n parts for one file, not 15"
(cd "$tmp/one" && find . -type f) | while read -r p; do
	cmp -s "$tmp/one/$p" "$tmp/all/$p" || fail "'$p' differs"
done

test_case 'a part replaced in place; other files parts kept'
part=$(cd "$tmp/one" && find ./ops -type f)
: >"$tmp/one/$part"
mkdir -p "$tmp/one/ops/run=x/host=y" && : >"$tmp/one/ops/run=x/host=y/keep"
expect_code 0 jaxprof export -o "$tmp/one" "$R0/testhost.xplane.pb"
cmp -s "$tmp/one/$part" "$tmp/all/$part" || fail "'$part' not replaced"
[ -f "$tmp/one/ops/run=x/host=y/keep" ] || fail "another partition removed"

test_case 'ndjson: the same partitions, one object per line'
expect_code 0 jaxprof export --to=ndjson --run='*01' -o "$tmp/nd" "$T"
n=$(find "$tmp/nd" -name 'part-*.ndjson' | wc -l)
[ "$n" -eq $((15 * 3)) ] || fail "$n parts, not 15 tables x 3 files"
[ -z "$(find "$tmp/nd" -path '*run=2026_01_01_00_00_00*')" ] ||
    fail "--run did not keep one run"
f=$(find "$tmp/nd/files/run=2026_01_01_00_00_01/host=testhost" -type f |
    xargs grep -l '"kind": "xplane"')
[ "$(wc -l <"$f")" -eq 1 ] || fail "files: not one line"

test_case 'bad usage: no -o, an unknown format; exit 2'
expect_code 2 jaxprof export "$T"
expect_stderr_match 'no output folder: give -o DIR'
expect_stderr_match '^usage: jaxprof export '
expect_code 2 jaxprof export --to=csv -o "$tmp/x" "$T"
expect_stderr_is "jaxprof: export: invalid --to 'csv' (parquet, ndjson)"
[ ! -e "$tmp/x" ] || fail "a usage error wrote '$tmp/x'"

test_case 'an output folder that cannot be made: exit 2, named'
: >"$tmp/file"
expect_code 2 jaxprof export -o "$tmp/file/sub" "$T"
expect_stderr_match "export: cannot make '$tmp/file/sub/[a-z_]*/run=2026_01_01_00_00_00/host=[A-Z_]*': Not a directory"
[ -z "$(ls "$tmp/tmpdir")" ] || fail "the private index was left"

test_done
