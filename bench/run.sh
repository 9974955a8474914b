#!/usr/bin/env bash
# Every benchmark of bench/, one after the other, each side by side with
# its peer or limit (see bench/README.md):
#
#   top-python.sh   jaxprof top vs. a Python protobuf script and, where
#                   installed, xprof's converter (64 MB XSpace)
#   xspace-speed.sh jaxprof vs. a bare wire walk (bench profile, corpus)
#   json-speed.sh   trace JSON vs. zcat, cat + a bare tokenizer, json.load
#   logdir-scale.sh indexing a logdir of 8 GiB: linear, all cores, flat
#                   memory, resuming, warm reports
#   archive-entries.sh  40,000 tiny profiles in one .tar.gz vs. tar -tzf
#   scale.sh        time per item at 1k, 10k, 100k planes, lines, events,
#                   JSON processes; memory against empty lines
#
#   bench/run.sh [--quick] [JAXPROF_BINARY]
#
# --quick runs each on small inputs (a smoke test, not the targets).
# PYTHON (protobuf) and XPROF_PYTHON (xprof) choose the interpreters.
# Exit status: 0 when every benchmark ran, 2 when one could not.

set -u

here=$(cd "$(dirname "$0")" && pwd)
quick=
args=()
for arg in "$@"; do
    case $arg in
    --quick) quick=--quick ;;
    -h | --help)
        sed -n '2,19s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    *) args+=("$arg") ;;
    esac
done

echo "# jaxprof benchmarks, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 2^20 }' /proc/meminfo)," \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
status=0
for b in top-python xspace-speed json-speed logdir-scale archive-entries \
    scale; do
    echo
    echo "## $b"
    echo
    opts=$quick
    [ "$b" = logdir-scale ] && [ -n "$quick" ] && opts=--gib=1
    # shellcheck disable=SC2086
    "$here/$b.sh" $opts "${args[@]}" || status=2
done
exit $status
