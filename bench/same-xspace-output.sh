#!/usr/bin/env bash
# Whether two jaxprof binaries give the same reports on XSpace profiles:
# the check that speed work changed no output.
#
#   bench/same-xspace-output.sh [--columns] BEFORE AFTER [FILE.xplane.pb ...]
#
# Without files it takes every *.xplane.pb under testdata/ and $CORPUS
# (default ../shared/corpus beside the tree).  Each file is indexed on its
# own (a fresh db per binary) and these are compared: top -n 1000 on a cold
# index, then on an index that a query of host_events built whole first
# (so that file ids do not depend on which command made the event-level
# tables): top again, plain and --group=category, module and kernel,
# steps, compile, transfers and list, all as CSV (compile and transfers as
# tables too), and dumps of the index tables in rowid order.
# Byte for byte by default; --columns compares CSV on the columns both
# sides have (bench/same-columns.py), for binaries whose reports gained
# columns on purpose, and names the columns and tables only one side has.
# Exit status: 0 all the same, 1 some differ, 2 usage or a failed run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus=${CORPUS:-$(dirname "$root")/shared/corpus}

columns=0
[ "${1:-}" = --columns ] && { columns=1; shift; }
[ $# -ge 2 ] || { sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 2; }
before=$1 after=$2
shift 2
for b in "$before" "$after"; do
    [ -x "$b" ] || { echo "same-xspace-output.sh: no binary $b" >&2; exit 2; }
done
if [ $# -eq 0 ]; then
    mapfile -t files < <(find "$root/testdata" "$corpus" \
        -name '*.xplane.pb' 2>/dev/null | sort)
else
    files=("$@")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-same.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# report BIN DIR FILE: every report of FILE into DIR, stdout and stderr
# apart (how the two interleave in one file is not output).
report() {
    local bin=$1 dir=$2 f=$3 db=$2/idx.sqlite t g
    mkdir -p "$dir"
    "$bin" top --db="$db" -n 1000 --format=csv "$f" >"$dir/top-cold" 2>"$dir/top-cold.err" || return 1
    rm -f "$db"*
    "$bin" sql --db="$db" "SELECT count(*) FROM host_events" "$f" >"$dir/events" 2>"$dir/events.err" ||
        return 1
    "$bin" top --db="$db" -n 1000 --format=csv "$f" >"$dir/top" 2>"$dir/top.err" || return 1
    for g in category module kernel; do
        "$bin" top --db="$db" -n 1000 --group=$g --format=csv "$f" \
            >"$dir/top-$g" 2>"$dir/top-$g.err"
    done
    "$bin" steps --db="$db" --format=csv "$f" >"$dir/steps" 2>"$dir/steps.err"
    "$bin" compile --db="$db" --format=csv "$f" >"$dir/compile" 2>"$dir/compile.err"
    "$bin" transfers --db="$db" --format=csv "$f" >"$dir/transfers" 2>"$dir/transfers.err"
    "$bin" list --db="$db" --format=csv "$f" >"$dir/list" 2>"$dir/list.err"
    if [ $columns = 0 ]; then
        "$bin" compile --db="$db" "$f" >"$dir/compile-table" 2>"$dir/compile-table.err"
        "$bin" transfers --db="$db" "$f" >"$dir/transfers-table" 2>"$dir/transfers-table.err"
    fi
    # files, but for indexed_at (the clock).
    "$bin" sql --db="$db" --format=csv "SELECT id, path, kind, run, host,
        size, mtime_ns, hostname, planes, lines, events, start_ps, end_ps,
        profile_start_ns, op_source, errors, warnings, missing_metadata
        FROM files ORDER BY id" "$f" >"$dir/sql-files" 2>"$dir/sql-files.err"
    # every table but those of the index's own bookkeeping.
    "$bin" sql --db="$db" --format=csv "SELECT name FROM sqlite_master
        WHERE type = 'table' AND name NOT IN ('files', 'meta', 'packed_rows',
        'report_cache', 'stale_runs') ORDER BY name" "$f" |
        tail -n +2 >"$dir/tables"
    while read -r t; do
        "$bin" sql --db="$db" --format=csv "SELECT * FROM $t ORDER BY rowid" \
            "$f" >"$dir/sql-$t" 2>"$dir/sql-$t.err"
    done <"$dir/tables"
    rm -f "$db"* "$dir/tables"
}

# compare: the two sides of one file; prints what differs, fails if any.
compare() {
    local out=$1 x name bad=0
    if [ $columns = 0 ]; then
        diff -r -q "$tmp/before" "$tmp/after" >"$out" && return 0
        return 1
    fi
    : >"$out"
    for x in "$tmp/before"/* "$tmp/after"/*; do
        name=$(basename "$x")
        [ -e "$tmp/before/$name" ] || { echo "only after: $name" >>"$out"; continue; }
        [ -e "$tmp/after/$name" ] || { echo "only before: $name" >>"$out"; continue; }
        [ "$x" = "$tmp/before/$name" ] || continue
        "${PYTHON:-python3}" "$here/same-columns.py" "$x" "$tmp/after/$name" \
            >"$tmp/cols" || bad=1
        sed "s|^|$name: |" "$tmp/cols" >>"$out"
    done
    return $bad
}

differ=0
for f in "${files[@]}"; do
    report "$before" "$tmp/before" "$f" || { echo "FAIL  before: $f" >&2; exit 2; }
    report "$after" "$tmp/after" "$f" || { echo "FAIL  after: $f" >&2; exit 2; }
    if compare "$tmp/diff"; then
        echo "same    $f"
    else
        echo "DIFFER  $f"
        differ=1
    fi
    sed 's/^/    /' "$tmp/diff"
    rm -rf "$tmp/before" "$tmp/after"
done
exit $differ
