#!/usr/bin/env bash
# Benchmark `jaxprof top` against the Python protobuf reference (top_reference.py)
# and, where installed, xprof's own converter (top_xprof.py, kernel_stats) on a
# large synthetic profile.  See bench/README.md; bench/run.sh runs it.
#
#   bench/top-python.sh [--quick] [JAXPROF_BINARY]
#
# JAXPROF_BINARY defaults to $JAXPROF, else ../jaxprof relative to this script.
# The Python side runs under ${PYTHON:-python3}; e.g. PYTHON=/opt/jaxvenv/bin/python.
# xprof runs under ${XPROF_PYTHON:-$PYTHON} when that imports xprof (pip install
# xprof), and is left out, saying so, when not.
# Exit status: 0 when everything ran (whether or not the targets were met),
# 2 when something could not be built or run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

quick=0
jaxprof=
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    -h | --help)
        sed -n '2,13s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    -*) echo "top-python.sh: unknown option $arg" >&2; exit 2 ;;
    *) jaxprof=$arg ;;
    esac
done
jaxprof=${jaxprof:-${JAXPROF:-$root/jaxprof}}
python=${PYTHON:-python3}
xprof_python=${XPROF_PYTHON:-$python}

if ((quick)); then
    target_mb=4 reps=1
else
    target_mb=64 reps=3
fi

die() {
    echo "top-python.sh: $*" >&2
    exit 2
}

# --- prerequisites -----------------------------------------------------------

[ -x /usr/bin/time ] && /usr/bin/time -f '%e' true 2>/dev/null ||
    die "needs GNU time at /usr/bin/time (Debian/Ubuntu: apt-get install time)"
[ -x "$jaxprof" ] || die "no jaxprof binary at $jaxprof (build it, or pass its path)"
command -v "$python" >/dev/null || die "no Python interpreter '$python' (set PYTHON)"
"$python" -c 'import google.protobuf' 2>/dev/null ||
    die "$python lacks the protobuf package; use e.g. PYTHON=/opt/jaxvenv/bin/python"
command -v protoc >/dev/null || "$python" -c 'import grpc_tools' 2>/dev/null ||
    die "needs protoc (apt-get install protobuf-compiler) for top_reference.py"

xprof=0
if "$xprof_python" -c 'import xprof.convert.raw_to_tool_data' 2>/dev/null; then
    xprof=1
else
    echo "xprof: not installed for $xprof_python (pip install xprof, or set XPROF_PYTHON); its row is left out"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# --- synthetic profile --------------------------------------------------------

cc -O2 -o "$tmp/gen-xplane" "$root/tests/gen-xplane.c" -lz ||
    die "cannot build tests/gen-xplane.c"

# Generate, and while the file is below target_mb scale --repeat up by the
# missing factor (plus 10%) and try again.
repeat=1
target=$((target_mb * 1024 * 1024))
for attempt in 1 2 3 4 5; do
    rm -rf "$tmp/prof"
    "$tmp/gen-xplane" --devices=8 --steps=20 --ops=200 --repeat=$repeat "$tmp/prof" ||
        die "gen-xplane failed"
    profile=$tmp/prof/plugins/profile/2026_01_01_00_00_00/host0.xplane.pb
    [ -f "$profile" ] || die "gen-xplane did not write $profile"
    size=$(stat -c %s "$profile")
    ((size >= target)) && break
    ((size > 0)) || die "gen-xplane wrote an empty profile"
    repeat=$(((repeat * target * 11 / 10 + size - 1) / size))
done
((size >= target)) || die "profile is only $size bytes after $attempt attempts"
size_mb=$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "profile: $size_mb MB (gen-xplane --devices=8 --steps=20 --ops=200 --repeat=$repeat)"
cat "$profile" >/dev/null # every run sees a warm page cache

# --- timed runs ----------------------------------------------------------------

db=$tmp/idx.sqlite

# measure NAME OUTFILE CMD...: run CMD with stdout to OUTFILE and append
# "wall_seconds peak_rss_kb" to $tmp/NAME.times.  Wall time comes from a ns
# clock because GNU time's %e has only 10 ms resolution; %M is the peak RSS.
measure() {
    local name=$1 out=$2 t0 t1
    shift 2
    t0=$(date +%s%N)
    /usr/bin/time -f '%e %M' -o "$tmp/time.txt" "$@" >"$out" 2>"$tmp/$name.err" || {
        cat "$tmp/$name.err" >&2
        die "$name run failed: $*"
    }
    t1=$(date +%s%N)
    awk -v ns=$((t1 - t0)) '{ printf "%.6f %s\n", ns / 1e9, $2 }' "$tmp/time.txt" >>"$tmp/$name.times"
}

for ((i = 1; i <= reps; i++)); do
    echo "run $i/$reps ..."
    rm -f "$db" "$db-journal" "$db-wal" "$db-shm"
    measure cold "$tmp/cold.csv" "$jaxprof" top --db="$db" -n 20 --format=csv "$profile"
    measure warm "$tmp/warm.csv" "$jaxprof" top --db="$db" -n 20 --format=csv "$profile"
    measure python "$tmp/python.csv" "$python" "$here/top_reference.py" -n 20 "$profile"
    if ((xprof)); then
        # Its derived op stats are cached beside the file: none kept.
        rm -f "$(dirname "$profile")"/*op_stats*.pb
        measure xprof "$tmp/xprof.json" "$xprof_python" "$here/top_xprof.py" kernel_stats "$profile"
    fi
done
rm -f "$(dirname "$profile")"/*op_stats*.pb

# median COLUMN NAME: median of column 1 (wall s) or 2 (peak RSS KB) of NAME's runs.
median() {
    awk -v c="$1" '{ print $c }' "$tmp/$2.times" | sort -g |
        awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

cold_s=$(median 1 cold) cold_kb=$(median 2 cold)
warm_s=$(median 1 warm) warm_kb=$(median 2 warm)
python_s=$(median 1 python) python_kb=$(median 2 python)
((xprof)) && xprof_s=$(median 1 xprof) xprof_kb=$(median 2 xprof)

# --- report ------------------------------------------------------------------

echo
echo "| command | median wall (s) | median peak RSS (MB) | runs |"
echo "|---|---:|---:|---:|"
row() { awk -v n="$1" -v s="$2" -v kb="$3" -v r="$reps" \
    'BEGIN { printf "| %s | %.3f | %.1f | %d |\n", n, s, kb / 1024, r }'; }
row "jaxprof top, cold (no index db)" "$cold_s" "$cold_kb"
row "jaxprof top, warm (index db kept)" "$warm_s" "$warm_kb"
row "top_reference.py (Python protobuf)" "$python_s" "$python_kb"
((xprof)) && row "xprof kernel_stats (top_xprof.py)" "$xprof_s" "$xprof_kb"
echo

# verdict OK TEXT: print a PASS/FAIL line.
verdict() { if [ "$1" = 1 ]; then echo "PASS  $2"; else echo "FAIL  $2"; fi; }

awk -v p="$python_s" -v c="$cold_s" -v w="$warm_s" -v kb="$cold_kb" -v b="$size" -v mb="$size_mb" 'BEGIN {
    printf "file size: %s MB\n", mb
    printf "python / cold: %.1fx\n", (c > 0 ? p / c : 0)
    printf "warm: %.1f ms\n", w * 1000
    printf "cold peak RSS / file size: %.2f\n", kb * 1024 / b
}'
((xprof)) && awk -v x="$xprof_s" -v c="$cold_s" -v xkb="$xprof_kb" -v kb="$cold_kb" 'BEGIN {
    printf "xprof / cold: %.1fx the time, %.1fx the peak RSS\n", (c > 0 ? x / c : 0), (kb > 0 ? xkb / kb : 0)
}'
verdict "$(awk -v p="$python_s" -v c="$cold_s" 'BEGIN { print (p >= 20 * c) }')" \
    "cold is >= 20x faster than Python"
verdict "$(awk -v w="$warm_s" 'BEGIN { print (w < 0.050) }')" "warm run < 50 ms"
verdict "$(awk -v kb="$cold_kb" -v b="$size" 'BEGIN { print (kb * 1024 * 2 <= b) }')" \
    "cold peak RSS <= half the file size"

# Agreement of the op tables: the (name,count,total_us,self_us) columns,
# picked by header name with a real CSV parser (names may contain commas).
columns() {
    "$python" -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
if not rows:
    sys.exit("empty output: " + sys.argv[1])
idx = [rows[0].index(c) for c in ("name", "count", "total_us", "self_us")]
for r in rows:
    print(",".join(r[i] for i in idx))
' "$1"
}
columns "$tmp/cold.csv" >"$tmp/cold.cols" || die "cannot read jaxprof's CSV"
columns "$tmp/warm.csv" >"$tmp/warm.cols" || die "cannot read jaxprof's warm CSV"
columns "$tmp/python.csv" >"$tmp/python.cols" || die "cannot read top_reference.py's CSV"
if cmp -s "$tmp/cold.cols" "$tmp/python.cols"; then
    verdict 1 "jaxprof and top_reference.py agree on name,count,total_us,self_us"
else
    verdict 0 "jaxprof and top_reference.py differ on name,count,total_us,self_us:"
    diff "$tmp/python.cols" "$tmp/cold.cols" | sed 's/^/    /' | head -20
fi
if cmp -s "$tmp/cold.cols" "$tmp/warm.cols"; then
    verdict 1 "warm output equals cold output"
else
    verdict 0 "warm output differs from cold output"
fi
((quick)) && echo "(--quick: one run on a small profile; the targets are meant for the full run)"
exit 0
