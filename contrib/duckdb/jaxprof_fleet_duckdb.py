"""The fleet recipe on one machine with DuckDB: `jaxprof export` on every
host file under LOGDIR (several at once), then the queries of contrib/sql/
over the Parquet they wrote, with the views of views.sql beside this file.

    python3 contrib/duckdb/jaxprof_fleet_duckdb.py [--jaxprof PATH] [--jobs N] LOGDIR OUTDIR

Writes what contrib/spark/jaxprof_fleet.py writes (OUTDIR/parquet/,
OUTDIR/stragglers.csv and .json, OUTDIR/top_ops.csv and .json) and prints
the straggler table.  Needs the duckdb Python module (pip install duckdb).
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys

import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import fleet  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jaxprof", default="jaxprof")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("logdir")
    ap.add_argument("outdir")
    args = ap.parse_args()
    out = os.path.abspath(args.outdir)
    parquet = os.path.join(out, "parquet")
    files = fleet.host_files(args.logdir)
    if not files:
        sys.exit(f"jaxprof_fleet_duckdb: no *.xplane.pb under "
                 f"'{args.logdir}'")
    os.makedirs(parquet, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        done = list(pool.map(lambda p: subprocess.run(
            [args.jaxprof, "export", "-o", parquet, p],
            capture_output=True, text=True), files))
    failed = [(p, d) for p, d in zip(files, done) if d.returncode != 0]
    for p, d in failed:
        print(f"jaxprof_fleet_duckdb: export of '{p}' exited "
              f"{d.returncode}: {d.stderr.strip()}", file=sys.stderr)
    if failed:
        sys.exit(2)

    os.chdir(parquet)	# views.sql reads paths relative to it
    con = duckdb.connect()
    with open(os.path.join(HERE, "views.sql")) as f:
        con.execute(f.read())
    for name in fleet.QUERIES:
        rel = con.sql(fleet.query(name))
        columns, rows = rel.columns, rel.fetchall()
        fleet.write_rows(rows, columns, out, name)
    fleet.print_table(rows, columns)


if __name__ == "__main__":
    main()
