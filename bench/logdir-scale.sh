#!/usr/bin/env bash
# Indexing a logdir of many GiB (issue 11, item 3): time linear in size,
# every core busy, peak RSS independent of the number of files, an
# interrupted index resuming, warm reports.  See bench/README.md.
#
#   bench/logdir-scale.sh [--gib=N] [--logdir=DIR] [JAXPROF_BINARY]
#
# --gib=N      size of the generated logdir (default 8); hosts of ~87 MB each
# --logdir=DIR generate into DIR and keep it (reused when it is complete)
# JAXPROF_BINARY defaults to $JAXPROF, else ../jaxprof relative to this script.
# Exit status: 0 when everything ran, 2 when something could not run.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
gib=8
logdir=
jaxprof=
for arg in "$@"; do
    case $arg in
    --gib=*) gib=${arg#--gib=} ;;
    --logdir=*) logdir=${arg#--logdir=} ;;
    -h | --help)
        sed -n '2,12s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    -*) echo "logdir-scale.sh: unknown option $arg" >&2; exit 2 ;;
    *) jaxprof=$arg ;;
    esac
done
jaxprof=${jaxprof:-${JAXPROF:-$root/jaxprof}}

die() {
    echo "logdir-scale.sh: $*" >&2
    exit 2
}

[ -x /usr/bin/time ] || die "needs GNU time at /usr/bin/time (apt-get install time)"
[ -x "$jaxprof" ] || die "no jaxprof binary at $jaxprof"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-scale.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
if [ -z "$logdir" ]; then
    logdir=$tmp/logdir
fi
ncpu=$(nproc)

# --- the logdir: hosts of one generated profile each -------------------------

cc -O2 -o "$tmp/gen-xplane" "$root/tests/gen-xplane.c" -lz ||
    die "cannot build tests/gen-xplane.c"
gen="--devices=8 --steps=20 --ops=200 --repeat=116"
"$tmp/gen-xplane" $gen "$tmp/one" >/dev/null || die "gen-xplane failed"
host_bytes=$(stat -c %s "$tmp"/one/plugins/profile/*/host0.xplane.pb)
hosts=$(((gib * 1024 * 1024 * 1024 + host_bytes - 1) / host_bytes))
rm -rf "$tmp/one"
rundir=$(echo "$logdir"/plugins/profile/*/)
if [ "$(ls "$rundir" 2>/dev/null | wc -l)" -ne "$hosts" ]; then
    echo "generating $hosts hosts of $((host_bytes / 1048576)) MB in $logdir ..."
    rm -rf "$logdir"
    "$tmp/gen-xplane" --hosts="$hosts" $gen "$logdir" >/dev/null ||
        die "gen-xplane failed"
    rundir=$(echo "$logdir"/plugins/profile/*/)
fi
total_bytes=$(du -sb "$logdir" | cut -f1)

# part N: a logdir of the first N hosts (hard links: no copy).
part() {
    local d=$tmp/part$1 run
    run=$d/plugins/profile/$(basename "$rundir")
    rm -rf "$d"
    mkdir -p "$run"
    ls "$rundir" | sort -V | head -n "$1" | while read -r f; do
        ln "$rundir/$f" "$run/$f" 2>/dev/null || cp "$rundir/$f" "$run/$f"
    done
    echo "$d"
}

# timed NAME CMD...: runs CMD; appends "wall_s cpu_s peak_rss_kb" to $tmp/NAME.
timed() {
    local name=$1 t0 t1
    shift
    t0=$(date +%s%N)
    /usr/bin/time -f '%U %S %M' -o "$tmp/time.txt" "$@" >/dev/null 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; die "failed: $*"; }
    t1=$(date +%s%N)
    awk -v ns=$((t1 - t0)) '{ printf "%.3f %.2f %d\n", ns / 1e9, $1 + $2, $3 }' \
        "$tmp/time.txt" >>"$tmp/$name"
}

# --- cold index of a quarter, half and all of the hosts ------------------------

echo
echo "logdir: $hosts hosts, $(awk -v b="$total_bytes" 'BEGIN { printf "%.2f GiB", b / 2^30 }'), $ncpu CPUs"
echo
echo "| hosts | GiB | wall (s) | CPU (s) | CPU / wall | s per GiB | peak RSS (MB) |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for n in $((hosts / 4)) $((hosts / 2)) "$hosts"; do
    d=$(part "$n")
    bytes=$(du -sbL "$d" | cut -f1)
    cat "$d"/plugins/profile/*/* >/dev/null # the page cache holds what it can
    rm -f "$tmp/db"*
    timed "cold$n" "$jaxprof" index --db="$tmp/db" "$d"
    read -r wall cpu kb <"$tmp/cold$n"
    awk -v n="$n" -v b="$bytes" -v w="$wall" -v c="$cpu" -v kb="$kb" 'BEGIN {
        g = b / 2^30
        printf "| %d | %.2f | %.1f | %.1f | %.2f | %.2f | %.1f |\n",
            n, g, w, c, c / w, w / g, kb / 1024 }'
    [ "$n" = "$hosts" ] || rm -rf "$d"
done
full=$tmp/part$hosts

# --- the limit: a bare walk of every file, all cores ---------------------------

if [ -f "$here/xspace-walk.c" ] && cc -O2 -o "$tmp/walk" "$here/xspace-walk.c" -lz 2>/dev/null; then
    t0=$(date +%s%N)
    ls "$rundir" | sed "s|^|$rundir|" | xargs -P "$ncpu" -n 1 "$tmp/walk" >/dev/null ||
        die "xspace-walk failed"
    t1=$(date +%s%N)
    walk_s=$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.1f", ns / 1e9 }')
    read -r wall cpu kb <"$tmp/cold$hosts"
    echo
    echo "bare walks of every file on $ncpu CPUs (bench/xspace-walk.c): $walk_s s;" \
        "jaxprof index / walks: $(awk -v a="$wall" -v b="$walk_s" 'BEGIN { printf "%.1fx", a / b }')"
fi

# --- interrupted, then resumed --------------------------------------------------

read -r wall cpu kb <"$tmp/cold$hosts"
rm -f "$tmp/db"*
"$jaxprof" index --db="$tmp/db" "$full" >/dev/null 2>&1 &
pid=$!
sleep "$(awk -v w="$wall" 'BEGIN { print w / 2 }')"
kill -TERM "$pid" 2>/dev/null
wait "$pid" 2>/dev/null || :
# Counted without jaxprof, whose refresh would finish the job; opened for
# writing, so that a new index's rollback journal is played back first.
stored=$(python3 -c 'import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=rw", uri=True)
print(db.execute("SELECT count(*) FROM files").fetchone()[0])' "$tmp/db" 2>/dev/null || echo 0)
timed resume "$jaxprof" index --db="$tmp/db" "$full"
read -r rwall rcpu rkb <"$tmp/resume"
echo
echo "killed (SIGTERM) after $(awk -v w="$wall" 'BEGIN { printf "%.1f", w / 2 }') s;" \
    "the rerun took $rwall s (a full index: $wall s), peak RSS $((rkb / 1024)) MB"

# --- warm reports ------------------------------------------------------------------

echo
# The very first report after indexing, then the median of 3 more.
echo "| report | very first after indexing (ms) | warm, median of 3 (ms) |"
echo "|---|---:|---:|"
slow=0
for report in "top -n 20" "top --group=category" "steps --summary" "steps" \
    "compile" "transfers" "idle" "list"; do
    # shellcheck disable=SC2086
    timed "very$report" "$jaxprof" $report --db="$tmp/db" "$full"
    for i in 1 2 3; do
        # shellcheck disable=SC2086
        timed "warm$report" "$jaxprof" $report --db="$tmp/db" "$full"
    done
    very=$(awk '{ print $1 * 1000 }' "$tmp/very$report")
    warm=$(awk '{ print $1 * 1000 }' "$tmp/warm$report" | sort -g | sed -n 2p)
    awk -v r="$report" -v v="$very" -v w="$warm" \
        'BEGIN { printf "| %s | %.0f | %.0f |\n", r, v, w }'
    awk -v w="$warm" 'BEGIN { exit !(w >= 50) }' && slow=1
done

# --- verdicts ---------------------------------------------------------------------

verdict() { if [ "$1" = 1 ]; then echo "PASS  $2"; else echo "FAIL  $2"; fi; }
echo
q=$((hosts / 4))
read -r qwall qcpu qkb <"$tmp/cold$q"
read -r wall cpu kb <"$tmp/cold$hosts"
verdict "$(awk -v a="$qwall" -v b="$wall" -v q="$q" -v h="$hosts" \
    'BEGIN { r = (b / h) / (a / q); print (r < 1.25 && r > 0.8) }')" \
    "time linear in size (s per host at all hosts within 25% of a quarter's)"
verdict "$(awk -v c="$cpu" -v w="$wall" -v n="$ncpu" 'BEGIN { print (c / w >= 0.8 * n) }')" \
    "every core busy (CPU / wall >= 0.8 x $ncpu)"
verdict "$(awk -v a="$qkb" -v b="$kb" 'BEGIN { print (b <= 1.25 * a + 8192) }')" \
    "peak RSS independent of the number of files ($((qkb / 1024)) MB at $q hosts, $((kb / 1024)) MB at $hosts)"
verdict "$(awk -v s="$stored" -v h="$hosts" -v r="$rwall" -v w="$wall" \
    'BEGIN { print (s > 0 && s < h && r < 0.8 * w) }')" \
    "an interrupted index resumes ($stored of $hosts hosts kept)"
verdict "$((1 - slow))" "warm reports (median of 3) < 50 ms"
exit 0
