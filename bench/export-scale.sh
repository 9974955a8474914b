#!/usr/bin/env bash
# jaxprof export on many hosts (issue 43, item 6): the committed straggler
# run's 4 files copied under new host names into runs of 64 and 512 hosts,
# exported to Parquet two ways: one process per host file (the fleet's
# way, each with its private index, as contrib/spark/jaxprof_fleet.py runs
# it) and one process for the whole run folder.  CPU time (user + system,
# all processes together), wall time and peak RSS (the largest process),
# from GNU time, medians of --reps runs.  CPU time, not wall, is the
# measure on a shared machine.  Time should grow linearly with the hosts
# and memory stay flat.  See bench/README.md.
#
#   bench/export-scale.sh [--hosts=N,M,...] [--reps=K] [JAXPROF_BINARY]
#
# --hosts   the run sizes (default 64,512); the first is the base
# --reps    runs of each measure, the median kept (default 3)
# JAXPROF_BINARY defaults to $JAXPROF, else ../jaxprof relative to this script.
# Exit status: 0 when the targets hold, 1 when one does not, 2 when something
# could not run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
sizes=64,512
reps=3
jaxprof=
for arg in "$@"; do
    case $arg in
    --hosts=*) sizes=${arg#--hosts=} ;;
    --reps=*) reps=${arg#--reps=} ;;
    -h | --help)
        sed -n '2,18s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    -*) echo "export-scale.sh: unknown option $arg" >&2; exit 2 ;;
    *) jaxprof=$arg ;;
    esac
done
jaxprof=${jaxprof:-${JAXPROF:-$root/jaxprof}}

die() {
    echo "export-scale.sh: $*" >&2
    exit 2
}

[ -x /usr/bin/time ] || die "needs GNU time at /usr/bin/time (apt-get install time)"
[ -x "$jaxprof" ] || die "no jaxprof binary at $jaxprof"
src=$root/testdata/multihost-straggler/plugins/profile/2026_02_01_00_00_00
[ -d "$src" ] || die "no $src"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-export-scale.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
export jaxprof

# measure NAME CMD...: "cpu_s wall_s peak_rss_kb" of CMD appended to $tmp/NAME.
measure() {
    name=$1
    shift
    /usr/bin/time -f '%U %S %e %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
        die "'$*' failed: $(cat "$tmp/$name.err")"
    awk '{ printf "%.2f %.2f %d\n", $1 + $2, $3, $4 }' "$tmp/$name.time" >>"$tmp/$name"
}

# median NAME: the median line of $tmp/NAME (by CPU time).
median() {
    sort -n "$tmp/$1" | sed -n "$(((reps + 1) / 2))p"
}

echo "| hosts | mode | CPU (s) | wall (s) | peak RSS (MB) | CPU ms/host | parts |"
echo "|---:|---|---:|---:|---:|---:|---:|"
declare -A base_cpu base_rss
base_n=
status=0
for n in ${sizes//,/ }; do
    run=$tmp/h$n/plugins/profile/2026_02_01_00_00_00
    mkdir -p "$run"
    for ((i = 0; i < n; i++)); do
        cp "$src/host$((i % 4)).xplane.pb" "$run/$(printf 'host%04d' "$i").xplane.pb"
    done
    for mode in per-file one-process; do
        rm -f "$tmp/$mode"
        for ((k = 0; k < reps; k++)); do
            rm -rf "$tmp/out"
            if [ "$mode" = per-file ]; then
                measure "$mode" sh -c 'for f in "$1"/*.xplane.pb; do
                    "$jaxprof" export -o "$2" "$f" || exit 1; done' sh "$run" "$tmp/out"
            else
                measure "$mode" "$jaxprof" export -o "$tmp/out" "$run"
            fi
        done
        parts=$(find "$tmp/out" -name 'part-*.parquet' | wc -l)
        read -r cpu wall kb <<<"$(median "$mode")"
        awk -v n="$n" -v m="$mode" -v c="$cpu" -v w="$wall" -v k="$kb" -v p="$parts" 'BEGIN {
            printf "| %d | %s | %.2f | %.2f | %.1f | %.1f | %d |\n",
                n, m, c, w, k / 1024, 1000 * c / n, p }'
        if [ -z "$base_n" ] || [ "$base_n" = "$n" ]; then
            base_cpu[$mode]=$cpu base_rss[$mode]=$kb
            continue
        fi
        # Linear: CPU time per host within 1.5x of the base's; flat: peak
        # RSS within 1.5x of the base's plus 8 MB (SQLite's page cache).
        awk -v bn="$base_n" -v bc="${base_cpu[$mode]}" -v br="${base_rss[$mode]}" \
            -v n="$n" -v c="$cpu" -v r="$kb" -v m="$mode" 'BEGIN {
            lin = (c / n) <= 1.5 * (bc / bn)
            flat = r <= 1.5 * br + 8192
            printf "%s, %d hosts against %d: CPU time per host %.2fx (%s); " \
                "peak RSS %.2fx (%s)\n", m, n, bn, (c / n) / (bc / bn),
                lin ? "linear: PASS" : "FAIL", r / br, flat ? "flat: PASS" : "FAIL"
            exit !(lin && flat) }' >>"$tmp/verdicts" || status=1
    done
    [ -n "$base_n" ] || base_n=$n
    rm -rf "$tmp/h$n"
done
echo
cat "$tmp/verdicts" 2>/dev/null
exit $status
