#!/usr/bin/env bash
# Cold `jaxprof top` on XSpace profiles against the bare wire walk
# (bench/xspace-walk.c), single-threaded and with all cores, and its peak
# anonymous memory.  See bench/README.md.
#
#   bench/xspace-speed.sh [--quick] [JAXPROF_BINARY]
#
# JAXPROF_BINARY defaults to $JAXPROF, else ../jaxprof relative to this
# script.  Besides the generated bench profile it measures every
# *.xplane.pb under $CORPUS (default ../shared/corpus next to the tree)
# and, without --quick, each of those tiled in time to some 32 MB
# (bench/tile-xspace.py, run by $PYTHON, which needs protobuf).
# Exit status: 0 when everything ran (whether or not the targets were
# met), 2 when something could not be built or run.

set -u
export LC_ALL=C # awk reads and writes a '.' decimal point

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

quick=0
jaxprof=
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    -h | --help)
        sed -n '2,12s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    -*) echo "xspace-speed.sh: unknown option $arg" >&2; exit 2 ;;
    *) jaxprof=$arg ;;
    esac
done
jaxprof=${jaxprof:-${JAXPROF:-$root/jaxprof}}
corpus=${CORPUS:-$(dirname "$root")/shared/corpus}
if ((quick)); then
    target_mb=4 reps=1
else
    target_mb=64 reps=7
fi
max_ratio=1.5 max_anon=0.1

die() {
    echo "xspace-speed.sh: $*" >&2
    exit 2
}

command -v taskset >/dev/null || die "needs taskset (util-linux)"
[ -x "$jaxprof" ] || die "no jaxprof binary at $jaxprof (build it, or pass its path)"
cores=$(nproc) || die "nproc failed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-xspeed.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

cc -O2 -o "$tmp/xspace-walk" "$here/xspace-walk.c" || die "cannot build bench/xspace-walk.c"
cc -O2 -o "$tmp/runtime" "$here/runtime.c" || die "cannot build bench/runtime.c"
cc -O2 -o "$tmp/gen-xplane" "$root/tests/gen-xplane.c" -lz ||
    die "cannot build tests/gen-xplane.c"
# The floor under every run: a process that only starts and exits.
echo 'int main(void) { return 0; }' | cc -O2 -x c -o "$tmp/empty-program" - ||
    die "cannot build an empty C program"

# The bench profile, as bench/run.sh makes it: --repeat scaled up until
# the file reaches target_mb.
repeat=1
target=$((target_mb * 1024 * 1024))
for attempt in 1 2 3 4 5; do
    rm -rf "$tmp/prof"
    "$tmp/gen-xplane" --devices=8 --steps=20 --ops=200 --repeat=$repeat "$tmp/prof" ||
        die "gen-xplane failed"
    bench=$tmp/prof/plugins/profile/2026_01_01_00_00_00/host0.xplane.pb
    size=$(stat -c %s "$bench") || die "gen-xplane did not write $bench"
    ((size >= target)) && break
    ((size > 0)) || die "gen-xplane wrote an empty profile"
    repeat=$(((repeat * target * 11 / 10 + size - 1) / size))
done
((size >= target)) || die "profile is only $size bytes after $attempt attempts"
echo "bench profile: gen-xplane --devices=8 --steps=20 --ops=200 --repeat=$repeat ($size bytes)"

profiles=("$bench")
found=()
if [ -d "$corpus" ]; then
    mapfile -t found < <(find -L "$corpus" -name '*.xplane.pb' | sort)
    profiles+=("${found[@]}")
fi

# Large real profiles: each corpus file's events repeated in time by
# tile-xspace.py (which needs $PYTHON with protobuf) until it is some
# tiled_mb MB.  The corpus files are small; these show the rate at which
# each kind of real profile is read once the fixed costs are spread thin.
tiled_mb=32 max_times=256
declare -A tiled_label=()
# ops FILE: the count of every op top finds in FILE.
ops() {
    rm -f "$tmp/db"*
    "$jaxprof" top --db="$tmp/db" -n 0 --format=csv "$1" |
        awk -F, 'NR > 1 { n += $5 } END { print n + 0 }'
}
if ((!quick)); then
    for f in "${found[@]}"; do
        fsize=$(stat -L -c %s "$f")
        times=$(((tiled_mb * 1048576 + fsize - 1) / fsize))
        ((times > max_times)) && times=$max_times
        ((times >= 2)) || continue
        out=$tmp/tiled-${#tiled_label[@]}.xplane.pb
        if ! "${PYTHON:-python3}" "$here/tile-xspace.py" --times="$times" "$f" "$out"; then
            echo "xspace-speed.sh: no tiled profiles (tile-xspace.py failed); measuring without them" >&2
            break
        fi
        # Timed only if read as what it is: times the source's ops.
        [ "$(ops "$out")" -eq $(($(ops "$f") * times)) ] ||
            die "jaxprof top does not count $times times the ops of $f in its tiling"
        tiled_label[$out]="${f#"$corpus"/} x$times (tile-xspace.py)"
        profiles+=("$out")
    done
fi

# timed NAME CMD...: one run; appends "wall_s cpu_s peak_rss_kb" to
# $tmp/NAME (bench/runtime.c: microseconds, and no wrapper's exec in the
# time; GNU time's 10 ms steps and its own exec made small files look
# closer to the walk than they are).
timed() {
    local name=$1
    shift
    rm -f "$tmp/db"*
    "$tmp/runtime" -o "$tmp/$name" "$@" >/dev/null 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        die "run failed: $*"
    }
}

# peak_anon CMD...: the largest RssAnon (KB) seen while CMD runs, polled
# from /proc (an untimed run: the polling costs a core).  File pages of
# the mmapped profile are not anonymous, so they do not count.
peak_anon() {
    local pid peak=0 kb
    rm -f "$tmp/db"*
    "$@" >/dev/null 2>&1 &
    pid=$!
    while kb=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) &&
        [ -n "$kb" ]; do
        ((kb > peak)) && peak=$kb
    done
    wait "$pid" || die "run failed: $*"
    echo "$peak"
}

# median FILE COLUMN
median() {
    awk -v c="$2" '{ print $c }' "$1" | sort -g |
        awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# paired_ratio FILE_A FILE_B COLUMN: the median over runs of B / A, each
# run of B against the run of A just before it: a busy neighbour slows
# both alike, where a ratio of medians would mix calm runs and busy ones.
paired_ratio() {
    paste -d ' ' "$1" "$2" | awk -v c="$3" '{ print $(c + 3) / $c }' |
        sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

top=(top --db="$tmp/db" -n 20 --format=csv)
rows=$tmp/rows
verdicts=$tmp/verdicts
: >"$rows"
: >"$verdicts"
for f in "${profiles[@]}"; do
    fsize=$(stat -L -c %s "$f")
    name=${f#"$corpus"/}
    [ "$f" = "$bench" ] && name="bench (gen-xplane)"
    [ -n "${tiled_label[$f]:-}" ] && name=${tiled_label[$f]}
    cat "$f" >/dev/null # every run sees a warm page cache
    rm -f "$tmp/walk" "$tmp/walk1" "$tmp/one" "$tmp/all"
    # One CPU is taskset's: the walk runs under it too, so that both
    # sides pay for its exec (about a millisecond on a small VM).
    for ((i = 1; i <= reps; i++)); do
        timed walk "$tmp/xspace-walk" "$f"
        timed walk1 taskset -c 0 "$tmp/xspace-walk" "$f"
        timed one taskset -c 0 "$jaxprof" "${top[@]}" "$f"
        timed all "$jaxprof" "${top[@]}" "$f"
        timed floor "$tmp/empty-program"
    done
    anon=$(peak_anon "$jaxprof" "${top[@]}" "$f")
    walk_s=$(median "$tmp/walk" 1) walk1_s=$(median "$tmp/walk1" 1)
    one_s=$(median "$tmp/one" 1) all_s=$(median "$tmp/all" 1)
    all_cpu=$(median "$tmp/all" 2) all_kb=$(median "$tmp/all" 3)
    one_r=$(paired_ratio "$tmp/walk1" "$tmp/one" 1)
    one_cpu_r=$(paired_ratio "$tmp/walk1" "$tmp/one" 2)
    all_r=$(paired_ratio "$tmp/walk" "$tmp/all" 1)
    awk -v n="$name" -v b="$fsize" -v w="$walk_s" -v w1="$walk1_s" -v o="$one_s" -v a="$all_s" \
        -v r1="$one_r" -v rc1="$one_cpu_r" -v ra="$all_r" \
        -v cpu="$all_cpu" -v kb="$all_kb" -v an="$anon" -v c="$cores" 'BEGIN {
        mb = b / 1048576
        printf "| %s | %.1f | %.4f | %.0f | %.4f | %.4f | %.2f | %.2f | %.1f | %.0f | %.4f (%.4f CPU) | %.2f | %.0f | %.1f | %.2f | %.3f |\n",
            n, mb, w, mb / w, w1, o, r1, rc1, (o - w1) * 1000, mb / o, a, cpu, ra, mb / a / c,
            kb / 1024, an / 1024, an * 1024 / b
    }' >>"$rows"
    awk -v n="$name" -v r1="$one_r" -v ra="$all_r" -v r="$max_ratio" 'BEGIN {
        printf "%s  %s: 1 thread %.2fx the walk (<= %s)\n", (r1 <= r ? "PASS" : "FAIL"), n, r1, r
        printf "%s  %s: all cores %.2fx the walk (<= %s)\n", (ra <= r ? "PASS" : "FAIL"), n, ra, r
    }' >>"$verdicts"
    if [ "$f" = "$bench" ]; then
        awk -v an="$anon" -v b="$fsize" -v m="$max_anon" 'BEGIN {
            x = an * 1024 / b
            printf "%s  bench: peak anonymous memory %.3fx the file (<= %s)\n", (x <= m ? "PASS" : "FAIL"), x, m
        }' >>"$verdicts"
    fi
done

echo
echo "Cold \`jaxprof top\` (fresh index db) against the bare walk; medians of $reps; $cores cores."
echo "Wall time, CPU time and peak RSS of each command by bench/runtime.c.  A"
echo "ratio is the median over runs of jaxprof's time over the walk's in the"
echo "run just before it (wall time; CPU ratio: user + system time)."
echo "MB/s per core: file MB / wall s / cores used (1, or $cores).  On one CPU"
echo "(taskset -c 0) the walk is timed under taskset too; + ms is what jaxprof"
echo "takes beyond it.  A process that only starts and exits takes" \
    "$(median "$tmp/floor" 1 | awk '{ printf "%.2f ms", $1 * 1000 }') here."
echo
echo "| profile | MB | walk s | walk MB/s | walk on 1 CPU s | 1 thread s | ratio | CPU ratio | + ms | MB/s/core | all cores s | ratio | MB/s/core | peak RSS MB | peak anon MB | anon / file |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
cat "$rows"
echo
cat "$verdicts"
((quick)) && echo "(--quick: one run on a small profile; the targets are meant for the full run)"
exit 0
