#!/usr/bin/env bash
# Two jaxprof binaries side by side: cold top and warm reports.
#
#   bench/versus.sh [--runs=N] [--cpu=LIST] BEFORE AFTER FILE...
#
# For each FILE (an XSpace or trace JSON; read once first, so that every
# run finds it in the page cache):
#   cold: `top --db=DB -n 20 --format=csv FILE`, DB deleted before each
#         run, N times (default 7) each, the two binaries taking turns;
#   warm: each report (top -n 20, steps, compile, transfers, memory,
#         summary, list) run once on an index the cold run made, then N
#         times more, taking turns: the second run of a command line on an
#         up-to-date index.  A report one binary lacks is run by the other
#         alone.
# Each run is timed by bench/runtime.c (wall time, user + system time,
# peak RSS); --cpu=LIST runs every command under `taskset -c LIST`.  It
# prints markdown: medians of wall ms, CPU ms and peak RSS MB per side,
# and the ratio AFTER / BEFORE as the median of each pair's ratio (a busy
# moment slows both runs of a pair alike).
# Exit status: 0 when everything ran, 2 otherwise.

set -u
here=$(cd "$(dirname "$0")" && pwd)
runs=7 cpu=
while [ $# -gt 0 ]; do
    case $1 in
    --runs=*) runs=${1#--runs=} ;;
    --cpu=*) cpu=${1#--cpu=} ;;
    -h | --help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) break ;;
    esac
    shift
done
[ $# -ge 3 ] || { sed -n '2,20s/^# \{0,1\}//p' "$0" >&2; exit 2; }
before=$1 after=$2
shift 2
for b in "$before" "$after"; do
    [ -x "$b" ] || { echo "versus.sh: no binary $b" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-versus.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/runtime" "$here/runtime.c" || { echo "versus.sh: cannot build runtime.c" >&2; exit 2; }
pin=()
[ -n "$cpu" ] && pin=(taskset -c "$cpu")

# has BIN CMD: whether BIN knows the command CMD.
has() { "$1" "$2" --help >/dev/null 2>&1; }

# timed SIDE KEY ARGS...: one run of SIDE's binary, appended to KEY's file.
timed() {
    local side=$1 key=$2
    shift 2
    "${pin[@]}" "$tmp/runtime" -o "$tmp/$key.$side" "${!side}" "$@" \
        >/dev/null 2>&1 || { echo "versus.sh: failed: ${!side} $*" >&2; exit 2; }
}

# summary KEY LABEL: one markdown row from KEY's two files.
summary() {
    local key=$1 label=$2
    python3 - "$tmp/$key.before" "$tmp/$key.after" "$label" <<'EOF'
import os, statistics, sys
def rows(p):
    if not os.path.exists(p):
        return []
    return [tuple(map(float, l.split())) for l in open(p) if l.strip()]
b, a, label = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3]
def med(r, i, k):
    return "%.1f" % (statistics.median(x[i] for x in r) * k) if r else "-"
def ratio(i):
    if not b or not a:
        return "-"
    return "%.2f" % statistics.median(y[i] / x[i] for x, y in zip(b, a) if x[i] > 0)
print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
    label, med(b, 0, 1e3), med(a, 0, 1e3), ratio(0),
    med(b, 1, 1e3), med(a, 1, 1e3), ratio(1),
    med(b, 2, 1 / 1024), med(a, 2, 1 / 1024), ratio(2)))
EOF
}

head='| %s | before wall ms | after wall ms | ratio | before CPU ms | after CPU ms | ratio | before RSS MB | after RSS MB | ratio |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
reports=("top -n 20" "steps" "compile" "transfers" "memory" "summary" "list")
echo "before: $before"
echo "after: $after"
echo "runs: $runs each, taking turns${cpu:+, taskset -c $cpu}; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
n=0
for f in "$@"; do
    n=$((n + 1))
    cat "$f" >/dev/null || exit 2
    for i in $(seq "$runs"); do
        for side in before after; do
            rm -f "$tmp/$side.db"*
            timed $side cold$n top --db="$tmp/$side.db" -n 20 --format=csv "$f"
        done
    done
    r=0
    for rep in "${reports[@]}"; do
        r=$((r + 1))
        for side in before after; do
            # shellcheck disable=SC2086 # $rep is a command and its options
            has "${!side}" ${rep%% *} || continue
            "${!side}" $rep --db="$tmp/$side.db" "$f" >/dev/null 2>&1 ||
                { echo "versus.sh: failed: ${!side} $rep $f" >&2; exit 2; }
        done
        for i in $(seq "$runs"); do
            for side in before after; do
                has "${!side}" ${rep%% *} || continue
                # shellcheck disable=SC2086
                timed $side warm$n.$r $rep --db="$tmp/$side.db" "$f"
            done
        done
    done
done
n=0
for f in "$@"; do
    n=$((n + 1))
    echo
    echo "$f ($(($(stat -c %s "$f") / 1000000)) MB)"
    echo
    # shellcheck disable=SC2059 # the format is ours
    printf "$head" "run"
    summary cold$n "cold top -n 20"
    r=0
    for rep in "${reports[@]}"; do
        r=$((r + 1))
        summary warm$n.$r "warm $rep"
    done
done
