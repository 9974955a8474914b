#!/usr/bin/env bash
# Whether two jaxprof binaries give byte-identical reports on every trace
# JSON at hand: testdata/, the fuzz seeds and crashers, $CORPUS (default
# ../shared/corpus beside the tree, when present) and any FILE given.  For
# each file and report (top -n 1000, plain and --group=category, module and
# kernel, steps, compile, transfers and list, as CSV; compile and
# transfers as tables too) it compares stdout, stderr and the exit status,
# each run with a fresh index.  --columns compares stdout on the columns
# both sides have (bench/same-columns.py), for binaries whose reports
# gained columns on purpose.
#
#   bench/same-output-json.sh [--columns] BEFORE_BIN AFTER_BIN [FILE...]
#
# Exit status: 0 all the same, 1 some differ (a diff is shown), 2 usage.

set -u
columns=0
[ "${1:-}" = --columns ] && { columns=1; shift; }
[ $# -ge 2 ] || { sed -n '2,14s/^# \{0,1\}//p' "$0"; exit 2; }
before=$1 after=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
corpus=${CORPUS:-$(dirname "$root")/shared/corpus}
[ -d "$corpus" ] || corpus=/work/shared/corpus

tmp=$(mktemp -d "${TMPDIR:-/tmp}/same-output.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

files=$( {
    find "$root/testdata" "$root/fuzz/corpus/json" "$root/fuzz/crashers/json" \
        -type f \( -name '*.json' -o -name '*.json.gz' \) ! -path '*/baselines/*'
    [ -d "$corpus" ] && find "$corpus" -type f \( -name '*.json' -o -name '*.json.gz' \)
    for f in "$@"; do echo "$f"; done
} | sort)

reports=("top -n 1000 --format=csv" "top -n 1000 --group=category --format=csv"
    "top -n 1000 --group=module --format=csv"
    "top -n 1000 --group=kernel --format=csv" "steps --format=csv"
    "compile --format=csv" "transfers --format=csv" "list --format=csv")
[ $columns = 1 ] || reports+=("compile" "transfers")
n=0 bad=0
while IFS= read -r f; do
    for r in "${reports[@]}"; do
        for side in before after; do
            bin=${!side}
            rm -f "$tmp/db"*
            # shellcheck disable=SC2086 # $r is the report and its options
            "$bin" $r --db="$tmp/db" "$f" >"$tmp/$side.out" 2>"$tmp/$side.err"
            echo "exit $?" >>"$tmp/$side.err"
        done
        n=$((n + 1))
        if [ $columns = 1 ]; then
            "${PYTHON:-python3}" "$here/same-columns.py" "$tmp/before.out" \
                "$tmp/after.out" >"$tmp/cols"
            same=$?
            [ -s "$tmp/cols" ] && { echo "$r $f:"; sed 's/^/    /' "$tmp/cols"; }
        else
            cmp -s "$tmp/before.out" "$tmp/after.out"
            same=$?
        fi
        if [ $same != 0 ] || ! cmp -s "$tmp/before.err" "$tmp/after.err"; then
            bad=$((bad + 1))
            echo "DIFFERS: $r $f"
            [ $columns = 1 ] || diff "$tmp/before.out" "$tmp/after.out" | head -10
            diff "$tmp/before.err" "$tmp/after.err" | head -10
        fi
    done
done <<<"$files"
echo "$n runs on $(grep -c . <<<"$files") files: $((n - bad)) the same, $bad differ"
[ "$bad" -eq 0 ]
