"""The fleet recipe on one machine with DuckDB: `jaxprof export` on every
host file under LOGDIR (several at once), then stragglers.sql and
top_ops.sql beside this file over the Parquet they wrote.

    python3 contrib/duckdb/jaxprof_fleet_duckdb.py [--jaxprof PATH] [--jobs N] LOGDIR OUTDIR

Writes what contrib/spark/jaxprof_fleet.py writes (OUTDIR/parquet/,
OUTDIR/stragglers.csv and .json, OUTDIR/top_ops.csv and .json) and prints
the straggler table.  Needs the duckdb Python module (pip install duckdb).
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys

import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))


def host_files(logdir):
    """The XSpace files under logdir, absolute, in a fixed order."""
    found = []
    for root, dirs, files in os.walk(os.path.abspath(logdir)):
        dirs.sort()
        found += [os.path.join(root, f) for f in sorted(files)
                  if f.endswith((".xplane.pb", ".xplane.pb.gz"))]
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jaxprof", default="jaxprof")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("logdir")
    ap.add_argument("outdir")
    args = ap.parse_args()
    out = os.path.abspath(args.outdir)
    parquet = os.path.join(out, "parquet")
    files = host_files(args.logdir)
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

    os.chdir(parquet)	# the .sql files read paths relative to it
    con = duckdb.connect()
    # The straggler table last: it is the one printed.
    for name in ("top_ops", "stragglers"):
        rel = con.sql(open(os.path.join(HERE, name + ".sql")).read())
        columns, rows = rel.columns, rel.fetchall()
        with open(os.path.join(out, name + ".csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(columns)
            w.writerows([["true" if v is True else "false" if v is False
                          else "" if v is None else v for v in r]
                         for r in rows])
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump([dict(zip(columns, r)) for r in rows], f, indent=1)
            f.write("\n")
    cells = [columns] + [["" if v is None else str(v).lower()
                          if isinstance(v, bool) else str(v) for v in r]
                         for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(columns))]
    for c in cells:
        print("  ".join(v.ljust(w) for v, w in zip(c, widths)).rstrip())


if __name__ == "__main__":
    main()
