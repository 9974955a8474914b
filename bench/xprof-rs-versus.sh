#!/usr/bin/env bash
# jaxprof against xprof-rs (a Rust XProf backend, PyPI `xprof-rs`) on the
# same files: the first answer's time and memory.
#
#   bench/xprof-rs-versus.sh [--runs=N] [--xprof-rs=BIN] [--cpu=LIST] JAXPROF FILE...
#
# For each FILE (an .xplane.pb; read once first, so that every run finds
# it in the page cache), N rounds (default 7), the two taking turns:
#   xprof-rs: `BIN get_kernel_stats FILE` (its agent CLI keeps no result
#             cache: every call reads the file);
#   jaxprof:  `JAXPROF top --group=kernel --db=DB -n 20 --format=csv FILE`,
#             DB deleted before each run: a cold first answer.
# Each run is timed by bench/runtime.c (wall, user + system, peak RSS);
# --cpu=LIST runs both under `taskset -c LIST`.  Prints markdown: medians
# per side, and jaxprof / xprof-rs as the median of each pair's ratio (a
# busy moment slows both runs of a pair alike), with the load average
# before and after.  A file xprof-rs cannot answer is said so, and
# jaxprof is timed alone.  BIN defaults to xprof-rs on PATH (install:
# python3 -m venv V && V/bin/pip install xprof-rs; BIN=V/bin/xprof-rs).
# Exit status: 0 when everything ran, 2 otherwise.

set -u
here=$(cd "$(dirname "$0")" && pwd)
runs=7 xprof=xprof-rs cpu=
while [ $# -gt 0 ]; do
    case $1 in
    --runs=*) runs=${1#--runs=} ;;
    --xprof-rs=*) xprof=${1#--xprof-rs=} ;;
    --cpu=*) cpu=${1#--cpu=} ;;
    -h | --help) sed -n '2,21s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) break ;;
    esac
    shift
done
[ $# -ge 2 ] || { sed -n '2,21s/^# \{0,1\}//p' "$0" >&2; exit 2; }
jaxprof=$1
shift
[ -x "$jaxprof" ] || { echo "xprof-rs-versus.sh: no binary $jaxprof" >&2; exit 2; }
command -v "$xprof" >/dev/null ||
    { echo "xprof-rs-versus.sh: no xprof-rs ($xprof); see --help" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-xprof-rs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/runtime" "$here/runtime.c" ||
    { echo "xprof-rs-versus.sh: cannot build runtime.c" >&2; exit 2; }
pin=()
[ -n "$cpu" ] && pin=(taskset -c "$cpu")

echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| file | MB | xprof-rs wall ms | jaxprof wall ms | wall ratio | xprof-rs CPU ms | jaxprof CPU ms | CPU ratio | xprof-rs RSS MB | jaxprof RSS MB | RSS ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in "$@"; do
    [ -f "$f" ] || { echo "xprof-rs-versus.sh: no file $f" >&2; exit 2; }
    cat "$f" >/dev/null
    rm -f "$tmp"/x "$tmp"/j
    answers=1
    if ! "${pin[@]}" "$xprof" get_kernel_stats "$f" >"$tmp/out" 2>&1; then
        answers=0
        why=$(head -c 160 "$tmp/out" | tr '\n|' '  ')
    fi
    for ((i = 0; i < runs; i++)); do
        if ((answers)); then
            "${pin[@]}" "$tmp/runtime" -o "$tmp/x" "$xprof" get_kernel_stats \
                "$f" >/dev/null 2>&1 ||
                { echo "xprof-rs-versus.sh: failed: $xprof on $f" >&2; exit 2; }
        fi
        rm -f "$tmp"/db "$tmp"/db-*
        "${pin[@]}" "$tmp/runtime" -o "$tmp/j" "$jaxprof" top --group=kernel \
            --db="$tmp/db" -n 20 --format=csv "$f" >/dev/null 2>&1 ||
            { echo "xprof-rs-versus.sh: failed: $jaxprof on $f" >&2; exit 2; }
    done
    python3 - "$tmp/x" "$tmp/j" "$f" "$(stat -c %s "$f")" <<'EOF'
import os, statistics, sys
def rows(p):
    if not os.path.exists(p):
        return []
    return [tuple(map(float, l.split())) for l in open(p) if l.strip()]
x, j, name, size = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def med(r, i, k):
    return "%.1f" % (statistics.median(v[i] for v in r) * k) if r else "-"
def ratio(i):
    if not x:
        return "-"
    return "%.2f" % statistics.median(b[i] / a[i] for a, b in zip(x, j) if a[i] > 0)
print("| %s | %.1f | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
    name, size / 1e6, med(x, 0, 1e3), med(j, 0, 1e3), ratio(0),
    med(x, 1, 1e3), med(j, 1, 1e3), ratio(1),
    med(x, 2, 1 / 1024), med(j, 2, 1 / 1024), ratio(2)))
EOF
    ((answers)) || echo "(xprof-rs could not answer $f: $why)"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
