# Sourced by the scripts here, with the profile as $1: $XPROF, $PYTHON, and
# a writable copy of it in $work/logdir, as xprof writes caches beside a
# profile (a single .xplane.pb becomes a run of its own there).
XPROF=${XPROF:-xprof}
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -f "$1" ]; then
	mkdir -p "$work/logdir/plugins/profile/run"
	cp "$1" "$work/logdir/plugins/profile/run/"
else
	cp -R "$1" "$work/logdir"
fi
chmod -R u+w "$work/logdir"
