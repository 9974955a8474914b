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
import csv
import json
import os
import subprocess
import sys

from pyspark.sql import SparkSession

# The Parquet tables the queries read.
TABLES = ("steps", "step_collectives", "step_annotations", "ops")

# jaxprof-hosts(1), THE RULE, over the exported tables: one row per run
# and host (contrib/duckdb/stragglers.sql is the same query).
STRAGGLERS_SQL = """
WITH
-- A host's step: the mean of its devices' figures.
host_steps AS (
    SELECT run, host, step, avg(dur_ps) AS dur_ps,
        avg(compute_ps) AS compute_ps, avg(collective_ps) AS collective_ps,
        avg(idle_ps) AS idle_ps
    FROM steps WHERE step IS NOT NULL GROUP BY run, host, step),
hosts AS (
    SELECT run, host, count(*) AS steps,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY dur_ps) AS median_step_ps,
        percentile_cont(0.9) WITHIN GROUP (ORDER BY dur_ps) AS p90_step_ps,
        avg(compute_ps) AS compute_ps, avg(collective_ps) AS collective_ps,
        avg(idle_ps) AS idle_ps
    FROM host_steps GROUP BY run, host),
runs AS (
    SELECT run, count(DISTINCT host) AS nhosts,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY dur_ps) AS median_step_ps
    FROM host_steps GROUP BY run),
-- d(h): a host's duration of one collective of one step, its shortest
-- over its devices, hosts without steps take no part.
arrivals AS (
    SELECT c.run, c.host, c.step, c.name, c.occurrence, min(c.dur_ps) AS d
    FROM step_collectives c
    JOIN hosts h ON h.run = c.run AND h.host = c.host
    GROUP BY c.run, c.host, c.step, c.name, c.occurrence),
-- The collectives two hosts or more ran.
collectives AS (
    SELECT run, step, name, occurrence, min(d) AS min_d,
        max(d) - min(d) AS spread,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS median_d
    FROM arrivals GROUP BY run, step, name, occurrence
    HAVING count(*) >= 2),
-- Each joined step's deciding collective: the largest spread, the first
-- in op name and occurrence order among equals.
deciders AS (
    SELECT *, row_number() OVER (PARTITION BY run, step
        ORDER BY spread DESC, name, occurrence) AS pick
    FROM collectives),
-- Its last host: the shortest d, the first host in name order among
-- equals, its lateness: the median d minus the last host's.
lasts AS (
    SELECT a.run, a.step, a.host, k.median_d - k.min_d AS lateness,
        row_number() OVER (PARTITION BY a.run, a.step
            ORDER BY a.d, a.host) AS pick
    FROM arrivals a
    JOIN deciders k ON k.run = a.run AND k.step = a.step
        AND k.name = a.name AND k.occurrence = a.occurrence
    WHERE k.pick = 1),
joined AS (
    SELECT run, count(*) AS joined_steps FROM lasts WHERE pick = 1
    GROUP BY run),
last_counts AS (
    SELECT run, host, count(*) AS last_steps,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY lateness) AS lateness_ps
    FROM lasts WHERE pick = 1 GROUP BY run, host),
-- wait of h: d(h) minus the shortest d, over every collective it ran.
waits AS (
    SELECT a.run, a.host, sum(a.d - c.min_d) AS wait_ps
    FROM arrivals a
    JOIN collectives c ON c.run = a.run AND c.step = a.step
        AND c.name = a.name AND c.occurrence = a.occurrence
    GROUP BY a.run, a.host),
-- The host's annotation with the most time over its steps.
annotations AS (
    SELECT run, host, name, sum(dur_ps) AS total_ps,
        row_number() OVER (PARTITION BY run, host
            ORDER BY sum(dur_ps) DESC, name) AS pick
    FROM step_annotations GROUP BY run, host, name),
rows AS (
    SELECT h.run, h.host, h.steps, h.median_step_ps, h.p90_step_ps,
        h.compute_ps, h.collective_ps,
        coalesce(w.wait_ps, 0) / h.steps AS wait_ps, h.idle_ps,
        a.name AS top_annotation, a.total_ps / h.steps AS annotation_ps,
        coalesce(l.last_steps, 0) AS last_steps,
        coalesce(j.joined_steps, 0) AS joined_steps,
        coalesce(l.lateness_ps, 0) AS lateness_ps,
        r.nhosts, r.median_step_ps AS run_median_step_ps
    FROM hosts h
    JOIN runs r ON r.run = h.run
    LEFT JOIN waits w ON w.run = h.run AND w.host = h.host
    LEFT JOIN last_counts l ON l.run = h.run AND l.host = h.host
    LEFT JOIN joined j ON j.run = h.run
    LEFT JOIN annotations a ON a.run = h.run AND a.host = h.host
        AND a.pick = 1)
SELECT run, host, steps,
    round(median_step_ps / 1e6, 3) AS median_step_us,
    round(p90_step_ps / 1e6, 3) AS p90_step_us,
    round(compute_ps / 1e6, 3) AS compute_us,
    round(collective_ps / 1e6, 3) AS collective_us,
    round(wait_ps / 1e6, 3) AS wait_us,
    round(greatest(collective_ps - wait_ps, 0) / 1e6, 3) AS transfer_us,
    round(idle_ps / 1e6, 3) AS idle_us,
    CASE WHEN annotation_ps >= 100e6 THEN top_annotation ELSE '' END
        AS idle_in,
    CASE WHEN annotation_ps >= 100e6 THEN round(annotation_ps / 1e6, 3)
        ELSE 0 END AS idle_in_us,
    last_steps, joined_steps,
    round(lateness_ps / 1e6, 3) AS lateness_us,
    nhosts >= 2 AND joined_steps > 0
        AND last_steps >= 0.6 * joined_steps
        AND lateness_ps >= 1e9
        AND lateness_ps >= 0.1 * run_median_step_ps AS straggler
FROM rows
ORDER BY run, host"""

# Ops by device time over all hosts of each run, as `jaxprof top` ranks
# them on one machine (contrib/duckdb/top_ops.sql is the same query).
TOP_OPS_SQL = """
WITH
run_ops AS (SELECT * FROM ops WHERE NOT compile_work),
totals AS (SELECT run, sum(total_ps) AS all_ps FROM run_ops GROUP BY run),
per_op AS (
    SELECT run, name, module, min(category) AS category,
        count(DISTINCT host) AS hosts, sum(count) AS count,
        sum(total_ps) AS total_ps, sum(self_ps) AS self_ps,
        min(min_ps) AS min_ps, max(max_ps) AS max_ps
    FROM run_ops GROUP BY run, name, module),
ranked AS (
    SELECT p.*, t.all_ps, row_number() OVER (PARTITION BY p.run
        ORDER BY p.total_ps DESC, p.name, p.module) AS rank
    FROM per_op p JOIN totals t ON t.run = p.run)
SELECT run, rank, name, module, category, hosts, count,
    round(total_ps / 1e6, 3) AS total_us,
    round(self_ps / 1e6, 3) AS self_us,
    round(total_ps / count / 1e6, 3) AS avg_us,
    round(min_ps / 1e6, 3) AS min_us,
    round(max_ps / 1e6, 3) AS max_us,
    round(100 * total_ps / all_ps, 2) AS percent
FROM ranked WHERE rank <= 20
ORDER BY run, rank
"""


def host_files(logdir):
    """The XSpace files under logdir, one per host and run, as absolute
    paths in a fixed order."""
    found = []
    for root, dirs, files in os.walk(os.path.abspath(logdir)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".xplane.pb", ".xplane.pb.gz")):
                found.append(os.path.join(root, name))
    return found


def export_file(jaxprof, parquet, path):
    """One Spark task: the export of one host file; (path, status,
    stderr)."""
    done = subprocess.run([jaxprof, "export", "--to=parquet", "-o", parquet,
                           path], capture_output=True, text=True)
    return path, done.returncode, done.stderr


def write_rows(rows, columns, out, name):
    """rows as OUTDIR/name.csv and OUTDIR/name.json (a list of objects)."""
    with open(os.path.join(out, name + ".csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        for r in rows:
            w.writerow(["true" if v is True else "false" if v is False
                        else "" if v is None else v for v in r])
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump([dict(zip(columns, r)) for r in rows], f, indent=1)
        f.write("\n")


def print_table(rows, columns):
    """rows as aligned text on stdout."""
    cells = [columns] + [["" if v is None else str(v).lower()
                          if isinstance(v, bool) else str(v) for v in r]
                         for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(columns))]
    for c in cells:
        print("  ".join(v.ljust(w) for v, w in zip(c, widths)).rstrip())


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
    files = host_files(args.logdir)
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
    for table in TABLES:
        spark.read.parquet(os.path.join(parquet, table)) \
            .createOrReplaceTempView(table)
    results = {}
    for name, sql in (("stragglers", STRAGGLERS_SQL),
                      ("top_ops", TOP_OPS_SQL)):
        df = spark.sql(sql)
        results[name] = (df.columns, [list(r) for r in df.collect()])
        write_rows(results[name][1], results[name][0], out, name)
    spark.stop()
    columns, rows = results["stragglers"]
    print_table(rows, columns)


if __name__ == "__main__":
    main()
