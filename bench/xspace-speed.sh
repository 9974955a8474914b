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
export LC_ALL=C # EPOCHREALTIME and awk with a '.' decimal point

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
    target_mb=64 reps=5
fi
max_ratio=1.5 max_anon=0.1

die() {
    echo "xspace-speed.sh: $*" >&2
    exit 2
}

[ -x /usr/bin/time ] && /usr/bin/time -f '%e' true 2>/dev/null ||
    die "needs GNU time at /usr/bin/time (Debian/Ubuntu: apt-get install time)"
[ -n "${EPOCHREALTIME:-}" ] || die "needs bash 5 or later (EPOCHREALTIME)"
command -v taskset >/dev/null || die "needs taskset (util-linux)"
[ -x "$jaxprof" ] || die "no jaxprof binary at $jaxprof (build it, or pass its path)"
cores=$(nproc) || die "nproc failed"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-xspeed.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

cc -O2 -o "$tmp/xspace-walk" "$here/xspace-walk.c" || die "cannot build bench/xspace-walk.c"
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

# timed NAME CMD...: one run's wall seconds, appended to $tmp/NAME, from
# bash's microsecond clock around the command alone: a wrapper such as
# GNU time (whose %e has 10 ms steps) would add its own exec to both
# sides, a millisecond or more that makes small files look closer.
timed() {
    local name=$1 t0 t1
    shift
    rm -f "$tmp/db"*
    t0=$EPOCHREALTIME
    "$@" >/dev/null 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        die "run failed: $*"
    }
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }' >>"$tmp/$name"
}

# usage CMD...: "cpu_s peak_rss_kb" of one more run, by GNU time.
usage() {
    rm -f "$tmp/db"*
    /usr/bin/time -f '%U %S %M' -o "$tmp/time.txt" "$@" >/dev/null 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        die "run failed: $*"
    }
    awk '{ printf "%.3f %s\n", $1 + $2, $3 }' "$tmp/time.txt"
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
    read -r all_cpu all_kb < <(usage "$jaxprof" "${top[@]}" "$f")
    walk_s=$(median "$tmp/walk" 1) walk1_s=$(median "$tmp/walk1" 1)
    one_s=$(median "$tmp/one" 1) all_s=$(median "$tmp/all" 1)
    awk -v n="$name" -v b="$fsize" -v w="$walk_s" -v w1="$walk1_s" -v o="$one_s" -v a="$all_s" \
        -v cpu="$all_cpu" -v kb="$all_kb" -v an="$anon" -v c="$cores" 'BEGIN {
        mb = b / 1048576
        printf "| %s | %.1f | %.3f | %.0f | %.3f | %.3f | %.2f | %.1f | %.0f | %.3f (%.3f CPU) | %.2f | %.0f | %.1f | %.2f | %.3f |\n",
            n, mb, w, mb / w, w1, o, o / w1, (o - w1) * 1000, mb / o, a, cpu, a / w, mb / a / c,
            kb / 1024, an / 1024, an * 1024 / b
    }' >>"$rows"
    awk -v n="$name" -v w="$walk_s" -v w1="$walk1_s" -v o="$one_s" -v a="$all_s" -v r="$max_ratio" 'BEGIN {
        printf "%s  %s: 1 thread %.2fx the walk (<= %s)\n", (o <= r * w1 ? "PASS" : "FAIL"), n, o / w1, r
        printf "%s  %s: all cores %.2fx the walk (<= %s)\n", (a <= r * w ? "PASS" : "FAIL"), n, a / w, r
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
echo "Wall time of each command alone (bash's clock); its CPU time and peak RSS"
echo "from one more run under GNU time."
echo "MB/s per core: file MB / wall s / cores used (1, or $cores).  On one CPU"
echo "(taskset -c 0) the walk is timed under taskset too; + ms is what jaxprof"
echo "takes beyond it.  A process that only starts and exits takes" \
    "$(median "$tmp/floor" 1 | awk '{ printf "%.2f ms", $1 * 1000 }') here."
echo
echo "| profile | MB | walk s | walk MB/s | walk on 1 CPU s | 1 thread s | ratio | + ms | MB/s/core | all cores s | ratio | MB/s/core | peak RSS MB | peak anon MB | anon / file |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
cat "$rows"
echo
cat "$verdicts"
((quick)) && echo "(--quick: one run on a small profile; the targets are meant for the full run)"
exit 0
