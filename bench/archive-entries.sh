#!/usr/bin/env bash
# Many small profiles in one archive (issue 12, class 7): jaxprof list,
# cold and warm, on a .tar.gz of 10,000 and of 40,000 tiny XSpace entries,
# side by side with `tar -tzf` listing the same archive (the limit: reading
# its headers).  Time per entry should not grow with their number.
#
#   bench/archive-entries.sh [--quick] [JAXPROF_BINARY]
#
# Exit status: 0 when everything ran, 2 when something could not run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
sizes="10000 40000"
jaxprof=
for arg in "$@"; do
    case $arg in
    --quick) sizes="1000 4000" ;;
    -h | --help)
        sed -n '2,9s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    -*) echo "archive-entries.sh: unknown option $arg" >&2; exit 2 ;;
    *) jaxprof=$arg ;;
    esac
done
jaxprof=${jaxprof:-${JAXPROF:-$root/jaxprof}}
die() {
    echo "archive-entries.sh: $*" >&2
    exit 2
}
[ -x "$jaxprof" ] || die "no jaxprof binary at $jaxprof"
[ -x /usr/bin/time ] || die "needs GNU time at /usr/bin/time"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-entries.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# seconds CMD...: wall seconds of CMD (stdout discarded), peak RSS in $tmp/kb.
seconds() {
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$tmp/kb" "$@" >/dev/null 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; die "failed: $*"; }
    t1=$(date +%s%N)
    awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f", ns / 1e9 }'
}

echo "| entries | tar -tzf (s) | jaxprof list, cold (s) | warm (s) | cold / tar | µs per entry, cold | peak RSS (MB) |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
    d=$tmp/a$n/plugins/profile/r
    mkdir -p "$d"
    # One hostname each: the smallest XSpace jaxprof reads as a profile.
    i=0
    while [ $i -lt "$n" ]; do
        printf '\042\001h' >"$d/h$i.xplane.pb"
        i=$((i + 1))
    done
    (cd "$tmp/a$n" && tar -czf "$tmp/a$n.tar.gz" plugins) || die "tar failed"
    rm -rf "$tmp/a$n"
    tar_s=$(seconds tar -tzf "$tmp/a$n.tar.gz")
    rm -f "$tmp/db"*
    cold_s=$(seconds "$jaxprof" list --db="$tmp/db" "$tmp/a$n.tar.gz")
    kb=$(cat "$tmp/kb")
    warm_s=$(seconds "$jaxprof" list --db="$tmp/db" "$tmp/a$n.tar.gz")
    awk -v n="$n" -v t="$tar_s" -v c="$cold_s" -v w="$warm_s" -v kb="$kb" 'BEGIN {
        printf "| %d | %.3f | %.3f | %.3f | %.0fx | %.0f | %.1f |\n",
            n, t, c, w, c / t, c / n * 1e6, kb / 1024 }'
done
exit 0
