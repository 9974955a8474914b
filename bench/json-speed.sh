#!/usr/bin/env bash
# Cold `jaxprof top` on a ~100 MB Chrome trace JSON against the limits it
# is held to: zcat of the .json.gz, and cat + a bare tokenizer pass
# (bench/json-walk.c: yajl, as jaxprof used it, is the limit; json-lex,
# the tokenizer jaxprof uses now, is shown beside it) of the .json;
# Python's json.load for scale.  Prints a markdown table and PASS/FAIL
# against the 2x targets.  See bench/README.md.
#
#   bench/json-speed.sh [--quick] [--mb=N] [--also=FILE.json.gz]... [JAXPROF_BINARY]
#
# The trace is bench/make-big-trace.py tiling a JAX perfetto_trace.json.gz
# of ../shared/corpus/h200 (else one `jaxprof extract --to=chrome` writes
# from a gen-xplane profile) to N MB (default 100).  --also measures a
# trace JSON of your own as well (e.g. one a GPU wrote).
# Exit status: 0 when everything ran (met or not), 2 when something could
# not be built or run.

set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

quick=0 mb=100 jaxprof= also=()
for arg in "$@"; do
    case $arg in
    --quick) quick=1 mb=8 ;;
    --mb=*) mb=${arg#--mb=} ;;
    --also=*) also+=("${arg#--also=}") ;;
    -h | --help) sed -n '2,16s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) echo "json-speed.sh: unknown option $arg" >&2; exit 2 ;;
    *) jaxprof=$arg ;;
    esac
done
jaxprof=${jaxprof:-${JAXPROF:-$root/jaxprof}}
python=${PYTHON:-python3}
reps=3
((quick)) && reps=1
corpus=${CORPUS:-$(dirname "$root")/shared/corpus}

die() { echo "json-speed.sh: $*" >&2; exit 2; }

[ -x /usr/bin/time ] || die "needs GNU time at /usr/bin/time"
[ -x "$jaxprof" ] || die "no jaxprof binary at $jaxprof (build it, or pass its path)"
command -v "$python" >/dev/null || die "no Python interpreter '$python' (set PYTHON)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jaxprof-json-speed.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# json-lex.c and what it uses, outside the build tree: an empty config.h.
: >"$tmp/config.h"
# shellcheck disable=SC2046 # pkg-config prints several flags
cc -O2 -I"$tmp" -I"$root/src" -o "$tmp/json-walk" "$here/json-walk.c" "$root/src/read/json-lex.c" \
    "$root/src/lib/xmalloc.c" "$root/src/lib/err.c" $(pkg-config --cflags --libs yajl 2>/dev/null || echo -lyajl) ||
    die "cannot build bench/json-walk.c (needs libyajl-dev)"

# --- the trace ------------------------------------------------------------------

src=$(find "$corpus/h200" -name perfetto_trace.json.gz 2>/dev/null | sort | tail -n 1)
if [ -z "$src" ]; then
    cc -O2 -o "$tmp/gen-xplane" "$root/tests/gen-xplane.c" -lz || die "cannot build tests/gen-xplane.c"
    "$tmp/gen-xplane" --devices=1 --steps=10 --ops=200 "$tmp/prof" >/dev/null || die "gen-xplane failed"
    src=$tmp/gen.trace.json.gz
    "$jaxprof" extract --to=chrome -o "$src" \
        "$(find "$tmp/prof" -name '*.xplane.pb' | head -n 1)" || die "extract --to=chrome failed"
fi
"$python" "$here/make-big-trace.py" --mb="$mb" "$src" "$tmp/big.json" || die "make-big-trace.py failed"
gzip -6 -c "$tmp/big.json" >"$tmp/big.json.gz" || die "gzip failed"
echo "source: $src"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs"

# --- timed runs -------------------------------------------------------------------

# measure NAME CMD...: appends "wall_s peak_rss_kb cpu_s" of one run to
# NAME.times (wall from a ns clock, as %e has only 10 ms; CPU is user +
# system of every process and thread, which a busy machine disturbs less).
measure() {
    local name=$1 t0 t1
    shift
    rm -f "$tmp"/db*
    t0=$(date +%s%N)
    /usr/bin/time -f '%M %U %S' -o "$tmp/time.txt" "$@" >/dev/null 2>"$tmp/err" || {
        cat "$tmp/err" >&2
        die "$name failed: $*"
    }
    t1=$(date +%s%N)
    tail -n 1 "$tmp/time.txt" |
        awk -v ns=$((t1 - t0)) '{ printf "%.6f %s %.2f\n", ns / 1e9, $1, $2 + $3 }' >>"$tmp/$name.times"
}

median() {
    awk -v c="$1" '{ print $c }' "$tmp/$2.times" | sort -g |
        awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# table LABEL GZ PLAIN: the runs and the table for one trace.
table() {
    local label=$1 gz=$2 plain=$3 i
    rm -f "$tmp"/*.times
    cat "$gz" "$plain" >/dev/null # a warm page cache for every run
    for ((i = 1; i <= reps; i++)); do
        measure zcat sh -c 'exec zcat "$1" >/dev/null' sh "$gz"
        measure jgz "$jaxprof" top --db="$tmp/db" -n 20 --format=csv "$gz"
        measure walk sh -c 'cat "$1" | "$2"' sh "$plain" "$tmp/json-walk"
        measure lexwalk sh -c 'cat "$1" | "$2" --lex' sh "$plain" "$tmp/json-walk"
        measure jplain "$jaxprof" top --db="$tmp/db" -n 20 --format=csv "$plain"
        measure zwalk sh -c 'zcat "$1" | "$2"' sh "$gz" "$tmp/json-walk"
        measure pyload "$python" -c 'import json, sys; json.load(open(sys.argv[1], "rb"))' "$plain"
    done
    local size
    size=$(stat -c %s "$plain")
    echo
    echo "### $label: $(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }') MB JSON," \
        "$(awk -v b="$(stat -c %s "$gz")" 'BEGIN { printf "%.1f", b / 1048576 }') MB gzip; medians of $reps alternated runs"
    echo
    echo "| command | wall (s) | CPU (s) | peak RSS (MB) |"
    echo "|---|---:|---:|---:|"
    row() { awk -v n="$1" -v s="$(median 1 "$2")" -v kb="$(median 2 "$2")" -v c="$(median 3 "$2")" \
        'BEGIN { printf "| %s | %.3f | %.2f | %.1f |\n", n, s, c, kb / 1024 }'; }
    row "zcat FILE.json.gz >/dev/null" zcat
    row "cat FILE.json \\| json-walk (yajl)" walk
    row "cat FILE.json \\| json-walk --lex (json-lex)" lexwalk
    row "zcat FILE.json.gz \\| json-walk" zwalk
    row "Python json.load(FILE.json)" pyload
    row "jaxprof top, cold, FILE.json.gz" jgz
    row "jaxprof top, cold, FILE.json" jplain
    echo
    awk -v g="$(median 1 jgz)" -v z="$(median 1 zcat)" -v p="$(median 1 jplain)" \
        -v w="$(median 1 walk)" -v l="$(median 1 lexwalk)" -v y="$(median 1 pyload)" 'BEGIN {
        printf "%s  jaxprof .json.gz / zcat: %.2fx (target <= 2x)\n", (g <= 2 * z ? "PASS" : "FAIL"), g / z
        printf "%s  jaxprof .json / (cat + json-walk yajl): %.2fx (target <= 2x)\n", (p <= 2 * w ? "PASS" : "FAIL"), p / w
        printf "      jaxprof .json / (cat + json-walk --lex): %.2fx (its own tokenizer alone)\n", p / l
        printf "      Python json.load / jaxprof .json: %.1fx\n", y / p
    }'
    awk -v g="$(median 3 jgz)" -v z="$(median 3 zcat)" -v p="$(median 3 jplain)" -v w="$(median 3 walk)" \
        'BEGIN { printf "      CPU time: .json.gz / zcat %.2fx, .json / (cat + json-walk) %.2fx\n", g / z, p / w }'
}

table "tiled $(basename "$src")" "$tmp/big.json.gz" "$tmp/big.json"
for f in ${also[@]+"${also[@]}"}; do
    [ -f "$f" ] || die "no file $f"
    gzip -dc "$f" >"$tmp/also.json" || die "cannot gunzip $f"
    table "$(basename "$f")" "$f" "$tmp/also.json"
done
((quick)) && echo "(--quick: one run of a small trace; the targets are meant for the full run)"
exit 0
