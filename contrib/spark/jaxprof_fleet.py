"""The fleet recipe: `jaxprof export` on every host file of a multi-host
run, each in a Spark task where the file is, then the straggler table of
jaxprof-hosts(1) and the top ops over all hosts in Spark SQL, from the
Parquet those tasks wrote.

    spark-submit contrib/spark/jaxprof_fleet.py [--jaxprof PATH] LOGDIR OUTDIR

LOGDIR and OUTDIR are paths every executor sees (a shared file system);
jaxprof must be installed on each (--jaxprof names it where it is not on
PATH).  Writes OUTDIR/parquet/<table>/run=<run>/host=<host>/ (the export,
jaxprof-export(1)), OUTDIR/stragglers.csv and .json (one row per run and
host, the columns of `jaxprof hosts --format=json` but its evidence) and
OUTDIR/top_ops.csv and .json (the 20 first ops of each run by device time,
as `jaxprof top` ranks them, summed over hosts), and prints the straggler
table.  contrib/duckdb/ holds the same queries for DuckDB, on one machine.
"""
import argparse
import os
import subprocess
import sys

from pyspark.sql import SparkSession

# contrib/fleet.py, beside this folder: the driver imports it, the
# executors only run export_file().
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
import fleet  # noqa: E402

def export_file(jaxprof, parquet, path):
    """One Spark task: the export of one host file; (path, status,
    stderr)."""
    done = subprocess.run([jaxprof, "export", "--to=parquet", "-o", parquet,
                           path], capture_output=True, text=True)
    return path, done.returncode, done.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jaxprof", default="jaxprof",
                    help="the jaxprof program on the executors")
    ap.add_argument("logdir")
    ap.add_argument("outdir")
    args = ap.parse_args()
    jaxprof = args.jaxprof
    if os.sep in jaxprof:
        jaxprof = os.path.abspath(jaxprof)
    out = os.path.abspath(args.outdir)
    parquet = os.path.join(out, "parquet")
    files = fleet.host_files(args.logdir)
    if not files:
        sys.exit(f"jaxprof_fleet: no *.xplane.pb under '{args.logdir}'")
    os.makedirs(parquet, exist_ok=True)

    spark = (SparkSession.builder.appName("jaxprof-fleet")
             # Run and host names stay text, whatever they look like.
             .config("spark.sql.sources.partitionColumnTypeInference"
                     ".enabled", "false")
             .getOrCreate())
    # The map: one task per host file, where an executor runs it.
    done = (spark.sparkContext.parallelize(files, len(files))
            .map(lambda p: export_file(jaxprof, parquet, p)).collect())
    failed = [d for d in done if d[1] != 0]
    for path, status, err in failed:
        print(f"jaxprof_fleet: export of '{path}' exited {status}: "
              f"{err.strip()}", file=sys.stderr)
    if failed:
        spark.stop()
        sys.exit(2)

    # The reduce: SQL over every host's tables.
    for table in fleet.TABLES:
        spark.read.parquet(os.path.join(parquet, table)) \
            .createOrReplaceTempView(table)
    for name in fleet.QUERIES:
        df = spark.sql(fleet.query(name))
        columns, rows = df.columns, [list(r) for r in df.collect()]
        fleet.write_rows(rows, columns, out, name)
    spark.stop()
    fleet.print_table(rows, columns)


if __name__ == "__main__":
    main()
