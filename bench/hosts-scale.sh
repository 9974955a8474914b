#!/usr/bin/env bash
# jaxprof hosts on many hosts (issue 43, item 6): the committed straggler
# run's 4 files copied under new host names into runs of 64 and 512 hosts;
# CPU time (user + system) and peak RSS (/usr/bin/time), medians of 3 runs,
# of a cold run (indexing every file, then the report) and a warm one (the
# report from the index).  CPU time, not wall: the machine it was made on
# is shared.  Time should grow linearly with the hosts and memory stay
# flat.  See bench/README.md.
#
#   bench/hosts-scale.sh [--hosts=N,M,...] [JAXPROF_BINARY]
#
# --hosts   the run sizes (default 64,512); the first is the base
# JAXPROF_BINARY defaults to $JAXPROF, else ../jaxprof relative to this script.
# Exit status: 0 when the targets hold, 1 when one does not, 2 when something
# could not run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
sizes=64,512
jaxprof=
for arg in "$@"; do
    case $arg in
    --hosts=*) sizes=${arg#--hosts=} ;;
    -h | --help)
        sed -n '2,13s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    -*) echo "hosts-scale.sh: unknown option $arg" >&2; exit 2 ;;
    *) jaxprof=$arg ;;
    esac
done
jaxprof=${jaxprof:-${JAXPROF:-$root/jaxprof}}

die() {
    echo "hosts-scale.sh: $*" >&2
    exit 2
}

[ -x /usr/bin/time ] || die "needs GNU time at /usr/bin/time (apt-get install time)"
[ -x "$jaxprof" ] || die "no jaxprof binary at $jaxprof"
src=$root/testdata/multihost-straggler/plugins/profile/2026_02_01_00_00_00
[ -d "$src" ] || die "no $src"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-hosts-scale.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# measure NAME CMD...: "cpu_s peak_rss_kb" of CMD into $tmp/NAME.
measure() {
    name=$1
    shift
    /usr/bin/time -f '%U %S %M' -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
        die "'$*' failed: $(cat "$tmp/$name.err")"
    awk '{ printf "%.2f %d\n", $1 + $2, $3 }' "$tmp/$name.time" >>"$tmp/$name"
}

# median NAME: the median line of $tmp/NAME's 3 (by CPU time).
median() {
    sort -n "$tmp/$1" | sed -n 2p
}

echo "| hosts | cold CPU (s) | cold peak RSS (MB) | warm CPU (s) | warm peak RSS (MB) | cold ms/host | warm ms/host | stragglers |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
base_cold= base_warm= base_rss= status=0
for n in ${sizes//,/ }; do
    run=$tmp/h$n/plugins/profile/2026_02_01_00_00_00
    mkdir -p "$run"
    for ((i = 0; i < n; i++)); do
        cp "$src/host$((i % 4)).xplane.pb" "$run/$(printf 'host%04d' "$i").xplane.pb"
    done
    rm -f "$tmp/cold" "$tmp/warm"
    for k in 1 2 3; do
        rm -f "$tmp/h$n.sqlite"
        measure cold "$jaxprof" hosts --format=csv --db="$tmp/h$n.sqlite" "$tmp/h$n"
        measure warm "$jaxprof" hosts --format=csv --db="$tmp/h$n.sqlite" "$tmp/h$n"
    done
    read -r cold cold_kb <<<"$(median cold)"
    read -r warm warm_kb <<<"$(median warm)"
    rows=$(($(grep -c . "$tmp/warm.out") - 1))
    [ "$rows" -eq "$n" ] || die "$n hosts: $rows rows"
    stragglers=$(grep -c ',true,' "$tmp/warm.out")
    awk -v n="$n" -v c="$cold" -v ck="$cold_kb" -v w="$warm" -v wk="$warm_kb" \
        -v s="$stragglers" 'BEGIN {
        printf "| %d | %.2f | %.1f | %.2f | %.1f | %.2f | %.2f | %d |\n",
            n, c, ck / 1024, w, wk / 1024, 1000 * c / n, 1000 * w / n, s }'
    if [ -z "$base_cold" ]; then
        base_n=$n base_cold=$cold base_warm=$warm base_rss=$cold_kb
        continue
    fi
    # Linear: CPU time per host within 1.5x of the base's (warm: plus
    # 1 ms, the resolution of the times); flat: peak RSS within 1.5x of
    # the base's plus 8 MB (SQLite's page cache).
    awk -v bn="$base_n" -v bc="$base_cold" -v bw="$base_warm" -v br="$base_rss" \
        -v n="$n" -v c="$cold" -v w="$warm" -v r="$cold_kb" -v wr="$warm_kb" 'BEGIN {
        lin = (c / n) <= 1.5 * (bc / bn) && (w / n) <= 1.5 * (bw / bn) + 0.001
        flat = r <= 1.5 * br + 8192 && wr <= 1.5 * br + 8192
        printf "%d hosts against %d: time per host %.2fx cold, %.2fx warm (%s); " \
            "peak RSS %.2fx (%s)\n", n, bn, (c / n) / (bc / bn),
            (w / n) / (bw > 0 ? bw / bn : 1), lin ? "linear: PASS" : "FAIL",
            r / br, flat ? "flat: PASS" : "FAIL"
        exit !(lin && flat) }' >>"$tmp/verdicts" || status=1
    rm -rf "$tmp/h$n"
done
echo
cat "$tmp/verdicts" 2>/dev/null
exit $status
