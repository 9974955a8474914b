#!/usr/bin/env bash
# Time and memory against what a file holds (issue 37): `jaxprof top` on
# files of N planes, N `XLA Ops` lines, N events on one line, N trace JSON
# processes (one event each) and N empty lines, for N = 1,000, 10,000 and
# 100,000 (empty lines: up to 5,000,000), each on a fresh index.  Prints a
# markdown table: wall time, time per item beyond a file of one item
# (the same at every N when time is linear), peak RSS, and RSS per byte of
# the file.  See bench/README.md.
#
#   bench/scale.sh [--quick] [--runs=R] [JAXPROF_BINARY]
#
# --quick  N up to 10,000 only; --runs=R  median of R runs (default 3)
# JAXPROF_BINARY defaults to $JAXPROF, else ../jaxprof relative to this script.
# Exit status: 0 when everything ran, 2 when something could not run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
runs=3
quick=
jaxprof=
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    --runs=*) runs=${arg#--runs=} ;;
    -h | --help)
        sed -n '2,14s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    -*) echo "scale.sh: unknown option $arg" >&2; exit 2 ;;
    *) jaxprof=$arg ;;
    esac
done
jaxprof=${jaxprof:-${JAXPROF:-$root/jaxprof}}
[ -x "$jaxprof" ] || { echo "scale.sh: no jaxprof at $jaxprof" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "scale.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
gen=$work/gen-xplane
cc -std=c11 -O2 -o "$gen" "$root/tests/gen-xplane.c" -lz ||
    { echo "scale.sh: cannot build gen-xplane" >&2; exit 2; }

# make KIND N FILE: the file of N items of KIND.
make_file() {
    "$gen" --stress="$1:$2" "$3"
}

# measure FILE: "wall_s peak_kb", the medians of $runs cold runs.
measure() {
    local i t0 t1 k walls=() kbs=()
    for ((i = 0; i < runs; i++)); do
        rm -f "$work/ix.sqlite"*
        t0=$(date +%s%N)
        /usr/bin/time -f '%M' -o "$work/t" "$jaxprof" top --format=csv \
            --db "$work/ix.sqlite" "$1" >/dev/null 2>&1
        t1=$(date +%s%N)
        read -r k <"$work/t"
        walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')")
        kbs+=("$k")
    done
    printf '%s\n' "${walls[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p" | tr '\n' ' '
    printf '%s\n' "${kbs[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p"
}

echo "| items | N | file (bytes) | wall (s) | µs per item beyond N=1 | peak RSS (MB) | RSS / file |"
echo "|---|---:|---:|---:|---:|---:|---:|"
status=0
for kind in planes lines events pids empty; do
    ext=xplane.pb
    [ "$kind" = pids ] && ext=trace.json
    make_file "$kind" 1 "$work/one.$ext" || status=2
    read -r base _ <<<"$(measure "$work/one.$ext")"
    sizes="1000 10000 100000"
    [ "$kind" = empty ] && sizes="10000 100000 1000000 5000000"
    [ -n "$quick" ] && sizes="1000 10000"
    for n in $sizes; do
        f=$work/f.$ext
        make_file "$kind" "$n" "$f" || { status=2; continue; }
        bytes=$(wc -c <"$f")
        read -r wall kb <<<"$(measure "$f")"
        awk -v k="$kind" -v n="$n" -v b="$bytes" -v w="$wall" -v w0="$base" \
            -v kb="$kb" 'BEGIN {
            printf "| %s | %d | %d | %.3f | %.2f | %.1f | %.2f |\n", k, n, b,
                w, (w - w0) * 1e6 / (n - 1), kb / 1024, kb * 1024 / b
        }'
        rm -f "$f"
    done
done
exit $status
