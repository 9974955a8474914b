#!/usr/bin/env bash
# Whether two jaxprof binaries give the same reports, byte for byte, on
# XSpace profiles: the check that speed work changed no output.
#
#   bench/same-xspace-output.sh BEFORE AFTER [FILE.xplane.pb ...]
#
# Without files it takes every *.xplane.pb under testdata/ and, when
# present, ../shared/corpus.  Each file is indexed on its own (a fresh db
# per binary) and these are compared: top -n 1000 (csv) on a cold index,
# then on an index that a query of host_events built whole first (so that
# file ids do not depend on which command made the event-level tables):
# top again, steps (csv), compile, transfers, and dumps of the index
# tables in rowid order.
# Exit status: 0 all the same, 1 some differ, 2 usage or a failed run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

[ $# -ge 2 ] || { sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 2; }
before=$1 after=$2
shift 2
for b in "$before" "$after"; do
    [ -x "$b" ] || { echo "same-xspace-output.sh: no binary $b" >&2; exit 2; }
done
if [ $# -eq 0 ]; then
    mapfile -t files < <(find "$root/testdata" "$root/../shared/corpus" \
        -name '*.xplane.pb' 2>/dev/null | sort)
else
    files=("$@")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-same.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

tables="planes ops kernels modules steps compiles compile_phases
executions gaps host_events scopes programs transfers hlo_instructions"

# report BIN DIR FILE: every report of FILE into DIR.
report() {
    local bin=$1 dir=$2 f=$3 db=$2/idx.sqlite t
    mkdir -p "$dir"
    "$bin" top --db="$db" -n 1000 --format=csv "$f" >"$dir/top-cold" 2>&1 || return 1
    rm -f "$db"*
    "$bin" sql --db="$db" "SELECT count(*) FROM host_events" "$f" >"$dir/events" 2>&1 ||
        return 1
    "$bin" top --db="$db" -n 1000 --format=csv "$f" >"$dir/top" 2>&1 || return 1
    "$bin" steps --db="$db" --format=csv "$f" >"$dir/steps" 2>&1
    "$bin" compile --db="$db" "$f" >"$dir/compile" 2>&1
    "$bin" transfers --db="$db" "$f" >"$dir/transfers" 2>&1
    # files, but for indexed_at (the clock).
    "$bin" sql --db="$db" --format=csv "SELECT id, path, kind, run, host,
        size, mtime_ns, hostname, planes, lines, events, start_ps, end_ps,
        profile_start_ns, op_source, errors, warnings, missing_metadata
        FROM files ORDER BY id" "$f" >"$dir/sql-files" 2>&1
    for t in $tables; do
        "$bin" sql --db="$db" --format=csv "SELECT * FROM $t ORDER BY rowid" \
            "$f" >"$dir/sql-$t" 2>&1
    done
    rm -f "$db"*
}

differ=0
for f in "${files[@]}"; do
    report "$before" "$tmp/before" "$f" || { echo "FAIL  before: $f" >&2; exit 2; }
    report "$after" "$tmp/after" "$f" || { echo "FAIL  after: $f" >&2; exit 2; }
    if diff -r -q "$tmp/before" "$tmp/after" >"$tmp/diff"; then
        echo "same    $f"
    else
        echo "DIFFER  $f"
        sed 's/^/    /' "$tmp/diff"
        differ=1
    fi
    rm -rf "$tmp/before" "$tmp/after"
done
exit $differ
