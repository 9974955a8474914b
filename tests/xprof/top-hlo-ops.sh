#!/bin/sh
# Writes xprof's answer for the source lines of the top ops of a profile,
# the golden file tests/cli/t0620-top-hlo-h200.sh compares jaxprof with, so
# that `make check` needs no xprof.  Rerun it when the corpus profile or
# xprof changes:
#
#	pip install xprof
#	tests/xprof/top-hlo-ops.sh ../shared/corpus/h200/no-cmdbuf-warm \
#	    > tests/cli/expect/t0620-top-hlo-h200-xprof-top20.out
#
# Output: "name,source_file:source_line" of xprof get_top_hlo_ops' 20
# top ops by self time (IDLE left out), sorted by name.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LOGDIR" >&2; exit 2; }
. "$(dirname "$0")/lib.sh"
"$XPROF" get_top_hlo_ops --limit=21 "$work/logdir" 2>/dev/null >"$work/top.json"
"$PYTHON" - "$work/top.json" <<'PY'
import json, sys
ops = [o for o in json.load(open(sys.argv[1]))["top_by_time"]
       if o.get("category") != "IDLE"][:20]
rows = []
for o in ops:
    # "by_program/jit_f(1)/custom-call/custom-call.22 [jit(f)/...:]"
    name = o["name"].split(" ")[0].rsplit("/", 1)[-1]
    rows.append("%s,%s:%s" % (name, o["source_file"], o["source_line"]))
print("\n".join(sorted(rows)))
PY
