#!/bin/sh
# The fleet recipe, for real: contrib/spark/jaxprof_fleet.py in Spark's
# local mode and contrib/duckdb/ on the committed multi-host profiles
# answer what jaxprof answers on one machine: the straggler table equals
# `jaxprof hosts --format=json` (all but its evidence), the top ops equal
# `jaxprof top --format=json` summed over the hosts.  Skipped, saying so,
# without PySpark (and Java) or DuckDB.
. "$(dirname "$0")/lib.sh"

python_has json || skip "'$PYTHON' cannot import json"

# same_rows GOT.json WANT.json KEY...: every object of GOT has the values
# of WANT's object in the same place, for the keys of GOT (times within
# the last of their 3 decimals, each side rounded on its own).
same_rows() {
	"$PYTHON" - "$@" <<'PY'
import json, sys
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
if len(got) != len(want):
    sys.exit(f"{len(got)} rows, jaxprof has {len(want)}")
for i, (g, w) in enumerate(zip(got, want)):
    for k, v in g.items():
        if k in ("rank", "hosts"):
            continue
        if k not in w:
            sys.exit(f"row {i}: jaxprof has no {k}")
        ok = (abs(v - w[k]) <= 0.0011
              if isinstance(v, float) or isinstance(w[k], float)
              else v == w[k])
        if not ok:
            sys.exit(f"row {i} ({g.get('host', g.get('name'))}): "
                     f"{k} {v!r}, jaxprof {w[k]!r}")
PY
}

# The top ops jaxprof gives, 20 per run, with the run, for same_rows.
top_json() {
	for run in $(jaxprof sql --format=csv "SELECT DISTINCT run FROM files \
	    ORDER BY run" "$1" | sed 1d); do
		jaxprof top --format=json -n 20 --run="$run" "$1" |
		    RUN=$run "$PYTHON" -c 'import json, os, sys
for r in json.load(sys.stdin):
    print(json.dumps(dict(r, run=os.environ["RUN"])))'
	done | "$PYTHON" -c 'import json, sys
print(json.dumps([json.loads(l) for l in sys.stdin]))'
}

have_hosts=yes
jaxprof hosts --help >/dev/null 2>&1 || have_hosts=

# Both scenarios as two runs of one log folder: one Spark job for both.
logdir=$tmp/logs
for scenario in straggler even; do
	mkdir -p "$logdir/plugins/profile/$scenario"
	cp "$TESTDATA/multihost-$scenario"/plugins/profile/*/host*.xplane.pb \
	    "$logdir/plugins/profile/$scenario/"
done

test_case 'what jaxprof answers on one machine'
top_json "$logdir" >"$tmp/top.json"
if [ -n "$have_hosts" ]; then
	expect_code 0 jaxprof hosts --format=json "$logdir"
	cp "$out" "$tmp/hosts.json"
fi

set --
test_case "DuckDB's answer"
if python_has duckdb; then
	expect_code 0 "$PYTHON" "$SRCDIR/contrib/duckdb/jaxprof_fleet_duckdb.py" \
	    --jaxprof="$JAXPROF" "$logdir" "$tmp/duckdb"
	set -- "$tmp/duckdb"
else
	note_skip "DuckDB: $(install_hint duckdb)"
fi

test_case "the Spark job's answer, in local mode"
if python_has pyspark && command -v java >/dev/null 2>&1; then
	# spark-submit finds PySpark beside the Python first on PATH; Java
	# lists non-ASCII paths only in a UTF-8 locale.
	spark_submit=$(dirname "$PYTHON")/spark-submit
	[ -x "$spark_submit" ] || spark_submit=spark-submit
	PATH=$(dirname "$PYTHON"):$PATH LC_ALL=C.UTF-8 expect_code 0 \
	    "$spark_submit" --master 'local[2]' \
	    --conf spark.sql.shuffle.partitions=2 \
	    --conf spark.ui.enabled=false \
	    "$SRCDIR/contrib/spark/jaxprof_fleet.py" \
	    --jaxprof="$JAXPROF" "$logdir" "$tmp/spark"
	set -- "$@" "$tmp/spark"
	grep -q '^run  *host  *steps  *median_step_us' "$out" ||
	    fail "the Spark job printed no straggler table"
else
	note_skip "Spark: $(install_hint pyspark) and a Java runtime" \
	    "(apt-get install openjdk-17-jre-headless)"
fi

[ $# -gt 0 ] || skip "neither DuckDB nor Spark runs here (see the notes above)"

for got in "$@"; do
	engine=${got##*/}
	test_case "$engine's top ops are jaxprof top's"
	msg=$(same_rows "$got/top_ops.json" "$tmp/top.json" 2>&1) ||
	    fail "$engine: $msg"

	test_case "$engine's straggler table"
	if [ -n "$have_hosts" ]; then
		msg=$(same_rows "$got/stragglers.json" "$tmp/hosts.json" 2>&1) ||
		    fail "$engine: $msg"
	else
		note_skip "the comparison with 'jaxprof hosts' (no hosts" \
		    "command in this build)"
	fi
	# testdata/README.md: host2 sleeps in load_batch in straggler.
	flagged=$("$PYTHON" -c 'import json, sys
print(" ".join(r["run"] + ":" + r["host"]
               for r in json.load(open(sys.argv[1])) if r["straggler"]))' \
	    "$got/stragglers.json")
	[ "$flagged" = straggler:host2 ] ||
	    fail "$engine flags '$flagged', not 'straggler:host2'"
done

test_done
