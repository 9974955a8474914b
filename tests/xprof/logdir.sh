# Sourced by the scripts here: checks their one LOGDIR argument and copies
# it to $work/logdir, removed at exit (xprof writes caches beside a
# profile).
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LOGDIR" >&2; exit 2; }
XPROF=${XPROF:-xprof}
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$1" "$work/logdir"
chmod -R u+w "$work/logdir"
